"""Every rule of the catalogue has a test, and every knob a test that flips it.

The rule IDs come from the copy of the catalogue in docs/RULES.md (``**MELD-05**``,
``**EX-21 …**``); a test covers a rule when it is marked ``@pytest.mark.rule("MELD-05")``.
The knobs come from the ``Ruleset``; a knob is flipped by a test named
``test_flip_<knob>``, or by a test that evolves a preset with it
(``attrs.evolve(..., knob=...)``) outside the validation and serialisation tests.

What the game engine (issue 4) owns, the deal, the turn sequence, doubles and the
announcement windows, and what is not library logic at all, is listed below with
the reason; the lists may only shrink, so a rule or knob that gains a test must
leave them.
"""

from __future__ import annotations

import re
from pathlib import Path

import attrs

from remi_rules import Ruleset

ROOT = Path(__file__).resolve().parent.parent
TESTS = Path(__file__).resolve().parent

RULE_ID = re.compile(r"^\*\*((?:[A-Z]+)-\d+)", re.MULTILINE)
MARK = re.compile(r'rule\("([A-Z]+-\d+)"\)')
FLIP_TEST = re.compile(r"def test_flip_(\w+)\(")
EVOLVE = re.compile(r"evolve\(([^()]|\([^()]*\))*\)", re.DOTALL)
# Tests that evolve every knob to check validation or (de)serialisation: not flips.
NOT_FLIP_TESTS = {"test_ruleset.py", "test_serde.py", "test_variants_matrix.py"}

PENDING_RULES: dict[str, str] = {
    "ONLINE-01": "front-end only (RULES.md §2 ONLINE): the turn timer",
    "ONLINE-02": "front-end only: presence checks",
    "ONLINE-03": "front-end only: automatic announcement display",
    "ONLINE-04": "front-end only: the rupere UI",
    "ONLINE-05": "front-end only: the host",
    "ONLINE-07": "front-end only: incremental validation (could_become_meld exists)",
    "ONLINE-08": "front-end only: the atu button",
}
PENDING_KNOBS: dict[str, str] = {
    "atu_announce_deadline": "one value only (before_own_first_take); the engine applies it",
    "pe_tabla_declare_by": "one value only (end_of_first_cycle); the engine applies it",
    "pe_tabla_take_discard": "one value only (closing_turn_only); rupere applies it",
    "starter_rotation": "one value only (next_in_turn_order); the engine applies it",
}


def catalogue_ids() -> set[str]:
    return set(RULE_ID.findall((ROOT / "docs" / "RULES.md").read_text(encoding="utf-8")))


def flip_test_files() -> list[Path]:
    return sorted(p for p in TESTS.glob("test_*.py") if p.name not in NOT_FLIP_TESTS)


def marked_ids() -> set[str]:
    return {m for p in TESTS.glob("*.py") for m in MARK.findall(p.read_text(encoding="utf-8"))}


def flipped_knobs() -> set[str]:
    """Knobs with a test named ``test_flip_<knob>`` or evolved in an ``attrs.evolve``
    call of a test."""
    names = {f.name for f in attrs.fields(Ruleset)}
    found: set[str] = set()
    for path in flip_test_files():
        text = path.read_text(encoding="utf-8")
        for test in FLIP_TEST.findall(text):
            found |= {n for n in names if test == n or test.startswith(n + "_")}
        for call in EVOLVE.finditer(text):
            found |= {n for n in names if re.search(rf"\b{n}\s*=", call.group(0))}
    return found


def test_the_catalogue_is_read() -> None:
    ids = catalogue_ids()
    assert {"MELD-05", "SCORE-07", "EX-01", "EX-58"} <= ids
    assert len(ids) > 150


def test_every_rule_has_a_marked_test() -> None:
    missing = sorted(catalogue_ids() - marked_ids() - set(PENDING_RULES))
    assert not missing, f"rules without a test marked @pytest.mark.rule(...): {missing}"


def test_pending_rules_are_still_pending() -> None:
    done = sorted(set(PENDING_RULES) & marked_ids())
    assert not done, f"these rules now have tests; remove them from PENDING_RULES: {done}"
    assert set(PENDING_RULES) <= catalogue_ids()


def test_every_knob_has_a_flip_test() -> None:
    names = {f.name for f in attrs.fields(Ruleset)}
    missing = sorted(names - flipped_knobs() - set(PENDING_KNOBS))
    assert not missing, f"knobs no test flips (attrs.evolve(preset, knob=...)): {missing}"


def test_pending_knobs_are_still_pending() -> None:
    done = sorted(set(PENDING_KNOBS) & flipped_knobs())
    assert not done, f"these knobs now have flip tests; remove them from PENDING_KNOBS: {done}"
