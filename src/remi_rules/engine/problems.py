"""What a position must satisfy beyond its types, as coded problems (like
``Board.status()`` in python-chess): :func:`state_problems`.

The loader (:func:`remi_rules.serde.load_game`) refuses a saved state with the first
problem; the benchmarks and the tests check every state the engine makes with it.  A
state the engine reaches by legal steps has none.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, NoReturn

import attrs

from ..errors import InvalidStateError, StateErrorCode
from ..ruleset import ClosingTileMode
from ..rupere import TakeSource
from ..tiles import JOKER_IDS
from .deal import double_class
from .events import EndReason
from .state import GameState, Phase, tile_census
from .steps import TakeKind

__all__ = ["StateProblem", "state_problems"]

_S: Final = StateErrorCode
_SOURCE_OF_TAKE: Final = {
    TakeKind.LAST_DISCARD: TakeSource.LAST_DISCARD,
    TakeKind.RUPERE: TakeSource.OLDER,
    TakeKind.ATU: TakeSource.ATU,
}


@attrs.frozen
class StateProblem:
    """One thing wrong with a position: a :class:`~remi_rules.errors.StateErrorCode`,
    the path of the field (relative to the state: ``seats[2].rack[5]``, ``$`` for
    the state as a whole) and the details of the error it makes (data)."""

    code: StateErrorCode
    path: str
    details: dict[str, Any] = attrs.field(factory=dict, eq=False)

    def error(self, prefix: str = "") -> InvalidStateError:
        """The :class:`~remi_rules.errors.InvalidStateError` of this problem, its path
        under ``prefix`` (``"state"`` in a saved game)."""
        if not isinstance(prefix, str):
            raise TypeError(f"prefix must be a str, not {type(prefix).__name__}")
        path = self.path
        if prefix:
            path = prefix if path == "$" else f"{prefix}.{path}"
        return InvalidStateError(self.code, path=path, **self.details)


class _Found(Exception):
    def __init__(self, problem: StateProblem) -> None:
        self.problem = problem


def _bad(code: StateErrorCode, path: str, **details: object) -> NoReturn:
    raise _Found(StateProblem(code, path, details))


def _census(state: GameState, q: str) -> None:
    """Each of the 106 ids exactly once: racks, stock, row, melds, the face-up atu."""
    where: dict[int, str] = {}
    places: list[tuple[str, tuple[int, ...]]] = [
        (f"{q}seats[{s}].rack", seat.rack) for s, seat in enumerate(state.seats)
    ]
    places += [(f"{q}stock", state.stock), (f"{q}row", state.row)]
    places += [(f"{q}table.melds[{m}].ids", m_.ids) for m, m_ in enumerate(state.table.melds)]
    for place, ids in places:
        for k, tile_id in enumerate(ids):
            here = f"{place}[{k}]"
            if tile_id in where:
                _bad(_S.TILE_COUNT, here, why="also_at", tile_id=tile_id, other=where[tile_id])
            where[tile_id] = here
    if state.atu_face_up:
        if state.atu in where:
            _bad(
                _S.TILE_COUNT,
                f"{q}atu",
                why="atu_also_at",
                tile_id=state.atu,
                other=where[state.atu],
            )
        where[state.atu] = f"{q}atu"
    if len(where) != 106:
        missing = sorted(set(range(106)) - set(where))
        _bad(
            _S.TILE_COUNT,
            q[:-1] or "$",
            why="nowhere",
            count=len(missing),
            tile_ids=missing[:10],
        )
    problem = tile_census(state)
    if problem is not None:  # the engine's own census agrees, or says why not
        _bad(_S.TILE_COUNT, q[:-1] or "$", why="census")


def _turns_begun(state: GameState, seat: int) -> int:
    """Own turns begun by ``seat`` by the round's turn ``state.turn``."""
    first = (seat - state.starter) % state.players + 1
    return 0 if first > state.turn else (state.turn - first) // state.players + 1


def _seats(state: GameState, q: str) -> None:
    n = state.players
    if len(state.seats) != n:
        _bad(_S.BAD_VALUE, f"{q}seats", why="seats", seats=len(state.seats), players=n)


def _dealer(state: GameState, q: str) -> None:
    if state.dealer != (state.starter - 1) % state.players:
        _bad(_S.BAD_VALUE, f"{q}dealer", why="dealer")


