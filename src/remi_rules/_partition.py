"""The exact partition of a hand into melds: the engine behind :mod:`remi_rules.solver`.

Rules: MELD-01 … MELD-06 (which groups are melds), VALUE-01 (their points), OPEN-02 …
OPEN-04 (the constraints of a first etalare).  Everything here is a pure function of a
multiset of tile values and a :class:`~remi_rules.Ruleset`; the public, validated API
is :func:`remi_rules.best_melds` and :func:`remi_rules.best_opening`.

The method (docs/solver.md has the long version):

* Tiles are *fields* in the solver's order, rank first (``1R 1G 1A 1N 2R …``), then
  the free joker, then fixed jokers (*joker întors*) by the tile they stand for.
* :func:`catalogue` lists every valid meld inside the hand (a joker in every slot it
  may fill), with its points; melds using exactly the same tiles are merged, keeping
  the better one.
* :func:`solve` is a memoised recursion on the tiles still unplaced: the lowest one
  is either left over or placed in one of the melds that hold it (all its other tiles
  are higher).  The recursion visits each reachable remainder once, so it is exact;
  nothing is cut on a budget.  A remainder is an ``int`` with three bits per field
  (two for the count, one guard bit), so "does this meld fit" is one subtraction.
* Ties are broken inside the recursion: placing the lowest tile beats leaving it,
  and among the melds that hold it the one with the smallest notation wins.  That
  yields, among the optimal splits, the one whose melds, sorted, compare smallest
  (see :func:`solution_key`), without enumerating the optimal splits.

Constraints (the opening's composition and minimum, tiles that must stay on the
rack) become a few more bits of the memo key.

That recursion is exponential on some hands (two jokers with long runs, the high ace
over four colours), so it takes turns with the search by ranks (:func:`solve`,
from :data:`FAST_BUDGET` work and :data:`RANK_BUDGET` states): the fields in
order with only the runs still open per colour, the sets of the rank, the jokers and
the constraints as state (van Rijn, Takes & Vis 2015), memoised bounds and threshold
questions; the split is rebuilt by the same place-the-lowest-tile rule, so the answer
is the same.  Polynomial in the hand's size for any rack the game can reach
(docs/solver.md).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from ._meld_catalogue import (
    FREE_JOKER,
    NFIELDS,
    REAL_FIELDS,
    Candidate,
    catalogue,
    counts_of,
    field_of,
    tile_of_field,
)
from .ruleset import Ruleset

if TYPE_CHECKING:
    from ._by_ranks import Shared

__all__ = [
    "CAPPED_BUDGET",
    "FAST_BUDGET",
    "FREE_JOKER",
    "NEED_ACE_SET",
    "NEED_RUN",
    "NEED_SET",
    "REAL_FIELDS",
    "Candidate",
    "Constraints",
    "catalogue",
    "counts_of",
    "field_of",
    "solution_key",
    "solve",
    "split_reaching",
    "tile_of_field",
]

NEED_RUN: Final = 1
NEED_SET: Final = 2
NEED_ACE_SET: Final = 4


_LAST: Final = ((NFIELDS * 9,), ())
"""Greater than every meld's key: the end of a split in :func:`solution_key`."""


def solution_key(melds: Iterable[Candidate]) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """The notation order of a split, as a tuple where smaller is better: its melds'
    keys, sorted, then an end marker greater than any meld.  Of two splits, the one
    holding the smallest meld that the other lacks is the smaller (a split that runs
    out of melds first is the larger at that point)."""
    return (*sorted(m.key for m in melds), _LAST)


class Constraints(NamedTuple):
    """What a split must satisfy besides being made of valid melds."""

    need: int = 0
    """``NEED_RUN | NEED_SET | NEED_ACE_SET``: kinds of meld the split must hold."""
    allow_runs: bool = True
    """False: no run at all (the ace-set exception, OPEN-04)."""
    min_leftover: int = 0
    """Tiles that must stay unmelded (TURN-07, OPEN-08)."""
    min_points: int = 0
    """Points the split must reach (OPEN-02); a split below it is infeasible."""
    max_sets: int | None = None
    """At most this many sets (OPEN-04: the ace set opens alone)."""


