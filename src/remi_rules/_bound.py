"""The upper bound that steers the search by ranks (:mod:`remi_rules._by_ranks`).

The search asks threshold questions ("is the value of this state at least g?") and
stops expanding a state whose upper bound is below g, so the tighter the bound, the
fewer states it meets; the answer does not depend on the bound as long as it is an
upper bound (docs/solver.md, "The bound").  Two relaxations, the smaller used:

* *per colour*: a small exact search over each colour's own tiles and its runs
  (3 tiles or more, consecutive positions, up to two jokers anywhere, each joker
  worth the position it fills), in which a tile may instead stand alone for the most
  it could be worth outside a run (its set's worth where its rank can hold a set,
  with a joker or without, its lay-off worth); the colours share the jokers, counted
  in units (two a joker in a run, one a tile alone whose set needs a joker), and a
  joker no run takes is worth at most a set of a rank still ahead (the tables:
  :mod:`remi_rules._bound_colour`);
* *per rank*: each rank on its own, its sets exact with the jokers they use, every
  other tile at a run's worth where a run of its colour can hold it; a joker no set
  takes is worth at most a run position still ahead.

Every real split of the hand is one choice in each relaxation, so both are upper
bounds.  Tables are built once per solve, on the whole hand (a remainder only has
fewer tiles, so they bound its states too), or per question on large hands; a
:class:`BoundCache` shares the colour tables of one solve's bounds.  Bounds are
memoised for the solve.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Sequence
from typing import Final

from ._bound_colour import _NEG, BoundCache, _Colour, _combine, _Row
from ._meld_catalogue import FREE_JOKER, REAL_FIELDS

_KEEP: Final = 4
"""Tiles still to leave over beyond this count are not tracked (the bound is then
that of leaving over only this many)."""


def run_points(rank: int) -> int:
    """VALUE-01 in a run: the points of position ``rank`` (14 is the high ace)."""
    return 10 if rank >= 10 else 5


def set_points(rank: int) -> int:
    """VALUE-01 in a set of ``rank``."""
    return 25 if rank == 1 else 10 if rank >= 10 else 5


@functools.lru_cache(maxsize=8)
def _set_shapes(per: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """The sets one rank can hold, as (colours, jokers): 3-4 tiles, at most two
    jokers, at least ``per`` real tiles per joker (MELD-05); and no set."""
    shapes: list[tuple[tuple[int, ...], int]] = [((), 0)]
    for k in range(1, 5):
        for colours in itertools.combinations(range(4), k):
            for nj in range(3):
                if 3 <= k + nj <= 4 and k >= per * nj:
                    shapes.append((colours, nj))
    return tuple(shapes)


class Bound:
    """Upper bounds on the value of the states of one solve (see the module doc)."""

    def __init__(
        self,
        counts: Sequence[int],
        *,
        per: int,
        runs_ok: bool,
        high: bool,
        gain_of: Sequence[int],
        lay: Sequence[int],
        adjacent: bool = True,
        keep: int = _KEEP,
        cache: BoundCache | None = None,
    ) -> None:
        jokers = min(2, sum(counts[FREE_JOKER:]))
        self.keep = min(keep, _KEEP)
        self.top = top = 14 if high else 13
        shapes = _set_shapes(per)
        colours = [0] * 16
        for r in range(1, 14):
            colours[r] = sum(1 for c in range(4) if counts[(r - 1) * 4 + c])
        # Whether a rank can hold a set: with its own tiles alone, with j jokers; and
        # a set holding a joker.
        can_set = [[False] * 16 for _ in range(3)]
        joker_set = [False] * 16
        for r in range(1, 14):
            for cols, nj in shapes[1:]:
                if len(cols) <= colours[r]:
                    for j in range(nj, 3):
                        can_set[j][r] = True
                    joker_set[r] = joker_set[r] or nj > 0
        self.set_worth = [gain_of[set_points(r)] if 1 <= r <= 13 else 0 for r in range(17)]
        # A joker no run takes: at most the set of a rank from r on.
        set_joker = [0] * 17
        for r in range(13, 0, -1):
            here = self.set_worth[r] if joker_set[r] and jokers else 0
            set_joker[r] = max(set_joker[r + 1], here)
        self.set_joker = set_joker

        # A joker no set takes: at most a run position p >= r - 2 (a run open from
        # below, or the jokers before a run's first tile) where a run can hold a joker
        # at all: two tiles of its colour beside it (p-2 p-1, p-1 p+1 or p+1 p+2), or,
        # where jokers may be adjacent and there are two, one tile within two positions.
        def held(c: int, p: int) -> bool:
            return 1 <= p <= top and bool(counts[((p - 1) % 13) * 4 + c])

        two = adjacent and jokers >= 2

        def holds_joker(c: int, p: int) -> bool:
            if (held(c, p - 2) and held(c, p - 1)) or (held(c, p - 1) and held(c, p + 1)):
                return True
            if held(c, p + 1) and held(c, p + 2):
                return True
            return two and any(held(c, p + d) for d in (-2, -1, 1, 2))

        at = [0] * 17
        if runs_ok:
            for p in range(1, top + 1):
                if any(holds_joker(c, p) for c in range(4)):
                    at[p] = gain_of[run_points(p)]
        run_joker = [0] * 17
        for r in range(top, 0, -1):
            run_joker[r] = max(run_joker[r + 1], *(at[p] for p in range(max(r - 2, 1), r + 1)))
        self.run_joker = run_joker

        self.rank_best, self.tile_alone = _by_rank(
            counts, top=top, runs_ok=runs_ok, shapes=shapes, gain_of=gain_of, lay=lay
        )
        # The colour tables, over joker *units*: a joker in a run takes two, a tile
        # alone whose set needs a joker (a rank of two colours) one, since such a set
        # holds at most two real tiles per joker; the colours share 2 units a joker.
        # A table depends only on its colour's tiles and their worth alone: bounds of
        # one solve built with ``cache`` share the tables they have in common.
        if cache is None:
            cache = BoundCache()
        run = [0] * 16
        for r in range(1, 14):
            run[r] = gain_of[run_points(r)]
        if top == 14:
            run[14] = gain_of[10]
        tables = []
        for c in range(4):
            count = [0] * 16
            alone = [0] * 16
            alone_joker = [0] * 16
            for r in range(1, 14):
                f = (r - 1) * 4 + c
                count[r] = counts[f]
                alone[r] = max(self.set_worth[r] if can_set[0][r] else 0, lay[f], 0)
                if jokers and can_set[jokers][r] and self.set_worth[r] > alone[r]:
                    alone_joker[r] = self.set_worth[r]
            if top == 14:
                alone[14] = max(lay[c], 0)
            key = (c, tuple(count), tuple(alone), tuple(alone_joker), jokers)
            table = cache.colours.get(key)
            if table is None:
                table = _Colour(count, alone, alone_joker, run, top, runs_ok, self.keep, jokers)
                table.shared = cache.ways
                cache.colours[key] = table
            tables.append(table)
        self.tables = tables
        # The per-rank bound's parts: per rank, the most the later ranks give with j
        # jokers and the rest at ``spare``; per field, the most the tiles of its rank
        # from it on are worth.
        self.worth = [max(set_joker[min(r, 16)], run_joker[min(r, 16)]) for r in range(15)]
        later_best: list[list[int]] = []
        still: list[int] = [0] * 56
        for r in range(1, 15):
            here = self.set_worth[r] if r <= 13 else 0
            spare = max(run_joker[min(r, 16)], here)
            later = self.rank_best[r + 1]
            later_best.append(
                [
                    max(later[i] + (j - i) * spare for i in range(min(j, len(later) - 1) + 1))
                    for j in range(3)
                ]
            )
            if r <= 13:
                total = 0
                for c in range(3, -1, -1):
                    f = (r - 1) * 4 + c
                    total += counts[f] * max(self.tile_alone[f], here)
                    still[f] = total
        self.later_best = later_best
        self.still = still
        self._memo: dict[object, int] = {}
        self._relaxed_memo: dict[object, int] = {}
        self._sizes: dict[tuple[int, ...], int] = {}
        self._pairs: dict[object, _Row | None] = {}
        """Two colours' rows combined (colours 0 and 1, 2 and 3; most states share them
        with others): by the colour, and per colour the rank, runs and aces waiting,
        and the joker units and tiles to leave."""
        self._relaxed: dict[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]] = {}

    def of(
        self,
        rank: int,
        colour: int,
        profile: tuple[tuple[int, ...], ...],
        slots: tuple[int, ...],
        jokers: int,
        keep: int,
        waiting: int,
    ) -> int:
        """The bound of a state at the field (``rank``, ``colour``) (rank 14: the
        high aces), with open runs ``profile`` per colour (each run an int whose two
        low bits are its length capped at 3), set ``slots`` of this rank (their sizes
        in bits 4 and up, their colours in bits 0-3), ``jokers`` left, ``keep`` tiles
        still to leave over and, in bits ``3c`` and ``3c + 1`` of ``waiting``, the
        aces of colour c set aside for the top of a run."""
        key = (rank, colour, profile, jokers, keep, waiting)
        found = self._memo.get(key)
        if found is None:
            # States that differ only in what the bound ignores share the work.
            relaxed = self._relaxed.get(profile)
            if relaxed is None:
                relaxed = tuple(tuple(sorted(o & 3 for o in runs)) for runs in profile)
                self._relaxed[profile] = relaxed
            jokers = 2 if jokers > 2 else jokers
            keep = self.keep if keep > self.keep else keep
            key2 = (rank, colour, relaxed, jokers, keep, waiting)
            found = self._relaxed_memo.get(key2)
            if found is None:
                found = self._of(rank, colour, relaxed, jokers, keep, waiting)
                self._relaxed_memo[key2] = found
            self._memo[key] = found
        if slots and found > _NEG:
            # The tiles in the sets of this rank, at their set's worth (both bounds).
            size = self._sizes.get(slots)
            if size is None:
                size = self._sizes[slots] = sum((m >> 4) + (m & 15).bit_count() for m in slots)
            found += self.set_worth[rank] * size
        return found

    def _of(
        self,
        rank: int,
        colour: int,
        relaxed: tuple[tuple[int, ...], ...],
        jokers: int,
        keep: int,
        waiting: int,
    ) -> int:
        tables = self.tables
        cap = 2 * jokers
        lefts = keep + 1
        # Each colour's row: its best per (joker units it may use, tiles it leaves
        # over at least).  The colours share the units, ``cap`` in all: their rows
        # are combined in pairs (0 and 1, 2 and 3; most states share them with
        # others), then the pairs.
        pairs = self._pairs
        halves: list[_Row] = []
        for c in (0, 2):
            at = rank if c >= colour else rank + 1
            wait = (waiting >> 3 * c) & 3 if at > 1 else 0
            at2 = rank if c + 1 >= colour else rank + 1
            wait2 = (waiting >> 3 * c + 3) & 3 if at2 > 1 else 0
            key = (c, at, relaxed[c], wait, at2, relaxed[c + 1], wait2, cap, lefts)
            if key in pairs:
                half = pairs[key]
            else:
                one = tables[c].row(at, relaxed[c], wait, cap, lefts)
                two = tables[c + 1].row(at2, relaxed[c + 1], wait2, cap, lefts)
                half = pairs[key] = (
                    None if one is None or two is None else _combine(one, two, cap, lefts)
                )
            if half is None:
                return _NEG
            halves.append(half)
        (flat_low, low), (flat_high, high) = halves
        # Jokers left over count toward the tiles to keep (two units each); every
        # other joker is worth at most ``worth``, in a run (where the colours' tables
        # count it as nothing) or a set.  Only these entries of the two halves'
        # product are needed.
        worth = self.worth[rank]
        total = _NEG
        for left in range(min(jokers, keep) + 1):
            units, tiles = cap - 2 * left, keep - left
            v = _NEG
            for u in range(units + 1) if not (flat_low and flat_high) else (0,):
                a = 0 if flat_low else u * lefts
                b = 0 if flat_high else (units - u) * lefts
                for k in range(tiles + 1):
                    x = low[a + k] + high[b + tiles - k]
                    if x > v:
                        v = x
            if v > _NEG // 2:
                total = max(total, v + (jokers - left) * worth)
        if total <= _NEG:
            return _NEG
        # The other bound: the ranks after this one at their best (sets exact with
        # their jokers, each other tile at a run's worth where a run can hold it), the
        # tiles of this rank still to come at their most; an upper bound too, whatever
        # the runs still open.
        other = self.later_best[rank - 1][jokers]
        if rank <= 13:
            other += self.still[(rank - 1) * 4 + colour]
        # The aces waiting for the top.
        alone = self.tile_alone
        for c in range(colour if rank == 14 else 0, 4):
            wait = (waiting >> 3 * c) & 3
            if wait:
                other += wait * alone[52 + c]
        return total if total < other else other


def _by_rank(
    counts: Sequence[int],
    *,
    top: int,
    runs_ok: bool,
    shapes: Sequence[tuple[tuple[int, ...], int]],
    gain_of: Sequence[int],
    lay: Sequence[int],
) -> tuple[list[list[int]], list[int]]:
    """Per rank r and per number j of jokers: the best of the ranks r and above,
    each on its own, with at most j jokers in their sets: the sets exact, every other
    tile at its run worth where some run of its colour can hold it, else its lay-off
    worth; and per field the most a tile of that field is worth alone (``52 + c``: an
    ace at the top)."""

    # held[c][p + 2]: the tiles of colour c at position p (14: the aces), -1 off the
    # positions.
    held = [
        [-1, -1, *(counts[((p - 1) % 13) * 4 + c] for p in range(1, top + 1)), -1, -1, -1]
        for c in range(4)
    ]

    def in_run(c: int, p: int, jokers: int) -> bool:
        """Whether a run of colour c can hold position p: some window of three
        positions around it with the others held or filled by the jokers."""
        if not runs_ok:
            return False
        h = held[c]
        for lo in range(p - 1, p + 2):
            a, b, d = h[lo], h[lo + 1], h[lo + 2]
            if a >= 0 and b >= 0 and d >= 0 and (not a) + (not b) + (not d) <= jokers:
                return True
        return False

    # The gaps a run can fill: the hand's jokers, not only those left (a joker an
    # open run already holds fills a gap too).
    jokers = min(2, sum(counts[FREE_JOKER:]))
    alone = [0] * 56
    for f in range(REAL_FIELDS):
        r, c = f // 4 + 1, f % 4
        worth = gain_of[run_points(r)] if in_run(c, r, jokers) else 0
        if r == 1 and top == 14 and in_run(c, 14, jokers):
            worth = gain_of[10]
        alone[f] = max(worth, lay[f], 0)
    for c in range(4):
        alone[52 + c] = max(gain_of[10] if in_run(c, 14, jokers) else 0, lay[c], 0)
    best = [[0] * (jokers + 1) for _ in range(18)]
    for r in range(13, 0, -1):
        fields = [(r - 1) * 4 + c for c in range(4)]
        have = [counts[f] for f in fields]
        worth = gain_of[set_points(r)]
        # top_value[j]: the rank's best with exactly j jokers in its sets.
        top_value = [_NEG] * (jokers + 1)
        base = sum(have[c] * alone[fields[c]] for c in range(4))
        # A tile in a set is worth the set's points instead of its worth alone.
        fits = [
            (a, ja, sum(worth - alone[fields[c]] for c in a) + ja * worth)
            for a, ja in shapes
            if ja <= jokers and all(have[c] for c in a)
        ]
        for i, (a, ja, ga) in enumerate(fits):
            for b, jb, gb in fits[i:]:
                nj = ja + jb
                if nj > jokers or (b and any(have[c] < 2 for c in a if c in b)):
                    continue
                value = base + ga + gb
                if value > top_value[nj]:
                    top_value[nj] = value
        for j in range(jokers + 1):
            best[r][j] = max(
                best[r + 1][j - i] + top_value[i] for i in range(j + 1) if top_value[i] > _NEG
            )
    return best, alone


def make_bound(
    counts: Sequence[int],
    *,
    per: int,
    runs_ok: bool,
    high: bool,
    gain_of: Sequence[int],
    lay: Sequence[int],
    adjacent: bool = True,
    keep: int = _KEEP,
    cache: BoundCache | None = None,
) -> Callable[[int, int, tuple[tuple[int, ...], ...], tuple[int, ...], int, int, int], int]:
    """:meth:`Bound.of` for one solve (``keep``: the most tiles to leave over it
    will be asked about; ``cache``: shared with the other bounds of the solve built
    with the same ``gain_of``, ``keep`` and knobs)."""
    return Bound(
        counts,
        per=per,
        runs_ok=runs_ok,
        high=high,
        gain_of=gain_of,
        lay=lay,
        adjacent=adjacent,
        keep=keep,
        cache=cache,
    ).of
