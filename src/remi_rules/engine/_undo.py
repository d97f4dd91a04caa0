"""What :class:`~remi_rules.engine.steps.Undo` may still do in the pending turn
(:class:`UndoInfo`), and the legal steps that depend on it: :class:`Undo` itself, and
past the undo cap the steps refused because the turn could no longer end.

A :class:`~remi_rules.engine.Game` makes its :class:`UndoInfo` from its history; a
:class:`~remi_rules.engine.PlayerView` carries it (everything in it is public: the
whole table sees each step and each undo), so the view lists the same steps as the
game (docs/protocol.md)."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Final

from ..errors import IllegalStepError, StepErrorCode
from ._finish import finishable_after, finishable_steps
from .state import MAX_UNDOS_PER_TURN, GameState, Phase, UndoInfo
from .steps import Step, Undo

__all__ = ["MAX_UNDOS_PER_TURN", "UndoInfo"]

NO_UNDO: Final = UndoInfo()
"""Nothing to take back (a state without its game's history)."""


def can_rescue(state: GameState, info: UndoInfo) -> bool:
    """Past the cap, an undo stays allowed while the turn cannot end, down the steps
    made before the cap: a turn that reached the cap unable to end gets back to one
    that can (at worst its take, or the draw, after which a discard is legal)."""
    from .legal import can_end_turn

    return (
        0 < info.steps <= info.rescue and state.phase is not Phase.OVER and not can_end_turn(state)
    )


def undo_refusal(state: GameState, info: UndoInfo) -> IllegalStepError | None:
    """Why :class:`Undo` is refused now (``round_over``, ``nothing_to_undo``,
    ``undo_limit``), or None."""
    step = Undo()
    if state.phase is Phase.OVER:
        return IllegalStepError(StepErrorCode.ROUND_OVER, step=step.kind)
    if not info.steps:
        return IllegalStepError(StepErrorCode.NOTHING_TO_UNDO, step=step.kind)
    if info.past_cap and not can_rescue(state, info):
        return IllegalStepError(StepErrorCode.UNDO_LIMIT, step=step.kind, limit=MAX_UNDOS_PER_TURN)
    return None


def past_cap_refusal(
    state: GameState, info: UndoInfo, step: Step, memo: dict[Hashable, bool] | None = None
) -> IllegalStepError | None:
    """Past the undo cap what is put down stays, so a step of the player to move
    after which his turn could no longer end (:func:`~remi_rules.engine._finish.
    finishable_after`: not finishable) is refused with ``undo_limit``; the turn can
    then always end.  An illegal step gets its own refusal.  ``memo``: the positions
    of this turn already judged (:func:`~remi_rules.engine._finish.finishable_after`)."""
    if not info.past_cap or isinstance(step, Undo):
        return None
    # getattr: something that is not a step gets apply_step's TypeError
    in_turn = getattr(step, "in_turn", True)
    if not in_turn and getattr(step, "seat", None) != state.current:
        return None
    if finishable_after(state, step, memo):
        return None
    from .transition import NoChance, apply_step

    try:
        apply_step(state, step, NoChance())
    except IllegalStepError as err:
        return err
    return IllegalStepError(StepErrorCode.UNDO_LIMIT, step=step.kind, limit=MAX_UNDOS_PER_TURN)


def sender_of(state: GameState, step: Step) -> int:
    """The seat that may send ``step`` now: the player whose turn it is for a step of
    the turn (and :class:`Undo`), the step's own ``seat`` for the steps made out of
    turn."""
    seat = getattr(step, "seat", None)
    if not step.in_turn and type(seat) is int:
        return seat
    return state.current


def steps_with_undo(
    state: GameState,
    info: UndoInfo,
    *,
    seat: int | None = None,
    finishable: bool = False,
    memo: dict[Hashable, bool] | None = None,
    listed: tuple[Step, ...] | None = None,
) -> tuple[Step, ...]:
    """Every legal step now given what :class:`Undo` may do (``info``): the steps of
    :func:`~remi_rules.engine.legal.legal_steps`, past the cap without those that would
    leave the turn unable to end, and :class:`Undo` where it is legal; with ``seat``
    only the steps that seat sends (:func:`sender_of`), with ``finishable`` only the
    finishable ones (:func:`~remi_rules.engine._finish.finishable_steps`); ``memo``
    the positions of this turn the search has judged (a game keeps one per turn);
    ``listed`` the steps of ``legal_steps`` (or ``seat_steps``) if already made."""
    from .legal import legal_steps, seat_steps

    # (an exchange of doubles names the other seat's hidden tile: all seats only)
    if listed is not None:
        steps = listed
    else:
        steps = legal_steps(state) if seat is None else seat_steps(state, seat)
    if info.past_cap or finishable:
        # past the cap, the listed steps (legal) that past_cap_refusal lets through
        steps = finishable_steps(state, steps, memo)
    if info.steps and (seat is None or seat == state.current) and undo_refusal(state, info) is None:
        steps = (*steps, Undo())
    return steps
