"""The rebuild of a split from the search by ranks (:mod:`remi_rules._by_ranks`), for
:func:`remi_rules._partition.solve`: the lowest tile goes into the first catalogue meld,
in notation order, that keeps the value optimal, else it is left over (the same
tie-break as the fast search's).  Before asking about the melds of a kind one by one,
it asks about them at once (:func:`group_question`), and bisects the runs by their
second real tile (docs/solver.md, "The tie-break")."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from ._field_moves import _D_TOP, _MARK_NEXT, _MARK_TOP, _MARKED, _NO_RUNS, _State
from ._meld_catalogue import REAL_FIELDS
from ._partition import NEED_ACE_SET, NEED_RUN, NEED_SET, Constraints, _Prepared

__all__ = ["group_question", "kinds_of", "reconstruct", "value_of"]


def kinds_of(prep: _Prepared, constraints: Constraints) -> tuple[list[int], list[int], int]:
    """Per meld index (the last entry serves index -1, a lay-off): the kinds it
    provides, and whether it counts against ``max_sets``; and that limit."""
    limited = constraints.max_sets is not None
    max_sets = constraints.max_sets if constraints.max_sets is not None else 0
    melds = prep.melds
    kinds = [
        *((NEED_RUN if m.is_run else NEED_SET) | (NEED_ACE_SET if m.ace_set else 0) for m in melds),
        0,
    ]
    counted = [*(int(limited and not m.is_run) for m in melds), 0]
    return kinds, counted, max_sets


def reconstruct(
    prep: _Prepared,
    constraints: Constraints,
    tiles_objective: bool,
    best: Callable[[int, int, int, int, int], int],
    at_least: Callable[[int, int, int, int, int, int], bool],
    at_least_in: Callable[..., bool | None],
    witness: Callable[[int, int, int, int, int, int], list[tuple[int, ...]] | None] | None = None,
) -> tuple[int, list[int]] | None:
    """The split :func:`~remi_rules._partition._solve_constrained` returns, with
    ``best(remainder, need, keep, points, sets)`` as its value of a remainder: the
    lowest tile goes into the first meld, in notation order, that keeps the value
    optimal, else it is left over.  ``witness`` (a question's proved split, checked by
    :func:`_options`) spares the questions whose answer that split already gives."""
    unit, guard, real, by_low = prep.unit, prep.guard, prep.real, prep.by_low
    kinds, counted, max_sets = kinds_of(prep, constraints)
    # 0: a set; 1: a run; 2: a run whose last tile is its lowest field's (an ace at
    # the top, 12 13 1).  And the rank of a run's second lowest real tile (0: a joker),
    # which orders the runs holding one lowest tile (notation order).
    meld_kind = [
        (2 if m.fields[-1] < 4 and m.fields[-1] == min(m.fields) else 1) if m.is_run else 0
        for m in prep.melds
    ]
    second = [
        m.key[0][1] // 4 + 1 if m.is_run and m.key[0][1] < REAL_FIELDS else 0 for m in prep.melds
    ]
    need, keep, points = _root(constraints, tiles_objective)
    sets = 0
    s = prep.start
    total = value_of(prep, constraints, tiles_objective, best)
    if total is None:
        return None
    target = total
    path: list[int] = []

    def proved(question: tuple[int, int, int, int, int, int]) -> dict[int, list[_Option]] | None:
        """The split the searches proved for ``question`` (remainder, need, keep,
        points, sets, goal), as catalogue options by lowest field, if it checks out."""
        if witness is None:
            return None
        return _options(prep, constraints, kinds, counted, max_sets, question, witness(*question))

    # An optimal split of the remainder, known without asking (docs/solver.md, "The
    # witness"): where its meld for the lowest tile comes first among the melds that
    # can hold it, that meld is taken without a question.
    known = proved((s, need, keep, points, sets, target))
    while s & real:
        x = s & real
        low = ((x & -x).bit_length() - 1) // 3
        sg = s | guard
        fits = [
            option
            for option in by_low[low]
            if (sg - option[0]) & guard == guard and sets + counted[option[3]] <= max_sets
        ]
        mine = known.get(low, []) if known is not None else []
        sure = next((option for option in fits if option in mine), None)
        # Per kind of meld (sets, runs, runs ending with the ace): the lowest rank of a
        # run's second real tile that can still hold the lowest tile in an optimal
        # split (0: any; above 13: none), found before the first meld of the kind by a
        # few questions about all its melds at once (docs/solver.md, "The tie-break").
        floor = [-1, -1, -1]
        for option in fits:
            mask, value, pts, index = option
            more = sets + counted[index]
            left = points - pts if points > pts else 0
            if option is sure:
                mine.remove(option)
            else:
                if index >= 0:
                    kind = meld_kind[index]
                    if floor[kind] < 0:
                        floor[kind] = _floor(
                            at_least_in,
                            (s, need, keep, points, sets, target),
                            kind,
                            [second[i] for _, _, _, i in fits if i >= 0 and meld_kind[i] == kind],
                            second[sure[3]]
                            if sure is not None and sure[3] >= 0 and meld_kind[sure[3]] == kind
                            else -1,
                        )
                    if floor[kind] == _NONE or 0 < second[index] < floor[kind]:
                        continue
                question = (s - mask, need & ~kinds[index], keep, left, more, target - value)
                if not at_least(*question):
                    continue
                known = proved(question)
            path.append(index)
            s, need, points, sets = s - mask, need & ~kinds[index], left, more
            target -= value
            break
        else:
            s -= unit[low]
            keep = keep - 1 if keep else 0
    return total, path


def _root(constraints: Constraints, tiles_objective: bool) -> tuple[int, int, int]:
    """The whole hand's need, tiles to keep and points still to track (with the
    tiles objective, the points an opening needs are part of the state)."""
    min_points = constraints.min_points
    points = min_points if tiles_objective and min_points > 0 else 0
    return constraints.need, constraints.min_leftover, points


def value_of(
    prep: _Prepared,
    constraints: Constraints,
    tiles_objective: bool,
    best: Callable[[int, int, int, int, int], int],
) -> int | None:
    """The value :func:`reconstruct` returns with its split, without the split (None
    when no split meets ``constraints``, or its points fall short of the opening's)."""
    need, keep, points = _root(constraints, tiles_objective)
    total = best(prep.start, need, keep, points, 0)
    if total < 0:
        return None
    min_points = constraints.min_points
    if not tiles_objective and min_points and total // 64 < min_points:
        return None
    return total


def reaches_goal(
    prep: _Prepared,
    constraints: Constraints,
    tiles_objective: bool,
    at_least: Callable[[int, int, int, int, int, int], bool],
    witness: Callable[[int, int, int, int, int, int], list[tuple[int, ...]] | None],
    goal: int,
) -> tuple[tuple[int, ...], ...] | None:
    """Whether :func:`value_of` would be at least ``goal`` (not None), asked as one
    threshold question: None if not, else the melds of the split the question proved
    (``witness``; empty if it holds none)."""
    need, keep, points = _root(constraints, tiles_objective)
    min_points = constraints.min_points
    if not tiles_objective and min_points:
        goal = max(goal, min_points * 64)
    question = (prep.start, need, keep, points, 0, max(goal, 0))
    if not at_least(*question):
        return None
    return tuple(meld for meld in witness(*question) or () if meld[0] >= 0)


_GROUP: Final = 12
"""Melds of one kind asked about at once (:func:`_floor`) only from this many: each
question about a group costs a few of those about one meld (measured: from 6, the
dense 30-tile families took 3-4 times longer for points, docs/decisions.md)."""

_BISECT: Final = 4
"""The runs of a kind are bisected by their second tile only from this many ranks."""

_NONE: Final = 99
"""No meld of a kind can hold the lowest tile in an optimal split."""


def _floor(
    at_least_in: Callable[..., bool | None],
    question: tuple[int, int, int, int, int, int],
    kind: int,
    seconds: list[int],
    known: int = -1,
) -> int:
    """For :func:`_reconstruct`: :data:`_NONE` when no meld of ``kind`` can hold the
    lowest tile of ``question`` (remainder, need, keep, points, sets, goal); else the
    lowest of the runs' second real ranks ``seconds`` whose runs can (by bisection:
    the runs up to a rank, asked at once), 14 if none of them can, or 0 (each run
    asked alone).  ``known`` (0 or more): a run of the kind whose second real rank it
    is (0: a joker) is known to hold the tile in an optimal split, so the floor is at
    most that rank and the rank just below it is asked first.  A question about the
    melds at once that ``at_least_in`` drops (None: past its states,
    :data:`~remi_rules._by_ranks.GROUP_STATES`) leaves each meld to be asked alone."""
    if len(seconds) < _GROUP:
        return 0
    if known < 0:
        some = at_least_in(*question, kind)
        if some is None:
            return 0
        if not some:
            return _NONE
    ranks = sorted({r for r in seconds if r})
    if len(ranks) < _BISECT:
        return 0
    if known > 0:
        ranks = [r for r in ranks if r < known]
        if not ranks:
            return known
        below = at_least_in(*question, kind, ranks[-1])
        if below is None:
            return 0
        if not below:
            return known
    lo, hi = 0, len(ranks)
    while lo < hi:
        mid = (lo + hi) // 2
        up_to = at_least_in(*question, kind, ranks[mid])
        if up_to is None:
            return ranks[lo]  # the runs below it are refuted, the others not known
        if up_to:
            hi = mid
        else:
            lo = mid + 1
    return ranks[lo] if lo < len(ranks) else 14


_Option = tuple[int, int, int, int]
"""A catalogue option of the rebuild: (mask, value, points, meld index; -1 a lay-off)."""


def _options(
    prep: _Prepared,
    constraints: Constraints,
    kinds: list[int],
    counted: list[int],
    max_sets: int,
    question: tuple[int, int, int, int, int, int],
    split: list[tuple[int, ...]] | None,
) -> dict[int, list[_Option]] | None:
    """``split`` (melds as sorted solver fields, lay-offs as ``(-1 - field,)``) as the
    rebuild's options by lowest compact field, if it is a split of the question's
    remainder worth its goal that meets its constraints (need, keep, points still
    needed, sets so far); else None.  (Only a check: the split is used as a proof
    that the value is reached, never as the answer.)"""
    if split is None:
        return None
    remainder, need, keep, points, sets, goal = question
    compact = {f: i for i, f in enumerate(prep.present)}
    unit, guard = prep.unit, prep.guard
    found: dict[int, list[_Option]] = {}
    left = remainder
    value = gained = 0
    for meld in split:
        laid = meld[0] < 0
        fields = [-1 - meld[0]] if laid else list(meld)
        if any(f not in compact for f in fields):
            return None
        mask = sum(unit[compact[f]] for f in fields)
        low = compact[min(fields)]
        if low >= len(prep.by_low) or (left | guard) - mask & guard != guard:
            return None
        # The catalogue's meld of these tiles (of merged melds, the most points).
        options = [o for o in prep.by_low[low] if o[0] == mask and (o[3] < 0) == laid]
        if not options:
            return None
        option = max(options, key=lambda o: o[2])
        left -= mask
        value += option[1]
        gained += option[2]
        need &= ~kinds[option[3]]
        sets += counted[option[3]]
        found.setdefault(low, []).append(option)
    ones, twos = guard >> 2, guard >> 1
    leftover = (left & ones).bit_count() + 2 * (left & twos).bit_count()
    if value != goal or need or leftover < keep or gained < points or sets > max_sets:
        return None
    return found


def group_question(
    start: Callable[[int], int],
    moves: Callable[..., list[tuple[_State, int]]],
    search: Callable[..., int],
    remainder: int,
    need: int,
    keep: int,
    points: int,
    sets: int,
    goal: int,
    kind: int,
    below: int = 0,
) -> bool:
    """Whether some split of ``remainder`` in which a tile of its lowest field is in
    a set (``kind`` 0), in a run that the field begins or continues (1), or (an
    ace) at the top of a run (2) reaches ``goal``: the catalogue melds of one kind
    that hold that tile, asked at once (docs/solver.md, "The tie-break").  With
    ``below`` (kinds 1 and 2): only runs whose second lowest real tile has a rank
    up to ``below``.  A split counted here may also be of another kind (an ace set
    aside for the top and left over, two copies of the field), never the reverse,
    so False refutes every such meld.  ``start``, ``moves`` and ``search`` are those
    of one :func:`~remi_rules._by_ranks.by_ranks` search."""
    s = start(remainder)
    p = ((s & -s).bit_length() - 1) // 3
    c = p & 3
    wait = 3 * (_D_TOP + c)
    for state, gain in moves(p, s, _NO_RUNS, (), need, keep, points, sets):
        runs = state[2][c]
        if kind == 1:
            if not runs:
                continue
        elif kind == 2:
            if not (state[1] >> wait) & 3:
                continue
        elif not state[3] and c != 3:
            continue
        tried: list[_State] = [state]
        if below and kind == 1:
            # Follow each run the field began (two copies: either may be the one).
            mark = state[4] | _MARK_NEXT | below << 4
            tried = [
                (
                    *state[:2],
                    tuple(
                        tuple(sorted((*runs[:i], runs[i] | _MARKED, *runs[i + 1 :])))
                        if j == c
                        else state[2][j]
                        for j in range(4)
                    ),
                    state[3],
                    mark,
                    *state[5:],
                )
                for i in range(len(runs))
                if i == 0 or runs[i] != runs[i - 1]
            ]
        elif below:
            mark = state[4] | _MARK_TOP | below << 4 | c << 10
            tried = [(*state[:4], mark, *state[5:])]
        for one in tried:
            if search(one, goal - gain) + gain >= goal:
                return True
    return False
