"""The rules the engine owns: the deal, the turn sequence, doubles, the announcement
and declaration windows, the end of the round and match totals, and a flip test for
each engine knob (``test_flip_<knob>``).

Deals are written in tile notation (tests/engine_deals.py); seat 0 starts unless said
otherwise.
"""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest
from engine_deals import (
    accept,
    announce,
    announce_atu,
    build_deal,
    declare,
    discard,
    exchange,
    illegal,
    lay,
    new_game,
    offer,
    play,
    redeal,
)

from remi_rules import MeldErrorCode, Ruleset, TakeErrorCode, tile_of, variants
from remi_rules.engine import (
    AcceptDoubles,
    AnnounceAtu,
    AnnounceFewTiles,
    Automation,
    DeclarePeTabla,
    DemandRedeal,
    Draw,
    EndReason,
    Game,
    Match,
    MatchConfig,
    Obligation,
    OfferDoubles,
    Phase,
    Undo,
    tile_census,
)
from remi_rules.engine.events import (
    Announced,
    AnnouncementMissed,
    AtuReturned,
    Dealt,
    DoublesExchanged,
    RoundEnded,
    StockReshuffled,
    TurnStarted,
)
from remi_rules.engine.transition import RandomChance, deal, double_class, doubles_of
from remi_rules.errors import StepErrorCode
from remi_rules.ruleset import AceDoubleClass, DoublesExchangeUnit, StockExhausted
from remi_rules.tiles import JOKER_IDS

S = StepErrorCode
T = TakeErrorCode
ALL = ("clasic", "online", "rummy45")


def preset(name: str, **knobs: Any) -> Ruleset:
    rules = variants.get(name)
    return attrs.evolve(rules, **knobs) if knobs else rules


def rack(game: Game, seat: int) -> list[str]:
    return sorted(str(tile_of(i)) for i in game.state.rack(seat))


def idle(game: Game, turns: int) -> None:
    """``turns`` turns of drawing and discarding the tile drawn."""
    for _ in range(turns):
        play(game, "draw; discard")


# -- DEAL ------------------------------------------------------------------------------------


@pytest.mark.rule("DEAL-01")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_deal01_the_first_dealer_is_drawn_and_the_next_seat_starts(players: int) -> None:
    dealers = set()
    for seed in range(40):
        state = Game.new(preset("clasic"), players, seed=seed).state
        assert state.starter == (state.dealer + 1) % players  # counter-clockwise
        assert state.current == state.starter and state.turn == 1
        dealers.add(state.dealer)
    assert dealers == set(range(players))  # drawn at random


@pytest.mark.rule("DEAL-01")
def test_deal01_an_explicit_deal_starts_with_seat_0_or_the_starter_given() -> None:
    order = build_deal(players=3, starter=0)
    assert Game.new(preset("clasic"), 3, deal=order).state.starter == 0
    order = build_deal(players=3, starter=2)
    state = Game.new(preset("clasic"), 3, deal=order, starter=2).state
    assert (state.dealer, state.starter, len(state.rack(2))) == (1, 2, 15)


@pytest.mark.rule("DEAL-02")
@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize(("players", "starter"), [(2, 0), (3, 1), (4, 3)])
def test_deal02_the_starter_gets_15_the_others_14(name: str, players: int, starter: int) -> None:
    state = Game.new(preset(name), players, seed=5, starter=starter).state
    sizes = [len(s.rack) for s in state.seats]
    assert sizes == [15 if s == starter else 14 for s in range(players)]


@pytest.mark.rule("DEAL-03")
@pytest.mark.rule("DEAL-04")
@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize(("players", "stock"), [(2, 76), (3, 62), (4, 48)])
def test_deal03_04_the_atu_is_face_up_and_the_rest_is_the_stock(
    name: str, players: int, stock: int
) -> None:
    game = Game.new(preset(name), players, seed=11)
    state = game.state
    assert len(state.stock) == stock
    assert state.atu_face_up and state.atu not in state.stock
    assert all(state.atu not in s.rack for s in state.seats)
    assert tile_census(state) is None
    # The deal order is racks, atu, stock (top first).
    order = game.record().deal
    hands = sum(len(s.rack) for s in state.seats)
    if state.atu == order[hands]:  # not re-turned (online may re-turn a joker)
        assert state.stock == order[hands + 1 :]


@pytest.mark.rule("DEAL-05")
def test_deal05_a_uniform_shuffle_replayable_from_its_record() -> None:
    a = Game.new(preset("clasic"), 4, seed=3)
    b = Game.new(preset("clasic"), 4, seed=3)
    c = Game.new(preset("clasic"), 4, seed=4)
    assert sorted(a.record().deal) == list(range(106))
    assert a.record().deal == b.record().deal != c.record().deal
    assert Game.replay(a.record()).state == a.state


