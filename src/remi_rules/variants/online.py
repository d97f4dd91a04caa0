"""``online``: the rules of an automated online server (source 001, JocuriOnline.eu).

Only the knobs that differ from ``clasic`` are set here, each with its source;
"PROPOSAL" marks a value the source does not give, and knobs the source leaves
"n/a" keep the clasic value, inert while the knob that governs them is off
(docs/RULES.md §3).
"""

from __future__ import annotations

import attrs

from ..ruleset import (
    AtuBonusTrigger,
    AtuFaceUpTakeable,
    ClosingAtuTwinEffect,
    ClosingEffect,
    ClosingTileMode,
    JokerTableValueEnd,
    MultiplierStacking,
    OpeningComposition,
    StockExhausted,
    SwappedJokerMode,
)
from .clasic import RULES as _CLASIC

__all__ = ["RULES"]

RULES = attrs.evolve(
    _CLASIC,
    # 3.1 opening
    opening_composition=OpeningComposition.RUN_AND_SET,  # 001 l.22 (summary l.43 not chosen), OQ-16
    opening_ace_set_exception=False,  # 001 l.22 «o singura combinatie ... nu ajunge»
    # 3.2 rupere
    rupere_anywhere_min_rack=2,  # PROPOSAL: no extra limit, OQ-23
    # 3.3 jokers
    jokers_may_be_adjacent=True,  # no such rule in 001 l.12
    swapped_joker_mode=SwappedJokerMode.FIXED_IDENTITY,  # "joker întors", 001 l.15
    # 3.4 closing
    closing_tile_mode=ClosingTileMode.KEEP,  # 001 l.39, l.41
    closing_bonus=0,  # 001 l.17, l.39
    closing_joker_effect=ClosingEffect.ALL_X2,  # 001 l.41 (joker întors included)
    closing_ace_effect=ClosingEffect.NONE,  # 001 l.19 «doar»
    closing_atu_twin_effect=ClosingAtuTwinEffect(bonus=50, mult=ClosingEffect.ALL_X2),  # 001 l.42
    multiplier_stacking=MultiplierStacking.CAP_X2,  # 001 l.42
    pe_tabla_enabled=False,  # PROPOSAL (not mentioned), OQ-14
    # 3.5 atu
    double_game_if_atu_ace=False,  # 001 l.19
    atu_may_be_joker=False,  # 001 l.21 (PROPOSAL: re-turn), OQ-19
    atu_bonus_trigger=AtuBonusTrigger.CLOSE_WITH_TWIN,  # 001 l.17
    atu_face_up_takeable=AtuFaceUpTakeable.NEVER,  # PROPOSAL, OQ-19
    # 3.6 end-of-round values and penalties
    joker_table_value_end=JokerTableValueEnd.REPRESENTED,  # PROPOSAL, OQ-21
    atu_twin_rack_value_end=25,  # 001 l.20
    announce_threshold=2,  # 001 l.34 (notification at <=3)
    announce_automatic=True,  # 001 l.34
    no_announce_penalty=None,  # 001 l.35
    # 3.7 deal, doubles, stock, ties
    doubles_exchange=False,  # PROPOSAL (silent), DUBLE-03
    stock_exhausted=StockExhausted.RESHUFFLE_DISCARDS,  # 001 l.26
)
"""The ``online`` preset."""
