"""Audit of table / lipire / joly / scoring / values against RULES.md, in every preset.

Passing tests document behaviour checked against RULES.md (worked examples with
numbers, multiplier stacking, joker end values and credits after swaps, the 3-tile-set
rules, ace ends of runs, online's fixed jokers).  The last group pins impossible input
that the audit found silently accepted and that is now refused.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from remi_rules import (
    InvalidLayoffError,
    InvalidMeldError,
    InvalidScoringInputError,
    InvalidSwapError,
    LayoffErrorCode,
    RoundResult,
    Ruleset,
    SeatEnd,
    SwapErrorCode,
    Tile,
    analyze_meld,
    ids_of,
    score_round,
    variants,
)
from remi_rules.joly import joker_after_swap, swap, swapped_joker_use_met, verify_swap
from remi_rules.lipire import (
    End,
    lay_off,
    layoff_credit,
    layoff_credits,
    layoff_options,
    verify_lay_off,
)
from remi_rules.table import JokerState, Table
from remi_rules.values import meld_end_values, rack_value_end

CLASIC, ONLINE, RUMMY45 = (variants.get(n) for n in ("clasic", "online", "rummy45"))
ALL = [CLASIC, ONLINE, RUMMY45]
J1, J2 = 104, 105
FULL: dict[str, Any] = {"opened": True, "opened_this_turn": False}


def name(rules: Ruleset) -> str:
    return {id(CLASIC): "clasic", id(ONLINE): "online", id(RUMMY45): "rummy45"}[id(rules)]


class Ids:
    """Hands out unused physical ids: the first free copy of each tile in ``text``."""

    def __init__(self) -> None:
        self.used: set[int] = {J1, J2}  # jokers are placed by id explicitly

    def __call__(self, text: str) -> tuple[int, ...]:
        out = []
        for token in text.split():
            free = [i for i in ids_of(Tile.parse(token)) if i not in self.used]
            assert free, f"no copy of {token} left"
            self.used.add(free[0])
            out.append(free[0])
        return tuple(out)

    def one(self, text: str) -> int:
        (tile_id,) = self(text)
        return tile_id


def build(
    rules: Ruleset, ids: Ids, melds: list[tuple[int, str]], table: Table | None = None
) -> Table:
    """Meld ``(owner, text)`` in order; ``J`` in ``text`` is joker 104 then 105."""
    table = table or Table()
    for owner, text in melds:
        out: list[int] = []
        for token in text.split():
            if token == "J":
                out.append(J1 if J1 not in table.ids() and J1 not in out else J2)
            else:
                out.append(ids.one(token))
        table, _ = table.add_meld(owner, out, rules)
    return table


def rack(ids: Ids, text: str, *extra: int) -> tuple[int, ...]:
    return (*ids(text), *extra) if text else tuple(extra)


def totals(result: RoundResult) -> tuple[int, ...]:
    return tuple(s.total for s in result.seats)


# -- EX-35 / EX-36 / EX-37: the reference table --------------------------------------------


def ex35(
    rules: Ruleset,
    atu_text: str,
    closing: str = "8G",
    *,
    announce: bool = False,
    b_failed: bool = False,
) -> RoundResult:
    ids = Ids()
    atu = ids.one(atu_text)
    table = build(
        rules,
        ids,
        [
            (0, "3R 4R 5R"),
            (0, "10G 10A 10N"),
            (1, "1R 2R 3R"),
            (1, "12G 13G 1G"),
            (3, "10N 11N 12N"),
            (3, "5G 5A 5N 5R"),
        ],
    )
    table = lay_off(table, 4, ids.one("13N"), 0, rules, **FULL)
    seats = [
        SeatEnd(rack=(), opened=True),
        SeatEnd(rack=rack(ids, "9A 1A", J1), opened=True, failed_to_announce=b_failed),
        SeatEnd(rack=rack(ids, "2G 3G 4A"), opened=False),
        SeatEnd(rack=rack(ids, "4G 7G"), opened=True, announced_atu=announce),
    ]
    closing_tile = J2 if closing == "J" else ids.one(closing)
    return score_round(table, seats, rules, atu=atu, closer=0, closing_tile=closing_tile)


@pytest.mark.rule("EX-35")
@pytest.mark.rule("SCORE-01")
def test_EX_35_full_round_clasic_and_rummy45() -> None:
    assert totals(ex35(CLASIC, "7G", announce=True)) == (155, -35, -100, 90)
    assert totals(ex35(RUMMY45, "7G", announce=True)) == (105, -35, -100, 40)


@pytest.mark.rule("EX-36")
@pytest.mark.rule("SCORE-04")
@pytest.mark.rule("SCORE-06")
def test_EX_36_double_game_and_x4_stacking() -> None:
    assert totals(ex35(CLASIC, "1N")) == (310, -70, -200, 80)
    assert totals(ex35(CLASIC, "1N", "J")) == (620, -70, -200, 80)  # 155 x 4
    assert totals(ex35(CLASIC, "7G", "J")) == (310, -35, -100, 40)
    assert totals(ex35(CLASIC, "7G", "1A")) == (310, -35, -100, 40)
    assert totals(ex35(RUMMY45, "1N")) == (210, -70, -200, 80)
    assert totals(ex35(RUMMY45, "1N", "J")) == (420, -70, -200, 80)
    assert totals(ex35(RUMMY45, "7G", "1A")) == (105, -35, -100, 40)  # a 1 does not double
    assert ex35(CLASIC, "1N", "J").seats[0].multiplier == 4


@pytest.mark.rule("EX-36")
@pytest.mark.rule("SCORE-05")
@pytest.mark.rule("ATU-05")
def test_EX_36_online_ace_atu_doubles_nothing_and_cap_x2() -> None:
    ace_atu = ex35(ONLINE, "1N")
    assert totals(ace_atu) == (55, -35, -100, 40)
    assert all(s.multiplier == 1 for s in ace_atu.seats)
    assert totals(ex35(ONLINE, "7G"))[3] == 50 - (5 + 25)  # the twin 7G costs 25 (VALUE-04)
    with_joker = ex35(ONLINE, "1N", "J")  # closing joker: everyone x2, never more
    assert all(s.multiplier == 2 for s in with_joker.seats)
    assert totals(with_joker) == tuple(2 * t for t in totals(ex35(ONLINE, "1N")))


@pytest.mark.rule("EX-37")
@pytest.mark.rule("ANNOUNCE-03")
def test_EX_37_not_announcing() -> None:
    assert ex35(CLASIC, "7G", b_failed=True).seats[1].total == -500
    assert ex35(CLASIC, "1N", b_failed=True).seats[1].total == -1000
    assert ex35(RUMMY45, "7G", b_failed=True).seats[1].total == -500
    assert ex35(ONLINE, "7G", b_failed=True).seats[1].total == -35  # no penalty online


# -- other worked examples with numbers ------------------------------------------------


@pytest.mark.rule("EX-22")
@pytest.mark.rule("LIPI-04")
@pytest.mark.parametrize("rules", ALL, ids=name)
def test_EX_22_layoff_credit_and_true_ends(rules: Ruleset) -> None:
    ids = Ids()
    table = build(rules, ids, [(0, "6R 7R 8R")])
    table = lay_off(table, 0, ids.one("9R"), 1, rules, **FULL)
    table = lay_off(table, 0, ids.one("10R"), 2, rules, **FULL)
    assert layoff_credits(table, rules) == {1: 5, 2: 10}
    assert [str(o) for o in layoff_options(table, ids.one("5R"), 1, rules, **FULL)] == ["0:low"]
    assert [str(o) for o in layoff_options(table, ids.one("11R"), 1, rules, **FULL)] == ["0:high"]
    seats = [SeatEnd(rack=rack(ids, f"{r}A"), opened=True) for r in (2, 3, 4)]
    result = score_round(table, seats, rules, atu=ids.one("9G"))
    assert [s.melded + s.credits for s in result.seats] == [15, 5, 10]


@pytest.mark.rule("EX-25")
@pytest.mark.rule("JOLY-03")
@pytest.mark.rule("LIPI-06")
@pytest.mark.rule("VALUE-05")
@pytest.mark.parametrize("rules", ALL, ids=name)
def test_EX_25_three_tile_set_two_steps_and_end_credit(rules: Ruleset) -> None:
    ids = Ids()
    table = build(rules, ids, [(1, "2G 2A J"), (1, "4R 5R 6R")])
    r2, n2 = ids("2R 2N")
    with pytest.raises(InvalidSwapError) as err:
        verify_swap(table, 0, J1, n2, 0, rules, **FULL)
    assert err.value.code is SwapErrorCode.THREE_TILE_SET
    table = lay_off(table, 0, r2, 0, rules, **FULL)
    with pytest.raises(InvalidLayoffError) as lerr:  # now the 4th colour is a swap
        verify_lay_off(table, 0, n2, 0, rules, **FULL)
    assert lerr.value.code is LayoffErrorCode.IS_SWAP
    table = swap(table, 0, J1, n2, 0, rules, laid_off_this_turn={r2}, **FULL)
    assert str(table.melds[0].meld) == "2R 2G 2A 2N"
    seats = [SeatEnd(rack=rack(ids, "13A"), opened=True), SeatEnd(rack=(), opened=True)]
    result = score_round(table, seats, rules, atu=ids.one("7G"), closer=1, closing_tile=J2)
    y, x = result.seats[1], result.seats[0]
    assert y.melded + y.credits == 15 + 15  # 2G 2A 2N + his run
    assert x.melded + x.credits == 5  # 2R laid by X
    expected = "J(=2N)" if rules is ONLINE else "J"
    assert str(joker_after_swap(table, J1, rules)) == expected
    assert swapped_joker_use_met(table, [J1], [], rules) is (rules is not RUMMY45)


@pytest.mark.rule("EX-27")
@pytest.mark.rule("LIPI-06")
@pytest.mark.rule("VALUE-03")
@pytest.mark.parametrize("rules", ALL, ids=name)
def test_EX_27_first_use_ace_set_joker(rules: Ruleset) -> None:
    ids = Ids()
    table = build(rules, ids, [(0, "1R 1G J")])
    assert table.melds[0].meld.points == 75
    end = 100 if rules.joker_table_value_end.value == "fixed_50" else 75
    assert sum(table.end_values(table.melds[0], rules)) == end
    table = lay_off(table, 0, ids.one("1A"), 1, rules, **FULL)
    assert [str(s.tile) for s in table.melds[0].meld.jokers] == ["1N"]
    table = swap(table, 0, J1, ids.one("1N"), 2, rules, **FULL)
    assert str(table.melds[0].meld) == "1R 1G 1A 1N"


@pytest.mark.rule("EX-27")
@pytest.mark.rule("EX-26")
@pytest.mark.rule("LIPI-07")
@pytest.mark.parametrize("rules", [CLASIC, RUMMY45], ids=name)
def test_LIPI_07_reused_joker_three_tile_set_accepts_nothing(rules: Ruleset) -> None:
    ids = Ids()
    table = build(rules, ids, [(0, "11A J 13A")])
    table = swap(table, 0, J1, ids.one("12A"), 1, rules, **FULL)
    table, s = table.add_meld(1, (*ids("1R 1G"), J1), rules)
    for seat, tile in ((2, "1A"), (1, "1N")):  # anyone, the owner included
        with pytest.raises(InvalidLayoffError) as err:
            verify_lay_off(table, s, ids.one(tile), seat, rules, **FULL)
        assert err.value.code is LayoffErrorCode.REUSED_JOKER_SET
    options = layoff_options(table, ids.one("1A"), 2, rules, **FULL)
    assert [o for o in options if o.meld_index == s] == []


@pytest.mark.rule("EX-27")
@pytest.mark.rule("EX-26")
@pytest.mark.rule("JOLY-05")
def test_EX_27_online_reused_joker_cannot_form_ace_set() -> None:
    ids = Ids()
    table = build(ONLINE, ids, [(0, "11A J 13A")])
    table = swap(table, 0, J1, ids.one("12A"), 1, ONLINE, **FULL)
    with pytest.raises(InvalidMeldError):
        table.add_meld(1, (*ids("1R 1G"), J1), ONLINE)


@pytest.mark.rule("EX-29")
@pytest.mark.rule("JOLY-07")
@pytest.mark.parametrize(
    ("rules", "credit"), [(CLASIC, 50), (ONLINE, 10), (RUMMY45, None)], ids=["c", "o", "r"]
)
def test_EX_29_joker_on_another_players_meld(rules: Ruleset, credit: int | None) -> None:
    ids = Ids()
    table = build(rules, ids, [(1, "9G 10G 11G"), (0, "4N 5N 6N")])
    assert verify_lay_off(table, 1, J1, 0, rules, end=End.HIGH, **FULL) is End.HIGH
    if credit is None:
        with pytest.raises(InvalidLayoffError) as err:
            verify_lay_off(table, 0, J1, 0, rules, end=End.HIGH, **FULL)
        assert err.value.code is LayoffErrorCode.JOKER_ON_OTHERS_MELD
        return
    table = lay_off(table, 0, J1, 0, rules, end=End.HIGH, **FULL)
    assert layoff_credit(table, 0, J1, rules) == credit


@pytest.mark.rule("EX-30")
@pytest.mark.rule("VALUE-03")
@pytest.mark.rule("VALUE-04")
def test_EX_30_joker_end_values() -> None:
    assert [sum(meld_end_values(analyze_meld("4R J 6R", r), r)) for r in ALL] == [60, 15, 60]
    assert [analyze_meld("4R J 6R", r).points for r in ALL] == [15, 15, 15]
    assert [rack_value_end(Tile.parse("J"), r) for r in ALL] == [50, 50, 50]
    assert rack_value_end(Tile.parse("J(=12A)"), ONLINE) == 10


@pytest.mark.rule("EX-31")
@pytest.mark.rule("VALUE-05")
@pytest.mark.parametrize("rules", [CLASIC, RUMMY45], ids=name)
def test_EX_31_who_scores_a_swapped_joker(rules: Ruleset) -> None:
    ids = Ids()
    table = build(rules, ids, [(0, "9G J 11G")])
    assert table.melds[0].meld.points == 25
    table = swap(table, 0, J1, ids.one("10G"), 1, rules, **FULL)
    table, _ = table.add_meld(1, (*ids("3R 3G"), J1), rules)
    seats = [SeatEnd(rack=(), opened=True), SeatEnd(rack=rack(ids, "5A"), opened=True)]
    result = score_round(table, seats, rules, atu=ids.one("7G"), closer=0, closing_tile=J2)
    a, b = result.seats
    assert a.melded + a.credits == 25  # 5 + 10 + 10
    assert b.melded + b.credits == 60  # 5 + 5 + 50


@pytest.mark.rule("EX-31")
@pytest.mark.rule("JOLY-05")
def test_EX_31_online_fixed_joker() -> None:
    ids = Ids()
    table = build(ONLINE, ids, [(0, "9G J 11G")])
    table = swap(table, 0, J1, ids.one("10G"), 1, ONLINE, **FULL)
    with pytest.raises(InvalidMeldError):
        table.add_meld(1, (*ids("3R 3G"), J1), ONLINE)
    table, s = table.add_meld(1, (*ids("10R 10A"), J1), ONLINE)
    assert sum(table.end_values(table.melds[s], ONLINE)) == 30


@pytest.mark.rule("EX-34")
@pytest.mark.rule("SCORE-04")
@pytest.mark.parametrize(("rules", "p"), [(CLASIC, 410), (RUMMY45, 310)], ids=["c", "r"])
def test_EX_34_atu_joker_double_game(rules: Ruleset, p: int) -> None:
    ids = Ids()
    table = build(
        rules,
        ids,
        [(0, "4R 5R 6R"), (0, "10G 11G 12G"), (1, "7A 8A 9A 10A 11A"), (1, "5G 5A 5N")],
    )
    table, _ = table.add_meld(0, (*ids("3R 3G"), J1), rules)  # the atu joker, taken
    seats = [
        SeatEnd(rack=(), opened=True),
        SeatEnd(rack=rack(ids, "12N 7R"), opened=True),
        SeatEnd(rack=rack(ids, "2A 3A"), opened=False),
    ]
    result = score_round(table, seats, rules, atu=J1, closer=0, closing_tile=ids.one("10A"))
    assert totals(result) == (p, 70, -200)
    assert result.seats[0].multiplier == 2  # not x4: the closing tile is 10A


def ex43(rules: Ruleset, closing: str = "9R", *, announce: bool = False) -> RoundResult:
    ids = Ids()
    atu = ids.one("9R")
    table = build(
        rules,
        ids,
        [
            (0, "7G 8G 9G"),
            (0, "11R 11G 11N"),
            (1, "3A 4A 5A"),
            (1, "12N 12R 12A"),
            (2, "4R 4G 4A"),
            (2, "11A 12A 13A"),
        ],
    )
    table = lay_off(table, 2, ids.one("6A"), 0, rules, **FULL)
    table = lay_off(table, 4, ids.one("4N"), 0, rules, **FULL)
    seats = [
        SeatEnd(rack=(), opened=True, announced_atu=announce),
        SeatEnd(rack=rack(ids, "2G 10N", J1), opened=True),
        SeatEnd(rack=rack(ids, "1A"), opened=True),
    ]
    closing_tile = J2 if closing == "J" else ids.one(closing)
    return score_round(table, seats, rules, atu=atu, closer=0, closing_tile=closing_tile)


@pytest.mark.rule("EX-43")
@pytest.mark.rule("SCORE-05")
@pytest.mark.rule("CLOSE-05")
def test_EX_43_online_full_round() -> None:
    assert totals(ex43(ONLINE)) == (210, -40, 40)
    assert totals(ex43(ONLINE, "J")) == (110, -40, 40)
    assert totals(ex43(ONLINE, "5R")) == (55, -20, 20)
    assert totals(ex43(CLASIC)) == (155, -20, 20)
    assert totals(ex43(CLASIC, announce=True)) == (205, -20, 20)


@pytest.mark.rule("EX-45")
@pytest.mark.rule("JOLY-05")
def test_EX_45_online_joker_intors() -> None:
    ids = Ids()
    table = build(ONLINE, ids, [(0, "7R J 9R")])
    table = swap(table, 0, J1, ids.one("8R"), 1, ONLINE, **FULL)
    assert str(table.tile(J1)) == "J(=8R)"
    table, a = table.add_meld(1, (*ids("6R 7R"), J1), ONLINE)
    assert str(table.melds[a].meld) == "6R 7R J(=8R)"
    with pytest.raises(InvalidMeldError):
        Table(jokers=table.jokers).add_meld(1, (*ids("3R 3G"), J1), ONLINE)
    # never taken again (JOLY-02)
    with pytest.raises(InvalidSwapError) as err:
        verify_swap(table, a, J1, ids.one("8R"), 2, ONLINE, **FULL)
    assert err.value.code is SwapErrorCode.JOKER_FIXED
    assert rack_value_end(table.tile(J1), ONLINE) == 5


@pytest.mark.rule("EX-45")
@pytest.mark.rule("CLOSE-05")
def test_EX_45_online_closing_with_fixed_joker_doubles_everyone() -> None:
    ids = Ids()
    table = build(ONLINE, ids, [(0, "7R J 9R"), (0, "10G 10A 10N"), (1, "2N 3N 4N")])
    table = swap(table, 0, J1, ids.one("8R"), 0, ONLINE, **FULL)
    seats = [SeatEnd(rack=(), opened=True), SeatEnd(rack=rack(ids, "13A"), opened=True)]
    result = score_round(table, seats, ONLINE, atu=ids.one("5G"), closer=0, closing_tile=J1)
    assert totals(result) == (2 * 45, 2 * 5)
    assert result.seats[0].atu_bonus == 0


@pytest.mark.rule("EX-46")
@pytest.mark.rule("SCORE-04")
@pytest.mark.parametrize(("atu", "mult"), [("7A", 2), ("1N", 4)])
def test_EX_46_clasic_two_jokers_as_last_tiles(atu: str, mult: int) -> None:
    ids = Ids()
    atu_id = ids.one(atu)
    table = build(CLASIC, ids, [(1, "1R 1G 1A"), (0, "4N 5N 6N"), (0, "9R J 11R")])
    table = swap(table, 2, J1, ids.one("10R"), 0, CLASIC, **FULL)
    table = lay_off(table, 0, J1, 0, CLASIC, **FULL)  # the reused joker as 1N on Q's aces
    assert layoff_credits(table, CLASIC) == {0: 50}
    seats = [SeatEnd(rack=(), opened=True), SeatEnd(rack=rack(ids, "2G"), opened=True)]
    result = score_round(table, seats, CLASIC, atu=atu_id, closer=0, closing_tile=J2)
    p = result.seats[0]
    assert p.multiplier == mult
    assert p.total == mult * (15 + 25 + 50 + 100)  # own melds + credit 50 + bonus


@pytest.mark.rule("EX-47")
@pytest.mark.rule("CLOSE-05")
@pytest.mark.parametrize(
    ("rules", "p"), [(CLASIC, 360), (RUMMY45, 130), (ONLINE, 80)], ids=["c", "r", "o"]
)
def test_EX_47_closing_with_an_ace(rules: Ruleset, p: int) -> None:
    ids = Ids()
    table = build(rules, ids, [(0, "10R 11R 12R 13R"), (0, "10G 10A 10N 10R"), (1, "2A 3A 4A")])
    seats = [SeatEnd(rack=(), opened=True), SeatEnd(rack=rack(ids, "2N"), opened=True)]
    result = score_round(
        table, seats, rules, atu=ids.one("7G"), closer=0, closing_tile=ids.one("1A")
    )
    assert result.seats[0].total == p


@pytest.mark.rule("EX-52")
@pytest.mark.rule("END-01")
@pytest.mark.parametrize("rules", [CLASIC, RUMMY45], ids=name)
@pytest.mark.parametrize(("atu", "factor"), [("7G", 1), ("1R", 2)])
def test_EX_52_stock_runs_out(rules: Ruleset, atu: str, factor: int) -> None:
    ids = Ids()
    atu_id = ids.one(atu)
    table = build(
        rules,
        ids,
        [(0, "10R 11R 12R 13R"), (0, "10G 10A 10N"), (1, "2A 3A 4A"), (1, "8R 8G 8N 8A")],
    )  # A 70, B 35 ... B adds 5 below
    table = lay_off(table, 2, ids.one("5A"), 1, rules, **FULL)  # B 40
    seats = [
        SeatEnd(rack=rack(ids, "2N 3N 4G"), opened=True),  # 15
        SeatEnd(rack=rack(ids, "1R 1G 10N"), opened=True),  # 60
        SeatEnd(rack=rack(ids, "9A 9N"), opened=False),
    ]
    result = score_round(table, seats, rules, atu=atu_id)
    assert totals(result) == (55 * factor, -20 * factor, -100 * factor)
    assert result.winners == (0,)
    assert all(s.closing_bonus == 0 for s in result.seats)


@pytest.mark.rule("EX-53")
@pytest.mark.rule("TIE-01")
def test_EX_53_ties_online() -> None:
    ids = Ids()
    table = build(
        ONLINE,
        ids,
        [(0, "10R 11R 12R"), (0, "10G 10A 10N"), (1, "13R 13G 13A"), (1, "10N 11N 12N 13N")],
    )
    table = build(ONLINE, ids, [(2, "2A 3A 4A")], table)
    seats = [
        SeatEnd(rack=(), opened=True),
        SeatEnd(rack=rack(ids, "10A"), opened=True),
        SeatEnd(rack=rack(ids, "5N"), opened=True),
    ]
    result = score_round(
        table, seats, ONLINE, atu=ids.one("7G"), closer=0, closing_tile=ids.one("9G")
    )
    assert totals(result) == (60, 60, 10)
    assert result.winners == (0,)  # the closer is among the tied: he wins

    ids = Ids()
    table = build(
        ONLINE,
        ids,
        [
            (0, "10R 11R 12R 13R"),
            (1, "10N 11N 12N 13N"),
            (1, "10A 11A 12A 13A"),
            (2, "11G 12G 13G"),
            (2, "11R 12R 13R"),
            (2, "9R 9G 9A"),
        ],
    )
    seats = [
        SeatEnd(rack=(), opened=True),
        SeatEnd(rack=rack(ids, "10G"), opened=True),
        SeatEnd(rack=rack(ids, "5N"), opened=True),
    ]
    result = score_round(
        table, seats, ONLINE, atu=ids.one("7G"), closer=0, closing_tile=ids.one("9N")
    )
    assert totals(result) == (40, 70, 70)
    assert result.winners == (1, 2)  # shared
    assert all(r.tie_rule is ONLINE.tie_rule for r in (CLASIC, RUMMY45))  # TIE-02


@pytest.mark.rule("EX-58")
@pytest.mark.rule("SCORE-02")
@pytest.mark.parametrize("rules", [CLASIC, RUMMY45], ids=name)
def test_EX_58_unopened_in_double_game(rules: Ruleset) -> None:
    ids = Ids()
    atu = ids.one("1R")
    table = build(rules, ids, [(1, "10R 11R 12R"), (1, "10G 10A 10N"), (2, "4A 5A 6A")])
    seats = [
        SeatEnd(rack=rack(ids, "2G 3G"), opened=False, announced_atu=True),
        SeatEnd(rack=rack(ids, "1G"), opened=True),
        SeatEnd(rack=(), opened=True),
    ]
    result = score_round(table, seats, rules, atu=atu, closer=2, closing_tile=ids.one("9N"))
    assert totals(result)[:2] == (-200, 70)
    assert result.seats[0].atu_bonus == 0


@pytest.mark.rule("EX-41")
@pytest.mark.rule("CLOSE-06")
@pytest.mark.parametrize(("closing", "p"), [("5A", 340), ("1A", 680), ("J", 680)])
def test_EX_41_closing_pe_tabla(closing: str, p: int) -> None:
    ids = Ids()
    table = build(
        CLASIC,
        ids,
        [(0, "1R 2R 3R 4R"), (0, "6G 7G 8G"), (0, "9A 9N 9R"), (0, "12N 12G 12A 12R")],
    )
    seats = [
        SeatEnd(rack=(), opened=True, declared_pe_tabla=True),
        SeatEnd(rack=rack(ids, "2G"), opened=True),
    ]
    closing_tile = J1 if closing == "J" else ids.one(closing)
    result = score_round(
        table, seats, CLASIC, atu=ids.one("7A"), closer=0, closing_tile=closing_tile, pe_tabla=True
    )
    assert result.seats[0].total == p


@pytest.mark.rule("ATU-04")
def test_ATU_04_rummy45_melding_the_twin_gives_the_bonus() -> None:
    ids = Ids()
    atu = ids.one("7G")
    table = build(RUMMY45, ids, [(0, "3R 4R 5R"), (1, "7R 7G 7A")])  # seat 1 melds the twin
    seats = [SeatEnd(rack=(), opened=True), SeatEnd(rack=rack(ids, "2N"), opened=True)]
    result = score_round(table, seats, RUMMY45, atu=atu, closer=0, closing_tile=ids.one("9A"))
    assert result.seats[1].atu_bonus == 50 and result.seats[1].total == 15 - 5 + 50


# -- MELD-02: a high ace closes the run ------------------------------------------------


@pytest.mark.rule("MELD-02")
@pytest.mark.rule("EX-01")
@pytest.mark.parametrize("rules", ALL, ids=name)
def test_MELD_02_high_ace_closes_the_run_for_layoffs(rules: Ruleset) -> None:
    ids = Ids()
    table = build(rules, ids, [(0, "12R 13R 1R"), (0, "12G 13G J"), (0, "1A 2A 3A")])
    two_r, eleven_r, two_g, one_a = ids("2R 11R 2G 1A")
    with pytest.raises(InvalidLayoffError) as err:
        verify_lay_off(table, 0, two_r, 1, rules, **FULL)
    assert err.value.code is LayoffErrorCode.END_CLOSED
    assert verify_lay_off(table, 0, eleven_r, 1, rules, **FULL) is End.LOW
    with pytest.raises(InvalidLayoffError):  # the joker is a high ace: closed too
        verify_lay_off(table, 1, two_g, 1, rules, **FULL)
    with pytest.raises(InvalidLayoffError):  # a second 1A never goes below a low ace
        verify_lay_off(table, 2, one_a, 1, rules, **FULL)
    # credits: a high ace 10, a low ace 5
    assert sum(table.end_values(table.melds[0], rules)) == 30


@pytest.mark.rule("MELD-02")
@pytest.mark.rule("EX-01")
def test_MELD_02_full_run_rejects_second_ace() -> None:
    ids = Ids()
    table = build(CLASIC, ids, [(0, " ".join(f"{r}R" for r in range(1, 14)))])
    with pytest.raises(InvalidLayoffError) as err:
        verify_lay_off(table, 0, ids.one("1R"), 1, CLASIC, **FULL)
    assert err.value.code is LayoffErrorCode.MELD_FULL


@pytest.mark.rule("MELD-06")
def test_MELD_06_ace_on_two_to_thirteen_needs_an_end() -> None:
    ids = Ids()
    table = build(CLASIC, ids, [(0, " ".join(f"{r}R" for r in range(2, 14)))])
    one = ids.one("1R")
    with pytest.raises(InvalidLayoffError) as err:
        verify_lay_off(table, 0, one, 1, CLASIC, **FULL)
    assert err.value.code is LayoffErrorCode.END_REQUIRED
    low = lay_off(table, 0, one, 1, CLASIC, end=End.LOW, **FULL)
    high = lay_off(table, 0, one, 1, CLASIC, end=End.HIGH, **FULL)
    assert layoff_credit(low, 0, one, CLASIC) == 5
    assert layoff_credit(high, 0, one, CLASIC) == 10


# -- joker swaps ------------------------------------------------------------------------


@pytest.mark.rule("JOLY-01")
@pytest.mark.rule("OPEN-09")
@pytest.mark.rule("EX-55")
@pytest.mark.parametrize("rules", ALL, ids=name)
def test_JOLY_01_only_opened_players_outside_opening_turn(rules: Ruleset) -> None:
    ids = Ids()
    table = build(rules, ids, [(1, "5G J 7G")])
    six = ids.one("6G")
    with pytest.raises(InvalidSwapError) as err:
        verify_swap(table, 0, J1, six, 0, rules, opened=False, opened_this_turn=False)
    assert err.value.code is SwapErrorCode.NOT_OPENED
    with pytest.raises(InvalidSwapError) as err:
        verify_swap(table, 0, J1, six, 0, rules, opened=True, opened_this_turn=True)
    assert err.value.code is SwapErrorCode.OPENING_TURN
    # EX-28: the owner may swap his own joker
    assert verify_swap(table, 0, J1, six, 1, rules, **FULL) == Tile.parse("6G")


@pytest.mark.rule("JOLY-02")
@pytest.mark.parametrize("rules", ALL, ids=name)
def test_JOLY_02_a_joker_is_taken_at_most_once(rules: Ruleset) -> None:
    ids = Ids()
    table = build(rules, ids, [(0, "5R J 7R")])
    table = swap(table, 0, J1, ids.one("6R"), 1, rules, **FULL)
    # the joker comes back as the tile it can stand for in each preset
    if rules is ONLINE:  # J(=6R)
        table, s = table.add_meld(1, (J1, *ids("7R 8R")), rules)
    else:
        table, s = table.add_meld(1, (*ids("9N 10N"), J1), rules)
    (slot,) = table.melds[s].meld.jokers
    with pytest.raises(InvalidSwapError):
        verify_swap(table, s, J1, ids.one(str(slot.tile)), 2, rules, **FULL)
    state = JokerState.FIXED if rules is ONLINE else JokerState.REUSED
    assert table.joker(J1).state(rules) is state


@pytest.mark.rule("EX-49")
@pytest.mark.rule("JOLY-04")
@pytest.mark.rule("JOLY-05")
@pytest.mark.parametrize("rules", ALL, ids=name)
def test_EX_49_swap_meld_and_close_with_three_tiles(rules: Ruleset) -> None:
    ids = Ids()
    table = build(rules, ids, [(1, "5R J 7R")])
    table = swap(table, 0, J1, ids.one("6R"), 0, rules, **FULL)
    if rules is ONLINE:
        with pytest.raises(InvalidMeldError):
            table.add_meld(0, (*ids("8G 8A"), J1), rules)
        return
    table, s = table.add_meld(0, (*ids("8G 8A"), J1), rules)
    assert swapped_joker_use_met(table, [J1], [s], rules)


@pytest.mark.rule("JOLY-04")
def test_JOLY_04_rummy45_joker_laid_on_old_meld_is_not_a_new_meld() -> None:
    ids = Ids()
    table = build(RUMMY45, ids, [(1, "5R J 7R"), (0, "2N 3N 4N")])
    table = swap(table, 0, J1, ids.one("6R"), 0, RUMMY45, **FULL)
    table = lay_off(table, 1, J1, 0, RUMMY45, end=End.HIGH, **FULL)  # own older meld
    assert not swapped_joker_use_met(table, [J1], [], RUMMY45)


@pytest.mark.rule("LIPI-08")
@pytest.mark.parametrize("rules", ALL, ids=name)
def test_LIPI_08_laying_the_jokers_tile_is_a_swap_option(rules: Ruleset) -> None:
    ids = Ids()
    table = build(rules, ids, [(1, "7R J 9R")])
    eight = ids.one("8R")
    opts = layoff_options(table, eight, 0, rules, **FULL)
    assert [(o.end, o.joker_id) for o in opts] == [(End.SWAP, J1)]


@pytest.mark.rule("OPEN-07")
@pytest.mark.rule("EX-54")
@pytest.mark.parametrize("rules", ALL, ids=name)
def test_EX_54_opening_turn_layoffs_only_on_own_new_melds(rules: Ruleset) -> None:
    ids = Ids()
    table = build(rules, ids, [(1, "10N 11N 12N"), (0, "3R 4R 5R"), (0, "10G 10A 10R")])
    kw: dict[str, Any] = {"opened": True, "opened_this_turn": True, "new_meld_indexes": (1, 2)}
    with pytest.raises(InvalidLayoffError) as err:
        verify_lay_off(table, 0, ids.one("13N"), 0, rules, **kw)
    assert err.value.code is LayoffErrorCode.OPENING_TURN
    assert verify_lay_off(table, 1, ids.one("6R"), 0, rules, **kw) is End.HIGH


# -- impossible input, refused since the audit -----------------------------------------


@pytest.mark.rule("ATU-05")
def test_ATU_05_online_joker_atu_is_rejected() -> None:
    ids = Ids()
    table = build(ONLINE, ids, [(0, "3R 4R 5R"), (1, "10G 11G 12G")])
    seats = [
        SeatEnd(rack=rack(ids, "2N"), opened=True),
        SeatEnd(rack=rack(ids, "2G"), opened=True),
    ]
    with pytest.raises(InvalidScoringInputError):
        score_round(table, seats, ONLINE, atu=J1)


@pytest.mark.rule("ATU-06")
def test_ATU_06_online_face_up_atu_never_on_the_table() -> None:
    ids = Ids()
    table = build(ONLINE, ids, [(0, "3R 4R 5R"), (1, "10G 11G 12G")])
    atu = table.melds[0].ids[1]  # the face-up 4R inside a meld
    seats = [
        SeatEnd(rack=rack(ids, "2N"), opened=True),
        SeatEnd(rack=rack(ids, "2G"), opened=True),
    ]
    with pytest.raises(InvalidScoringInputError):
        score_round(table, seats, ONLINE, atu=atu)


@pytest.mark.rule("ATU-06")
def test_ATU_06_clasic_taken_atu_belongs_to_the_closer() -> None:
    ids = Ids()
    table = build(CLASIC, ids, [(0, "3R 4R 5R"), (1, "10G 11G 12G")])
    atu = table.melds[1].ids[0]  # seat 1 (not the closer) holds the atu 10G in a meld
    seats = [SeatEnd(rack=(), opened=True), SeatEnd(rack=rack(ids, "2G"), opened=True)]
    with pytest.raises(InvalidScoringInputError):
        score_round(table, seats, CLASIC, atu=atu, closer=0, closing_tile=ids.one("9A"))


@pytest.mark.rule("CLOSE-06")
@pytest.mark.parametrize("rules", [ONLINE, RUMMY45], ids=name)
def test_CLOSE_06_pe_tabla_flag_ignored_or_refused_when_disabled(rules: Ruleset) -> None:
    ids = Ids()
    table = build(rules, ids, [(0, "3R 4R 5R"), (1, "10G 11G 12G")])
    seats = [
        SeatEnd(rack=rack(ids, "2A"), opened=True),
        SeatEnd(rack=rack(ids, "2R"), opened=True, declared_pe_tabla=True),
    ]
    try:
        result = score_round(table, seats, rules, atu=ids.one("7A"))
    except InvalidScoringInputError:
        return
    assert result.seats[1].total == 30 - 5


@pytest.mark.rule("MELD-07")
def test_MELD_07_table_extend_rejects_negative_meld_index() -> None:
    ids = Ids()
    table = build(CLASIC, ids, [(0, "3R 4R 5R"), (1, "10G 11G 12G")])
    with pytest.raises((IndexError, ValueError)):
        table.extend(-1, ids.one("13G"), 0, CLASIC)


@pytest.mark.rule("MELD-07")
@pytest.mark.rule("LIPI-04")
def test_LIPI_04_negative_seat_is_rejected() -> None:
    ids = Ids()
    table = build(CLASIC, ids, [(0, "3R 4R 5R")])
    with pytest.raises((ValueError, TypeError)):
        lay_off(table, 0, ids.one("6R"), -1, CLASIC, **FULL)


# -- Hypothesis properties -----------------------------------------------------------------

POOL = [
    "3R 4R 5R",
    "10G J 12G",
    "1R 1G J",
    "7R 7G 7A",
    "12N 13N 1N",
    "J 2A 3A",
    "5N 5G J",
    "9R 10R 11R 12R",
    "8A 8N 8G 8R",
    "2G 3G 4G 5G 6G",
]


def _table_from(rules: Ruleset, picks: list[int], owners: list[int]) -> Table:
    ids = Ids()
    table = Table()
    for pick, owner in zip(picks, owners, strict=True):
        text = POOL[pick]
        out = []
        for token in text.split():
            out.append(
                (J1 if J1 not in out and J1 not in table.ids() else J2)
                if token == "J"
                else ids.one(token)
            )
        table, _ = table.add_meld(owner, out, rules)
    return table


@pytest.mark.rule("TURN-08")
@pytest.mark.rule("LIPI-02")
@pytest.mark.rule("JOLY-02")
@given(
    rules=st.sampled_from(ALL),
    picks=st.lists(st.integers(0, len(POOL) - 1), min_size=2, max_size=4, unique=True),
    data=st.data(),
)
def test_property_legal_layoffs_and_swaps_keep_table_sound(
    rules: Ruleset, picks: list[int], data: st.DataObject
) -> None:
    jokers = sum(POOL[p].split().count("J") for p in picks)
    if jokers > 2:
        return
    owners = [i % 3 for i in range(len(picks))]
    table = _table_from(rules, picks, owners)
    for _ in range(data.draw(st.integers(0, 15))):
        free = sorted(set(range(106)) - table.ids())
        tile = data.draw(st.sampled_from(free))
        seat = data.draw(st.integers(0, 2))
        options = layoff_options(table, tile, seat, rules, **FULL)
        if not options:
            continue
        option = data.draw(st.sampled_from(options))
        if option.end is End.SWAP:
            assert option.joker_id is not None  # a swap option names its joker
            table = swap(table, option.meld_index, option.joker_id, tile, seat, rules, **FULL)
        else:
            table = lay_off(table, option.meld_index, tile, seat, rules, end=option.end, **FULL)
        every = [i for m in table.melds for i in m.ids]
        assert len(every) == len(set(every))
        for m in table.melds:
            assert analyze_meld([table.tile(i) for i in m.ids], rules) == m.meld
            assert len(m.ids) == len(m.credited) == len(m.placed_by)
        for j in (J1, J2):
            assert table.joker(j).swaps <= rules.joker_swap_limit
    # scoring conserves the table's points among the seats
    seats = [SeatEnd(rack=(), opened=True) for _ in range(3)]
    atu = min(set(range(104)) - table.ids())
    result = score_round(table, seats, rules, atu=atu)
    on_table = sum(sum(table.end_values(m, rules)) for m in table.melds)
    assert sum(s.melded + s.credits for s in result.seats) == on_table


@pytest.mark.rule("SCORE-01")
@pytest.mark.rule("SCORE-08")
@given(
    rules=st.sampled_from(ALL),
    perm=st.permutations(range(4)),
    closing=st.sampled_from(["8G", "1A", "J", None]),
    atu=st.sampled_from(["7G", "1N"]),
)
def test_property_totals_invariant_under_relabelling_seats(
    rules: Ruleset, perm: list[int], closing: str | None, atu: str
) -> None:
    def scored(relabel: list[int]) -> RoundResult:
        ids = Ids()
        atu_id = ids.one(atu)
        table = Table()
        for owner, text in [
            (0, "3R 4R 5R"),
            (0, "10G 10A 10N"),
            (1, "1R 2R 3R"),
            (1, "12G 13G 1G"),
            (3, "10N 11N 12N"),
            (3, "5G 5A 5N 5R"),
        ]:
            table, _ = table.add_meld(relabel[owner], ids(text), rules)
        table = lay_off(table, 4, ids.one("13N"), relabel[0], rules, **FULL)
        ends = [
            SeatEnd(rack=() if closing else rack(ids, "6A"), opened=True),
            SeatEnd(rack=rack(ids, "9A 1A", J1), opened=True),
            SeatEnd(rack=rack(ids, "2G 3G 4A"), opened=False),
            SeatEnd(rack=rack(ids, "4G 7G"), opened=True, announced_atu=True),
        ]
        seats: list[SeatEnd] = list(ends)  # each slot is overwritten: relabel is a permutation
        for old, new in enumerate(relabel):
            seats[new] = ends[old]
        if closing is None:
            return score_round(table, seats, rules, atu=atu_id)
        tile = J2 if closing == "J" else ids.one(closing)
        return score_round(table, seats, rules, atu=atu_id, closer=relabel[0], closing_tile=tile)

    base = scored(list(range(4)))
    moved = scored(list(perm))
    for old in range(4):
        assert moved.seats[perm[old]].total == base.seats[old].total
    assert sorted(moved.winners) == sorted(perm[w] for w in base.winners)


@pytest.mark.rule("SCORE-05")
@pytest.mark.rule("SCORE-04")
@given(
    rules=st.sampled_from(ALL),
    closing=st.sampled_from(["8G", "1A", "J", "7G"]),
    atu=st.sampled_from(["7G", "1N"]),
)
def test_property_multiplier_bounds(rules: Ruleset, closing: str, atu: str) -> None:
    ids = Ids()
    atu_id = ids.one(atu)
    table = Table()
    table, _ = table.add_meld(0, ids("3R 4R 5R"), rules)
    table, _ = table.add_meld(1, ids("10G 10A 10N"), rules)
    seats = [SeatEnd(rack=(), opened=True), SeatEnd(rack=rack(ids, "2N"), opened=True)]
    tile = J2 if closing == "J" else ids.one(closing)
    result = score_round(table, seats, rules, atu=atu_id, closer=0, closing_tile=tile)
    cap = 2 if rules is ONLINE else 4
    for s in result.seats:
        assert s.multiplier in (1, 2, 4) and s.multiplier <= cap
        assert s.total == s.base * s.multiplier


@pytest.mark.rule("VALUE-05")
@pytest.mark.rule("JOLY-07")
@pytest.mark.parametrize("rules", [CLASIC, ONLINE], ids=name)
def test_VALUE_05_laid_joker_swapped_away_moves_its_credit(rules: Ruleset) -> None:
    """P lays J as 12G on Q's run (P credited), R swaps 12G for it and melds it: the
    joker now counts for R, the replacement 12G for the meld owner Q, P keeps nothing."""
    ids = Ids()
    table = build(rules, ids, [(1, "9G 10G 11G"), (0, "2R 3R 4R")])
    table = lay_off(table, 0, J1, 0, rules, end=End.HIGH, **FULL)
    assert layoff_credits(table, rules) == {0: 50 if rules is CLASIC else 10}
    table = swap(table, 0, J1, ids.one("12G"), 2, rules, **FULL)
    if rules is CLASIC:
        table, _ = table.add_meld(2, (J1, *ids("13G 1G")), rules)  # wild again: J=12G
        r_points = 50 + 10 + 10
    else:
        table, _ = table.add_meld(2, (*ids("10G 11G"), J1), rules)  # J(=12G)
        r_points = 30
    seats = [SeatEnd(rack=rack(ids, t), opened=True) for t in ("5A", "5N", "6N")]
    result = score_round(table, seats, rules, atu=ids.one("7A"))
    assert [s.melded + s.credits for s in result.seats] == [15, 25 + 10, r_points]
    assert layoff_credits(table, rules) == {}
