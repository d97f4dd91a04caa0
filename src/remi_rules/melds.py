"""Melds: the validator for runs (suită) and sets (terță) and their point values.

Rules: MELD-01 … MELD-08 and VALUE-01 of docs/RULES.md.

* :func:`analyze_meld` checks tiles *in the order a player lays them* and returns a
  :class:`Meld`, or raises :class:`~remi_rules.InvalidMeldError` with a
  :class:`~remi_rules.MeldErrorCode`.  A run must be ascending (``11R 12R 13R 1R``),
  so a joker's position says what it stands for; a set's order is free.
* :func:`is_valid_meld` is the same check as a bool.
* :func:`arrange_meld` finds every valid reading of an unordered group.
* :func:`could_become_meld` says whether tiles can still grow into a meld.

>>> from remi_rules import analyze_meld, variants
>>> m = analyze_meld("12R 13R J", variants.get("clasic"))
>>> m.kind, m.points, m.jokers[0].tile
(<MeldKind.SUITA: 'suita'>, 30, Tile.parse('1R'))
"""

from __future__ import annotations

import enum
import itertools
import operator
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Final

import attrs

from .errors import DEFERRED, InvalidMeldError, MeldErrorCode
from .ruleset import Ruleset
from .tiles import (
    FIXED_BASE,
    JOKER,
    JOKER_CODE,
    Color,
    Tile,
    parse_tiles,
    tile_from_code,
    tiles_str,
)

__all__ = [
    "MAX_GROUP_TILES",
    "JokerSlot",
    "Meld",
    "MeldKind",
    "analyze_meld",
    "arrange_meld",
    "could_become_meld",
    "is_valid_meld",
    "tile_points",
]

_COLORS: Final = tuple(Color)
_CODE_OF: Final = operator.attrgetter("_code")
MAX_JOKERS: Final = 2
"""Jokers in the set (TILES-01); no meld can hold more."""


class MeldKind(enum.StrEnum):
    """The two kinds of meld (MELD-01, MELD-03)."""

    SUITA = "suita"
    """A run: three or more consecutive ranks of one colour."""
    TERTA = "terta"
    """A set: three or four tiles of one rank, all colours different."""


def tile_points(rank: int, kind: MeldKind) -> int:
    """VALUE-01: the etalare value of a tile of ``rank`` in a meld of ``kind``.

    In a run, pass 14 for a high ace (``12 13 1``): 2–9 and a low 1 are worth 5,
    10–13 and a high 1 are worth 10; in a set a 1 is worth 25.

    >>> suita, terta = MeldKind.SUITA, MeldKind.TERTA
    >>> tile_points(1, suita), tile_points(14, suita), tile_points(1, terta)
    (5, 10, 25)
    """
    if rank == 1:
        return 25 if kind is MeldKind.TERTA else 5
    return 10 if rank >= 10 else 5


@attrs.frozen
class JokerSlot:
    """What the joker at ``position`` (0-based, in :attr:`Meld.tiles`) stands for:
    one tile, or, in a set whose missing colours are still open (MELD-06), the
    tiles it could be."""

    position: int
    candidates: tuple[Tile, ...]

    @property
    def tile(self) -> Tile | None:
        """The one tile the joker stands for, or ``None`` while still undetermined."""
        return self.candidates[0] if len(self.candidates) == 1 else None


