"""A digest of every step list the engine gives over many reachable positions, to show
that a change to the engine (a faster generator, a cache) lists exactly the same
steps: run it on two commits and compare the digests.

Usage::

    python benchmarks/listed_digest.py [--rounds 12] [--policy-rounds 12]
                                       [--finishable-every 5] [--preset clasic ...]

Per preset, positions of two kinds of round (4 seats, ``max_turns_per_round`` 120):

* ``--rounds`` rounds of benchmarks/bench_protocol.py's uniform random player over
  ``game.legal_steps(seat)`` (with its undos, up to and past the undo cap);
* ``--policy-rounds`` rounds of 2, 3 and 4 seats played by the varied policy of
  tests/engine_policies.py (openings, takes from the row and the atu, lay-offs, joker
  swaps, undos, announcements, doubles, pe tablă).

At each position the digest takes in the state (its ``repr``), ``game.legal_steps()``,
``game.legal_steps(seat)`` for every seat, at every ``--finishable-every``-th position
``game.legal_steps(seat, finishable=True)`` of the seat to move, and the events of
the step then applied.  Prints per preset the positions and lists compared and the
SHA-256 of them, and last one JSON object.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

import attrs

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from engine_policies import PRESETS, play_states

from remi_rules import variants
from remi_rules.engine import Game


class _Digest:
    def __init__(self) -> None:
        self.sha = hashlib.sha256()
        self.positions = 0
        self.lists = 0

    def add(self, label: str, value: object) -> None:
        self.sha.update(f"{label}={value!r}\n".encode())

    def position(self, game: Game, k: int, every: int) -> None:
        self.positions += 1
        self.add("state", game.state)
        self.add("all", game.legal_steps())
        for seat in range(game.state.players):
            self.add(f"seat{seat}", game.legal_steps(seat))
        self.lists += 1 + game.state.players
        if every and k % every == 0 and not game.over:
            seat = game.state.current
            self.add("finishable", game.legal_steps(seat, finishable=True))
            self.lists += 1


def _random_rounds(digest: _Digest, preset: str, rounds: int, every: int) -> None:
    rules = attrs.evolve(variants.get(preset), max_turns_per_round=120)
    for k in range(rounds):
        game = Game.new(rules, 4, seed=f"1-{preset}-{k}")
        rng = random.Random(f"1-{k}")
        n = 0
        while not game.over:
            digest.position(game, n, every)
            seat = game.state.current
            step = rng.choice(game.legal_steps(seat))
            digest.add("events", game.apply(step, seat=seat))
            n += 1
        digest.position(game, n, every)


def _policy_rounds(digest: _Digest, preset: str, rounds: int, every: int) -> None:
    for seed in range(rounds):
        for n, at in enumerate(play_states(preset, 2 + seed % 3, seed)):
            digest.position(at.game, n, every)


def run(presets: tuple[str, ...], rounds: int, policy_rounds: int, every: int) -> dict[str, Any]:
    """Per preset: the positions, the lists and their digest."""
    out: dict[str, Any] = {}
    for preset in presets:
        digest = _Digest()
        _random_rounds(digest, preset, rounds, every)
        _policy_rounds(digest, preset, policy_rounds, every)
        out[preset] = {
            "positions": digest.positions,
            "lists": digest.lists,
            "sha256": digest.sha.hexdigest(),
        }
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--policy-rounds", type=int, default=12)
    parser.add_argument("--finishable-every", type=int, default=5)
    parser.add_argument("--preset", action="append", choices=PRESETS)
    args = parser.parse_args(argv)
    presets = tuple(args.preset or PRESETS)
    result = run(presets, args.rounds, args.policy_rounds, args.finishable_every)
    for preset, figures in result.items():
        print(
            f"{preset}: {figures['positions']} positions, {figures['lists']} lists, "
            f"sha256 {figures['sha256']}"
        )
    print(json.dumps(result, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
