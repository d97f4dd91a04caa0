"""Ruleset: validation of every knob, immutability, equality, fingerprints, knob docs, presets.

The knob list is discovered from ``attrs.fields(Ruleset)``, so a new knob is checked
without touching this file; a knob of a type this file does not know fails
``test_every_field_has_a_known_kind``.
"""

from __future__ import annotations

import copy
import enum
import os
import pickle
import re
import subprocess
import sys
import typing
from pathlib import Path
from typing import Any

import attrs
import pytest

import remi_rules.ruleset as ruleset_module
from remi_rules import (
    AtuFaceUpTakeable,
    ClosingAtuTwinEffect,
    ClosingEffect,
    InvalidRulesetError,
    MultiplierStacking,
    RemiError,
    Ruleset,
    RulesetErrorCode,
    RulesetTypeError,
    UnknownVariantError,
    VariantErrorCode,
    variants,
)
from remi_rules.ruleset import KNOB_GROUPS, KnobInfo, knobs

DOCS_RULES = Path(__file__).resolve().parent.parent / "docs" / "RULES.md"
PRESET_NAMES = ("clasic", "online", "rummy45")

CLASIC = variants.get("clasic")
FIELDS = attrs.fields(Ruleset)
FIELD_NAMES = tuple(f.name for f in FIELDS)
HINTS = typing.get_type_hints(Ruleset)

# Captured at import, before any test runs; compared again at the end of the run.
FINGERPRINTS_AT_IMPORT = {name: variants.get(name).fingerprint() for name in PRESET_NAMES}

# -- classifying the fields ------------------------------------------------------------------

BOOL, INT, OPT_INT, ENUM, TWIN, HAND = "bool", "int", "int|None", "enum", "twin", "hand_sizes"


def _kind(name: str) -> str | None:
    tp = HINTS[name]
    if tp is bool:
        return BOOL
    if tp is int:
        return INT
    if tp == int | None:
        return OPT_INT
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return ENUM
    if tp is ClosingAtuTwinEffect:
        return TWIN
    if tp == tuple[int, int]:
        return HAND
    return None


KIND = {name: _kind(name) for name in FIELD_NAMES}
INT_FIELDS = tuple(n for n in FIELD_NAMES if KIND[n] in (INT, OPT_INT))
OPT_INT_FIELDS = tuple(n for n in FIELD_NAMES if KIND[n] == OPT_INT)
ENUM_FIELDS = tuple(n for n in FIELD_NAMES if KIND[n] == ENUM)
ALL_RULESET_ENUMS = tuple(
    obj
    for obj in vars(ruleset_module).values()
    if isinstance(obj, type)
    and issubclass(obj, enum.Enum)
    and obj.__module__ == "remi_rules.ruleset"
)


def _field(name: str) -> attrs.Attribute[Any]:
    return getattr(attrs.fields(Ruleset), name)  # type: ignore[no-any-return]


def _evolve(rules: Ruleset, name: str, value: Any) -> Ruleset:
    """``attrs.evolve(rules, **{name: value})``: one field, named at run time."""
    return attrs.evolve(rules, **{name: value})


def _bounds(name: str) -> tuple[int, int]:
    meta = _field(name).metadata
    return meta["lo"], meta["hi"]


def _foreign_enum_member(tp: type[enum.Enum]) -> enum.Enum:
    """A member of another enum, with the same string value as one of ``tp``'s if any."""
    values = {m.value for m in tp}
    for other in ALL_RULESET_ENUMS:
        if other is tp:
            continue
        for member in other:
            if member.value in values:
                return member
    return MultiplierStacking.MULTIPLY if tp is not MultiplierStacking else ClosingEffect.NONE


def _wrong_type_values(name: str) -> list[Any]:
    kind = KIND[name]
    if kind == BOOL:
        return [1, 0, "true", None, 1.0]
    if kind == INT:
        return [True, False, 1.5, float(getattr(CLASIC, name)), "3", None]
    if kind == OPT_INT:
        return [True, False, 1.5, "3", [3]]
    if kind == ENUM:
        tp = HINTS[name]
        first = next(iter(tp))
        return [first.value, 0, None, _foreign_enum_member(tp)]
    if kind == TWIN:
        return [(0, ClosingEffect.NONE), {"bonus": 0, "mult": "none"}, None, ClosingEffect.NONE]
    if kind == HAND:
        return [[15, 14], "15,14", None, 15, (15.0, 14), (True, 14), (15, "14"), (15, None)]
    raise AssertionError(f"no wrong values for {name}")


