"""The first etalare (OPEN-01 … OPEN-09, TURN-04): RULES.md EX-05 … EX-13 under every
preset each names, and a flip test for every opening knob."""

from __future__ import annotations

import attrs
import pytest

from remi_rules import (
    InvalidOpeningError,
    Meld,
    OpeningComposition,
    OpeningErrorCode,
    Ruleset,
    analyze_meld,
    check_opening,
    variants,
)
from remi_rules.opening import (
    is_ace_set,
    may_close,
    may_lay_off_on_others,
    may_open,
    may_swap_joker,
    min_rack_after_opening,
    opening_points,
)

E = OpeningErrorCode
PRESETS = variants.names()
CLASIC, ONLINE, RUMMY45 = (variants.get(n) for n in PRESETS)


def melds(rules: Ruleset, *texts: str) -> list[Meld]:
    return [analyze_meld(text, rules) for text in texts]


def verdict(rules: Ruleset, *texts: str) -> int | OpeningErrorCode:
    """The points of a valid opening, or the code that refuses it."""
    try:
        return check_opening(melds(rules, *texts), rules)
    except InvalidOpeningError as err:
        return err.code


# -- RULES.md worked examples ----------------------------------------------------------------


@pytest.mark.rule("EX-05")
@pytest.mark.rule("OPEN-02")
@pytest.mark.parametrize("preset", PRESETS)
def test_EX_05_exactly_45_with_run_and_set(preset: str) -> None:
    assert verdict(variants.get(preset), "10R J 12R", "5G 5A 5N") == 45


@pytest.mark.rule("EX-06")
@pytest.mark.rule("OPEN-03")
def test_EX_06_runs_only() -> None:
    texts = ("7R 8R 9R", "10G 11G 12G 13G")
    assert verdict(CLASIC, *texts) == 55
    assert verdict(ONLINE, *texts) is E.MISSING_SET
    assert verdict(RUMMY45, *texts) is E.MISSING_SET


@pytest.mark.rule("EX-07")
@pytest.mark.rule("OPEN-03")
def test_EX_07_sets_only() -> None:
    texts = ("5R 5G 5A", "9N 9R 9G", "10A 10G 10N")
    assert verdict(CLASIC, *texts) is E.MISSING_RUN_OR_ACE_SET
    assert verdict(ONLINE, *texts) is E.MISSING_RUN
    assert verdict(RUMMY45, *texts) is E.MISSING_RUN


@pytest.mark.rule("EX-08")
@pytest.mark.rule("OPEN-04")
def test_EX_08_opening_with_three_aces() -> None:
    assert verdict(CLASIC, "1R 1G 1A") == 75
    assert verdict(ONLINE, "1R 1G 1A") is E.MISSING_RUN
    assert verdict(RUMMY45, "1R 1G 1A") is E.MISSING_RUN


@pytest.mark.rule("EX-09")
@pytest.mark.rule("MELD-08")
@pytest.mark.rule("OPEN-04")
def test_EX_09_two_aces_and_a_joker() -> None:
    assert verdict(CLASIC, "1R 1G J") == 75
    for rules in (ONLINE, RUMMY45):
        assert verdict(rules, "1R 1G J") is E.MISSING_RUN
        assert verdict(rules, "1R 1G J", "4A 5A 6A") == 90


@pytest.mark.rule("EX-10")
@pytest.mark.rule("OPEN-04")
def test_EX_10_ace_set_plus_another_set() -> None:
    assert verdict(CLASIC, "1R 1G 1A", "13R 13G 13N") is E.ACE_SET_WITH_OTHER_SETS
    assert verdict(CLASIC, "1R 1G 1A") == 75
    assert verdict(CLASIC, "1R 1G 1A", "13R 13G 13N", "4R 5R 6R") == 120
    for rules in (ONLINE, RUMMY45):
        assert verdict(rules, "1R 1G 1A", "13R 13G 13N") is E.MISSING_RUN
        assert verdict(rules, "1R 1G 1A", "13R 13G 13N", "4R 5R 6R") == 120


@pytest.mark.rule("EX-11")
@pytest.mark.rule("OPEN-03")
def test_EX_11_one_long_run() -> None:
    text = "3A 4A 5A 6A 7A 8A 9A 10A"
    assert verdict(CLASIC, text) == 45
    assert verdict(ONLINE, text) is E.MISSING_SET
    assert verdict(RUMMY45, text) is E.MISSING_SET


@pytest.mark.rule("EX-12")
@pytest.mark.rule("OPEN-02")
@pytest.mark.parametrize("preset", PRESETS)
def test_EX_12_below_the_minimum(preset: str) -> None:
    rules = variants.get(preset)
    assert verdict(rules, "2R 3R 4R", "6G 6A 6N") is E.BELOW_MINIMUM
    assert verdict(rules, "2R 3R 4R J", "6G 6A 6N") is E.BELOW_MINIMUM  # J as 5R: 35
    with pytest.raises(InvalidOpeningError) as info:
        check_opening(melds(rules, "2R 3R 4R J", "6G 6A 6N"), rules)
    assert info.value.details == {"points": 35, "minimum": 45}


