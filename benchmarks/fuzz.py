"""One fuzzer for every input surface of remi_rules: each attack on the public API.

Usage::

    python benchmarks/fuzz.py [--cases 2000] [--seed 0] [--surface NAME ...]
                              [--time-limit 1.0] [--hard-limit 20] [--case I]

Surfaces (``--surface``, repeatable; default all):

``tiles``
    The notation parsers (``Tile.parse``, ``parse_tiles``), the meld functions
    (``analyze_meld``, ``is_valid_meld``, ``arrange_meld``, ``could_become_meld``) on
    random notation and tile lists, and ``remi-rules check``'s ``check_meld``: tokens
    of every length around :data:`~remi_rules.tiles.MAX_TOKEN_LENGTH`, digit runs
    around Python's 4,300-digit limit, junk characters.  An accepted meld must agree
    with ``is_valid_meld``.
``house_rules``
    ``loads_house_rules`` (JSON and TOML) and the dict forms on mutations of real
    house-rules files: huge ints (around 100 and 4,300 digits, TOML hex), floats
    ``1e309`` / ``NaN`` / ``Infinity``, deep nesting, long strings, duplicated keys,
    truncation, junk, documents past the size bound.  An accepted ruleset must dump
    and load back equal.
``saves``
    ``load_game`` / ``loads_game``, ``load_record`` / ``loads_record`` and
    ``load_match`` on mutations of real dumps of played games (the mutations of
    ``benchmarks/fuzz_loader.py`` plus huge ints past 4,300 digits in the text, long
    strings and duplicated keys).  What is accepted must keep the engine's invariants
    and dump back equal.
``steps``
    ``Game.can`` / ``verify`` / ``apply`` on positions of played games with arbitrary
    objects and mutated legal steps (huge, negative and out-of-range ids and seats).
    ``can`` must agree with ``verify`` and ``apply``; a refused step leaves the state
    unchanged; an applied one keeps the tile census.
``playouts``
    Random rounds of random length; then dump and load, and replay the record: both
    must give the same game (same dump, same legal steps).
``legal_steps``
    ``Game.legal_steps()`` timed on random positions of random rounds; every step it
    lists must pass ``Game.can``.

Each case ends as ``ok`` (returned), a library error (``RemiError`` with a code, whose
``str`` and ``message("ro")`` work), a ``TypeError``, or an *other* exception (anything
else, a broken invariant, a message that fails, a case past ``--hard-limit`` seconds):
those are counted and the first few printed with their repro (``--case I`` runs one
case again and prints its traceback).  A case slower than ``--time-limit`` seconds is
counted as slow.  Per surface one line; the last line is one JSON object with every
surface.  Exit code 1 if any surface had other exceptions.

Every case ``I`` of a surface is generated from ``random.Random(f"{seed}/{surface}/{I}")``
alone, so a run is deterministic and any case can be run again by itself.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import random
import signal
import sys
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import attrs

from remi_rules import (
    JOKER,
    RemiError,
    Tile,
    analyze_meld,
    arrange_meld,
    could_become_meld,
    is_valid_meld,
    parse_tiles,
    serde,
    variants,
)
from remi_rules.cli.check import check_meld
from remi_rules.engine import Game, Match, MatchConfig, tile_census
from remi_rules.engine import steps as step_types
from remi_rules.tiles import FULL_SET, MAX_TOKEN_LENGTH


def _load_sibling(name: str) -> Any:
    if name in sys.modules:
        return sys.modules[name]
    path = Path(__file__).resolve().parent / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


loader = _load_sibling("fuzz_loader")
PRESETS = variants.names()
RULES = {name: variants.get(name) for name in PRESETS}

# -- outcomes --------------------------------------------------------------------------------------


class Broken(Exception):
    """An invariant the library must keep did not hold (counted as an other exception)."""


class HardTimeout(BaseException):
    """A case ran past ``--hard-limit`` (raised by SIGALRM; a BaseException so that no
    ``except Exception`` in the library swallows it)."""


@dataclass
class Case:
    """One generated case: what to call, and how to show it."""

    label: str
    run: Callable[[], object]
    show: Callable[[], str] = field(default=lambda: "")


@dataclass
class Tally:
    cases: int = 0
    ok: int = 0
    library_errors: int = 0
    type_errors: int = 0
    other_exceptions: int = 0
    slow: int = 0
    slowest_ms: float = 0.0
    slowest_case: int = -1
    codes: dict[str, int] = field(default_factory=dict)
    labels: dict[str, int] = field(default_factory=dict)
    examples: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "cases": self.cases,
            "ok": self.ok,
            "library_errors": self.library_errors,
            "type_errors": self.type_errors,
            "other_exceptions": self.other_exceptions,
            "slow": self.slow,
            "slowest_ms": round(self.slowest_ms, 2),
            "slowest_case": self.slowest_case,
            "codes": dict(sorted(self.codes.items())),
            "labels": dict(sorted(self.labels.items())),
            "examples": self.examples,
        }


def check_error(err: RemiError) -> None:
    """A library error must have a code and messages that format."""
    code = getattr(err, "code", None)
    if code is None or not isinstance(getattr(code, "value", None), str):
        raise Broken(f"{type(err).__name__} without a code")
    for text in (str(err), err.message("ro"), err.message("en"), repr(err)):
        if not isinstance(text, str) or not text:
            raise Broken(f"{type(err).__name__} gives an empty message")
    if len(str(err)) > 2000:
        raise Broken(f"{type(err).__name__} message of {len(str(err))} characters")


# -- value helpers ---------------------------------------------------------------------------------


def short(value: object, limit: int = 160) -> str:
    """A repr for a repro line: long strings as runs (``'1' * 4301 + 'R'``)."""
    cls = type(value)
    if isinstance(value, str):
        text = _runs(value)
    elif isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 190:
        text = f"<int of about {math.floor(math.log10(abs(value))) + 1} digits>"
    elif attrs.has(cls):
        inner = ", ".join(
            f"{a.name}={short(getattr(value, a.name, None), 60)}" for a in attrs.fields(cls)
        )
        text = f"{cls.__name__}({inner})"
    else:
        try:
            text = repr(value)
        except Exception:  # a huge int, a broken __repr__
            text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 20] + f"... ({len(text)} chars)"


def _runs(text: str) -> str:
    parts: list[str] = []
    plain = ""
    i = 0
    while i < len(text):
        j = i
        while j < len(text) and text[j] == text[i]:
            j += 1
        if j - i >= 8:
            if plain:
                parts.append(repr(plain))
                plain = ""
            parts.append(f"{text[i]!r} * {j - i}")
        else:
            plain += text[i:j]
        i = j
    if plain:
        parts.append(repr(plain))
    return " + ".join(parts) or "''"


HOSTILE: tuple[Any, ...] = (
    None,
    True,
    0,
    -1,
    1,
    105,
    106,
    2**31,
    10**30,
    -(10**30),
    10**5000,
    1.5,
    math.nan,
    math.inf,
    "",
    "x",
    "7R",
    "1" * 5000,
    [],
    (),
    {},
    set(),
    b"7R",
    object(),
    JOKER,
)


def huge_int(rng: random.Random) -> int:
    return rng.choice([10**30, -(10**30), 2**64, 10**99, 10**100, 10**400, 10**4299, 10**5000])


# == tiles =========================================================================================

_ALPHABET = "0123456789RGANJ(=)  ,rgxX-+.\t\n\u00a0ăȘ７"


def _notation_token(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.35:
        return str(rng.choice([*FULL_SET[:104], JOKER, *(Tile(fixed_as=t) for t in FULL_SET[:4])]))
    if r < 0.55:  # lengths around the bound and around 4,300 digits
        n = rng.choice(
            [
                MAX_TOKEN_LENGTH - 2,
                MAX_TOKEN_LENGTH - 1,
                MAX_TOKEN_LENGTH,
                MAX_TOKEN_LENGTH + 1,
                MAX_TOKEN_LENGTH + 2,
                4299,
                4300,
                4301,
                5000,
                rng.randrange(1, 40),
            ]
        )
        digits = "".join(rng.choice("0123456789") for _ in range(min(n, 30))) * (n // 30 + 1)
        body = digits[: max(n - 1, 0)]
        return body + rng.choice("RGANX") if rng.random() < 0.7 else "J(=" + body + "R)"
    if r < 0.7:
        return str(rng.randrange(-5, 200)) + rng.choice("RGANJXr")
    return "".join(rng.choice(_ALPHABET) for _ in range(rng.randrange(0, 12)))


def _notation(rng: random.Random) -> str:
    tokens = [_notation_token(rng) for _ in range(rng.choice([1, 1, 2, 3, 4, 5, 8, 14]))]
    sep = rng.choice([" ", ",", ", ", "  ", "\t"])
    return sep.join(tokens)


def _tile_list(rng: random.Random) -> list[Any]:
    n = rng.choice([0, 1, 2, 3, 3, 4, 4, 5, 6, 8, 13, 14, 30])
    pool = [*FULL_SET, *(Tile(fixed_as=t) for t in rng.sample(FULL_SET[:104], 3))]
    if rng.random() < 0.5:  # a run of one colour, often valid
        colour = rng.randrange(4)
        low = rng.randrange(1, 14)
        tiles: list[Any] = [
            FULL_SET[8 * ((low + k - 1) % 13) + 2 * colour] for k in range(min(n, 13))
        ]
        for _ in range(rng.randrange(3)):
            if tiles:
                tiles[rng.randrange(len(tiles))] = JOKER
    else:
        tiles = [rng.choice(pool) for _ in range(n)]
    if rng.random() < 0.05 and tiles:
        tiles[rng.randrange(len(tiles))] = rng.choice(HOSTILE)
    return tiles


def gen_tiles(rng: random.Random) -> Case:
    rules = RULES[rng.choice(PRESETS)]
    r = rng.random()
    if r < 0.25:
        token = _notation_token(rng)
        return Case("Tile.parse", lambda: Tile.parse(token), lambda: f"Tile.parse({short(token)})")
    text = _notation(rng) if rng.random() < 0.6 else _tile_list(rng)
    fn_name = rng.choice(
        ["parse_tiles", "analyze_meld", "is_valid_meld", "arrange_meld", "could_become_meld"]
        + ["check_meld"] * (isinstance(text, str))
    )
    repro = f"{fn_name}({short(text)}, variants.get({variants.name_of(rules)!r}))"

    def run() -> object:
        if fn_name == "parse_tiles":
            return parse_tiles(text)  # type: ignore[arg-type]
        if fn_name == "check_meld":
            return check_meld(text, rules, "ro")  # type: ignore[arg-type]
        if fn_name == "analyze_meld":
            try:
                meld = analyze_meld(text, rules)
            except RemiError:
                if is_valid_meld(text, rules):
                    raise Broken("analyze_meld refuses a meld is_valid_meld accepts") from None
                raise
            if not is_valid_meld(meld.tiles, rules):
                raise Broken("analyze_meld accepts what is_valid_meld refuses")
            return meld
        fn = {
            "is_valid_meld": is_valid_meld,
            "arrange_meld": arrange_meld,
            "could_become_meld": could_become_meld,
        }[fn_name]
        return fn(text, rules)

    return Case(fn_name, run, lambda: repro)


# == house rules ===================================================================================


def _random_overrides(rng: random.Random) -> dict[str, Any]:
    base = serde.ruleset_to_dict(RULES[rng.choice(PRESETS)])
    keys = rng.sample(sorted(base), rng.randrange(0, 6))
    return {k: base[k] for k in keys}


def _house_doc(rng: random.Random) -> dict[str, Any]:
    doc: dict[str, Any] = {"base": rng.choice(PRESETS), "overrides": _random_overrides(rng)}
    if rng.random() < 0.1:
        del doc["base"]
    return doc


def _to_toml(doc: dict[str, Any]) -> str:
    lines = []
    if "base" in doc:
        lines.append(f"base = {json.dumps(doc['base'])}")
    lines.append("[overrides]")
    for k, v in doc.get("overrides", {}).items():
        lines.append(f"{k} = {_toml(v)}")
    return "\n".join(lines) + "\n"


def _toml(v: Any) -> str:
    if v is None:
        return '"none"'
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float | str):
        return json.dumps(v) if not isinstance(v, float) else repr(v).replace("inf", "inf")
    if isinstance(v, list):
        return "[" + ", ".join(_toml(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{k} = {_toml(x)}" for k, x in v.items()) + " }"
    return json.dumps(str(v))


_NUMBER_JUNK = (
    lambda rng: "9" * rng.choice([99, 100, 101, 4299, 4300, 4301, 5000]),
    lambda rng: "-" + "9" * rng.choice([100, 101, 4301]),
    lambda rng: "1e309",
    lambda rng: "-1e309",
    lambda rng: "NaN",
    lambda rng: "Infinity",
    lambda rng: "-Infinity",
    lambda rng: "1" * 5000 + ".5",
    lambda rng: "0x" + "f" * rng.choice([10, 100, 400, 5000]),
    lambda rng: "0o" + "7" * 500,
    lambda rng: "0b" + "1" * 1000,
    lambda rng: "1_000_000",
    lambda rng: "inf",
    lambda rng: "nan",
    lambda rng: "1979-05-27",
    lambda rng: "2.5",
    lambda rng: "-0",
)


def _mutate_house_text(rng: random.Random, text: str, fmt: str) -> tuple[str, str]:
    how = rng.choice(
        [
            "number",
            "number",
            "number",
            "nest",
            "long_string",
            "dup_key",
            "truncate",
            "junk",
            "huge_doc",
            "swap_value",
            "none",
        ]
    )
    if how == "number":
        key = rng.choice(["closing_bonus", "opening_min_points", "hand_sizes", "max_turns"])
        value = rng.choice(_NUMBER_JUNK)(rng)
        if fmt == "json":
            value = value.replace("inf", "Infinity").replace("nan", "NaN")
            if value.startswith("0x") or value.startswith("0o") or value.startswith("0b"):
                value = str(int(value, 0)) if len(value) < 1000 else "9" * 5000
            if value == "1979-05-27":
                value = '"1979-05-27"'
            if value == "1_000_000":
                value = "1000000"
            body = f'"{key}": {value}' if key != "hand_sizes" else f'"{key}": [{value}, 14]'
            return how, '{"base": "clasic", "overrides": {' + body + "}}"
        body = f"{key} = {value}" if key != "hand_sizes" else f"{key} = [{value}, 14]"
        return how, f'base = "clasic"\n[overrides]\n{body}\n'
    if how == "nest":
        depth = rng.choice([3, 30, 31, 32, 33, 100, 999, 1000, 5000, 30000])
        if fmt == "json":
            inner = "[" * depth + "1" + "]" * depth
            if rng.random() < 0.3:
                inner = "[" * depth  # unclosed
            return how, '{"overrides": {"hand_sizes": ' + inner + "}}"
        inner = "[" * depth + "1" + "]" * depth
        if rng.random() < 0.3:
            inner = "{ a = " * depth + "1" + " }" * depth
        return how, f"[overrides]\nhand_sizes = {inner}\n"
    if how == "long_string":
        s = rng.choice(["x", "1", "ă", "\\u0000", "clasic"]) * rng.choice([61, 1000, 60000])
        key = rng.choice(["base", "opening_composition", "closing_bonus"])
        if key == "base":
            return how, (json.dumps({"base": s}) if fmt == "json" else f"base = {json.dumps(s)}\n")
        doc: dict[str, Any] = {"overrides": {key: s}}
        return how, json.dumps(doc) if fmt == "json" else _to_toml(doc)
    if how == "dup_key":
        if fmt == "json":
            return how, '{"base": "clasic", "base": "online", "overrides": {}, "overrides": 5}'
        return how, 'base = "clasic"\nbase = "online"\n'
    if how == "truncate":
        return how, text[: rng.randrange(len(text) + 1)]
    if how == "junk":
        at = rng.randrange(len(text) + 1)
        junk = rng.choice(["\x00", "}", "]", "[", '"', "\\", "=", "\n[overrides]\n", "\ufeff", "#"])
        return how, text[:at] + junk + text[at:]
    if how == "huge_doc":
        pad = rng.choice([60000, 65536, 70000, 200000])
        if fmt == "json":
            return how, '{"base": "clasic"' + " " * pad + "}"
        return how, 'base = "clasic"\n' + "#" * pad + "\n"
    if how == "swap_value":
        doc = _house_doc(rng)
        if doc["overrides"]:
            k = rng.choice(list(doc["overrides"]))
            doc["overrides"][k] = rng.choice(
                [None, True, "x", [], {}, [1, 2, 3], {"bonus": 1}, -1, 10**30, 2.5]
            )
        text2 = json.dumps(doc) if fmt == "json" else _to_toml(doc)
        return how, text2
    return how, text


def gen_house_rules(rng: random.Random) -> Case:
    fmt = rng.choice(["json", "toml"])
    r = rng.random()
    if r < 0.12:  # the dict forms, with Python values no file can hold
        doc: Any = _house_doc(rng)
        if rng.random() < 0.7 and doc["overrides"]:
            k = rng.choice(list(doc["overrides"]))
            doc["overrides"][k] = rng.choice([*HOSTILE, huge_int(rng)])
        elif rng.random() < 0.5:
            doc["base"] = rng.choice(HOSTILE)
        else:
            doc = rng.choice(HOSTILE)
        fn = rng.choice([serde.house_rules_from_dict, serde.ruleset_from_dict])
        if fn is serde.ruleset_from_dict and isinstance(doc, dict) and "overrides" in doc:
            full = serde.ruleset_to_dict(RULES["clasic"])
            full.update(doc["overrides"])
            doc = full
        return Case(fn.__name__, lambda: fn(doc), lambda: f"serde.{fn.__name__}({short(doc)})")
    doc = _house_doc(rng)
    text = json.dumps(doc) if fmt == "json" else _to_toml(doc)
    how, text = _mutate_house_text(rng, text, fmt)

    def run() -> object:
        rules = serde.loads_house_rules(text, fmt)  # type: ignore[arg-type]
        again = serde.loads_house_rules(serde.dumps_house_rules(rules, format=fmt), fmt)  # type: ignore[arg-type]
        if again != rules:
            raise Broken("an accepted house-rules file does not dump and load back equal")
        return rules

    return Case(
        f"{fmt}/{how}", run, lambda: f"serde.loads_house_rules({short(text, 400)}, {fmt!r})"
    )


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
        for game in loader.sample_games(1, seed=self.seed, every=40):
            docs.append(("game", serde.dump_game(game)))
            docs.append(("record", serde.dump_record(game)))
            records.append(game.record())
        for preset in PRESETS:
            match = Match(RULES[preset], 3, MatchConfig(rounds=2), seed=self.seed)
            loader.play_randomly(match.game, random.Random(self.seed), max_steps=150)
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
        how, data = loader.mutate(doc, rng)
        while kind == "match" and isinstance(data, str):  # load_match takes data only
            how, data = loader.mutate(doc, rng)
        if rng.random() < 0.1:  # a Python value no JSON text can hold
            nodes = [p for p, v in loader._nodes(data) if p and type(v) is int]
            if nodes and isinstance(data, dict):
                loader._set(data, rng.choice(nodes), rng.choice([10**5000, -(10**5000), 2**200]))
                how += "+huge_int"

    def run() -> object:
        loaded: object
        if kind == "match":
            match = serde.load_match(data)
            if serde.dump_match(match) != data:
                raise Broken("an accepted match does not dump back equal")
            return match
        if kind == "game":
            game = serde.loads_game(data) if isinstance(data, str) else serde.load_game(data)
            problem = loader.game_invariants(game, data)
            loaded = game
        else:
            record = serde.loads_record(data) if isinstance(data, str) else serde.load_record(data)
            problem = loader.record_invariants(record, data)
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
    loader.play_randomly(game, random.Random(seed), max_steps=steps)
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


SURFACES: dict[str, Callable[[random.Random], Case]] = {
    "tiles": gen_tiles,
    "house_rules": gen_house_rules,
    "saves": gen_saves,
    "steps": gen_steps,
    "playouts": gen_playouts,
    "legal_steps": gen_legal_steps,
}

# == the run =======================================================================================


def _alarm(_signum: int, _frame: object) -> None:
    raise HardTimeout


def run_case(case: Case, hard_limit: float) -> tuple[str, BaseException | None, float]:
    """Run one case; its outcome (``ok``, ``library``, ``type``, ``other``), the
    exception and the seconds it took."""
    use_alarm = hard_limit > 0 and hasattr(signal, "setitimer")
    if use_alarm:
        old = signal.signal(signal.SIGALRM, _alarm)
        signal.setitimer(signal.ITIMER_REAL, hard_limit)
    start = time.perf_counter()
    outcome: str
    exc: BaseException | None
    try:
        try:
            case.run()
            outcome, exc = "ok", None
        finally:
            elapsed = time.perf_counter() - start
            if use_alarm:
                signal.setitimer(signal.ITIMER_REAL, 0)
                signal.signal(signal.SIGALRM, old)
    except RemiError as err:
        try:
            check_error(err)
            outcome, exc = "library", err
        except Exception as bad:
            outcome, exc = "other", bad
    except TypeError as err:
        outcome, exc = "type", err
    except (Exception, HardTimeout, RecursionError) as err:
        outcome, exc = "other", err
    return outcome, exc, elapsed


def case_of(surface: str, seed: int, index: int) -> Case:
    rng = random.Random(f"{seed}/{surface}/{index}")
    return SURFACES[surface](rng)


def run_surface(
    surface: str,
    cases: int,
    *,
    seed: int = 0,
    time_limit: float = 1.0,
    hard_limit: float = 20.0,
    examples: int = 5,
    progress: Callable[[str], None] | None = None,
) -> Tally:
    tally = Tally()
    SAMPLES.seed = seed
    for i in range(cases):
        tally.cases += 1
        try:
            case = case_of(surface, seed, i)
        except Exception as err:  # the harness's own setup failed on the current code
            tally.other_exceptions += 1
            if len(tally.examples) < examples:
                tally.examples.append(
                    f"{surface} case {i} (setup): {type(err).__name__}: {short(str(err), 200)}"
                )
            continue
        outcome, exc, elapsed = run_case(case, hard_limit)
        tally.labels[case.label] = tally.labels.get(case.label, 0) + 1
        ms = elapsed * 1000
        if ms > tally.slowest_ms:
            tally.slowest_ms, tally.slowest_case = ms, i
        if elapsed > time_limit:
            tally.slow += 1
            if len(tally.examples) < examples:
                tally.examples.append(f"{surface} case {i} slow ({ms:.0f} ms): {case.show()}")
        if outcome == "ok":
            tally.ok += 1
        elif outcome == "library":
            tally.library_errors += 1
            code = str(getattr(exc, "code", "?"))
            tally.codes[code] = tally.codes.get(code, 0) + 1
        elif outcome == "type":
            tally.type_errors += 1
        else:
            tally.other_exceptions += 1
            if len(tally.examples) < examples:
                where = _where(exc)
                tally.examples.append(
                    f"{surface} case {i} ({case.label}): {type(exc).__name__}: "
                    f"{short(_safe_str(exc), 200)}{where}\n    repro: {case.show()}\n"
                    f"    rerun: python benchmarks/fuzz.py --surface {surface} "
                    f"--seed {seed} --case {i}"
                )
        if progress is not None and (i + 1) % 1000 == 0:
            progress(f"{surface}: {i + 1}/{cases}")
    return tally


def _safe_str(exc: BaseException | None) -> str:
    try:
        return str(exc)
    except Exception:
        return f"<{type(exc).__name__} whose str() fails>"


def _where(exc: BaseException | None) -> str:
    if exc is None or exc.__traceback__ is None:
        return ""
    frames = traceback.extract_tb(exc.__traceback__)
    inside = [f for f in frames if "remi_rules" in f.filename]
    frame = (inside or frames)[-1]
    return f" [at {Path(frame.filename).name}:{frame.lineno} in {frame.name}]"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=2000, help="cases per surface")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--surface", action="append", choices=sorted(SURFACES), help="repeatable; default all"
    )
    parser.add_argument(
        "--time-limit", type=float, default=1.0, help="seconds; a slower case is flagged slow"
    )
    parser.add_argument(
        "--hard-limit",
        type=float,
        default=20.0,
        help="seconds; a case is interrupted and counted as an other exception (0: never)",
    )
    parser.add_argument("--case", type=int, help="run this one case and show its traceback")
    parser.add_argument("--examples", type=int, default=5, help="examples printed per surface")
    parser.add_argument("--progress", action="store_true", help="report every 1,000 cases")
    args = parser.parse_args(argv)
    surfaces = args.surface or list(SURFACES)
    if args.case is not None:
        for surface in surfaces:
            SAMPLES.seed = args.seed
            case = case_of(surface, args.seed, args.case)
            print(f"{surface} case {args.case} ({case.label}): {case.show()}")
            try:
                result = case.run()
                print(f"returned {short(result, 300)}")
            except BaseException:
                traceback.print_exc()
        return 0
    results: dict[str, Any] = {}
    bad = False
    for surface in surfaces:
        started = time.perf_counter()
        progress = (lambda m: print(m, file=sys.stderr, flush=True)) if args.progress else None
        tally = run_surface(
            surface,
            args.cases,
            seed=args.seed,
            time_limit=args.time_limit,
            hard_limit=args.hard_limit,
            examples=args.examples,
            progress=progress,
        )
        seconds = time.perf_counter() - started
        for line in tally.examples:
            print(line)
        print(
            f"{surface:12s} cases {tally.cases:7d}  ok {tally.ok:7d}  library errors "
            f"{tally.library_errors:7d}  type errors {tally.type_errors:6d}  other "
            f"exceptions {tally.other_exceptions:5d}  slow {tally.slow:4d}  slowest "
            f"{tally.slowest_ms:9.1f} ms (case {tally.slowest_case})  [{seconds:.1f} s]",
            flush=True,
        )
        results[surface] = {**tally.as_dict(), "seconds": round(seconds, 1)}
        bad = bad or tally.other_exceptions > 0
    print(json.dumps({"seed": args.seed, "cases": args.cases, "surfaces": results}, sort_keys=True))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
