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
from remi_rules.rupere import can_close_with


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
@pytest.mark.parametrize(
    "preset",
    [
        "clasic",
        pytest.param(
            "rummy45",
            marks=pytest.mark.xfail(
                strict=True,
                reason="open (issue 12): rummy45 round 1-1 lists a 15-tile rupere "
                "(Rupere(38), a joker among the tiles) after which no turn can end; the "
                "take's checks over-count (END-01 now ends a round where every take is "
                "such)",
            ),
        ),
    ],
)
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
