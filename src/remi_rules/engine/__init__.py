"""The game engine: rounds a frontend can drive step by step, save and replay.

* :class:`Game` — one round: :meth:`~Game.new`, :meth:`~Game.verify` /
  :meth:`~Game.can` / :meth:`~Game.apply`, :meth:`~Game.legal_steps`,
  :meth:`~Game.undo`, :meth:`~Game.view`, :meth:`~Game.record` and
  :meth:`~Game.replay`;
* :class:`GameState` (immutable), :class:`PlayerView`, the steps and the events;
* :class:`Match` and :class:`MatchConfig` — several rounds with running totals;
* :class:`Automation` — what the engine may do by itself;
* :class:`Bot` — the protocol a bot implements (bots live in :mod:`remi_rules.bots`);
* :func:`round_step_bound` — B(rules), the most steps a round can last.

See docs/engine.md for the turn model and the windows.
"""

from __future__ import annotations

from ..lipire import End
from . import steps
from .automation import Automation
from .bot import Bot, play_round
from .bounds import round_step_bound, round_turn_bound
from .events import EndReason, Event
from .game import MAX_UNDOS_PER_TURN, Game
from .legal import canonical_step, copy_key, legal_steps
from .match import Match, MatchConfig, MatchRecord
from .problems import StateProblem, state_problems
from .record import GameRecord, score_state
from .state import (
    DoublesOffer,
    GameState,
    Obligation,
    Phase,
    RoundEnd,
    SeatState,
    TurnState,
    UndoInfo,
    tile_census,
    turn_context,
)
from .steps import *  # noqa: F403  (every step class: a new one needs no line here)
from .transition import double_class, doubles_of
from .view import PlayerView, PublicSeat, PublicTurn

__all__ = [
    "MAX_UNDOS_PER_TURN",
    "Automation",
    "Bot",
    "DoublesOffer",
    "End",
    "EndReason",
    "Event",
    "Game",
    "GameRecord",
    "GameState",
    "Match",
    "MatchConfig",
    "MatchRecord",
    "Obligation",
    "Phase",
    "PlayerView",
    "PublicSeat",
    "PublicTurn",
    "RoundEnd",
    "SeatState",
    "StateProblem",
    "TurnState",
    "UndoInfo",
    "canonical_step",
    "copy_key",
    "double_class",
    "doubles_of",
    "legal_steps",
    "play_round",
    "round_step_bound",
    "round_turn_bound",
    "score_state",
    "state_problems",
    "tile_census",
    "turn_context",
]
__all__ += steps.__all__
