"""Benchmark of saving and loading (docs/saving.md): ``dumps_game``, ``loads_game`` and
``dump_view`` on real rounds.

Usage::

    python benchmarks/bench_serde.py [--rounds 2] [--repeat 5] [--seed 1] [--against SRC]

Per preset, ``--rounds`` seeded 4-seat rounds are played by a uniform random player
over ``game.legal_steps()`` (``max_turns_per_round`` 120, so that every round ends);
each is saved at its middle step and at its end.  Each save is then timed ``--repeat``
times (the best time kept: a busy machine's noise only ever adds): ``dumps_game`` of
the loaded game, ``loads_game`` of its text, and ``dump_view`` of every seat's view
(``with_rules=False``, a server's message), and ``load_view`` of those (a remote
bot's).  Reported per preset: the total time of each over the saves, in ms (a game's
loading is mostly the replay of its record by the engine), the saves' bytes and
steps.

``--against SRC`` measures another checkout of the library too (its ``src`` folder,
e.g. the main branch's), in a process of its own on the same save texts, alternating
with this one (``--repeat`` processes each, three runs a process), and reports each
figure's best on each side and their ratio, this checkout to that one (below 1: this
one is faster).  The last line printed is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

PRESETS = ("clasic", "online", "rummy45")
FIGURES = ("dumps_game_ms", "loads_game_ms", "dump_view_ms", "load_view_ms")


def make_saves(rounds: int, seed: int) -> dict[str, list[str]]:
    """Per preset, the texts of ``rounds`` rounds saved at their middle and their end."""
    import attrs

    from remi_rules import serde, variants
    from remi_rules.engine import Game

    saves: dict[str, list[str]] = {}
    for preset in PRESETS:
        rules = attrs.evolve(variants.get(preset), max_turns_per_round=120)
        texts = []
        for k in range(rounds):
            rng = random.Random(f"{seed}/{preset}/{k}")
            game = Game.new(rules, 4, seed=rng.randrange(2**32))
            while not game.over:
                game.apply(rng.choice(game.legal_steps()))
            record = game.record()
            middle = Game.replay(record, upto=len(record.steps) // 2)
            texts += [serde.dumps_game(middle), serde.dumps_game(game)]
        saves[preset] = texts
    return saves


def _best(repeat: int, work: Any) -> float:
    """The best time of ``work()`` over ``repeat`` runs, in ms, after one run not
    timed (the converter generates its code for a class when it first meets it)."""
    work()
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return round(best * 1000, 3)


def _figures(texts: list[str], repeat: int) -> dict[str, Any]:
    from remi_rules import serde

    games = [serde.loads_game(text, seed=0) for text in texts]
    views = [game.view(seat) for game in games for seat in range(game.state.players)]
    rules = games[0].rules
    sent = [serde.dump_view(v, with_rules=False) for v in views]
    return {
        "saves": len(texts),
        "bytes": sum(len(text.encode()) for text in texts),
        "steps": sum(len(game.record().steps) for game in games),
        "dumps_game_ms": _best(repeat, lambda: [serde.dumps_game(g) for g in games]),
        "loads_game_ms": _best(repeat, lambda: [serde.loads_game(t, seed=0) for t in texts]),
        "dump_view_ms": _best(
            repeat, lambda: [serde.dump_view(v, with_rules=False) for v in views]
        ),
        "load_view_ms": _best(repeat, lambda: [serde.load_view(d, rules) for d in sent]),
    }


def measure(saves: dict[str, list[str]], repeat: int) -> dict[str, Any]:
    """The figures of every preset's saves (see the module's doc)."""
    return {preset: _figures(texts, repeat) for preset, texts in saves.items()}


def _in_process(src: str, saves_file: str, repeat: int) -> dict[str, Any]:
    """:func:`measure` run by a Python process whose library is ``src``'s."""
    env = {**os.environ, "PYTHONPATH": src}
    args = [sys.executable, __file__, "--worker", saves_file, "--repeat", str(repeat)]
    done = subprocess.run(args, env=env, capture_output=True, text=True, check=True)
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def compare(saves: dict[str, list[str]], repeat: int, against: str) -> dict[str, Any]:
    """This checkout and ``against``'s, alternately, ``repeat`` times each; each
    figure's best on each side and their ratio (this one to that one)."""
    here = str(Path(__file__).resolve().parent.parent / "src")
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
        json.dump(saves, fh)
    try:
        runs: dict[str, list[dict[str, Any]]] = {"this": [], "that": []}
        for _ in range(repeat):
            runs["this"].append(_in_process(here, fh.name, 3))
            runs["that"].append(_in_process(against, fh.name, 3))
    finally:
        os.unlink(fh.name)
    out: dict[str, Any] = {}
    for preset in saves:
        figures: dict[str, Any] = {}
        for name in FIGURES:
            this = min(run[preset][name] for run in runs["this"])
            that = min(run[preset][name] for run in runs["that"])
            figures[name] = {"this": this, "that": that, "ratio": round(this / that, 3)}
        out[preset] = figures
    return out


def run(rounds: int = 2, seed: int = 1, repeat: int = 5, against: str | None = None) -> Any:
    """The report: the figures of this checkout, and the comparison with ``against``."""
    saves = make_saves(rounds, seed)
    report: dict[str, Any] = {"rounds": rounds, "seed": seed, "repeat": repeat}
    report["presets"] = measure(saves, repeat)
    if against is not None:
        report["against"] = against
        report["compared"] = compare(saves, repeat, against)
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=2, help="rounds per preset")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--against", help="another checkout's src folder, to compare with")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        with open(args.worker, encoding="utf-8") as fh:
            print(json.dumps(measure(json.load(fh), args.repeat)))
        return 0
    print(json.dumps(run(args.rounds, args.seed, args.repeat, args.against)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
