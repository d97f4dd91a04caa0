"""Steps: the frozen values a player (or the table) submits to the engine.

A turn is a sequence of steps (TURN-02): one take (:class:`Draw`,
:class:`TakeLastDiscard`, :class:`Rupere`, :class:`TakeAtu`), any number of
:class:`MeldTiles`, :class:`LayOff` and :class:`SwapJoker`, then :class:`Discard` or
:class:`Close`.  The announcements and the pre-play steps (:class:`AnnounceFewTiles`,
:class:`AnnounceAtu`, :class:`DeclarePeTabla`, :class:`OfferDoubles`,
:class:`AcceptDoubles`, :class:`DemandRedeal`) name the seat that makes them, because
they are not tied to the seat whose turn it is.  :class:`Undo` takes back the last step
of the pending turn.

Tiles are physical ids (0–105, see :func:`remi_rules.tile_of`), so a log says exactly
which tile moved.  Every step has a ``kind`` (its tag in JSON) and ``str(step)``
writes it in the step notation of :mod:`remi_rules.notation` (English, without a
view: ``7R'`` is the copy with the odd id).

>>> from remi_rules.engine.steps import MeldTiles, Discard
>>> str(MeldTiles((40, 49, 56))), Discard(0).kind
("meld 6R 7R' 8R", 'discard')
"""

from __future__ import annotations

import enum
from typing import ClassVar

import attrs

from .._fields import MELD_INDEX, SEAT, TILE_ID, ints, items
from ..errors import StateErrorCode, safe_text
from ..lipire import End
from ..tiles import tile_of
from ._typed import of_type

__all__ = [
    "STEP_TYPES",
    "AcceptDoubles",
    "AnnounceAtu",
    "AnnounceFewTiles",
    "Close",
    "DeclarePeTabla",
    "DemandRedeal",
    "Discard",
    "Draw",
    "LayOff",
    "MeldTiles",
    "OfferDoubles",
    "Rupere",
    "Step",
    "SwapJoker",
    "TakeAtu",
    "TakeKind",
    "TakeLastDiscard",
    "Undo",
]


def _int(_inst: object, attribute: attrs.Attribute[int], value: object) -> None:
    if type(value) is not int:
        raise TypeError(f"{attribute.name} must be an int, not {type(value).__name__}")


def _ids(value: object) -> tuple[int, ...]:
    if isinstance(value, str | bytes) or not hasattr(value, "__iter__"):
        raise TypeError(f"tiles must be a sequence of tile ids, not {type(value).__name__}")
    out = tuple(value)
    for i in out:
        if type(i) is not int:
            raise TypeError(f"a tile id must be an int, not {type(i).__name__}")
    return out


def tile_label(tile_id: int) -> str:
    """A tile id as a message shows it: its notation, or ``#id`` (shortened when
    huge) for an id that names no tile."""
    if 0 <= tile_id <= 105:
        return str(tile_of(tile_id))
    return "#" + safe_text(tile_id)


_t = tile_label


class TakeKind(enum.StrEnum):
    """Which take began the pending turn (:attr:`TurnState.took
    <remi_rules.engine.state.TurnState.took>`): the ``kind`` of its take step, so a
    save writes the same string."""

    DRAW = "draw"
    """:class:`Draw`: the top tile of the stock."""
    LAST_DISCARD = "take_last_discard"
    """:class:`TakeLastDiscard`: the last discard."""
    RUPERE = "rupere"
    """:class:`Rupere`: an older discard and every later one."""
    ATU = "take_atu"
    """:class:`TakeAtu`: the face-up atu."""


