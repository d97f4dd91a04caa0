"""The size of the largest legal save (:data:`MAX_DOCUMENT_BYTES`), from the widest
step of each kind: each step field's widest legal value comes from its metadata
(:mod:`remi_rules._fields`), so a new step kind is sized without code here."""

from __future__ import annotations

import enum
import json
from typing import Any, Final

import attrs

from .. import engine as _engine
from .._fields import PLAYERS
from ..engine import STEP_TYPES
from ..ruleset import Ruleset
from ._bounds import MAX_SAVED_TURNS
from ._convert import item_of, optional_of, saved_fields

__all__ = ["MAX_DOCUMENT_BYTES", "MAX_UNDOS_PER_TURN"]

MAX_UNDOS_PER_TURN: Final[int] = _engine.MAX_UNDOS_PER_TURN
"""``U`` of :data:`MAX_DOCUMENT_BYTES`: the engine's cap on the undos of one turn
(:data:`remi_rules.engine.MAX_UNDOS_PER_TURN`)."""

_FIXED_BYTES: Final = 65_536
"""Everything of a save but its steps and chance outcomes, at most: the rules (about
3 KB), four names of :data:`MAX_NAME_LENGTH` characters (6 bytes each at most as JSON:
``\\u001f``), the deal (530 B) and the state (each of the 106 ids in at most a dozen
lists of a few bytes each, the melds' credits and keys: under 24 KB)."""
_SWAPS_PER_ROUND: Final[int] = 2 * attrs.fields(Ruleset).joker_swap_limit.metadata["hi"]
_ONCE_PER_ROUND: Final = 4 + 4 + 26 + 56
"""Steps each seat makes at most once a round (an atu announcement, a pe-tablă
declaration) and the doubles steps: at most 26 acceptances (52 doubles, two at a
time) and 56 offers (each is taken up, broken by an acceptance of its seat, or one of
the at most 4 that lapse when play starts)."""
_EXTRA_CHANCE: Final = 64
"""Redeals and atus turned back (DEAL-03) a round is sized for: each is a chance
outcome, and 64 of them in one round are less likely than 10**-40."""
_KINDS: Final = {cls.kind: cls for cls in STEP_TYPES}
"""The step classes by kind."""


def _dumps(data: Any) -> str:
    return json.dumps(data, sort_keys=True, ensure_ascii=False)


def _widest_value(tp: Any, meta: Any) -> Any:
    """The widest value in JSON a legal save holds in a field of type ``tp`` with the
    metadata ``meta``."""
    tp = optional_of(tp) or tp
    if tp is int:
        return PLAYERS["hi"] - 1 if meta.get("seat") else meta["hi"]
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return max(meta.get("choices", [m.value for m in tp]), key=len)
    item = item_of(tp)
    assert item is not None, f"no widest value of {tp!r}"  # pragma: no cover - a new type
    count = meta.get("legal_max_items", meta["max_items"])
    return [_widest_value(item, meta.get("items", {}))] * count


def _widest(kind: str) -> int:
    """The longest text of a step of ``kind`` in a save (its item separator included)."""
    fields = saved_fields(_KINDS[kind])
    widest = {"kind": kind, **{f.name: _widest_value(f.type, f.metadata) for f in fields}}
    return len(_dumps(widest)) + 2


def _document_bound(turns: int = MAX_SAVED_TURNS, undos: int | None = None) -> int:
    """The size in bytes of the largest save (:func:`dumps_game`) of a round of
    ``turns`` turns with at most ``undos`` undos a turn (default
    :data:`MAX_UNDOS_PER_TURN`): :data:`MAX_DOCUMENT_BYTES` is its value for
    :data:`MAX_SAVED_TURNS`.  See docs/saving.md for the formula."""
    u = MAX_UNDOS_PER_TURN if undos is None else undos
    s = max(_widest(kind) for kind in _KINDS)
    one = max(_widest("lay_off"), _widest("swap_joker"))
    undo = _widest("undo")
    chance = len(_dumps(list(range(106)))) + 2
    # past the cap, undos that take a turn unable to end back to one that can: at most
    # the steps kept before the cap (the take and the table steps)
    rescue = 1 + 106 + _SWAPS_PER_ROUND
    turn = 3 * s + (106 + _SWAPS_PER_ROUND) * one + (u + rescue) * (s + undo) + chance
    per_round = (_ONCE_PER_ROUND + _EXTRA_CHANCE) * s + _EXTRA_CHANCE * chance
    return _FIXED_BYTES + per_round + turns * turn


MAX_DOCUMENT_BYTES: Final = _document_bound()
"""The largest saved document (a game, a record or a match, as text in UTF-8 or as
the size of its compact JSON) the loaders read; a larger one is refused with
``state_document_too_large`` before it is parsed.  It is the size of the largest save
of a round of :data:`MAX_SAVED_TURNS` turns (docs/saving.md gives the formula)."""