WRONG_TYPE_CASES = [
    pytest.param(name, bad, id=f"{name}-{type(bad).__name__}-{bad!r}")
    for name in FIELD_NAMES
    for bad in _wrong_type_values(name)
]


def _alternative(name: str, base: Ruleset = CLASIC) -> Any:
    """A valid value different from ``base``'s, or raise LookupError if there is none."""
    value = getattr(base, name)
    kind = KIND[name]
    if kind == BOOL:
        return not value
    if kind in (INT, OPT_INT):
        lo, hi = _bounds(name)
        if value is None:
            # The smallest rack cap cannot go with the presets' hands (unplayable).
            return hi if name == "max_rack_after_turn" else lo
        return value + 1 if value + 1 <= hi else value - 1
    if kind == ENUM:
        others = [m for m in HINTS[name] if m != value]
        if not others:
            raise LookupError(name)
        return others[0]
    if kind == TWIN:
        return ClosingAtuTwinEffect(bonus=value.bonus + 1, mult=value.mult)
    if kind == HAND:
        return (value[0] + 1, value[1])
    raise AssertionError(name)


def _has_alternative(name: str) -> bool:
    try:
        _alternative(name)
    except LookupError:
        return False
    return True


def _assert_wrong_type(err: BaseException, knob: str) -> None:
    assert isinstance(err, RulesetTypeError)
    assert isinstance(err, TypeError)
    assert isinstance(err, InvalidRulesetError)
    assert isinstance(err, ValueError)
    assert isinstance(err, RemiError)
    assert err.knob == knob
    assert err.code == RulesetErrorCode.WRONG_TYPE
    assert knob in err.message("en")
    assert knob in err.message("ro")


def _assert_out_of_range(
    err: BaseException, knob: str, code: RulesetErrorCode = RulesetErrorCode.OUT_OF_RANGE
) -> None:
    assert isinstance(err, InvalidRulesetError)
    assert isinstance(err, ValueError)
    assert not isinstance(err, TypeError)
    assert err.knob == knob
    assert err.code == code
    assert knob in err.message("en")
    assert knob in err.message("ro")


# -- every field is covered --------------------------------------------------------------------


def test_every_field_has_a_known_kind() -> None:
    assert {n: k for n, k in KIND.items() if k is None} == {}


def test_optional_int_fields_are_the_int_or_null_knobs() -> None:
    assert set(OPT_INT_FIELDS) == {
        "atu_twin_rack_value_end",
        "no_announce_penalty",
        "redeal_doubles_threshold",
        "max_rack_after_turn",
        "max_turns_per_round",
    }


def test_every_field_is_keyword_only_and_required() -> None:
    for f in FIELDS:
        assert f.kw_only, f.name
        assert f.default is attrs.NOTHING, f.name


def test_rebuilding_from_all_fields_gives_an_equal_ruleset() -> None:
    kwargs = {name: getattr(CLASIC, name) for name in FIELD_NAMES}
    assert Ruleset(**kwargs) == CLASIC


@pytest.mark.parametrize("name", FIELD_NAMES)
def test_missing_field_is_refused(name: str) -> None:
    kwargs = {n: getattr(CLASIC, n) for n in FIELD_NAMES if n != name}
    with pytest.raises(TypeError):
        Ruleset(**kwargs)


def test_positional_arguments_are_refused() -> None:
    with pytest.raises(TypeError):
        Ruleset(*(getattr(CLASIC, n) for n in FIELD_NAMES))


# -- wrong types -----------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "bad"), WRONG_TYPE_CASES)
def test_wrong_type_is_refused(name: str, bad: Any) -> None:
    with pytest.raises(RulesetTypeError) as info:
        _evolve(CLASIC, name, bad)
    _assert_wrong_type(info.value, name)


@pytest.mark.parametrize("name", FIELD_NAMES)
def test_wrong_type_is_refused_in_the_constructor(name: str) -> None:
    kwargs = {n: getattr(CLASIC, n) for n in FIELD_NAMES}
    kwargs[name] = object()
    with pytest.raises(TypeError) as info:
        Ruleset(**kwargs)
    _assert_wrong_type(info.value, name)


