"""Jokers on the table (JOLY-01 … JOLY-09, OPEN-09): RULES.md EX-24, EX-25, EX-28, EX-45,
EX-49, EX-55 under every preset each names, and a flip test for each swap knob.  Tiles
are physical ids: ``id = 8*(rank-1) + 2*colour + copy``; jokers 104, 105."""

from __future__ import annotations

from typing import Any

import attrs
import pytest
from table_builder import FULL, TableBuilder

from remi_rules import (
    InvalidMeldError,
    InvalidSwapError,
    LayoffErrorCode,
    MeldErrorCode,
    Ruleset,
    SwapErrorCode,
    SwappedJokerMode,
    SwappedJokerUse,
    SwapReplacementCredit,
    Tile,
    ids_of,
    variants,
)
from remi_rules.joly import (
    can_swap,
    joker_after_swap,
    joker_state,
    swap,
    swapped_joker_use_met,
    swapped_jokers_unmelded,
    verify_swap,
    verify_swapped_joker_use,
)
from remi_rules.lipire import layoff_credits, verify_lay_off
from remi_rules.table import JokerState, Table

E = SwapErrorCode
PRESETS = variants.names()
CLASIC, ONLINE, RUMMY45 = (variants.get(n) for n in PRESETS)
X, Y, Z = 0, 1, 2


class Game(TableBuilder):
    """The shared table builder, plus joker swaps and their refusal."""

    def swap(self, index: int, text: str, seat: int, joker: int = 104, **kw: Any) -> int:
        tile_id = self.id(text)
        self.table = swap(self.table, index, joker, tile_id, seat, self.rules, **{**FULL, **kw})
        return tile_id

    def code(self, index: int, text: str, seat: int, joker: int = 104, **kw: Any) -> E | None:
        tile_id = self.free_id(text)
        try:
            verify_swap(self.table, index, joker, tile_id, seat, self.rules, **{**FULL, **kw})
        except InvalidSwapError as err:
            assert err.message("ro") != err.message("en")
            return err.code
        return None


def flip(rules: Ruleset, **changes: Any) -> Ruleset:
    return attrs.evolve(rules, **changes)


# -- RULES.md worked examples ----------------------------------------------------------------


@pytest.mark.rule("EX-24")
@pytest.mark.rule("JOLY-01")
@pytest.mark.rule("TURN-08")
@pytest.mark.parametrize("preset", PRESETS)
def test_EX_24_no_swap_with_a_melded_tile(preset: str) -> None:
    g = Game(variants.get(preset))
    run = g.meld(X, "10A J 12A")
    b_set = g.meld(Y, "11A 11G 11R")
    g.lay(b_set, "11N", X)
    melded_11a = g.table.melds[b_set].ids[2]
    assert g.table.tile(melded_11a) == Tile.parse("11A")
    with pytest.raises(InvalidSwapError) as err:
        verify_swap(g.table, run, 104, melded_11a, Y, g.rules, **FULL)
    assert err.value.code is E.TILE_ON_TABLE
    assert g.code(run, "11A", Y) is None  # an 11A from B's rack could do it


@pytest.mark.rule("EX-25")
@pytest.mark.rule("JOLY-03")
@pytest.mark.rule("LIPI-06")
@pytest.mark.parametrize("preset", PRESETS)
def test_EX_25_a_3_tile_set_two_missing_colours_held_by_one_player(preset: str) -> None:
    g = Game(variants.get(preset))
    s = g.meld(Y, "2G 2A J")
    assert g.code(s, "2N", X) is E.THREE_TILE_SET  # not directly
    red = g.lay(s, "2R", X)
    assert g.text(s) == "2R 2G 2A J"
    assert layoff_credits(g.table, g.rules) == {X: 5}
    g.swap(s, "2N", X, laid_off_this_turn={red})
    meld = g.table.melds[s]
    assert g.text(s) == "2R 2G 2A 2N" and meld.meld.is_full
    # end, clasic: Y counts 2G + 2A + 2N = 15 (the replacement is the owner's), X has 5
    own = sum(v for v, c in zip(meld.meld.tile_values, meld.credited, strict=True) if c == Y)
    assert own == 15
    assert layoff_credits(g.table, g.rules) == {X: 5}
    # keeping the joker: clasic and online may; rummy45 must meld it this turn
    kept = swapped_joker_use_met(g.table, [104], [], g.rules)
    assert kept is (preset != "rummy45")
    if preset == "online":
        assert str(joker_after_swap(g.table, 104, g.rules)) == "J(=2N)"
    else:
        assert joker_after_swap(g.table, 104, g.rules) == Tile.parse("J")
    if preset == "rummy45":
        table, new = g.table.add_meld(X, [g.id("5N"), 104, g.id("7N")], g.rules)
        assert swapped_joker_use_met(table, [104], [new], g.rules)


