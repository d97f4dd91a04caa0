"""remi_rules: the reference rules engine for Remi etalat (Rummy 45).

The public API is listed in ``__all__``; see README.md and docs/ for a tour.

>>> from remi_rules import Tile, analyze_meld, variants
>>> analyze_meld("11R 12R 13R 1R", variants.get("clasic")).points
40
"""

from __future__ import annotations

from . import values, variants
from .errors import (
    InvalidMeldError,
    InvalidOpeningError,
    InvalidRulesetError,
    InvalidTileError,
    MeldErrorCode,
    OpeningErrorCode,
    RemiError,
    RulesetErrorCode,
    RulesetTypeError,
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

__version__ = "0.1.0"

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
    "ClosingTileMode",
    "Color",
    "DoublesExchangeUnit",
    "InvalidMeldError",
    "InvalidOpeningError",
    "InvalidRulesetError",
    "InvalidTileError",
    "JokerSlot",
    "JokerTableValueEnd",
    "Meld",
    "MeldErrorCode",
    "MeldKind",
    "MultiplierStacking",
    "OpeningComposition",
    "OpeningErrorCode",
    "PeTablaDeclareBy",
    "PeTablaTakeDiscard",
    "RemiError",
    "ReusedJokerValueEnd",
    "Ruleset",
    "RulesetErrorCode",
    "RulesetTypeError",
    "StarterRotation",
    "StockExhausted",
    "SwapReplacementCredit",
    "SwapReplacementValue",
    "SwappedJokerMode",
    "SwappedJokerUse",
    "TieRule",
    "Tile",
    "TileErrorCode",
    "TileParseError",
    "UnknownVariantError",
    "VariantErrorCode",
    "__version__",
    "analyze_meld",
    "arrange_meld",
    "check_opening",
    "could_become_meld",
    "ids_of",
    "is_valid_meld",
    "parse_tiles",
    "tile_of",
    "tile_points",
    "tiles_str",
    "values",
    "variants",
]
