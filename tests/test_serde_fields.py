"""The saved forms are declared once, in the attrs field metadata of their classes
(remi_rules._fields), and read, written and described by one cattrs converter and one
JSON Schema walker (remi_rules.serde._convert, _schema):

* every field a document holds is bounded by its metadata (so a class added later
  is caught here if it is not);
* a step or an event class added later is read, written and described with no code
  in serde (a test class stands for one);
* which error a document with several gets: shape before meaning, document order;
* an array of ints is read the same on the fast path (a C-speed check of the usual
  case) as item by item (Hypothesis against a plain reference);
* error details write tiles in notation.
"""

from __future__ import annotations

import copy
import json
import typing
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

import attrs
import jsonschema
import pytest
from hypothesis import given
from hypothesis import strategies as st

from remi_rules import serde
from remi_rules._fields import SEAT, TILE_ID, TILES, items
from remi_rules.engine import MatchConfig, PlayerView, Step, events
from remi_rules.engine.events import Event
from remi_rules.engine.steps import Discard, Draw, _Step
from remi_rules.errors import InvalidMeldError, InvalidStateError, MeldErrorCode, StateErrorCode
from remi_rules.serde import _convert, _schema
from remi_rules.serde._documents import SavedGame
from remi_rules.tiles import JOKER, Tile

S = StateErrorCode
DATA = Path(__file__).resolve().parent / "data"


def _saved_classes() -> list[type]:
    """Every class a saved document or message holds, from the documents' bodies."""
    seen: list[type] = []
    todo: list[Any] = [SavedGame, PlayerView, MatchConfig, Step]
    while todo:
        tp = todo.pop()
        members = _convert.members_of(tp)
        if members is not None:
            todo.extend(members)
            continue
        tp = _convert.optional_of(tp) or _convert.item_of(tp) or tp
        if tp is Tile:  # written in notation, read by its pattern
            continue
        if isinstance(tp, type) and attrs.has(tp) and tp not in seen:
            seen.append(tp)
            todo.extend(f.type for f in _convert.saved_fields(tp))
        elif _convert.item_of(tp) is not None or _convert.members_of(tp) is not None:
            todo.append(tp)
    return seen


def _unbounded(tp: Any, meta: Any) -> str | None:
    tp = _convert.optional_of(tp) or tp
    if tp is int and ("lo" not in meta or not ("hi" in meta or meta.get("seat"))):
        return "an int without lo and hi (or seat)"
    item = _convert.item_of(tp)
    if item is not None:
        if "max_items" not in meta:
            return "a sequence without max_items"
        return _unbounded(item, meta.get("items", {}))
    return None


def test_every_saved_field_is_bounded_by_its_metadata() -> None:
    classes = _saved_classes()
    assert {"GameState", "SeatState", "TurnState", "TableMeld", "JokerHistory"} <= {
        c.__name__ for c in classes
    }
    assert {"MeldTiles", "LayOff", "AcceptDoubles", "DoublesOffer", "UndoInfo", "Automation"} <= {
        c.__name__ for c in classes
    }
    problems = [
        f"{cls.__name__}.{f.name}: {why}"
        for cls in classes
        for f in _convert.saved_fields(cls)
        if (why := _unbounded(f.type, f.metadata)) is not None
    ]
    assert not problems


# -- a class added later ---------------------------------------------------------------------


@attrs.frozen
class OfferDoubles(_Step):
    """Seat ``seat`` offers its double of ``tile`` to the seats ``to``."""

    kind: ClassVar[str] = "offer_doubles"
    in_turn: ClassVar[bool] = False
    seat: int = attrs.field(metadata=SEAT)
    tile: int = attrs.field(metadata=TILE_ID)
    to: tuple[int, ...] = attrs.field(metadata=items(SEAT, most=3, unique=True))


Steps = Draw | Discard | OfferDoubles


def _refusal(data: object, players: int = 3) -> tuple[StateErrorCode, object, Mapping[str, Any]]:
    with pytest.raises(InvalidStateError) as info:
        _convert.structure(data, Steps, "step", players=players)
    return info.value.code, info.value.details["path"], info.value.details


