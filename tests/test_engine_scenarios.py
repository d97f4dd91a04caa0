"""The worked examples of RULES.md §5 played through the engine, from explicit deals.

Every position is reached by playing the round from its deal (tests/engine_deals.py):
the other seats' openings and the earlier turns are played, never written into the
state.  Each test runs under every preset its example names and asserts exactly what
the example says is valid (the steps apply) or invalid (the step is refused with the
code a frontend would show, and the state is unchanged).  The examples that give
final scores are played to the end and scored with ``game.result()``.

Seat 0 starts unless said otherwise.  In a two-player deal the opponent holds every
other player's melds of the example (Q's and R's alike): the examples never depend on
who owns them.  Where a deal uses small ``hand_sizes``, the example's logic does not
depend on the size of the hands (only on the tiles named), and the comment says so.
"""

from __future__ import annotations

import attrs
import pytest
from engine_deals import (
    Spec,
    accept,
    announce,
    announce_atu,
    build_deal,
    close,
    declare,
    discard,
    exchange,
    illegal,
    meld,
    meld_index,
    new_game,
    offer,
    play,
    redeal,
)
from engine_positions import (
    EX33_OPENING,
    announce_if_due,
    preset,
    rack,
    same,
    text,
)
from engine_positions import ex15 as _ex15
from engine_positions import ex19 as _ex19
from engine_positions import ex20 as _ex20
from engine_positions import open_p as _open_p
from engine_positions import p_with_full_rights as _p_with_full_rights
from engine_positions import p_with_three as _p_with_three

from remi_rules import (
    ClosingErrorCode,
    LayoffErrorCode,
    MeldErrorCode,
    Ruleset,
    SwapErrorCode,
    TakeErrorCode,
    Tile,
)
from remi_rules.engine import Automation, EndReason, Game, MeldTiles, Phase
from remi_rules.engine.events import Dealt, DoublesExchanged, StockReshuffled
from remi_rules.errors import StepErrorCode
from remi_rules.ruleset import ClosingTileMode
from remi_rules.table import JokerState
from remi_rules.tiles import JOKER_IDS

S = StepErrorCode
T = TakeErrorCode
ALL = ("clasic", "online", "rummy45")


def go_out(rules: Ruleset, tile: str) -> Spec:
    """The last step of a close with one tile left: discarded (clasic, rummy45,
    CLOSE-01) or kept (online, CLOSE-02)."""
    return close(tile) if rules.closing_tile_mode is ClosingTileMode.KEEP else discard(tile)


def assert_closed(game: Game, seat: int, tile: str) -> None:
    end = game.state.end
    assert game.state.phase is Phase.OVER and end is not None
    assert end.reason is EndReason.CLOSED and end.closer == seat
    assert same(end.closing_tile, tile), text([end.closing_tile or 0])


# -- Opening ----------------------------------------------------------------------------


@pytest.mark.rule("EX-14")
@pytest.mark.rule("TURN-04")
@pytest.mark.parametrize("name", ALL)
def test_ex14_first_turn_draw_and_discard_only(name: str) -> None:
    # P is seat 2; seat 1's discard 13R (not the dead first discard) would extend P's
    # run.  After drawing P holds 10R 11R 12R + 10G 10A 10N = 60.
    rules = preset(name)
    game = new_game(
        rules,
        players=3,
        racks={1: "13R", 2: "10R 11R 12R 10G 10A 10N"},
        stock="5N 9G",
    )
    play(game, "discard", "draw; discard 13R")
    illegal(game, "take", T.FIRST_TURN)
    play(game, "draw")
    illegal(game, "meld 10R 11R 12R", S.FIRST_TURN_NO_MELD)
    illegal(game, "meld 10G 10A 10N", S.FIRST_TURN_NO_MELD)
    assert not any(isinstance(s, MeldTiles) for s in game.legal_steps())
    play(game, "discard 9G")
    assert game.state.current == 0 and not game.state.seats[2].opened


@pytest.mark.rule("EX-15")
@pytest.mark.rule("OPEN-06")
@pytest.mark.parametrize("name", ALL)
def test_ex15_opening_with_the_last_discard(name: str) -> None:
    rules = preset(name)
    game = _ex15(rules, "12G 12A 12N")
    play(game, "take", "meld 6R 7R 8R", "meld 12G 12A 12N", "discard")
    assert game.state.seats[0].opened
    assert [text(m.ids) for m in game.state.table.melds] == ["6R 7R 8R", "12G 12A 12N"]


@pytest.mark.rule("EX-15")
@pytest.mark.rule("RUPE-08")
@pytest.mark.parametrize("name", ALL)
def test_ex15_the_last_discard_cannot_make_45(name: str) -> None:
    # 6R 7R 8R + 9G 9A 9N = 30: illegal in clasic and rummy45, "cancelled" in online:
    # the engine refuses the take itself (RUPE-08), so nothing happens in any preset.
    game = _ex15(preset(name), "9G 9A 9N")
    illegal(game, "take", T.CANNOT_OPEN)


# -- Taking from the row ------------------------------------------------------------------


@pytest.mark.rule("EX-19")
@pytest.mark.rule("RUPE-05")
@pytest.mark.rule("TURN-07")
@pytest.mark.parametrize("name", ALL)
def test_ex19_two_tiles_left(name: str) -> None:
    rules = preset(name)
    game = _ex19(rules, "5R 9G", "6R", "11A")
    assert same(game.state.row[-1], "6R")
    illegal(game, "take", T.LAST_DISCARD_RACK_TOO_SMALL)
    play(game, "draw", "lay 5R on 6R 7R 8R", "lay 9G on 9R 9A 9N")
    assert rack(game, 0) == ["11A"]
    play(game, go_out(rules, "11A"))
    assert_closed(game, 0, "11A")
    result = game.result()
    assert result is not None
    assert result.seats[0].multiplier == 1  # 11A doubles nothing
    assert result.seats[0].rack == 0  # online: the kept 11A is not subtracted


@pytest.mark.rule("EX-19")
@pytest.mark.rule("CLOSE-02")
def test_ex19_online_only_one_layoff_fits() -> None:
    # "If only 5R fitted, P would have to discard and be left with 1 tile, not closed."
    game = _ex19(preset("online"), "5R 9G", "6R", "11A")
    play(game, "draw", "lay 5R on 6R 7R 8R", "discard 11A")
    assert not game.state.over and rack(game, 0) == ["9G"]
    assert game.state.current == 1