@pytest.mark.rule("DEAL-06")
@pytest.mark.rule("ATU-02")
@pytest.mark.rule("DUBLE-03")
def test_deal06_the_pre_play_order() -> None:
    # 1. the deal and the atu; 2. doubles (and a redeal where 3 doubles allow it,
    # as in rummy45) while the starter has not discarded; 3. the atu announcement
    # (clasic) until one's own first take; 4. the starter's first discard.
    rules = preset("clasic", redeal_doubles_threshold=3)
    game = new_game(
        rules,
        players=3,
        racks={0: "5R 5R", 1: "7N 7N 4G 4G 9A 9A", 2: "3A 8G"},
        atu="8G",
    )
    state = game.state
    assert state.preplay and state.atu_face_up and state.phase is Phase.ACTION
    steps = game.legal_steps()
    fives = [i for i in state.rack(0) if str(tile_of(i)) == "5R"]
    assert OfferDoubles(0, min(fives)) in steps
    assert DemandRedeal(1) in steps and AnnounceAtu(2) in steps
    play(game, exchange(0, 1, "5R", "7N"))
    play(game, offer(1, "4G"))
    play(game, "discard 5R")  # the starter's first discard ends the pre-play
    assert not game.state.preplay and game.state.offers == ()  # the open offer lapsed
    illegal(game, offer(1, "9A"), S.PREPLAY_OVER)
    illegal(game, redeal(1), S.PREPLAY_OVER)
    # Seat 2 may still announce the atu: he has not taken yet.
    play(game, "draw; discard", announce_atu(2))
    assert game.state.seats[2].announced_atu


# -- TURN ------------------------------------------------------------------------------------


@pytest.mark.rule("TURN-01")
@pytest.mark.parametrize("name", ALL)
def test_turn01_the_starter_only_discards_and_the_first_discard_is_dead(name: str) -> None:
    rules = preset(name)
    # P (seat 0) discards 9R first; later, with full rights, he holds 9G 9A.
    opening = "11A 12A 13A 3G 4G 5G 10R 10G 10N"
    game = new_game(
        rules,
        players=2,
        racks={0: f"9R {opening} 9G 9A 2N 6N 13R"},
        stock="2A 13N 4N 9N",
    )
    for step in ("draw", "take", "atu", "meld 9G 9A 9R", "close 9R"):
        illegal(game, step, S.STARTER_FIRST_TURN)
    play(game, "discard 9R")
    assert game.state.row_dead_first
    play(game, "draw; discard", "draw; meld 11A 12A 13A; meld 3G 4G 5G; meld 10R 10G 10N")
    play(game, "discard", "draw; discard")
    assert len(game.state.rack(0)) == 5 and len(game.state.row) == 4
    illegal(game, "rupere 0", T.DEAD_FIRST_DISCARD)


@pytest.mark.rule("TURN-02")
@pytest.mark.rule("TURN-03")
@pytest.mark.parametrize("name", ALL)
def test_turn02_one_take_then_actions_then_one_discard(name: str) -> None:
    game = new_game(preset(name), players=3)
    play(game, "discard")
    state = game.state
    assert state.phase is Phase.TAKE and state.obligations() == (Obligation.TAKE,)
    illegal(game, "discard", S.TAKE_FIRST)
    play(game, "draw")
    assert game.state.phase is Phase.ACTION and game.state.obligations() == ()
    illegal(game, "draw", S.ALREADY_TOOK)
    illegal(game, "take", S.ALREADY_TOOK)
    illegal(game, "atu", S.ALREADY_TOOK)
    events = play(game, "discard")
    assert [e.kind for e in events] == ["discarded", "turn_started"]
    assert game.state.current == 2 and game.state.turn == 3
    idle(game, 4)
    assert all(len(s.rack) == 14 for s in game.state.seats)  # at most 14 after a turn


@pytest.mark.rule("TURN-04")
@pytest.mark.parametrize("name", ALL)
def test_turn04_first_turn_draw_and_discard(name: str) -> None:
    game = new_game(preset(name), players=3, racks={2: "7R 8R 9R 10G 10A"}, stock="10N 6N 10R")
    play(game, "discard", "draw; discard 10N")  # seat 1 discards a 10 seat 2 could use
    illegal(game, "take", T.FIRST_TURN)
    illegal(game, "atu", T.ATU_NEVER if name == "online" else T.FIRST_TURN)
    play(game, "draw")
    illegal(game, "meld 7R 8R 9R", S.FIRST_TURN_NO_MELD)
    play(game, "discard")
    assert not game.state.seats[2].opened and not game.state.table.melds