def test_a_new_step_class_is_read_and_written_from_its_fields() -> None:
    offer = OfferDoubles(seat=1, tile=5, to=(0, 2))
    data = _convert.unstructure(offer, Steps)
    assert list(data.items()) == [
        ("kind", "offer_doubles"),
        ("seat", 1),
        ("tile", 5),
        ("to", [0, 2]),
    ]
    assert _convert.structure(json.loads(json.dumps(data)), Steps, "step", players=3) == offer
    assert _convert.structure({"kind": "discard", "tile": 7}, Steps, "step") == Discard(7)
    code, path, details = _refusal({**data, "seat": 3})
    assert (code, path, details["hi"]) == (S.OUT_OF_RANGE, "step.seat", 2)
    code, path, details = _refusal({**data, "to": [0, 0]})
    assert (code, path, details["other"]) == (S.BAD_VALUE, "step.to[1]", "step.to[0]")
    assert _refusal({**data, "to": [0, 1, 2, 0]})[:2] == (S.BAD_VALUE, "step.to")
    assert _refusal({**data, "to": [0, "1"]})[:2] == (S.WRONG_TYPE, "step.to[1]")
    assert _refusal({**data, "x": 1})[:2] == (S.UNKNOWN_KEY, "step.x")
    assert _refusal({"kind": "offer_doubles", "seat": 1, "tile": 5})[:2] == (
        S.MISSING_KEY,
        "step.to",
    )
    code, path, details = _refusal({"kind": "offer"})
    assert (code, path, details["why"]) == (S.BAD_VALUE, "step.kind", "no_such_step")


def test_a_new_step_class_is_described_by_the_schema_walker() -> None:
    defs: dict[str, Any] = {}
    assert _schema.type_schema(Steps, {}, defs) == {"$ref": "#/$defs/step"}
    assert defs["step"]["properties"]["kind"]["enum"] == ["draw", "discard", "offer_doubles"]
    offer = defs["step_offer_doubles"]
    assert offer["description"] == "Seat `seat` offers its double of `tile` to the seats `to`."
    assert offer["required"] == ["kind", "seat", "tile", "to"]
    assert offer["properties"]["to"] == {
        "type": "array",
        "items": {
            "type": "integer",
            "minimum": 0,
            "maximum": 3,
            "description": "a seat number (0 to players-1)",
        },
        "maxItems": 3,
        "uniqueItems": True,
    }
    schema = {"$defs": defs, "$ref": "#/$defs/step"}
    check = jsonschema.Draft202012Validator(schema)
    assert check.is_valid(_convert.unstructure(OfferDoubles(1, 5, (0,)), Steps))
    assert not check.is_valid({"kind": "offer_doubles", "seat": 1, "tile": 5, "to": [0, 0]})


def test_a_new_event_class_is_written_and_described_from_its_fields(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The class registers itself (events.event_types): into a copy of the registry,
    # so that the other tests' schemas do not see it.
    monkeypatch.setattr(events, "_KINDS", dict(events._KINDS))

    @attrs.frozen
    class DoublesShown(Event):
        """``seat`` showed a double."""

        kind: ClassVar[str] = "doubles_shown"
        seat: int = attrs.field(metadata=SEAT)
        tiles: tuple[int | None, ...] = attrs.field(metadata=items(TILE_ID, most=2))

    event = DoublesShown(seat=2, tiles=(7, None))
    assert serde.dump_event(event, seat=0) == {
        "kind": "doubles_shown",
        "seat": 2,
        "tiles": [7, None],
    }
    assert events.event_types()[-1] is DoublesShown
    schema = _schema.event_schema()
    assert schema["properties"]["kind"]["enum"][-1] == "doubles_shown"
    assert schema["$defs"]["event_doubles_shown"]["properties"]["tiles"]["items"] == {
        "anyOf": [
            {"type": "integer", "minimum": 0, "maximum": 105, "description": TILE_ID["doc"]},
            {"type": "null"},
        ]
    }
    check = jsonschema.Draft202012Validator(schema)
    assert check.is_valid(serde.dump_event(event, seat=serde.FULL))
    assert not check.is_valid({"kind": "doubles_shown", "seat": 2, "tiles": [7, 7, 7]})


# -- which error ---------------------------------------------------------------------------


def _game(name: str = "game-online-3p-finished.json") -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / name).read_text("utf-8"))
    return data


