"""What a :class:`~remi_rules.engine.Game` keeps of the steps it has listed for its
current state (:class:`Listed`), so that neither an undo nor the step applied next
makes the engine do that work again:

* the lists of :func:`~remi_rules.engine.legal.legal_steps` (all seats) and
  :func:`~remi_rules.engine.legal.seat_steps` (one seat) go on the undo stack with the
  state (:class:`Known`): an undo comes back to a state that lists the same steps as
  the one before the undone step (:func:`same_steps`), and the same step made again
  from there leads to a state whose lists are known too; the undos of a turn are
  many (a player tries a meld and takes it back);
* a step that a list given out for the current state holds was checked when it was
  listed, so :meth:`Listed.find` gives the engine's own copy of it and the game
  applies that copy with :func:`~remi_rules.engine.transition.apply_listed` (the
  step's effect without its checks).  The step applied is the listed object itself,
  of the listed class: a step that only compares equal to a listed one cannot take
  the unchecked path in its own name.
"""

from __future__ import annotations

from operator import attrgetter

import attrs

from ._common import LISTED_HANDLERS
from .legal import legal_steps, seat_steps
from .state import GameState, TurnState
from .steps import Step

__all__ = ["Known", "Listed", "same_steps"]

_STATE_FIELDS = attrgetter(*(f.name for f in attrs.fields(GameState) if f.name != "pending"))
_TURN_FIELDS = attrgetter(*(f.name for f in attrs.fields(TurnState) if f.name != "steps"))


def same_steps(a: GameState, b: GameState) -> bool:
    """``a`` and ``b`` list the same legal steps because they are equal but for the
    pending turn's step counter, which the rules read only as zero or not (a pe-tablă
    declaration before the starter's second turn has begun:
    :mod:`remi_rules.engine._windows`).  Compared field by field, each field first by
    identity (an undo's state shares them with the state it goes back to)."""
    if a is b:
        return True
    if _STATE_FIELDS(a) != _STATE_FIELDS(b):
        return False
    p, q = a.pending, b.pending
    if p is None or q is None:
        return p is q
    return (p.steps == 0) == (q.steps == 0) and _TURN_FIELDS(p) == _TURN_FIELDS(q)


class Known:
    """What is known of the steps of the states that list the same steps as
    ``state`` (:func:`same_steps`): the lists of
    :func:`~remi_rules.engine.legal.legal_steps` (key ``None``) and
    :func:`~remi_rules.engine.legal.seat_steps` (key: the seat) made so far, and for
    an undoable step applied from one of them, what is known of the state it led to
    (``after``: a turn tried again after an undo goes the same way)."""

    __slots__ = ("after", "lists", "state")

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.lists: dict[int | None, tuple[Step, ...]] = {}
        self.after: dict[Step, Known] = {}

    def then(self, step: Step, state: GameState) -> Known:
        """What is known of ``state``, reached by ``step`` from a state of this kind."""
        known = self.after.get(step)
        if known is None or not same_steps(state, known.state):
            known = Known(state)
            if step.undoable and len(self.after) < _MOST_AFTER:
                self.after[step] = known
        return known


_MOST_AFTER = 64
"""The most steps whose :attr:`Known.after` one kind of state keeps (an undo cap's
worth)."""


class Listed:
    """The steps listed for ``state``: what is known of its kind of state
    (:class:`Known`), and the lists given out for this very state with what
    :class:`~remi_rules.engine.steps.Undo` may do now (``given``, by ``(seat,
    finishable)``)."""

    __slots__ = ("given", "known", "state")

    def __init__(self, state: GameState, known: Known | None = None) -> None:
        self.state = state
        self.known = Known(state) if known is None else known
        self.given: dict[tuple[int | None, bool], tuple[Step, ...]] = {}

    def steps(self, seat: int | None) -> tuple[Step, ...]:
        """The legal steps of ``seat`` (None: every seat's), made once."""
        lists = self.known.lists
        steps = lists.get(seat)
        if steps is None:
            state = self.state
            steps = legal_steps(state) if seat is None else seat_steps(state, seat)
            lists[seat] = steps
        return steps

    def then(self, step: Step, state: GameState) -> Listed:
        """The :class:`Listed` of ``state``, reached by ``step`` from this one."""
        return Listed(state, self.known.then(step, state))

    @staticmethod
    def back(state: GameState, before: Listed) -> Listed:
        """The :class:`Listed` of ``state``, reached by an undo back to ``before``'s
        state."""
        return Listed(state, before.known if same_steps(state, before.state) else None)

    def find(self, step: object) -> Step | None:
        """The listed step equal to ``step``, of its very class, in a list given out
        for this state (those lists hold legal steps only, and past the undo cap only
        the finishable ones), for a step that has an unchecked handler; else None."""
        cls = type(step)
        if cls not in LISTED_HANDLERS:
            return None
        for steps in self.given.values():
            try:
                hit = steps[steps.index(step)]
            except ValueError:
                continue
            except Exception:  # a forged field's comparison: the checked path
                return None
            if type(hit) is cls:
                return hit
        return None
