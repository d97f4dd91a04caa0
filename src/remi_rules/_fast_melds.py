"""The fast bot's meld arithmetic (:class:`~remi_rules.bots.FastBot`): a rack as tile
codes, the melds it can form, and a small depth-first search over them.

A *code* is ``colour_index * 16 + rank`` (:data:`CODE` maps the physical ids of
:mod:`remi_rules.tiles` to it; jokers stay ids 104 and 105), so a rack is a 64-slot
count list and the melds of one colour or one rank are bit masks.  The
candidates are a deliberately small part of the meld catalogue
(:func:`remi_rules.layouts.meld_layouts`): runs with jokers in their gaps or at the
end of a pair, and sets (a test checks that each is a valid meld of the pool); they
are memoised per colour mask or rank mask and per ruleset flags, so the search
starts from a table built once.  Nothing here reads a game state: the bot passes the
rack and the table of its :class:`~remi_rules.engine.PlayerView`, and every step made
from these plans is played out with the engine's own transition before it is sent
(:mod:`remi_rules._fast_turn`).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from typing import Final

from .errors import InvalidMeldError, InvalidOpeningError
from .melds import analyze_meld
from .opening import check_opening
from .ruleset import OpeningComposition, Ruleset
from .table import Table

__all__ = [
    "CODE",
    "EXACT",
    "EXACT_OPEN",
    "JOKERS",
    "MAX",
    "OPEN",
    "Cand",
    "Melds",
    "Rack",
    "Search",
    "candidates",
    "code_of_fixed",
    "local_fit",
    "plan_melds",
    "plan_opening_ok",
    "plan_with_joker",
    "uncoverable",
]

JOKERS: Final = (104, 105)
CODE: Final = tuple(((i // 2) % 4) * 16 + i // 8 + 1 for i in range(104))
"""The code of each physical id below 104 (two copies of each value)."""
SEARCH_BUDGET: Final = 4000
"""Nodes of the meld-collection search per call."""
EXACT_BUDGET: Final = 800
"""The same for an exact cover (a pe-tablă or atu closing)."""

Cand = tuple[tuple[int, ...], tuple[int, ...], int, int, int, bool, bool]
"""A candidate meld: its layout in laid order (codes, 0 for a joker), its real codes,
its size, its jokers, its points, whether it is a run, whether it is an ace set
(OPEN-04)."""
Melds = list[tuple[int, ...]]
"""Melds as physical ids, in laid order."""

MAX, OPEN, EXACT, EXACT_OPEN = 0, 1, 2, 3
"""The search modes (see :class:`Search`)."""


# -- the rack, as codes -----------------------------------------------------------------------


def code_of_fixed(table: Table, joker: int) -> int | None:
    """The code a joker stands for when it is fixed (online's joker întors), else None."""
    fixed = table.jokers[joker - 104].fixed_as
    if fixed is None or fixed.rank is None or fixed.color is None:
        return None
    return fixed.color.index * 16 + fixed.rank


class Rack:
    """A rack split for the search: real tiles by code (``cnt``, ``pools``), free
    jokers, and fixed jokers (used only for lay-offs and discards)."""

    __slots__ = ("cnt", "fixed", "ids", "jokers", "pools")

    def __init__(self, ids: Sequence[int], table: Table) -> None:
        self.ids = tuple(ids)
        self.pools: dict[int, list[int]] = {}
        self.jokers: list[int] = []
        self.fixed: dict[int, int] = {}
        cnt = [0] * 64
        for i in self.ids:
            if i >= 104:
                code = code_of_fixed(table, i)
                if code is None:
                    self.jokers.append(i)
                else:
                    self.fixed[i] = code
                continue
            c = CODE[i]
            cnt[c] += 1
            pool = self.pools.get(c)
            if pool is None:
                self.pools[c] = [i]
            else:
                pool.append(i)
        self.cnt = cnt


def _has(cnt: list[int], base: int, rank: int, ace_high: bool) -> bool:
    if rank == 14:
        return ace_high and cnt[base + 1] > 0
    return 1 <= rank <= 13 and cnt[base + rank] > 0


def local_fit(code: int, cnt: list[int], jokers: int, rules: Ruleset) -> bool:
    """Could tile ``code`` make a meld with two tiles of the rack (``cnt``, ``jokers``
    free jokers)?  A cheap necessary test before the real search."""
    rank = code & 15
    base = code - rank
    others = sum(1 for b in (0, 16, 32, 48) if b != base and cnt[b + rank])
    if others >= 2 or (others and jokers):
        return True
    ah = rules.ace_high_run
    for r in (rank, 14) if rank == 1 else (rank,):
        lo1, lo2 = _has(cnt, base, r - 1, ah), _has(cnt, base, r - 2, ah)
        hi1, hi2 = _has(cnt, base, r + 1, ah), _has(cnt, base, r + 2, ah)
        if (lo1 and hi1) or (lo1 and lo2) or (hi1 and hi2):
            return True
        if jokers and (lo1 or hi1 or lo2 or hi2):
            return True
    return False


# -- the candidates ---------------------------------------------------------------------------


def _run_points(ranks: range) -> int:
    return sum(10 if r >= 10 else 5 for r in ranks)


@functools.lru_cache(maxsize=8192)
def _colour_runs(
    base: int, mask: int, jokers: int, ace_high: bool, per: int, adjacent: bool
) -> tuple[Cand, ...]:
    """The runs of one colour whose ranks are the bits of ``mask``."""
    out: list[Cand] = []
    top = 14 if ace_high else 13
    present = [bool(mask >> r & 1) for r in range(16)]
    if ace_high:
        present[14] = present[1]
    for lo in range(1, top - 1):
        if not present[lo]:
            continue
        gaps: list[int] = []
        for hi in range(lo + 1, min(top, lo + 12) + 1):
            if not present[hi]:
                if len(gaps) == jokers or (not adjacent and gaps and gaps[-1] == hi - 1):
                    break
                gaps.append(hi)
                continue
            n = hi - lo + 1
            g = len(gaps)
            if n >= 3 and n - g >= per * g:
                layout = tuple(
                    0 if r in gaps else base + (1 if r == 14 else r) for r in range(lo, hi + 1)
                )
                reals = tuple(c for c in layout if c)
                out.append((layout, reals, n, g, _run_points(range(lo, hi + 1)), True, False))
        if jokers and per <= 2 and lo + 1 <= top and present[lo + 1]:
            # a pair and a joker at its end (the high end when there is room)
            c1, c2 = base + lo, base + (1 if lo + 1 == 14 else lo + 1)
            if lo + 2 <= top:
                out.append(
                    ((c1, c2, 0), (c1, c2), 3, 1, _run_points(range(lo, lo + 3)), True, False)
                )
            elif lo - 1 >= 1:
                pts = _run_points(range(lo - 1, lo + 2))
                out.append(((0, c1, c2), (c1, c2), 3, 1, pts, True, False))
    return tuple(out)


@functools.lru_cache(maxsize=1024)
def _rank_sets(
    rank: int, cmask: int, joker: bool, per: int, ace_joker_ok: bool
) -> tuple[Cand, ...]:
    """The sets of one rank whose colours are the bits of ``cmask``."""
    out: list[Cand] = []
    cols = [16 * b + rank for b in range(4) if cmask >> b & 1]
    k = len(cols)
    value = 25 if rank == 1 else 10 if rank >= 10 else 5
    if k >= 3:
        out.append((tuple(cols), tuple(cols), k, 0, value * k, False, rank == 1))
        if k == 4:
            for sub in itertools.combinations(cols, 3):
                out.append((sub, sub, 3, 0, value * 3, False, rank == 1))
    if joker and per <= 2 and k >= 2:
        for pair in itertools.combinations(cols, 2):
            out.append(((*pair, 0), pair, 3, 1, value * 3, False, rank == 1 and ace_joker_ok))
        if k == 3 and per <= 3:
            out.append(((*cols, 0), tuple(cols), 4, 1, value * 4, False, rank == 1))
    return tuple(out)


def candidates(cnt: list[int], jokers: int, rules: Ruleset) -> list[Cand]:
    """Every run (jokers in its gaps, or at the end of a pair) and set the rack
    (``cnt``, ``jokers`` free jokers) can form, as value layouts."""
    ace_high, per = rules.ace_high_run, rules.real_tiles_per_joker
    adjacent = rules.jokers_may_be_adjacent
    jmax = min(jokers, 2)
    out: list[Cand] = []
    ranks = [0] * 14
    for b in range(4):
        base = 16 * b
        mask = 0
        for r in range(1, 14):
            if cnt[base + r]:
                mask |= 1 << r
                ranks[r] |= 1 << b
        if mask:
            out.extend(_colour_runs(base, mask, jmax, ace_high, per, adjacent))
    joker = jokers > 0
    ace_joker_ok = rules.opening_ace_set_joker_ok
    for r in range(1, 14):
        cm = ranks[r]
        if cm and (cm & (cm - 1)):  # two colours or more
            out.extend(_rank_sets(r, cm, joker, per, ace_joker_ok))
    return out


def opening_ok(points: int, runs: int, sets: int, aces: int, rules: Ruleset) -> bool:
    """OPEN-02/03/04 on the counts of a collection of melds."""
    if points < rules.opening_min_points:
        return False
    if not runs:
        if not (rules.opening_ace_set_exception and aces):
            return False
        return not (rules.opening_ace_set_blocks_other_sets and sets > 1)
    return not (rules.opening_composition is OpeningComposition.RUN_AND_SET and not sets)


def uncoverable(cands: list[Cand], cnt: list[int]) -> int:
    """How many real tiles of ``cnt`` are in no candidate (they cannot be melded)."""
    seen = {c for cand in cands for c in cand[1]}
    return sum(k for c, k in enumerate(cnt) if k and c not in seen)


# -- the search -------------------------------------------------------------------------------

_Best = tuple[tuple[int, int, int], list[int]]


class Search:
    """Depth-first search over disjoint collections of candidates, within a node budget.

    ``MAX``: most tiles, then fewest jokers, then most points (always valid);
    ``OPEN``: the same among valid openings (and the ``MAX`` best too, for the discard);
    ``EXACT``: exactly ``cap`` tiles; ``EXACT_OPEN``: exactly ``cap`` tiles and a valid
    opening (a pe-tablă closing).  ``base``: the counts of a meld already chosen."""

    def __init__(
        self,
        cands: list[Cand],
        cnt: list[int],
        jokers: int,
        cap: int,
        rules: Ruleset,
        mode: int,
        base: tuple[int, int, int, int, int, int] = (0, 0, 0, 0, 0, 0),
    ) -> None:
        self.cands = cands
        self.cnt = cnt
        self.cap = cap
        self.rules = rules
        self.mode = mode
        self.nodes = 0
        self.budget = EXACT_BUDGET if mode >= EXACT else SEARCH_BUDGET
        self.best: _Best | None = None
        self.best_any: _Best | None = None
        self.chosen: list[int] = []
        covered, njok, points, runs, sets, aces = base
        if mode >= EXACT and covered + sum(cnt) + jokers - uncoverable(cands, cnt) < cap:
            return  # too many tiles fit no meld: no exact cover
        self._consider(covered, njok, points, runs, sets, aces)
        self._dfs(0, jokers, covered, njok, points, runs, sets, aces)

    def _consider(
        self, covered: int, njok: int, points: int, runs: int, sets: int, aces: int
    ) -> None:
        mode = self.mode
        key = (covered, -njok, points)
        if mode == MAX:
            if self.best is None or key > self.best[0]:
                self.best = (key, list(self.chosen))
            return
        if mode == OPEN:
            if self.best_any is None or key > self.best_any[0]:
                self.best_any = (key, list(self.chosen))
            if opening_ok(points, runs, sets, aces, self.rules) and (
                self.best is None or key > self.best[0]
            ):
                self.best = (key, list(self.chosen))
            return
        if covered != self.cap or self.best is not None:
            return
        if mode == EXACT_OPEN and not opening_ok(points, runs, sets, aces, self.rules):
            return
        self.best = (key, list(self.chosen))

    def _dfs(
        self,
        start: int,
        jleft: int,
        covered: int,
        njok: int,
        points: int,
        runs: int,
        sets: int,
        aces: int,
    ) -> None:
        cands = self.cands
        cnt = self.cnt
        cap = self.cap
        for i in range(start, len(cands)):
            if self.nodes >= self.budget:
                return
            if self.mode >= EXACT and self.best is not None:
                return
            _layout, reals, size, nj, pts, is_run, ace = cands[i]
            if covered + size > cap or nj > jleft:
                continue
            ok = True
            for c in reals:
                if not cnt[c]:
                    ok = False
                    break
            if not ok:
                continue
            self.nodes += 1
            for c in reals:
                cnt[c] -= 1
            self.chosen.append(i)
            args = (
                covered + size,
                njok + nj,
                points + pts,
                runs + is_run,
                sets + (not is_run),
                aces + ace,
            )
            self._consider(*args)
            self._dfs(i, jleft - nj, *args)
            self.chosen.pop()
            for c in reals:
                cnt[c] += 1


def assign(
    layouts: list[tuple[int, ...]],
    rack: Rack,
    *,
    picked: int | None = None,
    joker_order: list[int] | None = None,
) -> Melds | None:
    """Physical ids for value layouts (the first holding ``picked`` when given)."""
    pools = {c: list(ids) for c, ids in rack.pools.items()}
    jokers = list(joker_order if joker_order is not None else rack.jokers)
    out: Melds = []
    for k, layout in enumerate(layouts):
        ids: list[int] = []
        placed = picked is None or k > 0
        for c in layout:
            if c == 0:
                if not jokers:
                    return None
                ids.append(jokers.pop(0))
                continue
            pool = pools.get(c)
            if not placed and picked is not None and picked < 104 and CODE[picked] == c:
                ids.append(picked)
                if pool is not None and picked in pool:
                    pool.remove(picked)
                placed = True
                continue
            if not pool:
                return None
            ids.append(pool.pop(0))
        if not placed:
            return None
        out.append(tuple(ids))
    return out


def _stats(cand: Cand) -> tuple[int, int, int, int, int, int]:
    _layout, _reals, size, nj, pts, is_run, ace = cand
    return size, nj, pts, int(is_run), int(not is_run), int(ace)


def plan_melds(
    rack: Rack,
    table: Table,
    rules: Ruleset,
    *,
    cap: int,
    mode: int,
    picked: int | None = None,
    own: Sequence[int] | None = None,
    joker_first: list[int] | None = None,
) -> tuple[Melds | None, set[int]]:
    """The melds (physical ids) of the best collection for ``mode`` within ``cap`` tiles,
    and the ids of the ``MAX`` collection (the tiles to keep rather than discard).
    With ``picked`` (a tile taken face up) the first meld holds it and enough tiles of
    ``own`` (the rack before the take) for RUPE-06."""
    cands = candidates(rack.cnt, len(rack.jokers), rules)
    keep: set[int] = set()
    if picked is None:
        search = Search(cands, rack.cnt, len(rack.jokers), cap, rules, mode)
        best = search.best
        any_ = search.best_any if mode == OPEN else best
        if any_ is not None and any_[1]:
            ids = assign([cands[i][0] for i in any_[1]], rack)
            if ids:
                keep = {i for m in ids for i in m}
        if best is None or not best[1]:
            return None, keep
        return assign([cands[i][0] for i in best[1]], rack, joker_order=joker_first), keep
    # forced: the taken tile in a new meld with enough own tiles (RUPE-01, RUPE-06)
    assert own is not None
    own_rack = Rack(own, table)
    pc = CODE[picked]
    own_rack.cnt[pc] += 1
    forced = [
        c
        for c in candidates(own_rack.cnt, len(own_rack.jokers), rules)
        if pc in c[1]
        and c[2] - 1 - (0 if rules.take_meld_joker_counts_as_own else c[3])
        >= rules.take_meld_min_own_tiles
    ]
    best_total: tuple[tuple[int, int, int], list[tuple[int, ...]]] | None = None
    for f in forced:
        if f[2] > cap:
            continue
        cnt = list(rack.cnt)
        for c in f[1]:
            cnt[c] -= 1
        if min(cnt[c] for c in f[1]) < 0:
            continue
        jleft = len(rack.jokers) - f[3]
        rest = candidates(cnt, jleft, rules)
        search = Search(rest, cnt, jleft, cap, rules, mode, base=_stats(f))
        if search.best is None:
            continue
        key, chosen = search.best
        if best_total is None or key > best_total[0]:
            best_total = (key, [f[0], *(rest[i][0] for i in chosen)])
        if mode >= EXACT:
            break
    if best_total is None:
        return None, keep
    return assign(best_total[1], rack, picked=picked), keep


def plan_with_joker(
    rack: Rack, rules: Ruleset, cap: int, joker_order: list[int] | None
) -> Melds | None:
    """The best ``MAX`` collection that uses a joker (JOLY-04, ``same_turn_new_meld``)."""
    cands = candidates(rack.cnt, len(rack.jokers), rules)
    best: tuple[tuple[int, int, int], list[tuple[int, ...]]] | None = None
    for f in cands:
        if not f[3] or f[2] > cap:
            continue
        cnt = list(rack.cnt)
        for c in f[1]:
            cnt[c] -= 1
        jleft = len(rack.jokers) - f[3]
        rest = candidates(cnt, jleft, rules)
        search = Search(rest, cnt, jleft, cap, rules, MAX, base=_stats(f))
        if search.best is not None and (best is None or search.best[0] > best[0]):
            best = (search.best[0], [f[0], *(rest[i][0] for i in search.best[1])])
    if best is None:
        return None
    return assign(best[1], rack, joker_order=joker_order)


def plan_opening_ok(melds: Melds, table: Table, rules: Ruleset) -> bool:
    """The plan's melds, analysed by the library, make a valid opening
    (:func:`~remi_rules.opening.check_opening`): a cheap filter before the plan is
    played out."""
    try:
        analysed = [analyze_meld([table.tile(i) for i in m], rules) for m in melds]
        check_opening(analysed, rules)
    except (InvalidMeldError, InvalidOpeningError):
        return False
    return True