def _phase(state: GameState, q: str) -> None:
    """A phase the engine can be in, the turn counters, the pending turn's presence."""
    rules, n = state.rules, state.players
    over, turn, end = state.phase is Phase.OVER, state.pending, state.end
    # -- the phase
    if over != (end is not None):
        where = f"{q}end" if over else f"{q}phase"
        _bad(_S.BAD_PHASE, where, why="over_iff_end")
    if state.current != (state.starter + state.turn - 1) % n:
        _bad(_S.BAD_PHASE, f"{q}current", why="not_this_seat", turn=state.turn)
    if rules.max_turns_per_round is not None and state.turn > rules.max_turns_per_round:
        _bad(_S.OUT_OF_RANGE, f"{q}turn", value=state.turn, lo=1, hi=rules.max_turns_per_round)
    if state.preplay != (state.turn == 1 and not over):
        _bad(_S.BAD_PHASE, f"{q}preplay", why="preplay")
    if state.turn == 1:
        # A round may end in turn 1 (a turn cap of 1, a close with a one-tile hand):
        # the starter's discard or closing tile is then in the row.
        taken = [s for s, seat in enumerate(state.seats) if seat.has_taken]
        early: str | None = (
            f"{q}row"
            if len(state.row) > (1 if over else 0)
            else f"{q}table.melds"
            if state.table.melds
            else f"{q}seats[{taken[0]}].has_taken"
            if taken
            else f"{q}announce_window"
            if state.announce_window is not None
            else None
        )
        if early is not None:
            _bad(_S.BAD_PHASE, early, why="before_first_discard")
    for s, seat in enumerate(state.seats):
        want = _turns_begun(state, s)
        if seat.turns != want:
            _bad(_S.BAD_VALUE, f"{q}seats[{s}].turns", why="turns_by", turn=state.turn, want=want)
    if over:
        for key in ("pending", "announce_window"):
            if getattr(state, key) is not None:
                _bad(_S.BAD_PHASE, f"{q}{key}", why="round_over")
    else:
        if turn is None:
            _bad(_S.BAD_PHASE, f"{q}pending", why="pending_turn")


def _opened(state: GameState, q: str) -> None:
    """Who has opened: the owners of the table's melds."""
    turn = state.pending
    owners = {m.owner for m in state.table.melds}
    for s, seat in enumerate(state.seats):
        if seat.opened and s not in owners:
            _bad(_S.BAD_VALUE, f"{q}seats[{s}].opened", why="no_meld")
    new = turn.new_melds if turn is not None else ()
    for m, meld in enumerate(state.table.melds):
        if not state.seats[meld.owner].opened and m not in new:
            _bad(
                _S.BAD_VALUE,
                f"{q}table.melds[{m}].owner",
                why="owner_not_opened",
                seat=meld.owner,
            )


def _turn(state: GameState, q: str) -> None:
    turn = state.pending
    if turn is None:
        return
    if turn.seat != state.current:
        _bad(_S.BAD_PHASE, f"{q}pending.seat", why="pending_seat")
    if turn.number != state.turn:
        _bad(_S.BAD_PHASE, f"{q}pending.number", why="pending_number")
    took = turn.took
    if state.turn == 1:
        if took is not None:
            _bad(_S.BAD_PHASE, f"{q}pending.took", why="first_turn_no_take")
        if state.phase is not Phase.ACTION:
            _bad(_S.BAD_PHASE, f"{q}phase", why="turn_one_discard")
    elif (state.phase is Phase.TAKE) != (took is None):
        _bad(
            _S.BAD_PHASE,
            f"{q}phase",
            why="take_phase",
        )
    seat = state.seats[state.current]
    if took is None and turn.rack_at_start != seat.rack:
        _bad(_S.BAD_VALUE, f"{q}pending.rack_at_start", why="rack_unchanged")
    if turn.opened_before != seat.opened:
        _bad(_S.BAD_VALUE, f"{q}pending.opened_before", why="opens_at_end")
    ob = turn.obligation
    source = _SOURCE_OF_TAKE.get(took) if took is not None else None
    if (ob.source if ob is not None else None) != source:
        _bad(
            _S.BAD_VALUE,
            f"{q}pending.obligation",
            why="no_obligation",
            took=took.value if took is not None else "missing",
        )
    if ob is not None:
        if ob.rack_before_take != turn.rack_at_start:
            _bad(
                _S.BAD_VALUE,
                f"{q}pending.obligation.rack_before_take",
                why="take_first_step",
            )
        if (ob.source is TakeSource.OLDER) != bool(ob.also_taken):
            _bad(
                _S.BAD_VALUE,
                f"{q}pending.obligation.also_taken",
                why="rupere_takes_later",
            )
        if ob.source is TakeSource.ATU and ob.picked != state.atu:
            _bad(_S.BAD_VALUE, f"{q}pending.obligation.picked", why="atu_taken")
    melds = len(state.table.melds)
    k = len(turn.new_melds)
    if turn.new_melds != tuple(range(melds - k, melds)):
        _bad(_S.BAD_VALUE, f"{q}pending.new_melds", why="melds_last")
    if any(state.table.melds[m].owner != turn.seat for m in turn.new_melds):
        _bad(_S.BAD_VALUE, f"{q}pending.new_melds", why="melds_own")
    placed = set(turn.placed)
    for i, tile_id in enumerate(turn.laid_off):
        if tile_id not in placed:
            _bad(_S.BAD_VALUE, f"{q}pending.laid_off[{i}]", why="laid_off_placed")
    # A tile is put on the table once in a turn, except a joker swapped back into the
    # rack in this turn, which may be put there again (once per swap).
    for key in ("laid_off", "placed", "swapped_jokers"):
        seen: dict[int, int] = {}
        for i, tile_id in enumerate(getattr(turn, key)):
            seen[tile_id] = seen.get(tile_id, 0) + 1
            if seen[tile_id] == 1:
                continue
            if key == "swapped_jokers":
                most = state.table.joker(tile_id).swaps
            else:
                most = 1 + turn.swapped_jokers.count(tile_id) if tile_id in JOKER_IDS else 1
            if seen[tile_id] > most:
                _bad(
                    _S.BAD_VALUE,
                    f"{q}pending.{key}[{i}]",
                    why="repeated",
                    tile_id=tile_id,
                    count=seen[tile_id],
                    most=most,
                )
    for m in turn.new_melds:
        if not placed.issuperset(state.table.melds[m].ids):
            _bad(_S.BAD_VALUE, f"{q}pending.placed", why="meld_placed", meld_index=m)
    for i, joker in enumerate(turn.swapped_jokers):
        if not state.table.joker(joker).swaps:
            _bad(_S.BAD_VALUE, f"{q}pending.swapped_jokers[{i}]", why="never_swapped")
    # The counter also counts the steps taken back since (Game.undo keeps counting).
    moves = (took is not None) + k + len(turn.laid_off) + len(turn.swapped_jokers)
    if turn.steps < moves:
        _bad(_S.BAD_VALUE, f"{q}pending.steps", why="turn_steps", count=moves)
    if took is None and (k or turn.laid_off or turn.swapped_jokers):
        _bad(_S.BAD_PHASE, f"{q}pending.took", why="takes_before_play")


