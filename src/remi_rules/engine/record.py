"""What a round leaves behind: its :class:`GameRecord` (enough to replay it without a
random generator) and, once it is over, its score (:func:`score_state`)."""

from __future__ import annotations

from typing import Final

import attrs

from .._fields import PLAYERS, SEAT, TILE_ID, TILES, items
from ..errors import EngineArgumentError, EngineErrorCode, StateErrorCode
from ..ruleset import ClosingTileMode, Ruleset
from ..scoring import RoundResult, SeatEnd, score_round
from ._typed import of_type
from .state import GameState
from .steps import Step

__all__ = ["GameRecord", "score_state"]


def _is_int(_inst: object, attribute: attrs.Attribute[int], value: object) -> None:
    if type(value) is not int:
        raise TypeError(f"{attribute.name} must be an int, not {type(value).__name__}")


_TILE_COUNT: Final = StateErrorCode.TILE_COUNT
_MOST_RECORDED: Final = 1_000_000
"""The most steps, and chance outcomes, a saved record may hold."""


@attrs.frozen(kw_only=True)
class GameRecord:
    """Everything needed to replay a round without a random generator: the rules, the
    deal (106 ids: racks of seats 0…, the atu, the stock top first), the dealer and
    starter, every step in order (automatic ones included) and every chance outcome
    (each a permutation of the tiles shuffled), in the order they happened.

    The fields' types are checked here (:class:`TypeError`), their values when the
    record is replayed."""

    rules: Ruleset = attrs.field(validator=of_type(Ruleset))
    players: int = attrs.field(validator=_is_int, metadata=PLAYERS)
    dealer: int = attrs.field(validator=_is_int, metadata=SEAT)
    starter: int = attrs.field(validator=_is_int, metadata=SEAT)
    deal: tuple[int, ...] = attrs.field(
        validator=of_type(tuple),
        metadata=items(
            TILE_ID, most=106, least=106, unique=True, size_code=_TILE_COUNT, dup_code=_TILE_COUNT
        ),
    )
    steps: tuple[Step, ...] = attrs.field(
        default=(), validator=of_type(tuple), metadata=items(most=_MOST_RECORDED)
    )
    chance: tuple[tuple[int, ...], ...] = attrs.field(
        default=(), validator=of_type(tuple), metadata=items(TILES, most=_MOST_RECORDED)
    )


def score_state(state: GameState) -> RoundResult:
    """Score a finished round with :func:`~remi_rules.score_round` (SCORE-*).  Raises
    :class:`~remi_rules.errors.EngineArgumentError` (``engine_round_not_over``) for a
    round still in play."""
    if not isinstance(state, GameState):
        raise TypeError(f"state must be a GameState, not {type(state).__name__}")
    if state.end is None:
        raise EngineArgumentError(EngineErrorCode.ROUND_NOT_OVER)
    end = state.end
    keep = state.rules.closing_tile_mode is ClosingTileMode.KEEP
    seats = []
    for s, seat in enumerate(state.seats):
        rack = seat.rack
        if s == end.closer and keep and end.closing_tile is not None:
            rack = tuple(i for i in rack if i != end.closing_tile)
        seats.append(
            SeatEnd(
                rack=rack,
                opened=seat.opened,
                announced_atu=seat.announced_atu,
                failed_to_announce=seat.missed_announcement,
                declared_pe_tabla=seat.declared_pe_tabla,
            )
        )
    return score_round(
        state.table,
        seats,
        state.rules,
        atu=state.atu,
        closer=end.closer,
        closing_tile=end.closing_tile,
        pe_tabla=end.pe_tabla,
    )