_NO_CONSTRAINTS: Final = Constraints()
_UNIT: Final = tuple(1 << (3 * i) for i in range(NFIELDS + 1))
_GUARD: Final = tuple(sum(4 << (3 * i) for i in range(n)) for n in range(NFIELDS + 1))
_REAL: Final = tuple(sum(3 << (3 * i) for i in range(n)) for n in range(REAL_FIELDS + 1))
_INFEASIBLE: Final = -(1 << 62)


class _Prepared(NamedTuple):
    """A catalogue compiled for one hand: fields compacted to the hand's own."""

    unit: tuple[int, ...]
    """``unit[i]``: one tile of compact field ``i``."""
    guard: int
    real: int
    start: int
    by_low: tuple[tuple[tuple[int, int, int, int], ...], ...]
    """Per compact real field: (mask, value, points, index) of the melds whose lowest
    tile it is, in notation order."""
    melds: tuple[Candidate, ...]
    joker_slots: tuple[int, ...]
    """Compact joker fields (for counting leftover jokers)."""
    present: tuple[int, ...]
    """``present[i]``: the solver field of compact field ``i``."""
    capped: bool
    """Every option is worth one per tile (the tiles objective, lay-offs worth at most
    one): a remainder's value is at most its tiles less those it must keep, and the
    fast search stops trying options once one reaches that."""


def _prepare(
    counts: Sequence[int],
    rules: Ruleset,
    tiles_objective: bool,
    constraints: Constraints,
    extra: Callable[[int], int] | None,
    catalogued: Sequence[Candidate] | None = None,
) -> _Prepared:
    present = [f for f, k in enumerate(counts) if k]
    compact = {f: i for i, f in enumerate(present)}
    width = len(present)
    unit = _UNIT[:width]
    guard = _GUARD[width]
    nreal = sum(1 for f in present if f < REAL_FIELDS)
    real = _REAL[nreal]
    start = 0
    for f in present:
        start += unit[compact[f]] * counts[f]
    # Melds of the same tiles: keep the better one; of equals, the smaller notation.
    # (A run and a set never share their tiles, and sets of one rank are all ace sets
    # or none, so the kept meld serves the same constraints.)  When the points are a
    # constraint of a tiles objective, melds of the same tiles but other points differ
    # in what they make feasible, so they are merged only with equal points.
    by_points = tiles_objective and constraints.min_points > 0
    best: dict[tuple[int, int], tuple[int, Candidate]] = {}
    runs = constraints.allow_runs
    if catalogued is None:
        catalogued = catalogue(counts, rules, runs=runs)
    field_unit = {f: unit[compact[f]] for f in present}
    for cand in catalogued:
        if cand.is_run and not runs:
            continue
        mask = sum(map(field_unit.__getitem__, cand.fields))
        value = len(cand.fields) if tiles_objective else cand.points * 64 + len(cand.fields)
        slot = (mask, cand.points if by_points else 0)
        seen = best.get(slot)
        if seen is None or value > seen[0] or (value == seen[0] and cand.key < seen[1].key):
            best[slot] = (value, cand)
    melds: list[Candidate] = []
    lists: list[list[tuple[tuple[tuple[int, ...], tuple[int, ...]], int, int, int, int]]] = [
        [] for _ in range(nreal)
    ]
    for (mask, _), (value, cand) in best.items():
        low = compact[min(cand.fields)]  # (a joker's field is above every tile's)
        lists[low].append((cand.key, mask, value, cand.points, len(melds)))
        melds.append(cand)
    if extra is not None:
        # Singleton options (a tile laid off elsewhere), worth extra(field) each.
        for f in present[:nreal]:
            gain = extra(f)
            if gain:
                lists[compact[f]].append((_LAST, unit[compact[f]], gain, 0, -1))
    capped = tiles_objective and all(
        value <= 1 for group in lists for _, _, value, _, index in group if index < 0
    )
    for group in lists:
        if len(group) > 1:
            group.sort()
    by_low = tuple(
        tuple((mask, value, points, index) for _, mask, value, points, index in group)
        for group in lists
    )
    jokers = tuple(compact[f] for f in present if f >= REAL_FIELDS)
    return _Prepared(unit, guard, real, start, by_low, tuple(melds), jokers, tuple(present), capped)


