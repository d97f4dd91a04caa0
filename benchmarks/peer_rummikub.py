"""The peer worker of benchmarks/bench_solver.py: rummikub-solver 1.0.0 on given racks.

Usage (under the peer's own venv, which bench_solver.py creates)::

    .peer-venv/bin/python benchmarks/peer_rummikub.py RACKS.json RESULT.json

Imports only ``rummikub_solver`` and the standard library, never ``remi_rules``.
``RACKS.json`` (``-`` for stdin) is ``{"warmup": [rack, ...], "racks": [rack, ...],
"fresh": false}``, a rack a list of ``[value, colour]`` pairs (value 1-13, colour 0-3).
Colour ``c`` is the package's ``c``-th :class:`Colour`, so a tile is the ``Number`` of
``RuleSet.tiles`` numbered ``1 + c * 13 + (value - 1)``; the worker checks that against
``RuleSet.tiles`` before it starts.

Each rack is solved with ``RuleSet(jokers=0)`` on an empty table, ``initial=False`` and
``SolverMode.TILE_COUNT`` passed explicitly (the package's default for a state that
has not opened is ``SolverMode.INITIAL``, a different problem).  The warm-up racks are
solved first, untimed: the first solve compiles the cvxpy problem.  Each timed
``RuleSet.solve`` call is measured with ``time.perf_counter_ns``, and its CPU time with
``time.process_time_ns`` (garbage collection off during the timed loop, the game state
built outside it).

One ``RuleSet`` solves all the racks, as a program using the package would.  Its cvxpy
problem is solved with cvxpy's default ``warm_start=True``, which hands the previous
rack's solution to HiGHS as a MIP start, and HiGHS 1.16 then sometimes returns that
start, feasible but not optimal, as "optimal".  ``"fresh": true`` solves each rack with
a ``RuleSet`` of its own instead (no previous solution; about a second per rack to build,
so only for re-checking a few racks; the times are then not comparable).

The result goes to ``RESULT.json``, not stdout (HiGHS prints its banner there):
``{"version", "packages", "backend", "setup_s", "warmup_s", "cpu_s", "wall_s",
"results": [{"placed", "ns", "cpu_ns", "sets"}, ...]}``: ``packages`` the versions of
the peer's dependencies (only the peer itself is pinned), ``cpu_ns`` the process's CPU
time of the call (all its threads), ``sets`` the proposed sets as ``[value, colour]``
pairs.
"""

from __future__ import annotations

import gc
import importlib.metadata
import json
import sys
import time

import rummikub_solver
from rummikub_solver import Colour, Number, RuleSet, SolverMode

COLOURS = tuple(Colour)[:4]


def tile_map(rules: RuleSet) -> dict[tuple[int, int], Number]:
    """``(value, colour) -> Number`` from ``RuleSet.tiles``, checked against the
    documented numbering ``1 + colour * 13 + (value - 1)``."""
    out: dict[tuple[int, int], Number] = {}
    for tile in rules.tiles:
        assert isinstance(tile, Number), f"unexpected tile {tile!r} (jokers=0)"
        key = (tile.value, COLOURS.index(tile.colour))
        assert int(tile) == 1 + key[1] * 13 + (key[0] - 1), (tile, key)
        out[key] = tile
    assert len(out) == 52, len(out)
    return out


def _installed(name: str) -> bool:
    try:
        importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return False
    return True


def pair(tile: object) -> list[int]:
    assert isinstance(tile, Number), tile
    return [tile.value, COLOURS.index(tile.colour)]


def main(argv: list[str]) -> int:
    src, dst = argv
    with sys.stdin if src == "-" else open(src, encoding="utf-8") as f:
        job = json.load(f)
    t0 = time.perf_counter()
    rules = RuleSet(jokers=0)
    tiles = tile_map(rules)
    setup_s = time.perf_counter() - t0

    def state(rules: RuleSet, rack: list[list[int]]) -> object:
        st = rules.new_game()  # an empty table
        st.add_rack(*(tiles[v, c] for v, c in rack))
        st.initial = False
        return st

    t0 = time.perf_counter()
    for rack in job["warmup"]:
        rules.solve(state(rules, rack), SolverMode.TILE_COUNT)
    warmup_s = time.perf_counter() - t0

    timer, cpu = time.perf_counter_ns, time.process_time_ns  # HiGHS may use threads
    mode = SolverMode.TILE_COUNT
    times: list[int] = []
    cpus: list[int] = []
    sols = []
    if job.get("fresh"):
        cpu0, wall0 = time.process_time(), time.perf_counter()
        for rack in job["racks"]:
            own = RuleSet(jokers=0)
            st = state(own, rack)
            t0, c0 = timer(), cpu()
            sols.append(own.solve(st, mode))
            cpus.append(cpu() - c0)
            times.append(timer() - t0)
        cpu_s, wall_s = time.process_time() - cpu0, time.perf_counter() - wall0
    else:
        states = [state(rules, rack) for rack in job["racks"]]
        solve = rules.solve
        gc.collect()
        gc.disable()
        cpu0, wall0 = time.process_time(), time.perf_counter()
        try:
            for st in states:
                t0 = timer()
                c0 = cpu()
                sol = solve(st, mode)
                c1 = cpu()
                t1 = timer()
                times.append(t1 - t0)
                cpus.append(c1 - c0)
                sols.append(sol)
        finally:
            cpu_s, wall_s = time.process_time() - cpu0, time.perf_counter() - wall0
            gc.enable()
    results = [
        {
            "placed": 0 if sol is None else len(sol.tiles),
            "ns": ns,
            "cpu_ns": cpu_ns,
            "sets": [] if sol is None else [[pair(t) for t in s] for s in sol.sets],
        }
        for sol, ns, cpu_ns in zip(sols, times, cpus, strict=True)
    ]
    out = {
        "version": rummikub_solver.__version__,
        "packages": {
            name: importlib.metadata.version(name)
            for name in ("cvxpy-base", "highspy", "numpy", "scipy")
            if _installed(name)
        },
        "backend": str(rules.backend),
        "setup_s": round(setup_s, 3),
        "warmup_s": round(warmup_s, 3),
        "cpu_s": round(cpu_s, 3),
        "wall_s": round(wall_s, 3),
        "results": results,
    }
    with open(dst, "w", encoding="utf-8") as f:
        json.dump(out, f)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
