"""The timing of benchmarks/bench_solver.py: each call's wall and CPU time, summaries,
the worst time per adversarial family and large rack, and tracemalloc over many calls."""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from solver_racks import DENSE, FAMILIES, FAMILY_SIZES, REACHABLE, draw_racks, tiles_of

from remi_rules import Tile, best_melds, variants
from remi_rules.ruleset import Ruleset


def time_solver(
    racks: Sequence[tuple[Tile, ...]], rules: Ruleset, objective: str
) -> tuple[list[int], list[int], list[Any]]:
    """Each ``best_melds`` call's wall and CPU (this thread's) nanoseconds, and the
    solutions."""
    timer, cpu = time.perf_counter_ns, time.thread_time_ns
    solve = best_melds
    wall: list[int] = []
    cpus: list[int] = []
    sols: list[Any] = []
    gc.collect()
    gc.disable()
    try:
        for rack in racks:
            t0 = timer()
            c0 = cpu()
            sol = solve(rack, rules, objective)
            c1 = cpu()
            t1 = timer()
            wall.append(t1 - t0)
            cpus.append(c1 - c0)
            sols.append(sol)
    finally:
        gc.enable()
    return wall, cpus, sols


def harness_ns(racks: Sequence[tuple[Tile, ...]]) -> float:
    """The harness alone: the same loop around a trivial call."""
    timer, cpu = time.perf_counter_ns, time.thread_time_ns
    wall: list[int] = []
    cpus: list[int] = []
    sols: list[Any] = []
    gc.disable()
    try:
        for rack in racks:
            t0 = timer()
            c0 = cpu()
            sol = len(rack)
            c1 = cpu()
            t1 = timer()
            wall.append(t1 - t0)
            cpus.append(c1 - c0)
            sols.append(sol)
    finally:
        gc.enable()
    return statistics.median(wall)


def _p99(s: Sequence[int]) -> int:
    return s[min(len(s) - 1, int(len(s) * 0.99))]


def summary(times_ns: Sequence[int], cpu_ns: Sequence[int] = ()) -> dict[str, float | int]:
    """Median, p99, max, mean in ms of the wall times (and median, p99 of the CPU)."""
    s = sorted(times_ns)
    n = len(s)
    out: dict[str, float | int] = {
        "count": n,
        "median_ms": round(statistics.median(s) / 1e6, 4),
        "p99_ms": round(_p99(s) / 1e6, 4),
        "max_ms": round(s[-1] / 1e6, 4),
        "mean_ms": round(sum(s) / n / 1e6, 4),
    }
    if cpu_ns:
        c = sorted(cpu_ns)
        out["cpu_median_ms"] = round(statistics.median(c) / 1e6, 4)
        out["cpu_p99_ms"] = round(_p99(c) / 1e6, 4)
    return out


