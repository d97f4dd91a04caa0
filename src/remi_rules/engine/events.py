"""Events: what a step caused, as frozen values (for logs, animations and bots).

:meth:`Game.apply <remi_rules.engine.Game.apply>` returns a tuple of them.  The chance
events (:class:`DealerChosen`, :class:`Dealt`, :class:`AtuReturned`,
:class:`StockReshuffled`) carry every random outcome as tile ids, so a replay never
needs a random generator.  Events name physical tile ids, so an event as the engine
makes it is for the server's own log; what a seat (or a spectator) may be sent is
:meth:`seen_by` of it (:meth:`Game.events_for <remi_rules.engine.Game.events_for>`):
every id that seat cannot know is replaced by ``None`` (docs/protocol.md).

Every event class subclasses :class:`Event` and registers itself when it is built
(an attrs class with a ``kind`` of its own): the classes of this module, and an event
declared beside its handler in a handler module (``engine/_windows.py`` …).  The
JSON Schema and the tests read them from :func:`event_types`; a second class of the
same ``kind`` is a :class:`TypeError` where it is declared.
"""

from __future__ import annotations

import enum
from typing import ClassVar, Final, Self

import attrs

from .._fields import MELD_INDEX, SEAT, TILE_ID, TURN, ints, items
from ..lipire import End
from .steps import Step

__all__ = [
    "Announced",
    "AnnouncementMissed",
    "AtuReturned",
    "DealerChosen",
    "Dealt",
    "Discarded",
    "DoublesExchanged",
    "DoublesOfferWithdrawn",
    "DoublesOffered",
    "Drew",
    "EndReason",
    "Event",
    "JokerSwapped",
    "LaidOff",
    "Melded",
    "PeTablaDeclared",
    "RoundEnded",
    "RoundScored",
    "StepUndone",
    "StockReshuffled",
    "TookAtu",
    "TookFromRow",
    "TurnStarted",
    "event_types",
]


class EndReason(enum.StrEnum):
    """How a round ended."""

    CLOSED = "closed"
    """A player closed (CLOSE-01/02)."""
    STOCK_EXHAUSTED = "stock_exhausted"
    """Nothing left to draw and nothing legal to take (END-01/02)."""
    MAX_TURNS = "max_turns"
    """``max_turns_per_round`` turns without a close (END-04)."""


class Event:
    """Any event: the base class of every event class, an attrs class with a ``kind``
    (its JSON tag) of its own, registered when it is built (:func:`event_types`)."""

    __slots__ = ()
    kind: ClassVar[str]
    chance: ClassVar[bool] = False

    @classmethod
    def __attrs_init_subclass__(cls) -> None:
        _register(cls)

    def seen_by(self, seat: int | None) -> Self:
        """This event as ``seat`` may see it (``None``: a spectator): every tile id
        hidden from that seat becomes ``None``, nothing else changes.  Most events are
        public and return themselves; a seat number that is not at the table sees what
        a spectator sees.  A ``seat`` that is neither an int nor None is a
        :class:`TypeError`."""
        _viewer(seat)
        return self


_KINDS: Final[dict[str, type[Event]]] = {}
"""Every event class by its ``kind``, in the order they were built."""


def _register(cls: type[Event]) -> None:
    kind = cls.__dict__.get("kind")
    if kind is None and getattr(cls, "kind", None) is None:
        return  # a base class of events, not one
    if not isinstance(kind, str):
        raise TypeError(f"event class {cls.__qualname__} needs a kind (a str) of its own")
    other = _KINDS.get(kind)
    if other is not None:
        raise TypeError(
            f"event kind {kind!r} of {cls.__module__}.{cls.__qualname__} is taken "
            f"by {other.__module__}.{other.__qualname__}"
        )
    _KINDS[kind] = cls


