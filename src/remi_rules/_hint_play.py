"""The hint's play-out (ONLINE-06): the solver adapter, a candidate turn on a copy of
the position, and the steps every candidate ends with.

* :func:`search` is the one place the hint asks the solver anything;
* :class:`Player` puts the solver's melds down, lays tiles off, ends the turn with a
  close or the discard the :class:`~remi_rules._hint_score.Keeper` ranks first, and
  bounds what a candidate can still reach; its memos (solver answers, lay-off worths,
  lay-off refusals) live as long as one hint call.

:mod:`remi_rules._hint_search` builds the candidates on top of it.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Callable, Mapping, MutableSequence, Sequence
from typing import Any, Final

import attrs

from . import _partition as partition
from ._hint_explain import Note, NoteCode, few_tiles_note, meld_text
from ._hint_score import (
    OPENING_BONUS,
    RACK_WEIGHT,
    Costs,
    Held,
    Keeper,
    Pool,
    extensions,
    most_worth,
    never_placed,
    values_of,
)
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
from .melds import JokerSlot, Meld, MeldKind
from .ruleset import Ruleset
from .solver import opening_split
from .table import Table, TableMeld
from .tiles import JOKER_IDS, Tile, tile_of

__all__ = ["INF", "NEVER", "Floor", "Player", "Scored", "Sim", "Split", "search"]

_FIRST_JOKER: Final = JOKER_IDS[0]
INF: Final = float("inf")
_JOKER: Final = partition.tile_of_field(partition.FREE_JOKER)

Split = tuple[int, tuple[partition.Candidate, ...]]
"""The solver's answer: ``(value, melds)``."""


def search(
    counts: Sequence[int],
    rules: Ruleset,
    *,
    tiles: bool = False,
    min_leftover: int = 0,
    layable: Mapping[int, int] | None = None,
    opening: Sequence[Meld] | None = None,
) -> Split | None:
    """Every question the hint asks the solver, in one place.

    The best split of the hand ``counts`` (the solver's 105 fields): most points
    (``points * 64 + tiles``), or with ``tiles`` most tiles placed; at least
    ``min_leftover`` tiles kept.  ``layable`` maps a field to the etalare worth of
    laying it off (a tile placed on its own for ``worth * 64 + 1``, or for 1 with
    ``tiles``).  ``opening`` (the melds already down this turn, possibly none) asks
    for the best first etalare instead (:func:`~remi_rules.solver.opening_split`).
    None when no split meets the constraints."""
    if opening is not None:
        return opening_split(list(counts), rules, min_leftover=min_leftover, melded=opening)
    extra = None
    if layable:
        fits = layable
        extra = (
            (lambda f: 1 if f in fits else 0)
            if tiles
            else (lambda f: fits.get(f, 0) * 64 + 1 if f in fits else 0)
        )
    constraints = partition.Constraints(min_leftover=min_leftover)
    return partition.solve(
        counts, rules, tiles_objective=tiles, constraints=constraints, extra=extra
    )


@attrs.define
class Sim:
    """A candidate turn being played out on a copy of the position."""

    state: GameState
    steps: list[Step] = attrs.Factory(list)
    notes: list[Note] = attrs.Factory(list)
    points: int = 0
    bound: float | None = None
    """This position's bound (:meth:`Player._bound`), when it was worked out before
    the position was (not kept by :meth:`copy`)."""

    def copy(self) -> Sim:
        return Sim(self.state, list(self.steps), list(self.notes), self.points)

    def rack(self, seat: int) -> tuple[int, ...]:
        return self.state.seats[seat].rack

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


class Floor:
    """What :meth:`Planner._best` may leave out while it goes through candidates: a
    candidate whose bound cannot beat the best so far, or that ``outer`` (the
    caller's test) says cannot matter."""

    def __init__(self, outer: Callable[[float], bool] | None = None) -> None:
        self.best: Scored | None = None
        self.outer = outer

    def active(self) -> bool:
        """Whether some bound could be left out now."""
        return self.best is not None or (self.outer is not None and self.outer(-INF))

    def __call__(self, bound: float) -> bool:
        best = self.best
        return (best is not None and bound <= best[0]) or (
            self.outer is not None and self.outer(bound)
        )