@pytest.mark.rule("EX-13")
@pytest.mark.rule("VALUE-01")
def test_EX_13_aces_inside_runs() -> None:
    texts = ("1R 2R 3R", "12G 13G 1G")
    assert verdict(CLASIC, *texts) == 45
    assert verdict(ONLINE, *texts) is E.MISSING_SET
    assert verdict(RUMMY45, *texts) is E.MISSING_SET
    for preset in PRESETS:
        assert verdict(variants.get(preset), "1R 2R 3R", "1G 1A 1N") == 90


# -- the rules one by one ------------------------------------------------------------------------


@pytest.mark.rule("OPEN-01")
@pytest.mark.rule("TURN-04")
@pytest.mark.parametrize("preset", PRESETS)
def test_OPEN_01_no_meld_in_the_first_turn(preset: str) -> None:
    rules = variants.get(preset)
    assert not may_open(1, rules)
    assert may_open(2, rules)
    assert may_open(7, rules)


@pytest.mark.rule("OPEN-02")
def test_OPEN_02_points_count_jokers_as_what_they_stand_for() -> None:
    assert opening_points(melds(CLASIC, "10R J 12R", "1R 1G J")) == 30 + 75
    # tiles added in the same turn to a new meld count (OQ-34): the meld as it ends
    assert verdict(CLASIC, "3R 4R 5R 6R", "10G 10A 10N") == 50


@pytest.mark.rule("OPEN-04")
def test_OPEN_04_only_one_set_with_the_ace_exception() -> None:
    # two ace sets without a run: the second set waits too
    assert verdict(CLASIC, "1R 1G 1A", "1N 1R J") is E.ACE_SET_WITH_OTHER_SETS
    assert is_ace_set(analyze_meld("1R 1G J", CLASIC), CLASIC)
    assert not is_ace_set(analyze_meld("2R 2G 2A", CLASIC), CLASIC)
    assert not is_ace_set(analyze_meld("1R 2R 3R", CLASIC), CLASIC)


@pytest.mark.rule("OPEN-05")
def test_OPEN_05_keeping_melds_back_is_allowed() -> None:
    # Any valid part of the hand may go down: the check looks only at what is melded.
    assert verdict(CLASIC, "10R 11R 12R", "5G 5A 5N") == 45


@pytest.mark.rule("OPEN-07")
@pytest.mark.rule("LIPI-01")
@pytest.mark.rule("LIPI-03")
@pytest.mark.parametrize("preset", PRESETS)
def test_OPEN_07_no_layoff_on_others_in_the_opening_turn(preset: str) -> None:
    rules = variants.get(preset)
    assert not may_lay_off_on_others(opened=False, opened_this_turn=False, rules=rules)
    assert not may_lay_off_on_others(opened=True, opened_this_turn=True, rules=rules)
    assert may_lay_off_on_others(opened=True, opened_this_turn=False, rules=rules)


@pytest.mark.rule("OPEN-08")
@pytest.mark.rule("CLOSE-03")
@pytest.mark.parametrize("preset", PRESETS)
def test_OPEN_08_no_close_in_the_opening_turn(preset: str) -> None:
    rules = variants.get(preset)
    assert not may_close(opened=False, opened_this_turn=False, rules=rules)
    assert not may_close(opened=True, opened_this_turn=True, rules=rules)
    assert may_close(opened=True, opened_this_turn=False, rules=rules)
    assert min_rack_after_opening(rules) == 2


@pytest.mark.rule("CLOSE-06")
def test_CLOSE_06_pe_tabla_closing_is_the_exception() -> None:
    assert may_close(opened=False, opened_this_turn=False, rules=CLASIC, pe_tabla=True)
    assert not may_close(opened=True, opened_this_turn=False, rules=CLASIC, pe_tabla=True)
    assert not may_close(opened=False, opened_this_turn=False, rules=ONLINE, pe_tabla=True)
    assert not may_open(5, CLASIC, declared_pe_tabla=True)  # binding (OQ-14)


@pytest.mark.rule("OPEN-09")
@pytest.mark.rule("JOLY-01")
@pytest.mark.parametrize("preset", PRESETS)
def test_OPEN_09_no_joker_swap_before_or_in_the_opening_turn(preset: str) -> None:
    rules = variants.get(preset)
    assert not may_swap_joker(opened=False, opened_this_turn=False, rules=rules)  # EX-55
    assert not may_swap_joker(opened=True, opened_this_turn=True, rules=rules)
    assert may_swap_joker(opened=True, opened_this_turn=False, rules=rules)


# -- every opening knob flips an outcome ------------------------------------------------


def test_flip_opening_min_points() -> None:
    assert verdict(attrs.evolve(CLASIC, opening_min_points=30), "2R 3R 4R", "6G 6A 6N") == 30
    assert verdict(attrs.evolve(CLASIC, opening_min_points=80), "1R 1G 1A") is E.BELOW_MINIMUM


