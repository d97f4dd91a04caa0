"""The meld validator against the reference validator of ``reference_melds.py``.

Exhaustive and random agreement of ``analyze_meld`` / ``is_valid_meld`` with the
reference (validity, kind, points, table order, what each joker stands for, and that
an error code is consistent with the input), plus Hypothesis properties of
``parse_tiles``, ``arrange_meld``, ``could_become_meld`` and ``is_valid_meld``.

Rulesets: every preset, and every preset with ``ace_high_run=False`` (six in all).
A meld's validity should depend on three knobs only (``real_tiles_per_joker``,
``jokers_may_be_adjacent``, ``ace_high_run``), and rummy45 has clasic's values, but
the rulesets are *not* deduplicated: the file runs in time without that, and keeping
them catches a validator that wrongly reads some other knob.
"""

from __future__ import annotations

import itertools
import os
import random
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from functools import cache
from typing import Any, Protocol, TypeVar

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st
from reference_melds import (
    COLOURS,
    MeldCatalogue,
    RefMeld,
    explaining_readings,
    reference_meld,
    stands_for,
)

from remi_rules import (
    InvalidMeldError,
    Meld,
    MeldErrorCode,
    MeldKind,
    Ruleset,
    Tile,
    analyze_meld,
    arrange_meld,
    could_become_meld,
    is_valid_meld,
    parse_tiles,
    tiles_str,
    variants,
)

T = TypeVar("T")


def _meld_rulesets() -> list[tuple[str, Ruleset]]:
    """(id, ruleset): every preset, then every preset without the high ace."""
    out = [(name, variants.get(name)) for name in variants.names()]
    out += [(f"{name}-no-high-ace", attrs.evolve(r, ace_high_run=False)) for name, r in out]
    return out


MELD_RULESETS = _meld_rulesets()
RULESET_IDS = [rid for rid, _ in MELD_RULESETS]

NUMBERED = tuple(Tile(rank, colour) for colour in COLOURS for rank in range(1, 14))
JOKER = Tile.parse("J")
FIXED = tuple(Tile(fixed_as=t) for t in NUMBERED)
ALL_VALUES = (*NUMBERED, JOKER, *FIXED)  # every distinct tile value: 52 + J + 52 fixed jokers


def test_meld_rulesets_cover_every_preset_with_and_without_the_high_ace() -> None:
    assert {"clasic", "online", "rummy45"} <= set(variants.names())
    assert len(MELD_RULESETS) == 2 * len(variants.names())
    for rid, rules in MELD_RULESETS:
        assert rules.ace_high_run is not rid.endswith("-no-high-ace")


# -- comparing one sequence -------------------------------------------------------------------


def lib_view(meld: Meld) -> tuple[object, ...]:
    return (
        meld.kind.value,
        meld.tiles,
        meld.points,
        tuple((slot.position, slot.candidates) for slot in meld.jokers),
        meld.low,
        meld.high,
        meld.high_ace,
        meld.is_full,
        meld.color,
    )


def ref_view(ref: RefMeld) -> tuple[object, ...]:
    return (
        ref.kind,
        ref.tiles,
        ref.points,
        ref.jokers,
        ref.low,
        ref.high,
        ref.high_ace,
        ref.is_full,
        ref.colour,
    )


@cache
def _with_adjacent_jokers(rules: Ruleset) -> Ruleset:
    return attrs.evolve(rules, jokers_may_be_adjacent=True)


