"""Laying off (LIPI-01 … LIPI-08, JOLY-07, OPEN-07): RULES.md EX-22, EX-23, EX-26, EX-27,
EX-29, EX-46, EX-54 under every preset each names, and a flip test for each lay-off
knob.  Tiles are physical ids: ``id = 8*(rank-1) + 2*colour + copy``; jokers 104, 105."""

from __future__ import annotations

from typing import Any

import attrs
import pytest
from table_builder import FULL, TableBuilder

from remi_rules import (
    InvalidLayoffError,
    InvalidMeldError,
    LayoffErrorCode,
    MeldErrorCode,
    Ruleset,
    Tile,
    analyze_meld,
    check_opening,
    ids_of,
    variants,
)
from remi_rules.joly import swap
from remi_rules.lipire import (
    End,
    LayoffOption,
    can_lay_off,
    joker_replaced_by,
    lay_off,
    layoff_credit,
    layoff_credits,
    layoff_options,
    might_fit,
    verify_lay_off,
)
from remi_rules.table import JokerState

E = LayoffErrorCode
PRESETS = variants.names()
CLASIC, ONLINE, RUMMY45 = (variants.get(n) for n in PRESETS)
A, B, C = 0, 1, 2


class Game(TableBuilder):
    """The shared table builder, plus the refusal of a lay-off."""

    def code(self, index: int, text: str, seat: int, **kw: Any) -> LayoffErrorCode | None:
        """The refusal of laying a fresh copy of ``text`` (None if allowed); nothing changes."""
        tile_id = self.free_id(text)
        try:
            verify_lay_off(self.table, index, tile_id, seat, self.rules, **{**FULL, **kw})
        except InvalidLayoffError as err:
            assert err.message("ro") != err.message("en")
            return err.code
        return None

    def meld_text(self, index: int) -> str:
        return self.text(index)


def flip(rules: Ruleset, **changes: Any) -> Ruleset:
    return attrs.evolve(rules, **changes)


# -- RULES.md worked examples ----------------------------------------------------------------


@pytest.mark.rule("EX-22")
@pytest.mark.rule("LIPI-04")
@pytest.mark.rule("MELD-07")
@pytest.mark.parametrize("preset", PRESETS)
def test_EX_22_layoff_credit_bookkeeping(preset: str) -> None:
    g = Game(variants.get(preset))
    run = g.meld(A, "6R 7R 8R")
    nine = g.lay(run, "9R", B)
    ten = g.lay(run, "10R", C)
    meld = g.table.melds[run]
    assert g.meld_text(run) == "6R 7R 8R 9R 10R"
    assert meld.owner == A and meld.credited == (A, A, A, B, C)
    assert layoff_credit(g.table, run, nine, g.rules) == 5
    assert layoff_credit(g.table, run, ten, g.rules) == 10
    assert [(e.layer, e.credited, e.owner, str(e.tile)) for e in g.table.ledger()] == [
        (B, B, A, "9R"),
        (C, C, A, "10R"),
    ]
    assert layoff_credits(g.table, g.rules) == {B: 5, C: 10}
    values = meld.meld.tile_values
    assert sum(v for v, seat in zip(values, meld.credited, strict=True) if seat == A) == 15
    # the logical meld keeps its true ends: it still accepts 5R and 11R
    assert g.code(run, "5R", B) is None and g.code(run, "11R", B) is None
    opts = layoff_options(g.table, ids_of(Tile.parse("5R"))[0], B, g.rules, **FULL)
    assert opts == (LayoffOption(run, End.LOW),)
    assert g.code(run, "12R", B) is E.NOT_FITTING


@pytest.mark.rule("EX-23")
@pytest.mark.rule("LIPI-05")
@pytest.mark.rule("TURN-08")
@pytest.mark.rule("MELD-03")
@pytest.mark.parametrize("preset", PRESETS)
def test_EX_23_no_tile_taken_out_on_a_layoff(preset: str) -> None:
    g = Game(variants.get(preset))
    a_set = g.meld(A, "8R 8N 8G")
    g.meld(B, "6G 7G 8G 9G")
    before = g.table
    eight = g.lay(a_set, "8A", B)
    assert set(before.melds[a_set].ids) < set(g.table.melds[a_set].ids)
    assert before.melds[1] == g.table.melds[1]  # B's own run is untouched
    assert g.table.melds[a_set].meld.is_full
    assert layoff_credit(g.table, a_set, eight, g.rules) == 5
    assert g.code(a_set, "8R", B) is E.MELD_FULL
    assert before.ids() | {eight} == g.table.ids()  # nothing left the table


