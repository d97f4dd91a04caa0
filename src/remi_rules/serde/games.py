"""Saved games, records and views: writing, strict loading, JSON Schema (see
:mod:`remi_rules.serde`)."""

from __future__ import annotations

import enum
import json
import os
import random
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, NoReturn

import attrs

from .. import engine as _engine
from ..engine import (
    STEP_TYPES,
    Automation,
    EndReason,
    Game,
    GameRecord,
    GameState,
    Phase,
    PlayerView,
    RoundEnd,
    SeatState,
    Step,
    TurnState,
    tile_census,
)
from ..engine.game import _random_of
from ..errors import (
    InvalidMeldError,
    InvalidRulesetError,
    InvalidStateError,
    StateErrorCode,
)
from ..lipire import End
from ..melds import analyze_meld
from ..ruleset import (
    ClosingAtuTwinEffect,
    ClosingEffect,
    ClosingTileMode,
    Ruleset,
    SwappedJokerMode,
    SwapReplacementCredit,
    knobs,
)
from ..rupere import TakeObligation, TakeSource
from ..table import JokerHistory, Table, TableMeld, tile_value_of
from ..tiles import JOKER_IDS, Tile
from .rulesets import FORMAT_VERSION, ruleset_from_dict, ruleset_to_dict

__all__ = [
    "MAX_DEPTH",
    "MAX_DOCUMENT_BYTES",
    "MAX_INTEGER",
    "MAX_NAME_LENGTH",
    "MAX_SAVED_TURNS",
    "MAX_STRING_LENGTH",
    "SCHEMAS",
    "dump_game",
    "dump_record",
    "dump_view",
    "dumps_game",
    "dumps_record",
    "game_schema",
    "load_game",
    "load_record",
    "loads_game",
    "loads_record",
    "record_schema",
    "render_schemas",
    "write_schemas",
]
# == saved games, records and views ========================================================
#
# One small spec per saved value (``_Obj`` and friends below) drives the three things
# done with it: writing it (``dump``), reading it back strictly with the path of every
# refusal (``read``) and describing it as JSON Schema (``schema``), so the three cannot
# drift apart.  Reading checks types, ranges and keys; the meaning of the whole (the
# census of the 106 tiles, a possible phase, the record replaying to the state) is
# checked after, in ``_check_state`` and ``_replay``.

MAX_DEPTH: Final = 32
"""The deepest nesting of objects and arrays a saved document may have (real ones use 6)."""

MAX_INTEGER: Final = 2**53 - 1
"""The largest integer (in absolute value) a saved document may hold anywhere: the
largest every JSON reader keeps exactly.  Real values stay below 10**9; a larger one
is ``state_out_of_range`` before anything is converted, shown shortened."""

MAX_NAME_LENGTH: Final = 100
"""The longest player's name (in characters) a saved game holds; :func:`dump_game`
refuses a longer one (``state_string_too_long``), so every save loads back."""

MAX_STRING_LENGTH: Final = MAX_NAME_LENGTH
"""The longest string or key a saved document may hold anywhere (the names are the
longest strings of a save); a longer one is ``state_string_too_long``."""

MAX_SAVED_TURNS: Final = 1000
"""The number of turns :data:`MAX_DOCUMENT_BYTES` is sized for: 2.5 times the
presets' turn cap (``max_turns_per_round = 400``)."""

_ID_HI: Final = 105
_COUNT_HI: Final = 1_000_000
_BIG_DIGITS: Final = 100
_SHOW_HI: Final = 10**15
_TAKE_KINDS: Final = ("draw", "take_last_discard", "rupere", "take_atu")
_SOURCE_OF_TAKE: Final = {
    "take_last_discard": TakeSource.LAST_DISCARD,
    "rupere": TakeSource.OLDER,
    "take_atu": TakeSource.ATU,
}
_LAYOFF_ENDS: Final = (End.LOW, End.HIGH, End.SET)
_S: Final = StateErrorCode


class _HugeInt:
    """An integer literal of more than ``_BIG_DIGITS`` digits in JSON text: kept as its
    digit count only (converting it would be slow, and Python caps it anyway)."""

    def __init__(self, digits: int) -> None:
        self.digits = digits


def _fail(code: StateErrorCode, path: str, **details: object) -> NoReturn:
    raise InvalidStateError(code, path=path or "$", **details)


def _child(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _json_type(value: object) -> str:
    if value is None:
        return "null"
    if type(value) is bool:
        return "boolean"
    if type(value) is int or isinstance(value, _HugeInt):
        return "integer"
    if type(value) is float:
        return "number"
    if type(value) is str:
        return "string"
    if type(value) is list:
        return "array"
    if isinstance(value, dict):
        return "object"
    return f"a Python {type(value).__name__}"


def _show(value: object) -> object:
    """A value safe to put in an error's details (never a giant int or string)."""
    if isinstance(value, _HugeInt):
        return f"<an integer of {value.digits} digits>"
    if type(value) is int and not -_SHOW_HI < value < _SHOW_HI:
        return f"<an integer of {value.bit_length()} bits>"
    if type(value) is str and len(value) > 40:
        return value[:40] + "…"
    if type(value) in (int, bool, str) or value is None:
        return value
    return _json_type(value)


def _wrong_type(path: str, expected: str, value: object) -> NoReturn:
    _fail(_S.WRONG_TYPE, path, expected=expected, got=_json_type(value))


def _check_int(value: object, path: str, lo: int, hi: int) -> int:
    if isinstance(value, _HugeInt):
        _fail(_S.OUT_OF_RANGE, path, value=_show(value), lo=lo, hi=hi)
    if type(value) is not int:
        _wrong_type(path, "integer", value)
    if not lo <= value <= hi:
        _fail(_S.OUT_OF_RANGE, path, value=_show(value), lo=lo, hi=hi)
    return value


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


def _field_names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in attrs.fields(cls))


class _Steps(_Spec):
    """A step: an object tagged by ``kind`` (:data:`~remi_rules.engine.STEP_TYPES`)."""

    def __init__(self) -> None:
        self.kinds: dict[str, _Obj] = {}
        for cls in STEP_TYPES:
            fields: dict[str, _Spec] = {"kind": _Const(cls.kind)}
            for name in _field_names(cls):
                fields[name] = _STEP_FIELDS[name]
            self.kinds[cls.kind] = _Obj(
                "step_" + cls.kind, fields, doc=(cls.__doc__ or "").split("\n\n")[0]
            )
        self.classes = {cls.kind: cls for cls in STEP_TYPES}

    def read(self, value: object, path: str, ctx: _Ctx) -> Step:
        if not isinstance(value, dict):
            _wrong_type(path, "object", value)
        if "kind" not in value:
            _fail(_S.MISSING_KEY, _child(path, "kind"), key="kind")
        kind = value["kind"]
        if type(kind) is not str:
            _wrong_type(_child(path, "kind"), "string", kind)
        if kind not in self.kinds:
            _fail(_S.BAD_VALUE, _child(path, "kind"), why="no_such_step", kind=_show(kind))
        data = self.kinds[kind].read(value, path, ctx)
        del data["kind"]
        step: Step = self.classes[kind](**data)  # type: ignore[assignment]
        return step

    def dump(self, value: Any) -> Any:
        data = {name: getattr(value, name) for name in _field_names(type(value))}
        return self.kinds[value.kind].dump({"kind": value.kind, **data})

    def schema(self, defs: dict[str, Any]) -> dict[str, Any]:
        if "step" not in defs:
            defs["step"] = {}
            # if/then on the tag rather than oneOf: validators check one branch fully,
            # and report that branch's errors.
            defs["step"] = {
                "description": "A step, tagged by its kind (STEP_TYPES).",
                "type": "object",
                "required": ["kind"],
                "properties": {"kind": {"enum": list(self.kinds)}},
                "allOf": [
                    {
                        "if": {"properties": {"kind": {"const": kind}}},
                        "then": obj.schema(defs),
                    }
                    for kind, obj in self.kinds.items()
                ],
            }
        return {"$ref": "#/$defs/step"}