@attrs.frozen
class Meld:
    """A valid meld, as returned by :func:`analyze_meld` (do not build one by hand).

    ``tiles`` is the table order: ascending for a run; for a set the real tiles by
    colour (R G A N), then a free joker, then fixed jokers.  ``low`` is the rank at
    the first position of a run (1–12) or the rank of a set; ``color`` is the
    colour of a run (``None`` for a set).  ``points`` is the etalare value
    (VALUE-01), with each joker worth what it stands for.
    """

    kind: MeldKind
    tiles: tuple[Tile, ...]
    low: int
    color: Color | None

    @property
    def points(self) -> int:
        """The etalare value (VALUE-01): opening minimum, lay-off credit, end count."""
        n = len(self.tiles)
        if self.kind is MeldKind.SUITA:
            return _run_points(self.low, n)
        return _SET_VALUE[self.low] * n

    @property
    def is_run(self) -> bool:
        return self.kind is MeldKind.SUITA

    @property
    def high(self) -> int:
        """The rank at the last position of a run (14 for a high ace); a set's rank."""
        return self.low + len(self.tiles) - 1 if self.kind is MeldKind.SUITA else self.low

    @property
    def high_ace(self) -> bool:
        """True for a run that ends with a high ace (``… 13 1``), which is closed at
        that end (MELD-02)."""
        return self.kind is MeldKind.SUITA and self.low + len(self.tiles) - 1 == 14

    @property
    def is_full(self) -> bool:
        """A set of four, or a run of 13: nothing more can be laid on it (MELD-03)."""
        return len(self.tiles) == (13 if self.kind is MeldKind.SUITA else 4)

    @property
    def jokers(self) -> tuple[JokerSlot, ...]:
        """For each joker (fixed ones included), what it stands for (MELD-06)."""
        out: list[JokerSlot] = []
        if self.kind is MeldKind.SUITA:
            assert self.color is not None
            for i, t in enumerate(self.tiles):
                if t.is_joker:
                    rank = self.low + i
                    out.append(JokerSlot(i, (Tile(1 if rank == 14 else rank, self.color),)))
            return tuple(out)
        present = {t.acts_as.color for t in self.tiles if t.acts_as is not None}
        missing = tuple(Tile(self.low, c) for c in _COLORS if c not in present)
        for i, t in enumerate(self.tiles):
            if t.is_fixed_joker:
                assert t.fixed_as is not None
                out.append(JokerSlot(i, (t.fixed_as,)))
            elif t.is_joker:
                out.append(JokerSlot(i, missing))
        return tuple(out)

    @property
    def tile_values(self) -> tuple[int, ...]:
        """The VALUE-01 value of each position, in :attr:`tiles` order."""
        if self.kind is MeldKind.SUITA:
            return tuple(tile_points(self.low + i, self.kind) for i in range(len(self.tiles)))
        return (tile_points(self.low, self.kind),) * len(self.tiles)

    def __str__(self) -> str:
        return tiles_str(self.tiles)


# -- the core check ---------------------------------------------------------------------------
#
# Works on the tiles' internal codes (colour_index * 16 + rank; joker 64; fixed
# joker 128 + code).  Returns (kind, low, colour_index) for a valid meld, or
# (code, details) for an invalid one; never raises on bad tiles.

_Ok = tuple[MeldKind, int, int]
_Fail = tuple[MeldErrorCode, dict[str, object]]

_KINDS: Final = frozenset(MeldKind)
_SET_VALUE: Final = (0, 25, 5, 5, 5, 5, 5, 5, 5, 5, 10, 10, 10, 10)


def _run_points(low: int, n: int) -> int:
    tens = min(low + n - 1, 14) - max(low, 10) + 1
    return 5 * n + 5 * tens if tens > 0 else 5 * n


# Runs with free jokers are recognised by their *shape*.  Every code is shifted by
# the run's base (the code its first position stands for: colour * 16 + low), the
# ace of the run's colour counting as rank 14 unless the run starts at 1, and the
# jokers become one marker.  In a valid run the real tile at position i shifts to
# exactly i, and no other tile does, so a valid run's shape is 0, 1, 2, ... with
# markers for its jokers: one small table per joker-adjacency rule.  The shape does
# not say where the run starts, so the bounds 1..14 (1..13) are checked apart.
_JOKER_MARK: Final = 100  # no tile shifts to 100 (shifts are 0..63 and 193..255)


_IDENTITY: Final = bytes(range(256))


def _shift_table(base: int) -> bytes:
    table = bytearray(_IDENTITY[-base:] + _IDENTITY[:-base])  # c -> (c - base) % 256
    low = base & 15
    table[(base & 48) | 1] = (14 - low if low > 1 else 0) % 256  # the run colour's ace
    table[JOKER_CODE] = _JOKER_MARK
    return bytes(table)


_SHIFT: Final = tuple(_shift_table(base) for base in range(64))


def _run_shapes(adjacent_jokers: bool) -> frozenset[bytes]:
    """Every valid run shape with one or two free jokers (MELD-01, MELD-02, MELD-05);
    the joker limits by count and the run's bounds are checked apart."""
    shapes: set[bytes] = set()
    for n in range(3, 14):
        for jokers in (1, 2):
            for spots in itertools.combinations(range(n), jokers):
                if jokers == 2 and spots[1] == spots[0] + 1 and not adjacent_jokers:
                    continue
                shapes.add(bytes(_JOKER_MARK if i in spots else i for i in range(n)))
    return frozenset(shapes)


