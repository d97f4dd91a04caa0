"""What one seat may see: :class:`PlayerView` (DESIGN.md: per-player views).

A view holds the seat's own rack and everything public (the table, the row, the face-up
atu, rack sizes, the stock as a count, announcements, the public part of the pending
turn), and nothing that depends on hidden tiles: two states that differ only in other
racks or the stock order give equal views.  :meth:`PlayerView.unseen` counts the tile
values the seat cannot see; :meth:`PlayerView.sample_state` deals them at random into a
full :class:`~remi_rules.engine.state.GameState` consistent with the view, for bots
that search.
"""

from __future__ import annotations

import random
from collections import Counter

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
    ints,
    items,
)
from .._slots import maker
from ..errors import EngineArgumentError, EngineErrorCode
from ..ruleset import Ruleset
from ..rupere import TakeObligation
from ..table import Table
from ..tiles import Tile
from ._undo import NO_UNDO
from .deal import double_class
from .state import (
    OFFERS,
    DoublesOffer,
    GameState,
    Phase,
    RoundEnd,
    SeatState,
    TurnState,
    UndoInfo,
)
from .steps import Step, TakeKind

__all__ = ["PlayerView", "PublicSeat", "PublicTurn"]


@attrs.frozen(weakref_slot=False)  # layout twin: see remi_rules._slots
class PublicSeat:
    """What everybody knows about a seat."""

    rack_size: int = attrs.field(metadata=ints(0, 106))
    opened: bool
    turns: int = attrs.field(metadata=COUNT)
    has_taken: bool
    announced_few: bool
    missed_announcement: bool
    announced_atu: bool
    declared_pe_tabla: bool


@attrs.frozen(weakref_slot=False)  # layout twin: see remi_rules._slots
class PublicTurn:
    """The public part of the pending turn: what was taken from the row or the atu
    (face up, so public), what was put on the table; not the rack."""

    seat: int = attrs.field(metadata=SEAT)
    number: int = attrs.field(metadata=TURN)
    opened_before: bool
    took: TakeKind | None
    taken: tuple[int, ...] = attrs.field(metadata=TILES)
    """Tiles taken face up (from the row, or the atu), the one to meld first; empty for a draw."""
    new_melds: tuple[int, ...] = attrs.field(metadata=MELD_INDEXES)
    laid_off: tuple[int, ...] = attrs.field(metadata=TURN_TILES)
    swapped_jokers: tuple[int, ...] = attrs.field(metadata=SWAPPED_JOKERS)
    placed: tuple[int, ...] = attrs.field(metadata=TURN_TILES)
    steps: int = attrs.field(metadata=COUNT)


_make_seat = maker(PublicSeat)
_make_turn = maker(PublicTurn)


def _public_seats_of(seats: tuple[SeatState, ...]) -> tuple[PublicSeat, ...]:
    return tuple(
        _make_seat(
            len(seat.rack),
            seat.opened,
            seat.turns,
            seat.has_taken,
            seat.announced_few,
            seat.missed_announcement,
            seat.announced_atu,
            seat.declared_pe_tabla,
        )
        for seat in seats
    )


def _public_turn(turn: TurnState) -> PublicTurn:
    ob = turn.obligation
    taken = (ob.picked, *ob.also_taken) if ob is not None else ()
    return _make_turn(
        turn.seat,
        turn.number,
        turn.opened_before,
        turn.took,
        taken,
        turn.new_melds,
        turn.laid_off,
        turn.swapped_jokers,
        turn.placed,
        turn.steps,
    )


