"""The takes (TURN-03): the draw, the row (RUPE-*) and the atu (ATU-06), with the
engine's own checks around :mod:`remi_rules.rupere` (the table for a lay-off, the rack
cap) and whether anything can be taken at all (END-01)."""

from __future__ import annotations

import functools

import attrs

from .. import rupere
from .._slots import maker, replacer
from .._take_melds import justifying, valuer
from ..errors import (
    IllegalStepError,
    InvalidTakeError,
    StepErrorCode,
    TakeErrorCode,
)
from ..lipire import extends, might_fit
from ..melds import MeldKind, arrange_meld
from ..ruleset import (
    Ruleset,
    StockExhausted,
)
from ..rupere import TakeObligation
from ..table import JokerState
from ..tiles import JOKER_IDS, Tile
from ._common import handles, layable_ids, refuse, replace_seat, wrap
from .deal import Chance
from .events import (
    Drew,
    Event,
    StockReshuffled,
    TookAtu,
    TookFromRow,
)
from .state import (
    GameState,
    Phase,
    SeatState,
    TurnState,
    context_of_state,
    evolve_seat,
    evolve_state,
    evolve_turn,
)
from .steps import (
    Draw,
    Rupere,
    Step,
    TakeAtu,
    TakeKind,
    TakeLastDiscard,
)

S = StepErrorCode
# Enum members as module constants: a class attribute lookup through the enum's
# metaclass costs several times a global's on the hot path (CPython 3.11).
_ACTION = Phase.ACTION
_RESHUFFLE = StockExhausted.RESHUFFLE_DISCARDS


# -- takes ------------------------------------------------------------------------------------


def check_take_phase(state: GameState, step: Step) -> tuple[SeatState, TurnState]:
    turn = state.pending
    assert turn is not None
    if turn.number == 1 and turn.took is None:
        raise refuse(S.STARTER_FIRST_TURN, step)
    if turn.took is not None:
        raise refuse(S.ALREADY_TOOK, step)
    return state.seats[state.current], turn


def can_reshuffle(state: GameState) -> bool:
    return state.rules.stock_exhausted is _RESHUFFLE and len(state.row) >= 2


def verify_row_take(state: GameState, index: int, step: Step) -> None:
    """The take of row position ``index`` now: the rupere module's checks, then the
    ones only the engine can make (the table for a lay-off, the rack cap)."""
    seat = state.seats[state.current]
    rules = state.rules
    try:
        rupere.verify_take(
            state.row, index, len(seat.rack), context_of_state(state), rack=seat.rack
        )
    except InvalidTakeError as err:
        if err.code is TakeErrorCode.CANNOT_CLOSE and seat.declared_pe_tabla:
            # RUPE-07: a declarer takes from the row only in his closing turn, and this
            # cannot be it.
            err = InvalidTakeError(TakeErrorCode.PE_TABLA_NOT_CLOSING, **dict(err.details))
        raise wrap(err, step) from None
    declarer = seat.declared_pe_tabla and rules.pe_tabla_enabled
    if declarer:
        return  # his take must close (RUPE-07): no lay-off, no cap at a close
    keeps = rules.take_discard_without_meld_declares_pe_tabla and rules.pe_tabla_enabled
    keeps = keeps and not seat.opened
    if seat.opened and rules.take_discard_may_layoff and not _usable_for_layoff(state, index):
        # RUPE-08: a take nothing can be done with is illegal as a whole (rupere.verify_take
        # leaves the lay-off to the lay-off rules; the engine sees the table).
        tile = str(state.table.tile(state.row[index]))
        useless = InvalidTakeError(
            TakeErrorCode.CANNOT_JUSTIFY, index=index, tile=tile, own=rules.take_meld_min_own_tiles
        )
        raise wrap(useless, step)
    limit = rules.max_rack_after_turn
    if limit is not None:
        # TURN-10 with a cap: the take must leave a rack the cap allows once its own
        # obligation is met (the new meld of the picked tile and its rack tiles, or
        # the lay-off, or nothing when keeping it declares pe tablă) and a tile is
        # discarded; else the turn could be stuck above the cap.
        if keeps:
            down = 0
        elif seat.opened and rules.take_discard_may_layoff:
            down = 1
        else:
            down = max(3, 1 + rules.take_meld_min_own_tiles)
        left = len(seat.rack) + len(state.row) - index - down - 1
        if left > limit:
            raise refuse(S.RACK_OVER_MAX, step, rack=left, maximum=limit)