def time_families(rules: Any, count: int, seed: int, out: Callable[[str], None]) -> dict[str, Any]:
    """Worst time (ms) per adversarial family and per large rack size, for best_melds
    and for best_opening (both objectives; the opening keeps two tiles, OPEN-08):
    the wall time and this thread's CPU time (the machine may be shared)."""
    from remi_rules import best_opening, parse_tiles

    worst: dict[str, dict[str, float]] = {}

    def timed(name: str, hand: Sequence[Tile], objectives: Sequence[str]) -> None:
        row = {"best_melds": 0.0, "best_opening": 0.0, "cpu_best_melds": 0.0}
        row["cpu_best_opening"] = 0.0
        for objective in objectives:
            for label in ("best_melds", "best_opening"):
                t0, c0 = time.perf_counter(), time.thread_time()
                if label == "best_melds":
                    best_melds(hand, rules, objective)
                else:
                    best_opening(hand, rules, objective, min_leftover=2)
                wall = (time.perf_counter() - t0) * 1000
                cpu = (time.thread_time() - c0) * 1000
                row[label] = max(row[label], round(wall, 1))
                row[f"cpu_{label}"] = max(row[f"cpu_{label}"], round(cpu, 1))
        old = worst.get(name)
        worst[name] = row if old is None else {k: max(v, old[k]) for k, v in row.items()}

    for name, text in FAMILIES.items():
        hand = parse_tiles(text)
        timed(name, hand, ("points", "tiles"))
        out(f"family {name} ({len(hand)} tiles): worst {worst[name]} ms")
    for n in FAMILY_SIZES:
        for rack in draw_racks(n, "any", count, f"{seed}:large"):
            timed(f"random_{n}", tiles_of(rack), ("points",))
        out(f"random racks of {n}: worst {worst[f'random_{n}']} ms")
        hand = parse_tiles(DENSE[n])
        timed(f"dense_{n}", hand, ("points",))
        out(f"dense rack of {len(hand)}: worst {worst[f'dense_{n}']} ms")

    def top(keys: Sequence[str]) -> float:
        return max(max(worst[k]["best_melds"], worst[k]["best_opening"]) for k in keys)

    def top_cpu(keys: Sequence[str]) -> float:
        return max(max(worst[k]["cpu_best_melds"], worst[k]["cpu_best_opening"]) for k in keys)

    thirty = list(FAMILIES)
    eighty = ["random_80", "dense_80"]
    return {
        "families": worst,
        "worst_ms_30": top(thirty),
        "worst_cpu_ms_30": top_cpu(thirty),
        "worst_ms_80": top(eighty),
        "worst_cpu_ms_80": top_cpu(eighty),
    }


def time_reachable(out: Callable[[str], None]) -> dict[str, Any]:
    """Wall and CPU time (ms) of each call of ``REACHABLE`` as the game asked it (the
    solver's search directly, as the rupere check and the hint do), and the worst."""
    from remi_rules import _partition as partition
    from remi_rules import parse_tiles

    rows: dict[str, dict[str, float]] = {}
    for preset, seed, rack, lay in REACHABLE:
        counts = partition.counts_of(parse_tiles(rack))
        worth = {partition.field_of(parse_tiles(t)[0]): v for t, v in (lay or {}).items()}
        extra: Callable[[int], int] | None = None
        if lay is not None:
            extra = lambda f, w=worth: w.get(f, 0)  # noqa: E731
        t0, c0 = time.perf_counter(), time.thread_time()
        partition.solve(
            counts,
            variants.get(preset),
            tiles_objective=True,
            constraints=partition.Constraints(min_leftover=1),
            extra=extra,
        )
        wall = round((time.perf_counter() - t0) * 1000, 1)
        cpu = round((time.thread_time() - c0) * 1000, 1)
        name = f"{preset}_{seed}_{sum(counts)}{'_lay' if lay is not None else ''}"
        rows[name] = {"ms": wall, "cpu_ms": cpu}
        out(f"reachable {name}: {wall} ms (CPU {cpu} ms)")
    return {
        "reachable": rows,
        "worst_ms_reachable": max(r["ms"] for r in rows.values()),
        "worst_cpu_ms_reachable": max(r["cpu_ms"] for r in rows.values()),
    }


def tracemalloc_growth(rules: Any, calls: int = 10_000) -> dict[str, Any]:
    """Memory still allocated after ``calls`` best_melds calls, against after 100: a
    per-call cache that grows with the calls would show here.  The garbage collector
    runs before each reading, so what is counted is memory still reachable, not the
    searches' reference cycles waiting for the collector (``tracemalloc_garbage_bytes``
    reports those, uncollected, at the last reading)."""
    import tracemalloc

    racks = [tiles_of(r) for r in draw_racks(15, "any", 100, "tracemalloc")]
    tracemalloc.start()
    for rack in racks:
        best_melds(rack, rules)
    gc.collect()
    first, _ = tracemalloc.get_traced_memory()
    for i in range(calls):
        best_melds(racks[i % len(racks)], rules)
    uncollected, _ = tracemalloc.get_traced_memory()
    gc.collect()
    last, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return {
        "tracemalloc_calls": calls,
        "tracemalloc_growth_bytes": last - first,
        "tracemalloc_garbage_bytes": uncollected - last,
    }