@attrs.frozen(weakref_slot=False)  # layout twin: see remi_rules._slots
class PlayerView:
    """The round as seat ``seat`` sees it."""

    seat: int = attrs.field(metadata=SEAT)
    rules: Ruleset
    players: int = attrs.field(metadata=PLAYERS)
    dealer: int = attrs.field(metadata=SEAT)
    starter: int = attrs.field(metadata=SEAT)
    phase: Phase
    current: int = attrs.field(metadata=SEAT)
    turn: int = attrs.field(metadata=TURN)
    rack: tuple[int, ...] = attrs.field(metadata=PLACE)
    seats: tuple[PublicSeat, ...] = attrs.field(metadata=items(most=4, least=2))
    stock_count: int = attrs.field(metadata=ints(0, 106))
    row: tuple[int, ...] = attrs.field(metadata=PLACE)
    row_dead_first: bool
    atu: int = attrs.field(metadata=TILE_ID)
    atu_face_up: bool
    table: Table
    pending: PublicTurn | None
    own_turn: TurnState | None
    """The full pending turn when it is this seat's own (its rack is his to know)."""
    announce_window: int | None = attrs.field(metadata=SEAT)
    preplay: bool
    own_exchanged: tuple[int, ...] = attrs.field(metadata=DOUBLES)
    """Values (``id // 2``) this seat gave or received in a doubles exchange."""
    end: RoundEnd | None
    offers: tuple[DoublesOffer, ...] = attrs.field(default=(), metadata=OFFERS)
    """The open offers of doubles (DUBLE-03): each seat's and the double's class, and
    the tile only in this seat's own offer."""
    undo: UndoInfo = NO_UNDO
    """What :class:`~remi_rules.engine.steps.Undo` may still do in the pending turn
    (public: the table sees every step and undo), so that :meth:`legal_steps` lists
    ``Undo`` as the game does; nothing to undo in a view made from a bare state."""

    @classmethod
    def of(cls, state: GameState, seat: int, undo: UndoInfo = NO_UNDO) -> PlayerView:
        """What ``seat`` may see of ``state``, with what ``undo`` may still do (a
        :class:`~remi_rules.engine.Game` passes its own: :meth:`Game.view
        <remi_rules.engine.Game.view>`); a seat not at the table raises
        :class:`~remi_rules.errors.EngineArgumentError` (``engine_bad_seat``)."""
        if not isinstance(state, GameState):
            raise TypeError(f"state must be a GameState, not {type(state).__name__}")
        if type(seat) is not int:
            raise TypeError(f"seat must be an int, not {type(seat).__name__}")
        if not 0 <= seat < state.players:
            raise EngineArgumentError(EngineErrorCode.BAD_SEAT, seat=seat, players=state.players)
        if not isinstance(undo, UndoInfo):
            raise TypeError(f"undo must be an UndoInfo, not {type(undo).__name__}")
        mine = state.seats[seat]
        turn = state.pending
        exchanged = state.exchanged
        if exchanged:
            own_values = {i // 2 for i in mine.rack}
            exchanged = tuple(v for v in exchanged if v in own_values)
        make = _make_view if cls is PlayerView else cls
        return make(
            seat,
            state.rules,
            state.players,
            state.dealer,
            state.starter,
            state.phase,
            state.current,
            state.turn,
            mine.rack,
            _public_seats_of(state.seats),
            len(state.stock),
            state.row,
            state.row_dead_first,
            state.atu,
            state.atu_face_up,
            state.table,
            _public_turn(turn) if turn is not None else None,
            turn if turn is not None and turn.seat == seat else None,
            state.announce_window,
            state.preplay,
            exchanged,
            state.end,
            tuple(o if o.seat == seat else _hidden_offer(o) for o in state.offers),
            undo,
        )

    def legal_steps(self, *, finishable: bool = False) -> tuple[Step, ...]:
        """This seat's legal steps now, computed from the view alone: the same list as
        :meth:`Game.legal_steps(seat) <remi_rules.engine.Game.legal_steps>` (its
        in-turn steps when it is to move, ``Undo`` where :attr:`undo` allows it, its
        announcements and declarations; with ``finishable``, only the finishable
        ones).  A doubles exchange needs the other player's rack and is left to the
        frontend."""
        from ._undo import steps_with_undo

        if type(finishable) is not bool:
            raise TypeError(f"finishable must be a bool, not {type(finishable).__name__}")
        state = self.sample_state(random.Random(0))
        return steps_with_undo(state, self.undo, seat=self.seat, finishable=finishable)

    # -- what the seat cannot see ----------------------------------------------------------

    def visible_ids(self) -> frozenset[int]:
        """Every physical tile whose place this seat can see."""
        ids = set(self.rack) | set(self.row) | set(self.table.ids())
        if self.atu_face_up:
            ids.add(self.atu)
        for known in self._known_by_seat().values():
            ids |= known
        return frozenset(ids)

    def _known_by_seat(self) -> dict[int, set[int]]:
        """Tiles of other racks this seat can locate: those the player to move took
        face up this turn and still holds, and a closing tile the closer kept (CLOSE-02,
        named by the round's end)."""
        out: dict[int, set[int]] = {}
        if self.pending is not None and self.pending.seat != self.seat:
            out[self.pending.seat] = self._known_in_other_rack()
        end = self.end
        if end is not None and end.closer is not None and end.closer != self.seat:
            tile = end.closing_tile
            if tile is not None and tile not in self.row and not self.table.holds(tile):
                out.setdefault(end.closer, set()).add(tile)
        return out

    def _known_in_other_rack(self) -> set[int]:
        """Tiles the player to move took face up this turn and still holds."""
        turn = self.pending
        assert turn is not None
        on_table = self.table.ids()
        return {i for i in (*turn.taken, *turn.swapped_jokers) if i not in on_table}

    def hidden_ids(self) -> tuple[int, ...]:
        """The physical ids this seat cannot locate (other racks and the stock)."""
        seen = self.visible_ids()
        return tuple(i for i in range(106) if i not in seen)

    def unseen(self) -> Counter[Tile]:
        """How many of each tile value this seat cannot see (in other racks or the
        stock); a joker întors counts as its fixed identity (it is public)."""
        return Counter(self.table.tile(i) for i in self.hidden_ids())

    def sample_state(self, rng: random.Random) -> GameState:
        """A full state consistent with this view: the hidden tiles dealt at random
        into the other racks (their sizes kept) and the stock."""
        if not isinstance(rng, random.Random):
            raise TypeError(f"rng must be a random.Random, not {type(rng).__name__}")
        hidden = list(self.hidden_ids())
        rng.shuffle(hidden)
        known = self._known_by_seat()
        offers, hidden = self._sampled_offers(hidden, known, rng)
        seats: list[SeatState] = []
        at = 0
        for s, pub in enumerate(self.seats):
            if s == self.seat:
                rack = self.rack
            else:
                fixed = tuple(sorted(known.get(s, ())))
                size = pub.rack_size - len(fixed)
                rack = (*hidden[at : at + size], *fixed)
                at += size
            public = attrs.asdict(pub, recurse=False)
            del public["rack_size"]
            seats.append(SeatState(rack=rack, **public))
        stock = tuple(hidden[at:])
        pending: TurnState | None = None
        if self.own_turn is not None:
            pending = self.own_turn
        elif self.pending is not None:
            pending = self._sampled_turn(seats[self.pending.seat].rack)
        return GameState(
            rules=self.rules,
            players=self.players,
            dealer=self.dealer,
            starter=self.starter,
            phase=self.phase,
            current=self.current,
            turn=self.turn,
            seats=tuple(seats),
            stock=stock,
            row=self.row,
            row_dead_first=self.row_dead_first,
            atu=self.atu,
            atu_face_up=self.atu_face_up,
            table=self.table,
            pending=pending,
            announce_window=self.announce_window,
            preplay=self.preplay,
            exchanged=self.own_exchanged,
            end=self.end,
            offers=offers,
        )

    def _sampled_offers(
        self, hidden: list[int], known: dict[int, set[int]], rng: random.Random
    ) -> tuple[tuple[DoublesOffer, ...], list[int]]:
        """The open offers with a tile each, for :meth:`sample_state`: another seat's
        offer gets a double of its class drawn from the hidden tiles, both copies
        added to what that seat is known to hold (``known``, updated); the hidden
        tiles left.  (The state the view comes from has one, so there is one.)"""
        offers: list[DoublesOffer] = []
        free = set(hidden)
        for offer in self.offers:
            if offer.tile is not None:
                offers.append(offer)
                continue
            values = [
                v
                for v in range(52)
                if 2 * v in free
                and 2 * v + 1 in free
                and double_class(2 * v, self.rules) == offer.double_class
            ]
            if not values:
                continue
            v = rng.choice(values)
            free -= {2 * v, 2 * v + 1}
            known.setdefault(offer.seat, set()).update((2 * v, 2 * v + 1))
            offers.append(attrs.evolve(offer, tile=2 * v))
        return tuple(offers), [i for i in hidden if i in free]

    def _sampled_turn(self, rack: tuple[int, ...]) -> TurnState:
        """Another seat's pending turn rebuilt around its sampled rack: the rack before
        the take is the rack now, less what was taken and swapped in, plus what was
        put on the table."""
        turn = self.pending
        assert turn is not None
        acquired = set(turn.taken) | set(turn.swapped_jokers)
        before_take = (*(i for i in rack if i not in acquired), *turn.placed)
        before_take = tuple(i for i in before_take if i not in set(turn.taken))
        obligation = None
        if turn.taken:
            from ..rupere import TakeSource

            source = (
                TakeSource.ATU
                if turn.took is TakeKind.ATU
                else TakeSource.LAST_DISCARD
                if turn.took is TakeKind.LAST_DISCARD
                else TakeSource.OLDER
            )
            obligation = TakeObligation(source, turn.taken[0], before_take, turn.taken[1:])
        drawn = 1 if turn.took is TakeKind.DRAW else 0
        at_start = before_take[: len(before_take) - drawn] if drawn else before_take
        return TurnState(
            seat=turn.seat,
            number=turn.number,
            rack_at_start=at_start,
            opened_before=turn.opened_before,
            took=turn.took,
            obligation=obligation,
            new_melds=turn.new_melds,
            laid_off=turn.laid_off,
            swapped_jokers=turn.swapped_jokers,
            placed=turn.placed,
            steps=turn.steps,
        )


def _hidden_offer(offer: DoublesOffer) -> DoublesOffer:
    return attrs.evolve(offer, tile=None)


_make_view = maker(PlayerView)
