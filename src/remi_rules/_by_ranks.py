"""The search by ranks of :mod:`remi_rules._partition` (docs/solver.md, "The search by
ranks"), after van Rijn, Takes & Vis (2015): the exact search that takes over from the
fast one in turns (:func:`remi_rules._partition.solve`).  Its state is the fields in
order with only the runs still open per colour, the sets of the rank, the jokers and
the constraints; questions are asked as thresholds, steered and cut by the upper
bound of :mod:`remi_rules._bound`, with the bounds met memoised."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from ._bound import make_bound
from ._bound_colour import BoundCache
from ._field_moves import (
    _BAL0,
    _BAL_MASK,
    _D_FIELDS,
    _D_FIXED0,
    _D_FREE,
    _D_JOKERS,
    _D_TOP,
    _END,
    _FREE,
    _JOIN,
    _LAY,
    _NO_RUNS,
    _OPEN,
    _REAL,
    _RUN,
    _W_SHIFT,
    _Local,
    _LocalKey,
    _run_pos_points,
    _set_points,
    _State,
    fields,
)
from ._meld_catalogue import NFIELDS, REAL_FIELDS
from ._partition import _INFEASIBLE, FAST_MAX_TILES, Constraints, _OverBudget, _Prepared
from .ruleset import Ruleset

_Tables = tuple[Callable[..., int], Callable[..., int] | None]
"""A hand's bounds (:func:`~remi_rules._bound.make_bound`): on the value, and on the
points alone where the points still needed are part of the state."""


class _Group:
    """The memos of the searches that agree on all but their hands' lay-off worths
    (:class:`Shared`)."""

    def __init__(self) -> None:
        self.worth: dict[int, tuple[int, int]] = {}
        """Each field's lay-off worth and how many of its tiles may be laid off, as
        the first search whose hand held it said."""
        self.local: dict[_LocalKey, list[_Local]] = {}
        self.entries: dict[_State, list[int]] = {}
        self.children: dict[_State, list[tuple[int, _State, int]]] = {}
        self.caches = (BoundCache(), BoundCache())
        self.tables: dict[tuple[tuple[int, ...], tuple[int, ...]], _Tables] = {}
        """The bounds of each hand and lay-off worths asked so far."""

    def apart(self, counts: Sequence[int], lay: Sequence[int], cap: Sequence[int]) -> int:
        """The fields (a mask of the search's state: 3 bits a field, an ace's also at
        the top) whose tiles in the hand ``counts`` are worth otherwise than ``lay``
        and ``cap`` (how many may be laid off) say there; the others' worths are this
        group's from now on."""
        worth = self.worth
        apart = 0
        for f in range(REAL_FIELDS):
            if counts[f] and worth.setdefault(f, (lay[f], cap[f])) != (lay[f], cap[f]):
                apart |= 7 << 3 * f
                if f < 4:
                    apart |= 7 << 3 * (_D_TOP + f)
        return apart


class Shared:
    """The memos of the search by ranks kept across the solver calls of one caller (the
    hint asks about dozens of hands that are parts of one rack; docs/solver.md, "Memos
    shared across calls").  What a search proved about a state (bounds on its value,
    its moves) holds for any hand: a state is the tiles still to place, the runs and
    sets open and the constraints still to meet; its value depends besides only on the
    ruleset, the constraints, the objective, what of the hand
    :class:`~remi_rules._field_moves.Fields` ``hand`` names, and the lay-off worth of
    the tiles it still holds.  So searches
    agreeing on all but the lay-off worths share one group of memos, and each field's
    worth is the one of the first search whose hand held that field: a search whose
    tiles of a field are worth otherwise keeps the states holding them to itself.  The
    bound tables of a hand (and their colour tables, by content) are shared too.
    Lives as long as its caller keeps it (one hint call)."""

    LIMIT: Final = 200_000
    """Where the groups' memos hold more states than this when a search joins, they
    start afresh (memory stays bounded on the largest racks, whose hints ask hundreds
    of questions; the 45-tile rack of tests/test_hint_big_racks.py meets 40,000)."""

    def __init__(self) -> None:
        self._groups: dict[object, _Group] = {}

    def group(self, key: object) -> _Group:
        """The memos of the searches of ``key`` (ruleset, constraints, objective and
        :class:`~remi_rules._field_moves.Fields` ``hand``)."""
        groups = self._groups
        if sum(len(group.entries) for group in groups.values()) > self.LIMIT:
            groups.clear()
        found = groups.get(key)
        if found is None:
            found = groups[key] = _Group()
        return found