FAST_BUDGET = 30_000
"""The fast search's work in its first turn (see :func:`solve`): each remainder it
solves counts one plus the melds of its lowest tile, so a turn costs about the same
whether a tile has a few melds or hundreds (jokers in long runs).  Both
searches are exact and break ties the same way, so this changes only the time an
answer takes: the fast search is quickest on sparse racks (many tiles that no meld
holds), the search by ranks on dense ones, two jokers and the high ace
(docs/decisions.md, "Solver: two searches in turns", "Solver: joker units, a bound
per question, the witness").  ``0``: the search by ranks alone."""

RANK_BUDGET = 1_000
"""States the search by ranks may expand in its first turn (see :func:`solve`)."""

FAST_MAX_TILES = 40
"""Hands of more tiles go to the search by ranks alone (see :func:`solve`), after
:data:`CAPPED_BUDGET` of the fast search's work where every tile is worth one."""

CAPPED_BUDGET = 300_000
"""The fast search's work (as :data:`FAST_BUDGET`) on a hand of more than
:data:`FAST_MAX_TILES` tiles whose every tile is worth one (the tiles objective: the
rupere check's and the hint's question "how many tiles can the rack place, one
kept?"), before the search by ranks takes over to the end.  Measured on the racks
random bots reach (up to 76 tiles, benchmarks/solver_racks.py ``REACHABLE``): the
fast search finishes most of them within that, in 10-150 ms; the others take the
search by ranks 0.3-1 s."""

_GROWTH: Final = 4
"""Each turn of a search gets this many times its previous allowance."""


class _OverBudget(Exception):
    """A search spent its allowance for this turn."""


