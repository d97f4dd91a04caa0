"""The meld catalogue: every valid meld inside a hand, from one enumeration in two
forms: tile layouts for the rules and the engine (:func:`layouts_of`, behind
:func:`remi_rules.layouts.meld_layouts`, the take rules and the engine's legal melds)
and the solver's candidates (:func:`catalogue`, for :mod:`remi_rules._partition`).

Rules: MELD-01 … MELD-06 (which groups are melds), VALUE-01 (their points).  Tiles are
*fields* in the solver's order, rank first (``1R 1G 1A 1N 2R …``), then the free joker,
then fixed jokers (*joker întors*) by the tile they stand for.

Two parts:

* **Per ruleset** (:class:`_Shapes`, one per set of meld knobs: ``ace_high_run``,
  ``real_tiles_per_joker``, ``jokers_may_be_adjacent``, and
  ``opening_ace_set_joker_ok`` for the ace sets): the melds of each run window (a
  colour, its lowest and highest position, the positions the hand lacks in it, the
  free jokers at hand) and of each rank's sets (the colours held, the free jokers),
  in both forms, checked by :func:`~remi_rules.melds.is_valid_meld`.  Made when first
  asked and kept: a hand's catalogue then costs one look-up per window and rank it
  fills.  Where a joker may go in a window depends only on its length, its gaps and
  the jokers (:func:`_joker_spots`, the same for every ruleset).
* **Per hand** (:func:`_collect`): which windows and ranks the hand fills.  A fixed
  joker (JOLY-05) stands only where its tile would: the hand's melds are listed with
  it as that tile, then each reading that uses the fixed joker instead is checked on
  its own (:func:`_with_fixed`; only hands that hold one).

The order does not depend on the hand (the engine derives a smaller rack's catalogue
from a larger one's, fixed jokers aside): runs by colour, lowest position, highest
position, then the jokers' places (fewest first, then in the order of the positions
they take); then sets by rank, the colours held (fewest first, in ``R G A N`` order),
the jokers.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final, Literal, NamedTuple, overload

from .melds import is_valid_meld
from .ruleset import Ruleset
from .tiles import JOKER, Color, Tile

__all__ = [
    "FREE_JOKER",
    "NFIELDS",
    "REAL_FIELDS",
    "Candidate",
    "catalogue",
    "counts_of",
    "field_of",
    "layouts_of",
    "tile_of_field",
]

REAL_FIELDS: Final = 52
"""Fields 0–51 are the numbered tiles: ``(rank - 1) * 4 + colour``."""
FREE_JOKER: Final = 52
"""The field of the free joker."""
_FIXED0: Final = 53
"""Field ``53 + f`` is a fixed joker standing for the tile of field ``f``."""
NFIELDS: Final = 105


_COLORS: Final = tuple(Color)
_TILES: Final = tuple(
    [Tile(f // 4 + 1, _COLORS[f % 4]) for f in range(REAL_FIELDS)]
    + [JOKER]
    + [Tile(fixed_as=Tile(f // 4 + 1, _COLORS[f % 4])) for f in range(REAL_FIELDS)]
)


def field_of(tile: Tile) -> int:
    """The solver's field of ``tile`` (its place in the solver's notation order)."""
    rank, color = tile.rank, tile.color
    if rank is not None and color is not None:
        return (rank - 1) * 4 + color.index
    fixed = tile.fixed_as
    if fixed is None:
        return FREE_JOKER
    assert fixed.rank is not None and fixed.color is not None
    return _FIXED0 + (fixed.rank - 1) * 4 + fixed.color.index


def tile_of_field(field: int) -> Tile:
    """The tile value of a field (the inverse of :func:`field_of`)."""
    return _TILES[field]


_FIELD_BY_CODE: Final = {t._code: field_of(t) for t in _TILES}


def counts_of(tiles: Iterable[Tile]) -> list[int]:
    """The hand as 105 counts, one per field."""
    counts = [0] * NFIELDS
    by_code = _FIELD_BY_CODE
    for tile in tiles:
        counts[by_code[tile._code]] += 1
    return counts


class Candidate(NamedTuple):
    """One meld the hand can form."""

    fields: tuple[int, ...]
    """Its tiles' fields in table order (a run ascending, a set R G A N then jokers)."""
    key: tuple[tuple[int, ...], tuple[int, ...]]
    """Its notation order: the sorted fields, then the table-order fields."""
    points: int
    """VALUE-01, each joker worth what it stands for."""
    is_run: bool
    ace_set: bool
    """A set of aces that may open alone (OPEN-04)."""

    @property
    def tiles(self) -> tuple[Tile, ...]:
        return tuple(_TILES[f] for f in self.fields)


