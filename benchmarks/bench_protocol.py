"""Benchmark of the frontend protocol (docs/protocol.md): the size of each message
kind, and the cost of what a server does for every step.

Usage::

    python benchmarks/bench_protocol.py [--rounds 20] [--seed 1] [--finishable-every 1]
                                        [--peer-python /tmp/ospiel/bin/python | --no-peer]

Per preset, ``--rounds`` seeded 4-seat rounds are played by a uniform random player
over ``game.legal_steps(seat)`` (the seat to move; ``max_turns_per_round`` 120 so
that every round ends).  Timed with ``time.perf_counter_ns``, each part on its own:

* ``step_us``: a whole step of the random player, the list ``legal_steps(seat)``, the
  choice and ``game.apply(step, seat=seat)``: what OpenSpiel's side times as a step;
* ``legal_steps_us``: the list alone;
* ``finishable_us``: ``legal_steps(seat, finishable=True)`` at every
  ``--finishable-every``-th position of those rounds (the racks of real play: dealt,
  taken, melded), timed apart from the random player (it does not change the game);
  ``finishable_action_us`` the same at the action-phase positions only (a take phase
  asks one question per take, an action phase one per meld, lay-off and swap);
* ``events_out_us``: the events of the step for every seat and a spectator as JSON;
  ``views_out_us``: the views of the four seats without their ruleset;
  ``step_in_us``: a client's step read back (``loads_step`` of the chosen step's text).

Sizes are bytes of compact JSON: a step, an event for a seat, a view with and without
its ruleset, a refusal, a round's result.  Reported: median and p99 per figure.

Side by side (unless ``--no-peer``), OpenSpiel's ``gin_rummy`` is played the same way
(a uniform random player over ``legal_actions()``) by benchmarks/peer_openspiel.py in
OpenSpiel's own venv, run as a subprocess: ``python -m venv /tmp/ospiel &&
/tmp/ospiel/bin/pip install open_spiel``.  Its ``step_us`` is the same figure as
ours; when the venv is missing the report says so (``peer.error``).

The issue's targets it reports on: a uniform random player's step over
``legal_steps(seat)`` at most 100 µs in every preset, and the median of
``legal_steps(seat, finishable=True)`` at most 5 ms.  The last line printed is one
JSON object.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import time
from pathlib import Path
from typing import Any

import attrs

from remi_rules import serde, variants
from remi_rules.engine import Draw, Game, Phase
from remi_rules.errors import IllegalStepError

PRESETS = ("clasic", "online", "rummy45")
PEER = Path(__file__).resolve().parent / "peer_openspiel.py"
PEER_PYTHON = Path("/tmp/ospiel/bin/python")
TARGET_STEP_US = 100.0
TARGET_FINISHABLE_MS = 5.0


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


def _us(t0: int) -> float:
    return (time.perf_counter_ns() - t0) / 1000


def _preset(preset: str, rounds: int, seed: int, every: int) -> dict[str, Any]:
    rules = attrs.evolve(variants.get(preset), max_turns_per_round=120)
    times: dict[str, list[float]] = {
        k: []
        for k in (
            "step_us",
            "legal_steps_us",
            "finishable_us",
            "finishable_action_us",
            "events_out_us",
            "views_out_us",
            "step_in_us",
        )
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
            if every and steps % every == 0:
                t0 = time.perf_counter_ns()
                game.legal_steps(seat, finishable=True)
                took = _us(t0)
                times["finishable_us"].append(took)
                if game.state.phase is Phase.ACTION:
                    times["finishable_action_us"].append(took)
            t0 = time.perf_counter_ns()
            legal = game.legal_steps(seat)
            listed = _us(t0)
            step = rng.choice(legal)
            game.apply(step, seat=seat)
            times["step_us"].append(_us(t0))
            times["legal_steps_us"].append(listed)
            steps += 1
            text = serde.dumps_step(step)
            t0 = time.perf_counter_ns()
            serde.loads_step(text)
            times["step_in_us"].append(_us(t0))
            sizes["step"].append(len(text.encode()))
            new = game.events[sent:]
            sent = len(game.events)
            t0 = time.perf_counter_ns()
            messages = [
                json.dumps(serde.dump_event(e, seat=s)) for s in (None, 0, 1, 2, 3) for e in new
            ]
            times["events_out_us"].append(_us(t0))
            sizes["event"].extend(len(m.encode()) for m in messages)
            t0 = time.perf_counter_ns()
            views = [json.dumps(serde.dump_view(game.view(s), with_rules=False)) for s in range(4)]
            times["views_out_us"].append(_us(t0))
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
    return {
        "steps": steps,
        **{name: _summary(v) for name, v in times.items()},
        "bytes": {name: _summary(v) for name, v in sizes.items()},
    }


def run_peer(python: Path, rounds: int, seed: int) -> dict[str, Any]:
    """OpenSpiel's ``gin_rummy`` under a uniform random player, in its own venv
    (benchmarks/peer_openspiel.py's last line), or ``{"error": ...}``."""
    if not python.exists():
        return {
            "error": f"{python} not found: python -m venv /tmp/ospiel && "
            "/tmp/ospiel/bin/pip install open_spiel"
        }
    try:
        done = subprocess.run(
            [str(python), str(PEER), "--rounds", str(rounds), "--seed", str(seed)],
            capture_output=True,
            text=True,
            timeout=1800,
            check=False,
        )
    except (OSError, subprocess.SubprocessError) as err:
        return {"error": f"{type(err).__name__}: {err}"}
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        tail = " / ".join(done.stderr.strip().splitlines()[-3:])
        return {"error": f"exit {done.returncode}: {tail}"}
    peer: dict[str, Any] = json.loads(lines[-1])
    return peer


def run(
    rounds: int, seed: int, *, every: int = 1, peer: Path | None = None, peer_rounds: int = 100
) -> dict[str, Any]:
    """Every figure of the module's doc; ``peer`` the OpenSpiel venv's python (None:
    no peer)."""
    out: dict[str, Any] = {"rounds": rounds, "seed": seed, "finishable_every": every}
    out["presets"] = {p: _preset(p, rounds, seed, every) for p in PRESETS}
    if peer is not None:
        out["peer"] = run_peer(peer, peer_rounds, seed)
    out["targets"] = {
        "step_us": TARGET_STEP_US,
        "finishable_median_ms": TARGET_FINISHABLE_MS,
        "met": {
            preset: {
                "step_us": figures["step_us"]["median"] <= TARGET_STEP_US,
                "finishable": figures["finishable_us"]["median"] <= 1000 * TARGET_FINISHABLE_MS,
            }
            for preset, figures in out["presets"].items()
        },
    }
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--finishable-every",
        type=int,
        default=1,
        help="time legal_steps(seat, finishable=True) at every N-th position (0: never)",
    )
    parser.add_argument("--peer-python", type=Path, default=PEER_PYTHON)
    parser.add_argument("--peer-rounds", type=int, default=100)
    parser.add_argument("--no-peer", action="store_true")
    args = parser.parse_args(argv)
    peer = None if args.no_peer else args.peer_python
    result = run(
        args.rounds, args.seed, every=args.finishable_every, peer=peer, peer_rounds=args.peer_rounds
    )
    for preset, f in result["presets"].items():
        fin, act = f["finishable_us"], f["finishable_action_us"]
        print(
            f"{preset}: {f['steps']} steps; a random player's step median {f['step_us']['median']}"
            f" µs, p99 {f['step_us']['p99']} µs (legal_steps(seat) {f['legal_steps_us']['median']}"
            f" / {f['legal_steps_us']['p99']} µs); legal_steps(seat, finishable=True) median "
            f"{fin['median'] / 1000:.2f} ms, p99 {fin['p99'] / 1000:.2f} ms (action phase "
            f"{act['median'] / 1000:.2f} / {act['p99'] / 1000:.2f} ms); view "
            f"{f['bytes']['view']['median']:.0f} B ({f['bytes']['view_with_rules']['median']:.0f}"
            " B with its rules)"
        )
    peer_figures = result.get("peer")
    if peer_figures is not None:
        if "error" in peer_figures:
            print(f"OpenSpiel gin_rummy: not run ({peer_figures['error']})")
        else:
            print(
                f"OpenSpiel {peer_figures['version']} gin_rummy: {peer_figures['steps']} steps; "
                f"a random player's step median {peer_figures['step_us']['median']} µs, p99 "
                f"{peer_figures['step_us']['p99']} µs"
            )
    print(json.dumps(result, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
