"""The turn hint ("Sugestie", ONLINE-06): the best whole turn from a seat's view.

:func:`hint` looks at a :class:`~remi_rules.engine.PlayerView` and returns a
:class:`TurnPlan`: what to take (the stock, the last discard, a rupere at which tile,
the atu), which melds to put down, which tiles to lay off, which jokers to swap, and
which tile to discard or close with; ``plan.steps`` are engine steps that apply
legally, in order, from the view's position, and ``plan.reason("ro")`` /
``plan.reason("en")`` says why in words a player follows.

How a plan is found (docs/solver.md, "The hint"):

* Every candidate turn is built from the exact solver (:mod:`remi_rules.solver`): the
  best opening under the ruleset, or the best melds with lay-offs, the justifying meld
  of a taken discard first, joker swaps tried with and without, and every tile tried
  as the closing tile when a close is near.
* Each candidate is played out step by step on a copy of the position (the engine's
  own :func:`~remi_rules.engine.transition.apply_step`), so only legal turns survive,
  the turn-end checks included; the survivors are scored (a close by the round's
  real score for the seat, else the points put down, an opening, and what is left on
  the rack) and the best one wins.
* A draw from the stock is valued by playing the rest of the turn with a few tiles
  the seat cannot see (a seeded sample, so the same view gives the same hint); a
  plan that draws stops after the draw, because what follows depends on the tile:
  ask again once it is on the rack (``plan.complete`` is False).
"""

from __future__ import annotations

import enum
import random
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
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
from .errors import HintError, HintErrorCode, IllegalStepError, RemiError
from .lipire import End, might_fit
from .melds import MeldKind
from .opening import min_rack_after_opening
from .ruleset import AtuBonusTrigger, OpeningComposition, Ruleset, require_ruleset
from .rupere import justifying_melds
from .solver import opening_split
from .table import TableMeld
from .tiles import Tile, tiles_str
from .values import rack_value_end

__all__ = ["Note", "NoteCode", "TurnPlan", "few_tiles_note", "hint"]


class NoteCode(enum.StrEnum):
    """One sentence of a plan's explanation."""

    ANNOUNCE_ATU = "announce_atu"
    DRAW = "draw"
    DRAW_ONLY = "draw_only"
    THEN_ASK = "then_ask"
    TAKE_LAST = "take_last"
    RUPERE = "rupere"
    TAKE_ATU = "take_atu"
    SWAP = "swap"
    OPEN = "open"
    NO_OPENING = "no_opening"
    MELD = "meld"
    LAY_OFF = "lay_off"
    CLOSE = "close"
    DISCARD = "discard"
    FIRST_TURN = "first_turn"
    KEEP_JOKER = "keep_joker"
    ANNOUNCE_FEW = "announce_few"
    UNDO = "undo"


