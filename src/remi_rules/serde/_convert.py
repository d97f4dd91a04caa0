"""The cattrs converter of every saved form: games, records, views, matches, steps,
events and results.

The converter is the rulesets' converter (:mod:`remi_rules.serde.rulesets`), copied
with ``forbid_extra_keys`` and ``detailed_validation``, and hook factories for any
attrs class and any tagged union of them: a class's fields are read and written as
their types and their metadata say (:mod:`remi_rules._fields`: ranges, sizes,
patterns, descriptions), so a new saved class, step or event needs no code here.
cattrs generates each class's structuring code (detailed validation: every field is
read, each failure noted with the field's name or the item's index); the hooks of
this module refuse a value with :class:`~remi_rules.errors.StateErrorCode` and
:func:`structure` turns cattrs' errors into one
:class:`~remi_rules.errors.InvalidStateError` naming the path of the value.

Which error, when a document has several: the first in document order, where at each
object an odd key (not a string, then unknown, in the document's order) comes first,
then a missing key (in the class's field order), then the fields in their order; and
at each array its items in order.  A check of a value's meaning under the document's
rules (the table's melds: :mod:`._table`; a class's own check when it is built) is
reported only when the whole value read has no error of shape.

A :class:`~remi_rules.Ruleset` field is never in a document: it is the document's
rules (``rules=`` of :func:`structure`), and a field marked ``saved=False`` is derived
(the class is then read as a dict of its saved fields, which its container's hook
completes: the table's melds).
"""

from __future__ import annotations

import contextvars
import enum
import functools
import re
import types
import typing
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Final

import attrs
import cattrs
from cattrs.errors import (
    AttributeValidationNote,
    ClassValidationError,
    IterableValidationError,
    IterableValidationNote,
)
from cattrs.gen import make_dict_structure_fn_from_attrs, make_dict_unstructure_fn, override

from ..errors import InvalidStateError, RemiError, StateErrorCode
from ..ruleset import ClosingAtuTwinEffect, Ruleset
from ..table import Table
from ..tiles import Tile
from ._bounds import (
    _S,
    _Here,
    _HugeInt,
    _json_type,
    _Refusal,
    _refuse,
    _refuse_meaning,
    _show,
)
from ._table import table_of
from .rulesets import _CONVERTER as _RULESET_CONVERTER

__all__ = ["CONVERTER", "field_of", "structure", "unstructure"]

Hook = Callable[[Any, Any], Any]
Meta = Mapping[str, Any]

PLAYERS: Final = contextvars.ContextVar("players", default=4)
"""The number of players of the document being read (the bound of a seat number)."""
RULES: Final[contextvars.ContextVar[Ruleset | None]] = contextvars.ContextVar("rules", default=None)
"""The rules of the document being read (its classes' :class:`Ruleset` fields)."""

TILE_PATTERN: Final = "(1[0-3]|[1-9])[RGAN]"
"""A numbered tile in notation (``"8R"``): the fixed identity of a joker întors."""

_COMPLETIONS: Final[dict[type, Callable[[dict[str, Any]], Any]]] = {
    Table: lambda fields: table_of(fields, _rules()),
}
"""The classes made whole from their fields by a check under the document's rules."""
_NOT_SAVED: Final = (Ruleset, ClosingAtuTwinEffect)
"""attrs classes the rulesets' converter reads and writes, not these hooks."""


def _rules() -> Ruleset:
    rules = RULES.get()
    assert rules is not None, "structure(..., rules=) is needed for this class"
    return rules


# -- the classes' traits -----------------------------------------------------------------------


def is_saved(field: attrs.Attribute[Any]) -> bool:
    """Whether a document holds ``field`` (not the rules, not a derived field)."""
    return field.type is not Ruleset and field.metadata.get("saved", True)


def saved_fields(cls: type) -> tuple[attrs.Attribute[Any], ...]:
    """The fields of ``cls`` a document holds, in order (their types resolved)."""
    return tuple(f for f in attrs.fields(attrs.resolve_types(cls)) if is_saved(f))


def tag_of(cls: type) -> str | None:
    """The ``kind`` a tagged class is written with (its class variable), or None."""
    kind = getattr(cls, "kind", None)
    return kind if isinstance(kind, str) else None


