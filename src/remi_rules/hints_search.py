"""The hint's search (ONLINE-06): candidate turns built from the exact solver, played
out with the engine's own transition, the best one kept.

:class:`Planner` does the work of :func:`remi_rules.hints.hint` (docs/solver.md, "The
hint"):

* every take (the last discard, each rupere, the atu) and the draw, then the actions:
  the opening, or the melds with lay-offs, with and without joker swaps, the
  justifying meld of a take first, and each close the rack allows;
* each candidate is played out on a copy of the position with
  :func:`~remi_rules.engine.transition.apply_step`, so only legal turns survive, and
  valued by :func:`~remi_rules.hints_score.turn_score`;
* what cannot beat the best turn found so far is not played out (the bounds of
  :mod:`remi_rules.hints_score`), and what several candidates share (solver answers,
  lay-off refusals, discard orders) is computed once per hint call.

All solver calls go through :func:`search` (one place to switch the solver).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from typing import Final

import attrs

from . import partition
from .engine import (
    AnnounceAtu,
    AnnounceFewTiles,
    Close,
    Discard,
    Draw,
    GameState,
    LayOff,
    MeldTiles,
    Phase,
    PlayerView,
    Rupere,
    Step,
    SwapJoker,
    TakeAtu,
    TakeLastDiscard,
    Undo,
    score_state,
)
from .engine.transition import NoChance, apply_step
from .errors import IllegalStepError, LayoffErrorCode, RemiError
from .hints_explain import SHAPE, WHY, Note, NoteCode, TurnPlan, few_tiles_note, meld_text
from .hints_score import (
    OPENING_BONUS,
    RACK_WEIGHT,
    Keeper,
    extensions,
    might_justify,
    most_worth,
    never_placed,
    turn_score,
)
from .lipire import End, might_fit
from .melds import Meld, MeldKind
from .opening import min_rack_after_opening
from .ruleset import AtuBonusTrigger, Ruleset
from .rupere import justifying_melds, take_options
from .solver import opening_split
from .table import Table, TableMeld
from .tiles import JOKER_IDS, Tile
from .values import rack_value_end

__all__ = ["Planner", "search"]

_FIRST_JOKER: Final = JOKER_IDS[0]
_INF: Final = float("inf")
_JOKER: Final = partition.tile_of_field(partition.FREE_JOKER)

Split = tuple[int, tuple[partition.Candidate, ...]]
"""The solver's answer: ``(value, melds)``."""


def search(
    counts: Sequence[int],
    rules: Ruleset,
    *,
    tiles: bool = False,
    min_leftover: int = 0,
    layable: Mapping[int, int] | None = None,
    opening: Sequence[Meld] | None = None,
) -> Split | None:
    """Every question the hint asks the solver, in one place.

    The best split of the hand ``counts`` (the solver's 105 fields): most points
    (``points * 64 + tiles``), or with ``tiles`` most tiles placed; at least
    ``min_leftover`` tiles kept.  ``layable`` maps a field to the etalare worth of
    laying it off (a tile placed on its own for ``worth * 64 + 1``, or for 1 with
    ``tiles``).  ``opening`` (the melds already down this turn, possibly none) asks
    for the best first etalare instead (:func:`~remi_rules.solver.opening_split`).
    None when no split meets the constraints."""
    if opening is not None:
        return opening_split(list(counts), rules, min_leftover=min_leftover, melded=opening)
    extra = None
    if layable:
        fits = layable
        extra = (
            (lambda f: 1 if f in fits else 0)
            if tiles
            else (lambda f: fits.get(f, 0) * 64 + 1 if f in fits else 0)
        )
    constraints = partition.Constraints(min_leftover=min_leftover)
    return partition.solve(
        counts, rules, tiles_objective=tiles, constraints=constraints, extra=extra
    )


@attrs.define
class _Sim:
    """A candidate turn being played out on a copy of the position."""

    state: GameState
    steps: list[Step] = attrs.Factory(list)
    notes: list[Note] = attrs.Factory(list)
    points: int = 0

    def copy(self) -> _Sim:
        return _Sim(self.state, list(self.steps), list(self.notes), self.points)

    def rack(self, seat: int) -> tuple[int, ...]:
        return self.state.seats[seat].rack

    def apply(self, step: Step) -> bool:
        """Apply ``step`` if it is legal; keep the points it puts down."""
        return self.try_apply(step) is None

    def try_apply(self, step: Step) -> object | None:
        """:meth:`apply`, returning None when ``step`` applied, else the refusal's code."""
        try:
            new, _ = apply_step(self.state, step, NoChance())
        except IllegalStepError as err:
            return err.code
        if isinstance(step, MeldTiles):
            self.points += new.table.melds[-1].meld.points
        elif isinstance(step, LayOff):
            meld = new.table.melds[step.meld]
            self.points += meld.meld.tile_values[meld.position_of(step.tile)]
        self.state = new
        self.steps.append(step)
        return None


