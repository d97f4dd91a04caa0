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

The last line printed is one JSON object.  The full run (the defaults) takes about a
minute on one core of a shared 2-core box; ``--count 100 --peer-count 200`` (a CI
report line) about 15 s, plus about 20 s the first time for the peer's venv.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import attrs

from remi_rules import FULL_SET, Color, Tile, best_melds, is_valid_meld, tiles_str, variants
from remi_rules.ruleset import Ruleset

HERE = Path(__file__).resolve().parent
WORKER = HERE / "peer_rummikub.py"
DEFAULT_PEER_VENV = HERE / ".peer-venv"
PEER_REQUIREMENT = "rummikub-solver[highs]==1.0.0"
PEER_VERSION = "1.0.0"

SIZES = (14, 15, 21, 30)
CATEGORIES = ("any", "joker1", "joker2", "none")
JOKER_IDS = (104, 105)
NUMBERED = range(104)
COLORS = tuple(Color)
WARMUP_RACKS = 5
RECHECK_LIMIT = 20  # mismatching racks re-solved by a fresh peer (about 1 s each)
MAX_EXAMPLES = 20

TARGET_MEDIAN_MS_15 = 1.0
TARGET_P99_MS_15 = 10.0
TARGET_P99_MS_30 = 50.0
TARGET_PEER_SPEEDUP = 10.0


# -- racks -----------------------------------------------------------------------------------


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


# -- timing ----------------------------------------------------------------------------------


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


# -- the peer --------------------------------------------------------------------------------


