"""What the engine's step handlers share (:mod:`remi_rules.engine.transition`): the
registry of handlers (:func:`handles`), the refusals, the seat and rack helpers, the
turn's rights, the fresh turn and the end of the round."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from .. import lipire
from .._slots import maker
from ..errors import (
    IllegalStepError,
    RemiError,
    StepErrorCode,
)
from ..table import Table
from ..tiles import Tile
from .state import (
    GameState,
    Phase,
    RoundEnd,
    SeatState,
    TurnState,
    evolve_state,
    full_rights_context,
)
from .steps import (
    Step,
    tile_label,
)

if TYPE_CHECKING:
    from .deal import Chance
    from .events import Event

S = StepErrorCode


# -- the handlers' registry --------------------------------------------------------------------

Handler = Callable[[GameState, Any], tuple[GameState, list["Event"]]]
ChanceHandler = Callable[[GameState, Any, "Chance"], tuple[GameState, list["Event"]]]
_H = TypeVar("_H", bound=Callable[..., tuple[GameState, list["Event"]]])

HANDLERS: dict[type[Step], Handler] = {}
"""The handler of each step class that needs no chance, by exact class: filled by
:func:`handles` where each handler is defined, read by
:func:`~remi_rules.engine.transition.apply_step` (a new step class is one handler
with its decorator, in a handler module)."""
CHANCE_HANDLERS: dict[type[Step], ChanceHandler] = {}
"""The handlers that also take the :class:`~remi_rules.engine.deal.Chance` (a draw may
reshuffle the row, a redeal deals again)."""
LISTED_HANDLERS: dict[type[Step], Handler] = {}
"""A step's effect without its checks, for a step the engine has listed as legal in
this very state (:func:`~remi_rules.engine.transition.apply_listed`): filled by
:func:`handles` (``listed=``), for the steps whose checks cost more than their effect."""


SeatCheck = Callable[[GameState, Any], object]
SeatHint = Callable[[GameState, SeatState], bool]
SEAT_LISTINGS: dict[type[Step], tuple[SeatHint, SeatCheck]] = {}
"""The out-of-turn steps of one ``seat`` field that
:func:`~remi_rules.engine.legal_steps` lists for every seat, each with a cheap
necessary condition on the seat's state and the full check (raising
:class:`~remi_rules.IllegalStepError`): filled by :func:`handles`."""


def handles(
    *classes: type[Step],
    chance: bool = False,
    each_seat_if: SeatHint | None = None,
    check: SeatCheck | None = None,
    listed: Handler | None = None,
) -> Callable[[_H], _H]:
    """Register the decorated function as the handler of ``classes``: ``handler(state,
    step)`` returns the next state and the events or raises
    :class:`~remi_rules.IllegalStepError`; with ``chance``, ``handler(state, step,
    chance)``.  With ``each_seat_if`` (a step class whose one field is ``seat``),
    ``legal_steps`` lists the step of every seat for which ``each_seat_if(state,
    seat_state)`` holds and ``check(state, step)`` (the handler if None) raises
    nothing.  ``listed(state, step)``: the handler without its checks, for a step
    listed as legal in ``state`` (:data:`LISTED_HANDLERS`)."""

    def register(handler: _H) -> _H:
        table: dict[type[Step], Any] = CHANCE_HANDLERS if chance else HANDLERS
        for cls in classes:
            if cls in HANDLERS or cls in CHANCE_HANDLERS:
                raise TypeError(f"{cls.__name__} has a handler already")
            table[cls] = handler
            if each_seat_if is not None:
                SEAT_LISTINGS[cls] = (each_seat_if, check or handler)
            if listed is not None:
                LISTED_HANDLERS[cls] = listed
        return handler

    return register


# -- helpers ----------------------------------------------------------------------------------


def refuse(code: StepErrorCode, step: Step, **details: object) -> IllegalStepError:
    return IllegalStepError(code, step=step.kind, **details)


def seat_ok(state: GameState, seat: int, step: Step) -> SeatState:
    if not 0 <= seat < state.players:
        raise refuse(S.BAD_SEAT, step, seat=seat, players=state.players)
    return state.seats[seat]


def replace_seat(state: GameState, seat: int, new: SeatState) -> tuple[SeatState, ...]:
    seats = list(state.seats)
    seats[seat] = new
    return tuple(seats)


def without(rack: tuple[int, ...], ids: Sequence[int]) -> tuple[int, ...]:
    if len(ids) == 1:  # the common case (a discard, a lay-off): ids are physical, so once
        try:
            k = rack.index(ids[0])
        except ValueError:
            return rack
        return rack[:k] + rack[k + 1 :]
    gone = set(ids)
    return tuple(i for i in rack if i not in gone)


def in_rack(rack: tuple[int, ...], ids: Sequence[int], step: Step, table: Table) -> None:
    seen: set[int] = set()
    for i in ids:
        if i not in rack or i in seen:
            shown = tile_label(i)
            raise refuse(S.NOT_IN_RACK, step, tile=shown, id=i)
        seen.add(i)


def wrap(err: RemiError, step: Step) -> IllegalStepError:
    return IllegalStepError.wrap(err, step.kind)


def is_pe_tabla_turn(state: GameState, seat: SeatState, turn: TurnState) -> bool:
    """The pending turn is (or would be) a pe-tablă closing turn (CLOSE-06)."""
    return state.rules.pe_tabla_enabled and seat.declared_pe_tabla and not turn.opened_before


def keeps_opening_minimum(state: GameState, seat: SeatState, turn: TurnState) -> bool:
    """``opening_turn`` for :func:`closing.verify_rack_after_actions`."""
    return not turn.opened_before and not is_pe_tabla_turn(state, seat, turn)


def check_in_turn(state: GameState, step: Step) -> tuple[SeatState, TurnState]:
    """Phase checks shared by melds, lay-offs and swaps."""
    turn = state.pending
    assert turn is not None
    seat = state.seats[state.current]
    if turn.number == 1 and turn.took is None:
        raise refuse(S.STARTER_FIRST_TURN, step)
    if turn.took is None:
        raise refuse(S.TAKE_FIRST, step)
    if seat.turns == 1 and state.rules.first_turn_no_meld:
        raise refuse(S.FIRST_TURN_NO_MELD, step)
    return seat, turn


def layable_ids(state: GameState, rack: Sequence[int], seat: int) -> tuple[int, ...]:
    """Rack ids that fit some meld on the table now, at most as many of one value as
    the table has places for it (an end of a run, a set's missing colour): for ATU-06's
    closing check, where each listed id is one lay-off (two copies of a tile that fits
    one run end are one lay-off, not two)."""
    out = []
    table = state.table
    ctx = full_rights_context(state)
    room: dict[Tile, int] = {}
    for tile_id in rack:
        tile = table.tile(tile_id)
        left = room.get(tile)
        if left is None:
            left = sum(
                lipire.fits(table, index, tile_id, seat, ctx, end)
                for index, meld in enumerate(table.melds)
                if lipire.might_fit(tile, meld)
                for end in (lipire.End.LOW, lipire.End.HIGH, lipire.End.SET)
            )
        if left:
            out.append(tile_id)
        room[tile] = max(0, left - 1)
    return tuple(out)


def rights(seat: SeatState, turn: TurnState) -> tuple[bool, bool]:
    """(opened, opened_this_turn) for the lay-off and swap rules."""
    opened = seat.opened or bool(turn.new_melds)
    return opened, opened and not turn.opened_before


make_turn = maker(TurnState)


def fresh_turn(seat: int, number: int, rack: tuple[int, ...], opened: bool) -> TurnState:
    """``TurnState(seat, number, rack, opened)``, the rest at its defaults (a turn
    begins each step pair: the hot path)."""
    return make_turn(seat, number, rack, opened, None, None, (), (), (), (), 0)


def round_over(state: GameState, end: RoundEnd) -> GameState:
    return evolve_state(state, phase=Phase.OVER, end=end, pending=None, announce_window=None)
