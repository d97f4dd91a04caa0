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
import copy
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

from remi_rules import serde, variants
from remi_rules.engine import Game, Phase, Step, Undo, tile_census
from remi_rules.errors import InvalidStateError

PRESETS = variants.names()

# -- a simple random policy -------------------------------------------------------------------

_OUT_OF_TURN = {
    "announce_few_tiles": 0.4,
    "announce_atu": 0.3,
    "declare_pe_tabla": 0.03,
    "offer_doubles": 0.5,
    "accept_doubles": 0.9,
    "demand_redeal": 0.05,
}
_TAKE_WEIGHT = {"draw": 6, "take_last_discard": 3, "rupere": 2, "take_atu": 3}
_ACTION_WEIGHT = {"meld": 3, "lay_off": 3, "swap_joker": 6}


def play_randomly(
    game: Game,
    rng: random.Random,
    *,
    max_steps: int = 600,
    on_step: Callable[[Game], None] | None = None,
) -> Counter[str]:
    """Play ``game`` with a random policy over ``game.legal_steps()`` until it ends or
    ``max_steps`` steps were made; call ``on_step(game)`` after each.  It prefers
    takes, then closing, melding, laying off and swapping, and undoes (marking the
    step undone as a dead end for the rest of the turn) when the turn cannot end.
    Returns how many steps of each kind it made."""
    kinds: Counter[str] = Counter()
    tabu: set[Step] = set()
    stack: list[Step] = []
    turn: tuple[int, int] | None = None
    for _ in range(max_steps):
        if game.over:
            break
        state = game.state
        if (state.turn, state.current) != turn:
            turn, tabu, stack = (state.turn, state.current), set(), []
        steps = game.legal_steps()
        step: Step | None = None
        others = [s for s in steps if not s.in_turn]
        rng.shuffle(others)
        for s in others:
            if rng.random() < _OUT_OF_TURN[s.kind]:
                step = s
                break
        if step is None:
            mine = [s for s in steps if s.in_turn and not isinstance(s, Undo) and s not in tabu]
            takes = [s for s in mine if s.kind in _TAKE_WEIGHT]
            actions = [s for s in mine if s.kind in _ACTION_WEIGHT]
            ends = [s for s in mine if s.kind in ("discard", "close")]
            closes = [s for s in ends if s.kind == "close"]
            if takes:
                step = rng.choices(takes, [_TAKE_WEIGHT[s.kind] for s in takes])[0]
            elif closes and rng.random() < 0.9:
                step = closes[0]
            elif actions and (not ends or rng.random() < 0.7):
                step = rng.choices(actions, [_ACTION_WEIGHT[s.kind] for s in actions])[0]
            elif ends:
                step = rng.choice(ends)
            else:  # a dead end: take back the last step and never make it again this turn
                step = Undo()
                tabu.add(stack.pop())
        if step.undoable:
            stack.append(step)
        elif step.in_turn and not isinstance(step, Undo):
            stack = []
        game.apply(step)
        kinds[step.kind] += 1
        if on_step is not None:
            on_step(game)
    return kinds


def sample_games(games: int = 2, *, seed: int = 0, every: int = 25) -> Iterator[Game]:
    """Seeded games of every preset (2, 3 and 4 players in turn) at several points:
    after the deal, every ``every`` steps, and at the end (copies made by replay)."""
    for preset in PRESETS:
        for k in range(games):
            game_seed = seed * 1000 + k
            game = Game.new(variants.get(preset), 2 + (game_seed + len(preset)) % 3, seed=game_seed)
            yield Game.replay(game.record())
            marks: list[int] = []

            def mark(g: Game, marks: list[int] = marks) -> None:
                if len(g.record().steps) % every == 0:
                    marks.append(len(g.record().steps))

            play_randomly(game, random.Random(game_seed), max_steps=400, on_step=mark)
            record = game.record()
            for upto in marks:
                yield Game.replay(record, upto=upto)
            yield game


# -- mutations ----------------------------------------------------------------------------------

Path = tuple[Any, ...]


