"""Benchmark of the solver: ``best_melds`` on seeded racks, and a peer, rummikub-solver.

Usage::

    python benchmarks/bench_solver.py [--count 1000] [--peer-count 1000] [--seed 1]
                                      [--preset clasic] [--objective points]
                                      [--no-peer] [--peer-venv benchmarks/.peer-venv]

**Our solver.**  For each rack size (14, 15, 21, 30) and category, ``--count`` racks are
drawn (seeded) from the 106 physical tiles (``FULL_SET``): ``any`` from all 106,
``joker1`` exactly one joker and the rest from the 104 numbered tiles, ``joker2`` both
jokers, ``none`` no joker.  Every ``best_melds(rack, rules, objective)`` call (the
rack a tuple of ``Tile`` values built beforehand; preset ``--preset``, objective
``--objective``, ``points`` by default) is timed with ``time.perf_counter_ns``, the
garbage collector off during the timed loops.  The harness's own cost (the same loop
around a trivial call) is reported as ``harness_ns`` and *not* subtracted.  Reported per
size and category: median, p99, max, mean (ms) of the wall time, and median and p99 of
the thread's CPU time (``time.thread_time_ns`` inside the same window): on a busy
machine the wall p99 grows by the scheduler's time slices (a few ms) and the CPU p99
does not, so a gap between them says the run was disturbed.

Targets (the issue; one core, CPython 3.11), over the ``any`` racks: 15 tiles median
under 1 ms (``median_ms_15``) and p99 under 10 ms (``p99_ms_15``); 30 tiles p99 under
50 ms (``p99_ms_30``).  ``worst`` gives the same figures for the slowest category of
each size (by p99, and by median), ``targets_met`` both.

**The peer.**  rummikub-solver 1.0.0 (PyPI; an integer programme, cvxpy on HiGHS) in a
venv of its own (``--peer-venv``, created with ``python -m venv`` and
``pip install "rummikub-solver[highs]==1.0.0"`` on first use, reused afterwards;
``peer_install_s`` is the time that took, 0 when reused), run in a subprocess by
benchmarks/peer_rummikub.py (see there: ``RuleSet(jokers=0)``, empty table,
``initial=False``, ``SolverMode.TILE_COUNT``, warmed up, each ``solve`` call timed).
The racks are where the two games' rules coincide: ``--peer-count`` joker-free racks
per size (a seeded stream of their own), our side solved under ``--preset`` with
``ace_high_run=False`` (Rummikub has no high ace) and objective ``tiles``.
``peer_mismatches`` counts the racks where the tiles placed differ, once the peer's
own warm-start slips are set aside (see below; ``peer_mismatches_raw`` counts them
all, each listed in ``peer_mismatch_examples`` with both answers);
``peer_speedup_min`` is the smallest per-size ratio of the peer's median time to
ours.  Targets: no mismatch, speedup at least 10.  If the peer cannot be installed
or run (no network, say) the report says why, ``peer_ran`` is false, and the rest
still runs.

Every answer is checked across: the peer's sets must be valid remi melds of the rack's
tiles (``peer_invalid_solutions``), ours valid Rummikub sets
(``ours_not_rummikub_melds``).  A mismatching rack is re-solved by the peer with a
``RuleSet`` of its own (the first ``RECHECK_LIMIT``), since the peer's answer can depend
on the rack solved before it (cvxpy's default warm start hands HiGHS the previous
solution; see peer_rummikub.py), and gets a ``cause``: ``ours_suboptimal`` (the peer
placed more, in valid remi melds: our bug), ``peer_warm_start`` (the peer placed fewer
and its fresh re-solve agrees with us), ``peer_suboptimal`` (fewer even fresh), or
``rules_difference`` (a side's melds are invalid under the other's rules).
``peer_mismatches`` leaves out the ``peer_warm_start`` ones (an unchecked rack counts).

**The families** (``--families``): ``best_melds`` and ``best_opening`` (both objectives,
the opening keeping two tiles, OPEN-08) on each adversarial rack of 28-30 tiles and on
random and dense racks of 40, 60 and 80 tiles, the worst wall and CPU time per family
(``worst_ms_30``/``worst_cpu_ms_30`` over the 30-tile families, ``worst_ms_80`` over the
80-tile racks; targets 50 and 500 ms), the solver calls of ``REACHABLE`` (racks of
40-76 tiles that random bots reached in seeded rounds, asked as the rupere check and
the hint ask them; ``worst_ms_reachable``/``worst_cpu_ms_reachable``, target 2 s,
benchmarks/solver_harvest.py finds them), and tracemalloc over 10,000 calls
(``tracemalloc_growth_bytes``: what a cache growing with the calls would keep).

This file is the driver; the racks and families are in ``solver_racks.py``, the timing
in ``solver_timing.py`` and the peer in ``solver_peer.py`` (beside it).

The last line printed is one JSON object.  The full run (the defaults) takes about a
minute on one core of a shared 2-core box; ``--count 100 --peer-count 200`` (a CI
report line) about 15 s, plus about 20 s the first time for the peer's venv.
"""

