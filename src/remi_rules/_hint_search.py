"""The hint's search (ONLINE-06): candidate turns built from the exact solver, played
out with the engine's own transition, the best one kept.

:class:`Planner` does the work of :func:`remi_rules.hints.hint` (docs/solver.md, "The
hint"):

* every take (the last discard, each rupere, the atu) and the draw, then the actions:
  the opening, or the melds with lay-offs, with and without joker swaps, the
  justifying meld of a take first, and each close the rack allows;
* each candidate is played out on a copy of the position with
  :func:`~remi_rules.engine.transition.apply_step`, so only legal turns survive, and
  valued by :func:`~remi_rules._hint_score.turn_score`;
* what cannot beat the best turn found so far is not played out (the bounds of
  :mod:`remi_rules._hint_score`), and what several candidates share (solver answers,
  lay-off refusals, discard orders) is computed once per hint call.

All solver calls go through :func:`search` (one place to switch the solver).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Iterator, Sequence

import attrs

from . import _partition as partition
from ._hint_explain import Note, NoteCode, TurnPlan, meld_text
from ._hint_play import INF, NEVER, Floor, Player, Scored, Sim, search
from ._hint_score import (
    Pool,
    TakeCheck,
    could_justify,
    most_worth,
    never_placed,
    turn_score,
    values_of,
)
from .engine import (
    AnnounceAtu,
    Draw,
    GameState,
    MeldTiles,
    Phase,
    PlayerView,
    PublicSeat,
    Rupere,
    SeatState,
    Step,
    SwapJoker,
    TakeAtu,
    TakeLastDiscard,
    Undo,
)
from .errors import RemiError
from .melds import analyze_meld
from .opening import min_rack_after_opening
from .ruleset import AtuBonusTrigger
from .rupere import can_take_atu, justifying_melds, take_options
from .tiles import Tile

__all__ = ["Planner", "search"]

_Ranked = tuple[float, int, Sim]
"""A take's best turn: its value, the take's place in the row's order, the turn."""


class _Draw:
    """The draw's value, as the take search asks for it: an upper bound first (cheap),
    the value itself only when the bound cannot settle the comparison."""

    def __init__(self, planner: Planner, state: GameState) -> None:
        self.planner = planner
        self.state = state

    def at_least(self, value: float) -> bool:
        """Whether the draw is worth at least ``value``."""
        planner = self.planner
        if planner._draw_bound(self.state, cheap=True) < value:
            return False
        if planner._draw_bound(self.state) < value:
            return False
        return planner._draw_value(self.state) >= value


def _irrelevant(best: _Ranked | None, k: int, draw: _Draw | None) -> Callable[[float], bool]:
    """Whether a turn worth at most some value after take ``k`` changes nothing: it
    cannot beat ``best`` (of equal turns the earlier take wins), or the draw is worth
    at least as much and wins."""

    def irrelevant(value: float) -> bool:
        if best is None:
            return False
        if value < best[0] or (value == best[0] and k > best[1]):
            return True
        return draw is not None and draw.at_least(value)

    return irrelevant


