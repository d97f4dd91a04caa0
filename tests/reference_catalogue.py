"""The two meld catalogue builders as they were before the one catalogue
(``remi_rules._meld_catalogue``, commit fb466d8), kept word for word as the reference
its equality test (tests/test_meld_catalogue.py) compares it with:

* :func:`old_layouts` (was ``remi_rules.layouts._layouts``): the tile layouts for
  the rules and the engine, in their order, with the ``near`` filter of the take
  rules;
* :func:`old_catalogue` (was ``remi_rules._meld_catalogue.catalogue``): the solver's
  candidates (the solver does not depend on their order).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Final

from remi_rules import Color, Ruleset, Tile, is_valid_meld
from remi_rules._meld_catalogue import FREE_JOKER, Candidate
from remi_rules.tiles import JOKER

_FIXED0: Final = 53


# -- layouts.py ---------------------------------------------------------------------------


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


def old_layouts(
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


# -- _meld_catalogue.py ------------------------------------------------------------------


_RUN_FIELDS: Final = tuple((0, *(((p - 1) % 13) * 4 + c for p in range(1, 15))) for c in range(4))
"""``_RUN_FIELDS[c][p]``: the field at run position ``p`` (1–14; 14 is the high ace)."""
_PREFIX: Final = tuple(sum(10 if q >= 10 else 5 for q in range(1, p + 1)) for p in range(15))
"""``_PREFIX[p]``: the points of run positions 1..p (VALUE-01: 5 up to 9, 10 from 10)."""


def _run(acc: tuple[int, ...], points: int, plain: bool) -> Candidate:
    key = (acc, acc) if plain else (tuple(sorted(acc)), acc)
    return Candidate(acc, key, points, True, False)


def _run_candidates(counts: Sequence[int], rules: Ruleset, out: list[Candidate], maxj: int) -> None:
    per = rules.real_tiles_per_joker
    adjacent = rules.jokers_may_be_adjacent
    free = counts[FREE_JOKER]
    top = 14 if rules.ace_high_run else 13
    for c in range(4):
        fields = _RUN_FIELDS[c]
        real = [False, *(counts[fields[p]] > 0 for p in range(1, 15)), False]
        if sum(real) < 3 - maxj:
            continue
        if not maxj:
            # No jokers: every window of three or more consecutive held positions.
            for lo in range(1, top - 1):
                if not real[lo]:
                    continue
                for hi in range(lo + 2, min(top, lo + 12) + 1):
                    if not (real[hi] and real[hi - 1] and real[hi - 2]):
                        break
                    acc = fields[lo : hi + 1]
                    out.append(_run(acc, _PREFIX[hi] - _PREFIX[lo - 1], hi < 14))
            continue
        fixed = [False, *(counts[_FIXED0 + fields[p]] > 0 for p in range(1, 15))]
        for lo in range(1, top - 1):
            # Partial runs from lo: (fields, jokers, free jokers used, last was a joker).
            partial: list[tuple[tuple[int, ...], int, int, bool]] = [((), 0, 0, False)]
            for hi in range(lo, min(top, lo + 12) + 1):
                f = fields[hi]
                grown: list[tuple[tuple[int, ...], int, int, bool]] = []
                for acc, nj, nf, last in partial:
                    if real[hi]:
                        grown.append(((*acc, f), nj, nf, False))
                    if nj < maxj and (adjacent or not last):
                        if nf < free:
                            grown.append(((*acc, FREE_JOKER), nj + 1, nf + 1, True))
                        if fixed[hi]:
                            grown.append(((*acc, _FIXED0 + f), nj + 1, nf, True))
                if not grown:
                    break
                partial = grown
                n = hi - lo + 1
                if n < 3:
                    continue
                points = _PREFIX[hi] - _PREFIX[lo - 1]
                for acc, nj, _, _ in partial:
                    if n - nj >= per * nj and nj < n:
                        out.append(_run(acc, points, not nj and hi < 14))


def _set_candidates(counts: Sequence[int], rules: Ruleset, out: list[Candidate], maxj: int) -> None:
    per = rules.real_tiles_per_joker
    free = min(counts[FREE_JOKER], maxj)
    ace_joker_ok = rules.opening_ace_set_joker_ok
    for rank in range(1, 14):
        base = (rank - 1) * 4
        reals = [c for c in range(4) if counts[base + c]]
        if len(reals) + maxj < 3:
            continue
        fixed = [c for c in range(4) if counts[_FIXED0 + base + c]] if maxj else []
        value = 25 if rank == 1 else 10 if rank >= 10 else 5
        for k in range(max(1, per), len(reals) + 1):
            for chosen in itertools.combinations(reals, k):
                real_fields = tuple(base + c for c in chosen)
                if not maxj:
                    if k >= 3:
                        out.append(
                            Candidate(
                                real_fields, (real_fields, real_fields), value * k, False, rank == 1
                            )
                        )
                    continue
                spare = [c for c in fixed if c not in chosen]
                for nf in range(free + 1):
                    for kf in range(min(len(spare), maxj - nf) + 1):
                        n = k + nf + kf
                        nj = nf + kf
                        if not 3 <= n <= 4 or k < per * nj:
                            continue
                        for fx in itertools.combinations(spare, kf):
                            acc = (
                                *real_fields,
                                *(FREE_JOKER,) * nf,
                                *(_FIXED0 + base + c for c in fx),
                            )
                            ace = rank == 1 and (k >= 3 or ace_joker_ok)
                            out.append(Candidate(acc, (acc, acc), value * n, False, ace))


def old_catalogue(counts: Sequence[int], rules: Ruleset, *, runs: bool = True) -> list[Candidate]:
    """Every valid meld whose tiles are inside the hand ``counts`` (105 fields).

    A joker goes in every slot it may fill, including the slot of a tile the hand
    holds (that tile may be wanted elsewhere); fixed jokers only where their tile
    would go (JOLY-05).  Runs come first (none when not ``runs``), then sets; the
    order is not significant."""
    jokers = sum(counts[FREE_JOKER:])
    maxj = min(2, jokers)
    out: list[Candidate] = []
    if runs:
        _run_candidates(counts, rules, out, maxj)
    _set_candidates(counts, rules, out, maxj)
    return out
