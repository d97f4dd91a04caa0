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
  (:mod:`remi_rules.notation`: "the copy the turn owes first"), and within a
  class the copies are used in rack order;
* a discard is listed once per class (its first copy in rack order).

The doubles steps (out of turn, before play) name the first copy of each double.

A step that names another copy of the same class still verifies and applies: the
verifier accepts any physical copy.

Melds are generated from the rack's values (every valid run and set inside it, a
joker in every slot it may fill); a set is listed once, in its canonical order
(:attr:`Meld.tiles <remi_rules.Meld.tiles>`), a run in its laid (ascending) order.
Lay-offs name their end.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator

from .._slots import maker
from ..errors import EngineArgumentError, EngineErrorCode, IllegalStepError
from ..ruleset import ClosingTileMode
from ._common import SEAT_LISTINGS
from ._copies import Classes, classes_of, tile_key
from ._placing import layoffs_and_swaps
from ._placing import meld_candidates as _meld_candidates
from ._takes import can_reshuffle, may_take_atu, row_take_indexes, verify_atu_take
from ._turn_end import verify_turn_end
from ._windows import open_offer
from .deal import double_class, doubles_of
from .state import GameState, Phase
from .steps import (
    STEP_TYPES,
    AcceptDoubles,
    Close,
    DemandRedeal,
    Discard,
    Draw,
    LayOff,
    MeldTiles,
    OfferDoubles,
    Rupere,
    Step,
    SwapJoker,
    TakeAtu,
    TakeLastDiscard,
    tile_label,
)

__all__ = [
    "can_end_turn",
    "canonical_step",
    "copy_key",
    "legal_steps",
    "meld_candidates",
    "out_of_turn_steps",
    "turn_steps",
]

_discard = maker(Discard, trusted=True)
"""A discard of a rack tile, built without its argument checks (the hot path)."""


def _require_state(state: object) -> GameState:
    if not isinstance(state, GameState):
        raise TypeError(f"state must be a GameState, not {type(state).__name__}")
    return state


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
    return tile_key(state, seat, tile_id)


def canonical_step(state: GameState, step: Step) -> Step:
    """The listed step equivalent to ``step``: the same step with each rack tile
    replaced by the canonical copy of its class (:func:`copy_key`; the copies of a
    class used in rack order).  Steps that name no rack tile, and tiles that are not
    on the rack, are returned unchanged.  ``step in legal_steps(state)`` for every
    legal ``step`` (up to a lay-off's omitted end), and ``step`` verifies exactly when
    its canonical step does.  (A doubles step names a double by its first copy.)"""
    _require_state(state)
    if isinstance(step, OfferDoubles | AcceptDoubles):
        tile = step.tile & ~1 if 0 <= step.tile < 104 else step.tile
        if isinstance(step, OfferDoubles):
            return OfferDoubles(step.seat, tile)
        return AcceptDoubles(step.seat, tile, step.offer)
    if not isinstance(step, MeldTiles | LayOff | SwapJoker | Discard | Close):
        if not isinstance(step, STEP_TYPES):
            raise TypeError(f"not a step: {type(step).__name__}")
        return step
    if state.pending is None:
        return step
    classes = classes_of(state, state.current)
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


def out_of_turn_steps(state: GameState) -> Iterator[Step]:
    """Announcements, declarations and the pre-play steps legal now, for every seat
    (the doubles steps with the first copy of each double)."""
    _require_state(state)
    return _out_of_turn(state, None)


def _out_of_turn(state: GameState, only: int | None) -> Iterator[Step]:
    """:func:`out_of_turn_steps`, of seat ``only`` (None: every seat)."""
    if state.phase is Phase.OVER:
        return
    listings = SEAT_LISTINGS.items()
    for seat, held in enumerate(state.seats):
        if only is not None and seat != only:
            continue
        # the full check only where the cheap one passes (a refusal is costly to make)
        for cls, (maybe, check) in listings:
            if maybe(state, held):
                step = cls(seat)  # type: ignore[call-arg]
                try:
                    check(state, step)
                except IllegalStepError:
                    continue
                yield step
    if not state.preplay:
        return
    rules = state.rules
    if rules.redeal_doubles_threshold is not None:
        for seat in range(state.players):
            if only is not None and seat != only:
                continue
            if len(doubles_of(state.seats[seat].rack)) >= rules.redeal_doubles_threshold:
                yield DemandRedeal(seat)
    if rules.doubles_exchange:
        yield from _doubles_steps(state, only)


