"""VALUE-01 … VALUE-06: tile values in melds, on the table and on the rack at the end."""

from __future__ import annotations

import attrs
import pytest

from remi_rules import Tile, analyze_meld, parse_tiles, variants
from remi_rules.errors import InvalidScoringInputError, ScoringErrorCode
from remi_rules.ruleset import (
    JokerTableValueEnd,
    ReusedJokerValueEnd,
    SwapReplacementValue,
)
from remi_rules.values import (
    JOKER_END_VALUE,
    meld_end_values,
    rack_value_end,
    replacement_value_end,
    table_joker_value_end,
)

PRESETS = variants.names()
CLASIC, ONLINE, RUMMY45 = (variants.get(n) for n in PRESETS)


def t(text: str) -> Tile:
    return Tile.parse(text)


@pytest.mark.rule("VALUE-01")
@pytest.mark.parametrize("preset", PRESETS)
def test_VALUE_01_meld_values_during_play(preset: str) -> None:
    rules = variants.get(preset)
    assert analyze_meld("1R 2R 3R", rules).tile_values == (5, 5, 5)
    assert analyze_meld("12R 13R 1R", rules).tile_values == (10, 10, 10)
    assert analyze_meld("1R 1G 1N", rules).tile_values == (25, 25, 25)
    assert analyze_meld("1R 1G J", rules).points == 75  # the joker is worth an ace: 25
    assert analyze_meld("4R J 6R", rules).points == 15  # EX-30: 15 in every opening count


@pytest.mark.rule("VALUE-02")
@pytest.mark.parametrize("preset", PRESETS)
def test_VALUE_02_melded_tiles_keep_their_value_at_the_end(preset: str) -> None:
    rules = variants.get(preset)
    assert meld_end_values(analyze_meld("12R 13R 1R", rules), rules) == (10, 10, 10)
    assert meld_end_values(analyze_meld("1R 2R 3R", rules), rules) == (5, 5, 5)
    assert meld_end_values(analyze_meld("1R 1G 1A 1N", rules), rules) == (25,) * 4


@pytest.mark.rule("VALUE-03")
@pytest.mark.rule("EX-30")
def test_EX_30_a_joker_on_the_table_at_the_end() -> None:
    for rules, expected in ((CLASIC, 60), (ONLINE, 15), (RUMMY45, 60)):
        meld = analyze_meld("4R J 6R", rules)
        assert sum(meld_end_values(meld, rules)) == expected


@pytest.mark.rule("VALUE-03")
def test_VALUE_03_represented_joker_is_worth_its_tile_also_in_a_set_of_aces() -> None:
    meld = analyze_meld("1R 1G J", ONLINE)
    assert meld_end_values(meld, ONLINE) == (25, 25, 25)
    assert meld_end_values(meld, CLASIC) == (25, 25, JOKER_END_VALUE)
    high = analyze_meld("12G 13G J", ONLINE)
    assert table_joker_value_end(high, 2, ONLINE) == 10  # standing for a high ace: 10


@pytest.mark.rule("VALUE-03")
@pytest.mark.rule("JOLY-05")
def test_VALUE_03_a_fixed_joker_counts_as_its_tile_whatever_the_knob() -> None:
    meld = analyze_meld("6R 7R J(=8R)", ONLINE)
    for mode in JokerTableValueEnd:
        rules = attrs.evolve(ONLINE, joker_table_value_end=mode)
        assert meld_end_values(meld, rules) == (5, 5, 5)


@pytest.mark.rule("VALUE-05")
@pytest.mark.rule("EX-31")
def test_EX_31_who_scores_a_swapped_joker() -> None:
    # A melded 9G J 11G; B swapped 10G for the joker and melded 3R 3G J.
    a_run = analyze_meld("9G 10G 11G", CLASIC)
    b_set = analyze_meld("3R 3G J", CLASIC)
    # clasic (Q&A l.178/l.180): A's run counts 25, B's set 60.
    a_total = sum(meld_end_values(a_run, CLASIC)) - 10 + replacement_value_end(a_run, 1, CLASIC)
    assert a_total == 25
    assert sum(meld_end_values(b_set, CLASIC, reused={2})) == 60
    # variant l.109: the replacement counts 50 for A -> 65.
    l109 = attrs.evolve(CLASIC, swap_replacement_value_for_owner=SwapReplacementValue.JOKER_50)
    assert sum(meld_end_values(a_run, l109)) - 10 + replacement_value_end(a_run, 1, l109) == 65
    # variant l.38: a reused joker counts 0 -> B's set counts 10.
    l38 = attrs.evolve(CLASIC, reused_joker_value_end=ReusedJokerValueEnd.ZERO)
    assert sum(meld_end_values(b_set, l38, reused={2})) == 10
    assert sum(meld_end_values(b_set, l38)) == 60  # a first-use joker still counts 50


