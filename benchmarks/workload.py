"""A fixed workload for instruction counts, written against the public API alone so
that it runs on any commit since the structure issue began (``dc2bc61``): compare two
commits with callgrind, which a shared machine does not blur::

    PYTHONPATH=src valgrind --tool=callgrind --callgrind-out-file=engine.out \\
        python benchmarks/workload.py engine
    callgrind_annotate engine.out | grep "PROGRAM TOTALS"

``engine``: 12 seeded 4-seat rounds (clasic, online, rummy45), up to 120 steps each,
a uniform choice among ``legal_steps()`` (sorted by text) and the four seats' views
after each step; ``solver``: ``best_melds`` and ``best_opening`` on 72 seeded racks of
14, 15, 21 and 30 tiles per preset; ``none``: the imports alone (subtract it).
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable

from remi_rules import variants
from remi_rules.engine import Game
from remi_rules.solver import best_melds, best_opening
from remi_rules.tiles import tile_of


def engine() -> int:
    steps = 0
    for preset in ("clasic", "online", "rummy45"):
        rules = variants.get(preset)
        for seed in range(4):
            game = Game.new(rules, 4, seed=seed)
            rng = random.Random(seed)
            for _ in range(120):
                if game.over:
                    break
                legal = sorted(game.legal_steps(), key=str)
                game.apply(rng.choice(legal))
                steps += 1
                for seat in range(4):
                    game.view(seat)
    return steps


def solver() -> int:
    tiles = [tile_of(i) for i in range(106)]
    calls = 0
    for preset in ("clasic", "online", "rummy45"):
        rules = variants.get(preset)
        rng = random.Random(7)
        for size in (14, 15, 21, 30) * 6:
            rack = rng.sample(tiles, size)
            best_melds(rack, rules)
            best_opening(rack, rules)
            calls += 2
    return calls


def _none() -> int:
    return 0


def main(argv: list[str]) -> int:
    jobs: dict[str, Callable[[], int]] = {"engine": engine, "solver": solver, "none": _none}
    if len(argv) != 1 or argv[0] not in jobs:
        print("usage: python benchmarks/workload.py engine|solver|none", file=sys.stderr)
        return 2
    print(argv[0], jobs[argv[0]]())
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