@pytest.mark.rule("EX-25")
@pytest.mark.rule("JOLY-03")
@pytest.mark.parametrize("preset", PRESETS)
def test_EX_25_holding_only_the_fourth_colour(preset: str) -> None:
    g = Game(variants.get(preset))
    s = g.meld(Y, "2G 2A J")
    assert g.code(s, "2N", X) is E.THREE_TILE_SET
    g.lay(s, "2N", X)
    assert str(g.table.melds[s].meld.jokers[0].tile) == "2R"
    assert g.code(s, "2R", Z) is None  # a later holder of 2R takes the joker
    assert g.code(s, "2R", X) is None


@pytest.mark.rule("EX-28")
@pytest.mark.rule("JOLY-01")
@pytest.mark.rule("JOLY-04")
@pytest.mark.rule("JOLY-05")
@pytest.mark.parametrize("preset", PRESETS)
def test_EX_28_the_owner_swaps_his_own_joker(preset: str) -> None:
    g = Game(variants.get(preset))
    run = g.meld(X, "5R J 7R")
    g.swap(run, "6R", X)
    assert g.text(run) == "5R 6R 7R" and 104 not in g.table.ids()
    state = joker_state(g.table, 104, g.rules)
    if preset == "online":
        assert state is JokerState.FIXED and str(g.table.tile(104)) == "J(=6R)"
    else:
        assert state is JokerState.REUSED and g.table.tile(104) == Tile.parse("J")
    # rummy45: valid only if the joker goes into a new meld this turn
    assert swapped_joker_use_met(g.table, [104], [], g.rules) is (preset != "rummy45")
    table, new = (
        g.table.add_meld(X, [g.id("9A"), g.id("10A"), 104], g.rules)
        if (preset != "online")
        else g.table.add_meld(X, [g.id("6G"), g.id("6A"), 104], g.rules)
    )
    assert swapped_joker_use_met(table, [104], [new], g.rules)


@pytest.mark.rule("EX-45")
@pytest.mark.rule("JOLY-05")
@pytest.mark.rule("LIPI-08")
def test_EX_45_joker_intors_online() -> None:
    g = Game(ONLINE)
    run = g.meld(X, "7R J 9R")
    eight = ids_of(Tile.parse("8R"))[0]
    with pytest.raises(Exception) as err:
        verify_lay_off(g.table, run, eight, Y, ONLINE, **FULL)
    assert getattr(err.value, "code", None) is LayoffErrorCode.IS_SWAP
    g.swap(run, "8R", Y)
    assert str(g.table.tile(104)) == "J(=8R)"
    # usable only as an 8R: 6R 7R J(=8R) with the second copies, or J(=8R) 8G 8A
    assert g.table.add_meld(Y, [g.id("6R"), g.id("7R"), 104], ONLINE)[0]
    assert g.table.add_meld(Y, [104, g.id("8G"), g.id("8A")], ONLINE)[0]
    with pytest.raises(InvalidMeldError):
        g.table.add_meld(Y, [g.id("3R"), g.id("3G"), 104], ONLINE)
    # never taken again
    g.table, again = g.table.add_meld(Y, [104, g.id("8G"), g.id("8A")], ONLINE)
    assert g.code(again, "8N", Z) is E.JOKER_FIXED


@pytest.mark.rule("EX-45")
@pytest.mark.rule("JOLY-02")
@pytest.mark.rule("JOLY-05")
@pytest.mark.parametrize("preset", ["clasic", "rummy45"])
def test_EX_45_clasic_wild_but_never_swapped_again(preset: str) -> None:
    g = Game(variants.get(preset))
    run = g.meld(X, "7R J 9R")
    g.swap(run, "8R", Y)
    assert g.table.tile(104) == Tile.parse("J")
    g.table, again = g.table.add_meld(Y, [g.id("3R"), g.id("4R"), 104], g.rules)
    assert str(g.table.melds[again].meld) == "3R 4R J"
    assert g.code(again, "5R", Z) is E.SWAP_LIMIT


@pytest.mark.rule("EX-49")
@pytest.mark.rule("JOLY-04")
@pytest.mark.rule("JOLY-05")
@pytest.mark.parametrize("preset", PRESETS)
def test_EX_49_swap_meld_and_close_with_3_tiles(preset: str) -> None:
    g = Game(variants.get(preset))
    q_run = g.meld(Y, "5R J 7R")
    g.swap(q_run, "6R", X)
    ids = [g.id("8G"), g.id("8A"), 104]
    if preset == "online":
        with pytest.raises(InvalidMeldError) as err:
            g.table.add_meld(X, ids, g.rules)
        assert err.value.code is MeldErrorCode.FIXED_JOKER_OUT_OF_PLACE
        return
    table, new = g.table.add_meld(X, ids, g.rules)
    assert str(table.melds[new].meld) == "8G 8A J"
    verify_swapped_joker_use(table, [104], [new], g.rules)  # rummy45: met