# _SHAPES[jokers_may_be_adjacent]: a few hundred short byte strings each.
_SHAPES: Final = (_run_shapes(False), _run_shapes(True))
# _LOW_RUNS[code * 16 + n]: the codes of the n-tile run starting at ``code``.
_LOW_RUNS: Final = tuple(bytes(range(c, c + n)) for c in range(64) for n in range(16))
_JOKER_BYTE: Final = bytes([JOKER_CODE])


def _check(codes: bytes, rules: Ruleset) -> _Ok | None:
    """Decide validity fast; ``None`` means invalid (see :func:`_diagnose` for why).

    ``codes`` holds the tiles' codes (all below 256).  The paths for no jokers and
    for free jokers are complete deciders; melds with a fixed joker go through the
    general check."""
    n = len(codes)
    if n < 3 or n > 13:
        return None
    c0 = codes[0]
    if c0 < JOKER_CODE and codes == _LOW_RUNS[c0 * 16 + n]:
        # A low run without jokers: equal codes imply ranks 1..13 of one colour.
        return MeldKind.SUITA, c0 & 15, c0 >> 4
    mx = max(codes)
    if mx < JOKER_CODE:
        # No jokers: a high-ace run or a set.
        r0 = c0 & 15
        c1 = codes[1]
        if c1 == c0 + 1:
            if (
                codes[-1] == (c0 & 48) | 1
                and r0 + n - 2 == 13
                and rules.ace_high_run
                and codes[:-1] == _LOW_RUNS[c0 * 16 + n - 1]
            ):
                return MeldKind.SUITA, r0, c0 >> 4
        elif n <= 4 and (c1 & 15) == r0:
            c2 = codes[2]
            if (c2 & 15) == r0 and c2 != c0 and c2 != c1 and c1 != c0:
                if n == 3:
                    return MeldKind.TERTA, r0, 0
                c3 = codes[3]
                if (c3 & 15) == r0 and c3 != c0 and c3 != c1 and c3 != c2:
                    return MeldKind.TERTA, r0, 0
        return None
    if mx == JOKER_CODE:
        # Free jokers only.
        nj = codes.count(JOKER_CODE)
        if nj > MAX_JOKERS or n - nj < rules.real_tiles_per_joker * nj:
            return None
        p = 0 if c0 != JOKER_CODE else 1 if codes[1] != JOKER_CODE else 2  # first real tile
        cp = codes[p]
        low = (cp & 15) - p
        high = rules.ace_high_run
        if (
            low >= 1
            and low + n <= 14 + high
            and codes.translate(_SHIFT[cp - p]) in _SHAPES[rules.jokers_may_be_adjacent]
        ):
            # A run within 1..14 (1..13) whose shifted codes have a valid shape.
            return MeldKind.SUITA, low, cp >> 4
        if n <= 4:
            # A set: one rank, different colours, at most four tiles.
            reals = codes.replace(_JOKER_BYTE, b"")
            rank = cp & 15
            if len(set(reals)) == len(reals) and all(c & 15 == rank for c in reals):
                return MeldKind.TERTA, rank, 0
        return None
    res = _check_general(codes, rules, fixed_as_free=False)
    return res if res[0] in _KINDS else None  # type: ignore[return-value]


def _diagnose(codes: bytes, rules: Ruleset) -> _Fail:
    """Why ``codes`` is not a valid meld (only called for invalid melds)."""
    n = len(codes)
    if n < 3:
        return _fail(MeldErrorCode.TOO_SHORT, count=n)
    res = _check_general(codes, rules, fixed_as_free=False)
    if res[0] in _KINDS:  # pragma: no cover - _check and _check_general agree
        raise AssertionError(f"meld checks disagree on {list(codes)}")
    if max(codes) > JOKER_CODE and _check_general(codes, rules, fixed_as_free=True)[0] in _KINDS:
        # A fixed joker is at fault: the meld works with it as a free joker.
        for i, c in enumerate(codes):
            if c > JOKER_CODE:
                return _fail(
                    MeldErrorCode.FIXED_JOKER_OUT_OF_PLACE,
                    tile=tile_from_code(c),
                    fixed=tile_from_code(c - FIXED_BASE),
                    position=i + 1,
                )
    return res  # type: ignore[return-value]  # a failure: checked just above


def _fail(code: MeldErrorCode, **details: object) -> _Fail:
    return code, details