@pytest.mark.rule("TURN-05")
@pytest.mark.rule("JOLY-04")
@pytest.mark.parametrize("name", ALL)
def test_turn05_melds_layoffs_and_swaps_in_any_order(name: str) -> None:
    rules = preset(name)
    # Q (seat 0) opens with 5R J 7R + 11G 11A 11N; P (seat 1) opens with 1A 2A 3A +
    # 12R 12G 12A, then in one turn melds, lays off on his new meld and on Q's,
    # swaps Q's joker and melds it (J=6R: a set of 6s is valid even in online).
    game = new_game(
        rules,
        players=2,
        racks={
            0: "5R J 7R 11G 11A 11N 2G",
            1: "1A 2A 3A 12R 12G 12A 2N 11R 6R 6A 6N 8N 9N 10N",
        },
        stock="13G 13A 13N 2R 7N",
    )
    play(game, "discard 2G", "draw; discard", "draw; meld 5R J 7R; meld 11G 11A 11N; discard")
    play(game, "draw; meld 1A 2A 3A; meld 12R 12G 12A; discard", "draw; discard", "draw")
    eleven = next(i for i in game.state.rack(1) if str(tile_of(i)) == "11R")
    play(game, "meld 8N 9N 10N", "lay 7N on 8N 9N 10N", "lay 11R on 11G 11A 11N")
    illegal(game, lay(eleven, on="11G 11A 11N 11R"), S.NOT_IN_RACK)
    play(game, "swap 6R on 5R J 7R", "meld 6A 6N J")
    assert rack(game, 1) == ["2N"]
    last = "close 2N" if rules.closing_tile_mode.value == "keep" else "discard 2N"
    play(game, last)
    assert game.state.over and game.state.end is not None and game.state.end.closer == 1


@pytest.mark.rule("TURN-05")
@pytest.mark.rule("RUPE-01")
@pytest.mark.rule("RUPE-08")
@pytest.mark.parametrize("name", ALL)
def test_turn05_the_taken_discard_must_end_in_a_new_meld(name: str) -> None:
    # P (seat 0) has full rights with 5R 6R 9G 9A 2N; Q discards 7R.
    rules = preset(name)
    opening = "11A 12A 13A 3G 4G 5G 10R 10G 10N"
    game = new_game(
        rules,
        players=2,
        racks={0: f"2N {opening} 5R 6R 9G 9A 13R", 1: "7R"},
        stock="2A 13N 4N",
    )
    play(game, "discard 2N", "draw; discard", "draw; meld 11A 12A 13A; meld 3G 4G 5G")
    play(game, "meld 10R 10G 10N; discard 13N", "draw; discard 7R", "take")
    assert game.state.obligations() == (Obligation.MELD_TAKEN_TILE,)
    illegal(game, "discard 9G", T.NOT_IN_NEW_MELD)
    illegal(game, "meld 6R 7R", MeldErrorCode.TOO_SHORT)  # never a partial meld
    play(game, "meld 5R 6R 7R")
    assert game.state.obligations() == ()
    play(game, "discard 9G")


@pytest.mark.rule("TURN-10")
@pytest.mark.rule("RUPE-03")
def test_flip_max_rack_after_turn() -> None:
    # P (seat 0) opens with 1R 1G 1A (clasic's ace set), keeps 11 tiles, and in his
    # sixth turn breaks the row at Q's first discard 9R: 9 tiles come in.  He ends the
    # turn with 16 tiles: allowed by default (TURN-10), not with a cap of 14 (the
    # rupere itself is refused: after its meld and a discard 16 tiles would stay).
    def game_for(rules: Ruleset, *, take: bool = True) -> Game:
        game = new_game(
            rules,
            players=2,
            racks={0: "2N 1R 1G 1A 9G 9A", 1: "9R"},
            stock="2A 13N 4N 5G 6A 8R 12A 3N 12G 2G 11R",
        )
        play(game, "discard 2N", "draw; discard 9R", "draw; meld 1R 1G 1A; discard")
        idle(game, 7)
        assert game.state.current == 0 and len(game.state.row) == 10
        if take:
            play(game, "rupere 1", "meld 9R 9G 9A")
        return game

    game = game_for(preset("clasic"))
    play(game, "discard")
    assert len(game.state.rack(0)) == 16
    game = game_for(preset("clasic", max_rack_after_turn=14), take=False)
    illegal(game, "rupere 1", S.RACK_OVER_MAX)
    game = game_for(preset("clasic", max_rack_after_turn=16))
    play(game, "discard")


# -- DUBLE -----------------------------------------------------------------------------------


def _doubles_game(rules: Ruleset) -> Game:
    return new_game(
        rules,
        players=4,
        racks={0: "5R 5R J", 1: "7N 7N J", 2: "12G 12G 3A", 3: "1A 1A"},
    )


@pytest.mark.rule("DUBLE-01")
def test_duble01_what_a_double_is() -> None:
    game = _doubles_game(preset("clasic"))
    state = game.state
    assert [len(doubles_of(s.rack)) for s in state.seats] == [1, 1, 1, 1]
    assert doubles_of([104, 105]) == ()  # two jokers are not a double
    j0, j1 = (next(i for i in state.rack(s) if i in JOKER_IDS) for s in (0, 1))
    five, seven = state.rack(0)[0], state.rack(1)[0]
    illegal(game, OfferDoubles(0, j0), S.NOT_A_DOUBLE)
    three = next(i for i in state.rack(2) if str(tile_of(i)) == "3A")
    illegal(game, OfferDoubles(2, three), S.NOT_A_DOUBLE)  # a single tile
    play(game, OfferDoubles(0, five))
    illegal(game, AcceptDoubles(1, j1, 0), S.NOT_A_DOUBLE)
    illegal(game, AcceptDoubles(0, five, 0), S.EXCHANGE_SAME_SEAT)
    illegal(game, AcceptDoubles(1, seven, 2), S.NO_DOUBLES_OFFER)  # seat 2 offered none
    illegal(game, OfferDoubles(0, five), S.DOUBLES_OFFER_OPEN)  # one open offer a seat


