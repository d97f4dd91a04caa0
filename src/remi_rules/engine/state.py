"""The immutable state of one round: racks, stock, row, atu, table, whose turn it is,
and the pending turn (DESIGN.md: the engine's turn model).

Every step returns a new :class:`GameState`; nothing here mutates.  The physical tiles
(ids 0–105) are each in exactly one place: a rack, the stock, the row, the table, or
face up as the atu (:func:`tile_census` checks it).
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any, Final, TypeVar

import attrs

from .._fields import (
    COUNT,
    DOUBLES,
    MELD_INDEXES,
    PLACE,
    PLAYERS,
    SEAT,
    SWAPPED_JOKERS,
    TILE_ID,
    TILES,
    TURN,
    TURN_TILES,
    items,
)
from .._slots import evolver, maker
from ..context import NO_JOKER_HISTORY, TurnContext
from ..ruleset import Ruleset, SwappedJokerUse
from ..rupere import TakeObligation
from ..table import Table
from ..tiles import JOKER_IDS
from .events import DOUBLE_CLASSES, EndReason
from .steps import TakeKind

_T = TypeVar("_T")

__all__ = [
    "MAX_UNDOS_PER_TURN",
    "DoublesOffer",
    "GameState",
    "Obligation",
    "Phase",
    "RoundEnd",
    "SeatState",
    "TurnState",
    "UndoInfo",
    "evolve",
    "tile_census",
    "turn_context",
]


class Phase(enum.StrEnum):
    """Where the round is."""

    TAKE = "take"
    """The current player must take a tile (TURN-03); in the starter's first turn he
    only discards (TURN-01)."""
    ACTION = "action"
    """The current player has taken: he melds, lays off and swaps, then discards or
    closes (TURN-02, TURN-05)."""
    OVER = "over"
    """The round has ended (CLOSE-07, END-01/02/04)."""


@attrs.frozen(weakref_slot=False)  # layout twin: see remi_rules._slots
class SeatState:
    """One seat: its rack (physical ids, in arrival order) and what it has done."""

    rack: tuple[int, ...] = attrs.field(metadata=PLACE)
    opened: bool = False
    """Completed a first etalare (in an earlier turn, or in the pending one once it ends)."""
    turns: int = attrs.field(default=0, metadata=COUNT)
    """Own turns begun, the pending one included (``turn_number`` of the turn rules)."""
    has_taken: bool = False
    """Has made a take in this round (ATU-02: the atu is announced before it)."""
    announced_few: bool = False
    """Announced holding few tiles (ANNOUNCE-01)."""
    missed_announcement: bool = False
    """Ended a turn with few tiles without announcing (ANNOUNCE-03, OQ-41)."""
    announced_atu: bool = False
    """Announced the atu twin (ATU-02; informational elsewhere, ONLINE-08)."""
    declared_pe_tabla: bool = False
    """Declared a pe-tablă closing (CLOSE-06)."""


@attrs.frozen(weakref_slot=False)  # layout twin: see remi_rules._slots
class TurnState:
    """The pending turn of ``seat``: what its turn-spanning constraints need (RUPE-01,
    OPEN-02/03, JOLY-04), checked when the turn ends."""

    seat: int = attrs.field(metadata=SEAT)
    number: int = attrs.field(metadata=TURN)
    """The round's turn number, from 1 (the starter's first turn)."""
    rack_at_start: tuple[int, ...] = attrs.field(metadata=TILES)
    opened_before: bool
    took: TakeKind | None = None
    """The take step's :attr:`~remi_rules.engine.steps.TakeKind` (its value is the
    step's ``kind``: ``"draw"``, ``"take_last_discard"``, ``"rupere"``,
    ``"take_atu"``), or None before the take."""
    obligation: TakeObligation | None = None
    """For a take from the row or of the atu (RUPE-01, ATU-06)."""
    new_melds: tuple[int, ...] = attrs.field(default=(), metadata=MELD_INDEXES)
    """Indexes of the melds created in this turn."""
    laid_off: tuple[int, ...] = attrs.field(default=(), metadata=TURN_TILES)
    """Ids laid off in this turn (swaps excluded)."""
    swapped_jokers: tuple[int, ...] = attrs.field(default=(), metadata=SWAPPED_JOKERS)
    """Jokers taken off the table in this turn (JOLY-04)."""
    placed: tuple[int, ...] = attrs.field(default=(), metadata=TURN_TILES)
    """Every rack tile put on the table in this turn (melds, lay-offs, swaps)."""
    steps: int = attrs.field(default=0, metadata=COUNT)
    """In-turn steps applied so far."""

    @property
    def opening(self) -> bool:
        """This turn is the seat's first etalare (it has melded and had not opened)."""
        return bool(self.new_melds) and not self.opened_before