@pytest.mark.rule("EX-26")
@pytest.mark.rule("LIPI-07")
@pytest.mark.parametrize("preset", ["clasic", "rummy45"])
def test_EX_26_reused_joker_in_a_3_tile_set_blocks_layoffs(preset: str) -> None:
    g = Game(variants.get(preset))
    run = g.meld(A, "11N J 13N")
    twelve = g.id("12N")
    g.table = swap(g.table, run, 104, twelve, C, g.rules, **FULL)
    assert g.table.joker(104).state(g.rules) is JokerState.REUSED
    ids = [g.id("2G"), g.id("2A"), 104]
    g.table, s = g.table.add_meld(C, ids, g.rules)
    assert g.code(s, "2R", B) is E.REUSED_JOKER_SET
    assert g.code(s, "2N", B) is E.REUSED_JOKER_SET
    assert g.code(s, "2N", C) is E.REUSED_JOKER_SET  # the owner neither


@pytest.mark.rule("EX-26")
@pytest.mark.rule("JOLY-05")
def test_EX_26_online_the_turned_joker_is_not_even_a_meld() -> None:
    g = Game(ONLINE)
    run = g.meld(A, "11N J 13N")
    g.table = swap(g.table, run, 104, g.id("12N"), C, ONLINE, **FULL)
    assert str(g.table.tile(104)) == "J(=12N)"
    with pytest.raises(InvalidMeldError) as err:
        g.table.add_meld(C, [g.id("2G"), g.id("2A"), 104], ONLINE)
    assert err.value.code is MeldErrorCode.FIXED_JOKER_OUT_OF_PLACE


@pytest.mark.rule("EX-27")
@pytest.mark.rule("LIPI-06")
@pytest.mark.rule("LIPI-07")
def test_EX_27_aces_with_reused_versus_first_use_joker() -> None:
    g = Game(CLASIC)
    run = g.meld(A, "11A J 13A")
    g.table = swap(g.table, run, 104, g.id("12A"), B, CLASIC, **FULL)
    g.table, aces = g.table.add_meld(B, [g.id("1R"), g.id("1G"), 104], CLASIC)
    for ace in ("1A", "1N"):
        assert g.code(aces, ace, C) is E.REUSED_JOKER_SET
    # first use: anyone may add 1A, then the joker is 1N and a holder of 1N swaps
    g2 = Game(CLASIC)
    fresh = g2.meld(A, "1R 1G J")
    assert g2.table.melds[fresh].meld.points == 75
    g2.lay(fresh, "1A", C)
    assert g2.meld_text(fresh) == "1R 1G 1A J"
    assert g2.code(fresh, "1N", B) is E.IS_SWAP
    one_n = ids_of(Tile.parse("1N"))[0]
    opts = layoff_options(g2.table, one_n, B, CLASIC, **FULL)
    assert opts == (LayoffOption(fresh, End.SWAP, 104),)


@pytest.mark.rule("EX-27")
def test_EX_27_online_the_aces_meld_is_impossible() -> None:
    g = Game(ONLINE)
    run = g.meld(A, "11A J 13A")
    g.table = swap(g.table, run, 104, g.id("12A"), B, ONLINE, **FULL)
    with pytest.raises(InvalidMeldError):
        g.table.add_meld(B, [g.id("1R"), g.id("1G"), 104], ONLINE)


@pytest.mark.rule("EX-29")
@pytest.mark.rule("JOLY-07")
@pytest.mark.parametrize(
    ("preset", "on_others", "credit"),
    [("clasic", None, 50), ("online", None, 10), ("rummy45", E.JOKER_ON_OTHERS_MELD, None)],
)
def test_EX_29_joker_on_another_players_meld(
    preset: str, on_others: LayoffErrorCode | None, credit: int | None
) -> None:
    g = Game(variants.get(preset))
    q_run = g.meld(B, "9G 10G 11G")
    own = g.meld(A, "4N 5N 6N")
    assert g.code(q_run, "J", A, end=End.HIGH) is on_others
    # on his own run, as 7N or 3N: valid in every preset, the end must be named
    assert g.code(own, "J", A) is E.END_REQUIRED
    assert g.code(own, "J", A, end=End.HIGH) is None
    assert g.code(own, "J", A, end=End.LOW) is None
    if credit is not None:
        g.lay(q_run, "J", A, end=End.HIGH)
        assert g.meld_text(q_run) == "9G 10G 11G J"
        assert layoff_credit(g.table, q_run, 104, g.rules) == credit
        assert layoff_credits(g.table, g.rules) == {A: credit}


