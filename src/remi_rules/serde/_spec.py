"""The specs a saved document is read, written and described by (see
:mod:`remi_rules.serde.games`): one per saved value drives writing it (``dump``),
reading it back strictly with the path of every refusal (``read``) and its JSON
Schema (``schema``)."""

from __future__ import annotations

import enum
import re
from collections.abc import Callable, Sequence
from typing import Any, Final

from ..errors import StateErrorCode
from ..ruleset import Ruleset
from ..tiles import Tile
from ._bounds import _S, _check_int, _child, _fail, _json_type, _show, _wrong_type


class _Ctx:
    """What reading needs to know from earlier fields: the rules and the player count."""

    def __init__(self, rules: Ruleset | None = None) -> None:
        self.rules = rules
        self.players = 4

    @property
    def ruleset(self) -> Ruleset:
        assert self.rules is not None
        return self.rules


class _Spec:
    def read(self, value: object, path: str, ctx: _Ctx) -> Any:
        raise NotImplementedError

    def dump(self, value: Any) -> Any:
        return value

    def schema(self, defs: dict[str, Any]) -> dict[str, Any]:
        raise NotImplementedError


class _Int(_Spec):
    def __init__(self, lo: int, hi: int, *, seat: bool = False, what: str = "") -> None:
        self.lo, self.hi, self.seat, self.what = lo, hi, seat, what

    def read(self, value: object, path: str, ctx: _Ctx) -> int:
        return _check_int(value, path, self.lo, ctx.players - 1 if self.seat else self.hi)

    def schema(self, defs: dict[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "integer", "minimum": self.lo, "maximum": self.hi}
        if self.what:
            out["description"] = self.what
        return out


class _Players(_Int):
    def read(self, value: object, path: str, ctx: _Ctx) -> int:
        ctx.players = super().read(value, path, ctx)
        return ctx.players


class _Bool(_Spec):
    def read(self, value: object, path: str, ctx: _Ctx) -> bool:
        if type(value) is not bool:
            _wrong_type(path, "boolean", value)
        return value

    def schema(self, defs: dict[str, Any]) -> dict[str, Any]:
        return {"type": "boolean"}


class _Enum(_Spec):
    def __init__(self, values: Sequence[str], cls: type[enum.StrEnum] | None = None) -> None:
        self.values, self.cls = tuple(values), cls

    def read(self, value: object, path: str, ctx: _Ctx) -> Any:
        if type(value) is not str:
            _wrong_type(path, "string", value)
        if value not in self.values:
            _fail(
                _S.BAD_VALUE,
                path,
                why="not_one_of",
                value=_show(value),
                choices=", ".join(self.values),
            )
        return self.cls(value) if self.cls is not None else value

    def dump(self, value: Any) -> Any:
        return value.value if isinstance(value, enum.Enum) else value

    def schema(self, defs: dict[str, Any]) -> dict[str, Any]:
        return {"type": "string", "enum": list(self.values)}


class _Const(_Spec):
    def __init__(self, value: str | int) -> None:
        self.value = value

    def read(self, value: object, path: str, ctx: _Ctx) -> Any:
        if type(value) is not type(self.value):
            _wrong_type(path, _json_type(self.value), value)
        if value != self.value:
            _fail(_S.BAD_VALUE, path, why="not_the_constant", expected=self.value, got=_show(value))
        return value

    def schema(self, defs: dict[str, Any]) -> dict[str, Any]:
        return {"const": self.value}


class _Str(_Spec):
    def __init__(self, pattern: str | None = None) -> None:
        self.pattern = pattern

    def read(self, value: object, path: str, ctx: _Ctx) -> str:
        if type(value) is not str:
            _wrong_type(path, "string", value)
        if self.pattern is not None and re.fullmatch(self.pattern, value) is None:
            _fail(_S.BAD_VALUE, path, why="pattern", value=_show(value), pattern=self.pattern)
        return value

    def schema(self, defs: dict[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "string"}
        if self.pattern is not None:
            out["pattern"] = f"^{self.pattern}$"
        return out


_TILE_PATTERN: Final = "(1[0-3]|[1-9])[RGAN]"


class _TileSpec(_Spec):
    """A numbered tile in notation (``"8R"``): the fixed identity of a joker întors."""

    def read(self, value: object, path: str, ctx: _Ctx) -> Tile:
        text = _Str(_TILE_PATTERN).read(value, path, ctx)
        return Tile.parse(text)

    def dump(self, value: Any) -> Any:
        return str(value)

    def schema(self, defs: dict[str, Any]) -> dict[str, Any]:
        return _Str(_TILE_PATTERN).schema(defs)


class _Opt(_Spec):
    def __init__(self, inner: _Spec) -> None:
        self.inner = inner

    def read(self, value: object, path: str, ctx: _Ctx) -> Any:
        return None if value is None else self.inner.read(value, path, ctx)

    def dump(self, value: Any) -> Any:
        return None if value is None else self.inner.dump(value)

    def schema(self, defs: dict[str, Any]) -> dict[str, Any]:
        return {"anyOf": [self.inner.schema(defs), {"type": "null"}]}


class _List(_Spec):
    """An array, read as a tuple (or a frozenset, written sorted)."""

    def __init__(
        self,
        inner: _Spec,
        max_items: int,
        *,
        min_items: int = 0,
        unique: bool = False,
        frozen: bool = False,
        size_code: StateErrorCode = _S.BAD_VALUE,
        dup_code: StateErrorCode = _S.BAD_VALUE,
    ) -> None:
        self.inner, self.min_items, self.max_items = inner, min_items, max_items
        self.unique = unique or frozen
        self.frozen = frozen
        self.size_code, self.dup_code = size_code, dup_code

    def read(self, value: object, path: str, ctx: _Ctx) -> Any:
        if type(value) is not list:
            _wrong_type(path, "array", value)
        n = len(value)
        if not self.min_items <= n <= self.max_items:
            _fail(
                self.size_code,
                path,
                why="item_count",
                count=n,
                lo=self.min_items,
                hi=self.max_items,
            )
        out = [self.inner.read(item, f"{path}[{k}]", ctx) for k, item in enumerate(value)]
        if self.unique:
            first: dict[Any, int] = {}
            for k, item in enumerate(out):
                if item in first:
                    _fail(
                        self.dup_code,
                        f"{path}[{k}]",
                        why="duplicate_item",
                        value=_show(item),
                        other=f"{path}[{first[item]}]",
                    )
                first[item] = k
        if self.frozen:
            if out != sorted(out):
                _fail(_S.BAD_VALUE, path, why="ascending")
            return frozenset(out)
        return tuple(out)

    def dump(self, value: Any) -> Any:
        items = sorted(value) if self.frozen else value
        return [self.inner.dump(v) for v in items]

    def schema(self, defs: dict[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "array", "items": self.inner.schema(defs)}
        if self.min_items:
            out["minItems"] = self.min_items
        out["maxItems"] = self.max_items
        if self.unique:
            out["uniqueItems"] = True
        return out


class _Obj(_Spec):
    """An object with exactly the keys ``fields`` (all required), built by ``build``
    from the values read (a dict of them without ``build``)."""

    def __init__(
        self,
        name: str,
        fields: dict[str, _Spec],
        build: Callable[..., Any] | None = None,
        *,
        doc: str = "",
    ) -> None:
        self.name, self.fields, self.build, self.doc = name, fields, build, doc

    def keys_of(self, value: object, path: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            _wrong_type(path, "object", value)
        for key in value:
            if type(key) is not str:
                _fail(_S.WRONG_TYPE, path, expected="string keys", got=_json_type(key))
            if key not in self.fields:
                _fail(_S.UNKNOWN_KEY, _child(path, key), key=_show(key))
        for key in self.fields:
            if key not in value:
                _fail(_S.MISSING_KEY, _child(path, key), key=key)
        return value

    def read(self, value: object, path: str, ctx: _Ctx) -> Any:
        data = self.keys_of(value, path)
        out = {
            key: spec.read(data[key], _child(path, key), ctx) for key, spec in self.fields.items()
        }
        return self.build(**out) if self.build is not None else out

    def dump(self, value: Any) -> Any:
        get = value.get if isinstance(value, dict) else lambda key: getattr(value, key)
        return {key: spec.dump(get(key)) for key, spec in self.fields.items()}

    def schema(self, defs: dict[str, Any]) -> dict[str, Any]:
        if self.name not in defs:
            defs[self.name] = {}  # reserve the name (recursion guard)
            body: dict[str, Any] = {"type": "object"}
            if self.doc:
                body["description"] = self.doc
            body["properties"] = {key: spec.schema(defs) for key, spec in self.fields.items()}
            body["required"] = list(self.fields)
            body["additionalProperties"] = False
            defs[self.name] = body
        return {"$ref": f"#/$defs/{self.name}"}