def _check_general(codes: bytes, rules: Ruleset, *, fixed_as_free: bool) -> _Ok | _Fail:
    """The full check, with jokers, and the diagnosis of every invalid meld."""
    n = len(codes)
    jokers: list[int] = []
    placed: list[tuple[int, int]] = []  # (position, code acted as), real and fixed tiles
    for i, c in enumerate(codes):
        if c < JOKER_CODE:
            placed.append((i, c))
        else:
            jokers.append(i)
            if c > JOKER_CODE and not fixed_as_free:
                placed.append((i, c - FIXED_BASE))
    nj = len(jokers)
    real = n - nj
    needed = rules.real_tiles_per_joker * nj
    if nj > MAX_JOKERS or real < needed:
        return _fail(
            MeldErrorCode.TOO_MANY_JOKERS,
            jokers=nj,
            needed=needed,
            real=real,
            per=rules.real_tiles_per_joker,
        )
    ranks = {c & 15 for _, c in placed}
    colours = {c >> 4 for _, c in placed}
    if len(ranks) == 1:
        # A set (MELD-03); with one real rank it cannot be a run.
        if n > 4:
            return _fail(MeldErrorCode.SET_TOO_LONG, count=n)
        seen: set[int] = set()
        for i, c in placed:
            if c >> 4 in seen:
                return _fail(
                    MeldErrorCode.REPEATED_COLOUR, tile=tile_from_code(codes[i]), position=i + 1
                )
            seen.add(c >> 4)
        rank = placed[0][1] & 15
        return MeldKind.TERTA, rank, 0
    if len(colours) != 1:
        return _fail(MeldErrorCode.MIXED_COLOURS)
    # A run (MELD-01, MELD-02).
    if n > 13:
        return _fail(MeldErrorCode.RUN_TOO_LONG, count=n)
    if not rules.jokers_may_be_adjacent:
        for a, b in itertools.pairwise(jokers):
            if b == a + 1:
                return _fail(MeldErrorCode.ADJACENT_JOKERS, position=b + 1)

    def at(i: int) -> dict[str, object]:
        return {"tile": tile_from_code(codes[i]), "position": i + 1}

    seen_ranks: set[int] = set()
    for i, c in placed:
        if c & 15 in seen_ranks:
            return MeldErrorCode.RUN_REPEATED_RANK, at(i)
        seen_ranks.add(c & 15)
    # Each placed tile's rank as a position value: an ace is low (1) only as the
    # first placed tile, high (14) only as the last and in the high ace's place,
    # and never in between.
    last = len(placed) - 1
    values: list[int] = []
    for j, (i, c) in enumerate(placed):
        r = c & 15
        if r == 1 and j > 0:
            if j < last:
                return MeldErrorCode.ACE_IN_MIDDLE, at(i)
            if 14 - i != values[0] - placed[0][0]:
                return MeldErrorCode.RUN_NOT_ASCENDING, at(i)  # not in a high ace's place
            if not rules.ace_high_run:
                return MeldErrorCode.HIGH_ACE_NOT_ALLOWED, at(i)
            r = 14
        if values and r <= values[-1]:
            return MeldErrorCode.RUN_NOT_ASCENDING, at(i)
        values.append(r)
    low = values[0] - placed[0][0]
    for (i, _), value in zip(placed, values, strict=True):
        if value - i != low:
            return MeldErrorCode.RUN_GAP, at(i)
    if low < 1:
        return _fail(MeldErrorCode.JOKER_OUT_OF_RANGE, position=1)
    top = 14 if rules.ace_high_run else 13
    if low + n - 1 > top:
        return _fail(MeldErrorCode.JOKER_OUT_OF_RANGE, position=top - low + 2)
    return MeldKind.SUITA, low, placed[0][1] >> 4


def _codes(tiles: Sequence[Tile] | str) -> tuple[Sequence[Tile], bytes]:
    if isinstance(tiles, str):
        tiles = parse_tiles(tiles)
    try:
        return tiles, bytes([t._code for t in tiles])
    except AttributeError:
        bad = next(t for t in tiles if not isinstance(t, Tile))
        raise TypeError(f"a meld is made of Tile values, not {type(bad).__name__}") from None
    except TypeError:
        raise TypeError(
            f"analyze_meld expects a sequence of Tile, not {type(tiles).__name__}"
        ) from None


def _set_order(tiles: Sequence[Tile]) -> tuple[Tile, ...]:
    # Real tiles by colour, then the free joker, then fixed jokers by colour.
    return tuple(sorted(tiles, key=_CODE_OF))