@pytest.mark.rule("EX-46")
@pytest.mark.rule("JOLY-07")
@pytest.mark.rule("VALUE-03")
def test_EX_46_laying_jokers_as_the_last_tiles() -> None:
    # clasic: P's swapped (reused) joker laid on Q's aces as 1N: allowed, credit 50
    g = Game(CLASIC)
    donor = g.meld(C, "5R J 7R")
    g.table = swap(g.table, donor, 104, g.id("6R"), A, CLASIC, **FULL)
    aces = g.meld(B, "1R 1G 1A")
    g.table = lay_off(g.table, aces, 104, A, CLASIC, **FULL)
    assert layoff_credit(g.table, aces, 104, CLASIC) == 50
    # rummy45: only on his own melds
    g = Game(RUMMY45)
    aces = g.meld(B, "1R 1G 1A")
    own = g.meld(A, "1N 2N 3N")
    assert g.code(aces, "J", A) is E.JOKER_ON_OTHERS_MELD
    assert g.code(own, "J", A) is None
    # online: the fixed J(=6R) fits only where a 6R would; the fresh joker goes on the aces
    g = Game(ONLINE)
    donor = g.meld(C, "5R J 7R")
    g.table = swap(g.table, donor, 104, g.id("6R"), A, ONLINE, **FULL)
    aces = g.meld(B, "1R 1G 1A")
    run = g.meld(B, "3R 4R 5R")
    assert not can_lay_off(g.table, aces, 104, A, ONLINE, **FULL)
    assert can_lay_off(g.table, aces, 105, A, ONLINE, **FULL)
    opts = layoff_options(g.table, 104, A, ONLINE, **FULL)
    assert opts == (LayoffOption(run, End.HIGH),)
    after = lay_off(g.table, run, 104, A, ONLINE, **FULL)
    assert str(after.melds[run].meld) == "3R 4R 5R J(=6R)"
    assert layoff_credit(after, run, 104, ONLINE) == 5


@pytest.mark.rule("EX-54")
@pytest.mark.rule("OPEN-07")
@pytest.mark.rule("LIPI-03")
@pytest.mark.parametrize("preset", PRESETS)
def test_EX_54_layoffs_in_the_opening_turn(preset: str) -> None:
    g = Game(variants.get(preset))
    q_run = g.meld(B, "10N 11N 12N")
    run = g.meld(A, "3R 4R 5R")
    tens = g.meld(A, "10G 10A 10N")
    opening = {"opened": True, "opened_this_turn": True, "new_meld_indexes": (run, tens)}
    assert g.code(q_run, "13N", A, **opening) is E.OPENING_TURN
    assert g.code(run, "6R", A, **opening) is None
    g.lay(run, "6R", A, **opening)
    melds = [g.table.melds[i].meld for i in (run, tens)]
    assert check_opening(melds, g.rules) == 50
    # in his next turn he may
    assert g.code(q_run, "13N", A) is None


# -- other rules ---------------------------------------------------------------------------


@pytest.mark.rule("LIPI-01")
@pytest.mark.parametrize("preset", PRESETS)
def test_LIPI_01_only_an_opened_player_lays_off_on_any_meld(preset: str) -> None:
    g = Game(variants.get(preset))
    run = g.meld(B, "4A 5A 6A")
    assert g.code(run, "7A", A, opened=False) is E.NOT_OPENED
    assert g.code(run, "7A", A) is None
    assert g.code(run, "7A", B) is None


@pytest.mark.rule("LIPI-02")
@pytest.mark.rule("MELD-02")
@pytest.mark.parametrize("preset", PRESETS)
def test_LIPI_02_a_high_ace_closes_the_run(preset: str) -> None:
    g = Game(variants.get(preset))
    run = g.meld(B, "12R 13R 1R")
    assert g.code(run, "2R", A, end=End.HIGH) is E.END_CLOSED
    assert g.code(run, "2R", A) is E.END_CLOSED
    assert g.code(run, "11R", A) is None
    one = g.lay(run, "11R", A)
    assert g.meld_text(run) == "11R 12R 13R 1R"
    assert layoff_credit(g.table, run, one, g.rules) == 10
    low = g.meld(B, "2G 3G 4G")
    ace = g.lay(low, "1G", A)
    assert layoff_credit(g.table, low, ace, g.rules) == 5
    assert g.code(low, "5G", A, end=End.LOW) is E.NOT_FITTING
    assert g.code(low, "7G", A, end=End.SET) is E.BAD_END


