"""Chance and the deal: the :class:`Chance` protocol and its sources (fresh,
none, scripted), :func:`deal` (DEAL-*) and the doubles (DUBLE-*), used by
:func:`~remi_rules.engine.transition.apply_step` and :class:`~remi_rules.engine.Game`."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Protocol

import attrs

from ..errors import (
    EngineArgumentError,
    EngineErrorCode,
    InvalidStateError,
    StateErrorCode,
)
from ..ruleset import (
    AceDoubleClass,
    Ruleset,
    require_ruleset,
)
from ..table import Table
from ..tiles import JOKER_IDS, tile_of
from .events import (
    AtuReturned,
    Dealt,
    Event,
    TurnStarted,
)
from .state import (
    GameState,
    Phase,
    SeatState,
    TurnState,
)

# -- chance ---------------------------------------------------------------------------------


class Chance(Protocol):
    """The only source of randomness: a shuffle of some tile ids.  Each call is one
    recorded chance outcome."""

    def shuffle(self, ids: tuple[int, ...]) -> tuple[int, ...]: ...


@attrs.define
class RandomChance:
    """Shuffles with a :class:`random.Random` (uniform, Fisher-Yates)."""

    rng: random.Random

    def shuffle(self, ids: tuple[int, ...]) -> tuple[int, ...]:
        out = list(ids)
        self.rng.shuffle(out)
        return tuple(out)


class NoChance:
    """For checking a step without applying it: a "shuffle" that keeps the order and
    consumes nothing (legality never depends on a chance outcome)."""

    def shuffle(self, ids: tuple[int, ...]) -> tuple[int, ...]:
        return ids


@attrs.define
class ScriptedChance:
    """Replays recorded outcomes in order; refuses an outcome that is not a
    permutation of the ids being shuffled (a corrupt record)."""

    outcomes: list[tuple[int, ...]]
    position: int = 0

    def shuffle(self, ids: tuple[int, ...]) -> tuple[int, ...]:
        if self.position >= len(self.outcomes):
            raise InvalidStateError(
                StateErrorCode.BAD_RECORD, path="record.chance", why="chance_missing"
            )
        out = self.outcomes[self.position]
        if sorted(out) != sorted(ids):
            raise InvalidStateError(
                StateErrorCode.BAD_RECORD,
                path=f"record.chance[{self.position}]",
                why="chance_not_permutation",
            )
        self.position += 1
        return tuple(out)


# -- the deal -------------------------------------------------------------------------------


def deal(
    rules: Ruleset,
    players: int,
    order: Sequence[int],
    *,
    dealer: int,
    starter: int,
    chance: Chance,
) -> tuple[GameState, tuple[Event, ...]]:
    """The state after dealing ``order`` (106 ids: the racks of seats 0, 1, … with the
    starter's ``hand_sizes[0]`` tiles and ``hand_sizes[1]`` for the others, then the
    atu, then the stock top first; DEAL-02/03/04).  A joker turned up as the atu where
    ``atu_may_be_joker`` is false goes back into the stock, which is shuffled, and the
    next tile is turned (DEAL-03 PROPOSAL): a chance outcome."""
    order = tuple(order)
    sizes = [rules.hand_sizes[0] if s == starter else rules.hand_sizes[1] for s in range(players)]
    racks: list[tuple[int, ...]] = []
    at = 0
    for size in sizes:
        racks.append(order[at : at + size])
        at += size
    atu = order[at]
    stock = order[at + 1 :]
    events: list[Event] = [Dealt(order, starter, tuple(sizes))]
    while atu in JOKER_IDS and not rules.atu_may_be_joker:
        joker = atu
        stock = chance.shuffle((*stock, joker))
        atu, stock = stock[0], stock[1:]
        events.append(AtuReturned(joker, atu, stock))
    seats = tuple(
        SeatState(rack=rack, turns=1 if s == starter else 0) for s, rack in enumerate(racks)
    )
    state = GameState(
        rules=rules,
        players=players,
        dealer=dealer,
        starter=starter,
        phase=Phase.ACTION,
        current=starter,
        turn=1,
        seats=seats,
        stock=stock,
        row=(),
        row_dead_first=False,
        atu=atu,
        atu_face_up=True,
        table=Table(),
        pending=TurnState(
            seat=starter, number=1, rack_at_start=racks[starter], opened_before=False
        ),
    )
    events.append(TurnStarted(starter, 1))
    return state, tuple(events)


# -- doubles (DUBLE-01/02) --------------------------------------------------------------------


def doubles_of(rack: Sequence[int]) -> tuple[int, ...]:
    """The doubles on a rack, as ``id // 2`` of each value held twice (DUBLE-01:
    two identical numbered tiles; two jokers are not a double)."""
    if isinstance(rack, str | bytes) or not isinstance(rack, Sequence):
        raise TypeError(f"rack must be a sequence of tile ids, not {type(rack).__name__}")
    for i in rack:
        tile_of(i)  # TypeError or InvalidTileError (id_out_of_range)
    held = Counter(i // 2 for i in rack if i not in JOKER_IDS)
    return tuple(sorted(v for v, n in held.items() if n == 2))


def double_class(tile_id: int, rules: Ruleset) -> str:
    """DUBLE-02: ``"small"`` (2–9), ``"big"`` (10–13, and 1 when ``ace_double_class``
    is ``big``) or ``"key"``."""
    require_ruleset(rules)
    rank = tile_of(tile_id).rank
    if rank is None:
        raise EngineArgumentError(EngineErrorCode.JOKER_NOT_DOUBLE, tile=tile_id)
    if rank == 1:
        return "big" if rules.ace_double_class is AceDoubleClass.BIG else "key"
    return "small" if rank <= 9 else "big"
