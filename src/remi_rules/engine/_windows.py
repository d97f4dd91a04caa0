"""The steps outside the turn: the announcements (ANNOUNCE-*, ATU-02/03), the
pe-tablă declaration (CLOSE-06), the exchange of doubles and the redeal (DUBLE-*)."""

from __future__ import annotations

from typing import Final

from ..errors import (
    StepErrorCode,
)
from ..ruleset import (
    AtuBonusTrigger,
    DoublesExchangeUnit,
)
from ..tiles import JOKER_IDS, tile_of
from ._common import handles, refuse, replace_seat, seat_ok, without
from .deal import Chance, deal, double_class, doubles_of
from .events import (
    Announced,
    DoublesExchanged,
    DoublesOffered,
    DoublesOfferWithdrawn,
    Event,
    PeTablaDeclared,
)
from .state import (
    DoublesOffer,
    GameState,
    SeatState,
    evolve_seat,
    evolve_state,
    evolve_turn,
)
from .steps import (
    AcceptDoubles,
    AnnounceAtu,
    AnnounceFewTiles,
    DeclarePeTabla,
    DemandRedeal,
    OfferDoubles,
    Step,
    tile_label,
)

S = StepErrorCode


# -- announcements, declarations, doubles ----------------------------------------------------


def check_announce_few(state: GameState, step: AnnounceFewTiles) -> SeatState:
    """Every check of an :class:`AnnounceFewTiles` (the legal-step generator runs it
    alone); the seat's state."""
    seat = seat_ok(state, step.seat, step)
    if seat.announced_few:
        raise refuse(S.ALREADY_ANNOUNCED, step, seat=step.seat)
    _not_mid_turn(state, step, step.seat)
    threshold = state.rules.announce_threshold
    if len(seat.rack) > threshold:
        raise refuse(S.ANNOUNCE_NOT_DUE, step, threshold=threshold, rack=len(seat.rack))
    return seat


@handles(
    AnnounceFewTiles,
    each_seat_if=lambda state, held: (
        not held.announced_few and len(held.rack) <= state.rules.announce_threshold
    ),
    check=check_announce_few,
)
def announce_few_step(state: GameState, step: AnnounceFewTiles) -> tuple[GameState, list[Event]]:
    seat = check_announce_few(state, step)
    new = evolve_state(
        state,
        seats=replace_seat(state, step.seat, evolve_seat(seat, announced_few=True)),
        announce_window=None if state.announce_window == step.seat else state.announce_window,
    )
    return new, [Announced(step.seat, "few_tiles")]


def _not_mid_turn(state: GameState, step: Step, seat: int) -> None:
    """A seat announces few tiles outside its own action phase (after its discard,
    ANNOUNCE-02, or before its take), so taking back a step never unmakes it."""
    turn = state.pending
    if turn is not None and turn.seat == seat and turn.took is not None:
        raise refuse(S.ANNOUNCE_AFTER_DISCARD, step)


def check_announce_atu(state: GameState, step: AnnounceAtu) -> SeatState:
    """Every check of an :class:`AnnounceAtu`; the seat's state."""
    seat = seat_ok(state, step.seat, step)
    if seat.announced_atu:
        raise refuse(S.ALREADY_ANNOUNCED, step, seat=step.seat)
    if state.atu ^ 1 not in seat.rack:
        raise refuse(S.ATU_TWIN_NOT_HELD, step, seat=step.seat)
    if state.rules.atu_bonus_trigger is AtuBonusTrigger.ANNOUNCE_AT_START and seat.has_taken:
        raise refuse(S.ATU_ANNOUNCE_TOO_LATE, step, seat=step.seat)
    if any(other.announced_atu for other in state.seats):
        # There is one atu twin: once it has been announced, nobody announces it again
        # (it may have changed hands since, through the row).
        raise refuse(S.ATU_ALREADY_ANNOUNCED, step, seat=step.seat)
    turn = state.pending
    if (
        turn is not None
        and turn.seat == step.seat
        and turn.obligation is not None
        and state.atu ^ 1 in (turn.obligation.picked, *turn.obligation.also_taken)
    ):
        # The twin came with this turn's take from the row, which may still be taken
        # back: it is not yet his to announce.
        raise refuse(S.ANNOUNCE_AFTER_DISCARD, step)
    return seat


