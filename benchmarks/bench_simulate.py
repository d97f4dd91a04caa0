"""Benchmark of the simulator, as its users run it: the ``remi-rules simulate``
command, timed from the outside, per preset and per team of bots.

Usage::

    python benchmarks/bench_simulate.py [--rounds 10000] [--jobs 2]
                                        [--preset clasic ...] [--bots random ...]
                                        [--steps-rounds 50]
    python benchmarks/bench_simulate.py --round-times 10000 [--first-seed 1]
                                        [--preset clasic ...]

* For each preset and each ``--bots`` name (all four seats that bot), the wall time
  of ``remi-rules simulate --variant P --rounds N --jobs K --bots B,B,B,B --format json
  --no-progress`` in a fresh process (start-up and imports included).  Target (issue
  6): under 60 s for 10,000 rounds of four random bots on 2 cores, per preset; the
  figure for greedy bots is reported.  With fewer ``--rounds`` the report also
  extrapolates to 10,000 (linearly: the pool's start-up is a second or less).
* The engine's cost per step: ``--steps-rounds`` random online rounds (each runs to
  the 400-turn cap, END-04) played in this process, in microseconds of CPU per
  applied step, view and bot's choice included.

* ``--round-times N``: the rounds ``remi-rules simulate --bots random,random`` (and
  ``random,random,random``) plays, ``N`` seeds per preset and seat count, each timed
  alone in this process (CPU): the slowest round and how many took over 2 s (target,
  issue 13: none, over 10,000 rounds per configuration); ``--round-limit S`` stops a
  round after ``S`` seconds (listed among those over 2 s, timed at the limit).

A noisy machine (shared cores) moves wall times by tens of per cent from one run to
the next; compare runs made back to back.  The last line printed is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import platform
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

TARGET_S = 60.0
TARGET_ROUNDS = 10_000


def simulate_wall(preset: str, bots: str, rounds: int, jobs: int) -> float:
    """Seconds of wall time for one ``simulate`` command (which must succeed)."""
    command = [
        str(Path(sys.executable).with_name("remi-rules")),
        "simulate",
        "--variant",
        preset,
        "--rounds",
        str(rounds),
        "--jobs",
        str(jobs),
        "--bots",
        ",".join([bots] * 4),
        "--format",
        "json",
        "--no-progress",
    ]
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr}")
    json.loads(done.stdout)  # results only on stdout
    return wall


def step_cost(rounds: int) -> dict[str, float]:
    """CPU microseconds per step of random online rounds, in this process."""
    from remi_rules import variants
    from remi_rules.sim.tasks import run_round

    rules = variants.get("online")
    run_round(rules, ("random",) * 4, 0)  # warm up
    steps = 0
    cpu = time.process_time()
    for seed in range(1, rounds + 1):
        steps += 2 * run_round(rules, ("random",) * 4, seed).turns - 1
    cpu = time.process_time() - cpu
    return {"rounds": rounds, "steps": steps, "us_per_step": round(cpu / steps * 1e6, 2)}


ROUND_LIMIT_S = 2.0


class _Stopped(BaseException):
    """A round stopped at ``--round-limit`` (no handler of the library's catches it)."""


def _stop(signum: int, frame: object) -> None:
    raise _Stopped


def round_times(
    presets: list[str], rounds: int, first: int, limit: float = 0.0
) -> list[dict[str, Any]]:
    """Per preset and 2 or 3 random bots: CPU seconds of each of ``rounds`` seeded
    rounds (the simulator's own :func:`~remi_rules.sim.tasks.run_round`); with
    ``limit``, a round is stopped after that many CPU seconds (counted at the limit)."""
    import signal

    from remi_rules import variants
    from remi_rules.sim.tasks import run_round

    if limit:
        signal.signal(signal.SIGPROF, _stop)
    rows: list[dict[str, Any]] = []
    for preset in presets:
        rules = variants.get(preset)
        for players in (2, 3):
            bots = ("random",) * players
            times: list[tuple[float, int]] = []
            for seed in range(first, first + rounds):
                cpu = time.process_time()
                if limit:
                    signal.setitimer(signal.ITIMER_PROF, limit)
                try:
                    run_round(rules, bots, seed)
                except _Stopped:
                    pass
                finally:
                    if limit:
                        signal.setitimer(signal.ITIMER_PROF, 0)
                times.append((time.process_time() - cpu, seed))
            times.sort()
            slowest, seed = times[-1]
            over = [s for t, s in times if t > ROUND_LIMIT_S]
            rows.append(
                {
                    "preset": preset,
                    "players": players,
                    "rounds": rounds,
                    "median_ms": round(1000 * times[len(times) // 2][0], 2),
                    "slowest_s": round(slowest, 3),
                    "slowest_seed": seed,
                    "over_2_s": len(over),
                    "over_2_s_seeds": over[:10],
                }
            )
            print(
                f"{preset:8} {players} random bots, {rounds} rounds: slowest {slowest:.2f} s"
                f" (seed {seed}), {len(over)} over {ROUND_LIMIT_S:.0f} s",
                file=sys.stderr,
                flush=True,
            )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=TARGET_ROUNDS)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--preset", action="append", dest="presets")
    parser.add_argument("--bots", action="append", dest="bots")
    parser.add_argument("--steps-rounds", type=int, default=50)
    parser.add_argument("--round-times", type=int, default=0, metavar="N")
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--round-limit", type=float, default=0.0, metavar="S")
    args = parser.parse_args(argv)
    presets = args.presets or ["clasic", "online", "rummy45"]
    teams = args.bots or ["random"]
    if args.round_times:
        timed = round_times(presets, args.round_times, args.first_seed, args.round_limit)
        print(json.dumps({"benchmark": "simulate round times", "rows": timed}))
        return 0

    rows: list[dict[str, Any]] = []
    for bots in teams:
        for preset in presets:
            wall = simulate_wall(preset, bots, args.rounds, args.jobs)
            per_10k = wall * TARGET_ROUNDS / args.rounds
            row: dict[str, Any] = {
                "preset": preset,
                "bots": bots,
                "rounds": args.rounds,
                "jobs": args.jobs,
                "wall_s": round(wall, 1),
                "rounds_per_s": round(args.rounds / wall, 1),
                "s_per_10000_rounds": round(per_10k, 1),
            }
            if bots == "random":
                row["target_met"] = per_10k < TARGET_S
            rows.append(row)
            print(
                f"{preset:8} {bots:7} {args.rounds} rounds, {args.jobs} jobs: {wall:6.1f} s"
                f" ({per_10k:6.1f} s per 10,000)",
                file=sys.stderr,
            )
    report: dict[str, Any] = {
        "benchmark": "simulate",
        "python": platform.python_version(),
        "target": f"{TARGET_ROUNDS} random rounds under {TARGET_S:.0f} s per preset",
        "runs": rows,
    }
    if args.steps_rounds:
        report["engine_step"] = step_cost(args.steps_rounds)
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
