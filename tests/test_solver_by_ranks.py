"""The search by ranks (partition's fallback past FAST_BUDGET) alone, against the slow
reference: with the fast search switched off, best_melds and best_opening must give
exactly the reference's answers (melds, total, leftover), and partition.solve the
same answer as with the fast search, lay-offs included.

Small by default (and under ``CI=true``); ``REMI_WIDE=1`` runs the wide version: more
seeded hands, and the adversarial family at its full size (runs 1-13 in two colours and
both jokers, seconds) instead of runs 1-9."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from test_solver_exact import WIDE, assert_matches, rules_of, seeded_hand, seeded_rng, small_cases

from remi_rules import Ruleset, Tile, best_melds, parse_tiles, variants
from remi_rules import _partition as partition

SEEDED_HANDS = 6 if WIDE else 2
"""Seeded hands of 10-13 tiles per preset and ace knob, the search by ranks alone."""
LAY_OFF_HANDS = 20 if WIDE else 8
"""Seeded hands per preset with lay-offs, both searches."""
FAMILY_TOP = 13 if WIDE else 9
"""The adversarial family: runs 1..FAMILY_TOP in two colours and both jokers."""


@pytest.fixture
def by_ranks_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(partition, "FAST_BUDGET", 0)


@given(small_cases())
@settings(max_examples=60 if WIDE else 25, deadline=None)
def test_by_ranks_matches_reference_on_small_hands(case: tuple[list[Tile], Ruleset, str]) -> None:
    hand, rules, _ = case
    old = partition.FAST_BUDGET
    partition.FAST_BUDGET = 0
    try:
        assert_matches(hand, rules)
    finally:
        partition.FAST_BUDGET = old


@pytest.mark.parametrize("preset", variants.names())
@pytest.mark.parametrize("high", [True, False])
def test_by_ranks_matches_reference_on_seeded_hands(
    by_ranks_only: None, preset: str, high: bool
) -> None:
    rng = seeded_rng("by-ranks", preset, high)
    rules = rules_of(preset, high)
    for _ in range(SEEDED_HANDS):
        hand = seeded_hand(rng, rng.randint(10, 13), preset, band=(3, 6))
        assert_matches(hand, rules, min_leftovers=(0, 1))


@pytest.mark.parametrize("preset", variants.names())
def test_by_ranks_and_fast_search_agree_with_lay_offs(preset: str) -> None:
    rules = variants.get(preset)
    rng = random.Random(f"layoff:{preset}")
    for _ in range(LAY_OFF_HANDS):
        hand = seeded_hand(rng, rng.randint(8, 14), preset, band=(3, 6))
        counts = partition.counts_of(hand)
        fits = {f for f in range(partition.REAL_FIELDS) if counts[f] and rng.random() < 0.3}
        gain = rng.choice((1, 321))

        def extra(f: int, fits: set[int] = fits, gain: int = gain) -> int:
            return gain if f in fits else 0

        for keep in (0, 1):
            shape = partition.Constraints(min_leftover=keep)
            fast = partition.solve(counts, rules, constraints=shape, extra=extra)
            slow = partition.solve(counts, rules, constraints=shape, extra=extra, fast_budget=0)
            assert fast == slow, hand


def test_adversarial_families_are_solved_and_agree() -> None:
    clasic = variants.get("clasic")
    runs = " ".join(f"{r}{c}" for c in "RG" for r in range(1, FAMILY_TOP + 1)) + " J J"
    sol = best_melds(runs, clasic)
    assert sol.placed == 2 * FAMILY_TOP + 2 and not sol.leftover
    counts = partition.counts_of(parse_tiles(runs))
    assert partition.solve(counts, clasic, fast_budget=0) == partition.solve(counts, clasic)