@pytest.mark.rule("EX-55")
@pytest.mark.rule("OPEN-09")
@pytest.mark.rule("JOLY-01")
@pytest.mark.parametrize("preset", PRESETS)
def test_EX_55_no_swap_to_reach_45(preset: str) -> None:
    g = Game(variants.get(preset))
    run = g.meld(Y, "5G J 7G")
    assert g.code(run, "6G", X, opened=False) is E.NOT_OPENED
    assert g.code(run, "6G", X, opened=True, opened_this_turn=True) is E.OPENING_TURN


# -- other rules ---------------------------------------------------------------------------


@pytest.mark.rule("JOLY-01")
@pytest.mark.parametrize("preset", PRESETS)
def test_JOLY_01_the_exact_tile_only(preset: str) -> None:
    g = Game(variants.get(preset))
    run = g.meld(Y, "5G J 7G")
    assert g.code(run, "6R", X) is E.WRONG_TILE
    assert g.code(run, "J", X, joker=104) is E.WRONG_TILE
    assert g.code(run, "6G", X, joker=105) is E.NOT_A_JOKER_HERE
    with pytest.raises(InvalidSwapError) as err:
        verify_swap(g.table, 3, 104, 0, X, g.rules, **FULL)
    assert err.value.code is E.BAD_MELD_INDEX
    assert isinstance(err.value, ValueError)
    with pytest.raises(TypeError):
        verify_swap(g.table, run, 104, 0, X, "clasic", **FULL)  # type: ignore[arg-type]


@pytest.mark.rule("JOLY-06")
@pytest.mark.rule("VALUE-05")
@pytest.mark.parametrize("preset", PRESETS)
def test_JOLY_06_a_swap_is_an_exchange(preset: str) -> None:
    g = Game(variants.get(preset))
    run = g.meld(Y, "5G J 7G")
    before = g.table
    six = g.swap(run, "6G", X)
    assert before.ids() - {104} | {six} == g.table.ids()
    assert before.joker(104).swaps == 0 and g.table.joker(104).swaps == 1
    (entry,) = g.table.ledger()
    assert entry.replacement and entry.layer == X and entry.credited == Y
    assert layoff_credits(g.table, g.rules) == {}


@pytest.mark.rule("JOLY-09")
@pytest.mark.rule("OQ-36")
@pytest.mark.parametrize("preset", PRESETS)
def test_JOLY_09_the_joker_keeps_its_history(preset: str) -> None:
    g = Game(variants.get(preset))
    run = g.meld(Y, "5G J 7G")
    g.swap(run, "6G", X)
    history = g.table.joker(104)
    # wherever the tile goes (rack, discard row, a new meld), the table keeps its history
    again = Table(jokers=g.table.jokers)
    assert again.joker(104) == history
    if preset != "online":
        again, idx = again.add_meld(Z, [104, g.id("2R"), g.id("3R")], g.rules)
        assert str(again.melds[idx].meld) == "J 2R 3R"
        assert not can_swap(again, idx, 104, g.id("1R"), X, g.rules, **FULL)


@pytest.mark.rule("JOLY-04")
def test_JOLY_04_verify_swapped_joker_use() -> None:
    g = Game(RUMMY45)
    run = g.meld(Y, "5G J 7G")
    g.swap(run, "6G", X)
    assert swapped_jokers_unmelded(g.table, [104, 104], [], RUMMY45) == (104,)
    with pytest.raises(InvalidSwapError) as err:
        verify_swapped_joker_use(g.table, [104], [run], RUMMY45)  # run existed before
    assert err.value.code is E.JOKER_NOT_MELDED
    assert "104" in err.value.message("en")


# -- knob flips ------------------------------------------------------------------------------


@pytest.mark.rule("JOLY-03")
def test_flip_three_tile_set_joker_locked() -> None:
    for value, want in ((True, E.THREE_TILE_SET), (False, None)):
        g = Game(flip(CLASIC, three_tile_set_joker_locked=value))
        s = g.meld(Y, "2G 2A J")
        assert g.code(s, "2N", X) is want
        assert g.code(s, "2N", X) is g.code(s, "2R", X)
        assert g.code(s, "3N", X) is (want or E.WRONG_TILE)


