"""Benchmark of the bots and the hint: strength, legality and speed.

Usage::

    python benchmarks/bench_bots.py [--rounds 1000] [--preset clasic ...] [--jobs 2]
                                    [--hint-views 10000] [--seed 0]

* Strength: ``--rounds`` seeded 4-player rounds per preset with two
  :class:`~remi_rules.bots.GreedyBot` and two :class:`~remi_rules.bots.RandomBot`,
  the seats rotated from round to round (GGRR, GRRG, RRGG, RGGR, …).  Per round the
  greedy pair's mean score minus the random pair's; the report gives the mean of that
  difference and its 95 % confidence interval (normal approximation).  Target (issue
  5): the interval's lower bound above 0 for every preset, over 1,000 rounds.
* Legality: every step a bot returns goes through ``Game.apply``; an illegal one is
  counted (and the round abandoned).  Target: none over 10,000 rounds per preset.
* The hint: ``--hint-views`` positions per preset from seeded rounds, each seat's
  view given to :func:`~remi_rules.hint` and the plan's steps applied to the real
  state with the engine's ``apply_step``.  Target: every plan applies.

* Speed of the greedy bot: ``--greedy-rounds N`` plays rounds ``0 … N-1`` of each
  preset with four greedy bots and nothing else (no strength or legality report), and
  prints the CPU milliseconds per round and the slowest hint; the fixed workload that
  the instruction counts in docs/solver.md are measured on::

      valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.out \
          python benchmarks/bench_bots.py --greedy-rounds 10 --preset clasic

  (minus the same command with ``--greedy-rounds 0``: the interpreter's start-up),
  for each preset; docs/solver.md ("The bots") keeps the last figures.
* The same rounds' hints alone: ``--greedy-rounds N --record-hints FILE`` writes every
  view a greedy bot asks a hint about (``serde.dump_view`` JSON, one a line, with the
  plan this checkout makes); ``--replay-hints FILE`` asks this checkout's hint the
  recorded views and prints how many plans differ (steps, notes and valuation) and
  the CPU time: record on one checkout, replay on another to see that a change keeps
  every choice, and replay under callgrind to count the hint's own instructions.

Rounds are split over ``--jobs`` processes by seed; the results do not depend on how
many.  The last line printed is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from hint_replay import record_hints, replay_hints

from remi_rules import variants
from remi_rules.bots import GreedyBot, RandomBot
from remi_rules.engine import Game, play_round
from remi_rules.engine.transition import NoChance, apply_step
from remi_rules.errors import IllegalStepError
from remi_rules.hints import hint

PATTERN = ("G", "G", "R", "R")


def seats_of(k: int) -> tuple[str, ...]:
    """The bot types by seat in round ``k``: the pattern rotated by ``k``."""
    r = k % 4
    return PATTERN[r:] + PATTERN[:r]


def play_block(preset: str, seeds: list[int]) -> dict[str, Any]:
    """Play the rounds of ``seeds``; per round the greedy-minus-random difference."""
    rules = variants.get(preset)
    diffs: list[float] = []
    greedy: list[float] = []
    random_: list[float] = []
    ends: Counter[str] = Counter()
    illegal: list[str] = []
    cpu = time.process_time()
    for seed in seeds:
        kinds = seats_of(seed)
        bots = [
            GreedyBot() if k == "G" else RandomBot(seed=seed * 10 + s) for s, k in enumerate(kinds)
        ]
        game = Game.new(rules, 4, seed=seed)
        try:
            result = play_round(game, bots)
        except IllegalStepError as err:
            illegal.append(f"{preset} seed {seed} turn {game.state.turn}: {err}")
            continue
        assert game.state.end is not None
        ends[game.state.end.reason.value] += 1
        g = [result.seats[s].total for s, k in enumerate(kinds) if k == "G"]
        r = [result.seats[s].total for s, k in enumerate(kinds) if k == "R"]
        greedy.append(sum(g) / len(g))
        random_.append(sum(r) / len(r))
        diffs.append(greedy[-1] - random_[-1])
    return {
        "diffs": diffs,
        "greedy": greedy,
        "random": random_,
        "ends": dict(ends),
        "illegal": illegal,
        "cpu": time.process_time() - cpu,
    }


def greedy_rounds(preset: str, rounds: int) -> dict[str, Any]:
    """Play rounds ``0 … rounds-1`` with four greedy bots; time them and their hints."""
    import remi_rules.bots as bots_module

    rules = variants.get(preset)
    slowest = 0.0
    hints = 0
    # bots.py calls hint through its own module global, not re-exported: patch that name
    plain = vars(bots_module)["hint"]

    def timed(view: Any, rules: Any = None, *, samples: int = 3) -> Any:
        nonlocal slowest, hints
        start = time.perf_counter()
        try:
            return plain(view, rules, samples=samples)
        finally:
            slowest = max(slowest, time.perf_counter() - start)
            hints += 1

    vars(bots_module)["hint"] = timed
    cpu = time.process_time()
    try:
        for seed in range(rounds):
            play_round(Game.new(rules, 4, seed=seed), [GreedyBot() for _ in range(4)])
    finally:
        vars(bots_module)["hint"] = plain
    cpu = time.process_time() - cpu
    return {
        "rounds": rounds,
        "hints": hints,
        "ms_per_round_cpu": round(1000 * cpu / max(rounds, 1), 1),
        "ms_per_hint_cpu": round(1000 * cpu / max(hints, 1), 2),
        "slowest_hint_ms": round(1000 * slowest, 1),
    }


def check_hints(preset: str, seeds: list[int], wanted: int) -> dict[str, Any]:
    """Apply the hint's plan on views from the rounds of ``seeds`` until ``wanted``."""
    rules = variants.get(preset)
    checked = 0
    failures: list[str] = []
    cpu = time.process_time()
    for seed in seeds:
        if checked >= wanted:
            break
        game = Game.new(rules, 2 + seed % 3, seed=50_000 + seed)
        bots = [
            GreedyBot() if s % 2 == 0 else RandomBot(seed=seed + s)
            for s in range(game.state.players)
        ]
        while not game.over and checked < wanted:
            seat = game.state.current
            view = game.view(seat)
            plan = hint(view)
            state = game.state
            try:
                for step in plan.steps:
                    state, _ = apply_step(state, step, NoChance())
            except IllegalStepError as err:
                failures.append(f"{preset} seed {seed} turn {game.state.turn}: {plan}: {err}")
            checked += 1
            game.apply(bots[seat].choose(view))
    return {"checked": checked, "failures": failures, "cpu": time.process_time() - cpu}


