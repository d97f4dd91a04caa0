"""A slow, obviously-correct reference for ``best_melds`` and ``best_opening``.

Written from the solver's contract (docs/RULES.md MELD-*, VALUE-01, OPEN-02 … OPEN-04
and the tie-break order of :class:`remi_rules.Solution`) without looking at the
library's solver: from the library it uses only the tile values and the public meld
and opening checks (:func:`is_valid_meld`, :func:`analyze_meld`,
:func:`check_opening`).

The method, in three plain steps:

1. **The meld catalogue of the hand.**  Every candidate meld is written down by brute
   force: every run window (one colour, ranks ``low … high`` where 14 is the high
   ace) with up to two of its positions taken by any joker of the hand, and every
   set (one rank, some of the hand's colours of that rank, plus jokers, 3 or 4
   tiles).  A candidate is kept when the hand holds its tiles and the library's
   validator accepts it.  (A valid meld holds at most two jokers, a run is laid
   ascending and a set is 3–4 tiles of one rank, so nothing valid is missed; the
   tests check this against every ordered sub-sequence of small hands.)
2. **Every split of the hand.**  A recursion over the multiset of remaining tiles
   takes the lowest remaining numbered tile (solver tile order) and either leaves
   it over or places it in each catalogue meld that contains it and fits in what
   remains.  Every meld holds a numbered tile, so this reaches every split; when only
   jokers remain they are left over.  The completions of a remaining multiset are
   memoised (they do not depend on how it was reached).
3. **The contract's order on complete splits.**  Each complete split gets its key
   ``(-objective, leftover count, sorted meld keys + sentinel)`` and the smallest
   key wins; ``min_leftover`` and (for the opening) :func:`check_opening` filter
   the candidates first.  Nothing is pruned.

The solver tile order: numbered tiles by rank (ace first), then colour R G A N;
then the free joker; then fixed jokers ``J(=x)`` ordered by ``x``.  A meld's key is
``(sorted tile indexes, table-order tile indexes)``.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from remi_rules import (
    Color,
    InvalidOpeningError,
    Meld,
    Ruleset,
    Tile,
    analyze_meld,
    check_opening,
    is_valid_meld,
    parse_tiles,
)

COLOURS = (Color.ROSU, Color.GALBEN, Color.ALBASTRU, Color.NEGRU)
FREE_JOKER = 52  # order index of the free joker; fixed jokers are 53 + index(x)
HIGH_ACE = 14  # rank position of an ace after the 13
MAX_JOKERS = 2  # jokers in the whole set
SENTINEL = ((10_000,), ())  # greater than every meld key


def order_index(tile: Tile) -> int:
    """The solver tile order: ``(rank - 1) * 4 + colour`` for a numbered tile, 52 for
    the free joker, ``53 + order_index(x)`` for a fixed joker ``J(=x)``."""
    if not tile.is_joker:
        assert tile.rank is not None and tile.color is not None
        return (tile.rank - 1) * 4 + COLOURS.index(tile.color)
    if tile.fixed_as is None:
        return FREE_JOKER
    return FREE_JOKER + 1 + order_index(tile.fixed_as)


def meld_key(meld: Meld) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(its tiles' indexes sorted, its tiles' indexes in table order)."""
    table = tuple(order_index(t) for t in meld.tiles)
    return tuple(sorted(table)), table


@dataclass(frozen=True)
class RefSolution:
    """What the reference says the best split is (mirrors :class:`Solution`)."""

    melds: tuple[Meld, ...]  # ordered by meld key
    total: int
    leftover: tuple[Tile, ...]  # solver tile order


# -- 1. the catalogue ----------------------------------------------------------------------


def _fits(seq: Sequence[Tile], counts: Counter[Tile]) -> bool:
    need = Counter(seq)
    return all(counts[t] >= c for t, c in need.items())


def meld_catalogue(hand: Iterable[Tile], rules: Ruleset) -> tuple[Meld, ...]:
    """Every valid meld (table order, as :func:`analyze_meld` gives it) whose tiles the
    hand holds.  Brute force over run windows and sets, jokers at any position."""
    counts = Counter(hand)
    joker_values = sorted((t for t in counts if t.is_joker), key=order_index)
    jokers = min(MAX_JOKERS, sum(counts[j] for j in joker_values))
    found: dict[tuple[Tile, ...], Meld] = {}

    def consider(seq: list[Tile]) -> None:
        if _fits(seq, counts) and is_valid_meld(seq, rules):
            meld = analyze_meld(seq, rules)
            found.setdefault(meld.tiles, meld)

    # Runs: every window low..high of one colour (14 = the high ace).
    for colour in COLOURS:
        for low in range(1, HIGH_ACE - 1):
            for high in range(low + 2, HIGH_ACE + 1):
                wanted = [Tile(1 if r == HIGH_ACE else r, colour) for r in range(low, high + 1)]
                missing = {i for i, w in enumerate(wanted) if counts[w] == 0}
                if len(missing) > jokers:
                    break  # a longer window from this low misses at least as many
                for k in range(len(missing), jokers + 1):
                    for spots in itertools.combinations(range(len(wanted)), k):
                        if not missing <= set(spots):
                            continue
                        for fill in itertools.product(joker_values, repeat=k):
                            seq = list(wanted)
                            for spot, joker in zip(spots, fill, strict=True):
                                seq[spot] = joker
                            consider(seq)
    # Sets: some real tiles of one rank, then jokers, 3 or 4 tiles in all.
    for rank in range(1, 14):
        present = [Tile(rank, c) for c in COLOURS if counts[Tile(rank, c)]]
        for n_real in range(1, len(present) + 1):
            for reals in itertools.combinations(present, n_real):
                for n_jokers in range(jokers + 1):
                    if not 3 <= n_real + n_jokers <= 4:
                        continue
                    for fill in itertools.combinations_with_replacement(joker_values, n_jokers):
                        consider([*reals, *fill])
    return tuple(sorted(found.values(), key=meld_key))


