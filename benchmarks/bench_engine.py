"""Benchmark of the game engine: seeded 4-player rounds per preset, played by a fast
melding policy, with the engine's invariants checked after every step.

Usage::

    python benchmarks/bench_engine.py [--rounds 10000] [--quick] [--seed 1]
                                      [--presets clasic,online,rummy45]
                                      [--profile-rounds 300] [--replay-every 100]

For each preset the same ``--rounds`` seeded rounds (``Game.new(rules, 4, seed=seed+k)``)
are played twice:

1. the **checked pass**: after every step the invariants are checked
   (``tile_census(state) is None``, every rack non-negative and the closer's rack as
   the closing mode wants it, the phase consistent with ``pending`` and ``end``), every
   finished round is scored; every ``--replay-every``-th round is also replayed from
   its record and compared, and every step the policy tries in it is checked against
   ``game.legal_steps()`` both ways (``legal_steps_disagreements``).  The step kinds,
   end reasons and refusals are counted in this pass;
2. the **timed pass**: the same rounds without any check.  ``rounds_per_s`` is the
   rounds divided by the CPU seconds of this pass (``time.process_time``: one
   process, one core, unaffected by other processes; ``rounds_per_wall_s`` is the
   wall-clock figure).  The time inside ``Game.new``/``Game.apply`` gives the
   engine's share and ``engine_only_rounds_per_s`` (the rate if the policy cost
   nothing).  Its step count must equal the checked pass's (``determinism_ok``).

Then ``--profile-rounds`` rounds per preset run under cProfile; the report lists the
functions of ``remi_rules/engine/`` and of the turn rules (rupere, lipire, joly,
opening, closing, table, melds) by cumulative time.

The policy never calls ``game.legal_steps()`` (about 1 ms a call) except as a last
resort (``legal_steps_fallbacks``): it reads the rack directly.  Sets are found by
rank and runs by colour (jokers filling gaps, or a pair's end), a small
depth-first search picks disjoint melds (most tiles, fewest jokers, most points),
openings must reach the preset's minimum and composition (checked again with
:func:`remi_rules.opening.check_opening`), the last discard or an older row tile
(rupere, at most three tiles deep) is taken when it completes a meld with two rack
tiles (an unopened player only when it lets him open), tiles are laid off where a
cheap test on the meld's ends says they fit, a table joker is swapped when the exact
tile is held, the round is closed when one tile is left (a joker when possible), and
the least useful tile is discarded.  In ``clasic`` a seat with a strong hand in the
first cycle sometimes declares pe tablă and then only tries to close pe tablă.  A step
the engine refuses is counted (``policy_refusals``, by code) and the turn falls back:
undo what can be undone, draw, discard.

The last line printed is one JSON object.  Target: 200 rounds/s or more per preset on
one core.
"""

from __future__ import annotations

import argparse
import cProfile
import itertools
import json
import platform
import pstats
import random
import sys
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from remi_rules import variants
from remi_rules.engine import (
    AnnounceAtu,
    AnnounceFewTiles,
    Close,
    DeclarePeTabla,
    Discard,
    Draw,
    EndReason,
    Game,
    GameState,
    LayOff,
    MeldTiles,
    Phase,
    Rupere,
    Step,
    SwapJoker,
    TakeAtu,
    TakeLastDiscard,
    Undo,
    state_problems,
)
from remi_rules.engine.events import AnnouncementMissed, RoundEnded, StockReshuffled
from remi_rules.engine.legal import canonical_step
from remi_rules.errors import IllegalStepError, InvalidMeldError, InvalidOpeningError
from remi_rules.lipire import End
from remi_rules.melds import MeldKind, analyze_meld
from remi_rules.opening import check_opening
from remi_rules.ruleset import (
    AtuFaceUpTakeable,
    OpeningComposition,
    Ruleset,
    StockExhausted,
    SwappedJokerUse,
)
from remi_rules.table import Table, TableMeld

PRESETS = ("clasic", "online", "rummy45")
_cpu = time.process_time  # CPU time of this process: one core, whatever else runs
_clock = time.perf_counter  # cheap (60 ns; process_time is a 2 us system call here)
PLAYERS = 4
TARGET_ROUNDS_PER_S = 200.0

# The step kinds the benchmark must see at least once, and the presets where they
# cannot happen at all (so their absence there is not a coverage gap).
REQUIRED_KINDS = (
    "opening",
    "rupere",
    "lay_off_other",
    "joker_swap",
    "joker_close",
    "pe_tabla_declared",
    "stock_exhausted",
    "stock_reshuffled",
)
NOT_APPLICABLE: dict[str, Callable[[Ruleset], bool]] = {
    "pe_tabla_declared": lambda r: not r.pe_tabla_enabled,
    "stock_exhausted": lambda r: r.stock_exhausted is StockExhausted.RESHUFFLE_DISCARDS,
    "stock_reshuffled": lambda r: r.stock_exhausted is not StockExhausted.RESHUFFLE_DISCARDS,
}

