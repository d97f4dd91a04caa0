"""The hint on the large racks of a round whose stock ran out (issue 13: within 2 s
of CPU, benchmarks/bench_hint_racks.py), answers unchanged: every question the hint
answers from its memos, from an answer to the same hand with richer lay-offs, or
with the solver's memos shared across the call (``remi_rules._by_ranks.Shared``) is
the solver's own fresh answer.

The position: tests/data/positions/clasic-stock-out-45-tiles.json, from
``remi-rules simulate --variant clasic --bots random,random`` (seed 123, turn 82:
a 45-tile rack after a rupere, the stock out; every joker swap times every
justifying meld that grows no smaller one is a candidate turn, none of them left out
by a bound since the round may end after the turn).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest
from saved_positions import load_position

from remi_rules import _hint_bound, hint
from remi_rules._hint_turn import Planner
from remi_rules.bots import RandomBot
from remi_rules.engine import Game, Undo
from remi_rules.melds import Meld


def big_rack() -> Game:
    return load_position("clasic-stock-out-45-tiles.json")


def test_the_position_is_a_large_rack_with_the_stock_out() -> None:
    game = big_rack()
    view = game.view(game.state.current)
    assert len(view.rack) == 45 and view.stock_count == 0


@pytest.mark.slow
@pytest.mark.rule("ONLINE-06")
def test_every_answer_of_the_hint_is_the_solvers_own(monkeypatch: pytest.MonkeyPatch) -> None:
    game = big_rack()
    seat = game.state.current
    view = game.view(seat)
    asked: list[tuple[tuple[int, ...], bool, int, Mapping[int, int] | None]] = []
    plain = _hint_bound.Bounds._search

    def checked(
        self: _hint_bound.Bounds,
        counts: list[int],
        *,
        tiles: bool = False,
        min_leftover: int = 0,
        layable: Mapping[int, int] | None = None,
        opening: Sequence[Meld] | None = None,
    ) -> _hint_bound.Split | None:
        found = plain(
            self,
            counts,
            tiles=tiles,
            min_leftover=min_leftover,
            layable=layable,
            opening=opening,
        )
        fresh = _hint_bound.search(
            list(counts),
            view.rules,
            tiles=tiles,
            min_leftover=min_leftover,
            layable=layable,
            opening=opening,
        )
        assert found == fresh, (counts, tiles, min_leftover, layable)
        asked.append((tuple(counts), tiles, min_leftover, layable))
        return found

    monkeypatch.setattr(_hint_bound.Bounds, "_search", checked)
    plan = hint(view, samples=0)
    # Questions about the same hand with other lay-offs were among them (the answers
    # reused from a richer question), and dozens of hands of 36-42 tiles (30 since
    # the justifying melds that only grow a smaller one are not played out).
    hands = {counts for counts, *_ in asked}
    assert len(asked) > len(hands) >= 25
    assert max(sum(counts) for counts in hands) >= 42
    for step in plan.steps:
        game.apply(step)
    assert game.state.current != seat or game.over


@pytest.mark.rule("ATU-06")
@pytest.mark.parametrize(
    ("name", "tiles"),
    [
        # seed 3873, turn 84: the atu taken onto a 55-tile rack
        ("clasic-stock-out-atu-take-56-tiles.json", 56),
        # seed 124, turn 82: a close that needs a joker swapped first (2G for J)
        ("clasic-stock-out-atu-take-swap-52-tiles.json", 52),
    ],
)
def test_an_atu_take_on_a_big_rack_is_met_by_the_close_its_check_proved(
    name: str, tiles: int
) -> None:
    # Random bots with the stock out (`remi-rules simulate --variant clasic --bots
    # random,random`).  The take's own check (can_close_with: each value laid off at
    # most as often as the table has places for it) proved a close; the random bot
    # and the hint used to look for it with every fitting value laid off as often as
    # held, found none, and took the atu back 64 times (the undo cap).
    game = load_position(name)
    state = game.state
    seat = state.current
    assert state.pending is not None and state.pending.obligation is not None
    assert state.pending.obligation.must_close
    assert len(state.seats[seat].rack) == tiles
    view = game.view(seat)
    first = Planner(view, 0).first_turn()
    assert first is not None and first.closes
    best = hint(view, samples=0)
    assert best.closes
    for plan in (first, best):
        replayed = load_position(name)
        for step in plan.steps:
            replayed.apply(step)
        assert replayed.over and replayed.state.end is not None
        assert replayed.state.end.closer == seat
    bot = RandomBot(seed=1)
    steps = []
    while not game.over:
        step = bot.choose(game.view(seat))
        steps.append(step)
        game.apply(step)
    assert not any(isinstance(s, Undo) for s in steps)
    assert game.state.end is not None and game.state.end.closer == seat
