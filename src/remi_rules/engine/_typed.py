"""Type checks of the engine's entry points: an attrs validator like
``attrs.validators.instance_of`` whose :class:`TypeError` names the types only (attrs'
own puts ``repr(value)`` in the message, which for an int of 5,000 digits raises
``ValueError`` instead: CPython's digit limit), and the check of a players argument."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import attrs

from ..errors import EngineArgumentError, EngineErrorCode

__all__ = ["check_players", "of_type"]


def of_type(*types: type) -> Callable[[Any, attrs.Attribute[Any], Any], None]:
    """Check ``isinstance(value, types)``; else :class:`TypeError` naming the types."""
    names = " or ".join(t.__name__ for t in types)

    def check(_inst: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
        if not isinstance(value, types):
            raise TypeError(f"{attribute.name} must be {names}, not {type(value).__name__}")

    return check


def check_players(players: object) -> int:
    """The number of seats ``players`` names: 2, 3 or 4, or a sequence of that many
    names; else :class:`TypeError` or ``engine_players``."""
    if (
        isinstance(players, bool)
        or not isinstance(players, int | Sequence)
        or isinstance(players, str)
    ):
        raise TypeError(f"players must be 2, 3 or 4 (or their names), not {players!r}")
    if not isinstance(players, int) and not all(isinstance(p, str) for p in players):
        raise TypeError("players' names must be strings")
    n = players if isinstance(players, int) else len(players)
    if not 2 <= n <= 4:
        raise EngineArgumentError(EngineErrorCode.PLAYERS, players=n)
    return n
