"""The checks a :class:`~remi_rules.ruleset.Ruleset` makes of its knobs when it is built:
each value's type and range (:func:`validate`) and the combinations under which a
round could not be played (:func:`check_playable`, docs/rulesets.md)."""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Any

import attrs

from ._knob_types import ClosingAtuTwinEffect, StockExhausted
from .errors import InvalidRulesetError, RulesetErrorCode, RulesetTypeError

if TYPE_CHECKING:
    from .ruleset import Ruleset

__all__ = ["check_playable", "validate"]


def validate(field: attrs.Attribute[Any], tp: Any, value: object) -> None:
    """Refuse ``value`` for knob ``field`` (its resolved type ``tp``) with the code of
    what is wrong: its type, or its range."""
    name = field.name
    optional = tp in (int | None,)
    if optional and value is None:
        return
    if tp is bool or tp is int or optional:
        expected: type = bool if tp is bool else int
        if type(value) is not expected:
            raise RulesetTypeError(
                RulesetErrorCode.WRONG_TYPE,
                knob=name,
                expected=expected.__name__ + (" | None" if optional else ""),
                got=type(value).__name__,
            )
        if expected is int:
            assert isinstance(value, int)
            lo, hi = field.metadata["lo"], field.metadata["hi"]
            if (lo is not None and value < lo) or (hi is not None and value > hi):
                raise InvalidRulesetError(
                    RulesetErrorCode.OUT_OF_RANGE, knob=name, value=value, lo=lo, hi=hi
                )
        return
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        if not isinstance(value, tp):
            raise RulesetTypeError(
                RulesetErrorCode.WRONG_TYPE,
                knob=name,
                expected=tp.__name__,
                got=type(value).__name__,
            )
        return
    if tp is ClosingAtuTwinEffect:
        if not isinstance(value, ClosingAtuTwinEffect):
            raise RulesetTypeError(
                RulesetErrorCode.WRONG_TYPE,
                knob=name,
                expected="ClosingAtuTwinEffect",
                got=type(value).__name__,
            )
        return
    # hand_sizes: tuple[int, int]
    if not (type(value) is tuple and len(value) == 2 and all(type(v) is int for v in value)):
        raise RulesetTypeError(
            RulesetErrorCode.WRONG_TYPE,
            knob=name,
            expected="tuple[int, int]",
            got=type(value).__name__,
        )
    starter, others = value
    # The starter's first turn is a discard (TURN-01) and a rack never empties but by
    # a close: the starter needs 2 tiles at least.
    if not (1 <= others <= starter <= 30 and starter >= 2):
        raise InvalidRulesetError(RulesetErrorCode.HAND_SIZES, knob=name, value=value)


def _unplayable(conflict: str, knobs: tuple[str, ...], **details: object) -> InvalidRulesetError:
    return InvalidRulesetError(
        RulesetErrorCode.UNPLAYABLE_COMBINATION,
        knob=knobs[0],
        knobs=knobs,
        conflict=conflict,
        **details,
    )


def check_playable(rules: Ruleset) -> None:
    """Refuse the knob combinations under which a round could get stuck or never end
    (docs/rulesets.md, "Combinations that cannot be played"); each single knob is
    already within its range."""
    if (
        rules.max_turns_per_round is None
        and rules.stock_exhausted is StockExhausted.RESHUFFLE_DISCARDS
    ):
        # END-02 refills the stock from the row for as long as the row holds two
        # tiles: players who never close would draw and discard for ever (END-04).
        raise _unplayable("no_turn_cap_with_reshuffle", ("max_turns_per_round", "stock_exhausted"))
    starter, others = rules.hand_sizes
    needed = max(starter - 1, others)
    limit = rules.max_rack_after_turn
    if limit is not None and limit < needed:
        # The starter's first turn is a discard only (TURN-01), and a player who
        # cannot meld draws and discards: his rack at the turn's end is the one he
        # was dealt (TURN-04's first turn, for one).
        raise _unplayable(
            "rack_cap_below_hand",
            ("max_rack_after_turn", "hand_sizes"),
            maximum=limit,
            needed=needed,
            hand_sizes=rules.hand_sizes,
        )