@pytest.mark.rule("DUBLE-02")
def test_duble02_classes() -> None:
    rules = preset("clasic")
    ids = build_deal(players=2, racks={0: "2R 9N 10G 13A 1R"})[:5]
    assert [double_class(i, rules) for i in ids] == ["small", "small", "big", "big", "big"]
    key = preset("clasic", ace_double_class=AceDoubleClass.KEY)
    assert double_class(ids[4], key) == "key"
    with pytest.raises(ValueError):
        double_class(104, rules)


@pytest.mark.rule("DUBLE-02")
@pytest.mark.rule("DUBLE-03")
def test_flip_ace_double_class() -> None:
    game = _doubles_game(preset("clasic"))
    play(game, exchange(2, 3, "12G", "1A"))  # 1-1 is big in clasic
    game = _doubles_game(preset("clasic", ace_double_class=AceDoubleClass.KEY))
    play(game, offer(2, "12G"))
    err = illegal(game, accept(3, "1A", 2), S.DOUBLE_CLASS_DIFFERS)
    # the refusal names the offer's class, never the offered tile (it is hidden)
    assert err.details["what"] == "double_big" and "12G" not in err.message("en")
    assert "o dublă mare" in err.message("ro")


@pytest.mark.rule("DUBLE-03")
def test_flip_doubles_exchange() -> None:
    illegal(
        _doubles_game(preset("clasic", doubles_exchange=False)),
        offer(0, "5R"),
        S.EXCHANGE_DISABLED,
    )
    game = _doubles_game(preset("online", doubles_exchange=True))
    play(game, exchange(0, 1, "5R", "7N"))
    assert rack(game, 0).count("7N") == 1


@pytest.mark.rule("DUBLE-03")
def test_flip_doubles_exchange_same_class() -> None:
    game = _doubles_game(preset("clasic"))
    play(game, offer(0, "5R"))
    illegal(game, accept(2, "12G", 0), S.DOUBLE_CLASS_DIFFERS)
    twelves = [i for i in game.state.rack(2) if str(tile_of(i)) == "12G"]
    assert AcceptDoubles(2, min(twelves), 0) not in game.legal_steps(2)
    game = _doubles_game(preset("clasic", doubles_exchange_same_class=False))
    play(game, exchange(0, 2, "5R", "12G"))
    assert rack(game, 0).count("12G") == 1 and rack(game, 2).count("5R") == 1


@pytest.mark.rule("DUBLE-04")
def test_flip_doubles_exchange_unit() -> None:
    game = _doubles_game(preset("clasic"))
    events = play(game, exchange(0, 1, "5R", "7N"))
    (one,) = [e for e in events if isinstance(e, DoublesExchanged)]
    assert len(one.given) == len(one.received) == 1
    assert doubles_of(game.state.rack(0)) == doubles_of(game.state.rack(1)) == ()
    game = _doubles_game(preset("clasic", doubles_exchange_unit=DoublesExchangeUnit.PAIR))
    events = play(game, exchange(0, 1, "5R", "7N"))
    (pair,) = [e for e in events if isinstance(e, DoublesExchanged)]
    assert len(pair.given) == len(pair.received) == 2
    assert rack(game, 0).count("7N") == 2 and rack(game, 1).count("5R") == 2
    # Each double is exchanged at most once (OQ-30): not the 7N pair again.
    illegal(game, offer(0, "7N"), S.DOUBLE_ALREADY_EXCHANGED)
    play(game, offer(2, "12G"))
    illegal(game, accept(0, "7N", 2), S.DOUBLE_ALREADY_EXCHANGED)


@pytest.mark.rule("DUBLE-05")
def test_flip_redeal_doubles_threshold() -> None:
    three = {2: "3R 3R 9G 9G 11A 11A"}
    illegal(new_game(preset("clasic"), players=3, racks=three), redeal(2), S.REDEAL_DISABLED)
    game = new_game(preset("clasic", redeal_doubles_threshold=3), players=3, racks=three)
    events = play(game, redeal(2))
    assert [type(e) for e in events][:1] == [Dealt]
    assert game.state.preplay and tile_census(game.state) is None
    assert Game.replay(game.record()).state == game.state  # the new deal is recorded
    game = new_game(preset("rummy45", redeal_doubles_threshold=None), players=3, racks=three)
    illegal(game, redeal(2), S.REDEAL_DISABLED)
    game = new_game(preset("rummy45"), players=3, racks={2: "3R 3R 9G 9G"})
    illegal(game, redeal(2), S.TOO_FEW_DOUBLES)


# -- the atu announcement ---------------------------------------------------------------------


