"""The peer worker of benchmarks/bench_protocol.py: OpenSpiel's ``gin_rummy`` played by
a uniform random player, timed per step as the protocol benchmark times remi_rules.

Usage (under OpenSpiel's own venv, never the project's)::

    python -m venv /tmp/ospiel && /tmp/ospiel/bin/pip install open_spiel
    /tmp/ospiel/bin/python benchmarks/peer_openspiel.py --rounds 20 --seed 1

Imports only ``pyspiel`` and the standard library, never ``remi_rules``.  Each round is
a new initial state of ``gin_rummy`` played to its end: at a decision node the player
asks ``state.legal_actions()``, picks one uniformly (``random.Random(seed)``) and
applies it; a chance node (the deal, a draw from the stock) applies a uniformly chosen
outcome.  Timed with ``time.perf_counter_ns``: ``step_us``, a decision step (the
legal actions, the choice, the apply: what the remi_rules benchmark times as a step),
``legal_us`` (``legal_actions()`` alone) and ``chance_us`` (a chance node).  The last
line printed is one JSON object: ``{"version", "rounds", "steps", "chance_nodes",
"step_us": {"median", "p99"}, "legal_us": {...}, "chance_us": {...}}``.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import random
import statistics
import time

import pyspiel


def _summary(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    if not ordered:
        return {"median": 0.0, "p99": 0.0, "mean": 0.0}
    return {
        "median": round(statistics.median(ordered), 2),
        "p99": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))], 2),
        "mean": round(statistics.fmean(ordered), 2),
    }


def run(rounds: int, seed: int) -> dict[str, object]:
    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(seed)
    steps: list[float] = []
    legal: list[float] = []
    chance: list[float] = []
    for _ in range(rounds):
        state = game.new_initial_state()
        while not state.is_terminal():
            t0 = time.perf_counter_ns()
            if state.is_chance_node():
                action = rng.choice(state.chance_outcomes())[0]
                state.apply_action(action)
                chance.append((time.perf_counter_ns() - t0) / 1000)
                continue
            actions = state.legal_actions()
            t1 = time.perf_counter_ns()
            state.apply_action(rng.choice(actions))
            t2 = time.perf_counter_ns()
            legal.append((t1 - t0) / 1000)
            steps.append((t2 - t0) / 1000)
    return {
        "version": importlib.metadata.version("open_spiel"),
        "rounds": rounds,
        "steps": len(steps),
        "chance_nodes": len(chance),
        "step_us": _summary(steps),
        "legal_us": _summary(legal),
        "chance_us": _summary(chance),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print(json.dumps(run(args.rounds, args.seed), sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
