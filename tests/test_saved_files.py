"""The files of tests/data/, written by an earlier version of the library (see
tests/data/generate.py), load forever after: each loads, and dumps back byte for byte
the same (a file of an older format version would dump as the current version, by the
documented migration: see docs/saving.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Literal

import pytest

from remi_rules import serde

DATA = Path(__file__).resolve().parent / "data"


def _names(pattern: str) -> list[str]:
    names = sorted(p.name for p in DATA.glob(pattern))
    assert names, pattern
    return names


def _text(name: str) -> str:
    return (DATA / name).read_text(encoding="utf-8")


@pytest.mark.parametrize("name", _names("game-*.json"))
def test_a_saved_game_loads_and_dumps_back_the_same(name: str) -> None:
    text = _text(name)
    game = serde.loads_game(text)
    assert serde.dumps_game(game) == text
    assert serde.load_game(json.loads(text)).state == game.state


@pytest.mark.parametrize("name", _names("record-*.json"))
def test_a_saved_record_loads_and_dumps_back_the_same(name: str) -> None:
    text = _text(name)
    record = serde.loads_record(text)
    assert serde.dumps_record(record) == text
    # the record of a game is the game's own record
    game_text = _text(name.replace("record-", "game-"))
    assert serde.loads_game(game_text).record() == record


@pytest.mark.parametrize("name", _names("view-*.json"))
def test_a_saved_view_is_what_the_saved_game_shows(name: str) -> None:
    game = serde.loads_game(_text(name.replace("view-", "game-")))
    view = game.view(game.state.current)
    assert json.dumps(serde.dump_view(view), sort_keys=True) == _text(name)


def test_a_saved_match_loads_and_dumps_back_the_same() -> None:
    text = _text("match-clasic-3p.json")
    match = serde.loads_match(text)
    assert len(match.games) == 3 and not match.game.over
    assert json.dumps(serde.dump_match(match), sort_keys=True) == text


@pytest.mark.parametrize("name", _names("house-rules*.*"))
def test_a_house_rules_file_loads_and_dumps_back_the_same(name: str) -> None:
    text = _text(name)
    fmt: Literal["json", "toml"] = "toml" if name.endswith(".toml") else "json"
    rules = serde.loads_house_rules(text, fmt)
    base = "online" if "online" in name else "clasic"
    assert serde.dumps_house_rules(rules, base, fmt) == text
    assert serde.load_house_rules(DATA / name) == rules


def test_a_saved_ruleset_loads_and_dumps_back_the_same() -> None:
    text = _text("ruleset-online.json")
    rules = serde.ruleset_from_dict(json.loads(text))
    assert json.dumps(serde.ruleset_to_dict(rules), sort_keys=True) == text
