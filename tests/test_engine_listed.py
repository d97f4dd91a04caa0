"""What a :class:`Game` keeps of the steps it has listed (``engine._listed``): the
lists of a state an undo goes back to, and a listed step applied without its checks.
Neither may change what is listed, what a step does, or what is refused:

* a game that lists its steps before each step (its caches used) and a game that
  never lists them (every step checked in full, no list kept) make the same states,
  events and lists, through undos, the undo cap and its rescue;
* the lists a game gives after an undo are those of the state made afresh;
* the rules read the pending turn's step counter only as zero or not (what lets an
  undo's state reuse the lists of the state it goes back to);
* a step that is not the listed object's class, however it compares, takes the
  checked path; a step equal to a listed one is applied as the engine's own object.
"""

from __future__ import annotations

import itertools
import os
import random
from typing import Any

import attrs
import pytest
from engine_policies import PRESETS, play_states

from remi_rules import serde, variants
from remi_rules.engine import (
    Game,
    GameState,
    LayOff,
    MeldTiles,
    Step,
    Undo,
)
from remi_rules.engine._listed import same_steps
from remi_rules.engine._undo import steps_with_undo
from remi_rules.engine.legal import legal_steps, seat_steps
from remi_rules.engine.state import MAX_UNDOS_PER_TURN
from remi_rules.errors import IllegalStepError

WIDE = os.environ.get("REMI_WIDE") == "1"
ROUNDS = 6 if WIDE else 2
"""Rounds of the uniform random player per preset (each reaches the undo cap)."""


def _fresh(game: Game, seat: int | None, finishable: bool = False) -> tuple[Step, ...]:
    """``game.legal_steps(seat, finishable=...)`` made from the state alone."""
    return steps_with_undo(game.state, game.undo_info(), seat=seat, finishable=finishable)


def _random_round(preset: str, k: int) -> tuple[Game, Game, random.Random]:
    rules = attrs.evolve(variants.get(preset), max_turns_per_round=120)
    seed = f"listed-{preset}-{k}"
    return Game.new(rules, 4, seed=seed), Game.new(rules, 4, seed=seed), random.Random(seed)


@pytest.mark.parametrize("preset", PRESETS)
def test_listing_first_changes_no_state_event_or_list(preset: str) -> None:
    # the uniform random player of benchmarks/bench_protocol.py: it undoes at random,
    # so it reaches the undo cap (past which lists hold only finishable steps)
    past_cap = undos = 0
    for k in range(ROUNDS):
        listing, plain, rng = _random_round(preset, k)
        while not listing.over:
            seat = listing.state.current
            legal = listing.legal_steps(seat)
            assert legal == _fresh(plain, seat)
            step = rng.choice(legal)
            # a copy of the listed step (as a server reads it from JSON) for the plain
            # game, which has listed nothing
            copy = serde.loads_step(serde.dumps_step(step))
            assert listing.apply(step, seat=seat) == plain.apply(copy, seat=seat)
            assert listing.state == plain.state
            assert listing.undo_info() == plain.undo_info()
            past_cap += listing.undo_info().past_cap
            undos += isinstance(step, Undo)
        assert listing.record() == plain.record()
    assert undos > 0 and past_cap > 0


@pytest.mark.parametrize("preset", PRESETS)
def test_the_lists_after_an_undo_are_those_of_the_state(preset: str) -> None:
    checked = 0
    for seed in range(2):
        for at in play_states(preset, 2 + seed % 3, seed):
            game = at.game
            if game.over or not game.record().steps or game.record().steps[-1] != Undo():
                continue
            for seat in (None, *range(game.state.players)):
                assert game.legal_steps(seat) == _fresh(game, seat)
            current = game.state.current
            assert game.legal_steps(current, finishable=True) == _fresh(game, current, True)
            checked += 1
    assert checked > 20


def _recount(state: GameState, steps: int) -> GameState:
    assert state.pending is not None
    return attrs.evolve(state, pending=attrs.evolve(state.pending, steps=steps))


@pytest.mark.parametrize("preset", PRESETS)
def test_the_step_counter_counts_only_as_zero_or_not(preset: str) -> None:
    checked = 0
    for at in play_states(preset, 3, 7):
        state = at.game.state
        if state.pending is None or state.pending.steps == 0:
            continue
        n = state.pending.steps
        for other in (1, n + 1, n + 40):
            moved = _recount(state, other)
            assert same_steps(moved, state)
            assert legal_steps(moved) == legal_steps(state)
            for seat in range(state.players):
                assert seat_steps(moved, seat) == seat_steps(state, seat)
            checked += 1
        assert not same_steps(_recount(state, 0), state)
    assert checked > 100


def _listing(kind: type[Step]) -> tuple[Game, tuple[Step, ...]]:
    """A clasic round of the varied policy (tests/engine_policies.py) up to a state
    that lists a step of ``kind``."""
    for seed in range(20):
        for at in play_states("clasic", 3, seed):
            if any(type(s) is kind for s in at.legal):
                return at.game, at.legal
    raise AssertionError(f"no {kind.__name__} listed")


def test_a_step_equal_to_a_listed_one_is_applied_as_the_listed_object() -> None:
    game, legal = _listing(LayOff)
    listed = next(s for s in legal if isinstance(s, LayOff))
    copy = serde.loads_step(serde.dumps_step(listed))
    assert copy == listed and copy is not listed
    game.apply(copy)
    assert game.record().steps[-1] is listed


class _Forged(MeldTiles):
    """A step that claims to equal anything (a subclass of a listed step class)."""

    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return 0


def test_a_step_of_another_class_that_claims_equality_is_checked() -> None:
    game, legal = _listing(MeldTiles)
    rack = game.state.rack(game.state.current)
    ids = next(c for c in itertools.combinations(rack, 3) if not game.can(MeldTiles(c)))
    forged = _Forged(ids)
    assert forged in legal  # by its own word
    before = game.state
    with pytest.raises(IllegalStepError):
        game.apply(forged)
    assert game.state is before


def test_a_forged_field_applies_only_a_listed_step() -> None:
    # a frozen step's field changed past its validators to a value equal to anything:
    # the engine finds a listed step that compares equal and applies that one
    game, legal = _listing(LayOff)

    class Anything(int):
        def __eq__(self, other: object) -> bool:
            return True

        def __hash__(self) -> int:
            return 0

    first = next(s for s in legal if isinstance(s, LayOff))
    forged: Any = LayOff(first.tile, first.meld, first.end)
    object.__setattr__(forged, "meld", Anything(10**6))
    game.apply(forged)
    applied = game.record().steps[-1]
    assert applied is first
    assert type(applied.meld) is int


def test_past_the_cap_only_the_listed_steps_apply() -> None:
    # the random player of the first test; past the undo cap the lists hold only the
    # finishable steps, and the others are refused
    dropped_seen = 0
    for k in range(ROUNDS):
        game, _, rng = _random_round("clasic", k)
        while not game.over:
            seat = game.state.current
            legal = game.legal_steps(seat)
            if game.undo_info().past_cap:
                assert game.undo_info().undos >= MAX_UNDOS_PER_TURN
                assert legal == _fresh(game, seat)
                dropped = [s for s in seat_steps(game.state, seat) if s not in legal]
                for step in dropped:
                    with pytest.raises(IllegalStepError) as info:
                        game.apply(step, seat=seat)
                    assert info.value.code.value == "undo_limit"
                dropped_seen += len(dropped)
            game.apply(rng.choice(legal), seat=seat)
    assert dropped_seen > 0
