"""The meld catalogue of a multiset of tile values: every valid meld it holds.

:func:`meld_layouts` lists them (runs, then sets), for the take rules
(:mod:`remi_rules.rupere`: the melds that can justify a taken tile) and for the
engine's list of legal melds (:func:`remi_rules.engine.legal_steps`).

>>> from collections import Counter
>>> from remi_rules import Tile, variants
>>> pool = Counter(Tile.parse(t) for t in ("7R", "8R", "9R", "7N"))
>>> [" ".join(str(t) for t in m) for m in meld_layouts(pool, variants.get("clasic"))]
['7R 8R 9R']
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Final

from .melds import is_valid_meld
from .ruleset import Ruleset, require_ruleset
from .tiles import JOKER, Color, Tile

__all__ = ["meld_layouts"]

_COLORS: Final = tuple(Color)


_TILE: Final = {(r, c): Tile(r, c) for r in range(1, 14) for c in Color}
"""Every numbered tile value by (rank, colour), built once (hot loops below)."""


def _run_layouts(
    pool: Counter[Tile], rules: Ruleset, near: Tile | None = None
) -> Iterator[tuple[Tile, ...]]:
    """Every valid run whose values are a sub-multiset of ``pool``; with ``near`` (a
    numbered tile) only those whose ranks include its rank, in its colour (the others
    skipped, the order kept)."""
    jokers = min(pool[JOKER], 2)
    size = sum(pool.values())
    top = 14 if rules.ace_high_run else 13
    near_rank = 0 if near is None or near.rank is None else near.rank
    for colour in _COLORS:
        if near is not None and near.color is not colour:
            continue
        present = {r for r in range(1, 14) if pool[_TILE[r, colour]]}
        if not present:
            continue
        if 1 in present:
            present.add(14)
        for low in range(1, top - 1):
            for high in range(low + 2, min(top, low + 12, low + size - 1) + 1):
                ranks = range(low, high + 1)
                gaps = [r for r in ranks if r not in present]
                if len(gaps) > jokers:
                    break  # a longer window only has more gaps
                if near_rank and not (low <= near_rank <= high or (near_rank == 1 and high == 14)):
                    continue
                reals = [r for r in ranks if r in present]
                for extra in range(jokers - len(gaps) + 1):
                    for swapped in itertools.combinations(reals, extra):
                        as_joker = set(gaps) | set(swapped)
                        layout = tuple(
                            JOKER if r in as_joker else _TILE[1 if r == 14 else r, colour]
                            for r in ranks
                        )
                        if is_valid_meld(layout, rules):
                            yield layout


def _set_layouts(
    pool: Counter[Tile], rules: Ruleset, near: Tile | None = None
) -> Iterator[tuple[Tile, ...]]:
    """Every valid set whose values are a sub-multiset of ``pool``; with ``near`` only
    those of its rank."""
    jokers = min(pool[JOKER], 2)
    for rank in range(1, 14):
        if near is not None and near.rank != rank:
            continue
        colours = [c for c in _COLORS if pool[_TILE[rank, c]]]
        for n in range(1, len(colours) + 1):
            for chosen in itertools.combinations(colours, n):
                for j in range(jokers + 1):
                    if 3 <= n + j <= 4:
                        layout = (*(_TILE[rank, c] for c in chosen), *([JOKER] * j))
                        if is_valid_meld(layout, rules):
                            yield layout


def _layouts(
    pool: Counter[Tile], rules: Ruleset, near: Tile | None = None
) -> list[tuple[Tile, ...]]:
    """Every valid meld inside ``pool`` (with ``near``, a numbered tile, only those
    that may hold it: see :func:`_run_layouts`; a superset of the melds holding it,
    in the same order).  A fixed joker (JOLY-05) stands only where its
    tile would: the layouts are built with it as that tile, then each reading that
    uses the fixed joker instead is checked on its own."""
    fixed = {t.fixed_as: t for t in pool if t.is_fixed_joker and t.fixed_as is not None}
    if not fixed:
        return [*_run_layouts(pool, rules, near), *_set_layouts(pool, rules, near)]
    acting: Counter[Tile] = Counter()
    for tile, count in pool.items():
        acting[fixed_as if (fixed_as := tile.fixed_as) is not None else tile] += count
    out: list[tuple[Tile, ...]] = []
    for layout in [*_run_layouts(acting, rules, near), *_set_layouts(acting, rules, near)]:
        spots = [i for i, t in enumerate(layout) if t in fixed]
        for k in range(len(spots) + 1):
            for chosen in itertools.combinations(spots, k):
                variant = tuple(fixed[t] if i in chosen else t for i, t in enumerate(layout))
                need = Counter(variant)
                if all(pool[t] >= c for t, c in need.items()) and is_valid_meld(variant, rules):
                    out.append(variant)
    return list(dict.fromkeys(out))


def meld_layouts(pool: Mapping[Tile, int], rules: Ruleset) -> list[tuple[Tile, ...]]:
    """Every valid meld (tile values in laid order) whose values are a sub-multiset of
    ``pool`` (each value with the number of copies held; a count below 1 holds none),
    runs first.  A free joker
    fills the gaps of a run or the missing colours of a set, and also stands in for a
    held tile where it could; a fixed joker (JOLY-05) only where its tile would."""
    require_ruleset(rules)
    if not isinstance(pool, Mapping):
        raise TypeError(f"pool must be a mapping of tiles to counts, not {type(pool).__name__}")
    positive = True
    for tile, count in pool.items():
        if not isinstance(tile, Tile):
            raise TypeError(f"a pool key must be a Tile, not {type(tile).__name__}")
        if type(count) is not int:
            raise TypeError(f"a pool count must be an int, not {type(count).__name__}")
        positive = positive and count > 0
    counts = pool if positive and type(pool) is Counter else +Counter(pool)
    return _layouts(counts, rules)
