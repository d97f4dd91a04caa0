"""Saved matches: the ruleset, the :class:`~remi_rules.engine.MatchConfig` and every
round as a saved game (see :mod:`remi_rules.serde`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import attrs

from .._fields import PLAYERS
from ..engine import Game, Match, MatchConfig
from ..errors import InvalidStateError, StateErrorCode
from ..ruleset import Ruleset
from ._bounds import _json_type, _scan, _show
from ._convert import field_hook, structure, unstructure
from ._documents import read_rules
from ._migrations import current_version, migrate
from ._size import MAX_DOCUMENT_BYTES
from .games import _parse, dump_game, load_game
from .rulesets import ruleset_to_dict

__all__ = ["dump_match", "load_match", "loads_match"]

_S: Final = StateErrorCode
_KEYS: Final = ("config", "fingerprint", "format_version", "kind", "players", "rounds", "rules")
_READ_PLAYERS: Final = field_hook(int, PLAYERS)


def dump_match(match: Match) -> dict[str, Any]:
    """A :class:`~remi_rules.engine.Match` as plain JSON values: the rules and their
    fingerprint, the config (SCORE-10: a match is ours to define, so it is saved with
    the rules), and every round as :func:`~remi_rules.serde.dump_game` writes it."""
    if not isinstance(match, Match):
        raise TypeError(f"expected a Match, not {type(match).__name__}")
    return {
        "kind": "match",
        "format_version": current_version("match"),
        "fingerprint": match.rules.fingerprint(),
        "rules": ruleset_to_dict(match.rules),
        "players": match.players,
        "config": unstructure(attrs.evolve(match.config, first_starter=match.first_starter)),
        "rounds": [dump_game(game) for game in match.games],
    }


def _child(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _fail(code: StateErrorCode, path: str, **details: object) -> InvalidStateError:
    return InvalidStateError(code, path=path, **details)


def _keys(data: object, keys: tuple[str, ...], path: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise _fail(_S.WRONG_TYPE, path or "$", expected="object", got=_json_type(data))
    for key in data:
        if key not in keys:
            raise _fail(_S.UNKNOWN_KEY, _child(path, str(_show(key))), key=_show(key))
    for key in keys:
        if key not in data:
            raise _fail(_S.MISSING_KEY, _child(path, key), key=key)
    return data


def load_match(data: Mapping[str, Any], *, seed: int | str | None = None) -> Match:
    """A :class:`~remi_rules.engine.Match` from :func:`dump_match`'s data, checked
    strictly: first the bounds of every document (:data:`~remi_rules.serde.MAX_DOCUMENT_BYTES`
    for the whole match, :data:`~remi_rules.serde.MAX_INTEGER`,
    :data:`~remi_rules.serde.MAX_STRING_LENGTH`, :data:`~remi_rules.serde.MAX_DEPTH`),
    then every round as :func:`~remi_rules.serde.load_game` checks a game, the rounds
    under the match's rules, the starter rotating, only the last round unfinished.
    Later rounds are dealt with ``random.Random(seed)``; the chance of the round in play
    (an online reshuffle, a redeal) comes from a generator seeded from ``seed`` too
    (fresh randomness from the operating system for None).  Raises
    :class:`~remi_rules.errors.InvalidStateError` naming the path."""
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int | str)):
        raise TypeError(f"seed must be an int, a str or None, not {type(seed).__name__}")
    current = current_version("match")
    version = data.get("format_version") if isinstance(data, dict) else None
    if type(version) is int and not 1 <= version <= current:  # a newer file says so first
        raise _fail(_S.FORMAT_VERSION, "format_version", got=_show(version), expected=current)
    _scan(data, MAX_DOCUMENT_BYTES)
    doc = _keys(data, _KEYS, "")
    if doc["kind"] != "match":
        raise _fail(_S.BAD_VALUE, "kind", why="not_a_match")
    if type(doc["format_version"]) is not int or not 1 <= doc["format_version"] <= current:
        raise _fail(
            _S.FORMAT_VERSION, "format_version", got=_show(doc["format_version"]), expected=current
        )
    if doc["format_version"] != current:  # an older match: brought to this version first
        doc = migrate(doc, "match")
    rules: Ruleset = read_rules(doc["rules"], "rules")
    if doc["fingerprint"] != rules.fingerprint():
        raise _fail(
            _S.FINGERPRINT,
            "fingerprint",
            got=_show(doc["fingerprint"]),
            expected=rules.fingerprint(),
        )
    players: int = structure(doc["players"], int, "players", hook=_READ_PLAYERS)
    config: MatchConfig = structure(doc["config"], MatchConfig, "config", players=players)
    first = config.first_starter
    if first is None:
        raise _fail(_S.WRONG_TYPE, "config.first_starter", expected="integer", got="null")
    automation = config.automation
    rounds = doc["rounds"]
    if not isinstance(rounds, list) or not rounds:
        raise _fail(
            _S.WRONG_TYPE, "rounds", expected="a non-empty array", got=type(rounds).__name__
        )
    if len(rounds) > config.max_rounds and config.target is not None:
        raise _fail(_S.BAD_VALUE, "rounds", why="more_than_max_rounds")
    games: list[Game] = []
    for k, saved in enumerate(rounds):
        path = f"rounds[{k}]"
        try:
            chance = None if seed is None else f"load_match {seed!r}: round {k}"
            game = load_game(saved, automation=automation, seed=chance)
        except InvalidStateError as err:
            inner = str(err.details.get("path", "$")).removeprefix("$")
            if inner and not inner.startswith((".", "[")):
                inner = "." + inner
            raise _fail(
                err.code,
                path + inner,
                **{key: value for key, value in err.details.items() if key != "path"},
            ) from err
        if game.rules != rules:
            raise _fail(_S.BAD_VALUE, f"{path}.rules", why="other_rules")
        if game.state.players != players:
            raise _fail(_S.BAD_VALUE, f"{path}.players", why="other_players")
        if game.state.starter != (first + k) % players:
            raise _fail(_S.BAD_VALUE, f"{path}.state.starter", why="starter_rotates")
        if k < len(rounds) - 1 and not game.over:
            raise _fail(_S.BAD_PHASE, f"{path}.state.phase", why="last_round_unfinished")
        games.append(game)
    match = Match.from_games(rules, players, config, games, first_starter=first, seed=seed)
    if len(games) > 1 and _over_before_last(match):
        raise _fail(_S.BAD_VALUE, "rounds", why="rounds_after_end")
    return match


def loads_match(text: str, *, seed: int | str | None = None) -> Match:
    """:func:`load_match` of JSON text: text longer than
    :data:`~remi_rules.serde.MAX_DOCUMENT_BYTES` is ``state_document_too_large`` before
    it is parsed, text that is not JSON is ``state_not_json``; linear in its length."""
    return load_match(_parse(text), seed=seed)


def _over_before_last(match: Match) -> bool:
    """The match was already over before its last round was dealt."""
    shorter = Match.from_games(
        match.rules,
        match.players,
        match.config,
        match.games[:-1],
        first_starter=match.first_starter,
    )
    return shorter.over
