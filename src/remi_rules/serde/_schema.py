"""The JSON Schemas (draft 2020-12) of the saved formats and of the protocol's messages
(docs/schema/), by one walker over the classes the converter reads and writes: each
field as its type and metadata say (:mod:`remi_rules._fields`), so a schema says what
the loader checks of a value's shape.  ``python -m remi_rules.serde [--check] DIR``
writes the files, or checks that they are up to date."""

from __future__ import annotations

import argparse
import enum
import functools
import json
import os
import re
import typing
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

import attrs

from .._fields import PLAYERS
from ..engine import events as _events
from ..engine.steps import Step
from ..ruleset import ClosingAtuTwinEffect, ClosingEffect, Ruleset, knobs
from ..scoring import RoundResult
from ..tiles import Tile
from ._convert import (
    TILE_PATTERN,
    item_of,
    members_of,
    optional_of,
    saved_fields,
    snake_case,
    tag_of,
    union_name,
)
from ._documents import BODIES, FINGERPRINT
from ._migrations import current_version

__all__ = [
    "SCHEMAS",
    "SCHEMA_DIALECT",
    "game_schema",
    "main",
    "record_schema",
    "render_schemas",
    "write_schemas",
]

SCHEMA_DIALECT: Final = "https://json-schema.org/draft/2020-12/schema"
"""The dialect of every schema file of docs/schema/."""

Defs = dict[str, Any]
Meta = Mapping[str, Any]


# -- the walker ----------------------------------------------------------------------------------


def description(cls: type) -> str:
    """The first paragraph of a class's docstring as plain text (reST roles as their
    names, literals in single backquotes)."""
    text = " ".join((cls.__doc__ or "").split("\n\n")[0].split())
    text = re.sub(r":\w+:`([^`<]*?)\s*<[^`]*>`", r"`\1`", text)  # :role:`text <target>`
    text = re.sub(r":\w+:`~?(?:[\w.]*\.)?([^`.]+)`", r"`\1`", text)  # :role:`~a.b.c`
    return text.replace("``", "`")