_RUN_FIELDS: Final = tuple((0, *(((p - 1) % 13) * 4 + c for p in range(1, 15))) for c in range(4))
"""``_RUN_FIELDS[c][p]``: the field at run position ``p`` (1–14; 14 is the high ace)."""
_PREFIX: Final = tuple(sum(10 if q >= 10 else 5 for q in range(1, p + 1)) for p in range(15))
"""``_PREFIX[p]``: the points of run positions 1..p (VALUE-01: 5 up to 9, 10 from 10)."""


# -- per ruleset ------------------------------------------------------------------------------

_Layout = tuple[Tile, ...]
_Entry = tuple[tuple[Candidate, ...], tuple[_Layout, ...]]
"""The melds of one run window or one rank: as candidates, and as tile layouts."""
_Forms = tuple[Candidate, _Layout, _Layout]
"""One meld as a candidate, a layout and a layout in table order."""
_Form = Literal[0, 1]
"""Which form of an :data:`_Entry` a caller wants."""
_CANDIDATES: Final = 0
_LAYOUTS: Final = 1
_TABLE: Final = 2
"""The layouts with a set's fixed jokers after its free ones (its table order): the
same as :data:`_LAYOUTS` but for sets with a fixed joker."""


@functools.cache
def _joker_spots(n: int, gaps: int, jokers: int) -> tuple[frozenset[int], ...]:
    """Where free jokers may go in a window of ``n`` positions lacking the positions of
    bitmask ``gaps``, with at most ``jokers`` of them (validity aside): the gaps, and
    each way to put the jokers left over on held positions (fewest first, then in the
    order of the positions, as :func:`itertools.combinations` lists them)."""
    missing = [i for i in range(n) if gaps >> i & 1]
    held = [i for i in range(n) if not gaps >> i & 1]
    return tuple(
        frozenset((*missing, *swapped))
        for extra in range(jokers - len(missing) + 1)
        for swapped in itertools.combinations(held, extra)
    )


class _Shapes:
    """The melds of every run window and every rank under one set of meld knobs, in
    both forms, each made when first asked (:meth:`run`, :meth:`set`) and kept."""

    __slots__ = ("ace_joker_ok", "melds", "rules", "runs", "sets", "top")

    def __init__(self, rules: Ruleset) -> None:
        self.rules = rules
        """A ruleset with these knobs: the validator reads no other."""
        self.top = 14 if rules.ace_high_run else 13
        self.ace_joker_ok = rules.opening_ace_set_joker_ok
        self.runs: dict[int, _Entry] = {}
        """By ``(((free jokers * 4 + colour) * 16 + lo) * 16 + hi) << 13 | gaps``."""
        self.sets: dict[int, _Entry] = {}
        """By ``(rank * 16 + colours held) * 4 + free jokers``."""
        self.melds: dict[tuple[int, ...], _Forms | None] = {}
        """Each meld checked, by its fields in laid order (None: not valid), shared by
        the entries that list it."""

    def meld(self, fields: tuple[int, ...], base: Candidate) -> _Forms | None:
        """The meld ``fields`` in laid order in its three forms (the candidate, the
        layout, the layout in table order), or None if the validator refuses it;
        ``base`` is the same meld without fixed jokers (itself if it has none)."""
        if fields in self.melds:
            return self.melds[fields]
        tiles = tuple(_TILES[f] for f in fields)
        found = None
        if is_valid_meld(tiles, self.rules):
            if fields is base.fields:
                found = (base, tiles, tiles)
            elif base.is_run:
                cand = Candidate(fields, (tuple(sorted(fields)), fields), base.points, True, False)
                found = (cand, tiles, tiles)
            else:
                table = tuple(sorted(fields))
                reals = sum(1 for f in fields if f < REAL_FIELDS)
                ace = base.ace_set and (reals >= 3 or self.ace_joker_ok)
                cand = Candidate(table, (table, table), base.points, False, ace)
                found = (cand, tiles, cand.tiles)
        self.melds[fields] = found
        return found

    def _entry(self, melds: Iterable[Candidate]) -> _Entry:
        """The valid ones of ``melds`` (without fixed jokers), in both forms."""
        checked = [m for m in map(self._checked, melds) if m is not None]
        return tuple(m[0] for m in checked), tuple(m[1] for m in checked)

    def _checked(self, cand: Candidate) -> _Forms | None:
        return self.meld(cand.fields, cand)

    def run(self, key: int, c: int, lo: int, hi: int, gaps: int, jokers: int) -> _Entry:
        """The runs of colour ``c`` over positions ``lo..hi`` lacking the positions
        of bitmask ``gaps`` (relative to ``lo``), with up to ``jokers`` free jokers."""
        real = _RUN_FIELDS[c][lo : hi + 1]
        points = _PREFIX[hi] - _PREFIX[lo - 1]
        melds = []
        for spots in _joker_spots(hi - lo + 1, gaps, jokers):
            fields = tuple(FREE_JOKER if i in spots else f for i, f in enumerate(real))
            key_ = (fields, fields) if not spots and hi < 14 else (tuple(sorted(fields)), fields)
            melds.append(Candidate(fields, key_, points, True, False))
        entry = self.runs[key] = self._entry(melds)
        return entry

    def set(self, key: int, rank: int, held: int, jokers: int) -> _Entry:
        """The sets of ``rank`` from the colours of bitmask ``held`` and up to
        ``jokers`` free jokers."""
        base = (rank - 1) * 4
        value = 25 if rank == 1 else 10 if rank >= 10 else 5
        colours = [c for c in range(4) if held >> c & 1]
        melds = []
        for k in range(1, len(colours) + 1):
            for chosen in itertools.combinations(colours, k):
                for j in range(jokers + 1):
                    if 3 <= k + j <= 4:
                        fields = (*(base + c for c in chosen), *(FREE_JOKER,) * j)
                        ace = rank == 1 and (k >= 3 or self.ace_joker_ok)
                        melds.append(
                            Candidate(fields, (fields, fields), value * (k + j), False, ace)
                        )
        entry = self.sets[key] = self._entry(melds)
        return entry


