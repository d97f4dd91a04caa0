"""The steps that put tiles on the table: melds, lay-offs (:mod:`remi_rules.lipire`)
and joker swaps (:mod:`remi_rules.joly`)."""

from __future__ import annotations

from .. import closing, joly, lipire, opening
from ..errors import (
    InvalidClosingError,
    InvalidLayoffError,
    InvalidMeldError,
    InvalidSwapError,
    LayoffErrorCode,
)
from ..melds import analyze_meld
from ._common import (
    check_in_turn,
    handles,
    in_rack,
    is_pe_tabla_turn,
    keeps_opening_minimum,
    replace_seat,
    rights,
    without,
    wrap,
)
from .events import (
    Event,
    JokerSwapped,
    LaidOff,
    Melded,
)
from .state import (
    GameState,
    SeatState,
    TurnState,
    context_of_state,
    evolve_seat,
    evolve_state,
    evolve_turn,
)
from .steps import (
    LayOff,
    MeldTiles,
    SwapJoker,
)

# -- the action phase -------------------------------------------------------------------------


def verify_meld(state: GameState, step: MeldTiles) -> tuple[SeatState, TurnState]:
    """Every check of a :class:`MeldTiles` step in the action phase (the turn's phase,
    the tiles on the rack, the meld's validity, the tiles left, CLOSE-03/OPEN-08),
    without building the next state: :func:`apply_step` runs it first, and
    :func:`~remi_rules.engine.legal.legal_steps` runs it alone on each candidate."""
    seat, turn = check_in_turn(state, step)
    in_rack(seat.rack, step.tiles, step, state.table)
    table = state.table
    try:
        analyze_meld([table.tile(i) for i in step.tiles], state.rules)
    except InvalidMeldError as err:
        raise wrap(err, step) from None
    left = len(seat.rack) - len(step.tiles)
    try:
        closing.verify_rack_after_actions(
            left, state.rules, opening_turn=keeps_opening_minimum(state, seat, turn)
        )
    except InvalidClosingError as err:
        raise wrap(err, step) from None
    return seat, turn


def _melded(state: GameState, step: MeldTiles) -> tuple[GameState, list[Event]]:
    """The meld put down (its checks made: :func:`verify_meld`)."""
    seat = state.seats[state.current]
    turn = state.pending
    assert turn is not None
    try:
        table, index = state.table.add_meld(state.current, step.tiles, state.rules)
    except InvalidMeldError as err:  # pragma: no cover - verify_meld checked it
        raise wrap(err, step) from None
    new_seat = evolve_seat(seat, rack=without(seat.rack, step.tiles))
    new_turn = evolve_turn(
        turn,
        new_melds=(*turn.new_melds, index),
        placed=(*turn.placed, *step.tiles),
        steps=turn.steps + 1,
    )
    new = evolve_state(
        state, table=table, seats=replace_seat(state, state.current, new_seat), pending=new_turn
    )
    return new, [Melded(state.current, index, table.melds[index].ids)]


@handles(MeldTiles, listed=_melded)
def meld_step(state: GameState, step: MeldTiles) -> tuple[GameState, list[Event]]:
    verify_meld(state, step)
    return _melded(state, step)


def _laid_off(
    state: GameState, step: LayOff, end: lipire.End | None = None
) -> tuple[GameState, list[Event]]:
    """The lay-off made at ``end`` (a listed step's own end if None; its checks made:
    :func:`lay_off_step`)."""
    seat = state.seats[state.current]
    turn = state.pending
    end = step.end if end is None else end
    assert turn is not None and end is not None
    table = state.table.extend(
        step.meld, step.tile, state.current, state.rules, low_end=end is lipire.End.LOW
    )
    new_seat = evolve_seat(seat, rack=without(seat.rack, (step.tile,)))
    new_turn = evolve_turn(
        turn,
        laid_off=(*turn.laid_off, step.tile),
        placed=(*turn.placed, step.tile),
        steps=turn.steps + 1,
    )
    new = evolve_state(
        state, table=table, seats=replace_seat(state, state.current, new_seat), pending=new_turn
    )
    return new, [LaidOff(state.current, step.meld, step.tile, end)]


@handles(LayOff, listed=_laid_off)
def lay_off_step(state: GameState, step: LayOff) -> tuple[GameState, list[Event]]:
    seat, turn = check_in_turn(state, step)
    in_rack(seat.rack, (step.tile,), step, state.table)
    opened, this_turn = rights(seat, turn)
    rules = state.rules
    if (
        is_pe_tabla_turn(state, seat, turn)
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
        raise wrap(err, step)
    try:
        end = lipire.verify_lay_off(
            state.table, step.meld, step.tile, state.current, context_of_state(state), end=step.end
        )
        closing.verify_rack_after_actions(
            len(seat.rack) - 1, rules, opening_turn=keeps_opening_minimum(state, seat, turn)
        )
    except (InvalidLayoffError, InvalidClosingError) as err:
        raise wrap(err, step) from None
    return _laid_off(state, step, end)


def _swapped(state: GameState, step: SwapJoker) -> tuple[GameState, list[Event]]:
    """The joker swapped (its checks made: :func:`swap_step`)."""
    seat = state.seats[state.current]
    turn = state.pending
    assert turn is not None
    table = state.table.swap_joker(step.meld, step.joker, step.tile, state.current, state.rules)
    rack = (*without(seat.rack, (step.tile,)), step.joker)
    new_seat = evolve_seat(seat, rack=rack)
    new_turn = evolve_turn(
        turn,
        swapped_jokers=(*turn.swapped_jokers, step.joker),
        placed=(*turn.placed, step.tile),
        steps=turn.steps + 1,
    )
    new = evolve_state(
        state, table=table, seats=replace_seat(state, state.current, new_seat), pending=new_turn
    )
    return new, [JokerSwapped(state.current, step.meld, step.joker, step.tile)]


@handles(SwapJoker, listed=_swapped)
def swap_step(state: GameState, step: SwapJoker) -> tuple[GameState, list[Event]]:
    seat, _ = check_in_turn(state, step)
    in_rack(seat.rack, (step.tile,), step, state.table)
    ctx = context_of_state(state)
    try:
        joly.verify_swap(state.table, step.meld, step.joker, step.tile, state.current, ctx)
    except InvalidSwapError as err:
        raise wrap(err, step) from None
    return _swapped(state, step)
