"""The value types of the :class:`~remi_rules.ruleset.Ruleset`'s knobs: the enums of the
variant matrix (docs/RULES.md §3) and :class:`ClosingAtuTwinEffect`.  Import them from
:mod:`remi_rules.ruleset`, which re-exports every one."""

from __future__ import annotations

import enum
from typing import Final

import attrs

from .errors import InvalidRulesetError, RulesetErrorCode, RulesetTypeError

__all__ = [
    "INT_MAX",
    "AceDoubleClass",
    "AtuAnnounceDeadline",
    "AtuBonusTrigger",
    "AtuFaceUpTakeable",
    "ClosingAtuTwinEffect",
    "ClosingEffect",
    "ClosingTileMode",
    "DoublesExchangeUnit",
    "JokerTableValueEnd",
    "MultiplierStacking",
    "OpeningComposition",
    "PeTablaDeclareBy",
    "PeTablaTakeDiscard",
    "ReusedJokerValueEnd",
    "StarterRotation",
    "StockExhausted",
    "SwapReplacementCredit",
    "SwapReplacementValue",
    "SwappedJokerMode",
    "SwappedJokerUse",
    "TieRule",
]

INT_MAX: Final = 1_000_000
"""The largest value of an unbounded int knob (points, multipliers)."""


# -- the enums of the matrix --------------------------------------------------------------


class OpeningComposition(enum.StrEnum):
    """OPEN-03: what the first etalare must contain."""

    RUN = "run"
    RUN_AND_SET = "run_and_set"


class SwappedJokerUse(enum.StrEnum):
    """JOLY-04: what a player must do with a joker he took by a swap."""

    KEEP = "keep"
    SAME_TURN_NEW_MELD = "same_turn_new_meld"


class SwappedJokerMode(enum.StrEnum):
    """JOLY-05: what a swapped joker is afterwards."""

    WILD = "wild"
    FIXED_IDENTITY = "fixed_identity"


class ClosingTileMode(enum.StrEnum):
    """CLOSE-01/02: the closing tile is discarded, or kept on the rack."""

    DISCARD = "discard"
    KEEP = "keep"


class ClosingEffect(enum.StrEnum):
    """CLOSE-05: the multiplier a closing tile causes."""

    NONE = "none"
    CLOSER_X2 = "closer_x2"
    ALL_X2 = "all_x2"


class MultiplierStacking(enum.StrEnum):
    """SCORE-04/05/06: how several doublings combine."""

    MULTIPLY = "multiply"
    CAP_X2 = "cap_x2"


class PeTablaDeclareBy(enum.StrEnum):
    """CLOSE-06: the deadline to declare a pe-tablă closing."""

    END_OF_FIRST_CYCLE = "end_of_first_cycle"


class PeTablaTakeDiscard(enum.StrEnum):
    """RUPE-07: when a pe-tablă declarer may take from the row."""

    CLOSING_TURN_ONLY = "closing_turn_only"


class AtuBonusTrigger(enum.StrEnum):
    """ATU-02/03/04: what earns the atu bonus."""

    ANNOUNCE_AT_START = "announce_at_start"
    CLOSE_WITH_TWIN = "close_with_twin"
    MELD_TWIN = "meld_twin"


class AtuAnnounceDeadline(enum.StrEnum):
    """ATU-02: the last moment to announce the atu twin."""

    BEFORE_OWN_FIRST_TAKE = "before_own_first_take"


class AtuFaceUpTakeable(enum.StrEnum):
    """ATU-06: when the face-up atu may be taken."""

    CLOSING_TURN_ONLY = "closing_turn_only"
    NEVER = "never"


class JokerTableValueEnd(enum.StrEnum):
    """VALUE-03: a joker on the table in the end count: 50, or the tile it represents."""

    FIXED_50 = "fixed_50"
    REPRESENTED = "represented"


class ReusedJokerValueEnd(enum.StrEnum):
    """VALUE-05: a reused (already swapped) joker in the end count."""

    AS_ANY_JOKER = "as_any_joker"
    ZERO = "zero"


class SwapReplacementValue(enum.StrEnum):
    """VALUE-05: what the tile laid in a joker's place is worth to the meld owner."""

    FACE = "face"
    JOKER_50 = "joker_50"


class SwapReplacementCredit(enum.StrEnum):
    """VALUE-05, OQ-20: who is credited with the tile laid in a joker's place."""

    MELD_OWNER = "meld_owner"
    SWAPPER = "swapper"


class StarterRotation(enum.StrEnum):
    """DEAL-01: who starts the next round."""

    NEXT_IN_TURN_ORDER = "next_in_turn_order"


class AceDoubleClass(enum.StrEnum):
    """DUBLE-02: the class of a pair of 1s for exchanges."""

    BIG = "big"
    KEY = "key"


class DoublesExchangeUnit(enum.StrEnum):
    """DUBLE-04: what each side gives in a doubles exchange."""

    ONE_TILE = "one_tile"
    PAIR = "pair"


class StockExhausted(enum.StrEnum):
    """END-01/02: what happens when the stock runs out."""

    END_ROUND = "end_round"
    RESHUFFLE_DISCARDS = "reshuffle_discards"


class TieRule(enum.StrEnum):
    """TIE-01/02: who wins when several seats share the top result."""

    CLOSER_THEN_SHARED = "closer_then_shared"
    SHARED = "shared"


@attrs.frozen(kw_only=True)
class ClosingAtuTwinEffect:
    """The value of ``closing_atu_twin_effect`` (CLOSE-05, ATU-03): what closing with the
    atu twin as the closing tile gives: a ``bonus`` to the closer and a ``mult``."""

    bonus: int
    mult: ClosingEffect

    def __attrs_post_init__(self) -> None:
        if type(self.bonus) is not int:
            raise RulesetTypeError(
                RulesetErrorCode.WRONG_TYPE,
                knob="closing_atu_twin_effect.bonus",
                expected="int",
                got=type(self.bonus).__name__,
            )
        if not isinstance(self.mult, ClosingEffect):
            raise RulesetTypeError(
                RulesetErrorCode.WRONG_TYPE,
                knob="closing_atu_twin_effect.mult",
                expected="ClosingEffect",
                got=type(self.mult).__name__,
            )
        if not 0 <= self.bonus <= INT_MAX:
            raise InvalidRulesetError(
                RulesetErrorCode.OUT_OF_RANGE,
                knob="closing_atu_twin_effect.bonus",
                value=self.bonus,
                lo=0,
                hi=INT_MAX,
            )