JOKERS = (104, 105)
# Tile code of a physical id: colour_index * 16 + rank (as in remi_rules.tiles).
CODE = tuple(((i // 2) % 4) * 16 + i // 8 + 1 for i in range(104))
RUPERE_DEPTH = 3  # an older row tile is taken only with at most this many tiles
SEARCH_BUDGET = 4000  # nodes of the meld-collection search per call
EXACT_BUDGET = 800  # the same for an exact cover (a pe-tablă or atu closing)

# A candidate meld: (layout codes in laid order, 0 for a joker; the real codes; size;
# jokers; points; is a run; is an ace set for OPEN-04).
Cand = tuple[tuple[int, ...], tuple[int, ...], int, int, int, bool, bool]


# -- the rack, as codes ----------------------------------------------------------------------


def _code_of_fixed(table: Table, joker: int) -> int | None:
    fixed = table.jokers[joker - 104].fixed_as
    if fixed is None:
        return None
    assert fixed.rank is not None and fixed.color is not None
    return fixed.color.index * 16 + fixed.rank


class Rack:
    """A rack split for the policy: real tiles by code, free jokers, fixed jokers
    (online's joker întors, used only for lay-offs and discards here)."""

    __slots__ = ("cnt", "fixed", "ids", "jokers", "pools")

    def __init__(self, ids: tuple[int, ...] | list[int], table: Table) -> None:
        self.ids = tuple(ids)
        self.pools: dict[int, list[int]] = {}
        self.jokers: list[int] = []
        self.fixed: dict[int, int] = {}
        cnt = [0] * 64
        for i in ids:
            if i >= 104:
                code = _code_of_fixed(table, i)
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


def _run_points(ranks: range) -> int:
    return sum(10 if r >= 10 else 5 for r in ranks)


_RUNS: dict[tuple[int, int, int, tuple[bool, int, bool]], list[Cand]] = {}
_SETS: dict[tuple[int, int, bool, tuple[int, bool]], list[Cand]] = {}
_FLAGS: dict[int, tuple[tuple[bool, int, bool], tuple[int, bool], Ruleset]] = {}


def _flags(rules: Ruleset) -> tuple[tuple[bool, int, bool], tuple[int, bool]]:
    got = _FLAGS.get(id(rules))
    if got is None or got[2] is not rules:
        got = (
            (rules.ace_high_run, rules.real_tiles_per_joker, rules.jokers_may_be_adjacent),
            (rules.real_tiles_per_joker, rules.opening_ace_set_joker_ok),
            rules,
        )
        _FLAGS[id(rules)] = got
    return got[0], got[1]


def _colour_runs(base: int, mask: int, jokers: int, flags: tuple[bool, int, bool]) -> list[Cand]:
    """The runs of one colour whose ranks are the bits of ``mask`` (memoised)."""
    key = (base, mask, jokers, flags)
    got = _RUNS.get(key)
    if got is not None:
        return got
    ace_high, per, adjacent = flags
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
    _RUNS[key] = out
    return out


def _rank_sets(rank: int, cmask: int, joker: bool, flags: tuple[int, bool]) -> list[Cand]:
    """The sets of one rank whose colours are the bits of ``cmask`` (memoised)."""
    key = (rank, cmask, joker, flags)
    got = _SETS.get(key)
    if got is not None:
        return got
    per, ace_joker_ok = flags
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
    _SETS[key] = out
    return out


def candidates(cnt: list[int], jokers: int, rules: Ruleset) -> list[Cand]:
    """Every run (jokers in its gaps, or at the end of a pair) and set the rack can
    form, as value layouts."""
    run_flags, set_flags = _flags(rules)
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
            out.extend(_colour_runs(base, mask, jmax, run_flags))
    joker = jokers > 0
    for r in range(1, 14):
        cm = ranks[r]
        if cm and (cm & (cm - 1)):  # two colours or more
            out.extend(_rank_sets(r, cm, joker, set_flags))
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


# Search modes
MAX, OPEN, EXACT, EXACT_OPEN = 0, 1, 2, 3


def uncoverable(cands: list[Cand], cnt: list[int]) -> int:
    """How many real tiles of ``cnt`` are in no candidate (they cannot be melded)."""
    seen = {c for cand in cands for c in cand[1]}
    return sum(k for c, k in enumerate(cnt) if k and c not in seen)


class Search:
    """Depth-first search over disjoint collections of candidates.

    ``MAX``: most tiles, then fewest jokers, then most points (always valid);
    ``OPEN``: the same among valid openings (and the ``MAX`` best too, for the discard);
    ``EXACT``: exactly ``cap`` tiles; ``EXACT_OPEN``: exactly ``cap`` tiles and a valid
    opening (a pe-tablă closing)."""

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
        self.best: tuple[tuple[int, ...], list[int]] | None = None
        self.best_any: tuple[tuple[int, ...], list[int]] | None = None
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
) -> list[tuple[int, ...]] | None:
    """Physical ids for value layouts (the first holding ``picked`` when given)."""
    pools = {c: list(ids) for c, ids in rack.pools.items()}
    jokers = list(joker_order if joker_order is not None else rack.jokers)
    out: list[tuple[int, ...]] = []
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
    rules: Ruleset,
    *,
    cap: int,
    mode: int,
    picked: int | None = None,
    own: tuple[int, ...] | None = None,
    joker_first: list[int] | None = None,
) -> tuple[list[tuple[int, ...]] | None, set[int]]:
    """The melds (physical ids) of the best collection for ``mode`` within ``cap`` tiles;
    with ``picked`` (a taken tile) the first meld holds it and two tiles of ``own`` (the
    rack before the take).  Also the ids of the ``MAX`` collection (for the discard)."""
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
    own_rack = Rack(own, Table())
    pc = CODE[picked]
    own_rack.cnt[pc] += 1
    forced = [
        c
        for c in candidates(own_rack.cnt, len(own_rack.jokers), rules)
        if pc in c[1]
        and c[2] - 1 - (0 if rules.take_meld_joker_counts_as_own else c[3])
        >= rules.take_meld_min_own_tiles
    ]
    best_total: tuple[tuple[int, ...], list[tuple[int, ...]]] | None = None
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
) -> list[tuple[int, ...]] | None:
    """The best ``MAX`` collection that uses a joker (JOLY-04, ``same_turn_new_meld``)."""
    cands = candidates(rack.cnt, len(rack.jokers), rules)
    best: tuple[tuple[int, ...], list[tuple[int, ...]]] | None = None
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


def _check_plan_opening(melds: list[tuple[int, ...]], table: Table, rules: Ruleset) -> bool:
    """The plan's melds, analysed by the library, pass check_opening."""
    try:
        analysed = [analyze_meld([table.tile(i) for i in m], rules) for m in melds]
        check_opening(analysed, rules)
    except (InvalidMeldError, InvalidOpeningError):
        return False
    return True


# -- lay-offs and swaps -------------------------------------------------------------------------


def accepts(meld: TableMeld, rules: Ruleset) -> list[tuple[int, End]]:
    """A cheap test: the tile codes that could be laid on table ``meld`` and where."""
    m = meld.meld
    n = len(meld.ids)
    if m.kind is MeldKind.TERTA:
        if n >= 4:
            return []
        taken = {CODE[i] >> 4 for i in meld.ids if i < 104}
        return [(16 * b + m.low, End.SET) for b in range(4) if b not in taken]
    if n >= 13:
        return []
    assert m.color is not None
    base = 16 * m.color.index
    low = m.low
    high = low + n - 1
    out: list[tuple[int, End]] = []
    if low > 1:
        out.append((base + low - 1, End.LOW))
    if high < 13:
        out.append((base + high + 1, End.HIGH))
    elif high == 13 and rules.ace_high_run:
        out.append((base + 1, End.HIGH))
    return out