def event_types() -> tuple[type[Event], ...]:
    """Every event class: this module's in the order they are declared, then those
    declared beside their handlers, by module and in the order declared there (an
    order that does not depend on which module was imported first)."""
    from . import transition  # noqa: F401  (it imports every handler module)

    built = {cls: k for k, cls in enumerate(_KINDS.values())}
    return tuple(sorted(built, key=lambda c: (c.__module__ != __name__, c.__module__, built[c])))


def _viewer(seat: object) -> int | None:
    if seat is not None and (type(seat) is not int):
        raise TypeError(f"seat must be a seat number (int) or None, not {type(seat).__name__}")
    return seat


_IDS: Final = items(TILE_ID, most=106)
"""Tile ids (an id hidden from the viewer is null)."""
_ORDER: Final = items(TILE_ID, most=106, least=106)


def _hidden(ids: tuple[int | None, ...]) -> tuple[int | None, ...]:
    return (None,) * len(ids)


@attrs.frozen(weakref_slot=False)
class DealerChosen(Event):
    """The round's dealer (DEAL-01): drawn at random, or the seat before the starter
    given (``Game.new(starter=…)``, an explicit deal); the starter is the next seat.
    Every round's event log begins with it, a replayed one too."""

    kind: ClassVar[str] = "dealer_chosen"
    chance: ClassVar[bool] = True
    dealer: int = attrs.field(metadata=SEAT)


@attrs.frozen(weakref_slot=False)
class Dealt(Event):
    """Chance: the 106 ids in dealt order (racks from seat 0, ``sizes[s]`` tiles for
    seat ``s``, the atu, the stock top first), after a shuffle or as given
    (DEAL-02/03/04); also after a redeal.  Seen by a seat, only its own rack and the
    atu keep their ids (a spectator sees the atu)."""

    kind: ClassVar[str] = "dealt"
    chance: ClassVar[bool] = True
    order: tuple[int | None, ...] = attrs.field(metadata=_ORDER)
    starter: int = attrs.field(metadata=SEAT)
    sizes: tuple[int, ...] = attrs.field(default=(), metadata=items(ints(0, 106), most=4))

    def seen_by(self, seat: int | None) -> Self:
        seat = _viewer(seat)
        mine = range(0)
        if seat is not None and 0 <= seat < len(self.sizes):
            start = sum(self.sizes[:seat])
            mine = range(start, start + self.sizes[seat])
        atu = sum(self.sizes) if self.sizes else -1
        order = tuple(i if k in mine or k == atu else None for k, i in enumerate(self.order))
        return attrs.evolve(self, order=order)


@attrs.frozen(weakref_slot=False)
class AtuReturned(Event):
    """Chance: a joker came up as the atu where ``atu_may_be_joker`` is false; it went
    back into the stock, the stock was shuffled (``stock``, top first) and ``atu``
    turned instead (DEAL-03)."""

    kind: ClassVar[str] = "atu_returned"
    chance: ClassVar[bool] = True
    joker: int = attrs.field(metadata=ints(104, 105))
    atu: int = attrs.field(metadata=TILE_ID)
    stock: tuple[int | None, ...] = attrs.field(metadata=_IDS)

    def seen_by(self, seat: int | None) -> Self:
        _viewer(seat)
        return attrs.evolve(self, stock=_hidden(self.stock))


@attrs.frozen(weakref_slot=False)
class StockReshuffled(Event):
    """Chance: the stock ran out and the row, all but its last tile, became the new
    stock in this order, top first (END-02, ``reshuffle_discards``)."""

    kind: ClassVar[str] = "stock_reshuffled"
    chance: ClassVar[bool] = True
    stock: tuple[int | None, ...] = attrs.field(metadata=_IDS)

    def seen_by(self, seat: int | None) -> Self:
        _viewer(seat)
        return attrs.evolve(self, stock=_hidden(self.stock))


@attrs.frozen(weakref_slot=False)
class TurnStarted(Event):
    kind: ClassVar[str] = "turn_started"
    seat: int = attrs.field(metadata=SEAT)
    turn: int = attrs.field(metadata=TURN)