# (Romanian, English); ``{name}`` placeholders come from the note's details.
_TEXT: Final[dict[NoteCode, tuple[str, str]]] = {
    NoteCode.ANNOUNCE_ATU: (
        "Anunță atuul: ai perechea lui, {tile}; la final primești {bonus} de puncte "
        "dacă ai etalat.",
        "Announce the atu: you hold its twin, {tile}; it earns you {bonus} points at the "
        "end if you have opened.",
    ),
    NoteCode.DRAW: (
        "Trage din grămadă: nicio piesă de jos nu te ajută mai mult decât una nouă.",
        "Draw from the stock: no tile in the row helps you more than a fresh one.",
    ),
    NoteCode.DRAW_ONLY: (
        "Trage din grămadă: de jos nu poți lua nimic acum.",
        "Draw from the stock: you cannot take anything from the row now.",
    ),
    NoteCode.THEN_ASK: (
        "După ce tragi, cere din nou o sugestie pentru restul turei.",
        "Once you have drawn, ask again for the rest of the turn.",
    ),
    NoteCode.TAKE_LAST: (
        "Ia ultima piesă aruncată, {tile}: intră în {meld}.",
        "Take the last discard, {tile}: it goes into {meld}.",
    ),
    NoteCode.RUPERE: (
        "Rupe șirul la {tile} și ia cele {count} piese de acolo încolo: {tile} intră în {meld}.",
        "Break the row at {tile} and take the {count} tiles from there on: {tile} goes "
        "into {meld}.",
    ),
    NoteCode.TAKE_ATU: (
        "Ia atuul {tile}: cu el închizi în această tură.",
        "Take the atu {tile}: with it you close this turn.",
    ),
    NoteCode.SWAP: (
        "Schimbă jokerul din {meld} cu {tile} și ia jokerul.",
        "Put {tile} in the joker's place in {meld} and take the joker.",
    ),
    NoteCode.OPEN: (
        "Etalează prima dată: {melds} ({points} de puncte; minimul este {minimum}).",
        "Make your first etalare: {melds} ({points} points; the minimum is {minimum}).",
    ),
    NoteCode.NO_OPENING: (
        "Încă nu poți etala: îți trebuie {minimum} de puncte {shape_ro}.",
        "You cannot open yet: you need {minimum} points {shape_en}.",
    ),
    NoteCode.MELD: (
        "Pune jos {meld} ({points} de puncte).",
        "Meld {meld} ({points} points).",
    ),
    NoteCode.LAY_OFF: (
        "Lipește {tile} la {meld}.",
        "Lay {tile} off on {meld}.",
    ),
    NoteCode.CLOSE: (
        "Închide cu {tile}{effect_ro}: runda îți aduce {score} de puncte.",
        "Close with {tile}{effect_en}: the round scores {score} for you.",
    ),
    NoteCode.DISCARD: (
        "Aruncă {tile}: {why_ro}.",
        "Discard {tile}: {why_en}.",
    ),
    NoteCode.FIRST_TURN: (
        "În prima tură nu se etalează: doar arunci o piesă.",
        "No melds in your first turn: you only discard.",
    ),
    NoteCode.KEEP_JOKER: (
        "Păstrează jokerul pentru etalare.",
        "Keep the joker for your opening.",
    ),
    NoteCode.ANNOUNCE_FEW: (
        "Anunță că mai ai {tiles_ro}, altfel pierzi {penalty} de puncte.",
        "Announce that you hold {tiles_en}, or you lose {penalty} points.",
    ),
    NoteCode.UNDO: (
        "Tura nu se mai poate încheia așa: anulează ultimul pas.",
        "The turn cannot end as it stands: undo the last step.",
    ),
}

_WHY: Final = {
    "alone": ("nu face grup cu nimic din mână", "it goes with nothing in your hand"),
    "least": (
        "e piesa de care ai cea mai mică nevoie",
        "it is the tile you are least likely to use",
    ),
}
_SHAPE: Final = {
    OpeningComposition.RUN: ("cu o suită", "with a run"),
    OpeningComposition.RUN_AND_SET: ("cu o suită și o terță", "with a run and a set"),
}


@attrs.frozen
class Note:
    """One sentence of a plan's explanation: a :class:`NoteCode` and its details."""

    code: NoteCode
    details: Mapping[str, object] = attrs.field(factory=dict)

    def message(self, lang: str = "en") -> str:
        """The sentence in ``"ro"`` or ``"en"``."""
        if lang not in ("ro", "en"):
            raise ValueError(f"unknown language {lang!r}; use 'ro' or 'en'")
        return _TEXT[self.code][lang == "en"].format(**self.details)


def few_tiles_note(count: int, penalty: int | None) -> Note:
    """The note that asks a seat left with ``count`` tiles to announce it (ANNOUNCE-01),
    or lose ``penalty`` points (ANNOUNCE-03)."""
    return Note(
        NoteCode.ANNOUNCE_FEW,
        {
            "tiles_ro": "o piesă" if count == 1 else f"{count} piese",
            "tiles_en": "1 tile" if count == 1 else f"{count} tiles",
            "penalty": penalty or 0,
        },
    )


@attrs.frozen
class TurnPlan:
    """A whole turn (or its rest) for ``seat``.

    ``steps`` apply legally in order from the position the plan was made for (the
    announcements a seat makes around its turn included).  ``complete`` is False when
    the plan stops at a draw from the stock.  ``closes`` and ``opens`` say whether the
    turn closes the round or makes the first etalare; ``points`` are the etalare
    points (VALUE-01) the turn puts on the table (new melds and lay-offs); ``score``
    is the planner's valuation; ``notes`` the explanation, one sentence each."""

    seat: int
    steps: tuple[Step, ...]
    notes: tuple[Note, ...]
    complete: bool = True
    closes: bool = False
    opens: bool = False
    points: int = 0
    score: float = 0.0

    def reason(self, lang: str = "en") -> str:
        """Why this turn, in ``"ro"`` (Romanian) or ``"en"`` (English)."""
        return " ".join(note.message(lang) for note in self.notes)

    def __str__(self) -> str:
        return "; ".join(str(step) for step in self.steps)