NEVER: Final = Floor()
"""Outside :meth:`Planner._best`: nothing is left out."""


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


def _ends(tile: Tile, meld: TableMeld) -> tuple[End, ...]:
    """The ends of ``meld`` where laying ``tile`` off might be allowed: a set's; both
    ends of a run for a free joker; else the end the tile continues (an ace below a
    2, or above a 13), none where the tile fits only a joker's place (a swap)."""
    info = meld.meld
    if info.kind is not MeldKind.SUITA:
        return _SET_END
    acts = tile.acts_as
    if acts is None or acts.rank is None:
        return _BOTH_ENDS
    rank = acts.rank
    high = info.low + len(meld.ids) - 1
    low_end = rank == info.low - 1
    high_end = rank == high + 1 or (rank == 1 and high == 13)
    if low_end and high_end:
        return _BOTH_ENDS
    return _LOW_END if low_end else _HIGH_END if high_end else ()


def _fits(melds: Sequence[tuple[Meld, int]], held: Held, bound: bool) -> dict[int, int]:
    """The lay-off worth of each rack value (by field) on ``melds`` (each with its
    size), :func:`~remi_rules._hint_score.extensions` (with ``bound``, every value
    standing for the same tile too)."""
    fits: dict[int, int] = {}
    for info, size in melds:
        for tile, worth in extensions(info, size, held):
            alike = [t for t in held.tiles if t.acts_as == tile.acts_as] if bound else [tile]
            for same in alike:
                field = partition.field_of(same)
                fits[field] = max(fits.get(field, 0), worth)
    return fits


def _laid_alone(
    values: Sequence[Tile], layable: Mapping[int, int] | None, *, tiles: bool = False
) -> int:
    """:func:`search`'s value for a hand none of whose tiles can go into a meld: each
    tile that may be laid off (``layable``) placed on its own."""
    if not layable:
        return 0
    fields = [partition.field_of(t) for t in values]
    if tiles:
        return sum(f in layable for f in fields)
    return sum(layable[f] * 64 + 1 for f in fields if f in layable)


