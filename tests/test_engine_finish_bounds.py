"""The bounds of the finishable search (``engine/_finish_bounds.py``): necessary
conditions for a turn's end, which stop the search at a position without trying its
moves on the table.

* They never stop a turn that can end: wherever a bound fires in a position whose
  turn cannot end at once, a brute force over every continuation agrees that the turn
  cannot end (small positions of random rounds, presets and random house rules).
* The positions that made them (tests/data/positions, from the finishable-only player
  of ``python tests/test_engine_finishable.py``) are judged by a few thousand positions
  at most: rummy45, an atu take that must close (ATU-06) with a 12-tile rack and 18
  melds on the table (``--seed w3 --burn 0.03``, round 9), where one step alone took
  284,604 positions and 100 s of CPU; online, a rupere of 46 tiles for a joker (a
  55-tile rack; round 116 of ``--burn 0.25``), whose 1,601 steps took minutes.  There,
  the melds of the picked joker get the same answer with the bounds as without.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Hashable

import pytest
from saved_positions import load_position
from test_engine_finishable import TooBig, brute_can_end, small_positions

from remi_rules.engine import (
    Game,
    GameState,
    LayOff,
    MeldTiles,
    Phase,
    Step,
    _finish,
    _finish_bounds,
    _finish_oracle,
)
from remi_rules.engine.legal import can_end_turn, legal_steps
from remi_rules.lipire import End
from remi_rules.melds import analyze_meld

WIDE = bool(os.environ.get("REMI_WIDE"))


@pytest.mark.rule("ATU-06")
@pytest.mark.rule("CLOSE-04")
@pytest.mark.rule("CLOSE-06")
@pytest.mark.rule("RUPE-01")
@pytest.mark.rule("RUPE-06")
@pytest.mark.rule("TURN-10")
@pytest.mark.parametrize("seed", range(24) if WIDE else (2, 4))
def test_a_bound_never_stops_a_turn_that_can_end(seed: int) -> None:
    # (seeds 2 and 4 reach pe-tablă declarers' turns, which must close, many times;
    # REMI_WIDE=1 runs 24 seeds of 60 rounds)
    fired: Counter[str] = Counter()
    for game, _ in small_positions(seed, 60 if WIDE else 12):
        state = game.state
        if state.phase is not Phase.ACTION or can_end_turn(state):
            continue
        picked = _finish_bounds.picked_out_of_reach(state)
        stuck = _finish_bounds.too_many_stuck(state)
        if not (picked or stuck):
            continue
        try:
            truth = brute_can_end(state)
        except TooBig:
            fired["too big"] += 1
            continue
        where = f"{state.rules.fingerprint()} turn {state.turn}"
        assert not truth, f"a bound stopped a turn that can end: {where} ({picked}, {stuck})"
        fired["picked"] += picked
        fired["stuck"] += stuck
    assert WIDE or fired["stuck"] >= 20, fired
    assert fired["too big"] <= fired["stuck"] // 10, fired


@pytest.mark.rule("ATU-06")
@pytest.mark.rule("RUPE-06")
def test_an_atu_take_that_must_close_is_judged_by_few_positions() -> None:
    game = load_position("rummy45-atu-close-12-tiles.json")
    state = game.state
    table = state.table
    rack = state.seats[state.current].rack
    assert state.pending is not None and state.pending.obligation is not None
    assert len(rack) == 13 and len(table.melds) == 18
    memo: dict[Hashable, bool] = {}
    legal = game.legal_steps(state.current)
    finishable = _finish.finishable_steps(state, legal, memo)
    assert len(memo) <= 1000, len(memo)
    assert finishable == game.legal_steps(state.current, finishable=True)
    # the atu 4G's meld needs 2G and 3G (its own tiles); 3G laid off on 4G..8G
    # strands it (one joker only is reachable: 7R frees the one of 7G 7N J)
    atu = state.pending.obligation.picked
    assert str(table.tile(atu)) == "4G"
    three = next(i for i in rack if str(table.tile(i)) == "3G")
    run = next(k for k, m in enumerate(table.melds) if str(m.meld) == "4G 5G 6G 7G 8G")
    lay = LayOff(three, run, End.LOW)
    assert game.can(lay) and not game.is_finishable(lay)
    after = _finish_oracle.apply_or_none(state, lay)
    assert after is not None and _finish_bounds.picked_out_of_reach(after)
    assert not _finish_bounds.picked_out_of_reach(state)
    jokers = _finish_bounds.reachable_jokers(state)
    assert len(jokers) == 1


@pytest.mark.rule("RUPE-03")
@pytest.mark.rule("RUPE-06")
@pytest.mark.rule("JOLY-05")
def test_a_rupere_for_a_joker_with_a_big_rack(monkeypatch: pytest.MonkeyPatch) -> None:
    # online: seat 3 broke the row at a joker and took 46 tiles (a 55-tile rack); the
    # joker's meld needs 2 of his 8 own tiles.  A joker swapped back is fixed as the
    # tile it stood for (JOLY-05), so it cannot go into just any meld.
    game = load_position("online-rupere-46-tiles-picked-joker.json")
    state = game.state
    assert state.pending is not None and state.pending.obligation is not None
    picked = state.pending.obligation.picked
    assert len(state.seats[state.current].rack) == 55
    memo: dict[Hashable, bool] = {}
    legal = game.legal_steps(state.current)
    assert len(legal) == 1601
    finishable = _finish.finishable_steps(state, legal, memo)
    assert len(memo) <= 10_000, len(memo)
    melds = [s for s in legal if isinstance(s, MeldTiles) and picked in s.tiles]
    sample = melds[:: 8 if WIDE else 40]
    bounded = [step in finishable for step in sample]
    assert 0 < sum(bounded) < len(sample)
    monkeypatch.setattr(_finish, "out_of_reach", lambda state: False)
    assert bounded == [_finish.finishable_after(state, step, {}) for step in sample]


@pytest.mark.rule("RUPE-01")
@pytest.mark.rule("RUPE-06")
@pytest.mark.rule("JOLY-04")
def test_melds_of_this_turn_are_not_one_pool_for_the_picked_tile() -> None:
    # rummy45, past the undo cap with the stock out: seat 1 broke the row at a joker
    # (48 tiles) and has a 25-tile rack; the joker's meld needs 2 of his own tiles
    # (2G, on the table in this turn's 2G..8G, 7N and 13G).  The one way left: the
    # joker on 2G..8G as 9G, then 10G 11G 12G 13G laid off after it.  Melding
    # 10G 11G 12G apart strands it, but the bound took the turn's melds as one pool of
    # tiles (2G..8G + 10G..12G + 13G: a run), and the search tried every subset of
    # the other lay-offs: 236,476 positions and 40 s for that step.
    game, state = _stock_out("rummy45-rupere-joker-25-tiles.json", rack=25)
    legal, finishable = _judged(state, at_most=2000)
    assert len(legal) == 124 and len(finishable) == 23
    assert finishable == game.legal_steps(state.current)  # past the cap: these alone
    texts = {str(step): step for step in legal}
    assert "meld 10G 11G 12G" in texts and texts["meld 10G 11G 12G"] not in finishable
    assert texts["lay J' on 11 high"] in finishable
    after = _finish_oracle.apply_or_none(state, texts["meld 10G 11G 12G"])
    assert after is not None and _finish_bounds.picked_out_of_reach(after)
    assert not _finish_bounds.picked_out_of_reach(state)


@pytest.mark.rule("RUPE-01")
@pytest.mark.rule("RUPE-06")
def test_a_meld_of_this_turn_counts_only_if_the_picked_tile_fits_it() -> None:
    # rummy45, past the undo cap with the stock out: seat 0 broke the row at 5A (68
    # tiles, a 66-tile rack) and melds 5A' 6A' 7A, the other copy of the picked tile.
    # The picked 5A can no longer join that run (its place is taken), yet the bound
    # counted the run's growth (2A and 8A, own tiles, at its ends), and the search
    # went through the swaps and lay-offs for minutes (found by the wide save-and-load
    # run, rummy45 seed 1164).
    _, state = _stock_out("rummy45-rupere-66-tile-rack.json", rack=66)
    assert state.pending is not None and state.pending.obligation is not None
    picked = state.pending.obligation.picked
    assert str(state.table.tile(picked)) == "5A"
    after = _finish_oracle.apply_or_none(state, texts_of(state)["meld 5A' 6A' 7A"])
    assert after is not None and not _finish_bounds.picked_out_of_reach(after)
    swapped = _finish_oracle.apply_or_none(after, texts_of(after)["swap 4G' on 3 for J'"])
    assert swapped is not None
    laid = _finish_oracle.apply_or_none(swapped, texts_of(swapped)["lay J' on 4 low"])
    # one joker left to reach (8G's), and 5A's run needs two (7A and 10A) to hold 13A
    assert laid is not None and _finish_bounds.picked_out_of_reach(laid)
    legal, finishable = _judged(state, at_most=20_000)
    assert len(legal) == 99 and len(finishable) == 91


@pytest.mark.rule("JOLY-04")
@pytest.mark.rule("RUPE-06")
def test_a_swapped_joker_makes_useful_only_the_lay_offs_that_make_room_for_it() -> None:
    # The same turn, two melds later (11G 12G 13G and 6A' 7A 8A).  After swapping 4G'
    # for a joker, which JOLY-04 wants in a new meld, every lay-off on the turn's melds
    # counted as useful for it, though the joker could already be laid on each: the
    # search tried the green lay-offs in every combination (187,183 positions, 84 s).
    _, state = _stock_out("rummy45-rupere-66-tile-rack-later.json", rack=63)
    assert state.pending is not None and len(state.pending.new_melds) == 2
    swapped = _finish_oracle.apply_or_none(state, texts_of(state)["swap 4G' on 3 for J'"])
    assert swapped is not None
    moves = [str(step) for step in _finish._moves(swapped)]
    assert "lay J' on 3 low" in moves and "lay J' on 4 high" in moves
    assert not [m for m in moves if m.startswith("lay") and "J" not in m and " on 3 " in m]
    legal, finishable = _judged(state, at_most=5_000)
    assert len(legal) == 90 and len(finishable) == 82
    # Four melds later, with both jokers swapped: the turn's 3-tile melds cannot take
    # two jokers (2 real tiles a joker), 4G'..11G can, so only the lay-offs on the
    # former stay (the lay-offs of one joker class counted for both copies).
    _, state = _stock_out("rummy45-rupere-66-tile-rack-four-melds.json", rack=57)
    both = state
    for text in ("meld 11A' 12A 13A'", "swap 4G' on 3 for J'", "swap 8G on 3 for J"):
        after = _finish_oracle.apply_or_none(both, texts_of(both)[text])
        assert after is not None
        both = after
    moves = [str(step) for step in _finish._moves(both)]
    assert not [m for m in moves if m.startswith("lay") and "J" not in m and " on 3 " in m]
    assert "lay 10G on 4 low" in moves
    legal, finishable = _judged(state, at_most=10_000)
    assert len(legal) == 81 and len(finishable) == 68


@pytest.mark.rule("RUPE-01")
@pytest.mark.rule("JOLY-02")
def test_a_joker_place_takes_an_own_tile_only_while_the_joker_may_be_swapped() -> None:
    # clasic, past the undo cap with the stock out: seat 2 broke the row at a joker
    # (42 tiles, a 30-tile rack), melded it in 6R..9R J 11R and swapped the other
    # joker out of a meld; that joker (its one swap used) may be laid off after 11R,
    # as 12R.  Then the picked joker's run needs two own tiles (4R and 12R of his 5)
    # and 12R's place is the joker's for good; but the bound counted any joker's place
    # open to a swap, and the search went through every subset of the lay-offs after
    # a pe-tablă declaration: 471,000 positions and 150 s for that step (found by the
    # wide save-and-load run, clasic seed 6065).
    _, state = _stock_out("clasic-rupere-joker-swapped-once.json", rack=30)
    assert state.rules.take_meld_min_own_tiles == 2 and state.rules.joker_swap_limit == 1
    lay = texts_of(state)["lay J' on 4 high"]
    after = _finish_oracle.apply_or_none(state, lay)
    assert after is not None and _finish_bounds.picked_out_of_reach(after)
    assert not _finish_bounds.picked_out_of_reach(state)
    legal, finishable = _judged(state, at_most=2000)
    assert lay in legal and lay not in finishable
    assert len(legal) == 112 and len(finishable) == 85


@pytest.mark.rule("CLOSE-06")
@pytest.mark.rule("OPEN-02")
def test_a_big_rest_is_asked_whether_it_closes_not_for_its_best_split(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # House rules, past the undo cap with the stock out: a pe-tablă declarer broke the
    # row at 1N (59 tiles, a 74-tile rack) and must close under the opening rules.
    # The oracle asks whether the rest (over FAST_MAX_TILES tiles) can place all but
    # one tile as an opening with the turn's melds, and plays out the split that
    # question proved, instead of the best split (whose tie-break cost about a second
    # a position, minutes a step; wide runs, house seed 10111).  Same verdicts.
    from remi_rules import Meld, variants

    game = load_position("house-pe-tabla-rupere-74-tile-rack.json")
    state = game.state
    assert len(state.seats[state.current].rack) == 74 and _finish_oracle.must_close(state)
    meld = texts_of(state)["meld J' 2R' 3R'"]
    memo: dict[Hashable, bool] = {}
    assert _finish.finishable_after(state, meld, memo, listed=True) and len(memo) <= 2
    monkeypatch.setattr(_finish_oracle, "FAST_MAX_TILES", 200)  # the best split alone
    assert _finish.finishable_after(state, meld, {}, listed=True)
    monkeypatch.undo()
    # _reaching against the solver's value, on seeded big hands, with and without an
    # opening (min_leftover 1)
    import random

    from remi_rules import FULL_SET
    from remi_rules import _partition as partition
    from remi_rules.solver import opening_classes

    rng = random.Random("reaching")
    for preset in variants.names():
        rules = variants.get(preset)
        tiles = [FULL_SET[i] for i in rng.sample(range(106), 44)]
        counts = partition.counts_of(tiles)
        downs: tuple[list[Meld] | None, ...] = (None, [])
        for down in downs:
            plain = (partition.Constraints(),)
            shapes = opening_classes(rules, down) if down is not None else plain
            values = [
                partition.solve(
                    counts,
                    rules,
                    tiles_objective=True,
                    constraints=shape._replace(min_leftover=1),
                    melds=False,
                )
                for shape in shapes
            ]
            most = max((v[0] for v in values if v is not None), default=-1)
            for goal in (most - 1, most, most + 1):
                got = _finish_oracle._reaching(tiles, rules, goal, 1, down)
                assert (got is not None) == (most >= 0 and most >= goal), (preset, goal)
                if got:
                    assert sum(map(len, got)) >= goal
                    assert all(analyze_meld(m, rules) for m in got)


def _stock_out(name: str, *, rack: int) -> tuple[Game, GameState]:
    """A saved position of a take's turn with the stock out, its rack of ``rack``
    tiles."""
    game = load_position(name)
    state = game.state
    assert state.pending is not None and state.pending.obligation is not None
    assert len(state.seats[state.current].rack) == rack and not state.stock
    return game, state


def _judged(state: GameState, *, at_most: int) -> tuple[tuple[Step, ...], tuple[Step, ...]]:
    """The legal steps of ``state`` and its finishable ones, judged by at most
    ``at_most`` positions of the search."""
    memo: dict[Hashable, bool] = {}
    legal = legal_steps(state)
    finishable = _finish.finishable_steps(state, legal, memo)
    assert len(memo) <= at_most, len(memo)
    return legal, finishable


def texts_of(state: GameState) -> dict[str, Step]:
    return {str(step): step for step in legal_steps(state)}


@pytest.mark.rule("JOLY-03")
@pytest.mark.rule("RUPE-06")
def test_a_set_of_this_turn_completed_frees_its_joker_for_the_picked_tile() -> None:
    # rummy45, past the undo cap: the picked 4N's meld needs the joker.  Melding
    # 2R' 2G' J' locks the joker in a 3-tile set; laying 2A on it completes the set,
    # after which 2N' may take the joker's place (set_complete_and_swap_same_turn) and
    # the joker goes into 4N's run.  The search tried that lay-off only on melds of
    # earlier turns, so the meld was judged unfinishable and not listed (found by
    # benchmarks/listed_digest.py).
    game = load_position("rummy45-own-set-joker-unlocked.json")
    state = game.state
    assert game.state.rules.set_complete_and_swap_same_turn
    meld = texts_of(state)["meld 2R' 2G' J'"]
    assert meld in game.legal_steps(state.current)  # past the cap: finishable only
    after = _finish_oracle.apply_or_none(state, meld)
    assert after is not None
    assert "lay 2A on 2 set" in [str(step) for step in _finish._moves(after)]
    assert _finish.finishable_after(state, meld, {})