@handles(
    AnnounceAtu,
    each_seat_if=lambda state, held: not held.announced_atu and state.atu ^ 1 in held.rack,
    check=check_announce_atu,
)
def announce_atu_step(state: GameState, step: AnnounceAtu) -> tuple[GameState, list[Event]]:
    seat = check_announce_atu(state, step)
    new = evolve_state(
        state, seats=replace_seat(state, step.seat, evolve_seat(seat, announced_atu=True))
    )
    return new, [Announced(step.seat, "atu")]


def pe_tabla_window_open(state: GameState) -> bool:
    """CLOSE-06, ``pe_tabla_declare_by = end_of_first_cycle``: until the starter's
    second turn has begun (its first step)."""
    turn = state.pending
    if turn is None:
        return False
    if state.turn <= state.players:
        return True
    return state.turn == state.players + 1 and turn.steps == 0 and turn.took is None


def check_declare(state: GameState, step: DeclarePeTabla) -> SeatState:
    """Every check of a :class:`DeclarePeTabla`; the seat's state."""
    seat = seat_ok(state, step.seat, step)
    if not state.rules.pe_tabla_enabled:
        raise refuse(S.PE_TABLA_DISABLED, step)
    if seat.declared_pe_tabla:
        raise refuse(S.PE_TABLA_ALREADY_DECLARED, step, seat=step.seat)
    melded = state.pending is not None and (
        state.pending.seat == step.seat and bool(state.pending.new_melds)
    )
    if seat.opened or melded:
        raise refuse(S.PE_TABLA_ALREADY_OPENED, step, seat=step.seat)
    if not pe_tabla_window_open(state):
        raise refuse(S.PE_TABLA_TOO_LATE, step)
    return seat


@handles(
    DeclarePeTabla,
    each_seat_if=lambda state, held: (
        state.rules.pe_tabla_enabled and not held.declared_pe_tabla and not held.opened
    ),
    check=check_declare,
)
def declare_step(state: GameState, step: DeclarePeTabla) -> tuple[GameState, list[Event]]:
    seat = check_declare(state, step)
    new = evolve_state(
        state, seats=replace_seat(state, step.seat, evolve_seat(seat, declared_pe_tabla=True))
    )
    return new, [PeTablaDeclared(step.seat)]


def _check_double(state: GameState, seat: int, tile: int, step: Step) -> None:
    rack = state.seats[seat].rack
    if tile in JOKER_IDS or not 0 <= tile < 104 or tile not in rack or tile ^ 1 not in rack:
        shown = tile_label(tile)
        raise refuse(S.NOT_A_DOUBLE, step, seat=seat, tile=shown)
    if tile // 2 in state.exchanged:
        raise refuse(S.DOUBLE_ALREADY_EXCHANGED, step, tile=str(tile_of(tile)))


_CLASS_WHAT: Final = {"small": "double_small", "big": "double_big", "key": "double_key"}
"""The sub-code naming an offer's class in a refusal (``what:double_small``, ...)."""


def _exchange_open(state: GameState, step: Step, seat: int) -> SeatState:
    """The checks every doubles step shares: the knob, the seat, before play."""
    if not state.rules.doubles_exchange:
        raise refuse(S.EXCHANGE_DISABLED, step)
    held = seat_ok(state, seat, step)
    if not state.preplay:
        raise refuse(S.PREPLAY_OVER, step)
    return held


def open_offer(state: GameState, seat: int) -> DoublesOffer | None:
    """``seat``'s open offer of a double, or None."""
    for offer in state.offers:
        if offer.seat == seat:
            return offer
    return None


def check_offer(state: GameState, step: OfferDoubles) -> None:
    """Every check of an :class:`OfferDoubles` (DUBLE-03): doubles are exchanged under
    these rules, before play, the seat has no open offer, and ``tile`` is a tile of a
    double on its rack not exchanged yet."""
    _exchange_open(state, step, step.seat)
    if open_offer(state, step.seat) is not None:
        raise refuse(S.DOUBLES_OFFER_OPEN, step, seat=step.seat)
    _check_double(state, step.seat, step.tile, step)


@handles(OfferDoubles)
def offer_step(state: GameState, step: OfferDoubles) -> tuple[GameState, list[Event]]:
    check_offer(state, step)
    kind = double_class(step.tile, state.rules)
    offer = DoublesOffer(step.seat, kind, step.tile)
    new = evolve_state(state, offers=(*state.offers, offer))
    return new, [DoublesOffered(step.seat, kind, step.tile)]


