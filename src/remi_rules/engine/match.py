"""A match: several rounds at one table, the starter rotating (DEAL-01), totals
added up.  No source defines a match (SCORE-10); :class:`MatchConfig`'s defaults are
ours: one round per player (each seat starts once), or play until someone reaches
``target`` points.

>>> from remi_rules import variants
>>> from remi_rules.engine import Match, MatchConfig
>>> match = Match(variants.get("clasic"), 3, MatchConfig(rounds=2), seed=1)
>>> [g.state.starter for g in match.games], match.over
([1], False)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import attrs

from .._fields import ints
from ..errors import EngineArgumentError, EngineErrorCode
from ..ruleset import Ruleset, require_ruleset
from ._typed import check_players, of_type
from .automation import Automation
from .bot import Bot, play_round
from .game import Game
from .record import GameRecord

__all__ = ["Match", "MatchConfig", "MatchRecord"]


MAX_MATCH_ROUNDS = 10_000
"""The most rounds a saved match may ask for (``rounds``, ``max_rounds``)."""


def _positive(_inst: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if value is None:
        return
    if type(value) is not int:
        raise TypeError(f"{attribute.name} must be an int or None, not {type(value).__name__}")
    if value < 1:
        raise EngineArgumentError(
            EngineErrorCode.BAD_MATCH_CONFIG, why="at_least_one", field=attribute.name
        )


def _seat_or_none(_inst: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if value is not None and type(value) is not int:
        raise TypeError(f"{attribute.name} must be an int or None, not {type(value).__name__}")


@attrs.frozen(kw_only=True)
class MatchConfig:
    """How long a match lasts; separate from the Ruleset, saved with it.

    ``rounds``: a fixed number of rounds (default: one per player, so each seat starts
    once).  ``target``: instead, play until a seat's total reaches ``target`` at the
    end of a round (at most ``max_rounds``).  ``first_starter``: the first round's
    starter (default: the first dealer is drawn at random, DEAL-01)."""

    # The metadata bound the fields in a saved match (remi_rules.serde): ``lo``/``hi``,
    # ``seat`` for a seat number (below the number of players).
    rounds: int | None = attrs.field(
        default=None, validator=_positive, metadata=ints(1, MAX_MATCH_ROUNDS)
    )
    target: int | None = attrs.field(default=None, validator=_positive, metadata=ints(1, 10**9))
    max_rounds: int = attrs.field(
        default=100, validator=_positive, metadata=ints(1, MAX_MATCH_ROUNDS)
    )
    first_starter: int | None = attrs.field(
        default=None, validator=_seat_or_none, metadata=ints(0, seat=True)
    )
    automation: Automation = attrs.field(default=Automation(), validator=of_type(Automation))

    def __attrs_post_init__(self) -> None:
        if self.rounds is not None and self.target is not None:
            raise EngineArgumentError(EngineErrorCode.BAD_MATCH_CONFIG, why="rounds_or_target")


@attrs.frozen(kw_only=True)
class MatchRecord:
    """The config and each round's record (:class:`GameRecord`)."""

    rules: Ruleset
    players: int
    config: MatchConfig
    rounds: tuple[GameRecord, ...]