def joker_end(meld: TableMeld, rules: Ruleset) -> End | None:
    """Where a joker could go on table ``meld`` (a cheap test), or None."""
    m = meld.meld
    n = len(meld.ids)
    if m.kind is MeldKind.TERTA:
        return End.SET if n < 4 else None
    if n >= 13:
        return None
    high = m.low + n - 1
    if high < (14 if rules.ace_high_run else 13):
        return End.HIGH
    return End.LOW if m.low > 1 else None


# -- the driver ---------------------------------------------------------------------------------


class Tally:
    """What the rounds of one preset did."""

    def __init__(self) -> None:
        self.kinds: Counter[str] = Counter()
        self.ends: Counter[str] = Counter()
        self.refusals: Counter[str] = Counter()
        self.probe_refusals: Counter[str] = Counter()
        self.breaches = 0
        self.breach_examples: list[str] = []
        self.steps = 0
        self.turns = 0
        self.rounds = 0
        self.legal_fallbacks = 0
        self.stuck = 0
        self.replays = 0
        self.replay_mismatches = 0
        self.scoring_errors = 0
        self.examples: list[str] = []
        self.audited_steps = 0
        self.disagreements = 0
        self.disagreement_examples: list[str] = []
        self.engine_s = 0.0
        """Wall time spent inside ``Game.apply`` and ``Game.new`` (the engine's share)."""

    def note_disagreement(self, text: str) -> None:
        self.disagreements += 1
        if len(self.disagreement_examples) < 5:
            self.disagreement_examples.append(text)


def check_state(state: GameState) -> list[str]:
    """The invariants (:func:`remi_rules.engine.state_problems`), as text."""
    return [f"{p.code.value} at {p.path}: {p.details}" for p in state_problems(state)]


def _norm(step: Step, state: GameState | None = None) -> object:
    """A step as legal_steps() would list it (a set's tiles in any order; with
    ``state``, its canonical copies: ``canonical_step``)."""
    if state is not None:
        step = canonical_step(state, step)
    if isinstance(step, MeldTiles):
        return ("meld", tuple(sorted(step.tiles)))
    return step


class Driver:
    """Applies steps to one game, counts what happens, checks the invariants; on an
    audited round also checks every step the policy tries against ``legal_steps()``."""

    def __init__(self, game: Game, tally: Tally, checked: bool, *, audit: bool = False) -> None:
        self.game = game
        self.tally = tally
        self.checked = checked
        self.audit = audit

    def do(self, step: Step) -> None:
        game = self.game
        tally = self.tally
        before = game.state
        seat = before.current
        legal: set[object] | None = None
        if self.audit:
            legal = {_norm(s) for s in game.legal_steps()}
            tally.audited_steps += 1
        t0 = _clock()
        try:
            events = game.apply(step)
        except IllegalStepError as err:
            tally.engine_s += _clock() - t0
            if legal is not None and _norm(step, before) in legal:
                tally.note_disagreement(f"listed by legal_steps but refused ({err.code}): {step}")
            raise
        tally.engine_s += _clock() - t0
        if legal is not None and _norm(step, before) not in legal:
            tally.note_disagreement(f"applied but not listed by legal_steps: {step}")
        tally.steps += 1
        kinds = tally.kinds
        kinds[step.kind] += 1
        if isinstance(step, LayOff):
            owner = before.table.melds[step.meld].owner
            kinds["lay_off_other" if owner != seat else "lay_off_own"] += 1
        elif isinstance(step, SwapJoker):
            kinds["joker_swap"] += 1
        elif isinstance(step, Discard | Close):
            tally.turns += 1
            after = game.state.seats[seat]
            if after.opened and not before.seats[seat].opened:
                kinds["opening"] += 1
        elif isinstance(step, DeclarePeTabla):
            kinds["pe_tabla_declared"] += 1
        for e in events:
            t = type(e)
            if t is StockReshuffled:
                kinds["stock_reshuffled"] += 1
            elif t is AnnouncementMissed:
                kinds["announcement_missed"] += 1
            elif t is RoundEnded:
                assert isinstance(e, RoundEnded)
                kinds[str(e.reason)] += 1
                if e.reason is EndReason.CLOSED:
                    if e.closing_tile in JOKERS:
                        kinds["joker_close"] += 1
                    if e.pe_tabla:
                        kinds["pe_tabla_close"] += 1
        if self.checked:
            problems = check_state(game.state)
            if problems:
                tally.breaches += len(problems)
                if len(tally.breach_examples) < 5:
                    tally.breach_examples.append(f"after {step}: {problems[0]}")

    def try_do(self, step: Step, *, probe: bool = False) -> bool:
        """Apply ``step``; on a refusal count it (as a probe or a policy refusal)."""
        try:
            self.do(step)
        except IllegalStepError as err:
            key = f"{step.kind}:{err.code}"
            (self.tally.probe_refusals if probe else self.tally.refusals)[key] += 1
            if not probe and len(self.tally.examples) < 8:
                self.tally.examples.append(f"{key} turn {self.game.state.turn}: {step}")
            return False
        return True


# -- the policy -------------------------------------------------------------------------------


def _neighbours(code: int) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    r = code & 15
    base = code - r
    partners = tuple(b + r for b in (0, 16, 32, 48) if b != base)
    near = [r - 1, r + 1] + ([13] if r == 1 else [])
    far = [r - 2, r + 2] + ([12] if r == 1 else [])
    return (
        partners,
        tuple(base + x for x in near if 1 <= x <= 13),
        tuple(base + x for x in far if 1 <= x <= 13),
    )


NEIGHBOURS = {c: _neighbours(c) for c in set(CODE)}
VALUE = {c: 25 if c & 15 == 1 else 10 if c & 15 >= 10 else 5 for c in set(CODE)}


