"""remi_rules.serde: strict ruleset conversion and house-rules files (issue 2)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from remi_rules import InvalidRulesetError, Ruleset, RulesetErrorCode, RulesetTypeError, variants
from remi_rules.ruleset import ClosingAtuTwinEffect, ClosingEffect
from remi_rules.serde import (
    dumps_house_rules,
    house_rules_from_dict,
    house_rules_to_dict,
    load_house_rules,
    loads_house_rules,
    ruleset_from_dict,
    ruleset_to_dict,
)

PRESETS = variants.names()


@pytest.mark.parametrize("name", PRESETS)
def test_round_trip_of_every_preset_is_exact(name: str) -> None:
    rules = variants.get(name)
    data = ruleset_to_dict(rules)
    assert json.loads(json.dumps(data)) == data  # plain JSON values only
    assert ruleset_from_dict(json.loads(json.dumps(data))) == rules
    assert list(data) == [f.name for f in attrs.fields(Ruleset)]


def test_plain_values() -> None:
    data = ruleset_to_dict(variants.get("online"))
    assert data["opening_composition"] == "run_and_set"
    assert type(data["opening_composition"]) is str
    assert data["hand_sizes"] == [15, 14]
    assert data["closing_atu_twin_effect"] == {"bonus": 50, "mult": "all_x2"}
    assert data["no_announce_penalty"] is None


def _clasic() -> dict[str, Any]:
    return ruleset_to_dict(variants.get("clasic"))


@pytest.mark.parametrize(
    ("change", "code", "knob"),
    [
        ({"closing_bonus": "100"}, RulesetErrorCode.WRONG_TYPE, "closing_bonus"),
        ({"closing_bonus": True}, RulesetErrorCode.WRONG_TYPE, "closing_bonus"),
        ({"closing_bonus": 1.0}, RulesetErrorCode.WRONG_TYPE, "closing_bonus"),
        ({"closing_bonus": -1}, RulesetErrorCode.OUT_OF_RANGE, "closing_bonus"),
        ({"closing_bonus": 10**30}, RulesetErrorCode.OUT_OF_RANGE, "closing_bonus"),
        ({"pe_tabla_enabled": 1}, RulesetErrorCode.WRONG_TYPE, "pe_tabla_enabled"),
        ({"pe_tabla_enabled": "true"}, RulesetErrorCode.WRONG_TYPE, "pe_tabla_enabled"),
        ({"opening_composition": "runs"}, RulesetErrorCode.NOT_A_CHOICE, "opening_composition"),
        ({"opening_composition": 1}, RulesetErrorCode.WRONG_TYPE, "opening_composition"),
        ({"no_announce_penalty": "none"}, RulesetErrorCode.WRONG_TYPE, "no_announce_penalty"),
        ({"hand_sizes": [15]}, RulesetErrorCode.WRONG_TYPE, "hand_sizes"),
        ({"hand_sizes": "15,14"}, RulesetErrorCode.WRONG_TYPE, "hand_sizes"),
        ({"hand_sizes": [14, 15]}, RulesetErrorCode.HAND_SIZES, "hand_sizes"),
        ({"closing_atu_twin_effect": 5}, RulesetErrorCode.WRONG_TYPE, "closing_atu_twin_effect"),
        (
            {"closing_atu_twin_effect": {"bonus": 5}},
            RulesetErrorCode.MISSING_KNOB,
            "closing_atu_twin_effect.mult",
        ),
        (
            {"closing_atu_twin_effect": {"bonus": 5, "mult": "none", "x": 1}},
            RulesetErrorCode.UNKNOWN_KNOB,
            "closing_atu_twin_effect.x",
        ),
        (
            {"closing_atu_twin_effect": {"bonus": "5", "mult": "none"}},
            RulesetErrorCode.WRONG_TYPE,
            "closing_atu_twin_effect.bonus",
        ),
        ({"surprise": 1}, RulesetErrorCode.UNKNOWN_KNOB, "surprise"),
    ],
)
def test_bad_values_are_refused_naming_the_knob(
    change: dict[str, Any], code: RulesetErrorCode, knob: str
) -> None:
    data = {**_clasic(), **change}
    with pytest.raises(InvalidRulesetError) as info:
        ruleset_from_dict(data)
    assert info.value.code is code
    assert info.value.knob == knob
    if code is RulesetErrorCode.WRONG_TYPE:
        assert isinstance(info.value, RulesetTypeError)


def test_missing_knob() -> None:
    data = _clasic()
    del data["tie_rule"]
    with pytest.raises(InvalidRulesetError) as info:
        ruleset_from_dict(data)
    assert info.value.code is RulesetErrorCode.MISSING_KNOB
    assert info.value.knob == "tie_rule"


def test_not_a_mapping_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        ruleset_from_dict([1, 2])  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        ruleset_to_dict({"closing_bonus": 50})  # type: ignore[arg-type]


def test_house_rules_json_and_toml_round_trip() -> None:
    house = attrs.evolve(
        variants.get("clasic"),
        closing_bonus=50,
        no_announce_penalty=None,
        hand_sizes=(14, 13),
        closing_atu_twin_effect=ClosingAtuTwinEffect(bonus=20, mult=ClosingEffect.CLOSER_X2),
    )
    for fmt in ("json", "toml"):
        text = dumps_house_rules(house, format=fmt)
        assert loads_house_rules(text, fmt) == house
    assert house_rules_to_dict(house)["overrides"]["closing_bonus"] == 50
    assert house_rules_to_dict(variants.get("clasic")) == {"base": "clasic", "overrides": {}}


def test_house_rules_file_example_from_the_issue() -> None:
    rules = house_rules_from_dict({"base": "clasic", "overrides": {"closing_bonus": 50}})
    assert rules == attrs.evolve(variants.get("clasic"), closing_bonus=50)
    toml = 'base = "online"\n\n[overrides]\nno_announce_penalty = 250\n'
    assert loads_house_rules(toml, "toml").no_announce_penalty == 250
    assert loads_house_rules('base = "online"\n', "toml") == variants.get("online")


def test_house_rules_files_on_disk(tmp_path: Path) -> None:
    house = attrs.evolve(variants.get("rummy45"), closing_bonus=75)
    for suffix, fmt in ((".json", "json"), (".toml", "toml")):
        path = tmp_path / f"house{suffix}"
        path.write_text(dumps_house_rules(house, base="rummy45", format=fmt), encoding="utf-8")  # type: ignore[arg-type]
        assert load_house_rules(path) == house
    with pytest.raises(InvalidRulesetError) as info:
        load_house_rules(tmp_path / "missing.json")
    assert info.value.code is RulesetErrorCode.BAD_FILE


@pytest.mark.parametrize(
    ("text", "fmt", "code"),
    [
        ("{", "json", RulesetErrorCode.BAD_FILE),
        ("[1]", "json", RulesetErrorCode.BAD_STRUCTURE),
        ('{"base": "clasica"}', "json", RulesetErrorCode.UNKNOWN_BASE),
        ('{"base": 3}', "json", RulesetErrorCode.UNKNOWN_BASE),
        ('{"base": "clasic", "extra": {}}', "json", RulesetErrorCode.BAD_STRUCTURE),
        ('{"base": "clasic", "overrides": []}', "json", RulesetErrorCode.BAD_STRUCTURE),
        ('{"overrides": {"nope": 1}}', "json", RulesetErrorCode.UNKNOWN_KNOB),
        ('{"overrides": {"closing_bonus": "x"}}', "json", RulesetErrorCode.WRONG_TYPE),
        ("base = ", "toml", RulesetErrorCode.BAD_FILE),
        ('[overrides]\nclosing_bonus = "none"\n', "toml", RulesetErrorCode.WRONG_TYPE),
        ("[" * 5000, "json", RulesetErrorCode.TOO_DEEP),
    ],
)
def test_bad_house_rules_files(text: str, fmt: str, code: RulesetErrorCode) -> None:
    with pytest.raises(InvalidRulesetError) as info:
        loads_house_rules(text, fmt)  # type: ignore[arg-type]
    assert info.value.code is code


_INT_KNOBS = [
    f.name
    for f in attrs.fields(attrs.resolve_types(Ruleset))
    if f.type is int and f.metadata.get("hi") is not None
]


@given(
    knob=st.sampled_from(_INT_KNOBS),
    value=st.integers(min_value=-(10**6), max_value=10**6),
    preset=st.sampled_from(PRESETS),
)
def test_loading_never_corrupts_a_ruleset(knob: str, value: int, preset: str) -> None:
    """Any int for any int knob either loads to exactly that value or is refused."""
    data = {**ruleset_to_dict(variants.get(preset)), knob: value}
    try:
        rules = ruleset_from_dict(data)
    except InvalidRulesetError as err:
        assert err.knob == knob
        assert err.code is RulesetErrorCode.OUT_OF_RANGE
    else:
        assert getattr(rules, knob) == value
        assert ruleset_to_dict(rules) == data