@pytest.mark.rule("LIPI-02")
@pytest.mark.rule("MELD-06")
def test_LIPI_02_an_ace_fitting_both_ends_needs_the_end() -> None:
    g = Game(CLASIC)
    run = g.meld(B, " ".join(f"{r}R" for r in range(2, 14)))
    assert g.code(run, "1R", A) is E.END_REQUIRED
    ace = g.lay(run, "1R", A, end=End.HIGH)
    assert layoff_credit(g.table, run, ace, CLASIC) == 10
    assert g.code(run, "1R", A) is E.MELD_FULL or g.code(run, "1R", A) is E.END_CLOSED
    g = Game(CLASIC)
    run = g.meld(B, " ".join(f"{r}R" for r in range(2, 14)))
    ace = g.lay(run, "1R", A, end=End.LOW)
    assert layoff_credit(g.table, run, ace, CLASIC) == 5
    assert g.code(run, "1R", A) is E.MELD_FULL


@pytest.mark.rule("LIPI-02")
@pytest.mark.rule("MELD-03")
@pytest.mark.parametrize("preset", PRESETS)
def test_LIPI_02_a_set_takes_a_missing_colour(preset: str) -> None:
    g = Game(variants.get(preset))
    s = g.meld(B, "7R 7A 7N")
    assert g.code(s, "7R", A) is E.NOT_FITTING
    assert g.code(s, "8G", A) is E.NOT_FITTING
    seven = g.lay(s, "7G", A)
    assert g.table.melds[s].position_of(seven) == 1  # kept in canonical colour order
    assert layoff_credit(g.table, s, seven, g.rules) == 5


@pytest.mark.rule("LIPI-06")
@pytest.mark.rule("MELD-06")
@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("seat", [A, B])
def test_LIPI_06_anyone_completes_a_set_with_a_joker(preset: str, seat: int) -> None:
    g = Game(variants.get(preset))
    s = g.meld(A, "2R 2A J")
    assert g.table.melds[s].meld.jokers[0].tile is None  # undetermined
    assert joker_replaced_by(g.table, s, Tile.parse("2G")) is None
    g.lay(s, "2G", seat)
    assert str(g.table.melds[s].meld.jokers[0].tile) == "2N"
    assert joker_replaced_by(g.table, s, Tile.parse("2N")) == 104
    assert g.code(s, "2N", B) is E.IS_SWAP


@pytest.mark.rule("LIPI-08")
@pytest.mark.rule("JOLY-01")
@pytest.mark.parametrize("preset", PRESETS)
def test_LIPI_08_laying_the_tile_a_joker_stands_for_is_a_swap(preset: str) -> None:
    g = Game(variants.get(preset))
    run = g.meld(B, "7R J 9R")
    assert g.code(run, "8R", A) is E.IS_SWAP
    eight = ids_of(Tile.parse("8R"))[0]
    with pytest.raises(InvalidLayoffError) as err:
        verify_lay_off(g.table, run, eight, A, g.rules, **FULL)
    assert err.value.details["joker_id"] == 104
    assert layoff_options(g.table, eight, A, g.rules, **FULL) == (LayoffOption(run, End.SWAP, 104),)
    assert layoff_options(g.table, eight, A, g.rules, opened=False, opened_this_turn=False) == ()


@pytest.mark.rule("LIPI-02")
@pytest.mark.rule("MELD-05")
@pytest.mark.parametrize("preset", PRESETS)
def test_LIPI_02_joker_limits_hold_after_a_layoff(preset: str) -> None:
    g = Game(variants.get(preset))
    s = g.meld(B, "5R 5G J")
    assert g.code(s, "J", B) is E.JOKER_LIMIT
    g = Game(variants.get(preset))
    run = g.meld(B, "5A J 7A")
    assert g.code(run, "J", B, end=End.HIGH) is E.JOKER_LIMIT