_SHAPES: dict[tuple[bool, int, bool, bool], _Shapes] = {}
"""One :class:`_Shapes` per set of meld knobs, the last :data:`_KEPT` asked."""
_KEPT: Final = 8
"""Sets of meld knobs kept (48 exist; every window of one takes about 8 MB)."""


def _shapes_of(rules: Ruleset) -> _Shapes:
    knobs = (
        rules.ace_high_run,
        rules.real_tiles_per_joker,
        rules.jokers_may_be_adjacent,
        rules.opening_ace_set_joker_ok,
    )
    shapes = _SHAPES.get(knobs)
    if shapes is None:
        kept = list(_SHAPES)  # a copy: another thread may add or drop one meanwhile
        for oldest in kept[: max(0, len(kept) - _KEPT + 1)]:
            _SHAPES.pop(oldest, None)
        shapes = _SHAPES[knobs] = _Shapes(rules)
    return shapes


# -- per hand ---------------------------------------------------------------------------------


@overload
def _collect(
    counts: Sequence[int],
    free: int,
    shapes: _Shapes,
    form: Literal[0],
    runs: bool,
    near: Tile | None,
) -> list[Candidate]: ...
@overload
def _collect(
    counts: Sequence[int],
    free: int,
    shapes: _Shapes,
    form: Literal[1],
    runs: bool,
    near: Tile | None,
) -> list[_Layout]: ...
def _collect(
    counts: Sequence[int],
    free: int,
    shapes: _Shapes,
    form: _Form,
    runs: bool,
    near: Tile | None,
) -> list[Candidate] | list[_Layout]:
    """The melds of the numbered tiles ``counts`` (the first 52 fields) and ``free``
    free jokers, in ``form`` (an :data:`_Entry` index); with ``near`` (a numbered
    tile) only runs of its colour through its rank and sets of its rank (a superset
    of the melds holding it, in the same order)."""
    out: list[Any] = []
    jokers = min(free, 2)
    near_color = -1 if near is None or near.color is None else near.color.index
    near_rank = 0 if near is None or near.rank is None else near.rank
    if runs:
        top = shapes.top
        known = shapes.runs
        make = shapes.run
        for c in range(4) if near is None else (near_color,):
            fields = _RUN_FIELDS[c]
            held = [False, *(counts[fields[p]] > 0 for p in range(1, 15))]
            if sum(held[1:14]) + jokers < 3:
                continue
            for lo in range(1, top - 1):
                if not held[lo] and not jokers:
                    continue
                gaps = lacking = 0
                for hi in range(lo, min(top, lo + 12) + 1):
                    if not held[hi]:
                        lacking += 1
                        if lacking > jokers:
                            break
                        gaps |= 1 << (hi - lo)
                    if hi - lo < 2:
                        continue
                    if near_rank and not (lo <= near_rank <= hi or (near_rank == 1 and hi == 14)):
                        continue
                    key = (((jokers * 4 + c) * 16 + lo) * 16 + hi) << 13 | gaps
                    entry = known.get(key)
                    if entry is None:
                        entry = make(key, c, lo, hi, gaps, jokers)
                    out.extend(entry[form])
    known = shapes.sets
    for rank in range(1, 14) if near is None else (near_rank,):
        base = (rank - 1) * 4
        held_colours = (
            (counts[base] > 0)
            | (counts[base + 1] > 0) << 1
            | (counts[base + 2] > 0) << 2
            | (counts[base + 3] > 0) << 3
        )
        if held_colours.bit_count() + jokers < 3:
            continue
        key = (rank * 16 + held_colours) * 4 + jokers
        entry = known.get(key)
        if entry is None:
            entry = shapes.set(key, rank, held_colours, jokers)
        out.extend(entry[form])
    return out


