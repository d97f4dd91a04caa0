"""Variant presets: one module per preset, each building one :class:`~remi_rules.Ruleset`.

>>> from remi_rules import variants
>>> variants.names()
('clasic', 'online', 'rummy45')
>>> variants.get("rummy45").closing_bonus
50

A house rule is one field changed: ``attrs.evolve(variants.get("clasic"), closing_bonus=50)``.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Final

from ..errors import UnknownVariantError, VariantErrorCode
from ..ruleset import Ruleset
from . import clasic, online, rummy45

__all__ = ["PRESETS", "get", "name_of", "names"]

PRESETS: Final = MappingProxyType(
    {
        "clasic": clasic.RULES,
        "online": online.RULES,
        "rummy45": rummy45.RULES,
    }
)
"""Every preset by name (read-only)."""


def names() -> tuple[str, ...]:
    """The preset names, in a stable order."""
    return tuple(PRESETS)


def get(name: str) -> Ruleset:
    """The preset called ``name``; :class:`~remi_rules.UnknownVariantError` lists the
    known names when there is none."""
    if not isinstance(name, str):
        raise TypeError(f"variant name must be a str, not {type(name).__name__}")
    try:
        return PRESETS[name]
    except KeyError:
        raise UnknownVariantError(
            VariantErrorCode.UNKNOWN_VARIANT, name=name, known=", ".join(PRESETS)
        ) from None


def name_of(rules: Ruleset) -> str | None:
    """The name of the preset equal to ``rules``, or ``None`` for a house ruleset."""
    for name, preset in PRESETS.items():
        if preset == rules:
            return name
    return None
