"""The simulator's unit of work: a pure task (a ruleset, the bots, a range of seeds)
and what each of its rounds came to.

:func:`run_task` depends on nothing but its :class:`SimTask`: the same task gives the
same :class:`RoundOutcome` values on any machine, in any process, under any
scheduler (a process pool, a Ray cluster), which is what makes a simulation's numbers
independent of how it was spread out.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

import attrs

from ..bots import GreedyBot, RandomBot
from ..engine import Bot, Game, play_round
from ..ruleset import Ruleset

__all__ = ["BOTS", "RoundOutcome", "SimTask", "make_bot", "run_task"]

BOTS: Final[dict[str, Callable[[int], Bot]]] = {
    "greedy": lambda seed: GreedyBot(),
    "random": lambda seed: RandomBot(seed=seed),
}
"""The bots a simulation can seat, by name; each factory takes a seed."""


def make_bot(name: str, seed: int) -> Bot:
    """The bot called ``name`` (a key of :data:`BOTS`), seeded with ``seed``."""
    try:
        factory = BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; use one of {', '.join(BOTS)}") from None
    return factory(seed)


@attrs.frozen
class SimTask:
    """Play the rounds ``first_seed`` … ``stop_seed - 1`` under ``rules``, seat ``s``
    taken by ``bots[s]``.  Round ``seed`` is ``Game.new(rules, players, seed=seed)``
    (the deal and the first dealer from that seed), its bots seeded with
    ``seed * 10 + seat``."""

    rules: Ruleset
    bots: tuple[str, ...]
    first_seed: int
    stop_seed: int
    label: str = ""

    @property
    def players(self) -> int:
        return len(self.bots)


@attrs.frozen
class RoundOutcome:
    """One simulated round: how long it lasted, how it ended, what each seat scored."""

    seed: int
    starter: int
    turns: int
    """The turn number at the end: the round's length in turns."""
    reason: str
    """``closed``, ``stock_exhausted`` or ``max_turns`` (:class:`~remi_rules.engine.EndReason`)."""
    closer: int | None
    totals: tuple[int, ...]


def run_round(rules: Ruleset, bots: tuple[str, ...], seed: int) -> RoundOutcome:
    """Play round ``seed`` (see :class:`SimTask`)."""
    game = Game.new(rules, len(bots), seed=seed)
    seated = [make_bot(name, seed * 10 + seat) for seat, name in enumerate(bots)]
    result = play_round(game, seated)
    end = game.state.end
    assert end is not None
    return RoundOutcome(
        seed=seed,
        starter=game.state.starter,
        turns=game.state.turn,
        reason=end.reason.value,
        closer=end.closer,
        totals=tuple(result.totals),
    )


def run_task(task: SimTask) -> tuple[RoundOutcome, ...]:
    """Play every round of ``task``, in seed order."""
    return tuple(
        run_round(task.rules, task.bots, s) for s in range(task.first_seed, task.stop_seed)
    )
