"""Benchmark of the meld validator: ``analyze_meld`` on many distinct sequences.

Usage::

    python benchmarks/bench_melds.py [--count 100000] [--seed 1] [--preset clasic]

Builds ``--count`` distinct tile sequences (3–13 tiles, 0–2 jokers): valid ones,
up to half (but there are only about 10,000 distinct valid sequences with at most
two free jokers, all of which are used), and invalid near-misses of valid melds
for the rest; analyses each exactly once, and times
every call with ``time.perf_counter_ns``.  The harness's own cost (the same loop
around a trivial call) is reported as ``harness_ns`` and *not* subtracted.  The last
line printed is one JSON object.  No caching on the input is involved: each
sequence is seen once.  Target (issue 2): median 2 µs or less on CPython 3.11.
"""

from __future__ import annotations

import argparse
import gc
import itertools
import json
import platform
import random
import statistics
import sys
import time

from remi_rules import JOKER, Color, InvalidMeldError, Tile, analyze_meld, is_valid_meld, variants
from remi_rules.ruleset import Ruleset

COLORS = tuple(Color)


def all_valid_sequences(rules: Ruleset) -> list[tuple[Tile, ...]]:
    """Every valid meld sequence with 0-2 free jokers, enumerated exhaustively."""
    bases: list[list[Tile]] = []
    for colour in COLORS:
        for length in range(3, 14):
            for low in range(1, 16 - length):
                bases.append([Tile(1 if r == 14 else r, colour) for r in range(low, low + length)])
    for rank in range(1, 14):
        for size in (3, 4):
            for colours in itertools.permutations(COLORS, size):
                bases.append([Tile(rank, c) for c in colours])
    found: dict[tuple[Tile, ...], None] = {}
    for base in bases:
        for jokers in (0, 1, 2):
            for spots in itertools.combinations(range(len(base)), jokers):
                seq = tuple(JOKER if i in spots else t for i, t in enumerate(base))
                if is_valid_meld(seq, rules):
                    found[seq] = None
    return list(found)


def _mutate(tiles: list[Tile], rng: random.Random) -> list[Tile]:
    tiles = list(tiles)
    kind = rng.randrange(5)
    if kind == 0 and len(tiles) > 1:
        i, j = rng.sample(range(len(tiles)), 2)
        tiles[i], tiles[j] = tiles[j], tiles[i]
    elif kind == 1:
        tiles[rng.randrange(len(tiles))] = Tile(rng.randint(1, 13), rng.choice(COLORS))
    elif kind == 2 and len(tiles) < 13:
        tiles.insert(rng.randrange(len(tiles) + 1), Tile(rng.randint(1, 13), rng.choice(COLORS)))
    elif kind == 3 and len(tiles) > 3:
        del tiles[rng.randrange(len(tiles))]
    else:
        tiles[rng.randrange(len(tiles))] = JOKER
    return tiles


def build_inputs(count: int, seed: int, rules: Ruleset) -> list[tuple[Tile, ...]]:
    """``count`` distinct sequences: valid ones (up to half; every valid sequence
    there is, if fewer exist) and invalid near-misses of valid melds."""
    rng = random.Random(seed)
    every_valid = all_valid_sequences(rules)
    rng.shuffle(every_valid)
    valid = every_valid[: count // 2]
    invalid: dict[tuple[Tile, ...], None] = {}
    while len(invalid) < count - len(valid):
        seq = _mutate(list(rng.choice(every_valid)), rng)
        if rng.random() < 0.3:
            seq = _mutate(seq, rng)
        key = tuple(seq)
        if 3 <= len(key) <= 13 and key.count(JOKER) <= 2 and not is_valid_meld(key, rules):
            invalid[key] = None
    items = [*valid, *invalid]
    rng.shuffle(items)
    return items


def run(count: int, seed: int, preset: str) -> dict[str, object]:
    rules = variants.get(preset)
    inputs = build_inputs(count, seed, rules)
    timer = time.perf_counter_ns
    times: list[int] = []
    append = times.append
    gc.disable()
    try:
        empty = []  # the harness alone: the same loop around a trivial call
        for seq in inputs[:20_000]:
            t0 = timer()
            try:  # noqa: SIM105 - the same shape as the timed loop below
                len(seq)
            except InvalidMeldError:
                pass
            t1 = timer()
            empty.append(t1 - t0)
        for seq in inputs:
            t0 = timer()
            try:  # noqa: SIM105 - contextlib.suppress would add to the timing
                analyze_meld(seq, rules)
            except InvalidMeldError:
                pass
            t1 = timer()
            append(t1 - t0)
    finally:
        gc.enable()
    valid_times = sorted(t for t, s in zip(times, inputs, strict=True) if is_valid_meld(s, rules))
    invalid_times = sorted(
        t for t, s in zip(times, inputs, strict=True) if not is_valid_meld(s, rules)
    )
    times.sort()
    n = len(times)
    return {
        "preset": preset,
        "distinct_inputs": len(set(inputs)),
        "valid_inputs": sum(is_valid_meld(s, rules) for s in inputs),
        "analyze_meld_us_median": round(statistics.median(times) / 1000, 3),
        "analyze_meld_us_p99": round(times[int(n * 0.99)] / 1000, 3),
        "analyze_meld_us_mean": round(sum(times) / n / 1000, 3),
        "valid_us_median": round(statistics.median(valid_times) / 1000, 3),
        "invalid_us_median": round(statistics.median(invalid_times) / 1000, 3),
        "harness_ns": statistics.median(empty),
        "python": platform.python_version(),
        "target_median_us": 2.0,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--preset", default="clasic")
    args = parser.parse_args(argv)
    print(json.dumps(run(args.count, args.seed, args.preset)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