def least_useful(rack: tuple[int, ...], table: Table, keep: set[int]) -> list[int]:
    """The rack's ids, the best discard first: tiles outside the planned melds with
    the fewest partners (same rank, neighbours of the same colour), highest value first;
    free jokers last."""
    cnt = [0] * 64
    codes: list[tuple[int, int]] = []
    scored: list[tuple[int, int, int]] = []
    for i in rack:
        if i < 104:
            c = CODE[i]
        else:
            fixed = _code_of_fixed(table, i)
            if fixed is None:
                scored.append((1000, 0, i))
                continue
            c = fixed
        codes.append((i, c))
        cnt[c] += 1
    for i, c in codes:
        partners, near, far = NEIGHBOURS[c]
        u = 20 if i in keep else 0
        for x in partners:
            if cnt[x]:
                u += 3
        for x in near:
            if cnt[x]:
                u += 3
        for x in far:
            if cnt[x]:
                u += 1
        if cnt[c] > 1:
            u -= 2
        scored.append((u, -VALUE[c], i))
    scored.sort()
    return [i for _, _, i in scored]


class Policy:
    """The fast melding policy of one round."""

    def __init__(self, driver: Driver, rng: random.Random, tally: Tally) -> None:
        self.d = driver
        self.game = driver.game
        self.rng = rng
        self.tally = tally
        self.rules = driver.game.state.rules
        self.accepts_cache: dict[int, tuple[TableMeld, list[tuple[int, End]]]] = {}
        """What each table meld accepts, by the meld's identity (melds are immutable)."""
        self.memo: dict[int, tuple[Rack, set[int]]] = {}
        """Per seat: the rack after a turn whose search found no opening (unopened) or
        that leaves no meld (opened), and the tiles to keep."""

    # -- helpers ------------------------------------------------------------------------------

    def undo_all(self) -> None:
        game = self.game
        while game.can(Undo()):
            game.apply(Undo())
            self.tally.kinds["undo"] += 1

    def discard(self, keep: set[int] | None = None) -> None:
        """End the turn with the least useful tile (trying the next on a refusal)."""
        game = self.game
        state = game.state
        seat = state.current
        rack = state.seats[seat].rack
        order = least_useful(rack, state.table, keep or set())
        for tile in order:
            if self.d.try_do(Discard(tile)):
                self.after_discard(seat)
                return
            if game.state is not state:  # pragma: no cover - a refusal changes nothing
                return
        # nothing could be discarded: undo the turn's steps and try again plainly
        self.undo_all()
        if game.state.phase is Phase.TAKE:
            self.take_fallback()
            if game.over or game.state.phase is Phase.TAKE:
                return
        rack = game.state.seats[seat].rack
        for tile in least_useful(rack, game.state.table, set()):
            if self.d.try_do(Discard(tile)):
                self.after_discard(seat)
                return
        self.legal_fallback()

    def after_discard(self, seat: int) -> None:
        state = self.game.state
        if state.over:
            return
        s = state.seats[seat]
        if len(s.rack) <= self.rules.announce_threshold and not s.announced_few:
            self.d.try_do(AnnounceFewTiles(seat))

    def take_fallback(self) -> None:
        """A plain take: draw if the stock allows, else whatever the engine allows."""
        state = self.game.state
        can_draw = bool(state.stock) or (
            self.rules.stock_exhausted is StockExhausted.RESHUFFLE_DISCARDS and len(state.row) >= 2
        )
        if can_draw and self.d.try_do(Draw()):
            return
        self.legal_fallback()

    def legal_fallback(self) -> None:
        """The last resort: ask the engine for its legal steps and play the turn out
        greedily; a round that still cannot go on is abandoned (``stuck``)."""
        game = self.game
        self.tally.legal_fallbacks += 1
        seat = game.state.current
        for _ in range(40):
            if game.over or game.state.current != seat:
                return
            steps = game.legal_steps()
            ends = [s for s in steps if isinstance(s, Discard | Close)]
            if ends:
                rack = game.state.seats[seat].rack
                order = least_useful(rack, game.state.table, set())
                ends.sort(key=lambda s: order.index(s.tile) if s.tile in order else 0)
                self.d.do(ends[0])
                self.after_discard(seat)
                return
            progress = [
                s
                for s in steps
                if isinstance(s, Draw | TakeLastDiscard | Rupere | TakeAtu | MeldTiles | LayOff)
            ]
            if not progress:
                break
            if not self.d.try_do(progress[0]):
                self.tally.kinds["legal_step_refused"] += 1
                break
        raise _Stuck(f"seat {seat} turn {game.state.turn}")

    # -- a turn -------------------------------------------------------------------------------

    def play_turn(self) -> None:
        game = self.game
        state = game.state
        rules = self.rules
        seat = state.current
        me = state.seats[seat]
        turn = state.pending
        assert turn is not None
        if not me.announced_atu and not me.has_taken and (state.atu ^ 1) in me.rack:
            self.d.try_do(AnnounceAtu(seat), probe=True)
        if (
            rules.pe_tabla_enabled
            and not me.declared_pe_tabla
            and not me.opened
            and turn.took is None
            and turn.steps == 0
            and state.turn <= state.players + 1
        ):
            self.maybe_declare(seat)
        state = game.state
        me = state.seats[seat]
        if turn.number == 1 and turn.took is None:  # the starter's first turn (TURN-01)
            self.discard(self.keep_of(me.rack))
            return
        plan = self.take(state, me)
        if game.over or game.state.current != seat:
            return
        state = game.state
        if state.phase is Phase.TAKE:
            return
        me = state.seats[seat]
        if me.declared_pe_tabla and rules.pe_tabla_enabled and not me.opened:
            self.act_pe_tabla(plan)
        elif not state.pending or not state.pending.opened_before:
            self.act_unopened(plan)
        else:
            self.act_opened(plan)

    def keep_of(self, rack: tuple[int, ...]) -> set[int]:
        r = Rack(rack, self.game.state.table)
        _melds, keep = plan_melds(r, self.rules, cap=len(rack), mode=MAX)
        return keep

    def maybe_declare(self, seat: int) -> None:
        """CLOSE-06: declare pe tablă with a strong hand, now and then."""
        if self.rng.random() >= 0.5:
            return
        state = self.game.state
        rack = state.seats[seat].rack
        r = Rack(rack, state.table)
        cands = candidates(r.cnt, len(r.jokers), self.rules)
        if uncoverable(cands, r.cnt) > 5:
            return
        search = Search(cands, r.cnt, len(r.jokers), len(rack), self.rules, OPEN)
        best = search.best
        if best is not None and len(rack) - best[0][0] <= 5:
            self.d.try_do(DeclarePeTabla(seat))

    # -- the take -----------------------------------------------------------------------------

    def take(self, state: GameState, me: Any) -> list[tuple[int, ...]] | None:
        """Choose and apply the take; return the melds planned with a taken row tile."""
        rules = self.rules
        rack: tuple[int, ...] = me.rack
        n = len(rack)
        row = state.row
        first_turn = me.turns == 1 and rules.first_turn_no_meld
        declared = me.declared_pe_tabla and rules.pe_tabla_enabled
        can_draw = bool(state.stock) or (
            rules.stock_exhausted is StockExhausted.RESHUFFLE_DISCARDS and len(row) >= 2
        )
        options: list[tuple[Step, int]] = []
        if row and not first_turn and n >= rules.take_last_discard_min_rack:
            options.append((TakeLastDiscard(), len(row) - 1))
        if (
            row
            and not first_turn
            and not declared
            and rules.rupere_anywhere
            and (me.opened or not rules.rupere_anywhere_requires_opened)
            and n >= rules.rupere_anywhere_min_rack
        ):
            lo = 1 if state.row_dead_first and rules.first_discard_dead else 0
            depth = len(row) if not can_draw else RUPERE_DEPTH
            for index in range(len(row) - 2, max(lo, len(row) - depth) - 1, -1):
                options.append((Rupere(index), index))
        table = state.table
        if options:
            r = Rack(rack, table)
            for step, index in options:
                picked = row[index]
                if picked >= 104:
                    continue
                if not local_fit(CODE[picked], r.cnt, len(r.jokers), rules):
                    continue
                plan = self.plan_take(rack, row[index:], picked, me, table)
                if plan is None:
                    continue
                if self.d.try_do(step):
                    return plan
                break
        if (
            state.atu_face_up
            and rules.atu_face_up_takeable is AtuFaceUpTakeable.CLOSING_TURN_ONLY
            and me.opened
            and not first_turn
            and n <= 6
            and state.atu < 104
        ):
            r = Rack(rack, table)
            if local_fit(CODE[state.atu], r.cnt, len(r.jokers), rules):
                after = Rack((*rack, state.atu), table)
                plan, _ = plan_melds(after, rules, cap=n, mode=EXACT, picked=state.atu, own=rack)
                if plan is not None and self.d.try_do(TakeAtu()):
                    self.tally.kinds["take_atu_planned"] += 1
                    return plan
        self.take_fallback()
        return None

    def plan_take(
        self,
        rack: tuple[int, ...],
        taken: tuple[int, ...],
        picked: int,
        me: Any,
        table: Table,
    ) -> list[tuple[int, ...]] | None:
        rules = self.rules
        after = Rack((*rack, *taken), table)
        n = len(after.ids)
        if me.declared_pe_tabla and rules.pe_tabla_enabled:
            mode = EXACT_OPEN if rules.pe_tabla_opening_rules_apply else EXACT
            plan, _ = plan_melds(after, rules, cap=n - 1, mode=mode, picked=picked, own=rack)
            return plan
        if not me.opened:
            plan, _ = plan_melds(after, rules, cap=n - 2, mode=OPEN, picked=picked, own=rack)
            if plan is not None and not _check_plan_opening(plan, table, rules):
                self.tally.kinds["plan_opening_mismatch"] += 1
                return None
            return plan
        plan, _ = plan_melds(after, rules, cap=n - 1, mode=MAX, picked=picked, own=rack)
        return plan

    # -- the action phase ---------------------------------------------------------------------

    def meld_all(self, melds: list[tuple[int, ...]]) -> bool:
        for meld in melds:
            if not self.d.try_do(MeldTiles(meld)):
                self.undo_all()
                if self.game.state.phase is Phase.TAKE:
                    self.take_fallback()
                return False
        return True

    def act_pe_tabla(self, plan: list[tuple[int, ...]] | None) -> None:
        game = self.game
        rules = self.rules
        state = game.state
        seat = state.current
        me = state.seats[seat]
        rack = me.rack
        if me.turns == 1 and rules.first_turn_no_meld:
            self.discard(self.keep_of(rack))
            return
        r = Rack(rack, state.table)
        keep: set[int] = set()
        if plan is None:
            mode = EXACT_OPEN if rules.pe_tabla_opening_rules_apply else EXACT
            plan, keep = plan_melds(r, rules, cap=len(rack) - 1, mode=mode)
            if plan is not None and (
                rules.pe_tabla_opening_rules_apply
                and not _check_plan_opening(plan, state.table, rules)
            ):
                self.tally.kinds["plan_opening_mismatch"] += 1
                plan = None
            if not keep:
                keep = self.keep_of(rack)
        if plan is not None:
            self.tally.kinds["pe_tabla_attempt"] += 1
            if not self.meld_all(plan):
                self.discard()
                return
            left = game.state.seats[seat].rack
            if len(left) == 1 and self.d.try_do(Close(left[0])):
                return
            self.undo_all()
            if game.state.phase is Phase.TAKE:
                self.take_fallback()
        self.discard(keep)

    def act_unopened(self, plan: list[tuple[int, ...]] | None) -> None:
        game = self.game
        rules = self.rules
        state = game.state
        seat = state.current
        me = state.seats[seat]
        rack = me.rack
        keep: set[int] = set()
        searched = False
        if plan is None:
            # The last turn found no opening in a rack that held all of this one but
            # the drawn tile: if that tile makes no meld, there is still none.
            memo = self.memo.pop(seat, None)
            turn = state.pending
            assert turn is not None
            if (
                memo is not None
                and turn.took == "draw"
                and rack[:-1] == memo[0].ids
                and rack[-1] < 104
                and not local_fit(CODE[rack[-1]], memo[0].cnt, len(memo[0].jokers), rules)
            ):
                keep = memo[1]
                searched = True
                self.tally.kinds["search_skipped"] += 1
            else:
                r = Rack(rack, state.table)
                plan, keep = plan_melds(r, rules, cap=len(rack) - 2, mode=OPEN)
                searched = True
                if plan is not None and not _check_plan_opening(plan, state.table, rules):
                    self.tally.kinds["plan_opening_mismatch"] += 1
                    plan = None
                if plan is not None and me.turns == 1 and rules.first_turn_no_meld:
                    plan = None  # TURN-04: no meld in the first turn
                    searched = False
        if plan is not None:
            if not self.meld_all(plan):
                self.discard()
                return
            keep = set()
        self.discard(keep)
        if searched and plan is None and not game.over:
            left = game.state.seats[seat].rack
            if len(left) == len(rack) - 1 and set(left) <= set(rack):
                self.memo[seat] = (Rack(left, game.state.table), keep)

    def act_opened(self, plan: list[tuple[int, ...]] | None) -> None:
        game = self.game
        rules = self.rules
        seat = game.state.current
        memo = self.memo.pop(seat, None)
        no_meld_left = False
        if plan is None:
            swapped = self.swaps()
            state = game.state
            rack = state.seats[seat].rack
            turn = state.pending
            assert turn is not None
            if (
                not swapped
                and memo is not None
                and turn.took == "draw"
                and rack[:-1] == memo[0].ids
                and rack[-1] < 104
                and not local_fit(CODE[rack[-1]], memo[0].cnt, len(memo[0].jokers), rules)
            ):
                # the rack made no meld last turn and the drawn tile makes none
                self.tally.kinds["search_skipped"] += 1
                no_meld_left = True
            else:
                r = Rack(rack, state.table)
                must_use = swapped and rules.swapped_joker_use is SwappedJokerUse.SAME_TURN_NEW_MELD
                free = [j for j in swapped if j in r.jokers]  # online: a swapped joker is fixed
                order = [*free, *(j for j in r.jokers if j not in free)] if free else None
                plan, _ = plan_melds(r, rules, cap=len(rack) - 1, mode=MAX, joker_first=order)
                if must_use and not any(j in m for m in (plan or ()) for j in swapped):
                    plan = plan_with_joker(r, rules, len(rack) - 1, order)
                if must_use and not all(
                    any(j in m for m in (plan or ())) for j in swapped if j in r.jokers
                ):
                    # JOLY-04 (same_turn_new_meld): the swap cannot stand; take it back
                    self.tally.kinds["swap_undone"] += 1
                    self.undo_all()
                    state = game.state
                    rack = state.seats[seat].rack
                    r = Rack(rack, state.table)
                    plan, _ = plan_melds(r, rules, cap=len(rack) - 1, mode=MAX)
                # A most-tiles collection leaving 4 tiles or more leaves no meld behind.
                no_meld_left = len(rack) - sum(len(m) for m in plan or ()) >= 4
        if plan and not self.meld_all(plan):
            self.discard()
            return
        self.lay_offs()
        state = game.state
        rack = state.seats[seat].rack
        if len(rack) == 1:
            if self.d.try_do(Close(rack[0])):
                return
        elif len(rack) == 2 and any(i in JOKERS for i in rack) and self.joker_lay_off(rack):
            rack = game.state.seats[seat].rack
            if len(rack) == 1 and self.d.try_do(Close(rack[0])):
                return
        self.discard()
        if no_meld_left and not game.over:
            left = game.state.seats[seat].rack
            if len(left) == len(rack) - 1 and set(left) <= set(rack):
                self.memo[seat] = (Rack(left, game.state.table), set())

    def swaps(self) -> list[int]:
        """JOLY-01: put an exact tile in a table joker's place; the jokers taken."""
        game = self.game
        rules = self.rules
        state = game.state
        turn = state.pending
        assert turn is not None
        if not (turn.opened_before or rules.swap_in_opening_turn):
            return []
        table = state.table
        if all((h.fixed_as is not None or h.swaps >= rules.joker_swap_limit) for h in table.jokers):
            return []
        out: list[int] = []
        for index, meld in enumerate(table.melds):
            if 104 not in meld.ids and 105 not in meld.ids:
                continue
            for slot in meld.meld.jokers:
                want = slot.tile
                if want is None or want.is_joker:
                    continue
                joker = meld.ids[slot.position]
                if joker not in JOKERS:
                    continue
                hist = game.state.table.jokers[joker - 104]
                if hist.fixed_as is not None or hist.swaps >= rules.joker_swap_limit:
                    continue
                assert want.rank is not None and want.color is not None
                code = want.color.index * 16 + want.rank
                rack = game.state.seats[game.state.current].rack
                mine = [i for i in rack if i < 104 and CODE[i] == code]
                if mine and self.d.try_do(SwapJoker(mine[0], index, joker)):
                    out.append(joker)
        return out

    def lay_offs(self) -> None:
        """Lay off every rack tile that fits a table meld (repeat while it helps),
        keeping one tile on the rack; jokers are kept for later."""
        game = self.game
        rules = self.rules
        seat = game.state.current
        changed = True
        while changed:
            changed = False
            state = game.state
            rack = state.seats[seat].rack
            if len(rack) <= 1:
                return
            table = state.table
            spots: dict[int, list[tuple[int, End]]] = {}
            cache = self.accepts_cache
            for index, meld in enumerate(table.melds):
                got = cache.get(id(meld))
                if got is None or got[0] is not meld:
                    got = (meld, accepts(meld, rules))
                    cache[id(meld)] = got
                for code, end in got[1]:
                    spots.setdefault(code, []).append((index, end))
            for tile in rack:
                fixed = _code_of_fixed(table, tile) if tile >= 104 else CODE[tile]
                if fixed is None:
                    continue
                code = fixed
                for index, end in spots.get(code, ()):
                    if self.d.try_do(LayOff(tile, index, end), probe=True):
                        changed = True
                        break
                if changed:
                    break

    def joker_lay_off(self, rack: tuple[int, ...]) -> bool:
        game = self.game
        table = game.state.table
        for joker in (i for i in rack if i in JOKERS):
            if _code_of_fixed(table, joker) is not None:
                continue
            for index, meld in enumerate(table.melds):
                end = joker_end(meld, self.rules)
                if end is not None and self.d.try_do(LayOff(joker, index, end), probe=True):
                    return True
        return False