from __future__ import annotations

import argparse
import json
import platform
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs

sys.path.insert(0, str(Path(__file__).resolve().parent))

from solver_peer import (
    DEFAULT_PEER_VENV,
    PEER_VERSION,
    WARMUP_RACKS,
    _peer_version,
    _venv_python,
    check_peer_sets,
    compare_with_peer,
    ensure_peer,
    rummikub_meld,
    run_worker,
)
from solver_racks import CATEGORIES, SIZES, draw_racks, pairs_of, tiles_of
from solver_timing import (
    harness_ns,
    summary,
    time_families,
    time_reachable,
    time_solver,
    tracemalloc_growth,
)

from remi_rules import Tile, best_melds, variants

__all__ = [
    "DEFAULT_PEER_VENV",
    "PEER_VERSION",
    "_peer_version",
    "_venv_python",
    "check_peer_sets",
    "draw_racks",
    "main",
    "pairs_of",
    "rummikub_meld",
    "run",
    "run_worker",
    "tiles_of",
]

TARGET_MEDIAN_MS_15 = 1.0
TARGET_P99_MS_15 = 10.0
TARGET_P99_MS_30 = 50.0
TARGET_PEER_SPEEDUP = 10.0
TARGET_WORST_MS_30 = 50.0
TARGET_WORST_MS_80 = 500.0
TARGET_WORST_MS_REACHABLE = 2000.0