@pytest.mark.parametrize("name", ENUM_FIELDS)
def test_enum_fields_accept_every_member(name: str) -> None:
    for member in HINTS[name]:
        assert getattr(_evolve(CLASIC, name, member), name) is member


# -- int ranges ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", INT_FIELDS)
def test_int_field_has_bounds(name: str) -> None:
    lo, hi = _bounds(name)
    assert type(lo) is int and type(hi) is int
    assert lo <= hi
    for preset in PRESET_NAMES:
        value = getattr(variants.get(preset), name)
        assert value is None or lo <= value <= hi, preset


@pytest.mark.parametrize("name", INT_FIELDS)
def test_int_field_below_lo_is_refused(name: str) -> None:
    lo, _ = _bounds(name)
    with pytest.raises(InvalidRulesetError) as info:
        _evolve(CLASIC, name, lo - 1)
    _assert_out_of_range(info.value, name)


@pytest.mark.parametrize("name", INT_FIELDS)
def test_int_field_above_hi_is_refused(name: str) -> None:
    _, hi = _bounds(name)
    for bad in (hi + 1, hi + 10**9):
        with pytest.raises(InvalidRulesetError) as info:
            _evolve(CLASIC, name, bad)
        _assert_out_of_range(info.value, name)


# A base the lowest rack cap goes with (the cap must allow the first discards:
# tests/test_reliability_rulesets.py).
_BOUNDS_BASE = {"max_rack_after_turn": attrs.evolve(CLASIC, hand_sizes=(2, 1))}


@pytest.mark.parametrize("name", INT_FIELDS)
def test_int_field_bounds_are_inclusive(name: str) -> None:
    lo, hi = _bounds(name)
    base = _BOUNDS_BASE.get(name, CLASIC)
    assert getattr(_evolve(base, name, lo), name) == lo
    assert getattr(_evolve(base, name, hi), name) == hi


@pytest.mark.parametrize("name", OPT_INT_FIELDS)
def test_optional_int_field_accepts_none(name: str) -> None:
    for preset in PRESET_NAMES:
        base = variants.get(preset)
        if name == "max_turns_per_round" and base.stock_exhausted.value == "reshuffle_discards":
            # No cap with a reshuffled stock is unplayable (unplayable_combination).
            with pytest.raises(InvalidRulesetError) as info:
                _evolve(base, name, None)
            assert info.value.code == RulesetErrorCode.UNPLAYABLE_COMBINATION
            continue
        assert getattr(_evolve(base, name, None), name) is None


# -- hand_sizes ------------------------------------------------------------------------------


@pytest.mark.parametrize("bad", [[15, 14], "15 14", None, 15, {15: 14}])
def test_hand_sizes_rejects_non_tuples(bad: Any) -> None:
    with pytest.raises(RulesetTypeError) as info:
        attrs.evolve(CLASIC, hand_sizes=bad)
    _assert_wrong_type(info.value, "hand_sizes")


@pytest.mark.parametrize("bad", [(), (15,), (15, 14, 14), (15, 14, 14, 14)])
def test_hand_sizes_rejects_wrong_lengths(bad: Any) -> None:
    with pytest.raises(InvalidRulesetError) as info:
        attrs.evolve(CLASIC, hand_sizes=bad)
    assert info.value.knob == "hand_sizes"
    assert info.value.code in (RulesetErrorCode.WRONG_TYPE, RulesetErrorCode.HAND_SIZES)


@pytest.mark.parametrize("bad", [(14, 15), (1, 2), (13, 14)])
def test_hand_sizes_rejects_others_above_starter(bad: tuple[int, int]) -> None:
    with pytest.raises(InvalidRulesetError) as info:
        attrs.evolve(CLASIC, hand_sizes=bad)
    _assert_out_of_range(info.value, "hand_sizes", RulesetErrorCode.HAND_SIZES)


@pytest.mark.parametrize("bad", [(15, 0), (0, 0), (-1, -1), (15, -14), (1, 1)])
def test_hand_sizes_rejects_empty_or_negative_hands(bad: tuple[int, int]) -> None:
    with pytest.raises(InvalidRulesetError) as info:
        attrs.evolve(CLASIC, hand_sizes=bad)
    _assert_out_of_range(info.value, "hand_sizes", RulesetErrorCode.HAND_SIZES)


