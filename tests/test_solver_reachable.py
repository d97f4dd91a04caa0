"""The rebuild of the search by ranks asking about a kind of meld at once
(``_rebuild._floor``), and racks that random bots reached in seeded rounds.

The rebuild picks, tile by tile, the first catalogue meld in notation order that
keeps the value optimal; it first asks about all the runs (or sets, or runs ending
with the ace) that could hold the tile at once, and bisects the runs by their second
real tile, so most melds are never asked about alone (docs/solver.md, "The
tie-break").  With those group questions forced everywhere it must still give the
slow reference's answers; on the reachable racks (too big for the reference) it must
give the answer of the meld-by-meld rebuild it replaced, and a valid split.

Small by default; ``REMI_WIDE=1`` adds seeded hands.  The reachable racks (the
largest 64 tiles) take seconds in all, the meld-by-meld rebuild included.

The bounds of each question's own remainder (by default only on hands of more than
``FAST_MAX_TILES`` tiles), the joker units of the bound's colour tables and the
witnesses the rebuild takes its melds from are checked, forced everywhere, against the
reference, and the rebuild is given wrong witnesses on purpose."""

from __future__ import annotations

from typing import Any

import pytest
from test_solver_exact import (
    WIDE,
    assert_matches,
    check_solution,
    rules_of,
    seeded_hand,
    seeded_rng,
)

from remi_rules import _by_ranks as by_ranks_module
from remi_rules import _partition as partition
from remi_rules import _rebuild as rebuild
from remi_rules import best_melds, parse_tiles, variants

GROUP_HANDS = 8 if WIDE else 2
"""Seeded hands of 12-15 tiles per preset and ace knob, group questions forced."""

REACHABLE = {
    # clasic, 2 random bots, round 1378: turn_plans.can_close_with on 48 tiles
    "clasic-1378": (
        "clasic",
        "1R 1G 1G 1N 2R 2G 2A 2N 2N 3N 4R 4N 4N 5R 5R 5G 5A 5A 5N 5N 6R 6G 6A 6A 6N 7R 7G "
        "8R 8G 8A 8A 8N 9R 9A 9N 11G 11N 11N 12R 12G 12A 12N 12N 13R 13G 13A 13N J",
    ),
    # rummy45, 2 random bots, round 559: the hint's search on 61 tiles
    "rummy45-559": (
        "rummy45",
        "1R 1R 1G 1A 1N 2R 2G 2G 2A 2N 3R 3G 3G 3A 3A 4R 4G 4A 4N 5R 5G 5A 5N 6R 6R 6G 6A "
        "6N 7R 7G 7A 7N 8R 8R 8G 8A 8N 9R 9G 9A 9A 9N 10R 10G 10A 10N 10N 11R 11G 11A 11N "
        "12R 12G 12A 12N 12N 13G 13A 13N",
    ),
    # clasic, 2 random bots, round 1175: can_close_with on 64 tiles (once 11-120 s)
    "clasic-1175": (
        "clasic",
        "1R 1G 1G 1A 2R 2G 2G 2A 2A 2N 3R 3R 3G 3A 3A 3N 4R 4G 4G 4A 4N 5R 5R 5G 6R 6R 6G "
        "6G 6A 7R 7R 7G 7G 7A 7N 8R 8G 8A 8A 8N 9R 9R 9G 9G 9A 9N 10R 10R 10A 10A 10N 11R "
        "11G 11G 11A 11A 12R 12G 12A 13R 13R 13G 13G J",
    ),
}
"""Racks of benchmarks/solver_racks.py's REACHABLE family, asked as the game asks."""