class _Stuck(Exception):
    pass


# -- rounds and passes --------------------------------------------------------------------------


def play_round(
    rules: Ruleset, seed: int, tally: Tally, *, checked: bool, replay: bool, audit: bool = False
) -> None:
    t0 = _clock()
    game = Game.new(rules, PLAYERS, seed=seed)
    tally.engine_s += _clock() - t0
    driver = Driver(game, tally, checked, audit=audit)
    policy = Policy(driver, random.Random(seed * 7919 + 17), tally)
    if checked:
        problems = check_state(game.state)
        if problems:
            tally.breaches += len(problems)
            tally.breach_examples.append(f"after the deal: {problems[0]}")
    tally.rounds += 1
    guard = 4 * (rules.max_turns_per_round or 400) + 100
    try:
        while not game.over:
            guard -= 1
            if guard < 0:
                raise _Stuck("no progress")
            policy.play_turn()
    except _Stuck as err:
        tally.stuck += 1
        tally.ends["stuck"] += 1
        if len(tally.examples) < 8:
            tally.examples.append(f"stuck seed {seed}: {err}")
        return
    end = game.state.end
    assert end is not None
    tally.ends[str(end.reason)] += 1
    if checked:
        try:
            game.result()
        except Exception as err:  # a scoring failure is an engine bug to report
            tally.scoring_errors += 1
            if len(tally.examples) < 8:
                tally.examples.append(f"scoring seed {seed}: {type(err).__name__}: {err}")
        if replay:
            tally.replays += 1
            try:
                again = Game.replay(game.record())
                same = again.state == game.state
            except Exception as err:
                same = False
                if len(tally.examples) < 8:
                    tally.examples.append(f"replay seed {seed}: {type(err).__name__}: {err}")
            if not same:
                tally.replay_mismatches += 1