class _Step:
    """The traits every step class declares, read by the engine, the loader and the
    tests instead of lists of classes kept by hand."""

    kind: ClassVar[str]
    """The step's tag in JSON (``{"kind": ...}``)."""
    word: ClassVar[str]
    """The key of its verb in the step notation (:mod:`remi_rules.notation`): the
    catalogues' ``word:<key>`` entry is the word written, ``words:<key>`` the other
    words read.  The notation reads and writes a step whose fields are none, a
    ``seat`` (out of turn) and/or a ``tile`` from these traits alone."""
    in_turn: ClassVar[bool] = True
    """Made by the seat whose turn it is (False: the step names its ``seat``)."""
    take: ClassVar[TakeKind | None] = None
    """The take this step is (TURN-03), or None for any other step."""
    undoable: ClassVar[bool] = False
    """:class:`Undo` can take it back: a step of the pending turn after which nothing
    hidden has been seen (not a draw, not the end of the turn, not an announcement)."""
    resumable: ClassVar[bool] = False
    """Neither ends a turn, draws nor uses chance: the steps after a record's last
    other step can be re-applied to a loaded game (so that they can still be
    undone) and give the same state."""

    def __str__(self) -> str:
        """The step in the English notation of :mod:`remi_rules.notation`, without a
        view (``meld 6R 7R' 8R``): :func:`~remi_rules.notation.parse_step` reads it
        back as the same step."""
        from ..notation import format_step

        return format_step(self)  # type: ignore[arg-type]


@attrs.frozen
class Draw(_Step):
    """The take: the top tile of the stock (TURN-03 a)."""

    kind: ClassVar[str] = "draw"
    word: ClassVar[str] = "draw"
    take: ClassVar[TakeKind | None] = TakeKind.DRAW


@attrs.frozen
class TakeLastDiscard(_Step):
    """The take: the last discard (RUPE-01, OPEN-06).

    Take the last discard of the row; it must go into a new meld this turn (RUPE-01)."""

    kind: ClassVar[str] = "take_last_discard"
    word: ClassVar[str] = "take"
    take: ClassVar[TakeKind | None] = TakeKind.LAST_DISCARD
    undoable: ClassVar[bool] = True
    resumable: ClassVar[bool] = True


@attrs.frozen
class Rupere(_Step):
    """The take: break the row at an older tile (RUPE-03/04).

    Break the row at an older tile, ``index`` (0-based, oldest first), taking it and
    every later discard (RUPE-03).  The last discard is :class:`TakeLastDiscard`."""

    kind: ClassVar[str] = "rupere"
    word: ClassVar[str] = "rupere"
    take: ClassVar[TakeKind | None] = TakeKind.RUPERE
    undoable: ClassVar[bool] = True
    resumable: ClassVar[bool] = True
    index: int = attrs.field(
        validator=_int, metadata=ints(0, 105, "a position in the discard row, oldest first")
    )


@attrs.frozen
class TakeAtu(_Step):
    """The take: the face-up atu, to close (ATU-06).

    Take the face-up atu (ATU-06): only to meld it and close in this turn."""

    kind: ClassVar[str] = "take_atu"
    word: ClassVar[str] = "take_atu"
    take: ClassVar[TakeKind | None] = TakeKind.ATU
    undoable: ClassVar[bool] = True
    resumable: ClassVar[bool] = True


@attrs.frozen
class MeldTiles(_Step):
    """After the take: a new meld, its tiles in laid order (OPEN-*, TURN-05).

    Put a new meld on the table: rack tiles ``tiles`` in laid order (a run
    ascending; where a joker sits fixes what it stands for, MELD-06)."""

    kind: ClassVar[str] = "meld"
    word: ClassVar[str] = "meld"
    undoable: ClassVar[bool] = True
    resumable: ClassVar[bool] = True
    tiles: tuple[int, ...] = attrs.field(
        converter=_ids,
        metadata=items(
            TILE_ID, most=106, unique=True, size_code=StateErrorCode.TILE_COUNT, legal_most=13
        ),
    )


_LAYOFF_ENDS = {end.value: end for end in (End.LOW, End.HIGH, End.SET)}


def _end(end: object) -> object:
    """A lay-off's end from its string form; anything else is left to the validator
    (an :class:`End` passes, the rest is a :class:`TypeError`)."""
    if isinstance(end, str) and not isinstance(end, End):
        if end not in _LAYOFF_ENDS:
            raise TypeError(
                f"end must be an End or one of {sorted(_LAYOFF_ENDS)}, not {safe_text(end)!r}"
            )
        return _LAYOFF_ENDS[end]
    return end


