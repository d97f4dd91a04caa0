"""The per-colour tables of the bound (:mod:`remi_rules._bound`): one colour's own
runs exact, each other tile alone, per number of joker units, and how the colours'
tables are combined (docs/solver.md, "The bound")."""

from __future__ import annotations

from typing import Final

_NEG: Final = -(1 << 60)
"""Infeasible (values below ``_NEG // 2`` are)."""


_Row = tuple[bool, list[int]]
"""A colour's (or several colours') best per (joker units, tiles left over at least):
``(True, per tiles left)`` where the units do not raise it, else ``(False, per
``u * lefts + k``)``.  Values below ``_NEG // 2`` are infeasible."""


def _combine(a: _Row, b: _Row, cap: int, lefts: int) -> _Row:
    """The best of two rows together: they share ``cap`` joker units, and the tiles
    they leave over add up (max-plus products)."""
    fa, da = a
    fb, db = b
    if fa and fb:
        if lefts == 1:
            return True, [da[0] + db[0]]
        return True, [max([da[i] + db[k - i] for i in range(k + 1)]) for k in range(lefts)]
    if fb:
        fa, da, fb, db = fb, db, fa, da
    # da is flat or not, db is not.
    if lefts == 1:
        if fa:
            x = da[0]
            return False, [v + x for v in db]
        return False, [
            max([p + q for p, q in zip(da[u::-1], db, strict=False)]) for u in range(cap + 1)
        ]
    out = [_NEG] * ((cap + 1) * lefts)
    if fa:
        for u in range(cap + 1):
            at = u * lefts
            for k in range(lefts):
                out[at + k] = max([da[i] + db[at + k - i] for i in range(k + 1)])
        return False, out
    for x, v1 in enumerate(da):
        if v1 <= _NEG // 2:
            continue
        u1, k1 = divmod(x, lefts)
        for a_ in range(cap + 1 - u1):
            at = a_ * lefts
            base = x + at
            for i in range(lefts - k1):
                v = v1 + db[at + i]
                if v > out[base + i]:
                    out[base + i] = v
    return False, out


class BoundCache:
    """What the bounds of one solve (one ``gain_of``, ``keep`` and knobs) share: the
    colour tables by content, and the ways of placing a rank's tiles."""

    def __init__(self) -> None:
        self.colours: dict[object, _Colour] = {}
        self.ways: dict[tuple[int, tuple[int, ...], int, int, int, int], dict[_Way, int]] = {}


_Way = tuple[tuple[int, ...], int, int, int]
"""A way of placing a rank's tiles of one colour: (open runs after it, jokers used,
tiles left over, aces set aside)."""


class _Colour:
    """The exact best of one colour's own runs, each other tile alone (module doc),
    per state of the colour: a vector over the aces waiting for the top, the jokers
    usable and the tiles still to leave over."""

    def __init__(
        self,
        count: list[int],
        alone: list[int],
        alone_joker: list[int],
        run: list[int],
        top: int,
        runs_ok: bool,
        keep: int,
        jokers: int,
    ) -> None:
        """``count[r]``, ``alone[r]``, ``alone_joker[r]``, ``run[r]``: per rank (14:
        the aces at the top) the colour's tiles, the most one is worth alone, in a set
        that needs a joker (one unit; 0: none worth more than alone) and in a run;
        ``jokers``: the joker units (two per joker)."""
        self.shared: dict[tuple[int, tuple[int, ...], int, int, int, int], dict[_Way, int]] = {}
        """The ways of placing a rank's tiles, shared by the tables of one solve (they
        depend only on the rank, the runs, the tiles, their worth alone and the
        jokers; :class:`Bound` sets it)."""
        self.top = top
        self.jokers = 2 * jokers
        self.width = 2 * jokers + 1
        self.runs_ok = runs_ok
        self.count = count
        self.run = run
        self.alone = alone
        self.alone_joker = alone_joker
        self.high = top == 14
        self.waits = min(count[1], 2) + 1 if self.high else 1
        self.lefts = keep + 1
        self._shifts = [
            [
                x * self.lefts + max(k - left, 0)
                for x in range(self.width)
                for k in range(self.lefts)
            ]
            for left in range(self.lefts)
        ]
        """Per tiles a way leaves over: where each (units, tiles to leave) of a vector
        reads the next rank's vector."""
        self.memo: dict[tuple[int, tuple[int, ...]], list[int]] = {}
        self.rows: dict[tuple[int, tuple[int, ...], int, int, int], _Row | None] = {}

    def value(self, rank: int, runs: tuple[int, ...], jokers: int, left: int, wait: int) -> int:
        """The colour's best from ``rank`` on, with open runs ``runs`` (lengths,
        sorted), up to ``jokers`` jokers in its runs, at least ``left`` tiles left
        over and ``wait`` aces set aside for the top."""
        return self.vector(rank, runs)[(wait * self.width + jokers) * self.lefts + left]

    def row(self, rank: int, runs: tuple[int, ...], wait: int, cap: int, lefts: int) -> _Row | None:
        """The part of :meth:`vector` a bound reads, with ``wait`` aces waiting, up to
        ``cap`` joker units and ``lefts - 1`` tiles to leave, as a :data:`_Row`;
        None where no way is valid.  (The same object for the same arguments.)"""
        key = (rank, runs, wait, cap, lefts)
        if key in self.rows:
            return self.rows[key]
        vector = self.vector(rank, runs)
        own = self.lefts
        base = wait * self.width * own
        top = base + cap * own
        found: _Row | None
        if vector[top] <= _NEG:
            found = None
        elif vector[top : top + lefts] == vector[base : base + lefts]:
            found = (True, vector[base : base + lefts])
        else:
            found = (
                False,
                [vector[base + x * own + k] for x in range(cap + 1) for k in range(lefts)],
            )
        self.rows[key] = found
        return found

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
        key = (rank, runs, k, self.alone[rank], self.alone_joker[rank], self.jokers)
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
                if used + 2 <= most:
                    grown.append(((*done, longer), kr, used + 2, gain))
            partial = grown
        alone = self.alone[rank]
        alone_joker = self.alone_joker[rank]
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
                    if alone_joker and used2 < most:
                        nexts.append(((runs2, used2 + 1, left2, held2), gain2 + alone_joker))
                    if left2 < most_left:
                        nexts.append(((runs2, used2, left2 + 1, held2), gain2))
                    if hold:
                        nexts.append(((runs2, used2, left2, held2 + 1), gain2))
                    if starts:
                        for lead in range(min((most - used2) // 2, rank - 1) + 1):
                            grown_runs = tuple(sorted((*runs2, 1 + lead)))
                            nexts.append(((grown_runs, used2 + 2 * lead, left2, held2), gain2 + g))
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
            shift = self._shifts[left]
            for w in range(waits - held):
                src = (w + held) * width * lefts
                dst = (w * width + used) * lefts
                # out[w, j, need] >= child[w + held, j - used, max(need - left, 0)] + gain
                for i in range((width - used) * lefts):
                    v = child[src + shift[i]]
                    if v > _NEG and v + gain > out[dst + i]:
                        out[dst + i] = v + gain
        return out