@attrs.frozen(weakref_slot=False)
class Drew(Event):
    """``seat`` drew ``tile`` from the stock; only that seat sees which."""

    kind: ClassVar[str] = "drew"
    seat: int = attrs.field(metadata=SEAT)
    tile: int | None = attrs.field(metadata=TILE_ID)

    def seen_by(self, seat: int | None) -> Self:
        return self if _viewer(seat) == self.seat else attrs.evolve(self, tile=None)


@attrs.frozen(weakref_slot=False)
class TookFromRow(Event):
    """``tiles`` left the row at ``index`` for ``seat``'s rack (the picked tile first)."""

    kind: ClassVar[str] = "took_from_row"
    seat: int = attrs.field(metadata=SEAT)
    index: int = attrs.field(metadata=ints(0, 105, "a position in the discard row, oldest first"))
    tiles: tuple[int, ...] = attrs.field(metadata=_IDS)


@attrs.frozen(weakref_slot=False)
class TookAtu(Event):
    kind: ClassVar[str] = "took_atu"
    seat: int = attrs.field(metadata=SEAT)
    tile: int = attrs.field(metadata=TILE_ID)


@attrs.frozen(weakref_slot=False)
class Melded(Event):
    kind: ClassVar[str] = "melded"
    seat: int = attrs.field(metadata=SEAT)
    meld: int = attrs.field(metadata=MELD_INDEX)
    tiles: tuple[int, ...] = attrs.field(metadata=_IDS)


@attrs.frozen(weakref_slot=False)
class LaidOff(Event):
    kind: ClassVar[str] = "laid_off"
    seat: int = attrs.field(metadata=SEAT)
    meld: int = attrs.field(metadata=MELD_INDEX)
    tile: int = attrs.field(metadata=TILE_ID)
    end: End


@attrs.frozen(weakref_slot=False)
class JokerSwapped(Event):
    kind: ClassVar[str] = "joker_swapped"
    seat: int = attrs.field(metadata=SEAT)
    meld: int = attrs.field(metadata=MELD_INDEX)
    joker: int = attrs.field(metadata=ints(104, 105))
    tile: int = attrs.field(metadata=TILE_ID)


@attrs.frozen(weakref_slot=False)
class Discarded(Event):
    kind: ClassVar[str] = "discarded"
    seat: int = attrs.field(metadata=SEAT)
    tile: int = attrs.field(metadata=TILE_ID)


@attrs.frozen(weakref_slot=False)
class Announced(Event):
    """``what`` is ``"few_tiles"`` or ``"atu"``; ``automatic`` when the engine made it
    (ANNOUNCE-04 under :class:`~remi_rules.engine.Automation`)."""

    kind: ClassVar[str] = "announced"
    seat: int = attrs.field(metadata=SEAT)
    what: str = attrs.field(metadata={"choices": ("few_tiles", "atu")})
    automatic: bool = False


@attrs.frozen(weakref_slot=False)
class AnnouncementMissed(Event):
    """``seat`` ended a turn with few tiles and did not announce before the next
    turn began: he is liable for ``no_announce_penalty`` (ANNOUNCE-03, OQ-41)."""

    kind: ClassVar[str] = "announcement_missed"
    seat: int = attrs.field(metadata=SEAT)


@attrs.frozen(weakref_slot=False)
class PeTablaDeclared(Event):
    kind: ClassVar[str] = "pe_tabla_declared"
    seat: int = attrs.field(metadata=SEAT)


DOUBLE_CLASSES: Final = ("small", "big", "key")
"""The classes of doubles (DUBLE-02), as :func:`~remi_rules.engine.double_class` names
them."""