def _chunks(seeds: list[int], jobs: int) -> list[list[int]]:
    return [seeds[i::jobs] for i in range(jobs)] if jobs > 1 else [seeds]


def summary(diffs: list[float]) -> dict[str, float]:
    n = len(diffs)
    mean = sum(diffs) / n if n else 0.0
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
    half = 1.96 * math.sqrt(var / n) if n else 0.0
    return {"mean": mean, "sd": math.sqrt(var), "ci_low": mean - half, "ci_high": mean + half}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=1000)
    parser.add_argument("--preset", action="append", choices=variants.names())
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--hint-views", type=int, default=0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--greedy-rounds", type=int, default=None)
    parser.add_argument("--record-hints", type=Path, default=None, metavar="FILE")
    parser.add_argument("--replay-hints", type=Path, default=None, metavar="FILE")
    args = parser.parse_args(argv)
    presets = args.preset or list(variants.names())
    if args.replay_hints is not None:
        print(json.dumps({"replay": replay_hints(args.replay_hints)}))
        return 0
    if args.record_hints is not None:
        rounds = 10 if args.greedy_rounds is None else args.greedy_rounds
        print(json.dumps({"record": record_hints(presets, rounds, args.record_hints)}))
        return 0
    if args.greedy_rounds is not None:
        speed = {p: greedy_rounds(p, args.greedy_rounds) for p in presets}
        print(json.dumps({"greedy_speed": speed, "python": platform.python_version()}))
        return 0
    report: dict[str, Any] = {}
    wall = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for preset in presets:
            seeds = list(range(args.seed, args.seed + args.rounds))
            parts = list(pool.map(play_block, [preset] * args.jobs, _chunks(seeds, args.jobs)))
            diffs = [d for p in parts for d in p["diffs"]]
            greedy = [d for p in parts for d in p["greedy"]]
            random_ = [d for p in parts for d in p["random"]]
            ends: Counter[str] = Counter()
            for p in parts:
                ends.update(p["ends"])
            illegal = [x for p in parts for x in p["illegal"]]
            cpu = sum(p["cpu"] for p in parts)
            stats = summary(diffs)
            entry: dict[str, Any] = {
                "rounds": len(diffs),
                "greedy_mean": round(sum(greedy) / max(len(greedy), 1), 2),
                "random_mean": round(sum(random_) / max(len(random_), 1), 2),
                "diff_mean": round(stats["mean"], 2),
                "diff_ci95": [round(stats["ci_low"], 2), round(stats["ci_high"], 2)],
                "ends": dict(sorted(ends.items())),
                "illegal_steps": len(illegal),
                "illegal_examples": illegal[:3],
                "ms_per_round_cpu": round(1000 * cpu / max(args.rounds, 1), 1),
            }
            if args.hint_views:
                per = -(-args.hint_views // args.jobs)
                seed_parts = _chunks(list(range(args.seed, args.seed + 100_000)), args.jobs)
                checks = list(
                    pool.map(check_hints, [preset] * args.jobs, seed_parts, [per] * args.jobs)
                )
                failures = [x for c in checks for x in c["failures"]]
                views = sum(c["checked"] for c in checks)
                entry["hint_views"] = views
                entry["hint_failures"] = len(failures)
                entry["hint_failure_examples"] = failures[:3]
                entry["hint_ms_per_view_cpu"] = round(
                    1000 * sum(c["cpu"] for c in checks) / max(views, 1), 2
                )
            report[preset] = entry
            print(f"{preset}: {json.dumps(entry)}", flush=True)
    out = {
        "presets": report,
        "ci_low_min": min(r["diff_ci95"][0] for r in report.values()),
        "illegal_steps": sum(r["illegal_steps"] for r in report.values()),
        "hint_failures": sum(r.get("hint_failures", 0) for r in report.values()),
        "rounds_per_preset": args.rounds,
        "jobs": args.jobs,
        "wall_s": round(time.perf_counter() - wall, 1),
        "python": platform.python_version(),
    }
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