def _window(state: GameState, q: str) -> None:
    window = state.announce_window
    if window is None:
        return
    turn = state.pending
    if window != (state.current - 1) % state.players:
        _bad(_S.BAD_PHASE, f"{q}announce_window", why="announce_seat")
    if turn is None or turn.steps or turn.took is not None:
        _bad(_S.BAD_PHASE, f"{q}announce_window", why="window_closes")
    seat = state.seats[window]
    if seat.announced_few or len(seat.rack) > state.rules.announce_threshold:
        _bad(_S.BAD_VALUE, f"{q}announce_window", why="nothing_to_announce")


def _atu_row_exchanged(state: GameState, q: str) -> None:
    rules = state.rules
    if state.atu in JOKER_IDS and not rules.atu_may_be_joker:
        _bad(_S.BAD_VALUE, f"{q}atu", why="atu_joker")
    if not state.atu_face_up:
        turn, end = state.pending, state.end
        if not (
            (turn is not None and turn.took is TakeKind.ATU)
            or (end is not None and end.reason is EndReason.CLOSED)
        ):
            _bad(_S.BAD_PHASE, f"{q}atu_face_up", why="atu_closes")
    if state.row_dead_first and not (rules.first_discard_dead and state.row):
        _bad(_S.BAD_VALUE, f"{q}row_dead_first", why="no_dead_first")
    if state.exchanged and not rules.doubles_exchange:
        _bad(_S.BAD_VALUE, f"{q}exchanged", why="no_exchange")
    if len(state.exchanged) % 2:
        _bad(_S.BAD_VALUE, f"{q}exchanged", why="exchange_pairs")
    _offers(state, q)


def _offers(state: GameState, q: str) -> None:
    """The open offers of doubles: only before play, under rules that exchange them,
    one per seat, each naming a double on its seat's rack not exchanged yet, of the
    class it says (a view's own state names no other seat's tile)."""
    seen: set[int] = set()
    for k, offer in enumerate(state.offers):
        path = f"{q}offers[{k}]"
        if not state.rules.doubles_exchange:
            _bad(_S.BAD_VALUE, path, why="no_exchange")
        if not state.preplay:
            _bad(_S.BAD_PHASE, path, why="preplay")
        if not 0 <= offer.seat < state.players:
            _bad(_S.OUT_OF_RANGE, f"{path}.seat", value=offer.seat, lo=0, hi=state.players - 1)
        if offer.seat in seen:
            _bad(_S.BAD_VALUE, f"{path}.seat", why="offer_twice")
        seen.add(offer.seat)
        if offer.double_class not in ("small", "big", "key"):
            _bad(_S.BAD_VALUE, f"{path}.double_class", why="double_class")
        tile = offer.tile
        if tile is None:
            continue
        rack = state.seats[offer.seat].rack
        if not (0 <= tile < 104 and tile in rack and tile ^ 1 in rack):
            _bad(_S.BAD_VALUE, f"{path}.tile", why="offer_not_double")
        elif tile // 2 in state.exchanged:
            _bad(_S.BAD_VALUE, f"{path}.tile", why="offer_exchanged")
        elif double_class(tile, state.rules) != offer.double_class:
            _bad(_S.BAD_VALUE, f"{path}.double_class", why="double_class")