def _may_justify(picked: Tile, rack: list[Tile], others: list[Tile], rules: Ruleset) -> bool:
    """A cheap necessary condition for a meld of ``picked`` with
    ``take_meld_min_own_tiles`` own tiles (RUPE-01/06): enough own tiles that could sit
    in one meld with it: jokers (where they count as own), plus the more of its rank
    in other colours, or of its colour in the ranks a run through it could span (every
    rank held in that colour, own or taken, and a gap on each side for each joker).
    ``rack``: the tiles that count as own; ``others``: the other taken tiles."""
    need = rules.take_meld_min_own_tiles
    if picked.is_joker:
        return len(rack) >= need
    acts = picked.acts_as
    assert acts is not None and acts.rank is not None
    rank, color = acts.rank, acts.color
    own_jokers = sum(1 for t in rack if t.is_joker)
    jokers = own_jokers + sum(1 for t in others if t.is_joker)
    counted = own_jokers if rules.take_meld_joker_counts_as_own else 0
    if counted >= need:
        return True
    same_rank: set[object] = set()
    own_ranks: set[int] = set()
    held: set[int] = {rank}
    for tile in (*rack, *others):
        other = tile.acts_as
        if tile.is_joker or other is None or other.rank is None or other.color is not color:
            continue
        held.add(other.rank)
    for tile in rack:
        other = tile.acts_as
        if tile.is_joker or other is None or other.rank is None:
            continue
        if other.rank == rank and other.color is not color:
            same_rank.add(other.color)
        elif other.color is color and other.rank != rank:
            own_ranks.add(other.rank)
    if counted + len(same_rank) >= need:
        return True
    if rules.ace_high_run and 1 in held:
        held.add(14)
    for start in {rank, 14} if rank == 1 and rules.ace_high_run else {rank}:
        low = high = start
        spare = jokers
        while low - 1 >= 1 and (low - 1 in held or spare):
            spare -= low - 1 not in held
            low -= 1
        spare = jokers
        while high + 1 <= 14 and (high + 1 in held or spare):
            spare -= high + 1 not in held
            high += 1
        span = {r if r != 14 else 1 for r in range(low, high + 1)} - {rank}
        if counted + len(own_ranks & span) >= need:
            return True
    return False


def _may_close(state: GameState, tiles: list[Tile], lay_offs: bool) -> bool:
    """A cheap necessary condition for closing this turn with ``tiles`` (the rack and
    what was taken): every tile but one goes into a meld or onto one, so at most one
    may be *isolated*: no other of these tiles of its rank in another colour or of
    its colour within two ranks (a meld of three holds one such), and (``lay_offs``)
    fitting no meld on the table.  Two jokers or more: not judged."""
    if sum(1 for t in tiles if t.is_joker) >= 2:
        return True
    ace_high = state.rules.ace_high_run
    acts = [t.acts_as for t in tiles]
    melds = state.table.melds
    isolated = 0
    for k, tile in enumerate(tiles):
        me = acts[k]
        if me is None or me.rank is None:
            continue  # a free joker goes anywhere
        near = False
        for j, other in enumerate(acts):
            if j == k or other is None or other.rank is None:
                continue
            if other.rank == me.rank:
                near = other.color is not me.color
            elif other.color is me.color:
                gap = abs(other.rank - me.rank)
                if ace_high and 1 in (me.rank, other.rank):
                    gap = min(gap, 14 - max(me.rank, other.rank))
                near = gap <= 2
            if near:
                break
        if near:
            continue
        if lay_offs and any(might_fit(tile, meld) for meld in melds):
            continue
        isolated += 1
        if isolated > 1:
            return False
    return True


def row_take_indexes(state: GameState) -> list[int]:
    """The row positions the player to move may take now (:func:`verify_row_take`),
    sharing the work across positions: the checks that need no rack in one pass
    (:func:`~remi_rules.rupere.take_options`), then a cheap necessary condition for
    the taken tile's meld (:func:`_may_justify`) before the exact check."""
    seat = state.seats[state.current]
    rules = state.rules
    row = state.row
    ctx = context_of_state(state)
    positions = rupere.take_options(row, len(seat.rack), ctx)
    if not positions:
        return []
    declarer = ctx.pe_tabla
    keeps = rules.take_discard_without_meld_declares_pe_tabla and rules.pe_tabla_enabled
    meld_only = not declarer and not (seat.opened and rules.take_discard_may_layoff)
    meld_only = meld_only and not (keeps and not seat.opened)
    value = state.table.tile
    rack = [value(i) for i in seat.rack]
    predate = rules.take_meld_tiles_must_predate_take
    out: list[int] = []
    probe = TakeLastDiscard()
    lay_offs = rules.pe_tabla_layoff_on_others
    for index in positions:
        if meld_only or declarer:
            others = [value(i) for i in row[index + 1 :]]
            own = rack if predate else [*rack, *others]
            if not _may_justify(value(row[index]), own, others, rules):
                continue
            if declarer and not _may_close(state, [*rack, value(row[index]), *others], lay_offs):
                continue
        try:
            verify_row_take(state, index, probe)
        except IllegalStepError:
            continue
        out.append(index)
    return out


