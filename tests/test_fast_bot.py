"""The fast melding bot (``remi_rules.bots.FastBot``): it plays whole rounds of every
preset from its view alone, never sending a step the engine refuses; it opens, takes
the last discard that completes a meld, swaps a joker and closes in the worked
positions; it is reproducible from its seed and plays the same from a view that went
through JSON.

Its speed and the engine's invariants over thousands of rounds are measured by
benchmarks/bench_engine.py; its strength against the other bots by the simulator
(docs/solver.md, "The fast bot").
"""

from __future__ import annotations

import io
import json
import random
from collections import Counter

import pytest
from engine_deals import new_game, play
from engine_positions import (
    P_OPENING_11,
    P_OPENING_12,
    ex15,
    ex20,
    p_with_full_rights,
    preset,
    rack,
)
from hypothesis import given
from hypothesis import strategies as st

from remi_rules import Tile, serde, tile_of, variants
from remi_rules._fast_melds import CODE, candidates
from remi_rules.bots import FastBot, GreedyBot, RandomBot
from remi_rules.cli import main as cli_main
from remi_rules.engine import (
    Bot,
    Close,
    EndReason,
    Game,
    MeldTiles,
    PlayerView,
    Step,
    SwapJoker,
    TakeLastDiscard,
    play_round,
)
from remi_rules.errors import HintError, HintErrorCode
from remi_rules.layouts import meld_layouts
from remi_rules.sim import SimTask, make_bot, run_task

ALL = ("clasic", "online", "rummy45")


def fast_table(seed: int, players: int) -> list[FastBot]:
    return [FastBot(seed=seed * 10 + s) for s in range(players)]


def own_turn(game: Game, bot: FastBot, seat: int = 0) -> list[Step]:
    """Let ``bot`` play seat ``seat``'s turn to its end; the steps it sent."""
    sent: list[Step] = []
    while not game.over and game.state.current == seat:
        step = bot.choose(game.view(seat))
        game.apply(step)
        sent.append(step)
    return sent


def test_the_fast_bot_follows_the_engines_protocol() -> None:
    assert isinstance(FastBot(), Bot)
    assert isinstance(make_bot("fast", 3), FastBot)


@pytest.mark.rule("TURN-02")
@pytest.mark.parametrize("name", ALL)
def test_turn_02_fast_tables_play_whole_rounds_with_no_refused_step(name: str) -> None:
    rules = variants.get(name)
    ends: Counter[EndReason] = Counter()
    for seed in range(9):
        game = Game.new(rules, 2 + seed % 3, seed=seed)
        result = play_round(game, fast_table(seed, game.state.players))  # raises if refused
        assert game.over and len(result.seats) == game.state.players
        assert game.state.end is not None
        ends[game.state.end.reason] += 1
    assert ends[EndReason.CLOSED] >= 7


@pytest.mark.parametrize("name", ALL)
def test_mixed_tables_play_whole_rounds_with_no_refused_step(name: str) -> None:
    # the fast bot meets positions the greedy and the random bots make
    rules = variants.get(name)
    for seed in range(3):
        game = Game.new(rules, 3, seed=40 + seed)
        bots: list[Bot] = [FastBot(seed=seed), GreedyBot(), RandomBot(seed=seed)]
        bots = bots[seed:] + bots[:seed]
        play_round(game, bots)
        assert game.over


@pytest.mark.parametrize("name", ALL)
def test_the_simulator_seats_the_fast_bot(name: str) -> None:
    task = SimTask(variants.get(name), ("fast", "random", "fast", "random"), 0, 6)
    outcomes = run_task(task)
    assert len(outcomes) == 6
    fast = sum(o.totals[0] + o.totals[2] for o in outcomes)
    slow = sum(o.totals[1] + o.totals[3] for o in outcomes)
    assert fast > slow  # the fast pair outscores the random pair on these seeds


@pytest.mark.rule("OPEN-06")
@pytest.mark.rule("RUPE-01")
@pytest.mark.parametrize("name", ALL)
def test_open_06_rupe_01_it_opens_with_the_last_discard_ex15(name: str) -> None:
    # EX-15: P holds 6R 7R and 12G 12A 12N; the last discard is 8R.
    game = ex15(preset(name), "12G 12A 12N")
    sent = own_turn(game, FastBot(seed=1))
    assert isinstance(sent[0], TakeLastDiscard)
    melds = sorted(
        " ".join(str(tile_of(i)) for i in s.tiles) for s in sent if isinstance(s, MeldTiles)
    )
    assert melds == ["12G 12A 12N", "6R 7R 8R"] or melds == ["12A 12G 12N", "6R 7R 8R"]
    assert game.state.seats[0].opened