@pytest.mark.rule("ATU-02")
@pytest.mark.rule("EX-57")
def test_atu02_announce_before_ones_own_first_take() -> None:
    # atu 7G; seat 0 (the starter) and seat 2 hold nothing, seat 1 the twin.
    game = new_game(preset("clasic"), players=3, racks={1: "7G"}, atu="7G")
    illegal(game, announce_atu(0), S.ATU_TWIN_NOT_HELD)
    play(game, "discard")  # turn 1: the starter's discard is not a take
    play(game, "draw")  # seat 1's first take
    illegal(game, announce_atu(1), S.ATU_ANNOUNCE_TOO_LATE)
    game = new_game(preset("clasic"), players=3, racks={0: "7G"}, atu="7G")
    play(game, "discard", "draw; discard", "draw; discard")
    play(game, announce_atu(0))  # the starter takes first in turn 4
    illegal(game, announce_atu(0), S.ALREADY_ANNOUNCED)
    assert game.state.seats[0].announced_atu


# -- ANNOUNCE ---------------------------------------------------------------------------------


def _open_keeping(
    rules: Ruleset,
    kept: list[str],
    automation: Automation | None = None,
    stock: str = "2A 13N 4N 6A 9N 5N 2R",
) -> Game:
    """P (seat 0) opens in turn 3 with as many of his tiles as needed to keep
    ``kept`` (1–6 tiles) after his discard; it is then Q's turn 4.  P's melds are
    11A 12A 13A, 3G 4G 5G (longer if needed), 10R 10G 10N and 7A 7N 7G."""
    melds = ["11A 12A 13A", "3G 4G 5G", "10R 10G 10N", "7A 7N 7G", "12R 12G 12N"]
    count = 14 - len(kept)  # tiles P melds in turn 3 (15 after the draw, 1 discarded)
    chosen: list[str] = []
    for m in melds:
        if sum(len(x.split()) for x in chosen) + len(m.split()) <= count:
            chosen.append(m)
    short = count - sum(len(x.split()) for x in chosen)
    if short:  # lengthen the first run: 3G 4G 5G 6G …
        extra = " ".join(f"{r}G" for r in range(6, 6 + short))
        chosen[1] = chosen[1] + " " + extra
    tiles = f"2N {' '.join(chosen)} {' '.join(kept)}"
    game = new_game(
        rules,
        players=2,
        racks={0: tiles},
        stock=stock,
        automation=automation,
    )
    play(game, "discard 2N", "draw; discard", "draw", *[f"meld {m}" for m in chosen], "discard")
    assert rack(game, 0) == sorted(kept)
    return game


@pytest.mark.rule("ANNOUNCE-01")
@pytest.mark.rule("ANNOUNCE-02")
@pytest.mark.parametrize("name", ["clasic", "rummy45"])
def test_announce01_02_the_window_after_the_discard(name: str) -> None:
    rules = preset(name)
    game = _open_keeping(rules, ["5N", "9G", "13R", "6R"])  # 4 tiles: nothing due
    assert game.state.announce_window is None
    illegal(game, announce(0), S.ANNOUNCE_NOT_DUE)
    game = _open_keeping(rules, ["5N", "9G", "13R"])  # 3 tiles: the window opens
    assert game.state.announce_window == 0
    assert AnnounceFewTiles(0) in game.legal_steps()
    play(game, announce(0))
    assert game.state.seats[0].announced_few and game.state.announce_window is None
    illegal(game, announce(0), S.ALREADY_ANNOUNCED)
    play(game, "draw; discard")
    assert not game.state.seats[0].missed_announcement


@pytest.mark.rule("ANNOUNCE-02")
@pytest.mark.rule("ANNOUNCE-03")
@pytest.mark.parametrize("name", ["clasic", "rummy45"])
def test_announce02_03_missed_when_the_next_turn_begins(name: str) -> None:
    rules = preset(name)
    game = _open_keeping(rules, ["5N", "9G", "13R"])
    events = play(game, "draw")  # Q's first step closes P's window
    assert AnnouncementMissed(0) in events
    assert game.state.seats[0].missed_announcement and game.state.announce_window is None
    # In his own turn, after his take, he may not announce; a late announcement out
    # of his turn is accepted but does not undo the miss (the -500: ANNOUNCE-03).
    play(game, "discard", "draw")
    illegal(game, announce(0), S.ANNOUNCE_AFTER_DISCARD)
    play(game, "discard", announce(0))
    seat = game.state.seats[0]
    assert seat.announced_few and seat.missed_announcement


@pytest.mark.rule("ANNOUNCE-02")
def test_announce02_an_undo_does_not_reopen_the_window() -> None:
    # P keeps 3 tiles and does not announce; Q takes P's discard 7R to open with
    # 5R 6R 7R + 12G 12A 12N, which closes P's window, then takes the take back.
    opening = "11A 12A 13A 3G 4G 5G 6G 7G 10R 10G 10N"
    game = new_game(
        preset("clasic"),
        players=2,
        racks={0: f"2N {opening} 5N 9G 13R", 1: "5R 6R 12G 12A 12N"},
        stock="2A 7R 4N",
    )
    play(game, "discard 2N", "draw; discard")
    play(game, "draw; meld 11A 12A 13A; meld 3G 4G 5G 6G 7G; meld 10R 10G 10N; discard")
    events = play(game, "take")
    assert AnnouncementMissed(0) in events
    play(game, Undo())
    assert game.state.seats[0].missed_announcement  # Q's turn had begun
    assert game.state.announce_window is None


