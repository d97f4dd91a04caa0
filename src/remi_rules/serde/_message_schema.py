"""The JSON Schemas of the protocol's messages (docs/schema/): a step, an event (as any
seat may be sent it), a view, a refusal and a round's result.  The step and the view
come from the specs the loaders read with; events and results from their attrs
classes' field types."""

from __future__ import annotations

import enum
import typing
from typing import Any, Final

import attrs

from ..engine import events as _events
from ..engine.steps import Step, _Step
from ..scoring import RoundResult
from ._forms import _STEP, _VIEW
from ._migrations import current_version

SCHEMA_DIALECT: Final = "https://json-schema.org/draft/2020-12/schema"
"""The dialect of every schema file of docs/schema/."""

_EVENT_TYPES: Final = typing.get_args(_events.Event)


def _type_schema(tp: Any, defs: dict[str, Any]) -> dict[str, Any]:
    """The schema of a field of type ``tp`` as :func:`~remi_rules.serde.dump_event` and
    :func:`~remi_rules.serde.dump_result` write it."""
    if tp is bool:
        return {"type": "boolean"}
    if tp is int:
        return {"type": "integer"}
    if tp is str:
        return {"type": "string"}
    if tp is type(None):
        return {"type": "null"}
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return {"enum": [m.value for m in tp]}
    if (isinstance(tp, type) and issubclass(tp, _Step)) or tp is Step:
        return _STEP.schema(defs)
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is tuple:
        return {"type": "array", "items": _type_schema(args[0], defs)}
    if args and (origin is typing.Union or type(tp).__name__ == "UnionType"):
        return {"anyOf": [_type_schema(a, defs) for a in args]}
    if isinstance(tp, type) and attrs.has(tp):
        name = tp.__name__.lower()
        if name not in defs:
            defs[name] = {}
            defs[name] = _class_schema(tp, defs)
        return {"$ref": f"#/$defs/{name}"}
    raise AssertionError(f"no JSON Schema for {tp!r}")  # pragma: no cover - a new type


def _class_schema(cls: type[Any], defs: dict[str, Any], **extra: Any) -> dict[str, Any]:
    fields = attrs.fields(attrs.resolve_types(cls))
    props = {**extra, **{f.name: _type_schema(f.type, defs) for f in fields}}
    doc = (cls.__doc__ or "").split("\n\n")[0].strip()
    body: dict[str, Any] = {"type": "object"}
    if doc:
        body["description"] = " ".join(doc.split())
    body |= {"properties": props, "required": list(props), "additionalProperties": False}
    return body


def _document(
    title: str, description: str, body: dict[str, Any], defs: dict[str, Any]
) -> dict[str, Any]:
    return {
        "$schema": SCHEMA_DIALECT,
        "title": title,
        "description": description,
        **body,
        "$defs": dict(sorted(defs.items())),
    }


def step_schema() -> dict[str, Any]:
    """A step message (:func:`~remi_rules.serde.dump_step`, :func:`load_step`)."""
    defs: dict[str, Any] = {}
    _STEP.schema(defs)
    body = defs.pop("step")
    return _document(
        "remi_rules step",
        "A step as a client sends it and remi_rules.serde.load_step reads it: an object "
        "tagged by kind with exactly that step's fields. Whether it is legal is the game's "
        "to say (docs/protocol.md).",
        {k: v for k, v in body.items() if k != "description"},
        defs,
    )


def event_schema() -> dict[str, Any]:
    """An event message (:func:`~remi_rules.serde.dump_event`)."""
    defs: dict[str, Any] = {}
    branches = []
    for cls in _EVENT_TYPES:
        body = _class_schema(cls, defs, kind={"const": cls.kind})
        branches.append({"if": {"properties": {"kind": {"const": cls.kind}}}, "then": body})
    return _document(
        "remi_rules event",
        "An event as remi_rules.serde.dump_event writes it for a seat, a spectator or the "
        "server's log: tagged by kind; an id hidden from the viewer is null "
        "(docs/protocol.md).",
        {
            "type": "object",
            "required": ["kind"],
            "properties": {"kind": {"enum": [cls.kind for cls in _EVENT_TYPES]}},
            "allOf": branches,
        },
        defs,
    )


def view_schema() -> dict[str, Any]:
    """A view message (:func:`~remi_rules.serde.dump_view`, :func:`load_view`)."""
    defs: dict[str, Any] = {}
    _VIEW.schema(defs)
    body = defs.pop(_VIEW.name)
    props = {
        "kind": {"const": "view"},
        "format_version": {"const": current_version("view")},
        "fingerprint": {"type": "string", "pattern": "^[0-9a-f]{16}$"},
        "rules": {"type": "object", "description": "The ruleset (with_rules=True)."},
        **body["properties"],
    }
    return _document(
        "remi_rules view",
        "What one seat may see, as remi_rules.serde.dump_view writes it: the ruleset named "
        "by its fingerprint, and itself only with with_rules=True (docs/protocol.md).",
        {
            "type": "object",
            "properties": props,
            "required": [k for k in props if k != "rules"],
            "additionalProperties": False,
        },
        defs,
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
    """A round's result (:func:`~remi_rules.serde.dump_result`)."""
    defs: dict[str, Any] = {}
    body = _class_schema(
        RoundResult,
        defs,
        kind={"const": "round_result"},
    )
    body["properties"]["totals"] = {"type": "array", "items": {"type": "integer"}}
    body["required"].append("totals")
    body.pop("description", None)
    return _document(
        "remi_rules round result",
        "The round's score breakdown as remi_rules.serde.dump_result writes it.",
        body,
        defs,
    )


MESSAGE_SCHEMAS: Final = {
    "step.schema.json": step_schema,
    "event.schema.json": event_schema,
    "view.schema.json": view_schema,
    "error.schema.json": error_schema,
    "result.schema.json": result_schema,
}
"""The protocol's schema files of docs/schema/ and the functions that write them."""