def _load_error(data: dict[str, Any]) -> tuple[StateErrorCode, object]:
    with pytest.raises(InvalidStateError) as info:
        serde.load_game(data)
    return info.value.code, info.value.details["path"]


def test_a_meld_s_meaning_is_checked_only_when_the_document_has_its_shape() -> None:
    meld_reversed = _game()
    meld_reversed["state"]["table"]["melds"][0]["ids"].reverse()
    assert _load_error(meld_reversed) == (S.BAD_VALUE, "state.table.melds[0].ids")
    later_wrong_type = copy.deepcopy(meld_reversed)
    later_wrong_type["state"]["preplay"] = 0  # a field after the table
    assert _load_error(later_wrong_type) == (S.WRONG_TYPE, "state.preplay")


def test_errors_of_shape_are_named_in_document_order_object_by_object() -> None:
    data = _game()
    data["state"]["turn"] = "3"
    data["state"]["seats"][2]["x"] = 1  # an unknown key in a later field
    assert _load_error(data) == (S.WRONG_TYPE, "state.turn")
    data["state"]["y"] = 1  # an unknown key of the object itself comes first
    assert _load_error(data) == (S.UNKNOWN_KEY, "state.y")
    data = _game()
    del data["state"]["seats"][0]["opened"]
    data["state"]["seats"][0]["turns"] = -1
    data["state"]["seats"][1]["rack"] = "x"
    assert _load_error(data) == (S.MISSING_KEY, "state.seats[0].opened")


# -- arrays of ints ------------------------------------------------------------------------

_ID_LIST = {**TILES, "max_items": 6}
_HOOK = _convert.field_hook(tuple[int, ...], _ID_LIST)


def _reference(value: list[Any]) -> tuple[StateErrorCode, str] | tuple[int, ...]:
    """The rules of a list of distinct tile ids, item by item."""
    if len(value) > 6:
        return S.TILE_COUNT, "ids"
    for k, one in enumerate(value):
        if type(one) is not int:
            return S.WRONG_TYPE, f"ids[{k}]"
        if not 0 <= one <= 105:
            return S.OUT_OF_RANGE, f"ids[{k}]"
    for k, one in enumerate(value):
        if one in value[:k]:
            return S.BAD_VALUE, f"ids[{k}]"
    return tuple(value)


@given(
    st.lists(st.one_of(st.integers(-3, 108), st.booleans(), st.none(), st.just(2.0)), max_size=8)
)
def test_an_array_of_ints_is_read_as_item_by_item(value: list[Any]) -> None:
    want = _reference(value)
    try:
        got: Any = _convert.structure(value, tuple[int, ...], "ids", hook=_HOOK)
    except InvalidStateError as err:
        got = (err.code, err.details["path"])
    assert got == want


# -- error details -------------------------------------------------------------------------


def test_error_details_write_tiles_in_notation() -> None:
    fixed = Tile(fixed_as=Tile.parse("4R"))
    error = InvalidMeldError(
        MeldErrorCode.MIXED_COLOURS, tiles=(Tile.parse("12N"), JOKER, fixed, Tile.parse("10A"))
    )
    assert serde.dump_error(error)["details"]["tiles"] == ["12N", "J", "J(=4R)", "10A"]


def test_the_schema_descriptions_are_plain_text() -> None:
    for text in serde.render_schemas().values():
        for description in _descriptions(json.loads(text)):
            assert ":class:" not in description and "``" not in description
            assert "\n" not in description and "  " not in description


def _descriptions(node: Any) -> typing.Iterator[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "description" and isinstance(value, str):
                yield value
            else:
                yield from _descriptions(value)
    elif isinstance(node, list):
        for value in node:
            yield from _descriptions(value)
