"""Exactness of the solver: ``best_melds`` and ``best_opening`` against the slow
reference of ``reference_solver.py`` (which knows the solver only by its contract).

Compared exactly, for both objectives and for ``min_leftover`` 0, 1 and 2: the melds
(as notation, in the solver's order), the total and the leftover tiles.

* **Small hands** (Hypothesis): every hand of up to 9 tiles, distinct physical ids of
  ``FULL_SET`` (so copies and jokers are physically possible), drawn from the whole
  set or from a narrow band of ranks (dense in melds and ties); every preset, with and
  without ``ace_high_run``; in ``online`` also fixed jokers ``J(=x)`` in place of free
  jokers; and rulesets with the meld and opening knobs flipped.
* **Seeded hands**, per preset, with and without ``ace_high_run``: ``HANDS`` hands of
  14–15 tiles and ``HANDS_21`` of 21 (half of them uniform deals, half from a band of
  ranks; in ``online`` a third of the joker hands with fixed jokers).
* A few uniform deals of 24–27 tiles per preset (``LARGE_HANDS``).

**Small by default, wide by hand.**  By default (and under ``CI=true``) the seeded
groups are small (:data:`SMALL_SIZES`: 100 hands of 14–15 tiles, 15 of 21, 4 large
hands, 30 property hands per preset) and the Hypothesis tests take at most 100
examples (:data:`EXAMPLES`), so this file runs in seconds.  ``REMI_WIDE=1``
runs the wide version (:data:`WIDE_SIZES`: 2,000, 300, 40 and 200, the sizes the
solver was first checked at, and the Hypothesis profile's number of examples; a few
minutes), e.g.
``REMI_WIDE=1 PYTHONPATH=src python -m pytest -q tests/test_solver_exact.py
tests/test_solver_by_ranks.py``.  ``REMI_SOLVER_HANDS`` / ``REMI_SOLVER_HANDS_21`` /
``REMI_SOLVER_LARGE_HANDS`` / ``REMI_SOLVER_PROPERTY_HANDS`` set one group's size
either way, and ``REMI_SOLVER_SEED`` moves the seed, for a wider local search.
* Properties that need no reference (up to 30 tiles): permutation invariance, every
  meld valid and melds + leftover == the hand, openings pass ``check_opening``,
  ``min_leftover`` honoured, the ``Solution`` fields; and every ``InvalidHandError``
  code and the ``TypeError``.
* The reference itself is checked: its meld catalogue against every ordered
  sub-sequence the validator accepts, its splits against brute force, its order on a
  few hand-made ties.
"""

from __future__ import annotations

import itertools
import os
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference_solver import (
    FREE_JOKER,
    Reference,
    RefSolution,
    Splits,
    meld_catalogue,
    meld_key,
    order_index,
)

from remi_rules import (
    FULL_SET,
    JOKER_IDS,
    Color,
    InvalidHandError,
    Objective,
    OpeningComposition,
    Ruleset,
    Solution,
    SolverErrorCode,
    Tile,
    analyze_meld,
    best_melds,
    best_opening,
    check_opening,
    is_valid_meld,
    parse_tiles,
    tiles_str,
    variants,
)

E = SolverErrorCode
PRESETS = variants.names()
OBJECTIVES = ("points", "tiles")
MIN_LEFTOVERS = (0, 1, 2)
COLOURS = (Color.ROSU, Color.GALBEN, Color.ALBASTRU, Color.NEGRU)

WIDE = os.environ.get("REMI_WIDE") == "1"
"""``REMI_WIDE=1``: the wide version of the seeded comparisons (run by hand)."""
SMALL_SIZES = {"hands": 100, "hands_21": 15, "large": 4, "properties": 30}
"""The seeded groups' sizes by default (and under ``CI=true``)."""
WIDE_SIZES = {"hands": 2000, "hands_21": 300, "large": 40, "properties": 200}
"""The seeded groups' sizes with ``REMI_WIDE=1``."""
SIZES = WIDE_SIZES if WIDE else SMALL_SIZES
_PROFILE = settings.default
assert _PROFILE is not None  # the loaded Hypothesis profile
EXAMPLES = settings(max_examples=_PROFILE.max_examples if WIDE else min(100, _PROFILE.max_examples))
"""The Hypothesis tests of this file: at most 100 examples by default, the profile's
number (``ci``: 200; ``HYPOTHESIS_PROFILE=wide``: 20,000) with ``REMI_WIDE=1``."""

