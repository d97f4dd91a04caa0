"""What must hold of a document the loaders accepted."""

from __future__ import annotations

import json
from typing import Any

from remi_rules import (
    serde,
)
from remi_rules.engine import Game, Phase, tile_census

# -- the invariants of what was accepted ----------------------------------------------------


def game_invariants(game: Game, data: Any) -> str | None:
    """Why an accepted game is broken, or None."""
    state = game.state
    problem = tile_census(state)
    if problem is not None:
        return f"census: {problem}"
    over = state.phase is Phase.OVER
    if over != (state.end is not None) or over != (state.pending is None):
        return "phase: over / end / pending disagree"
    if not over:
        turn = state.pending
        assert turn is not None
        if turn.seat != state.current or turn.number != state.turn:
            return "phase: the pending turn is not the current seat's"
        if (state.phase is Phase.TAKE) != (turn.took is None and state.turn > 1):
            return "phase: take phase without a missing take"
        if not game.legal_steps():
            return "the loaded game has no legal step"
    if isinstance(data, str):
        data = json.loads(data)
    if serde.dump_game(game) != data:
        return "does not dump back equal"
    return None


def record_invariants(record: Any, data: Any) -> str | None:
    try:
        game = Game.replay(record)
    except Exception as err:
        return f"does not replay: {err!r}"
    problem = tile_census(game.state)
    if problem is not None:
        return f"census after replay: {problem}"
    if isinstance(data, str):
        data = json.loads(data)
    if serde.dump_record(record) != data:
        return "does not dump back equal"
    return None


def message_invariants(kind: str, loaded: Any) -> str | None:
    """A loaded view lists its legal steps and dumps back to what loads equal; a
    loaded step dumps back to what loads equal."""
    again: Any
    try:
        if kind == "view":
            loaded.legal_steps()
            again = serde.load_view(serde.dump_view(loaded, with_rules=False), loaded.rules)
        else:
            again = serde.load_step(serde.dump_step(loaded))
    except Exception as err:  # a loaded message must be usable
        return f"loaded {kind} fails: {type(err).__name__}: {err}"
    return None if again == loaded else f"{kind} does not load back equal"