def check_accept(state: GameState, step: AcceptDoubles) -> DoublesOffer:
    """Every check of an :class:`AcceptDoubles` (DUBLE-03/04): the offer is open and
    another seat's, ``tile`` is a tile of a double of the accepting seat not exchanged
    yet, of the offer's class where ``doubles_exchange_same_class``; the offer."""
    _exchange_open(state, step, step.seat)
    seat_ok(state, step.offer, step)
    offer = open_offer(state, step.offer)
    if offer is None:
        raise refuse(S.NO_DOUBLES_OFFER, step, seat=step.offer)
    if step.offer == step.seat:
        raise refuse(S.EXCHANGE_SAME_SEAT, step, seat=step.seat)
    _check_double(state, step.seat, step.tile, step)
    if (
        state.rules.doubles_exchange_same_class
        and double_class(step.tile, state.rules) != offer.double_class
    ):
        # the offered tile stays hidden: the refusal names the offer's class only
        raise refuse(
            S.DOUBLE_CLASS_DIFFERS,
            step,
            offer=step.offer,
            tile=str(tile_of(step.tile)),
            what=_CLASS_WHAT.get(offer.double_class, "double_small"),
        )
    return offer


@handles(AcceptDoubles)
def accept_step(state: GameState, step: AcceptDoubles) -> tuple[GameState, list[Event]]:
    offer = check_accept(state, step)
    given_tile = offer.tile
    assert given_tile is not None
    if state.rules.doubles_exchange_unit is DoublesExchangeUnit.PAIR:
        given: tuple[int, ...] = (given_tile, given_tile ^ 1)
        received: tuple[int, ...] = (step.tile, step.tile ^ 1)
    else:
        given, received = (given_tile,), (step.tile,)
    offerer, accepter = offer.seat, step.seat
    theirs = state.seats[offerer]
    mine = state.seats[accepter]
    seats = list(state.seats)
    seats[offerer] = evolve_seat(theirs, rack=(*without(theirs.rack, given), *received))
    seats[accepter] = evolve_seat(mine, rack=(*without(mine.rack, received), *given))
    turn = state.pending
    assert turn is not None
    if turn.seat in (offerer, accepter):
        turn = evolve_turn(turn, rack_at_start=seats[turn.seat].rack)
    exchanged = (*state.exchanged, given_tile // 2, step.tile // 2)
    events: list[Event] = [DoublesExchanged(offerer, accepter, given, received)]
    # The taken-up offer is done; another whose double is no longer whole on its
    # seat's rack (the accepting seat gave a tile of it) is withdrawn.
    offers: list[DoublesOffer] = []
    for other in state.offers:
        if other is offer:
            continue
        tile = other.tile
        assert tile is not None
        rack = seats[other.seat].rack
        if tile in rack and tile ^ 1 in rack and tile // 2 not in exchanged:
            offers.append(other)
        else:
            events.append(DoublesOfferWithdrawn(other.seat, "broken"))
    new = evolve_state(
        state, seats=tuple(seats), pending=turn, exchanged=exchanged, offers=tuple(offers)
    )
    return new, events


def lapse_offers(state: GameState) -> tuple[GameState, list[Event]]:
    """Play starts (the starter's first discard ends the pre-play, DEAL-06): the open
    offers of doubles lapse."""
    if not state.offers:
        return state, []
    events: list[Event] = [DoublesOfferWithdrawn(o.seat, "lapsed") for o in state.offers]
    return evolve_state(state, offers=()), events


@handles(DemandRedeal, chance=True)
def redeal_step(
    state: GameState, step: DemandRedeal, chance: Chance
) -> tuple[GameState, list[Event]]:
    rules = state.rules
    threshold = rules.redeal_doubles_threshold
    if threshold is None:
        raise refuse(S.REDEAL_DISABLED, step)
    seat = seat_ok(state, step.seat, step)
    if not state.preplay:
        raise refuse(S.PREPLAY_OVER, step)
    count = len(doubles_of(seat.rack))
    if count < threshold:
        raise refuse(S.TOO_FEW_DOUBLES, step, seat=step.seat, count=count, threshold=threshold)
    order = chance.shuffle(tuple(range(106)))
    new, events = deal(
        rules, state.players, order, dealer=state.dealer, starter=state.starter, chance=chance
    )
    return new, list(events)
