"""The meld catalogue of a rack's values (:func:`rack_layouts`): every valid meld
inside the pool, as :func:`~remi_rules.layouts.meld_layouts` lists them (runs, then
sets), each set in its canonical order, for the engine's list of new melds
(:func:`~remi_rules.engine._placing.meld_candidates`).

A catalogue lists its melds in an order that does not depend on the pool (each meld
has its place, :func:`_run_key` and :func:`_set_key`: runs by colour, lowest rank,
highest rank, then how many jokers and at which ranks; sets by rank, then how many
colours and which, then how many jokers), so the catalogue of a pool is made from
one made lately (:data:`_RECENT`):

* of a smaller pool (a rack that lost tiles to a meld, a lay-off, a discard), the
  larger one's melds that still fit, in the same order;
* of a pool with one more value (a rack that drew a tile), those and the melds that
  hold the new value (:func:`~remi_rules._meld_catalogue.layouts_of` with ``near``),
  each put in its place.

A pool with a fixed joker (JOLY-05) is catalogued afresh."""

from __future__ import annotations

import bisect
from collections import Counter
from collections.abc import Iterator

from .._meld_catalogue import layouts_of
from ..ruleset import Ruleset
from ..tiles import Color, Tile

__all__ = ["rack_layouts"]

_Layout = tuple[Tile, ...]
_Key = tuple[int, ...]
_COLOR_INDEX = {c: i for i, c in enumerate(Color)}

_LAYOUTS: dict[tuple[int, frozenset[tuple[Tile, int]]], tuple[Ruleset, tuple[_Layout, ...]]] = {}
"""``(id(rules), the pool's items) -> (rules, layouts)``: a turn's steps keep asking
the catalogue of the same rack."""


def _run_key(layout: _Layout) -> _Key:
    """The place of a run in a catalogue (the order of
    :func:`~remi_rules._meld_catalogue.layouts_of`): its colour, lowest and highest
    rank, the number of jokers, the ranks they stand at (in a window of ranks the runs
    come by their jokers' count, then their rank sets in lexicographic order)."""
    p, tile = next((p, t) for p, t in enumerate(layout) if not t.is_joker)
    assert tile.rank is not None and tile.color is not None
    low = 14 - p if tile.rank == 1 and p > 0 else tile.rank - p  # a high ace: rank 14
    jokers = [low + i for i, t in enumerate(layout) if t.is_joker]
    return (0, _COLOR_INDEX[tile.color], low, low + len(layout) - 1, len(jokers), *jokers)


def _set_key(layout: _Layout) -> _Key:
    """The place of a set in a catalogue (the order of
    :func:`~remi_rules._meld_catalogue.layouts_of`): its rank, the number of its
    colours, which, the number of jokers."""
    colours = tuple(_COLOR_INDEX[t.color] for t in layout if t.color is not None)
    rank = layout[0].rank
    assert rank is not None
    return (1, rank, len(colours), *colours, len(layout) - len(colours))


def _keyed(
    pool: Counter[Tile], rules: Ruleset, near: Tile | None = None
) -> Iterator[tuple[_Key, _Layout]]:
    """The catalogue of ``pool`` (a pool without a fixed joker), each meld with its
    key, sets in their canonical order; with ``near``, only its melds that hold
    ``near``.  The runs come first: a layout of one tile and jokers may be a run or a
    set, so the sets are counted apart."""
    melds = layouts_of(pool, rules, near)
    first_set = len(melds) - len(layouts_of(pool, rules, near, runs=False))
    for index, layout in enumerate(melds):
        if near is None or near in layout:
            yield (_run_key if index < first_set else _set_key)(layout), layout


