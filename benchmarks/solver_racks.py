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

# The slowest solver calls of seeded 2- and 3-player rounds of random bots
# (benchmarks/solver_harvest.py, calls over 50 ms: clasic and rummy45 seeds 1-2000
# with 2 players, online 1-1200; with 3 players clasic 1-1000, online and rummy45
# 1-300; online and the 3-player rounds had none but five in clasic).  Every one was
# `_partition.solve(rack, preset, tiles_objective=True,
# constraints=Constraints(min_leftover=1), extra=...)`, the question a rupere check
# (`turn_plans.can_close_with`) or the hint asks: the most tiles placed with one
# kept, with these lay-off values per tile (None: no lay-off).  Each entry:
# (preset, round seed, rack, lay-offs).
REACHABLE: tuple[tuple[str, int, str, dict[str, int] | None], ...] = (
    # clasic 2 players, round 1175: can_close_with, 64 tiles
    (
        "clasic",
        1175,
        "1R 1G 1G 1A 2R 2G 2G 2A 2A 2N 3R 3R 3G 3A 3A 3N 4R 4G 4G 4A 4N 5R 5R 5G 6R 6R 6G "
        "6G 6A 7R 7R 7G 7G 7A 7N 8R 8G 8A 8A 8N 9R 9R 9G 9G 9A 9N 10R 10R 10A 10A 10N 11R "
        "11G 11G 11A 11A 12R 12G 12A 13R 13R 13G 13G J",
        None,
    ),
    # clasic 2 players, round 1378: can_close_with, 48 tiles
    (
        "clasic",
        1378,
        "1R 1G 1G 1N 2R 2G 2A 2N 2N 3N 4R 4N 4N 5R 5R 5G 5A 5A 5N 5N 6R 6G 6A 6A 6N 7R 7G "
        "8R 8G 8A 8A 8N 9R 9A 9N 11G 11N 11N 12R 12G 12A 12N 12N 13R 13G 13A 13N J",
        None,
    ),
    # clasic 2 players, round 1378: can_close_with, 48 tiles
    (
        "clasic",
        1378,
        "1R 1G 1G 1N 2R 2G 2A 2N 2N 3N 4R 4N 4N 5R 5R 5G 5A 5A 5N 5N 6R 6G 6A 6A 6N 7R 7G "
        "8R 8G 8A 8A 8N 9R 9A 9N 11G 11N 11N 12R 12G 12A 12N 12N 13R 13G 13A 13N J",
        {"11G": 1, "13A": 1, "1G": 1, "5A": 1, "5N": 1, "6G": 1, "8A": 1},
    ),
    # clasic 2 players, round 1890: can_close_with, 56 tiles
    (
        "clasic",
        1890,
        "1R 1R 1A 1A 2R 2A 2N 3R 3A 3N 4R 4R 4A 4A 4N 4N 5R 5R 5G 5A 5A 5N 6R 6G 6A 6N 6N "
        "7R 7R 7G 7A 7N 7N 8G 8G 8A 8N 9G 9N 10R 10G 10N 10N 11R 11G 11A 11A 12R 12G 12A "
        "12N 12N 13R 13G 13A 13N",
        None,
    ),
    # clasic 2 players, round 952: can_close_with, 50 tiles
    (
        "clasic",
        952,
        "1G 1N 2R 2G 2A 2A 2N 3R 3R 3G 3A 3N 3N 4G 4A 4N 5R 5G 5G 5A 6R 6R 6A 6N 7R 7G 7A "
        "7N 8A 9R 9R 9G 9A 9A 9N 10R 10R 10N 10N 11R 11G 11A 12R 12R 12A 12N 13G 13A 13N "
        "J",
        None,
    ),
    # clasic 2 players, round 952: can_close_with, 50 tiles
    (
        "clasic",
        952,
        "1G 1N 2R 2G 2A 2A 2N 3R 3R 3G 3A 3N 3N 4G 4A 4N 5R 5G 5G 5A 6R 6R 6A 6N 7R 7G 7A "
        "7N 8A 9R 9R 9G 9A 9A 9N 10R 10R 10N 10N 11R 11G 11A 12R 12R 12A 12N 13G 13A 13N "
        "J",
        {"11A": 1, "11G": 1, "12R": 1, "1G": 1, "4G": 1, "4N": 1, "7G": 1, "9N": 1},
    ),
    # clasic 2 players, round 983: can_close_with, 76 tiles
    (
        "clasic",
        983,
        "1R 1G 1G 1A 1N 2R 2G 2A 2N 3R 3R 3G 3G 3A 3N 4R 4G 4N 4N 5R 5R 5G 5G 5A 5A 5N 6R "
        "6G 6G 6A 6A 6N 6N 7R 7R 7A 7A 7N 8A 8N 8N 9R 9R 9G 9A 9A 9N 10R 10G 10A 10A 10N "
        "10N 11R 11R 11G 11G 11A 11A 11N 11N 12R 12R 12G 12G 12A 12A 12N 13R 13G 13G 13A "
        "13A 13N 13N J",
        None,
    ),
    # clasic 2 players, round 1349: can_close_with, 70 tiles
    (
        "clasic",
        1349,
        "1R 1R 1G 1G 1A 1N 2R 2R 2G 2A 2N 3R 3G 3G 3A 4R 4R 4G 4G 4A 4A 5R 5R 5G 5G 5A 5A "
        "5N 6R 6R 6G 6G 6A 6A 6N 7R 7G 7A 7A 7N 8R 8G 8A 8N 8N 9R 9G 9G 9A 9N 10R 10G 10G "
        "10A 10N 10N 11R 11G 11A 11A 12R 12G 12G 12A 12A 12N 13R 13G 13A J",
        None,
    ),
    # clasic 2 players, round 1913: can_close_with, 55 tiles
    (
        "clasic",
        1913,
        "1R 1R 1G 1A 1N 1N 2R 2A 2A 2N 3R 3N 4R 4A 4N 5A 5N 6R 6G 6A 6N 7R 7R 7G 7A 7N 8R "
        "8G 8G 8A 8A 8N 8N 9R 9G 9G 9N 10R 10G 10A 10N 10N 11G 11N 12R 12R 12G 12N 12N "
        "13R 13R 13G 13G 13N 13N",
        None,
    ),
    # clasic 2 players, round 1932: can_close_with, 68 tiles
    (
        "clasic",
        1932,
        "1R 1G 1A 1N 2R 2R 2A 2N 2N 3R 3R 3G 3A 3A 3N 3N 4R 4R 4G 4A 4A 4N 4N 5R 5G 5A 5N "
        "6R 6G 6A 6A 6N 6N 7R 7G 7A 7N 7N 8R 8R 8A 8A 8N 9R 9R 9A 9N 10R 10A 10N 11R 11G "
        "11A 11N 11N 12R 12R 12G 12G 12A 12N 13R 13R 13G 13A 13N 13N J",
        None,
    ),
    # rummy45 2 players, round 559: search, 61 tiles
    (
        "rummy45",
        559,
        "1R 1G 1A 1A 2R 2R 2G 2G 2A 2A 3R 3G 3G 3A 3A 4R 4R 4G 4G 4A 4A 5R 5R 5G 5A 6R 6R "
        "6G 6A 7G 7G 7A 7N 8R 8G 8G 8A 8N 9R 9G 9A 9N 10R 10R 10G 10G 10A 10A 10N 11G 11A "
        "11A 11N 12R 12R 12G 12A 12A 13G 13A J",
        {
            "10G": 1,
            "10N": 1,
            "11N": 1,
            "13G": 1,
            "1A": 1,
            "1G": 1,
            "2G": 1,
            "3G": 1,
            "4G": 1,
            "5G": 1,
            "6G": 1,
            "6R": 1,
            "7G": 1,
            "7N": 1,
            "8G": 1,
            "8N": 1,
            "9G": 1,
            "9N": 1,
        },
    ),
    # rummy45 2 players, round 559: can_close_with, 66 tiles
    (
        "rummy45",
        559,
        "1R 1G 1A 1A 2R 2R 2G 2G 2A 2A 2N 3R 3G 3G 3A 3A 3N 4R 4R 4G 4G 4A 4A 4N 5R 5R 5G "
        "5A 5N 6R 6R 6G 6A 7G 7G 7A 7N 8R 8G 8G 8A 8N 9R 9G 9A 9N 10R 10R 10G 10G 10A 10A "
        "10N 11G 11A 11A 11N 12R 12R 12G 12G 12A 12A 12N 13G 13A",
        None,
    ),
    # clasic 2 players, round 362: can_close_with, 59 tiles
    (
        "clasic",
        362,
        "1R 1R 1G 1A 1A 1N 1N 2R 2A 2A 2N 2N 3R 3R 3A 3N 3N 4R 4A 4N 5R 5A 5A 5N 6R 6R 6A "
        "7R 7A 7A 7N 8R 8G 8A 8A 8N 9R 9G 9N 10R 10A 10A 10N 10N 11R 11A 11A 12R 12R 12G "
        "12G 12A 12N 13R 13R 13G 13A 13A 13N",
        None,
    ),
    # clasic 2 players, round 764: search, 55 tiles
    (
        "clasic",
        764,
        "1N 1N 2G 2N 2N 3R 3R 3G 3A 3N 3N 4R 4R 4G 4A 4N 5R 5R 5G 5A 5N 5N 6N 8R 8G 8G 8N "
        "8N 9R 9G 9A 9A 9N 9N 10R 10R 10G 10G 10A 11R 11G 11A 12R 12R 12G 12A 12N 12N 13R "
        "13R 13A 13N 13N J J",
        {
            "10A": 1,
            "10G": 1,
            "11A": 1,
            "11G": 1,
            "12G": 1,
            "1N": 1,
            "2G": 1,
            "2N": 1,
            "3G": 1,
            "4G": 1,
            "8G": 1,
            "9A": 1,
            "9G": 1,
        },
    ),
)
"""Racks reachable in play whose solver call was slow (``--families``: ``worst_ms_reachable``)."""
