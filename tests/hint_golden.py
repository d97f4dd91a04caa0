"""The seeded views whose hint plans are kept in tests/golden/hint_plans.json.

The plans were recorded from the hint as it stood before its search was pruned
(commit a94c612), so tests/test_hint.py checks that the faster search makes the same
choices.  Rounds are played from seeds, each seat's bot choosing its steps; at every
step the current seat chooses, its view is given to the hint (``samples=1``, what
the greedy bot uses; every fourth view also with the default ``samples=3``; a view
with a take still to justify also with ``samples=0``, what the random bot uses).

Regenerate (only on purpose, when a plan is meant to change)::

    PYTHONPATH=src python tests/hint_golden.py --write

The wide comparison, by hand: ``--wide-write FILE`` records the views themselves (as
:func:`~remi_rules.serde.dump_view` JSON, one per line) of other seeded rounds, with the
plan the hint of this checkout makes for each; ``--wide-compare FILE``, run on another
checkout, asks its hint the same views and reports every plan that differs (with both
valuations: a documented improvement scores higher).  The views are read back from the
file, so the comparison does not depend on the choices of the hint being compared::

    git stash; PYTHONPATH=src python tests/hint_golden.py --wide-write /tmp/wide.jsonl
    git stash pop; PYTHONPATH=src python tests/hint_golden.py --wide-compare /tmp/wide.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from remi_rules import serde, variants
from remi_rules.bots import GreedyBot, RandomBot
from remi_rules.engine import (
    AnnounceAtu,
    AnnounceFewTiles,
    Close,
    DeclarePeTabla,
    Discard,
    Game,
    LayOff,
    MeldTiles,
    Phase,
    PlayerView,
    Rupere,
    Step,
    SwapJoker,
    TakeLastDiscard,
)
from remi_rules.engine.steps import tile_label
from remi_rules.hints import TurnPlan, hint

GOLDEN = Path(__file__).parent / "golden" / "hint_plans.json"
PRESETS = ("clasic", "online", "rummy45")
ROUNDS = 10
"""Rounds per preset: seeds 0 … 9, with 2, 3 and 4 players in turn."""
MAX_VIEWS = 160
"""Views kept per round at most (the early turns of a long round are enough)."""


def _bots(seed: int, players: int) -> list[GreedyBot | RandomBot]:
    """All greedy in even rounds; greedy and random seats in turn in odd ones."""
    if seed % 2 == 0:
        return [GreedyBot() for _ in range(players)]
    return [GreedyBot() if s % 2 == 0 else RandomBot(seed=seed * 10 + s) for s in range(players)]


def legacy_text(step: Step) -> str:
    """A step as ``str(step)`` wrote it when the plans were recorded (tile values,
    not copies: ``meld 6R 7R 8R``, ``take last discard``, ``lay off 9G on meld 2
    (high)``), so the golden file needs no rewriting when the notation changes."""
    match step:
        case TakeLastDiscard():
            return "take last discard"
        case Rupere(index=index):
            return f"rupere at {index}"
        case MeldTiles(tiles=tiles):
            return "meld " + " ".join(tile_label(i) for i in tiles)
        case LayOff(tile=tile, meld=meld, end=end):
            shown = f" ({end.value})" if end is not None else ""
            return f"lay off {tile_label(tile)} on meld {meld}{shown}"
        case SwapJoker(tile=tile, meld=meld, joker=joker):
            return f"swap {tile_label(tile)} for joker {joker} in meld {meld}"
        case Discard(tile=tile):
            return f"discard {tile_label(tile)}"
        case Close(tile=tile):
            return f"close with {tile_label(tile)}"
        case AnnounceFewTiles(seat=seat):
            return f"seat {seat} announces few tiles"
        case AnnounceAtu(seat=seat):
            return f"seat {seat} announces the atu"
        case DeclarePeTabla(seat=seat):
            return f"seat {seat} declares pe tablă"
    return str(step)  # draw, take atu, undo: written the same


def record(plan: TurnPlan) -> dict[str, Any]:
    """A plan as JSON: its steps, notes (code and details) and valuation."""
    return {
        "steps": [legacy_text(step) for step in plan.steps],
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


def views(
    preset: str, rounds: range = range(ROUNDS), max_views: int = MAX_VIEWS
) -> Iterator[tuple[dict[str, Any], PlayerView, int]]:
    """``(where, view, samples)`` for every hint asked of the preset's rounds."""
    rules = variants.get(preset)
    for seed in rounds:
        players = 2 + seed % 3
        game = Game.new(rules, players, seed=1_000 + seed)
        bots = _bots(seed, players)
        count = 0
        while not game.over and count < max_views:
            for s, bot in enumerate(bots):
                if game.over:
                    break
                react = getattr(bot, "react", None)
                step = react(game.view(s)) if react is not None else None
                if step is not None:
                    game.apply(step)
            if game.over:
                break
            seat = game.state.current
            view = game.view(seat)
            where = {"seed": seed, "players": players, "view": count, "turn": view.turn}
            yield where, view, 1
            if count % 4 == 0:
                yield where, view, 3
            turn = view.own_turn
            if view.phase is not Phase.TAKE and turn is not None and turn.obligation is not None:
                yield where, view, 0
            count += 1
            game.apply(bots[seat].choose(view))