@pytest.mark.parametrize("bad", [(28, 26), (27, 27), (30, 26), (30, 30)])
def test_hand_sizes_rejects_totals_beyond_the_set(bad: tuple[int, int]) -> None:
    starter, others = bad
    assert starter + 3 * others + 1 > 106
    with pytest.raises(InvalidRulesetError) as info:
        attrs.evolve(CLASIC, hand_sizes=bad)
    _assert_out_of_range(info.value, "hand_sizes", RulesetErrorCode.HAND_SIZES)


@pytest.mark.parametrize("good", [(27, 26), (30, 25), (15, 14), (14, 14), (2, 1), (16, 14)])
def test_hand_sizes_accepts_totals_that_fit(good: tuple[int, int]) -> None:
    starter, others = good
    assert starter + 3 * others + 1 <= 106
    assert attrs.evolve(CLASIC, hand_sizes=good).hand_sizes == good


# -- closing_atu_twin_effect ------------------------------------------------------------------


def test_closing_atu_twin_effect_is_frozen_and_hashable() -> None:
    twin = ClosingAtuTwinEffect(bonus=50, mult=ClosingEffect.ALL_X2)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        twin.bonus = 0  # type: ignore[misc]
    assert twin == ClosingAtuTwinEffect(bonus=50, mult=ClosingEffect.ALL_X2)
    assert hash(twin) == hash(ClosingAtuTwinEffect(bonus=50, mult=ClosingEffect.ALL_X2))
    assert twin != ClosingAtuTwinEffect(bonus=50, mult=ClosingEffect.CLOSER_X2)


def test_closing_atu_twin_effect_is_keyword_only() -> None:
    with pytest.raises(TypeError):
        ClosingAtuTwinEffect(50, ClosingEffect.ALL_X2)  # type: ignore[call-arg]


@pytest.mark.parametrize("bad", [True, False, 1.5, 50.0, "50", None])
def test_closing_atu_twin_effect_bonus_wrong_type(bad: Any) -> None:
    with pytest.raises(RulesetTypeError) as info:
        ClosingAtuTwinEffect(bonus=bad, mult=ClosingEffect.NONE)
    _assert_wrong_type(info.value, "closing_atu_twin_effect.bonus")


@pytest.mark.parametrize("bad", ["none", "all_x2", None, 0, AtuFaceUpTakeable.NEVER])
def test_closing_atu_twin_effect_mult_wrong_type(bad: Any) -> None:
    with pytest.raises(RulesetTypeError) as info:
        ClosingAtuTwinEffect(bonus=0, mult=bad)
    _assert_wrong_type(info.value, "closing_atu_twin_effect.mult")


def test_closing_atu_twin_effect_bonus_range() -> None:
    # The bonus is a closing bonus: it takes the same range as closing_bonus.
    lo, hi = _bounds("closing_bonus")
    for bad in (lo - 1, -50, hi + 1):
        with pytest.raises(InvalidRulesetError) as info:
            ClosingAtuTwinEffect(bonus=bad, mult=ClosingEffect.NONE)
        _assert_out_of_range(info.value, "closing_atu_twin_effect.bonus")
    for good in (lo, hi):
        assert ClosingAtuTwinEffect(bonus=good, mult=ClosingEffect.ALL_X2).bonus == good


def test_closing_atu_twin_effect_in_a_ruleset() -> None:
    twin = ClosingAtuTwinEffect(bonus=25, mult=ClosingEffect.CLOSER_X2)
    assert attrs.evolve(CLASIC, closing_atu_twin_effect=twin).closing_atu_twin_effect == twin


# -- frozen, hashable, equality, evolve ------------------------------------------------------


@pytest.mark.parametrize("name", FIELD_NAMES)
def test_ruleset_is_frozen(name: str) -> None:
    rules = attrs.evolve(CLASIC)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        setattr(rules, name, getattr(rules, name))
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        delattr(rules, name)


