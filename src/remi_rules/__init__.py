"""remi_rules: the reference rules engine for Remi etalat (Rummy 45).

The public API is listed in ``__all__``; see README.md and docs/ for a tour.

>>> from remi_rules import Tile, analyze_meld, variants
>>> analyze_meld("11R 12R 13R 1R", variants.get("clasic")).points
40
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import values, variants
from .errors import (
    ClosingErrorCode,
    EngineArgumentError,
    EngineErrorCode,
    HintError,
    HintErrorCode,
    IllegalStepError,
    InvalidClosingError,
    InvalidHandError,
    InvalidLayoffError,
    InvalidMeldError,
    InvalidOpeningError,
    InvalidRecordTextError,
    InvalidRulesetError,
    InvalidScoringInputError,
    InvalidSimulationError,
    InvalidStateError,
    InvalidSwapError,
    InvalidTakeError,
    InvalidTileError,
    LayoffErrorCode,
    MeldErrorCode,
    NotationError,
    NotationErrorCode,
    OpeningErrorCode,
    RecordTextErrorCode,
    RemiError,
    RulesetErrorCode,
    RulesetTypeError,
    ScoringErrorCode,
    SimErrorCode,
    SimulationFailedError,
    SolverErrorCode,
    StateErrorCode,
    StepErrorCode,
    SwapErrorCode,
    TakeErrorCode,
    TileErrorCode,
    TileParseError,
    UnknownVariantError,
    VariantErrorCode,
)
from .melds import (
    JokerSlot,
    Meld,
    MeldKind,
    analyze_meld,
    arrange_meld,
    could_become_meld,
    is_valid_meld,
    tile_points,
)
from .opening import check_opening
from .ruleset import (
    AceDoubleClass,
    AtuAnnounceDeadline,
    AtuBonusTrigger,
    AtuFaceUpTakeable,
    ClosingAtuTwinEffect,
    ClosingEffect,
    ClosingTileMode,
    DoublesExchangeUnit,
    JokerTableValueEnd,
    MultiplierStacking,
    OpeningComposition,
    PeTablaDeclareBy,
    PeTablaTakeDiscard,
    ReusedJokerValueEnd,
    Ruleset,
    StarterRotation,
    StockExhausted,
    SwappedJokerMode,
    SwappedJokerUse,
    SwapReplacementCredit,
    SwapReplacementValue,
    TieRule,
)
from .scoring import RoundResult, SeatEnd, SeatResult, score_round
from .solver import Objective, Solution, best_melds, best_opening
from .tiles import (
    FULL_SET,
    JOKER,
    JOKER_IDS,
    Color,
    Tile,
    ids_of,
    parse_tiles,
    tile_of,
    tiles_str,
)

if TYPE_CHECKING:
    from .hints import TurnPlan, hint

__version__ = "0.1.0"

# The hint sits above the game engine: it is imported on first use, so that
# ``import remi_rules`` stays light (the engine is not loaded until needed).
_LAZY: dict[str, str] = {"TurnPlan": ".hints", "hint": ".hints"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "FULL_SET",
    "JOKER",
    "JOKER_IDS",
    "AceDoubleClass",
    "AtuAnnounceDeadline",
    "AtuBonusTrigger",
    "AtuFaceUpTakeable",
    "ClosingAtuTwinEffect",
    "ClosingEffect",
    "ClosingErrorCode",
    "ClosingTileMode",
    "Color",
    "DoublesExchangeUnit",
    "EngineArgumentError",
    "EngineErrorCode",
    "HintError",
    "HintErrorCode",
    "IllegalStepError",
    "InvalidClosingError",
    "InvalidHandError",
    "InvalidLayoffError",
    "InvalidMeldError",
    "InvalidOpeningError",
    "InvalidRecordTextError",
    "InvalidRulesetError",
    "InvalidScoringInputError",
    "InvalidSimulationError",
    "InvalidStateError",
    "InvalidSwapError",
    "InvalidTakeError",
    "InvalidTileError",
    "JokerSlot",
    "JokerTableValueEnd",
    "LayoffErrorCode",
    "Meld",
    "MeldErrorCode",
    "MeldKind",
    "MultiplierStacking",
    "NotationError",
    "NotationErrorCode",
    "Objective",
    "OpeningComposition",
    "OpeningErrorCode",
    "PeTablaDeclareBy",
    "PeTablaTakeDiscard",
    "RecordTextErrorCode",
    "RemiError",
    "ReusedJokerValueEnd",
    "RoundResult",
    "Ruleset",
    "RulesetErrorCode",
    "RulesetTypeError",
    "ScoringErrorCode",
    "SeatEnd",
    "SeatResult",
    "SimErrorCode",
    "SimulationFailedError",
    "Solution",
    "SolverErrorCode",
    "StarterRotation",
    "StateErrorCode",
    "StepErrorCode",
    "StockExhausted",
    "SwapErrorCode",
    "SwapReplacementCredit",
    "SwapReplacementValue",
    "SwappedJokerMode",
    "SwappedJokerUse",
    "TakeErrorCode",
    "TieRule",
    "Tile",
    "TileErrorCode",
    "TileParseError",
    "TurnPlan",
    "UnknownVariantError",
    "VariantErrorCode",
    "__version__",
    "analyze_meld",
    "arrange_meld",
    "best_melds",
    "best_opening",
    "check_opening",
    "could_become_meld",
    "hint",
    "ids_of",
    "is_valid_meld",
    "parse_tiles",
    "score_round",
    "tile_of",
    "tile_points",
    "tiles_str",
    "values",
    "variants",
]
