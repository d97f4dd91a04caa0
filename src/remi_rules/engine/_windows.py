"""The steps outside the turn: the announcements (ANNOUNCE-*, ATU-02/03), the
pe-tablă declaration (CLOSE-06), the exchange of doubles and the redeal (DUBLE-*)."""

from __future__ import annotations

from ..errors import (
    StepErrorCode,
)
from ..ruleset import (
    AtuBonusTrigger,
    DoublesExchangeUnit,
)
from ..tiles import JOKER_IDS, tile_of
from ._common import refuse, replace_seat, seat_ok, without
from .deal import Chance, deal, double_class, doubles_of
from .events import (
    Announced,
    DoublesExchanged,
    Event,
    PeTablaDeclared,
)
from .state import (
    GameState,
    evolve_seat,
    evolve_state,
    evolve_turn,
)
from .steps import (
    AnnounceAtu,
    AnnounceFewTiles,
    DeclarePeTabla,
    DemandRedeal,
    ExchangeDoubles,
    Step,
    tile_label,
)

S = StepErrorCode


# -- announcements, declarations, doubles ----------------------------------------------------


def announce_few_step(state: GameState, step: AnnounceFewTiles) -> tuple[GameState, list[Event]]:
    seat = seat_ok(state, step.seat, step)
    if seat.announced_few:
        raise refuse(S.ALREADY_ANNOUNCED, step, seat=step.seat)
    _not_mid_turn(state, step, step.seat)
    threshold = state.rules.announce_threshold
    if len(seat.rack) > threshold:
        raise refuse(S.ANNOUNCE_NOT_DUE, step, threshold=threshold, rack=len(seat.rack))
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


def announce_atu_step(state: GameState, step: AnnounceAtu) -> tuple[GameState, list[Event]]:
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


def declare_step(state: GameState, step: DeclarePeTabla) -> tuple[GameState, list[Event]]:
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


def exchange_step(state: GameState, step: ExchangeDoubles) -> tuple[GameState, list[Event]]:
    rules = state.rules
    if not rules.doubles_exchange:
        raise refuse(S.EXCHANGE_DISABLED, step)
    seat_ok(state, step.seat, step)
    seat_ok(state, step.other, step)
    if not state.preplay:
        raise refuse(S.PREPLAY_OVER, step)
    if step.seat == step.other:
        raise refuse(S.EXCHANGE_SAME_SEAT, step, seat=step.seat)
    _check_double(state, step.seat, step.tile, step)
    _check_double(state, step.other, step.other_tile, step)
    if rules.doubles_exchange_same_class:
        a, b = double_class(step.tile, rules), double_class(step.other_tile, rules)
        if a != b:
            raise refuse(
                S.DOUBLE_CLASS_MISMATCH,
                step,
                first=str(tile_of(step.tile)),
                second=str(tile_of(step.other_tile)),
            )
    if rules.doubles_exchange_unit is DoublesExchangeUnit.PAIR:
        given: tuple[int, ...] = (step.tile, step.tile ^ 1)
        received: tuple[int, ...] = (step.other_tile, step.other_tile ^ 1)
    else:
        given, received = (step.tile,), (step.other_tile,)
    mine = state.seats[step.seat]
    theirs = state.seats[step.other]
    seats = list(state.seats)
    seats[step.seat] = evolve_seat(mine, rack=(*without(mine.rack, given), *received))
    seats[step.other] = evolve_seat(theirs, rack=(*without(theirs.rack, received), *given))
    turn = state.pending
    assert turn is not None
    if turn.seat in (step.seat, step.other):
        turn = evolve_turn(turn, rack_at_start=seats[turn.seat].rack)
    new = evolve_state(
        state,
        seats=tuple(seats),
        pending=turn,
        exchanged=(*state.exchanged, step.tile // 2, step.other_tile // 2),
    )
    return new, [DoublesExchanged(step.seat, step.other, given, received)]


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
