"""An attrs validator like ``attrs.validators.instance_of`` whose :class:`TypeError`
names the types only: attrs' own puts ``repr(value)`` in the message, which for an
int of 5,000 digits raises ``ValueError`` instead (CPython's digit limit)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

__all__ = ["of_type"]


def of_type(*types: type) -> Callable[[Any, attrs.Attribute[Any], Any], None]:
    """Check ``isinstance(value, types)``; else :class:`TypeError` naming the types."""
    names = " or ".join(t.__name__ for t in types)

    def check(_inst: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
        if not isinstance(value, types):
            raise TypeError(f"{attribute.name} must be {names}, not {type(value).__name__}")

    return check