def optional_of(tp: Any) -> Any:
    """``X`` of the type ``X | None`` (None for another type)."""
    args = typing.get_args(tp)
    if _is_union(tp) and len(args) == 2 and args[1] is type(None):
        return args[0]
    return None


def item_of(tp: Any) -> Any:
    """The item type of a sequence type (``tuple[X, ...]``, ``tuple[X, X]``,
    ``frozenset[X]``), or None."""
    if typing.get_origin(tp) not in (tuple, frozenset):
        return None
    items = {a for a in typing.get_args(tp) if a is not Ellipsis}
    assert len(items) == 1, f"{tp!r}: a sequence of one item type"  # pragma: no cover
    return items.pop()


def members_of(tp: Any) -> tuple[type, ...] | None:
    """The classes of a tagged union (each an attrs class with a ``kind``), or None."""
    if not _is_union(tp):
        return None
    args = typing.get_args(tp)
    if all(isinstance(a, type) and attrs.has(a) and tag_of(a) for a in args):
        return args
    return None


def union_name(members: tuple[type, ...]) -> str:
    """The name of a tagged union: its members' common base class, in snake case
    (``_Step``: ``step``)."""
    for base in members[0].__mro__[1:]:
        if base is not object and all(issubclass(m, base) for m in members):
            return snake_case(base.__name__.lstrip("_"))
    raise AssertionError(f"{members!r} share no base class")  # pragma: no cover