Scored = tuple[float, _Sim]

_SHAPE_CODES: Final = frozenset(
    {
        LayoffErrorCode.MELD_FULL,
        LayoffErrorCode.END_CLOSED,
        LayoffErrorCode.BAD_END,
        LayoffErrorCode.NOT_FITTING,
        LayoffErrorCode.JOKER_LIMIT,
        LayoffErrorCode.IS_SWAP,
    }
)
"""Lay-off refusals that depend only on the meld's tiles, the tile's value and the end
(not on the turn, the rack or the jokers' histories)."""


_Ranked = tuple[float, int, _Sim]
"""A take's best turn: its value, the take's place in the row's order, the turn."""


def _irrelevant(
    best: _Ranked | None, k: int, draw: Callable[[], float] | None
) -> Callable[[float], bool]:
    """Whether a turn worth at most some value after take ``k`` changes nothing: it
    cannot beat ``best`` (of equal turns the earlier take wins), or the draw
    (``draw()``: its value) is worth at least as much and wins."""

    def irrelevant(value: float) -> bool:
        if best is None:
            return False
        if value < best[0] or (value == best[0] and k > best[1]):
            return True
        return draw is not None and value <= draw()

    return irrelevant


class _Floor:
    """What :meth:`Planner._best` may leave out while it goes through candidates: a
    candidate whose bound cannot beat the best so far, or that ``outer`` (the
    caller's test) says cannot matter."""

    def __init__(self, outer: Callable[[float], bool] | None = None) -> None:
        self.best: Scored | None = None
        self.outer = outer

    def active(self) -> bool:
        """Whether some bound could be left out now."""
        return self.best is not None or (self.outer is not None and self.outer(-_INF))

    def __call__(self, bound: float) -> bool:
        best = self.best
        return (best is not None and bound <= best[0]) or (
            self.outer is not None and self.outer(bound)
        )


_never: Final = _Floor()
"""Outside :meth:`Planner._best`: nothing is left out."""


def _joker_codes(table: Table, meld: TableMeld) -> tuple[int, ...]:
    """The values of the jokers in ``meld`` (a joker întors is the tile it is fixed as)."""
    return tuple(table.tile(i)._code for i in meld.ids if i >= _FIRST_JOKER)