def code_problem(code: MeldErrorCode, tiles: Sequence[Tile], rules: Ruleset) -> str | None:
    """None if ``code`` is a fair diagnosis of the invalid meld ``tiles``.

    Where one fault alone explains the refusal its code is required (too short, too
    many jokers, jokers adjacent, a fixed joker out of place); otherwise the code's
    claim must at least be true of the input."""
    n = len(tiles)
    jokers = [i for i, t in enumerate(tiles) if t.is_joker]
    real = n - len(jokers)
    acting = [a for a in map(stands_for, tiles) if a is not None]
    expected = None
    if n < 3:
        expected = MeldErrorCode.TOO_SHORT
    elif len(jokers) > 2 or real < rules.real_tiles_per_joker * len(jokers):
        expected = MeldErrorCode.TOO_MANY_JOKERS
    elif (
        not rules.jokers_may_be_adjacent
        and len(jokers) == 2
        and reference_meld(tiles, _with_adjacent_jokers(rules)) is not None
    ):
        expected = MeldErrorCode.ADJACENT_JOKERS
    elif any(t.is_fixed_joker for t in tiles):
        freed = [JOKER if t.is_joker else t for t in tiles]
        if reference_meld(freed, rules) is not None:
            expected = MeldErrorCode.FIXED_JOKER_OUT_OF_PLACE
    if expected is not None:
        return None if code == expected else f"code {code.name}, expected {expected.name}"
    has_ace = any(a.rank == 1 for a in acting)
    claims: dict[MeldErrorCode, Callable[[], bool]] = {  # each claim worked out if asked
        MeldErrorCode.TOO_SHORT: lambda: False,
        MeldErrorCode.TOO_MANY_JOKERS: lambda: False,
        MeldErrorCode.FIXED_JOKER_OUT_OF_PLACE: lambda: False,
        MeldErrorCode.ADJACENT_JOKERS: lambda: (
            not rules.jokers_may_be_adjacent
            and any(b == a + 1 for a, b in itertools.pairwise(jokers))
        ),
        MeldErrorCode.MIXED_COLOURS: lambda: (
            len({a.color for a in acting}) > 1 and len({a.rank for a in acting}) > 1
        ),
        MeldErrorCode.REPEATED_COLOUR: lambda: len({a.color for a in acting}) < len(acting),
        MeldErrorCode.SET_TOO_LONG: lambda: n > 4,
        MeldErrorCode.RUN_TOO_LONG: lambda: n > 13,
        MeldErrorCode.RUN_NOT_ASCENDING: lambda: True,
        MeldErrorCode.RUN_GAP: lambda: True,
        MeldErrorCode.RUN_REPEATED_RANK: lambda: len({a.rank for a in acting}) < len(acting),
        MeldErrorCode.ACE_IN_MIDDLE: lambda: has_ace,
        MeldErrorCode.HIGH_ACE_NOT_ALLOWED: lambda: has_ace and not rules.ace_high_run,
        MeldErrorCode.JOKER_OUT_OF_RANGE: lambda: bool(jokers),
    }
    return None if claims[code]() else f"code {code.name} is not true of the input"


def show(view: tuple[object, ...]) -> str:
    """A view with tiles in notation, for readable failure messages."""
    return re.sub(r"Tile\.parse\('([^']*)'\)", r"\1", repr(view))


def compare(
    tiles: tuple[Tile, ...], readings: list[Any], rules: Ruleset, rid: str, *, codes: bool
) -> tuple[str | None, bool]:
    """(a description of any disagreement, whether the reference found a meld)."""
    where = f"[{rid}] {tiles_str(tiles)!r}"
    try:
        ref = reference_meld(tiles, rules, readings)
    except AssertionError as exc:  # the reference refuses to guess
        return f"{where}: {exc}", False
    try:
        meld: Meld | None = analyze_meld(tiles, rules)
        error = None
    except InvalidMeldError as exc:
        meld, error = None, exc
    except Exception as exc:
        return f"{where}: analyze_meld raised {type(exc).__name__}: {exc}", ref is not None
    try:
        valid = is_valid_meld(tiles, rules)
    except Exception as exc:
        return f"{where}: is_valid_meld raised {type(exc).__name__}: {exc}", ref is not None
    if valid != (meld is not None):
        return f"{where}: is_valid_meld {valid} but analyze_meld gave {meld}", ref is not None
    if ref is None:
        if meld is not None:
            return f"{where}: accepted as {show(lib_view(meld))}, the reference refuses it", False
        if codes and error is not None:
            try:
                code = error.code
            except Exception as exc:
                return f"{where}: reading .code raised {type(exc).__name__}: {exc}", False
            if not isinstance(code, MeldErrorCode):
                return f"{where}: .code is {code!r}, not a MeldErrorCode", False
            problem = code_problem(code, tiles, rules)
            if problem:
                return f"{where}: {problem}", False
        return None, False
    if meld is None:
        assert error is not None
        return (
            f"{where}: refused ({error.code.name}), the reference has {show(ref_view(ref))}",
            True,
        )
    if lib_view(meld) != ref_view(ref):
        return f"{where}: library {show(lib_view(meld))} != reference {show(ref_view(ref))}", True
    return None, True


def check_sequences(sequences: Iterable[tuple[Tile, ...]], *, codes: bool = True) -> dict[str, int]:
    """Compare every sequence under every meld ruleset; fail listing the disagreements.
    Returns how many sequences each ruleset found valid (by the reference)."""
    mismatches: list[str] = []
    valid = dict.fromkeys(RULESET_IDS, 0)
    for tiles in sequences:
        readings = explaining_readings(tiles)
        for rid, rules in MELD_RULESETS:
            problem, ok = compare(tiles, readings, rules, rid, codes=codes)
            valid[rid] += ok
            if problem:
                mismatches.append(problem)
    shown = "\n".join(mismatches[:25])
    assert not mismatches, f"{len(mismatches)} disagreements with the reference:\n{shown}"
    return valid