@pytest.mark.rule("JOLY-03")
def test_flip_set_complete_and_swap_same_turn() -> None:
    for value, want in ((True, None), (False, E.SAME_TURN_COMPLETION)):
        g = Game(flip(CLASIC, set_complete_and_swap_same_turn=value))
        s = g.meld(Y, "2G 2A J")
        red = g.lay(s, "2R", X)
        assert g.code(s, "2N", X, laid_off_this_turn={red}) is want
        assert g.code(s, "2N", X) is None  # in a later turn
        assert g.code(s, "2N", Z, laid_off_this_turn=()) is None  # another player


@pytest.mark.rule("JOLY-02")
def test_flip_joker_swap_limit() -> None:
    for limit, first, second in ((1, None, E.SWAP_LIMIT), (2, None, None), (0, E.SWAP_LIMIT, None)):
        g = Game(flip(CLASIC, joker_swap_limit=limit))
        run = g.meld(Y, "5G J 7G")
        assert g.code(run, "6G", X) is first
        if first is not None:
            continue
        g.swap(run, "6G", X)
        g.table, again = g.table.add_meld(X, [g.id("9N"), 104, g.id("11N")], g.rules)
        assert g.code(again, "10N", Z) is second


@pytest.mark.rule("JOLY-01")
@pytest.mark.rule("OQ-39")
def test_flip_swap_requires_opened() -> None:
    for value, want in ((True, E.NOT_OPENED), (False, None)):
        g = Game(flip(CLASIC, swap_requires_opened=value))
        run = g.meld(Y, "5G J 7G")
        assert g.code(run, "6G", X, opened=False, opened_this_turn=False) is want


@pytest.mark.rule("OPEN-09")
def test_flip_swap_in_opening_turn() -> None:
    for value, want in ((False, E.OPENING_TURN), (True, None)):
        g = Game(flip(ONLINE, swap_in_opening_turn=value))
        run = g.meld(Y, "5G J 7G")
        assert g.code(run, "6G", X, opened=True, opened_this_turn=True) is want


@pytest.mark.rule("JOLY-04")
def test_flip_swapped_joker_use() -> None:
    for value, met in ((SwappedJokerUse.KEEP, True), (SwappedJokerUse.SAME_TURN_NEW_MELD, False)):
        g = Game(flip(CLASIC, swapped_joker_use=value))
        run = g.meld(Y, "5G J 7G")
        g.swap(run, "6G", X)
        assert swapped_joker_use_met(g.table, [104], [], g.rules) is met


@pytest.mark.rule("JOLY-05")
def test_flip_swapped_joker_mode() -> None:
    for value, tile in ((SwappedJokerMode.WILD, "J"), (SwappedJokerMode.FIXED_IDENTITY, "J(=6G)")):
        g = Game(flip(CLASIC, swapped_joker_mode=value))
        run = g.meld(Y, "5G J 7G")
        g.swap(run, "6G", X)
        assert str(joker_after_swap(g.table, 104, g.rules)) == tile
        ids = [g.id("3R"), g.id("3A"), 104]
        if value is SwappedJokerMode.WILD:
            assert g.table.add_meld(X, ids, g.rules)
        else:
            with pytest.raises(InvalidMeldError):
                g.table.add_meld(X, ids, g.rules)


@pytest.mark.rule("VALUE-05")
@pytest.mark.rule("OQ-20")
def test_flip_swap_replacement_credited_to() -> None:
    for value, seat in ((SwapReplacementCredit.MELD_OWNER, Y), (SwapReplacementCredit.SWAPPER, X)):
        g = Game(flip(ONLINE, swap_replacement_credited_to=value))
        run = g.meld(Y, "5G J 7G")
        six = g.swap(run, "6G", X)
        meld = g.table.melds[run]
        assert meld.credited[meld.position_of(six)] == seat
        assert meld.placed_by[meld.position_of(six)] == X


def test_the_joker_questions_refuse_what_is_no_joker() -> None:
    g = Game(CLASIC)
    g.meld(X, "7R J 9R")
    assert joker_state(g.table, 104, CLASIC) is JokerState.FRESH
    for not_a_joker in (0, 103, 106, -1, 10**5000):
        for ask in (joker_state, joker_after_swap):
            with pytest.raises(InvalidSwapError) as err:
                ask(g.table, not_a_joker, CLASIC)
            assert err.value.code is SwapErrorCode.NOT_A_JOKER
            assert err.value.message("ro") != err.value.message("en")
    with pytest.raises(TypeError, match="table"):
        joker_state(None, 104, CLASIC)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="joker_id"):
        joker_after_swap(g.table, "104", CLASIC)  # type: ignore[arg-type]