def hint(view: PlayerView, rules: Ruleset | None = None, *, samples: int = 3) -> TurnPlan:
    """The best turn for ``view.seat`` from where the round stands (ONLINE-06).

    ``view`` is the seat's :class:`~remi_rules.engine.PlayerView` (``game.view(seat)``);
    ``rules``, if given, must be the view's ruleset.  ``samples`` is how many unseen
    tiles value a draw from the stock (0: one tile, the top of a sampled stock).
    Raises :class:`~remi_rules.HintError` (code: a :class:`~remi_rules.HintErrorCode`)
    when it is not the seat's turn, the round is over or ``rules`` differ.

    >>> from remi_rules import variants
    >>> from remi_rules.engine import Game
    >>> game = Game.new(variants.get("clasic"), 4, seed=5, starter=0)
    >>> plan = hint(game.view(0))                 # the starter's first turn: a discard
    >>> [s.kind for s in plan.steps], plan.notes[0].code.value
    (['discard'], 'first_turn')
    >>> for step in plan.steps:
    ...     _ = game.apply(step)
    """
    if not isinstance(view, PlayerView):
        raise TypeError(f"hint needs a PlayerView, not {type(view).__name__}")
    if rules is not None and require_ruleset(rules) != view.rules:
        raise HintError(
            HintErrorCode.RULES_MISMATCH,
            given=rules.fingerprint(),
            expected=view.rules.fingerprint(),
        )
    if view.phase is Phase.OVER:
        raise HintError(HintErrorCode.ROUND_OVER)
    if view.current != view.seat:
        raise HintError(HintErrorCode.NOT_YOUR_TURN, seat=view.seat)
    if type(samples) is not int or samples < 0:
        raise HintError(HintErrorCode.BAD_SAMPLES, samples=samples)
    return _Planner(view, samples).plan()


# -- playing a candidate out --------------------------------------------------------------


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
        try:
            new, _ = apply_step(self.state, step, NoChance())
        except IllegalStepError:
            return False
        if isinstance(step, MeldTiles):
            self.points += new.table.melds[-1].meld.points
        elif isinstance(step, LayOff):
            meld = new.table.melds[step.meld]
            self.points += meld.meld.tile_values[meld.position_of(step.tile)]
        self.state = new
        self.steps.append(step)
        return True


def _meld_text(meld: TableMeld) -> str:
    return tiles_str(meld.tiles)