def solve(
    counts: Sequence[int],
    rules: Ruleset,
    *,
    tiles_objective: bool = False,
    constraints: Constraints = _NO_CONSTRAINTS,
    extra: Callable[[int], int] | None = None,
    fast_budget: int | None = None,
    catalogued: Sequence[Candidate] | None = None,
    shared: Shared | None = None,
    melds: bool = True,
) -> tuple[int, tuple[Candidate, ...]] | None:
    """The best split of the hand ``counts`` (105 fields) into melds.

    Maximises the points (VALUE-01) and then the tiles placed, or with
    ``tiles_objective`` the tiles placed; ties go to the smaller notation (the module
    docstring).  Returns ``(value, melds)`` where ``value`` is ``points * 64 + tiles``
    (or ``tiles``), or ``None`` when no split meets ``constraints``.  ``extra(field)``
    (optional) lets a tile be placed on its own for that value (a lay-off; such
    placements are not returned as melds).

    Any hand the game can reach (the 104 numbered tiles at most twice each, two
    jokers) is solved exactly, in time polynomial in its size: the fast search and the
    search by ranks run in turns, each resuming where its last turn stopped (its memo
    kept) with :data:`_GROWTH` times the allowance, until one finishes, starting with
    :data:`FAST_BUDGET` work and :data:`RANK_BUDGET` states; so the call costs a
    constant times the cheaper of the two, and the search by ranks is polynomial.
    Hands of more than :data:`FAST_MAX_TILES` tiles go to the search by ranks alone,
    after one turn of :data:`CAPPED_BUDGET` work of the fast search where every
    tile is worth one (``_Prepared.capped``).
    ``fast_budget``: the fast search alone up to that much work, then the search
    by ranks to the end (``0``: the search by ranks alone).  Same answer either way.
    ``catalogued``: the hand's meld catalogue (:func:`catalogue` of ``counts``, in any
    order), when the caller has it already; ``shared``: the search by ranks' memos
    kept across a caller's calls (:class:`~remi_rules._by_ranks.Shared`); the answer
    is the same either way.  With ``melds`` false only the value is sure: the melds
    may be left out (the search by ranks then skips the tie-break's questions); where
    they are given, they are the answer's."""
    prep = _prepare(counts, rules, tiles_objective, constraints, extra, catalogued)
    if fast_budget is None:
        # Past FAST_MAX_TILES tiles the fast search's remainders are dear and its turns
        # rarely win: the search by ranks alone; where every tile is worth one and the
        # melds are asked, after one turn of the fast search (it stops at a remainder
        # placed whole; the search by ranks' value alone then needs no such turn).
        if sum(counts) <= FAST_MAX_TILES:
            fast, ranks = FAST_BUDGET, RANK_BUDGET
        else:
            fast, ranks = (CAPPED_BUDGET if prep.capped and melds else 0), None
    else:
        fast, ranks = fast_budget, None
    # The searches' memos belong to this call: emptied before it returns (the
    # recursive closures holding them are reference cycles, so without this they
    # would wait for the garbage collector).
    fast_memo: dict[int, int] = {}
    memos: list[dict[Any, Any]] = [fast_memo]
    allowance = [0]
    """The states the search by ranks may still expand in this turn."""
    spent = [0]
    """The fast search's work so far (:func:`_solve_plain`)."""
    searcher: (
        tuple[
            Callable[[int, int, int, int, int], int],
            Callable[..., bool],
            Callable[..., bool | None],
            Callable[..., list[tuple[int, ...]] | None],
        ]
        | None
    ) = None
    found: tuple[int, list[int]] | None
    try:
        while True:
            if fast:
                try:
                    if constraints == _NO_CONSTRAINTS:
                        found = _solve_plain(prep, fast, fast_memo, spent)
                    else:
                        found = _solve_constrained(
                            prep, constraints, tiles_objective, fast, fast_memo, spent
                        )
                    break
                except _OverBudget:
                    pass
            if searcher is None:
                from ._by_ranks import by_ranks  # (imports this module)
                from ._rebuild import reconstruct, value_of

                searcher = by_ranks(
                    counts,
                    prep,
                    rules,
                    constraints,
                    tiles_objective,
                    extra,
                    memos,
                    allowance,
                    shared,
                )
            allowance[0] = ranks if ranks is not None else 1 << 62
            try:
                if melds:
                    found = reconstruct(prep, constraints, tiles_objective, *searcher)
                else:
                    total = value_of(prep, constraints, tiles_objective, searcher[0])
                    found = None if total is None else (total, [])
                break
            except _OverBudget:
                pass
            fast *= _GROWTH
            ranks = ranks * _GROWTH if ranks is not None else None
    finally:
        for memo in memos:
            memo.clear()
    if found is None:
        return None
    value, path = found
    return value, tuple(prep.melds[i] for i in path if i >= 0)