def analyze_meld(tiles: Sequence[Tile] | str, rules: Ruleset) -> Meld:
    """Check ``tiles``, laid in this order, as one meld under ``rules``.

    ``tiles`` is a sequence of :class:`~remi_rules.Tile` (or notation such as
    ``"11R 12R 13R 1R"``).  A run must be laid ascending; a set in any order.
    Returns the :class:`Meld`; raises :class:`~remi_rules.InvalidMeldError` whose
    ``code`` says what is wrong (MELD-01 … MELD-06).

    >>> from remi_rules import variants
    >>> analyze_meld("3R J 5R 6R J 8R", variants.get("clasic")).points
    30
    >>> analyze_meld("13R 1R 2R", variants.get("clasic"))
    Traceback (most recent call last):
    ...
    remi_rules.errors.InvalidMeldError: [ace_in_middle] An ace cannot sit inside a run ...
    """
    try:
        codes = bytes([t._code for t in tiles])  # type: ignore[union-attr]
    except AttributeError:
        if not isinstance(tiles, str):
            _codes(tiles)  # raises TypeError naming the bad element
            raise
        tiles = parse_tiles(tiles)
        codes = bytes([t._code for t in tiles])
    except TypeError:
        _codes(tiles)  # raises TypeError for a non-sequence
        raise
    if not isinstance(rules, Ruleset):
        raise TypeError(f"rules must be a Ruleset, not {type(rules).__name__}")
    res = _check(codes, rules)
    if res is None:
        raise _new_error(InvalidMeldError, DEFERRED, tiles, _diagnose, codes, rules)
    kind, low, ci = res
    meld = _new_meld(Meld)
    _set_kind(meld, kind)
    _set_low(meld, low)
    if kind is MeldKind.SUITA:
        _set_tiles(meld, tuple(tiles))
        _set_color(meld, _COLORS[ci])
    else:
        _set_tiles(meld, _set_order(tiles))  # type: ignore[arg-type]
        _set_color(meld, None)
    return meld


# Building a Meld through its slots directly: the validated result is trusted, and
# this is about a third cheaper than the generated __init__ on the hot path.
_new_meld: Final = object.__new__
_new_error: Final = BaseException.__new__
_set_kind: Final = Meld.__dict__["kind"].__set__
_set_tiles: Final = Meld.__dict__["tiles"].__set__
_set_low: Final = Meld.__dict__["low"].__set__
_set_color: Final = Meld.__dict__["color"].__set__


def is_valid_meld(tiles: Sequence[Tile] | str, rules: Ruleset) -> bool:
    """True if ``tiles``, in this order, are a valid meld under ``rules``."""
    _, codes = _codes(tiles)
    if not isinstance(rules, Ruleset):
        raise TypeError(f"rules must be a Ruleset, not {type(rules).__name__}")
    return _check(codes, rules) is not None


# -- unordered groups -----------------------------------------------------------------------


MAX_GROUP_TILES: Final = 106
"""The most tiles :func:`arrange_meld` and :func:`could_become_meld` read from an
iterable (the whole set): a longer group is no meld, and an endless iterator is read
no further."""


def _as_tiles(tiles: Iterable[Tile] | str) -> tuple[Tile, ...]:
    if isinstance(tiles, str):
        return parse_tiles(tiles)
    if isinstance(tiles, tuple | list):
        out = tuple(tiles[: MAX_GROUP_TILES + 1])
    else:
        try:
            out = tuple(itertools.islice(tiles, MAX_GROUP_TILES + 1))
        except TypeError:
            raise TypeError(f"expected Tile values, not {type(tiles).__name__}") from None
    for t in out:
        if not isinstance(t, Tile):
            raise TypeError(f"expected Tile values, not {type(t).__name__}")
    return out


def _run_layouts(tiles: tuple[Tile, ...], rules: Ruleset) -> Iterable[tuple[Tile, ...]]:
    """Every ascending arrangement of ``tiles`` as one run, valid or not."""
    placed = [t for t in tiles if t.acts_as is not None]
    free = len(tiles) - len(placed)
    n = len(tiles)
    if not placed or len({t.acts_as.color for t in placed if t.acts_as}) != 1:
        return
    top = 14 if rules.ace_high_run else 13
    for low in range(1, top - n + 2):
        slots: list[Tile | None] = [None] * n
        ok = True
        for t in placed:
            assert t.acts_as is not None and t.acts_as.rank is not None
            rank = t.acts_as.rank
            pos = rank - low
            if rank == 1 and low + n - 1 == 14:
                pos = n - 1
            if not 0 <= pos < n or slots[pos] is not None:
                ok = False
                break
            slots[pos] = t
        if ok and slots.count(None) == free:
            yield tuple(JOKER if s is None else s for s in slots)


