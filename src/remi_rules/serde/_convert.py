"""The cattrs converter of saved documents: the rulesets' converter
(:mod:`remi_rules.serde.rulesets`) with the hooks of the saved forms, whose ranges are
the attrs field metadata of the engine's classes (``lo``, ``hi``, ``seat``: a seat
number, below the document's number of players), and cattrs' detailed validation
turned into :class:`~remi_rules.errors.StateErrorCode` with the path of the field.

Reading order, so that one faulty document always gives the same error: at each
object, an unknown key, then a missing key, then the fields in their class's order.
"""

from __future__ import annotations

import contextvars
import enum
import typing
from collections.abc import Iterator, Mapping
from typing import Any, Final, NoReturn

import attrs
import cattrs
from cattrs.errors import ClassValidationError, ForbiddenExtraKeysError, IterableValidationError
from cattrs.gen import make_dict_structure_fn, override

from ..engine import Automation, MatchConfig, RoundEnd, SeatState
from ..errors import InvalidStateError, RemiError, StateErrorCode
from ._bounds import _S, _json_type, _show
from .rulesets import _CONVERTER as _RULESET_CONVERTER

__all__: list[str] = []

PLAYERS: Final = contextvars.ContextVar("players", default=4)
"""The number of players of the document being read (the bound of a seat number)."""


class _Refusal(Exception):
    """A field's value refused by a hook: the code and the details of the error."""

    def __init__(self, code: StateErrorCode, details: dict[str, object], at: str = "") -> None:
        super().__init__(code)
        self.code = code
        self.at = at  # below the field: "[5]" for its sixth item
        self.details = details


def _refuse(code: StateErrorCode, **details: object) -> NoReturn:
    raise _Refusal(code, details)


def _int_hook(lo: int, hi: int | None, *, seat: bool, optional: bool) -> Any:
    def hook(value: object, _: object) -> int | None:
        if value is None and optional:
            return None
        if type(value) is not int:
            _refuse(_S.WRONG_TYPE, expected="integer", got=_json_type(value))
        top = PLAYERS.get() - 1 if seat else hi
        assert top is not None
        if not lo <= value <= top:
            _refuse(_S.OUT_OF_RANGE, value=_show(value), lo=lo, hi=top)
        return value

    return hook


def _ids_hook(meta: Mapping[str, Any]) -> Any:
    """An array of ints read as a tuple: at most ``max_items``, each in ``items``'
    range (metadata)."""
    item = _int_hook(meta["items"]["lo"], meta["items"]["hi"], seat=False, optional=False)
    most, size_code = meta["max_items"], StateErrorCode(meta["size_code"])

    def hook(value: object, _: object) -> tuple[int, ...]:
        if type(value) is not list:
            _refuse(_S.WRONG_TYPE, expected="array", got=_json_type(value))
        if len(value) > most:
            _refuse(size_code, why="item_count", count=len(value), lo=0, hi=most)
        for k, one in enumerate(value):
            try:
                item(one, int)
            except _Refusal as refusal:
                raise _Refusal(refusal.code, refusal.details, f"[{k}]") from None
        return tuple(value)

    return hook


def _bool_hook(value: object, _: object) -> bool:
    if type(value) is not bool:
        _refuse(_S.WRONG_TYPE, expected="boolean", got=_json_type(value))
    return value


def _enum_hook(value: object, cls: type[enum.StrEnum]) -> enum.StrEnum:
    if type(value) is not str:
        _refuse(_S.WRONG_TYPE, expected="string", got=_json_type(value))
    try:
        return cls(value)
    except ValueError:
        choices = ", ".join(m.value for m in cls)
        _refuse(_S.BAD_VALUE, why="not_one_of", value=_show(value), choices=choices)


def _object_hook(cls: type[Any], converter: cattrs.Converter) -> Any:
    """The strict structure function of ``cls``: every field required, no other key,
    each int field bounded by its metadata (``lo``, ``hi``, ``seat``)."""
    overrides: dict[str, Any] = {}
    for field in attrs.fields(cls):
        meta = field.metadata
        if "items" in meta:
            overrides[field.name] = override(struct_hook=_ids_hook(meta))
        elif "lo" in meta:
            optional = field.type in (int | None, "int | None")
            hook = _int_hook(
                meta["lo"], meta.get("hi"), seat=meta.get("seat", False), optional=optional
            )
            overrides[field.name] = override(struct_hook=hook)
    names = tuple(f.name for f in attrs.fields(cls))
    inner = make_dict_structure_fn(cls, converter, _cattrs_forbid_extra_keys=True, **overrides)

    def structure(value: object, _: object) -> Any:
        if not isinstance(value, dict):
            _refuse(_S.WRONG_TYPE, expected="object", got=_json_type(value))
        for key in value:
            if type(key) is not str:
                _refuse(_S.WRONG_TYPE, expected="string keys", got=_json_type(key))
        # every field is required: a missing one is missing_key, not its default
        missing = [name for name in names if name not in value]
        if missing and all(key in names for key in value):
            raise KeyError(missing[0])
        return inner(value, cls)

    return structure


SAVED_CLASSES: Final = (Automation, MatchConfig, RoundEnd, SeatState)
"""The engine's classes read and written by this converter (the others still by the
specs of :mod:`remi_rules.serde._forms`)."""


