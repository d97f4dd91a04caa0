"""The hint's bounds (ONLINE-06): the one adapter to the solver, and what a candidate
turn can still reach.

* :func:`search` is the one place the hint asks the solver anything;
* :class:`Bounds` holds one hint call's memos (solver answers, lay-off worths, joker
  slots, end costs) and bounds what a turn going on from a position can be worth
  (:meth:`Bounds._bound`), so that the search (:mod:`remi_rules._hint_search`,
  :mod:`remi_rules._hint_turn`) plays out only what may beat the best turn found;

Everything here is dropped with the hint call: nothing grows with the number of hints.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Final

from . import _partition as partition
from ._by_ranks import Shared
from ._hint_score import (
    OPENING_BONUS,
    RACK_WEIGHT,
    Costs,
    Held,
    Pool,
    extensions,
    most_worth,
    values_of,
)
from ._meld_catalogue import NFIELDS
from ._placeable import _ACTING
from .engine import GameState, PlayerView
from .melds import JokerSlot, Meld
from .ruleset import Ruleset
from .solver import opening_split
from .table import TableMeld
from .tiles import JOKER_CODE, JOKER_IDS, Tile

__all__ = ["INF", "Bounds", "Split", "search"]

INF: Final = float("inf")
_FIRST_JOKER: Final = JOKER_IDS[0]
_JOKER: Final = partition.tile_of_field(partition.FREE_JOKER)
_FIELD_OF: Final = {partition.tile_of_field(f)._code: f for f in range(NFIELDS)}
"""The solver's field of each tile value (its code)."""
_CODE_OF_FIELD: Final = tuple(partition.tile_of_field(f)._code for f in range(NFIELDS))
"""The tile value (its code) of each solver field."""

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
    catalogued: Sequence[partition.Candidate] | None = None,
    shared: Shared | None = None,
) -> Split | None:
    """Every question the hint asks the solver, in one place.

    The best split of the hand ``counts`` (the solver's 105 fields): most points
    (``points * 64 + tiles``), or with ``tiles`` most tiles placed; at least
    ``min_leftover`` tiles kept.  ``layable`` maps a field to the etalare worth of
    laying it off (a tile placed on its own for ``worth * 64 + 1``, or for 1 with
    ``tiles``).  ``opening`` (the melds already down this turn, possibly none) asks
    for the best first etalare instead (:func:`~remi_rules.solver.opening_split`).
    ``catalogued``: the hand's meld catalogue, when the caller has it; ``shared``:
    the solver's memos kept across one hint call's questions
    (:class:`~remi_rules._by_ranks.Shared`); the same answer either way.  None when
    no split meets the constraints."""
    if opening is not None:
        return opening_split(
            list(counts), rules, min_leftover=min_leftover, melded=opening, catalogued=catalogued
        )
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
        counts,
        rules,
        tiles_objective=tiles,
        constraints=constraints,
        extra=extra,
        catalogued=catalogued,
        shared=shared,
    )


def _fits(melds: Sequence[tuple[Meld, int]], held: Held, bound: bool) -> dict[int, int]:
    """The lay-off worth of each rack value (by field) on ``melds`` (each with its
    size), :func:`~remi_rules._hint_score.extensions` (with ``bound``, every value
    standing for the same tile too)."""
    fits: dict[int, int] = {}
    field_of = _FIELD_OF
    for info, size in melds:
        for tile, worth in extensions(info, size, held):
            if bound:
                place = _ACTING[tile._code]
                assert place is not None
                alike = held.alike[place]
            else:
                alike = [tile]
            for same in alike:
                field = field_of[same._code]
                if fits.get(field, 0) < worth:
                    fits[field] = worth
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


def _valued_split(
    split: Split, counts: Sequence[int], layable: Mapping[int, int] | None
) -> tuple[int, int]:
    """A most-points split's value (:func:`search`'s ``points * 64 + tiles``) with the
    hand's other tiles laid off where ``layable`` says, and how many tiles it keeps."""
    left = list(counts)
    value = 0
    for meld in split[1]:
        value += meld.points * 64 + len(meld.fields)
        for field in meld.fields:
            left[field] -= 1
    kept = 0
    for field, n in enumerate(left):
        if not n:
            continue
        worth = layable.get(field) if layable else None
        if worth is None:
            kept += n
        else:
            value += (worth * 64 + 1) * n
    return value, kept


