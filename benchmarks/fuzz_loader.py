"""Fuzzer of the strict loaders: ``remi_rules.serde.load_game`` / ``load_record`` and
their JSON-text forms on mutations of valid saved games and records.

Usage::

    python benchmarks/fuzz_loader.py [--cases 2000] [--seed 0] [--games 2]

Plays ``--games`` seeded rounds of every preset (2, 3 and 4 players) with a simple
random policy built on ``Game.legal_steps()`` (:func:`play_randomly`), saves games and
records at several points, then loads ``--cases`` seeded mutations of them: wrong
types, missing and extra keys, duplicated, missing and moved tile ids, impossible
phases, huge numbers, deep nesting, swapped values, small changes of a number or a
flag, truncated or damaged JSON text.  Each case is loaded once and counted:

* ``accepted``: loaded (the mutation was harmless or made another valid save, such
  as a record with another deal; ``accepted_by_mutation`` counts them by mutation);
* ``rejected``: refused with ``InvalidStateError`` (``codes`` counts them by code);
* ``other_exceptions``: anything else was raised (must be 0);
* ``accepted_but_invariant_broken``: an accepted game whose tile census or phase
  invariants fail, that cannot go on, or that does not dump back equal to what was
  loaded; an accepted record that does not replay or dump back equal (must be 0);
* ``engine_errors``: refusals of a record the engine failed on with an exception of
  its own, wrapped by the loader (informative: each is an engine bug to report).

The last line printed is one JSON object with those keys.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from typing import Any

from fuzzing.invariants import game_invariants, message_invariants, record_invariants
from fuzzing.mutate import mutate
from fuzzing.play import sample_games

from remi_rules import (
    serde,
)
from remi_rules.errors import InvalidStateError

# -- the run ----------------------------------------------------------------------------------


def run(cases: int = 2000, *, seed: int = 0, games: int = 2) -> dict[str, Any]:
    """Load ``cases`` mutations and count the outcomes (see the module's doc)."""
    started = time.perf_counter()
    docs: list[tuple[str, dict[str, Any]]] = []
    rules_of: dict[int, Any] = {}
    for game in sample_games(games, seed=seed):
        docs.append(("game", serde.dump_game(game)))
        docs.append(("record", serde.dump_record(game)))
        for seat in range(game.state.players):
            rules_of[len(docs)] = game.rules
            docs.append(("view", serde.dump_view(game.view(seat), with_rules=False)))
        fielded = [serde.dump_step(s) for s in game.legal_steps()]
        docs.extend(("step", data) for data in fielded[:8] if len(data) > 1)
    rng = random.Random(seed)
    codes: Counter[str] = Counter()
    mutations: Counter[str] = Counter()
    accepted: Counter[str] = Counter()
    out: dict[str, Any] = {
        "cases": 0,
        "accepted": 0,
        "rejected": 0,
        "other_exceptions": 0,
        "accepted_but_invariant_broken": 0,
        "engine_errors": 0,
    }
    examples: list[str] = []
    for _ in range(cases):
        index = rng.randrange(len(docs))
        kind, doc = docs[index]
        how, data = mutate(doc, rng)
        mutations[how] += 1
        out["cases"] += 1
        loaded: Any
        try:
            if kind == "view":
                rules = rules_of[index]
                loaded = (
                    serde.loads_view(data, rules)
                    if isinstance(data, str)
                    else serde.load_view(data, rules)
                )
            elif kind == "step":
                loaded = serde.loads_step(data) if isinstance(data, str) else serde.load_step(data)
            elif kind == "game":
                loaded = serde.loads_game(data) if isinstance(data, str) else serde.load_game(data)
            else:
                loaded = (
                    serde.loads_record(data) if isinstance(data, str) else serde.load_record(data)
                )
        except InvalidStateError as err:
            out["rejected"] += 1
            codes[err.code.value] += 1
            if "engine_error" in err.details:
                out["engine_errors"] += 1
                if len(examples) < 10:
                    examples.append(f"engine error on {kind}/{how}: {err}")
            continue
        except Exception as err:
            out["other_exceptions"] += 1
            if len(examples) < 10:
                examples.append(f"{kind}/{how}: {type(err).__name__}: {err}"[:300])
            continue
        out["accepted"] += 1
        accepted[how] += 1
        if kind in ("view", "step"):
            problem = message_invariants(kind, loaded)
        elif kind == "game":
            problem = game_invariants(loaded, data)
        else:
            problem = record_invariants(loaded, data)
        if problem is not None:
            out["accepted_but_invariant_broken"] += 1
            if len(examples) < 10:
                examples.append(f"accepted {kind}/{how}: {problem}"[:300])
    out["codes"] = dict(sorted(codes.items()))
    out["mutations"] = dict(sorted(mutations.items()))
    out["accepted_by_mutation"] = dict(sorted(accepted.items()))
    out["samples"] = len(docs)
    out["seed"] = seed
    out["seconds"] = round(time.perf_counter() - started, 2)
    out["examples"] = examples
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--games", type=int, default=2, help="games per preset")
    args = parser.parse_args(argv)
    result = run(args.cases, seed=args.seed, games=args.games)
    for line in result["examples"]:
        print(line)
    print(json.dumps(result, sort_keys=True))
    bad = result["other_exceptions"] or result["accepted_but_invariant_broken"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