class Obligation(enum.StrEnum):
    """A constraint the pending turn must still meet before it can end."""

    TAKE = "take"
    """Take a tile (TURN-02)."""
    MELD_TAKEN_TILE = "meld_taken_tile"
    """Put the taken row tile or atu into a new meld (RUPE-01, ATU-06)."""
    CLOSE = "close"
    """Close in this turn (ATU-06; a pe-tablă declarer who melded, CLOSE-06)."""
    OPENING = "opening"
    """The new melds must make a valid first etalare (OPEN-02/03)."""
    MELD_SWAPPED_JOKER = "meld_swapped_joker"
    """Put the swapped joker into a new meld (JOLY-04, ``same_turn_new_meld``)."""


MAX_UNDOS_PER_TURN: Final = 64
"""How many :class:`Undo` steps one turn may make.  The next one is refused with
``undo_limit`` and :meth:`Game.legal_steps <remi_rules.engine.Game.legal_steps>` no
longer lists ``Undo``; a discard or a close is never refused for it.  Without a cap a
turn could go on for ever (take, undo, take, …: a legal save of 100,000 such steps took
a minute to load).  64 is far beyond what a person at the table does (taking back each
tile of a full rack one by one is about 15 undos), and bounds a turn, and so a record's
replay, to a few hundred steps per turn."""


def _count(_inst: object, attribute: attrs.Attribute[int], value: object) -> None:
    if type(value) is not int:
        raise TypeError(f"{attribute.name} must be an int, not {type(value).__name__}")


@attrs.frozen
class UndoInfo:
    """What :class:`~remi_rules.engine.steps.Undo` may still do in the pending turn:
    public, since the whole table sees every step and every undo.

    ``steps``: the steps of the pending turn that ``Undo`` could take back, in the
    order they were made (a take from the row or of the atu, the melds, lay-offs and
    swaps after it; a draw or a turn's end clears them).  ``undos``: the undos made in
    this turn so far (at :data:`MAX_UNDOS_PER_TURN` the cap is reached).  ``rescue``:
    past the cap, the first ``rescue`` of those steps (made before the cap) may still
    be taken back one by one while the turn cannot end."""

    steps: int = attrs.field(default=0, validator=_count, metadata=COUNT)
    undos: int = attrs.field(default=0, validator=_count, metadata=COUNT)
    rescue: int = attrs.field(default=0, validator=_count, metadata=COUNT)

    @property
    def past_cap(self) -> bool:
        """The turn has made :data:`MAX_UNDOS_PER_TURN` undos."""
        return self.undos >= MAX_UNDOS_PER_TURN


@attrs.frozen
class DoublesOffer:
    """An open offer of a double for a blind exchange (DUBLE-03,
    :class:`~remi_rules.engine.steps.OfferDoubles`): the seat, the double's class
    (``"small"``, ``"big"`` or ``"key"``, DUBLE-02: public) and the tile it would give
    (``None`` in another seat's view)."""

    seat: int = attrs.field(metadata=SEAT)
    double_class: str = attrs.field(
        metadata={"choices": DOUBLE_CLASSES, "doc": "the double's class (DUBLE-02)"}
    )
    tile: int | None = attrs.field(
        metadata={**TILE_ID, "doc": "the tile it would give (null in another seat's view)"}
    )


OFFERS: Final = items(most=4, doc="the open offers of doubles, at most one per seat")
"""The metadata of a list of open offers (one per seat at most)."""


@attrs.frozen
class RoundEnd:
    """How the round ended."""

    reason: EndReason
    closer: int | None = attrs.field(default=None, metadata=SEAT)
    closing_tile: int | None = attrs.field(default=None, metadata=TILE_ID)
    pe_tabla: bool = False