@pytest.fixture
def groups_everywhere(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(partition, "FAST_BUDGET", 0)
    monkeypatch.setattr(rebuild, "_GROUP", 1)
    monkeypatch.setattr(rebuild, "_BISECT", 1)


@pytest.mark.parametrize("preset", variants.names())
@pytest.mark.parametrize("high", [True, False])
def test_group_questions_match_the_reference(
    groups_everywhere: None, preset: str, high: bool
) -> None:
    rng = seeded_rng("groups", preset, high)
    rules = rules_of(preset, high)
    for _ in range(GROUP_HANDS):
        hand = seeded_hand(rng, rng.randint(12, 15), preset, band=(4, 7))
        assert_matches(hand, rules, min_leftovers=(0, 1))


def test_group_questions_match_the_reference_on_the_high_ace(groups_everywhere: None) -> None:
    # Both aces of a colour low and high, runs to either end: the runs ending with the
    # ace and their bisection by the second tile.
    clasic = variants.get("clasic")
    for text in (
        "1R 1R 2R 3R 4R 5R 9R 10R 11R 12R 13R J",
        "1R 1G 2R 3R 10R 11R 12R 13R 12G 13G 1A 13A",
        "1R 2R 3R 4R 8R 9R 10R 11R 12R 13R 1G 1A",
    ):
        assert_matches(parse_tiles(text), clasic, min_leftovers=(0, 1))


@pytest.mark.parametrize("name", sorted(REACHABLE))
def test_reachable_racks(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    preset, text = REACHABLE[name]
    rules = variants.get(preset)
    hand = parse_tiles(text)
    counts = partition.counts_of(hand)
    keep = partition.Constraints(min_leftover=1)
    found = partition.solve(counts, rules, tiles_objective=True, constraints=keep)
    assert found is not None
    sol = best_melds(hand, rules, "tiles", min_leftover=1)
    check_solution(sol, hand, rules, "tiles", 1)
    assert sol.total == found[0] == sum(len(m.fields) for m in found[1])
    # The search by ranks alone, with its rebuild by groups and meld by meld (before).
    ask = {"tiles_objective": True, "constraints": keep, "fast_budget": 0}
    assert partition.solve(counts, rules, **ask) == found  # type: ignore[arg-type]
    monkeypatch.setattr(rebuild, "_GROUP", 10**9)
    assert partition.solve(counts, rules, **ask) == found  # type: ignore[arg-type]


@pytest.mark.parametrize("preset", variants.names())
@pytest.mark.parametrize("gain", [1, 2])
def test_tiles_objective_with_lay_offs_both_searches(preset: str, gain: int) -> None:
    # Lay-offs worth one keep the fast search's stop at a remainder placed whole
    # (CAPPED); worth more, they switch it off.  Both searches agree either way.
    rules = variants.get(preset)
    rng = seeded_rng("capped", preset, gain)
    for _ in range(6):
        hand = seeded_hand(rng, rng.randint(10, 16), preset, band=(3, 6))
        counts = partition.counts_of(hand)
        fits = {f for f in range(partition.REAL_FIELDS) if counts[f] and rng.random() < 0.3}

        def extra(f: int, fits: set[int] = fits) -> int:
            return gain if f in fits else 0

        for keep in (0, 1):
            shape = partition.Constraints(min_leftover=keep)
            ask = {"tiles_objective": True, "constraints": shape, "extra": extra}
            fast = partition.solve(counts, rules, **ask)  # type: ignore[arg-type]
            slow = partition.solve(counts, rules, fast_budget=0, **ask)  # type: ignore[arg-type]
            assert fast == slow, hand


OWN_BOUND_HANDS = 6 if WIDE else 2
"""Seeded hands per preset and ace knob for the bounds of each question's own
remainder and the witnesses (forced everywhere)."""


@pytest.fixture
def everything_forced(monkeypatch: pytest.MonkeyPatch) -> None:
    """The search by ranks alone, each question bounded on its own remainder (by
    default only past ``FAST_MAX_TILES`` tiles) and the group questions from one meld
    on: every way the rebuild can skip a question is exercised."""
    monkeypatch.setattr(partition, "FAST_BUDGET", 0)
    monkeypatch.setattr(by_ranks_module, "FAST_MAX_TILES", 0)
    monkeypatch.setattr(rebuild, "_GROUP", 1)
    monkeypatch.setattr(rebuild, "_BISECT", 1)


@pytest.mark.parametrize("preset", variants.names())
@pytest.mark.parametrize("high", [True, False])
def test_own_bounds_and_witnesses_match_the_reference(
    everything_forced: None, preset: str, high: bool
) -> None:
    # Hands from a narrow band (dense, with jokers and both copies): the joker units
    # of the colour tables, a bound per remainder, the rebuild's witnesses.
    rng = seeded_rng("own-bounds", preset, high)
    rules = rules_of(preset, high)
    for _ in range(OWN_BOUND_HANDS):
        hand = seeded_hand(rng, rng.randint(11, 14), preset, band=(3, 5))
        assert_matches(hand, rules, min_leftovers=(0, 1))


@pytest.mark.parametrize(
    "text",
    [
        # two colours (their sets need a joker: one joker unit per tile) and both jokers
        "1R 2R 3R 4R 5R 1G 2G 3G 4G 5G 3R 3G J J",
        "5R 5G 6R 6G 7R 7G 8R 8G 9R 9G J J",
        # the joker shared by colours that each want it (an ace waiting for the top)
        "1G 1G 1A 11G 12G 13G 13G 12A 11R 12R 13R 13R J",
    ],
)
def test_joker_units_match_the_reference(everything_forced: None, text: str) -> None:
    for preset in ("clasic", "online"):
        assert_matches(parse_tiles(text), variants.get(preset), min_leftovers=(0, 1))


def test_a_witness_that_does_not_check_out_is_not_used(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The rebuild takes a witness's meld without asking only where the witness is an
    # optimal split of the remainder that meets the constraints.  Witnesses that are
    # not (a meld short, the first meld of the lowest tile alone or beside the real
    # ones, nothing) leave the answers the reference's.
    monkeypatch.setattr(partition, "FAST_BUDGET", 0)
    real = by_ranks_module.by_ranks
    rng = seeded_rng("bad-witness")

    def lying(*args: Any, **kwargs: Any) -> Any:
        best, at_least, group, witness = real(*args, **kwargs)
        prep = args[1]

        def bad(*question: int) -> list[tuple[int, ...]] | None:
            split = witness(*question)
            choice = rng.randrange(4)
            if not split or choice == 0:
                return None
            if choice == 1:
                return split[1:]
            # The first meld, in notation order, of the remainder's lowest tile.
            x = question[0] & prep.real
            low = ((x & -x).bit_length() - 1) // 3
            first = [tuple(sorted(prep.melds[i].fields)) for _, _, _, i in prep.by_low[low][:1]]
            return first if choice == 2 else [*first, *split]

        return best, at_least, group, bad

    monkeypatch.setattr(by_ranks_module, "by_ranks", lying)
    for preset in variants.names():
        rules = variants.get(preset)
        for _ in range(3):
            hand = seeded_hand(rng, rng.randint(9, 12), preset, band=(3, 6))
            assert_matches(hand, rules, min_leftovers=(0, 1))
