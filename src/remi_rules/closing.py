"""Closing: when a turn closes the round, and what the rack must keep (CLOSE-01 …
CLOSE-04, OPEN-08, TURN-06, TURN-07, OQ-25).

Two closing kinds, by ``closing_tile_mode``:

* ``discard`` (clasic, rummy45; CLOSE-01): the player takes, melds and lays off, and
  closes by **discarding his last tile**, the closing tile.  The action phase must
  therefore leave at least one tile (CLOSE-04, TURN-07).
* ``keep`` (online; CLOSE-02): the round ends the moment a meld or a lay-off leaves
  the player with **exactly one** tile, which stays on his rack as the closing tile; a
  discard never closes (TURN-06), and a meld or lay-off that would leave no tile is
  illegal (OQ-25).

Scoring the close (the bonus, the closing tile's doublings) is
:func:`~remi_rules.score_round`'s business.

>>> from remi_rules import variants
>>> from remi_rules.closing import closes_on_action, closes_on_discard
>>> clasic, online = variants.get("clasic"), variants.get("online")
>>> closes_on_discard(1, clasic), closes_on_discard(1, online)      # EX-44
(True, False)
>>> closes_on_action(1, clasic), closes_on_action(1, online)
(False, True)
"""

from __future__ import annotations

from .errors import ClosingErrorCode, InvalidClosingError
from .opening import may_close, min_rack_after_opening
from .ruleset import ClosingTileMode, Ruleset, require_ruleset

__all__ = [
    "closes_on_action",
    "closes_on_discard",
    "verify_close",
    "verify_rack_after_actions",
]


def _count(value: object, what: str) -> int:
    if type(value) is not int:
        raise TypeError(f"{what} must be an int, not {type(value).__name__}")
    if value < 0:
        raise InvalidClosingError(ClosingErrorCode.BAD_RACK_SIZE, what=what, rack=value)
    return value


def closes_on_discard(rack_before_discard: int, rules: Ruleset) -> bool:
    """CLOSE-01, TURN-06: does discarding now close the round?  In ``discard`` mode when
    the discard is the last tile; in ``keep`` mode never (a discard never closes)."""
    require_ruleset(rules)
    size = _count(rack_before_discard, "rack_before_discard")
    if size == 0:
        raise InvalidClosingError(ClosingErrorCode.NOTHING_TO_DISCARD)
    return rules.closing_tile_mode is ClosingTileMode.DISCARD and size == 1


def closes_on_action(rack_after_action: int, rules: Ruleset) -> bool:
    """CLOSE-02: does the meld or lay-off just made close the round?  In ``keep`` mode
    when it leaves exactly one tile (the closing tile stays on the rack); in
    ``discard`` mode never (the close is the final discard)."""
    require_ruleset(rules)
    size = _count(rack_after_action, "rack_after_action")
    return rules.closing_tile_mode is ClosingTileMode.KEEP and size == 1


def verify_rack_after_actions(
    rack_size: int, rules: Ruleset, *, opening_turn: bool = False
) -> None:
    """TURN-07, CLOSE-04, OPEN-08, OQ-25: may a meld or lay-off leave ``rack_size`` tiles?

    At least one tile always stays: the tile to discard, or online's closing tile
    (``close_no_closing_tile``).  In the opening turn, when the player may not close
    in it, at least :func:`~remi_rules.opening.min_rack_after_opening` tiles stay
    (``close_too_few_after_opening``).  A pe-tablă closing is an opening turn that may
    close: pass ``opening_turn=False`` for it.
    """
    require_ruleset(rules)
    size = _count(rack_size, "rack_size")
    if size < 1:
        raise InvalidClosingError(ClosingErrorCode.NO_CLOSING_TILE, rack=size)
    minimum = min_rack_after_opening(rules)
    if opening_turn and size < minimum:
        raise InvalidClosingError(
            ClosingErrorCode.TOO_FEW_AFTER_OPENING, rack=size, minimum=minimum
        )


def verify_close(
    *,
    took_this_turn: bool,
    opened: bool,
    opened_this_turn: bool,
    rules: Ruleset,
    pe_tabla: bool = False,
    declared_pe_tabla: bool = False,
) -> None:
    """CLOSE-03, OPEN-08, CLOSE-06: may the player close in this turn?

    He must have taken a tile in this turn (``close_no_take``, EX-48) and opened in an
    earlier turn (``close_not_opened``, ``close_opening_turn``), unless this is a
    declared pe-tablă closing (``pe_tabla=True``: declared, never opened, and
    ``pe_tabla_enabled``; else ``close_pe_tabla``).
    """
    require_ruleset(rules)
    for name, flag in (
        ("took_this_turn", took_this_turn),
        ("opened", opened),
        ("opened_this_turn", opened_this_turn),
        ("pe_tabla", pe_tabla),
        ("declared_pe_tabla", declared_pe_tabla),
    ):
        if type(flag) is not bool:
            raise TypeError(f"{name} must be a bool, not {type(flag).__name__}")
    if not took_this_turn:
        raise InvalidClosingError(ClosingErrorCode.NO_TAKE)
    if pe_tabla:
        if not (
            declared_pe_tabla
            and may_close(
                opened=opened, opened_this_turn=opened_this_turn, rules=rules, pe_tabla=True
            )
        ):
            raise InvalidClosingError(ClosingErrorCode.PE_TABLA)
        return
    if not opened:
        raise InvalidClosingError(ClosingErrorCode.NOT_OPENED)
    if not may_close(opened=opened, opened_this_turn=opened_this_turn, rules=rules):
        raise InvalidClosingError(ClosingErrorCode.OPENING_TURN)