class Planner(Player):
    """One hint call: the search from ``view`` (see the module docstring)."""

    def __init__(self, view: PlayerView, samples: int) -> None:
        super().__init__(view)
        self.samples = samples
        self._draw_cache: float | None = None
        self._draw_bound_cache: dict[bool, float | None] = {False: None, True: None}
        self._drawn: list[Sim | None] | None = None

    # -- the turn as a whole ------------------------------------------------------------

    def plan(self) -> TurnPlan:
        view = self.view
        takes: list[Step] = []
        if view.phase is Phase.TAKE:
            # From the view: an atu announcement first changes nothing they look at.
            takes = self._takes_to_try(view, view.seats[self.seat])
            if not takes and self._draws_at_once():
                return TurnPlan(
                    seat=self.seat,
                    steps=(Draw(),),
                    notes=(Note(NoteCode.DRAW_ONLY), Note(NoteCode.THEN_ASK)),
                    complete=False,
                )
        state = self.start
        turn = state.pending
        assert turn is not None
        sim = Sim(state)
        self._announce_atu(sim)
        if state.phase is Phase.TAKE:
            return self._plan_take(sim, takes)
        if turn.took is None:  # the starter's first turn (TURN-01)
            sim.notes.append(Note(NoteCode.FIRST_TURN))
            end = self._discard(sim)
            best = self._best([end] if end is not None else [])
            if best is None:
                raise AssertionError("a starter's first discard is always legal")
            return self._finish(best, complete=True)
        best = self._best(self._action_candidates(sim))
        if best is None:
            undo = Sim(state, notes=[Note(NoteCode.UNDO)])
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

    def _announce_atu(self, sim: Sim) -> None:
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

    def _plan_take(self, sim: Sim, takes: list[Step]) -> TurnPlan:
        """The take (each one the rules allow, then the draw) with the best turn after
        it.  A take whose bound (:meth:`_bound`) cannot beat the best turn found so
        far, nor the draw's value, is not played out: the takes are tried from the
        highest bound, and of equal turns the earliest take in the row's order wins,
        as when every take is played out."""
        state = sim.state
        drawn = sim.copy()
        can_draw = drawn.apply(Draw())
        prune = self._may_prune(state)
        rack = sim.rack(self.seat)
        racks = [(*rack, *self._taken(state, take)) for take in takes]
        # Tried from the highest cheap bound; the solver's bound only for a take that
        # the cheap one cannot rule out.
        ranked = sorted(
            (
                (self._bound(state, racks[k], 0, swaps=True, cheap=True) if prune else INF, k)
                for k in range(len(takes))
            ),
            key=lambda b: (-b[0], b[1]),
        )
        played: dict[int, Sim | None] = {}

        def taken(k: int) -> Sim | None:
            """The position after take ``k``, or None if the engine refuses it (each
            take is played out once, and only when needed)."""
            if k not in played:
                after = sim.copy()
                if after.apply(takes[k]):
                    self._note_take(after, takes[k], state)
                    played[k] = after
                else:
                    played[k] = None
            return played[k]

        best: _Ranked | None = None
        draw = _Draw(self, state) if can_draw else None
        for bound, k in ranked:
            irrelevant = _irrelevant(best, k, draw)
            if irrelevant(bound):
                continue
            after = taken(k)  # the engine's checks of the take before the solver's bound
            if after is None:
                continue
            if prune:
                bound = self._bound(state, racks[k], 0, swaps=True, skip=irrelevant)
                if irrelevant(bound):
                    continue
            found = self._best(self._action_candidates(after), irrelevant if prune else None)
            if found is None:
                continue
            if best is None or found[0] > best[0] or (found[0] == best[0] and k < best[1]):
                best = (found[0], k, found[1])
        if best is None:
            if not can_draw:
                # The stock is out and no take could be played out to a legal end here:
                # the first take the engine allows, and the rest asked for again.
                for k in range(len(takes)):
                    after = taken(k)
                    if after is not None:
                        return self._finish((0.0, after), complete=False)
            drawn.notes += [Note(NoteCode.DRAW_ONLY), Note(NoteCode.THEN_ASK)]
            return self._finish((0.0, drawn), complete=False)
        if draw is not None and draw.at_least(best[0]):
            drawn.notes += [Note(NoteCode.DRAW), Note(NoteCode.THEN_ASK)]
            return self._finish((self._draw_value(state), drawn), complete=False)
        return self._finish((best[0], best[2]), complete=True)

    def _taken(self, state: GameState, take: Step) -> tuple[int, ...]:
        """The tiles ``take`` brings to the rack from ``state``."""
        if isinstance(take, TakeAtu):
            return (state.atu,)
        index = take.index if isinstance(take, Rupere) else len(state.row) - 1
        return state.row[index:]

    def _draws_at_once(self) -> bool:
        """Whether a take phase with no take worth trying is a plain draw, known from
        the view alone (no position sampled): the stock holds a tile and no atu is to
        be announced first.  Else the full search decides."""
        view = self.view
        turn = view.own_turn
        me = view.seats[self.seat]
        return not (
            view.stock_count == 0
            or turn is None
            or turn.took is not None
            or turn.number == 1
            or (
                self.rules.atu_bonus_trigger is AtuBonusTrigger.ANNOUNCE_AT_START
                and not me.announced_atu
                and view.atu ^ 1 in view.rack
            )
        )

    def _takes_to_try(self, at: GameState | PlayerView, seat: SeatState | PublicSeat) -> list[Step]:
        """The takes (the last discard, each rupere, the atu) the search plays out from
        position ``at`` (``seat``: the seat's part of it): those whose tile might go
        into a meld of the rack (:func:`~remi_rules._hint_score.might_justify`), at a
        row position the rules let the seat take now (:meth:`_row_positions`), where
        the rack might make the meld (:meth:`_could_meld`)."""
        rack_ids = self.view.rack if isinstance(at, PlayerView) else at.seats[self.seat].rack
        table = at.table
        row = at.row
        rack = values_of(table, rack_ids)
        fits = TakeCheck(rack, self.rules)
        tiles = values_of(table, row)
        last = len(row) - 1
        wanted = [fits(tile, bridged=index != last) for index, tile in enumerate(tiles)]
        meldable: dict[int, bool] = {}
        if any(wanted):
            positions = self._row_positions(at, seat, len(rack_ids))
            # The pool of a take at ``index`` is the rack and the row from there on.
            pool = Pool(self.rules.ace_high_run, rack)
            for index in range(last, -1, -1):
                pool.add(tiles[index])
                if wanted[index] and index in positions:
                    meldable[index] = self._could_meld(at, seat, pool, rack, tiles[index:])
        out: list[Step] = []
        for index in (last, *range(last)) if row else ():
            if meldable.get(index):
                out.append(Rupere(index) if index != last else TakeLastDiscard())
        if (
            at.atu_face_up
            and fits(table.tile(at.atu))
            # ATU-06's checks that need no rack (the ruleset, the turn, full rights)
            and can_take_atu(
                self.rules,
                opened_before_this_turn=seat.opened,
                turn_number=max(seat.turns, 1),
                declared_pe_tabla=seat.declared_pe_tabla,
                closing_turn=True,
            )
        ):
            out.append(TakeAtu())
        return out

    def _row_positions(
        self, at: GameState | PlayerView, seat: SeatState | PublicSeat, held: int
    ) -> Collection[int]:
        """The row positions the rules let the seat take now, before looking at what
        the rack can meld (:func:`~remi_rules.rupere.take_options`, as the engine
        asks it): the engine refuses every other one."""
        if seat.turns < 1:
            return range(len(at.row))
        return frozenset(
            take_options(
                at.row,
                held,
                self.rules,
                opened_before_this_turn=seat.opened,
                turn_number=seat.turns,
                declared_pe_tabla=seat.declared_pe_tabla,
                closing_turn=seat.declared_pe_tabla,
                row_starts_with_first_discard=at.row_dead_first,
            )
        )

    def _could_meld(
        self,
        at: GameState | PlayerView,
        seat: SeatState | PublicSeat,
        pool: Pool,
        rack: Sequence[Tile],
        taken: Sequence[Tile],
    ) -> bool:
        """A necessary condition for the engine to let the seat take a row position
        (RUPE-08), ``taken`` the tiles the take brings (the picked one first) to
        ``rack``, ``pool`` holding them all: the picked tile fits some meld of the pool
        (:meth:`~remi_rules._hint_score.Pool.holds`), one that could justify the take
        (:func:`~remi_rules._hint_score.could_justify`); and an unopened seat's tiles
        are worth the opening's minimum: their placeable tiles at the most, then (where
        a take with no turn after it is no plan: :meth:`_may_prune`) the solver's most
        points.  True where the rules ask for no meld (a lay-off may justify the take,
        or taking declares pe tablă, or a declarer closes)."""
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
        picked = taken[0]
        if not (picked.is_joker or pool.holds(picked)):
            return False
        if not could_justify(picked, rack, taken[1:], rules):
            return False
        if seat.opened:
            return True
        tiles = [*rack, *taken]
        worth = sum(most_worth(t) for t in tiles if t.is_joker or pool.holds(t))
        if worth < rules.opening_min_points:
            return False
        if not self._may_prune(at):
            return True
        most = self._search(partition.counts_of(tiles))
        return most is not None and most[0] // 64 >= rules.opening_min_points

    def _note_take(self, sim: Sim, take: Step, before: GameState) -> None:
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

    def _draws(self, state: GameState) -> list[Sim | None]:
        """The positions after drawing each of a few sampled unseen tiles (seeded), or
        a blank draw when ``samples`` is 0; None where the engine refuses the draw."""
        if self._drawn is not None:
            return self._drawn
        unseen = self.hidden
        hidden = [i for i in state.stock] + [
            i for s, seat in enumerate(state.seats) if s != self.seat for i in seat.rack
        ]
        hidden = [i for i in hidden if i in unseen]
        rng = random.Random(self.seed)
        picks = rng.sample(hidden, min(self.samples, len(hidden))) if self.samples else hidden[:1]
        self._drawn = []
        for tile_id in picks:
            sim = Sim(self._with_stock_top(state, tile_id))
            self._drawn.append(sim if sim.apply(Draw()) else None)
        return self._drawn

    def _draw_value(self, state: GameState) -> float:
        """The expected valuation of a draw: the mean of the best turns after each
        sampled draw (:meth:`_draws`; a refused draw or no turn counts 0)."""
        if self._draw_cache is not None:
            return self._draw_cache
        drawn = self._draws(state)
        total = 0.0
        for sim in drawn:
            best = self._best(self._action_candidates(sim)) if sim is not None else None
            total += best[0] if best is not None else 0.0
        value = total / len(drawn) if drawn else 0.0
        self._draw_cache = value
        return value

    def _draw_bound(self, state: GameState, *, cheap: bool = False) -> float:
        """At least :meth:`_draw_value`: the mean of the sampled draws' bounds
        (:meth:`_bound`, joker swaps counted; with ``cheap``, the bounds that need no
        solver), none below 0 (what a draw with no turn counts)."""
        cached = self._draw_bound_cache[cheap]
        if cached is not None:
            return cached
        drawn = self._draws(state)
        total = 0.0
        for sim in drawn:
            if sim is None:
                continue
            if not self._may_prune(sim.state):
                total = INF
                break
            rack = sim.rack(self.seat)
            bound = self._bound(sim.state, rack, sim.points, swaps=True, cheap=cheap)
            total += max(bound, 0.0)
        value = total / len(drawn) if drawn else 0.0
        self._draw_bound_cache[cheap] = value
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
        candidates: Iterator[Sim] | list[Sim],
        skip: Callable[[float], bool] | None = None,
    ) -> Scored | None:
        """The first of the best-valued candidates.  While they are generated,
        :meth:`_skip` tells a generator whether a candidate of a given bound may be left
        out: one that cannot beat the best so far (a later equal one does not win), or
        that ``skip`` (the caller's) says cannot matter; the answer is then the best
        candidate whenever that one matters to the caller."""
        floor = Floor(skip)
        outer, self._skip = self._skip, floor
        try:
            for sim in candidates:
                score = turn_score(sim.state, sim.points, self.seat, self.opened_before, self.costs)
                if floor.best is None or score > floor.best[0]:
                    floor.best = (score, sim)
        finally:
            self._skip = outer
        return floor.best

    def _prunable(self, sim: Sim) -> bool:
        """Whether the candidate going on from ``sim`` may be left out by its bound
        (not even bounded while nothing could be left out)."""
        skip = self._skip
        if skip is NEVER or not skip.active() or not self._may_prune(sim.state):
            return False
        if sim.bound is not None:
            return skip(sim.bound)
        return skip(self._bound(sim.state, sim.rack(self.seat), sim.points, skip=skip))

    def _action_candidates(self, sim: Sim) -> Iterator[Sim]:
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
            for forced in self._forced(swapped, keep=1, bounded=True):
                yield from self._melds_and_ends(forced)

    def _forced(self, sim: Sim, *, keep: int, bounded: bool = False) -> Iterator[Sim]:
        """The justifying meld of a take not yet met (RUPE-01), each way it can be
        made; else the position unchanged.  With ``bounded``, a way whose bound
        (:meth:`_bound`, the meld counted before the engine puts it down) may be left
        out (:meth:`_prunable`) is not made at all."""
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
            values = tuple(values_of(state.table, ids))
            if values in seen:
                continue
            seen.add(values)
            bound = self._bound_before(sim, ids, values) if bounded else None
            if bound is not None and self._skip(bound[0]):
                continue
            forced = sim.copy()
            if forced.apply(MeldTiles(ids)):
                if bound is not None and bound[1]:
                    forced.bound = bound[0]
                self._fill_take_note(forced)
                yield forced

    def _bound_before(
        self, sim: Sim, ids: tuple[int, ...], values: Sequence[Tile]
    ) -> tuple[float, bool] | None:
        """The bound of the position after melding ``ids`` (their ``values``) from
        ``sim``, worked out before the meld is put down (:meth:`_bound_of`); None
        where nothing could be left out now (or the meld is not valid)."""
        skip = self._skip
        if skip is NEVER or not skip.active() or not self._may_prune(sim.state):
            return None
        try:
            meld = analyze_meld(values, self.rules)
        except RemiError:
            return None
        rack = [i for i in sim.rack(self.seat) if i not in ids]
        return self._bound_of(sim.state, rack, sim.points + meld.points, skip=skip, extra=meld)

    def _fill_take_note(self, sim: Sim) -> None:
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

    def _opening(self, sim: Sim) -> Iterator[Sim]:
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
            values = values_of(forced.state.table, forced.rack(self.seat))
            if self._opening_out_of_reach(values, melded):
                continue
            split = self._search(partition.counts_of(values), min_leftover=keep, opening=melded)
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
                plain.notes.append(
                    Note(
                        NoteCode.NO_OPENING,
                        {
                            "minimum": self.rules.opening_min_points,
                            # the entries shape:run, shape:run_and_set
                            "shape": self.rules.opening_composition.value,
                        },
                    )
                )
            end = self._discard(plain)
            if end is not None:
                yield end

    def _pe_tabla(self, sim: Sim) -> Iterator[Sim]:
        """A pe-tablă declarer melds only to close at once (CLOSE-06)."""
        for forced in self._forced(sim, keep=1):
            yield from (c for c in self._closes(forced) if c is not None)
        if sim.state.pending is not None and sim.state.pending.obligation is None:
            end = self._discard(sim.copy())
            if end is not None:
                yield end

    # -- melds, lay-offs and swaps of an opened seat ------------------------------------

    def _swaps(self, sim: Sim) -> Iterator[Sim]:
        """The position without swaps, then with each joker swap the rack allows, then
        with all of them (JOLY-01)."""
        yield sim
        options: list[SwapJoker] = []
        table = sim.state.table
        holes = [
            (index, meld.ids[slot.position], slot.candidates)
            for index, meld in enumerate(table.melds)
            for slot in self.slots(meld)
        ]
        if not holes:
            return
        for tile_id in sim.rack(self.seat):
            tile = table.tile(tile_id)
            if tile.is_joker:
                continue
            for index, joker, candidates in holes:
                if tile in candidates:
                    options.append(SwapJoker(tile_id, index, joker))
        done: list[Sim] = []
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
    def _note_swap(sim: Sim, step: SwapJoker, before: GameState) -> None:
        sim.notes.append(
            Note(
                NoteCode.SWAP,
                {
                    "tile": str(before.table.tile(step.tile)),
                    "meld": meld_text(before.table.melds[step.meld]),
                },
            )
        )

    def _melds_and_ends(self, sim: Sim) -> Iterator[Sim]:
        """Melds (the solver's best, lay-offs counted), lay-offs, then the end: every
        close the rack allows, or the best discard."""
        yield from (c for c in self._closes(sim) if c is not None)
        if self._prunable(sim):
            return
        placed = sim.copy()
        rack = placed.rack(self.seat)
        values = values_of(placed.state.table, rack)
        pool = Pool(self.rules.ace_high_run, values)
        # The solver only where some meld is possible (its lay-offs are the loop below).
        if any(t.is_joker or pool.holds(t) for t in values):
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

    def _closes(self, sim: Sim) -> Iterator[Sim | None]:
        """Each way to close now: every distinct tile tried as the closing tile, the
        rest melded or laid off (the solver), when the rack is small enough to try.

        First a bound: the most tiles the whole rack can place, every value that may
        be laid off counted (:meth:`_layable_bound`), is at least what any
        rack less one tile can place; below ``len(rack) - 1`` no tile closes."""
        rack = sim.rack(self.seat)
        if len(rack) > 12:
            return
        state = sim.state
        layable = self._layable_bound(state, rack)
        # Cheaper still: two tiles that no meld of the rack can hold and that cannot be
        # laid off stay whatever the split.
        values = values_of(state.table, rack)
        placed = {partition.tile_of_field(f) for f in layable or ()}
        if len(never_placed(values, values, placed, self.rules.ace_high_run)) >= 2:
            return
        whole = self._most_tiles(values, layable)
        if whole is None or whole[0] < len(rack) - 1:
            return
        table = state.table
        tried: set[Tile] = set()
        for last in sorted(rack, key=lambda i: (-self.costs(table.tile(i)), i)):
            value = table.tile(last)
            if value in tried:
                continue
            tried.add(value)
            rest = [i for i in rack if i != last]
            split = self._most_tiles(values_of(table, rest), self._layable(state, rest))
            if split is None or split[0] < len(rest):
                continue
            closing = sim.copy()
            if not self._put_down(closing, split[1], avoid=(last,)):
                continue
            self._layoffs(closing, keep=1, avoid=(last,))
            if closing.rack(self.seat) == (last,):
                yield self._end(closing)