@pytest.mark.rule("EX-19")
@pytest.mark.rule("TURN-07")
@pytest.mark.rule("CLOSE-04")
@pytest.mark.parametrize("name", ALL)
def test_ex19_no_new_meld_from_the_last_tiles(name: str) -> None:
    # "Even with a rack like 5R 7R the meld 5R 6R 7R would use up the whole rack":
    # the same with 4N 6N and 5N (Q's run holds a 6R, and the row the other), whether
    # the 5N comes from the row or from the stock.
    game = _ex19(preset(name), "4N 6N", "5N", "5N")
    illegal(game, "take", T.LAST_DISCARD_RACK_TOO_SMALL)
    play(game, "draw")
    illegal(game, "meld 4N 5N 6N", ClosingErrorCode.NO_CLOSING_TILE)


@pytest.mark.rule("EX-20")
@pytest.mark.rule("RUPE-01")
@pytest.mark.parametrize("name", ALL)
def test_ex20_three_tiles_and_the_last_discard(name: str) -> None:
    rules = preset(name)
    game = _ex20(rules, announced=True)
    assert same(game.state.row[-1], "6R")
    play(game, "take", "meld 5R 6R 7R")
    assert rack(game, 0) == ["2N"]
    play(game, go_out(rules, "2N"))
    assert_closed(game, 0, "2N")
    result = game.result()
    assert result is not None and result.seats[0].flat_penalty is None


@pytest.mark.rule("EX-20")
@pytest.mark.rule("ANNOUNCE-03")
@pytest.mark.parametrize("name", ["clasic", "rummy45", "online"])
def test_ex20_closing_without_the_announcement(name: str) -> None:
    # clasic (and rummy45, same knobs): P ended his last turn with 3 tiles without
    # announcing: -500.  online: 3 tiles is above its threshold (2), nothing is due.
    rules = preset(name)
    game = _ex20(rules, announced=False)
    play(game, "take", "meld 5R 6R 7R", go_out(rules, "2N"))
    result = game.result()
    assert result is not None
    seat = result.seats[0]
    if name == "online":
        assert not game.state.seats[0].missed_announcement and seat.flat_penalty is None
    else:
        assert game.state.seats[0].missed_announcement
        assert seat.flat_penalty is not None and seat.total == -500


@pytest.mark.rule("EX-20")
@pytest.mark.rule("RUPE-04")
@pytest.mark.parametrize(
    ("name", "valid"), [("clasic", False), ("rummy45", True), ("online", True)]
)
def test_ex20_rupere_at_an_older_tile_with_three_tiles(name: str, valid: bool) -> None:
    rules = preset(name)
    game = _ex20(rules, announced=True, rupere_at_older=True)
    row = text(game.state.row).split()
    assert row[1] == "6R" and len(row) == 4  # dead 2N, Q's 6R, P's discard, Q's 4N
    if not valid:
        illegal(game, "rupere 1", T.RUPERE_RACK_TOO_SMALL)
        return
    play(game, "rupere 1", "meld 5R 6R 7R")
    assert len(game.state.rack(0)) == 3  # 2N + the two later discards
    play(game, "discard 2N")
    assert not game.state.over and len(game.state.rack(0)) == 2


def _ex21(rules: Ruleset) -> Game:
    # Q opens with 11N 12N J (J=13N) + 2R 2G 2A and discards 11R; P holds 13R 13N 4A.
    game = _p_with_three(rules, "13R 13N 4A", "11N 12N J 2R 2G 2A 11R", discard())
    announce_if_due(game, 0)
    play(game, "draw; meld 11N 12N J; meld 2R 2G 2A; discard 11R")
    assert same(game.state.row[-1], "11R")
    return game


@pytest.mark.rule("EX-21")
@pytest.mark.rule("RUPE-06")
@pytest.mark.parametrize("name", ALL)
def test_ex21_a_discard_only_a_swapped_joker_would_justify(name: str) -> None:
    rules = preset(name)
    game = _ex21(rules)
    illegal(game, "take", T.CANNOT_JUSTIFY)
    # He draws instead, and may still swap 13N for the joker.
    play(game, "draw", "swap 13N on 11N 12N J")
    (joker,) = [i for i in game.state.rack(0) if i in JOKER_IDS]
    history = game.state.table.joker(joker)
    if name == "rummy45":  # the swapped joker must go into a new meld this turn
        illegal(game, "discard 4A", SwapErrorCode.JOKER_NOT_MELDED)
        return
    # clasic keeps a wild joker (never swappable again), online a J(=13N)
    expected = JokerState.FIXED if name == "online" else JokerState.REUSED
    assert history.state(rules) is expected
    assert name != "online" or history.fixed_as == Tile.parse("13N")
    play(game, "discard 4A")
    assert joker in game.state.rack(0)


# -- Atu -----------------------------------------------------------------------------------


OPENING_9 = ("11A 12A 13A", "3R 3G 3N", "10R 10G 10N")
OPENING_8 = ("10A 11A 12A 13A", "3R 3G 3A 3N")


@pytest.mark.rule("EX-32")
@pytest.mark.rule("ATU-06")
@pytest.mark.rule("CLOSE-04")
@pytest.mark.parametrize("name", ["clasic", "rummy45", "online"])
def test_ex32_taking_the_atu_needs_a_closing_tile(name: str) -> None:
    rules = preset(name)
    game = _p_with_full_rights(rules, OPENING_9, "8R 8G 8A 4N 5N", atu="6N")
    illegal(game, "atu", T.ATU_NEVER if name == "online" else T.CANNOT_CLOSE)


@pytest.mark.rule("EX-32")
@pytest.mark.rule("ATU-06")
@pytest.mark.parametrize("name", ["clasic", "rummy45", "online"])
def test_ex32_with_a_sixth_tile_the_atu_closes(name: str) -> None:
    rules = preset(name)
    game = _p_with_full_rights(rules, OPENING_8, "8R 8G 8A 4N 5N 2G", atu="6N")
    if name == "online":  # the face-up atu is never taken (PROPOSAL)
        illegal(game, "atu", T.ATU_NEVER)
        return
    play(game, "atu", "meld 8R 8G 8A", "meld 4N 5N 6N", "discard 2G")
    assert_closed(game, 0, "2G")


@pytest.mark.rule("EX-33")
@pytest.mark.rule("ATU-06")
@pytest.mark.rule("LIPI-04")
def test_ex33_atu_then_layoffs_then_close() -> None:
    rules = preset("clasic")
    game = _p_with_full_rights(
        rules,
        EX33_OPENING,
        "11G 12G 13G 5N 9A",
        q_tiles="13R 13A 13N 6N 7N 8N",
        q_melds=("13R 13A 13N", "6N 7N 8N"),
        atu="10G",
    )
    play(game, "atu", "meld 10G 11G 12G", "lay 13G on 13R 13A 13N", "lay 5N on 6N 7N 8N")
    play(game, "discard 9A")
    assert_closed(game, 0, "9A")
    result = game.result()
    assert result is not None
    p = result.seats[0]
    # This turn adds 30 (the atu meld) + 10 + 5 (credits) and the 100 closing bonus.
    assert (p.melded, p.credits, p.closing_bonus) == (60 + 30, 10 + 5, 100)
    assert p.total == 60 + 45 + 100


