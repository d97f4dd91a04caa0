"""The fast bot's turn after its take (:class:`~remi_rules.bots.FastBot`), played out
on a copy of the position with the engine's own transition.

:class:`Turn` is the play-out: a :class:`~remi_rules.engine.GameState` rebuilt from the
seat's view (:meth:`~remi_rules.engine.PlayerView.sample_state`) and the steps played
on it, each accepted by :func:`~remi_rules.engine.transition.apply_step` (a refusal is
counted and changes nothing; :meth:`Turn.back` drops steps, so a plan that fails
part-way costs no undo).  :class:`TurnPlayer` plays the rest of a turn on it: the
opening (or the melds, with joker swaps first), the lay-offs a cheap test on each
table meld's ends suggests, a close with the last tile, else the least useful discard.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence
from typing import Final

from ._fast_melds import (
    CODE,
    EXACT,
    EXACT_OPEN,
    JOKERS,
    MAX,
    OPEN,
    Melds,
    Rack,
    code_of_fixed,
    local_fit,
    plan_melds,
    plan_opening_ok,
    plan_with_joker,
)
from .engine import (
    Close,
    Discard,
    GameState,
    LayOff,
    MeldTiles,
    Step,
    SwapJoker,
    TakeKind,
    legal_steps,
)
from .engine.transition import NoChance, apply_step
from .errors import IllegalStepError
from .lipire import End
from .melds import MeldKind
from .ruleset import Ruleset, SwappedJokerUse
from .table import Table, TableMeld

__all__ = ["Key", "Mark", "Turn", "TurnPlayer", "accepts", "joker_end", "least_useful"]

_NO_CHANCE: Final = NoChance()

Key = tuple[int, int, tuple[int, ...]]
"""Where a planned step is due: the turn number, the turn's step count, the rack."""
Mark = tuple[GameState, int]
"""A point of a play-out to go back to: the state and the number of steps."""


class Turn:
    """A turn being played out on a copy of the position: the state so far and the
    steps that led there, each one accepted by the engine's transition."""

    __slots__ = ("keys", "seat", "state", "stats", "steps")

    def __init__(self, state: GameState, seat: int, stats: Counter[str]) -> None:
        self.state = state
        self.seat = seat
        self.stats = stats
        self.steps: list[Step] = []
        self.keys: list[Key] = []

    def key(self) -> Key:
        state = self.state
        pending = state.pending
        return (state.turn, pending.steps if pending is not None else 0, self.rack())

    def rack(self) -> tuple[int, ...]:
        return self.state.seats[self.seat].rack

    def do(self, step: Step) -> bool:
        """Play ``step`` if the engine accepts it; a refusal is counted and changes nothing."""
        try:
            new, _ = apply_step(self.state, step, _NO_CHANCE)
        except IllegalStepError as err:
            self.stats[f"probe_refused:{step.kind}:{err.code}"] += 1
            return False
        self.keys.append(self.key())
        self.state = new
        self.steps.append(step)
        return True

    def mark(self) -> Mark:
        return (self.state, len(self.steps))

    def back(self, mark: Mark) -> None:
        self.state, n = mark
        del self.steps[n:]
        del self.keys[n:]

    @property
    def ended(self) -> bool:
        return bool(self.steps) and isinstance(self.steps[-1], Discard | Close)


# -- lay-offs, swaps and the discard ----------------------------------------------------------


def accepts(meld: TableMeld, rules: Ruleset) -> list[tuple[int, End]]:
    """A cheap test: the tile codes that could be laid on table ``meld``, and where."""
    m = meld.meld
    n = len(meld.ids)
    if m.kind is MeldKind.TERTA:
        if n >= 4:
            return []
        taken = {CODE[i] >> 4 for i in meld.ids if i < 104}
        return [(16 * b + m.low, End.SET) for b in range(4) if b not in taken]
    if n >= 13 or m.color is None:
        return []
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


_NEIGHBOURS: Final = {c: _neighbours(c) for c in set(CODE)}
_VALUE: Final = {c: 25 if c & 15 == 1 else 10 if c & 15 >= 10 else 5 for c in set(CODE)}


def least_useful(rack: Sequence[int], table: Table, keep: Collection[int]) -> list[int]:
    """The rack's ids, the best discard first: tiles outside the planned melds
    (``keep``) with the fewest partners (same rank, neighbours of the same colour),
    the highest value first; free jokers last."""
    cnt = [0] * 64
    codes: list[tuple[int, int]] = []
    scored: list[tuple[int, int, int]] = []
    for i in rack:
        if i < 104:
            c = CODE[i]
        else:
            fixed = code_of_fixed(table, i)
            if fixed is None:
                scored.append((1000, 0, i))
                continue
            c = fixed
        codes.append((i, c))
        cnt[c] += 1
    for i, c in codes:
        partners, near, far = _NEIGHBOURS[c]
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
        scored.append((u, -_VALUE[c], i))
    scored.sort()
    return [i for _, _, i in scored]