class Planner:
    """One hint call: the search from ``view`` (see the module docstring)."""

    def __init__(self, view: PlayerView, samples: int) -> None:
        self.view = view
        self.rules = view.rules
        self.seat = view.seat
        self.samples = samples
        seed = (view.turn * 1_000_003 + view.seat * 7_919 + sum(view.rack)) & 0xFFFFFFFF
        self.rng = random.Random(seed)
        self.start = view.sample_state(random.Random(seed))
        self.opened_before = self.start.seats[self.seat].opened
        start = self.start
        turn = start.pending
        if turn is not None and turn.seat == self.seat:
            # The seat's own turn: what it cannot see is the stock and the other racks,
            # as the sample dealt them.
            self.hidden: Sequence[int] = (
                *start.stock,
                *(i for s, seat in enumerate(start.seats) if s != self.seat for i in seat.rack),
            )
        else:
            self.hidden = view.hidden_ids()
        unseen_at = [[0] * 4 for _ in range(14)]
        table = view.table
        for i in self.hidden:
            acting = table.tile(i).acts_as
            if acting is not None and acting.rank is not None and acting.color is not None:
                unseen_at[acting.rank][acting.color.index] += 1
        self.keeper = Keeper(self.rules, unseen_at)
        self._shape_refusals: set[tuple[int, tuple[int, ...], tuple[int, ...], End]] = set()
        """Lay-offs refused by the meld's shape alone (:data:`_SHAPE_CODES`)."""
        self._search_memo: dict[object, Split | None] = {}
        self._layable_memo: dict[object, Mapping[int, int] | None] = {}
        self._skip: _Floor = _never
        self._draw_cache: float | None = None

    # -- the turn as a whole ------------------------------------------------------------

    def plan(self) -> TurnPlan:
        state = self.start
        turn = state.pending
        assert turn is not None
        sim = _Sim(state)
        self._announce_atu(sim)
        if state.phase is Phase.TAKE:
            return self._plan_take(sim)
        if turn.took is None:  # the starter's first turn (TURN-01)
            sim.notes.append(Note(NoteCode.FIRST_TURN))
            end = self._discard(sim)
            best = self._best([end] if end is not None else [])
            if best is None:
                raise AssertionError("a starter's first discard is always legal")
            return self._finish(best, complete=True)
        best = self._best(self._action_candidates(sim))
        if best is None:
            undo = _Sim(state, notes=[Note(NoteCode.UNDO)])
            undo.steps.append(Undo())
            return self._finish((0.0, undo), complete=False)
        return self._finish(best, complete=True)

    def _finish(self, best: Scored, *, complete: bool) -> TurnPlan:
        score, sim = best
        state = sim.state
        closes = state.end is not None and state.end.closer == self.seat
        opens = not self.opened_before and state.seats[self.seat].opened
        return TurnPlan(
            seat=self.seat,
            steps=tuple(sim.steps),
            notes=tuple(sim.notes),
            complete=complete,
            closes=closes,
            opens=opens,
            points=sim.points,
            score=round(score, 3),
        )

    def _announce_atu(self, sim: _Sim) -> None:
        """ATU-02: announce the twin before one's first take (clasic), where it pays."""
        rules = self.rules
        if rules.atu_bonus_trigger is not AtuBonusTrigger.ANNOUNCE_AT_START:
            return
        state = sim.state
        me = state.seats[self.seat]
        if me.announced_atu or state.atu ^ 1 not in me.rack:
            return  # the engine refuses it (not held, or already announced)
        if sim.apply(AnnounceAtu(self.seat)):
            tile = sim.state.table.tile(sim.state.atu ^ 1)
            sim.notes.append(
                Note(NoteCode.ANNOUNCE_ATU, {"tile": str(tile), "bonus": rules.atu_bonus_points})
            )

    # -- the take -----------------------------------------------------------------------

    def _plan_take(self, sim: _Sim) -> TurnPlan:
        """The take (each one the rules allow, then the draw) with the best turn after
        it.  A take whose bound (:meth:`_bound`) cannot beat the best turn found so
        far, nor the draw's value, is not played out: the takes are tried from the
        highest bound, and of equal turns the earliest take in the row's order wins,
        as when every take is played out."""
        state = sim.state
        takes: list[Step] = [TakeLastDiscard()] if state.row else []
        takes += [Rupere(i) for i in range(len(state.row) - 1)]
        if state.atu_face_up:
            takes.append(TakeAtu())
        rack = [state.table.tile(i) for i in state.seats[self.seat].rack]
        positions = self._row_positions(state)
        legal: list[_Sim] = []
        for take in takes:
            if isinstance(take, TakeAtu):
                picked = state.atu
            else:
                index = take.index if isinstance(take, Rupere) else len(state.row) - 1
                if index not in positions or not self._could_meld(state, index):
                    continue
                picked = state.row[index]
            bridged = isinstance(take, Rupere)
            if not might_justify(state.table.tile(picked), rack, self.rules, bridged=bridged):
                continue
            taken = sim.copy()
            if not taken.apply(take):
                continue
            self._note_take(taken, take, state)
            legal.append(taken)
        drawn = sim.copy()
        can_draw = drawn.apply(Draw())
        prune = self._may_prune(state)
        ranked = sorted(
            (
                (self._bound(taken, swaps=True) if prune else _INF, k)
                for k, taken in enumerate(legal)
            ),
            key=lambda b: (-b[0], b[1]),
        )
        best: _Ranked | None = None
        draw = (lambda: self._draw_value(state)) if can_draw else None
        for bound, k in ranked:
            irrelevant = _irrelevant(best, k, draw)
            if irrelevant(bound):
                continue
            found = self._best(self._action_candidates(legal[k]), irrelevant if prune else None)
            if found is None:
                continue
            if best is None or found[0] > best[0] or (found[0] == best[0] and k < best[1]):
                best = (found[0], k, found[1])
        if best is None:
            if not can_draw and legal:
                # The stock is out and no take could be played out to a legal end here:
                # the take, and the rest asked for again.
                return self._finish((0.0, legal[0]), complete=False)
            drawn.notes += [Note(NoteCode.DRAW_ONLY), Note(NoteCode.THEN_ASK)]
            return self._finish((0.0, drawn), complete=False)
        if can_draw and self._draw_value(state) >= best[0]:
            drawn.notes += [Note(NoteCode.DRAW), Note(NoteCode.THEN_ASK)]
            return self._finish((self._draw_value(state), drawn), complete=False)
        return self._finish((best[0], best[2]), complete=True)

    def _row_positions(self, state: GameState) -> Collection[int]:
        """The row positions the rules let the seat take now, before looking at what
        the rack can meld (:func:`~remi_rules.rupere.take_options`, as the engine
        asks it): the engine refuses every other one."""
        seat = state.seats[self.seat]
        if seat.turns < 1:
            return range(len(state.row))
        return frozenset(
            take_options(
                state.row,
                len(seat.rack),
                self.rules,
                opened_before_this_turn=seat.opened,
                turn_number=seat.turns,
                declared_pe_tabla=seat.declared_pe_tabla,
                closing_turn=seat.declared_pe_tabla,
                row_starts_with_first_discard=state.row_dead_first,
            )
        )

    def _could_meld(self, state: GameState, index: int) -> bool:
        """A necessary condition for the engine to let the seat take row position
        ``index`` (RUPE-08): the picked tile fits some meld of the rack and the taken
        tiles (:func:`~remi_rules.hints_score.never_placed`), and an unopened seat's
        placeable tiles are worth the opening's minimum at the most.  True where the
        rules ask for no meld (a lay-off may justify the take, or taking declares pe
        tablă, or a declarer closes)."""
        seat = state.seats[self.seat]
        rules = self.rules
        if seat.declared_pe_tabla and rules.pe_tabla_enabled:
            return True
        if seat.opened and rules.take_discard_may_layoff:
            return True
        if (
            not seat.opened
            and rules.take_discard_without_meld_declares_pe_tabla
            and rules.pe_tabla_enabled
        ):
            return True
        table = state.table
        pool = [table.tile(i) for i in (*seat.rack, *state.row[index:])]
        ace_high = rules.ace_high_run
        if never_placed([table.tile(state.row[index])], pool, (), ace_high):
            return False
        if seat.opened:
            return True
        stay = never_placed(pool, pool, (), ace_high)
        worth = sum(map(most_worth, pool)) - sum(map(most_worth, stay))
        return worth >= rules.opening_min_points

    def _may_prune(self, state: GameState) -> bool:
        """Whether takes may be skipped by their bound here: not when the round may end
        at this turn's end without a close (the stock is out, or the turn limit is
        reached: such an end is valued by the round's score), nor for a pe-tablă
        declarer (who only closes)."""
        limit = self.rules.max_turns_per_round
        seat = state.seats[self.seat]
        return (
            bool(state.stock)
            and (limit is None or state.turn < limit)
            and not (seat.declared_pe_tabla and self.rules.pe_tabla_enabled)
        )

    def _bound(
        self, sim: _Sim, *, swaps: bool = False, skip: Callable[[float], bool] | None = None
    ) -> float:
        """At least the valuation of any turn that goes on from ``sim`` (when
        :meth:`_may_prune` holds for its position): infinite if the turn might close;
        else the points put down so far, plus the most etalare points the rack (with,
        under ``swaps``, every joker a swap may bring in) can put down, lay-offs counted
        at their highest worth, plus the opening's bonus, less a quarter of what the
        tiles that can never be placed cost (all but the costliest, which may be
        discarded).

        With ``skip``, a cheaper bound comes first (each placeable tile at the most it
        is worth anywhere): when ``skip`` already holds for it, it is the answer."""
        state = sim.state
        table = state.table
        rack = sim.rack(self.seat)
        values = [table.tile(i) for i in rack]
        swappable: set[Tile] = set()
        gained = 0
        if swaps:
            for meld in table.melds:
                for slot in meld.meld.jokers:
                    fitting = [v for v in values if not v.is_joker and v in slot.candidates]
                    swappable.update(fitting)
                    gained += bool(fitting)
        layable = self._layable_bound(state, rack)
        placed = {partition.tile_of_field(f) for f in layable or ()} | swappable
        stay = never_placed(values, [*values, *[_JOKER] * gained], placed, self.rules.ace_high_run)
        pool: list[int] | None = None
        if len(stay) < 2:  # perhaps all but one tile placed: perhaps a close
            pool = partition.counts_of(values)
            pool[partition.FREE_JOKER] += gained
            most_tiles = self._search(pool, tiles=True, layable=layable)
            if most_tiles is None or most_tiles[0] >= len(rack) - 1:
                return _INF
        costs = sorted(rack_value_end(t, self.rules) for t in stay)
        kept = RACK_WEIGHT * sum(costs[:-1])
        if skip is not None:
            worth = sum(map(most_worth, values)) - sum(map(most_worth, stay))
            rough = self._valued(sim.points + worth + 25 * gained, kept)
            if skip(rough):
                return rough
        if pool is None:
            pool = partition.counts_of(values)
            pool[partition.FREE_JOKER] += gained
        most_points = self._search(pool, layable=layable)
        assert most_points is not None
        return self._valued(sim.points + most_points[0] // 64, kept)

    def _valued(self, points: int, kept: float) -> float:
        """The valuation of a turn that puts ``points`` down and keeps tiles costing
        ``kept`` (weighted) at least, at best (opened or not, for an unopened seat)."""
        rest = points - kept
        if self.opened_before:
            return rest
        return max(rest + OPENING_BONUS, float(points))

    def _layable_bound(self, state: GameState, rack: Sequence[int]) -> Mapping[int, int] | None:
        """:meth:`_layable` with ``bound``, and a free joker layable at the best worth
        (a joker is laid off last, wherever it goes)."""
        fits = self._layable(state, rack, bound=True)
        if fits is None:
            return None
        return {**fits, partition.FREE_JOKER: 25}

    def _note_take(self, sim: _Sim, take: Step, before: GameState) -> None:
        """The take's note; the meld it goes into is filled in once it is known."""
        turn = sim.state.pending
        assert turn is not None and turn.obligation is not None
        picked = turn.obligation.picked
        tile = str(sim.state.table.tile(picked))
        if isinstance(take, TakeAtu):
            sim.notes.append(Note(NoteCode.TAKE_ATU, {"tile": tile}))
        elif isinstance(take, TakeLastDiscard):
            sim.notes.append(Note(NoteCode.TAKE_LAST, {"tile": tile, "meld": "?"}))
        else:
            count = len(before.row) - before.row.index(picked)
            sim.notes.append(Note(NoteCode.RUPERE, {"tile": tile, "count": count, "meld": "?"}))

    def _draw_value(self, state: GameState) -> float:
        """The expected valuation of a draw: the best turn after drawing each of a few
        sampled unseen tiles (seeded), or with a blank draw when ``samples`` is 0."""
        if self._draw_cache is not None:
            return self._draw_cache
        unseen = set(self.hidden)
        hidden = [i for i in state.stock] + [
            i for s, seat in enumerate(state.seats) if s != self.seat for i in seat.rack
        ]
        hidden = [i for i in hidden if i in unseen]
        picks = (
            self.rng.sample(hidden, min(self.samples, len(hidden))) if self.samples else hidden[:1]
        )
        total = 0.0
        for tile_id in picks:
            sim = _Sim(self._with_stock_top(state, tile_id))
            if not sim.apply(Draw()):
                continue
            best = self._best(self._action_candidates(sim))
            total += best[0] if best is not None else 0.0
        value = total / len(picks) if picks else 0.0
        self._draw_cache = value
        return value

    @staticmethod
    def _with_stock_top(state: GameState, tile_id: int) -> GameState:
        """The sampled position with ``tile_id`` on top of the stock."""
        stock = state.stock
        if not stock:
            return state
        if tile_id in stock:
            rest = tuple(i for i in stock if i != tile_id)
            return attrs.evolve(state, stock=(tile_id, *rest))
        top = stock[0]
        seats = tuple(
            attrs.evolve(s, rack=tuple(top if i == tile_id else i for i in s.rack))
            if tile_id in s.rack
            else s
            for s in state.seats
        )
        return attrs.evolve(state, seats=seats, stock=(tile_id, *stock[1:]))

    # -- the action phase ---------------------------------------------------------------

    def _best(
        self,
        candidates: Iterator[_Sim] | list[_Sim],
        skip: Callable[[float], bool] | None = None,
    ) -> Scored | None:
        """The first of the best-valued candidates.  While they are generated,
        :meth:`_skip` tells a generator whether a candidate of a given bound may be left
        out: one that cannot beat the best so far (a later equal one does not win), or
        that ``skip`` (the caller's) says cannot matter; the answer is then the best
        candidate whenever that one matters to the caller."""
        floor = _Floor(skip)
        outer, self._skip = self._skip, floor
        try:
            for sim in candidates:
                score = turn_score(sim.state, sim.points, self.seat, self.opened_before, self.rules)
                if floor.best is None or score > floor.best[0]:
                    floor.best = (score, sim)
        finally:
            self._skip = outer
        return floor.best

    def _prunable(self, sim: _Sim) -> bool:
        """Whether the candidate going on from ``sim`` may be left out by its bound
        (not even bounded while nothing could be left out)."""
        skip = self._skip
        if skip is _never or not skip.active() or not self._may_prune(sim.state):
            return False
        return skip(self._bound(sim, skip=skip))

    def _action_candidates(self, sim: _Sim) -> Iterator[_Sim]:
        """Finished turns (ended by a discard or a close) to choose from."""
        state = sim.state
        seat = state.seats[self.seat]
        turn = state.pending
        assert turn is not None
        rules = self.rules
        if seat.turns == 1 and rules.first_turn_no_meld:
            end = self._discard(sim, first_turn=True)
            if end is not None:
                yield end
            return
        if seat.declared_pe_tabla and rules.pe_tabla_enabled and not turn.opened_before:
            yield from self._pe_tabla(sim)
            return
        if not turn.opened_before:
            yield from self._opening(sim)
            return
        for swapped in self._swaps(sim):
            for forced in self._forced(swapped, keep=1):
                yield from self._melds_and_ends(forced)

    def _forced(self, sim: _Sim, *, keep: int) -> Iterator[_Sim]:
        """The justifying meld of a take not yet met (RUPE-01), each way it can be
        made; else the position unchanged."""
        state = sim.state
        turn = state.pending
        assert turn is not None
        ob = turn.obligation
        placed = {i for m in turn.new_melds for i in state.table.melds[m].ids}
        if ob is None or ob.picked in placed:
            yield sim
            return
        seen: set[tuple[Tile, ...]] = set()
        held = len(sim.rack(self.seat))
        try:
            options = justifying_melds(
                ob.picked,
                ob.rack_before_take,
                self.rules,
                also_taken=ob.also_taken,
                acquired_later=turn.swapped_jokers,
                min_left=keep,
                jokers=state.table.jokers,
            )
        except RemiError:
            return
        for ids in options:
            if any(i not in sim.rack(self.seat) for i in ids) or held - len(ids) < keep:
                continue
            values = tuple(state.table.tile(i) for i in ids)
            if values in seen:
                continue
            seen.add(values)
            forced = sim.copy()
            if forced.apply(MeldTiles(ids)):
                self._fill_take_note(forced)
                yield forced

    def _fill_take_note(self, sim: _Sim) -> None:
        meld = meld_text(sim.state.table.melds[-1])
        for k, note in enumerate(sim.notes):
            if (
                note.code in (NoteCode.TAKE_LAST, NoteCode.RUPERE)
                and note.details.get("meld") == "?"
            ):
                sim.notes[k] = Note(note.code, {**note.details, "meld": meld})
                return
        points = sim.state.table.melds[-1].meld.points
        sim.notes.append(Note(NoteCode.MELD, {"meld": meld, "points": points}))

    # -- openings -----------------------------------------------------------------------

    def _opening(self, sim: _Sim) -> Iterator[_Sim]:
        keep = min_rack_after_opening(self.rules)
        found_any = False
        pending = sim.state.pending
        # Without a take to justify, the plain discard follows, and its note says
        # whether any opening was found: then every opening is played out.
        prune = pending is not None and pending.obligation is not None
        for forced in self._forced(sim, keep=keep):
            if prune and self._prunable(forced):
                continue
            done = forced.state.pending
            assert done is not None
            melded = [forced.state.table.melds[m].meld for m in done.new_melds]
            rack = forced.rack(self.seat)
            counts = self._counts(forced.state, rack)
            split = self._search(counts, min_leftover=keep, opening=melded)
            if split is None:
                continue
            opened = forced.copy()
            if not self._put_down(opened, split[1]):
                continue
            self._layoffs(opened, keep=keep, own_new_only=True)  # OPEN-07: own new melds only
            pending = opened.state.pending
            assert pending is not None
            melds = [opened.state.table.melds[m] for m in pending.new_melds]
            opened.notes = [n for n in opened.notes if n.code is not NoteCode.MELD]
            opened.notes.append(
                Note(
                    NoteCode.OPEN,
                    {
                        "melds": " | ".join(meld_text(m) for m in melds),
                        "points": sum(m.meld.points for m in melds),
                        "minimum": self.rules.opening_min_points,
                    },
                )
            )
            end = self._discard(opened)
            if end is not None:
                found_any = True
                yield end
        if sim.state.pending is not None and sim.state.pending.obligation is None:
            plain = sim.copy()
            if not found_any:
                shape_ro, shape_en = SHAPE[self.rules.opening_composition]
                plain.notes.append(
                    Note(
                        NoteCode.NO_OPENING,
                        {
                            "minimum": self.rules.opening_min_points,
                            "shape_ro": shape_ro,
                            "shape_en": shape_en,
                        },
                    )
                )
            end = self._discard(plain)
            if end is not None:
                yield end

    def _pe_tabla(self, sim: _Sim) -> Iterator[_Sim]:
        """A pe-tablă declarer melds only to close at once (CLOSE-06)."""
        for forced in self._forced(sim, keep=1):
            yield from (c for c in self._closes(forced) if c is not None)
        if sim.state.pending is not None and sim.state.pending.obligation is None:
            end = self._discard(sim.copy())
            if end is not None:
                yield end

    # -- melds, lay-offs and swaps of an opened seat ------------------------------------

    def _swaps(self, sim: _Sim) -> Iterator[_Sim]:
        """The position without swaps, then with each joker swap the rack allows, then
        with all of them (JOLY-01)."""
        yield sim
        options: list[SwapJoker] = []
        table = sim.state.table
        for tile_id in sim.rack(self.seat):
            tile = table.tile(tile_id)
            if tile.is_joker:
                continue
            for index, meld in enumerate(table.melds):
                for slot in meld.meld.jokers:
                    if tile in slot.candidates:
                        options.append(SwapJoker(tile_id, index, meld.ids[slot.position]))
        done: list[_Sim] = []
        for step in options:
            swapped = sim.copy()
            if swapped.apply(step):
                self._note_swap(swapped, step, sim.state)
                done.append(swapped)
                yield swapped
        if len(done) > 1:
            both = sim.copy()
            applied = 0
            for step in options:
                if both.apply(step):
                    self._note_swap(both, step, sim.state)
                    applied += 1
            if applied > 1:
                yield both

    @staticmethod
    def _note_swap(sim: _Sim, step: SwapJoker, before: GameState) -> None:
        sim.notes.append(
            Note(
                NoteCode.SWAP,
                {
                    "tile": str(before.table.tile(step.tile)),
                    "meld": meld_text(before.table.melds[step.meld]),
                },
            )
        )

    def _melds_and_ends(self, sim: _Sim) -> Iterator[_Sim]:
        """Melds (the solver's best, lay-offs counted), lay-offs, then the end: every
        close the rack allows, or the best discard."""
        yield from (c for c in self._closes(sim) if c is not None)
        if self._prunable(sim):
            return
        placed = sim.copy()
        rack = placed.rack(self.seat)
        split = self._search(
            self._counts(placed.state, rack),
            min_leftover=1,
            layable=self._layable(placed.state, rack),
        )
        if split is not None:
            self._put_down(placed, split[1])
        self._layoffs(placed, keep=1)
        end = self._end(placed)
        if end is not None:
            yield end

    def _closes(self, sim: _Sim) -> Iterator[_Sim | None]:
        """Each way to close now: every distinct tile tried as the closing tile, the
        rest melded or laid off (the solver), when the rack is small enough to try.

        First a bound: the most tiles the whole rack can place, every value that may
        be laid off counted (:meth:`_layable_bound`), is at least what any
        rack less one tile can place; below ``len(rack) - 1`` no tile closes."""
        rack = sim.rack(self.seat)
        if len(rack) > 12:
            return
        state = sim.state
        whole = self._search(
            self._counts(state, rack), tiles=True, layable=self._layable_bound(state, rack)
        )
        if whole is None or whole[0] < len(rack) - 1:
            return
        table = state.table
        tried: set[Tile] = set()
        for last in sorted(rack, key=lambda i: (-rack_value_end(table.tile(i), self.rules), i)):
            value = table.tile(last)
            if value in tried:
                continue
            tried.add(value)
            rest = [i for i in rack if i != last]
            counts = self._counts(state, rest)
            split = self._search(counts, tiles=True, layable=self._layable(state, rest))
            if split is None or split[0] < len(rest):
                continue
            closing = sim.copy()
            if not self._put_down(closing, split[1], avoid=(last,)):
                continue
            self._layoffs(closing, keep=1, avoid=(last,))
            if closing.rack(self.seat) == (last,):
                yield self._end(closing)

    def _put_down(
        self, sim: _Sim, melds: Sequence[partition.Candidate], avoid: Sequence[int] = ()
    ) -> bool:
        """Meld the solver's melds with physical tiles of the rack."""
        by_value: dict[Tile, list[int]] = {}
        table = sim.state.table
        for i in sim.rack(self.seat):
            if i not in avoid:
                by_value.setdefault(table.tile(i), []).append(i)
        for cand in sorted(melds, key=lambda c: c.key):
            ids: list[int] = []
            for tile in cand.tiles:
                pool = by_value.get(tile)
                if not pool:
                    return False
                ids.append(pool.pop(0))
            if not sim.apply(MeldTiles(tuple(ids))):
                return False
            sim.notes.append(
                Note(
                    NoteCode.MELD,
                    {"meld": meld_text(sim.state.table.melds[-1]), "points": cand.points},
                )
            )
        return True

    def _layoffs(
        self, sim: _Sim, *, keep: int, avoid: Sequence[int] = (), own_new_only: bool = False
    ) -> None:
        """Lay off rack tiles wherever they fit, the costliest first, while more than
        ``keep`` tiles stay (jokers are kept for melds unless they close the turn).

        After each lay-off the tiles are tried again from the costliest: the meld that
        grew may take one that did not fit before.  A refusal stands while its meld is
        unchanged (the rack only shrinks), so it is not asked again in this call; a
        refusal by the meld's shape alone is not asked again in this hint."""
        rules = self.rules
        table = sim.state.table
        order = sorted(
            (i for i in sim.rack(self.seat) if i not in avoid),
            key=lambda i: (-rack_value_end(table.tile(i), rules), i),
        )
        refused: set[tuple[int, int, End, int]] = set()
        shape = self._shape_refusals
        while True:
            state = sim.state
            rack = sim.rack(self.seat)
            if len(rack) <= keep:
                return
            table = state.table
            turn = state.pending
            assert turn is not None
            targets = turn.new_melds if own_new_only else range(len(table.melds))
            laid = False
            for tile_id in order:
                if tile_id not in rack:
                    continue
                tile = table.tile(tile_id)
                if tile.is_joker and not tile.is_fixed_joker and len(rack) - 1 > keep:
                    continue
                for index in targets:
                    meld = table.melds[index]
                    if not might_fit(tile, meld):
                        continue
                    size = len(meld.ids)
                    form = (tile._code, meld.ids, _joker_codes(table, meld))
                    for end in (End.LOW, End.HIGH) if meld.kind is MeldKind.SUITA else (End.SET,):
                        if (tile_id, index, end, size) in refused or (*form, end) in shape:
                            continue
                        code = sim.try_apply(LayOff(tile_id, index, end))
                        if code is None:
                            sim.notes.append(
                                Note(
                                    NoteCode.LAY_OFF,
                                    {"tile": str(tile), "meld": meld_text(meld)},
                                )
                            )
                            laid = True
                            break
                        refused.add((tile_id, index, end, size))
                        if code in _SHAPE_CODES:
                            shape.add((*form, end))
                    if laid:
                        break
                if laid:
                    break
            if not laid:
                return

    def _layable(
        self, state: GameState, rack: Sequence[int], *, bound: bool = False
    ) -> Mapping[int, int] | None:
        """What laying each rack value off is worth (by the solver's field), for the
        values that fit a meld on the table now or after the rack's other tiles have
        extended it; None if none fits.  With ``bound``, every rack value standing for
        the same tile as one that fits is counted too: what fits for any part of the
        rack is then a subset.  Memoised by the table's melds and the rack's values."""
        table = state.table
        turn = state.pending
        assert turn is not None
        seat = state.seats[self.seat]
        if not (seat.opened or turn.new_melds) or not table.melds:
            return None
        values = [table.tile(i) for i in rack]
        # The rack's values in order: which of two values standing for the same tile
        # (8R, J(=8R)) extends a run depends on it.
        key = (
            bound,
            tuple(m.ids for m in table.melds),
            table.jokers,
            tuple(t._code for t in values),
        )
        if key in self._layable_memo:
            return self._layable_memo[key]
        held = Counter(values)
        fits: dict[int, int] = {}
        for meld in table.melds:
            for tile, worth in extensions(meld, held):
                alike = [t for t in held if t.acts_as == tile.acts_as] if bound else [tile]
                for same in alike:
                    field = partition.field_of(same)
                    fits[field] = max(fits.get(field, 0), worth)
        found = fits or None
        self._layable_memo[key] = found
        return found

    def _search(
        self,
        counts: list[int],
        *,
        tiles: bool = False,
        min_leftover: int = 0,
        layable: Mapping[int, int] | None = None,
        opening: Sequence[Meld] | None = None,
    ) -> Split | None:
        """:func:`search`, memoised for this hint call (the same racks come back from
        several candidates)."""
        key = (
            tuple(counts),
            tiles,
            min_leftover,
            tuple(sorted(layable.items())) if layable else None,
            None if opening is None else tuple(m.tiles for m in opening),
        )
        if key in self._search_memo:
            return self._search_memo[key]
        found = search(
            counts,
            self.rules,
            tiles=tiles,
            min_leftover=min_leftover,
            layable=layable,
            opening=opening,
        )
        self._search_memo[key] = found
        return found

    # -- the end of the turn ------------------------------------------------------------

    def _end(self, sim: _Sim) -> _Sim | None:
        """Close with the last tile, or discard the tile least worth keeping."""
        rack = sim.rack(self.seat)
        if len(rack) == 1:
            closed = sim.copy()
            if closed.apply(Close(rack[0])):
                self._note_close(closed, rack[0], sim.state)
                return closed
        return self._discard(sim)

    def _note_close(self, sim: _Sim, tile_id: int, before: GameState) -> None:
        result = score_state(sim.state)
        mine = result.seats[self.seat]
        doubled = mine.multiplier > 1
        sim.notes.append(
            Note(
                NoteCode.CLOSE,
                {
                    "tile": str(before.table.tile(tile_id)),
                    "effect_ro": f" (×{mine.multiplier})" if doubled else "",
                    "effect_en": f" (×{mine.multiplier})" if doubled else "",
                    "score": mine.total,
                },
            )
        )

    def _discard(self, sim: _Sim, *, first_turn: bool = False) -> _Sim | None:
        state = sim.state
        table = state.table
        rack = sim.rack(self.seat)
        tiles = [table.tile(i) for i in rack]
        for k, alone in self.keeper.order(rack, tiles):
            done = sim.copy()
            if first_turn:
                done.notes.append(Note(NoteCode.FIRST_TURN))
            if not done.apply(Discard(rack[k])):
                continue
            if done.state.end is not None:  # a discard of the last tile closes
                self._note_close(done, rack[k], state)
                return done
            ro, en = WHY["alone" if alone else "least"]
            done.notes.append(
                Note(NoteCode.DISCARD, {"tile": str(tiles[k]), "why_ro": ro, "why_en": en})
            )
            if any(t.is_joker for t in tiles) and not state.seats[self.seat].opened:
                done.notes.append(Note(NoteCode.KEEP_JOKER))
            self._announce_few(done)
            return done
        return None

    def _announce_few(self, sim: _Sim) -> None:
        """ANNOUNCE-01/02: after the discard, announce few tiles where the rules do
        not do it automatically."""
        rules = self.rules
        if rules.announce_automatic or sim.state.announce_window != self.seat:
            return
        if not self.start.stock:
            # With the stock out, whether the round goes on after this discard depends
            # on tiles the seat cannot see (END-01): the announcement is not part of
            # the plan (a bot makes it when the window opens).
            return
        if sim.apply(AnnounceFewTiles(self.seat)):
            sim.notes.append(few_tiles_note(len(sim.rack(self.seat)), rules.no_announce_penalty))

    @staticmethod
    def _counts(state: GameState, ids: Sequence[int]) -> list[int]:
        return partition.counts_of(state.table.tile(i) for i in ids)