def _ids(max_items: int = 106, *, unique: bool = True) -> _List:
    return _List(_ID, max_items, unique=unique, size_code=_S.TILE_COUNT, dup_code=_S.BAD_VALUE)


_ID: Final = _Int(
    0, _ID_HI, what="a physical tile id (8*(rank-1) + 2*colour + copy; jokers 104, 105)"
)
_SEAT: Final = _Int(0, 3, seat=True, what="a seat number (0 to players-1)")
_COUNT: Final = _Int(0, _COUNT_HI)
_TURN: Final = _Int(1, _COUNT_HI, what="a round turn number, from 1")
_BOOL: Final = _Bool()
_PLACE: Final = _List(_ID, 106, size_code=_S.TILE_COUNT)  # duplicates: the census names them
_MELD_INDEX: Final = _Int(0, _ID_HI, what="the index of a meld on the table")
_SWAPS_HI: Final[int] = attrs.fields(Ruleset).joker_swap_limit.metadata["hi"]
# A joker laid off, swapped back and laid off again in one turn is in these twice (a
# real tile only once: see _check_turn).
_TURN_IDS: Final = _ids(106 + 2 * _SWAPS_HI, unique=False)
_SWAPPED: Final = _List(_Int(104, 105), 2 * _SWAPS_HI)

_STEP_FIELDS: Final[dict[str, _Spec]] = {
    "index": _Int(0, _ID_HI, what="a position in the discard row, oldest first"),
    "tiles": _ids(),
    "tile": _ID,
    "meld": _MELD_INDEX,
    "end": _Opt(_Enum([e.value for e in _LAYOFF_ENDS], End)),
    "joker": _ID,
    "seat": _SEAT,
    "other": _SEAT,
    "other_tile": _ID,
}
_STEP: Final = _Steps()

_SEAT_STATE: Final = _Obj(
    "seat",
    {
        "rack": _PLACE,
        "opened": _BOOL,
        "turns": _COUNT,
        "has_taken": _BOOL,
        "announced_few": _BOOL,
        "missed_announcement": _BOOL,
        "announced_atu": _BOOL,
        "declared_pe_tabla": _BOOL,
    },
    SeatState,
    doc="One seat: its rack (physical ids, in arrival order) and what it has done.",
)
_OBLIGATION: Final = _Obj(
    "take_obligation",
    {
        "source": _Enum([s.value for s in TakeSource], TakeSource),
        "picked": _ID,
        "rack_before_take": _ids(),
        "also_taken": _ids(),
    },
    TakeObligation,
    doc="What a take from the row or of the atu obliges the player to do (RUPE-01, ATU-06).",
)
_TURN_STATE: Final = _Obj(
    "turn",
    {
        "seat": _SEAT,
        "number": _TURN,
        "rack_at_start": _ids(),
        "opened_before": _BOOL,
        "took": _Opt(_Enum(_TAKE_KINDS)),
        "obligation": _Opt(_OBLIGATION),
        "new_melds": _List(_MELD_INDEX, 106, unique=True),
        "laid_off": _TURN_IDS,
        "swapped_jokers": _SWAPPED,
        "placed": _TURN_IDS,
        "steps": _COUNT,
    },
    TurnState,
    doc="The pending turn: what its turn-spanning constraints need.",
)
_ROUND_END: Final = _Obj(
    "round_end",
    {
        "reason": _Enum([r.value for r in EndReason], EndReason),
        "closer": _Opt(_SEAT),
        "closing_tile": _Opt(_ID),
        "pe_tabla": _BOOL,
    },
    RoundEnd,
    doc="How the round ended.",
)
_JOKER_HISTORY: Final = _Obj(
    "joker_history",
    {
        "swaps": _Int(0, attrs.fields(Ruleset).joker_swap_limit.metadata["hi"]),
        "fixed_as": _Opt(_TileSpec()),
    },
    JokerHistory,
    doc="The history of one physical joker (JOLY-02, JOLY-05): ids 104 then 105.",
)
_TABLE_MELD: Final = _Obj(
    "table_meld",
    {
        "owner": _SEAT,
        "ids": _ids(),
        "credited": _List(_SEAT, 106),
        "placed_by": _List(_SEAT, 106),
        "replacements": _List(_ID, 106, frozen=True),
    },
    doc=(
        "One meld on the table: its tiles in table order (a run ascending, a set in "
        "canonical order); the meld itself is derived from them when loading."
    ),
)


_TABLE: Final = _Obj(
    "table",
    {
        "melds": _List(_TABLE_MELD, 106),
        "jokers": _List(_JOKER_HISTORY, 2, min_items=2),
    },
    doc="The melds on the table in the order they were laid, and the two jokers' histories.",
)
_STATE: Final = _Obj(
    "state",
    {
        "players": _Players(2, 4),
        "dealer": _SEAT,
        "starter": _SEAT,
        "phase": _Enum([p.value for p in Phase], Phase),
        "current": _SEAT,
        "turn": _TURN,
        "seats": _List(_SEAT_STATE, 4, min_items=2),
        "stock": _PLACE,
        "row": _PLACE,
        "row_dead_first": _BOOL,
        "atu": _ID,
        "atu_face_up": _BOOL,
        "table": _TABLE,
        "pending": _Opt(_TURN_STATE),
        "announce_window": _Opt(_SEAT),
        "preplay": _BOOL,
        "exchanged": _List(_Int(0, 51), 52, unique=True),
        "end": _Opt(_ROUND_END),
    },
    doc="The whole state of one round (GameState, without its rules).",
)
_RECORD_BODY: Final = {
    "players": _Players(2, 4),
    "dealer": _SEAT,
    "starter": _SEAT,
    "deal": _List(
        _ID, 106, min_items=106, unique=True, size_code=_S.TILE_COUNT, dup_code=_S.TILE_COUNT
    ),
    "steps": _List(_STEP, _COUNT_HI),
    "chance": _List(_ids(), _COUNT_HI),
}
_FINGERPRINT: Final = _Str("[0-9a-f]{16}")