@pytest.mark.rule("EX-33")
@pytest.mark.rule("ATU-06")
def test_ex33_the_atu_in_a_turn_without_a_close() -> None:
    game = _p_with_full_rights(
        preset("clasic"),
        EX33_OPENING,
        "11G 12G 5N 9A 2R",
        q_tiles="13R 13A 13N 6N 7N 8N",
        q_melds=("13R 13A 13N", "6N 7N 8N"),
        atu="10G",
    )
    illegal(game, "atu", T.CANNOT_CLOSE)


# -- Announcing, closing ------------------------------------------------------------------


@pytest.mark.rule("EX-38")
@pytest.mark.rule("ANNOUNCE-02")
@pytest.mark.parametrize("name", ALL)
def test_ex38_going_out_from_five_tiles_without_announcing(name: str) -> None:
    rules = preset(name)
    game = _p_with_full_rights(
        rules,
        ("11A 12A 13A", "3R 3G 3N", "10R 10G 10A"),
        "5R 6R 12N 9G 2A",
        q_tiles="9N 10N 11N 9R 9A 9N 1G 2G 3G",
        q_melds=("9N 10N 11N", "9R 9A 9N", "1G 2G 3G"),
        stock="2A 13N 4N 7R",
    )
    play(game, "draw", "meld 5R 6R 7R", "lay 12N on 9N 10N 11N", "lay 9G on 9R 9A 9N")
    assert rack(game, 0) == ["2A"]
    play(game, go_out(rules, "2A"))
    assert_closed(game, 0, "2A")
    seat = game.state.seats[0]
    assert not seat.announced_few and not seat.missed_announcement
    result = game.result()
    assert result is not None and result.seats[0].flat_penalty is None


def _ex39(rules: Ruleset) -> Game:
    # P holds 4G 5G 10R 1N and draws 6G.  Q opens with 13 tiles and keeps 6R, which he
    # can lay on his own run next turn: he can close at once if P lets him.
    opening = ("11A 12A 13A", "3R 3A 3N", "8R 8A 8N 8G")
    q_melds = ("1R 2R 3R 4R 5R", "7G 8G 9G 10G", "12R 12G 12N 12A")
    return _p_with_full_rights(
        rules,
        opening,
        "4G 5G 10R 1N",
        q_tiles=" ".join(q_melds) + " 6R",
        q_melds=q_melds,
        stock="2A 13N 4N 6G 13A",
    )


@pytest.mark.rule("EX-39")
@pytest.mark.rule("TURN-05")
@pytest.mark.parametrize("name", ALL)
def test_ex39_a_partial_meld_is_never_put_down(name: str) -> None:
    game = _ex39(preset(name))
    play(game, "announce 1", "draw")
    assert rack(game, 0) == ["10R", "1N", "4G", "5G", "6G"]
    illegal(game, "meld 4G 5G", MeldErrorCode.TOO_SHORT)


@pytest.mark.rule("EX-39")
@pytest.mark.rule("ANNOUNCE-01")
@pytest.mark.rule("ANNOUNCE-02")
@pytest.mark.parametrize("announced", [True, False])
def test_ex39_option_1_meld_and_announce(announced: bool) -> None:
    game = _ex39(preset("clasic"))
    play(game, "announce 1", "draw", "meld 4G 5G 6G", "discard 10R")
    assert rack(game, 0) == ["1N"]
    assert game.state.announce_window == 0  # P must announce now
    if announced:
        play(game, announce(0))
    play(game, "draw")  # Q's first step closes the window
    assert game.state.seats[0].missed_announcement is not announced


@pytest.mark.rule("EX-39")
@pytest.mark.rule("ANNOUNCE-01")
def test_ex39_option_2_keep_the_meld_and_pay_if_someone_closes() -> None:
    game = _ex39(preset("clasic"))
    play(game, "announce 1", "draw", "discard 10R")
    assert rack(game, 0) == ["1N", "4G", "5G", "6G"]
    assert game.state.announce_window is None
    illegal(game, announce(0), S.ANNOUNCE_NOT_DUE)
    # Q closes at once: P loses 5 + 5 + 5 + 25 = 40 for the tiles on his rack.
    play(game, "draw", "lay 6R on 1R 2R 3R 4R 5R", "discard")
    result = game.result()
    assert result is not None and result.closer == 1
    assert result.seats[0].rack == 40


def _ex40(rules: Ruleset) -> Game:
    # P (seat 1) is unopened; his third turn is turn 6.  He holds 14 tiles that make
    # 1R 2R 3R + 5G 6G 7G 8G + 9A 9N 9R 9G + 12N 12G 12A (85, a run and sets) and
    # draws 8A.
    melds = "1R 2R 3R 5G 6G 7G 8G 9A 9N 9R 9G 12N 12G 12A"
    game = new_game(rules, players=2, racks={1: melds}, stock="2A 13N 4N 13A 8A 2G 11R")
    play(game, "discard", "draw; discard", "draw; discard", "draw; discard", "draw; discard")
    play(game, "draw")
    assert game.state.seats[1].turns == 3 and not game.state.seats[1].opened
    assert len(game.state.rack(1)) == 15
    return game


@pytest.mark.rule("EX-40")
@pytest.mark.rule("OPEN-08")
@pytest.mark.parametrize("name", ALL)
def test_ex40_no_close_in_the_opening_turn(name: str) -> None:
    rules = preset(name)
    game = _ex40(rules)
    play(game, "meld 5G 6G 7G 8G", "meld 9A 9N 9R 9G", "meld 12N 12G 12A")
    illegal(game, "meld 1R 2R 3R", ClosingErrorCode.TOO_FEW_AFTER_OPENING)
    # He opens keeping two or more tiles, and closes in a later turn.
    play(game, "discard 8A")
    assert game.state.seats[1].opened and rack(game, 1) == ["1R", "2R", "3R"]
    announce_if_due(game, 1)
    play(game, "draw; discard", "draw", "meld 1R 2R 3R", go_out(rules, "11R"))
    assert_closed(game, 1, "11R")


EX41_TILES = "1R 2R 3R 6G 7G 8G 9A 9N 9R 12N 12G 12A 12R"


def _ex41(rules: Ruleset, last: str, *, declare_it: bool, atu: str | None = None) -> Game:
    """P (seat 1) holds the example's tiles but 12R, which he draws in his 3rd turn
    (turn 6), and 2N, which he then discards.  Q (seat 0) discards 4R in turns 5 and
    9 (unless the 4R is the atu).  P's turns are 2, 4, 6, 8, 10."""
    p_rack = EX41_TILES.replace(" 12R", "") + f" {last} 2N"
    q_rack = "" if atu else "4R 4R"
    game = new_game(
        rules,
        players=2,
        racks={0: q_rack, 1: p_rack},
        atu=atu,
        stock="2A 13N 4N 9G 12R 11A 5R 13A 10G",
    )
    play(game, "discard", "draw; discard")
    if declare_it:
        play(game, declare(1))  # after his first turn, within the first cycle
    q_discard = discard() if atu else discard("4R")
    play(game, "draw; discard", "draw; discard", "draw", q_discard)
    return game


