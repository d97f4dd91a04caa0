"""A slow, obviously-correct reference meld validator, for checking remi_rules against.

Written from RULES.md (MELD-01 … MELD-08, VALUE-01) and the library's documented
decisions, independently of ``remi_rules.melds``: only :class:`Tile` and
:class:`Color` are used from the library.

The idea is to write down *every* meld there could be and look for the ones that
explain the tiles, position by position:

* a **reading** is one way of filling ``n`` positions with wanted tiles: a run
  window (one colour, ranks ``low … low+n-1`` where 14 is the high ace, each rank
  once) or a set (one rank, a distinct colour at each position);
* a reading **explains** a sequence when every tile is the tile wanted at its
  position, a fixed joker ``J(=8R)`` stands exactly where 8R is wanted, and a free
  joker stands anywhere;
* a reading is **allowed** by a ruleset when the joker limits hold (at most two
  jokers, ``real_tiles_per_joker`` real tiles per joker, fixed jokers counting as
  jokers), two jokers are not adjacent in a run unless ``jokers_may_be_adjacent``,
  and a run reaches the high ace only if ``ace_high_run``.

The sequence is a valid meld when some allowed reading explains it.  Points and
joker candidates come straight from the readings: a joker is worth, and may stand
for, what the explaining readings want at its position.

>>> from remi_rules import Tile
>>> class Rules:
...     real_tiles_per_joker, jokers_may_be_adjacent, ace_high_run = 2, False, True
>>> m = reference_meld([Tile.parse(t) for t in "7R 7G J".split()], Rules)
>>> m.kind, m.points, [str(t) for t in m.jokers[0][1]]
('terta', 15, ['7A', '7N'])
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Protocol

from remi_rules import Color, Tile

RUN = "suita"
SET = "terta"
COLOURS = (Color.ROSU, Color.GALBEN, Color.ALBASTRU, Color.NEGRU)  # table order R G A N
HIGH_ACE = 14  # the rank position of an ace after the 13 (12-13-1)
MAX_JOKERS = 2  # there are two jokers in the whole set (TILES-01)


class MeldRules(Protocol):
    """The three knobs a meld's validity depends on (read-only: a :class:`Ruleset` is frozen)."""

    @property
    def real_tiles_per_joker(self) -> int: ...
    @property
    def jokers_may_be_adjacent(self) -> bool: ...
    @property
    def ace_high_run(self) -> bool: ...


@dataclass(frozen=True)
class Reading:
    """One way ``n`` positions can form a meld: the tile wanted at each position."""

    kind: str  # RUN or SET
    low: int  # a run's first rank position (1..13), or a set's rank
    colour: Color | None  # a run's colour; None for a set
    wanted: tuple[Tile, ...]

    @property
    def high(self) -> int:
        return self.low + len(self.wanted) - 1 if self.kind == RUN else self.low


@dataclass(frozen=True)
class RefMeld:
    """What the reference says about a valid meld (mirrors the library's Meld)."""

    kind: str
    tiles: tuple[Tile, ...]  # table order
    points: int
    jokers: tuple[tuple[int, tuple[Tile, ...]], ...]  # (position in tiles, candidates)
    low: int
    high: int
    colour: Color | None

    @property
    def high_ace(self) -> bool:
        return self.kind == RUN and self.high == HIGH_ACE

    @property
    def is_full(self) -> bool:
        return len(self.tiles) == (13 if self.kind == RUN else 4)


# -- the catalogue of readings ------------------------------------------------------------


def tile_at(rank_position: int, colour: Color) -> Tile:
    """The tile at a rank position of a run: 14 is the high ace."""
    return Tile(1 if rank_position == HIGH_ACE else rank_position, colour)


def value(rank_position: int, kind: str) -> int:
    """VALUE-01: 2-9 are 5, 10-13 are 10; an ace is 5 low in a run, 10 high in a
    run (position 14) and 25 in a set."""
    if rank_position == 1:
        return 25 if kind == SET else 5
    if rank_position == HIGH_ACE:
        return 10
    return 10 if rank_position >= 10 else 5


@cache
def readings_of_length(n: int) -> tuple[Reading, ...]:
    """Every run window and every set of exactly ``n`` positions."""
    found: list[Reading] = []
    for colour in COLOURS:
        for low in range(1, HIGH_ACE + 1):
            ranks = range(low, low + n)
            if n < 3 or ranks[-1] > HIGH_ACE:
                continue
            if 1 in ranks and HIGH_ACE in ranks:  # the ace would be there twice
                continue
            found.append(Reading(RUN, low, colour, tuple(tile_at(r, colour) for r in ranks)))
    if n in (3, 4):
        for rank in range(1, 14):
            for colours in itertools.permutations(COLOURS, n):
                found.append(Reading(SET, rank, None, tuple(Tile(rank, c) for c in colours)))
    return tuple(found)


@cache
def _index(n: int) -> dict[tuple[int, Tile], frozenset[int]]:
    """(position, wanted tile) -> the numbers of the readings that want it there."""
    index: dict[tuple[int, Tile], set[int]] = {}
    for number, reading in enumerate(readings_of_length(n)):
        for position, tile in enumerate(reading.wanted):
            index.setdefault((position, tile), set()).add(number)
    return {key: frozenset(numbers) for key, numbers in index.items()}


def stands_for(tile: Tile) -> Tile | None:
    """The tile a laid tile must be: itself, a fixed joker's tile, None for a free joker."""
    if not tile.is_joker:
        return tile
    return tile.fixed_as