class _Rules(_Spec):
    """The rules: :func:`ruleset_to_dict` / :func:`ruleset_from_dict`, refusals wrapped."""

    def read(self, value: object, path: str, ctx: _Ctx) -> Ruleset:
        if not isinstance(value, dict):
            _wrong_type(path, "object", value)
        try:
            return ruleset_from_dict(value)
        except InvalidRulesetError as err:
            knob = err.details.get("knob")
            where = _child(path, str(knob)) if knob else path
            _fail(_S.BAD_RULESET, where, why="ruleset", cause=err, ruleset_code=err.code.value)
        except Exception as err:  # anything else ruleset_from_dict may meet in odd data
            _fail(_S.BAD_RULESET, path, why="unexpected", error=type(err).__name__)

    def dump(self, value: Any) -> Any:
        return ruleset_to_dict(value)

    def schema(self, defs: dict[str, Any]) -> dict[str, Any]:
        if "rules" not in defs:
            defs["rules"] = _rules_schema()
        return {"$ref": "#/$defs/rules"}


def _rules_schema() -> dict[str, Any]:
    """The JSON Schema of :func:`ruleset_to_dict`, from the knobs' types and ranges."""
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


_RULES: Final = _Rules()
_RECORD_DOC: Final = _Obj(
    "record",
    {
        "kind": _Const("record"),
        "format_version": _Const(FORMAT_VERSION),
        "fingerprint": _FINGERPRINT,
        "rules": _RULES,
        **_RECORD_BODY,
    },
)
_GAME_DOC: Final = _Obj(
    "game",
    {
        "kind": _Const("game"),
        "format_version": _Const(FORMAT_VERSION),
        "fingerprint": _FINGERPRINT,
        "rules": _RULES,
        "names": _List(_Str(), 4, min_items=2),
        "state": _STATE,
        "record": _Obj(
            "record_body", dict(_RECORD_BODY), doc="The round's record (see record.schema.json)."
        ),
    },
)

_PUBLIC_SEAT: Final = _Obj(
    "public_seat",
    {
        "rack_size": _Int(0, 106),
        "opened": _BOOL,
        "turns": _COUNT,
        "has_taken": _BOOL,
        "announced_few": _BOOL,
        "missed_announcement": _BOOL,
        "announced_atu": _BOOL,
        "declared_pe_tabla": _BOOL,
    },
)
_PUBLIC_TURN: Final = _Obj(
    "public_turn",
    {
        "seat": _SEAT,
        "number": _TURN,
        "opened_before": _BOOL,
        "took": _Opt(_Enum(_TAKE_KINDS)),
        "taken": _ids(),
        "new_melds": _List(_MELD_INDEX, 106, unique=True),
        "laid_off": _TURN_IDS,
        "swapped_jokers": _SWAPPED,
        "placed": _TURN_IDS,
        "steps": _COUNT,
    },
)
_VIEW: Final = _Obj(
    "view",
    {
        "seat": _SEAT,
        "players": _Players(2, 4),
        "dealer": _SEAT,
        "starter": _SEAT,
        "phase": _Enum([p.value for p in Phase], Phase),
        "current": _SEAT,
        "turn": _TURN,
        "rack": _PLACE,
        "seats": _List(_PUBLIC_SEAT, 4, min_items=2),
        "stock_count": _Int(0, 106),
        "row": _PLACE,
        "row_dead_first": _BOOL,
        "atu": _ID,
        "atu_face_up": _BOOL,
        "table": _TABLE,
        "pending": _Opt(_PUBLIC_TURN),
        "own_turn": _Opt(_TURN_STATE),
        "announce_window": _Opt(_SEAT),
        "preplay": _BOOL,
        "own_exchanged": _List(_Int(0, 51), 52, unique=True),
        "end": _Opt(_ROUND_END),
    },
)


# -- the largest legal document ------------------------------------------------------------

MAX_UNDOS_PER_TURN: Final[int] = _engine.MAX_UNDOS_PER_TURN
"""``U`` of :data:`MAX_DOCUMENT_BYTES`: the engine's cap on the undos of one turn
(:data:`remi_rules.engine.MAX_UNDOS_PER_TURN`)."""

_FIXED_BYTES: Final = 65_536
"""Everything of a save but its steps and chance outcomes, at most: the rules (about
3 KB), four names of :data:`MAX_NAME_LENGTH` characters (6 bytes each at most as JSON:
``\\u001f``), the deal (530 B) and the state (each of the 106 ids in at most a dozen
lists of a few bytes each, the melds' credits and keys: under 24 KB)."""
_MAX_RUN: Final = 13  # the longest meld (MELD-03)
_SWAPS_PER_ROUND: Final = 2 * _SWAPS_HI
_ONCE_PER_ROUND: Final = 4 + 4 + 26
"""Steps each seat makes at most once a round (an atu announcement, a pe-tablă
declaration) and the doubles exchanges (52 doubles, two at a time)."""
_EXTRA_CHANCE: Final = 64
"""Redeals and atus turned back (DEAL-03) a round is sized for: each is a chance
outcome, and 64 of them in one round are less likely than 10**-40."""


def _dumps(data: Any) -> str:
    return json.dumps(data, sort_keys=True, ensure_ascii=False)


def _widest(kind: str) -> int:
    """The longest text of a step of ``kind`` in a save (its item separator included)."""
    widest = {
        "index": _ID_HI,
        "tiles": [_ID_HI] * _MAX_RUN,
        "tile": _ID_HI,
        "meld": _ID_HI,
        "end": max((e.value for e in _LAYOFF_ENDS), key=len),
        "joker": _ID_HI,
        "seat": 3,
        "other": 3,
        "other_tile": _ID_HI,
    }
    fields = _STEP.kinds[kind].fields
    return len(_dumps({name: widest.get(name, kind) for name in fields})) + 2


def _document_bound(turns: int = MAX_SAVED_TURNS, undos: int | None = None) -> int:
    """The size in bytes of the largest save (:func:`dumps_game`) of a round of
    ``turns`` turns with at most ``undos`` undos a turn (default
    :data:`MAX_UNDOS_PER_TURN`): :data:`MAX_DOCUMENT_BYTES` is its value for
    :data:`MAX_SAVED_TURNS`.  See docs/saving.md for the formula."""
    u = MAX_UNDOS_PER_TURN if undos is None else undos
    s = max(_widest(kind) for kind in _STEP.kinds)
    one = max(_widest("lay_off"), _widest("swap_joker"))
    undo = _widest("undo")
    chance = len(_dumps(list(range(106)))) + 2
    turn = 3 * s + (106 + _SWAPS_PER_ROUND) * one + u * (s + undo) + chance
    per_round = (_ONCE_PER_ROUND + _EXTRA_CHANCE) * s + _EXTRA_CHANCE * chance
    return _FIXED_BYTES + per_round + turns * turn