@pytest.mark.rule("EX-41")
@pytest.mark.rule("CLOSE-06")
@pytest.mark.rule("RUPE-07")
@pytest.mark.parametrize(
    ("last", "bonus", "total"),
    [("5A", 250, 340), ("1N", 250, 680), ("J", 250, 680), ("5A", 500, 590), ("5A", 2000, 2090)],
)
def test_ex41_closing_pe_tabla(last: str, bonus: int, total: int) -> None:
    # 90 + 250 (x2 closing with a J or a 1); with the 500 and 2000 variants 590, 2090.
    rules = preset("clasic", pe_tabla_bonus=bonus)
    game = _ex41(rules, last, declare_it=True)
    assert same(game.state.row[-1], "4R") and game.state.current == 1
    if last == "5A":
        # Turn 3: the 4R would not let him close yet (12R is still missing), so the
        # take is refused: a declarer takes from the row only in his closing turn.
        illegal(game, "take", T.PE_TABLA_NOT_CLOSING)
    # Turns 6 to 9: P draws 12R (his 3rd turn) and 5R (his 4th); Q discards the
    # second 4R in turn 9.
    play(game, "draw", "discard 2N", "draw; discard", "draw; discard", "draw", discard("4R"))
    assert rack(game, 1) == sorted([*EX41_TILES.split(), last])
    assert same(game.state.row[-1], "4R")
    play(game, "take", "meld 1R 2R 3R 4R", "meld 6G 7G 8G", "meld 9A 9N 9R")
    play(game, "meld 12N 12G 12A 12R", discard(last))
    assert_closed(game, 1, last)
    result = game.result()
    assert result is not None and result.pe_tabla
    p = result.seats[1]
    assert (p.melded, p.closing_bonus) == (20 + 15 + 15 + 40, bonus)
    assert p.total == total


@pytest.mark.rule("EX-41")
@pytest.mark.rule("CLOSE-06")
@pytest.mark.rule("OPEN-08")
@pytest.mark.parametrize("name", ["online", "rummy45"])
def test_ex41_no_pe_tabla_in_online_and_rummy45(name: str) -> None:
    rules = preset(name)
    game = new_game(rules, players=2, racks={1: "5A"})
    play(game, "discard", "draw; discard")
    illegal(game, declare(1), S.PE_TABLA_DISABLED)
    # The same play without the declaration closes in the opening turn: refused.
    game = _ex41(rules, "5A", declare_it=False)
    play(game, "draw", "discard 2N", "draw; discard", "draw; discard", "draw", discard("4R"))
    play(game, "take", "meld 1R 2R 3R 4R", "meld 6G 7G 8G", "meld 9A 9N 9R")
    illegal(game, "meld 12N 12G 12A 12R", ClosingErrorCode.TOO_FEW_AFTER_OPENING)


@pytest.mark.rule("EX-42")
@pytest.mark.rule("ATU-06")
@pytest.mark.rule("CLOSE-06")
def test_ex42_the_atu_in_a_pe_tabla_closing() -> None:
    game = _ex41(preset("clasic"), "5A", declare_it=True, atu="4R")
    play(game, "draw", "discard 2N", "draw; discard", "draw; discard", "draw; discard")
    assert rack(game, 1) == sorted([*EX41_TILES.split(), "5A"])
    play(game, "atu", "meld 1R 2R 3R 4R", "meld 6G 7G 8G", "meld 9A 9N 9R")
    play(game, "meld 12N 12G 12A 12R", "discard 5A")
    assert_closed(game, 1, "5A")
    result = game.result()
    assert result is not None and result.pe_tabla and result.seats[1].total == 340


@pytest.mark.rule("EX-44")
@pytest.mark.rule("CLOSE-02")
@pytest.mark.rule("TURN-06")
@pytest.mark.parametrize("name", ["online", "clasic"])
def test_ex44_a_discard_never_closes_in_online(name: str) -> None:
    rules = preset(name)
    game = _p_with_full_rights(
        rules,
        ("11A 12A 13A", "3R 3G 3N", "10R 10G 10N 10A", "7A 8A 9A"),
        "6G",
        q_tiles="6R 7R 8R 12G 12A 12N",
        q_melds=("6R 7R 8R", "12G 12A 12N"),
        stock="2A 13N 4N 9N 11G 5R",
    )
    play(game, "draw")
    assert rack(game, 0) == ["6G", "9N"]
    illegal(game, "close 9N", S.CLOSE_NOT_LAST_TILE)
    play(game, "discard 9N")  # one tile left: not closed, in any preset
    assert not game.state.over and rack(game, 0) == ["6G"]
    play(game, "draw; discard", "draw", "lay 5R on 6R 7R 8R")
    if name == "online":
        illegal(game, "discard 6G", S.MUST_CLOSE)
        play(game, "close 6G")
    else:
        play(game, "discard 6G")
    assert_closed(game, 0, "6G")


@pytest.mark.rule("EX-48")
@pytest.mark.rule("CLOSE-03")
@pytest.mark.rule("TURN-03")
@pytest.mark.parametrize("name", ALL)
def test_ex48_closing_without_taking(name: str) -> None:
    rules = preset(name)
    game = _p_with_full_rights(
        rules,
        ("11A 12A 13A", "3R 3G 3N", "8R 8G 8A 8N"),
        "13N 5R 5G 5A",
        q_tiles="10N 11N 12N 2R 2G 2A",
        q_melds=("10N 11N 12N", "2R 2G 2A"),
        stock="2A 13N 4N 9G",
    )
    illegal(game, "lay 13N on 10N 11N 12N", S.TAKE_FIRST)
    illegal(game, "meld 5R 5G 5A", S.TAKE_FIRST)
    illegal(game, "close 13N", S.TAKE_FIRST)
    illegal(game, "discard 13N", S.TAKE_FIRST)
    # With a take first, the same plan closes.
    play(game, "draw", "lay 13N on 10N 11N 12N", "meld 5R 5G 5A", go_out(rules, "9G"))
    assert_closed(game, 0, "9G")