@pytest.mark.rule("OPEN-06")
@pytest.mark.parametrize("name", ALL)
def test_open_06_it_opens_from_its_own_rack(name: str) -> None:
    # P (seat 0) draws in his second turn holding an opening: he melds it.
    rules = preset(name)
    p_rack = "2N " + " ".join(P_OPENING_12)
    game = new_game(rules, players=2, racks={0: p_rack, 1: ""}, stock="2A 13N 4N 9A")
    play(game, "discard 2N", "draw; discard")
    sent = own_turn(game, FastBot())
    assert sum(isinstance(s, MeldTiles) for s in sent) >= 3
    assert game.state.seats[0].opened


@pytest.mark.rule("RUPE-01")
@pytest.mark.parametrize("name", ALL)
def test_rupe_01_it_takes_the_last_discard_that_completes_a_meld_ex20(name: str) -> None:
    # EX-20: P has full rights and holds 5R 7R 2N; the last discard is 6R.
    game = ex20(preset(name), announced=True)
    sent = own_turn(game, FastBot())
    assert isinstance(sent[0], TakeLastDiscard)
    melded = [s.tiles for s in sent if isinstance(s, MeldTiles)]
    assert [sorted(str(tile_of(i)) for i in m) for m in melded] == [["5R", "6R", "7R"]]


@pytest.mark.rule("JOLY-01")
@pytest.mark.parametrize("name", ALL)
def test_joly_01_it_swaps_a_joker_for_the_tile_it_stands_for(name: str) -> None:
    # Q opened with 6R J 8R (the joker is 7R); P, opened, holds 7R and a pair
    # the joker completes (rummy45 wants the swapped joker in a new meld, JOLY-04).
    rules = preset(name)
    q_melds = ("6R J 8R", "11G 12G 13G", "9R 9A 9N")
    game = p_with_full_rights(
        rules,
        P_OPENING_11,
        "7R 3A 4A",
        q_tiles=" ".join(q_melds),
        q_melds=q_melds,
        stock="5N 13N 4N 9A 12R",  # nothing in the row fits P's rack: he draws 9A
    )
    sent = own_turn(game, FastBot())
    swaps = [s for s in sent if isinstance(s, SwapJoker)]
    assert len(swaps) == 1 and tile_of(swaps[0].tile) == Tile.parse("7R")
    joker = swaps[0].joker
    melded = any(isinstance(s, MeldTiles) and joker in s.tiles for s in sent)
    # online fixes a swapped joker as the tile it stood for (JOLY-05): it stays
    # on the rack; elsewhere it completes 3A 4A at once
    assert melded is (name != "online")


@pytest.mark.rule("CLOSE-01")
@pytest.mark.parametrize("name", ALL)
def test_close_01_it_closes_when_its_rack_melds_but_one_tile(name: str) -> None:
    # P, opened, holds 3R 4R 5R: he draws 9A, melds the run and closes with 9A.
    rules = preset(name)
    game = p_with_full_rights(rules, P_OPENING_11, "3R 4R 5R", stock="2A 13N 4N 9A 12R")
    sent = own_turn(game, FastBot())
    assert isinstance(sent[-1], Close)
    end = game.state.end
    assert end is not None and end.reason is EndReason.CLOSED and end.closer == 0


@pytest.mark.parametrize("name", ALL)
def test_rounds_are_reproducible_from_the_seeds(name: str) -> None:
    rules = variants.get(name)
    records = []
    for _ in range(2):
        game = Game.new(rules, 4, seed=21)
        play_round(game, fast_table(21, 4))
        records.append(game.record())
    assert records[0] == records[1]


@pytest.mark.parametrize("name", ALL)
def test_it_plays_the_same_from_a_view_loaded_from_json(name: str) -> None:
    # One game where every bot gets its view as a remote bot would (dumped, sent as
    # JSON text, loaded with serde.load_view), and one where it gets the view itself.
    rules = variants.get(name)
    played = []
    for through_json in (False, True):
        game = Game.new(rules, 3, seed=7)
        bots = fast_table(7, 3)

        def view(seat: int, game: Game = game, through_json: bool = through_json) -> PlayerView:
            v = game.view(seat)
            if not through_json:
                return v
            text = json.dumps(serde.dump_view(v, with_rules=False))
            loaded = serde.load_view(json.loads(text), rules)
            assert loaded == v
            return loaded

        while not game.over:
            for seat, bot in enumerate(bots):
                extra = None if game.over else bot.react(view(seat))
                if extra is not None:
                    game.apply(extra)
            if not game.over:
                game.apply(bots[game.state.current].choose(view(game.state.current)))
        played.append(game.record().steps)
    assert played[0] == played[1]