# -- exhaustive ----------------------------------------------------------------------------


@pytest.mark.slow
def test_every_3_tile_sequence_over_the_53_values() -> None:
    """Every sequence of 3 tiles over 1R..13N and J (53**3 = 148,877 sequences)."""
    values = (*NUMBERED, JOKER)
    valid = check_sequences(itertools.product(values, repeat=3))
    # Counted by hand: runs, per colour, 12 windows of 3 (11 without 12-13-1), each with
    # no joker or a joker at one of 3 places: 4 * 12 * 4 = 192 (176); sets, per rank,
    # 4*3*2 = 24 without a joker and 3 places * 4*3 colour pairs = 36 with one:
    # 13 * 60 = 780.
    for rid, rules in MELD_RULESETS:
        assert valid[rid] == (192 if rules.ace_high_run else 176) + 780, rid


SMALL = parse_tiles("1R 2R 3R 12R 13R 1G 1A 1N J")


@pytest.mark.parametrize("length", [4, 5, pytest.param(6, marks=pytest.mark.slow)])
def test_every_4_to_6_tile_sequence_over_aces_and_ends(length: int) -> None:
    """Every sequence of 4, 5, 6 tiles over {1R 2R 3R 12R 13R 1G 1A 1N J}."""
    # (error codes are checked up to 5 tiles; for 6 it would cost ~15 s more)
    valid = check_sequences(itertools.product(SMALL, repeat=length), codes=length < 6)
    # Only 4 tiles can be a meld here (J 12R 13R 1R, 1R 2R 3R J, 1R 1G 1A 1N, 1R 1G 1A J,
    # ...): 5 or 6 tiles would need a 4th real rank in a row, or a set longer than 4.
    assert all(valid.values()) if length == 4 else not any(valid.values())


FIXED_ALPHABET = parse_tiles(
    "1R 2R 3R 8R 12R 13R 8G 8A 1G J J(=1R) J(=2R) J(=3R) J(=8R) J(=12R) J(=13R) J(=8G) J(=1G)"
)


@pytest.mark.parametrize("length", [3, pytest.param(4, marks=pytest.mark.slow)])
def test_every_short_sequence_with_fixed_jokers(length: int) -> None:
    """Every sequence of 3 and 4 tiles over an alphabet rich in fixed jokers (JOLY-05)."""
    sequences = itertools.product(FIXED_ALPHABET, repeat=length)
    check_sequences(s for s in sequences if any(t.is_fixed_joker for t in s))


def test_every_13_tile_run_with_one_more_tile() -> None:
    """A run never has 14 tiles: every 13-tile run (1..13 or 2..13 1) with no joker or
    one, with one more tile of its colour, a joker or a fixed ace or 13, anywhere."""
    sequences = []
    for colour in COLOURS:
        extras = [JOKER, *(Tile(r, colour) for r in range(1, 14))]
        extras += [Tile(fixed_as=Tile(1, colour)), Tile(fixed_as=Tile(13, colour))]
        for low in (1, 2):
            run = [_run_tile(r, colour) for r in range(low, low + 13)]
            for joker_at in (None, *range(13)):
                base = [JOKER if i == joker_at else t for i, t in enumerate(run)]
                for extra in extras:
                    for at in range(14):
                        sequences.append((*base[:at], extra, *base[at:]))
    check_sequences(sequences)


# -- random near-melds ---------------------------------------------------------------------


class Chooser(Protocol):
    def pick(self, options: Sequence[T]) -> T: ...
    def number(self, lo: int, hi: int) -> int: ...


class RandomChooser:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def pick(self, options: Sequence[T]) -> T:
        return self.rng.choice(options)

    def number(self, lo: int, hi: int) -> int:
        return self.rng.randint(lo, hi)


class DrawChooser:
    def __init__(self, draw: Callable[[st.SearchStrategy[Any]], Any]) -> None:
        self.draw = draw

    def pick(self, options: Sequence[T]) -> T:
        return self.draw(st.sampled_from(options))  # type: ignore[no-any-return]

    def number(self, lo: int, hi: int) -> int:
        return self.draw(st.integers(lo, hi))  # type: ignore[no-any-return]


def _run_tile(rank_position: int, colour: Any) -> Tile:
    return Tile(1 if rank_position == 14 else rank_position, colour)