MAX_DOCUMENT_BYTES: Final = _document_bound()
"""The largest saved document (a game, a record or a match, as text in UTF-8 or as
the size of its compact JSON) the loaders read; a larger one is refused with
``state_document_too_large`` before it is parsed.  It is the size of the largest save
of a round of :data:`MAX_SAVED_TURNS` turns (docs/saving.md gives the formula)."""


# -- reading: the table, the census, the phase -------------------------------------------


def _table(raw: dict[str, Any], path: str, rules: Ruleset) -> Table:
    """The :class:`Table` of the values read: each meld re-analysed from its tiles
    (a fixed joker's value from the jokers' histories) and refused if invalid or not in
    table order; the credits and the joker histories checked against the rules."""
    jokers: tuple[JokerHistory, JokerHistory] = (raw["jokers"][0], raw["jokers"][1])
    melds: list[TableMeld] = []
    replaced = 0
    for m, meld in enumerate(raw["melds"]):
        mp = f"{path}.melds[{m}]"
        ids, owner = meld["ids"], meld["owner"]
        for key in ("credited", "placed_by"):
            if len(meld[key]) != len(ids):
                _fail(
                    _S.BAD_VALUE,
                    f"{mp}.{key}",
                    why="entries_per_tile",
                    count=len(meld[key]),
                    tiles=len(ids),
                )
        tiles = tuple(tile_value_of(i, jokers) for i in ids)
        try:
            analysis = analyze_meld(tiles, rules)
        except InvalidMeldError as err:
            _fail(
                _S.BAD_VALUE,
                f"{mp}.ids",
                why="invalid_meld",
                cause=err,
                meld_code=err.code.value,
            )
        if analysis.tiles != tiles:
            _fail(_S.BAD_VALUE, f"{mp}.ids", why="table_order")
        replacements = meld["replacements"]
        for k, tile_id in enumerate(sorted(replacements)):
            if tile_id not in ids or tile_id in JOKER_IDS:
                _fail(
                    _S.BAD_VALUE,
                    f"{mp}.replacements[{k}]",
                    why="not_a_real_tile",
                    tile_id=tile_id,
                )
        replaced += len(replacements)
        to_owner = rules.swap_replacement_credited_to is SwapReplacementCredit.MELD_OWNER
        for i, (tile_id, credited, placed) in enumerate(
            zip(ids, meld["credited"], meld["placed_by"], strict=True)
        ):
            want = owner if tile_id in replacements and to_owner else placed
            if credited != want:
                _fail(
                    _S.BAD_VALUE,
                    f"{mp}.credited[{i}]",
                    why="credited",
                    seat=want,
                )
        melds.append(
            TableMeld(
                owner=owner,
                ids=ids,
                meld=analysis,
                credited=meld["credited"],
                placed_by=meld["placed_by"],
                replacements=replacements,
            )
        )
    fixed_mode = rules.swapped_joker_mode is SwappedJokerMode.FIXED_IDENTITY
    for j, history in enumerate(jokers):
        jp = f"{path}.jokers[{j}]"
        if history.swaps > rules.joker_swap_limit:
            _fail(
                _S.OUT_OF_RANGE,
                f"{jp}.swaps",
                value=history.swaps,
                lo=0,
                hi=rules.joker_swap_limit,
            )
        if history.fixed_as is not None and not (fixed_mode and history.swaps):
            _fail(_S.BAD_VALUE, f"{jp}.fixed_as", why="fixed_only_swapped")
        if history.fixed_as is None and fixed_mode and history.swaps:
            _fail(_S.BAD_VALUE, f"{jp}.fixed_as", why="swapped_is_fixed")
    if replaced != sum(h.swaps for h in jokers):
        _fail(
            _S.BAD_VALUE,
            f"{path}.jokers",
            why="replacements",
            replaced=replaced,
            swaps=sum(h.swaps for h in jokers),
        )
    return Table(melds=tuple(melds), jokers=jokers)


def _census(state: GameState, path: str) -> None:
    """Each of the 106 ids exactly once: racks, stock, row, melds, the face-up atu."""
    where: dict[int, str] = {}
    places: list[tuple[str, tuple[int, ...]]] = [
        (f"{path}.seats[{s}].rack", seat.rack) for s, seat in enumerate(state.seats)
    ]
    places += [(f"{path}.stock", state.stock), (f"{path}.row", state.row)]
    places += [(f"{path}.table.melds[{m}].ids", m_.ids) for m, m_ in enumerate(state.table.melds)]
    for place, ids in places:
        for k, tile_id in enumerate(ids):
            here = f"{place}[{k}]"
            if tile_id in where:
                _fail(_S.TILE_COUNT, here, why="also_at", tile_id=tile_id, other=where[tile_id])
            where[tile_id] = here
    if state.atu_face_up:
        if state.atu in where:
            _fail(
                _S.TILE_COUNT,
                f"{path}.atu",
                why="atu_also_at",
                tile_id=state.atu,
                other=where[state.atu],
            )
        where[state.atu] = f"{path}.atu"
    if len(where) != 106:
        missing = sorted(set(range(106)) - set(where))
        _fail(_S.TILE_COUNT, path, why="nowhere", count=len(missing), tile_ids=missing[:10])
    problem = tile_census(state)
    if problem is not None:  # the engine's own census agrees, or says why not
        _fail(_S.TILE_COUNT, path, why="census")


def _turns_begun(state: GameState, seat: int) -> int:
    """Own turns begun by ``seat`` by the round's turn ``state.turn``."""
    first = (seat - state.starter) % state.players + 1
    return 0 if first > state.turn else (state.turn - first) // state.players + 1