@pytest.mark.rule("EX-49")
@pytest.mark.rule("JOLY-04")
@pytest.mark.rule("JOLY-05")
@pytest.mark.parametrize("name", ALL)
def test_ex49_swap_meld_and_close_with_three_tiles(name: str) -> None:
    rules = preset(name)
    game = _p_with_full_rights(
        rules,
        ("11A 12A 13A", "10R 10G 10N", "1G 2G 3G 4G 5G"),
        "8G 8A 3N",
        q_tiles="5R J 7R 13G 13A 13N",
        q_melds=("5R J 7R", "13G 13A 13N"),
        stock="2A 13N 4N 6R",
    )
    # "He announced ≤3 last turn" (online's threshold is 2: nothing was due there).
    assert game.state.seats[0].announced_few is (rules.announce_threshold >= 3)
    play(game, "draw", "swap 6R on 5R J 7R")
    assert rack(game, 0) == ["3N", "8A", "8G", "J"]
    if name == "online":  # the joker is J(=6R): it cannot join a set of 8s
        illegal(game, "meld 8G 8A J", MeldErrorCode.FIXED_JOKER_OUT_OF_PLACE)
        return
    play(game, "meld 8G 8A J", "discard 3N")
    assert_closed(game, 0, "3N")


# -- Deal, doubles -------------------------------------------------------------------------


def _ex50(rules: Ruleset) -> Game:
    return new_game(rules, players=4, racks={0: "5R 5R", 1: "7N 7N", 2: "12G 12G", 3: "1A 1A"})


@pytest.mark.rule("EX-50")
@pytest.mark.rule("DUBLE-03")
@pytest.mark.rule("DUBLE-04")
@pytest.mark.parametrize("name", ["clasic", "rummy45"])
def test_ex50_doubles_exchange(name: str) -> None:
    game = _ex50(preset(name))
    play(game, offer(0, "5R"))
    illegal(game, accept(2, "12G", 0), S.DOUBLE_CLASS_DIFFERS)  # small for big
    events = play(game, accept(1, "7N", 0))  # small for small, one tile each
    (event,) = [e for e in events if isinstance(e, DoublesExchanged)]
    given = tuple(i for i in event.given if i is not None)
    received = tuple(i for i in event.received if i is not None)
    assert (text(given), text(received)) == ("5R", "7N")
    assert rack(game, 0).count("5R") == 1 and rack(game, 0).count("7N") == 1
    assert rack(game, 1).count("5R") == 1 and rack(game, 1).count("7N") == 1
    assert len(game.state.rack(0)) == 15 and len(game.state.rack(1)) == 14
    play(game, exchange(2, 3, "12G", "1A"))  # a pair of 1s counts as big
    assert rack(game, 2).count("1A") == 1 and rack(game, 3).count("12G") == 1


@pytest.mark.rule("EX-50")
@pytest.mark.rule("DUBLE-03")
def test_ex50_no_exchange_in_online() -> None:
    game = _ex50(preset("online"))
    illegal(game, offer(0, "5R"), S.EXCHANGE_DISABLED)


@pytest.mark.rule("EX-51")
@pytest.mark.rule("DUBLE-05")
@pytest.mark.parametrize("name", ALL)
def test_ex51_three_doubles(name: str) -> None:
    rules = preset(name)
    game = new_game(rules, players=3, racks={2: "3R 3R 9G 9G 11A 11A"})
    if name != "rummy45":
        illegal(game, redeal(2), S.REDEAL_DISABLED)
        return
    before = game.state
    events = play(game, redeal(2))
    assert any(isinstance(e, Dealt) for e in events)
    state = game.state
    assert state.preplay and state.turn == 1 and state.current == before.starter
    assert state.seats != before.seats  # a new deal


@pytest.mark.rule("EX-51")
@pytest.mark.rule("DUBLE-01")
@pytest.mark.parametrize("name", ALL)
def test_ex51_two_doubles_and_the_atu_twin(name: str) -> None:
    game = new_game(preset(name), players=3, racks={2: "3R 3R 9G 9G 11A"}, atu="11A")
    code = S.TOO_FEW_DOUBLES if name == "rummy45" else S.REDEAL_DISABLED
    illegal(game, redeal(2), code)


# -- Opening-turn restrictions ---------------------------------------------------------------


def _ex54(rules: Ruleset) -> Game:
    # Q (seat 0) opens with 10N 11N 12N + 5G 5A 5R; P (seat 1) then opens.
    game = new_game(
        rules,
        players=2,
        racks={0: "10N 11N 12N 5G 5A 5R", 1: "3R 4R 5R 10G 10A 10N 13N 6R"},
        stock="2A 13G 4N 9A 9G 2G",
    )
    play(game, "discard", "draw; discard")
    play(game, "draw; meld 10N 11N 12N; meld 5G 5A 5R; discard")
    play(game, "draw", "meld 3R 4R 5R", "meld 10G 10A 10N")
    return game


@pytest.mark.rule("EX-54")
@pytest.mark.rule("OPEN-07")
@pytest.mark.rule("LIPI-03")
@pytest.mark.parametrize("name", ALL)
def test_ex54_layoffs_in_the_opening_turn(name: str) -> None:
    game = _ex54(preset(name))
    illegal(game, "lay 13N on 10N 11N 12N", LayoffErrorCode.OPENING_TURN)
    play(game, "lay 6R on 3R 4R 5R")
    own = game.state.table.melds_of(1)
    assert sum(game.state.table.melds[m].meld.points for m in own) == 50
    play(game, "discard")
    assert game.state.seats[1].opened
    play(game, "draw; discard", "draw", "lay 13N on 10N 11N 12N")  # his next turn


@pytest.mark.rule("EX-55")
@pytest.mark.rule("OPEN-09")
@pytest.mark.rule("JOLY-01")
@pytest.mark.parametrize("name", ALL)
def test_ex55_no_joker_swap_to_reach_45(name: str) -> None:
    # P (seat 1) holds 6G, 9R 10R and 12A 12N 12G: with the joker 9R 10R J + the 12s
    # would be 60; without it he has 30.
    game = new_game(
        preset(name),
        players=2,
        racks={0: "5G J 7G 11R 11A 11N", 1: "6G 9R 10R 12A 12N 12G"},
        stock="2A 13G 4N",
    )
    play(game, "discard", "draw; discard", "draw; meld 5G J 7G; meld 11R 11A 11N; discard")
    play(game, "draw")
    illegal(game, "swap 6G on 5G J 7G", SwapErrorCode.NOT_OPENED)
    play(game, "meld 12A 12N 12G")
    illegal(game, "swap 6G on 5G J 7G", SwapErrorCode.OPENING_TURN)


# -- The atu announcement ----------------------------------------------------------------


A57_MELDS = ("1R 2R 3R 4R", "9N 10N 11N 12N", "8A 8R 8N 8G")


