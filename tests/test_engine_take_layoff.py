"""A take from the row under ``take_discard_may_layoff`` (RUPE-01, RUPE-08): the engine
accepts it only where its obligation can be met, so an accepted take always leaves a
turn that can end.

The case: the wide runs' house rules, seed 6691 (tests/reliability_play.py), where an
opened seat could take a rupere whose picked tile made a three-tile meld with the
rupere's own tiles only (``take_meld_min_own_tiles`` 2 counts none of them) and could
be laid off nowhere: the take was accepted, no turn after it could end, and past the
undo cap the seat had no legal step (the round stuck).  The position is the same
seat's rupere at an earlier turn of that round (tests/data/positions).
"""

from __future__ import annotations

import random

import attrs
import pytest
from saved_positions import load_position

from remi_rules import variants
from remi_rules.engine import (
    Discard,
    Draw,
    EndReason,
    Game,
    Phase,
    Rupere,
    TakeLastDiscard,
    transition,
)
from remi_rules.engine._common import layable_ids
from remi_rules.engine._finish_oracle import _NO_CHANCE
from remi_rules.errors import IllegalStepError
from remi_rules.lipire import extends
from remi_rules.melds import arrange_meld
from remi_rules.rupere import can_close_with
from remi_rules.tiles import Tile


@pytest.mark.rule("RUPE-08")
def test_a_take_whose_obligation_cannot_be_met_is_refused() -> None:
    game = load_position("house-layoff-take-dead-end.json")
    state = game.state
    assert state.rules.take_discard_may_layoff and state.seats[state.current].opened
    assert state.rules.take_meld_min_own_tiles == 2
    # 4A (row index 4) would make 2A 3A 4A only of the rupere's tiles, and no meld
    # takes it as a lay-off.
    with pytest.raises(IllegalStepError) as refused:
        game.verify(Rupere(4))
    assert refused.value.code.value == "take_cannot_justify"
    takes = [s for s in game.legal_steps() if isinstance(s, Rupere | TakeLastDiscard)]
    assert takes
    for step in takes:
        assert game.is_finishable(step), step


@pytest.mark.rule("RUPE-08")
@pytest.mark.rule("LIPI-07")
@pytest.mark.parametrize(
    ("position", "index", "picked"),
    [
        # rummy45 (the property below, seed 1-1): 12R makes 11R 12R 13R J with the
        # rupere's 11R and J and one own tile (13R), too few own tiles for the
        # obligation; and 11R J 13R, the meld the other three make, reads its joker
        # as 12R, so 12R is no lay-off on it.
        ("rummy45-layoff-take-joker-holds-the-place.json", 38, "12R"),
        # clasic (seed 4-0): 6N makes 6G 6A 6N J with one own tile (6A); 6G 6A J is a
        # three-tile set whose joker (from the row) is a reused one, which takes no
        # lay-off.
        ("clasic-layoff-take-reused-joker-set.json", 8, "6N"),
    ],
)
def test_a_layoff_take_on_a_new_meld_needs_a_meld_that_takes_it(
    position: str, index: int, picked: str
) -> None:
    # The take used to be listed, and no turn after it could end.
    game = load_position(position)
    state = game.state
    assert str(state.table.tile(state.row[index])) == picked
    with pytest.raises(IllegalStepError) as refused:
        game.verify(Rupere(index))
    assert refused.value.code.value == "take_cannot_justify"
    for step in game.legal_steps():
        if isinstance(step, Rupere | TakeLastDiscard):
            assert game.is_finishable(step), step


def test_a_lay_off_extends_a_meld_as_it_is_read() -> None:
    rules = variants.get("rummy45")
    (run,) = arrange_meld("11R J 13R", rules)
    assert not extends(run, Tile.parse("12R"), rules)  # the joker's place
    assert extends(run, Tile.parse("10R"), rules)
    (four,) = arrange_meld("9G 10G 11G 12G", rules)
    assert extends(four, Tile.parse("13G"), rules) and not extends(four, Tile.parse("13R"), rules)
    assert extends(four, Tile.parse("J"), rules) and not extends(run, Tile.parse("J"), rules)
    (group,) = arrange_meld("5R 5A 5N", rules)
    assert extends(group, Tile.parse("5G"), rules) and not extends(group, Tile.parse("5R"), rules)
    (full,) = arrange_meld("5R 5A 5N 5G", rules)
    assert not extends(full, Tile.parse("J"), rules)


def _takes_are_finishable(rules_name: str, seed: int, rounds: int) -> int:
    """Random rounds under ``rules_name`` with ``take_discard_may_layoff``: at each take
    of an opened seat, every listed row take can lead to the turn's end; the number
    of takes checked."""
    rules = attrs.evolve(variants.get(rules_name), take_discard_may_layoff=True)
    rng = random.Random(f"layoff-takes-{rules_name}-{seed}")
    checked = 0
    for k in range(rounds):
        game = Game.new(rules, 2, seed=f"{seed}-{k}")
        for _ in range(400):
            if game.over:
                break
            state = game.state
            steps = game.legal_steps(state.current)
            if state.phase is Phase.TAKE and state.seats[state.current].opened:
                for step in steps:
                    if isinstance(step, Rupere | TakeLastDiscard):
                        checked += 1
                        assert game.is_finishable(step), (rules_name, seed, k, step)
            # Draw where it can (a short round), else a random step.
            draw = [s for s in steps if isinstance(s, Draw)]
            game.apply(draw[0] if draw and rng.random() < 0.7 else rng.choice(steps))
    return checked


@pytest.mark.rule("RUPE-08")
@pytest.mark.parametrize("preset", ["clasic", "rummy45"])
def test_every_accepted_take_can_end_its_turn(preset: str) -> None:
    assert _takes_are_finishable(preset, 1, 3) > 0


@pytest.mark.rule("END-01")
@pytest.mark.rule("ATU-06")
def test_the_round_ends_when_no_take_can_end_the_turn() -> None:
    # rummy45, seed 9668 of the wide runs: the stock is out, and after this discard
    # the next seat's only take is the atu (4G), which its own check accepts (two 1N
    # counted as lay-offs on one run end) though no close exists; the seat used to
    # take and undo until the undo cap, then had no step.  The round ends instead.
    game = load_position("rummy45-stock-out-atu-take-cannot-close.json")
    assert not game.state.stock
    # Since lay-offs are counted per place, the atu take's own check refuses it too:
    # the table has one place for 1N (layable_ids lists one of the two).
    state = game.state
    seat = (state.current + 1) % len(state.seats)
    rack = state.seats[seat].rack
    layable = layable_ids(state, rack, seat)
    ones = [i for i in rack if str(state.table.tile(i)) == "1N"]
    assert len(ones) == 2 and len(set(ones) & set(layable)) == 1
    assert not can_close_with(state.atu, rack, state.rules, layable=layable)
    assert can_close_with(state.atu, rack, state.rules, layable=[*layable, *ones])
    discard = Discard(42)
    after, _ = transition.apply_step(game.state, discard, _NO_CHANCE)
    assert after.end is not None and after.end.reason is EndReason.STOCK_EXHAUSTED
    game.apply(discard)
    assert game.over and game.state.end is not None
    assert game.state.end.reason is EndReason.STOCK_EXHAUSTED