def generate() -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for preset in PRESETS:
        out[preset] = [
            {**where, "samples": samples, "plan": record(hint(view, samples=samples))}
            for where, view, samples in views(preset)
        ]
    return out


WIDE_ROUNDS = range(100, 160)
"""The wide set's rounds (seeds 100 … 159 per preset, none of the golden file's)."""
WIDE_VIEWS = 2_000
"""Views per preset in the wide set."""


def wide_write(path: Path) -> None:
    """Record the wide set's views and this checkout's plans, one JSON line each."""
    with path.open("w", encoding="utf-8") as out:
        for preset in PRESETS:
            kept = 0
            for where, view, samples in views(preset, WIDE_ROUNDS, 10_000):
                if kept >= WIDE_VIEWS:
                    break
                line = {
                    "preset": preset,
                    **where,
                    "samples": samples,
                    "view": serde.dump_view(view, with_rules=False),
                    "plan": record(hint(view, samples=samples)),
                }
                out.write(json.dumps(line, ensure_ascii=False) + "\n")
                kept += 1
            print(f"{preset}: {kept} views", flush=True)


def wide_compare(path: Path) -> int:
    """Ask this checkout's hint the recorded views; report the plans that differ."""
    counts: Counter[tuple[str, str]] = Counter()
    with path.open(encoding="utf-8") as lines:
        for text in lines:
            line = json.loads(text)
            preset = line["preset"]
            view = serde.load_view(line["view"], variants.get(preset))
            got = record(hint(view, samples=line["samples"]))
            want = line["plan"]
            if got == want:
                counts[preset, "same"] += 1
                continue
            verdict = (
                "better"
                if got["score"] > want["score"]
                else "worse"
                if got["score"] < want["score"]
                else "equal score"
            )
            counts[preset, verdict] += 1
            where = {k: line[k] for k in ("seed", "players", "view", "turn", "samples")}
            print(f"{preset} {where} {verdict}: {want['score']} -> {got['score']}")
            print(f"  was: {'; '.join(want['steps'])}")
            print(f"  now: {'; '.join(got['steps'])}")
    for (preset, verdict), n in sorted(counts.items()):
        print(f"{preset}: {verdict} {n}")
    return sum(n for (_, verdict), n in counts.items() if verdict != "same")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--write", action="store_true", help="rewrite " + GOLDEN.name)
    group.add_argument("--wide-write", type=Path, metavar="FILE")
    group.add_argument("--wide-compare", type=Path, metavar="FILE")
    args = parser.parse_args()
    if args.write:
        GOLDEN.write_text(json.dumps(generate(), indent=0, ensure_ascii=False) + "\n")
        print(f"wrote {GOLDEN}")
    elif args.wide_write:
        wide_write(args.wide_write)
    else:
        sys.exit(1 if wide_compare(args.wide_compare) else 0)