def _nodes(data: Any, path: Path = ()) -> Iterator[tuple[Path, Any]]:
    yield path, data
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _nodes(value, (*path, key))
    elif isinstance(data, list):
        for k, value in enumerate(data):
            yield from _nodes(value, (*path, k))


def _get(data: Any, path: Path) -> Any:
    for key in path:
        data = data[key]
    return data


def _set(data: Any, path: Path, value: Any) -> None:
    _get(data, path[:-1])[path[-1]] = value


_OTHER_VALUES: tuple[Any, ...] = (
    None,
    True,
    False,
    0,
    1,
    -1,
    105,
    106,
    2.0,
    "",
    "x",
    "7R",
    [],
    [1],
    {},
    {"kind": "draw"},
    10**30,
    -(2**63),
    float("nan"),
)


def _int_lists(nodes: list[tuple[Path, Any]]) -> list[Path]:
    return [
        p for p, v in nodes if isinstance(v, list) and v and all(type(i) is int for i in v) and p
    ]


def mutate(doc: dict[str, Any], rng: random.Random) -> tuple[str, Any]:
    """One seeded mutation of a saved document; returns its name and the mutated data
    (a dict, or JSON text for the text-level mutations)."""
    data = copy.deepcopy(doc)
    nodes = [(p, v) for p, v in _nodes(data) if p]
    # Mostly aim below the rules (whose mutations stop at the rules or the fingerprint).
    inner = [(p, v) for p, v in nodes if p[0] != "rules"] or nodes
    path, value = rng.choice(inner if rng.random() < 0.9 else nodes)
    how = rng.choice(
        [
            "wrong_type",
            "wrong_type",
            "missing_key",
            "extra_key",
            "duplicate_id",
            "duplicate_id",
            "missing_id",
            "move_id",
            "move_id",
            "swap_ids",
            "int_nudge",
            "int_nudge",
            "int_nudge",
            "bool_flip",
            "bool_flip",
            "huge_number",
            "deep_nesting",
            "swap_values",
            "swap_values",
            "phase",
            "phase",
            "null",
            "truncate_list",
            "truncate_text",
            "damage_text",
            "version",
        ]
    )
    if how == "wrong_type":
        choices = [v for v in _OTHER_VALUES if type(v) is not type(value) or v != value]
        _set(data, path, copy.deepcopy(rng.choice(choices)))
    elif how == "missing_key":
        dicts = [(p, v) for p, v in [((), data), *inner] if isinstance(v, dict) and v]
        where, obj = rng.choice(dicts)
        del obj[rng.choice(list(obj))]
    elif how == "extra_key":
        dicts = [(p, v) for p, v in [((), data), *inner] if isinstance(v, dict)]
        _, obj = rng.choice(dicts)
        obj[rng.choice(["extra", "Kind", "colour", "rack ", "0"])] = rng.choice([0, None, "x"])
    elif how in ("duplicate_id", "missing_id", "move_id", "swap_ids", "truncate_list"):
        lists = _int_lists(inner)
        if not lists:
            return mutate(doc, rng)
        target = _get(data, rng.choice(lists))
        source = _get(data, rng.choice(lists))
        k = rng.randrange(len(target))
        if how == "duplicate_id":
            target[k] = rng.choice(source)
        elif how == "missing_id":
            del target[k]
        elif how == "move_id":
            source.append(target.pop(k))
        elif how == "swap_ids":
            j = rng.randrange(len(source))
            target[k], source[j] = source[j], target[k]
        else:
            del target[rng.randrange(len(target)) :]
    elif how == "int_nudge":
        ints = [p for p, v in inner if type(v) is int]
        where = rng.choice(ints)
        _set(data, where, _get(data, where) + rng.choice([-2, -1, 1, 2]))
    elif how == "bool_flip":
        bools = [p for p, v in inner if type(v) is bool]
        if not bools:
            return mutate(doc, rng)
        where = rng.choice(bools)
        _set(data, where, not _get(data, where))
    elif how == "huge_number":
        ints = [p for p, v in inner if type(v) is int]
        _set(data, rng.choice(ints), rng.choice([10**30, -(10**30), 2**64, 10**400]))
    elif how == "deep_nesting":
        wrapped: Any = _get(data, path)
        for _ in range(rng.choice([31, 33, 40, 200])):
            wrapped = [wrapped] if rng.random() < 0.5 else {"x": wrapped}
        _set(data, path, wrapped)
    elif how == "swap_values":
        same = [p for p, v in inner if type(v) is type(value) and p != path]
        if not same:
            return mutate(doc, rng)
        other = rng.choice(same)
        a, b = _get(data, path), _get(data, other)
        if not _is_prefix(path, other) and not _is_prefix(other, path):
            _set(data, path, b)
            _set(data, other, a)
    elif (
        how == "version"
    ):  # a newer version, or none there is (older: tests/test_serde_migrations.py)
        data["format_version"] = rng.choice((-1, 0, 3, 99))
    elif how == "phase":
        state = data.get("state")
        if not isinstance(state, dict):
            return mutate(doc, rng)
        key = rng.choice(["phase", "pending", "end", "current", "turn", "announce_window"])
        values_of: dict[str, list[Any]] = {
            "phase": ["take", "action", "over"],
            "pending": [None],
            "end": [
                None,
                {"reason": "closed", "closer": 0, "closing_tile": 0, "pe_tabla": False},
                {
                    "reason": "max_turns",
                    "closer": None,
                    "closing_tile": None,
                    "pe_tabla": False,
                },
            ],
            "current": [0, 1, 2, 3],
            "turn": [1, 2, 3, 50],
            "announce_window": [None, 0, 1],
        }
        state[key] = rng.choice(values_of[key])
    elif how == "null":
        _set(data, path, None)
    elif how == "truncate_text":
        text = json.dumps(data, sort_keys=True)
        return how, text[: rng.randrange(len(text))]
    elif how == "damage_text":
        text = json.dumps(data, sort_keys=True)
        at = rng.randrange(len(text))
        junk = rng.choice(["NaN", "Infinity", "[" * 40, "]", ",", '"', "\\", "1e999", "{}"])
        if rng.random() < 0.3:  # a key twice in one object
            return how, '{"kind": ' + json.dumps(data.get("kind")) + ", " + text[1:]
        return how, text[:at] + junk + text[at:]
    return how, data