def _check_state(state: GameState, path: str) -> None:
    """What a state read from outside must satisfy beyond its types: the census and a
    phase the engine can be in."""
    p = path
    rules, n = state.rules, state.players
    if len(state.seats) != n:
        _fail(_S.BAD_VALUE, f"{p}.seats", why="seats", seats=len(state.seats), players=n)
    if state.dealer != (state.starter - 1) % n:
        _fail(_S.BAD_VALUE, f"{p}.dealer", why="dealer")
    _census(state, p)
    over, turn, end = state.phase is Phase.OVER, state.pending, state.end
    # -- the phase
    if over != (end is not None):
        where = f"{p}.end" if over else f"{p}.phase"
        _fail(_S.BAD_PHASE, where, why="over_iff_end")
    if state.current != (state.starter + state.turn - 1) % n:
        _fail(_S.BAD_PHASE, f"{p}.current", why="not_this_seat", turn=state.turn)
    if rules.max_turns_per_round is not None and state.turn > rules.max_turns_per_round:
        _fail(_S.OUT_OF_RANGE, f"{p}.turn", value=state.turn, lo=1, hi=rules.max_turns_per_round)
    if state.preplay != (state.turn == 1 and not over):
        _fail(_S.BAD_PHASE, f"{p}.preplay", why="preplay")
    if state.turn == 1:
        # A round may end in turn 1 (a turn cap of 1, a close with a one-tile hand):
        # the starter's discard or closing tile is then in the row.
        taken = [s for s, seat in enumerate(state.seats) if seat.has_taken]
        early: str | None = (
            f"{p}.row"
            if len(state.row) > (1 if over else 0)
            else f"{p}.table.melds"
            if state.table.melds
            else f"{p}.seats[{taken[0]}].has_taken"
            if taken
            else f"{p}.announce_window"
            if state.announce_window is not None
            else None
        )
        if early is not None:
            _fail(_S.BAD_PHASE, early, why="before_first_discard")
    for s, seat in enumerate(state.seats):
        want = _turns_begun(state, s)
        if seat.turns != want:
            _fail(_S.BAD_VALUE, f"{p}.seats[{s}].turns", why="turns_by", turn=state.turn, want=want)
    if over:
        for key in ("pending", "announce_window"):
            if getattr(state, key) is not None:
                _fail(_S.BAD_PHASE, f"{p}.{key}", why="round_over")
    else:
        if turn is None:
            _fail(_S.BAD_PHASE, f"{p}.pending", why="pending_turn")
        _check_turn(state, turn, f"{p}.pending")
    _check_window(state, p)
    _check_atu_row_exchanged(state, p)
    if end is not None:
        _check_end(state, end, f"{p}.end")
    # -- who has opened
    owners = {m.owner for m in state.table.melds}
    for s, seat in enumerate(state.seats):
        if seat.opened and s not in owners:
            _fail(_S.BAD_VALUE, f"{p}.seats[{s}].opened", why="no_meld")
    new = turn.new_melds if turn is not None else ()
    for m, meld in enumerate(state.table.melds):
        if not state.seats[meld.owner].opened and m not in new:
            _fail(
                _S.BAD_VALUE,
                f"{p}.table.melds[{m}].owner",
                why="owner_not_opened",
                seat=meld.owner,
            )


def _check_turn(state: GameState, turn: TurnState, path: str) -> None:
    if turn.seat != state.current:
        _fail(_S.BAD_PHASE, f"{path}.seat", why="pending_seat")
    if turn.number != state.turn:
        _fail(_S.BAD_PHASE, f"{path}.number", why="pending_number")
    took = turn.took
    if state.turn == 1:
        if took is not None:
            _fail(_S.BAD_PHASE, f"{path}.took", why="first_turn_no_take")
        if state.phase is not Phase.ACTION:
            _fail(_S.BAD_PHASE, f"{_state_path(path)}.phase", why="turn_one_discard")
    elif (state.phase is Phase.TAKE) != (took is None):
        _fail(
            _S.BAD_PHASE,
            f"{_state_path(path)}.phase",
            why="take_phase",
        )
    seat = state.seats[state.current]
    if took is None and turn.rack_at_start != seat.rack:
        _fail(_S.BAD_VALUE, f"{path}.rack_at_start", why="rack_unchanged")
    if turn.opened_before != seat.opened:
        _fail(_S.BAD_VALUE, f"{path}.opened_before", why="opens_at_end")
    ob = turn.obligation
    source = _SOURCE_OF_TAKE.get(took) if took is not None else None
    if (ob.source if ob is not None else None) != source:
        _fail(_S.BAD_VALUE, f"{path}.obligation", why="no_obligation", took=took or "missing")
    if ob is not None:
        if ob.rack_before_take != turn.rack_at_start:
            _fail(
                _S.BAD_VALUE,
                f"{path}.obligation.rack_before_take",
                why="take_first_step",
            )
        if (ob.source is TakeSource.OLDER) != bool(ob.also_taken):
            _fail(
                _S.BAD_VALUE,
                f"{path}.obligation.also_taken",
                why="rupere_takes_later",
            )
        if ob.source is TakeSource.ATU and ob.picked != state.atu:
            _fail(_S.BAD_VALUE, f"{path}.obligation.picked", why="atu_taken")
    melds = len(state.table.melds)
    k = len(turn.new_melds)
    if turn.new_melds != tuple(range(melds - k, melds)):
        _fail(_S.BAD_VALUE, f"{path}.new_melds", why="melds_last")
    if any(state.table.melds[m].owner != turn.seat for m in turn.new_melds):
        _fail(_S.BAD_VALUE, f"{path}.new_melds", why="melds_own")
    placed = set(turn.placed)
    for i, tile_id in enumerate(turn.laid_off):
        if tile_id not in placed:
            _fail(_S.BAD_VALUE, f"{path}.laid_off[{i}]", why="laid_off_placed")
    # A tile is put on the table once in a turn, except a joker swapped back into the
    # rack in this turn, which may be put there again (once per swap).
    for key in ("laid_off", "placed", "swapped_jokers"):
        seen: dict[int, int] = {}
        for i, tile_id in enumerate(getattr(turn, key)):
            seen[tile_id] = seen.get(tile_id, 0) + 1
            if seen[tile_id] == 1:
                continue
            if key == "swapped_jokers":
                most = state.table.joker(tile_id).swaps
            else:
                most = 1 + turn.swapped_jokers.count(tile_id) if tile_id in JOKER_IDS else 1
            if seen[tile_id] > most:
                _fail(
                    _S.BAD_VALUE,
                    f"{path}.{key}[{i}]",
                    why="repeated",
                    tile_id=tile_id,
                    count=seen[tile_id],
                    most=most,
                )
    for m in turn.new_melds:
        if not placed.issuperset(state.table.melds[m].ids):
            _fail(_S.BAD_VALUE, f"{path}.placed", why="meld_placed", meld_index=m)
    for i, joker in enumerate(turn.swapped_jokers):
        if not state.table.joker(joker).swaps:
            _fail(_S.BAD_VALUE, f"{path}.swapped_jokers[{i}]", why="never_swapped")
    # The counter also counts the steps taken back since (Game.undo keeps counting).
    moves = (took is not None) + k + len(turn.laid_off) + len(turn.swapped_jokers)
    if turn.steps < moves:
        _fail(_S.BAD_VALUE, f"{path}.steps", why="turn_steps", count=moves)
    if took is None and (k or turn.laid_off or turn.swapped_jokers):
        _fail(_S.BAD_PHASE, f"{path}.took", why="takes_before_play")


def _state_path(turn_path: str) -> str:
    return turn_path.rsplit(".", 1)[0]


def _check_window(state: GameState, p: str) -> None:
    window = state.announce_window
    if window is None:
        return
    turn = state.pending
    if window != (state.current - 1) % state.players:
        _fail(_S.BAD_PHASE, f"{p}.announce_window", why="announce_seat")
    if turn is None or turn.steps or turn.took is not None:
        _fail(_S.BAD_PHASE, f"{p}.announce_window", why="window_closes")
    seat = state.seats[window]
    if seat.announced_few or len(seat.rack) > state.rules.announce_threshold:
        _fail(_S.BAD_VALUE, f"{p}.announce_window", why="nothing_to_announce")


