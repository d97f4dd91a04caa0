"""The takes (TURN-03): the draw, the row (RUPE-*) and the atu (ATU-06), with the
engine's own checks around :mod:`remi_rules.rupere` (the table for a lay-off, the rack
cap) and whether anything can be taken at all (END-01)."""

from __future__ import annotations

import functools

import attrs

from .. import joly, rupere
from .._partition import counts_of
from .._slots import maker, replacer
from ..errors import (
    IllegalStepError,
    InvalidTakeError,
    StepErrorCode,
    TakeErrorCode,
)
from ..opening import min_rack_after_opening
from ..ruleset import (
    Ruleset,
    StockExhausted,
)
from ..rupere import TakeObligation
from ..solver import opening_split
from ..turn_plans import can_open_with
from ._common import layable_ids, refuse, replace_seat, wrap
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


@functools.lru_cache(maxsize=64)
def _any_meld_rules(rules: Ruleset) -> Ruleset:
    """``rules`` where any valid meld with the picked tile and a rack tile counts."""
    return attrs.evolve(rules, take_meld_min_own_tiles=1, take_meld_tiles_must_predate_take=False)


def _usable_for_layoff(state: GameState, index: int) -> bool:
    """``take_discard_may_layoff``: the row tile at ``index`` fits a meld on the table,
    or makes a meld with rack tiles (or onto one made of them this turn)."""
    picked = state.row[index]
    if layable_ids(state, (picked,), state.current):
        return True
    seat = state.seats[state.current]
    return rupere.can_justify(
        picked,
        seat.rack,
        _any_meld_rules(state.rules),
        also_taken=state.row[index + 1 :],
        jokers=state.table.jokers,
    )


def verify_atu_take(state: GameState, step: Step) -> None:
    if not state.atu_face_up:
        raise refuse(S.ATU_ALREADY_TAKEN, step)
    seat = state.seats[state.current]
    ctx = context_of_state(state, True)  # ATU-06: whoever takes the atu closes

    def verify(layable: tuple[int, ...]) -> None:
        rupere.verify_take_atu(ctx, atu=state.atu, rack=seat.rack, layable=layable)

    try:
        verify(())
    except InvalidTakeError as err:
        # Lay-offs may complete the close: only then is it worth listing them.
        if err.code is not TakeErrorCode.CANNOT_CLOSE or not seat.opened:
            raise wrap(err, step) from None
        layable = layable_ids(state, seat.rack, state.current)
        if not layable:
            raise wrap(err, step) from None
        try:
            verify(layable)
        except InvalidTakeError as err2:
            raise wrap(err2, step) from None


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


def take_row_step(
    state: GameState, step: TakeLastDiscard | Rupere
) -> tuple[GameState, list[Event]]:
    seat, turn = check_take_phase(state, step)
    if isinstance(step, Rupere):
        index = step.index
        if state.row and index == len(state.row) - 1:
            raise refuse(S.RUPERE_IS_LAST_DISCARD, step, index=index)
    else:
        index = len(state.row) - 1
    verify_row_take(state, index, step)
    result = rupere.take(state.row, index, seat.rack)
    new = _after_take(
        state, seat, turn, step, rack=result.rack, obligation=result.obligation, row=result.row
    )
    return new, [TookFromRow(state.current, index, result.taken)]


def take_atu_step(state: GameState, step: TakeAtu) -> tuple[GameState, list[Event]]:
    seat, turn = check_take_phase(state, step)
    verify_atu_take(state, step)
    result = rupere.take_atu(state.atu, seat.rack)
    new = _after_take(
        state, seat, turn, step, rack=result.rack, obligation=result.obligation, atu_face_up=False
    )
    return new, [TookAtu(state.current, state.atu)]


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


def obligation_still_possible(state: GameState) -> bool:
    """For a pending turn with a take from the row or of the atu: whether its
    obligation (RUPE-01/08) can still be met from the rack as it is now, leaving a tile
    to end the turn with, and, for a player who had not opened, his opening too
    (OPEN-06: the melds put down this turn count toward it).  The engine's undo cap
    uses it: past the cap, a step after which this is false, while the turn cannot
    end, would strand the turn.  A pe-tablă declarer's turn (his take must close) is
    not judged: True."""
    turn = state.pending
    if turn is None or turn.obligation is None:
        return True
    ob = turn.obligation
    seat = state.seats[state.current]
    rules = state.rules
    if seat.declared_pe_tabla and rules.pe_tabla_enabled:
        return True
    rack = set(seat.rack)
    table = state.table
    # JOLY-04: a joker swapped this turn and put down outside its new melds stays there
    unmelded = joly.swapped_jokers_unmelded(table, turn.swapped_jokers, turn.new_melds, rules)
    if any(j not in rack for j in unmelded):
        return False
    placed = [table.melds[m].meld for m in turn.new_melds]
    if ob.picked not in rack:
        if turn.opened_before:
            return False  # put down, and the turn still cannot end
        met = rupere.obligation_met(
            ob,
            [table.melds[m].ids for m in turn.new_melds],
            rules,
            laid_off=turn.laid_off,
            acquired_later=turn.swapped_jokers,
            opened_before_this_turn=False,
            jokers=table.jokers,
        )
        if not met:
            return False
        counts = counts_of(table.tile(i) for i in seat.rack)
        keep = min_rack_after_opening(rules)
        return opening_split(counts, rules, min_leftover=keep, melded=placed) is not None
    laid = rules.take_discard_may_layoff and turn.opened_before
    if laid and layable_ids(state, (ob.picked,), state.current):
        return True
    own = [i for i in ob.rack_before_take if i in rack]
    also = [i for i in ob.also_taken if i in rack]
    # a joker swapped before the take is already among the rack's own tiles
    later = [i for i in turn.swapped_jokers if i in rack and i not in own and i not in also]
    if not turn.opened_before:
        return can_open_with(
            ob.picked, own, rules, also_taken=[*also, *later], jokers=table.jokers, melded=placed
        )
    return rupere.can_justify(
        ob.picked,
        own,
        rules,
        also_taken=also,
        acquired_later=later,
        min_left=1,
        jokers=table.jokers,
    )