def _venv_python(venv: Path) -> Path:
    return venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def _peer_version(python: Path) -> str | None:
    """The installed rummikub-solver version (with highspy importable), or None."""
    if not python.exists():
        return None
    code = "import importlib.metadata as m, highspy; print(m.version('rummikub-solver'))"
    try:
        done = subprocess.run(
            [str(python), "-c", code], capture_output=True, text=True, timeout=120
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def _tail(text: str | bytes | None, lines: int = 5) -> str:
    if isinstance(text, bytes):
        text = text.decode(errors="replace")
    return " / ".join((text or "").strip().splitlines()[-lines:])


def ensure_peer(venv: Path, log: Callable[[str], None]) -> tuple[Path | None, dict[str, Any]]:
    """The peer venv's python, creating the venv and installing the peer if needed."""
    python = _venv_python(venv)
    info: dict[str, Any] = {"peer_venv": str(venv), "peer_install_s": 0.0, "peer_error": None}
    if _peer_version(python) == PEER_VERSION:
        return python, info
    log(f"peer: installing {PEER_REQUIREMENT} into {venv} ...")
    t0 = time.perf_counter()
    try:
        if not python.exists():
            subprocess.run(
                [sys.executable, "-m", "venv", str(venv)],
                check=True,
                capture_output=True,
                timeout=300,
            )
        subprocess.run(
            [
                str(python),
                "-m",
                "pip",
                "install",
                "--disable-pip-version-check",
                "--quiet",
                PEER_REQUIREMENT,
            ],
            check=True,
            capture_output=True,
            text=True,
            timeout=900,
        )
    except subprocess.CalledProcessError as err:
        info["peer_error"] = f"{' '.join(map(str, err.cmd[:4]))} failed: {_tail(err.stderr)}"
    except (OSError, subprocess.SubprocessError) as err:
        info["peer_error"] = f"{type(err).__name__}: {err}"
    info["peer_install_s"] = round(time.perf_counter() - t0, 1)
    if info["peer_error"] is None and _peer_version(python) != PEER_VERSION:
        info["peer_error"] = f"rummikub-solver {PEER_VERSION} not importable after install"
    if info["peer_error"] is not None:
        log(f"peer: not available ({info['peer_error']})")
        return None, info
    log(f"peer: installed in {info['peer_install_s']} s")
    return python, info


def run_worker(
    python: Path,
    racks: list[list[list[int]]],
    warmup: list[list[list[int]]],
    *,
    fresh: bool = False,
) -> dict[str, Any]:
    """Run benchmarks/peer_rummikub.py under ``python`` on ``racks``."""
    with tempfile.TemporaryDirectory(prefix="bench_solver_") as tmp:
        src, dst = Path(tmp) / "racks.json", Path(tmp) / "result.json"
        src.write_text(
            json.dumps({"warmup": warmup, "racks": racks, "fresh": fresh}), encoding="utf-8"
        )
        done = subprocess.run(
            [str(python), str(WORKER), str(src), str(dst)],
            capture_output=True,  # HiGHS writes its banner to stdout
            text=True,
            timeout=3600,
        )
        if done.returncode != 0:
            raise RuntimeError(f"peer worker exited {done.returncode}: {_tail(done.stderr)}")
        result: dict[str, Any] = json.loads(dst.read_text(encoding="utf-8"))
    if len(result["results"]) != len(racks):
        raise RuntimeError("peer worker returned a different number of racks")
    return result


def check_peer_sets(
    rack: Sequence[int], sets: list[list[list[int]]], placed: int, rules: Ruleset
) -> bool:
    """Are the peer's sets valid remi melds (``rules``) made of the rack's tiles, as
    many as it says it placed?"""
    have = Counter(tiles_of(rack))
    used: Counter[Tile] = Counter()

    def rank_then_colour(t: Tile) -> tuple[int | None, int]:
        assert t.color is not None  # built with a colour
        return (t.rank, t.color.index)

    for s in sets:
        meld = sorted((Tile(v, COLORS[c]) for v, c in s), key=rank_then_colour)
        if not is_valid_meld(meld, rules):
            return False
        used.update(meld)
    return used.total() == placed and not used - have


def rummikub_meld(tiles: Sequence[Tile]) -> bool:
    """Is this joker-free meld a valid Rummikub set (a group of 3-4 tiles of one
    number in distinct colours, or a run of 3 or more consecutive numbers of one
    colour, 1 low only)?"""
    ranks = sorted(t.rank for t in tiles if t.rank is not None)
    colours = {t.color for t in tiles}
    if len(ranks) != len(tiles) or len(tiles) < 3:
        return False
    if len(set(ranks)) == 1:
        return len(tiles) <= 4 and len(colours) == len(tiles)
    return len(colours) == 1 and ranks == list(range(ranks[0], ranks[0] + len(ranks)))


def _cause(ours: int, peer: int, fresh: int | None, ours_ok: bool, peer_ok: bool) -> str:
    """Why the tiles placed differ (see the module docstring)."""
    if peer > ours and peer_ok:
        return "ours_suboptimal"  # the peer's sets are valid remi melds: our bug
    if peer < ours and ours_ok:
        return "peer_warm_start" if fresh == ours else "peer_suboptimal"
    return "rules_difference"  # one side's melds are not valid under the other's rules


def compare_with_peer(
    python: Path, peer_count: int, seed: int, rules: Ruleset, log: Callable[[str], None]
) -> dict[str, Any]:
    """Both solvers on ``peer_count`` joker-free racks per size, objective tiles."""
    per_size = {n: draw_racks(n, "none", peer_count, f"{seed}:peer") for n in SIZES}
    warmup = [pairs_of(r) for r in draw_racks(15, "none", WARMUP_RACKS, f"{seed}:warmup")]
    flat = [r for n in SIZES for r in per_size[n]]
    t0 = time.perf_counter()
    peer = run_worker(python, [pairs_of(r) for r in flat], warmup)
    peer_wall = time.perf_counter() - t0
    by_size: dict[str, Any] = {}
    missed: list[dict[str, Any]] = []
    invalid = not_rummikub = 0
    k = 0
    for n in SIZES:
        racks = per_size[n]
        ours_t, ours_c, ours = time_solver([tiles_of(r) for r in racks], rules, "tiles")
        theirs = peer["results"][k : k + len(racks)]
        miss = 0
        for at, (rack, sol, got) in enumerate(zip(racks, ours, theirs, strict=True), k):
            peer_ok = check_peer_sets(rack, got["sets"], got["placed"], rules)
            ours_ok = all(rummikub_meld(m.tiles) for m in sol.melds)
            invalid += not peer_ok
            not_rummikub += not ours_ok
            if sol.placed != got["placed"]:
                miss += 1
                missed.append(
                    {
                        "size": n,
                        "rack": tiles_str(tiles_of(rack)),
                        "rack_ids": list(rack),
                        "ours_placed": sol.placed,
                        "ours": str(sol),
                        "ours_melds_valid_rummikub": ours_ok,
                        "peer_placed": got["placed"],
                        "peer_sets": [
                            tiles_str(Tile(v, COLORS[c]) for v, c in s) for s in got["sets"]
                        ],
                        "peer_sets_valid_remi": peer_ok,
                        "peer_fresh_placed": None,
                        # the rack the peer solved just before (its warm start)
                        "previous_rack": tiles_str(tiles_of(flat[at - 1])) if at else None,
                    }
                )
        k += len(racks)
        peer_t = [r["ns"] for r in theirs]
        ours_s, peer_s = summary(ours_t, ours_c), summary(peer_t, [r["cpu_ns"] for r in theirs])
        by_size[str(n)] = {
            "count": len(racks),
            "ours_median_ms": ours_s["median_ms"],
            "ours_p99_ms": ours_s["p99_ms"],
            "ours_max_ms": ours_s["max_ms"],
            "ours_cpu_median_ms": ours_s["cpu_median_ms"],
            "peer_median_ms": peer_s["median_ms"],
            "peer_p99_ms": peer_s["p99_ms"],
            "peer_max_ms": peer_s["max_ms"],
            "peer_cpu_median_ms": peer_s["cpu_median_ms"],
            "speedup": round(statistics.median(peer_t) / statistics.median(ours_t), 1),
            "mismatches": miss,
            "tiles_placed_mean": round(sum(s.placed for s in ours) / len(ours), 2),
        }
        log(
            f"peer {n:2d} tiles: ours median {ours_s['median_ms']:.3f} ms, peer "
            f"{peer_s['median_ms']:.3f} ms, speedup {by_size[str(n)]['speedup']}x, "
            f"mismatches {miss}/{len(racks)}"
        )
    # Re-solve the mismatching racks, each with a RuleSet of its own (no warm start).
    recheck = missed[:RECHECK_LIMIT]
    if recheck:
        fresh = run_worker(python, [pairs_of(m["rack_ids"]) for m in recheck], [], fresh=True)
        for m, got in zip(recheck, fresh["results"], strict=True):
            m["peer_fresh_placed"] = got["placed"]
    causes: Counter[str] = Counter()
    for m in missed:
        m["cause"] = _cause(
            m["ours_placed"],
            m["peer_placed"],
            m["peer_fresh_placed"],
            m["ours_melds_valid_rummikub"],
            m["peer_sets_valid_remi"],
        )
        causes[m["cause"]] += 1
        log(f"  MISMATCH ({m['cause']}) {m}")
    return {
        "peer_ran": True,
        "peer_version": peer["version"],
        "peer_backend": peer["backend"],
        "peer_packages": peer["packages"],
        "peer_speedup_min": min(v["speedup"] for v in by_size.values()),
        "peer_mismatches": len(missed) - causes["peer_warm_start"],
        "peer_mismatches_raw": len(missed),
        "peer_mismatch_causes": dict(sorted(causes.items())),
        "peer_mismatch_examples": missed[:MAX_EXAMPLES],
        "peer_invalid_solutions": invalid,
        "ours_not_rummikub_melds": not_rummikub,
        "peer_racks": len(flat),
        "peer": by_size,
        "peer_setup_s": peer["setup_s"],
        "peer_warmup_s": peer["warmup_s"],
        "peer_timed_cpu_per_wall": (
            round(peer["cpu_s"] / peer["wall_s"], 2) if peer["wall_s"] else None
        ),
        "peer_subprocess_s": round(peer_wall, 1),
    }


# -- the run ---------------------------------------------------------------------------------


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
    if families:
        result.update(time_families(rules, family_count, seed, out))
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