@pytest.mark.rule("VALUE-04")
@pytest.mark.rule("EX-35")
@pytest.mark.parametrize("preset", PRESETS)
def test_VALUE_04_rack_values_at_the_end(preset: str) -> None:
    rules = variants.get(preset)
    assert [rack_value_end(x, rules) for x in parse_tiles("2R 9A 10G 13N 1A J")] == [
        5,
        5,
        10,
        10,
        25,
        50,
    ]
    assert sum(rack_value_end(x, rules) for x in parse_tiles("9A 1A J")) == 80  # EX-35 B


@pytest.mark.rule("VALUE-04")
@pytest.mark.rule("EX-56")
@pytest.mark.parametrize("preset", PRESETS)
def test_EX_56_an_ace_left_on_the_rack(preset: str) -> None:
    assert rack_value_end(t("1R"), variants.get(preset)) == 25


@pytest.mark.rule("VALUE-04")
@pytest.mark.rule("EX-30")
def test_EX_30_a_joker_on_the_rack_at_the_end() -> None:
    assert rack_value_end(t("J"), CLASIC) == 50
    assert rack_value_end(t("J"), ONLINE) == 50
    assert rack_value_end(t("J(=12A)"), ONLINE) == 10
    assert rack_value_end(t("J(=1A)"), ONLINE) == 25
    assert rack_value_end(t("J"), RUMMY45) == 50


@pytest.mark.rule("VALUE-06")
def test_VALUE_06_the_atu_twin_on_the_rack() -> None:
    assert rack_value_end(t("7G"), ONLINE, atu_twin=True) == 25  # 001 l.20
    assert rack_value_end(t("13G"), ONLINE, atu_twin=True) == 25
    assert rack_value_end(t("7G"), CLASIC, atu_twin=True) == 5  # normal value (OQ-13)
    assert rack_value_end(t("7G"), RUMMY45, atu_twin=True) == 5
    # a joker atu's "twin" is the other joker: no atu value of its own
    assert rack_value_end(t("J"), ONLINE, atu_twin=True) == 50


def test_knobs_flip_the_values() -> None:
    cheap = attrs.evolve(CLASIC, ace_rack_value_end=15, joker_rack_value_end=30)
    assert rack_value_end(t("1R"), cheap) == 15
    assert rack_value_end(t("J"), cheap) == 30
    assert rack_value_end(t("J(=1R)"), attrs.evolve(ONLINE, ace_rack_value_end=15)) == 15
    fixed = attrs.evolve(CLASIC, atu_twin_rack_value_end=40)
    assert rack_value_end(t("7G"), fixed, atu_twin=True) == 40


def test_bad_arguments() -> None:
    meld = analyze_meld("4R J 6R", CLASIC)
    with pytest.raises(ValueError, match="not a joker"):
        table_joker_value_end(meld, 0, CLASIC)
    with pytest.raises(TypeError):
        rack_value_end("7R", CLASIC)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        meld_end_values(meld, None)  # type: ignore[arg-type]


def test_positions_and_melds_are_checked() -> None:
    meld = analyze_meld("7R J 9R", CLASIC)
    assert table_joker_value_end(meld, 1, CLASIC) == JOKER_END_VALUE
    for position in (-1, 3, 10**5000):
        for ask in (table_joker_value_end, replacement_value_end):
            with pytest.raises(InvalidScoringInputError) as err:
                ask(meld, position, CLASIC)
            assert err.value.code is ScoringErrorCode.BAD_POSITION
            assert err.value.message("ro") != err.value.message("en")
    with pytest.raises(InvalidScoringInputError) as real:
        table_joker_value_end(meld, 0, CLASIC)
    assert real.value.code is ScoringErrorCode.NOT_A_JOKER_POSITION
    assert "7R" in real.value.message("ro")
    with pytest.raises(TypeError, match="meld"):
        meld_end_values(None, CLASIC)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="position"):
        replacement_value_end(meld, "1", CLASIC)  # type: ignore[arg-type]
