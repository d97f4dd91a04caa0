"""The garbage collector's pauses in the web table's server (docs/web.md, "Load").

Usage::

    python benchmarks/bench_web_gc.py [--tables 50] [--steps 6000]

Plays ``--steps`` steps at ``--tables`` tables of four connections in this process,
through the server's own :meth:`Table.step` (every connection's update made, as in
``remi-rules serve``, without the network), once with Python's default collector
settings and once after :func:`remi_rules.web.app.tune_gc` (what ``serve`` does), each
in a fresh process.  Reports, in CPU time (the machine's load does not count), the
collections of each generation, the longest pause, the pauses over 10 ms and the
collector's CPU in all.  The last line printed is one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import subprocess
import sys
import time
from typing import Any

from remi_rules import serde
from remi_rules.web.app import tune_gc
from remi_rules.web.registry import Registry
from remi_rules.web.specs import TableSpec
from remi_rules.web.tables import Client, Table


def mover_step(table: Table) -> tuple[int, dict[str, Any]]:
    """The seat to move and a step of it: draw, else discard, else the first that
    lets the turn end (as bench_web.py's clients choose)."""
    game = table.match.game
    seat = game.state.current
    steps = [serde.dump_step(s) for s in game.legal_steps(seat, finishable=True)]
    for kind in ("draw", "discard"):
        for step in steps:
            if step["kind"] == kind:
                return seat, step
    return seat, next(s for s in steps if s["kind"] != "undo")


async def _play(tables: int, steps: int) -> dict[str, Any]:
    registry = Registry(seed=7)
    made = [registry.create(TableSpec(seats=("human",) * 4, rounds=100)) for _ in range(tables)]
    for table in made:
        table.clients.update(Client(s, "en") for s in range(4))
    pauses: dict[int, list[float]] = {0: [], 1: [], 2: []}
    started = [0.0]

    def timed(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            started[0] = time.process_time()
        else:
            pauses[info["generation"]].append((time.process_time() - started[0]) * 1000)

    gc.callbacks.append(timed)
    cpu = time.process_time()
    done = 0
    while done < steps:
        for table in made:
            sender = next(iter(table.clients))
            if table.match.game.over:
                await table.next_round(sender)
            else:
                seat, step = mover_step(table)
                await table.step(next(c for c in table.clients if c.seat == seat), step)
                done += 1
            for client in table.clients:
                while not client.queue.empty():
                    client.queue.get_nowait()
    cpu = time.process_time() - cpu
    gc.callbacks.remove(timed)
    every = sorted(p for found in pauses.values() for p in found)
    return {
        "steps": done,
        "cpu_ms_per_step": round(cpu * 1000 / done, 2),
        "collections": {str(g): len(found) for g, found in pauses.items()},
        "full_collection_ms": [round(p, 1) for p in pauses[2]],
        "longest_pause_ms": round(every[-1], 1) if every else 0.0,
        "pauses_over_10ms": sum(p > 10 for p in every),
        "gc_cpu_ms": round(sum(every)),
        "tracked_objects": len(gc.get_objects()),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--steps", type=int, default=6000)
    parser.add_argument("--one", choices=("default", "tuned"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if not 1 <= args.tables <= 500 or not 1 <= args.steps <= 100_000:
        parser.error("--tables 1..500, --steps 1..100000")
    if args.one is not None:
        if args.one == "tuned":
            tune_gc()
        print(json.dumps(asyncio.run(_play(args.tables, args.steps))))
        return
    out: dict[str, Any] = {"tables": args.tables}
    for mode in ("default", "tuned"):
        command = [sys.executable, __file__, "--one", mode]
        command += ["--tables", str(args.tables), "--steps", str(args.steps)]
        answer = subprocess.run(command, capture_output=True, text=True, check=True)
        out[mode] = json.loads(answer.stdout.strip().splitlines()[-1])
        print(json.dumps({mode: out[mode]}), flush=True)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
