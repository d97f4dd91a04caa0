"""How the search by ranks (:mod:`remi_rules._by_ranks`, docs/solver.md, "The search by
ranks") places one field's tiles: its encoding of the hand, the runs and the sets, and
the moves at a field given only the runs of the field's colour (the other colours'
runs do not change them, so they are found once for all the states that share them)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, NamedTuple

from ._meld_catalogue import _FIXED0, FREE_JOKER, NFIELDS, REAL_FIELDS
from ._partition import _INFEASIBLE, NEED_ACE_SET, NEED_RUN, NEED_SET, Constraints
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
_W_SHIFT: Final = 3 * _D_TOP
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
_Tiles = tuple[tuple[int, object], ...]
"""What each tile of a field did (``_CARRY`` … ``_OPEN``, with an argument)."""
_Fills = tuple[tuple[int, tuple[int, ...]], ...]
"""Per set of a rank, the free jokers and the colours of the fixed jokers it took."""
_How = tuple[int, tuple[int, ...], _Tiles, tuple[int, ...], _Fills]
"""How a way of placing a field's tiles places them (for the witness): (gain, what
each open run of the colour did, what each tile did, the colour's runs before they
are capped and sorted, how the rank's sets were completed with jokers)."""
_Local = tuple[int, int, tuple[int, ...], tuple[int, ...], int, int, int, int, int, _How]
"""One way to place a field's tiles, for any runs of the other colours: (the change to
the hand left, the jokers left, the colour's runs after it, the sets of the rank,
need, keep, points still needed, sets so far, gain, how)."""
_Placing = tuple[tuple[int, ...], tuple[int, ...], int, int, int, int, int, _Tiles]
"""A field's tiles being placed: (runs, sets of the rank, hand left, gain, points
placed, need, keep, what each tile did so far)."""
_LocalKey = tuple[int, int, int, tuple[int, ...], tuple[int, ...], int, int, int, int]
"""What :func:`fields`'s ``local_moves`` depends on: (field, its tiles and the later
ones of its rank, the jokers, the colour's runs, the sets, need, keep, points still
needed, sets so far)."""
_END, _REAL, _FREE, _FIXED = 0, 1, 2, 3
"""What an open run does at a field: ends, takes its tile, a free joker, the fixed one."""
_CARRY, _LEFT, _LAY, _RUN, _JOIN, _OPEN = 0, 1, 2, 3, 4, 5
"""What a tile does: waits for the top (an ace), is left over, laid off, begins a run
(after the jokers in its argument), joins the set in its argument, opens a set."""
_LAID: Final = (_LAY, 0)
"""A tile laid off, as a local move records it."""


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


class Fields(NamedTuple):
    """One search's rules and hand, for placing tiles field by field."""

    per: int
    adjacent: bool
    runs_ok: bool
    high: bool
    track: bool
    """The points still needed are part of the state (a tiles objective with a minimum)."""
    end: int
    """The field after the last (52, or 56 with the high ace)."""
    gain_of: list[int]
    lay: list[int]
    fixed_rank: list[bool]
    jokers: Callable[[int], int]
    """The jokers left in a hand."""
    clip: Callable[[tuple[int, ...], int], tuple[int, ...]]
    final: Callable[[int, tuple[tuple[int, ...], ...], int, int, int], int]
    local_moves: Callable[..., list[_Local]]
    hand: tuple[object, ...]
    """What of the hand, besides its tiles' lay-off worths (``lay``, ``lay_cap``), the
    moves depend on: which ranks hold a fixed joker, which colours may set an ace aside
    for the top, whether the hand holds a fixed joker at all
    (:class:`~remi_rules._by_ranks.Shared`)."""
    lay_cap: list[int]
    """Per real field, how many of its tiles may be laid off (2: as many as held)."""


