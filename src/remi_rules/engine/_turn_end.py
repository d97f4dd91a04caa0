"""The end of a turn: the turn-spanning constraints (RUPE-01/06, ATU-06, CLOSE-06,
OPEN-02/03, JOLY-04, CLOSE-03), the discard and the close, the next turn and the
end of the round (CLOSE-07, END-01/04)."""

from __future__ import annotations

from .. import closing, joly, opening, rupere
from .._slots import maker, replacer
from ..errors import (
    InvalidClosingError,
    InvalidMeldError,
    InvalidOpeningError,
    InvalidSwapError,
    InvalidTakeError,
    StepErrorCode,
)
from ..ruleset import (
    ClosingTileMode,
)
from ..rupere import ObligationOutcome
from ._common import (
    fresh_turn,
    handles,
    in_rack,
    is_pe_tabla_turn,
    refuse,
    rights,
    round_over,
    without,
    wrap,
)
from ._takes import any_row_take, can_reshuffle
from ._windows import lapse_offers
from .events import (
    Discarded,
    EndReason,
    Event,
    RoundEnded,
    TurnStarted,
)
from .state import (
    GameState,
    Phase,
    RoundEnd,
    SeatState,
    evolve_state,
)
from .steps import (
    Close,
    Discard,
    Step,
)

S = StepErrorCode
# Enum members as module constants (the hot path, see _takes).
_TAKE = Phase.TAKE
_KEEP = ClosingTileMode.KEEP


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
        raise refuse(S.TAKE_FIRST, step)
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
                raise refuse(S.ATU_MUST_CLOSE, step)
        pe_tabla = is_pe_tabla_turn(state, seat, turn)
        if pe_tabla and turn.new_melds and not closing_now:
            raise refuse(S.PE_TABLA_MUST_CLOSE, step)
        if pe_tabla and ob is not None and not closing_now:
            # RUPE-07: a declarer takes from the row only in his closing turn (else he
            # could take and keep the last discard turn after turn, and a round
            # without a turn cap would never end).
            raise refuse(S.PE_TABLA_TAKE_MUST_CLOSE, step)
        if turn.opening:
            opening.check_opening(
                [table.melds[m].meld for m in turn.new_melds], rules, pe_tabla=pe_tabla
            )
        if turn.swapped_jokers:
            joly.verify_swapped_joker_use(table, turn.swapped_jokers, turn.new_melds, rules)
        if closing_now:
            opened, this_turn = rights(seat, turn)
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
        raise wrap(err, step) from None
    return declares


def _end_turn(
    state: GameState, step: Discard | Close, tile: int, *, closing_now: bool
) -> tuple[GameState, list[Event]]:
    if state.offers:  # the starter's first discard: play starts (DEAL-06)
        state, lapsed = lapse_offers(state)
        new, after = _end_turn(state, step, tile, closing_now=closing_now)
        return new, [*after[:1], *lapsed, *after[1:]]
    turn = state.pending
    assert turn is not None
    seat = state.seats[state.current]
    declares = verify_turn_end(state, step, closing_now=closing_now)
    rules = state.rules
    keep = rules.closing_tile_mode is _KEEP
    rack = seat.rack if closing_now and keep else without(seat.rack, (tile,))
    if (
        not closing_now
        and rules.max_rack_after_turn is not None
        and len(rack) > rules.max_rack_after_turn
    ):
        raise refuse(S.RACK_OVER_MAX, step, rack=len(rack), maximum=rules.max_rack_after_turn)
    pe_tabla = closing_now and is_pe_tabla_turn(state, seat, turn) and bool(turn.new_melds)
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
        events.append(
            RoundEnded(
                end.reason,
                end.closer,
                end.closing_tile,
                end.pe_tabla,
                tuple(seat.rack for seat in seats),
            )
        )
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
        fresh_turn(nxt, number, nseat.rack, nseat.opened),
    )
    events.append(_turn_started(nxt, number))
    if not new.stock and not can_reshuffle(new) and not _may_take(new):
        end = RoundEnd(EndReason.STOCK_EXHAUSTED)
        events.append(RoundEnded(end.reason, racks=tuple(seat.rack for seat in new.seats)))
        return round_over(new, end), events
    return new, events


def _may_take(state: GameState) -> bool:
    """END-01 with the stock out: the player to move has a take from the row or the
    atu after which his turn can end (:func:`~remi_rules.engine._finish.can_finish`).
    A take the rules accept but after which no turn can end (a close the take's own
    check over-counts, a lay-off that cannot be made) is no way to play on: without
    this, the seat could only take and undo, and past the undo cap had no step."""
    if not any_row_take(state):
        return False
    from ._finish import can_finish  # (imports this module's neighbours)

    return can_finish(state)


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


_discarded = maker(Discarded)


_turn_started = maker(TurnStarted)


@handles(Discard)
def discard_step(state: GameState, step: Discard) -> tuple[GameState, list[Event]]:
    turn = state.pending
    assert turn is not None
    seat = state.seats[state.current]
    if turn.took is None and turn.number != 1:
        raise refuse(S.TAKE_FIRST, step)
    if step.tile not in seat.rack:
        in_rack(seat.rack, (step.tile,), step, state.table)  # raises: not in the rack
    if len(seat.rack) == 1:
        if state.rules.closing_tile_mode is _KEEP:
            raise refuse(S.MUST_CLOSE, step)
        return _end_turn(state, step, step.tile, closing_now=True)
    return _end_turn(state, step, step.tile, closing_now=False)


@handles(Close)
def close_step(state: GameState, step: Close) -> tuple[GameState, list[Event]]:
    turn = state.pending
    assert turn is not None
    seat = state.seats[state.current]
    if turn.took is None:
        raise refuse(S.STARTER_FIRST_TURN if turn.number == 1 else S.TAKE_FIRST, step)
    in_rack(seat.rack, (step.tile,), step, state.table)
    if len(seat.rack) != 1:
        raise refuse(S.CLOSE_NOT_LAST_TILE, step, rack=len(seat.rack))
    return _end_turn(state, step, step.tile, closing_now=True)