class TurnPlayer:
    """Plays the rest of a turn on a :class:`Turn`, with what it remembers between
    turns: the rack of a turn whose search found nothing, the tables' lay-off spots."""

    def __init__(self, stats: Counter[str]) -> None:
        self.stats = stats
        self._memo: tuple[tuple[int, ...], Rack, frozenset[int], Ruleset] | None = None
        """The rack after a turn whose search found no opening (unopened) or left no
        meld (opened), the tiles it kept, the rules: a next rack that only adds a drawn
        tile fitting nothing needs no new search."""
        self._accepts: dict[int, tuple[TableMeld, list[tuple[int, End]]]] = {}

    def keep_of(self, rack: tuple[int, ...], table: Table, rules: Ruleset) -> set[int]:
        _melds, keep = plan_melds(Rack(rack, table), table, rules, cap=len(rack), mode=MAX)
        return keep

    # -- the take -------------------------------------------------------------------------

    def plan_take(
        self,
        rack: tuple[int, ...],
        taken: tuple[int, ...],
        picked: int,
        opened: bool,
        declared: bool,
        table: Table,
        rules: Ruleset,
    ) -> Melds | None:
        """The melds a take of ``taken`` (``picked`` first) allows: a pe-tablă close, an
        opening, or (opened) the most tiles placed; None when there are none."""
        after = Rack((*rack, *taken), table)
        n = len(after.ids)
        if declared:
            mode = EXACT_OPEN if rules.pe_tabla_opening_rules_apply else EXACT
            plan, _ = plan_melds(after, table, rules, cap=n - 1, mode=mode, picked=picked, own=rack)
            return plan
        if not opened:
            plan, _ = plan_melds(after, table, rules, cap=n - 2, mode=OPEN, picked=picked, own=rack)
            if plan is not None and not plan_opening_ok(plan, table, rules):
                self.stats["plan_opening_mismatch"] += 1
                return None
            return plan
        plan, _ = plan_melds(after, table, rules, cap=n - 1, mode=MAX, picked=picked, own=rack)
        return plan

    def _forced_plan(self, state: GameState, seat: int) -> Melds | None:
        """A turn planned afresh after a take from the row: the melds that place the
        taken tile, if it is still on the rack."""
        turn = state.pending
        me = state.seats[seat]
        ob = turn.obligation if turn is not None else None
        if ob is None or ob.picked not in me.rack or ob.picked >= 104:
            return None
        before = set(ob.rack_before_take)
        own = tuple(i for i in me.rack if i in before)
        rest = tuple(i for i in me.rack if i not in before and i != ob.picked)
        rules = state.rules
        declared = me.declared_pe_tabla and rules.pe_tabla_enabled
        return self.plan_take(
            own, (ob.picked, *rest), ob.picked, me.opened, declared, state.table, rules
        )

    # -- the rest of the turn --------------------------------------------------------------

    def act(self, turn: Turn, plan: Melds | None) -> None:
        """Play the turn out from after its take (or the starter's first turn)."""
        state = turn.state
        rules = state.rules
        me = state.seats[turn.seat]
        pending = state.pending
        assert pending is not None
        if pending.number == 1 and pending.took is None:  # the starter's first turn (TURN-01)
            self._discard(turn, self.keep_of(me.rack, state.table, rules), None)
            return
        if plan is None and pending.obligation is not None:
            plan = self._forced_plan(state, turn.seat)
        if me.declared_pe_tabla and rules.pe_tabla_enabled and not me.opened:
            self._act_pe_tabla(turn, plan)
        elif not pending.opened_before:
            self._act_unopened(turn, plan)
        else:
            self._act_opened(turn, plan)

    def _meld_all(self, turn: Turn, melds: Melds) -> bool:
        return all(turn.do(MeldTiles(meld)) for meld in melds)

    def _try_discard(self, turn: Turn, keep: Collection[int]) -> bool:
        order = least_useful(turn.rack(), turn.state.table, keep)
        return any(turn.do(Discard(tile)) for tile in order)

    def _discard(self, turn: Turn, keep: Collection[int], start: Mark | None) -> None:
        """End the turn with the least useful tile; if no discard is accepted, go back
        to ``start`` (the turn before its table steps) and discard from there; as a
        last resort, play the turn out from the legal steps."""
        if self._try_discard(turn, keep):
            return
        if start is not None and start[1] < len(turn.steps):
            self.stats["plan_dropped"] += 1
            turn.back(start)
            if self._try_discard(turn, set()):
                return
        self._play_out(turn)

    def _play_out(self, turn: Turn) -> None:
        """The last resort: the engine's legal steps, greedily (an end of the turn if
        there is one, else the first step that puts a tile down)."""
        self.stats["legal_steps_fallbacks"] += 1
        for _ in range(40):
            steps = legal_steps(turn.state)
            ends = [s for s in steps if isinstance(s, Discard | Close)]
            if ends:
                order = least_useful(turn.rack(), turn.state.table, ())
                ends.sort(key=lambda s: order.index(s.tile) if s.tile in order else 0)
                turn.do(ends[0])
                return
            progress = [s for s in steps if isinstance(s, MeldTiles | LayOff)]
            if not progress or not turn.do(progress[0]):
                return

    def _act_pe_tabla(self, turn: Turn, plan: Melds | None) -> None:
        state = turn.state
        rules = state.rules
        table = state.table
        rack = turn.rack()
        me = state.seats[turn.seat]
        if me.turns == 1 and rules.first_turn_no_meld:
            self._discard(turn, self.keep_of(rack, table, rules), None)
            return
        keep: set[int] = set()
        if plan is None:
            mode = EXACT_OPEN if rules.pe_tabla_opening_rules_apply else EXACT
            plan, keep = plan_melds(Rack(rack, table), table, rules, cap=len(rack) - 1, mode=mode)
            if (
                plan is not None
                and rules.pe_tabla_opening_rules_apply
                and not plan_opening_ok(plan, table, rules)
            ):
                self.stats["plan_opening_mismatch"] += 1
                plan = None
            if not keep:
                keep = self.keep_of(rack, table, rules)
        if plan is not None:
            self.stats["pe_tabla_attempt"] += 1
            start = turn.mark()
            if self._meld_all(turn, plan):
                left = turn.rack()
                if len(left) == 1 and turn.do(Close(left[0])):
                    return
            turn.back(start)
        self._discard(turn, keep, None)

    def _act_unopened(self, turn: Turn, plan: Melds | None) -> None:
        state = turn.state
        rules = state.rules
        table = state.table
        rack = turn.rack()
        me = state.seats[turn.seat]
        pending = state.pending
        assert pending is not None
        keep: Collection[int] = set()
        searched = False
        if plan is None:
            # The last turn found no opening in a rack that held all of this one but
            # the drawn tile: if that tile makes no meld, there is still none.
            memo, self._memo = self._memo, None
            if (
                memo is not None
                and memo[3] is rules
                and pending.took is TakeKind.DRAW
                and rack[:-1] == memo[0]
                and rack[-1] < 104
                and not local_fit(CODE[rack[-1]], memo[1].cnt, len(memo[1].jokers), rules)
            ):
                keep = memo[2]
                searched = True
                self.stats["search_skipped"] += 1
            else:
                plan, keep = plan_melds(
                    Rack(rack, table), table, rules, cap=len(rack) - 2, mode=OPEN
                )
                searched = True
                if plan is not None and not plan_opening_ok(plan, table, rules):
                    self.stats["plan_opening_mismatch"] += 1
                    plan = None
                if plan is not None and me.turns == 1 and rules.first_turn_no_meld:
                    plan = None  # TURN-04: no meld in the first turn
                    searched = False
        if plan is not None:
            start = turn.mark()
            if self._meld_all(turn, plan) and self._try_discard(turn, ()):
                return
            self.stats["plan_dropped"] += 1
            turn.back(start)
            keep = set()
        self._discard(turn, keep, None)
        if searched and plan is None and turn.ended:
            left = turn.rack()
            if len(left) == len(rack) - 1 and set(left) <= set(rack):
                self._memo = (left, Rack(left, turn.state.table), frozenset(keep), rules)

    def _act_opened(self, turn: Turn, plan: Melds | None) -> None:
        rules = turn.state.rules
        memo, self._memo = self._memo, None
        no_meld_left = False
        start = turn.mark()
        if plan is None:
            swapped = self._swaps(turn)
            state = turn.state
            rack = turn.rack()
            pending = state.pending
            assert pending is not None
            if (
                not swapped
                and memo is not None
                and memo[3] is rules
                and pending.took is TakeKind.DRAW
                and rack[:-1] == memo[0]
                and rack[-1] < 104
                and not local_fit(CODE[rack[-1]], memo[1].cnt, len(memo[1].jokers), rules)
            ):
                # the rack made no meld last turn and the drawn tile makes none
                self.stats["search_skipped"] += 1
                no_meld_left = True
            else:
                r = Rack(rack, state.table)
                must_use = bool(swapped) and (
                    rules.swapped_joker_use is SwappedJokerUse.SAME_TURN_NEW_MELD
                )
                free = [j for j in swapped if j in r.jokers]  # online: a swapped joker is fixed
                order = [*free, *(j for j in r.jokers if j not in free)] if free else None
                plan, _ = plan_melds(
                    r, state.table, rules, cap=len(rack) - 1, mode=MAX, joker_first=order
                )
                if must_use and not any(j in m for m in plan or () for j in swapped):
                    plan = plan_with_joker(r, rules, len(rack) - 1, order)
                if must_use and not all(
                    any(j in m for m in plan or ()) for j in swapped if j in r.jokers
                ):
                    # JOLY-04 (same_turn_new_meld): the swap cannot stand; do without it
                    self.stats["swap_dropped"] += 1
                    turn.back(start)
                    rack = turn.rack()
                    r = Rack(rack, turn.state.table)
                    plan, _ = plan_melds(r, turn.state.table, rules, cap=len(rack) - 1, mode=MAX)
                # A most-tiles collection leaving 4 tiles or more leaves no meld behind.
                no_meld_left = len(rack) - sum(len(m) for m in plan or ()) >= 4
        if plan and not self._meld_all(turn, plan):
            self.stats["plan_dropped"] += 1
            turn.back(start)
            self._discard(turn, set(), None)
            return
        self._lay_offs(turn)
        rack = turn.rack()
        if len(rack) == 1:
            if turn.do(Close(rack[0])):
                return
        elif len(rack) == 2 and any(i in JOKERS for i in rack) and self._joker_lay_off(turn):
            rack = turn.rack()
            if len(rack) == 1 and turn.do(Close(rack[0])):
                return
        self._discard(turn, set(), start)
        if no_meld_left and turn.ended:
            left = turn.rack()
            if len(left) == len(rack) - 1 and set(left) <= set(rack):
                self._memo = (left, Rack(left, turn.state.table), frozenset(), rules)

    def _swaps(self, turn: Turn) -> list[int]:
        """JOLY-01: put an exact tile in a table joker's place; the jokers taken."""
        state = turn.state
        rules = state.rules
        pending = state.pending
        assert pending is not None
        if not (pending.opened_before or rules.swap_in_opening_turn):
            return []
        limit = rules.joker_swap_limit
        if all(h.fixed_as is not None or h.swaps >= limit for h in state.table.jokers):
            return []
        out: list[int] = []
        for index in range(len(state.table.melds)):
            meld = turn.state.table.melds[index]
            if 104 not in meld.ids and 105 not in meld.ids:
                continue
            for slot in meld.meld.jokers:
                want = slot.tile
                if want is None or want.is_joker or want.rank is None or want.color is None:
                    continue
                joker = meld.ids[slot.position]
                if joker not in JOKERS:
                    continue
                hist = turn.state.table.jokers[joker - 104]
                if hist.fixed_as is not None or hist.swaps >= limit:
                    continue
                code = want.color.index * 16 + want.rank
                mine = [i for i in turn.rack() if i < 104 and CODE[i] == code]
                if mine and turn.do(SwapJoker(mine[0], index, joker)):
                    out.append(joker)
        return out

    def _spots(self, table: Table, rules: Ruleset) -> dict[int, list[tuple[int, End]]]:
        """Where each tile code might be laid off (a cheap test per meld, memoised by
        the meld's identity: table melds are immutable)."""
        cache = self._accepts
        if len(cache) > 512:
            cache.clear()
        spots: dict[int, list[tuple[int, End]]] = {}
        for index, meld in enumerate(table.melds):
            got = cache.get(id(meld))
            if got is None or got[0] is not meld:
                got = (meld, accepts(meld, rules))
                cache[id(meld)] = got
            for code, end in got[1]:
                spots.setdefault(code, []).append((index, end))
        return spots

    def _lay_offs(self, turn: Turn) -> None:
        """Lay off every rack tile that fits a table meld (again while it helps),
        keeping one tile on the rack; jokers are kept for later."""
        rules = turn.state.rules
        changed = True
        while changed:
            changed = False
            rack = turn.rack()
            if len(rack) <= 1:
                return
            table = turn.state.table
            spots = self._spots(table, rules)
            for tile in rack:
                code = code_of_fixed(table, tile) if tile >= 104 else CODE[tile]
                if code is None:
                    continue
                for index, end in spots.get(code, ()):
                    if turn.do(LayOff(tile, index, end)):
                        changed = True
                        break
                if changed:
                    break

    def _joker_lay_off(self, turn: Turn) -> bool:
        table = turn.state.table
        rules = turn.state.rules
        for joker in (i for i in turn.rack() if i in JOKERS):
            if code_of_fixed(table, joker) is not None:
                continue
            for index, meld in enumerate(table.melds):
                end = joker_end(meld, rules)
                if end is not None and turn.do(LayOff(joker, index, end)):
                    return True
        return False
