"""The upper bound that steers the search by ranks (:mod:`remi_rules._by_ranks`).

The search asks threshold questions ("is the value of this state at least g?") and
stops expanding a state whose upper bound is below g, so the tighter the bound, the
fewer states it meets; the answer does not depend on the bound as long as it is an
upper bound (docs/solver.md, "The bound").  Here, per colour, a small exact search
over the colour's own tiles (the runs of that colour, exactly: 3 tiles or more,
consecutive positions, up to two jokers anywhere, worth nothing there) in which a tile
may instead stand alone for the most it could be worth outside a run (its set's worth
where its rank can hold a set at all, its lay-off worth), plus each joker left at the
most a joker can still be worth.  Every real split of the hand is one choice per colour
of these searches (its sets become tiles standing alone, its jokers are counted apart),
so the sum is an upper bound.  A second bound takes each rank on its own (its sets exact,
every other tile at a run's worth where a run of its colour can hold it); the smaller
of the two is used.  Tables are built once per solve, on the whole hand; a remainder
only has fewer tiles, so they bound its states too.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Final

from ._partition import FREE_JOKER, REAL_FIELDS

_NEG: Final = -(1 << 60)
_SETS: Final = ((), *itertools.combinations(range(4), 3), tuple(range(4)))
"""The colours of a set of one rank (three or four), or no set."""
_KEEP: Final = 4
"""Tiles still to leave over beyond this count are not tracked (the bound is then
that of leaving over only this many)."""


def run_points(rank: int) -> int:
    """VALUE-01 in a run: the points of position ``rank`` (14 is the high ace)."""
    return 10 if rank >= 10 else 5


def set_points(rank: int) -> int:
    """VALUE-01 in a set of ``rank``."""
    return 25 if rank == 1 else 10 if rank >= 10 else 5


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
    ) -> None:
        jokers = sum(counts[FREE_JOKER:])
        self.top = 14 if high else 13
        top = self.top
        # A rank can hold a set: three colours, or two and a joker (enough real tiles
        # for it under real_tiles_per_joker).
        colours = [0] * 15
        for r in range(1, 14):
            colours[r] = sum(1 for c in range(4) if counts[(r - 1) * 4 + c])
        set_gain = [0] * 16
        # A rank of two colours holds a set only with a joker: such a set is counted
        # with its joker (below), not in the tiles' worth.
        pair = [0] * 16
        for r in range(1, 14):
            k = colours[r]
            if k >= 3:
                set_gain[r] = gain_of[set_points(r)]
            elif k == 2 and jokers and k >= per:
                pair[r] = 3 * gain_of[set_points(r)]
        for r in range(13, 0, -1):
            pair[r] = max(pair[r], pair[r + 1])
        self.set_gain = set_gain
        self.set_worth = [gain_of[set_points(r)] if 1 <= r <= 13 else 0 for r in range(16)]

        # The most a joker can be worth at a field of rank r or later: a set of such a
        # rank; a run position p >= r - 2 (a run open from below, or the jokers before
        # a run's first tile) where a run can hold a joker at all: two tiles of its
        # colour beside it (p-2 p-1, p-1 p+1 or p+1 p+2), or, where jokers may be
        # adjacent and there are two, one tile of its colour within two positions.
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
        joker = [0] * 16
        for r in range(top, 0, -1):
            here = max(set_gain[r] if r <= 13 else 0, pair[r] if r <= 13 else 0)
            here = max(here, *(at[p] for p in range(max(r - 2, 1), top + 1)))
            joker[r] = max(joker[r + 1], here)
        self.joker = joker
        self.rank_best, self.tile_alone = _by_rank(
            counts, top=top, runs_ok=runs_ok, jokers=jokers, gain_of=gain_of, lay=lay
        )
        self.tables = [_Colour(counts, c, top, runs_ok, gain_of, set_gain, lay) for c in range(4)]
        self._relaxed: dict[tuple[int, ...], tuple[int, ...]] = {}
        self.count = list(counts[:REAL_FIELDS])

    def relaxed(self, runs: tuple[int, ...]) -> tuple[int, ...]:
        """The open runs of a colour as the colour search sees them: lengths, capped."""
        found = self._relaxed.get(runs)
        if found is None:
            found = tuple(sorted(o & 3 for o in runs))
            self._relaxed[runs] = found
        return found

    def of(
        self,
        rank: int,
        colour: int,
        profile: Sequence[tuple[int, ...]],
        slots: Sequence[int],
        jokers: int,
        keep: int,
        waiting: Sequence[int],
    ) -> int:
        """The bound of a state at the field (``rank``, ``colour``) (rank 14: the
        high aces), with open runs ``profile`` per colour, set ``slots`` of this rank,
        ``jokers`` left, ``keep`` tiles still to leave over and ``waiting[c]`` aces
        of colour c set aside for the top of a run."""
        usable = min(2, jokers)
        keep = min(keep, _KEEP)
        # best[j]: the colours so far, leaving at least j of their tiles over.
        best = [0] + [_NEG] * keep
        for c in range(4):
            at = rank if c >= colour else rank + 1
            table = self.tables[c]
            runs = self.relaxed(profile[c])
            wait = waiting[c] if at > 1 else 0
            row = [table.value(at, runs, usable, j, wait) for j in range(keep + 1)]
            if row[0] <= _NEG:
                return _NEG
            best = [
                max(
                    best[i] + row[j - i] if best[i] > _NEG and row[j - i] > _NEG else _NEG
                    for i in range(j + 1)
                )
                for j in range(keep + 1)
            ]
        worth = self.joker[min(rank, 15)]
        # The other bound: the ranks after this one at their best (sets exact, each
        # other tile at a run's worth where a run can hold it), the tiles of this rank
        # still to come alone; an upper bound too, whatever the runs still open.
        other = self.rank_best[rank + 1] + jokers * worth
        if rank <= 13:
            here = self.set_worth[rank]
            for c in range(colour, 4):
                f = (rank - 1) * 4 + c
                other += self.count[f] * max(self.tile_alone[f], here)
        # The aces waiting for the top.
        for c in range(colour if rank == 14 else 0, 4):
            other += waiting[c] * self.tile_alone[52 + c]
        total = _NEG
        for left in range(min(jokers, keep) + 1):
            v = best[keep - left]
            if v > _NEG:
                total = max(total, v + (jokers - left) * worth)
        if total <= _NEG:
            return _NEG
        if slots and rank <= 13:
            size = sum((m >> 4) + (m & 15).bit_count() for m in slots)
            total += size * self.set_worth[rank]
            other += size * self.set_worth[rank]
        return min(total, other)


class _Colour:
    """The exact best of one colour's own runs, each other tile alone (module doc)."""

    def __init__(
        self,
        counts: Sequence[int],
        c: int,
        top: int,
        runs_ok: bool,
        gain_of: Sequence[int],
        set_gain: Sequence[int],
        lay: Sequence[int],
    ) -> None:
        self.top = top
        self.runs_ok = runs_ok
        self.count = [0] * 16
        self.run = [0] * 16
        self.alone = [0] * 16
        for r in range(1, 14):
            f = (r - 1) * 4 + c
            self.count[r] = counts[f]
            self.run[r] = gain_of[run_points(r)]
            self.alone[r] = max(set_gain[r], lay[f] if f < REAL_FIELDS else 0, 0)
        self.high = top == 14
        if self.high:
            self.run[14] = gain_of[10]
            self.alone[14] = max(lay[c], 0)
        self.memo: dict[tuple[int, tuple[int, ...], int, int, int], int] = {}

    def value(self, rank: int, runs: tuple[int, ...], jokers: int, left: int, wait: int) -> int:
        """The colour's best from ``rank`` on, with open runs ``runs`` (lengths),
        up to ``jokers`` jokers, at least ``left`` tiles left over and ``wait`` aces
        set aside for the top."""
        if rank > self.top:
            return 0 if not left and all(n == 3 for n in runs) else _NEG
        key = (rank, runs, jokers, left, wait)
        found = self.memo.get(key)
        if found is None:
            found = self._value(rank, runs, jokers, left, wait)
            self.memo[key] = found
        return found

    def _value(self, rank: int, runs: tuple[int, ...], jokers: int, left: int, wait: int) -> int:
        k = wait if rank == 14 else self.count[rank]
        g = self.run[rank]
        # Each open run ends (if valid) or takes a tile of this rank or a joker.
        partial: list[tuple[tuple[int, ...], int, int, int]] = [((), k, jokers, 0)]
        for n in runs:
            longer = n + 1 if n < 3 else 3
            grown: list[tuple[tuple[int, ...], int, int, int]] = []
            for done, kr, jl, gain in partial:
                if n == 3:
                    grown.append((done, kr, jl, gain))
                if kr:
                    grown.append(((*done, longer), kr - 1, jl, gain + g))
                if jl:
                    grown.append(((*done, longer), kr, jl - 1, gain))
            partial = grown
        best = _NEG
        alone = self.alone[rank]
        starts = self.runs_ok and rank < 14
        hold = self.high and rank == 1
        for done, kr, jl, gain in partial:
            # Each tile left: alone, left over, set aside for the top (an ace), or the
            # start of a run (after 0-2 jokers below it).
            options = [(done, jl, gain, left, wait)]
            for _ in range(kr):
                more = []
                for runs2, jl2, gain2, left2, wait2 in options:
                    more.append((runs2, jl2, gain2 + alone, left2, wait2))
                    if left2:
                        more.append((runs2, jl2, gain2, left2 - 1, wait2))
                    if hold:
                        more.append((runs2, jl2, gain2, left2, wait2 + 1))
                    if starts:
                        for lead in range(min(jl2, 2, rank - 1) + 1):
                            more.append(((*runs2, 1 + lead), jl2 - lead, gain2 + g, left2, wait2))
                options = more
            for runs2, jl2, gain2, left2, wait2 in options:
                v = self.value(rank + 1, tuple(sorted(runs2)), jl2, left2, wait2)
                if v > _NEG and v + gain2 > best:
                    best = v + gain2
        return best