@pytest.mark.rule("LIPI-02")
def test_refusals_for_bad_input() -> None:
    g = Game(CLASIC)
    run = g.meld(B, "5A 6A 7A")
    on_table = g.table.melds[run].ids[0]
    assert g.code(5, "8A", A) is E.BAD_MELD_INDEX
    with pytest.raises(InvalidLayoffError) as err:
        verify_lay_off(g.table, run, on_table, A, CLASIC, **FULL)
    assert err.value.code is E.TILE_ON_TABLE
    with pytest.raises(TypeError):
        verify_lay_off(g.table, run, 0, A, "clasic", **FULL)  # type: ignore[arg-type]
    assert isinstance(err.value, ValueError)


def test_lay_off_returns_a_new_table() -> None:
    g = Game(CLASIC)
    run = g.meld(B, "5A 6A 7A")
    before = g.table
    after = lay_off(before, run, g.id("8A"), A, CLASIC, **FULL)
    assert after is not before and len(before.melds[run].ids) == 3
    assert str(analyze_meld("5A 6A 7A 8A", CLASIC)) == str(after.melds[run].meld)


# -- knob flips ------------------------------------------------------------------------------


@pytest.mark.rule("JOLY-07")
def test_flip_joker_layoff_on_others_melds() -> None:
    for rules in (RUMMY45, CLASIC):
        for value, want in ((False, E.JOKER_ON_OTHERS_MELD), (True, None)):
            g = Game(flip(rules, joker_layoff_on_others_melds=value))
            run = g.meld(B, "9G 10G 11G")
            assert g.code(run, "J", A, end=End.HIGH) is want
            own = g.meld(A, "4N 5N 6N")
            assert g.code(own, "J", A, end=End.HIGH) is None


@pytest.mark.rule("LIPI-07")
def test_flip_layoff_on_3set_with_reused_joker() -> None:
    for value, want in ((False, E.REUSED_JOKER_SET), (True, None)):
        rules = flip(CLASIC, layoff_on_3set_with_reused_joker=value)
        g = Game(rules)
        run = g.meld(A, "11N J 13N")
        g.table = swap(g.table, run, 104, g.id("12N"), C, rules, **FULL)
        g.table, s = g.table.add_meld(C, [g.id("2G"), g.id("2A"), 104], rules)
        assert g.code(s, "2R", B) is want


@pytest.mark.rule("MELD-05")
def test_flip_real_tiles_per_joker() -> None:
    for per, want in ((2, None), (4, E.JOKER_LIMIT)):
        g = Game(flip(CLASIC, real_tiles_per_joker=per))
        run = g.meld(B, "4R 5R 6R")
        assert g.code(run, "J", B, end=End.HIGH) is want


@pytest.mark.rule("MELD-05")
def test_flip_jokers_may_be_adjacent() -> None:
    for value, want in ((False, E.JOKER_LIMIT), (True, None)):
        g = Game(flip(CLASIC, jokers_may_be_adjacent=value))
        run = g.meld(B, "J 4R 5R 6R 7R")
        assert g.code(run, "J", B, end=End.LOW) is want


@pytest.mark.rule("OPEN-07")
def test_flip_layoff_on_others_in_opening_turn() -> None:
    for value, want in ((False, E.OPENING_TURN), (True, None)):
        g = Game(flip(CLASIC, layoff_on_others_in_opening_turn=value))
        q_run = g.meld(B, "10N 11N 12N")
        assert g.code(q_run, "13N", A, opened=True, opened_this_turn=True) is want


def test_the_credit_and_joker_helpers_refuse_bad_arguments() -> None:
    g = Game(CLASIC)
    run = g.meld(B, "5A 6A 7A")
    first = g.table.melds[run].ids[0]
    assert layoff_credit(g.table, run, first, CLASIC) == 5
    for stranger in (g.free_id("9R"), -1, 10**5000):
        with pytest.raises(InvalidLayoffError) as err:
            layoff_credit(g.table, run, stranger, CLASIC)
        assert err.value.code is E.TILE_NOT_IN_MELD and err.value.message("ro")
    with pytest.raises(InvalidLayoffError) as bad_index:
        joker_replaced_by(g.table, 10**5000, Tile.parse("8A"))
    assert bad_index.value.code is E.BAD_MELD_INDEX and "e+5000" in str(bad_index.value)
    with pytest.raises(TypeError, match="table"):
        layoff_credits(None, CLASIC)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="tile"):
        joker_replaced_by(g.table, run, None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="meld"):
        might_fit(Tile.parse("8A"), None)  # type: ignore[arg-type]