def _check_atu_row_exchanged(state: GameState, p: str) -> None:
    rules = state.rules
    if state.atu in JOKER_IDS and not rules.atu_may_be_joker:
        _fail(_S.BAD_VALUE, f"{p}.atu", why="atu_joker")
    if not state.atu_face_up:
        turn, end = state.pending, state.end
        if not (
            (turn is not None and turn.took == "take_atu")
            or (end is not None and end.reason is EndReason.CLOSED)
        ):
            _fail(_S.BAD_PHASE, f"{p}.atu_face_up", why="atu_closes")
    if state.row_dead_first and not (rules.first_discard_dead and state.row):
        _fail(_S.BAD_VALUE, f"{p}.row_dead_first", why="no_dead_first")
    if state.exchanged and not rules.doubles_exchange:
        _fail(_S.BAD_VALUE, f"{p}.exchanged", why="no_exchange")
    if len(state.exchanged) % 2:
        _fail(_S.BAD_VALUE, f"{p}.exchanged", why="exchange_pairs")


def _check_end(state: GameState, end: RoundEnd, path: str) -> None:
    rules = state.rules
    if end.reason is EndReason.CLOSED:
        if end.closer != state.current:
            _fail(_S.BAD_VALUE, f"{path}.closer", why="closer_turn")
        if end.closing_tile is None:
            _fail(_S.BAD_VALUE, f"{path}.closing_tile", why="closing_tile")
        rack = state.seats[end.closer].rack
        if rules.closing_tile_mode is ClosingTileMode.KEEP:
            if rack != (end.closing_tile,):
                _fail(_S.BAD_VALUE, f"{path}.closing_tile", why="closer_keeps")
        elif rack or not state.row or state.row[-1] != end.closing_tile:
            _fail(_S.BAD_VALUE, f"{path}.closing_tile", why="last_discard")
        if end.pe_tabla and not (
            rules.pe_tabla_enabled and state.seats[end.closer].declared_pe_tabla
        ):
            _fail(_S.BAD_VALUE, f"{path}.pe_tabla", why="not_declared")
        return
    for key in ("closer", "closing_tile"):
        if getattr(end, key) is not None:
            _fail(_S.BAD_VALUE, f"{path}.{key}", why="ended_by", end=end.reason.value)
    if end.pe_tabla:
        _fail(_S.BAD_VALUE, f"{path}.pe_tabla", why="ended_by", end=end.reason.value)
    if end.reason is EndReason.STOCK_EXHAUSTED and state.stock:
        _fail(_S.BAD_VALUE, f"{path}.reason", why="stock_not_empty")
    if end.reason is EndReason.MAX_TURNS and state.turn != rules.max_turns_per_round:
        _fail(_S.BAD_VALUE, f"{path}.reason", why="cap_not_reached")


# -- reading: bounds, JSON text, the record's replay ----------------------------------------


def _leaf_size(value: object) -> int:
    """The compact JSON size of a scalar (at least), or -1 if it is out of bounds."""
    kind = type(value)
    if kind is int:
        if -10 < value < 10:  # type: ignore[operator]
            return 1
        if -MAX_INTEGER <= value <= MAX_INTEGER:  # type: ignore[operator]
            return len(str(value))
        return -1
    if kind is str:
        n = len(value)  # type: ignore[arg-type]
        return n + 2 if n <= MAX_STRING_LENGTH else -1
    if isinstance(value, _HugeInt):
        return -1
    return 4  # true, null, a float or an odd Python value: the readers name its type


def _leaf_fail(value: object, path: str) -> NoReturn:
    if type(value) is str:
        _fail(_S.STRING_TOO_LONG, path, length=len(value), limit=MAX_STRING_LENGTH)
    _fail(_S.OUT_OF_RANGE, path, value=_show(value), lo=-MAX_INTEGER, hi=MAX_INTEGER)


def _scan(data: object, limit: int = 0) -> None:
    """Refuse, in one pass without recursion (cycles included) and before anything is
    converted: nesting deeper than :data:`MAX_DEPTH` (``state_too_deep``), an integer
    beyond ±:data:`MAX_INTEGER` (``state_out_of_range``), a string or key longer than
    :data:`MAX_STRING_LENGTH` (``state_string_too_long``), and, with ``limit``, data
    whose compact JSON would be longer than ``limit`` bytes
    (``state_document_too_large``).  The pass stops there, so its cost is bounded by
    ``limit`` whatever the data."""
    if not isinstance(data, dict | list | tuple):
        if _leaf_size(data) < 0:
            _leaf_fail(data, "$")
        return
    size = 0
    stack: list[tuple[Any, int, str]] = [(data, 1, "$")]
    pop, push = stack.pop, stack.append
    while stack:
        value, depth, path = pop()
        if depth > MAX_DEPTH:
            _fail(_S.TOO_DEEP, path, limit=MAX_DEPTH)
        size += 1 + max(len(value), 1)
        base = "" if path == "$" else path + "."
        if isinstance(value, dict):
            for key, item in value.items():
                if type(key) is str:
                    n = len(key)
                    if n > MAX_STRING_LENGTH:
                        where = base + key[:40] + "…"
                        _fail(_S.STRING_TOO_LONG, where, length=n, limit=MAX_STRING_LENGTH)
                    size += n + 3
                    name = key
                else:
                    name = f"<{type(key).__name__}>"
                if isinstance(item, dict | list | tuple):
                    push((item, depth + 1, base + name))
                else:
                    n = _leaf_size(item)
                    if n < 0:
                        _leaf_fail(item, base + name)
                    size += n
        elif value and set(map(type, value)) == {int}:  # ids: at C speed
            if min(value) < -MAX_INTEGER or max(value) > MAX_INTEGER:
                k = next(k for k, i in enumerate(value) if not -MAX_INTEGER <= i <= MAX_INTEGER)
                _leaf_fail(value[k], f"{base[:-1]}[{k}]")
            size += 2 * len(value)
        else:
            base = base[:-1]
            for k, item in enumerate(value):
                if isinstance(item, dict | list | tuple):
                    push((item, depth + 1, f"{base}[{k}]"))
                else:
                    n = _leaf_size(item)
                    if n < 0:
                        _leaf_fail(item, f"{base}[{k}]")
                    size += n
                    if limit and size > limit:
                        _fail(_S.DOCUMENT_TOO_LARGE, "$", size=size, limit=limit)
        if limit and size > limit:
            _fail(_S.DOCUMENT_TOO_LARGE, "$", size=size, limit=limit)


class _NotJson(Exception):
    """Text that is not JSON by the loader's rules: ``why`` a sub-code, with its data."""

    def __init__(self, why: str, **details: object) -> None:
        super().__init__(why)
        self.details = {"why": why, **details}


def _not_json(err: Exception) -> dict[str, object]:
    """The details of a ``state_not_json`` refusal: a sub-code and where."""
    if isinstance(err, _NotJson):
        return err.details
    if isinstance(err, json.JSONDecodeError):
        return {"why": "json_syntax", "line": err.lineno, "column": err.colno}
    return {"why": "json_value"}


def _parse_int(text: str) -> int | _HugeInt:
    digits = len(text.lstrip("-"))
    return int(text) if digits <= _BIG_DIGITS else _HugeInt(digits)