class Player:
    """What every candidate of one hint call shares: the seat, the ruleset, the
    sampled position, the discard order and the memos (dropped with the call).

    The sampled position (:attr:`start`) and the discard order (:attr:`keeper`) are
    made when first asked for: a take that ends in a plain draw needs neither."""

    def __init__(self, view: PlayerView) -> None:
        self.view = view
        self.rules = view.rules
        self.seat = view.seat
        self.opened_before = view.seats[view.seat].opened
        self.costs = Costs(view.rules)
        self.seed = (view.turn * 1_000_003 + view.seat * 7_919 + sum(view.rack)) & 0xFFFFFFFF
        self._shape_refusals: set[tuple[int, tuple[int, ...], tuple[int, ...], End]] = set()
        """Lay-offs refused by the meld's shape alone (:data:`_SHAPE_CODES`)."""
        self._search_memo: dict[object, Split | None] = {}
        self._layable_memo: dict[object, Mapping[int, int] | None] = {}
        self._skip: Floor = NEVER
        self._slot_memo: dict[int, tuple[Meld, tuple[JokerSlot, ...]]] = {}

    def slots(self, meld: TableMeld) -> tuple[JokerSlot, ...]:
        """``meld.meld.jokers``, worked out once per meld in this hint call."""
        info = meld.meld
        found = self._slot_memo.get(id(info))
        if found is None or found[0] is not info:
            found = (info, info.jokers)
            self._slot_memo[id(info)] = found
        return found[1]

    def might_fit(self, tile: Tile, meld: TableMeld) -> bool:
        """:func:`remi_rules.lipire.might_fit` (a cheap necessary condition for laying
        ``tile`` on ``meld`` or swapping it for one of its jokers), with the meld's
        joker slots from :meth:`slots`."""
        if tile.is_joker and not tile.is_fixed_joker:
            return True
        acts = tile.acts_as
        assert acts is not None
        info = meld.meld
        if info.kind is MeldKind.TERTA:
            return acts.rank == info.low
        if acts.color is not info.color:
            return False
        high = info.low + len(meld.ids) - 1
        return acts.rank in (info.low - 1, high + 1, 1) or any(
            s.tile == acts for s in self.slots(meld)
        )

    @functools.cached_property
    def start(self) -> GameState:
        """The position the candidates are played out on: the view with the hidden
        tiles dealt at random (seeded by the view, so a view always gets the same).

        In the action phase the deal is in id order: the turn's steps look at the
        other racks and the stock only through their sizes (and a round that ends
        without a close is scored rack by rack), so any deal gives the same plan; only
        a take phase samples the tiles a draw may bring."""
        if self.view.phase is Phase.ACTION:
            return self.view.sample_state(_IN_ORDER)
        return self.view.sample_state(random.Random(self.seed))

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

    def _may_prune(self, at: GameState | PlayerView) -> bool:
        """Whether takes may be skipped by their bound at position ``at`` (a state, or
        the view, which tells the same): not when the round may end at this turn's end
        without a close (the stock is out, or the turn limit is reached: such an end is
        valued by the round's score), nor for a pe-tablă declarer (who only closes)."""
        limit = self.rules.max_turns_per_round
        seat = at.seats[self.seat]
        stock = at.stock_count if isinstance(at, PlayerView) else len(at.stock)
        return (
            stock > 0
            and (limit is None or at.turn < limit)
            and not (seat.declared_pe_tabla and self.rules.pe_tabla_enabled)
        )

    def _bound(
        self,
        state: GameState,
        rack: Sequence[int],
        points: int,
        *,
        swaps: bool = False,
        skip: Callable[[float], bool] | None = None,
        cheap: bool = False,
        extra: Meld | None = None,
    ) -> float:
        """:meth:`_bound_of`'s value."""
        return self._bound_of(
            state, rack, points, swaps=swaps, skip=skip, cheap=cheap, extra=extra
        )[0]

    def _bound_of(
        self,
        state: GameState,
        rack: Sequence[int],
        points: int,
        *,
        swaps: bool = False,
        skip: Callable[[float], bool] | None = None,
        cheap: bool = False,
        extra: Meld | None = None,
    ) -> tuple[float, bool]:
        """At least the valuation of any turn that goes on from ``sim`` (when
        :meth:`_may_prune` holds for its position) from ``state`` with ``rack`` (the
        seat's) and ``points`` put down so far: infinite if the turn might close;
        else the points put down so far, plus the most etalare points the rack (with,
        under ``swaps``, every joker a swap may bring in) can put down, lay-offs counted
        at their highest worth, plus the opening's bonus, less a quarter of what the
        tiles that can never be placed cost (all but the costliest, which may be
        discarded).

        With ``skip`` (a test that holds for every value below one it holds for), the
        answer may be any value for which ``skip`` gives the same verdict as for the
        bound: a cheaper bound comes first (each placeable tile at the most it is worth
        anywhere), and whether the turn might close (the solver's most tiles, the
        dearest question on a large rack) is asked only where it would turn a skip
        into no skip.  With ``cheap``, the cheaper bound is the answer, infinite where
        the tiles alone do not rule a close out (no solver asked).  ``extra``: a meld
        about to be put down (not yet on ``state``'s table, its points counted in
        ``points``, its tiles gone from ``rack``), which tiles may be laid off on.

        Returns the value and whether it is the bound itself (not only a value with
        the bound's verdict under ``skip``)."""
        table = state.table
        values = values_of(table, rack)
        swappable: set[Tile] = set()
        gained = 0
        if swaps:
            for meld in table.melds:
                for slot in self.slots(meld):
                    fitting = [v for v in values if not v.is_joker and v in slot.candidates]
                    swappable.update(fitting)
                    gained += bool(fitting)
        layable = self._layable_bound(state, rack)
        if extra is not None:
            more = _fits([(extra, len(extra.tiles))], Held(values), True)
            if more:
                merged = {**more, partition.FREE_JOKER: 25}
                for field, worth in (layable or {}).items():
                    merged[field] = max(merged.get(field, 0), worth)
                layable = merged
        placed = {partition.tile_of_field(f) for f in layable or ()} | swappable
        ace_high = self.rules.ace_high_run
        melds = Pool(ace_high, [*values, *[_JOKER] * gained])
        stay = never_placed(values, melds, placed, ace_high)
        # Where no meld is possible, the solver would only lay tiles off one by one.
        alone = not any(t.is_joker or melds.holds(t) for t in values)
        counts = partition.counts_of(values)
        counts[partition.FREE_JOKER] += gained

        def might_close() -> bool:
            """Whether all the rack but one tile might be placed (a close)."""
            if len(stay) >= 2:
                return False
            if alone:
                return _laid_alone(values, layable, tiles=True) >= len(rack) - 1
            most_tiles = self._search(counts, tiles=True, layable=layable)
            return most_tiles is None or most_tiles[0] >= len(rack) - 1

        costs = sorted(map(self.costs, stay))
        kept = RACK_WEIGHT * sum(costs[:-1])
        worth = sum(map(most_worth, values)) - sum(map(most_worth, stay))
        rough = self._valued(points + worth + 25 * gained, kept)
        if cheap:
            return (INF if len(stay) < 2 else rough), True
        if skip is None:
            if might_close():
                return INF, True
        elif skip(rough):
            # The solver's bound is no larger: skipped too, unless the turn may close.
            return (INF if might_close() else rough), True
        if alone:
            most = _laid_alone(values, layable)
        else:
            found = self._search(counts, layable=layable)
            assert found is not None
            most = found[0]
        bound = self._valued(points + most // 64, kept)
        if skip is None or len(stay) >= 2:
            return bound, True
        if not skip(bound):
            return bound, False  # not skipped: nor is the infinite bound of a close
        return (INF if might_close() else bound), True

    def _valued(self, points: int, kept: float) -> float:
        """The valuation of a turn that puts ``points`` down and keeps tiles costing
        ``kept`` (weighted) at least, at best (opened or not, for an unopened seat)."""
        rest = points - kept
        if self.opened_before:
            return rest
        return max(rest + OPENING_BONUS, float(points))

    def _layable_bound(self, state: GameState, rack: Sequence[int]) -> Mapping[int, int] | None:
        """:meth:`_layable` with ``bound``, and a free joker layable at the best worth
        (a joker is laid off last, wherever it goes)."""
        fits = self._layable(state, rack, bound=True)
        if fits is None:
            return None
        return {**fits, partition.FREE_JOKER: 25}

    def _put_down(
        self, sim: Sim, melds: Sequence[partition.Candidate], avoid: Sequence[int] = ()
    ) -> bool:
        """Meld the solver's melds with physical tiles of the rack."""
        by_value: dict[Tile, list[int]] = {}
        table = sim.state.table
        rack = sim.rack(self.seat)
        for i, value in zip(rack, values_of(table, rack), strict=True):
            if i not in avoid:
                by_value.setdefault(value, []).append(i)
        for cand in sorted(melds, key=lambda c: c.key):
            ids: list[int] = []
            for tile in cand.tiles:
                pool = by_value.get(tile)
                if not pool:
                    return False
                ids.append(pool.pop(0))
            if not sim.apply(MeldTiles(tuple(ids))):
                return False
            sim.notes.append(
                Note(
                    NoteCode.MELD,
                    {"meld": meld_text(sim.state.table.melds[-1]), "points": cand.points},
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
        order = sorted(
            (i for i in sim.rack(self.seat) if i not in avoid),
            key=lambda i: (-self.costs(table.tile(i)), i),
        )
        refused: set[tuple[int, int, End, int]] = set()
        shape = self._shape_refusals
        while True:
            state = sim.state
            rack = sim.rack(self.seat)
            if len(rack) <= keep:
                return
            table = state.table
            turn = state.pending
            assert turn is not None
            targets = turn.new_melds if own_new_only else range(len(table.melds))
            laid = False
            for tile_id in order:
                if tile_id not in rack:
                    continue
                tile = table.tile(tile_id)
                if tile.is_joker and not tile.is_fixed_joker and len(rack) - 1 > keep:
                    continue
                for index in targets:
                    meld = table.melds[index]
                    if not self.might_fit(tile, meld):
                        continue
                    size = len(meld.ids)
                    form = (tile._code, meld.ids, _joker_codes(table, meld))
                    for end in _ends(tile, meld):
                        if (tile_id, index, end, size) in refused or (*form, end) in shape:
                            continue
                        code = sim.try_apply(LayOff(tile_id, index, end))
                        if code is None:
                            sim.notes.append(
                                Note(
                                    NoteCode.LAY_OFF,
                                    {"tile": str(tile), "meld": meld_text(meld)},
                                )
                            )
                            laid = True
                            break
                        refused.add((tile_id, index, end, size))
                        if code in _SHAPE_CODES:
                            shape.add((*form, end))
                    if laid:
                        break
                if laid:
                    break
            if not laid:
                return

    def _layable(
        self, state: GameState, rack: Sequence[int], *, bound: bool = False
    ) -> Mapping[int, int] | None:
        """What laying each rack value off is worth (by the solver's field), for the
        values that fit a meld on the table now or after the rack's other tiles have
        extended it; None if none fits.  With ``bound``, every rack value standing for
        the same tile as one that fits is counted too: what fits for any part of the
        rack is then a subset.  Memoised by the table's melds and the rack's values."""
        table = state.table
        turn = state.pending
        assert turn is not None
        seat = state.seats[self.seat]
        if not (seat.opened or turn.new_melds) or not table.melds:
            return None
        values = values_of(table, rack)
        # The rack's values in order: which of two values standing for the same tile
        # (8R, J(=8R)) extends a run depends on it.
        key = (
            bound,
            tuple(m.ids for m in table.melds),
            table.jokers,
            tuple(t._code for t in values),
        )
        if key in self._layable_memo:
            return self._layable_memo[key]
        found = _fits([(m.meld, len(m.ids)) for m in table.melds], Held(values), bound) or None
        self._layable_memo[key] = found
        return found

    def _search(
        self,
        counts: list[int],
        *,
        tiles: bool = False,
        min_leftover: int = 0,
        layable: Mapping[int, int] | None = None,
        opening: Sequence[Meld] | None = None,
    ) -> Split | None:
        """:func:`search`, memoised for this hint call (the same racks come back from
        several candidates).

        ``layable`` is read for the hand's own values only, so asks that differ
        elsewhere share an answer; and a split asked with ``min_leftover=1`` is the
        one found without it when that one already keeps a tile (of equally valued
        splits, all place as many tiles: the value counts them)."""
        if layable:
            layable = {f: w for f, w in layable.items() if counts[f]} or None
        lay = tuple(sorted(layable.items())) if layable else None
        melded = None if opening is None else tuple(m.tiles for m in opening)
        key = (tuple(counts), tiles, min_leftover, lay, melded)
        if key in self._search_memo:
            return self._search_memo[key]
        if min_leftover == 1 and not tiles:
            loose = self._search_memo.get((key[0], tiles, 0, lay, melded))
            held = sum(counts)
            if loose is not None and held < 64 and loose[0] % 64 < held:
                self._search_memo[key] = loose
                return loose
        found = search(
            counts,
            self.rules,
            tiles=tiles,
            min_leftover=min_leftover,
            layable=layable,
            opening=opening,
        )
        self._search_memo[key] = found
        return found

    def _most_tiles(
        self, values: Sequence[Tile], layable: Mapping[int, int] | None
    ) -> Split | None:
        """The split of the hand ``values`` that places the most tiles, lay-offs
        (``layable``) counted (:func:`search` with ``tiles``); without the solver where
        no meld is possible (:class:`~remi_rules._hint_score.Pool`)."""
        pool = Pool(self.rules.ace_high_run, values)
        if not any(t.is_joker or pool.holds(t) for t in values):
            return _laid_alone(values, layable, tiles=True), ()
        return self._search(partition.counts_of(values), tiles=True, layable=layable)

    def _opening_out_of_reach(self, values: Sequence[Tile], melded: Sequence[Meld]) -> bool:
        """Whether no opening completes ``melded`` from the hand ``values``, by a bound
        that needs no solver: the points still missing exceed what the hand's
        placeable tiles (:class:`~remi_rules._hint_score.Pool`) are worth at the most
        (:func:`~remi_rules._hint_score.most_worth`)."""
        need = self.rules.opening_min_points - sum(m.points for m in melded)
        if need <= 0:
            return False
        pool = Pool(self.rules.ace_high_run, values)
        return sum(most_worth(t) for t in values if t.is_joker or pool.holds(t)) < need

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