def fields(
    counts: Sequence[int],
    rules: Ruleset,
    constraints: Constraints,
    tiles_objective: bool,
    extra: Callable[[int], int] | None,
    memos: list[dict[Any, Any]],
    lay_cap: Mapping[int, int] | None = None,
) -> Fields:
    """The moves of one search (its memos appended to ``memos``).  ``lay_cap``: per
    real field, how many of its tiles at most may be laid off (``extra``'s worth each;
    a field not named: as many as held)."""
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
    cap = [2] * REAL_FIELDS  # (a real field holds two tiles at most)
    if lay_cap is not None:
        for f, n in lay_cap.items():
            if f < REAL_FIELDS:
                cap[f] = min(2, max(0, n))
    # An ace is set aside for the top only where a run can end with it: the hand holds
    # the 12 or the 13 of its colour, or two jokers that may sit side by side.
    two = adjacent and sum(counts[FREE_JOKER:]) >= 2
    top_ok = [high and bool(counts[44 + c] or counts[48 + c] or two) for c in range(4)]
    need_run = NEED_RUN
    last_joker = 0 if adjacent else _LAST_JOKER
    fixed_rank = [any(counts[_FIXED0 + r * 4 + c] for c in range(4)) for r in range(13)]

    fixed_jokers = any(counts[f] for f in range(FREE_JOKER + 1, NFIELDS))
    if fixed_jokers:

        def jokers(s: int) -> int:
            x = s >> _D_JOKERS
            return (x & low_bits).bit_count() + 2 * ((x >> 1) & low_bits).bit_count()

    else:

        def jokers(s: int) -> int:  # no fixed joker: the free ones alone
            return (s >> _D_JOKERS) & 3

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
    ) -> list[tuple[int, int, int, int, int, _Fills]]:
        """The ways to complete the sets of ``rank`` with jokers, as (hand left, need,
        points still needed, sets so far, gain, per set the free jokers and the
        colours of the fixed jokers it took)."""
        if count_sets:
            sets += len(slots)
            if sets > set_room:
                return []
        out: list[tuple[int, int, int, int, int, _Fills]] = [(s, need, pts, sets, 0, ())]
        if not slots:
            return out
        base = _D_FIXED0 + (rank - 1) * 4
        value = _set_points(rank)
        g = gain_of[value]
        ace = NEED_ACE_SET if rank == 1 else 0
        for mask in slots:
            k = (mask >> 4) + (mask & 15).bit_count()
            grown: list[tuple[int, int, int, int, int, _Fills]] = []
            for s1, need1, pts1, sets1, gain1, fills in out:
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
                            grown.append(
                                (s3, need2, pts2, sets1, gain1 + g * n, (*fills, (nf, fx)))
                            )
            out = grown
            if not out:
                break
        return out

    def local_moves(
        p: int,
        s: int,
        own: tuple[int, ...],
        slots: tuple[int, ...],
        need: int,
        keep: int,
        pts: int,
        sets: int,
    ) -> list[_Local]:
        """Every way to place the tiles of field ``p`` given the open runs ``own`` of
        its colour (:mod:`remi_rules._by_ranks` puts them together with the other colours'
        runs)."""
        c = p & 3
        top_rank = p >= _D_TOP
        rank = 14 if top_rank else (p >> 2) + 1
        f = c if top_rank else p
        k = (s >> 3 * p) & 3
        s0 = s
        s -= k * unit[p]
        fixed_here = _D_FIXED0 + f
        q = _run_pos_points(rank)
        g = gain_of[q]
        # 1. The runs of colour c still open: each ends (if valid) or takes this field's
        # tile, a real one or a joker.  Partial: (runs, real tiles left, hand, gain,
        # points placed, need, what each run did: _END, _REAL, _FREE or _FIXED).
        partial: list[tuple[tuple[int, ...], int, int, int, int, int, tuple[int, ...]]]
        partial = [((), k, s, 0, 0, need, ())]
        carry = p < 4 and top_ok[c]
        pending = need & _PENDING
        for o in own:
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
            grown: list[tuple[tuple[int, ...], int, int, int, int, int, tuple[int, ...]]] = []
            for runs, kr, s1, gain, placed, need1, did in partial:
                if valid:
                    grown.append(
                        (runs, kr, s1, gain, placed, need1 & ~need_run | restart, (*did, _END))
                    )
                if not extend:
                    continue
                if kr and real_ok:
                    grown.append(
                        (
                            (*runs, by_real),
                            kr - 1,
                            s1,
                            gain + g,
                            placed + q,
                            need1 & ~clear,
                            (*did, _REAL),
                        )
                    )
                if by_joker >= 0:
                    if (s1 >> _D_JOKERS) & 3:
                        grown.append(
                            (
                                (*runs, by_joker),
                                kr,
                                s1 - unit[_D_FREE],
                                gain + g,
                                placed + q,
                                need1,
                                (*did, _FREE),
                            )
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
                                (*did, _FIXED),
                            )
                        )
            partial = grown
        out: dict[tuple[int, int, tuple[int, ...], tuple[int, ...], int, int, int, int], _How] = {}
        rank_end = c == 3 and not top_rank
        bit = 1 << c
        start0 = 1 | _BAL0 << 2 | (_FROM_ONE if rank == 1 and high else 0)
        if pending & _MARK_TOP and pending >> 10 == c and rank <= (pending >> 4) & 15:
            start0 |= _MARKED
        for runs, kr, s1, gain, placed, need1, did in partial:
            if top_rank:
                # Rank 14 ends every run that reached it.
                if not all(_closable(o) for o in runs):
                    continue
                if runs:
                    need1 &= ~need_run
                runs = ()
            # 2. Each real tile left: a new run (after 0-2 jokers), a set of this rank,
            # left over, or laid off (and what it did, for the witness).
            options: list[_Placing] = [(runs, slots, s1, gain, placed, need1, keep, ())]
            for _ in range(kr):
                more: list[_Placing] = []
                for runs2, slots2, s2, gain2, placed2, need2, keep2, tiles in options:
                    if carry:
                        # An ace not used low waits for rank 14 (a run 12 13 1, or left).
                        more.append(
                            (
                                runs2,
                                slots2,
                                s2 + unit[_D_TOP + c],
                                gain2,
                                placed2,
                                need2,
                                keep2,
                                (*tiles, (_CARRY, 0)),
                            )
                        )
                    else:
                        if lay[f] and (cap[f] == 2 or tiles.count(_LAID) < cap[f]):
                            more.append(
                                (
                                    runs2,
                                    slots2,
                                    s2,
                                    gain2 + lay[f],
                                    placed2,
                                    need2,
                                    keep2,
                                    (*tiles, _LAID),
                                )
                            )
                        more.append(
                            (
                                runs2,
                                slots2,
                                s2,
                                gain2,
                                placed2,
                                need2,
                                keep2 - 1 if keep2 else 0,
                                (*tiles, (_LEFT, 0)),
                            )
                        )
                    if runs_ok and not top_rank and not need2 & _RESTART:
                        more.append(
                            (
                                (*runs2, start0 + _BAL1),
                                slots2,
                                s2,
                                gain2 + g,
                                placed2 + q,
                                need2,
                                keep2,
                                (*tiles, (_RUN, ())),
                            )
                        )
                    if runs_ok and not top_rank and rank >= 2:
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
                                        (*tiles, (_RUN, (src,))),
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
                                            (*tiles, (_RUN, (a, b))),
                                        )
                                    )
                    if not top_rank:
                        for i, mask in enumerate(slots2):
                            if not mask & bit and (i == 0 or slots2[i - 1] != mask):
                                joined = tuple(sorted((*slots2[:i], mask | bit, *slots2[i + 1 :])))
                                more.append(
                                    (
                                        runs2,
                                        joined,
                                        s2,
                                        gain2,
                                        placed2,
                                        need2,
                                        keep2,
                                        (*tiles, (_JOIN, i)),
                                    )
                                )
                        if not count_sets or len(slots2) + sets < set_room:
                            opened = tuple(sorted((*slots2, bit)))
                            more.append(
                                (
                                    runs2,
                                    opened,
                                    s2,
                                    gain2,
                                    placed2,
                                    need2,
                                    keep2,
                                    (*tiles, (_OPEN, 0)),
                                )
                            )
                options = more
            for runs2, slots2, s2, gain2, placed2, need2, keep2, tiles in options:
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
                    else ((s2, need2, pts2, sets, 0, ()),)
                )
                for s3, need3, pts3, sets3, gain3, fills in ends:
                    jl = jokers(s3)
                    one = (
                        s3 - s0,
                        jl,
                        clip(runs2, per * jl),
                        () if rank_end else slots2,
                        need3,
                        keep2,
                        pts3,
                        sets3,
                    )
                    v = gain2 + gain3
                    known = out.get(one)
                    if known is None or known[0] < v:
                        out[one] = (v, did, tiles, runs2, fills)
        return [(*one, how[0], how) for one, how in out.items()]

    return Fields(
        per,
        adjacent,
        runs_ok,
        high,
        track,
        end,
        gain_of,
        lay,
        fixed_rank,
        jokers,
        clip,
        final,
        local_moves,
        (tuple(fixed_rank), tuple(top_ok), fixed_jokers),
        cap,
    )
