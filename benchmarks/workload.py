"""A fixed workload for instruction counts, written against the public API alone so
that it runs on any commit since the structure issue began (``dc2bc61``): compare two
commits with callgrind, which a shared machine does not blur::

    PYTHONPATH=src valgrind --tool=callgrind --callgrind-out-file=engine.out \\
        python benchmarks/workload.py engine
    callgrind_annotate engine.out | grep "PROGRAM TOTALS"

``engine``: 12 seeded 4-seat rounds (clasic, online, rummy45), up to 120 steps each,
a uniform choice among ``legal_steps()`` (sorted by text) and the four seats' views
after each step; ``solver``: ``best_melds`` and ``best_opening`` on 72 seeded racks of
14, 15, 21 and 30 tiles per preset; ``protocol PRESET``: the uniform random player of
benchmarks/bench_protocol.py over ``legal_steps(seat)`` (``apply(step, seat=seat)``,
``max_turns_per_round`` 120) for its first 4 rounds of ``PRESET``, nothing else timed
there (since the ``seat`` arguments, issue 15); ``none``: the imports alone (subtract
it).  Each prints what it counted (steps, calls).
"""

from __future__ import annotations

import functools
import random
import sys
from collections.abc import Callable

import attrs

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


def protocol(preset: str, rounds: int = 4, seed: int = 1) -> int:
    rules = attrs.evolve(variants.get(preset), max_turns_per_round=120)
    steps = 0
    for k in range(rounds):
        game = Game.new(rules, 4, seed=f"{seed}-{preset}-{k}")
        rng = random.Random(f"{seed}-{k}")
        while not game.over:
            seat = game.state.current
            game.apply(rng.choice(game.legal_steps(seat)), seat=seat)
            steps += 1
    return steps


def _none() -> int:
    return 0


def main(argv: list[str]) -> int:
    jobs: dict[str, Callable[[], int]] = {"engine": engine, "solver": solver, "none": _none}
    for preset in ("clasic", "online", "rummy45"):
        jobs[f"protocol {preset}"] = functools.partial(protocol, preset)
    job = " ".join(argv)
    if job not in jobs:
        print(
            "usage: python benchmarks/workload.py engine|solver|none|protocol PRESET",
            file=sys.stderr,
        )
        return 2
    print(job, jobs[job]())
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
