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

import itertools
import operator
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Final

import attrs

from ._meld_check import _SET_VALUE, MAX_JOKERS, MeldKind, _check, _diagnose, _run_points
from .errors import DEFERRED, InvalidMeldError
from .ruleset import Ruleset
from .tiles import (
    JOKER,
    Color,
    Tile,
    parse_tiles,
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
