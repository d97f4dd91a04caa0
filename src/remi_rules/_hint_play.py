"""The hint's play-out (ONLINE-06): a candidate turn on a copy of the position, and
the steps every candidate ends with.

:class:`Player` (on top of :class:`~remi_rules._hint_bound.Bounds`) samples the
position the candidates are played out on, puts the solver's melds down, lays tiles
off, and ends the turn with a close or the discard the
:class:`~remi_rules._hint_score.Keeper` ranks first; each step goes through the
engine's own :func:`~remi_rules.engine.transition.apply_step` (:class:`Sim`), so only
legal turns survive.  :mod:`remi_rules._hint_search` builds the candidates on top of
it.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import MutableSequence, Sequence
from typing import Any, Final

import attrs

from . import _partition as partition
from ._hint_bound import Bounds
from ._hint_explain import Note, NoteCode, few_tiles_note, meld_text
from ._hint_score import Keeper, values_of
from .engine import (
    AnnounceFewTiles,
    Close,
    Discard,
    GameState,
    LayOff,
    MeldTiles,
    Phase,
    PlayerView,
    Step,
)
from .engine.transition import NoChance, apply_step
from .errors import IllegalStepError, LayoffErrorCode
from .lipire import End
from .melds import MeldKind
from .table import Table, TableMeld
from .tiles import FULL_SET, JOKER_CODE, JOKER_IDS, Tile, tile_of

__all__ = ["Player", "Scored", "Sim"]

_FIRST_JOKER: Final = JOKER_IDS[0]


@attrs.define
class Sim:
    """A candidate turn being played out on a copy of the position."""

    state: GameState
    steps: list[Step] = attrs.Factory(list)
    notes: list[Note] = attrs.Factory(list)
    points: int = 0
    bound: float | None = None
    """This position's bound (:meth:`Bounds._bound`), when it was worked out before
    the position was (not kept by :meth:`copy`)."""
    final: bool = False
    """A finished turn that ends the search among its candidates (a close of a rack
    too big for its closes to be compared, :meth:`Search._action_candidates`; not
    kept by :meth:`copy`)."""

    def copy(self) -> Sim:
        return Sim(self.state, list(self.steps), list(self.notes), self.points)

    def rack(self, seat: int) -> tuple[int, ...]:
        return self.state.seats[seat].rack

    def closed_by(self, seat: int) -> bool:
        """Whether the round ended with ``seat``'s close (not, say, with the stock
        out after a discard)."""
        end = self.state.end
        return end is not None and end.closer == seat

    def apply(self, step: Step) -> bool:
        """Apply ``step`` if it is legal; keep the points it puts down."""
        return self.try_apply(step) is None

    def try_apply(self, step: Step) -> object | None:
        """:meth:`apply`, returning None when ``step`` applied, else the refusal's code."""
        try:
            new, _ = apply_step(self.state, step, NoChance())
        except IllegalStepError as err:
            return err.code
        if isinstance(step, MeldTiles):
            self.points += new.table.melds[-1].meld.points
        elif isinstance(step, LayOff):
            meld = new.table.melds[step.meld]
            self.points += meld.meld.tile_values[meld.position_of(step.tile)]
        self.state = new
        self.steps.append(step)
        return None


Scored = tuple[float, Sim]

_SHAPE_CODES: Final = frozenset(
    {
        LayoffErrorCode.MELD_FULL,
        LayoffErrorCode.END_CLOSED,
        LayoffErrorCode.BAD_END,
        LayoffErrorCode.NOT_FITTING,
        LayoffErrorCode.JOKER_LIMIT,
        LayoffErrorCode.IS_SWAP,
    }
)
"""Lay-off refusals that depend only on the meld's tiles, the tile's value and the end
(not on the turn, the rack or the jokers' histories)."""


class _InOrder(random.Random):
    """A "random" source that leaves a list as it is: a deal in id order."""

    def shuffle(self, x: MutableSequence[Any]) -> None:
        return None


_IN_ORDER: Final = _InOrder(0)


