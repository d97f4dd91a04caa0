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

from ..bots import FastBot, GreedyBot, RandomBot
from ..engine import Bot, Game, play_round
from ..errors import InvalidSimulationError, SimErrorCode
from ..ruleset import Ruleset

__all__ = ["BOTS", "END_REASONS", "RoundOutcome", "SimTask", "make_bot", "run_task"]

END_REASONS: Final = ("closed", "stock_exhausted", "max_turns")
"""How a round can end (:class:`~remi_rules.engine.EndReason`), in report order."""


def check_int(what: str, value: object) -> int:
    """``value`` if it is an ``int`` (not a ``bool``), else :class:`TypeError`."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{what} must be an int, not {type(value).__name__}")
    return value


def check_str(what: str, value: object) -> str:
    """``value`` if it is a ``str``, else :class:`TypeError`."""
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a str, not {type(value).__name__}")
    return value


def _greedy(seed: int) -> Bot:
    check_int("seed", seed)
    return GreedyBot()


def _random(seed: int) -> Bot:
    return RandomBot(seed=check_int("seed", seed))


def _fast(seed: int) -> Bot:
    return FastBot(seed=check_int("seed", seed))


BOTS: Final[dict[str, Callable[[int], Bot]]] = {
    "greedy": _greedy,
    "fast": _fast,
    "random": _random,
}
"""The bots a simulation can seat, by name; each factory takes a seed (an ``int``)."""


def make_bot(name: str, seed: int) -> Bot:
    """The bot called ``name`` (a key of :data:`BOTS`), seeded with ``seed``.

    Raises :class:`~remi_rules.errors.InvalidSimulationError`
    (:attr:`~remi_rules.errors.SimErrorCode.UNKNOWN_BOT`) for a name it does not know,
    :class:`TypeError` for a name that is no ``str`` or a seed that is no ``int``."""
    try:
        factory = BOTS[check_str("a bot name", name)]
    except KeyError:
        raise InvalidSimulationError(
            SimErrorCode.UNKNOWN_BOT, name=name, known=", ".join(BOTS)
        ) from None
    return factory(seed)


def check_bots(bots: object) -> tuple[str, ...]:
    """``bots`` as a tuple of 2 to 4 known bot names (from a tuple or a list);
    :class:`TypeError` for anything else than a tuple or list of ``str``,
    :class:`~remi_rules.errors.InvalidSimulationError` for a seat count or a name
    out of range."""
    if not isinstance(bots, tuple | list):
        raise TypeError(f"bots must be a tuple of bot names, not {type(bots).__name__}")
    names = tuple(check_str("a bot name", name) for name in bots)
    if not 2 <= len(names) <= 4:
        raise InvalidSimulationError(SimErrorCode.BAD_SEATS, count=len(names))
    for name in names:
        if name not in BOTS:
            raise InvalidSimulationError(SimErrorCode.UNKNOWN_BOT, name=name, known=", ".join(BOTS))
    return names


@attrs.frozen
class SimTask:
    """Play the rounds ``first_seed`` … ``stop_seed - 1`` under ``rules``, seat ``s``
    taken by ``bots[s]``.  Round ``seed`` is ``Game.new(rules, players, seed=seed)``
    (the deal and the first dealer from that seed), its bots seeded with
    ``seed * 10 + seat``.

    Checked when made: :class:`TypeError` for a wrong type (``rules`` no
    :class:`~remi_rules.ruleset.Ruleset`, a seed no ``int``, ``bots`` no tuple or
    list of ``str``); :class:`~remi_rules.errors.InvalidSimulationError` for 2 to 4
    bots out of range, an unknown bot, or ``stop_seed < first_seed``."""

    rules: Ruleset
    bots: tuple[str, ...] = attrs.field(converter=check_bots)
    first_seed: int
    stop_seed: int
    label: str = ""

    def __attrs_post_init__(self) -> None:
        if not isinstance(self.rules, Ruleset):
            raise TypeError(f"rules must be a Ruleset, not {type(self.rules).__name__}")
        check_int("first_seed", self.first_seed)
        check_int("stop_seed", self.stop_seed)
        check_str("label", self.label)
        if self.stop_seed < self.first_seed:
            raise InvalidSimulationError(
                SimErrorCode.BAD_SEED_RANGE, first_seed=self.first_seed, stop_seed=self.stop_seed
            )

    @property
    def players(self) -> int:
        return len(self.bots)


@attrs.frozen
class RoundOutcome:
    """One simulated round: how long it lasted, how it ended, what each seat scored.

    Checked when made, so that :func:`~remi_rules.sim.summarize` only ever sees
    possible rounds: :class:`TypeError` for a wrong type,
    :class:`~remi_rules.errors.InvalidSimulationError`
    (:attr:`~remi_rules.errors.SimErrorCode.BAD_OUTCOME`) for 2 to 4 totals out of
    range, a starter or closer who is no seat, a negative length, an unknown reason,
    a close without a closer or a closer without a close."""

    seed: int
    starter: int
    turns: int
    """The turn number at the end: the round's length in turns."""
    reason: str
    """``closed``, ``stock_exhausted`` or ``max_turns`` (:class:`~remi_rules.engine.EndReason`)."""
    closer: int | None
    totals: tuple[int, ...]

    def __attrs_post_init__(self) -> None:
        check_int("seed", self.seed)
        check_int("starter", self.starter)
        check_int("turns", self.turns)
        check_str("reason", self.reason)
        if self.closer is not None:
            check_int("closer", self.closer)
        if not isinstance(self.totals, tuple):
            raise TypeError(f"totals must be a tuple, not {type(self.totals).__name__}")
        for total in self.totals:
            check_int("a total", total)
        seats = len(self.totals)
        why = None  # a sub-code (the catalogue entry why:<sub>)
        if not 2 <= seats <= 4:
            why = "outcome_seats"
        elif not 0 <= self.starter < seats:
            why = "outcome_starter"
        elif self.turns < 0:
            why = "outcome_turns"
        elif self.reason not in END_REASONS:
            why = "outcome_end"
        elif (self.reason == "closed") != (self.closer is not None):
            why = "outcome_closer_end"
        elif self.closer is not None and not 0 <= self.closer < seats:
            why = "outcome_closer"
        if why is not None:
            raise InvalidSimulationError(
                SimErrorCode.BAD_OUTCOME,
                why=why,
                seats=seats,
                starter=self.starter,
                turns=self.turns,
                end=self.reason,
                closer=self.closer,
            )


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
    """Play every round of ``task``, in seed order (:class:`TypeError` if ``task`` is
    no :class:`SimTask`)."""
    if not isinstance(task, SimTask):
        raise TypeError(f"task must be a SimTask, not {type(task).__name__}")
    return tuple(
        run_round(task.rules, task.bots, s) for s in range(task.first_seed, task.stop_seed)
    )