@pytest.mark.rule("ANNOUNCE-03")
@pytest.mark.parametrize(("name", "penalty"), [("clasic", 500), ("rummy45", 500), ("online", 0)])
def test_announce03_the_penalty_in_the_score(name: str, penalty: int) -> None:
    # P keeps 2 tiles without announcing; the round then ends by the turn cap
    # (END-04), which scores the penalty as any other end would.
    rules = preset(name, max_turns_per_round=5)
    game = _open_keeping(rules, ["5N", "9G"])
    play(game, "draw; discard")  # turn 4: Q; P's window closes
    assert game.state.seats[0].missed_announcement
    play(game, "draw; discard")  # turn 5: the cap
    result = game.result()
    assert result is not None
    p = result.seats[0]
    if penalty:
        assert p.flat_penalty is not None and p.flat_penalty.points == penalty
        assert p.total == -penalty
    else:
        assert p.flat_penalty is None and p.total == p.melded - p.rack


@pytest.mark.rule("ANNOUNCE-04")
def test_announce04_online_announces_automatically() -> None:
    rules = preset("online")
    game = _open_keeping(rules, ["5N", "9G", "13R"], Automation(announcements=True))
    assert game.state.announce_window is None and not game.state.seats[0].announced_few
    game = _open_keeping(rules, ["5N", "9G"], Automation(announcements=True))
    assert game.state.seats[0].announced_few
    play(game, "draw; discard")
    assert not game.state.seats[0].missed_announcement
    # Without the automation nobody is penalised in online either.
    game = _open_keeping(rules, ["5N", "9G"])
    play(game, "draw; discard")
    assert game.state.seats[0].missed_announcement
    assert rules.no_announce_penalty is None


@pytest.mark.rule("ANNOUNCE-04")
def test_announce04_the_automatic_announcement_says_so() -> None:
    game = new_game(
        preset("online"),
        players=2,
        racks={0: "2N 11A 12A 13A 3G 4G 5G 10R 10G 10N 7A 7N 7G 5R 9G"},
        stock="2A 13N",
        automation=Automation(announcements=True),
    )
    play(game, "discard 2N", "draw; discard")
    events = play(game, "draw; meld 11A 12A 13A; meld 3G 4G 5G; meld 10R 10G 10N")
    events += play(game, "meld 7A 7N 7G; discard 13N")
    assert Announced(0, "few_tiles", automatic=True) in events


@pytest.mark.rule("ANNOUNCE-05")
def test_announce05_rummy45_uses_the_clasic_knobs() -> None:
    rummy45, clasic = preset("rummy45"), preset("clasic")
    knobs = ("announce_threshold", "announce_automatic", "no_announce_penalty")
    assert [getattr(rummy45, k) for k in knobs] == [getattr(clasic, k) for k in knobs]
    game = _open_keeping(rummy45, ["5N", "9G", "13R"])
    assert game.state.announce_window == 0


@pytest.mark.rule("ANNOUNCE-06")
@pytest.mark.rule("CLOSE-06")
def test_announce06_the_other_announcements_name_their_seat() -> None:
    # Doubles (during the pre-play), the atu twin and pe tablă are announced by any
    # seat, whoever's turn it is.
    game = new_game(preset("clasic"), players=3, racks={1: "5R 5R", 2: "7N 7N 7G"}, atu="7G")
    steps = game.legal_steps()
    assert AnnounceAtu(2) in steps
    assert {DeclarePeTabla(s) for s in range(3)} <= set(steps)
    assert any(isinstance(s, OfferDoubles) and s.seat in (1, 2) for s in steps)
    play(game, announce_atu(2), declare(1), exchange(1, 2, "5R", "7N"))
    assert game.state.current == 0 and game.state.seats[1].declared_pe_tabla


@pytest.mark.rule("CLOSE-06")
def test_close06_declare_pe_tabla_by_the_end_of_the_first_cycle() -> None:
    game = new_game(preset("clasic"), players=3)
    play(game, "discard", "draw; discard", declare(2), "draw; discard")
    illegal(game, declare(2), S.PE_TABLA_ALREADY_DECLARED)
    play(game, declare(1))  # turn 4 has not begun: still in time
    play(game, "draw")
    illegal(game, declare(0), S.PE_TABLA_TOO_LATE)
    assert [s.declared_pe_tabla for s in game.state.seats] == [False, True, True]