def _place(tile: Tile) -> tuple[int, int] | None:
    """The rank and colour index ``tile`` acts as, if any (a free joker: None)."""
    acting = tile.acts_as
    if acting is None or acting.rank is None or acting.color is None:
        return None
    return acting.rank, acting.color.index


_PLACE_INDEX: Final = tuple(
    rank * 4 + colour for rank, colour in (_place(tile_of(i)) or (0, 0) for i in range(104))
)
"""``rank * 4 + colour index`` of every physical tile but the jokers, by id."""
_JOKER_ID_SET: Final = frozenset(JOKER_IDS)


def _joker_codes(table: Table, meld: TableMeld) -> tuple[int, ...]:
    """The values of the jokers in ``meld`` (a joker întors is the tile it is fixed as)."""
    return tuple(table.tile(i)._code for i in meld.ids if i >= _FIRST_JOKER)


_BOTH_ENDS: Final = (End.LOW, End.HIGH)
_LOW_END: Final = (End.LOW,)
_HIGH_END: Final = (End.HIGH,)
_SET_END: Final = (End.SET,)


_Ends = dict[tuple[int, int] | None, tuple[End, ...]]


def _lay_ends(meld: TableMeld) -> _Ends:
    """By the place (rank, colour index) a tile acts as (a free joker: None), the ends
    of ``meld`` where laying it off might be allowed: a set's, for its rank; both ends
    of a run for a free joker; else the end the tile continues (an ace below a 2, or
    above a 13).  A place with no end is left out (a tile that fits only a joker's
    place is a swap, not a lay-off); every place listed passes
    :func:`~remi_rules.lipire.might_fit`.  A full meld (a set of four, a run of 13)
    takes nothing: no place at all (the engine refuses it, MELD-03)."""
    info = meld.meld
    if info.is_full:
        return {}
    if info.kind is not MeldKind.SUITA:
        return {None: _SET_END, **{(info.low, c): _SET_END for c in range(4)}}
    assert info.color is not None
    colour = info.color.index
    low = info.low
    high = low + len(meld.ids) - 1
    out: _Ends = {None: _BOTH_ENDS}
    for rank in {low - 1, high + 1, 1}:
        low_end = rank == low - 1
        high_end = rank == high + 1 or (rank == 1 and high == 13)
        if low_end or high_end:
            out[(rank, colour)] = (
                _BOTH_ENDS if low_end and high_end else _LOW_END if low_end else _HIGH_END
            )
    return out


def _lay_targets(meld: TableMeld) -> tuple[_Ends, frozenset[int]]:
    """Where a rack tile might be laid off on ``meld``: :func:`_lay_ends`, and the
    values (codes) of a set's numbered tiles (another copy of one is refused: a set
    repeats no colour, MELD-03)."""
    taken: frozenset[int] = frozenset()
    if meld.meld.kind is MeldKind.TERTA:
        taken = frozenset(FULL_SET[i]._code for i in meld.ids if i < _FIRST_JOKER)
    return _lay_ends(meld), taken


