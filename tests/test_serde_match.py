"""Saving and loading a match (SCORE-10): the config travels with the rules, every
round as a saved game, and loading is strict."""

from __future__ import annotations

import copy
import json

import attrs
import pytest

from remi_rules import InvalidStateError, StateErrorCode, variants
from remi_rules.engine import Match, MatchConfig
from remi_rules.engine.game import Game
from remi_rules.serde import dump_match, load_match

RULES = attrs.evolve(variants.get("clasic"), max_turns_per_round=20)  # rounds end by the cap


def _play_round(game: Game) -> None:
    """Draw and discard the drawn tile until the turn cap ends the round."""
    from remi_rules.engine import Discard, Draw, Phase

    while not game.over:
        state = game.state
        if state.phase is Phase.TAKE:
            game.apply(Draw())
        else:
            game.apply(Discard(state.rack(state.current)[-1]))


def _match(rounds: int = 2) -> Match:
    match = Match(RULES, 3, MatchConfig(rounds=rounds), seed=4)
    _play_round(match.game)
    match.next_round()
    return match


@pytest.mark.rule("SCORE-10")
def test_a_match_round_trips() -> None:
    match = _match()
    data = json.loads(json.dumps(dump_match(match)))
    loaded = load_match(data)
    assert loaded.config == attrs.evolve(match.config, first_starter=match.first_starter)
    assert loaded.first_starter == match.first_starter
    assert [g.state for g in loaded.games] == [g.state for g in match.games]
    assert loaded.totals == match.totals
    assert dump_match(loaded) == dump_match(match)


@pytest.mark.rule("SCORE-10")
def test_a_loaded_match_plays_on() -> None:
    loaded = load_match(dump_match(_match()))
    _play_round(loaded.game)
    assert loaded.over
    results = [g.result() for g in loaded.games]
    scored = [r for r in results if r is not None]
    assert len(scored) == len(results)  # every round of the match is over
    assert sum(loaded.totals) == sum(sum(r.totals) for r in scored)


@pytest.mark.parametrize(
    ("mutate", "code", "path"),
    [
        (lambda d: d.pop("config"), StateErrorCode.MISSING_KEY, "config"),
        (lambda d: d.update(extra=1), StateErrorCode.UNKNOWN_KEY, "extra"),
        (lambda d: d.update(players=True), StateErrorCode.WRONG_TYPE, "players"),
        (lambda d: d.update(players=5), StateErrorCode.OUT_OF_RANGE, "players"),
        (lambda d: d.update(fingerprint="0" * 16), StateErrorCode.FINGERPRINT, "fingerprint"),
        (lambda d: d.update(format_version=3), StateErrorCode.FORMAT_VERSION, "format_version"),
        (
            lambda d: d["config"].update(first_starter=7),
            StateErrorCode.OUT_OF_RANGE,
            "config.first_starter",
        ),
        (
            lambda d: d["config"].update(target=100),
            StateErrorCode.BAD_VALUE,
            "config",
        ),
        (
            lambda d: d["config"]["automation"].update(scoring=1),
            StateErrorCode.WRONG_TYPE,
            "config.automation.scoring",
        ),
        (lambda d: d.update(rounds=[]), StateErrorCode.WRONG_TYPE, "rounds"),
        (lambda d: d["rounds"].reverse(), StateErrorCode.BAD_VALUE, "rounds[0].state.starter"),
        (lambda d: d["rounds"][1].update(extra=1), StateErrorCode.UNKNOWN_KEY, "rounds[1].extra"),
        (
            lambda d: d["rounds"][0]["state"].update(turn=0),
            StateErrorCode.OUT_OF_RANGE,
            "rounds[0].state.turn",
        ),
    ],
)
def test_a_bad_match_is_refused_with_its_path(mutate, code, path) -> None:  # type: ignore[no-untyped-def]
    data = copy.deepcopy(dump_match(_match()))
    mutate(data)
    with pytest.raises(InvalidStateError) as info:
        load_match(data)
    assert info.value.code is code
    assert info.value.details["path"] == path