def _doubles_steps(state: GameState, only: int | None) -> Iterator[Step]:
    """The exchange of doubles (DUBLE-03/04), each step naming only its seat's own
    tile: an offer of each double not exchanged (its first copy) by a seat without an
    open offer, the acceptance of another seat's open offer with each such double (of
    the offer's class where ``doubles_exchange_same_class``)."""
    rules = state.rules
    same_class = rules.doubles_exchange_same_class
    offers = state.offers
    for seat, held in enumerate(state.seats):
        if only is not None and seat != only:
            continue
        doubles = [2 * v for v in doubles_of(held.rack) if v not in state.exchanged]
        mine = open_offer(state, seat)
        if mine is None:
            yield from (OfferDoubles(seat, tile) for tile in doubles)
        for offer in offers:
            if offer.seat == seat:
                continue
            for tile in doubles:
                if not same_class or double_class(tile, rules) == offer.double_class:
                    yield AcceptDoubles(seat, tile, offer.seat)


def _takes(state: GameState) -> Iterator[Step]:
    if state.stock or can_reshuffle(state):
        yield Draw()
    row = state.row
    last = len(row) - 1
    for index in row_take_indexes(state):
        yield TakeLastDiscard() if index == last else Rupere(index)
    if may_take_atu(state):
        try:
            verify_atu_take(state, TakeAtu())
        except IllegalStepError:
            return
        yield TakeAtu()


def meld_candidates(state: GameState) -> Iterator[MeldTiles]:
    """Every new meld the current player may put down now (before the turn-end
    checks), once per choice of tile values and copy classes, with canonical copies
    (see :func:`canonical_step`)."""
    _require_state(state)
    return _meld_candidates(state, None)


def _may_end(state: GameState) -> bool:
    """A discard of the rack's first tile, or with one tile left its close, is legal
    (the others are then too: the turn-end checks do not look at which tile goes)."""
    turn = state.pending
    assert turn is not None
    rack = state.seats[state.current].rack
    if len(rack) == 1:
        if turn.took is None:
            return False
        try:
            verify_turn_end(state, Close(rack[0]), closing_now=True)
        except IllegalStepError:
            return False
        return True
    try:
        verify_turn_end(state, Discard(rack[0]), closing_now=False)
    except IllegalStepError:
        return False
    limit = state.rules.max_rack_after_turn
    return limit is None or len(rack) - 1 <= limit


def _ends(state: GameState, classes: Classes) -> Iterator[Step]:
    if not _may_end(state):
        return
    rack = state.seats[state.current].rack
    if len(rack) == 1:
        yield Close(rack[0])
        if state.rules.closing_tile_mode is not ClosingTileMode.KEEP:
            yield Discard(rack[0])
        return
    for tile_id in classes.representatives:
        yield _discard(tile_id)


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
    return _may_end(state)


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
    classes = classes_of(state, state.current)
    if turn.took is None:  # the starter's first turn: discard only (TURN-01)
        for tile_id in classes.representatives:
            yield Discard(tile_id)
        return
    # each candidate passes apply_step's checks of a meld by construction (closing the
    # previous seat's announcement window first changes nothing a meld's legality reads)
    yield from _meld_candidates(state, classes)
    yield from layoffs_and_swaps(state, classes)
    yield from _ends(state, classes)


def seat_steps(state: GameState, seat: int) -> tuple[Step, ...]:
    """The steps of :func:`legal_steps` that ``seat`` sends (its turn's steps when it
    is to move, its announcements, declarations and doubles steps), in the same
    order."""
    _require_state(state)
    if state.phase is not Phase.OVER and seat == state.current:
        return (*turn_steps(state), *_out_of_turn(state, seat))
    return tuple(_out_of_turn(state, seat))


def legal_steps(state: GameState) -> tuple[Step, ...]:
    """Every legal step now except :class:`~remi_rules.engine.steps.Undo` (which
    depends on the game's history: see :meth:`Game.legal_steps
    <remi_rules.engine.Game.legal_steps>`), each choice once: steps that differ only in
    which copy of a tile they name are listed with the canonical copy
    (:func:`canonical_step`); any copy of the same class verifies and applies."""
    _require_state(state)
    return (*turn_steps(state), *out_of_turn_steps(state))