def test_choose_refuses_a_view_that_is_not_of_the_seat_to_move() -> None:
    game = Game.new(variants.get("clasic"), 2, seed=4, starter=0)
    bot = FastBot()
    with pytest.raises(HintError) as err:
        bot.choose(game.view(1))
    assert err.value.code is HintErrorCode.NOT_YOUR_TURN
    with pytest.raises(TypeError):
        bot.choose("a view")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        bot.react(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        FastBot(seed="1")  # type: ignore[arg-type]
    play_round(game, [FastBot(seed=1), FastBot(seed=2)])
    assert bot.react(game.view(0)) is None
    with pytest.raises(HintError) as err:
        bot.choose(game.view(0))
    assert err.value.code is HintErrorCode.ROUND_OVER


def test_the_starters_first_turn_is_a_discard() -> None:
    game = Game.new(variants.get("clasic"), 2, seed=4, starter=0)
    sent = own_turn(game, FastBot())
    assert [s.kind for s in sent] == ["discard"]
    assert rack(game, 0)  # he keeps the rest


@given(
    st.lists(st.integers(0, 105), min_size=3, max_size=21, unique=True),
    st.sampled_from(ALL),
)
def test_every_candidate_is_a_valid_meld_of_the_rack(ids: list[int], name: str) -> None:
    # The fast candidates are a part of the meld catalogue (layouts.meld_layouts).
    rules = variants.get(name)
    cnt = [0] * 64
    for i in ids:
        if i < 104:
            cnt[CODE[i]] += 1
    jokers = sum(i >= 104 for i in ids)
    pool = Counter(tile_of(i) for i in ids)
    catalogue = {tuple(sorted(map(str, m))) for m in meld_layouts(pool, rules)}
    for layout, reals, size, njokers, *_ in candidates(cnt, jokers, rules):
        assert len(layout) == size and layout.count(0) == njokers
        assert all(cnt[c] >= k for c, k in Counter(reals).items())
        tiles = [Tile.parse("J") if c == 0 else _tile(c) for c in layout]
        assert tuple(sorted(map(str, tiles))) in catalogue, tiles


def _tile(code: int) -> Tile:
    return next(tile_of(i) for i in range(104) if CODE[i] == code)


def test_candidates_cover_the_racks_melds_without_jokers() -> None:
    # Without jokers the fast candidates are the whole catalogue (every run, every set).
    rules = variants.get("clasic")
    rng = random.Random(5)
    for _ in range(40):
        ids = rng.sample(range(104), 14)
        cnt = [0] * 64
        for i in ids:
            cnt[CODE[i]] += 1
        pool = Counter(tile_of(i) for i in ids)
        catalogue = {tuple(sorted(map(str, m))) for m in meld_layouts(pool, rules)}
        fast = {
            tuple(sorted(str(_tile(c)) for c in layout)) for layout, *_ in candidates(cnt, 0, rules)
        }
        assert fast == catalogue


@pytest.mark.parametrize("lang", ["en", "ro"])
def test_the_command_line_seats_the_fast_bot(lang: str) -> None:
    out = io.StringIO()
    argv = ["demo", "--bots", "fast,random,greedy", "--players", "3", "--seed", "3"]
    assert cli_main([*argv, "--lang", lang], out=out) == 0
    assert "fast" in out.getvalue().splitlines()[1]  # the players' line
    out = io.StringIO()
    argv = ["demo", "--bots", "fast", "--players", "2", "--seed", "3", "--match", "--rounds", "2"]
    assert cli_main([*argv, "--lang", lang], out=out) == 0
    out = io.StringIO()
    argv = ["simulate", "--variant", "clasic", "--rounds", "4", "--jobs", "1"]
    argv += ["--bots", "fast,random", "--format", "json", "--no-progress"]
    assert cli_main([*argv, "--lang", lang], out=out) == 0
    report = json.loads(out.getvalue())
    assert report["bots"] == ["fast", "random"]
    means = report["rulesets"][0]["bots"]
    assert means["fast"]["mean"] > means["random"]["mean"]