def run_pass(
    rules: Ruleset, seeds: range, *, checked: bool, replay_every: int = 0
) -> tuple[Tally, float, float]:
    """Play the rounds of ``seeds``; return the tally, the CPU and the wall seconds."""
    tally = Tally()
    w0, c0 = time.perf_counter(), _cpu()
    for k, seed in enumerate(seeds):
        sample = checked and replay_every > 0 and k % replay_every == 0
        play_round(rules, seed, tally, checked=checked, replay=sample, audit=sample)
    return tally, _cpu() - c0, time.perf_counter() - w0


ENGINE_PARTS = (
    "remi_rules/engine/",
    "remi_rules/rupere.py",
    "remi_rules/lipire.py",
    "remi_rules/joly.py",
    "remi_rules/opening.py",
    "remi_rules/closing.py",
    "remi_rules/table.py",
    "remi_rules/melds.py",
)


def profile(presets: list[str], rounds: int, seed: int, top: int = 20) -> dict[str, Any]:
    """cProfile over ``rounds`` unchecked rounds per preset: the engine and turn-rule
    functions by cumulative time, and the policy's own share."""
    prof = cProfile.Profile()
    prof.enable()
    for preset in presets:
        run_pass(variants.get(preset), range(seed, seed + rounds), checked=False)
    prof.disable()
    st = pstats.Stats(prof)
    raw: dict[tuple[str, int, str], tuple[int, int, float, float, object]] = st.stats  # type: ignore[attr-defined]
    total = st.total_tt  # type: ignore[attr-defined]
    rows = []
    policy_tt = 0.0
    attrs_tt = 0.0
    for (path, line, name), (_cc, nc, tt, ct, _callers) in raw.items():
        p = path.replace("\\", "/")
        if p.endswith("bench_engine.py"):
            policy_tt += tt
        if "/attr/" in p:
            attrs_tt += tt
        part = next((x for x in ENGINE_PARTS if x in p), None)
        if part is None:
            continue
        short = p[p.index("remi_rules/") + len("remi_rules/") :]
        rows.append((ct, tt, nc, f"{short}:{line}({name})"))
    rows.sort(reverse=True)
    return {
        "rounds_per_preset": rounds,
        "total_s": round(total, 3),
        "policy_self_share": round(policy_tt / total, 3) if total else 0.0,
        "attrs_self_share": round(attrs_tt / total, 3) if total else 0.0,
        "top_cumulative": [
            {
                "function": f,
                "cum_share": round(ct / total, 3),
                "self_share": round(tt / total, 3),
                "calls": nc,
            }
            for ct, tt, nc, f in rows[:top]
        ],
    }


