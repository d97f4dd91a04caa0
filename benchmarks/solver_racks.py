"""The racks of benchmarks/bench_solver.py: seeded racks from the 106 physical tiles, and
the adversarial families (each a rack in notation) that made the solver slow once."""

from __future__ import annotations

import random
from collections.abc import Sequence

from remi_rules import FULL_SET, Color, Tile

SIZES = (14, 15, 21, 30)
CATEGORIES = ("any", "joker1", "joker2", "none")
JOKER_IDS = (104, 105)
NUMBERED = range(104)
COLORS = tuple(Color)


def draw_racks(size: int, category: str, count: int, seed: int | str) -> list[tuple[int, ...]]:
    """``count`` seeded racks of ``size`` physical tile ids (0-105) of ``category``."""
    rng = random.Random(f"{seed}:{size}:{category}")  # str seeds do not depend on hashing
    out = []
    for _ in range(count):
        if category == "any":
            ids = rng.sample(range(106), size)
        elif category == "joker1":
            ids = [rng.choice(JOKER_IDS), *rng.sample(NUMBERED, size - 1)]
        elif category == "joker2":
            ids = [*JOKER_IDS, *rng.sample(NUMBERED, size - 2)]
        elif category == "none":
            ids = rng.sample(NUMBERED, size)
        else:
            raise ValueError(f"unknown category {category!r}")
        out.append(tuple(sorted(ids)))
    return out


def tiles_of(ids: Sequence[int]) -> tuple[Tile, ...]:
    return tuple(FULL_SET[i] for i in ids)


def pairs_of(ids: Sequence[int]) -> list[list[int]]:
    """A joker-free rack as the peer worker's ``[value, colour]`` pairs."""
    out = []
    for i in ids:
        t = FULL_SET[i]
        assert t.rank is not None and t.color is not None, "the peer racks have no joker"
        out.append([t.rank, t.color.index])
    return out


def _colour_run(colour: str, low: int = 1, high: int = 13) -> str:
    return " ".join(f"{r}{colour}" for r in range(low, high + 1))


FAMILIES: dict[str, str] = {
    # two jokers with long runs in two colours (28 tiles), and in both copies (30)
    "two_jokers_runs": f"{_colour_run('R')} {_colour_run('G')} J J",
    "two_jokers_both_copies": f"{_colour_run('R', 1, 7)} {_colour_run('R', 1, 7)} "
    f"{_colour_run('G', 1, 7)} {_colour_run('G', 1, 7)} J J",
    # the high ace: 1R 1G 1A 1N, ranks 8-13 in four colours, both jokers (30)
    "high_ace": "1R 1G 1A 1N " + " ".join(f"{r}{c}" for r in range(8, 14) for c in "RGAN") + " J J",
    # a dense block: ranks 3-9 in four colours, one joker (29)
    "dense_block": " ".join(f"{r}{c}" for r in range(3, 10) for c in "RGAN") + " J",
    # dense four-colour blocks with both copies and both jokers (30)
    "dense_copies": " ".join(f"{r}{c}" for r in range(5, 9) for c in "RGA" for _ in (0, 1))
    + " "
    + " ".join(f"{r}N" for r in range(5, 9))
    + " J J",
    "dense_block_jokers": " ".join(f"{r}{c}" for r in range(3, 10) for c in "RGAN") + " J J",
}
"""Adversarial racks (``--families``): each solved by best_melds and best_opening."""

DENSE: dict[int, str] = {
    # ranks 1-10 of two colours, both copies (40)
    40: " ".join(f"{r}{c}" for r in range(1, 11) for c in "RG" for _ in (0, 1)),
    # every tile of two colours, both copies, the 1-6 of a third and both jokers (60)
    60: " ".join(f"{r}{c}" for r in range(1, 14) for c in "RG" for _ in (0, 1))
    + " "
    + " ".join(f"{r}A" for r in range(1, 7))
    + " J J",
    # three colours, both copies, both jokers (80)
    80: " ".join(f"{r}{c}" for r in range(1, 14) for c in "RGA" for _ in (0, 1)) + " J J",
}
"""Dense racks of 40, 60 and 80 tiles (``--families``)."""

FAMILY_SIZES = (40, 60, 80)
"""Seeded uniform racks of these sizes (``--families``), ``--family-count`` each."""