def explaining_readings(tiles: Sequence[Tile]) -> list[Reading]:
    """Every reading that explains ``tiles`` position by position, whatever the rules.

    (The index only speeds up "keep the readings where every tile that is not a free
    joker is the wanted one"; it is exactly that filter.)
    """
    n = len(tiles)
    catalogue = readings_of_length(n)
    numbers = set(range(len(catalogue)))
    index = _index(n)
    for position, tile in enumerate(tiles):
        must_be = stands_for(tile)
        if must_be is not None:
            numbers &= index.get((position, must_be), frozenset())
    return [catalogue[k] for k in sorted(numbers)]


# -- the rules -----------------------------------------------------------------------------


def jokers_allowed(tiles: Sequence[Tile], kind: str, rules: MeldRules) -> bool:
    """MELD-05: at most two jokers, enough real tiles per joker, adjacency in runs."""
    joker_positions = [i for i, t in enumerate(tiles) if t.is_joker]  # fixed ones too
    real = len(tiles) - len(joker_positions)
    if len(joker_positions) > MAX_JOKERS:
        return False
    if real < rules.real_tiles_per_joker * len(joker_positions):
        return False
    adjacent = any(b == a + 1 for a, b in itertools.pairwise(joker_positions))
    return not (kind == RUN and adjacent and not rules.jokers_may_be_adjacent)


def allowed(reading: Reading, tiles: Sequence[Tile], rules: MeldRules) -> bool:
    if not jokers_allowed(tiles, reading.kind, rules):
        return False
    return not (reading.kind == RUN and reading.high == HIGH_ACE and not rules.ace_high_run)


def _set_table_key(tile: Tile) -> tuple[int, int]:
    # real tiles by colour R G A N, then the free joker, then fixed jokers by colour
    if not tile.is_joker:
        return (0, COLOURS.index(tile.color))
    if tile.fixed_as is None:
        return (1, 0)
    return (2, COLOURS.index(tile.fixed_as.color))


def _meld_from(readings: list[Reading], tiles: Sequence[Tile]) -> RefMeld:
    """The meld that ``readings`` (all of one kind, low and colour) make of ``tiles``."""
    first = readings[0]
    n = len(tiles)
    if first.kind == RUN:
        ranks = range(first.low, first.low + n)
        points = sum(value(r, RUN) for r in ranks)
    else:
        points = n * value(first.low, SET)
    # for each position, what the readings want there (a joker may stand for any of it)
    could_be = [sorted({r.wanted[i] for r in readings}, key=_set_table_key) for i in range(n)]
    laid = list(zip(tiles, could_be, strict=True))
    if first.kind == SET:
        laid.sort(key=lambda pair: _set_table_key(pair[0]))
    table = tuple(t for t, _ in laid)
    jokers = tuple((i, tuple(c)) for i, (t, c) in enumerate(laid) if t.is_joker)
    return RefMeld(first.kind, table, points, jokers, first.low, first.high, first.colour)


def reference_melds(
    tiles: Sequence[Tile], rules: MeldRules, readings: list[Reading] | None = None
) -> list[RefMeld]:
    """Every distinct meld ``tiles`` (laid in this order) can be under ``rules``.

    A sound validator finds at most one.  ``readings`` may be passed in when the
    caller already has ``explaining_readings(tiles)`` (it does not depend on rules).
    """
    tiles = tuple(tiles)
    if readings is None:
        readings = explaining_readings(tiles)
    groups: dict[tuple[str, int, Color | None], list[Reading]] = {}
    for reading in readings:
        if allowed(reading, tiles, rules):
            groups.setdefault((reading.kind, reading.low, reading.colour), []).append(reading)
    return [_meld_from(group, tiles) for group in groups.values()]


def reference_meld(
    tiles: Sequence[Tile], rules: MeldRules, readings: list[Reading] | None = None
) -> RefMeld | None:
    """The meld ``tiles`` form under ``rules``, or None if they form none."""
    melds = reference_melds(tiles, rules, readings)
    if len(melds) > 1:
        raise AssertionError(f"ambiguous sequence {[str(t) for t in tiles]}: {melds}")
    return melds[0] if melds else None


# -- could these tiles still become a meld? ---------------------------------------------------


def all_valid_melds(rules: MeldRules) -> list[Counter[Tile]]:
    """Every valid meld under ``rules``, as a multiset of tiles: each reading with up to
    two of its positions taken by jokers (free, or fixed as the wanted tile), kept
    when the reference accepts it."""
    found: set[frozenset[tuple[Tile, int]]] = set()
    for n in range(3, 14):
        for reading in readings_of_length(n):
            for k in range(MAX_JOKERS + 1):
                for spots in itertools.combinations(range(n), k):
                    for fixed in itertools.product((False, True), repeat=k):
                        seq = list(reading.wanted)
                        for spot, is_fixed in zip(spots, fixed, strict=True):
                            seq[spot] = Tile(fixed_as=seq[spot]) if is_fixed else Tile()
                        if reference_meld(seq, rules) is not None:
                            found.add(frozenset(Counter(seq).items()))
    return [Counter(dict(items)) for items in found]


class MeldCatalogue:
    """Brute force for ``could_become_meld``: a group can become a meld iff some valid
    meld (of at most 13 tiles) contains it as a sub-multiset."""

    def __init__(self, rules: MeldRules) -> None:
        self.melds = all_valid_melds(rules)
        self.containing: dict[Tile, list[Counter[Tile]]] = {}
        for meld in self.melds:
            for tile in meld:
                self.containing.setdefault(tile, []).append(meld)

    def could_become(self, group: Iterable[Tile]) -> bool:
        wanted = Counter(group)
        if not wanted:
            return bool(self.melds)
        # only melds holding the group's rarest tile need looking at
        rarest = min(wanted, key=lambda t: len(self.containing.get(t, ())))
        return any(
            all(meld[t] >= c for t, c in wanted.items()) for meld in self.containing.get(rarest, ())
        )
