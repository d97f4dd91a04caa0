"""The metadata of the saved classes' attrs fields: each field's range and description,
declared once, next to the field, and read by :mod:`remi_rules.serde` (its converter's
strict hooks and its one JSON Schema walker).

An ``int`` field (or ``int | None``) carries

``lo``, ``hi``
    its range (a value outside is ``state_out_of_range``);
``seat``
    it is a seat number: its bound is the document's number of players less one
    (3 in the schema, for the most players);
``players``
    it is the document's number of players, which bounds the seat numbers read after
    it;
``doc``
    its description.

A sequence field (``tuple[X, ...]``, ``tuple[X, X]``, ``frozenset[X]``) carries

``items``
    the metadata of one item (an ``int`` item's range, or a nested sequence's);
``min_items``, ``max_items``
    how many items it may hold (``size_code`` otherwise, ``state_bad_value`` by
    default);
``unique``
    no item twice (``dup_code`` otherwise, ``state_bad_value`` by default);
``ascending``
    written sorted, read only in ascending order (a ``frozenset``);
``legal_max_items``
    the most items it holds in a legal game, if fewer than ``max_items`` (the size
    of the largest save, :data:`remi_rules.serde.MAX_DOCUMENT_BYTES`).

Any field may carry a ``doc``: its description in the JSON Schema.  A ``str`` field may
carry a ``pattern`` (a regular expression it must match whole), an enum field the
``choices`` it may take (all its members by default).  A field marked ``saved=False``
is derived from the others and not in the documents; a :class:`~remi_rules.Ruleset`
field never is (it is the document's rules).  A class with a ``kind`` class variable
is written and read tagged: ``{"kind": …, fields…}``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import attrs

from .errors import StateErrorCode
from .ruleset import Ruleset

__all__ = [
    "COUNT",
    "DOUBLES",
    "MELD_INDEX",
    "MELD_INDEXES",
    "PLACE",
    "PLAYERS",
    "SEAT",
    "SEATS",
    "SWAPPED_JOKERS",
    "TILES",
    "TILE_ID",
    "TURN",
    "TURN_TILES",
    "ints",
    "items",
]

Meta = Mapping[str, Any]


def ints(
    lo: int, hi: int | None = None, doc: str = "", *, seat: bool = False, players: bool = False
) -> dict[str, Any]:
    """The metadata of an ``int`` field: its range (a seat number needs no ``hi``),
    whether it is a seat number or the number of players, and its description."""
    out: dict[str, Any] = {"lo": lo}
    if hi is not None:
        out["hi"] = hi
    if seat:
        out["seat"] = True
    if players:
        out["players"] = True
    if doc:
        out["doc"] = doc
    return out


def items(
    item: Meta | None = None,
    *,
    most: int,
    least: int = 0,
    unique: bool = False,
    ascending: bool = False,
    size_code: StateErrorCode = StateErrorCode.BAD_VALUE,
    dup_code: StateErrorCode = StateErrorCode.BAD_VALUE,
    legal_most: int | None = None,
    doc: str = "",
) -> dict[str, Any]:
    """The metadata of a sequence field (see the module's doc)."""
    out: dict[str, Any] = {"max_items": most}
    if item is not None:
        out["items"] = dict(item)
    if least:
        out["min_items"] = least
    if unique:
        out["unique"] = True
    if ascending:
        out["ascending"] = True
    if size_code is not StateErrorCode.BAD_VALUE:
        out["size_code"] = size_code
    if dup_code is not StateErrorCode.BAD_VALUE:
        out["dup_code"] = dup_code
    if legal_most is not None:
        out["legal_max_items"] = legal_most
    if doc:
        out["doc"] = doc
    return out


_SWAPS_HI: Final[int] = attrs.fields(Ruleset).joker_swap_limit.metadata["hi"]
_TILE_COUNT: Final = StateErrorCode.TILE_COUNT

TILE_ID: Final = ints(0, 105, "a physical tile id (8*(rank-1) + 2*colour + copy; jokers 104, 105)")
"""A physical tile id."""
SEAT: Final = ints(0, doc="a seat number (0 to players-1)", seat=True)
"""A seat number, below the document's number of players."""
PLAYERS: Final = ints(2, 4, players=True)
"""The number of players (it bounds the seat numbers read after it)."""
COUNT: Final = ints(0, 1_000_000)
"""A counter (of turns, of steps)."""
TURN: Final = ints(1, 1_000_000, "a round turn number, from 1")
"""A round's turn number."""
MELD_INDEX: Final = ints(0, 105, "the index of a meld on the table")
"""The index of a meld on the table."""
SWAPS: Final = ints(0, _SWAPS_HI)
"""How often a joker was taken off the table (``joker_swap_limit`` at most)."""

PLACE: Final = items(TILE_ID, most=106, size_code=_TILE_COUNT)
"""The tiles of a place (a rack, the stock, the row): a tile twice is the census' to
name (:func:`remi_rules.engine.state_problems`)."""
TILES: Final = items(TILE_ID, most=106, unique=True, size_code=_TILE_COUNT)
"""Distinct tiles (a meld, a rack before a take)."""
TURN_TILES: Final = items(TILE_ID, most=106 + 2 * _SWAPS_HI)
"""The tiles a turn put on the table: a joker laid off, swapped back and laid off again
is there twice (a real tile only once: the engine's problems name it)."""
SWAPPED_JOKERS: Final = items(ints(104, 105), most=2 * _SWAPS_HI)
"""The jokers a turn took off the table."""
MELD_INDEXES: Final = items(MELD_INDEX, most=106, unique=True)
"""Distinct meld indexes."""
SEATS: Final = items(SEAT, most=106)
"""A seat per tile of a meld."""
DOUBLES: Final = items(ints(0, 51), most=52, unique=True)
"""Values exchanged as doubles (``id // 2``), each once."""