def test_flip_opening_composition() -> None:
    run_only = attrs.evolve(ONLINE, opening_composition=OpeningComposition.RUN)
    assert verdict(run_only, "3A 4A 5A 6A 7A 8A 9A 10A") == 45
    both = attrs.evolve(CLASIC, opening_composition=OpeningComposition.RUN_AND_SET)
    assert verdict(both, "7R 8R 9R", "10G 11G 12G 13G") is E.MISSING_SET


def test_flip_opening_ace_set_exception() -> None:
    assert verdict(attrs.evolve(CLASIC, opening_ace_set_exception=False), "1R 1G 1A") is (
        E.MISSING_RUN
    )
    assert verdict(attrs.evolve(RUMMY45, opening_ace_set_exception=True), "1R 1G 1A") == 75


def test_flip_opening_ace_set_blocks_other_sets() -> None:
    loose = attrs.evolve(CLASIC, opening_ace_set_blocks_other_sets=False)
    assert verdict(loose, "1R 1G 1A", "13R 13G 13N") == 105


def test_flip_opening_ace_set_joker_ok() -> None:
    strict = attrs.evolve(CLASIC, opening_ace_set_joker_ok=False)
    assert verdict(strict, "1R 1G J") is E.MISSING_RUN_OR_ACE_SET
    assert verdict(strict, "1R 1G 1A") == 75


def test_flip_first_turn_no_meld() -> None:
    assert may_open(1, attrs.evolve(CLASIC, first_turn_no_meld=False))


def test_flip_close_in_opening_turn() -> None:
    rules = attrs.evolve(CLASIC, close_in_opening_turn=True)
    assert may_close(opened=True, opened_this_turn=True, rules=rules)
    assert min_rack_after_opening(rules) == 1


def test_flip_layoff_on_others_in_opening_turn() -> None:
    rules = attrs.evolve(RUMMY45, layoff_on_others_in_opening_turn=True)
    assert may_lay_off_on_others(opened=True, opened_this_turn=True, rules=rules)


def test_flip_swap_in_opening_turn() -> None:
    rules = attrs.evolve(CLASIC, swap_in_opening_turn=True)
    assert may_swap_joker(opened=True, opened_this_turn=True, rules=rules)


def test_flip_swap_requires_opened() -> None:
    rules = attrs.evolve(CLASIC, swap_requires_opened=False)
    assert may_swap_joker(opened=False, opened_this_turn=False, rules=rules)


@pytest.mark.rule("CLOSE-06")
def test_flip_pe_tabla_opening_rules_apply() -> None:
    texts = ("2R 3R 4R", "6G 6A 6N")  # 30 points: below the 45
    with pytest.raises(InvalidOpeningError):
        check_opening(melds(CLASIC, *texts), CLASIC, pe_tabla=True)
    free = attrs.evolve(CLASIC, pe_tabla_opening_rules_apply=False)
    assert check_opening(melds(free, *texts), free, pe_tabla=True) == 30


@pytest.mark.rule("CLOSE-06")
def test_flip_pe_tabla_layoff_on_others() -> None:
    args = {"opened": False, "opened_this_turn": True, "pe_tabla": True}
    assert not may_lay_off_on_others(rules=CLASIC, **args)
    assert may_lay_off_on_others(rules=attrs.evolve(CLASIC, pe_tabla_layoff_on_others=True), **args)
    assert not may_lay_off_on_others(
        rules=attrs.evolve(ONLINE, pe_tabla_layoff_on_others=True), **args
    )


def test_flip_pe_tabla_binding() -> None:
    assert may_open(5, attrs.evolve(CLASIC, pe_tabla_binding=False), declared_pe_tabla=True)


# -- errors and bad input ---------------------------------------------------------------


def test_no_melds_and_bad_types() -> None:
    with pytest.raises(InvalidOpeningError) as info:
        check_opening([], CLASIC)
    assert info.value.code is E.NO_MELDS
    with pytest.raises(TypeError):
        check_opening(["1R 1G 1A"], CLASIC)  # type: ignore[list-item]
    with pytest.raises(TypeError):
        check_opening(melds(CLASIC, "1R 1G 1A"), "clasic")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        may_open("2", CLASIC)  # type: ignore[arg-type]
    with pytest.raises(InvalidOpeningError) as zero:
        may_open(0, CLASIC)
    assert zero.value.code is E.BAD_TURN_NUMBER
    with pytest.raises(InvalidOpeningError) as huge:
        may_open(-(10**5000), CLASIC)
    assert "e+5000" in huge.value.message("ro")
    with pytest.raises(TypeError, match="meld"):
        is_ace_set(None, CLASIC)  # type: ignore[arg-type]


@pytest.mark.parametrize("code", list(OpeningErrorCode), ids=str)
def test_every_opening_code_has_both_messages(code: OpeningErrorCode) -> None:
    err = InvalidOpeningError(code, points=30, minimum=45, turn_number=0)
    ro, en = err.message("ro"), err.message("en")
    assert ro and en and ro != en
    assert "?" not in ro + en
