"""The game surfaces: saved documents (``saves``), steps on played positions
(``steps``), random playouts saved and replayed (``playouts``) and ``legal_steps``."""

from __future__ import annotations

import json
import random
from typing import Any

import attrs

from remi_rules import (
    RemiError,
    serde,
)
from remi_rules.engine import Game, Match, MatchConfig, tile_census
from remi_rules.engine import steps as step_types

from .invariants import dumps_back, game_invariants, record_invariants
from .mutate import mutate, set_at, walk
from .outcomes import HOSTILE, PRESETS, RULES, Broken, Case, short
from .play import play_randomly, sample_games

# == samples of played games =======================================================================


class Samples:
    """Played games (built once, lazily): dumps of games, records and a match, and the
    records with their lengths for the positions of ``steps`` and ``legal_steps``."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self._docs: list[tuple[str, dict[str, Any]]] | None = None
        self._records: list[Any] | None = None
        self._games: dict[tuple[int, int], Game] = {}

    def _build(self) -> None:
        docs: list[tuple[str, dict[str, Any]]] = []
        records = []
        for game in sample_games(1, seed=self.seed, every=40):
            docs.append(("game", serde.dump_game(game)))
            docs.append(("record", serde.dump_record(game)))
            records.append(game.record())
        for preset in PRESETS:
            match = Match(RULES[preset], 3, MatchConfig(rounds=2), seed=self.seed)
            play_randomly(match.game, random.Random(self.seed), max_steps=150)
            docs.append(("match", serde.dump_match(match)))
        self._docs, self._records = docs, records

    @property
    def docs(self) -> list[tuple[str, dict[str, Any]]]:
        if self._docs is None:
            self._build()
        assert self._docs is not None
        return self._docs

    @property
    def records(self) -> list[Any]:
        if self._records is None:
            self._build()
        assert self._records is not None
        return self._records

    def position(self, rng: random.Random) -> tuple[Game, str]:
        """A fresh game at a random point of a sample record, and how to rebuild it."""
        k = rng.randrange(len(self.records))
        record = self.records[k]
        upto = rng.randrange(len(record.steps) + 1)
        key = (k, upto)
        if key not in self._games:
            if len(self._games) > 400:
                self._games.clear()
            self._games[key] = Game.replay(record, upto=upto)
        return self._games[key], f"sample {k} at step {upto}"

    def drop(self, rng_key: str) -> None:
        self._games.clear()


SAMPLES = Samples()


def _text_mutation(rng: random.Random, doc: dict[str, Any]) -> tuple[str, str]:
    text = json.dumps(doc, sort_keys=True)
    how = rng.choice(["huge_int_text", "long_string", "dup_key", "nan", "deep_text", "big_float"])
    numbers = [i for i in range(1, len(text)) if text[i].isdigit() and not text[i - 1].isdigit()]
    if how == "huge_int_text" and numbers:
        at = rng.choice(numbers)
        end = at
        while end < len(text) and text[end].isdigit():
            end += 1
        digits = "9" * rng.choice([99, 100, 101, 4299, 4300, 4301, 5000, 20000])
        return how, text[:at] + digits + text[end:]
    if how == "long_string":
        at = text.find('"', rng.randrange(len(text)))
        if at < 0:
            at = 0
        return how, text[: at + 1] + "x" * rng.choice([61, 5000, 100000]) + text[at + 1 :]
    if how == "dup_key":
        keys = [k for k in doc if isinstance(k, str)]
        key = rng.choice(keys)
        value: object = rng.choice([None, 0, "x", [], 10**5, True])
        return how, "{" + json.dumps(key) + ": " + json.dumps(value) + ", " + text[1:]
    if how == "nan":
        at = rng.choice(numbers) if numbers else 1
        return how, text[:at] + rng.choice(["NaN", "Infinity", "-Infinity", "1e309"]) + text[at:]
    if how == "deep_text":
        depth = rng.choice([31, 32, 33, 1000, 100000])
        return how, "[" * depth + text + "]" * depth
    return how, text.replace(":", ": 1e999999,", 1) if rng.random() < 0.5 else text + " " * 10


def gen_saves(rng: random.Random) -> Case:
    kind, doc = rng.choice(SAMPLES.docs)
    how: str
    data: Any  # a JSON text or a (mutated) JSON document
    if rng.random() < 0.25 and kind != "match":
        how, data = _text_mutation(rng, doc)
    else:
        how, data = mutate(doc, rng)
        while kind == "match" and isinstance(data, str):  # load_match takes data only
            how, data = mutate(doc, rng)
        if rng.random() < 0.1:  # a Python value no JSON text can hold
            ints = [p for p, v in walk(data) if p and type(v) is int]
            if ints and isinstance(data, dict):
                set_at(data, rng.choice(ints), rng.choice([10**5000, -(10**5000), 2**200]))
                how += "+huge_int"

    def run() -> object:
        loaded: object
        if kind == "match":
            match = serde.load_match(data)
            problem = dumps_back(
                data,
                serde.dump_match(match),
                "match",
                lambda d: serde.dump_match(serde.load_match(d)),
            )
            if problem is not None:
                raise Broken(f"an accepted match: {problem}")
            return match
        if kind == "game":
            game = serde.loads_game(data) if isinstance(data, str) else serde.load_game(data)
            problem = game_invariants(game, data)
            loaded = game
        else:
            record = serde.loads_record(data) if isinstance(data, str) else serde.load_record(data)
            problem = record_invariants(record, data)
            loaded = record
        if problem is not None:
            raise Broken(f"accepted {kind}: {problem}")
        return loaded

    return Case(f"{kind}/{how}", run, lambda: f"{kind} {how}: {short(data, 300)}")


# == steps =========================================================================================


def _hostile_step(rng: random.Random, game: Game) -> Any:
    legal = list(game.legal_steps())
    r = rng.random()
    if r < 0.2 or not legal:
        return rng.choice(
            [
                *HOSTILE,
                step_types.Draw,
                step_types.Undo(),
                step_types.Draw(),
                step_types.TakeAtu(),
                step_types.TakeLastDiscard(),
                "draw",
                {"kind": "draw"},
            ]
        )
    step: Any = rng.choice(legal)  # of a class known at run time: its fields are read by name
    fields = [a.name for a in attrs.fields(type(step))]
    if r < 0.35 or not fields:
        return step
    name = rng.choice(fields)
    old = getattr(step, name)
    if name == "tiles":
        ids = list(old)
        choice = rng.random()
        if choice < 0.3 and ids:
            ids[rng.randrange(len(ids))] = rng.choice([-1, 106, 10**30, 10**5000, ids[0]])
        elif choice < 0.5:
            ids = ids + ids
        elif choice < 0.6:
            ids = list(range(106))
        elif choice < 0.7:
            ids = []
        else:
            ids = [rng.randrange(106) for _ in range(rng.randrange(1, 8))]
        return attrs.evolve(step, tiles=tuple(ids))
    if name == "end":
        return attrs.evolve(
            step, end=rng.choice([None, *type(old).__members__.values()]) if old else None
        )
    value = rng.choice(
        [-1, 0, 1, 2, 3, 4, 5, 104, 105, 106, 10**30, 10**5000, -(10**5000), rng.randrange(106)]
    )
    return attrs.evolve(step, **{name: value})


def gen_steps(rng: random.Random) -> Case:
    game, where = SAMPLES.position(rng)
    step = _hostile_step(rng, game)
    method = rng.choice(["apply", "apply", "can", "verify"])

    def run() -> object:
        state = game.state
        try:
            can = game.can(step)
        except TypeError:
            can = None
        if method == "can":
            return can
        if method == "verify":
            try:
                game.verify(step)
            except RemiError:
                if can:
                    raise Broken("verify refuses a step can accepts") from None
                raise
            if can is False:
                raise Broken("verify accepts a step can refuses")
            return None
        target = game
        if can:
            target = Game.replay(game.record())  # apply on a copy: the sample stays put
        try:
            events = target.apply(step)
        except RemiError:
            if can:
                raise Broken("apply refuses a step can accepts") from None
            if target.state is not state:
                SAMPLES.drop(where)
                raise Broken("a refused step changed the state") from None
            raise
        if target is game:
            SAMPLES.drop(where)
            raise Broken(f"apply accepts a step can refuses (can={can})")
        problem = tile_census(target.state)
        if problem is not None:
            raise Broken(f"census after apply: {problem}")
        return events

    return Case(
        f"{method}/{getattr(step, 'kind', type(step).__name__)}",
        run,
        lambda: f"game at {where}; game.{method}({short(step)})",
    )


# == playouts and legal_steps ======================================================================


def _random_game(rng: random.Random) -> tuple[Game, str]:
    preset = rng.choice(PRESETS)
    players = rng.choice([2, 3, 4])
    seed = rng.randrange(10**9)
    steps = rng.randrange(0, 100)
    game = Game.new(RULES[preset], players, seed=seed)
    play_randomly(game, random.Random(seed), max_steps=steps)
    how = f"Game.new(variants.get({preset!r}), {players}, seed={seed}), {steps} random steps"
    return game, how


def gen_playouts(rng: random.Random) -> Case:
    holder: dict[str, str] = {"how": "?"}
    seed = rng.randrange(10**9)

    def run() -> object:
        game, holder["how"] = _random_game(random.Random(seed))
        data = serde.dump_game(game)
        loaded = serde.loads_game(json.dumps(data))
        if serde.dump_game(loaded) != data:
            raise Broken("a dumped game does not load back equal")
        if set(loaded.legal_steps()) != set(game.legal_steps()):
            raise Broken("a loaded game has other legal steps")
        replayed = Game.replay(serde.loads_record(serde.dumps_record(game)))
        if serde.dump_game(replayed)["state"] != data["state"]:
            raise Broken("the replayed record gives another state")
        problem = tile_census(loaded.state)
        if problem is not None:
            raise Broken(f"census: {problem}")
        return None

    return Case("playout", run, lambda: f"playout seed {seed}: {holder['how']}")


def gen_legal_steps(rng: random.Random) -> Case:
    seed = rng.randrange(10**9)
    game, how = _random_game(random.Random(seed))
    checks = random.Random(seed).sample(range(1000), 3)

    def run() -> object:
        steps = game.legal_steps()
        for k in checks:
            if steps and not game.can(steps[k % len(steps)]):
                raise Broken(f"legal step {steps[k % len(steps)]} fails Game.can")
        if not steps and not game.over:
            raise Broken("a game that is not over has no legal step")
        return len(steps)

    return Case("legal_steps", run, lambda: f"{how}; game.legal_steps()")