@attrs.frozen
class LayOff(_Step):
    """After the take: a tile laid off on a meld of the table (LIPI-*).

    Lay rack tile ``tile`` onto meld ``meld`` (its index on the table) at ``end``
    (LIPI-01/02); ``end`` may be omitted where only one end fits."""

    kind: ClassVar[str] = "lay_off"
    word: ClassVar[str] = "lay"
    undoable: ClassVar[bool] = True
    resumable: ClassVar[bool] = True
    tile: int = attrs.field(validator=_int, metadata=TILE_ID)
    meld: int = attrs.field(validator=_int, metadata=MELD_INDEX)
    end: End | None = attrs.field(
        default=None,
        converter=_end,
        validator=attrs.validators.optional(of_type(End)),
        metadata={"choices": tuple(_LAYOFF_ENDS)},
    )
    """An :class:`~remi_rules.lipire.End` (also exported by :mod:`remi_rules.engine`),
    or its string form ``"low"``, ``"high"``, ``"set"`` (as JSON carries it)."""


@attrs.frozen
class SwapJoker(_Step):
    """After the take: a joker of the table swapped for its tile (JOLY-*).

    Put rack tile ``tile`` in the place of joker ``joker`` in meld ``meld`` and take
    the joker (JOLY-01)."""

    kind: ClassVar[str] = "swap_joker"
    word: ClassVar[str] = "swap"
    undoable: ClassVar[bool] = True
    resumable: ClassVar[bool] = True
    tile: int = attrs.field(validator=_int, metadata=TILE_ID)
    meld: int = attrs.field(validator=_int, metadata=MELD_INDEX)
    joker: int = attrs.field(validator=_int, metadata=TILE_ID)


@attrs.frozen
class Discard(_Step):
    """Ends the turn; the last tile closes in ``discard`` mode (TURN-06, CLOSE-01).

    End the turn by putting rack tile ``tile`` at the end of the row (TURN-06); in
    ``discard`` closing mode, discarding the last tile closes (CLOSE-01)."""

    kind: ClassVar[str] = "discard"
    word: ClassVar[str] = "discard"
    tile: int = attrs.field(validator=_int, metadata=TILE_ID)


@attrs.frozen
class Close(_Step):
    """Closes with the last tile, discarded or kept in ``keep`` mode (CLOSE-01/02).

    Close the round with ``tile``, the last tile on the rack: discarded in
    ``discard`` mode (CLOSE-01), kept in ``keep`` mode (CLOSE-02)."""

    kind: ClassVar[str] = "close"
    word: ClassVar[str] = "close"
    tile: int = attrs.field(validator=_int, metadata=TILE_ID)


@attrs.frozen
class AnnounceFewTiles(_Step):
    """Out of turn, after one's discard, with ``announce_threshold`` tiles or fewer
    (ANNOUNCE-*).

    Seat ``seat`` announces that he holds few tiles (ANNOUNCE-01/02)."""

    kind: ClassVar[str] = "announce_few_tiles"
    word: ClassVar[str] = "announce"
    in_turn: ClassVar[bool] = False
    resumable: ClassVar[bool] = True
    seat: int = attrs.field(validator=_int, metadata=SEAT)


@attrs.frozen
class AnnounceAtu(_Step):
    """Out of turn, holding the atu's twin; before one's first take under ``announce_at_start``
    (ATU-02/03).

    Seat ``seat`` announces that he holds the atu's twin (ATU-02, ATU-03)."""

    kind: ClassVar[str] = "announce_atu"
    word: ClassVar[str] = "announce_atu"
    in_turn: ClassVar[bool] = False
    resumable: ClassVar[bool] = True
    seat: int = attrs.field(validator=_int, metadata=SEAT)


@attrs.frozen
class DeclarePeTabla(_Step):
    """Out of turn, until the starter's second turn begins (CLOSE-06).

    Seat ``seat`` declares that he plays pe tablă (CLOSE-06)."""

    kind: ClassVar[str] = "declare_pe_tabla"
    word: ClassVar[str] = "pe_tabla"
    in_turn: ClassVar[bool] = False
    resumable: ClassVar[bool] = True
    seat: int = attrs.field(validator=_int, metadata=SEAT)