def _ex57(rules: Ruleset, *, announce_when: str, c_opens: str | None) -> Game:
    """Three players, atu 7G, C (seat 2) holds the twin.  A (seat 0) opens in turn 4
    and closes in turn 7 (lays 5R and 13N on his own runs); C opens in turn 6 with
    ``c_opens`` (a run) + 13R 13A 13N, or not at all.  ``announce_when``: ``before``
    C's first take, ``after`` it, or ``never``."""
    game = new_game(
        rules,
        players=3,
        racks={0: "2N " + " ".join(A57_MELDS) + " 5R 13N", 2: "7G 8G 9G 10G 13R 13A 13N"},
        atu="7G",
        stock="2A 6A 4N 9A 12R 11G 2G",
    )
    play(game, "discard 2N", "draw; discard")
    if announce_when == "before":
        play(game, announce_atu(2))
    play(game, "draw")
    if announce_when == "after":
        if rules.atu_bonus_trigger.value == "announce_at_start":
            illegal(game, announce_atu(2), S.ATU_ANNOUNCE_TOO_LATE)
        else:  # informational: allowed at any time (ATU-03, ONLINE-08)
            play(game, announce_atu(2))
    play(game, "discard")
    play(game, _open_p(A57_MELDS))
    announce_if_due(game, 0)
    play(game, "draw; discard")
    if c_opens:
        play(game, "draw", meld(c_opens), "meld 13R 13A 13N", "discard")
    else:
        play(game, "draw; discard")
    play(game, "draw", "lay 5R on 1R 2R 3R 4R", "lay 13N on 9N 10N 11N 12N")
    play(game, go_out(rules, text([game.state.rack(0)[-1]])))
    assert_closed(game, 0, "11G")
    return game


@pytest.mark.rule("EX-57")
@pytest.mark.rule("ATU-02")
@pytest.mark.parametrize(
    ("announce_when", "c_opens", "bonus"),
    [("before", "7G 8G 9G", 50), ("before", "8G 9G 10G", 50), ("after", "7G 8G 9G", 0)],
)
def test_ex57_clasic_announce_before_the_first_take(
    announce_when: str, c_opens: str, bonus: int
) -> None:
    game = _ex57(preset("clasic"), announce_when=announce_when, c_opens=c_opens)
    assert game.state.seats[2].announced_atu is (announce_when == "before")
    result = game.result()
    assert result is not None and result.seats[2].atu_bonus == bonus


@pytest.mark.rule("EX-57")
@pytest.mark.rule("ATU-02")
@pytest.mark.rule("SCORE-02")
def test_ex57_clasic_no_compensation_when_unopened() -> None:
    game = _ex57(preset("clasic"), announce_when="before", c_opens=None)
    result = game.result()
    assert result is not None
    c = result.seats[2]
    assert c.atu_bonus == 0 and c.total == -100


@pytest.mark.rule("EX-57")
@pytest.mark.rule("ATU-03")
@pytest.mark.parametrize("announce_when", ["before", "after"])
def test_ex57_online_the_announcement_carries_no_points(announce_when: str) -> None:
    game = _ex57(preset("online"), announce_when=announce_when, c_opens="7G 8G 9G")
    assert game.state.seats[2].announced_atu
    result = game.result()
    assert result is not None
    assert result.seats[2].atu_bonus == 0 and all(s.multiplier == 1 for s in result.seats)


@pytest.mark.rule("EX-57")
@pytest.mark.rule("ATU-04")
@pytest.mark.parametrize(("c_opens", "bonus"), [("7G 8G 9G", 50), ("8G 9G 10G", 0)])
def test_ex57_rummy45_only_melding_the_twin_counts(c_opens: str, bonus: int) -> None:
    game = _ex57(preset("rummy45"), announce_when="before", c_opens=c_opens)
    result = game.result()
    assert result is not None and result.seats[2].atu_bonus == bonus


# -- Full rounds with their scores ---------------------------------------------------------


def _ex34(rules: Ruleset) -> Game:
    """Three players; P (seat 0) opens with 6R 7R 8R + 10G 10R 10N (45) and keeps
    3R 3G 10A; Q (seat 1) opens with 11G 12G 13G + 4G 4A 4N 4R (50) and keeps
    12N 7R; R (seat 2) never opens.  The atu is a joker.  hand_sizes (10, 9): the
    scores depend only on the tiles named, and smaller hands let each seat end with
    exactly the example's rack."""
    rules = attrs.evolve(rules, hand_sizes=(10, 9))
    return new_game(
        rules,
        players=3,
        racks={
            0: "2N 6R 7R 8R 10G 10R 10N 3R 3G 10A",
            1: "11G 12G 13G 4G 4A 4N 4R 12N 7R",
        },
        atu="J",
        stock="2A 6A 9A 13A 5N",
    )


@pytest.mark.rule("EX-34")
@pytest.mark.rule("ATU-05")
@pytest.mark.rule("ATU-07")
@pytest.mark.rule("SCORE-04")
@pytest.mark.parametrize(
    ("name", "totals"), [("clasic", (410, 70, -200)), ("rummy45", (310, 70, -200))]
)
def test_ex34_the_atu_is_a_joker(name: str, totals: tuple[int, int, int]) -> None:
    game = _ex34(preset(name))
    assert game.state.atu in JOKER_IDS
    play(game, "discard 2N", "draw; discard", "draw; discard")
    play(game, "draw; meld 6R 7R 8R; meld 10G 10R 10N; discard")
    announce_if_due(game, 0)
    play(game, "draw; meld 11G 12G 13G; meld 4G 4A 4N 4R; discard")
    announce_if_due(game, 1)
    play(game, "draw; discard")
    assert rack(game, 0) == ["10A", "3G", "3R"]
    play(game, "atu", "meld 3R 3G J", "discard 10A")
    assert_closed(game, 0, "10A")
    result = game.result()
    assert result is not None
    assert result.double_game and result.totals == totals
    assert result.winners == (0,)


@pytest.mark.rule("EX-34")
@pytest.mark.rule("DEAL-03")
def test_ex34_online_the_atu_is_never_a_joker() -> None:
    game = _ex34(preset("online"))
    assert game.state.atu not in JOKER_IDS
    assert game.record().chance  # the joker went back and another tile was turned


EX35_B_SECOND = {"clasic": "12G 13G 1G", "rummy45": "12G 12A 12N", "online": "12G 12A 12N"}