def by_ranks(
    counts: Sequence[int],
    prep: _Prepared,
    rules: Ruleset,
    constraints: Constraints,
    tiles_objective: bool,
    extra: Callable[[int], int] | None,
    memos: list[dict[Any, Any]],
    allowance: list[int],
    shared: Shared | None = None,
    lay_cap: Mapping[int, int] | None = None,
) -> tuple[
    Callable[[int, int, int, int, int], int],
    Callable[[int, int, int, int, int, int], bool],
    Callable[..., bool | None],
    Callable[[int, int, int, int, int, int], list[tuple[int, ...]] | None],
]:
    """``best(remainder, need, keep, points, sets)``: the value that
    :func:`remi_rules._partition._solve_constrained` gives a remainder (compact
    encoding), ``at_least(..., goal)``: whether it is at least ``goal``, the group
    question of :func:`~remi_rules._rebuild.group_question` (None where it was
    dropped, :data:`GROUP_STATES`), and ``witness(..., goal)``: a split the questions
    so far proved worth ``goal`` (or None); computed by a search over the fields in
    order whose state is the runs still open
    (docs/solver.md), with bounds memoised in dicts appended to ``memos`` (the caller
    empties them when its call ends).  Each state expanded takes one from
    ``allowance[0]``; past zero the question raises
    :class:`~remi_rules._partition._OverBudget`, and may be asked again (what it
    proved is kept).  ``shared``: memos kept across the calls of one caller
    (:class:`Shared`); the answers are the same.  ``lay_cap``: per real field, how
    many of its tiles at most ``extra`` lays off (:func:`~remi_rules._field_moves.
    fields`)."""
    moving = fields(counts, rules, constraints, tiles_objective, extra, memos, lay_cap)
    per, adjacent, runs_ok, high, track, end = moving[:6]
    gain_of, lay, fixed_rank, jokers, clip, final, local_moves = moving[6:13]
    own_local: dict[_LocalKey, list[_Local]] = {}
    """local_moves's answers: they depend on the field, its tiles and the later ones of
    its rank, the jokers, the colour's own runs, the sets and the constraints, not on
    the other colours' runs, which most states differ in."""
    own_entries: dict[_State, list[int]] = {}
    """Per state: [a lower bound, an upper bound] on its value."""
    own_children: dict[_State, list[tuple[int, _State, int]]] = {}
    """Per state met with a goal under its bound: its moves as (gain plus the next
    state's bound, next state, gain), the most promising first."""
    memos += (own_local, own_entries, own_children)
    local_memo, bounds, children, apart = own_local, own_entries, own_children, 0
    """The memos of the states holding no tile of the fields ``apart`` (a mask of the
    state's hand): shared with the caller's other searches (:class:`Shared`)."""
    group = (
        _Group()
        if shared is None
        else shared.group((rules, constraints, tiles_objective, moving.hand))
    )
    if shared is not None:
        local_memo, bounds, children = group.local, group.entries, group.children
        apart = group.apart(counts, lay, moving.lay_cap)
    rank_rest = tuple((1 << 3 * (4 - c)) - 1 for c in range(4))

    def moves(
        p: int,
        s: int,
        prof: tuple[tuple[int, ...], ...],
        slots: tuple[int, ...],
        need: int,
        keep: int,
        pts: int,
        sets: int,
    ) -> list[tuple[_State, int]]:
        """Every way to place the tiles of field ``p``: (next state, the best gain),
        each next state once."""
        c = p & 3
        jpart = s >> _D_JOKERS
        rest = (s >> 3 * p) & rank_rest[c]
        key = (p, rest, jpart, prof[c], slots, need, keep, pts, sets)
        memo = own_local if rest & (apart >> 3 * p) else local_memo
        local = memo.get(key)
        if local is None:
            local = local_moves(p, s, prof[c], slots, need, keep, pts, sets)
            memo[key] = local
        jl0 = jokers(s)
        nxt = p + 1
        out: list[tuple[_State, int]] = []
        for d, jl, runs, slots2, need2, keep2, pts2, sets2, v, _ in local:
            if jl == jl0:
                prof2 = (*prof[:c], runs, *prof[c + 1 :])
            else:
                # A joker used: every colour's balances are capped anew.
                limit = per * jl
                r0, r1, r2, r3 = prof
                prof2 = (
                    runs if c == 0 else clip(r0, limit),
                    runs if c == 1 else clip(r1, limit),
                    runs if c == 2 else clip(r2, limit),
                    runs if c == 3 else clip(r3, limit),
                )
            s2 = s + d
            q = nxt
            # Past the fields with nothing to do (:func:`follow`).
            while q != end and not (
                (s2 >> 3 * q) & 3 or prof2[q & 3] or (slots2 and q & 3 == 3 and q < _D_TOP)
            ):
                q += 1
            out.append(((q, s2, prof2, slots2, need2, keep2, pts2, sets2), v))
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

    top_most = tuple(most[_D_TOP + c] for c in range(4))

    def ceiling(p: int, s: int, slots: tuple[int, ...]) -> int:
        """Each tile left at the most it is worth (``current``'s suffix sums hold the
        question's own numbered tiles from each field on)."""
        total = current[0][2][p] if p < _D_TOP else 0
        x = s >> 3 * _D_TOP
        if x & 0o7777:
            for c in range(4):
                if p <= _D_TOP + c:
                    total += top_most[c] * ((x >> 3 * c) & 3)
        total += top_gain * jokers(s)
        for m in slots:
            total += top_gain * ((m >> 4) + (m & 15).bit_count())
        return total

    caches = group.caches
    lay_key = tuple(lay)

    def bounds_of(hand: Sequence[int]) -> _Tables:
        key = (tuple(hand), lay_key)
        found = group.tables.get(key)
        if found is None:
            found = group.tables[key] = tables_of(hand)
        return found

    def tables_of(hand: Sequence[int]) -> _Tables:
        tight = make_bound(
            hand,
            per=per,
            runs_ok=runs_ok,
            high=high,
            gain_of=gain_of,
            lay=lay,
            adjacent=adjacent,
            keep=constraints.min_leftover,
            cache=caches[0],
        )
        # The points still needed (a tiles objective with an opening's minimum): a state
        # whose points can no longer reach them is infeasible.  The same bound, on points
        # alone (lay-offs never count toward an opening, OPEN-02).
        reach = (
            make_bound(
                hand,
                per=per,
                runs_ok=runs_ok,
                high=high,
                gain_of=range(26),
                lay=[0] * REAL_FIELDS,
                adjacent=adjacent,
                keep=0,
                cache=caches[1],
            )
            if track
            else None
        )
        return tight, reach

    whole = bounds_of(counts)
    # On a large hand each question gets a bound of its own remainder (a meld taken
    # out at a high rank leaves the whole hand's bound too loose there, and one
    # question is thousands of states); on a small one the tables cost more than
    # they save.
    own_bounds = sum(counts) > FAST_MAX_TILES
    # The current question's bounds and, per field, the most its tiles from there on
    # are worth (for :func:`ceiling`).
    Bounds = tuple[Callable[..., int], Callable[..., int] | None, list[int]]
    current: list[Bounds] = []
    per_remainder: dict[int, Bounds] = {}

    def use(remainder: int) -> None:
        """Make ``remainder`` the current question's."""
        found = per_remainder.get(remainder)
        if found is None:
            hand = [0] * NFIELDS
            for i, f in enumerate(prep.present):
                hand[f] = (remainder >> (3 * i)) & 3
            suffix = [0] * (_D_TOP + 1)
            for f in range(REAL_FIELDS - 1, -1, -1):
                suffix[f] = suffix[f + 1] + most[f] * hand[f]
            tight, reach = bounds_of(hand) if own_bounds else whole
            found = per_remainder[remainder] = (tight, reach, suffix)
        current[:] = [found]

    def promise(state: _State) -> int:
        """The tight bound of ``state`` (no ceiling), or infeasible where the points
        it still needs are out of reach."""
        q, s, prof, slots, _, keep, pts, _ = state
        rank = 14 if q >= _D_TOP else (q >> 2) + 1
        jl = jokers(s)
        w = (s >> _W_SHIFT) & 0o7777
        tight, reach, _ = current[0]
        if reach is not None and pts and reach(rank, q & 3, prof, slots, jl, keep, w) < pts:
            return _INFEASIBLE
        return tight(rank, q & 3, prof, slots, jl, keep, w)

    def bound(state: _State) -> int:
        p, s, _, slots = state[:4]
        return min(ceiling(p, s, slots), promise(state))

    def search(key: _State, goal: int) -> int:
        """Fail-soft: a value >= ``goal`` that some split of the rest of ``key`` (a
        state as :func:`moves` and :func:`follow` give it) reaches, or an upper bound
        < ``goal`` on every split's value."""
        if key[0] == end:
            return final(key[1], key[2], key[4], key[5], key[6])
        apart_here = key[1] & apart
        memo = own_entries if apart_here else bounds
        entry = memo.get(key)
        if entry is None:
            entry = [_INFEASIBLE, bound(key)]
            memo[key] = entry
        low, high = entry
        if low >= goal:
            return low
        if high < goal:
            return high
        listed = (own_children if apart_here else children).get(key)
        if listed is None:
            allowance[0] -= 1
            if allowance[0] < 0:
                raise _OverBudget
            listed = []
            for state, gain in moves(*key):
                if state[0] == end:
                    hope = final(state[1], state[2], state[4], state[5], state[6])
                else:
                    where = own_entries if state[1] & apart else bounds
                    known = where.get(state)
                    if known is None:
                        known = [_INFEASIBLE, bound(state)]
                        where[state] = known
                    hope = known[1]
                listed.append((gain + hope, state, gain))
            listed.sort(key=lambda item: -item[0])
            (own_children if apart_here else children)[key] = listed
        top = _INFEASIBLE
        for hope, state, gain in listed:
            if hope < goal:
                if hope > top:
                    top = hope
                break
            v = search(state, goal - gain) + gain
            if v >= goal:
                entry[0] = v
                return v
            if v > top:
                top = v
        entry[1] = top
        return top

    def follow(
        p: int,
        s: int,
        prof: tuple[tuple[int, ...], ...],
        slots: tuple[int, ...],
        need: int,
        keep: int,
        pts: int,
        sets: int,
    ) -> _State:
        """The state as :func:`search` keys it: past the fields with nothing to do."""
        while p != end:
            c = p & 3
            if (s >> 3 * p) & 3 or prof[c] or (slots and c == 3 and p < _D_TOP):
                break
            p += 1
        return (p, s, prof, slots, need, keep, pts, sets)

    def reached(state: _State) -> int:
        """What the memo has proved a split of the rest of ``state`` reaches."""
        if state[0] == end:
            return final(state[1], state[2], state[4], state[5], state[6])
        entry = (own_entries if state[1] & apart else bounds).get(state)
        return entry[0] if entry is not None else _INFEASIBLE

    def retrace(state: _State, goal: int) -> tuple[list[list[int]], list[int]] | None:
        """A split of the rest of ``state`` worth at least ``goal``, read back from the
        memo where the searches proved one (the moves the proof took, replayed on the
        tiles): its melds and its lay-offs, in this search's fields; None where the
        memo holds no such proof (docs/solver.md, "The witness")."""
        state = follow(*state)
        if reached(state) < goal:
            return None
        runs: list[list[list[int]]] = [[], [], [], []]
        """Per colour, the tiles of its open runs, in the order of the state's runs."""
        held: list[list[int]] = []
        """The tiles of the sets of this rank, in the order of the state's sets."""
        melds: list[list[int]] = []
        laid: list[int] = []
        while state[0] != end:
            p, s, prof, slots, need, keep, pts, sets = state
            listed = (own_children if s & apart else children).get(state)
            if listed is None:
                return None
            for _, child, gain in listed:
                if reached(follow(*child)) + gain >= goal:
                    break
            else:
                return None
            c = p & 3
            rest = (s >> 3 * p) & rank_rest[c]
            memo = own_local if rest & (apart >> 3 * p) else local_memo
            local = memo[(p, rest, s >> _D_JOKERS, prof[c], slots, need, keep, pts, sets)]
            # The way of placing the field's tiles that led there.
            way = next(
                (
                    one
                    for one in local
                    if one[8] == gain
                    and s + one[0] == child[1]
                    and one[2] == child[2][c]
                    and one[3:8] == child[3:]
                ),
                None,
            )
            if way is None:
                return None
            jl = way[1]
            _, did, tiles, runs2, fills = way[9]
            top_rank = p >= _D_TOP
            fixed_here = _D_FIXED0 + (c if top_rank else p)
            going: list[list[int]] = []
            for run, what in zip(runs[c], did, strict=True):
                if what == _END:
                    melds.append(run)
                else:
                    tile = p if what == _REAL else _D_FREE if what == _FREE else fixed_here
                    going.append([*run, tile])
            if top_rank:
                melds += going
                going = []
            pairs = list(zip(slots, held, strict=True))
            bit = 1 << c
            for what, arg in tiles:
                if what == _LAY:
                    laid.append(p)
                elif what == _RUN:
                    assert isinstance(arg, tuple)
                    going.append([*arg, p])
                elif what == _JOIN:
                    assert isinstance(arg, int)
                    mask, tiles_in = pairs[arg]
                    pairs[arg] = (mask | bit, [*tiles_in, p])
                    pairs.sort(key=lambda pair: pair[0])
                elif what == _OPEN:
                    pairs.append((bit, [p]))
                    pairs.sort(key=lambda pair: pair[0])
            if c == 3 and not top_rank:
                base = _D_FIXED0 + p - 3
                for (_, tiles_in), (free, colours) in zip(pairs, fills, strict=True):
                    melds.append([*tiles_in, *[_D_FREE] * free, *(base + x for x in colours)])
                pairs = []
            elif pairs and not fixed_rank[p >> 2]:
                pairs = sorted(
                    (((m >> 4) + (m & 15).bit_count()) << 4, tiles_in) for m, tiles_in in pairs
                )
            held = [tiles_in for _, tiles_in in pairs]
            # The runs in the order of the next state's (capped, sorted) runs.
            cap = (per * jl + _BAL0) << 2
            for x in range(4):
                if x == c:
                    codes, tracked = runs2, going
                elif jl != jokers(s):
                    codes, tracked = prof[x], runs[x]
                else:
                    continue
                capped = [o if o & _BAL_MASK <= cap else (o & ~_BAL_MASK) | cap for o in codes]
                order = sorted(range(len(codes)), key=capped.__getitem__)
                runs[x] = [tracked[i] for i in order]
            goal -= gain
            state = follow(*child)
        for x in range(4):
            melds += runs[x]
        return melds, laid

    shifts = tuple((3 * i, 3 * _d_index(f)) for i, f in enumerate(prep.present))

    def start(remainder: int) -> int:
        s = 0
        for a, b in shifts:
            s |= ((remainder >> a) & 3) << b
        return s

    def at_least(remainder: int, need: int, keep: int, points: int, sets: int, goal: int) -> bool:
        use(remainder)
        s = start(remainder)
        return search(follow(0, s, _NO_RUNS, (), need, keep, points, sets), goal) >= goal

    def witness(
        remainder: int, need: int, keep: int, points: int, sets: int, goal: int
    ) -> list[tuple[int, ...]] | None:
        """A split of ``remainder`` worth at least ``goal`` that the questions asked so
        far proved (:func:`retrace`), as its melds and lay-offs (``(field,)``), each a
        sorted tuple of solver fields; None if they proved none."""
        found = retrace((0, start(remainder), _NO_RUNS, (), need, keep, points, sets), goal)
        if found is None:
            return None
        melds, laid = found
        out = [tuple(sorted(_solver_field(f) for f in meld)) for meld in melds]
        return out + [(-1 - _solver_field(f),) for f in laid]

    def best(remainder: int, need: int, keep: int, points: int, sets: int) -> int:
        # Threshold searches, bisecting between the best split found so far and the
        # smallest upper bound proved so far (each search raises one or lowers the
        # other, fail-soft), until they meet.  The first asks for the bound itself,
        # which the best split often reaches (one question then); the next, if that
        # fails, for any split worth something, which a search finds at once.
        use(remainder)
        s = start(remainder)
        root = follow(0, s, _NO_RUNS, (), need, keep, points, sets)
        low, high = _INFEASIBLE, bound(root) if root[0] != end else search(root, 0)
        goal = high
        first = True
        while high > _INFEASIBLE // 2:
            value = search(root, goal)
            if value >= goal:
                low = value
            else:
                high = value
            if low >= high:
                return low
            if low > _INFEASIBLE // 2:
                goal = (low + high + 1) // 2
            else:
                goal = min(high, 1) if first else high
            first = False
        return _INFEASIBLE  # no split meets the constraints

    from ._rebuild import group_question  # (imports this module)

    def start_using(remainder: int) -> int:
        use(remainder)
        return start(remainder)

    asked_at_once = functools.partial(group_question, start_using, moves, search)

    def at_least_in(*question: int) -> bool | None:
        """:func:`~remi_rules._rebuild.group_question`, within
        :data:`GROUP_STATES` states expanded: None (not known) past them."""
        saved = allowance[0]
        if saved <= GROUP_STATES:
            return asked_at_once(*question)  # the turn's own allowance is the limit
        allowance[0] = GROUP_STATES
        try:
            return asked_at_once(*question)
        except _OverBudget:
            return None
        finally:
            allowance[0] = saved - (GROUP_STATES - max(allowance[0], 0))

    return best, at_least, at_least_in, witness


GROUP_STATES: Final = 500
"""The states one question about a kind's melds at once
(:func:`~remi_rules._rebuild.group_question`) may expand before it is dropped for
the questions about each meld alone.  Such a question follows the runs that hold the
lowest tile, which no other question shares: on the 68-tile hands of a hint after a
rupere it expanded up to 52,000 states where the value and all the questions about
single melds together took 450, and took 96 % of the solver's time; on the 45-tile
rack of tests/test_hint_big_racks.py 90 % of them expand at most 155
(docs/decisions.md)."""


def _d_index(field: int) -> int:
    """The search by ranks' field of a solver field."""
    return field if field < REAL_FIELDS else field + 4


def _solver_field(d: int) -> int:
    """The solver field of a field of the search by ranks (an ace at the top: the ace)."""
    return d if d < _D_TOP else d - _D_TOP if d < _D_FREE else d - 4
