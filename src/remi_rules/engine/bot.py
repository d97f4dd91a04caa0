"""The :class:`Bot` protocol and a driver that plays rounds with bots.

Bots live above the engine (:mod:`remi_rules.bots`, built on the solver); the engine only
defines what it asks of them: given a :class:`~remi_rules.engine.view.PlayerView`,
return a step.  The caller passes the bots in, so the engine never imports them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from ..errors import EngineArgumentError, EngineErrorCode
from ..scoring import RoundResult
from .game import Game
from .state import Phase
from .steps import Step
from .view import PlayerView

__all__ = ["Bot", "play_round"]


@runtime_checkable
class Bot(Protocol):
    """Anything with ``choose(view) -> step``.  ``choose`` is called for the seat
    whose turn it is; a bot may also define ``react(view) -> step | None``, called for
    the other seats after every step, to make an out-of-turn step (announce the atu
    or few tiles, declare pe tablă)."""

    def choose(self, view: PlayerView) -> Step: ...


def play_round(game: Game, bots: Sequence[Bot], *, max_steps: int = 100_000) -> RoundResult:
    """Let ``bots`` (one per seat) play ``game`` to its end and return the result.
    An illegal step from a bot raises :class:`~remi_rules.IllegalStepError`; a wrong
    number of bots, or a round longer than ``max_steps`` steps,
    :class:`~remi_rules.errors.EngineArgumentError` (``engine_bot_count``,
    ``engine_round_too_long``)."""
    if not isinstance(game, Game):
        raise TypeError(f"game must be a Game, not {type(game).__name__}")
    if isinstance(bots, str | bytes) or not isinstance(bots, Sequence):
        raise TypeError(f"bots must be a sequence of bots, not {type(bots).__name__}")
    if type(max_steps) is not int:
        raise TypeError(f"max_steps must be an int, not {type(max_steps).__name__}")
    for bot in bots:
        if not callable(getattr(bot, "choose", None)):
            raise TypeError(f"a bot needs a choose(view) method: {type(bot).__name__}")
    if len(bots) != game.state.players:
        raise EngineArgumentError(
            EngineErrorCode.BOT_COUNT, players=game.state.players, bots=len(bots)
        )
    reacts = [
        (seat, react) for seat, bot in enumerate(bots) if (react := getattr(bot, "react", None))
    ]
    choose = [bot.choose for bot in bots]
    over = Phase.OVER
    for _ in range(max_steps):
        for seat, react in reacts:
            if game.state.phase is over:
                break
            step = react(game.view(seat))
            if step is not None:
                game.apply(step)
        state = game.state
        if state.phase is over:
            break
        seat = state.current
        game.apply(choose[seat](game.view(seat)))
    else:
        raise EngineArgumentError(EngineErrorCode.ROUND_TOO_LONG, max_steps=max_steps)
    result = game.result()
    assert result is not None
    return result