def run(
    count: int,
    peer_count: int,
    seed: int,
    preset: str,
    objective: str = "points",
    *,
    peer: bool = True,
    peer_venv: Path = DEFAULT_PEER_VENV,
    out: Callable[[str], None] = print,
    families: bool = False,
    family_count: int = 3,
) -> dict[str, Any]:
    w0 = time.perf_counter()
    rules = variants.get(preset)
    # warm up (imports, first-call costs) on racks that are not measured
    for rack in draw_racks(15, "any", WARMUP_RACKS, f"{seed}:warmup"):
        best_melds(tiles_of(rack), rules, objective)
    sizes: dict[str, dict[str, Any]] = {}
    worst: dict[str, dict[str, Any]] = {}
    all_racks: list[tuple[Tile, ...]] = []
    c0 = time.process_time()
    for n in SIZES:
        sizes[str(n)] = {}
        for cat in CATEGORIES:
            racks = [tiles_of(r) for r in draw_racks(n, cat, count, seed)]
            all_racks += racks
            times, cpus, sols = time_solver(racks, rules, objective)
            s = summary(times, cpus)
            s["total_mean"] = round(sum(x.total for x in sols) / len(sols), 2)
            s["placed_mean"] = round(sum(x.placed for x in sols) / len(sols), 2)
            sizes[str(n)][cat] = s
        by_p99 = max(CATEGORIES, key=lambda c: sizes[str(n)][c]["p99_ms"])
        by_median = max(CATEGORIES, key=lambda c: sizes[str(n)][c]["median_ms"])
        worst[str(n)] = {
            "p99_category": by_p99,
            "p99_ms": sizes[str(n)][by_p99]["p99_ms"],
            "median_category": by_median,
            "median_ms": sizes[str(n)][by_median]["median_ms"],
            "max_ms": max(sizes[str(n)][c]["max_ms"] for c in CATEGORIES),
        }
        row = ", ".join(
            f"{c} {sizes[str(n)][c]['median_ms']:.3f}/{sizes[str(n)][c]['p99_ms']:.3f}/"
            f"{sizes[str(n)][c]['max_ms']:.3f}"
            for c in CATEGORIES
        )
        out(f"{n:2d} tiles (median/p99/max ms): {row}")
    ours_cpu = time.process_time() - c0
    harness = harness_ns(all_racks)

    result: dict[str, Any] = {
        "benchmark": "solver",
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "preset": preset,
        "objective": objective,
        "seed": seed,
        "count": count,
        "sizes_tiles": list(SIZES),
        "categories": list(CATEGORIES),
        "median_ms_15": sizes["15"]["any"]["median_ms"],
        "p99_ms_15": sizes["15"]["any"]["p99_ms"],
        "median_ms_30": sizes["30"]["any"]["median_ms"],
        "p99_ms_30": sizes["30"]["any"]["p99_ms"],
        "max_ms_30": sizes["30"]["any"]["max_ms"],
        "cpu_p99_ms_15": sizes["15"]["any"]["cpu_p99_ms"],
        "cpu_p99_ms_30": sizes["30"]["any"]["cpu_p99_ms"],
        "worst": worst,
        "sizes": sizes,
        "harness_ns": harness,
        "ours_cpu_s": round(ours_cpu, 2),
        "targets": {
            "median_ms_15": TARGET_MEDIAN_MS_15,
            "p99_ms_15": TARGET_P99_MS_15,
            "p99_ms_30": TARGET_P99_MS_30,
            "peer_mismatches": 0,
            "peer_speedup_min": TARGET_PEER_SPEEDUP,
            "worst_cpu_ms_30": TARGET_WORST_MS_30,
            "worst_cpu_ms_80": TARGET_WORST_MS_80,
            "worst_cpu_ms_reachable": TARGET_WORST_MS_REACHABLE,
        },
    }

    peer_part: dict[str, Any] = {
        "peer_ran": False,
        "peer_speedup_min": None,
        "peer_mismatches": None,
        "peer_mismatches_raw": None,
        "peer_count": peer_count,
        "peer_install_s": 0.0,
        "peer_error": None,
    }
    if not peer:
        peer_part["peer_error"] = "skipped (--no-peer)"
    elif peer_count > 0:
        python, info = ensure_peer(peer_venv, out)
        peer_part.update(info)
        if python is not None:
            low = attrs.evolve(rules, ace_high_run=False)
            try:
                peer_part.update(compare_with_peer(python, peer_count, seed, low, out))
            except (OSError, RuntimeError, subprocess.SubprocessError, ValueError) as err:
                peer_part["peer_error"] = f"{type(err).__name__}: {err}"
                out(f"peer: did not run ({peer_part['peer_error']})")
    else:
        peer_part["peer_error"] = "skipped (--peer-count 0)"
    result.update(peer_part)
    result.update({"worst_ms_30": None, "worst_ms_80": None, "families": None})
    result.update({"worst_cpu_ms_30": None, "worst_cpu_ms_80": None})
    result.update({"reachable": None, "worst_ms_reachable": None, "worst_cpu_ms_reachable": None})
    if families:
        result.update(time_families(rules, family_count, seed, out))
        result.update(time_reachable(out))
        result.update(tracemalloc_growth(rules))

    met = {
        "median_ms_15": result["median_ms_15"] < TARGET_MEDIAN_MS_15,
        "p99_ms_15": result["p99_ms_15"] < TARGET_P99_MS_15,
        "p99_ms_30": result["p99_ms_30"] < TARGET_P99_MS_30,
        "worst_median_ms_15": worst["15"]["median_ms"] < TARGET_MEDIAN_MS_15,
        "worst_p99_ms_15": worst["15"]["p99_ms"] < TARGET_P99_MS_15,
        "worst_p99_ms_30": worst["30"]["p99_ms"] < TARGET_P99_MS_30,
        "peer_mismatches": None if not result["peer_ran"] else result["peer_mismatches"] == 0,
        "peer_speedup_min": (
            None if not result["peer_ran"] else result["peer_speedup_min"] >= TARGET_PEER_SPEEDUP
        ),
        # the families' worst CPU time (the wall time grows with a shared machine's load)
        "worst_cpu_ms_30": (
            None if not families else result["worst_cpu_ms_30"] <= TARGET_WORST_MS_30
        ),
        "worst_cpu_ms_80": (
            None if not families else result["worst_cpu_ms_80"] <= TARGET_WORST_MS_80
        ),
        "worst_cpu_ms_reachable": (
            None if not families else result["worst_cpu_ms_reachable"] <= TARGET_WORST_MS_REACHABLE
        ),
    }
    met["all"] = all(v for v in met.values() if v is not None)
    result["targets_met"] = met
    result["wall_s"] = round(time.perf_counter() - w0, 1)
    out(
        f"15 tiles (any): median {result['median_ms_15']} ms, p99 {result['p99_ms_15']} ms; "
        f"30 tiles (any): median {result['median_ms_30']} ms, p99 {result['p99_ms_30']} ms; "
        f"peer: {'ran' if result['peer_ran'] else 'did not run'}, speedup min "
        f"{result['peer_speedup_min']}, mismatches {result['peer_mismatches']} "
        f"(raw {result['peer_mismatches_raw']}); "
        f"targets met: {met['all']}"
    )
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--count", type=int, default=1000, help="racks per size and category")
    parser.add_argument("--peer-count", type=int, default=1000, help="peer racks per size")
    parser.add_argument("--no-peer", action="store_true", help="skip the peer comparison")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--preset", default="clasic")
    parser.add_argument("--objective", default="points", choices=("points", "tiles"))
    parser.add_argument("--peer-venv", type=Path, default=DEFAULT_PEER_VENV)
    parser.add_argument(
        "--families",
        action="store_true",
        help="also time the adversarial families and racks of 40, 60, 80 tiles",
    )
    parser.add_argument("--family-count", type=int, default=3, help="racks per large size")
    args = parser.parse_args(argv)
    if args.count < 1:
        parser.error("--count must be at least 1")
    variants.get(args.preset)
    result = run(
        args.count,
        max(0, args.peer_count),
        args.seed,
        args.preset,
        args.objective,
        peer=not args.no_peer,
        peer_venv=args.peer_venv,
        families=args.families,
        family_count=max(1, args.family_count),
    )
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
