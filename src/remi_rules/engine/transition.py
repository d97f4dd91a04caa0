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

from ..errors import (
    StepErrorCode,
)
from . import _table_steps, _takes, _turn_end, _windows  # noqa: F401  (they register their handlers)
from ._common import (
    CHANCE_HANDLERS,
    HANDLERS,
    LISTED_HANDLERS,
    ChanceHandler,
    Handler,
    refuse,
    replace_seat,
)
from .deal import Chance, NoChance, RandomChance, ScriptedChance, deal, double_class, doubles_of
from .events import (
    AnnouncementMissed,
    Event,
)
from .state import (
    GameState,
    Phase,
    evolve_seat,
    evolve_state,
)
from .steps import Step, Undo

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
_OVER = Phase.OVER


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
        raise refuse(S.ROUND_OVER, step)
    events: list[Event] = []
    if in_turn:
        if isinstance(step, Undo):
            raise refuse(S.NOTHING_TO_UNDO, step)
        if state.announce_window is not None:
            state, events = _close_window(state)
    cls = type(step)
    handler = HANDLERS.get(cls)
    if handler is not None:
        new, more = handler(state, step)
    else:
        chance_handler = CHANCE_HANDLERS.get(cls)
        if chance_handler is None:
            handler, chance_handler = _handler(step)
        if chance_handler is not None:
            new, more = chance_handler(state, step, chance)
        else:
            assert handler is not None
            new, more = handler(state, step)
    if events:
        return new, (*events, *more)
    return new, tuple(more)


def apply_listed(
    state: GameState, step: Step, chance: Chance
) -> tuple[GameState, tuple[Event, ...]]:
    """:func:`apply_step` of a step that :func:`~remi_rules.engine.legal.legal_steps`
    listed for this very ``state`` (the engine's own object: the
    :class:`~remi_rules.engine.Game` makes sure of both), without the checks the
    listing has made: its handler of :data:`~remi_rules.engine._common.
    LISTED_HANDLERS`, after the announcement window closes (the listing reads nothing
    the window changes).  Not for any other step."""
    build = LISTED_HANDLERS.get(type(step))
    if build is None:
        return apply_step(state, step, chance)
    events: list[Event] = []
    if step.in_turn and state.announce_window is not None:
        state, events = _close_window(state)
    new, more = build(state, step)
    if events:
        return new, (*events, *more)
    return new, tuple(more)


def _handler(step: Step) -> tuple[Handler | None, ChanceHandler | None]:
    """The handler of a subclass of a step class, or :class:`TypeError`."""
    for cls, handler in HANDLERS.items():
        if isinstance(step, cls):
            return handler, None
    for cls, chance_handler in CHANCE_HANDLERS.items():
        if isinstance(step, cls):
            return None, chance_handler
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
        evolve_state(state, seats=replace_seat(state, seat, missed), announce_window=None),
        [AnnouncementMissed(seat)],
    )