@functools.lru_cache(maxsize=64)
def _any_meld_rules(rules: Ruleset) -> Ruleset:
    """``rules`` where any valid meld with the picked tile and a rack tile counts."""
    return attrs.evolve(rules, take_meld_min_own_tiles=1, take_meld_tiles_must_predate_take=False)


def _usable_for_layoff(state: GameState, index: int) -> bool:
    """``take_discard_may_layoff``: the take's obligation can be met (RUPE-01, RUPE-08).
    The row tile at ``index`` fits a meld on the table; or it is in a new meld the
    obligation accepts (:func:`~remi_rules.rupere.can_justify`, its own tiles
    counted); or it can be laid off on a new meld made this turn of other tiles (the
    rack's and the rupere's): a meld of four tiles or more holding it whose other
    tiles are a meld it extends as that meld is read (:func:`~remi_rules.lipire.extends`:
    ``11R J 13R`` takes no 12R, its joker stands there).  (A three-tile meld holding
    it is the meld the obligation judges, so its own tiles count there.)"""
    picked = state.row[index]
    if layable_ids(state, (picked,), state.current):
        return True
    seat = state.seats[state.current]
    also = state.row[index + 1 :]
    jokers = state.table.jokers
    rules = state.rules
    if rupere.can_justify(picked, seat.rack, rules, also_taken=also, jokers=jokers):
        return True
    value = valuer(jokers)
    left = len(seat.rack) + len(also)  # the tiles besides the picked one
    tile = value(picked)
    for ids, _ in justifying(picked, seat.rack, _any_meld_rules(rules), also, (), value):
        if 4 <= len(ids) <= left:
            others = [i for i in ids if i != picked]
            closed = _reused_joker_trio(others, state)  # as a set, it takes no lay-off
            for meld in arrange_meld(map(value, others), rules):
                if extends(meld, tile, rules) and not (closed and meld.kind is MeldKind.TERTA):
                    return True
    return False


def _reused_joker_trio(ids: list[int], state: GameState) -> bool:
    """LIPI-07 without ``layoff_on_3set_with_reused_joker``: ``ids`` are two numbered
    tiles and a joker taken off the table as often as it may be, which as a set would
    take no lay-off."""
    if state.rules.layoff_on_3set_with_reused_joker:
        return False
    jokers = [i for i in ids if i in JOKER_IDS]
    if len(ids) != 3 or len(jokers) != 1:
        return False
    return state.table.joker(jokers[0]).state(state.rules) is JokerState.REUSED


def may_take_atu(state: GameState) -> bool:
    """A cheap necessary condition for :func:`verify_atu_take` (the legal-step
    generator asks it first): the checks that need no rack, a meld for the atu with
    enough own tiles (:func:`_may_justify`) and a close that is not out of reach
    (:func:`_may_close`)."""
    if not state.atu_face_up:
        return False
    try:
        rupere.verify_take_atu(context_of_state(state, True))
    except InvalidTakeError:
        return False
    value = state.table.tile
    rack = [value(i) for i in state.seats[state.current].rack]
    atu = value(state.atu)
    if not _may_justify(atu, rack, [], state.rules):
        return False
    return _may_close(state, [*rack, atu], True)


def verify_atu_take(state: GameState, step: Step) -> None:
    if not state.atu_face_up:
        raise refuse(S.ATU_ALREADY_TAKEN, step)
    seat = state.seats[state.current]
    ctx = context_of_state(state, True)  # ATU-06: whoever takes the atu closes

    def verify(layable: tuple[int, ...]) -> None:
        rupere.verify_take_atu(ctx, atu=state.atu, rack=seat.rack, layable=layable)

    try:
        # The checks that need no rack, then the close asked once: with the lay-offs
        # an opened seat may make (they only add ways to close, so the same verdict as
        # asking without them first).
        rupere.verify_take_atu(ctx)
        verify(layable_ids(state, seat.rack, state.current) if seat.opened else ())
    except InvalidTakeError as err:
        raise wrap(err, step) from None


