"""The rules of the round as a pure function: ``apply_step(state, step, chance)``
returns the next :class:`~remi_rules.engine.state.GameState` and the events, or raises
:class:`~remi_rules.IllegalStepError` and changes nothing.

This is where the engine calls the turn-rule modules (rupere, lipire, joly, opening,
closing) and adds what only the engine can know: whose turn it is, the turn's phase,
the turn-spanning constraints checked when the turn ends (RUPE-01, OPEN-02/03,
JOLY-04, ATU-06, CLOSE-06), the announcement and declaration windows (ANNOUNCE-02,
ATU-02, CLOSE-06), the doubles (DUBLE-*), the deal (DEAL-*) and the end of the round
(CLOSE-07, END-01/02/04).
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import attrs

from .. import closing, joly, lipire, opening, rupere
from .._slots import maker, replacer
from ..errors import (
    EngineArgumentError,
    EngineErrorCode,
    IllegalStepError,
    InvalidClosingError,
    InvalidLayoffError,
    InvalidMeldError,
    InvalidOpeningError,
    InvalidStateError,
    InvalidSwapError,
    InvalidTakeError,
    LayoffErrorCode,
    RemiError,
    StateErrorCode,
    StepErrorCode,
    TakeErrorCode,
)
from ..melds import analyze_meld
from ..ruleset import (
    AceDoubleClass,
    AtuBonusTrigger,
    ClosingTileMode,
    DoublesExchangeUnit,
    Ruleset,
    StockExhausted,
    require_ruleset,
)
from ..rupere import ObligationOutcome, TakeObligation
from ..table import Table
from ..tiles import JOKER_IDS, tile_of
from .events import (
    Announced,
    AnnouncementMissed,
    AtuReturned,
    Dealt,
    Discarded,
    DoublesExchanged,
    Drew,
    EndReason,
    Event,
    JokerSwapped,
    LaidOff,
    Melded,
    PeTablaDeclared,
    RoundEnded,
    StockReshuffled,
    TookAtu,
    TookFromRow,
    TurnStarted,
)
from .state import (
    GameState,
    Phase,
    RoundEnd,
    SeatState,
    TurnState,
    evolve_seat,
    evolve_state,
    evolve_turn,
)
from .steps import (
    AnnounceAtu,
    AnnounceFewTiles,
    Close,
    DeclarePeTabla,
    DemandRedeal,
    Discard,
    Draw,
    ExchangeDoubles,
    LayOff,
    MeldTiles,
    Rupere,
    Step,
    SwapJoker,
    TakeAtu,
    TakeLastDiscard,
    Undo,
    tile_label,
)

__all__ = [
    "Chance",
    "NoChance",
    "RandomChance",
    "ScriptedChance",
    "apply_step",
    "deal",
    "double_class",
    "doubles_of",
]

S = StepErrorCode
# Enum members as module constants: a class attribute lookup through the enum's
# metaclass costs several times a global's on the hot path (CPython 3.11).
_ACTION, _TAKE, _OVER = Phase.ACTION, Phase.TAKE, Phase.OVER
_KEEP = ClosingTileMode.KEEP
_RESHUFFLE = StockExhausted.RESHUFFLE_DISCARDS


# -- chance ---------------------------------------------------------------------------------


class Chance(Protocol):
    """The only source of randomness: a shuffle of some tile ids.  Each call is one
    recorded chance outcome."""

    def shuffle(self, ids: tuple[int, ...]) -> tuple[int, ...]: ...


@attrs.define
class RandomChance:
    """Shuffles with a :class:`random.Random` (uniform, Fisher-Yates)."""

    rng: random.Random

    def shuffle(self, ids: tuple[int, ...]) -> tuple[int, ...]:
        out = list(ids)
        self.rng.shuffle(out)
        return tuple(out)


class NoChance:
    """For checking a step without applying it: a "shuffle" that keeps the order and
    consumes nothing (legality never depends on a chance outcome)."""

    def shuffle(self, ids: tuple[int, ...]) -> tuple[int, ...]:
        return ids


@attrs.define
class ScriptedChance:
    """Replays recorded outcomes in order; refuses an outcome that is not a
    permutation of the ids being shuffled (a corrupt record)."""

    outcomes: list[tuple[int, ...]]
    position: int = 0

    def shuffle(self, ids: tuple[int, ...]) -> tuple[int, ...]:
        if self.position >= len(self.outcomes):
            raise InvalidStateError(
                StateErrorCode.BAD_RECORD, path="record.chance", why="chance_missing"
            )
        out = self.outcomes[self.position]
        if sorted(out) != sorted(ids):
            raise InvalidStateError(
                StateErrorCode.BAD_RECORD,
                path=f"record.chance[{self.position}]",
                why="chance_not_permutation",
            )
        self.position += 1
        return tuple(out)


# -- the deal -------------------------------------------------------------------------------


def deal(
    rules: Ruleset,
    players: int,
    order: Sequence[int],
    *,
    dealer: int,
    starter: int,
    chance: Chance,
) -> tuple[GameState, tuple[Event, ...]]:
    """The state after dealing ``order`` (106 ids: the racks of seats 0, 1, … with the
    starter's ``hand_sizes[0]`` tiles and ``hand_sizes[1]`` for the others, then the
    atu, then the stock top first; DEAL-02/03/04).  A joker turned up as the atu where
    ``atu_may_be_joker`` is false goes back into the stock, which is shuffled, and the
    next tile is turned (DEAL-03 PROPOSAL): a chance outcome."""
    order = tuple(order)
    sizes = [rules.hand_sizes[0] if s == starter else rules.hand_sizes[1] for s in range(players)]
    racks: list[tuple[int, ...]] = []
    at = 0
    for size in sizes:
        racks.append(order[at : at + size])
        at += size
    atu = order[at]
    stock = order[at + 1 :]
    events: list[Event] = [Dealt(order, starter)]
    while atu in JOKER_IDS and not rules.atu_may_be_joker:
        joker = atu
        stock = chance.shuffle((*stock, joker))
        atu, stock = stock[0], stock[1:]
        events.append(AtuReturned(joker, atu, stock))
    seats = tuple(
        SeatState(rack=rack, turns=1 if s == starter else 0) for s, rack in enumerate(racks)
    )
    state = GameState(
        rules=rules,
        players=players,
        dealer=dealer,
        starter=starter,
        phase=Phase.ACTION,
        current=starter,
        turn=1,
        seats=seats,
        stock=stock,
        row=(),
        row_dead_first=False,
        atu=atu,
        atu_face_up=True,
        table=Table(),
        pending=TurnState(
            seat=starter, number=1, rack_at_start=racks[starter], opened_before=False
        ),
    )
    events.append(TurnStarted(starter, 1))
    return state, tuple(events)


# -- doubles (DUBLE-01/02) --------------------------------------------------------------------


def doubles_of(rack: Sequence[int]) -> tuple[int, ...]:
    """The doubles on a rack, as ``id // 2`` of each value held twice (DUBLE-01:
    two identical numbered tiles; two jokers are not a double)."""
    if isinstance(rack, str | bytes) or not isinstance(rack, Sequence):
        raise TypeError(f"rack must be a sequence of tile ids, not {type(rack).__name__}")
    for i in rack:
        tile_of(i)  # TypeError or InvalidTileError (id_out_of_range)
    held = Counter(i // 2 for i in rack if i not in JOKER_IDS)
    return tuple(sorted(v for v, n in held.items() if n == 2))


def double_class(tile_id: int, rules: Ruleset) -> str:
    """DUBLE-02: ``"small"`` (2–9), ``"big"`` (10–13, and 1 when ``ace_double_class``
    is ``big``) or ``"key"``."""
    require_ruleset(rules)
    rank = tile_of(tile_id).rank
    if rank is None:
        raise EngineArgumentError(EngineErrorCode.JOKER_NOT_DOUBLE, tile=tile_id)
    if rank == 1:
        return "big" if rules.ace_double_class is AceDoubleClass.BIG else "key"
    return "small" if rank <= 9 else "big"


# -- helpers ----------------------------------------------------------------------------------


def _refuse(code: StepErrorCode, step: Step, **details: object) -> IllegalStepError:
    return IllegalStepError(code, step=step.kind, **details)


def _seat_ok(state: GameState, seat: int, step: Step) -> SeatState:
    if not 0 <= seat < state.players:
        raise _refuse(S.BAD_SEAT, step, seat=seat, players=state.players)
    return state.seats[seat]


def _replace_seat(state: GameState, seat: int, new: SeatState) -> tuple[SeatState, ...]:
    seats = list(state.seats)
    seats[seat] = new
    return tuple(seats)


def _without(rack: tuple[int, ...], ids: Sequence[int]) -> tuple[int, ...]:
    if len(ids) == 1:  # the common case (a discard, a lay-off): ids are physical, so once
        try:
            k = rack.index(ids[0])
        except ValueError:
            return rack
        return rack[:k] + rack[k + 1 :]
    gone = set(ids)
    return tuple(i for i in rack if i not in gone)


def _in_rack(rack: tuple[int, ...], ids: Sequence[int], step: Step, table: Table) -> None:
    seen: set[int] = set()
    for i in ids:
        if i not in rack or i in seen:
            shown = tile_label(i)
            raise _refuse(S.NOT_IN_RACK, step, tile=shown, id=i)
        seen.add(i)


def _wrap(err: RemiError, step: Step) -> IllegalStepError:
    return IllegalStepError.wrap(err, step.kind)


def _pe_tabla(state: GameState, seat: SeatState, turn: TurnState) -> bool:
    """The pending turn is (or would be) a pe-tablă closing turn (CLOSE-06)."""
    return state.rules.pe_tabla_enabled and seat.declared_pe_tabla and not turn.opened_before


def _min_rack(state: GameState, seat: SeatState, turn: TurnState) -> bool:
    """``opening_turn`` for :func:`closing.verify_rack_after_actions`."""
    return not turn.opened_before and not _pe_tabla(state, seat, turn)


def _in_turn_common(state: GameState, step: Step) -> tuple[SeatState, TurnState]:
    """Phase checks shared by melds, lay-offs and swaps."""
    turn = state.pending
    assert turn is not None
    seat = state.seats[state.current]
    if turn.number == 1 and turn.took is None:
        raise _refuse(S.STARTER_FIRST_TURN, step)
    if turn.took is None:
        raise _refuse(S.TAKE_FIRST, step)
    if seat.turns == 1 and state.rules.first_turn_no_meld:
        raise _refuse(S.FIRST_TURN_NO_MELD, step)
    return seat, turn


def _layable(state: GameState, rack: Sequence[int], seat: int) -> tuple[int, ...]:
    """Rack ids that fit some meld on the table now (for ATU-06's closing check)."""
    out = []
    table = state.table
    for tile_id in rack:
        tile = table.tile(tile_id)
        for index, meld in enumerate(table.melds):
            if lipire.might_fit(tile, meld) and lipire.can_lay_off(
                table, index, tile_id, seat, state.rules, opened=True, opened_this_turn=False
            ):
                out.append(tile_id)
                break
    return tuple(out)


# -- takes ------------------------------------------------------------------------------------


def _check_take_phase(state: GameState, step: Step) -> tuple[SeatState, TurnState]:
    turn = state.pending
    assert turn is not None
    if turn.number == 1 and turn.took is None:
        raise _refuse(S.STARTER_FIRST_TURN, step)
    if turn.took is not None:
        raise _refuse(S.ALREADY_TOOK, step)
    return state.seats[state.current], turn


def _can_reshuffle(state: GameState) -> bool:
    return state.rules.stock_exhausted is _RESHUFFLE and len(state.row) >= 2


def _verify_row_take(state: GameState, index: int, step: Step) -> None:
    """The take of row position ``index`` now: the rupere module's checks, then the
    ones only the engine can make (the table for a lay-off, the rack cap)."""
    seat = state.seats[state.current]
    rules = state.rules
    try:
        rupere.verify_take(
            state.row,
            index,
            len(seat.rack),
            rules,
            opened_before_this_turn=seat.opened,
            turn_number=seat.turns,
            declared_pe_tabla=seat.declared_pe_tabla,
            closing_turn=seat.declared_pe_tabla,
            row_starts_with_first_discard=state.row_dead_first,
            rack=seat.rack,
            jokers=state.table.jokers,
        )
    except InvalidTakeError as err:
        if err.code is TakeErrorCode.CANNOT_CLOSE and seat.declared_pe_tabla:
            # RUPE-07: a declarer takes from the row only in his closing turn, and this
            # cannot be it.
            err = InvalidTakeError(TakeErrorCode.PE_TABLA_NOT_CLOSING, **dict(err.details))
        raise _wrap(err, step) from None
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
        raise _wrap(useless, step)
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
            raise _refuse(S.RACK_OVER_MAX, step, rack=left, maximum=limit)


@functools.lru_cache(maxsize=64)
def _any_meld_rules(rules: Ruleset) -> Ruleset:
    """``rules`` where any valid meld with the picked tile and a rack tile counts."""
    return attrs.evolve(rules, take_meld_min_own_tiles=1, take_meld_tiles_must_predate_take=False)


def _usable_for_layoff(state: GameState, index: int) -> bool:
    """``take_discard_may_layoff``: the row tile at ``index`` fits a meld on the table,
    or makes a meld with rack tiles (or onto one made of them this turn)."""
    picked = state.row[index]
    if _layable(state, (picked,), state.current):
        return True
    seat = state.seats[state.current]
    return rupere.can_justify(
        picked,
        seat.rack,
        _any_meld_rules(state.rules),
        also_taken=state.row[index + 1 :],
        jokers=state.table.jokers,
    )


def _verify_atu_take(state: GameState, step: Step) -> None:
    if not state.atu_face_up:
        raise _refuse(S.ATU_ALREADY_TAKEN, step)
    seat = state.seats[state.current]

    def verify(layable: tuple[int, ...]) -> None:
        rupere.verify_take_atu(
            state.rules,
            opened_before_this_turn=seat.opened,
            turn_number=seat.turns,
            closing_turn=True,
            declared_pe_tabla=seat.declared_pe_tabla,
            atu=state.atu,
            rack=seat.rack,
            layable=layable,
            jokers=state.table.jokers,
        )

    try:
        verify(())
    except InvalidTakeError as err:
        # Lay-offs may complete the close: only then is it worth listing them.
        if err.code is not TakeErrorCode.CANNOT_CLOSE or not seat.opened:
            raise _wrap(err, step) from None
        layable = _layable(state, seat.rack, state.current)
        if not layable:
            raise _wrap(err, step) from None
        try:
            verify(layable)
        except InvalidTakeError as err2:
            raise _wrap(err2, step) from None


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
    new_turn = evolve_turn(turn, took=step.kind, obligation=obligation, steps=turn.steps + 1)
    return evolve_state(
        state,
        seats=_replace_seat(state, state.current, new_seat),
        pending=new_turn,
        phase=Phase.ACTION,
        **changes,
    )


def _draw(state: GameState, step: Draw, chance: Chance) -> tuple[GameState, list[Event]]:
    seat, turn = _check_take_phase(state, step)
    events: list[Event] = []
    stock, row, dead = state.stock, state.row, state.row_dead_first
    if not stock:
        if not _can_reshuffle(state):
            raise _refuse(S.STOCK_EMPTY, step)
        stock = chance.shuffle(row[:-1])
        row, dead = row[-1:], False
        events.append(StockReshuffled(stock))
    tile = stock[0]
    current = state.current
    seats = list(state.seats)
    seats[current] = _drawn_seat(seat, (*seat.rack, tile), True)
    pending = _drawn_turn(turn, "draw", turn.steps + 1)
    new = _drawn_state(state, tuple(seats), pending, _ACTION, stock[1:], row, dead)
    events.append(_drew(current, tile))
    return new, events


# The draw's copies (its fields, then the values in that order; the hot path).
_drawn_seat = replacer(SeatState, "rack", "has_taken")
_drawn_turn = replacer(TurnState, "took", "steps")
_drawn_state = replacer(GameState, "seats", "pending", "phase", "stock", "row", "row_dead_first")


def _take_row(state: GameState, step: TakeLastDiscard | Rupere) -> tuple[GameState, list[Event]]:
    seat, turn = _check_take_phase(state, step)
    if isinstance(step, Rupere):
        index = step.index
        if state.row and index == len(state.row) - 1:
            raise _refuse(S.RUPERE_IS_LAST_DISCARD, step, index=index)
    else:
        index = len(state.row) - 1
    _verify_row_take(state, index, step)
    result = rupere.take(state.row, index, seat.rack)
    new = _after_take(
        state, seat, turn, step, rack=result.rack, obligation=result.obligation, row=result.row
    )
    return new, [TookFromRow(state.current, index, result.taken)]


def _take_atu(state: GameState, step: TakeAtu) -> tuple[GameState, list[Event]]:
    seat, turn = _check_take_phase(state, step)
    _verify_atu_take(state, step)
    result = rupere.take_atu(state.atu, seat.rack)
    new = _after_take(
        state, seat, turn, step, rack=result.rack, obligation=result.obligation, atu_face_up=False
    )
    return new, [TookAtu(state.current, state.atu)]


# -- the action phase -------------------------------------------------------------------------


def verify_meld(state: GameState, step: MeldTiles) -> tuple[SeatState, TurnState]:
    """Every check of a :class:`MeldTiles` step in the action phase (the turn's phase,
    the tiles on the rack, the meld's validity, the tiles left, CLOSE-03/OPEN-08),
    without building the next state: :func:`apply_step` runs it first, and
    :func:`~remi_rules.engine.legal.legal_steps` runs it alone on each candidate."""
    seat, turn = _in_turn_common(state, step)
    _in_rack(seat.rack, step.tiles, step, state.table)
    table = state.table
    try:
        analyze_meld([table.tile(i) for i in step.tiles], state.rules)
    except InvalidMeldError as err:
        raise _wrap(err, step) from None
    left = len(seat.rack) - len(step.tiles)
    try:
        closing.verify_rack_after_actions(
            left, state.rules, opening_turn=_min_rack(state, seat, turn)
        )
    except InvalidClosingError as err:
        raise _wrap(err, step) from None
    return seat, turn


def _meld(state: GameState, step: MeldTiles) -> tuple[GameState, list[Event]]:
    seat, turn = verify_meld(state, step)
    try:
        table, index = state.table.add_meld(state.current, step.tiles, state.rules)
    except InvalidMeldError as err:  # pragma: no cover - verify_meld checked it
        raise _wrap(err, step) from None
    new_seat = evolve_seat(seat, rack=_without(seat.rack, step.tiles))
    new_turn = evolve_turn(
        turn,
        new_melds=(*turn.new_melds, index),
        placed=(*turn.placed, *step.tiles),
        steps=turn.steps + 1,
    )
    new = evolve_state(
        state, table=table, seats=_replace_seat(state, state.current, new_seat), pending=new_turn
    )
    return new, [Melded(state.current, index, table.melds[index].ids)]


def _rights(seat: SeatState, turn: TurnState) -> tuple[bool, bool]:
    """(opened, opened_this_turn) for the lay-off and swap rules."""
    opened = seat.opened or bool(turn.new_melds)
    return opened, opened and not turn.opened_before


def _lay_off(state: GameState, step: LayOff) -> tuple[GameState, list[Event]]:
    seat, turn = _in_turn_common(state, step)
    _in_rack(seat.rack, (step.tile,), step, state.table)
    opened, this_turn = _rights(seat, turn)
    rules = state.rules
    if (
        _pe_tabla(state, seat, turn)
        and step.meld not in turn.new_melds
        and 0 <= step.meld < len(state.table.melds)
        and not opening.may_lay_off_on_others(
            opened=opened, opened_this_turn=this_turn, rules=rules, pe_tabla=True
        )
    ):
        err = InvalidLayoffError(
            LayoffErrorCode.OPENING_TURN,
            meld_index=step.meld,
            tile=state.table.tile(step.tile),
            meld=str(state.table.melds[step.meld].meld),
        )
        raise _wrap(err, step)
    try:
        end = lipire.verify_lay_off(
            state.table,
            step.meld,
            step.tile,
            state.current,
            rules,
            opened=opened,
            opened_this_turn=this_turn,
            new_meld_indexes=turn.new_melds,
            end=step.end,
        )
        closing.verify_rack_after_actions(
            len(seat.rack) - 1, rules, opening_turn=_min_rack(state, seat, turn)
        )
    except (InvalidLayoffError, InvalidClosingError) as err:
        raise _wrap(err, step) from None
    table = state.table.extend(
        step.meld, step.tile, state.current, rules, low_end=end is lipire.End.LOW
    )
    new_seat = evolve_seat(seat, rack=_without(seat.rack, (step.tile,)))
    new_turn = evolve_turn(
        turn,
        laid_off=(*turn.laid_off, step.tile),
        placed=(*turn.placed, step.tile),
        steps=turn.steps + 1,
    )
    new = evolve_state(
        state, table=table, seats=_replace_seat(state, state.current, new_seat), pending=new_turn
    )
    return new, [LaidOff(state.current, step.meld, step.tile, end)]


def _swap(state: GameState, step: SwapJoker) -> tuple[GameState, list[Event]]:
    seat, turn = _in_turn_common(state, step)
    _in_rack(seat.rack, (step.tile,), step, state.table)
    opened, this_turn = _rights(seat, turn)
    try:
        joly.verify_swap(
            state.table,
            step.meld,
            step.joker,
            step.tile,
            state.current,
            state.rules,
            opened=opened,
            opened_this_turn=this_turn,
            laid_off_this_turn=turn.laid_off,
        )
    except InvalidSwapError as err:
        raise _wrap(err, step) from None
    table = state.table.swap_joker(step.meld, step.joker, step.tile, state.current, state.rules)
    rack = (*_without(seat.rack, (step.tile,)), step.joker)
    new_seat = evolve_seat(seat, rack=rack)
    new_turn = evolve_turn(
        turn,
        swapped_jokers=(*turn.swapped_jokers, step.joker),
        placed=(*turn.placed, step.tile),
        steps=turn.steps + 1,
    )
    new = evolve_state(
        state, table=table, seats=_replace_seat(state, state.current, new_seat), pending=new_turn
    )
    return new, [JokerSwapped(state.current, step.meld, step.joker, step.tile)]


# -- the end of a turn ------------------------------------------------------------------------


def verify_turn_end(state: GameState, step: Step, *, closing_now: bool) -> bool:
    """The turn-spanning constraints, checked when the turn ends (DESIGN.md): the take
    (TURN-02), its obligation (RUPE-01/06, ATU-06), a pe-tablă declarer closes when he
    melds (CLOSE-06), the opening (OPEN-02/03), the swapped joker (JOLY-04), and for a
    close CLOSE-03/OPEN-08.  Returns whether the turn keeping a taken row tile
    unmelded declares pe tablă (``take_discard_without_meld_declares_pe_tabla``)."""
    turn = state.pending
    assert turn is not None
    if turn.number == 1 and turn.took is None:
        return False  # the starter's first turn: a discard only (TURN-01)
    if turn.took is None:
        raise _refuse(S.TAKE_FIRST, step)
    if turn.obligation is None and not (turn.new_melds or turn.swapped_jokers or closing_now):
        return False  # nothing taken face up, melded or swapped, no close: nothing to check
    rules = state.rules
    seat = state.seats[state.current]
    table = state.table
    declares = False
    try:
        ob = turn.obligation
        if ob is not None:
            outcome = rupere.verify_obligation(
                ob,
                [table.melds[m].ids for m in turn.new_melds],
                rules,
                laid_off=turn.laid_off,
                acquired_later=turn.swapped_jokers,
                opened_before_this_turn=turn.opened_before,
                jokers=table.jokers,
            )
            declares = outcome is ObligationOutcome.DECLARES_PE_TABLA
            if ob.must_close and not closing_now:
                raise _refuse(S.ATU_MUST_CLOSE, step)
        pe_tabla = _pe_tabla(state, seat, turn)
        if pe_tabla and turn.new_melds and not closing_now:
            raise _refuse(S.PE_TABLA_MUST_CLOSE, step)
        if pe_tabla and ob is not None and not closing_now:
            # RUPE-07: a declarer takes from the row only in his closing turn (else he
            # could take and keep the last discard turn after turn, and a round
            # without a turn cap would never end).
            raise _refuse(S.PE_TABLA_TAKE_MUST_CLOSE, step)
        if turn.opening:
            opening.check_opening(
                [table.melds[m].meld for m in turn.new_melds], rules, pe_tabla=pe_tabla
            )
        if turn.swapped_jokers:
            joly.verify_swapped_joker_use(table, turn.swapped_jokers, turn.new_melds, rules)
        if closing_now:
            opened, this_turn = _rights(seat, turn)
            closing.verify_close(
                took_this_turn=True,
                opened=opened,
                opened_this_turn=this_turn,
                rules=rules,
                pe_tabla=pe_tabla,
                declared_pe_tabla=seat.declared_pe_tabla and rules.pe_tabla_enabled,
            )
    except (
        InvalidTakeError,
        InvalidOpeningError,
        InvalidSwapError,
        InvalidClosingError,
        InvalidMeldError,
    ) as err:
        raise _wrap(err, step) from None
    return declares


def _end_turn(
    state: GameState, step: Discard | Close, tile: int, *, closing_now: bool
) -> tuple[GameState, list[Event]]:
    turn = state.pending
    assert turn is not None
    seat = state.seats[state.current]
    declares = verify_turn_end(state, step, closing_now=closing_now)
    rules = state.rules
    keep = rules.closing_tile_mode is _KEEP
    rack = seat.rack if closing_now and keep else _without(seat.rack, (tile,))
    if (
        not closing_now
        and rules.max_rack_after_turn is not None
        and len(rack) > rules.max_rack_after_turn
    ):
        raise _refuse(S.RACK_OVER_MAX, step, rack=len(rack), maximum=rules.max_rack_after_turn)
    pe_tabla = closing_now and _pe_tabla(state, seat, turn) and bool(turn.new_melds)
    new_seat = _ended_seat(
        seat, rack, seat.opened or turn.opening, seat.declared_pe_tabla or declares
    )
    row = state.row if closing_now and keep else (*state.row, tile)
    events: list[Event] = [] if closing_now and keep else [_discarded(state.current, tile)]
    dead = state.row_dead_first or (turn.number == 1 and rules.first_discard_dead)
    seats = list(state.seats)
    seats[state.current] = new_seat
    if closing_now or (
        rules.max_turns_per_round is not None and state.turn >= rules.max_turns_per_round
    ):
        end = (
            RoundEnd(EndReason.CLOSED, state.current, tile, pe_tabla)
            if closing_now
            else RoundEnd(EndReason.MAX_TURNS)
        )
        events.append(RoundEnded(end.reason, end.closer, end.closing_tile, end.pe_tabla))
        over = evolve_state(
            state,
            seats=tuple(seats),
            row=row,
            row_dead_first=dead,
            preplay=False,
            phase=Phase.OVER,
            end=end,
            pending=None,
            announce_window=None,
        )
        return over, events
    window = (
        state.current
        if len(rack) <= rules.announce_threshold and not new_seat.announced_few
        else None
    )
    nxt = (state.current + 1) % state.players
    nseat = seats[nxt]
    nseat = _next_seat(nseat, nseat.turns + 1)
    seats[nxt] = nseat
    number = state.turn + 1
    new = _next_state(
        state,
        tuple(seats),
        row,
        dead,
        False,
        nxt,
        number,
        _TAKE,
        window,
        _new_turn(nxt, number, nseat.rack, nseat.opened),
    )
    events.append(_turn_started(nxt, number))
    if not new.stock and not _can_reshuffle(new) and not _any_row_take(new):
        end = RoundEnd(EndReason.STOCK_EXHAUSTED)
        events.append(RoundEnded(end.reason))
        return _over(new, end), events
    return new, events


# The end of a turn's copies (its fields, then the values in that order; the hot path).
_ended_seat = replacer(SeatState, "rack", "opened", "declared_pe_tabla")
_next_seat = replacer(SeatState, "turns")
_next_state = replacer(
    GameState,
    "seats",
    "row",
    "row_dead_first",
    "preplay",
    "current",
    "turn",
    "phase",
    "announce_window",
    "pending",
)
_make_turn = maker(TurnState)
_drew = maker(Drew)
_discarded = maker(Discarded)
_turn_started = maker(TurnStarted)


def _new_turn(seat: int, number: int, rack: tuple[int, ...], opened: bool) -> TurnState:
    """``TurnState(seat, number, rack, opened)``, the rest at its defaults (a turn
    begins each step pair: the hot path)."""
    return _make_turn(seat, number, rack, opened, None, None, (), (), (), (), 0)


def _any_row_take(state: GameState) -> bool:
    """END-01: can the current player take anything from the row or the atu?"""
    probe = TakeLastDiscard()
    seat = state.seats[state.current]
    positions = rupere.take_options(  # the checks that need no rack: one pass over the row
        state.row,
        len(seat.rack),
        state.rules,
        opened_before_this_turn=seat.opened,
        turn_number=seat.turns,
        declared_pe_tabla=seat.declared_pe_tabla,
        closing_turn=seat.declared_pe_tabla,
        row_starts_with_first_discard=state.row_dead_first,
    )
    for index in positions:
        try:
            _verify_row_take(state, index, probe)
        except IllegalStepError:
            continue
        return True
    if state.atu_face_up:
        try:
            _verify_atu_take(state, TakeAtu())
        except IllegalStepError:
            return False
        return True
    return False


def _over(state: GameState, end: RoundEnd) -> GameState:
    return evolve_state(state, phase=Phase.OVER, end=end, pending=None, announce_window=None)


def _discard(state: GameState, step: Discard) -> tuple[GameState, list[Event]]:
    turn = state.pending
    assert turn is not None
    seat = state.seats[state.current]
    if turn.took is None and turn.number != 1:
        raise _refuse(S.TAKE_FIRST, step)
    if step.tile not in seat.rack:
        _in_rack(seat.rack, (step.tile,), step, state.table)  # raises: not in the rack
    if len(seat.rack) == 1:
        if state.rules.closing_tile_mode is _KEEP:
            raise _refuse(S.MUST_CLOSE, step)
        return _end_turn(state, step, step.tile, closing_now=True)
    return _end_turn(state, step, step.tile, closing_now=False)


def _close(state: GameState, step: Close) -> tuple[GameState, list[Event]]:
    turn = state.pending
    assert turn is not None
    seat = state.seats[state.current]
    if turn.took is None:
        raise _refuse(S.STARTER_FIRST_TURN if turn.number == 1 else S.TAKE_FIRST, step)
    _in_rack(seat.rack, (step.tile,), step, state.table)
    if len(seat.rack) != 1:
        raise _refuse(S.CLOSE_NOT_LAST_TILE, step, rack=len(seat.rack))
    return _end_turn(state, step, step.tile, closing_now=True)


# -- announcements, declarations, doubles ----------------------------------------------------


def _announce_few(state: GameState, step: AnnounceFewTiles) -> tuple[GameState, list[Event]]:
    seat = _seat_ok(state, step.seat, step)
    if seat.announced_few:
        raise _refuse(S.ALREADY_ANNOUNCED, step, seat=step.seat)
    _not_mid_turn(state, step, step.seat)
    threshold = state.rules.announce_threshold
    if len(seat.rack) > threshold:
        raise _refuse(S.ANNOUNCE_NOT_DUE, step, threshold=threshold, rack=len(seat.rack))
    new = evolve_state(
        state,
        seats=_replace_seat(state, step.seat, evolve_seat(seat, announced_few=True)),
        announce_window=None if state.announce_window == step.seat else state.announce_window,
    )
    return new, [Announced(step.seat, "few_tiles")]


def _not_mid_turn(state: GameState, step: Step, seat: int) -> None:
    """A seat announces few tiles outside its own action phase (after its discard,
    ANNOUNCE-02, or before its take), so taking back a step never unmakes it."""
    turn = state.pending
    if turn is not None and turn.seat == seat and turn.took is not None:
        raise _refuse(S.ANNOUNCE_AFTER_DISCARD, step)


def _announce_atu(state: GameState, step: AnnounceAtu) -> tuple[GameState, list[Event]]:
    seat = _seat_ok(state, step.seat, step)
    if seat.announced_atu:
        raise _refuse(S.ALREADY_ANNOUNCED, step, seat=step.seat)
    if state.atu ^ 1 not in seat.rack:
        raise _refuse(S.ATU_TWIN_NOT_HELD, step, seat=step.seat)
    if state.rules.atu_bonus_trigger is AtuBonusTrigger.ANNOUNCE_AT_START and seat.has_taken:
        raise _refuse(S.ATU_ANNOUNCE_TOO_LATE, step, seat=step.seat)
    if any(other.announced_atu for other in state.seats):
        # There is one atu twin: once it has been announced, nobody announces it again
        # (it may have changed hands since, through the row).
        raise _refuse(S.ATU_ALREADY_ANNOUNCED, step, seat=step.seat)
    turn = state.pending
    if (
        turn is not None
        and turn.seat == step.seat
        and turn.obligation is not None
        and state.atu ^ 1 in (turn.obligation.picked, *turn.obligation.also_taken)
    ):
        # The twin came with this turn's take from the row, which may still be taken
        # back: it is not yet his to announce.
        raise _refuse(S.ANNOUNCE_AFTER_DISCARD, step)
    new = evolve_state(
        state, seats=_replace_seat(state, step.seat, evolve_seat(seat, announced_atu=True))
    )
    return new, [Announced(step.seat, "atu")]


def pe_tabla_window_open(state: GameState) -> bool:
    """CLOSE-06, ``pe_tabla_declare_by = end_of_first_cycle``: until the starter's
    second turn has begun (its first step)."""
    turn = state.pending
    if turn is None:
        return False
    if state.turn <= state.players:
        return True
    return state.turn == state.players + 1 and turn.steps == 0 and turn.took is None


def _declare(state: GameState, step: DeclarePeTabla) -> tuple[GameState, list[Event]]:
    seat = _seat_ok(state, step.seat, step)
    if not state.rules.pe_tabla_enabled:
        raise _refuse(S.PE_TABLA_DISABLED, step)
    if seat.declared_pe_tabla:
        raise _refuse(S.PE_TABLA_ALREADY_DECLARED, step, seat=step.seat)
    melded = state.pending is not None and (
        state.pending.seat == step.seat and bool(state.pending.new_melds)
    )
    if seat.opened or melded:
        raise _refuse(S.PE_TABLA_ALREADY_OPENED, step, seat=step.seat)
    if not pe_tabla_window_open(state):
        raise _refuse(S.PE_TABLA_TOO_LATE, step)
    new = evolve_state(
        state, seats=_replace_seat(state, step.seat, evolve_seat(seat, declared_pe_tabla=True))
    )
    return new, [PeTablaDeclared(step.seat)]


def _check_double(state: GameState, seat: int, tile: int, step: Step) -> None:
    rack = state.seats[seat].rack
    if tile in JOKER_IDS or not 0 <= tile < 104 or tile not in rack or tile ^ 1 not in rack:
        shown = tile_label(tile)
        raise _refuse(S.NOT_A_DOUBLE, step, seat=seat, tile=shown)
    if tile // 2 in state.exchanged:
        raise _refuse(S.DOUBLE_ALREADY_EXCHANGED, step, tile=str(tile_of(tile)))


def _exchange(state: GameState, step: ExchangeDoubles) -> tuple[GameState, list[Event]]:
    rules = state.rules
    if not rules.doubles_exchange:
        raise _refuse(S.EXCHANGE_DISABLED, step)
    _seat_ok(state, step.seat, step)
    _seat_ok(state, step.other, step)
    if not state.preplay:
        raise _refuse(S.PREPLAY_OVER, step)
    if step.seat == step.other:
        raise _refuse(S.EXCHANGE_SAME_SEAT, step, seat=step.seat)
    _check_double(state, step.seat, step.tile, step)
    _check_double(state, step.other, step.other_tile, step)
    if rules.doubles_exchange_same_class:
        a, b = double_class(step.tile, rules), double_class(step.other_tile, rules)
        if a != b:
            raise _refuse(
                S.DOUBLE_CLASS_MISMATCH,
                step,
                first=str(tile_of(step.tile)),
                second=str(tile_of(step.other_tile)),
            )
    if rules.doubles_exchange_unit is DoublesExchangeUnit.PAIR:
        given: tuple[int, ...] = (step.tile, step.tile ^ 1)
        received: tuple[int, ...] = (step.other_tile, step.other_tile ^ 1)
    else:
        given, received = (step.tile,), (step.other_tile,)
    mine = state.seats[step.seat]
    theirs = state.seats[step.other]
    seats = list(state.seats)
    seats[step.seat] = evolve_seat(mine, rack=(*_without(mine.rack, given), *received))
    seats[step.other] = evolve_seat(theirs, rack=(*_without(theirs.rack, received), *given))
    turn = state.pending
    assert turn is not None
    if turn.seat in (step.seat, step.other):
        turn = evolve_turn(turn, rack_at_start=seats[turn.seat].rack)
    new = evolve_state(
        state,
        seats=tuple(seats),
        pending=turn,
        exchanged=(*state.exchanged, step.tile // 2, step.other_tile // 2),
    )
    return new, [DoublesExchanged(step.seat, step.other, given, received)]


def _redeal(state: GameState, step: DemandRedeal, chance: Chance) -> tuple[GameState, list[Event]]:
    rules = state.rules
    threshold = rules.redeal_doubles_threshold
    if threshold is None:
        raise _refuse(S.REDEAL_DISABLED, step)
    seat = _seat_ok(state, step.seat, step)
    if not state.preplay:
        raise _refuse(S.PREPLAY_OVER, step)
    count = len(doubles_of(seat.rack))
    if count < threshold:
        raise _refuse(S.TOO_FEW_DOUBLES, step, seat=step.seat, count=count, threshold=threshold)
    order = chance.shuffle(tuple(range(106)))
    new, events = deal(
        rules, state.players, order, dealer=state.dealer, starter=state.starter, chance=chance
    )
    return new, list(events)


# -- dispatch ---------------------------------------------------------------------------------


def apply_step(state: GameState, step: Step, chance: Chance) -> tuple[GameState, tuple[Event, ...]]:
    """Apply ``step`` to ``state``: the new state and the events, or
    :class:`~remi_rules.IllegalStepError` (``state`` is immutable, so nothing changed).
    :class:`Undo` is the :class:`~remi_rules.engine.Game`'s business (it needs the
    history) and is refused here."""
    try:
        in_turn = step.in_turn
    except AttributeError:
        raise TypeError(f"not a step: {type(step).__name__}") from None
    if state.phase is _OVER:
        raise _refuse(S.ROUND_OVER, step)
    events: list[Event] = []
    if in_turn:
        if isinstance(step, Undo):
            raise _refuse(S.NOTHING_TO_UNDO, step)
        if state.announce_window is not None:
            state, events = _close_window(state)
    if isinstance(step, Draw):
        new, more = _draw(state, step, chance)
    elif isinstance(step, DemandRedeal):
        new, more = _redeal(state, step, chance)
    else:
        handler = _HANDLERS.get(type(step)) or _handler(step)
        new, more = handler(state, step)
    if events:
        return new, (*events, *more)
    return new, tuple(more)


_Handler = Callable[[GameState, Any], tuple[GameState, list[Event]]]
_HANDLERS: dict[type, _Handler] = {
    TakeLastDiscard: _take_row,
    Rupere: _take_row,
    TakeAtu: _take_atu,
    MeldTiles: _meld,
    LayOff: _lay_off,
    SwapJoker: _swap,
    Discard: _discard,
    Close: _close,
    AnnounceFewTiles: _announce_few,
    AnnounceAtu: _announce_atu,
    DeclarePeTabla: _declare,
    ExchangeDoubles: _exchange,
}
"""The handlers of the steps that need no chance, by exact type (the hot path)."""


def _handler(step: Step) -> _Handler:
    """The handler of a subclass of a step class, or :class:`TypeError`."""
    for cls, handler in _HANDLERS.items():
        if isinstance(step, cls):
            return handler
    raise TypeError(f"not a step: {type(step).__name__}")


def _close_window(state: GameState) -> tuple[GameState, list[Event]]:
    """ANNOUNCE-02/03: the first step of the next turn closes the window of the seat
    that ended the last turn with few tiles; unannounced, he is liable."""
    seat = state.announce_window
    if seat is None or seat == state.current:
        return state, []
    old = state.seats[seat]
    missed = evolve_seat(old, missed_announcement=True)
    return (
        evolve_state(state, seats=_replace_seat(state, seat, missed), announce_window=None),
        [AnnouncementMissed(seat)],
    )