def _still_best(
    answer: Split,
    counts: Sequence[int],
    layable: Mapping[int, int] | None,
    richer: Mapping[int, int] | None,
    min_leftover: int,
) -> bool:
    """Whether ``answer``, the most-points split of the hand ``counts`` with the lay-offs
    ``richer``, is also :func:`search`'s answer with the lay-offs ``layable``, at least
    ``min_leftover`` tiles kept: every lay-off ``layable`` allows ``richer`` allows at
    least as dearly, so no split is worth more with ``layable``; the answer is worth as
    much with ``layable`` (its lay-offs all allowed, as dearly) and keeps the tiles, so
    it is best again; and the best splits with ``layable`` are best with ``richer``
    too, so the same tie-break picks it.  (``answer`` may have been asked to keep
    fewer tiles than ``min_leftover``: a split keeping more is one of those too.)"""
    if layable and (
        richer is None or any(richer.get(f, -1) < worth for f, worth in layable.items())
    ):
        return False
    value, kept = _valued_split(answer, counts, layable)
    if value != answer[0] or kept < min_leftover:
        return False
    return _valued_split(answer, counts, richer)[0] == value  # the value read as the solver's


_GUARD: Final = int.from_bytes(b"\x80" * NFIELDS, "little")
"""Bit 7 of each byte: a hand's counts read as one byte per field (at most 4 each)."""


def _lanes(fields: Sequence[int]) -> int:
    """The counts of ``fields`` as one byte per field (:data:`_GUARD`)."""
    out = 0
    for f in fields:
        out += 1 << (8 * f)
    return out


class _Catalogues:
    """The meld catalogues of one hint call's hands (:func:`remi_rules._partition.
    catalogue`, every valid meld inside a hand).  The hands of one hint are mostly
    parts of a few larger ones (the rack after a take, less a meld), and a part's
    catalogue is its larger hand's melds that fit in it: so a hand inside one of the
    last few hands catalogued afresh gets those melds, filtered (each meld's counts a
    number, one byte per field: it fits where no byte of the hand less the meld goes
    below zero)."""

    _KEPT: Final = 4
    """How many of the last hands catalogued afresh are tried as the larger hand."""

    def __init__(self, rules: Ruleset) -> None:
        self.rules = rules
        self._by_hand: dict[int, list[partition.Candidate]] = {}
        self._wide: list[tuple[int, list[partition.Candidate], list[int]]] = []

    def of(self, counts: Sequence[int]) -> list[partition.Candidate]:
        """The catalogue of the hand ``counts`` (105 fields)."""
        hand = int.from_bytes(bytes(counts), "little")
        found = self._by_hand.get(hand)
        if found is not None:
            return found
        guard = _GUARD
        for k, (wide, melds, masks) in enumerate(self._wide):
            if ((wide | guard) - hand) & guard == guard:
                if not masks and melds:
                    masks = [_lanes(m.fields) for m in melds]
                    self._wide[k] = (wide, melds, masks)
                held = hand | guard
                found = [
                    m
                    for m, mask in zip(melds, masks, strict=True)
                    if (held - mask) & guard == guard
                ]
                break
        else:
            found = partition.catalogue(counts, self.rules)
            self._wide.insert(0, (hand, found, []))
            del self._wide[self._KEPT :]
        self._by_hand[hand] = found
        return found


