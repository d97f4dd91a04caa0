"""Harvest the slow solver calls of real play: the racks of ``REACHABLE`` in solver_racks.py.

Usage::

    python benchmarks/solver_harvest.py --preset clasic --players 2 --seeds 1-300 \
        [--over-ms 50] [--round-limit-s 20] [--out harvest.jsonl]

Plays seeded rounds of random bots (``remi_rules.sim.tasks.run_round``, the rounds
``remi-rules simulate --bots random,...`` plays) with every call of the solver's search
(``remi_rules._partition.solve``, whoever calls it: the solver's API, the hint, a
rupere check, a bot) timed; a call over ``--over-ms`` is written as one JSON line: the
preset, the players and seed, the calling function, the rack in notation, the
arguments (objective, constraints, the lay-off values ``extra`` gave per field) and the
CPU time (``time.thread_time``).  A round over ``--round-limit-s`` of CPU time is stopped
(``SIGVTALRM``; the machine is shared) and the call it was in is written with
``"stopped": true``.  The last line is a summary JSON object.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from remi_rules import _partition as partition
from remi_rules import variants
from remi_rules.sim import tasks
from remi_rules.tiles import tiles_str


class _Stop(Exception):
    """The round ran over its time limit."""


def rack_of(counts: Sequence[int]) -> str:
    """The hand ``counts`` in notation."""
    return tiles_str(partition.tile_of_field(f) for f, k in enumerate(counts) for _ in range(k))


def call_record(counts: Sequence[int], kwargs: dict[str, Any]) -> dict[str, Any]:
    """A solve call's arguments as JSON data (``extra`` as its value per held field)."""
    extra: Callable[[int], int] | None = kwargs.get("extra")
    constraints = kwargs.get("constraints", partition.Constraints())
    lay = {}
    if extra is not None:
        for f, k in enumerate(counts[: partition.REAL_FIELDS]):
            if k and extra(f):
                lay[str(partition.tile_of_field(f))] = extra(f)
    return {
        "rack": rack_of(counts),
        "tiles": sum(counts),
        "tiles_objective": bool(kwargs.get("tiles_objective", False)),
        "constraints": constraints._asdict(),
        "extra": lay if extra is not None else None,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="clasic")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seeds", default="1-100", help="first-last, inclusive")
    parser.add_argument("--over-ms", type=float, default=50.0)
    parser.add_argument("--round-limit-s", type=float, default=20.0)
    parser.add_argument("--out", default="-")
    args = parser.parse_args(argv)
    first, last = (int(x) for x in args.seeds.split("-"))
    rules = variants.get(args.preset)
    out = sys.stdout if args.out == "-" else open(args.out, "a")  # noqa: SIM115
    solve = partition.solve
    current: dict[str, Any] = {}
    slow_calls = 0
    worst_round = (0.0, 0)

    def timed(counts: Sequence[int], rules: Any, **kwargs: Any) -> Any:
        caller = sys._getframe(1).f_code
        current.update(counts=counts, kwargs=kwargs, caller=caller.co_name, t0=time.thread_time())
        try:
            return solve(counts, rules, **kwargs)
        finally:
            ms = (time.thread_time() - current["t0"]) * 1000
            if ms > args.over_ms and not current.get("stopped"):
                write(ms, stopped=False)
            current.clear()

    def write(ms: float, *, stopped: bool) -> None:
        nonlocal slow_calls
        slow_calls += 1
        record = {
            "preset": args.preset,
            "players": args.players,
            "seed": seed,
            "caller": current["caller"],
            "ms": round(ms, 1),
            "stopped": stopped,
            **call_record(current["counts"], current["kwargs"]),
        }
        print(json.dumps(record), file=out, flush=True)

    def alarm(signum: int, frame: Any) -> None:
        if current:
            write((time.thread_time() - current["t0"]) * 1000, stopped=True)
            current["stopped"] = True
        raise _Stop

    partition.solve = timed
    signal.signal(signal.SIGVTALRM, alarm)
    stopped_rounds = []
    bots = ("random",) * args.players
    for seed in range(first, last + 1):
        t0 = time.thread_time()
        signal.setitimer(signal.ITIMER_VIRTUAL, args.round_limit_s)
        try:
            tasks.run_round(rules, bots, seed)
        except _Stop:
            stopped_rounds.append(seed)
        finally:
            signal.setitimer(signal.ITIMER_VIRTUAL, 0)
        dt = time.thread_time() - t0
        worst_round = max(worst_round, (dt, seed))
    summary = {
        "preset": args.preset,
        "players": args.players,
        "seeds": args.seeds,
        "slow_calls": slow_calls,
        "stopped_rounds": stopped_rounds,
        "worst_round_s": round(worst_round[0], 2),
        "worst_round_seed": worst_round[1],
    }
    print(json.dumps({"summary": summary}), file=out, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
