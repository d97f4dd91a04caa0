"""Format versions and migrations (docs/saving.md): an older document is brought to
the current version, a knob added later getting its documented default, after its
fingerprint is checked under the old knob set.  No knob has been added yet, so each
test stages one: the files (brought to the current version) with a knob taken out
stand for the current version, and the library is made to write the next, the knob
added by ``KNOBS_ADDED``.  Version 2 itself (the doubles exchange as an offer and an
acceptance) is checked on the files of version 1."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from remi_rules import serde
from remi_rules.engine import AcceptDoubles, OfferDoubles
from remi_rules.errors import InvalidStateError, StateErrorCode
from remi_rules.serde import _migrations as migrations

S = StateErrorCode
DATA = Path(__file__).resolve().parent / "data"
KNOB = "pe_tabla_bonus"  # the same in every preset


def _text(name: str) -> str:
    return (DATA / name).read_text(encoding="utf-8")


CURRENT = migrations.current_version("game")
"""The version the files are brought to (the staged knob is added in the next)."""
STAGED = CURRENT + 1


def _to_current(doc: dict[str, Any]) -> dict[str, Any]:
    """``doc`` brought to :data:`CURRENT` by the library's own steps (whatever version
    a test makes it write)."""
    for version in range(doc["format_version"] + 1, CURRENT + 1):
        step = migrations.EXTRA_STEPS.get((doc["kind"], version))
        doc = {**(step(doc) if step else doc), "format_version": version}
    return doc


def _older(doc: dict[str, Any]) -> dict[str, Any]:
    """``doc`` (brought to the current version) as that version would have written it
    had ``KNOB`` not existed yet."""
    old = copy.deepcopy(_to_current(doc))
    del old["rules"][KNOB]
    old["fingerprint"] = migrations._fingerprint(old["rules"])
    return old


@pytest.fixture
def knob_added(monkeypatch: pytest.MonkeyPatch) -> int:
    """The next version adds ``KNOB`` (its default: the value the files of tests/data
    hold)."""
    value: int = json.loads(_text("game-clasic-4p-finished.json"))["rules"][KNOB]
    added = [migrations.KnobAdded(STAGED, KNOB, value)]
    monkeypatch.setattr(migrations, "KNOBS_ADDED", added)
    for kind in ("game", "record", "match", "view"):
        monkeypatch.setitem(migrations.FORMAT_VERSIONS, kind, STAGED)
    return value


def test_a_current_document_needs_no_migration() -> None:
    doc = migrations.migrate(json.loads(_text("game-online-3p-in-progress.json")), "game")
    assert doc["format_version"] == migrations.current_version("game") == 2
    assert migrations.migrate(doc, "game") == doc


def test_version_2_turns_each_exchange_into_an_offer_and_an_acceptance() -> None:
    text = _text("game-clasic-4p-in-progress.json")
    doc = json.loads(text)
    assert doc["format_version"] == 1
    old = [s for s in doc["record"]["steps"] if s["kind"] == "exchange_doubles"]
    assert len(old) == 3
    game = serde.loads_game(text)
    steps = [s for s in game.record().steps if isinstance(s, OfferDoubles | AcceptDoubles)]
    assert [(s.kind, s.seat) for s in steps] == [
        (kind, s[who])
        for s in old
        for kind, who in (("offer_doubles", "seat"), ("accept_doubles", "other"))
    ]
    # the record replays to the state the file saved, offers and all
    assert game.state.offers == () and len(game.state.exchanged) == 6
    saved = serde.dump_game(game)["state"]
    assert saved == {**doc["state"], "offers": []}
    # and a version-1 document cannot carry a version-2 field
    bad = {**doc, "state": {**doc["state"], "offers": []}}
    with pytest.raises(InvalidStateError) as err:
        serde.load_game(bad)
    assert err.value.code is S.UNKNOWN_KEY and err.value.details["path"] == "state.offers"


@pytest.mark.parametrize("name", ["game-clasic-4p-finished.json", "record-online-3p-finished.json"])
def test_an_older_document_gets_the_knob_s_default(knob_added: int, name: str) -> None:
    doc = json.loads(_text(name))
    old = _older(doc)
    assert KNOB not in old["rules"] and old["fingerprint"] != doc["fingerprint"]
    if name.startswith("game"):
        dump = serde.dump_game(serde.load_game(old))
    else:
        dump = serde.dump_record(serde.load_record(old))
    assert dump == {**_to_current(doc), "format_version": STAGED}
    assert old["format_version"] == CURRENT and KNOB not in old["rules"]  # input untouched


def test_an_older_match_and_its_rounds_are_migrated(knob_added: int) -> None:
    doc = json.loads(_text("match-clasic-3p.json"))
    old = _older(doc)
    old["rounds"] = [_older(r) for r in doc["rounds"]]
    match = serde.load_match(old)
    dump = serde.dump_match(match)
    assert dump["format_version"] == STAGED and dump["fingerprint"] == doc["fingerprint"]
    assert [r["format_version"] for r in dump["rounds"]] == [STAGED] * 3
    current = [_to_current(r)["state"] for r in doc["rounds"]]
    assert [r["state"] for r in dump["rounds"]] == current


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


@pytest.mark.parametrize("version", [0, -1, STAGED + 1])
def test_versions_outside_the_chain_are_refused(knob_added: int, version: int) -> None:
    for name, load in (
        ("game-clasic-4p-finished.json", serde.load_game),
        ("match-clasic-3p.json", serde.load_match),
    ):
        doc = {**json.loads(_text(name)), "format_version": version}
        with pytest.raises(InvalidStateError) as err:
            load(doc)
        assert err.value.code is S.FORMAT_VERSION
        assert err.value.details["expected"] == STAGED and err.value.details["got"] == version


def test_a_document_is_written_in_the_current_version(knob_added: int) -> None:
    game = serde.load_game(_older(json.loads(_text("game-clasic-4p-in-progress.json"))))
    assert serde.dump_game(game)["format_version"] == STAGED
    assert serde.dump_record(game)["format_version"] == STAGED
    assert serde.dump_view(game.view(0))["format_version"] == STAGED
