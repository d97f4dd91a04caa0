"""Benchmark of the frontend protocol (docs/protocol.md): the size of each message
kind, and the cost of what a server does for every step.

Usage::

    python benchmarks/bench_protocol.py [--rounds 20] [--seed 1]

Per preset, ``--rounds`` seeded 4-seat rounds are played by a uniform random player
over ``game.legal_steps(seat)`` (the seat to move; ``max_turns_per_round`` 120 so
that every round ends).  After every step the server's work is timed with
``time.perf_counter_ns``, each part on its own: the seat's legal steps
(``legal_steps_us``, per step), the events of the step for every seat and a spectator
as JSON (``events_out_us``), the views of the four seats without their ruleset
(``views_out_us``), and a client's step read back (``step_in_us``: ``loads_step`` of
the chosen step's text).  Sizes are bytes of compact JSON: a step, an event for a
seat, a view with and without its ruleset, a refusal, a round's result.  Reported:
median and p99 per figure.  The last line printed is one JSON object.

The issue's targets that this reports on: the size of each message kind; the cost of
``legal_steps(seat)`` (its target, 100 µs a step side by side with OpenSpiel's
gin rummy, and ``legal_steps(seat, finishable=True)`` are not built yet).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

import attrs

from remi_rules import serde, variants
from remi_rules.engine import Draw, Game
from remi_rules.errors import IllegalStepError

PRESETS = ("clasic", "online", "rummy45")


def _size(data: Any) -> int:
    return len(json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode())


def _summary(values: list[float]) -> dict[str, float]:
    if not values:
        return {"median": 0.0, "p99": 0.0}
    ordered = sorted(values)
    return {
        "median": round(statistics.median(ordered), 1),
        "p99": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))], 1),
    }


def run(rounds: int, seed: int) -> dict[str, Any]:
    out: dict[str, Any] = {"rounds": rounds, "seed": seed, "presets": {}}
    for preset in PRESETS:
        rules = attrs.evolve(variants.get(preset), max_turns_per_round=120)
        times: dict[str, list[float]] = {
            "legal_steps_us": [],
            "events_out_us": [],
            "views_out_us": [],
            "step_in_us": [],
        }
        sizes: dict[str, list[float]] = {
            k: [] for k in ("step", "event", "view", "view_with_rules", "error", "result")
        }
        steps = 0
        for k in range(rounds):
            game = Game.new(rules, 4, seed=f"{seed}-{preset}-{k}")
            rng = random.Random(f"{seed}-{k}")
            sent = 0
            while not game.over:
                seat = game.state.current
                t0 = time.perf_counter_ns()
                legal = game.legal_steps(seat)
                times["legal_steps_us"].append((time.perf_counter_ns() - t0) / 1000)
                step = rng.choice(legal)
                text = serde.dumps_step(step)
                t0 = time.perf_counter_ns()
                serde.loads_step(text)
                times["step_in_us"].append((time.perf_counter_ns() - t0) / 1000)
                sizes["step"].append(len(text.encode()))
                game.apply(step, seat=seat)
                steps += 1
                new = game.events[sent:]
                sent = len(game.events)
                t0 = time.perf_counter_ns()
                messages = [
                    json.dumps(serde.dump_event(e, seat=s)) for s in (None, 0, 1, 2, 3) for e in new
                ]
                times["events_out_us"].append((time.perf_counter_ns() - t0) / 1000)
                sizes["event"].extend(len(m.encode()) for m in messages)
                t0 = time.perf_counter_ns()
                views = [
                    json.dumps(serde.dump_view(game.view(s), with_rules=False)) for s in range(4)
                ]
                times["views_out_us"].append((time.perf_counter_ns() - t0) / 1000)
                sizes["view"].append(len(views[0].encode()))
                if steps % 50 == 1:
                    sizes["view_with_rules"].append(_size(serde.dump_view(game.view(0))))
                    try:
                        game.verify(Draw(), seat=(seat + 1) % 4)
                    except IllegalStepError as err:
                        sizes["error"].append(_size(serde.dump_error(err, "ro")))
            result = game.result()
            if result is not None:
                sizes["result"].append(_size(serde.dump_result(result)))
        out["presets"][preset] = {
            "steps": steps,
            **{name: _summary(v) for name, v in times.items()},
            "bytes": {name: _summary(v) for name, v in sizes.items()},
        }
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    result = run(args.rounds, args.seed)
    for preset, figures in result["presets"].items():
        print(
            f"{preset}: {figures['steps']} steps; legal_steps(seat) median "
            f"{figures['legal_steps_us']['median']} µs, p99 {figures['legal_steps_us']['p99']} µs; "
            f"view {figures['bytes']['view']['median']:.0f} B "
            f"({figures['bytes']['view_with_rules']['median']:.0f} B with its rules)"
        )
    print(json.dumps(result, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