class _Planner:
    def __init__(self, view: PlayerView, samples: int) -> None:
        self.view = view
        self.rules = view.rules
        self.seat = view.seat
        self.samples = samples
        seed = (view.turn * 1_000_003 + view.seat * 7_919 + sum(view.rack)) & 0xFFFFFFFF
        self.rng = random.Random(seed)
        self.start = view.sample_state(random.Random(seed))
        self.unseen_at = [[0] * 4 for _ in range(14)]
        for tile, count in view.unseen().items():
            acting = tile.acts_as
            if acting is not None and acting.rank is not None and acting.color is not None:
                self.unseen_at[acting.rank][acting.color.index] += count
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

    def _finish(self, best: tuple[float, _Sim] | None, *, complete: bool) -> TurnPlan:
        assert best is not None
        score, sim = best
        state = sim.state
        closes = state.end is not None and state.end.closer == self.seat
        opens = not self.start.seats[self.seat].opened and state.seats[self.seat].opened
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
        if sim.apply(AnnounceAtu(self.seat)):
            tile = sim.state.table.tile(sim.state.atu ^ 1)
            sim.notes.append(
                Note(NoteCode.ANNOUNCE_ATU, {"tile": str(tile), "bonus": rules.atu_bonus_points})
            )

    # -- the take -----------------------------------------------------------------------

    def _plan_take(self, sim: _Sim) -> TurnPlan:
        state = sim.state
        options: list[tuple[float, _Sim]] = []
        takes: list[Step] = [TakeLastDiscard()] if state.row else []
        takes += [Rupere(i) for i in range(len(state.row) - 1)]
        if state.atu_face_up:
            takes.append(TakeAtu())
        rack = [state.table.tile(i) for i in state.seats[self.seat].rack]
        first_taken: _Sim | None = None
        for take in takes:
            if isinstance(take, TakeAtu):
                picked = state.atu
            elif isinstance(take, Rupere):
                picked = state.row[take.index]
            else:
                picked = state.row[-1]
            bridged = isinstance(take, Rupere)
            if not _might_justify(state.table.tile(picked), rack, self.rules, bridged=bridged):
                continue
            taken = sim.copy()
            if not taken.apply(take):
                continue
            first_taken = first_taken or taken
            self._note_take(taken, take, state)
            best = self._best(self._action_candidates(taken))
            if best is not None:
                options.append(best)
        drawn = sim.copy()
        can_draw = drawn.apply(Draw())
        if not options:
            if not can_draw and first_taken is not None:
                # The stock is out and no take could be played out to a legal end here:
                # the take, and the rest asked for again.
                return self._finish((0.0, first_taken), complete=False)
            drawn.notes += [Note(NoteCode.DRAW_ONLY), Note(NoteCode.THEN_ASK)]
            return self._finish((0.0, drawn), complete=False)
        best = max(options, key=lambda o: o[0])
        if can_draw and self._draw_value(state) >= best[0]:
            drawn.notes += [Note(NoteCode.DRAW), Note(NoteCode.THEN_ASK)]
            return self._finish((self._draw_value(state), drawn), complete=False)
        return self._finish(best, complete=True)

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
        unseen = set(self.view.hidden_ids())
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

    def _with_stock_top(self, state: GameState, tile_id: int) -> GameState:
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

    def _best(self, candidates: Iterator[_Sim] | list[_Sim]) -> tuple[float, _Sim] | None:
        best: tuple[float, _Sim] | None = None
        for sim in candidates:
            score = self._score(sim)
            if best is None or score > best[0]:
                best = (score, sim)
        return best

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
        meld = _meld_text(sim.state.table.melds[-1])
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
        for forced in self._forced(sim, keep=keep):
            done = forced.state.pending
            assert done is not None
            melded = [forced.state.table.melds[m].meld for m in done.new_melds]
            rack = forced.rack(self.seat)
            counts = self._counts(forced.state, rack)
            split = opening_split(counts, self.rules, min_leftover=keep, melded=melded)
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
                        "melds": " | ".join(_meld_text(m) for m in melds),
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
                shape_ro, shape_en = _SHAPE[self.rules.opening_composition]
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

    def _note_swap(self, sim: _Sim, step: SwapJoker, before: GameState) -> None:
        sim.notes.append(
            Note(
                NoteCode.SWAP,
                {
                    "tile": str(before.table.tile(step.tile)),
                    "meld": _meld_text(before.table.melds[step.meld]),
                },
            )
        )

    def _melds_and_ends(self, sim: _Sim) -> Iterator[_Sim]:
        """Melds (the solver's best, lay-offs counted), lay-offs, then the end: every
        close the rack allows, or the best discard."""
        yield from (c for c in self._closes(sim) if c is not None)
        placed = sim.copy()
        rack = placed.rack(self.seat)
        split = partition.solve(
            self._counts(placed.state, rack),
            self.rules,
            constraints=partition.Constraints(min_leftover=1),
            extra=self._layable_value(placed.state, rack),
        )
        if split is not None:
            self._put_down(placed, split[1])
        self._layoffs(placed, keep=1)
        end = self._end(placed)
        if end is not None:
            yield end

    def _closes(self, sim: _Sim) -> Iterator[_Sim | None]:
        """Each way to close now: every distinct tile tried as the closing tile, the
        rest melded or laid off (the solver), when the rack is small enough to try."""
        rack = sim.rack(self.seat)
        if len(rack) > 12:
            return
        table = sim.state.table
        tried: set[Tile] = set()
        for last in sorted(rack, key=lambda i: (-rack_value_end(table.tile(i), self.rules), i)):
            value = table.tile(last)
            if value in tried:
                continue
            tried.add(value)
            rest = [i for i in rack if i != last]
            counts = self._counts(sim.state, rest)
            split = partition.solve(
                counts,
                self.rules,
                tiles_objective=True,
                extra=self._layable_value(sim.state, rest, tiles=True),
            )
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
                    {"meld": _meld_text(sim.state.table.melds[-1]), "points": cand.points},
                )
            )
        return True

    def _layoffs(
        self, sim: _Sim, *, keep: int, avoid: Sequence[int] = (), own_new_only: bool = False
    ) -> None:
        """Lay off rack tiles wherever they fit, the costliest first, while more than
        ``keep`` tiles stay (jokers are kept for melds unless they close the turn)."""
        rules = self.rules
        progress = True
        while progress:
            progress = False
            state = sim.state
            rack = sim.rack(self.seat)
            if len(rack) <= keep:
                return
            table = state.table
            turn = state.pending
            assert turn is not None
            targets = turn.new_melds if own_new_only else range(len(table.melds))
            order = sorted(rack, key=lambda i: (-rack_value_end(table.tile(i), rules), i))
            for tile_id in order:
                if tile_id in avoid:
                    continue
                tile = table.tile(tile_id)
                if tile.is_joker and not tile.is_fixed_joker and len(rack) - 1 > keep:
                    continue
                for index in targets:
                    meld = table.melds[index]
                    if not might_fit(tile, meld):
                        continue
                    ends = (End.LOW, End.HIGH) if meld.kind is MeldKind.SUITA else (End.SET,)
                    for end in ends:
                        if sim.apply(LayOff(tile_id, index, end)):
                            sim.notes.append(
                                Note(
                                    NoteCode.LAY_OFF,
                                    {"tile": str(tile), "meld": _meld_text(table.melds[index])},
                                )
                            )
                            progress = True
                            break
                    if progress:
                        break
                if progress:
                    break

    def _layable_value(
        self, state: GameState, rack: Sequence[int], *, tiles: bool = False
    ) -> Callable[[int], int] | None:
        """The solver's ``extra``: what laying each rack value off is worth (its
        points, or one tile), for the values that fit a meld on the table now or
        after the rack's other tiles have extended it; None if none fits."""
        table = state.table
        turn = state.pending
        assert turn is not None
        seat = state.seats[self.seat]
        if not (seat.opened or turn.new_melds) or not table.melds:
            return None
        fits: dict[int, int] = {}
        held = Counter(table.tile(i) for i in rack)
        for meld in table.melds:
            for tile, worth in _extensions(meld, held):
                field = partition.field_of(tile)
                fits[field] = max(fits.get(field, 0), worth)
        if not fits:
            return None
        if tiles:
            return lambda f: 1 if f in fits else 0
        return lambda f: fits.get(f, 0) * 64 + 1 if f in fits else 0

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
        ranked = sorted(range(len(rack)), key=lambda k: (self._keep_value(k, tiles), rack[k]))
        for k in ranked:
            done = sim.copy()
            if first_turn:
                done.notes.append(Note(NoteCode.FIRST_TURN))
            if not done.apply(Discard(rack[k])):
                continue
            if done.state.end is not None:  # a discard of the last tile closes
                self._note_close(done, rack[k], state)
                return done
            why = "alone" if self._partners(k, tiles) == 0 else "least"
            ro, en = _WHY[why]
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
    def _partners(k: int, tiles: Sequence[Tile]) -> int:
        tile = tiles[k]
        if tile.is_joker:
            return len(tiles) - 1
        acting = tile.acts_as
        assert acting is not None and acting.rank is not None
        count = 0
        for j, other in enumerate(tiles):
            if j == k:
                continue
            if other.is_joker:
                count += 1
                continue
            act = other.acts_as
            assert act is not None and act.rank is not None
            if act == acting:
                continue
            if act.rank == acting.rank or (
                act.color is acting.color and act.rank in _NEAR[acting.rank]
            ):
                count += 1
        return count

    def _keep_value(self, k: int, tiles: Sequence[Tile]) -> float:
        """How much the seat should keep tile ``k``: jokers always; then tiles that go
        with others in the rack, and those whose completing tiles are still unseen;
        of equally useless tiles, the costliest at the end goes first."""
        tile = tiles[k]
        if tile.is_joker:
            return 1e6
        partners = self._partners(k, tiles)
        return 10.0 * partners + 0.5 * self._outs(tile) - 0.2 * rack_value_end(tile, self.rules)

    def _outs(self, tile: Tile) -> int:
        """How many unseen tiles would go with ``tile`` in a meld: its rank in the other
        colours, its colour within two ranks."""
        acting = tile.acts_as
        assert acting is not None and acting.rank is not None and acting.color is not None
        unseen = self.unseen_at
        rank, colour = acting.rank, acting.color.index
        outs = sum(unseen[rank][c] for c in range(4) if c != colour)
        return outs + sum(unseen[r][colour] for r in _NEAR[rank])

    # -- valuation ----------------------------------------------------------------------

    def _score(self, sim: _Sim) -> float:
        """A finished turn's valuation: a close by the seat's real round score; else
        the points put down, an opening, and what the rack would cost at the end."""
        state = sim.state
        if state.end is not None:
            result = score_state(state)
            mine = result.seats[self.seat].total
            return 100_000.0 + mine if state.end.closer == self.seat else float(mine)
        seat = state.seats[self.seat]
        rules = self.rules
        rack_cost = sum(rack_value_end(state.table.tile(i), rules) for i in seat.rack)
        score = float(sim.points)
        if seat.opened:
            score -= 0.25 * rack_cost
            if not self.start.seats[self.seat].opened:
                score += 150.0
        return score

    @staticmethod
    def _counts(state: GameState, ids: Sequence[int]) -> list[int]:
        return partition.counts_of(state.table.tile(i) for i in ids)


