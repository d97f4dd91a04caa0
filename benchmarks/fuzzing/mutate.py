"""Mutations of saved documents: wrong types, missing and extra keys, moved tile ids,
impossible phases, huge numbers, deep nesting, damaged JSON text."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from typing import Any

# -- mutations ----------------------------------------------------------------------------------

Path = tuple[Any, ...]


def walk(data: Any, path: Path = ()) -> Iterator[tuple[Path, Any]]:
    yield path, data
    if isinstance(data, dict):
        for key, value in data.items():
            yield from walk(value, (*path, key))
    elif isinstance(data, list):
        for k, value in enumerate(data):
            yield from walk(value, (*path, k))


def get_at(data: Any, path: Path) -> Any:
    for key in path:
        data = data[key]
    return data


def set_at(data: Any, path: Path, value: Any) -> None:
    get_at(data, path[:-1])[path[-1]] = value


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
    nodes = [(p, v) for p, v in walk(data) if p]
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
        ]
    )
    if how == "wrong_type":
        choices = [v for v in _OTHER_VALUES if type(v) is not type(value) or v != value]
        set_at(data, path, copy.deepcopy(rng.choice(choices)))
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
        target = get_at(data, rng.choice(lists))
        source = get_at(data, rng.choice(lists))
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
        set_at(data, where, get_at(data, where) + rng.choice([-2, -1, 1, 2]))
    elif how == "bool_flip":
        bools = [p for p, v in inner if type(v) is bool]
        if not bools:
            return mutate(doc, rng)
        where = rng.choice(bools)
        set_at(data, where, not get_at(data, where))
    elif how == "huge_number":
        ints = [p for p, v in inner if type(v) is int]
        set_at(data, rng.choice(ints), rng.choice([10**30, -(10**30), 2**64, 10**400]))
    elif how == "deep_nesting":
        wrapped: Any = get_at(data, path)
        for _ in range(rng.choice([31, 33, 40, 200])):
            wrapped = [wrapped] if rng.random() < 0.5 else {"x": wrapped}
        set_at(data, path, wrapped)
    elif how == "swap_values":
        same = [p for p, v in inner if type(v) is type(value) and p != path]
        if not same:
            return mutate(doc, rng)
        other = rng.choice(same)
        a, b = get_at(data, path), get_at(data, other)
        if not _is_prefix(path, other) and not _is_prefix(other, path):
            set_at(data, path, b)
            set_at(data, other, a)
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
        set_at(data, path, None)
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
