"""The hint's whole turn (ONLINE-06): the take, then the best turn after it.

:class:`Planner` does the work of :func:`remi_rules.hints.hint` (docs/solver.md, "The
hint"): each take the rules allow (the last discard, each rupere, the atu) with the
best turn after it (:class:`~remi_rules._hint_search.Search`), against the draw, valued
by a few sampled tiles the seat cannot see.  The takes are ruled out from the view
first (:meth:`Planner._takes_to_try`): a take phase with none left is a plain draw,
found without sampling a position; the others are tried from the highest cheap bound,
and a take (or the draw) whose bound cannot change the answer is not played out.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Iterator, Sequence

import attrs

from . import _partition as partition
from ._hint_bound import INF
from ._hint_explain import Note, NoteCode, TurnPlan
from ._hint_play import Scored, Sim
from ._hint_score import (
    Pool,
    TakeCheck,
    could_justify,
    most_worth,
    turn_score,
    values_of,
)
from ._hint_search import Search
from .engine import (
    AnnounceAtu,
    Draw,
    GameState,
    Phase,
    PlayerView,
    PublicSeat,
    Rupere,
    SeatState,
    Step,
    TakeAtu,
    TakeLastDiscard,
    Undo,
)
from .ruleset import AtuBonusTrigger
from .rupere import can_take_atu, take_options
from .tiles import Tile

__all__ = ["Planner"]

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
        if planner._draw_below(self.state, value):
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


class Planner(Search):
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

    def first_turn(self) -> TurnPlan | None:
        """A legal end to the action phase, not the best one (nothing compared), for
        a seat that only needs one (:class:`~remi_rules.bots.RandomBot` after a take
        from the row): for a seat opened before the turn, the justifying meld of its
        take (each way in turn) and the end at once, with no solver call; else, or
        if none of those ends the turn, the first finished turn the action phase's
        search meets (one candidate played out).  A take of the atu, met only by a
        close, is first met by a close its take check proved
        (:meth:`_placing_closes`), then by the solver's most tiles after each
        justifying meld (after all the joker swaps, then after each, then with
        none), and on a rack of more than 12 tiles only so.  None when no finished
        turn is found (then :meth:`plan` would propose taking the turn back)."""
        state = self.start
        turn = state.pending
        assert state.phase is Phase.ACTION and turn is not None
        rules = self.rules
        seat = state.seats[self.seat]
        sim = Sim(state)
        if turn.obligation is not None and turn.obligation.must_close:
            # ATU-06: the take is met only by a close: first one that the take's
            # check proved (each value laid off at most as often as the table has
            # places for it now); then, after each justifying meld, the solver's
            # most tiles (not its most points), every fitting value laid off.
            end = next(self._placing_closes(sim), None)
            if end is None:
                tried = (self._most_tiles_close(forced) for forced in self._close_ways(sim))
                end = next((e for e in tried if e is not None), None)
            if end is not None:
                score = turn_score(end.state, end.points, self.seat, self.opened_before, self.costs)
                return self._finish((score, end), complete=True)
            if len(sim.rack(self.seat)) > 12:
                return None  # the search's closes try each closing tile only up to 12
        if (
            turn.opened_before
            and not (seat.turns == 1 and rules.first_turn_no_meld)
            and not (seat.declared_pe_tabla and rules.pe_tabla_enabled)
        ):
            for forced in self._forced(sim, keep=1):
                end = self._end(forced)
                if end is not None:
                    score = turn_score(
                        end.state, end.points, self.seat, self.opened_before, self.costs
                    )
                    return self._finish((score, end), complete=True)
        for end in self._action_candidates(sim):
            score = turn_score(end.state, end.points, self.seat, self.opened_before, self.costs)
            return self._finish((score, end), complete=True)
        return None

    def _most_tiles_close(self, sim: Sim) -> Sim | None:
        """A close with the solver's split that places the most tiles, every value
        that fits the table counted as laid off (:meth:`_layable`), its melds put
        down and the rest laid off; None if it does not end in a close."""
        state = sim.state
        rack = sim.rack(self.seat)
        split = self._search(
            self._counts(state, rack),
            tiles=True,
            min_leftover=1,
            layable=self._layable(state, rack),
        )
        if split is None:
            return None
        melds = sorted(split[1], key=lambda c: c.key)
        return self._play_close(sim, [(c.tiles, c.points) for c in melds])

    def _close_ways(self, sim: Sim) -> Iterator[Sim]:
        """The positions :meth:`first_turn` tries the solver's most tiles from after a
        take of the atu: each justifying meld made, after every joker swap first,
        then after each swap, then with none.  For a seat opened before the turn, a
        swap after which the whole rack cannot close (:meth:`_could_close`: one
        question for all its justifying melds) is passed over."""
        opened = sim.state.seats[self.seat].opened
        for swapped in reversed(list(self._swaps(sim))):
            if opened and not self._could_close(swapped.state, swapped.rack(self.seat)):
                continue
            for forced in self._forced(swapped, keep=1):
                if self._could_close(forced.state, forced.rack(self.seat), cheap=True):
                    yield forced

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

    def _plan_take(self, sim: Sim, takes: list[Step]) -> TurnPlan:
        """The take (each one the rules allow, then the draw) with the best turn after
        it.  A take whose cheap bound (:meth:`_bound` with ``cheap``: no solver) cannot
        beat the best turn found so far, nor the draw's value, is not played out: the
        takes are tried from the highest cheap bound, and of equal turns the earliest
        take in the row's order wins, as when every take is played out.  A take that
        is played out is not bounded by the solver as a whole: the search after it
        bounds each justifying meld (:meth:`_forced`), which rules out as much, and
        the whole rack's question (the largest the hint asks) pruned too little to
        pay for itself (docs/decisions.md)."""
        state = sim.state
        drawn = sim.copy()
        can_draw = drawn.apply(Draw())
        prune = self._may_prune(state)
        rack = sim.rack(self.seat)
        racks = [(*rack, *self._taken(state, take)) for take in takes]
        # Tried from the highest cheap bound.
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
            after = taken(k)
            if after is None:
                continue
            found = self._best(self._action_candidates(after), irrelevant if prune else None)
            if found is None:
                continue
            if best is None or found[0] > best[0] or (found[0] == best[0] and k < best[1]):
                best = (found[0], k, found[1])
            if found[1].final:
                break  # (a close of a big rack: closes are not compared there)
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
        position ``at`` (a state or the view: ``seat`` is the seat's part of it): those
        whose tile might go into a meld of the rack
        (:class:`~remi_rules._hint_score.TakeCheck`), at a row position the rules let
        the seat take now (:meth:`_row_positions`), where the rack might make the meld
        (:meth:`_could_meld`); the atu where ATU-06's checks that need no rack allow it.
        The same answer from the view and from a sampled state (nothing hidden counts)."""
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

    def _draw_below(self, state: GameState, value: float) -> bool:
        """Whether :meth:`_draw_bound` is below ``value``.  With one sampled tile, its
        bound is asked only as far as the verdict needs (:meth:`_bound_of` with a
        ``skip``): whether the turn might close is then left unasked when the points
        alone already reach ``value``."""
        cached = self._draw_bound_cache[False]
        if cached is not None:
            return cached < value
        drawn = self._draws(state)
        if len(drawn) != 1 or drawn[0] is None or not self._may_prune(drawn[0].state):
            return self._draw_bound(state) < value
        sim = drawn[0]

        def below(bound: float) -> bool:
            return max(bound, 0.0) < value

        bound, exact = self._bound_of(
            sim.state, sim.rack(self.seat), sim.points, swaps=True, skip=below
        )
        if exact:
            self._draw_bound_cache[False] = max(bound, 0.0)
        return below(bound)

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