HANDS = int(os.environ.get("REMI_SOLVER_HANDS", str(SIZES["hands"])))
"""Seeded hands of 14–15 tiles per preset (and again without the high ace)."""
HANDS_21 = int(os.environ.get("REMI_SOLVER_HANDS_21", str(SIZES["hands_21"])))
"""Seeded hands of 21 tiles per preset (and again without the high ace)."""
SEED = int(os.environ.get("REMI_SOLVER_SEED", "0"))
PROPERTY_HANDS = int(os.environ.get("REMI_SOLVER_PROPERTY_HANDS", str(SIZES["properties"])))
"""Seeded hands per preset for the reference-free properties (3 to 30 tiles)."""


def rules_of(preset: str, ace_high_run: bool = True) -> Ruleset:
    rules = variants.get(preset)
    return rules if ace_high_run else attrs.evolve(rules, ace_high_run=False)


RULESETS = [(p, h) for p in PRESETS for h in (True, False)]
RULESET_IDS = [p if h else f"{p}-no-high-ace" for p, h in RULESETS]


# -- comparing ------------------------------------------------------------------------------


View = tuple[tuple[str, ...], int, tuple[str, ...]] | None


def view(solution: Solution | RefSolution | None) -> View:
    """(melds as notation, total, leftover as notation), or None."""
    if solution is None:
        return None
    return (
        tuple(str(m) for m in solution.melds),
        solution.total,
        tuple(str(t) for t in solution.leftover),
    )


def mismatches(
    hand: Sequence[Tile],
    rules: Ruleset,
    *,
    objectives: Iterable[str] = OBJECTIVES,
    min_leftovers: Iterable[int] = MIN_LEFTOVERS,
    opening: bool = True,
) -> list[str]:
    """Every query where the solver and the reference disagree on ``hand``."""
    ref = Reference(hand, rules)
    out: list[str] = []
    for objective in objectives:
        for k in min_leftovers:
            if k > len(hand):
                continue
            pairs = [
                (
                    "best_melds",
                    view(best_melds(hand, rules, objective, min_leftover=k)),
                    view(ref.best_melds(objective, min_leftover=k)),
                )
            ]
            if opening:
                pairs.append(
                    (
                        "best_opening",
                        view(best_opening(hand, rules, objective, min_leftover=k)),
                        view(ref.best_opening(objective, min_leftover=k)),
                    )
                )
            for name, got, want in pairs:
                if got != want:
                    out.append(
                        f"{name}({tiles_str(hand)!r}, {objective!r}, min_leftover={k}): "
                        f"solver {got} != reference {want}"
                    )
    return out


def assert_matches(hand: Sequence[Tile], rules: Ruleset, **kwargs: Any) -> None:
    problems = mismatches(hand, rules, **kwargs)
    assert not problems, "\n".join(problems)


# -- drawing hands ---------------------------------------------------------------------------