def _by_rank(
    counts: Sequence[int],
    *,
    top: int,
    runs_ok: bool,
    jokers: int,
    gain_of: Sequence[int],
    lay: Sequence[int],
) -> tuple[list[int], list[int]]:
    """Per rank r, the best of the ranks r and above, each on its own: its sets
    exact (no joker: a set with a joker is counted with the joker), every other tile
    at its run worth where some run of its colour can hold it, else its lay-off worth;
    and per field the most a tile of that field is worth alone (``52 + c``: an ace
    at the top)."""

    # Whether a run of colour c can hold position p: some window of three positions
    # around it with the others held or filled by the jokers.
    def held(c: int, p: int) -> int:
        if p < 1 or p > top:
            return -1
        return counts[((p - 1) % 13) * 4 + c]

    def in_run(c: int, p: int) -> bool:
        if not runs_ok:
            return False
        for lo in range(p - 2, p + 1):
            window = [held(c, q) for q in range(lo, lo + 3)]
            if min(window) < 0:
                continue
            if sum(1 for n in window if n == 0) <= min(jokers, 2):
                return True
        return False

    alone = [0] * 56
    for f in range(REAL_FIELDS):
        r, c = f // 4 + 1, f % 4
        worth = gain_of[run_points(r)] if in_run(c, r) else 0
        if r == 1 and top == 14 and in_run(c, 14):
            worth = gain_of[10]
        alone[f] = max(worth, lay[f], 0)
    for c in range(4):
        alone[52 + c] = max(gain_of[10] if in_run(c, 14) else 0, lay[c], 0)
    best = [0] * 17
    for r in range(13, 0, -1):
        fields = [(r - 1) * 4 + c for c in range(4)]
        have = [counts[f] for f in fields]
        worth = gain_of[set_points(r)]
        top_value = 0
        for a in _SETS:
            for b in _SETS:
                use = [0, 0, 0, 0]
                for c in (*a, *b):
                    use[c] += 1
                if any(use[c] > have[c] for c in range(4)):
                    continue
                value = sum(use) * worth
                value += sum((have[c] - use[c]) * alone[fields[c]] for c in range(4))
                top_value = max(top_value, value)
        best[r] = best[r + 1] + top_value
    best[14] = best[15] = best[16] = 0
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
) -> Callable[[int, int, Sequence[tuple[int, ...]], Sequence[int], int, int, Sequence[int]], int]:
    """:meth:`Bound.of` for one solve."""
    return Bound(
        counts, per=per, runs_ok=runs_ok, high=high, gain_of=gain_of, lay=lay, adjacent=adjacent
    ).of