class Player(Bounds):
    """What every candidate of one hint call shares (see the module docstring).

    The sampled position (:attr:`start`) and the discard order (:attr:`keeper`) are
    made when first asked for: a take that ends in a plain draw needs neither."""

    def __init__(self, view: PlayerView) -> None:
        super().__init__(view)
        self.seed = (view.turn * 1_000_003 + view.seat * 7_919 + sum(view.rack)) & 0xFFFFFFFF
        self._shape_refusals: set[tuple[int, tuple[int, ...], tuple[int, ...], End]] = set()
        """Lay-offs refused by the meld's shape alone (:data:`_SHAPE_CODES`)."""
        self._ends_memo: dict[int, tuple[TableMeld, _Ends, frozenset[int]]] = {}

    @functools.cached_property
    def start(self) -> GameState:
        """The position the candidates are played out on: the view with the hidden
        tiles dealt at random (seeded by the view, so a view always gets the same).

        In the action phase, while the round cannot end at this turn's end without a
        close (:meth:`_may_prune`), the deal is in id order: the turn's steps then look
        at the other racks and the stock only through their sizes, so any deal gives
        the same plan.  A take phase samples the tiles a draw may bring; and where the
        round may end after the discard (the stock out: END-01 asks whether the next
        seat can take), the hidden tiles count."""
        view = self.view
        if view.phase is Phase.ACTION and self._may_prune(view):
            return view.sample_state(_IN_ORDER)
        return view.sample_state(random.Random(self.seed))

    @functools.cached_property
    def hidden(self) -> frozenset[int]:
        """The ids the seat cannot see: the stock and the other racks of the sampled
        position (at its own turn a seat locates no tile of another rack, so these are
        the view's hidden ids, however dealt)."""
        start = self.start
        others = (seat.rack for s, seat in enumerate(start.seats) if s != self.seat)
        return frozenset((*start.stock, *(i for rack in others for i in rack)))

    @functools.cached_property
    def keeper(self) -> Keeper:
        """The discard order, knowing which tiles the seat cannot see."""
        hidden = self.hidden
        counts = Counter(map(_PLACE_INDEX.__getitem__, hidden - _JOKER_ID_SET))
        unseen_at = [[counts[rank * 4 + colour] for colour in range(4)] for rank in range(14)]
        table = self.view.table
        for i in _JOKER_ID_SET & hidden:
            place = _place(table.tile(i))
            if place is not None:
                unseen_at[place[0]][place[1]] += 1
        return Keeper(self.costs, unseen_at)

    def _put_down(
        self, sim: Sim, melds: Sequence[partition.Candidate], avoid: Sequence[int] = ()
    ) -> bool:
        """Meld the solver's melds with physical tiles of the rack."""
        ordered = sorted(melds, key=lambda c: c.key)
        return self._meld_all(sim, [(c.tiles, c.points) for c in ordered], avoid)

    def _meld_all(
        self, sim: Sim, melds: Sequence[tuple[Sequence[Tile], int]], avoid: Sequence[int] = ()
    ) -> bool:
        """Meld each of ``melds`` (its tiles in table order, its points) in turn, with
        physical tiles of the rack (the first ids held of each value)."""
        by_value: dict[Tile, list[int]] = {}
        table = sim.state.table
        rack = sim.rack(self.seat)
        for i, value in zip(rack, values_of(table, rack), strict=True):
            if i not in avoid:
                by_value.setdefault(value, []).append(i)
        for tiles, points in melds:
            ids: list[int] = []
            for tile in tiles:
                pool = by_value.get(tile)
                if not pool:
                    return False
                ids.append(pool.pop(0))
            if not sim.apply(MeldTiles(tuple(ids))):
                return False
            sim.notes.append(
                Note(
                    NoteCode.MELD,
                    {"meld": meld_text(sim.state.table.melds[-1]), "points": points},
                )
            )
        return True

    def _layoffs(
        self, sim: Sim, *, keep: int, avoid: Sequence[int] = (), own_new_only: bool = False
    ) -> None:
        """Lay off rack tiles wherever they fit, the costliest first, while more than
        ``keep`` tiles stay (jokers are kept for melds unless they close the turn).

        After each lay-off the tiles are tried again from the costliest: the meld that
        grew may take one that did not fit before.  A refusal stands while its meld is
        unchanged (the rack only shrinks), so it is not asked again in this call; a
        refusal by the meld's shape alone is not asked again in this hint."""
        table = sim.state.table
        costs = self.costs
        order = sorted(
            (i for i in sim.rack(self.seat) if i not in avoid),
            key=lambda i: (-costs(table.tile(i)), i),
        )
        refused: set[tuple[int, int, End, int]] = set()
        shape = self._shape_refusals
        values = {i: table.tile(i) for i in order}
        places = {i: _place(tile) for i, tile in values.items()}
        turn = sim.state.pending
        assert turn is not None
        # The melds to lay off on, in table order (a lay-off changes only its own).
        melds = table.melds
        targets = [
            (index, melds[index], *self._ends_of(melds[index]))
            for index in (turn.new_melds if own_new_only else range(len(melds)))
        ]
        while True:
            rack = sim.rack(self.seat)
            if len(rack) <= keep:
                return
            table = sim.state.table
            laid = False
            for tile_id in order:
                if tile_id not in rack:
                    continue
                tile = values[tile_id] if tile_id < _FIRST_JOKER else table.tile(tile_id)
                code = tile._code
                if code == JOKER_CODE and len(rack) - 1 > keep:
                    continue
                place = places[tile_id]
                for at, (index, meld, ends_of, taken) in enumerate(targets):
                    ends = ends_of.get(place)
                    if not ends or code in taken:
                        continue
                    size = len(meld.ids)
                    form = (code, meld.ids, _joker_codes(table, meld))
                    for end in ends:
                        if (tile_id, index, end, size) in refused or (*form, end) in shape:
                            continue
                        refusal = sim.try_apply(LayOff(tile_id, index, end))
                        if refusal is None:
                            sim.notes.append(
                                Note(
                                    NoteCode.LAY_OFF,
                                    {"tile": str(tile), "meld": meld_text(meld)},
                                )
                            )
                            grown = sim.state.table.melds[index]
                            targets[at] = (index, grown, *self._ends_of(grown))
                            laid = True
                            break
                        refused.add((tile_id, index, end, size))
                        if refusal in _SHAPE_CODES:
                            shape.add((*form, end))
                    if laid:
                        break
                if laid:
                    break
            if not laid:
                return

    def _ends_of(self, meld: TableMeld) -> tuple[_Ends, frozenset[int]]:
        """:func:`_lay_targets` of ``meld``, worked out once per table meld in this
        hint call."""
        found = self._ends_memo.get(id(meld))
        if found is None or found[0] is not meld:
            found = (meld, *_lay_targets(meld))
            self._ends_memo[id(meld)] = found
        return found[1], found[2]

    def _end(self, sim: Sim) -> Sim | None:
        """Close with the last tile, or discard the tile least worth keeping."""
        rack = sim.rack(self.seat)
        if len(rack) == 1:
            closed = sim.copy()
            if closed.apply(Close(rack[0])):
                self._note_close(closed, rack[0], sim.state)
                return closed
        return self._discard(sim)

    def _note_close(self, sim: Sim, tile_id: int, before: GameState) -> None:
        mine = self.costs.result(sim.state).seats[self.seat]
        doubled = mine.multiplier > 1
        sim.notes.append(
            Note(
                NoteCode.CLOSE,
                {
                    "tile": str(before.table.tile(tile_id)),
                    "effect": f" (×{mine.multiplier})" if doubled else "",
                    "score": mine.total,
                },
            )
        )

    def _discard(self, sim: Sim, *, first_turn: bool = False) -> Sim | None:
        state = sim.state
        table = state.table
        rack = sim.rack(self.seat)
        tiles = values_of(table, rack)
        for k, alone in self.keeper.order(rack, tiles):
            done = sim.copy()
            if first_turn:
                done.notes.append(Note(NoteCode.FIRST_TURN))
            if not done.apply(Discard(rack[k])):
                continue
            if done.state.end is not None:  # a discard of the last tile closes
                self._note_close(done, rack[k], state)
                return done
            why = "alone" if alone else "least"  # the entries why:alone, why:least
            done.notes.append(Note(NoteCode.DISCARD, {"tile": str(tiles[k]), "why": why}))
            if any(t.is_joker for t in tiles) and not state.seats[self.seat].opened:
                done.notes.append(Note(NoteCode.KEEP_JOKER))
            self._announce_few(done)
            return done
        return None

    def _announce_few(self, sim: Sim) -> None:
        """ANNOUNCE-01/02: after the discard, announce few tiles where the rules do
        not do it automatically."""
        rules = self.rules
        if rules.announce_automatic or sim.state.announce_window != self.seat:
            return
        if not self.start.stock:
            # With the stock out, whether the round goes on after this discard depends
            # on tiles the seat cannot see (END-01): the announcement is not part of
            # the plan (a bot makes it when the window opens).
            return
        if sim.apply(AnnounceFewTiles(self.seat)):
            sim.notes.append(few_tiles_note(len(sim.rack(self.seat)), rules.no_announce_penalty))

    @staticmethod
    def _counts(state: GameState, ids: Sequence[int]) -> list[int]:
        return partition.counts_of(values_of(state.table, ids))