@attrs.frozen(weakref_slot=False)  # layout twin: see remi_rules._slots
class GameState:
    """The whole state of one round.  Compare states with ``==``; serialise with
    :func:`remi_rules.serde.dump_game`."""

    rules: Ruleset
    players: int = attrs.field(metadata=PLAYERS)
    dealer: int = attrs.field(metadata=SEAT)
    starter: int = attrs.field(metadata=SEAT)
    phase: Phase
    current: int = attrs.field(metadata=SEAT)
    """The seat whose turn it is."""
    turn: int = attrs.field(metadata=TURN)
    """The round's turn number, from 1."""
    seats: tuple[SeatState, ...] = attrs.field(metadata=items(most=4, least=2))
    stock: tuple[int, ...] = attrs.field(metadata=PLACE)
    """Face down, top (next to draw) first."""
    row: tuple[int, ...] = attrs.field(metadata=PLACE)
    """The discard row, oldest first (TURN-09)."""
    row_dead_first: bool
    """``row[0]`` is the starter's dead first discard (TURN-01); false after an online
    reshuffle took it into the stock."""
    atu: int = attrs.field(metadata=TILE_ID)
    """The physical id of the tile turned up after the deal (DEAL-03)."""
    atu_face_up: bool
    """The atu still lies face up (not taken, ATU-06)."""
    table: Table
    pending: TurnState | None
    """The current turn; None once the round is over."""
    announce_window: int | None = attrs.field(default=None, metadata=SEAT)
    """The seat that ended the last turn with few tiles and may still announce (ANNOUNCE-02)."""
    preplay: bool = True
    """Doubles may be exchanged and the deal voided (DEAL-06 step 2): until the
    starter's first discard."""
    exchanged: tuple[int, ...] = attrs.field(default=(), metadata=DOUBLES)
    """Values already exchanged as doubles, as ``id // 2`` (each double at most once, OQ-30)."""
    end: RoundEnd | None = None
    offers: tuple[DoublesOffer, ...] = attrs.field(default=(), metadata=OFFERS)
    """The open offers of doubles (at most one per seat, in the order they were made);
    they lapse when play starts."""

    @property
    def current_player(self) -> int:
        return self.current

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    def rack(self, seat: int) -> tuple[int, ...]:
        return self.seats[seat].rack

    def obligations(self) -> tuple[Obligation, ...]:
        """What the pending turn must still do before it may end, as far as the
        engine can tell without searching (an opening also needs its 45)."""
        turn = self.pending
        if turn is None:
            return ()
        out: list[Obligation] = []
        starter_first = turn.number == 1
        if turn.took is None and not starter_first:
            out.append(Obligation.TAKE)
        placed = {i for m in turn.new_melds for i in self.table.melds[m].ids}
        ob = turn.obligation
        if ob is not None:
            if ob.picked not in placed:
                out.append(Obligation.MELD_TAKEN_TILE)
            if ob.must_close:
                out.append(Obligation.CLOSE)
        seat = self.seats[turn.seat]
        if (
            turn.new_melds
            and seat.declared_pe_tabla
            and self.rules.pe_tabla_enabled
            and Obligation.CLOSE not in out
        ):
            out.append(Obligation.CLOSE)
        if turn.opening:
            out.append(Obligation.OPENING)
        same_turn = self.rules.swapped_joker_use is SwappedJokerUse.SAME_TURN_NEW_MELD
        if same_turn and any(j not in placed for j in turn.swapped_jokers):
            out.append(Obligation.MELD_SWAPPED_JOKER)
        return tuple(out)


def evolve(inst: _T, **changes: object) -> _T:
    """:func:`attrs.evolve` for the engine's state values (:class:`GameState`,
    :class:`SeatState`, :class:`TurnState`): the same result, copied slot by slot
    without running ``__init__`` (:func:`remi_rules._slots.evolver`), which is worth it
    on the engine's hot path (a step copies three of them).  Valid only for frozen
    classes without validators, converters or ``__attrs_post_init__`` (checked when a
    class is first copied; tests/test_engine_state.py checks these classes stay so); a
    misspelt name raises :class:`TypeError`."""
    cls = type(inst)
    fn = _EVOLVERS.get(cls)
    if fn is None:
        fn = _EVOLVERS[cls] = evolver(cls)
    result: _T = fn(inst, **changes)
    return result


