"""The upper bound that steers the search by ranks (:mod:`remi_rules._by_ranks`).

The search asks threshold questions ("is the value of this state at least g?") and
stops expanding a state whose upper bound is below g, so the tighter the bound, the
fewer states it meets; the answer does not depend on the bound as long as it is an
upper bound (docs/solver.md, "The bound").  Two relaxations, the smaller used:

* *per colour*: a small exact search over each colour's own tiles and its runs
  (3 tiles or more, consecutive positions, up to two jokers anywhere, each joker
  worth the position it fills), in which a tile may instead stand alone for the most
  it could be worth outside a run (its set's worth where its rank can hold a set,
  its lay-off worth); the colours share the jokers, and a joker no run takes is worth
  at most a set of a rank still ahead;
* *per rank*: each rank on its own, its sets exact with the jokers they use, every
  other tile at a run's worth where a run of its colour can hold it; a joker no set
  takes is worth at most a run position still ahead.

Every real split of the hand is one choice in each relaxation, so both are upper
bounds.  Tables are built once per solve, on the whole hand; a remainder only has
fewer tiles, so they bound its states too.  Bounds are memoised for the solve.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Sequence
from typing import Final

from ._meld_catalogue import FREE_JOKER, REAL_FIELDS

_NEG: Final = -(1 << 60)
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
        # The colour tables with 0, 1 or 2 jokers left (a rank of two colours holds a
        # set only with a joker); one table serves fewer jokers where it is the same.
        tables: list[list[_Colour]] = []
        shared: dict[tuple[int, tuple[int, ...], int, int, int], dict[_Way, int]] = {}
        for j in range(jokers + 1):
            if j < jokers and can_set[j] == can_set[jokers]:
                continue
            table = [
                _Colour(counts, c, top, runs_ok, gain_of, can_set[j], lay, self.keep, j, shared)
                for c in range(4)
            ]
            while len(tables) <= j:
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
        self._relaxed: dict[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]] = {}

    def of(
        self,
        rank: int,
        colour: int,
        profile: tuple[tuple[int, ...], ...],
        slots: Sequence[int],
        jokers: int,
        keep: int,
        waiting: tuple[int, ...],
    ) -> int:
        """The bound of a state at the field (``rank``, ``colour``) (rank 14: the
        high aces), with open runs ``profile`` per colour (each run an int whose two
        low bits are its length capped at 3), set ``slots`` of this rank (their sizes
        in bits 4 and up, their colours in bits 0-3), ``jokers`` left, ``keep`` tiles
        still to leave over and ``waiting[c]`` aces of colour c set aside for the top
        of a run."""
        relaxed = self._relaxed.get(profile)
        if relaxed is None:
            relaxed = tuple(tuple(sorted(o & 3 for o in runs)) for runs in profile)
            self._relaxed[profile] = relaxed
        size = sum((m >> 4) + (m & 15).bit_count() for m in slots) if slots else 0
        jokers = 2 if jokers > 2 else jokers
        keep = self.keep if keep > self.keep else keep
        key = (rank, colour, relaxed, size, jokers, keep, waiting)
        found = self._memo.get(key)
        if found is None:
            found = self._of(rank, colour, relaxed, size, jokers, keep, waiting)
            self._memo[key] = found
        return found

    def _of(
        self,
        rank: int,
        colour: int,
        relaxed: tuple[tuple[int, ...], ...],
        size: int,
        jokers: int,
        keep: int,
        waiting: tuple[int, ...],
    ) -> int:
        tables = self.tables[jokers]
        worth = self.worth[rank]
        if keep == 0:
            total = jokers * worth
            for c in range(4):
                at = rank if c >= colour else rank + 1
                table = tables[c]
                wait = waiting[c] if at > 1 else 0
                v = table.vector(at, relaxed[c])[(wait * table.width + jokers) * table.lefts]
                if v <= _NEG:
                    return _NEG
                total += v
        else:
            # best[k]: the colours so far, at least k of their tiles left over.
            best = [0] + [_NEG] * keep
            for c in range(4):
                at = rank if c >= colour else rank + 1
                wait = waiting[c] if at > 1 else 0
                table = tables[c]
                start = (wait * table.width + jokers) * table.lefts
                row = table.vector(at, relaxed[c])[start : start + keep + 1]
                if row[0] <= _NEG:
                    return _NEG
                best = [
                    max(
                        best[i] + row[k - i] if best[i] > _NEG and row[k - i] > _NEG else _NEG
                        for i in range(k + 1)
                    )
                    for k in range(keep + 1)
                ]
            total = _NEG
            for left in range(min(jokers, keep) + 1):
                v = best[keep - left]
                if v > _NEG:
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
            if size:
                here = self.set_worth[rank] * size
                total += here
                other += here
        # The aces waiting for the top.
        alone = self.tile_alone
        for c in range(colour if rank == 14 else 0, 4):
            if waiting[c]:
                other += waiting[c] * alone[52 + c]
        return total if total < other else other


_Way = tuple[tuple[int, ...], int, int, int]
"""A way of placing a rank's tiles of one colour: (open runs after it, jokers used,
tiles left over, aces set aside)."""


class _Colour:
    """The exact best of one colour's own runs, each other tile alone (module doc),
    per state of the colour: a vector over the aces waiting for the top, the jokers
    usable and the tiles still to leave over."""

    def __init__(
        self,
        counts: Sequence[int],
        c: int,
        top: int,
        runs_ok: bool,
        gain_of: Sequence[int],
        can_set: Sequence[bool],
        lay: Sequence[int],
        keep: int,
        jokers: int,
        shared: dict[tuple[int, tuple[int, ...], int, int, int], dict[_Way, int]],
    ) -> None:
        self.shared = shared
        """The ways of placing a rank's tiles, shared by the colours' tables of one
        bound (they depend only on the rank, the runs, the tiles, their worth alone and
        the jokers)."""
        self.top = top
        self.jokers = jokers
        self.width = jokers + 1
        self.runs_ok = runs_ok
        self.count = [0] * 16
        self.run = [0] * 16
        self.alone = [0] * 16
        for r in range(1, 14):
            f = (r - 1) * 4 + c
            self.count[r] = counts[f]
            self.run[r] = gain_of[run_points(r)]
            self.alone[r] = max(gain_of[set_points(r)] if can_set[r] else 0, lay[f], 0)
        self.high = top == 14
        if self.high:
            self.run[14] = gain_of[10]
            self.alone[14] = max(lay[c], 0)
        self.waits = min(counts[c], 2) + 1 if self.high else 1
        self.lefts = keep + 1
        self.memo: dict[tuple[int, tuple[int, ...]], list[int]] = {}

    def value(self, rank: int, runs: tuple[int, ...], jokers: int, left: int, wait: int) -> int:
        """The colour's best from ``rank`` on, with open runs ``runs`` (lengths,
        sorted), up to ``jokers`` jokers in its runs, at least ``left`` tiles left
        over and ``wait`` aces set aside for the top."""
        return self.vector(rank, runs)[(wait * self.width + jokers) * self.lefts + left]

    def vector(self, rank: int, runs: tuple[int, ...]) -> list[int]:
        """:meth:`value` for every (aces waiting, jokers, tiles to leave) at once."""
        key = (rank, runs)
        found = self.memo.get(key)
        if found is None:
            found = self._vector(rank, runs)
            self.memo[key] = found
        return found

    def _ways(self, rank: int, runs: tuple[int, ...], k: int) -> dict[_Way, int]:
        """The ways to place this rank's ``k`` tiles: (open runs after it, jokers
        used, tiles left over, aces set aside) -> the most they gain."""
        key = (rank, runs, k, self.alone[rank], self.jokers)
        found = self.shared.get(key)
        if found is None:
            found = self._new_ways(rank, runs, k)
            self.shared[key] = found
        return found

    def _new_ways(self, rank: int, runs: tuple[int, ...], k: int) -> dict[_Way, int]:
        g = self.run[rank]
        most = self.jokers
        # Each open run ends (if valid) or takes a tile of this rank or a joker.
        partial: list[tuple[tuple[int, ...], int, int, int]] = [((), k, 0, 0)]
        for n in runs:
            longer = n + 1 if n < 3 else 3
            grown: list[tuple[tuple[int, ...], int, int, int]] = []
            for done, kr, used, gain in partial:
                if n == 3:
                    grown.append((done, kr, used, gain))
                if kr:
                    grown.append(((*done, longer), kr - 1, used, gain + g))
                if used < most:
                    grown.append(((*done, longer), kr, used + 1, gain))
            partial = grown
        alone = self.alone[rank]
        starts = self.runs_ok and rank < 14
        hold = self.high and rank == 1
        most_left = self.lefts - 1
        # Each tile left: alone, left over, set aside for the top (an ace), or the
        # start of a run (after 0-2 jokers below it); the ways that lead to the same
        # next state are merged.
        ways: dict[_Way, int] = {}
        for done, kr, used, gain in partial:
            options = {(tuple(sorted(done)), used, 0, 0): gain}
            for _ in range(kr):
                more: dict[tuple[tuple[int, ...], int, int, int], int] = {}
                for (runs2, used2, left2, held2), gain2 in options.items():
                    nexts = [((runs2, used2, left2, held2), gain2 + alone)]
                    if left2 < most_left:
                        nexts.append(((runs2, used2, left2 + 1, held2), gain2))
                    if hold:
                        nexts.append(((runs2, used2, left2, held2 + 1), gain2))
                    if starts:
                        for lead in range(min(most - used2, rank - 1) + 1):
                            grown_runs = tuple(sorted((*runs2, 1 + lead)))
                            nexts.append(((grown_runs, used2 + lead, left2, held2), gain2 + g))
                    for state, v in nexts:
                        if more.get(state, _NEG) < v:
                            more[state] = v
                options = more
            for state, v in options.items():
                if ways.get(state, _NEG) < v:
                    ways[state] = v
        return ways

    def _vector(self, rank: int, runs: tuple[int, ...]) -> list[int]:
        lefts = self.lefts
        width = self.width
        out = [_NEG] * (self.waits * width * lefts)
        if rank > self.top:
            if all(n == 3 for n in runs):
                for j in range(width):
                    out[j * lefts] = 0
            return out
        if rank == 14:
            # The aces set aside: this rank's tiles; every run ends here.
            for w in range(self.waits):
                for (runs2, used, left, _), gain in self._ways(rank, runs, w).items():
                    if not all(n == 3 for n in runs2):
                        continue
                    for j in range(used, width):
                        for need in range(left + 1):
                            at = (w * width + j) * lefts + need
                            if gain > out[at]:
                                out[at] = gain
            return out
        nxt = rank + 1
        waits = self.waits
        for (runs2, used, left, held), gain in self._ways(rank, runs, self.count[rank]).items():
            child = self.vector(nxt, runs2)
            for w in range(waits - held):
                for j in range(used, width):
                    base = (w * width + j) * lefts
                    src = ((w + held) * width + j - used) * lefts
                    for need in range(lefts):
                        v = child[src + (need - left if need > left else 0)]
                        if v > _NEG and v + gain > out[base + need]:
                            out[base + need] = v + gain
        return out


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

    def held(c: int, p: int) -> int:
        if p < 1 or p > top:
            return -1
        return counts[((p - 1) % 13) * 4 + c]

    def in_run(c: int, p: int, jokers: int) -> bool:
        """Whether a run of colour c can hold position p: some window of three
        positions around it with the others held or filled by the jokers."""
        if not runs_ok:
            return False
        for lo in range(p - 2, p + 1):
            window = [held(c, q) for q in range(lo, lo + 3)]
            if min(window) < 0:
                continue
            if sum(1 for n in window if n == 0) <= jokers:
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
) -> Callable[
    [int, int, tuple[tuple[int, ...], ...], Sequence[int], int, int, tuple[int, ...]], int
]:
    """:meth:`Bound.of` for one solve (``keep``: the most tiles to leave over it
    will be asked about)."""
    return Bound(
        counts,
        per=per,
        runs_ok=runs_ok,
        high=high,
        gain_of=gain_of,
        lay=lay,
        adjacent=adjacent,
        keep=keep,
    ).of