def run(
    rounds: int,
    seed: int,
    presets: list[str],
    *,
    profile_rounds: int,
    replay_every: int,
    out: Callable[[str], None] = print,
) -> dict[str, Any]:
    per: dict[str, Any] = {}
    rates: dict[str, float] = {}
    for preset in presets:
        rules = variants.get(preset)
        seeds = range(seed, seed + rounds)
        checked, t_checked, _ = run_pass(rules, seeds, checked=True, replay_every=replay_every)
        timed, t_timed, w_timed = run_pass(rules, seeds, checked=False)
        rate = rounds / t_timed if t_timed else 0.0
        rates[preset] = rate
        share = timed.engine_s / w_timed if w_timed else 0.0  # the engine's part of the time
        na = {k for k, f in NOT_APPLICABLE.items() if f(rules)}
        kinds = dict(sorted(checked.kinds.items()))
        missing = [k for k in REQUIRED_KINDS if k not in na and not checked.kinds[k]]
        per[preset] = {
            "rounds_per_s": round(rate, 1),
            "rounds_per_wall_s": round(rounds / w_timed, 1) if w_timed else 0.0,
            "engine_only_rounds_per_s": (
                round(rounds / (t_timed * share), 1) if t_timed and share else 0.0
            ),
            "engine_share": round(share, 3),
            "steps_per_s": round(timed.steps / t_timed, 1) if t_timed else 0.0,
            "us_per_step": round(1e6 * t_timed / timed.steps, 2) if timed.steps else 0.0,
            "engine_us_per_step": (
                round(1e6 * t_timed * share / timed.steps, 2) if timed.steps else 0.0
            ),
            "turns_per_round": round(checked.turns / rounds, 2),
            "steps_per_round": round(checked.steps / rounds, 2),
            "checked_pass_s": round(t_checked, 2),
            "timed_pass_s": round(t_timed, 2),
            "end_reasons": dict(sorted(checked.ends.items())),
            "capped_rounds": checked.ends[str(EndReason.MAX_TURNS)],
            "invariant_breaches": checked.breaches,
            "breach_examples": checked.breach_examples,
            "step_kind_counts": kinds,
            "not_applicable": sorted(na),
            "coverage_missing": missing,
            "policy_refusals": sum(checked.refusals.values()),
            "refusals_by_code": dict(sorted(checked.refusals.items())),
            "probe_refusals_by_code": dict(sorted(checked.probe_refusals.items())),
            "legal_steps_fallbacks": checked.legal_fallbacks,
            "stuck_rounds": checked.stuck,
            "scoring_errors": checked.scoring_errors,
            "replays": checked.replays,
            "replay_mismatches": checked.replay_mismatches,
            "determinism_ok": timed.steps == checked.steps and timed.ends == checked.ends,
            "audited_steps": checked.audited_steps,
            "legal_steps_disagreements": checked.disagreements,
            "disagreement_examples": checked.disagreement_examples,
            "examples": checked.examples,
        }
        report(preset, per[preset], out)
    prof = profile(presets, profile_rounds, seed) if profile_rounds > 0 else None
    if prof is not None:
        out("")
        out(
            f"cProfile, {profile_rounds} rounds per preset ({prof['total_s']} s): policy "
            f"self time {prof['policy_self_share']:.1%}, attrs {prof['attrs_self_share']:.1%}"
        )
        out("  cum%   self%     calls  function (engine and turn rules, by cumulative time)")
        for row in prof["top_cumulative"]:
            out(
                f"  {row['cum_share']:5.1%}  {row['self_share']:5.1%}  {row['calls']:8d}  "
                f"{row['function']}"
            )
    totals: Counter[str] = Counter()
    ends: dict[str, dict[str, int]] = {}
    for preset in presets:
        totals.update(per[preset]["step_kind_counts"])
        ends[preset] = per[preset]["end_reasons"]
    missing_all = [k for k in REQUIRED_KINDS if not totals[k]]
    return {
        "benchmark": "engine",
        "python": platform.python_version(),
        "rounds_per_preset": rounds,
        "seed": seed,
        "players": PLAYERS,
        "timing": (
            "CPU seconds (time.process_time, one process, one core) of a pass without "
            "checks over the same seeds as the checked pass"
        ),
        "rounds_per_s_min": round(min(rates.values()), 1) if rates else 0.0,
        "rounds_per_s": {p: round(v, 1) for p, v in rates.items()},
        "target_rounds_per_s": TARGET_ROUNDS_PER_S,
        "invariant_breaches": sum(per[p]["invariant_breaches"] for p in presets),
        "capped_rounds": sum(per[p]["capped_rounds"] for p in presets),
        "end_reasons": ends,
        "step_kind_counts": {p: per[p]["step_kind_counts"] for p in presets},
        "step_kind_totals": dict(sorted(totals.items())),
        "coverage_missing": {p: per[p]["coverage_missing"] for p in presets},
        "coverage_missing_all_presets": missing_all,
        "policy_refusals": sum(per[p]["policy_refusals"] for p in presets),
        "refusals_by_code": {p: per[p]["refusals_by_code"] for p in presets},
        "legal_steps_fallbacks": sum(per[p]["legal_steps_fallbacks"] for p in presets),
        "stuck_rounds": sum(per[p]["stuck_rounds"] for p in presets),
        "scoring_errors": sum(per[p]["scoring_errors"] for p in presets),
        "replay_mismatches": sum(per[p]["replay_mismatches"] for p in presets),
        "determinism_ok": all(per[p]["determinism_ok"] for p in presets),
        "legal_steps_disagreements": sum(per[p]["legal_steps_disagreements"] for p in presets),
        "engine_only_rounds_per_s": {p: per[p]["engine_only_rounds_per_s"] for p in presets},
        "presets": {p: {k: v for k, v in per[p].items() if k not in _LIFTED} for p in presets},
        "profile": prof,
    }