def near_meld(ch: Chooser, max_len: int = 13, max_jokers: int = 2) -> list[Tile]:
    """A valid meld (run, set) or random tiles, given jokers, then perhaps spoilt."""
    shape = ch.pick(("run", "run", "run", "set", "set", "noise"))
    if shape == "run":
        colour = ch.pick(COLOURS)
        n = ch.number(3, max_len)
        low = ch.number(1, 15 - n)
        tiles = [_run_tile(r, colour) for r in range(low, low + n)]
    elif shape == "set":
        rank = ch.number(1, 13)
        colours = list(COLOURS)
        order = [colours.pop(ch.number(0, len(colours) - 1)) for _ in range(4)]
        size = min(ch.pick((3, 4, 3, 4, 5)), max_len)
        tiles = [Tile(rank, c) for c in (order + order)[:size]]
    else:
        tiles = [Tile(ch.number(1, 13), ch.pick(COLOURS)) for _ in range(ch.number(3, max_len))]
    for _ in range(ch.pick((0, 1, 0, 1, 2, max_jokers))):
        i = ch.number(0, len(tiles) - 1)
        how = ch.pick(("free", "fixed", "free", "fixed", "wrong"))
        if how == "free" or tiles[i].is_joker:
            tiles[i] = JOKER
        elif how == "fixed":
            tiles[i] = Tile(fixed_as=tiles[i])
        else:
            tiles[i] = Tile(fixed_as=Tile(ch.number(1, 13), ch.pick(COLOURS)))
    for _ in range(ch.pick((0, 0, 0, 1, 1, 2))):
        i = ch.number(0, len(tiles) - 1)
        j = ch.number(0, len(tiles) - 1)
        move = ch.pick(("swap", "bump", "recolour", "insert", "delete", "reverse", "double"))
        t = tiles[i]
        if move == "swap":
            tiles[i], tiles[j] = tiles[j], tiles[i]
        elif move == "bump" and t.rank is not None:
            tiles[i] = Tile(min(13, max(1, t.rank + ch.pick((-1, 1)))), t.color)
        elif move == "recolour" and t.rank is not None:
            tiles[i] = Tile(t.rank, ch.pick(COLOURS))
        elif move == "insert":
            tiles.insert(i, Tile(ch.number(1, 13), ch.pick(COLOURS)))
        elif move == "delete" and len(tiles) > 3:
            del tiles[i]
        elif move == "reverse":
            tiles.reverse()
        elif move == "double" and not t.is_joker:
            tiles.insert(i, t)
    return tiles[:max_len]


@st.composite
def near_melds(draw: Any, max_len: int = 13, max_jokers: int = 3) -> list[Tile]:
    return near_meld(DrawChooser(draw), max_len, max_jokers)


NEAR_MELDS = 100_000 if os.environ.get("REMI_WIDE") == "1" else 50_000
"""Sequences of :func:`test_100_000_random_near_melds` (the first 50,000 of the same
seeded stream by default, all 100,000 with ``REMI_WIDE=1``)."""


@pytest.mark.slow
def test_100_000_random_near_melds() -> None:
    """100,000 seeded random sequences of 3-13 tiles with 0-2 jokers, mostly near-valid
    (:data:`NEAR_MELDS` of them unless run wide)."""
    rng = RandomChooser(random.Random(20240502))
    sequences = [tuple(near_meld(rng)) for _ in range(NEAR_MELDS)]
    assert all(3 <= len(s) <= 13 and sum(t.is_joker for t in s) <= 2 for s in sequences)
    kinds: Counter[str] = Counter()
    for s in sequences:
        ref = reference_meld(s, variants.get("online"))
        if ref is not None:
            kinds[ref.kind] += 1
            kinds["2 jokers"] += sum(t.is_joker for t in s) == 2
            kinds["fixed joker"] += any(t.is_fixed_joker for t in s)
            kinds["high ace"] += ref.high_ace
            kinds["13 tiles"] += len(s) == 13
    # plenty of every interesting kind of valid meld, and plenty of invalid ones
    assert NEAR_MELDS // 4 < kinds["suita"] + kinds["terta"] < NEAR_MELDS * 3 // 4, kinds
    assert min(kinds.values()) > NEAR_MELDS // 200, kinds
    check_sequences(sequences)


# -- Hypothesis properties -------------------------------------------------------------------

any_tile = st.sampled_from(ALL_VALUES)


