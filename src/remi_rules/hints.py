"""The turn hint ("Sugestie", ONLINE-06): the best whole turn from a seat's view.

:func:`hint` looks at a :class:`~remi_rules.engine.PlayerView` and returns a
:class:`TurnPlan`: what to take (the stock, the last discard, a rupere at which tile,
the atu), which melds to put down, which tiles to lay off, which jokers to swap, and
which tile to discard or close with; ``plan.steps`` are engine steps that apply
legally, in order, from the view's position, and ``plan.reason("ro")`` /
``plan.reason("en")`` says why in words a player follows.

How a plan is found (docs/solver.md, "The hint"):

* Every candidate turn is built from the exact solver (:mod:`remi_rules.solver`): the
  best opening under the ruleset, or the best melds with lay-offs, the justifying meld
  of a taken discard first, joker swaps tried with and without, and every tile tried
  as the closing tile when a close is near.
* Each candidate is played out step by step on a copy of the position (the engine's
  own :func:`~remi_rules.engine.transition.apply_step`), so only legal turns survive,
  the turn-end checks included; the survivors are scored (a close by the round's
  real score for the seat, else the points put down, an opening, and what is left on
  the rack) and the best one wins.
* A draw from the stock is valued by playing the rest of the turn with a few tiles
  the seat cannot see (a seeded sample, so the same view gives the same hint); a
  plan that draws stops after the draw, because what follows depends on the tile:
  ask again once it is on the rack (``plan.complete`` is False).
"""

from __future__ import annotations

from ._hint_explain import Note, NoteCode, TurnPlan
from ._hint_turn import Planner
from .engine import Phase, PlayerView
from .errors import HintError, HintErrorCode
from .ruleset import Ruleset, require_ruleset

__all__ = ["Note", "NoteCode", "TurnPlan", "hint"]


def hint(view: PlayerView, rules: Ruleset | None = None, *, samples: int = 3) -> TurnPlan:
    """The best turn for ``view.seat`` from where the round stands (ONLINE-06).

    ``view`` is the seat's :class:`~remi_rules.engine.PlayerView` (``game.view(seat)``);
    ``rules``, if given, must be the view's ruleset.  ``samples`` is how many unseen
    tiles value a draw from the stock (0: one tile, the top of a sampled stock).
    Raises :class:`~remi_rules.HintError` (code: a :class:`~remi_rules.HintErrorCode`)
    when it is not the seat's turn, the round is over or ``rules`` differ.

    >>> from remi_rules import variants
    >>> from remi_rules.engine import Game
    >>> game = Game.new(variants.get("clasic"), 4, seed=5, starter=0)
    >>> plan = hint(game.view(0))                 # the starter's first turn: a discard
    >>> [s.kind for s in plan.steps], plan.notes[0].code.value
    (['discard'], 'first_turn')
    >>> for step in plan.steps:
    ...     _ = game.apply(step)
    """
    if not isinstance(view, PlayerView):
        raise TypeError(f"hint needs a PlayerView, not {type(view).__name__}")
    if rules is not None and require_ruleset(rules) != view.rules:
        raise HintError(
            HintErrorCode.RULES_MISMATCH,
            given=rules.fingerprint(),
            expected=view.rules.fingerprint(),
        )
    if view.phase is Phase.OVER:
        raise HintError(HintErrorCode.ROUND_OVER)
    if view.current != view.seat:
        raise HintError(HintErrorCode.NOT_YOUR_TURN, seat=view.seat)
    if type(samples) is not int or samples < 0:
        raise HintError(HintErrorCode.BAD_SAMPLES, samples=samples)
    return Planner(view, samples).plan()
