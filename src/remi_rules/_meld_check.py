"""The meld check on tiles' internal codes: the validator core behind :mod:`remi_rules.melds`.

Rules: MELD-01 … MELD-08 and VALUE-01 of docs/RULES.md.  :func:`_check` decides
validity fast; :func:`_diagnose` says why an invalid meld fails, with the
:class:`~remi_rules.MeldErrorCode` and its details.
"""

from __future__ import annotations

import enum
import itertools
from typing import Final

from .errors import MeldErrorCode
from .ruleset import Ruleset
from .tiles import FIXED_BASE, JOKER_CODE, tile_from_code

MAX_JOKERS: Final = 2
"""Jokers in the set (TILES-01); no meld can hold more."""


class MeldKind(enum.StrEnum):
    """The two kinds of meld (MELD-01, MELD-03)."""

    SUITA = "suita"
    """A run: three or more consecutive ranks of one colour."""
    TERTA = "terta"
    """A set: three or four tiles of one rank, all colours different."""


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
