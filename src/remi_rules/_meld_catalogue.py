"""The solver's fields and its meld catalogue: the tiles of a hand as counts per field,
and every valid meld inside it (:func:`catalogue`), for :mod:`remi_rules._partition`
and the search by ranks.

Rules: MELD-01 … MELD-06 (which groups are melds), VALUE-01 (their points).  Tiles are
*fields* in the solver's order, rank first (``1R 1G 1A 1N 2R …``), then the free joker,
then fixed jokers (*joker întors*) by the tile they stand for.  A joker fills every
slot it may; melds using exactly the same tiles are merged, keeping the better one.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from typing import Final, NamedTuple

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


def catalogue(counts: Sequence[int], rules: Ruleset, *, runs: bool = True) -> list[Candidate]:
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
