"""The files of tests/data/, written by an earlier version of the library (see
tests/data/generate.py), load forever after: each loads, and dumps back byte for byte
the same, as the current version: a file of an older format version dumps as the
documented migration writes it (docs/saving.md, "Versions and migrations")."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Literal

import attrs
import pytest

from remi_rules import serde
from remi_rules.engine import UndoInfo
from remi_rules.serde._migrations import migrate

DATA = Path(__file__).resolve().parent / "data"


def _names(pattern: str) -> list[str]:
    names = sorted(p.name for p in DATA.glob(pattern))
    assert names, pattern
    return names


def _text(name: str) -> str:
    return (DATA / name).read_text(encoding="utf-8")


def _current(text: str) -> str:
    """The file's text as the current version writes it (its documented migration)."""
    doc = json.loads(text)
    return json.dumps(migrate(doc, doc["kind"]), sort_keys=True, ensure_ascii=False)


@pytest.mark.parametrize("name", _names("game-*.json"))
def test_a_saved_game_loads_and_dumps_back_the_same(name: str) -> None:
    text = _text(name)
    game = serde.loads_game(text)
    assert serde.dumps_game(game) == _current(text)
    assert serde.load_game(json.loads(text)).state == game.state


@pytest.mark.parametrize("name", _names("record-*.json"))
def test_a_saved_record_loads_and_dumps_back_the_same(name: str) -> None:
    text = _text(name)
    record = serde.loads_record(text)
    assert serde.dumps_record(record) == _current(text)
    # the record of a game is the game's own record
    game_text = _text(name.replace("record-", "game-"))
    assert serde.loads_game(game_text).record() == record


@pytest.mark.parametrize("name", _names("view-*.json"))
def test_a_saved_view_is_what_the_saved_game_shows(name: str) -> None:
    # Version 1 views did not tell what an undo may still do: migrated, they read as
    # nothing to undo, and are otherwise the game's view, dumped as the current version.
    game = serde.loads_game(_text(name.replace("view-", "game-")))
    view = attrs.evolve(game.view(game.state.current), undo=UndoInfo())
    data = json.loads(_text(name))
    assert data["format_version"] == 1
    assert serde.dump_view(view) == migrate(data, "view")
    assert serde.load_view(data, view.rules) == view


def test_a_saved_match_loads_and_dumps_back_the_same() -> None:
    text = _text("match-clasic-3p.json")
    match = serde.loads_match(text)
    assert len(match.games) == 3 and not match.game.over
    doc = json.loads(text)
    doc = {**migrate(doc, "match"), "rounds": [migrate(r, "game") for r in doc["rounds"]]}
    assert serde.dump_match(match) == doc


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
