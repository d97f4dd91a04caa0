"""The search by ranks (partition's second exact search) alone, against the slow
reference: with the fast search switched off, best_melds and best_opening must give
exactly the reference's answers (melds, total, leftover), and partition.solve the
same answer as with the fast search, lay-offs included.  Where the reference is too
slow (the adversarial families of 28-30 tiles, racks of 40-60 tiles) the two searches
are compared with each other: the fast search without a budget is an independent
exact method (a memoised recursion over the hand's own melds, docs/solver.md).  Racks
of 80 tiles and more (the whole set) are answered with valid splits.  The upper bound
that steers the search (remi_rules._bound) is checked to be one.

Small by default (and under ``CI=true``); ``REMI_WIDE=1`` runs the wide version: more
seeded hands, every adversarial family and more large racks."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_solver_exact import (
    EXAMPLES,
    WIDE,
    assert_matches,
    check_solution,
    flipped_cases,
    rules_of,
    seeded_hand,
    seeded_rng,
    small_cases,
)

from remi_rules import (
    FULL_SET,
    Ruleset,
    Tile,
    _by_ranks,
    _rebuild,
    arrange_meld,
    best_melds,
    best_opening,
    parse_tiles,
    variants,
)
from remi_rules import _partition as partition
from remi_rules._bound import make_bound
from remi_rules._by_ranks import Shared

SEEDED_HANDS = 6 if WIDE else 2
"""Seeded hands of 10-13 tiles per preset and ace knob, the search by ranks alone."""
LAY_OFF_HANDS = 20 if WIDE else 8
"""Seeded hands per preset with lay-offs, both searches."""
FAMILY_TOP = 13
"""The adversarial family: runs 1..FAMILY_TOP in two colours and both jokers."""
SHARED_QUESTIONS = 40 if WIDE else 12
"""Questions per preset asked with shared memos of the search by ranks."""
LARGE_RACKS = {40: 4, 50: 4, 60: 2} if WIDE else {40: 2, 50: 1}
"""Seeded uniform racks per size compared between the two searches (the fast search
alone takes seconds on some racks of 60 tiles)."""


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


@given(flipped_cases())
@settings(max_examples=40 if WIDE else 15, deadline=None)
def test_by_ranks_matches_reference_with_the_knobs_flipped(
    case: tuple[list[Tile], Ruleset],
) -> None:
    hand, rules = case
    old = partition.FAST_BUDGET
    partition.FAST_BUDGET = 0
    try:
        assert_matches(hand, rules, min_leftovers=(0, 2))
    finally:
        partition.FAST_BUDGET = old


def _colour_run(colour: str, low: int = 1, high: int = 13) -> str:
    return " ".join(f"{r}{colour}" for r in range(low, high + 1))


FAMILIES = {
    "two_jokers_both_copies": f"{_colour_run('R', 1, 7)} {_colour_run('R', 1, 7)} "
    f"{_colour_run('G', 1, 7)} {_colour_run('G', 1, 7)} J J",
    "dense_block": " ".join(f"{r}{c}" for r in range(3, 10) for c in "RGAN") + " J",
    "high_ace": "1R 1G 1A 1N " + " ".join(f"{r}{c}" for r in range(8, 14) for c in "RGAN") + " J J",
    "two_jokers_runs": f"{_colour_run('R')} {_colour_run('G')} J J",
}
"""benchmarks/bench_solver.py's adversarial families (the last two take the fast search
alone seconds: compared only with REMI_WIDE=1)."""


@pytest.mark.parametrize("name", list(FAMILIES) if WIDE else list(FAMILIES)[:2])
@pytest.mark.parametrize("preset", variants.names())
def test_the_searches_agree_on_the_adversarial_families(name: str, preset: str) -> None:
    rules = variants.get(preset)
    counts = partition.counts_of(parse_tiles(FAMILIES[name]))
    for keep in (0, 2):
        shape = partition.Constraints(min_leftover=keep)
        for tiles in (False, True):
            fast = partition.solve(
                counts, rules, tiles_objective=tiles, constraints=shape, fast_budget=10**9
            )
            slow = partition.solve(
                counts, rules, tiles_objective=tiles, constraints=shape, fast_budget=0
            )
            assert fast == slow, (name, keep, tiles)


@pytest.mark.parametrize("preset", variants.names())
def test_searches_in_turns_resume_exactly(monkeypatch: pytest.MonkeyPatch, preset: str) -> None:
    # Tiny allowances: the fast search and the search by ranks each stop and resume
    # several times (their memos kept); the answer is the reference's on seeded hands,
    # and each search's own on a family of 22 tiles with both jokers.
    monkeypatch.setattr(partition, "FAST_BUDGET", 3)
    monkeypatch.setattr(partition, "RANK_BUDGET", 1)
    rules = variants.get(preset)
    rng = seeded_rng("turns", preset)
    for _ in range(3 if WIDE else 1):
        assert_matches(seeded_hand(rng, 11, preset, band=(3, 5)), rules)
    counts = partition.counts_of(
        parse_tiles(f"{_colour_run('R', 1, 10)} {_colour_run('G', 1, 10)} J J")
    )
    for shape in (partition.Constraints(), partition.Constraints(need=1, min_leftover=2)):
        for tiles in (False, True):
            turns = partition.solve(counts, rules, tiles_objective=tiles, constraints=shape)
            alone = partition.solve(
                counts, rules, tiles_objective=tiles, constraints=shape, fast_budget=0
            )
            assert turns == alone, (shape, tiles)


@pytest.mark.parametrize("preset", variants.names())
def test_shared_memos_give_each_hand_its_own_answer(preset: str) -> None:
    # As the hint asks: parts of one rack (less a meld's worth of tiles, a joker in
    # or out), one after the other with one Shared, the lay-off worths of a few fields
    # changing between questions; each answer is the one without shared memos.
    rules = variants.get(preset)
    rng = random.Random(f"shared:{preset}")
    # (Aces that may end a run at the top: a lay-off worth of theirs counts there too.)
    rack = [*seeded_hand(rng, 18, preset, band=(3, 6)), *parse_tiles("1R 1G 12R 13G J")]
    shared = Shared()
    for _ in range(SHARED_QUESTIONS):
        hand = rng.sample(rack, len(rack) - rng.randint(0, 4))
        counts = partition.counts_of(hand)
        fields = [0, 1, *rng.sample(range(4, partition.REAL_FIELDS), 6)]
        fits = {f: rng.choice((0, 321, 1601)) for f in fields}

        def extra(f: int, fits: dict[int, int] = fits) -> int:
            return fits.get(f, 0)

        shape = partition.Constraints(min_leftover=rng.randint(0, 1))
        tiles = rng.random() < 0.2
        answers = [
            partition.solve(
                counts,
                rules,
                tiles_objective=tiles,
                constraints=shape,
                extra=extra,
                fast_budget=0,
                shared=memos,
            )
            for memos in (None, shared)
        ]
        assert answers[0] == answers[1], (tiles_of(hand), shape, tiles, fits)


@pytest.mark.parametrize(("size", "count"), list(LARGE_RACKS.items()))
def test_the_searches_agree_on_large_racks(size: int, count: int) -> None:
    rules = variants.get("clasic")
    rng = random.Random(f"big:{size}")
    for _ in range(count):
        hand = [FULL_SET[i] for i in rng.sample(range(106), size)]
        counts = partition.counts_of(hand)
        for shape in (partition.Constraints(), partition.Constraints(need=1, min_leftover=2)):
            fast = partition.solve(counts, rules, constraints=shape, fast_budget=10**9)
            slow = partition.solve(counts, rules, constraints=shape, fast_budget=0)
            assert fast == slow, (tiles_of(hand), shape)


@pytest.mark.parametrize("states", [0, 6, 60])
def test_questions_about_melds_at_once_may_be_dropped(
    monkeypatch: pytest.MonkeyPatch, states: int
) -> None:
    # A question about a kind's melds at once (_rebuild.group_question) that expands
    # more than GROUP_STATES states is dropped for the questions about each meld
    # alone, at the first question or anywhere in the bisection: the answer is the one
    # found when none is dropped, lay-offs, constraints and both objectives included.
    dropped = [0]
    plain = _rebuild.group_question

    def counted(*args: int, **kwargs: int) -> bool:
        try:
            return plain(*args, **kwargs)  # type: ignore[arg-type]
        except partition._OverBudget:
            dropped[0] += 1
            raise

    monkeypatch.setattr(_rebuild, "group_question", counted)
    rules = variants.get("clasic")
    rng = random.Random(f"dropped:{states}")
    for text in (
        f"{_colour_run('R', 1, 13)} {_colour_run('G', 1, 13)} J J",
        f"{_colour_run('R', 1, 10)} {_colour_run('R', 3, 12)} {_colour_run('A', 2, 9)} J",
    ):
        counts = partition.counts_of(parse_tiles(text))
        fits = {f for f in range(partition.REAL_FIELDS) if counts[f] and rng.random() < 0.3}

        def extra(f: int, fits: set[int] = fits) -> int:
            return 321 if f in fits else 0

        for shape in (partition.Constraints(), partition.Constraints(need=1, min_leftover=1)):
            for tiles in (False, True):
                answers = []
                for limit in (states, 10**9):
                    monkeypatch.setattr(_by_ranks, "GROUP_STATES", limit)
                    answers.append(
                        partition.solve(
                            counts,
                            rules,
                            tiles_objective=tiles,
                            constraints=shape,
                            extra=extra,
                            fast_budget=0,
                        )
                    )
                assert answers[0] == answers[1], (text, shape, tiles)
    assert dropped[0] > 0 or states == 60


@pytest.mark.parametrize("preset", variants.names())
def test_the_value_alone_is_the_splits_value(preset: str) -> None:
    # partition.solve(melds=False), as can_close_with asks it: the value (or None)
    # of the split with its melds, for both searches' hands (small ones and ones past
    # FAST_MAX_TILES), lay-offs, an opening's points and sets, and both objectives.
    rules = variants.get(preset)
    rng = random.Random(f"value-alone:{preset}")
    shapes = (
        partition.Constraints(min_leftover=1),
        partition.Constraints(need=1, min_leftover=2, min_points=51, max_sets=1),
        partition.Constraints(min_points=200),
    )
    for size in (12, 14, 44):
        hand = [FULL_SET[i] for i in rng.sample(range(106), size)]
        counts = partition.counts_of(hand)
        fits = {f for f in range(partition.REAL_FIELDS) if counts[f] and rng.random() < 0.2}

        def extra(f: int, fits: set[int] = fits) -> int:
            return 1 if f in fits else 0

        for shape in shapes:
            for tiles in (False, True):
                whole = partition.solve(counts, rules, tiles_objective=tiles, constraints=shape)
                alone = partition.solve(
                    counts, rules, tiles_objective=tiles, constraints=shape, melds=False
                )
                assert (whole and whole[0]) == (alone and alone[0]), (tiles_of(hand), shape)
        laid = partition.solve(counts, rules, tiles_objective=True, extra=extra)
        value = partition.solve(counts, rules, tiles_objective=True, extra=extra, melds=False)
        assert laid is not None and value is not None and laid[0] == value[0]


@pytest.mark.parametrize("preset", variants.names())
def test_reaches_is_the_value_compared_with_the_goal(preset: str) -> None:
    # partition.reaches, as can_close_with asks it: one threshold question whose
    # answer is the solved value compared with the goal (None: never reached), on
    # hands each search takes, with lay-offs and an opening's constraints.
    rules = variants.get(preset)
    rng = random.Random(f"reaches:{preset}")
    shapes = (
        partition.Constraints(min_leftover=1),
        partition.Constraints(need=1, min_leftover=2, min_points=51, max_sets=1),
    )
    for size in (14, 44, 56):
        hand = [FULL_SET[i] for i in rng.sample(range(106), size)]
        counts = partition.counts_of(hand)
        fits = {f for f in range(partition.REAL_FIELDS) if counts[f] and rng.random() < 0.2}

        def extra(f: int, fits: set[int] = fits) -> int:
            return 1 if f in fits else 0

        # (Past 50 tiles only the closing question: the others are dear to solve.)
        for shape in shapes if size < 50 else shapes[:1]:
            for tiles in (False, True) if size < 50 else (True,):
                for lay in (None, extra) if tiles else (None,):
                    found = partition.solve(
                        counts,
                        rules,
                        tiles_objective=tiles,
                        constraints=shape,
                        extra=lay,
                        melds=False,
                    )
                    value = -1 if found is None else found[0]
                    for goal in {0, value - 1, value, value + 1}:
                        reached = partition.split_reaching(
                            counts,
                            rules,
                            goal,
                            tiles_objective=tiles,
                            constraints=shape,
                            extra=lay,
                        )
                        why = (tiles_of(hand), shape, tiles, goal)
                        assert (reached is not None) == (value >= 0 and value >= goal), why
                        if reached:  # (its split: valid melds of the hand's tiles)
                            used = Counter(f for fields in reached for f in fields)
                            assert all(used[f] <= counts[f] for f in used), why
                            for fields in reached:
                                tiles_in = map(partition.tile_of_field, fields)
                                assert arrange_meld(tiles_in, rules), why
                            if tiles and lay is None:
                                assert sum(used.values()) >= goal, why


def tiles_of(hand: list[Tile]) -> str:
    return " ".join(str(t) for t in hand)


@pytest.mark.parametrize("size", [80, 104, 106])
@pytest.mark.parametrize("preset", variants.names())
def test_racks_of_80_tiles_and_more_are_answered(size: int, preset: str) -> None:
    """Any rack the game can reach is solved (here: seeded racks of 80 tiles, every
    numbered tile, the whole set); the answer is a valid split of the hand, and the
    opening one that check_opening accepts."""
    rules = variants.get(preset)
    rng = seeded_rng("huge", preset, size)
    hand = (
        list(FULL_SET[:104]) if size == 104 else [FULL_SET[i] for i in rng.sample(range(106), size)]
    )
    sol = best_melds(hand, rules)
    check_solution(sol, hand, rules, "points", 0)
    opening = best_opening(hand, rules, min_leftover=2)
    assert opening is not None
    check_solution(opening, hand, rules, "points", 2)
    assert opening.total <= sol.total


@EXAMPLES
@given(case=small_cases(), keep=st.integers(0, 3), tiles=st.booleans(), lay=st.integers(0, 2**20))
def test_the_bound_is_an_upper_bound(
    case: tuple[list[Tile], Ruleset, str], keep: int, tiles: bool, lay: int
) -> None:
    """At the start of a hand, the bound of remi_rules._bound is at least the best
    split's value, whatever the knobs, lay-offs and tiles to keep."""
    hand, rules, _ = case
    if keep > len(hand):
        return
    counts = partition.counts_of(hand)
    worth = [(1 if tiles else 641) if (lay >> (f % 20)) & 1 else 0 for f in range(52)]
    gain_of = [1 if tiles else 64 * q + 1 for q in range(26)]
    found = partition.solve(
        counts,
        rules,
        tiles_objective=tiles,
        constraints=partition.Constraints(min_leftover=keep),
        extra=lambda f: worth[f],
    )
    assert found is not None
    bound = make_bound(
        counts,
        per=rules.real_tiles_per_joker,
        runs_ok=True,
        high=rules.ace_high_run,
        gain_of=gain_of,
        lay=[worth[f] if counts[f] else 0 for f in range(52)],
    )
    jokers = sum(counts[partition.FREE_JOKER :])
    assert bound(1, 0, ((), (), (), ()), (), jokers, keep, 0) >= found[0]