def _end(state: GameState, q: str) -> None:
    end = state.end
    if end is None:
        return
    rules = state.rules
    if end.reason is EndReason.CLOSED:
        if end.closer != state.current:
            _bad(_S.BAD_VALUE, f"{q}end.closer", why="closer_turn")
        if end.closing_tile is None:
            _bad(_S.BAD_VALUE, f"{q}end.closing_tile", why="closing_tile")
        rack = state.seats[end.closer].rack
        if rules.closing_tile_mode is ClosingTileMode.KEEP:
            if rack != (end.closing_tile,):
                _bad(_S.BAD_VALUE, f"{q}end.closing_tile", why="closer_keeps")
        elif rack or not state.row or state.row[-1] != end.closing_tile:
            _bad(_S.BAD_VALUE, f"{q}end.closing_tile", why="last_discard")
        if end.pe_tabla and not (
            rules.pe_tabla_enabled and state.seats[end.closer].declared_pe_tabla
        ):
            _bad(_S.BAD_VALUE, f"{q}end.pe_tabla", why="not_declared")
        return
    for key in ("closer", "closing_tile"):
        if getattr(end, key) is not None:
            _bad(_S.BAD_VALUE, f"{q}end.{key}", why="ended_by", end=end.reason.value)
    if end.pe_tabla:
        _bad(_S.BAD_VALUE, f"{q}end.pe_tabla", why="ended_by", end=end.reason.value)
    if end.reason is EndReason.STOCK_EXHAUSTED and state.stock:
        _bad(_S.BAD_VALUE, f"{q}end.reason", why="stock_not_empty")
    if end.reason is EndReason.MAX_TURNS and state.turn != rules.max_turns_per_round:
        _bad(_S.BAD_VALUE, f"{q}end.reason", why="cap_not_reached")


def _racks(state: GameState, q: str) -> None:
    """A rack empties only by a close (the closer's, in a round that closed)."""
    end = state.end
    closer = end.closer if end is not None and end.reason is EndReason.CLOSED else None
    for s, seat in enumerate(state.seats):
        if not seat.rack and s != closer:
            _bad(_S.BAD_VALUE, f"{q}seats[{s}].rack", why="rack_empties_by_close")


_Check = Callable[[GameState, str], None]
_FATAL: Final[tuple[_Check, ...]] = (_seats,)
"""Checks after which the others cannot run (a seat count other than the players')."""
_CHECKS: Final[tuple[_Check, ...]] = (
    _seats,
    _dealer,
    _census,
    _phase,
    _turn,
    _window,
    _atu_row_exchanged,
    _end,
    _opened,
    _racks,
)


def _problems(state: GameState, q: str, *, first: bool) -> list[StateProblem]:
    out: list[StateProblem] = []
    for check in _CHECKS:
        try:
            check(state, q)
        except _Found as found:
            out.append(found.problem)
            if first or check in _FATAL:
                return out
        except Exception:  # a later check meeting what an earlier one found wrong
            if not out:
                raise
    return out


def state_problems(state: GameState) -> list[StateProblem]:
    """What is wrong with ``state`` (an empty list for a position the engine can be
    in), one problem at most per group of checks, in this order: the seats, the
    dealer, the census of the 106 tiles, the phase and the turn counters, the pending
    turn, the announcement window, the atu, the row and the doubles exchanged, the
    round's end, who has opened, the empty racks.  Each is a :class:`StateProblem`; a loader refuses
    the first (:meth:`StateProblem.error`).  ``TypeError`` for anything but a
    :class:`GameState`."""
    if not isinstance(state, GameState):
        raise TypeError(f"state must be a GameState, not {type(state).__name__}")
    return _problems(state, "", first=False)


def first_problem(state: GameState, prefix: str) -> StateProblem | None:
    """The first of :func:`state_problems`, its paths under ``prefix + "."`` (for the
    loader, without running the other checks)."""
    if not isinstance(state, GameState) or not isinstance(prefix, str):
        raise TypeError("expected a GameState and a str")
    found = _problems(state, f"{prefix}." if prefix else "", first=True)
    return found[0] if found else None