def split_reaching(
    counts: Sequence[int],
    rules: Ruleset,
    goal: int,
    *,
    tiles_objective: bool = False,
    constraints: Constraints = _NO_CONSTRAINTS,
    extra: Callable[[int], int] | None = None,
    shared: Shared | None = None,
    lay_cap: Mapping[int, int] | None = None,
) -> tuple[tuple[int, ...], ...] | None:
    """Whether :func:`solve` would give the hand ``counts`` a value of at least
    ``goal``: None if not (or no split meets ``constraints``), else the melds of a
    split that reaches it as sorted tuples of fields (lay-offs left out; empty where
    the search kept none).  A yes-or-no question, which the search by ranks answers
    with one threshold search instead of the searches that pin the value down, and
    whose split it reads back from what that search proved (hands of more than
    :data:`FAST_MAX_TILES` tiles; smaller ones are solved).  ``lay_cap`` (hands of
    more than :data:`FAST_MAX_TILES` tiles only): per real field, how many of its
    tiles at most ``extra`` lays off."""
    if lay_cap is not None and sum(counts) <= FAST_MAX_TILES:
        raise ValueError("lay_cap is for hands of more than FAST_MAX_TILES tiles")
    if sum(counts) <= FAST_MAX_TILES:
        found = solve(
            counts,
            rules,
            tiles_objective=tiles_objective,
            constraints=constraints,
            extra=extra,
            shared=shared,
            melds=False,
        )
        if found is None or found[0] < goal:
            return None
        return tuple(m.fields for m in found[1])
    from ._by_ranks import by_ranks  # (imports this module)
    from ._rebuild import reaches_goal

    prep = _prepare(counts, rules, tiles_objective, constraints, extra, None)
    memos: list[dict[Any, Any]] = []
    allowance = [1 << 62]
    try:
        _, at_least, _, witness = by_ranks(
            counts,
            prep,
            rules,
            constraints,
            tiles_objective,
            extra,
            memos,
            allowance,
            shared,
            lay_cap,
        )
        return reaches_goal(prep, constraints, tiles_objective, at_least, witness, goal)
    finally:
        for memo in memos:
            memo.clear()


def _solve_plain(
    prep: _Prepared, budget: int, memo: dict[int, int], spent: list[int]
) -> tuple[int, list[int]]:
    """The fast search without constraints; ``memo`` may hold a previous turn's
    remainders, and ``spent[0]`` counts the work so far, each remainder solved one
    plus the melds of its lowest tile (raises :class:`_OverBudget` past ``budget``)."""
    unit, guard, real, by_low = prep.unit, prep.guard, prep.real, prep.by_low
    ones, twos = guard >> 2, guard >> 1  # each field's count bits
    capped = prep.capped

    def best(s: int) -> int:
        x = s & real
        while x:
            low = ((x & -x).bit_length() - 1) // 3
            options = by_low[low]
            if options:
                break
            s -= unit[low]  # a tile no meld holds is left over
            x = s & real
        else:
            return 0
        found = memo.get(s)
        if found is not None:
            return found
        sg = s | guard
        if capped:
            # The melds first: once the remainder's every tile is placed, nothing
            # beats it (leaving the lowest tile over places one tile less at most).
            most = (s & ones).bit_count() + 2 * (s & twos).bit_count()
            top = -1
            for mask, value, _, _ in options:
                if (sg - mask) & guard == guard:
                    v = value + best(s - mask)
                    if v > top:
                        top = v
                        if v >= most:
                            break
            if top < most - 1:
                v = best(s - unit[low])
                if v > top:
                    top = v
        else:
            top = best(s - unit[low])
            for mask, value, _, _ in options:
                if (sg - mask) & guard == guard:
                    v = value + best(s - mask)
                    if v > top:
                        top = v
        memo[s] = top
        spent[0] += len(options) + 1
        if spent[0] > budget:
            raise _OverBudget
        return top

    # The recursion is at most one level per tile (a hand holds at most 106).
    total = best(prep.start)
    path: list[int] = []
    s = prep.start
    while s & real:
        x = s & real
        low = ((x & -x).bit_length() - 1) // 3
        target = best(s)
        sg = s | guard
        for mask, value, _, index in by_low[low]:
            if (sg - mask) & guard == guard and value + best(s - mask) == target:
                path.append(index)
                s -= mask
                break
        else:
            s -= unit[low]
    return total, path


