"""The greedy bots' hints recorded and replayed (``benchmarks/bench_bots.py
--record-hints FILE`` / ``--replay-hints FILE``): every view a greedy bot asks a hint
about in rounds ``0 … N-1``, with the plan this checkout makes, one JSON line each;
replayed on another checkout, the plans that differ are counted (a change's "same
choices" check, and the hint's own workload for callgrind)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from remi_rules import serde, variants
from remi_rules.bots import GreedyBot
from remi_rules.engine import Game, play_round
from remi_rules.hints import TurnPlan, hint

__all__ = ["plan_record", "record_hints", "replay_hints"]


def plan_record(plan: TurnPlan) -> dict[str, Any]:
    """A plan as JSON, to compare two checkouts' plans: its steps, its notes (code and
    details) and its valuation."""
    return {
        "steps": [str(step) for step in plan.steps],
        "notes": [
            [note.code.value, {k: str(v) for k, v in sorted(note.details.items())}]
            for note in plan.notes
        ],
        "complete": plan.complete,
        "closes": plan.closes,
        "opens": plan.opens,
        "points": plan.points,
        "score": plan.score,
    }


def record_hints(presets: list[str], rounds: int, path: Path) -> dict[str, Any]:
    """Play rounds ``0 … rounds-1`` of each preset with four greedy bots and write
    every view they ask a hint about, with this checkout's plan, to ``path``."""
    import remi_rules.bots as bots_module

    plain = vars(bots_module)["hint"]
    written = 0
    with path.open("w", encoding="utf-8") as out:
        for preset in presets:
            rules = variants.get(preset)

            def recorded(
                view: Any, rules: Any = None, *, samples: int = 3, preset: str = preset
            ) -> Any:
                nonlocal written
                plan = plain(view, rules, samples=samples)
                line = {
                    "preset": preset,
                    "samples": samples,
                    "view": serde.dump_view(view, with_rules=False),
                    "plan": plan_record(plan),
                }
                out.write(json.dumps(line, ensure_ascii=False) + "\n")
                written += 1
                return plan

            vars(bots_module)["hint"] = recorded
            try:
                for seed in range(rounds):
                    play_round(Game.new(rules, 4, seed=seed), [GreedyBot() for _ in range(4)])
            finally:
                vars(bots_module)["hint"] = plain
    return {"recorded": written, "file": str(path)}


def replay_hints(path: Path) -> dict[str, Any]:
    """Ask this checkout's hint every view of ``path`` (:func:`record_hints`); count
    the plans that differ from the recorded ones."""
    with path.open(encoding="utf-8") as lines:
        recorded = [json.loads(text) for text in lines]
    views = [
        (serde.load_view(line["view"], variants.get(line["preset"])), line) for line in recorded
    ]
    differ: list[dict[str, Any]] = []
    cpu = time.process_time()
    for view, line in views:
        got = plan_record(hint(view, samples=line["samples"]))
        if got != line["plan"]:
            differ.append({"turn": view.turn, "seat": view.seat, "was": line["plan"], "now": got})
    cpu = time.process_time() - cpu
    return {
        "views": len(views),
        "plans_differ": len(differ),
        "differ_examples": differ[:3],
        "hint_cpu_s": round(cpu, 3),
    }