def test_ruleset_is_hashable_and_equal_by_value() -> None:
    presets = [variants.get(n) for n in PRESET_NAMES]
    copy = attrs.evolve(CLASIC)
    assert copy == CLASIC and copy is not CLASIC
    assert hash(copy) == hash(CLASIC)
    assert len({*presets, copy}) == 3
    assert {CLASIC: "x"}[copy] == "x"
    assert presets[0] != presets[1] != presets[2] != presets[0]
    rules = CLASIC
    plain: object = rules.as_plain_dict()
    assert rules != plain
    assert rules != object()


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_ruleset_pickles_and_copies(name: str) -> None:
    rules = variants.get(name)
    for copied in (pickle.loads(pickle.dumps(rules)), copy.deepcopy(rules), copy.copy(rules)):
        assert copied == rules
        assert hash(copied) == hash(rules)
        assert copied.fingerprint() == rules.fingerprint()
        assert variants.name_of(copied) == name


def test_evolve_is_a_house_rule() -> None:
    house = attrs.evolve(variants.get("clasic"), closing_bonus=50)
    assert house.closing_bonus == 50
    assert variants.get("clasic").closing_bonus == 100
    assert house != variants.get("clasic")
    assert hash(house) != hash(variants.get("clasic"))  # not required, but 50 vs 100
    assert house.fingerprint() != variants.get("clasic").fingerprint()
    assert {n for n in FIELD_NAMES if getattr(house, n) != getattr(CLASIC, n)} == {"closing_bonus"}
    assert variants.name_of(house) is None


def test_evolve_validates() -> None:
    with pytest.raises(InvalidRulesetError) as info:
        attrs.evolve(CLASIC, closing_bonus=-1)
    _assert_out_of_range(info.value, "closing_bonus")


# -- fingerprint -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_fingerprint_is_16_hex(name: str) -> None:
    assert re.fullmatch(r"[0-9a-f]{16}", variants.get(name).fingerprint())


def test_fingerprint_is_stable_for_equal_rulesets() -> None:
    for name in PRESET_NAMES:
        preset = variants.get(name)
        kwargs = {n: getattr(preset, n) for n in FIELD_NAMES}
        assert preset.fingerprint() == preset.fingerprint()
        assert attrs.evolve(preset).fingerprint() == preset.fingerprint()
        assert Ruleset(**kwargs).fingerprint() == preset.fingerprint()


def test_fingerprint_ignores_how_the_ruleset_was_reached() -> None:
    there = attrs.evolve(CLASIC, closing_bonus=50)
    back = attrs.evolve(there, closing_bonus=100)
    assert back == CLASIC
    assert back.fingerprint() == CLASIC.fingerprint()


def test_preset_fingerprints_differ() -> None:
    assert len({variants.get(n).fingerprint() for n in PRESET_NAMES}) == 3


def test_every_field_but_single_member_enums_has_an_alternative() -> None:
    without = {n for n in FIELD_NAMES if not _has_alternative(n)}
    single = {n for n in ENUM_FIELDS if len(HINTS[n]) == 1}
    assert without == single


@pytest.mark.parametrize("name", [n for n in FIELD_NAMES if _has_alternative(n)])
def test_fingerprint_changes_with_each_knob(name: str) -> None:
    for preset_name in PRESET_NAMES:
        preset = variants.get(preset_name)
        changed = _evolve(preset, name, _alternative(name, preset))
        assert changed != preset
        assert changed.fingerprint() != preset.fingerprint(), preset_name


@pytest.mark.parametrize("name", OPT_INT_FIELDS)
def test_fingerprint_tells_none_from_a_number(name: str) -> None:
    lo, _ = _bounds(name)
    base = _BOUNDS_BASE.get(name, CLASIC)
    prints = {_evolve(base, name, value).fingerprint() for value in (None, lo, lo + 1)}
    assert len(prints) == 3


def test_fingerprint_tells_twin_mult_apart() -> None:
    prints = {
        attrs.evolve(CLASIC, closing_atu_twin_effect=ClosingAtuTwinEffect(bonus=0, mult=m))
        for m in ClosingEffect
    }
    assert len({r.fingerprint() for r in prints}) == len(ClosingEffect)


def test_preset_fingerprints_are_stable_within_the_run() -> None:
    # The same values as when this module was imported, whatever the other tests did.
    assert {n: variants.get(n).fingerprint() for n in PRESET_NAMES} == FINGERPRINTS_AT_IMPORT