def _no_constant(name: str) -> NoReturn:
    raise _NotJson("json_constant", name=name)


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _NotJson("json_duplicate_key", key=_show(key))
        out[key] = value
    return out


def _check_size(text: str, limit: int) -> None:
    """Refuse text longer than ``limit`` bytes in UTF-8, in time independent of its
    length for ASCII text (and linear otherwise)."""
    size = len(text)
    if size <= limit and not text.isascii():
        size = len(text.encode("utf-8", "surrogatepass"))
    if size > limit:
        _fail(_S.DOCUMENT_TOO_LARGE, "$", size=size, limit=limit)


def _parse(text: object, limit: int | None = None) -> Any:
    """JSON text to plain data, strictly and in time linear in its length: at most
    ``limit`` bytes (:data:`MAX_DOCUMENT_BYTES`), checked before parsing; no NaN or
    Infinity, no key twice in an object; integer literals of more than 100 digits are
    kept as their digit count (refused by :func:`_scan`).  Nesting beyond the
    parser's recursion limit is ``state_too_deep`` (the rest of the nesting check is
    :func:`_scan`'s)."""
    if not isinstance(text, str):
        raise TypeError(f"expected the JSON text as str, not {type(text).__name__}")
    _check_size(text, MAX_DOCUMENT_BYTES if limit is None else limit)
    try:
        return json.loads(
            text,
            parse_int=_parse_int,
            parse_constant=_no_constant,
            object_pairs_hook=_no_duplicates,
        )
    except RecursionError:
        _fail(_S.TOO_DEEP, "$", limit=MAX_DEPTH)
    except (ValueError, _NotJson) as err:
        _fail(_S.NOT_JSON, "$", **_not_json(err))


def _header(data: object, doc: _Obj, kind: str) -> tuple[dict[str, Any], _Ctx]:
    """The checks every document starts with, in this order: the format version (so
    that a newer file says so, whatever it holds), the bounds (:func:`_scan`: depth,
    integers, strings, size), an object, the kind, the keys, the rules and their
    fingerprint."""
    if isinstance(data, dict) and "format_version" in data:
        version = data["format_version"]
        if isinstance(version, _HugeInt) or (type(version) is int and version != FORMAT_VERSION):
            _fail(_S.FORMAT_VERSION, "format_version", got=_show(version), expected=FORMAT_VERSION)
    _scan(data, MAX_DOCUMENT_BYTES)
    if not isinstance(data, dict):
        _wrong_type("$", "object", data)
    if "format_version" not in data:
        _fail(_S.MISSING_KEY, "format_version", key="format_version")
    version = data["format_version"]
    if type(version) is not int:
        _wrong_type("format_version", "integer", version)
    if "kind" not in data:
        _fail(_S.MISSING_KEY, "kind", key="kind")
    _Const(kind).read(data["kind"], "kind", _Ctx())
    doc.keys_of(data, "")
    ctx = _Ctx(_RULES.read(data["rules"], "rules", _Ctx()))
    fingerprint = _FINGERPRINT.read(data["fingerprint"], "fingerprint", ctx)
    if fingerprint != ctx.ruleset.fingerprint():
        _fail(
            _S.FINGERPRINT,
            "fingerprint",
            got=fingerprint,
            expected=ctx.ruleset.fingerprint(),
        )
    return data, ctx


def _read_record(data: dict[str, Any], path: str, ctx: _Ctx) -> GameRecord:
    values = {
        key: spec.read(data[key], _child(path, key), ctx) for key, spec in _RECORD_BODY.items()
    }
    if values["dealer"] != (values["starter"] - 1) % values["players"]:
        _fail(_S.BAD_VALUE, _child(path, "dealer"), why="dealer")
    return GameRecord(rules=ctx.ruleset, **values)


def _replay(
    record: GameRecord,
    path: str,
    *,
    automation: Automation | None = None,
    names: tuple[str, ...] | None = None,
    rng: random.Random | None = None,
) -> Game:
    """The game the record leads to, ready to go on like a live one
    (:meth:`Game.replay <remi_rules.engine.Game.replay>`: its future chance from
    ``rng``, the undo history of its pending turn); :data:`StateErrorCode.BAD_RECORD`
    naming the step or chance outcome that does not replay, or the unused chance
    outcomes."""
    prefix = f"{path}." if path else ""
    try:
        game = Game.replay(record, seed=rng)
    except InvalidStateError as err:
        where = str(err.details.get("path", "record"))
        if where.startswith("record"):
            where = prefix + where[len("record") :].lstrip(".") if prefix else where[7:] or "$"
        if err.code is not _S.BAD_RECORD:
            raise
        raise InvalidStateError(_S.BAD_RECORD, **{**err.details, "path": where}) from None
    except Exception as err:  # an engine failure on odd but well-typed data
        _fail(
            _S.BAD_RECORD,
            f"{prefix}steps",
            why="engine_failed",
            engine_error=type(err).__name__,
        )
    used = len(game.record().chance)
    if used != len(record.chance):
        _fail(
            _S.BAD_RECORD,
            f"{prefix}chance[{used}]",
            why="chance_unused",
            count=len(record.chance) - used,
        )
    if names is not None:
        game.names = names
    game.automation = automation or Automation()
    return game


def _first_difference(a: Any, b: Any, path: str) -> tuple[str, Any] | None:
    """The first path where two dumps differ, with the value in ``b``."""
    if isinstance(a, dict) and isinstance(b, dict) and list(a) == list(b):
        for key in a:
            found = _first_difference(a[key], b[key], _child(path, key))
            if found is not None:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for k, (x, y) in enumerate(zip(a, b, strict=True)):
            found = _first_difference(x, y, f"{path}[{k}]")
            if found is not None:
                return found
        return None
    return None if a == b else (path, b)


# -- the public functions ----------------------------------------------------------------------


def dump_game(game: Game) -> dict[str, Any]:
    """The whole game as plain JSON values: its state, rules (with their fingerprint),
    the players' names and its record.  :func:`load_game` reads it back.  A name
    longer than :data:`MAX_NAME_LENGTH` characters is refused
    (:class:`~remi_rules.errors.InvalidStateError`, ``state_string_too_long``), so that
    every save loads back."""
    if not isinstance(game, Game):
        raise TypeError(f"expected a Game, not {type(game).__name__}")
    for k, name in enumerate(game.names):
        if not isinstance(name, str) or len(name) > MAX_NAME_LENGTH:
            _fail(
                _S.STRING_TOO_LONG,
                f"names[{k}]",
                length=len(name) if isinstance(name, str) else _json_type(name),
                limit=MAX_NAME_LENGTH,
            )
    rules = game.state.rules
    return {
        "kind": "game",
        "format_version": FORMAT_VERSION,
        "fingerprint": rules.fingerprint(),
        "rules": ruleset_to_dict(rules),
        "names": list(game.names),
        "state": _STATE.dump(game.state),
        "record": _GAME_DOC.fields["record"].dump(game.record()),
    }