def arrange_meld(tiles: Iterable[Tile] | str, rules: Ruleset) -> tuple[Meld, ...]:
    """Every valid reading of an unordered group of tiles, or ``()`` if none.

    Readings are distinct :class:`Meld` values: runs first, by their lowest rank,
    then the set.  For ``7R 8R J`` that is 6R-7R-8R then 7R-8R-9R.

    >>> from remi_rules import variants
    >>> [str(m) for m in arrange_meld("7R 8R J", variants.get("clasic"))]
    ['J 7R 8R', '7R 8R J']
    """
    group = _as_tiles(tiles)
    if not isinstance(rules, Ruleset):
        raise TypeError(f"rules must be a Ruleset, not {type(rules).__name__}")
    if not 3 <= len(group) <= 13:
        return ()
    found: dict[Meld, None] = {}
    for layout in _run_layouts(group, rules):
        codes = bytes([t._code for t in layout])
        res = _check(codes, rules)
        if res is not None and res[0] is MeldKind.SUITA:
            found[analyze_meld(layout, rules)] = None
    if len(group) <= 4 and is_valid_meld(_set_order(group), rules):
        meld = analyze_meld(_set_order(group), rules)
        if meld.kind is MeldKind.TERTA:
            found[meld] = None
    return tuple(found)


def could_become_meld(tiles: Iterable[Tile] | str, rules: Ruleset) -> bool:
    """True if these tiles, plus more tiles from the set, can still form one valid meld.

    For frontends that light up a group while the player builds it (ONLINE-07).
    Any one tile, and no tiles at all, can.

    >>> from remi_rules import variants
    >>> clasic = variants.get("clasic")
    >>> could_become_meld("7R 9R", clasic), could_become_meld("7R 7R", clasic)
    (True, False)
    """
    group = _as_tiles(tiles)
    if not isinstance(rules, Ruleset):
        raise TypeError(f"rules must be a Ruleset, not {type(rules).__name__}")
    if sum(t.is_joker for t in group) > MAX_JOKERS or len(group) > 13:
        return False
    counts = Counter(group)
    if any(c > 2 for t, c in counts.items() if not t.is_joker):
        return False
    return _could_be_set(group, rules) or _could_be_run(group, rules)


def _could_be_set(group: tuple[Tile, ...], rules: Ruleset) -> bool:
    acting = [t.acts_as for t in group if t.acts_as is not None]
    if len(group) > 4 or len({t.rank for t in acting}) > 1:
        return False
    rank = acting[0].rank if acting and acting[0].rank is not None else 7
    missing = [c for c in _COLORS if c not in {t.color for t in acting}]
    for length in range(max(3, len(group)), 5):
        extra = length - len(group)
        if extra <= len(missing):
            layout = (*group, *(Tile(rank, c) for c in missing[:extra]))
            if is_valid_meld(_set_order(layout), rules):
                return True
    return False


def _could_be_run(group: tuple[Tile, ...], rules: Ruleset) -> bool:
    acting = [t.acts_as for t in group if t.acts_as is not None]
    if len({t.color for t in acting}) > 1:
        return False
    colour = acting[0].color if acting and acting[0].color is not None else Color.ROSU
    placed = [t for t in group if t.acts_as is not None]
    free = len(group) - len(placed)
    top = 14 if rules.ace_high_run else 13
    for length in range(max(3, len(group)), 14):
        for low in range(1, top - length + 2):
            slots: list[Tile | None] = [None] * length
            for t in placed:
                assert t.acts_as is not None and t.acts_as.rank is not None
                rank = t.acts_as.rank
                pos = length - 1 if rank == 1 and low + length - 1 == 14 else rank - low
                if not 0 <= pos < length or slots[pos] is not None:
                    break
                slots[pos] = t
            else:
                empty = [i for i, t in enumerate(slots) if t is None]
                for joker_slots in itertools.combinations(empty, free):
                    layout = [
                        JOKER
                        if i in joker_slots
                        else t
                        if t is not None
                        else Tile(1 if low + i == 14 else low + i, colour)
                        for i, t in enumerate(slots)
                    ]
                    if is_valid_meld(layout, rules):
                        return True
    return False
