"""The text surfaces: the tile notation and meld functions (``tiles``) and the
house-rules files (``house_rules``)."""

from __future__ import annotations

import json
import random
from typing import Any

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
from remi_rules.tiles import FULL_SET, MAX_TOKEN_LENGTH

from .outcomes import HOSTILE, PRESETS, RULES, Broken, Case, huge_int, short

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