# The engine's own copiers (transition.py), not public API: no check of the argument's
# type on the hot path.  Outside the engine use :func:`evolve`.
evolve_state: Callable[..., GameState] = evolver(GameState)
""":func:`evolve` for a :class:`GameState` (no dispatch on the type: the hot path)."""
evolve_seat: Callable[..., SeatState] = evolver(SeatState)
""":func:`evolve` for a :class:`SeatState`."""
evolve_turn: Callable[..., TurnState] = evolver(TurnState)
""":func:`evolve` for a :class:`TurnState`."""
_EVOLVERS: dict[type, Callable[..., Any]] = {
    GameState: evolve_state,
    SeatState: evolve_seat,
    TurnState: evolve_turn,
}


def _places(state: GameState) -> Iterator[tuple[str, tuple[int, ...]]]:
    for s, seat in enumerate(state.seats):
        yield f"seats[{s}].rack", seat.rack
    yield "stock", state.stock
    yield "row", state.row
    for m, meld in enumerate(state.table.melds):
        yield f"table.melds[{m}].ids", meld.ids
    if state.atu_face_up:
        yield "atu", (state.atu,)


def tile_census(state: GameState) -> str | None:
    """``None`` if each of the 106 physical tiles is in exactly one place (a rack, the
    stock, the row, a meld, or face up as the atu); else what is wrong."""
    if not isinstance(state, GameState):
        raise TypeError(f"state must be a GameState, not {type(state).__name__}")
    seen: Counter[int] = Counter()
    where: dict[int, str] = {}
    for place, ids in _places(state):
        for i in ids:
            if type(i) is not int or not 0 <= i <= JOKER_IDS[1]:
                return f"{place} holds {i!r}, which is not a tile id"
            seen[i] += 1
            if seen[i] > 1:
                return f"tile {i} is both in {where[i]} and in {place}"
            where[i] = place
    if len(seen) != 106:
        missing = sorted(set(range(106)) - set(seen))
        return f"{len(missing)} tile(s) are nowhere: {missing[:10]}"
    return None


_make_context = maker(TurnContext, trusted=True)


def context_of_state(state: GameState, closing_turn: bool | None = None) -> TurnContext:
    """:func:`turn_context` without its argument checks (the engine's hot path)."""
    seat = state.seats[state.current]
    turn = state.pending
    declared = seat.declared_pe_tabla
    before = seat.opened
    melds: tuple[int, ...]
    laid: tuple[int, ...]
    if turn is None:
        opened, this_turn, melds, laid = before, False, (), ()
    else:
        melds, laid = turn.new_melds, turn.laid_off
        opened = before or bool(melds)
        this_turn = opened and not turn.opened_before
    return _make_context(
        state.rules,
        before,
        max(seat.turns, 1),
        declared,
        declared if closing_turn is None else closing_turn,
        state.row_dead_first,
        this_turn,
        opened,
        melds,
        laid,
        state.table.jokers,
    )


def full_rights_context(state: GameState) -> TurnContext:
    """A context of a player with full rights (opened in an earlier turn, nothing made
    in this one): whether a tile could be laid off at all (ATU-06's closing plan)."""
    return _make_context(
        state.rules, True, 2, False, False, True, False, True, (), (), NO_JOKER_HISTORY
    )


def turn_context(state: GameState, *, closing_turn: bool | None = None) -> TurnContext:
    """The :class:`~remi_rules.context.TurnContext` of the current player's turn, as
    the engine passes it to the take, lay-off and swap rules: his seat's facts (opened
    before this turn, his own turn number, a pe-tablă declaration), what the pending
    turn has made (new melds, lay-offs: opened in this turn), whether the row still
    begins with the dead first discard, the jokers' histories.  ``closing_turn``
    defaults to the declaration (RUPE-07: a declarer's take must close); the atu's
    take passes True (ATU-06)."""
    if not isinstance(state, GameState):
        raise TypeError(f"state must be a GameState, not {type(state).__name__}")
    if closing_turn is not None and type(closing_turn) is not bool:
        raise TypeError(f"closing_turn must be a bool or None, not {type(closing_turn).__name__}")
    return context_of_state(state, closing_turn)