class Bounds:
    """One hint call's memos and bounds: the seat, the ruleset and what the solver,
    the table's melds and the rack's values have answered so far."""

    def __init__(self, view: PlayerView) -> None:
        self.view = view
        self.rules = view.rules
        self.seat = view.seat
        self.opened_before = view.seats[view.seat].opened
        self.costs = Costs(view.rules)
        self._search_memo: dict[object, Split | None] = {}
        self._catalogues = _Catalogues(view.rules)
        self._shared = Shared()
        """The solver's memos shared by this hint call's questions."""
        self._placeable_memo: dict[tuple[tuple[int, ...], int], list[bool]] = {}
        self._layable_memo: dict[object, Mapping[int, int] | None] = {}
        self._slot_memo: dict[int, tuple[Meld, tuple[JokerSlot, ...]]] = {}
        self._loose: dict[tuple[int, ...], list[tuple[int, Mapping[int, int] | None, Split]]] = {}
        """The most-points answers by hand, with the tiles they were asked to keep and
        their lay-offs (for :func:`_still_best`)."""

    def slots(self, meld: TableMeld) -> tuple[JokerSlot, ...]:
        """``meld.meld.jokers``, worked out once per meld in this hint call (none
        where the meld holds neither physical joker)."""
        if max(meld.ids) < _FIRST_JOKER:
            return ()
        info = meld.meld
        found = self._slot_memo.get(id(info))
        if found is None or found[0] is not info:
            found = (info, info.jokers)
            self._slot_memo[id(info)] = found
        return found[1]

    def _placeable(self, values: Sequence[Tile], jokers: int = 0) -> list[bool]:
        """For each of ``values``, whether some meld of the hand might hold it (a joker
        always; else :meth:`~remi_rules._hint_score.Pool.holds`, the hand and
        ``jokers`` more jokers as the pool), worked out once per hand in this hint
        call."""
        codes = tuple(t._code for t in values)
        key = (codes, jokers)
        found = self._placeable_memo.get(key)
        if found is None:
            pool = Pool(self.rules.ace_high_run, [*values, *[_JOKER] * jokers])
            found = [c >= JOKER_CODE or pool.holds(t) for c, t in zip(codes, values, strict=True)]
            self._placeable_memo[key] = found
        return found

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
        # The values a joker swap would place, by code.
        placed: set[int] = set()
        gained = 0
        if swaps:
            codes = {v._code for v in values if v._code < JOKER_CODE}
            for meld in table.melds:
                for slot in self.slots(meld):
                    fitting = codes.intersection(c._code for c in slot.candidates)
                    placed |= fitting
                    gained += bool(fitting)
        layable = self._layable_bound(state, rack)
        if extra is not None:
            more = _fits([(extra, len(extra.tiles))], Held(values), True)
            if more:
                merged = {**more, partition.FREE_JOKER: 25}
                for field, worth in (layable or {}).items():
                    merged[field] = max(merged.get(field, 0), worth)
                layable = merged
        if layable:
            placed.update(_CODE_OF_FIELD[f] for f in layable)
        # The tiles no meld can hold and no lay-off or swap place (never_placed), and
        # whether no meld is possible at all (then the solver would only lay tiles off
        # one by one).
        flags = self._placeable(values, gained)
        stay = [
            t for t, held in zip(values, flags, strict=True) if not held and t._code not in placed
        ]
        alone = not any(flags)
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
        if not tiles and opening is None:
            for kept, richer, answer in self._loose.get(key[0], ()):
                if kept <= min_leftover and _still_best(
                    answer, counts, layable, richer, min_leftover
                ):
                    self._search_memo[key] = answer
                    return answer
        found = search(
            counts,
            self.rules,
            tiles=tiles,
            min_leftover=min_leftover,
            layable=layable,
            opening=opening,
            catalogued=self._catalogues.of(counts),
            shared=self._shared,
        )
        self._search_memo[key] = found
        if found is not None and not tiles and opening is None:
            self._loose.setdefault(key[0], []).append((min_leftover, layable, found))
        return found

    def _could_close(self, state: GameState, rack: Sequence[int], *, cheap: bool = False) -> bool:
        """Whether a turn going on from ``state`` might close, all of ``rack`` but one
        tile placed: not when two tiles that no meld of the rack can hold cannot be
        laid off either; nor (unless ``cheap``: no solver) when the whole rack, every
        value that may be laid off counted (:meth:`_layable_bound`), places fewer than
        ``len(rack) - 1`` tiles (what any way to close places is one split of it)."""
        layable = self._layable_bound(state, rack)
        values = values_of(state.table, rack)
        placed = {_CODE_OF_FIELD[f] for f in layable or ()}
        # never_placed: two tiles no meld of the rack can hold nor a lay-off place.
        flags = self._placeable(values)
        if (
            sum(1 for t, f in zip(values, flags, strict=True) if not f and t._code not in placed)
            >= 2
        ):
            return False
        if cheap:
            return True
        whole = self._most_tiles(values, layable)
        return whole is not None and whole[0] >= len(rack) - 1

    def _most_tiles(
        self, values: Sequence[Tile], layable: Mapping[int, int] | None
    ) -> Split | None:
        """The split of the hand ``values`` that places the most tiles, lay-offs
        (``layable``) counted (:func:`search` with ``tiles``); without the solver where
        no meld is possible (:class:`~remi_rules._hint_score.Pool`)."""
        if not any(self._placeable(values)):
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
        flags = self._placeable(values)
        return sum(most_worth(t) for t, f in zip(values, flags, strict=True) if f) < need