class _Catalogue:
    """A pool's catalogue with each meld's key, from which the catalogues of the
    pools near it are made: which melds use each value, and how many copies (made
    when first asked)."""

    __slots__ = ("_uses", "keys", "layouts", "pool", "rules")

    def __init__(
        self,
        rules: Ruleset,
        pool: Counter[Tile],
        keys: tuple[_Key, ...],
        layouts: tuple[_Layout, ...],
    ) -> None:
        self.rules, self.pool, self.keys, self.layouts = rules, pool, keys, layouts
        self._uses: dict[Tile, list[tuple[int, int]]] | None = None

    def within(self, pool: Counter[Tile]) -> tuple[tuple[_Key, ...], tuple[_Layout, ...]]:
        """The melds that fit in ``pool`` too (no more copies of a value than it
        holds), found through the values it holds fewer of."""
        uses = self._uses
        if uses is None:
            uses = self._uses = {}
            for index, layout in enumerate(self.layouts):
                for value, need in Counter(layout).items():
                    uses.setdefault(value, []).append((index, need))
        dropped: set[int] = set()
        for value, held in self.pool.items():
            left = pool[value]
            if left < held:
                dropped.update(index for index, need in uses.get(value, ()) if need > left)
        if not dropped:
            return self.keys, self.layouts
        kept = [k for k in range(len(self.layouts)) if k not in dropped]
        return tuple(self.keys[k] for k in kept), tuple(self.layouts[k] for k in kept)


_RECENT: list[_Catalogue] = []
"""The last catalogues made in full (afresh, or with a drawn value): those of the
racks a seat had at its last turns."""
_MOST_RECENT = 8


def _grown(recent: _Catalogue, pool: Counter[Tile], new: Tile) -> _Catalogue:
    """The catalogue of ``pool``: ``recent``'s pool, less some tiles, and ``new``, a
    numbered value it does not hold."""
    kept_keys, kept = recent.within(pool)
    keys, layouts = list(kept_keys), list(kept)
    for key, layout in _keyed(pool, recent.rules, new):
        at = bisect.bisect_left(keys, key)
        keys.insert(at, key)
        layouts.insert(at, layout)
    return _Catalogue(recent.rules, pool, tuple(keys), tuple(layouts))


def _one_more(pool: Counter[Tile], big: Counter[Tile]) -> Tile | bool | None:
    """What ``pool`` holds more of than ``big``: nothing (False), one numbered value
    (that value), or more (None)."""
    more: Tile | bool | None = False
    for value, n in pool.items():
        if n > big[value]:
            if more is not False or value.is_joker:
                return None
            more = value
    return more


def rack_layouts(pool: Counter[Tile], rules: Ruleset) -> tuple[_Layout, ...]:
    """The meld catalogue of ``pool`` (see the module's docstring): the melds of
    :func:`~remi_rules.layouts.meld_layouts`, sets in their canonical order."""
    key = (id(rules), frozenset(pool.items()))
    hit = _LAYOUTS.get(key)
    if hit is not None and hit[0] is rules:
        return hit[1]
    layouts: tuple[_Layout, ...] | None = None
    made: _Catalogue | None = None
    if any(t.is_fixed_joker for t in pool):
        layouts = tuple(layouts_of(pool, rules, table_order=True))
    else:
        for recent in reversed(_RECENT):
            more = _one_more(pool, recent.pool) if recent.rules is rules else None
            if more is False or (isinstance(more, Tile) and recent.pool[more]):
                # a smaller pool, or a second copy of a value (no meld holds two)
                layouts = recent.within(pool)[1]
                break
            if isinstance(more, Tile):
                made = _grown(recent, pool, more)
                break
        else:
            keyed = list(_keyed(pool, rules))
            made = _Catalogue(rules, pool, tuple(k for k, _ in keyed), tuple(m for _, m in keyed))
        if made is not None:
            layouts = made.layouts
            _RECENT.append(made)
            del _RECENT[:-_MOST_RECENT]
    assert layouts is not None
    if len(_LAYOUTS) >= 1024:
        _LAYOUTS.clear()
    _LAYOUTS[key] = (rules, layouts)
    return layouts