def _after_take(
    state: GameState,
    seat: SeatState,
    turn: TurnState,
    step: Step,
    *,
    rack: tuple[int, ...],
    obligation: TakeObligation | None = None,
    **changes: object,
) -> GameState:
    new_seat = evolve_seat(seat, rack=rack, has_taken=True)
    new_turn = evolve_turn(turn, took=step.take, obligation=obligation, steps=turn.steps + 1)
    return evolve_state(
        state,
        seats=replace_seat(state, state.current, new_seat),
        pending=new_turn,
        phase=Phase.ACTION,
        **changes,
    )


@handles(Draw, chance=True)
def draw_step(state: GameState, step: Draw, chance: Chance) -> tuple[GameState, list[Event]]:
    seat, turn = check_take_phase(state, step)
    events: list[Event] = []
    stock, row, dead = state.stock, state.row, state.row_dead_first
    if not stock:
        if not can_reshuffle(state):
            raise refuse(S.STOCK_EMPTY, step)
        stock = chance.shuffle(row[:-1])
        row, dead = row[-1:], False
        events.append(StockReshuffled(stock))
    tile = stock[0]
    current = state.current
    seats = list(state.seats)
    seats[current] = _drawn_seat(seat, (*seat.rack, tile), True)
    pending = _drawn_turn(turn, TakeKind.DRAW, turn.steps + 1)
    new = _drawn_state(state, tuple(seats), pending, _ACTION, stock[1:], row, dead)
    events.append(_drew(current, tile))
    return new, events


# The draw's copies (its fields, then the values in that order; the hot path).
_drawn_seat = replacer(SeatState, "rack", "has_taken")


_drawn_turn = replacer(TurnState, "took", "steps")


_drawn_state = replacer(GameState, "seats", "pending", "phase", "stock", "row", "row_dead_first")


def _taken_from_row(
    state: GameState, step: TakeLastDiscard | Rupere
) -> tuple[GameState, list[Event]]:
    """The take from the row (its checks made: :func:`take_row_step`)."""
    index = step.index if isinstance(step, Rupere) else len(state.row) - 1
    seat = state.seats[state.current]
    turn = state.pending
    assert turn is not None
    result = rupere.take(state.row, index, seat.rack)
    new = _after_take(
        state, seat, turn, step, rack=result.rack, obligation=result.obligation, row=result.row
    )
    return new, [TookFromRow(state.current, index, result.taken)]


@handles(TakeLastDiscard, Rupere, listed=_taken_from_row)
def take_row_step(
    state: GameState, step: TakeLastDiscard | Rupere
) -> tuple[GameState, list[Event]]:
    check_take_phase(state, step)
    if isinstance(step, Rupere):
        index = step.index
        if state.row and index == len(state.row) - 1:
            raise refuse(S.RUPERE_IS_LAST_DISCARD, step, index=index)
    else:
        index = len(state.row) - 1
    verify_row_take(state, index, step)
    return _taken_from_row(state, step)


def _atu_taken(state: GameState, step: TakeAtu) -> tuple[GameState, list[Event]]:
    """The take of the atu (its checks made: :func:`take_atu_step`)."""
    seat = state.seats[state.current]
    turn = state.pending
    assert turn is not None
    result = rupere.take_atu(state.atu, seat.rack)
    new = _after_take(
        state, seat, turn, step, rack=result.rack, obligation=result.obligation, atu_face_up=False
    )
    return new, [TookAtu(state.current, state.atu)]


@handles(TakeAtu, listed=_atu_taken)
def take_atu_step(state: GameState, step: TakeAtu) -> tuple[GameState, list[Event]]:
    check_take_phase(state, step)
    verify_atu_take(state, step)
    return _atu_taken(state, step)


_drew = maker(Drew)


def any_row_take(state: GameState) -> bool:
    """END-01: can the current player take anything from the row or the atu?"""
    probe = TakeLastDiscard()
    seat = state.seats[state.current]
    # The checks that need no rack: one pass over the row.
    positions = rupere.take_options(state.row, len(seat.rack), context_of_state(state))
    for index in positions:
        try:
            verify_row_take(state, index, probe)
        except IllegalStepError:
            continue
        return True
    if state.atu_face_up:
        try:
            verify_atu_take(state, TakeAtu())
        except IllegalStepError:
            return False
        return True
    return False