@attrs.frozen
class OfferDoubles(_Step):
    """Before the first discard: offers a double, the table learning only its class
    (DUBLE-02/03).

    Seat ``seat`` offers a double for a blind exchange (DUBLE-03): ``tile`` is the
    tile of its double it would give (both copies under the ``pair`` unit).  The table
    learns the seat and the double's class (small, big or key, DUBLE-02), not the
    tile; another seat takes it up with :class:`AcceptDoubles`.  A seat has one offer
    open at a time, and it stands until it is taken up (or the double leaves the rack
    in another exchange); open offers lapse when play starts (the starter's first
    discard)."""

    kind: ClassVar[str] = "offer_doubles"
    word: ClassVar[str] = "offer"
    in_turn: ClassVar[bool] = False
    resumable: ClassVar[bool] = True
    seat: int = attrs.field(validator=_int, metadata=SEAT)
    tile: int = attrs.field(validator=_int, metadata=TILE_ID)


@attrs.frozen
class AcceptDoubles(_Step):
    """Before the first discard: takes up another seat's offer with a double of one's own; the
    engine exchanges the tiles (DUBLE-03/04).

    Seat ``seat`` takes up seat ``offer``'s open offer with ``tile``, a tile of its
    own double (of the same class where ``doubles_exchange_same_class``): the engine
    exchanges the offered tile and ``tile`` (or both pairs, under the ``pair`` unit),
    and only those two seats see which tiles moved.  Each seat names only its own tile."""

    kind: ClassVar[str] = "accept_doubles"
    word: ClassVar[str] = "accept"
    in_turn: ClassVar[bool] = False
    resumable: ClassVar[bool] = True
    seat: int = attrs.field(validator=_int, metadata=SEAT)
    tile: int = attrs.field(validator=_int, metadata=TILE_ID)
    offer: int = attrs.field(
        validator=_int,
        metadata=ints(0, doc="the seat whose offer of a double is taken up", seat=True),
    )
    """The seat whose offer is taken up."""


@attrs.frozen
class DemandRedeal(_Step):
    """Before the first discard, with ``redeal_doubles_threshold`` doubles (DUBLE-05).

    Seat ``seat`` voids the deal with enough doubles (DUBLE-05): reshuffle, deal again."""

    kind: ClassVar[str] = "demand_redeal"
    word: ClassVar[str] = "redeal"
    in_turn: ClassVar[bool] = False
    seat: int = attrs.field(validator=_int, metadata=SEAT)


@attrs.frozen
class Undo(_Step):
    """Takes back the last step of the pending turn."""

    kind: ClassVar[str] = "undo"
    word: ClassVar[str] = "undo"
    resumable: ClassVar[bool] = True


Step = (
    Draw
    | TakeLastDiscard
    | Rupere
    | TakeAtu
    | MeldTiles
    | LayOff
    | SwapJoker
    | Discard
    | Close
    | AnnounceFewTiles
    | AnnounceAtu
    | DeclarePeTabla
    | OfferDoubles
    | AcceptDoubles
    | DemandRedeal
    | Undo
)
"""Any step."""

STEP_TYPES: tuple[type[Step], ...] = (
    Draw,
    TakeLastDiscard,
    Rupere,
    TakeAtu,
    MeldTiles,
    LayOff,
    SwapJoker,
    Discard,
    Close,
    AnnounceFewTiles,
    AnnounceAtu,
    DeclarePeTabla,
    OfferDoubles,
    AcceptDoubles,
    DemandRedeal,
    Undo,
)
"""Every step class; ``{cls.kind: cls for cls in STEP_TYPES}`` maps JSON tags to classes."""

TAKES: tuple[type[Step], ...] = tuple(cls for cls in STEP_TYPES if cls.take is not None)
"""The take steps (TURN-03), in the order of :class:`TakeKind`."""