# -- 2. every split ------------------------------------------------------------------------


class Splits:
    """Every split of one hand into catalogue melds (as sorted tuples of meld numbers)."""

    def __init__(self, hand: Sequence[Tile], rules: Ruleset) -> None:
        self.hand = tuple(hand)
        self.melds = meld_catalogue(self.hand, rules)
        self.keys = [meld_key(m) for m in self.melds]
        self.sizes = [len(m.tiles) for m in self.melds]
        self.points = [m.points for m in self.melds]
        # catalogue melds by each numbered tile they contain
        self.containing: dict[int, list[int]] = {}
        for number, (indexes, _) in enumerate(self.keys):
            for t in set(indexes):
                if t < FREE_JOKER:
                    self.containing.setdefault(t, []).append(number)
        self.completions = cache(self._completions)
        start = tuple(sorted(order_index(t) for t in self.hand))
        self.all: frozenset[tuple[int, ...]] = self.completions(start)

    def _take(self, remaining: tuple[int, ...], number: int) -> tuple[int, ...] | None:
        """``remaining`` minus meld ``number``'s tiles (still sorted), or None if they
        do not fit."""
        left = list(remaining)
        for t in self.keys[number][0]:
            if t not in left:
                return None
            left.remove(t)
        return tuple(left)

    def _completions(self, remaining: tuple[int, ...]) -> frozenset[tuple[int, ...]]:
        """Every way to split ``remaining`` (sorted order indexes) into melds + leftover."""
        if not remaining or remaining[0] >= FREE_JOKER:
            return frozenset({()})  # nothing, or only jokers: all left over
        lowest = remaining[0]
        out = set(self.completions(remaining[1:]))  # the lowest tile stays on the rack
        for number in self.containing.get(lowest, ()):
            after = self._take(remaining, number)
            if after is not None:  # the lowest tile goes into this meld
                for rest in self.completions(after):
                    out.add(tuple(sorted((number, *rest))))
        return frozenset(out)


# -- 3. the contract's order ----------------------------------------------------------------


class Reference:
    """Answers every question about one hand from the complete list of its splits."""

    def __init__(self, tiles: Iterable[Tile] | str, rules: Ruleset) -> None:
        hand = parse_tiles(tiles) if isinstance(tiles, str) else tuple(tiles)
        self.rules = rules
        self.splits = Splits(hand, rules)
        self._ranked: dict[str, list[tuple[object, tuple[int, ...]]]] = {}
        self._opening_ok: dict[tuple[int, ...], bool] = {}

    def _solution(self, split: tuple[int, ...], objective: str) -> RefSolution:
        s = self.splits
        melds = tuple(sorted((s.melds[n] for n in split), key=meld_key))
        left = Counter(s.hand)
        for m in melds:
            left.subtract(m.tiles)
        leftover = tuple(sorted(left.elements(), key=order_index))
        placed = sum(len(m.tiles) for m in melds)
        total = sum(m.points for m in melds) if objective == "points" else placed
        return RefSolution(melds, total, leftover)

    def ranked(self, objective: str) -> list[tuple[object, tuple[int, ...]]]:
        """Every complete split with its key, best first."""
        if objective not in self._ranked:
            s = self.splits
            rows: list[tuple[object, tuple[int, ...]]] = []
            for split in s.all:
                placed = sum(s.sizes[n] for n in split)
                value = sum(s.points[n] for n in split) if objective == "points" else placed
                order = (*sorted(s.keys[n] for n in split), SENTINEL)
                rows.append(((-value, len(s.hand) - placed, order), split))
            rows.sort()
            self._ranked[objective] = rows
        return self._ranked[objective]

    def leftover_count(self, split: tuple[int, ...]) -> int:
        return len(self.splits.hand) - sum(self.splits.sizes[n] for n in split)

    def opening_ok(self, split: tuple[int, ...]) -> bool:
        if split not in self._opening_ok:
            try:
                check_opening([self.splits.melds[n] for n in split], self.rules)
            except InvalidOpeningError:
                self._opening_ok[split] = False
            else:
                self._opening_ok[split] = True
        return self._opening_ok[split]

    def best_melds(self, objective: str = "points", *, min_leftover: int = 0) -> RefSolution:
        for _, split in self.ranked(objective):
            if self.leftover_count(split) >= min_leftover:
                return self._solution(split, objective)
        raise AssertionError("the empty split always qualifies")  # pragma: no cover

    def best_opening(
        self, objective: str = "points", *, min_leftover: int = 0
    ) -> RefSolution | None:
        for _, split in self.ranked(objective):
            if self.leftover_count(split) >= min_leftover and self.opening_ok(split):
                return self._solution(split, objective)
        return None


def ref_best_melds(
    tiles: Iterable[Tile] | str, rules: Ruleset, objective: str = "points", *, min_leftover: int = 0
) -> RefSolution:
    return Reference(tiles, rules).best_melds(objective, min_leftover=min_leftover)


def ref_best_opening(
    tiles: Iterable[Tile] | str, rules: Ruleset, objective: str = "points", *, min_leftover: int = 0
) -> RefSolution | None:
    return Reference(tiles, rules).best_opening(objective, min_leftover=min_leftover)