def _near_ranks(rank: int) -> frozenset[int]:
    """The ranks within two places of ``rank`` in a run (the ace at both ends)."""
    out: set[int] = set()
    for place in (rank, 14) if rank == 1 else (rank,):
        for step in (-2, -1, 1, 2):
            other = place + step
            if 1 <= other <= 13:
                out.add(other)
            elif other == 14:
                out.add(1)
    out.discard(rank)
    return frozenset(out)


_NEAR: Final = (frozenset[int](), *(_near_ranks(r) for r in range(1, 14)))
"""``_NEAR[rank]``: the ranks a tile of ``rank`` may share a run with, two places away
at most."""


def _might_justify(
    picked: Tile, rack: Sequence[Tile], rules: Ruleset, *, bridged: bool = False
) -> bool:
    """A cheap necessary condition for a taken tile to go into a new meld with rack
    tiles (RUPE-01): enough rack tiles of its rank in other colours, or of its colour
    within two ranks (any rank when ``bridged``: the later tiles a rupere brings may
    fill the gaps of a run), jokers counting for either."""
    acts = picked.acts_as
    if acts is None or acts.rank is None:
        return True
    jokers = sum(t.is_joker and t.acts_as is None for t in rack)
    same_rank: set[object] = set()
    near: set[int] = set()
    for tile in rack:
        act = tile.acts_as
        if act is None or act.rank is None or act == acts:
            continue
        if act.rank == acts.rank:
            same_rank.add(act.color)
        elif act.color is acts.color and (bridged or act.rank in _NEAR[acts.rank]):
            near.add(act.rank)
    need = max(2, rules.take_meld_min_own_tiles)
    return len(same_rank) + jokers >= need or len(near) + jokers >= need


