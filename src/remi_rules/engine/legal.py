"""Which steps are legal now: :func:`legal_steps` generates them, each one passing
:func:`~remi_rules.engine.transition.apply_step` (a test checks the agreement on many
reachable states, both ways).

**Copies.** Every value but the joker exists twice (TILES-01), so a rack often holds
two tiles that the rules cannot tell apart.  Two tiles of one rack are *copies of each
other* (:func:`copy_key`) when they have the same value (a joker's history — its
swaps and fixed identity, JOLY-02/05 — included) and the same part in the pending
turn: the tile taken from the row or the atu (RUPE-01, ATU-06), the other tiles of a
rupere where RUPE-06 counts only tiles held before the take
(``take_meld_tiles_must_predate_take``), a joker swapped this turn (JOLY-04), the
atu's twin (ATU-02/04).  Exchanging two copies everywhere in a state leaves every
rule's answer the same (tests/test_reliability_engine.py checks it), so the generator
lists each choice once, with *canonical* copies (:func:`canonical_step`):

* a step that puts tiles down (meld, lay-off, swap) is listed once per choice of
  copy classes for its tile values; the owed classes (the taken tile, a swapped
  joker, the atu's twin) come first, as in the CLI's notation
  (:mod:`remi_rules.cli.notation`: "the copy the turn owes first"), and within a
  class the copies are used in rack order;
* a discard is listed once per class (its first copy in rack order).

(A doubles exchange, out of turn and rare, is still listed with each physical tile
of each double.)

A step that names another copy of the same class still verifies and applies: the
verifier accepts any physical copy.

Melds are generated from the rack's values (every valid run and set inside it, a
joker in every slot it may fill); a set is listed once, in its canonical order
(:attr:`Meld.tiles <remi_rules.Meld.tiles>`), a run in its laid (ascending) order.
Lay-offs name their end.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Hashable, Iterator, Sequence

from ..errors import EngineArgumentError, EngineErrorCode, IllegalStepError
from ..layouts import meld_layouts
from ..lipire import End, might_fit
from ..melds import MeldKind, analyze_meld
from ..opening import min_rack_after_opening
from ..ruleset import ClosingTileMode
from ..tiles import JOKER_IDS, Tile
from ._common import keeps_opening_minimum, rights
from ._table_steps import verify_meld
from ._takes import can_reshuffle, verify_atu_take, verify_row_take
from ._turn_end import verify_turn_end
from .deal import NoChance, double_class, doubles_of
from .state import GameState, Phase
from .steps import (
    STEP_TYPES,
    AnnounceAtu,
    AnnounceFewTiles,
    Close,
    DeclarePeTabla,
    DemandRedeal,
    Discard,
    Draw,
    ExchangeDoubles,
    LayOff,
    MeldTiles,
    Rupere,
    Step,
    SwapJoker,
    TakeAtu,
    TakeLastDiscard,
    tile_label,
)
from .transition import apply_step

__all__ = [
    "can_end_turn",
    "canonical_step",
    "copy_key",
    "legal_steps",
    "meld_candidates",
    "out_of_turn_steps",
    "turn_steps",
]


def _require_state(state: object) -> GameState:
    if not isinstance(state, GameState):
        raise TypeError(f"state must be a GameState, not {type(state).__name__}")
    return state


# -- copies ---------------------------------------------------------------------------------


def _key(state: GameState, seat: int, tile_id: int) -> tuple[Hashable, ...]:
    table = state.table
    value = table.tile(tile_id)
    history = table.joker(tile_id) if tile_id in JOKER_IDS else None
    twin = tile_id == state.atu ^ 1
    turn = state.pending
    picked = rupere_tile = swapped = False
    if turn is not None and turn.seat == seat:
        ob = turn.obligation
        if ob is not None:
            picked = tile_id == ob.picked
            rupere_tile = state.rules.take_meld_tiles_must_predate_take and tile_id in ob.also_taken
        swapped = tile_id in turn.swapped_jokers
    return (value, history, picked, swapped, twin, rupere_tile)


def copy_key(state: GameState, seat: int, tile_id: int) -> tuple[Hashable, ...]:
    """What tells rack tile ``tile_id`` of ``seat`` apart from the other tiles of that
    rack: two tiles with equal keys are copies of each other (see the module's
    docstring), and the generator lists a step with only one of them.  The key holds
    the tile's value, a joker's history, and whether it is the tile the pending turn
    took (RUPE-01, ATU-06), a joker swapped this turn (JOLY-04), the atu's twin
    (ATU-02/04) or, where RUPE-06 counts only tiles held before the take, another
    tile of the rupere.  Raises :class:`~remi_rules.errors.EngineArgumentError`
    (``engine_bad_seat``, ``engine_not_in_rack``) for a seat or tile not at the table."""
    _require_state(state)
    if type(seat) is not int or type(tile_id) is not int:
        raise TypeError("seat and tile_id must be ints")
    if not 0 <= seat < state.players:
        raise EngineArgumentError(EngineErrorCode.BAD_SEAT, seat=seat, players=state.players)
    if tile_id not in state.seats[seat].rack:
        raise EngineArgumentError(EngineErrorCode.NOT_IN_RACK, tile=tile_label(tile_id), seat=seat)
    return _key(state, seat, tile_id)


def _owed(key: tuple[Hashable, ...]) -> bool:
    return bool(key[2] or key[3] or key[4])


class _Classes:
    """The copy classes of one rack: for each value, its classes (owed ones first,
    then in rack order), each a list of ids in rack order."""

    def __init__(self, state: GameState, seat: int) -> None:
        self.of: dict[int, list[int]] = {}
        by_key: dict[tuple[Hashable, ...], list[int]] = {}
        for i in state.seats[seat].rack:
            key = _key(state, seat, i)
            ids = by_key.get(key)
            if ids is None:
                ids = by_key[key] = []
            ids.append(i)
            self.of[i] = ids
        self.by_value: dict[Tile, list[list[int]]] = {}
        for key, ids in sorted(by_key.items(), key=lambda kv: not _owed(kv[0])):
            value = key[0]
            assert isinstance(value, Tile)
            self.by_value.setdefault(value, []).append(ids)
        self.single = {t: group[0] for t, group in self.by_value.items() if len(group) == 1}
        """The copies of each value that has a single class."""
        self.representatives = [ids[0] for ids in by_key.values()]
        """The first copy of each class, the classes in rack order of their first copy."""
        self._owed = [ids[0] for key, ids in by_key.items() if _owed(key)]

    def placing_order(self) -> list[int]:
        """:attr:`representatives`, the owed classes first (the CLI's preference)."""
        owed = self._owed
        return [*owed, *(i for i in self.representatives if i not in owed)]

    def canonical(self, ids: Sequence[int]) -> tuple[int, ...]:
        """``ids`` with each class's copies replaced by its first ones, in order."""
        used: dict[int, int] = {}
        out: list[int] = []
        for i in ids:
            cls = self.of.get(i)
            if cls is None:
                out.append(i)
                continue
            k = used.get(id(cls), 0)
            used[id(cls)] = k + 1
            out.append(cls[k] if k < len(cls) else i)
        return tuple(out)


def canonical_step(state: GameState, step: Step) -> Step:
    """The listed step equivalent to ``step``: the same step with each rack tile
    replaced by the canonical copy of its class (:func:`copy_key`; the copies of a
    class used in rack order).  Steps that name no rack tile, and tiles that are not
    on the rack, are returned unchanged.  ``step in legal_steps(state)`` for every
    legal ``step`` (up to a lay-off's omitted end), and ``step`` verifies exactly when
    its canonical step does.  (A doubles exchange is listed with every physical tile
    and returned unchanged.)"""
    _require_state(state)
    if not isinstance(step, MeldTiles | LayOff | SwapJoker | Discard | Close):
        if not isinstance(step, STEP_TYPES):
            raise TypeError(f"not a step: {type(step).__name__}")
        return step
    if state.pending is None:
        return step
    classes = _Classes(state, state.current)
    if isinstance(step, MeldTiles):
        return MeldTiles(classes.canonical(step.tiles))
    (tile,) = classes.canonical((step.tile,))
    if isinstance(step, LayOff):
        return LayOff(tile, step.meld, step.end)
    if isinstance(step, SwapJoker):
        return SwapJoker(tile, step.meld, step.joker)
    if isinstance(step, Discard):
        return Discard(tile)
    return Close(tile)


def _ok(state: GameState, step: Step) -> bool:
    try:
        apply_step(state, step, NoChance())
    except IllegalStepError:
        return False
    return True


def out_of_turn_steps(state: GameState) -> Iterator[Step]:
    """Announcements, declarations and the pre-play steps legal now, for every seat
    (a doubles exchange with each physical tile of each double: they are few)."""
    _require_state(state)
    if state.phase is Phase.OVER:
        return
    for seat in range(state.players):
        for step in (AnnounceFewTiles(seat), AnnounceAtu(seat), DeclarePeTabla(seat)):
            if _ok(state, step):
                yield step
    rules = state.rules
    if not state.preplay:
        return
    if rules.redeal_doubles_threshold is not None:
        for seat in range(state.players):
            if len(doubles_of(state.seats[seat].rack)) >= rules.redeal_doubles_threshold:
                yield DemandRedeal(seat)
    if not rules.doubles_exchange:
        return
    offers: list[tuple[int, int]] = []
    for seat in range(state.players):
        for value in doubles_of(state.seats[seat].rack):
            if value not in state.exchanged:
                offers.extend(((seat, 2 * value), (seat, 2 * value + 1)))
    for (a, ta), (b, tb) in itertools.permutations(offers, 2):
        if a == b:
            continue
        if rules.doubles_exchange_same_class and double_class(ta, rules) != double_class(tb, rules):
            continue
        yield ExchangeDoubles(a, b, ta, tb)


def _takes(state: GameState) -> Iterator[Step]:
    if state.stock or can_reshuffle(state):
        yield Draw()
    row = state.row
    for index in range(len(row)):
        step: Step = TakeLastDiscard() if index == len(row) - 1 else Rupere(index)
        try:
            verify_row_take(state, index, step)
        except IllegalStepError:
            continue
        yield step
    if state.atu_face_up:
        try:
            verify_atu_take(state, TakeAtu())
        except IllegalStepError:
            return
        yield TakeAtu()


def _assignments(layout: tuple[Tile, ...], classes: _Classes) -> Iterator[tuple[int, ...]]:
    """Physical ids for the tile values of ``layout``, once per choice of copy classes
    (owed classes first); a class's copies go to its slots in rack order."""
    single = classes.single
    out: list[int] = []
    for t in layout:  # the common case first: one class per value
        ids = single.get(t)
        if ids is None:
            break
        for i in ids:
            if i not in out:
                out.append(i)
                break
        else:
            return  # fewer copies than the layout needs
    else:
        yield tuple(out)
        return
    choices = [classes.by_value[t] for t in layout]
    for pick in itertools.product(*choices):
        counts: dict[int, int] = {}
        out = []
        for ids in pick:
            k = counts.get(id(ids), 0)
            if k == len(ids):
                break
            counts[id(ids)] = k + 1
            out.append(ids[k])
        else:
            yield tuple(out)


def meld_candidates(state: GameState) -> Iterator[MeldTiles]:
    """Every new meld the current player may put down now (before the turn-end
    checks), once per choice of tile values and copy classes, with canonical copies
    (see :func:`canonical_step`)."""
    _require_state(state)
    turn = state.pending
    if turn is None or turn.took is None or state.phase is not Phase.ACTION:
        return
    seat = state.seats[state.current]
    rules = state.rules
    if seat.turns == 1 and rules.first_turn_no_meld:
        return
    minimum = min_rack_after_opening(rules) if keeps_opening_minimum(state, seat, turn) else 1
    classes = _Classes(state, state.current)
    pool = Counter({t: sum(len(ids) for ids in group) for t, group in classes.by_value.items()})
    seen: set[tuple[int, ...]] = set()
    for layout in meld_layouts(pool, rules):
        if len(seat.rack) - len(layout) < minimum:
            continue
        if layout[0].rank == layout[-1].rank or layout[0].is_joker or layout[-1].is_joker:
            meld = analyze_meld(layout, rules)
            if meld.kind is MeldKind.TERTA:
                layout = meld.tiles  # a set in its canonical order (fixed jokers included)
        for ids in _assignments(layout, classes):
            if ids not in seen:
                seen.add(ids)
                yield MeldTiles(ids)


def _layoffs_and_swaps(state: GameState, classes: _Classes) -> Iterator[Step]:
    turn = state.pending
    if turn is None or turn.took is None or state.phase is not Phase.ACTION:
        return
    seat = state.seats[state.current]
    rules = state.rules
    if seat.turns == 1 and rules.first_turn_no_meld:
        return
    opened, _ = rights(seat, turn)
    if not opened and rules.swap_requires_opened:
        return
    table = state.table
    for tile_id in classes.placing_order():
        tile = table.tile(tile_id)
        for index, meld in enumerate(table.melds):
            if not might_fit(tile, meld):
                continue
            ends = (End.LOW, End.HIGH) if meld.kind is MeldKind.SUITA else (End.SET,)
            for end in ends:
                step: Step = LayOff(tile_id, index, end)
                if _ok(state, step):
                    yield step
            if tile_id in JOKER_IDS:
                continue
            # A joker the tile may replace (a 3-tile set's joker stands for either
            # missing colour, JOLY-03: the swap rules decide).
            for slot in meld.meld.jokers:
                if tile in slot.candidates:
                    swap = SwapJoker(tile_id, index, meld.ids[slot.position])
                    if _ok(state, swap):
                        yield swap


def _ends(state: GameState, classes: _Classes) -> Iterator[Step]:
    turn = state.pending
    assert turn is not None
    seat = state.seats[state.current]
    rack = seat.rack
    keep = state.rules.closing_tile_mode is ClosingTileMode.KEEP
    if len(rack) == 1:
        if turn.took is None:
            return
        try:
            verify_turn_end(state, Close(rack[0]), closing_now=True)
        except IllegalStepError:
            return
        yield Close(rack[0])
        if not keep:
            yield Discard(rack[0])
        return
    try:
        verify_turn_end(state, Discard(rack[0]), closing_now=False)
    except IllegalStepError:
        return
    limit = state.rules.max_rack_after_turn
    if limit is not None and len(rack) - 1 > limit:
        return
    for tile_id in classes.representatives:
        yield Discard(tile_id)


def can_end_turn(state: GameState) -> bool:
    """The pending turn can end now: a :class:`~remi_rules.engine.steps.Discard` or a
    :class:`~remi_rules.engine.steps.Close` is legal (the engine's undo cap keeps every
    turn that reaches it able to end: :meth:`Game.legal_steps
    <remi_rules.engine.Game.legal_steps>`)."""
    _require_state(state)
    turn = state.pending
    if state.phase is not Phase.ACTION or turn is None:
        return False
    if turn.took is None:  # the starter's first turn: any discard
        return True
    return next(_ends(state, _Classes(state, state.current)), None) is not None


def turn_steps(state: GameState) -> Iterator[Step]:
    """The current player's legal steps (takes, melds, lay-offs, swaps, the discard or
    the close), with canonical copies (:func:`canonical_step`)."""
    _require_state(state)
    if state.phase is Phase.OVER:
        return
    turn = state.pending
    assert turn is not None
    if state.phase is Phase.TAKE:
        yield from _takes(state)
        return
    classes = _Classes(state, state.current)
    if turn.took is None:  # the starter's first turn: discard only (TURN-01)
        for tile_id in classes.representatives:
            yield Discard(tile_id)
        return
    # apply_step's checks of a meld without building the next state (closing the
    # previous seat's announcement window first changes nothing a meld's legality reads)
    for step in meld_candidates(state):
        try:
            verify_meld(state, step)
        except IllegalStepError:
            continue
        yield step
    yield from _layoffs_and_swaps(state, classes)
    yield from _ends(state, classes)


def legal_steps(state: GameState) -> tuple[Step, ...]:
    """Every legal step now except :class:`~remi_rules.engine.steps.Undo` (which
    depends on the game's history: see :meth:`Game.legal_steps
    <remi_rules.engine.Game.legal_steps>`), each choice once: steps that differ only in
    which copy of a tile they name are listed with the canonical copy
    (:func:`canonical_step`); any copy of the same class verifies and applies."""
    _require_state(state)
    return (*turn_steps(state), *out_of_turn_steps(state))
