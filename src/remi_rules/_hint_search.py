"""The hint's search of the action phase (ONLINE-06): candidate turns built from the
exact solver, played out with the engine's own transition, the best one kept.

:class:`Search` (on top of :class:`~remi_rules._hint_play.Player`) lists the finished
turns from a position (docs/solver.md, "The hint"): the opening, or the melds with
lay-offs, with and without joker swaps, the justifying meld of a take first, and each
close the rack allows; each is valued by :func:`~remi_rules._hint_score.turn_score`,
and what cannot beat the best turn found so far (:class:`Floor`)
is not played out.  :mod:`remi_rules._hint_turn` adds the take and the turn as a whole.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from typing import Final

from . import _partition as partition
from ._hint_bound import INF, _fits
from ._hint_explain import Note, NoteCode, meld_text
from ._hint_play import Player, Scored, Sim
from ._hint_score import OPENING_BONUS, RACK_WEIGHT, Held, turn_score, values_of
from ._take_melds import justifying, valuer
from .engine import GameState, MeldTiles, PlayerView, SwapJoker
from .engine._finish_oracle import lay_off_room, makes_opening, placing_melds, turn_melds
from .errors import RemiError
from .melds import Meld, arrange_meld
from .opening import min_rack_after_opening
from .tiles import Tile

__all__ = ["NEVER", "Floor", "Search"]


class Floor:
    """What :meth:`Search._best` may leave out while it goes through candidates: a
    candidate whose bound cannot beat the best so far, or that ``outer`` (the
    caller's test) says cannot matter."""

    def __init__(self, outer: Callable[[float], bool] | None = None) -> None:
        self.best: Scored | None = None
        self.outer = outer

    def active(self) -> bool:
        """Whether some bound could be left out now."""
        return self.best is not None or (self.outer is not None and self.outer(-INF))

    def __call__(self, bound: float) -> bool:
        best = self.best
        return (best is not None and bound <= best[0]) or (
            self.outer is not None and self.outer(bound)
        )


_Option = tuple[tuple[int, ...], Meld, tuple[Tile, ...]]
"""A justifying meld: its ids, its analysis and its tiles' values."""

Whole = tuple[Counter[Tile], list[Meld]]
"""A rack's values and the new melds of a close of it (:meth:`Search._whole`)."""

_LeftOut = tuple[Counter[Tile], dict[int, int], int]
"""A justifying meld left out by its bound: its values, what may be laid off on it
(by field, :func:`~remi_rules._hint_bound._fits`) and its points."""

NEVER: Final = Floor()
"""Outside :meth:`Search._best`: nothing is left out."""


class Search(Player):
    """The finished turns from a position, and the best of them (see the module
    docstring)."""

    def __init__(self, view: PlayerView) -> None:
        super().__init__(view)
        self._skip: Floor = NEVER
        """What the innermost :meth:`_best` may leave out."""

    def _best(
        self,
        candidates: Iterator[Sim] | list[Sim],
        skip: Callable[[float], bool] | None = None,
    ) -> Scored | None:
        """The first of the best-valued candidates.  While they are generated,
        :meth:`_skip` tells a generator whether a candidate of a given bound may be left
        out: one that cannot beat the best so far (a later equal one does not win), or
        that ``skip`` (the caller's) says cannot matter; the answer is then the best
        candidate whenever that one matters to the caller.  A ``final`` candidate
        (:attr:`Sim.final`) is the last one looked at."""
        floor = Floor(skip)
        outer, self._skip = self._skip, floor
        try:
            for sim in candidates:
                score = turn_score(sim.state, sim.points, self.seat, self.opened_before, self.costs)
                if floor.best is None or score > floor.best[0]:
                    floor.best = (score, sim)
                if sim.final:
                    break
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
        ob = turn.obligation
        if ob is not None and ob.must_close and len(sim.rack(self.seat)) > 12:
            # ATU-06 on a big rack: the first close the take's check proved ends the
            # search (a close beats every turn that does not close, and the closes
            # of a big rack are not compared).
            end = next(self._placing_closes(sim), None)
            if end is not None:
                end.final = True
                yield end
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
        rack = sim.rack(self.seat)
        held = len(rack)
        before = tuple(ob.rack_before_take)
        also = tuple(ob.also_taken)
        later = tuple(turn.swapped_jokers)
        # As justifying_melds (the arguments come from the engine's own state, so
        # they need no checks), with each meld's analysis.
        total = len(before) + 1 + len(also) + len(later)
        try:
            options = [
                (ids, meld)
                for ids, meld in justifying(
                    ob.picked, before, self.rules, also, later, valuer(state.table.jokers)
                )
                if total - len(ids) >= keep
            ]
        except RemiError:
            return
        seen: set[tuple[int, ...]] = set()
        distinct: list[_Option] = []
        for ids, meld in options:
            if held - len(ids) < keep or any(i not in rack for i in ids):
                continue
            values = tuple(values_of(state.table, ids))
            codes = tuple(t._code for t in values)
            if codes not in seen:
                seen.add(codes)
                distinct.append((ids, meld, values))
        if bounded:
            distinct = self._undominated(sim, distinct)
        left_out: list[_LeftOut] = []
        for ids, meld, values in distinct:
            if left_out and self._extends(sim, ids, values, meld, left_out):
                continue
            bound = self._bound_before(sim, ids, meld) if bounded else None
            if bound is not None and self._skip(bound[0]):
                left_out.append(self._left_out(sim, ids, values, meld))
                continue
            forced = sim.copy()
            if forced.apply(MeldTiles(ids)):
                if bound is not None and bound[1]:
                    forced.bound = bound[0]
                self._fill_take_note(forced)
                yield forced

    def _undominated(self, sim: Sim, options: list[_Option]) -> list[_Option]:
        """``options`` (justifying melds as ids, analysis, values) in their order,
        less each that only grows a smaller one of them by real tiles the rest of the
        rack could lay off on it (:meth:`_extends`): the smaller meld's turn can lay
        those tiles off, and the solver's split after it counts them, so its turn is
        worth as much (docs/solver.md, "The hint").  A set holding a joker is no
        smaller meld here (LIPI-07 may refuse lay-offs on it).  Without this, every
        justifying meld is played out where no bound leaves one out (the stock out):
        on a 73-tile rack after a rupere, 1,427 of them."""
        if len(options) < 2:
            return options
        smaller: list[_LeftOut] = []
        dropped: set[int] = set()
        for k in sorted(range(len(options)), key=lambda k: len(options[k][0])):
            ids, meld, values = options[k]
            if smaller and self._extends(sim, ids, values, meld, smaller, real=True):
                dropped.add(k)
            elif meld.is_run or not any(t.is_joker for t in values):
                smaller.append(self._left_out(sim, ids, values, meld))
        return [option for k, option in enumerate(options) if k not in dropped]

    def _left_out(
        self, sim: Sim, ids: tuple[int, ...], values: Sequence[Tile], meld: Meld
    ) -> _LeftOut:
        """A justifying meld (``ids``, their ``values``, its analysis ``meld``) left
        out by its bound, as :meth:`_extends` compares later ones with it."""
        return Counter(values), self._fits_after(sim, ids, meld), meld.points

    def _fits_after(self, sim: Sim, ids: tuple[int, ...], meld: Meld) -> dict[int, int]:
        """What the rest of the rack may lay off on ``meld`` made of ``ids`` (by field,
        every value standing for a fitting tile counted: the bound's ``extra``)."""
        rest = values_of(sim.state.table, [i for i in sim.rack(self.seat) if i not in ids])
        return _fits([(meld, len(ids))], Held(rest), True)

    def _extends(
        self,
        sim: Sim,
        ids: tuple[int, ...],
        values: Sequence[Tile],
        grown: Meld,
        left_out: list[_LeftOut],
        *,
        real: bool = False,
    ) -> bool:
        """Whether the justifying meld ``ids`` (``values``, ``grown``) is one left out before
        (``left_out``) grown by tiles it could have taken as lay-offs (its bound's
        ``extra``), worth the points it gains, and taking no lay-off the smaller meld
        could not take at least as dearly.  Its bound is then no larger: the smaller
        meld's bound counts every split after the larger one, the grown tiles laid off
        instead, and keeps no tile more; so it is left out too (the floor only rises,
        and a left-out value stays left out below it).  With ``real``, only grown by
        tiles that are not jokers."""
        have = Counter(values)
        for base, fits, points in left_out:
            if not base <= have:
                continue
            grew = have - base
            if real and any(t.is_joker for t in grew):
                continue
            gained = [partition.field_of(t) for t in grew.elements()]
            if not gained or any(f not in fits for f in gained):
                continue
            if grown.points != points + sum(fits[f] for f in gained):
                continue
            more = self._fits_after(sim, ids, grown)
            if all(fits.get(f, -1) >= worth for f, worth in more.items()):
                return True
        return False

    def _bound_before(
        self, sim: Sim, ids: tuple[int, ...], meld: Meld
    ) -> tuple[float, bool] | None:
        """The bound of the position after melding ``ids`` (``meld``) from ``sim``,
        worked out before the meld is put down (:meth:`_bound_of`); None where nothing
        could be left out now."""
        skip = self._skip
        if skip is NEVER or not skip.active() or not self._may_prune(sim.state):
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
        # The solver only where some meld is possible (its lay-offs are the loop below).
        if any(self._placeable(values)):
            split = self._search(
                self._counts(placed.state, rack),
                min_leftover=1,
                layable=self._layable(placed.state, rack),
            )
            if split is not None:
                self._put_down(placed, split[1])
        self._layoffs(placed, keep=1)
        if self._discard_prunable(placed):
            return
        end = self._end(placed)
        if end is not None:
            # (a close of a big rack ends the search, as in _action_candidates)
            end.final = len(rack) > 12 and end.closed_by(self.seat)
            yield end

    def _discard_prunable(self, sim: Sim) -> bool:
        """Whether the turn ended from ``sim`` by a discard may be left out before the
        discard is chosen: its valuation (:func:`~remi_rules._hint_score.turn_score`)
        is at most the points put down less a quarter of the rack's cost without its
        costliest tile, and that cannot beat the best so far (:meth:`_prunable`'s
        test; not where the turn may close, nor where the round may end after it)."""
        skip = self._skip
        rack = sim.rack(self.seat)
        if skip is NEVER or len(rack) < 2 or not skip.active() or not self._may_prune(sim.state):
            return False
        state = sim.state
        score = float(sim.points)
        if state.seats[self.seat].opened:
            costs = [self.costs(t) for t in values_of(state.table, rack)]
            score -= RACK_WEIGHT * (sum(costs) - max(costs))
            if not self.opened_before:
                score += OPENING_BONUS
        return skip(score)

    def _placing(self, sim: Sim) -> list[Meld] | None:
        """The new melds of a close from ``sim`` that lays off the rest of the rack on
        the places the table has now, each value at most as often as it has places
        (:func:`~remi_rules.engine._finish_oracle.placing_melds`: the question
        :func:`~remi_rules.turn_plans.can_close_with` answered for the take); None if
        there is none, ``[]`` where the search proved one but kept no split."""
        state = sim.state
        rack = sim.rack(self.seat)
        down = turn_melds(state) if makes_opening(state) else None
        room = lay_off_room(state, rack)
        return placing_melds(values_of(state.table, rack), self.rules, room, down, self._shared)

    def _whole(self, sim: Sim) -> Whole | None:
        """:meth:`_placing` of the rack at ``sim``, with the rack's values."""
        melds = self._placing(sim)
        if melds is None:
            return None
        return Counter(values_of(sim.state.table, sim.rack(self.seat))), melds

    def _placing_closes(self, sim: Sim) -> Iterator[Sim]:
        """The closes from ``sim`` after a take that must close (ATU-06) that lay
        off only on the places the table has now (what the take's check proved),
        after each justifying meld: after every joker swap first (the jokers they
        bring in place the most), then after each swap, then with none.  A swap
        after which the whole rack has no such close (:meth:`_whole`: the meld and a
        split of the rest are a split of it) is passed over.  First every meld's
        close read off the whole rack's split (:meth:`_close_within`, no solver
        question), then every meld's with its rest's own (:meth:`_placing_close`)."""
        ways: list[tuple[Whole, list[Sim]]] = []
        for swapped in reversed(list(self._swaps(sim))):
            whole = self._whole(swapped)
            if whole is None:
                continue
            forced = [
                f
                for f in self._forced(swapped, keep=1)
                if self._could_close(f.state, f.rack(self.seat), cheap=True)
            ]
            ways.append((whole, forced))
        for whole, forced in ways:
            for f in forced:
                end = self._close_within(f, whole)
                if end is not None:
                    yield end
        for _, forced in ways:
            for f in forced:
                end = self._placing_close(f)
                if end is not None:
                    yield end

    def _close_within(self, sim: Sim, whole: Whole) -> Sim | None:
        """A close from ``sim`` read off ``whole`` (:meth:`_whole` of the position
        before the turn's justifying meld): where a meld of its split holds the tiles
        melded since, the split with what that meld has besides them in its place,
        if that is nothing or a meld (as :func:`~remi_rules.turn_plans.can_close_with`
        reads its whole hand's split); None if none plays out to a close."""
        values, melds = whole
        now = Counter(values_of(sim.state.table, sim.rack(self.seat)))
        need = values - now
        if not need or now - values:
            return None
        for k, meld in enumerate(melds):
            have = Counter(meld.tiles)
            if not need <= have:
                continue
            rest = [*melds[:k], *melds[k + 1 :]]
            left = list((have - need).elements())
            if left:
                ways = arrange_meld(left, self.rules)
                if not ways:
                    continue
                rest.append(max(ways, key=lambda m: m.points))
            end = self._play_close(sim, [(m.tiles, m.points) for m in rest])
            if end is not None:
                return end
        return None

    def _placing_close(self, sim: Sim) -> Sim | None:
        """The close of :meth:`_placing`: its melds put down, then the rest laid off;
        None if there is no such split or it does not end in a close."""
        melds = self._placing(sim)
        return self._play_close(sim, [(m.tiles, m.points) for m in melds]) if melds else None

    def _play_close(self, sim: Sim, melds: Sequence[tuple[Sequence[Tile], int]]) -> Sim | None:
        """``melds`` (tiles in table order, points: :meth:`_meld_all`) put down, the
        rest laid off, then the end if it is a close."""
        closing = sim.copy()
        if not self._meld_all(closing, melds):
            return None
        self._layoffs(closing, keep=1)
        end = self._end(closing)
        return end if end is not None and end.closed_by(self.seat) else None

    def _closes(self, sim: Sim) -> Iterator[Sim | None]:
        """Each way to close now: every distinct tile tried as the closing tile, the
        rest melded or laid off (the solver), when the rack is small enough to try
        (a big rack's close is the solver's split with the last tile left, or, in a
        turn that must close, :meth:`_placing_closes`).

        First a bound (:meth:`_could_close`): where the whole rack cannot place all
        but one tile, no tile closes."""
        rack = sim.rack(self.seat)
        if len(rack) > 12:
            return
        state = sim.state
        if not self._could_close(state, rack):
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