def _is_prefix(a: Path, b: Path) -> bool:
    return b[: len(a)] == a


# -- the invariants of what was accepted ----------------------------------------------------


def game_invariants(game: Game, data: Any) -> str | None:
    """Why an accepted game is broken, or None."""
    state = game.state
    problem = tile_census(state)
    if problem is not None:
        return f"census: {problem}"
    over = state.phase is Phase.OVER
    if over != (state.end is not None) or over != (state.pending is None):
        return "phase: over / end / pending disagree"
    if not over:
        turn = state.pending
        assert turn is not None
        if turn.seat != state.current or turn.number != state.turn:
            return "phase: the pending turn is not the current seat's"
        if (state.phase is Phase.TAKE) != (turn.took is None and state.turn > 1):
            return "phase: take phase without a missing take"
        if not game.legal_steps():
            return "the loaded game has no legal step"
    if isinstance(data, str):
        data = json.loads(data)
    if serde.dump_game(game) != data:
        return "does not dump back equal"
    return None


def record_invariants(record: Any, data: Any) -> str | None:
    try:
        game = Game.replay(record)
    except Exception as err:
        return f"does not replay: {err!r}"
    problem = tile_census(game.state)
    if problem is not None:
        return f"census after replay: {problem}"
    if isinstance(data, str):
        data = json.loads(data)
    if serde.dump_record(record) != data:
        return "does not dump back equal"
    return None


def message_invariants(kind: str, loaded: Any) -> str | None:
    """A loaded view lists its legal steps and dumps back to what loads equal; a
    loaded step dumps back to what loads equal."""
    again: Any
    try:
        if kind == "view":
            loaded.legal_steps()
            again = serde.load_view(serde.dump_view(loaded, with_rules=False), loaded.rules)
        else:
            again = serde.load_step(serde.dump_step(loaded))
    except Exception as err:  # a loaded message must be usable
        return f"loaded {kind} fails: {type(err).__name__}: {err}"
    return None if again == loaded else f"{kind} does not load back equal"


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