@given(st.lists(any_tile, max_size=20), st.sampled_from([" ", ", ", ",", "  ", " ,\t"]))
def test_parse_tiles_round_trips_any_tiles(tiles: list[Tile], sep: str) -> None:
    assert parse_tiles(" ".join(map(str, tiles))) == tuple(tiles)
    assert parse_tiles(f" {sep.join(map(str, tiles))} ") == tuple(tiles)
    assert parse_tiles(tiles_str(tiles)) == tuple(tiles)


# the ruleset's id, not the Ruleset, is the parameter: falsifying examples stay short
ruleset = pytest.mark.parametrize("rid", RULESET_IDS)
RULES_BY_ID = dict(MELD_RULESETS)


@st.composite
def small_groups(draw: Any) -> list[Tile]:
    """Up to 6 tiles, near a meld, in any order."""
    tiles = draw(near_melds(max_len=6))
    keep = draw(st.lists(st.booleans(), min_size=len(tiles), max_size=len(tiles)))
    if draw(st.booleans()):
        tiles = [t for t, k in zip(tiles, keep, strict=True) if k or len(tiles) <= 3]
    return draw(st.permutations(tiles))  # type: ignore[no-any-return]


def readings_by_permutation(tiles: Sequence[Tile], rules: Ruleset) -> set[Meld]:
    return {
        analyze_meld(p, rules)
        for p in set(itertools.permutations(tiles))
        if is_valid_meld(p, rules)
    }


def check_arrangement(tiles: Sequence[Tile], rules: Ruleset) -> None:
    found = arrange_meld(tiles, rules)
    assert len(set(found)) == len(found), "readings repeated"
    assert set(found) == readings_by_permutation(tiles, rules)
    # documented order: runs first by lowest rank, then the set
    order = [(m.kind is MeldKind.TERTA, m.low) for m in found]
    assert order == sorted(order)
    assert arrange_meld(tuple(reversed(tiles)), rules) == found
    assert arrange_meld(tiles_str(tiles), rules) == found


@ruleset
@given(tiles=small_groups())
def test_arrange_meld_is_every_valid_ordering(tiles: list[Tile], rid: str) -> None:
    rules = RULES_BY_ID[rid]
    check_arrangement(tiles, rules)


ARRANGE_ALPHABET = parse_tiles("1R 2R 3R 4R 12R 13R 1G 1A J J(=13R) J(=1G)")


@ruleset
def test_arrange_meld_every_small_multiset(rid: str) -> None:
    """Every multiset of 3 to 5 tiles over a small alphabet (jokers, aces, fixed jokers)."""
    rules = RULES_BY_ID[rid]
    for size in (3, 4, 5):
        for group in itertools.combinations_with_replacement(ARRANGE_ALPHABET, size):
            check_arrangement(group, rules)


@cache
def catalogue(rules: Ruleset) -> MeldCatalogue:
    return MeldCatalogue(rules)


@st.composite
def growing_groups(draw: Any) -> list[Tile]:
    """Up to 6 tiles a player might have picked: part of a near-meld, or anything."""
    if draw(st.integers(0, 4)) == 0:
        return draw(st.lists(any_tile, max_size=4))  # type: ignore[no-any-return]
    tiles = draw(near_melds())
    size = draw(st.integers(0, min(6, len(tiles))))
    return draw(st.permutations(tiles))[:size]  # type: ignore[no-any-return]


@ruleset
@given(group=growing_groups())
def test_could_become_meld_agrees_with_the_meld_catalogue(group: list[Tile], rid: str) -> None:
    rules = RULES_BY_ID[rid]
    assert could_become_meld(group, rules) == catalogue(rules).could_become(group)


@ruleset
def test_could_become_meld_every_pair(rid: str) -> None:
    """Every group of up to 2 tiles over the 53 values, and with each fixed joker."""
    rules = RULES_BY_ID[rid]
    values = (*NUMBERED, JOKER)
    groups = [
        *([], [JOKER]),
        *itertools.combinations_with_replacement(values, 2),
        *((f, t) for f in FIXED for t in (*values, *FIXED)),
    ]
    wrong = [
        tiles_str(g)
        for g in groups
        if could_become_meld(g, rules) != catalogue(rules).could_become(g)
    ]
    assert not wrong, wrong[:20]


@ruleset
@given(tiles=near_melds())
def test_is_valid_meld_is_analyze_meld_not_raising(tiles: list[Tile], rid: str) -> None:
    rules = RULES_BY_ID[rid]
    try:
        analyze_meld(tiles, rules)
        raised = False
    except InvalidMeldError:
        raised = True
    assert is_valid_meld(tiles, rules) is not raised
    assert is_valid_meld(tiles_str(tiles), rules) is not raised