class Match:
    """Rounds played in turn: :attr:`game` is the current one; when it is over,
    :meth:`next_round` deals the next with the starter rotated (DEAL-01,
    ``starter_rotation = next_in_turn_order``)."""

    def __init__(
        self,
        rules: Ruleset,
        players: int | Sequence[str],
        config: MatchConfig | None = None,
        *,
        seed: int | str | None = None,
    ) -> None:
        self.rules = require_ruleset(rules)
        if config is not None and not isinstance(config, MatchConfig):
            raise TypeError(f"config must be a MatchConfig, not {type(config).__name__}")
        self.config = config or MatchConfig()
        if seed is not None and not isinstance(seed, int | str | bytes):
            raise TypeError(f"seed must be an int, a str or None, not {type(seed).__name__}")
        self._rng = random.Random(seed)
        self._players = players
        self.games: list[Game] = []
        n = check_players(players)
        self.players = n
        first = self.config.first_starter
        if first is None:
            first = (self._rng.randrange(n) + 1) % n  # the first dealer at random
        if not 0 <= first < n:
            raise EngineArgumentError(EngineErrorCode.BAD_SEAT, seat=first, players=n)
        self._first = first
        self._deal()

    @classmethod
    def from_games(
        cls,
        rules: Ruleset,
        players: int | Sequence[str],
        config: MatchConfig,
        games: Sequence[Game],
        *,
        first_starter: int,
        seed: int | str | None = None,
    ) -> Match:
        """A match rebuilt from its rounds (as loaded by :func:`remi_rules.serde.load_match`);
        later rounds are dealt with ``random.Random(seed)``."""
        match = cls.__new__(cls)
        match.rules = require_ruleset(rules)
        if not isinstance(config, MatchConfig):
            raise TypeError(f"config must be a MatchConfig, not {type(config).__name__}")
        match.config = config
        if seed is not None and not isinstance(seed, int | str | bytes):
            raise TypeError(f"seed must be an int, a str or None, not {type(seed).__name__}")
        match._rng = random.Random(seed)
        match._players = players
        match.players = check_players(players)
        if type(first_starter) is not int:
            raise TypeError(f"first_starter must be an int, not {type(first_starter).__name__}")
        if not 0 <= first_starter < match.players:
            raise EngineArgumentError(
                EngineErrorCode.BAD_SEAT, seat=first_starter, players=match.players
            )
        match._first = first_starter
        if isinstance(games, str | bytes) or not isinstance(games, Sequence):
            raise TypeError(f"games must be a sequence of Games, not {type(games).__name__}")
        match.games = list(games)
        if not all(isinstance(g, Game) for g in match.games):
            raise TypeError("games must be Games")
        if not match.games:
            raise EngineArgumentError(EngineErrorCode.NO_ROUNDS)
        return match

    @property
    def first_starter(self) -> int:
        """The starter of the first round."""
        return self._first

    def _deal(self) -> None:
        starter = (self._first + len(self.games)) % self.players
        self.games.append(
            Game.new(
                self.rules,
                self._players,
                seed=self._rng.getrandbits(64),
                starter=starter,
                automation=self.config.automation,
            )
        )

    @property
    def game(self) -> Game:
        """The current round."""
        return self.games[-1]

    @property
    def totals(self) -> tuple[int, ...]:
        """Each seat's total over the finished rounds."""
        out = [0] * self.players
        for game in self.games:
            result = game.result()
            if result is not None:
                for s, total in enumerate(result.totals):
                    out[s] += total
        return tuple(out)

    @property
    def over(self) -> bool:
        if not self.game.over:
            return False
        played = len(self.games)
        cfg = self.config
        if cfg.target is not None:
            return max(self.totals) >= cfg.target or played >= cfg.max_rounds
        return played >= (cfg.rounds if cfg.rounds is not None else self.players)

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats with the highest total (all of them on a tie)."""
        totals = self.totals
        best = max(totals)
        return tuple(s for s, t in enumerate(totals) if t == best)

    def next_round(self) -> Game:
        """Deal the next round; :class:`~remi_rules.errors.EngineArgumentError`
        (``engine_match_round_pending``, ``engine_match_over``) while the current round
        is in play or once the match is over."""
        if not self.game.over:
            raise EngineArgumentError(EngineErrorCode.MATCH_ROUND_PENDING)
        if self.over:
            raise EngineArgumentError(EngineErrorCode.MATCH_OVER)
        self._deal()
        return self.game

    def play(self, bots: Sequence[Bot]) -> tuple[int, ...]:
        """Play the rest of the match with ``bots``; return the totals."""
        while True:
            if not self.game.over:
                play_round(self.game, bots)
            if self.over:
                return self.totals
            self.next_round()

    def record(self) -> MatchRecord:
        return MatchRecord(
            rules=self.rules,
            players=self.players,
            config=self.config,
            rounds=tuple(g.record() for g in self.games),
        )
