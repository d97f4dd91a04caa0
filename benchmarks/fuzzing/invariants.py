"""What must hold of a document the loaders accepted."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from remi_rules import (
    serde,
)
from remi_rules.engine import Game, Phase, tile_census
from remi_rules.serde._migrations import FORMAT_VERSIONS

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
    return dumps_back(
        data, serde.dump_game(game), "game", lambda d: serde.dump_game(serde.load_game(d))
    )


def record_invariants(record: Any, data: Any) -> str | None:
    try:
        game = Game.replay(record)
    except Exception as err:
        return f"does not replay: {err!r}"
    problem = tile_census(game.state)
    if problem is not None:
        return f"census after replay: {problem}"
    return dumps_back(
        data, serde.dump_record(record), "record", lambda d: serde.dump_record(serde.load_record(d))
    )


def dumps_back(data: Any, dumped: Any, kind: str, again: Callable[[Any], Any]) -> str | None:
    """An accepted document of the current format version dumps back equal; one of an
    older version is migrated: it dumps as the current version, which loads and
    dumps back equal."""
    if isinstance(data, str):
        data = json.loads(data)
    if isinstance(data, dict) and data.get("format_version") != FORMAT_VERSIONS[kind]:
        if dumped.get("format_version") != FORMAT_VERSIONS[kind]:
            return "an older version does not dump as the current one"
        return None if again(dumped) == dumped else "a migrated document does not dump back equal"
    return None if dumped == data else "does not dump back equal"


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