def _ref(name: str, defs: Defs, body: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    if name not in defs:
        defs[name] = {}  # reserve the name (recursion guard)
        defs[name] = body()
    return {"$ref": f"#/$defs/{name}"}


def type_schema(tp: Any, meta: Meta, defs: Defs) -> dict[str, Any]:
    """The schema of a value of type ``tp`` with the metadata ``meta``; the classes it
    names go into ``defs``."""
    inner = optional_of(tp)
    if inner is not None:
        return {"anyOf": [type_schema(inner, meta, defs), {"type": "null"}]}
    out: dict[str, Any]
    if tp is bool:
        out = {"type": "boolean"}
    elif tp is int:
        out = {"type": "integer"}
        if "lo" in meta:
            out["minimum"] = meta["lo"]
        if "hi" in meta or meta.get("seat"):
            out["maximum"] = PLAYERS["hi"] - 1 if meta.get("seat") else meta["hi"]
    elif tp is str or (isinstance(tp, type) and issubclass(tp, enum.Enum)):
        out = {"type": "string"}
        choices = meta.get("choices")
        if choices is None and tp is not str:
            choices = [m.value for m in typing.cast(type[enum.Enum], tp)]
        if choices is not None:
            out["enum"] = list(choices)
        if "pattern" in meta:
            out["pattern"] = f"^{meta['pattern']}$"
    elif tp is Tile:
        out = {"type": "string", "pattern": f"^{TILE_PATTERN}$"}
    elif tp is Ruleset:
        out = _ref("rules", defs, rules_schema)
    elif item_of(tp) is not None:
        out = {"type": "array", "items": type_schema(item_of(tp), meta.get("items", {}), defs)}
        if meta.get("min_items"):
            out["minItems"] = meta["min_items"]
        if "max_items" in meta:
            out["maxItems"] = meta["max_items"]
        if meta.get("unique") or meta.get("ascending"):
            out["uniqueItems"] = True
    elif members_of(tp) is not None:
        members = members_of(tp)
        assert members is not None
        out = _ref(union_name(members), defs, lambda: union_schema(members, defs))
    elif isinstance(tp, type) and attrs.has(tp):
        out = _ref(snake_case(tp.__name__), defs, lambda: class_schema(tp, defs))
    else:  # pragma: no cover - a field of a new type
        raise AssertionError(f"no JSON Schema for {tp!r}")
    if meta.get("doc"):
        out["description"] = meta["doc"]
    return out


def class_schema(cls: type, defs: Defs) -> dict[str, Any]:
    """An object with exactly the fields of ``cls`` a document holds (a tagged class's
    ``kind`` first), all required."""
    props: dict[str, Any] = {}
    tag = tag_of(cls)
    if tag is not None:
        props["kind"] = {"const": tag}
    for field in saved_fields(cls):
        props[field.name] = type_schema(field.type, field.metadata, defs)
    body: dict[str, Any] = {"type": "object"}
    if description(cls):
        body["description"] = description(cls)
    body |= {"properties": props, "required": list(props), "additionalProperties": False}
    return body


def union_schema(members: tuple[type, ...], defs: Defs) -> dict[str, Any]:
    """A tagged union: an object whose ``kind`` picks one member's schema (if/then on
    the tag rather than oneOf: validators check one branch fully, and report that
    branch's errors)."""
    name = union_name(members)
    branches = []
    for cls in members:
        tag = tag_of(cls)
        member = _ref(f"{name}_{tag}", defs, functools.partial(class_schema, cls, defs))
        branches.append({"if": {"properties": {"kind": {"const": tag}}}, "then": member})
    return {
        "description": f"A {name.replace('_', ' ')}, tagged by its kind.",
        "type": "object",
        "required": ["kind"],
        "properties": {"kind": {"enum": [tag_of(cls) for cls in members]}},
        "allOf": branches,
    }


def rules_schema() -> dict[str, Any]:
    """The JSON Schema of :func:`~remi_rules.serde.ruleset_to_dict`, from the knobs'
    types and ranges."""
    props: dict[str, Any] = {}
    types = {f.name: f.type for f in attrs.fields(attrs.resolve_types(Ruleset))}
    for info in knobs():
        tp: Any = types[info.name]
        prop: dict[str, Any]
        if tp is bool:
            prop = {"type": "boolean"}
        elif tp is int or tp == int | None:
            prop = {"type": "integer", "minimum": info.lo, "maximum": info.hi}
            if tp is not int:
                prop = {"anyOf": [prop, {"type": "null"}]}
        elif isinstance(tp, type) and issubclass(tp, enum.Enum):
            prop = {"type": "string", "enum": [m.value for m in tp]}
        elif tp is ClosingAtuTwinEffect:
            prop = {
                "type": "object",
                "properties": {
                    "bonus": {"type": "integer", "minimum": 0, "maximum": 1_000_000},
                    "mult": {"type": "string", "enum": [m.value for m in ClosingEffect]},
                },
                "required": ["bonus", "mult"],
                "additionalProperties": False,
            }
        else:  # hand_sizes
            assert tp == tuple[int, int], tp
            item = {"type": "integer", "minimum": 1, "maximum": 30}
            prop = {"type": "array", "prefixItems": [item, item], "items": False, "minItems": 2}
        prop = {"description": f"{info.doc} ({', '.join(info.rules)})", **prop}
        props[info.name] = prop
    return {
        "type": "object",
        "description": "Every knob of the Ruleset (docs/rulesets.md); see its fingerprint.",
        "properties": props,
        "required": list(props),
        "additionalProperties": False,
    }


# -- the files ---------------------------------------------------------------------------------


def _document(title: str, description: str, body: dict[str, Any], defs: Defs) -> dict[str, Any]:
    return {
        "$schema": SCHEMA_DIALECT,
        "title": title,
        "description": description,
        **{key: value for key, value in body.items() if key != "description"},
        "$defs": dict(sorted(defs.items())),
    }


def _saved_document(
    kind: str, title: str, text: str, *, rules_optional: bool = False
) -> dict[str, Any]:
    """A saved document: its header, then its body class's fields."""
    defs: Defs = {}
    rules = type_schema(Ruleset, {}, defs)
    if rules_optional:
        rules = {"description": "The ruleset (only with with_rules=True).", **rules}
    props: dict[str, Any] = {
        "kind": {"const": kind},
        "format_version": {"const": current_version(kind)},
        "fingerprint": type_schema(str, FINGERPRINT, defs),
        "rules": rules,
    }
    body = class_schema(BODIES[kind], defs)
    props |= body["properties"]
    required = [key for key in props if not (rules_optional and key == "rules")]
    shape = {"type": "object", "properties": props, "required": required}
    return _document(title, text, {**shape, "additionalProperties": False}, defs)


def game_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of :func:`dump_game`'s output
    (docs/schema/game.schema.json)."""
    return _saved_document(
        "game",
        "remi_rules saved game",
        "A round of Remi etalat as remi_rules.serde.dump_game writes it (format_version "
        f"{current_version('game')}). The schema gives the shape, types and ranges; the loader "
        "also checks that the 106 tiles are each in one place, that the phase is possible "
        "and that the record replays to exactly this state (docs/saving.md).",
    )


def record_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of :func:`dump_record`'s output
    (docs/schema/record.schema.json)."""
    return _saved_document(
        "record",
        "remi_rules game record",
        "The record of a round as remi_rules.serde.dump_record writes it (format_version "
        f"{current_version('record')}): rules, deal, steps and chance outcomes. The loader also "
        "replays it (docs/saving.md).",
    )


def view_schema() -> dict[str, Any]:
    """A view message (:func:`~remi_rules.serde.dump_view`, :func:`load_view`)."""
    return _saved_document(
        "view",
        "remi_rules view",
        "What one seat may see, as remi_rules.serde.dump_view writes it: the ruleset named "
        "by its fingerprint, and itself only with with_rules=True (docs/protocol.md).",
        rules_optional=True,
    )


def _union_document(members: tuple[type, ...], title: str, text: str) -> dict[str, Any]:
    defs: Defs = {}
    return _document(title, text, union_schema(members, defs), defs)


def step_schema() -> dict[str, Any]:
    """A step message (:func:`~remi_rules.serde.dump_step`, :func:`load_step`)."""
    return _union_document(
        typing.get_args(Step),
        "remi_rules step",
        "A step as a client sends it and remi_rules.serde.load_step reads it: an object "
        "tagged by kind with exactly that step's fields. Whether it is legal is the game's "
        "to say (docs/protocol.md).",
    )


def event_schema() -> dict[str, Any]:
    """An event message (:func:`~remi_rules.serde.dump_event`)."""
    return _union_document(
        _events.event_types(),
        "remi_rules event",
        "An event as remi_rules.serde.dump_event writes it for a seat, a spectator or the "
        "server's log: tagged by kind; an id hidden from the viewer is null "
        "(docs/protocol.md).",
    )


def error_schema() -> dict[str, Any]:
    """A refusal message (:func:`~remi_rules.serde.dump_error`)."""
    return _document(
        "remi_rules error",
        "A refusal as remi_rules.serde.dump_error writes it: the error code, its details "
        "(data and sub-codes; a nested error as an object of the same shape) and the "
        "message in the language asked for.",
        {
            "type": "object",
            "properties": {
                "code": {"type": "string"},
                "details": {"type": "object"},
                "message": {"type": "string"},
            },
            "required": ["code", "details", "message"],
            "additionalProperties": False,
        },
        {},
    )


def result_schema() -> dict[str, Any]:
    """A round's result (:func:`~remi_rules.serde.dump_result`): the class's fields,
    tagged ``round_result``, and the ``totals``."""
    defs: Defs = {}
    body = class_schema(RoundResult, defs)
    props = {"kind": {"const": "round_result"}, **body["properties"]}
    props["totals"] = {"type": "array", "items": {"type": "integer"}}
    shape = {"type": "object", "properties": props, "required": list(props)}
    return _document(
        "remi_rules round result",
        "The round's score breakdown as remi_rules.serde.dump_result writes it.",
        {**shape, "additionalProperties": False},
        defs,
    )


SCHEMAS: Final[dict[str, Callable[[], dict[str, Any]]]] = {
    "error.schema.json": error_schema,
    "event.schema.json": event_schema,
    "game.schema.json": game_schema,
    "record.schema.json": record_schema,
    "result.schema.json": result_schema,
    "step.schema.json": step_schema,
    "view.schema.json": view_schema,
}
"""The schema files of docs/schema/ and the functions that write them."""


def render_schemas() -> dict[str, str]:
    """The text of every schema file, by file name."""
    return {
        name: json.dumps(make(), indent=2, ensure_ascii=False) + "\n"
        for name, make in SCHEMAS.items()
    }


def write_schemas(directory: str | os.PathLike[str]) -> list[str]:
    """Write the schema files into ``directory``; return the names of those that changed."""
    changed = []
    for name, text in render_schemas().items():
        path = os.path.join(os.fspath(directory), name)
        try:
            with open(path, encoding="utf-8") as fh:
                old = fh.read()
        except FileNotFoundError:
            old = None
        if old != text:
            os.makedirs(os.fspath(directory), exist_ok=True)
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(text)
            changed.append(name)
    return changed


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m remi_rules.serde [--check] [DIR]``: write the schema files into
    ``DIR`` (docs/schema by default), or with ``--check`` only say which are stale
    (exit code 1)."""
    parser = argparse.ArgumentParser(
        prog="python -m remi_rules.serde",
        description="Write the JSON Schema files of the saved formats and messages.",
    )
    parser.add_argument(
        "directory", nargs="?", default="docs/schema", metavar="DIR", help="default: docs/schema"
    )
    parser.add_argument(
        "--check", action="store_true", help="write nothing; exit 1 if a file is stale"
    )
    args = parser.parse_args(argv)
    directory: str = args.directory
    if args.check:
        stale = []
        for name, text in render_schemas().items():
            try:
                with open(os.path.join(directory, name), encoding="utf-8") as fh:
                    if fh.read() != text:
                        stale.append(name)
            except FileNotFoundError:
                stale.append(name)
        for name in stale:
            print(f"{os.path.join(directory, name)} is stale: run python -m remi_rules.serde")
        return 1 if stale else 0
    write_schemas(directory)
    return 0
