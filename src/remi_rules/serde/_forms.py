"""The saved forms: games, records, views and their parts, as specs
(:mod:`remi_rules.serde._spec`), and the size of the largest legal document."""

from __future__ import annotations

import enum
import json
from typing import Any, Final

import attrs

from .. import engine as _engine
from ..engine import (
    STEP_TYPES,
    DoublesOffer,
    Phase,
    RoundEnd,
    SeatState,
    Step,
    TakeKind,
    TurnState,
    UndoInfo,
)
from ..engine.view import PublicSeat, PublicTurn
from ..errors import InvalidRulesetError
from ..lipire import End
from ..ruleset import ClosingAtuTwinEffect, ClosingEffect, Ruleset, knobs
from ..rupere import TakeObligation, TakeSource
from ..table import JokerHistory
from ._bounds import _S, MAX_SAVED_TURNS, _child, _fail, _show, _wrong_type
from ._convert import object_schema, structure, unstructure
from ._migrations import current_version
from ._spec import (
    _Bool,
    _Const,
    _Ctx,
    _Enum,
    _Int,
    _List,
    _Obj,
    _Opt,
    _Players,
    _Spec,
    _Str,
    _TileSpec,
)
from .rulesets import ruleset_from_dict, ruleset_to_dict

_ID_HI: Final = 105
_COUNT_HI: Final = 1_000_000
_LAYOFF_ENDS: Final = (End.LOW, End.HIGH, End.SET)
_TAKE_KINDS: Final = tuple(k.value for k in TakeKind)


class _Converted(_Spec):
    """A value of an engine class declared once, with its ranges in its fields'
    metadata: read and written by the cattrs converter (:mod:`._convert`), described
    by its JSON Schema walker."""

    def __init__(self, name: str, cls: type[Any]) -> None:
        self.name, self.cls = name, cls

    def read(self, value: object, path: str, ctx: _Ctx) -> Any:
        return structure(value, self.cls, path, players=ctx.players)

    def dump(self, value: Any) -> Any:
        return unstructure(value)

    def schema(self, defs: dict[str, Any]) -> dict[str, Any]:
        if self.name not in defs:
            defs[self.name] = object_schema(self.cls)
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
        step: Step = self.classes[kind](**data)
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
    "offer": _Int(0, 3, seat=True, what="the seat whose offer of a double is taken up"),
}
_STEP: Final = _Steps()

_SEAT_STATE: Final = _Converted("seat", SeatState)
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
        "took": _Opt(_Enum(_TAKE_KINDS, TakeKind)),
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
_ROUND_END: Final = _Converted("round_end", RoundEnd)
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
_OFFER: Final = _Obj(
    "doubles_offer",
    {
        "seat": _SEAT,
        "double_class": _Enum(["small", "big", "key"]),
        "tile": _Opt(_ID),
    },
    DoublesOffer,
    doc=(
        "An open offer of a double (DUBLE-03): the seat, the double's class and the tile "
        "it would give (null in another seat's view)."
    ),
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
        "offers": _List(_OFFER, 4),
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
        "format_version": _Const(current_version("record")),
        "fingerprint": _FINGERPRINT,
        "rules": _RULES,
        **_RECORD_BODY,
    },
)
_GAME_DOC: Final = _Obj(
    "game",
    {
        "kind": _Const("game"),
        "format_version": _Const(current_version("game")),
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
    PublicSeat,
)
_PUBLIC_TURN: Final = _Obj(
    "public_turn",
    {
        "seat": _SEAT,
        "number": _TURN,
        "opened_before": _BOOL,
        "took": _Opt(_Enum(_TAKE_KINDS, TakeKind)),
        "taken": _ids(),
        "new_melds": _List(_MELD_INDEX, 106, unique=True),
        "laid_off": _TURN_IDS,
        "swapped_jokers": _SWAPPED,
        "placed": _TURN_IDS,
        "steps": _COUNT,
    },
    PublicTurn,
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
        "offers": _List(_OFFER, 4),
        "undo": _Obj(
            "undo_info",
            {"steps": _COUNT, "undos": _COUNT, "rescue": _COUNT},
            UndoInfo,
            doc="What an undo may still do in the pending turn (public).",
        ),
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
_ONCE_PER_ROUND: Final = 4 + 4 + 26 + 56
"""Steps each seat makes at most once a round (an atu announcement, a pe-tablă
declaration) and the doubles steps: at most 26 acceptances (52 doubles, two at a
time) and 56 offers (each is taken up, broken by an acceptance of its seat, or one of
the at most 4 that lapse when play starts)."""
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
        "offer": 3,
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
    # past the cap, undos that take a turn unable to end back to one that can: at most
    # the steps kept before the cap (the take and the table steps)
    rescue = 1 + 106 + _SWAPS_PER_ROUND
    turn = 3 * s + (106 + _SWAPS_PER_ROUND) * one + (u + rescue) * (s + undo) + chance
    per_round = (_ONCE_PER_ROUND + _EXTRA_CHANCE) * s + _EXTRA_CHANCE * chance
    return _FIXED_BYTES + per_round + turns * turn


MAX_DOCUMENT_BYTES: Final = _document_bound()
"""The largest saved document (a game, a record or a match, as text in UTF-8 or as
the size of its compact JSON) the loaders read; a larger one is refused with
``state_document_too_large`` before it is parsed.  It is the size of the largest save
of a round of :data:`MAX_SAVED_TURNS` turns (docs/saving.md gives the formula)."""