def _make_converter() -> cattrs.Converter:
    conv = _RULESET_CONVERTER.copy(detailed_validation=True, forbid_extra_keys=True)
    conv.register_structure_hook(bool, _bool_hook)
    conv.register_structure_hook(enum.StrEnum, _enum_hook)
    conv.register_unstructure_hook_func(lambda t: t == tuple[int, ...], list)
    for cls in SAVED_CLASSES:
        conv.register_structure_hook(cls, _object_hook(cls, conv))
    return conv


CONVERTER: Final = _make_converter()
"""The converter of the saved forms (the rulesets' converter, copied, and their hooks)."""


def _child(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _errors(exc: BaseException, path: str) -> Iterator[tuple[int, str, BaseException]]:
    """The leaves of a cattrs failure with their paths, ranked: unknown keys, missing
    keys, then the fields in order."""
    if isinstance(exc, ClassValidationError):
        with_notes, without = exc.group_exceptions()
        for sub, note in with_notes:
            yield from _errors(sub, _child(path, note.name))
        for sub in without:
            yield from _errors(sub, path)
    elif isinstance(exc, IterableValidationError):
        with_index, without = exc.group_exceptions()
        for sub, at in with_index:
            yield from _errors(sub, f"{path}[{at.index}]")
        for sub in without:
            yield from _errors(sub, path)
    elif isinstance(exc, ForbiddenExtraKeysError):
        yield 0, path, exc
    elif isinstance(exc, KeyError) and exc.args:
        yield 1, path, exc
    else:
        yield 2, path, exc


def _translate(exc: BaseException, path: str) -> InvalidStateError:
    found = list(_errors(exc, path))
    if not found:  # pragma: no cover - a cattrs failure always has a leaf
        return InvalidStateError(
            _S.BAD_VALUE, path=path or "$", why="unexpected", error=type(exc).__name__
        )
    _rank, where, leaf = min(found, key=lambda item: item[0])
    if isinstance(leaf, ForbiddenExtraKeysError):
        extra = sorted(leaf.extra_fields, key=str)[0]
        return InvalidStateError(
            _S.UNKNOWN_KEY, path=_child(where, str(_show(extra))), key=_show(extra)
        )
    if isinstance(leaf, KeyError):
        key = str(leaf.args[0])
        # a missing field is reported by cattrs at the field's own path
        at = where if where.rsplit(".", 1)[-1] == key else _child(where, key)
        return InvalidStateError(_S.MISSING_KEY, path=at, key=key)
    if isinstance(leaf, _Refusal):
        return InvalidStateError(leaf.code, path=(where + leaf.at) or "$", **leaf.details)
    if isinstance(leaf, InvalidStateError):
        return leaf
    if isinstance(leaf, RemiError):  # a class's own check: MatchConfig's rounds or target
        return InvalidStateError(_S.BAD_VALUE, path=where or "$", why="bad_config", cause=leaf)
    return InvalidStateError(
        _S.BAD_VALUE, path=where or "$", why="unexpected", error=type(leaf).__name__
    )


def structure(data: object, cls: type[Any], path: str, *, players: int = 4) -> Any:
    """``data`` as a ``cls``, strictly; :class:`~remi_rules.errors.InvalidStateError`
    naming the path of the first refusal (under ``path``).  ``players`` bounds the
    seat numbers."""
    token = PLAYERS.set(players)
    try:
        return CONVERTER.structure(data, cls)
    except (ClassValidationError, IterableValidationError, ForbiddenExtraKeysError) as exc:
        raise _translate(exc, path) from None
    except (_Refusal, KeyError) as exc:
        raise _translate(exc, path) from None
    finally:
        PLAYERS.reset(token)


def _field_schema(tp: Any, meta: Mapping[str, Any]) -> dict[str, Any]:
    if tp is bool:
        return {"type": "boolean"}
    if isinstance(tp, type) and issubclass(tp, enum.StrEnum):
        return {"type": "string", "enum": [m.value for m in tp]}
    if "items" in meta:
        array: dict[str, Any] = {"type": "array", "items": _field_schema(int, meta["items"])}
        array["maxItems"] = meta["max_items"]
        return array
    if tp is int:
        out: dict[str, Any] = {"type": "integer", "minimum": meta["lo"], "maximum": meta["hi"]}
        if "doc" in meta:
            out["description"] = meta["doc"]
        return out
    args = typing.get_args(tp)
    if len(args) == 2 and args[1] is type(None):  # X | None
        return {"anyOf": [_field_schema(args[0], meta), {"type": "null"}]}
    raise AssertionError(f"no JSON Schema for {tp!r}")  # pragma: no cover - a new field type


def object_schema(cls: type[Any]) -> dict[str, Any]:
    """The JSON Schema of ``cls`` as this converter reads it, from its fields' types
    and metadata (the description: its docstring's first paragraph)."""
    fields = attrs.fields(attrs.resolve_types(cls))
    body: dict[str, Any] = {"type": "object"}
    doc = (cls.__doc__ or "").split("\n\n")[0].strip()
    if doc:
        body["description"] = doc
    body["properties"] = {f.name: _field_schema(f.type, f.metadata) for f in fields}
    body["required"] = [f.name for f in fields]
    body["additionalProperties"] = False
    return body


def unstructure(value: object) -> Any:
    """``value`` as plain JSON values."""
    return CONVERTER.unstructure(value)