@overload
def _with_fixed(
    counts: Sequence[int], shapes: _Shapes, form: Literal[0], runs: bool, near: Tile | None
) -> list[Candidate]: ...
@overload
def _with_fixed(
    counts: Sequence[int], shapes: _Shapes, form: Literal[1, 2], runs: bool, near: Tile | None
) -> list[_Layout]: ...
def _with_fixed(
    counts: Sequence[int], shapes: _Shapes, form: Literal[0, 1, 2], runs: bool, near: Tile | None
) -> list[Candidate] | list[_Layout]:
    """The melds of a hand holding a fixed joker: those of the hand with each fixed
    joker as its tile (:func:`_collect`), each followed by its readings with fixed
    jokers in their tiles' places, kept where the hand holds their tiles and the
    validator accepts them (JOLY-05)."""
    acting = [counts[f] + counts[_FIXED0 + f] for f in range(REAL_FIELDS)]
    free = counts[FREE_JOKER]
    fixed = {f for f in range(REAL_FIELDS) if counts[_FIXED0 + f]}
    checked = shapes.meld
    out: list[Any] = []
    for cand, layout in zip(
        _collect(acting, free, shapes, _CANDIDATES, runs, near),
        _collect(acting, free, shapes, _LAYOUTS, runs, near),
        strict=True,
    ):
        base = cand.fields
        if fixed.isdisjoint(base):
            out.append(cand if form == _CANDIDATES else layout)  # the hand holds its tiles
            continue
        spots = [i for i, f in enumerate(base) if f in fixed]
        for k in range(len(spots) + 1):
            for chosen in itertools.combinations(spots, k):
                if any(not counts[base[i]] for i in spots if i not in chosen):
                    continue  # a tile the hand holds only as a fixed joker
                if not k:
                    out.append(cand if form == _CANDIDATES else layout)
                    continue
                fields = tuple(_FIXED0 + f if i in chosen else f for i, f in enumerate(base))
                read = checked(fields, cand)
                if read is not None:
                    out.append(read[form])
    return out


def catalogue(counts: Sequence[int], rules: Ruleset, *, runs: bool = True) -> list[Candidate]:
    """Every valid meld whose tiles are inside the hand ``counts`` (105 fields), as the
    solver's candidates.

    A joker goes in every slot it may fill, including the slot of a tile the hand
    holds (that tile may be wanted elsewhere); fixed jokers only where their tile
    would go (JOLY-05).  Runs come first (none when not ``runs``), then sets, in the
    catalogue's order (the solver does not depend on it)."""
    shapes = _shapes_of(rules)
    if any(counts[_FIXED0:]):
        return _with_fixed(counts, shapes, _CANDIDATES, runs, None)
    return _collect(counts, counts[FREE_JOKER], shapes, _CANDIDATES, runs, None)


def layouts_of(
    pool: Mapping[Tile, int],
    rules: Ruleset,
    near: Tile | None = None,
    *,
    table_order: bool = False,
    runs: bool = True,
) -> list[_Layout]:
    """Every valid meld (tile values in laid order: a set's real tiles by colour, then
    its free jokers, a fixed joker in its tile's place, or after the free jokers with
    ``table_order``, as :func:`~remi_rules.melds.analyze_meld` orders a set) whose
    values are inside ``pool`` (each value with its count, unchecked: a count below 1
    holds none); with ``near`` (a numbered tile) only runs of its colour through its
    rank and sets of its rank (a superset of the melds that may hold it, in the same
    order); without ``runs``, only the sets."""
    counts = [0] * NFIELDS
    by_code = _FIELD_BY_CODE
    for tile, count in pool.items():
        counts[by_code[tile._code]] += count
    shapes = _shapes_of(rules)
    if any(counts[_FIXED0:]):
        return _with_fixed(counts, shapes, _TABLE if table_order else _LAYOUTS, runs, near)
    return _collect(counts, counts[FREE_JOKER], shapes, _LAYOUTS, runs, near)