def _solve_constrained(
    prep: _Prepared,
    constraints: Constraints,
    tiles_objective: bool,
    budget: int,
    memo: dict[int, int],
    spent: list[int],
) -> tuple[int, list[int]] | None:
    """The fast search under ``constraints``; ``memo`` and ``spent`` as for
    :func:`_solve_plain`."""
    unit, guard, real, by_low = prep.unit, prep.guard, prep.real, prep.by_low
    melds = prep.melds
    jokers = prep.joker_slots
    min_points = constraints.min_points
    # The points still needed ride in the memo key only when they are not implied by
    # maximising points (the tiles objective); else they are checked at the end.
    track_points = tiles_objective and min_points > 0
    # Per meld index (the last entry serves index -1, a lay-off): the kinds it
    # provides, and whether it counts against max_sets (only tracked when limited).
    limited = constraints.max_sets is not None
    max_sets = constraints.max_sets if constraints.max_sets is not None else 0
    kinds = [
        *((NEED_RUN if m.is_run else NEED_SET) | (NEED_ACE_SET if m.ace_set else 0) for m in melds),
        0,
    ]
    counted = [*(int(limited and not m.is_run) for m in melds), 0]
    shift = 3 * len(unit) + 3
    ones, twos = guard >> 2, guard >> 1  # each field's count bits
    capped = prep.capped

    def leftover_jokers(s: int) -> int:
        return sum((s >> (3 * j)) & 3 for j in jokers)

    def best(s: int, need: int, keep: int, points: int, sets: int) -> int:
        x = s & real
        if not x:
            if need or points > 0 or leftover_jokers(s) < keep:
                return _INFEASIBLE
            return 0
        key = s | (need | keep << 3 | points << 8 | sets << 20) << shift
        found = memo.get(key)
        if found is not None:
            return found
        low = ((x & -x).bit_length() - 1) // 3
        sg = s | guard
        if capped:
            # As in _solve_plain: the melds first, until every tile but those to keep
            # is placed (leaving the lowest tile over then does no better).
            most = (s & ones).bit_count() + 2 * (s & twos).bit_count() - keep
            top = _INFEASIBLE
            for mask, value, pts, index in by_low[low]:
                if (sg - mask) & guard == guard:
                    more = sets + counted[index]
                    if more > max_sets:
                        continue
                    left = points - pts if points > pts else 0
                    v = value + best(s - mask, need & ~kinds[index], keep, left, more)
                    if v > top:
                        top = v
                        if v >= most:
                            break
            if top < most - (0 if keep else 1):
                v = best(s - unit[low], need, keep - 1 if keep else 0, points, sets)
                if v > top:
                    top = v
        else:
            top = best(s - unit[low], need, keep - 1 if keep else 0, points, sets)
            for mask, value, pts, index in by_low[low]:
                if (sg - mask) & guard == guard:
                    more = sets + counted[index]
                    if more > max_sets:
                        continue
                    left = points - pts if points > pts else 0
                    v = value + best(s - mask, need & ~kinds[index], keep, left, more)
                    if v > top:
                        top = v
        memo[key] = top
        spent[0] += len(by_low[low]) + 1
        if spent[0] > budget:
            raise _OverBudget
        return top

    need0 = constraints.need
    keep0 = constraints.min_leftover
    pts0 = min_points if track_points else 0
    total = best(prep.start, need0, keep0, pts0, 0)
    if total < 0:
        return None
    path: list[int] = []
    s, need, keep, points, sets = prep.start, need0, keep0, pts0, 0
    while s & real:
        x = s & real
        low = ((x & -x).bit_length() - 1) // 3
        target = best(s, need, keep, points, sets)
        sg = s | guard
        for mask, value, pts, index in by_low[low]:
            if (sg - mask) & guard != guard:
                continue
            more = sets + counted[index]
            if more > max_sets:
                continue
            left = points - pts if points > pts else 0
            if value + best(s - mask, need & ~kinds[index], keep, left, more) == target:
                path.append(index)
                s, need, points, sets = s - mask, need & ~kinds[index], left, more
                break
        else:
            s -= unit[low]
            keep = keep - 1 if keep else 0
    if not tiles_objective and min_points and total // 64 < min_points:
        return None
    return total, path