def ids_of_ranks(ranks: Iterable[int]) -> list[int]:
    """The physical ids of every numbered tile of these ranks."""
    wanted = set(ranks)
    return [i for i in range(104) if i // 8 + 1 in wanted]


def nearby(tile: Tile, rng: random.Random) -> Tile:
    """A numbered tile a fixed joker might stand for next to ``tile``: the same rank in
    another colour, or a neighbouring rank of the same colour."""
    assert tile.rank is not None and tile.color is not None
    if rng.random() < 0.4:
        return Tile(tile.rank, rng.choice(COLOURS))
    rank = tile.rank + rng.choice((-2, -1, 1, 2))
    rank = 1 if rank == 14 else rank  # the high ace
    return Tile(min(max(rank, 1), 13), tile.color)


def fix_jokers(hand: list[Tile], rng: random.Random) -> list[Tile]:
    """``hand`` with each free joker made a fixed joker ``J(=x)`` (online's joker
    întors), ``x`` usually near one of the hand's tiles."""
    numbered = [t for t in hand if not t.is_joker]
    out = []
    for t in hand:
        if t.is_joker and (not numbered or rng.random() < 0.25):
            out.append(Tile(fixed_as=FULL_SET[rng.randrange(104)]))
        elif t.is_joker:
            out.append(Tile(fixed_as=nearby(rng.choice(numbered), rng)))
        else:
            out.append(t)
    return out


def seeded_hand(rng: random.Random, size: int, preset: str, *, band: tuple[int, int]) -> list[Tile]:
    """A hand of ``size`` distinct physical tiles: a uniform deal, or (half the time)
    tiles from a band of ``band`` consecutive ranks (plus aces next to a high band) and
    the jokers.  In ``online`` a third of the hands with a joker get fixed jokers."""
    if rng.random() < 0.5:
        pool = list(range(106))
    else:
        width = rng.randint(*band)
        low = rng.randint(1, 14 - width)
        ranks = set(range(low, low + width))
        if low + width > 12 and rng.random() < 0.5:
            ranks.add(1)
        pool = ids_of_ranks(ranks) + list(JOKER_IDS)
    hand = [FULL_SET[i] for i in rng.sample(pool, size)]
    if preset == "online" and any(t.is_joker for t in hand) and rng.random() < 1 / 3:
        hand = fix_jokers(hand, rng)
    return hand


def seeded_rng(*parts: object) -> random.Random:
    return random.Random(f"{SEED}:" + ":".join(map(str, parts)))


@st.composite
def hands(draw: Any, max_size: int = 9, fixed: bool = False) -> list[Tile]:
    """Up to ``max_size`` distinct physical tiles: from the whole set, from a band of a
    few ranks (dense in melds and ties), or from the ranks around the aces; with
    ``fixed``, some jokers become fixed jokers ``J(=x)``."""
    kind = draw(st.sampled_from(["any", "band", "band", "aces"]))
    if kind == "any":
        pool = list(range(106))
    elif kind == "band":
        width = draw(st.integers(1, 5))
        low = draw(st.integers(1, 14 - width))
        colours = draw(st.sets(st.integers(0, 3), min_size=1))
        pool = [i for i in ids_of_ranks(range(low, low + width)) if i % 8 // 2 in colours]
        pool += list(JOKER_IDS)
    else:
        pool = ids_of_ranks((1, 2, 3, 11, 12, 13)) + list(JOKER_IDS)
    ids = draw(st.lists(st.sampled_from(pool), unique=True, max_size=max_size))
    hand = [FULL_SET[i] for i in ids]
    if fixed:
        numbered = [t for t in hand if not t.is_joker] or [FULL_SET[0]]
        for i, t in enumerate(hand):
            if t.is_joker and draw(st.booleans()):
                near = draw(st.sampled_from(numbered))
                assert near.rank is not None
                rank = draw(st.sampled_from([near.rank, near.rank - 1, near.rank + 1]))
                rank = 1 if rank == 14 else min(max(rank, 1), 13)
                colour = draw(st.sampled_from([near.color, *COLOURS]))
                hand[i] = Tile(fixed_as=Tile(rank, colour))
    return hand


@st.composite
def small_cases(draw: Any) -> tuple[list[Tile], Ruleset, str]:
    """(hand of up to 9 tiles, ruleset, ruleset id): a preset with or without the high
    ace; online hands may hold fixed jokers."""
    preset = draw(st.sampled_from(PRESETS))
    high = draw(st.booleans())
    hand = draw(hands(fixed=preset == "online"))
    return hand, rules_of(preset, high), f"{preset} ace_high_run={high}"


# -- the reference itself ------------------------------------------------------------------


def test_reference_tile_order_is_the_contract() -> None:
    # numbered tiles: rank first (the ace first), then R G A N; then J; then J(=x)
    numbered = [Tile(r, c) for r in range(1, 14) for c in COLOURS]
    assert [order_index(t) for t in numbered] == list(range(52))
    assert order_index(Tile.parse("J")) == FREE_JOKER == 52
    assert [order_index(Tile(fixed_as=t)) for t in numbered] == list(range(53, 105))
    assert order_index(Tile.parse("1N")) < order_index(Tile.parse("2R"))
    assert order_index(Tile.parse("13N")) < order_index(Tile.parse("J"))


@EXAMPLES
@given(hand=hands(max_size=6, fixed=True), preset=st.sampled_from(PRESETS), high=st.booleans())
def test_reference_catalogue_is_every_valid_meld_of_the_hand(
    hand: list[Tile], preset: str, high: bool
) -> None:
    """Brute force over every ordered sub-sequence of the hand (fixed jokers in every
    preset, to exercise the catalogue where they are refused too)."""
    rules = rules_of(preset, high)
    by_permutation = {
        analyze_meld(seq, rules).tiles
        for n in range(3, len(hand) + 1)
        for seq in itertools.permutations(hand, n)
        if is_valid_meld(seq, rules)
    }
    catalogue = meld_catalogue(hand, rules)
    assert [m.tiles for m in catalogue] == sorted(
        by_permutation, key=lambda ts: meld_key(analyze_meld(ts, rules))
    )


def brute_force_splits(hand: Sequence[Tile], rules: Ruleset) -> set[tuple[int, ...]]:
    """Every set of catalogue melds (with repeats) whose tiles the hand holds."""
    catalogue = meld_catalogue(hand, rules)
    have = Counter(hand)
    found: set[tuple[int, ...]] = set()
    for n in range(len(hand) // 3 + 1):
        for combo in itertools.combinations_with_replacement(range(len(catalogue)), n):
            need: Counter[Tile] = Counter()
            for k in combo:
                need.update(catalogue[k].tiles)
            if all(have[t] >= c for t, c in need.items()):
                found.add(combo)
    return found


@EXAMPLES
@given(hand=hands(max_size=8, fixed=True), preset=st.sampled_from(PRESETS))
def test_reference_splits_are_every_packing_of_catalogue_melds(
    hand: list[Tile], preset: str
) -> None:
    rules = variants.get(preset)
    assert Splits(hand, rules).all == brute_force_splits(hand, rules)


REFERENCE_EXAMPLES = [
    # (preset, hand, objective, min_leftover, melds, total, leftover)
    ("clasic", "5R 6R 7R 7G 7A J 2N", "points", 0, ["5R 6R 7R", "7G 7A J"], 30, ["2N"]),
    ("clasic", "1R 1G 1A 12R 13R", "points", 0, ["1R 1G 1A"], 75, ["12R", "13R"]),
    # J=9R and J=6R are worth the same: the smaller table order (7R 8R J) wins
    ("clasic", "7R 8R J", "points", 0, ["7R 8R J"], 15, []),
    # J=10R is worth more than J=7R
    ("clasic", "8R 9R J", "points", 0, ["8R 9R J"], 20, []),
    # the high ace: 12R 13R J (J=1R, 30) beats J 12R 13R (J=11R, 30) on table order
    ("clasic", "12R 13R J", "points", 0, ["12R 13R J"], 30, []),
    ("clasic", "12R 13R J", "tiles", 0, ["12R 13R J"], 3, []),
    # two equal splits of 6 tiles: the one holding the smaller meld key wins
    # (4R 5R 6R is a prefix of 4R … 9R, so it is the smaller key: two runs win)
    ("clasic", "4R 5R 6R 7R 8R 9R", "points", 0, ["4R 5R 6R", "7R 8R 9R"], 30, []),
    ("clasic", "4R 5R 6R 7R 8R 9R", "points", 1, ["4R 5R 6R 7R 8R"], 25, ["9R"]),
    ("clasic", "4R 5R 6R 7R 8R 9R", "points", 3, ["4R 5R 6R"], 15, ["7R", "8R", "9R"]),
    # points against tiles
    ("clasic", "1R 1G 1A 2R 3R", "points", 0, ["1R 1G 1A"], 75, ["2R", "3R"]),
    ("clasic", "1R 1G 1A 2R 3R 1N", "tiles", 0, ["1R 2R 3R", "1G 1A 1N"], 6, []),
    ("online", "8R 8R J(=8R) 8G 8A", "points", 0, ["8R 8G 8A"], 15, ["8R", "J(=8R)"]),
    ("online", "7R 9R J(=8R)", "points", 0, ["7R J(=8R) 9R"], 15, []),
    ("online", "7R 9R J(=5G)", "points", 0, [], 0, ["7R", "9R", "J(=5G)"]),
]


@pytest.mark.rule("VALUE-01")
@pytest.mark.parametrize(
    ("preset", "hand", "objective", "k", "melds", "total", "leftover"), REFERENCE_EXAMPLES
)
def test_VALUE_01_reference_and_solver_on_hand_made_hands(
    preset: str,
    hand: str,
    objective: str,
    k: int,
    melds: list[str],
    total: int,
    leftover: list[str],
) -> None:
    rules = variants.get(preset)
    want = (tuple(melds), total, tuple(leftover))
    assert view(Reference(hand, rules).best_melds(objective, min_leftover=k)) == want
    assert view(best_melds(hand, rules, objective, min_leftover=k)) == want


@pytest.mark.rule("MELD-02")
@pytest.mark.parametrize("preset", PRESETS)
def test_MELD_02_without_the_high_ace_the_ace_is_only_low(preset: str) -> None:
    high, low_only = rules_of(preset), rules_of(preset, False)
    cases = [
        # (hand, with the high ace, without it)
        ("12R 13R J", (("12R 13R J",), 30, ()), (("J 12R 13R",), 30, ())),
        ("12R 13R 1R 2R", (("12R 13R 1R",), 30, ("2R",)), ((), 0, ("1R", "2R", "12R", "13R"))),
        ("1R 2R 12R 13R J", (("J 12R 13R 1R",), 40, ("2R",)), (("J 12R 13R",), 30, ("1R", "2R"))),
    ]
    for hand, with_high, without in cases:
        for rules, want in ((high, with_high), (low_only, without)):
            assert view(Reference(hand, rules).best_melds()) == want, hand
            assert view(best_melds(hand, rules)) == want, hand


OPENING_EXAMPLES = [
    # (preset, hand, objective, min_leftover, melds or None, total, leftover)
    # EX-10: without a run the aces go down alone (OPEN-04)
    (
        "clasic",
        "1R 1G 1A 13R 13G 13N 2G",
        "points",
        0,
        ["1R 1G 1A"],
        75,
        ["2G", "13R", "13G", "13N"],
    ),
    # with a run, the other sets may go down too
    (
        "clasic",
        "1R 1G 1A 13R 13G 13N 4R 5R 6R",
        "points",
        0,
        ["1R 1G 1A", "4R 5R 6R", "13R 13G 13N"],
        120,
        [],
    ),
    # EX-06: runs only
    ("clasic", "7R 8R 9R 10G 11G 12G 13G", "points", 0, ["7R 8R 9R", "10G 11G 12G 13G"], 55, []),
    ("online", "7R 8R 9R 10G 11G 12G 13G", "points", 0, None, 0, []),
    # EX-12: below the minimum
    ("clasic", "2R 3R 4R 6G 6A 6N", "points", 0, None, 0, []),
    # EX-09: two aces and a joker
    ("clasic", "1R 1G J 5N", "points", 0, ["1R 1G J"], 75, ["5N"]),
    ("online", "1R 1G J 5N", "points", 0, None, 0, []),
    ("online", "1R 1G J 4A 5A 6A", "points", 0, ["1R 1G J", "4A 5A 6A"], 90, []),
    # min_leftover: keeping a tile back costs the run, and the aces alone still open
    ("clasic", "1R 1G 1A 4R 5R 6R", "points", 0, ["1R 1G 1A", "4R 5R 6R"], 90, []),
    ("clasic", "1R 1G 1A 4R 5R 6R", "points", 1, ["1R 1G 1A"], 75, ["4R", "5R", "6R"]),
    ("rummy45", "1R 1G 1A 4R 5R 6R", "points", 1, None, 0, []),
]


@pytest.mark.rule("OPEN-02")
@pytest.mark.rule("OPEN-03")
@pytest.mark.rule("OPEN-04")
@pytest.mark.parametrize(
    ("preset", "hand", "objective", "k", "melds", "total", "leftover"), OPENING_EXAMPLES
)
def test_OPEN_02_reference_and_solver_on_hand_made_openings(
    preset: str,
    hand: str,
    objective: str,
    k: int,
    melds: list[str] | None,
    total: int,
    leftover: list[str],
) -> None:
    rules = variants.get(preset)
    want = None if melds is None else (tuple(melds), total, tuple(leftover))
    assert view(Reference(hand, rules).best_opening(objective, min_leftover=k)) == want
    assert view(best_opening(hand, rules, objective, min_leftover=k)) == want


# -- (a) every small hand -------------------------------------------------------------------


@pytest.mark.rule("MELD-01")
@pytest.mark.rule("MELD-02")
@pytest.mark.rule("MELD-03")
@pytest.mark.rule("MELD-04")
@pytest.mark.rule("MELD-05")
@pytest.mark.rule("MELD-06")
@pytest.mark.rule("MELD-08")
@pytest.mark.rule("VALUE-01")
@EXAMPLES
@given(case=small_cases())
def test_VALUE_01_best_melds_matches_reference_on_small_hands(
    case: tuple[list[Tile], Ruleset, str],
) -> None:
    hand, rules, rid = case
    problems = mismatches(hand, rules, opening=False)
    assert not problems, rid + "\n" + "\n".join(problems)


@pytest.mark.rule("OPEN-02")
@pytest.mark.rule("OPEN-03")
@pytest.mark.rule("OPEN-04")
@EXAMPLES
@given(case=small_cases())
def test_OPEN_02_best_opening_matches_reference_on_small_hands(
    case: tuple[list[Tile], Ruleset, str],
) -> None:
    hand, rules, rid = case
    ref = Reference(hand, rules)
    for objective in OBJECTIVES:
        for k in MIN_LEFTOVERS:
            if k <= len(hand):
                got = view(best_opening(hand, rules, objective, min_leftover=k))
                want = view(ref.best_opening(objective, min_leftover=k))
                assert got == want, (rid, tiles_str(hand), objective, k)


ACE_POOL = ids_of_ranks((1, 2, 3, 4, 11, 12, 13)) + list(JOKER_IDS)


@pytest.mark.rule("OPEN-04")
@pytest.mark.rule("MELD-08")
@EXAMPLES
@given(
    ids=st.lists(st.sampled_from(ACE_POOL), unique=True, min_size=3, max_size=10),
    blocks=st.booleans(),
    joker_ok=st.booleans(),
    high=st.booleans(),
)
def test_OPEN_04_ace_set_exception_matches_reference(
    ids: list[int], blocks: bool, joker_ok: bool, high: bool
) -> None:
    """Hands around the aces in clasic, with the ace-set knobs flipped both ways."""
    rules = attrs.evolve(
        variants.get("clasic"),
        opening_ace_set_blocks_other_sets=blocks,
        opening_ace_set_joker_ok=joker_ok,
        ace_high_run=high,
    )
    hand = [FULL_SET[i] for i in ids]
    ref = Reference(hand, rules)
    for objective in OBJECTIVES:
        for k in (0, 2):
            if k <= len(hand):
                got = view(best_opening(hand, rules, objective, min_leftover=k))
                assert got == view(ref.best_opening(objective, min_leftover=k)), (
                    tiles_str(hand),
                    objective,
                    k,
                )


@st.composite
def flipped_cases(draw: Any) -> tuple[list[Tile], Ruleset]:
    """A hand of up to 9 tiles (fixed jokers only from online) and its preset with the
    knobs a split depends on set at random."""
    preset = draw(st.sampled_from(PRESETS))
    rules = attrs.evolve(
        variants.get(preset),
        ace_high_run=draw(st.booleans()),
        jokers_may_be_adjacent=draw(st.booleans()),
        real_tiles_per_joker=draw(st.integers(1, 3)),
        opening_min_points=draw(st.sampled_from([0, 15, 30, 45, 60, 100])),
        opening_composition=draw(st.sampled_from(list(OpeningComposition))),
        opening_ace_set_exception=draw(st.booleans()),
        opening_ace_set_blocks_other_sets=draw(st.booleans()),
        opening_ace_set_joker_ok=draw(st.booleans()),
    )
    return draw(hands(fixed=preset == "online")), rules


@pytest.mark.rule("MELD-05")
@pytest.mark.rule("OPEN-02")
@pytest.mark.rule("OPEN-03")
@EXAMPLES
@given(case=flipped_cases())
def test_MELD_05_OPEN_03_flipped_knobs_match_reference(case: tuple[list[Tile], Ruleset]) -> None:
    hand, rules = case
    assert_matches(hand, rules, min_leftovers=(0, 2))


# -- (b), (c) seeded hands ------------------------------------------------------------------


def check_seeded(
    preset: str, high: bool, sizes: tuple[int, int], count: int, band: tuple[int, int]
) -> None:
    """``count`` seeded hands: both objectives, both functions, ``min_leftover`` 0 and
    one of 1, 2 (drawn per hand: every call costs solver time)."""
    rules = rules_of(preset, high)
    rng = seeded_rng(preset, high, sizes, count)
    problems: list[str] = []
    for _ in range(count):
        hand = seeded_hand(rng, rng.randint(*sizes), preset, band=band)
        problems += mismatches(hand, rules, min_leftovers=(0, rng.choice((1, 2))))
    head = f"{preset} ace_high_run={high}: {len(problems)} mismatches in {count} hands\n"
    assert not problems, head + "\n".join(problems[:20])


@pytest.mark.rule("VALUE-01")
@pytest.mark.rule("OPEN-02")
@pytest.mark.rule("OPEN-03")
@pytest.mark.rule("OPEN-04")
@pytest.mark.parametrize(("preset", "high"), RULESETS, ids=RULESET_IDS)
def test_VALUE_01_OPEN_02_seeded_hands_of_14_15_tiles_match_reference(
    preset: str, high: bool
) -> None:
    check_seeded(preset, high, (14, 15), HANDS, band=(4, 8))


@pytest.mark.rule("VALUE-01")
@pytest.mark.rule("OPEN-02")
@pytest.mark.rule("OPEN-03")
@pytest.mark.rule("OPEN-04")
@pytest.mark.parametrize(("preset", "high"), RULESETS, ids=RULESET_IDS)
def test_VALUE_01_OPEN_02_seeded_hands_of_21_tiles_match_reference(preset: str, high: bool) -> None:
    check_seeded(preset, high, (21, 21), HANDS_21, band=(9, 12))


LARGE_HANDS = int(os.environ.get("REMI_SOLVER_LARGE_HANDS", str(SIZES["large"])))
"""Seeded uniform deals of 24–27 tiles per preset (the reference slows down beyond)."""


@pytest.mark.rule("VALUE-01")
@pytest.mark.rule("OPEN-02")
@pytest.mark.parametrize("preset", PRESETS)
def test_VALUE_01_OPEN_02_seeded_large_hands_match_reference(preset: str) -> None:
    rules = variants.get(preset)
    rng = seeded_rng("large", preset)
    problems: list[str] = []
    for _ in range(LARGE_HANDS):
        hand = [FULL_SET[i] for i in rng.sample(range(106), rng.randint(24, 27))]
        if preset == "online" and rng.random() < 0.5:
            hand = fix_jokers(hand, rng)
        problems += mismatches(hand, rules, min_leftovers=(0, 2))
    assert not problems, "\n".join(problems[:20])


# -- properties without the reference (up to 30 tiles) --------------------------------------


def property_hands(preset: str) -> list[list[Tile]]:
    """3 to 30 tiles: uniform deals, or bands of ranks up to 21 tiles (the solver is
    slow on 30 tiles from a narrow band, and the reference is not needed here)."""
    rng = seeded_rng("properties", preset)
    out = []
    for _ in range(PROPERTY_HANDS):
        size = rng.randint(3, 30)
        out.append(seeded_hand(rng, size, preset, band=(6, 13) if size <= 21 else (13, 13)))
    return out


def check_properties(hand: Sequence[Tile], rules: Ruleset, rng: random.Random) -> None:
    """Valid splits, ``min_leftover`` honoured, openings accepted by ``check_opening``,
    and the same answer for a shuffled hand (as Tile values, notation or an iterator)."""
    shuffled = list(hand)
    rng.shuffle(shuffled)
    for objective in OBJECTIVES:
        k = rng.choice((0, 1, 2, rng.randint(0, len(hand))))
        k = min(k, len(hand))
        sol = best_melds(hand, rules, objective, min_leftover=k)
        check_solution(sol, hand, rules, objective, k)
        assert best_melds(tiles_str(shuffled), rules, objective, min_leftover=k) == sol
        opening = best_opening(hand, rules, objective, min_leftover=k)
        assert best_opening(iter(shuffled), rules, objective, min_leftover=k) == opening
        if opening is not None:
            check_solution(opening, hand, rules, objective, k)
            assert check_opening(opening.melds, rules) == opening.points
            # an opening is one of the splits best_melds chose from
            assert (sol.total, -len(sol.leftover)) >= (opening.total, -len(opening.leftover))


def check_solution(
    sol: Solution, hand: Sequence[Tile], rules: Ruleset, objective: str, k: int
) -> None:
    """The structure every Solution must have, whatever the search found."""
    for meld in sol.melds:
        assert is_valid_meld(meld.tiles, rules), str(meld)
        assert analyze_meld(meld.tiles, rules) == meld
    placed = [t for m in sol.melds for t in m.tiles]
    assert Counter(placed) + Counter(sol.leftover) == Counter(hand)
    assert len(sol.leftover) >= k
    assert sol.objective is Objective(objective)
    assert sol.points == sum(m.points for m in sol.melds)
    assert sol.placed == len(placed)
    assert sol.total == (sol.points if objective == "points" else sol.placed)
    keys = [meld_key(m) for m in sol.melds]
    assert keys == sorted(keys)
    order = [order_index(t) for t in sol.leftover]
    assert order == sorted(order)


@pytest.mark.rule("MELD-01")
@pytest.mark.rule("MELD-03")
@pytest.mark.rule("OPEN-02")
@pytest.mark.parametrize("preset", PRESETS)
def test_MELD_01_solutions_are_valid_splits_and_permutation_invariant(preset: str) -> None:
    rng = seeded_rng("shuffle", preset)
    for hand in property_hands(preset):
        for rules in (rules_of(preset), rules_of(preset, False)):
            check_properties(hand, rules, rng)


@pytest.mark.rule("MELD-01")
@pytest.mark.rule("OPEN-02")
@EXAMPLES
@given(case=small_cases(), seed=st.integers(0, 2**32 - 1))
def test_MELD_01_small_solutions_are_valid_splits_and_permutation_invariant(
    case: tuple[list[Tile], Ruleset, str], seed: int
) -> None:
    hand, rules, _ = case
    check_properties(hand, rules, random.Random(seed))


@pytest.mark.parametrize("preset", PRESETS)
def test_min_leftover_of_the_whole_hand_leaves_everything(preset: str) -> None:
    rules = variants.get(preset)
    hand = parse_tiles("5R 6R 7R 7G 7A J 1R 1G 1A 10N 11N 12N")
    for objective in OBJECTIVES:
        sol = best_melds(hand, rules, objective, min_leftover=len(hand))
        assert sol.melds == () and sol.total == 0
        assert [order_index(t) for t in sol.leftover] == sorted(order_index(t) for t in hand)
        assert best_opening(hand, rules, objective, min_leftover=len(hand)) is None
        # one tile fewer still leaves room for nothing but the empty split (3-tile melds)
        assert best_melds(hand, rules, objective, min_leftover=len(hand) - 2).melds == ()
        assert len(best_melds(hand, rules, objective, min_leftover=len(hand) - 3).melds) == 1


def test_objective_accepts_the_enum_and_the_string() -> None:
    rules = variants.get("clasic")
    hand = "1R 1G 1A 2R 3R 1N"
    for objective in Objective:
        assert best_melds(hand, rules, objective) == best_melds(hand, rules, objective.value)
        assert best_opening(hand, rules, objective) == best_opening(hand, rules, objective.value)
    assert best_melds(hand, rules).objective is Objective.POINTS


# -- invalid hands ---------------------------------------------------------------------------


SOLVERS = [best_melds, best_opening]
SOLVER_IDS = ["best_melds", "best_opening"]


def code_of(solver: Any, tiles: Any, objective: Any = "points", **kwargs: Any) -> E | None:
    try:
        solver(tiles, variants.get("clasic"), objective, **kwargs)
    except InvalidHandError as err:
        return err.code
    return None


@pytest.mark.rule("TILES-01")
@pytest.mark.parametrize("solver", SOLVERS, ids=SOLVER_IDS)
def test_hand_of_more_than_106_tiles_is_refused(solver: Any) -> None:
    hand = [*FULL_SET, FULL_SET[0]]
    assert code_of(solver, hand) is E.TOO_MANY_TILES
    assert code_of(solver, tiles_str(hand)) is E.TOO_MANY_TILES
    # Racks past 30 tiles (after a rupere) are solved.
    assert code_of(solver, [FULL_SET[i] for i in random.Random(7).sample(range(106), 31)]) is None


@pytest.mark.rule("TILES-01")
@pytest.mark.parametrize("solver", SOLVERS, ids=SOLVER_IDS)
def test_hand_with_a_third_copy_is_refused(solver: Any) -> None:
    assert code_of(solver, "5R 5R 5R") is E.TOO_MANY_COPIES
    assert code_of(solver, "1N 2N 3N 1N 1N") is E.TOO_MANY_COPIES
    assert code_of(solver, "5R 5R 5G") is None
    # a fixed joker is a joker, not a third copy of its tile
    assert code_of(solver, "8R 8R J(=8R)") is None


@pytest.mark.rule("TILES-01")
@pytest.mark.parametrize("solver", SOLVERS, ids=SOLVER_IDS)
def test_hand_with_more_than_two_jokers_is_refused(solver: Any) -> None:
    for hand in ("J J J", "J J J(=5R)", "J(=5R) J(=6R) J(=7R) 4R", "J J(=1R) J(=1R)"):
        assert code_of(solver, hand) is E.TOO_MANY_JOKERS, hand
    for hand in ("J J 5R", "J J(=5R)", "J(=5R) J(=5R)"):
        assert code_of(solver, hand) is None, hand


@pytest.mark.parametrize("solver", SOLVERS, ids=SOLVER_IDS)
def test_unknown_objective_is_refused(solver: Any) -> None:
    for objective in ("foo", "", "point", 3, None):
        assert code_of(solver, "5R 6R 7R", objective) is E.UNKNOWN_OBJECTIVE, objective


@pytest.mark.rule("TURN-07")
@pytest.mark.parametrize("solver", SOLVERS, ids=SOLVER_IDS)
def test_bad_min_leftover_is_refused(solver: Any) -> None:
    assert code_of(solver, "5R 6R 7R", min_leftover=-1) is E.BAD_MIN_LEFTOVER
    assert code_of(solver, "5R 6R 7R", min_leftover=4) is E.BAD_MIN_LEFTOVER
    assert code_of(solver, "", min_leftover=1) is E.BAD_MIN_LEFTOVER
    assert code_of(solver, "5R 6R 7R", min_leftover=3) is None
    assert code_of(solver, "", min_leftover=0) is None


@pytest.mark.parametrize("solver", SOLVERS, ids=SOLVER_IDS)
def test_non_tile_element_is_a_type_error(solver: Any) -> None:
    rules = variants.get("clasic")
    for hand in ([Tile.parse("5R"), "6R"], [5], [Tile.parse("5R"), None], [(5, "R")]):
        with pytest.raises(TypeError):
            solver(hand, rules)