_LIFTED = frozenset({"step_kind_counts", "end_reasons", "coverage_missing", "refusals_by_code"})
"""Per-preset entries the JSON gives at its top level, by preset (not repeated)."""


def report(preset: str, r: dict[str, Any], out: Callable[[str], None]) -> None:
    out(f"== {preset}")
    out(
        f"  {r['rounds_per_s']} rounds/s CPU ({r['rounds_per_wall_s']} wall), "
        f"{r['us_per_step']} us/step of which the engine {r['engine_us_per_step']} us "
        f"({r['engine_share']:.0%}; engine alone: {r['engine_only_rounds_per_s']} rounds/s)"
    )
    out(
        f"  {r['turns_per_round']} turns and {r['steps_per_round']} steps per round; "
        f"checked pass {r['checked_pass_s']} s, timed pass {r['timed_pass_s']} s CPU"
    )
    out(f"  end reasons: {r['end_reasons']}")
    out(
        f"  invariant breaches: {r['invariant_breaches']}, stuck: {r['stuck_rounds']}, "
        f"scoring errors: {r['scoring_errors']}, replay mismatches: "
        f"{r['replay_mismatches']}/{r['replays']}, deterministic: {r['determinism_ok']}, "
        f"legal_steps disagreements: {r['legal_steps_disagreements']}/{r['audited_steps']}"
    )
    for ex in r["breach_examples"]:
        out(f"    breach: {ex}")
    for ex in r["disagreement_examples"]:
        out(f"    legal_steps: {ex}")
    out(f"  step kinds: {r['step_kind_counts']}")
    if r["coverage_missing"]:
        out(f"  MISSING step kinds: {r['coverage_missing']}")
    out(
        f"  policy refusals: {r['policy_refusals']} {r['refusals_by_code']}; "
        f"lay-off/announce probes refused: {r['probe_refusals_by_code']}; "
        f"legal_steps fallbacks: {r['legal_steps_fallbacks']}"
    )
    for ex in r["examples"]:
        out(f"    e.g. {ex}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=None, help="rounds per preset")
    parser.add_argument("--quick", action="store_true", help="a small run (200 rounds)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--presets", default=",".join(PRESETS))
    parser.add_argument("--profile-rounds", type=int, default=None)
    parser.add_argument("--replay-every", type=int, default=100)
    args = parser.parse_args(argv)
    rounds = args.rounds if args.rounds is not None else (200 if args.quick else 10_000)
    profile_rounds = (
        args.profile_rounds
        if args.profile_rounds is not None
        else min(rounds, 50 if args.quick else 300)
    )
    presets = [p for p in args.presets.split(",") if p]
    for p in presets:
        variants.get(p)
    result = run(
        rounds, args.seed, presets, profile_rounds=profile_rounds, replay_every=args.replay_every
    )
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
