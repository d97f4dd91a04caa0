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

from ._hint_explain import Note, NoteCode, TurnPlan, meld_text
from ._hint_play import INF, NEVER, Floor, Player, Scored, Sim, search
from ._hint_score import (
    Keeper,
    might_justify,
    most_worth,
    never_placed,
    turn_score,
)
from .engine import (
    AnnounceAtu,
    Draw,
    GameState,
    MeldTiles,
    Phase,
    PlayerView,
    Rupere,
    Step,
    SwapJoker,
    TakeAtu,
    TakeLastDiscard,
    Undo,
)
from .errors import RemiError
from .opening import min_rack_after_opening
from .ruleset import AtuBonusTrigger
from .rupere import justifying_melds, take_options
from .tiles import Tile
from .values import rack_value_end

__all__ = ["Planner", "search"]

_Ranked = tuple[float, int, Sim]
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


class Planner(Player):
    """One hint call: the search from ``view`` (see the module docstring)."""

    def __init__(self, view: PlayerView, samples: int) -> None:
        self.view = view
        self.samples = samples
        seed = (view.turn * 1_000_003 + view.seat * 7_919 + sum(view.rack)) & 0xFFFFFFFF
        self.rng = random.Random(seed)
        start = view.sample_state(random.Random(seed))
        turn = start.pending
        if turn is not None and turn.seat == view.seat:
            # The seat's own turn: what it cannot see is the stock and the other racks,
            # as the sample dealt them.
            self.hidden: Sequence[int] = (
                *start.stock,
                *(i for s, seat in enumerate(start.seats) if s != view.seat for i in seat.rack),
            )
        else:
            self.hidden = view.hidden_ids()
        unseen_at = [[0] * 4 for _ in range(14)]
        table = view.table
        for i in self.hidden:
            acting = table.tile(i).acts_as
            if acting is not None and acting.rank is not None and acting.color is not None:
                unseen_at[acting.rank][acting.color.index] += 1
        super().__init__(view.rules, view.seat, start, Keeper(view.rules, unseen_at))
        self._draw_cache: float | None = None

    # -- the turn as a whole ------------------------------------------------------------

    def plan(self) -> TurnPlan:
        state = self.start
        turn = state.pending
        assert turn is not None
        sim = Sim(state)
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

    def _plan_take(self, sim: Sim) -> TurnPlan:
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
        legal: list[Sim] = []
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
                (self._bound(taken, swaps=True) if prune else INF, k)
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
        tiles (:func:`~remi_rules._hint_score.never_placed`), and an unopened seat's
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
            sim = Sim(self._with_stock_top(state, tile_id))
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
                score = turn_score(sim.state, sim.points, self.seat, self.opened_before, self.rules)
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
        return skip(self._bound(sim, skip=skip))

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
            for forced in self._forced(swapped, keep=1):
                yield from self._melds_and_ends(forced)

    def _forced(self, sim: Sim, *, keep: int) -> Iterator[Sim]:
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
        for tile_id in sim.rack(self.seat):
            tile = table.tile(tile_id)
            if tile.is_joker:
                continue
            for index, meld in enumerate(table.melds):
                for slot in meld.meld.jokers:
                    if tile in slot.candidates:
                        options.append(SwapJoker(tile_id, index, meld.ids[slot.position]))
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