def _extensions(meld: TableMeld, held: Counter[Tile]) -> Iterator[tuple[Tile, int]]:
    """Rack values that could be laid on ``meld``, directly or once other rack values
    have extended it (a run grows end by end), with their VALUE-01 worth there."""
    info = meld.meld
    if info.kind is MeldKind.TERTA:
        if len(meld.ids) >= 4:
            return
        present = {t.acts_as.color for t in info.tiles if t.acts_as is not None}
        worth = 25 if info.low == 1 else 10 if info.low >= 10 else 5
        for tile in held:
            acts = tile.acts_as
            if acts is not None and acts.rank == info.low and acts.color not in present:
                yield tile, worth
        return
    colour = info.color
    low, high = info.low, info.high
    rank_tile = {
        (t.acts_as.rank if t.acts_as.rank != 1 else None): t
        for t in held
        if t.acts_as is not None and t.acts_as.color is colour and t.acts_as.rank is not None
    }
    ace = next(
        (
            t
            for t in held
            if t.acts_as is not None and t.acts_as.color is colour and t.acts_as.rank == 1
        ),
        None,
    )
    r = high + 1
    while r <= 13 and rank_tile.get(r) is not None:
        yield rank_tile[r], 10 if r >= 10 else 5
        r += 1
    if r == 14 and ace is not None:
        yield ace, 10
    r = low - 1
    while r >= 2 and rank_tile.get(r) is not None:
        yield rank_tile[r], 10 if r >= 10 else 5
        r -= 1
    if r == 1 and ace is not None and low > 1:
        yield ace, 5