def load_game(
    data: Mapping[str, Any],
    *,
    automation: Automation | None = None,
    seed: int | str | random.Random | None = None,
) -> Game:
    """A :class:`~remi_rules.engine.Game` from :func:`dump_game`'s data, checked
    strictly (see the module's doc): the bounds (:data:`MAX_DOCUMENT_BYTES`,
    :data:`MAX_INTEGER`, :data:`MAX_STRING_LENGTH`, :data:`MAX_DEPTH`) before anything
    is converted, the rules and their fingerprint, every field's type and range, the
    census of the 106 tiles, a possible phase, and the record, which must replay to
    exactly the saved state.  Raises :class:`~remi_rules.errors.InvalidStateError`.

    The loaded game goes on like a live one, with ``automation``; the steps of its
    pending turn can still be undone, and its future chance (an online reshuffle, a
    redeal) comes from ``seed``: an int or a str (``random.Random(seed)``), a
    :class:`random.Random` (used and advanced), or None, the default, for fresh
    randomness from the operating system.  A save never holds a seed (whoever read
    it could predict the stock)."""
    if automation is not None and not isinstance(automation, Automation):
        raise TypeError(f"automation must be an Automation, not {type(automation).__name__}")
    rng = _random_of(seed)
    doc, ctx = _header(data, _GAME_DOC, "game")
    names = _GAME_DOC.fields["names"].read(doc["names"], "names", ctx)
    fields = _STATE.read(doc["state"], "state", ctx)
    if len(names) != ctx.players:
        _fail(_S.BAD_VALUE, "names", why="names", names=len(names), players=ctx.players)
    fields["table"] = _table(fields["table"], "state.table", ctx.ruleset)
    state = GameState(rules=ctx.ruleset, **fields)
    _check_state(state, "state")
    raw_record = _GAME_DOC.fields["record"]
    assert isinstance(raw_record, _Obj)
    body = raw_record.keys_of(doc["record"], "record")
    record = _read_record(body, "record", _Ctx(ctx.ruleset))
    game = _replay(record, "record", automation=automation, names=names, rng=rng)
    if game.state != state:
        found = _first_difference(_STATE.dump(state), _STATE.dump(game.state), "state")
        where, value = found if found is not None else ("state", None)
        _fail(_S.BAD_VALUE, where, why="record_leads_to", value=_show(value))
    return game


def dump_record(record: GameRecord | Game) -> dict[str, Any]:
    """A :class:`~remi_rules.engine.GameRecord` (or a game's record) as plain JSON
    values: the rules and their fingerprint, the seats, the deal, the steps (tagged by
    ``kind``) and the chance outcomes.  :func:`load_record` reads it back."""
    if isinstance(record, Game):
        record = record.record()
    if not isinstance(record, GameRecord):
        raise TypeError(f"expected a GameRecord or a Game, not {type(record).__name__}")
    return {
        "kind": "record",
        "format_version": FORMAT_VERSION,
        "fingerprint": record.rules.fingerprint(),
        "rules": ruleset_to_dict(record.rules),
        **{key: spec.dump(getattr(record, key)) for key, spec in _RECORD_BODY.items()},
    }


def load_record(data: Mapping[str, Any]) -> GameRecord:
    """A :class:`~remi_rules.engine.GameRecord` from :func:`dump_record`'s data,
    checked strictly; it must replay (:meth:`Game.replay
    <remi_rules.engine.Game.replay>`) and use every chance outcome.  Raises
    :class:`~remi_rules.errors.InvalidStateError`."""
    doc, ctx = _header(data, _RECORD_DOC, "record")
    record = _read_record(doc, "", ctx)
    _replay(record, "")
    return record


def dump_view(view: PlayerView) -> dict[str, Any]:
    """What one seat may see (:class:`~remi_rules.engine.PlayerView`) as plain JSON
    values, for a frontend: no id of another rack or of the stock."""
    if not isinstance(view, PlayerView):
        raise TypeError(f"expected a PlayerView, not {type(view).__name__}")
    return {
        "kind": "view",
        "format_version": FORMAT_VERSION,
        "fingerprint": view.rules.fingerprint(),
        "rules": ruleset_to_dict(view.rules),
        **_VIEW.dump(view),
    }


def dumps_game(game: Game) -> str:
    """:func:`dump_game` as JSON text (keys sorted)."""
    return _dumps(dump_game(game))


def loads_game(
    text: str,
    *,
    automation: Automation | None = None,
    seed: int | str | random.Random | None = None,
) -> Game:
    """:func:`load_game` of JSON text: text longer than :data:`MAX_DOCUMENT_BYTES` is
    ``state_document_too_large`` (before it is parsed), text that is not JSON is
    ``state_not_json``; the time taken is linear in the text's length."""
    return load_game(_parse(text), automation=automation, seed=seed)


def dumps_record(record: GameRecord | Game) -> str:
    """:func:`dump_record` as JSON text (keys sorted)."""
    return _dumps(dump_record(record))


def loads_record(text: str) -> GameRecord:
    """:func:`load_record` of JSON text (bounded as :func:`loads_game`)."""
    return load_record(_parse(text))


# -- JSON Schema ---------------------------------------------------------------------------

SCHEMA_DIALECT: Final = "https://json-schema.org/draft/2020-12/schema"


def _document_schema(doc: _Obj, title: str, description: str) -> dict[str, Any]:
    defs: dict[str, Any] = {}
    top = doc.schema(defs)
    body = defs.pop(doc.name)
    assert top == {"$ref": f"#/$defs/{doc.name}"}
    return {
        "$schema": SCHEMA_DIALECT,
        "title": title,
        "description": description,
        **{k: v for k, v in body.items() if k != "description"},
        "$defs": dict(sorted(defs.items())),
    }


def game_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of :func:`dump_game`'s output
    (docs/schema/game.schema.json)."""
    return _document_schema(
        _GAME_DOC,
        "remi_rules saved game",
        "A round of Remi etalat as remi_rules.serde.dump_game writes it (format_version "
        f"{FORMAT_VERSION}). The schema gives the shape, types and ranges; the loader "
        "also checks that the 106 tiles are each in one place, that the phase is possible "
        "and that the record replays to exactly this state (docs/saving.md).",
    )


def record_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of :func:`dump_record`'s output
    (docs/schema/record.schema.json)."""
    return _document_schema(
        _RECORD_DOC,
        "remi_rules game record",
        "The record of a round as remi_rules.serde.dump_record writes it (format_version "
        f"{FORMAT_VERSION}): rules, deal, steps and chance outcomes. The loader also "
        "replays it (docs/saving.md).",
    )


SCHEMAS: Final = {"game.schema.json": game_schema, "record.schema.json": record_schema}
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
    """``python -m remi_rules.serde [--check] DIR``: write (or check) the schema files."""
    args = list(sys.argv[1:] if argv is None else argv)
    check = "--check" in args
    args = [a for a in args if a != "--check"]
    directory = args[0] if args else "docs/schema"
    if check:
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


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