def _ex35(
    rules: Ruleset,
    name: str,
    *,
    atu: str = "7G",
    d_announces_atu: bool = True,
    b_announces: bool = True,
    a_closes_with: str = "8G",
    automation: Automation | None = None,
) -> Game:
    """EX-35's table, played: A, B, C, D are seats 0–3, A starts.

    Two changes were needed to reach it by play (the scores are those of the example):

    * A's melds are 6R 7R 8R 9R 10R + 3G 3A 3N (45, 8 tiles) instead of 3R 4R 5R +
      10G 10A 10N (45, 6 tiles).  With the example's tiles A would place 7 tiles in
      the round while B and D must hold 9 (6 melded + 3 left, 7 melded + 2 left);
      only the starter's hand may differ from the others', and it may only be larger
      (``hand_sizes`` validation), so no deal reaches the exact table.
    * In rummy45 and online B's second meld is 12G 12A 12N instead of 12G 13G 1G
      (both 30): an opening of two runs is not a rummy45/online opening (OPEN-03), so
      the example's B could not have opened there.

    hand_sizes (10, 9): the scores depend only on the tiles named."""
    rules = attrs.evolve(rules, hand_sizes=(10, 9))
    b_melds = ("1R 2R 3R", EX35_B_SECOND[name])
    d_melds = ("10N 11N 12N", "5G 5A 5N 5R")
    game = new_game(
        rules,
        players=4,
        racks={
            0: "2A 6R 7R 8R 9R 10R 3G 3A 3N 13N",
            1: " ".join(b_melds) + " 9A 1A J",
            3: " ".join(d_melds) + " 4G 7G",
        },
        atu=atu,
        stock=f"2N 6A 9G 13A 11A 2G 4N {a_closes_with}",
        automation=automation,
    )
    manual = not (automation and automation.announcements and rules.announce_automatic)
    due = rules.announce_threshold

    def few(seat: int) -> list[Spec]:
        return [announce(seat)] if manual and len(game.state.rack(seat)) <= due else []

    play(game, "discard 2A", "draw; discard", "draw; discard")
    if d_announces_atu:
        play(game, announce_atu(3))  # before D's first take
    play(game, "draw; discard")
    play(game, "draw; meld 6R 7R 8R 9R 10R; meld 3G 3A 3N; discard")
    play(game, few(0))
    play(game, "draw", *[meld(m) for m in b_melds], "discard")
    assert rack(game, 1) == ["1A", "9A", "J"]
    if b_announces:
        play(game, few(1))
    play(game, "draw; discard")
    play(game, "draw", *[meld(m) for m in d_melds], "discard")
    assert rack(game, 3) == ["4G", "7G"]
    play(game, few(3))
    play(game, "draw", "lay 13N on 10N 11N 12N")
    assert rack(game, 0) == [a_closes_with]
    play(game, go_out(rules, a_closes_with))
    assert_closed(game, 0, a_closes_with)
    return game


def _totals(game: Game) -> tuple[int, ...]:
    result = game.result()
    assert result is not None
    return result.totals


@pytest.mark.rule("EX-35")
@pytest.mark.rule("SCORE-01")
@pytest.mark.rule("SCORE-02")
@pytest.mark.rule("SCORE-06")
@pytest.mark.rule("ATU-02")
@pytest.mark.parametrize(
    ("name", "totals"), [("clasic", (155, -35, -100, 90)), ("rummy45", (105, -35, -100, 40))]
)
def test_ex35_a_full_round(name: str, totals: tuple[int, ...]) -> None:
    game = _ex35(preset(name), name)
    result = game.result()
    assert result is not None
    assert result.totals == totals and result.winners == (0,) and not result.double_game
    a, b, _, d = result.seats
    assert (a.melded, a.credits) == (45, 10)  # A's 13N is A's credit, not D's
    assert (b.melded, b.rack) == (45, 80)
    assert (d.melded, d.rack) == (50, 10)
    assert d.atu_bonus == (50 if name == "clasic" else 0)


@pytest.mark.rule("EX-36")
@pytest.mark.rule("ATU-05")
@pytest.mark.rule("SCORE-04")
@pytest.mark.parametrize(
    ("name", "atu", "closing", "totals"),
    [
        ("clasic", "1N", "8G", (310, -70, -200, 80)),
        ("clasic", "1N", "J", (620, -70, -200, 80)),
        ("clasic", "7G", "J", (310, -35, -100, 40)),
        ("clasic", "7G", "1N", (310, -35, -100, 40)),
        ("rummy45", "1N", "8G", (210, -70, -200, 80)),
        ("rummy45", "1N", "J", (420, -70, -200, 80)),
    ],
)
def test_ex36_double_game_and_the_x4(
    name: str, atu: str, closing: str, totals: tuple[int, ...]
) -> None:
    game = _ex35(preset(name), name, atu=atu, d_announces_atu=False, a_closes_with=closing)
    result = game.result()
    assert result is not None
    assert result.double_game is (atu == "1N")
    assert result.totals == totals


@pytest.mark.rule("EX-36")
@pytest.mark.rule("ATU-05")
def test_ex36_online_an_ace_atu_doubles_nothing() -> None:
    game = _ex35(preset("online"), "online", atu="1N", d_announces_atu=False)
    result = game.result()
    assert result is not None
    assert not result.double_game and all(s.multiplier == 1 for s in result.seats)


@pytest.mark.rule("EX-37")
@pytest.mark.rule("ANNOUNCE-03")
@pytest.mark.rule("ANNOUNCE-05")
@pytest.mark.parametrize(
    ("name", "atu", "b_total"),
    [("clasic", "7G", -500), ("clasic", "1N", -1000), ("rummy45", "7G", -500)],
)
def test_ex37_not_announcing(name: str, atu: str, b_total: int) -> None:
    game = _ex35(preset(name), name, atu=atu, b_announces=False, d_announces_atu=atu == "7G")
    assert game.state.seats[1].missed_announcement
    result = game.result()
    assert result is not None
    b = result.seats[1]
    assert b.flat_penalty is not None and b.flat_penalty.points == 500
    assert b.total == b_total


@pytest.mark.rule("EX-37")
@pytest.mark.rule("ANNOUNCE-04")
def test_ex37_online_the_announcement_is_automatic() -> None:
    game = _ex35(
        preset("online"),
        "online",
        d_announces_atu=False,
        b_announces=False,
        automation=Automation(announcements=True),
    )
    assert game.state.seats[0].announced_few and game.state.seats[3].announced_few
    assert not any(s.missed_announcement for s in game.state.seats)
    result = game.result()
    assert result is not None and all(s.flat_penalty is None for s in result.seats[:2])


def _ex43(rules: Ruleset, a_keeps: str, *, announce_twin: bool = False) -> Game:
    """EX-43: three players, atu 9R.  A (seat 0) opens with 7G 8G 9G + 11R 11G 11N and
    keeps 4N + ``a_keeps``; B (seat 1) opens with 3A 4A 5A + 12N 12R 12A and keeps
    2G J 10N; C (seat 2) opens with 4R 4G 4A + 11A 12A 13A.

    C keeps 10G 13R 5N (25) instead of 1A (25): A places 8 tiles and keeps 1, B and
    C hold 9 each (6 melded + 3 left) with the example's 1 tile C would hold 7, and
    only the starter's hand may differ from the others'.  hand_sizes (9, 9): the
    scores depend only on the tiles named."""
    rules = attrs.evolve(rules, hand_sizes=(9, 9))
    game = new_game(
        rules,
        players=3,
        racks={
            0: f"2N 7G 8G 9G 11R 11G 11N 4N {a_keeps}",
            1: "3A 4A 5A 12N 12R 12A 2G J 10N",
            2: "4R 4G 4A 11A 12A 13A 10G 13R 5N",
        },
        atu="9R",
        stock="2A 6N 9A 13G 8R 6A",
    )
    if announce_twin:
        play(game, announce_atu(0))
    play(game, "discard 2N", "draw; discard", "draw; discard")
    play(game, _open_p(("7G 8G 9G", "11R 11G 11N")))
    announce_if_due(game, 0)
    for seat, melds in ((1, ("3A 4A 5A", "12N 12R 12A")), (2, ("4R 4G 4A", "11A 12A 13A"))):
        play(game, "draw", *[meld(m) for m in melds], "discard")
        announce_if_due(game, seat)
    play(game, "draw", "lay 6A on 3A 4A 5A", "lay 4N on 4R 4G 4A")
    assert rack(game, 0) == [a_keeps]
    play(game, go_out(rules, a_keeps))
    assert_closed(game, 0, a_keeps)
    return game


