"""Format versions and migrations (docs/saving.md): an older document is brought to
the current version, a knob added later getting its documented default, after its
fingerprint is checked under the old knob set.  No knob has been added yet, so each
test stages one: the current files with a knob taken out stand for version 1, and
the library is made to write version 2, the knob added by ``KNOBS_ADDED``."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from remi_rules import serde
from remi_rules.errors import InvalidStateError, StateErrorCode
from remi_rules.serde import _migrations as migrations

S = StateErrorCode
DATA = Path(__file__).resolve().parent / "data"
KNOB = "pe_tabla_bonus"  # the same in every preset


def _text(name: str) -> str:
    return (DATA / name).read_text(encoding="utf-8")


def _older(doc: dict[str, Any]) -> dict[str, Any]:
    """``doc`` as version 1 would have written it had ``KNOB`` not existed yet."""
    old = copy.deepcopy(doc)
    del old["rules"][KNOB]
    old["fingerprint"] = migrations._fingerprint(old["rules"])
    old["format_version"] = 1
    return old


@pytest.fixture
def knob_added(monkeypatch: pytest.MonkeyPatch) -> int:
    """Version 2 adds ``KNOB`` (its default: the value the files of tests/data hold)."""
    value: int = json.loads(_text("game-clasic-4p-finished.json"))["rules"][KNOB]
    monkeypatch.setattr(migrations, "KNOBS_ADDED", [migrations.KnobAdded(2, KNOB, value)])
    monkeypatch.setitem(migrations.FORMAT_VERSIONS, "game", 2)
    monkeypatch.setitem(migrations.FORMAT_VERSIONS, "record", 2)
    monkeypatch.setitem(migrations.FORMAT_VERSIONS, "match", 2)
    return value


def test_the_current_files_need_no_migration() -> None:
    doc = json.loads(_text("game-online-3p-in-progress.json"))
    assert doc["format_version"] == migrations.current_version("game") == 1
    assert migrations.migrate(doc, "game") == doc


@pytest.mark.parametrize("name", ["game-clasic-4p-finished.json", "record-online-3p-finished.json"])
def test_an_older_document_gets_the_knob_s_default(knob_added: int, name: str) -> None:
    doc = json.loads(_text(name))
    old = _older(doc)
    assert KNOB not in old["rules"] and old["fingerprint"] != doc["fingerprint"]
    if name.startswith("game"):
        dump = serde.dump_game(serde.load_game(old))
    else:
        dump = serde.dump_record(serde.load_record(old))
    assert dump == {**doc, "format_version": 2}
    assert old["format_version"] == 1 and KNOB not in old["rules"]  # the input is untouched


def test_an_older_match_and_its_rounds_are_migrated(knob_added: int) -> None:
    doc = json.loads(_text("match-clasic-3p.json"))
    old = _older(doc)
    old["rounds"] = [_older(r) for r in doc["rounds"]]
    match = serde.load_match(old)
    dump = serde.dump_match(match)
    assert dump["format_version"] == 2 and dump["fingerprint"] == doc["fingerprint"]
    assert [r["format_version"] for r in dump["rounds"]] == [2, 2, 2]
    assert [r["state"] for r in dump["rounds"]] == [r["state"] for r in doc["rounds"]]


def test_the_old_fingerprint_is_checked_before_the_rules_are_rewritten(knob_added: int) -> None:
    old = _older(json.loads(_text("game-rummy45-2p-finished.json")))
    old["rules"]["closing_bonus"] += 1  # rules other than those the fingerprint names
    with pytest.raises(InvalidStateError) as err:
        serde.load_game(old)
    assert err.value.code is S.FINGERPRINT and err.value.details["path"] == "fingerprint"
    assert err.value.details["expected"] == migrations._fingerprint(old["rules"])


def test_an_older_document_holding_the_newer_knob_is_refused(knob_added: int) -> None:
    old = _older(json.loads(_text("record-clasic-4p-finished.json")))
    old["rules"][KNOB] = knob_added
    old["fingerprint"] = migrations._fingerprint(old["rules"])
    with pytest.raises(InvalidStateError) as err:
        serde.load_record(old)
    assert err.value.code is S.UNKNOWN_KEY and err.value.details["path"] == f"rules.{KNOB}"


@pytest.mark.parametrize("version", [0, -1, 3])
def test_versions_outside_the_chain_are_refused(knob_added: int, version: int) -> None:
    for name, load in (
        ("game-clasic-4p-finished.json", serde.load_game),
        ("match-clasic-3p.json", serde.load_match),
    ):
        doc = {**json.loads(_text(name)), "format_version": version}
        with pytest.raises(InvalidStateError) as err:
            load(doc)
        assert err.value.code is S.FORMAT_VERSION
        assert err.value.details["expected"] == 2 and err.value.details["got"] == version


def test_a_document_is_written_in_the_current_version(knob_added: int) -> None:
    game = serde.load_game(_older(json.loads(_text("game-clasic-4p-in-progress.json"))))
    assert serde.dump_game(game)["format_version"] == 2
    assert serde.dump_record(game)["format_version"] == 2
    assert serde.dump_view(game.view(0))["format_version"] == 1  # a view is not versioned with them
