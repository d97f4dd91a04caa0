"""Which steps are legal now: :func:`legal_steps` generates them, each one passing
:func:`~remi_rules.engine.transition.apply_step` (a test checks the agreement on many
reachable states, both ways).

Melds are generated from the rack's values (every valid run and set inside it, a
joker in every slot it may fill) and then every choice of physical copies; a set is
listed once, in its canonical order (:attr:`Meld.tiles <remi_rules.Meld.tiles>`), a
run in its laid (ascending) order.  Lay-offs name their end.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator

from ..errors import IllegalStepError
from ..lipire import End, might_fit
from ..melds import MeldKind, analyze_meld
from ..opening import min_rack_after_opening
from ..ruleset import ClosingTileMode
from ..rupere import _layouts  # the meld catalogue of a multiset (shared with rupere)
from ..tiles import JOKER_IDS, Tile
from .state import GameState, Phase
from .steps import (
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
)
from .transition import (
    NoChance,
    _can_reshuffle,
    _min_rack,
    _rights,
    _verify_atu_take,
    _verify_row_take,
    apply_step,
    double_class,
    doubles_of,
    verify_turn_end,
)

__all__ = ["legal_steps", "meld_candidates", "out_of_turn_steps", "turn_steps"]


def _ok(state: GameState, step: Step) -> bool:
    try:
        apply_step(state, step, NoChance())
    except IllegalStepError:
        return False
    return True


def out_of_turn_steps(state: GameState) -> Iterator[Step]:
    """Announcements, declarations and the pre-play steps legal now, for every seat."""
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
    if state.stock or _can_reshuffle(state):
        yield Draw()
    row = state.row
    for index in range(len(row)):
        step: Step = TakeLastDiscard() if index == len(row) - 1 else Rupere(index)
        try:
            _verify_row_take(state, index, step)
        except IllegalStepError:
            continue
        yield step
    if state.atu_face_up:
        try:
            _verify_atu_take(state, TakeAtu())
        except IllegalStepError:
            return
        yield TakeAtu()


def _assignments(
    layout: tuple[Tile, ...], by_value: dict[Tile, list[int]]
) -> Iterator[tuple[int, ...]]:
    """Every choice of distinct physical ids for the tile values of ``layout``."""
    choices = [by_value[t] for t in layout]
    for ids in itertools.product(*choices):
        if len(set(ids)) == len(ids):
            yield ids


def meld_candidates(state: GameState) -> Iterator[MeldTiles]:
    """Every new meld the current player may put down now (before the turn-end checks)."""
    turn = state.pending
    if turn is None or turn.took is None or state.phase is not Phase.ACTION:
        return
    seat = state.seats[state.current]
    rules = state.rules
    if seat.turns == 1 and rules.first_turn_no_meld:
        return
    minimum = min_rack_after_opening(rules) if _min_rack(state, seat, turn) else 1
    table = state.table
    by_value: dict[Tile, list[int]] = {}
    for i in seat.rack:
        by_value.setdefault(table.tile(i), []).append(i)
    pool = Counter({t: len(ids) for t, ids in by_value.items()})
    seen: set[tuple[int, ...]] = set()
    for layout in _layouts(pool, rules):
        if len(seat.rack) - len(layout) < minimum:
            continue
        if layout[0].rank == layout[-1].rank or layout[0].is_joker or layout[-1].is_joker:
            meld = analyze_meld(layout, rules)
            if meld.kind is MeldKind.TERTA:
                layout = meld.tiles  # a set in its canonical order (fixed jokers included)
        for ids in _assignments(layout, by_value):
            if ids not in seen:
                seen.add(ids)
                yield MeldTiles(ids)


def _layoffs_and_swaps(state: GameState) -> Iterator[Step]:
    turn = state.pending
    if turn is None or turn.took is None or state.phase is not Phase.ACTION:
        return
    seat = state.seats[state.current]
    rules = state.rules
    if seat.turns == 1 and rules.first_turn_no_meld:
        return
    opened, _ = _rights(seat, turn)
    if not opened and rules.swap_requires_opened:
        return
    table = state.table
    for tile_id in seat.rack:
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


def _ends(state: GameState) -> Iterator[Step]:
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
    for tile_id in rack:
        yield Discard(tile_id)


def turn_steps(state: GameState) -> Iterator[Step]:
    """The current player's legal steps (takes, melds, lay-offs, swaps, the discard or
    the close)."""
    if state.phase is Phase.OVER:
        return
    turn = state.pending
    assert turn is not None
    if state.phase is Phase.TAKE:
        yield from _takes(state)
        return
    if turn.took is None:  # the starter's first turn: discard only (TURN-01)
        for tile_id in state.seats[state.current].rack:
            yield Discard(tile_id)
        return
    for step in meld_candidates(state):
        if _ok(state, step):
            yield step
    yield from _layoffs_and_swaps(state)
    yield from _ends(state)


def legal_steps(state: GameState) -> tuple[Step, ...]:
    """Every legal step now except :class:`~remi_rules.engine.steps.Undo` (which
    depends on the game's history: see :meth:`Game.legal_steps
    <remi_rules.engine.Game.legal_steps>`)."""
    return (*turn_steps(state), *out_of_turn_steps(state))