@pytest.mark.rule("EX-43")
@pytest.mark.rule("CLOSE-02")
@pytest.mark.rule("CLOSE-05")
@pytest.mark.rule("SCORE-05")
@pytest.mark.rule("ATU-03")
@pytest.mark.parametrize(
    ("keeps", "totals"), [("9R", (210, -40, 40)), ("J", (110, -40, 40)), ("2R", (55, -20, 20))]
)
def test_ex43_a_full_round_in_online(keeps: str, totals: tuple[int, ...]) -> None:
    game = _ex43(preset("online"), keeps)
    result = game.result()
    assert result is not None
    assert result.totals == totals and result.winners == (0,)
    assert result.seats[0].credits == 10


@pytest.mark.rule("EX-43")
@pytest.mark.rule("CLOSE-01")
@pytest.mark.parametrize(("announce_twin", "a_total"), [(False, 155), (True, 205)])
def test_ex43_the_same_position_in_clasic(announce_twin: bool, a_total: int) -> None:
    game = _ex43(preset("clasic"), "9R", announce_twin=announce_twin)
    assert _totals(game) == (a_total, -20, 20)


def _ex52(rules: Ruleset, *, atu: str | None = None) -> Game:
    """EX-52: three players; A (seat 0) opens with 11G 12G 13G + 10A 10N 10G 10R (70)
    and keeps 5N 13N (15); B (seat 1) opens with 10R 11R 12R 13R + 5G 5A 5N (55) and
    keeps J 1R (75); C (seat 2) never opens.  Then everybody draws and discards the
    tile drawn until the stock is empty.

    B's melds are 55 and his rack 75 instead of 40 and 60 (the same -20): an opened
    player's melds are worth at least the 45 of his opening (OPEN-02), so the
    example's B cannot exist; and with 2 tiles left neither A nor B may take from the
    row (RUPE-05), so nothing can be taken when the stock runs out.  hand_sizes
    (10, 9): the scores depend only on the tiles named."""
    rules = attrs.evolve(rules, hand_sizes=(10, 9))
    game = new_game(
        rules,
        players=3,
        racks={
            0: "2N 11G 12G 13G 10A 10N 10G 10R 5N 13N",
            1: "10R 11R 12R 13R 5G 5A 5N J 1R",
        },
        atu=atu,
        bottom="2A",
    )
    play(game, "discard 2N", "draw; discard", "draw; discard")
    play(game, _open_p(("11G 12G 13G", "10A 10N 10G 10R")))
    announce_if_due(game, 0)
    play(game, _open_p(("10R 11R 12R 13R", "5G 5A 5N")))
    announce_if_due(game, 1)
    assert rack(game, 0) == ["13N", "5N"] and rack(game, 1) == ["1R", "J"]
    while game.state.stock and not game.state.over:
        play(game, "draw; discard")
    return game


@pytest.mark.rule("EX-52")
@pytest.mark.rule("END-01")
@pytest.mark.rule("END-03")
@pytest.mark.rule("SCORE-09")
@pytest.mark.parametrize(
    ("name", "atu", "totals"),
    [
        ("clasic", None, (55, -20, -100)),
        ("clasic", "1N", (110, -40, -200)),
        ("rummy45", None, (55, -20, -100)),
    ],
)
def test_ex52_the_stock_runs_out(name: str, atu: str | None, totals: tuple[int, ...]) -> None:
    game = _ex52(preset(name), atu=atu)
    end = game.state.end
    assert end is not None and end.reason is EndReason.STOCK_EXHAUSTED and end.closer is None
    result = game.result()
    assert result is not None
    assert result.totals == totals and result.winners == (0,)
    assert all(s.closing_bonus == 0 for s in result.seats)


@pytest.mark.rule("EX-52")
@pytest.mark.rule("END-02")
def test_ex52_online_reshuffles_the_row() -> None:
    game = _ex52(preset("online"))
    assert not game.state.over and not game.state.stock
    row = game.state.row
    events = play(game, "draw")
    (shuffled,) = [e for e in events if isinstance(e, StockReshuffled)]
    stock = [i for i in shuffled.stock if i is not None]  # the full event: no id hidden
    assert sorted(stock) == sorted(row[:-1])
    assert game.state.row == row[-1:] and not game.state.row_dead_first
    assert len(game.state.stock) == len(row) - 2  # one was just drawn


# -- the deal builder itself ----------------------------------------------------------------


def test_build_deal_places_the_named_tiles() -> None:
    rules = attrs.evolve(preset("clasic"), hand_sizes=(6, 5))
    order = build_deal(
        players=3,
        starter=1,
        racks={0: "7G 7G", 1: ["J", 3], 2: "#104"},
        atu="9R",
        stock="8R 9N",
        bottom="1A",
        rules=rules,
    )
    assert sorted(order) == list(range(106)) and order == build_deal(
        players=3,
        starter=1,
        racks={0: "7G 7G", 1: ["J", 3], 2: "#104"},
        atu="9R",
        stock="8R 9N",
        bottom="1A",
        rules=rules,
    )
    racks = order[:5], order[5:11], order[11:16]
    assert text(racks[0][:2]) == "7G 7G" and racks[1][:2] == (105, 3) and racks[2][0] == 104
    assert text(order[16:19]) == "9R 8R 9N" and text(order[-1:]) == "1A"
    for seat_rack in racks:
        values = [i // 2 for i in seat_rack]
        assert len(values) - len(set(values)) == (1 if seat_rack is racks[0] else 0)
    game = Game.new(rules, 3, deal=order, starter=1)
    assert same(game.state.atu, "9R") and game.state.rack(1)[:2] == (105, 3)


def test_meld_index_reads_notation() -> None:
    game = _ex54(preset("clasic"))
    assert meld_index(game.state, "10N 11N 12N") == 0
    assert meld_index(game.state, "5R 5G 5A") == 1  # a set in any order