@pytest.mark.rule("CLOSE-07")
@pytest.mark.parametrize("name", ALL)
def test_close07_the_round_ends_at_once(name: str) -> None:
    # P keeps 13R, draws 10A, lays it on his 10R 10G 10N and goes out with 13R.
    rules = preset(name)
    game = _open_keeping(rules, ["13R"], stock="2A 13N 4N 10A")
    play(game, announce(0), "draw; discard", "draw", "lay 10A on 10R 10G 10N")
    last = "close 13R" if rules.closing_tile_mode.value == "keep" else "discard 13R"
    events = play(game, last)
    assert isinstance(events[-1], RoundEnded) and events[-1].closer == 0
    assert not any(isinstance(e, TurnStarted) for e in events)
    state = game.state
    assert state.over and state.pending is None and state.current == 0
    assert game.legal_steps() == ()
    for step in ("draw", "take", announce(1), declare(1), Undo()):
        illegal(game, step, S.ROUND_OVER)


# -- END -------------------------------------------------------------------------------------


def _exhaust(rules: Ruleset) -> Game:
    """Two players.  A (seat 0) opens with 12 tiles and keeps 5N 13N; B (seat 1)
    opens with 11G 12G 13G 1R 2R 3R 10A 10N 10G 10R and keeps 5R 6R 2N 9G.  They draw
    and discard until the stock is empty; A's last discard is 7R (the stock's
    bottom).  B may take it; after B's turn nothing is left to draw."""
    game = new_game(
        rules,
        players=2,
        racks={
            0: "2N 11A 12A 13A 3G 4G 5G 10R 10G 10N 7A 7N 7G 5N 13N",
            1: "11G 12G 13G 1R 2R 3R 10A 10N 10G 10R 5R 6R 2N 9G",
        },
        bottom="7R",
    )
    play(game, "discard 2N", "draw; discard")
    play(game, "draw; meld 11A 12A 13A; meld 3G 4G 5G; meld 10R 10G 10N; meld 7A 7N 7G")
    play(game, "discard", announce(0) if rules.announce_threshold >= 2 else [])
    play(game, "draw; meld 11G 12G 13G; meld 1R 2R 3R; meld 10A 10N 10G 10R; discard")
    assert rack(game, 0) == ["13N", "5N"] and rack(game, 1) == ["2N", "5R", "6R", "9G"]
    while game.state.stock:
        play(game, "draw; discard")
    assert game.state.current == 1 and str(tile_of(game.state.row[-1])) == "7R"
    return game


@pytest.mark.rule("END-01")
@pytest.mark.parametrize("name", ["clasic", "rummy45"])
def test_end01_the_stock_runs_out(name: str) -> None:
    rules = preset(name)
    game = _exhaust(rules)
    assert not game.state.over  # B can still take the 7R
    illegal(game, "draw", S.STOCK_EMPTY)
    events = play(game, "take", "meld 5R 6R 7R", "discard 2N")
    racks = tuple(seat.rack for seat in game.state.seats)
    assert events[-1] == RoundEnded(EndReason.STOCK_EXHAUSTED, racks=racks)
    end = game.state.end
    assert end is not None and end.closer is None
    result = game.result()
    assert result is not None and result.closer is None
    assert all(s.closing_bonus == 0 and s.multiplier == 1 for s in result.seats)


@pytest.mark.rule("END-02")
@pytest.mark.rule("TURN-01")
def test_end02_online_reshuffles_the_row_at_the_next_draw() -> None:
    game = _exhaust(preset("online"))
    row = game.state.row
    dead = row[0]
    assert game.state.row_dead_first
    events = play(game, "draw")
    (shuffled,) = [e for e in events if isinstance(e, StockReshuffled)]
    stock = [i for i in shuffled.stock if i is not None]  # the full event: no id hidden
    assert len(stock) == len(shuffled.stock)
    assert sorted(stock) == sorted(row[:-1])  # the last discard stays
    assert game.state.row == row[-1:] and not game.state.row_dead_first
    assert dead in shuffled.stock  # the dead first discard is an ordinary tile again
    assert game.state.atu not in shuffled.stock
    # The 7R now heads the row and is no longer protected: B breaks the row there.
    play(game, "discard 2N", "draw; discard", "rupere 0", "meld 5R 6R 7R", "discard")
    assert not game.state.over
    assert Game.replay(game.record()).state == game.state  # the shuffle is recorded


@pytest.mark.rule("END-01")
@pytest.mark.rule("END-02")
def test_flip_stock_exhausted() -> None:
    # Four players, hands of 26: the stock holds one tile.  Seat 2, in his first turn,
    # can take nothing from the row.
    sizes = {"hand_sizes": (26, 26)}
    game = new_game(preset("clasic", **sizes), players=4)
    assert len(game.state.stock) == 1
    play(game, "discard", "draw; discard")
    assert game.state.over and game.state.end is not None
    assert game.state.end.reason is EndReason.STOCK_EXHAUSTED
    rules = preset("clasic", stock_exhausted=StockExhausted.RESHUFFLE_DISCARDS, **sizes)
    game = new_game(rules, players=4)
    play(game, "discard", "draw; discard")
    assert not game.state.over
    events = play(game, "draw")
    assert any(isinstance(e, StockReshuffled) for e in events)
    rules = preset("online", stock_exhausted=StockExhausted.END_ROUND, **sizes)
    game = new_game(rules, players=4)
    play(game, "discard", "draw; discard")
    assert game.state.over


