"""The saved positions of tests/data/positions (games met in play that once made the
engine, the solver or the hint slow or wrong), loaded by name."""

from __future__ import annotations

from pathlib import Path

from remi_rules import serde
from remi_rules.engine import Game

POSITIONS = Path(__file__).resolve().parent / "data" / "positions"


def load_position(name: str) -> Game:
    """The saved game ``name`` (a file of tests/data/positions), loaded as a save is."""
    return serde.loads_game((POSITIONS / name).read_text(encoding="utf-8"))