def test_preset_fingerprints_are_stable_across_processes() -> None:
    """A saved game carries the fingerprint: it must not depend on hash seeds."""
    code = (
        "from remi_rules import variants\n"
        "for n in variants.names(): print(n, variants.get(n).fingerprint())\n"
    )
    for seed in ("0", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        out = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        ).stdout
        got = dict(line.split() for line in out.splitlines())
        assert got == FINGERPRINTS_AT_IMPORT


# -- knobs() ---------------------------------------------------------------------------------


def test_knobs_cover_every_field_in_order() -> None:
    infos = knobs()
    assert all(isinstance(k, KnobInfo) for k in infos)
    assert tuple(k.name for k in infos) == FIELD_NAMES


@pytest.mark.parametrize("info", knobs(), ids=lambda k: k.name)
def test_knob_is_documented(info: KnobInfo) -> None:
    assert isinstance(info.doc, str) and info.doc.strip()
    assert info.group in KNOB_GROUPS
    assert isinstance(info.rules, tuple) and info.rules
    for rule in info.rules:
        assert re.fullmatch(r"[A-Z]+-\d+", rule), rule
    assert isinstance(info.type_name, str) and info.type_name.strip()


def test_knob_groups_follow_the_matrix_order() -> None:
    order = [KNOB_GROUPS.index(k.group) for k in knobs()]
    assert order == sorted(order)
    assert {k.group for k in knobs()} == set(KNOB_GROUPS)


def test_knob_type_names_list_enum_members() -> None:
    for info in knobs():
        if KIND[info.name] == ENUM:
            for member in HINTS[info.name]:
                assert member.value in info.type_name, info.name


def test_knob_rule_ids_exist_in_docs_rules_md() -> None:
    if not DOCS_RULES.exists():
        pytest.skip("docs/RULES.md is not there yet")
    text = DOCS_RULES.read_text(encoding="utf-8")
    missing = sorted(
        {
            rule
            for info in knobs()
            for rule in info.rules
            if not re.search(rf"(?<![A-Z0-9-]){re.escape(rule)}(?!\d)", text)
        }
    )
    assert missing == []


# -- variants --------------------------------------------------------------------------------


def test_variant_names() -> None:
    assert variants.names() == PRESET_NAMES


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_variant_get(name: str) -> None:
    rules = variants.get(name)
    assert type(rules) is Ruleset
    assert variants.get(name) == rules
    assert variants.name_of(rules) == name
    assert variants.name_of(attrs.evolve(rules)) == name


@pytest.mark.parametrize("name", ["x", "", "Clasic", "clasic ", "rummy"])
def test_unknown_variant(name: str) -> None:
    with pytest.raises(UnknownVariantError) as info:
        variants.get(name)
    err = info.value
    assert isinstance(err, ValueError) and isinstance(err, RemiError)
    assert err.code == VariantErrorCode.UNKNOWN_VARIANT
    assert err.details["name"] == name
    known_names = err.details["known"]
    assert isinstance(known_names, str)
    for known in PRESET_NAMES:
        assert known in known_names
        assert known in err.message("en")
        assert known in err.message("ro")


@pytest.mark.parametrize("bad", [None, 1, b"clasic", ("clasic",), CLASIC])
def test_variant_get_rejects_non_str(bad: Any) -> None:
    with pytest.raises(TypeError):
        variants.get(bad)


def test_name_of_house_ruleset_is_none() -> None:
    for name in FIELD_NAMES:
        if _has_alternative(name):
            assert variants.name_of(_evolve(CLASIC, name, _alternative(name))) is None


def test_name_of_online_and_rummy45_built_from_clasic() -> None:
    online = variants.get("online")
    kwargs = {n: getattr(online, n) for n in FIELD_NAMES}
    assert variants.name_of(Ruleset(**kwargs)) == "online"
    rummy45 = variants.get("rummy45")
    diff = {
        n: getattr(rummy45, n) for n in FIELD_NAMES if getattr(rummy45, n) != getattr(CLASIC, n)
    }
    assert variants.name_of(attrs.evolve(CLASIC, **diff)) == "rummy45"


def test_presets_mapping_is_read_only() -> None:
    with pytest.raises(TypeError):
        variants.PRESETS["house"] = CLASIC  # type: ignore[index]
    assert variants.names() == PRESET_NAMES