def snake_case(name: str) -> str:
    """``GameState``: ``game_state``."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def _is_union(tp: Any) -> bool:
    return typing.get_origin(tp) is typing.Union or isinstance(tp, types.UnionType)


def _is_saved_class(tp: Any) -> bool:
    return isinstance(tp, type) and attrs.has(tp) and tp not in _NOT_SAVED


# -- reading: one value ---------------------------------------------------------------------


def _bool(value: object, _: object) -> bool:
    if type(value) is not bool:
        _refuse(_S.WRONG_TYPE, expected="boolean", got=_json_type(value))
    return value


def _int_hook(meta: Meta) -> Hook:
    lo, hi = meta.get("lo"), meta.get("hi")
    seat, players = meta.get("seat", False), meta.get("players", False)

    def hook(value: object, _: object) -> int:
        if isinstance(value, _HugeInt):
            _refuse(_S.OUT_OF_RANGE, value=_show(value), lo=lo, hi=hi)
        if type(value) is not int:
            _refuse(_S.WRONG_TYPE, expected="integer", got=_json_type(value))
        top = PLAYERS.get() - 1 if seat else hi
        if (lo is not None and value < lo) or (top is not None and value > top):
            _refuse(_S.OUT_OF_RANGE, value=_show(value), lo=lo, hi=top)
        if players:
            PLAYERS.set(value)
        return value

    return hook


def _str_hook(meta: Meta) -> Hook:
    pattern, choices = meta.get("pattern"), meta.get("choices")

    def hook(value: object, _: object) -> str:
        if type(value) is not str:
            _refuse(_S.WRONG_TYPE, expected="string", got=_json_type(value))
        if pattern is not None and re.fullmatch(pattern, value) is None:
            _refuse(_S.BAD_VALUE, why="pattern", value=_show(value), pattern=pattern)
        if choices is not None and value not in choices:
            _refuse(_S.BAD_VALUE, why="not_one_of", value=_show(value), choices=", ".join(choices))
        return value

    return hook


def const_hook(constant: str | int) -> Hook:
    """A value that must be ``constant`` (a document's ``kind``, its version)."""

    def hook(value: object, _: object) -> Any:
        if type(value) is not type(constant):
            _refuse(_S.WRONG_TYPE, expected=_json_type(constant), got=_json_type(value))
        if value != constant:
            _refuse(_S.BAD_VALUE, why="not_the_constant", expected=constant, got=_show(value))
        return value

    return hook


def _enum_hook(cls: type[enum.Enum], meta: Meta) -> Hook:
    choices = tuple(meta.get("choices", (m.value for m in cls)))
    read = _str_hook({"choices": choices})
    return lambda value, _: cls(read(value, cls))


def _tile_hook(value: object, _: object) -> Tile:
    return Tile.parse(_TILE_TEXT(value, Tile))


_TILE_TEXT: Final = _str_hook({"pattern": TILE_PATTERN})


def _at_index(exc: Exception, index: int, tp: Any) -> IterableValidationError:
    """``exc`` of an item, noted with its index the way cattrs notes it."""
    note = IterableValidationNote(f"Structuring item @ index {index}", index, tp)
    exc.__notes__ = [*getattr(exc, "__notes__", ()), note]
    return IterableValidationError("While structuring an array", [exc], tp)


def _seq_hook(container: Any, item_tp: Any, meta: Meta) -> Hook:
    """An array read as a tuple (a frozenset: ``ascending``), bounded by ``meta``."""
    least, most = meta.get("min_items", 0), meta["max_items"]
    size_code = StateErrorCode(meta.get("size_code", _S.BAD_VALUE))
    dup_code = StateErrorCode(meta.get("dup_code", _S.BAD_VALUE))
    ascending = meta.get("ascending", False)
    unique = meta.get("unique", False) or ascending
    item_meta = meta.get("items", {})
    item = field_hook(item_tp, item_meta)
    ints = item_tp is int and not item_meta.get("players")
    lo, hi, seat = item_meta.get("lo"), item_meta.get("hi"), item_meta.get("seat")

    def within(value: list[Any]) -> bool:
        """All ints in range (the usual case, checked at C speed)."""
        if not value:
            return True
        if set(map(type, value)) != {int}:
            return False
        top = PLAYERS.get() - 1 if seat else hi
        return (lo is None or min(value) >= lo) and (top is None or max(value) <= top)

    def hook(value: object, _: object) -> Any:
        if type(value) is not list:
            _refuse(_S.WRONG_TYPE, expected="array", got=_json_type(value))
        n = len(value)
        if not least <= n <= most:
            _refuse(size_code, why="item_count", count=n, lo=least, hi=most)
        out: list[Any]
        if ints and within(value):
            out = value
        else:
            out = []
            for k, one in enumerate(value):
                try:
                    out.append(item(one, item_tp))
                except Exception as exc:
                    raise _at_index(exc, k, item_tp) from None
        if unique and len(set(out)) != n:
            first: dict[Any, int] = {}
            for k, one in enumerate(out):
                if one in first:
                    other = _Here(f"[{first[one]}]")
                    _refuse(dup_code, f"[{k}]", why="duplicate_item", value=_show(one), other=other)
                first[one] = k
        if container is frozenset:
            if out != sorted(out):
                _refuse(_S.BAD_VALUE, why="ascending")
            return frozenset(out)
        return tuple(out)

    return hook


def _optional_hook(inner: Hook) -> Hook:
    return lambda value, tp: None if value is None else inner(value, tp)


def field_hook(tp: Any, meta: Meta) -> Hook:
    """The hook that reads a value of type ``tp`` with the metadata ``meta`` (see
    :mod:`remi_rules._fields`)."""
    inner = optional_of(tp)
    if inner is not None:
        return _optional_hook(field_hook(inner, meta))
    if tp is bool:
        return _bool
    if tp is int:
        return _int_hook(meta)
    if tp is str:
        return _str_hook(meta)
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return _enum_hook(tp, meta)
    item = item_of(tp)
    if item is not None:
        return _seq_hook(typing.get_origin(tp), item, meta)
    hook: Hook = CONVERTER.get_structure_hook(tp)
    return hook


@functools.cache
def field_of(cls: type, name: str) -> tuple[Any, Hook]:
    """The type of field ``name`` of ``cls`` and the hook that reads it."""
    field = attrs.fields_dict(attrs.resolve_types(cls))[name]
    return field.type, field_hook(field.type, field.metadata)


# -- reading: a class, a tagged union --------------------------------------------------------


def keys_hook(keys: tuple[str, ...]) -> Hook:
    """An object with exactly ``keys``: an odd key first (not a string, then unknown,
    in the document's order), then a missing one (in the order of ``keys``)."""
    known = frozenset(keys)
    return lambda value, _: _check_keys(value, keys, known)


def _check_keys(value: dict[Any, Any], keys: tuple[str, ...], known: frozenset[str]) -> None:
    for key in value:
        if type(key) is not str:
            _refuse(_S.WRONG_TYPE, expected="string keys", got=_json_type(key))
        if key not in known:
            _refuse(_S.UNKNOWN_KEY, f".{key}", key=_show(key))
    for key in keys:
        if key not in value:
            _refuse(_S.MISSING_KEY, f".{key}", key=key)


def _class_structure(cls: type, conv: cattrs.Converter) -> Hook:
    """Every field required, no other key, each field read by :func:`field_hook`."""
    fields = attrs.fields(attrs.resolve_types(cls))
    saved = saved_fields(cls)
    tag = tag_of(cls)
    keys = (("kind",) if tag else ()) + tuple(f.name for f in saved)
    known = frozenset(keys)
    overrides: dict[str, Any] = {
        f.name: override(struct_hook=field_hook(f.type, f.metadata)) for f in saved
    }
    inner = make_dict_structure_fn_from_attrs(
        list(saved),
        dict,  # the fields read, as a dict: built into the class below
        conv,
        _cattrs_forbid_extra_keys=False,  # checked first, in document order
        _cattrs_detailed_validation=True,
        **overrides,
    )
    from_rules = tuple(f.name for f in fields if f.type is Ruleset)
    derived = len(saved) + len(from_rules) < len(fields)
    complete = _COMPLETIONS.get(cls)
    read_tag = const_hook(tag) if tag else None

    def structure(value: object, _: object) -> Any:
        if not isinstance(value, dict):
            _refuse(_S.WRONG_TYPE, expected="object", got=_json_type(value))
        if len(value) != len(keys) or not known.issuperset(value):
            _check_keys(value, keys, known)
        if read_tag is not None and value["kind"] != tag:  # read as a class, not a union
            try:
                read_tag(value["kind"], str)
            except _Refusal as refusal:
                refusal.at = ".kind"
                raise
        out: dict[str, Any] = inner(value, dict)
        if derived:
            return out  # completed by the container's hook
        for name in from_rules:
            out[name] = _rules()
        if complete is not None:
            return complete(out)
        try:
            return cls(**out)
        except RemiError as err:  # the class's own check (MatchConfig's rounds or target)
            _refuse_meaning(_S.BAD_VALUE, why="bad_config", cause=err)
        except (TypeError, ValueError) as err:  # a check of a class added later
            _refuse_meaning(_S.BAD_VALUE, why="unexpected", error=type(err).__name__)

    return structure


def _union_structure(tp: Any, conv: cattrs.Converter) -> Hook:
    """A tagged union: an object whose ``kind`` names the class."""
    members = members_of(tp)
    assert members is not None
    hooks = {tag_of(m): conv.get_structure_hook(m) for m in members}
    why = "no_such_" + union_name(members)

    def structure(value: object, _: object) -> Any:
        if not isinstance(value, dict):
            _refuse(_S.WRONG_TYPE, expected="object", got=_json_type(value))
        if "kind" not in value:
            _refuse(_S.MISSING_KEY, ".kind", key="kind")
        kind = value["kind"]
        if type(kind) is not str:
            _refuse(_S.WRONG_TYPE, ".kind", expected="string", got=_json_type(kind))
        hook = hooks.get(kind)
        if hook is None:
            _refuse(_S.BAD_VALUE, ".kind", why=why, kind=_show(kind))
        return hook(value, tp)

    return structure


# -- writing ---------------------------------------------------------------------------------


def _plain(tp: Any) -> bool:
    """A type written as itself."""
    inner = optional_of(tp)
    return tp in (int, bool, str) or (inner is not None and _plain(inner))


def _class_unstructure(cls: type, conv: cattrs.Converter) -> Callable[[Any], dict[str, Any]]:
    fields = attrs.fields(attrs.resolve_types(cls))
    omit: dict[str, Any] = {f.name: override(omit=True) for f in fields if not is_saved(f)}
    fn: Callable[[Any], dict[str, Any]] = make_dict_unstructure_fn(cls, conv, **omit)
    tag = tag_of(cls)
    if tag is None:
        return fn
    return lambda value: {"kind": tag, **fn(value)}


def _union_unstructure(tp: Any, conv: cattrs.Converter) -> Callable[[Any], Any]:
    members = members_of(tp)
    assert members is not None
    hooks = {m: conv.get_unstructure_hook(m) for m in members}
    return lambda value: hooks[type(value)](value)


def _seq_unstructure(tp: Any, conv: cattrs.Converter) -> Callable[[Any], list[Any]]:
    """An array, a frozenset's items in ascending order."""
    item = item_of(tp)
    ordered = typing.get_origin(tp) is frozenset
    if _plain(item):
        return sorted if ordered else list
    one = conv.get_unstructure_hook(item)
    if ordered:  # pragma: no cover - no frozenset of other items is saved
        return lambda value: [one(v) for v in sorted(value)]
    return lambda value: [one(v) for v in value]


def _make_converter() -> cattrs.Converter:
    conv = _RULESET_CONVERTER.copy(detailed_validation=True, forbid_extra_keys=True)
    conv.register_structure_hook(bool, _bool)
    conv.register_structure_hook(Tile, _tile_hook)
    conv.register_unstructure_hook(Tile, str)
    conv.register_structure_hook_factory(_is_saved_class, lambda t: _class_structure(t, conv))
    conv.register_unstructure_hook_factory(_is_saved_class, lambda t: _class_unstructure(t, conv))
    conv.register_structure_hook_factory(
        lambda t: members_of(t) is not None, lambda t: _union_structure(t, conv)
    )
    conv.register_unstructure_hook_factory(
        lambda t: members_of(t) is not None, lambda t: _union_unstructure(t, conv)
    )
    conv.register_unstructure_hook_factory(
        lambda t: item_of(t) is not None, lambda t: _seq_unstructure(t, conv)
    )
    return conv


CONVERTER: Final = _make_converter()
"""The converter of the saved forms."""


# -- errors ----------------------------------------------------------------------------------


def _child(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _join(path: str, at: str) -> str:
    return path + at if path else at.removeprefix(".")


def _note(exc: BaseException, kind: type[Any]) -> Any:
    return next((n for n in getattr(exc, "__notes__", ()) if isinstance(n, kind)), None)


def _leaves(exc: BaseException, path: str) -> Iterator[tuple[str, BaseException]]:
    """The refusals of a cattrs failure with the paths of their values, in document
    order."""
    if isinstance(exc, ClassValidationError):
        for sub in exc.exceptions:
            note = _note(sub, AttributeValidationNote)
            yield from _leaves(sub, _child(path, note.name) if note else path)
    elif isinstance(exc, IterableValidationError):
        for sub in exc.exceptions:
            note = _note(sub, IterableValidationNote)
            yield from _leaves(sub, f"{path}[{note.index}]" if note else path)
    else:
        yield path, exc


def _translate(exc: BaseException, path: str) -> InvalidStateError:
    """The error of a failure: its first refusal of shape, else its first refusal."""
    found = list(_leaves(exc, path))
    shape = [(where, leaf) for where, leaf in found if not getattr(leaf, "meaning", False)]
    where, leaf = (shape or found)[0]
    if isinstance(leaf, _Refusal):
        details = {
            key: _join(where, value) if isinstance(value, _Here) else value
            for key, value in leaf.details.items()
        }
        return InvalidStateError(leaf.code, path=_join(where, leaf.at) or "$", **details)
    if isinstance(leaf, InvalidStateError):  # pragma: no cover - not raised by the hooks
        return leaf
    return InvalidStateError(
        _S.BAD_VALUE, path=where or "$", why="unexpected", error=type(leaf).__name__
    )


def structure(
    data: object,
    tp: Any,
    path: str = "",
    *,
    rules: Ruleset | None = None,
    players: int = 4,
    hook: Hook | None = None,
) -> Any:
    """``data`` as a ``tp``, strictly (``hook``: the hook to read it with, for a value
    whose metadata is not its type's: :func:`field_of`);
    :class:`~remi_rules.errors.InvalidStateError` naming the path of the refusal
    (below ``path``).  ``rules`` are the document's; ``players`` bounds the seat
    numbers until a number of players is read."""
    read = hook if hook is not None else CONVERTER.get_structure_hook(tp)
    seats, ruleset = PLAYERS.set(players), RULES.set(rules)
    try:
        return read(data, tp)
    except (ClassValidationError, IterableValidationError, _Refusal) as exc:
        raise _translate(exc, path) from None
    finally:
        PLAYERS.reset(seats)
        RULES.reset(ruleset)


def unstructure(value: object, tp: Any = None) -> Any:
    """``value`` (of type ``tp``, by default its class) as plain JSON values."""
    return CONVERTER.unstructure(value, tp)
