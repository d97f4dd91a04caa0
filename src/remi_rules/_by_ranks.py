"""The search by ranks of :mod:`remi_rules._partition` (docs/solver.md, "The search by
ranks"), after van Rijn, Takes & Vis (2015): the exact search that takes over from the
fast one in turns (:func:`remi_rules._partition.solve`).  Its state is the fields in
order with only the runs still open per colour, the sets of the rank, the jokers and
the constraints; questions are asked as thresholds, steered and cut by the upper
bound of :mod:`remi_rules._bound`, with the bounds met memoised."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Sequence
from typing import Any, Final

from ._bound import make_bound
from ._meld_catalogue import _FIXED0, FREE_JOKER, NFIELDS, REAL_FIELDS
from ._partition import (
    _INFEASIBLE,
    NEED_ACE_SET,
    NEED_RUN,
    NEED_SET,
    Constraints,
    _OverBudget,
    _Prepared,
)
from .ruleset import Ruleset

#
# The hand is an int with three bits per field, as in the fast search, over 109 fields:
# 0-51 the numbered tiles, 52-55 the aces set aside to end a run at the top (rank 14,
# one field per colour), 56 the free joker, 57 + f the fixed joker standing for field f.
# A run still open is one int: its length capped at 3 (bits 0-1), its balance (real
# tiles minus real_tiles_per_joker per joker, plus _BAL0; bits 2-6), whether its last
# tile is a joker (bit 8, only when jokers may not be adjacent) and whether it began at
# rank 1 (bit 9, only with the high ace: such a run cannot reach rank 14).

_D_TOP: Final = 52
_D_FREE: Final = 56
_D_FIXED0: Final = 57
_D_FIELDS: Final = 109
_D_UNIT: Final = tuple(1 << (3 * i) for i in range(_D_FIELDS))
_D_JOKERS: Final = 3 * _D_FREE
_D_LOW: Final = sum(1 << (3 * i) for i in range(_D_FIELDS - _D_FREE))
_LAST_JOKER: Final = 0x100
_RESTART: Final = 0x100
"""A flag beside the need bits inside a move: a valid run of this colour just ended."""
_FROM_ONE: Final = 0x200
_MARKED: Final = 0x400
"""A run the rebuild follows (bit 10): the run its lowest tile began (a question
:func:`~remi_rules._rebuild.group_question` with ``below``), or a run that began
low enough to take that tile, an ace, at the top."""
_MARK_NEXT: Final = 0x8
"""In ``need``: the marked run must take its next real tile at a rank up to the
threshold (bits 4-7)."""
_MARK_TOP: Final = 0x200
"""In ``need``: a marked run of the colour in bits 10-11 must take an ace at the top;
runs of that colour beginning at a rank up to the threshold (bits 4-7) are marked."""
_PENDING: Final = _MARK_NEXT | _MARK_TOP | 0xF0 | 0xC00
_NO_RUNS: Final = ((), (), (), ())

_State = tuple[int, int, tuple[tuple[int, ...], ...], tuple[int, ...], int, int, int, int]
"""(field, hand left, open runs per colour, sets of this rank (colour masks), need,
keep, points still needed, sets so far)."""


def _run_pos_points(rank: int) -> int:
    """VALUE-01 in a run: the points of position ``rank`` (14 is the high ace)."""
    return 10 if rank >= 10 else 5


def _set_points(rank: int) -> int:
    """VALUE-01 in a set of ``rank``."""
    return 25 if rank == 1 else 10 if rank >= 10 else 5


_BAL0: Final = 16
"""A run's balance (real tiles minus ``real_tiles_per_joker`` per joker) is stored plus
this, in bits 2-6."""
_BAL1: Final = 1 << 2
_BAL_MASK: Final = 31 << 2


def _closable(o: int) -> bool:
    """Whether the open run ``o`` is a valid run if it ends here: three tiles or more,
    and enough real tiles for its jokers."""
    return (o & 3) == 3 and (o & _BAL_MASK) >= _BAL0 << 2


def by_ranks(
    counts: Sequence[int],
    prep: _Prepared,
    rules: Ruleset,
    constraints: Constraints,
    tiles_objective: bool,
    extra: Callable[[int], int] | None,
    memos: list[dict[Any, Any]],
    allowance: list[int],
) -> tuple[
    Callable[[int, int, int, int, int], int],
    Callable[[int, int, int, int, int, int], bool],
    Callable[..., bool],
]:
    """``best(remainder, need, keep, points, sets)``: the value that
    :func:`remi_rules._partition._solve_constrained` gives a remainder (compact
    encoding), and ``at_least(..., goal)``: whether it is at least ``goal``; computed
    by a search over the fields in order whose state is the runs still open
    (docs/solver.md), with bounds memoised in dicts appended to ``memos`` (the caller
    empties them when its call ends).  Each state expanded takes one from
    ``allowance[0]``; past zero the question raises
    :class:`~remi_rules._partition._OverBudget`, and may be asked again (what it
    proved is kept)."""
    per = rules.real_tiles_per_joker
    adjacent = rules.jokers_may_be_adjacent
    runs_ok = constraints.allow_runs
    high = rules.ace_high_run and runs_ok
    ace_joker_ok = rules.opening_ace_set_joker_ok
    count_sets = constraints.max_sets is not None
    set_room = constraints.max_sets if constraints.max_sets is not None else 99
    track = tiles_objective and constraints.min_points > 0
    end = 56 if high else 52
    unit = _D_UNIT
    low_bits = _D_LOW
    gain_of = [1 if tiles_objective else 64 * q + 1 for q in range(26)]
    lay = [0] * REAL_FIELDS
    if extra is not None:
        for f in range(REAL_FIELDS):
            if counts[f]:
                lay[f] = extra(f)
    # An ace is set aside for the top only where a run can end with it: the hand holds
    # the 12 or the 13 of its colour, or two jokers that may sit side by side.
    two = adjacent and sum(counts[FREE_JOKER:]) >= 2
    top_ok = [high and bool(counts[44 + c] or counts[48 + c] or two) for c in range(4)]
    need_run = NEED_RUN
    last_joker = 0 if adjacent else _LAST_JOKER
    fixed_rank = [any(counts[_FIXED0 + r * 4 + c] for c in range(4)) for r in range(13)]

    def jokers(s: int) -> int:
        x = s >> _D_JOKERS
        return (x & low_bits).bit_count() + 2 * ((x >> 1) & low_bits).bit_count()

    clipped: dict[tuple[tuple[int, ...], int], tuple[int, ...]] = {}
    memos.append(clipped)
    """clip's answers, for the life of this search (a few hundred entries at most)."""

    def clip(runs: tuple[int, ...], limit: int) -> tuple[int, ...]:
        """The runs sorted, each balance capped at ``limit`` (docs/solver.md)."""
        if not runs:
            return runs
        found = clipped.get((runs, limit))
        if found is None:
            top = (limit + _BAL0) << 2
            found = tuple(
                sorted(o if o & _BAL_MASK <= top else (o & ~_BAL_MASK) | top for o in runs)
            )
            clipped[runs, limit] = found
        return found

    def final(s: int, prof: tuple[tuple[int, ...], ...], need: int, keep: int, pts: int) -> int:
        for runs in prof:
            for o in runs:
                if not _closable(o):
                    return _INFEASIBLE
                need &= ~need_run
        if need or pts or jokers(s) < keep:
            return _INFEASIBLE
        return 0

    def tidy(slots: tuple[int, ...], p: int, s: int) -> tuple[int, ...] | None:
        """The sets of this rank after field ``p``: None if one of them can no longer
        be completed; else sorted, and without their colours where no fixed joker of
        this rank needs them (then only how many tiles a set holds matters)."""
        later = 0
        for i in range(p + 1, (p | 3) + 1):
            if (s >> 3 * i) & 3:
                later += 1
        jl = min(2, jokers(s))
        for m in slots:
            most = (m >> 4) + (m & 15).bit_count() + later
            if most < 3 and (3 - most > jl or most < per * (3 - most)):
                return None
        if fixed_rank[p >> 2]:
            return slots if len(slots) < 2 else tuple(sorted(slots))
        return tuple(sorted(((m >> 4) + (m & 15).bit_count()) << 4 for m in slots))

    def finish_sets(
        rank: int, s: int, slots: tuple[int, ...], need: int, pts: int, sets: int
    ) -> list[tuple[int, int, int, int, int]]:
        """The ways to complete the sets of ``rank`` with jokers, as (hand left, need,
        points still needed, sets so far, gain)."""
        if count_sets:
            sets += len(slots)
            if sets > set_room:
                return []
        out = [(s, need, pts, sets, 0)]
        if not slots:
            return out
        base = _D_FIXED0 + (rank - 1) * 4
        value = _set_points(rank)
        g = gain_of[value]
        ace = NEED_ACE_SET if rank == 1 else 0
        for mask in slots:
            k = (mask >> 4) + (mask & 15).bit_count()
            grown: list[tuple[int, int, int, int, int]] = []
            for s1, need1, pts1, sets1, gain1 in out:
                free = (s1 >> _D_JOKERS) & 3
                spare = [c for c in range(4) if not mask >> c & 1 and (s1 >> 3 * (base + c)) & 3]
                for nf in range(min(free, 2) + 1):
                    for kf in range(min(len(spare), 2 - nf) + 1):
                        n = k + nf + kf
                        if not 3 <= n <= 4 or k < per * (nf + kf):
                            continue
                        need2 = need1 & ~NEED_SET
                        if ace and (k >= 3 or ace_joker_ok):
                            need2 &= ~ace
                        pts2 = pts1 - value * n if pts1 > value * n else 0
                        s2 = s1 - nf * unit[_D_FREE]
                        for fx in itertools.combinations(spare, kf):
                            s3 = s2
                            for c in fx:
                                s3 -= unit[base + c]
                            grown.append((s3, need2, pts2, sets1, gain1 + g * n))
            out = grown
            if not out:
                break
        return out

    def moves(
        p: int,
        s: int,
        prof: tuple[tuple[int, ...], ...],
        slots: tuple[int, ...],
        need: int,
        keep: int,
        pts: int,
        sets: int,
    ) -> dict[_State, int]:
        """Every way to place the tiles of field ``p``: next state -> the best gain."""
        c = p & 3
        top_rank = p >= _D_TOP
        rank = 14 if top_rank else (p >> 2) + 1
        f = c if top_rank else p
        k = (s >> 3 * p) & 3
        s -= k * unit[p]
        fixed_here = _D_FIXED0 + f
        q = _run_pos_points(rank)
        g = gain_of[q]
        jl0 = jokers(s)
        # 1. The runs of colour c still open: each ends (if valid) or takes this field's
        # tile, a real one or a joker.  Partial: (runs, real tiles left, hand, gain,
        # points placed, need).
        partial: list[tuple[tuple[int, ...], int, int, int, int, int]]
        partial = [((), k, s, 0, 0, need)]
        carry = p < 4 and top_ok[c]
        pending = need & _PENDING
        for o in prof[c]:
            valid = _closable(o)
            extend = not (top_rank and o & _FROM_ONE)
            longer = (o & ~(3 | _LAST_JOKER)) | min((o & 3) + 1, 3)
            by_real = longer + _BAL1
            by_joker = -1
            if adjacent or not o & _LAST_JOKER:
                by_joker = longer - per * _BAL1 | last_joker
            # Ending a valid run while a tile of this field starts a new one is never
            # better than the run taking that tile (docs/solver.md): flag it.
            restart = _RESTART if valid and not o & _FROM_ONE else 0
            real_ok, clear = True, 0
            if pending and o & _MARKED:
                # The run the rebuild follows (group_question with ``below``).
                if pending & _MARK_NEXT:
                    # It may not end before its next real tile, which must come soon
                    # enough; then it is a run like any other.
                    valid = False
                    real_ok = rank <= (pending >> 4) & 15
                    by_real &= ~_MARKED
                    clear = _PENDING
                elif top_rank:
                    clear = _PENDING  # it takes the ace at the top
            grown: list[tuple[tuple[int, ...], int, int, int, int, int]] = []
            for runs, kr, s1, gain, placed, need1 in partial:
                if valid:
                    grown.append((runs, kr, s1, gain, placed, need1 & ~need_run | restart))
                if not extend:
                    continue
                if kr and real_ok:
                    grown.append(
                        ((*runs, by_real), kr - 1, s1, gain + g, placed + q, need1 & ~clear)
                    )
                if by_joker >= 0:
                    if (s1 >> _D_JOKERS) & 3:
                        grown.append(
                            ((*runs, by_joker), kr, s1 - unit[_D_FREE], gain + g, placed + q, need1)
                        )
                    if (s1 >> 3 * fixed_here) & 3:
                        grown.append(
                            (
                                (*runs, by_joker),
                                kr,
                                s1 - unit[fixed_here],
                                gain + g,
                                placed + q,
                                need1,
                            )
                        )
            partial = grown
        out: dict[_State, int] = {}
        nxt = p + 1
        rank_end = c == 3 and not top_rank
        bit = 1 << c
        start0 = 1 | _BAL0 << 2 | (_FROM_ONE if rank == 1 and high else 0)
        if pending & _MARK_TOP and pending >> 10 == c and rank <= (pending >> 4) & 15:
            start0 |= _MARKED
        for runs, kr, s1, gain, placed, need1 in partial:
            if top_rank:
                # Rank 14 ends every run that reached it.
                if not all(_closable(o) for o in runs):
                    continue
                if runs:
                    need1 &= ~need_run
                runs = ()
            # 2. Each real tile left: a new run (after 0-2 jokers), a set of this rank,
            # left over, or laid off.
            options = [(runs, slots, s1, gain, placed, need1, keep)]
            for _ in range(kr):
                more = []
                for runs2, slots2, s2, gain2, placed2, need2, keep2 in options:
                    if carry:
                        # An ace not used low waits for rank 14 (a run 12 13 1, or left).
                        more.append(
                            (runs2, slots2, s2 + unit[_D_TOP + c], gain2, placed2, need2, keep2)
                        )
                    else:
                        more.append(
                            (runs2, slots2, s2, gain2, placed2, need2, keep2 - 1 if keep2 else 0)
                        )
                        if lay[f]:
                            more.append((runs2, slots2, s2, gain2 + lay[f], placed2, need2, keep2))
                    if top_rank:
                        continue
                    if runs_ok and not need2 & _RESTART:
                        more.append(
                            (
                                (*runs2, start0 + _BAL1),
                                slots2,
                                s2,
                                gain2 + g,
                                placed2 + q,
                                need2,
                                keep2,
                            )
                        )
                    if runs_ok and rank >= 2:
                        q1 = _run_pos_points(rank - 1)
                        g1 = g + gain_of[q1]
                        code = 2 | (_BAL0 + 1 - per) << 2 | (start0 & _MARKED)
                        code |= _FROM_ONE if rank == 2 and high else 0
                        for src in (_D_FREE, fixed_here - 4):
                            if (s2 >> 3 * src) & 3:
                                more.append(
                                    (
                                        (*runs2, code),
                                        slots2,
                                        s2 - unit[src],
                                        gain2 + g1,
                                        placed2 + q + q1,
                                        need2,
                                        keep2,
                                    )
                                )
                        if rank >= 3 and adjacent:
                            q2 = _run_pos_points(rank - 2)
                            g2 = g1 + gain_of[q2]
                            code = 3 | (_BAL0 + 1 - 2 * per) << 2 | (start0 & _MARKED)
                            code |= _FROM_ONE if rank == 3 and high else 0
                            for a, b in (
                                (_D_FREE, _D_FREE),
                                (_D_FREE, fixed_here - 4),
                                (fixed_here - 8, _D_FREE),
                                (fixed_here - 8, fixed_here - 4),
                            ):
                                s3 = s2 - unit[a]
                                if (s2 >> 3 * a) & 3 and (s3 >> 3 * b) & 3:
                                    more.append(
                                        (
                                            (*runs2, code),
                                            slots2,
                                            s3 - unit[b],
                                            gain2 + g2,
                                            placed2 + q + q1 + q2,
                                            need2,
                                            keep2,
                                        )
                                    )
                    if not top_rank:
                        for i, mask in enumerate(slots2):
                            if not mask & bit and (i == 0 or slots2[i - 1] != mask):
                                joined = tuple(sorted((*slots2[:i], mask | bit, *slots2[i + 1 :])))
                                more.append((runs2, joined, s2, gain2, placed2, need2, keep2))
                        if not count_sets or len(slots2) + sets < set_room:
                            opened = tuple(sorted((*slots2, bit)))
                            more.append((runs2, opened, s2, gain2, placed2, need2, keep2))
                options = more
            for runs2, slots2, s2, gain2, placed2, need2, keep2 in options:
                need2 &= ~_RESTART
                pts2 = (pts - placed2 if pts > placed2 else 0) if track else 0
                if slots2 and not rank_end:
                    kept = tidy(slots2, p, s2)
                    if kept is None:
                        continue
                    slots2 = kept
                ends = (
                    finish_sets(rank, s2, slots2, need2, pts2, sets)
                    if rank_end
                    else ((s2, need2, pts2, sets, 0),)
                )
                for s3, need3, pts3, sets3, gain3 in ends:
                    jl = jokers(s3)
                    limit = per * jl
                    if jl == jl0:
                        prof2 = (*prof[:c], clip(runs2, limit), *prof[c + 1 :])
                    else:
                        prof2 = tuple(clip(runs2 if i == c else prof[i], limit) for i in range(4))
                    state = (nxt, s3, prof2, () if rank_end else slots2, need3, keep2, pts3, sets3)
                    v = gain2 + gain3
                    if out.get(state, -1) < v:
                        out[state] = v
        return out

    # Upper bounds: each tile left worth at most its best gain in any meld (or lay-off).
    most = [0] * _D_FIELDS
    top_gain = gain_of[25]
    for f in range(REAL_FIELDS):
        rank = f // 4 + 1
        most[f] = max(gain_of[max(_set_points(rank), _run_pos_points(rank))], lay[f])
    for c in range(4):
        most[_D_TOP + c] = max(gain_of[10], lay[c])
    for i in range(_D_FREE, _D_FIELDS):
        most[i] = top_gain
    held = [i for i in range(_D_FIELDS) if i < _D_TOP and counts[i]]
    held += [_D_TOP + c for c in range(4) if top_ok[c]]
    held += [_d_index(f) for f in range(FREE_JOKER, NFIELDS) if counts[f]]
    held.sort()

    def ceiling(p: int, s: int, slots: tuple[int, ...]) -> int:
        total = 0
        for i in held:
            if i >= p:
                total += most[i] * ((s >> 3 * i) & 3)
        for m in slots:
            total += top_gain * ((m >> 4) + (m & 15).bit_count())
        return total

    def waiting(s: int) -> tuple[int, int, int, int]:
        x = s >> 3 * _D_TOP
        return (x & 3, (x >> 3) & 3, (x >> 6) & 3, (x >> 9) & 3)

    tight = make_bound(
        counts,
        per=per,
        runs_ok=runs_ok,
        high=high,
        gain_of=gain_of,
        lay=lay,
        adjacent=adjacent,
        keep=constraints.min_leftover,
    )
    # The points still needed (a tiles objective with an opening's minimum): a state
    # whose points can no longer reach them is infeasible.  The same bound, on points
    # alone (lay-offs never count toward an opening, OPEN-02).
    reach = (
        make_bound(
            counts,
            per=per,
            runs_ok=runs_ok,
            high=high,
            gain_of=range(26),
            lay=[0] * REAL_FIELDS,
            adjacent=adjacent,
            keep=0,
        )
        if track
        else None
    )

    def promise(state: _State) -> int:
        """The tight bound of ``state`` (no ceiling), or infeasible where the points
        it still needs are out of reach."""
        q, s, prof, slots, _, keep, pts, _ = state
        rank = 14 if q >= _D_TOP else (q >> 2) + 1
        jl = jokers(s)
        w = waiting(s)
        if reach is not None and pts and reach(rank, q & 3, prof, slots, jl, keep, w) < pts:
            return _INFEASIBLE
        return tight(rank, q & 3, prof, slots, jl, keep, w)

    def bound(state: _State) -> int:
        p, s, _, slots = state[:4]
        return min(ceiling(p, s, slots), promise(state))

    bounds: dict[_State, list[int]] = {}
    """Per state: [a lower bound, an upper bound] on its value."""
    children: dict[_State, list[tuple[int, _State, int]]] = {}
    """Per state met with a goal under its bound: its moves as (gain plus the next
    state's bound, next state, gain), the most promising first."""
    memos += (bounds, children)

    def search(
        p: int,
        s: int,
        prof: tuple[tuple[int, ...], ...],
        slots: tuple[int, ...],
        need: int,
        keep: int,
        pts: int,
        sets: int,
        goal: int,
    ) -> int:
        """Fail-soft: a value >= ``goal`` that some split of the rest reaches, or an
        upper bound < ``goal`` on every split's value."""
        # Fields with nothing to do are passed over without a memo entry.
        while True:
            if p == end:
                return final(s, prof, need, keep, pts)
            c = p & 3
            if (s >> 3 * p) & 3 or prof[c] or (slots and c == 3 and p < _D_TOP):
                break
            p += 1
        key = (p, s, prof, slots, need, keep, pts, sets)
        entry = bounds.get(key)
        if entry is None:
            entry = [_INFEASIBLE, bound(key)]
            bounds[key] = entry
        low, high = entry
        if low >= goal:
            return low
        if high < goal:
            return high
        listed = children.get(key)
        if listed is None:
            allowance[0] -= 1
            if allowance[0] < 0:
                raise _OverBudget
            listed = []
            for state, gain in moves(p, s, prof, slots, need, keep, pts, sets).items():
                known = bounds.get(state)
                hope = known[1] if known is not None else promise(state)
                listed.append((gain + hope, state, gain))
            listed.sort(key=lambda item: -item[0])
            children[key] = listed
        top = _INFEASIBLE
        for hope, state, gain in listed:
            if hope < goal:
                if hope > top:
                    top = hope
                break
            v = search(*state, goal - gain) + gain
            if v >= goal:
                entry[0] = v
                return v
            if v > top:
                top = v
        entry[1] = top
        return top

    shifts = tuple((3 * i, 3 * _d_index(f)) for i, f in enumerate(prep.present))

    def start(remainder: int) -> int:
        s = 0
        for a, b in shifts:
            s |= ((remainder >> a) & 3) << b
        return s

    def at_least(remainder: int, need: int, keep: int, points: int, sets: int, goal: int) -> bool:
        s = start(remainder)
        return search(0, s, _NO_RUNS, (), need, keep, points, sets, goal) >= goal

    def best(remainder: int, need: int, keep: int, points: int, sets: int) -> int:
        # Threshold searches, bisecting between the best split found so far and the
        # smallest upper bound proved so far (each search raises one or lowers the
        # other, fail-soft), until they meet.  The first asks for any split worth
        # something, which a search finds at once.
        s = start(remainder)
        low, high = _INFEASIBLE, bound((0, s, _NO_RUNS, (), need, keep, points, sets))
        goal = min(high, 1)
        while high > _INFEASIBLE // 2:
            value = search(0, s, _NO_RUNS, (), need, keep, points, sets, goal)
            if value >= goal:
                low = value
            else:
                high = value
            if low >= high:
                return low
            goal = (low + high + 1) // 2 if low > _INFEASIBLE // 2 else high
        return _INFEASIBLE  # no split meets the constraints

    from ._rebuild import group_question  # (imports this module)

    return best, at_least, functools.partial(group_question, start, moves, search)


def _d_index(field: int) -> int:
    """The search by ranks' field of a solver field."""
    return field if field < REAL_FIELDS else field + 4