@attrs.frozen(weakref_slot=False)
class DoublesOffered(Event):
    """``seat`` offers a double of class ``double_class`` (DUBLE-02: ``"small"``,
    ``"big"`` or ``"key"``) for a blind exchange; ``tile``, the tile it would give, is
    seen by that seat only."""

    kind: ClassVar[str] = "doubles_offered"
    seat: int = attrs.field(metadata=SEAT)
    double_class: str = attrs.field(metadata={"choices": DOUBLE_CLASSES})
    tile: int | None = attrs.field(metadata=TILE_ID)

    def seen_by(self, seat: int | None) -> Self:
        return self if _viewer(seat) == self.seat else attrs.evolve(self, tile=None)


@attrs.frozen(weakref_slot=False)
class DoublesOfferWithdrawn(Event):
    """``seat``'s open offer of a double is gone without an exchange: ``reason`` is
    ``"broken"`` (the seat gave a tile of that double in another exchange) or
    ``"lapsed"`` (play started)."""

    kind: ClassVar[str] = "doubles_offer_withdrawn"
    seat: int = attrs.field(metadata=SEAT)
    reason: str = attrs.field(metadata={"choices": ("broken", "lapsed")})


@attrs.frozen(weakref_slot=False)
class DoublesExchanged(Event):
    """``seat`` (whose offer was taken up) gave ``given`` to ``other`` (who accepted)
    and got ``received``: blind, so only those two seats see the tiles."""

    kind: ClassVar[str] = "doubles_exchanged"
    seat: int = attrs.field(metadata=SEAT)
    other: int = attrs.field(metadata=SEAT)
    given: tuple[int | None, ...] = attrs.field(metadata=_IDS)
    received: tuple[int | None, ...] = attrs.field(metadata=_IDS)

    def seen_by(self, seat: int | None) -> Self:
        if _viewer(seat) in (self.seat, self.other):
            return self
        return attrs.evolve(self, given=_hidden(self.given), received=_hidden(self.received))


@attrs.frozen(weakref_slot=False)
class RoundEnded(Event):
    """The round is over; ``racks`` are every seat's rack as it ended, now public (the
    score names them)."""

    kind: ClassVar[str] = "round_ended"
    reason: EndReason
    closer: int | None = attrs.field(default=None, metadata=SEAT)
    closing_tile: int | None = attrs.field(default=None, metadata=TILE_ID)
    pe_tabla: bool = False
    racks: tuple[tuple[int, ...], ...] = attrs.field(default=(), metadata=items(_IDS, most=4))


@attrs.frozen(weakref_slot=False)
class RoundScored(Event):
    """The round's totals per seat and its winners (SCORE-*, TIE-*); emitted when
    :class:`~remi_rules.engine.Automation` ``scoring`` is on."""

    kind: ClassVar[str] = "round_scored"
    totals: tuple[int, ...]
    winners: tuple[int, ...] = attrs.field(metadata=items(SEAT, most=4))


@attrs.frozen(weakref_slot=False)
class StepUndone(Event):
    """``seat`` took ``step`` back (:meth:`Game.undo <remi_rules.engine.Game.undo>`),
    and what that reversed, for a frontend to animate: ``to_rack`` came back to the
    rack (from the table, or a swapped tile), ``from_rack`` left it (a taken tile back
    to the row or the atu, a swapped joker back to its meld), ``to_row`` went back to
    the row, ``melds_removed`` are the table's meld numbers that are gone, and
    ``atu_returned`` says the atu lies face up again.  ``str(event.step)`` is the step
    in words.  Everything named was in sight of the whole table."""

    kind: ClassVar[str] = "step_undone"
    step: Step
    seat: int = attrs.field(metadata=SEAT)
    to_rack: tuple[int, ...] = attrs.field(default=(), metadata=_IDS)
    from_rack: tuple[int, ...] = attrs.field(default=(), metadata=_IDS)
    to_row: tuple[int, ...] = attrs.field(default=(), metadata=_IDS)
    melds_removed: tuple[int, ...] = attrs.field(default=(), metadata=items(MELD_INDEX, most=106))
    atu_returned: bool = False