@pytest.mark.rule("END-04")
@pytest.mark.parametrize("name", ALL)
def test_flip_max_turns_per_round(name: str) -> None:
    assert preset(name).max_turns_per_round == 400
    game = new_game(preset(name, max_turns_per_round=5), players=3)
    play(game, "discard")
    idle(game, 3)
    assert not game.state.over and game.state.turn == 5
    events = play(game, "draw; discard")
    racks = tuple(seat.rack for seat in game.state.seats)
    assert RoundEnded(EndReason.MAX_TURNS, racks=racks) in events
    assert not any(isinstance(e, TurnStarted) for e in events)
    result = game.result()
    assert result is not None and result.closer is None
    assert result.totals == (-100, -100, -100)  # nobody opened: SCORE-09 as END-01
    illegal(game, "draw", S.ROUND_OVER)


@pytest.mark.rule("DEAL-02")
@pytest.mark.rule("DEAL-04")
@pytest.mark.parametrize(("players", "stock"), [(2, 89), (3, 82), (4, 75)])
def test_flip_hand_sizes(players: int, stock: int) -> None:
    rules = preset("clasic", hand_sizes=(9, 7))
    state = Game.new(rules, players, seed=1, starter=1).state
    assert [len(s.rack) for s in state.seats] == [9 if s == 1 else 7 for s in range(players)]
    assert len(state.stock) == stock
    game = new_game(rules, players=players, racks={0: "1R 2R"})
    assert len(game.state.rack(0)) == 9


@pytest.mark.rule("DEAL-03")
@pytest.mark.rule("ATU-05")
def test_flip_atu_may_be_joker() -> None:
    order = build_deal(players=3, atu="J")

    def chance() -> RandomChance:
        return RandomChance(random.Random(1))

    state, events = deal(preset("clasic"), 3, order, dealer=2, starter=0, chance=chance())
    assert state.atu in JOKER_IDS and not any(isinstance(e, AtuReturned) for e in events)
    online = preset("online")
    assert not online.atu_may_be_joker
    state, events = deal(online, 3, order, dealer=2, starter=0, chance=chance())
    (returned,) = [e for e in events if isinstance(e, AtuReturned)]
    assert returned.joker == order[43] and state.atu == returned.atu not in JOKER_IDS
    assert returned.joker in state.stock and tile_census(state) is None
    flipped = preset("clasic", atu_may_be_joker=False)
    assert Game.new(flipped, 3, deal=order).state.atu not in JOKER_IDS
    assert Game.new(preset("online", atu_may_be_joker=True), 3, deal=order).state.atu in JOKER_IDS


@pytest.mark.rule("ANNOUNCE-01")
def test_flip_announce_threshold() -> None:
    game = _open_keeping(preset("clasic", announce_threshold=2), ["5N", "9G", "13R"])
    assert game.state.announce_window is None
    game = _open_keeping(preset("clasic", announce_threshold=4), ["5N", "9G", "13R", "6R"])
    assert game.state.announce_window == 0


@pytest.mark.rule("ANNOUNCE-04")
def test_flip_announce_automatic() -> None:
    auto = Automation(announcements=True)
    game = _open_keeping(preset("clasic", announce_automatic=True), ["5N", "9G"], auto)
    assert game.state.seats[0].announced_few
    game = _open_keeping(preset("online", announce_automatic=False), ["5N", "9G"], auto)
    assert not game.state.seats[0].announced_few
    play(game, "draw; discard")
    assert game.state.seats[0].missed_announcement


# -- SCORE-10: a match ------------------------------------------------------------------------


@pytest.mark.rule("SCORE-10")
@pytest.mark.rule("DEAL-01")
def test_score10_match_totals_and_the_starter_rotating() -> None:
    rules = preset("clasic", max_turns_per_round=4)
    match = Match(rules, 3, MatchConfig(rounds=3, first_starter=1), seed=2)
    starters = []
    while True:
        game = match.game
        starters.append(game.state.starter)
        with pytest.raises(ValueError):
            match.next_round()  # the round is not over
        play(game, discard())
        while not game.over:
            play(game, "draw; discard")
        if match.over:
            break
        match.next_round()
    assert starters == [1, 2, 0]
    results = [g.result() for g in match.games]
    assert all(r is not None for r in results)
    sums = tuple(sum(r.totals[s] for r in results if r is not None) for s in range(3))
    assert match.totals == sums == (-300, -300, -300)
    assert match.winners == (0, 1, 2)
    with pytest.raises(ValueError):
        match.next_round()  # the match is over
    record = match.record()
    assert len(record.rounds) == 3 and record.config.rounds == 3


# -- odds and ends ----------------------------------------------------------------------------


def test_undo_is_refused_after_a_draw() -> None:
    game = new_game(preset("clasic"), players=2)
    play(game, "discard", "draw")
    illegal(game, Undo(), S.NOTHING_TO_UNDO)
    assert Draw() not in game.legal_steps()
