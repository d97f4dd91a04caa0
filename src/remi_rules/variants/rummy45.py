"""``rummy45``: the "Remi Online" rules, Remi etalat sold as Rummy 45 (source 004).

Only the knobs that differ from ``clasic`` are set here, each with its source;
"PROPOSAL" marks a value the source does not give (docs/RULES.md §3).  Where 004 is
silent the matrix mostly follows the 000/002 rules text, which 004 otherwise follows.
"""

from __future__ import annotations

import attrs

from ..ruleset import (
    AtuBonusTrigger,
    ClosingEffect,
    OpeningComposition,
    SwappedJokerUse,
)
from .clasic import RULES as _CLASIC

__all__ = ["RULES"]

RULES = attrs.evolve(
    _CLASIC,
    # 3.1 opening
    opening_composition=OpeningComposition.RUN_AND_SET,  # 004 l.27
    opening_ace_set_exception=False,  # PROPOSAL (silent)
    # 3.2 rupere
    rupere_anywhere_min_rack=3,  # 004 l.37 «nici când mai ai doar 2 piese», OQ-27
    # 3.3 jokers
    swapped_joker_use=SwappedJokerUse.SAME_TURN_NEW_MELD,  # 004 l.33
    joker_layoff_on_others_melds=False,  # PROPOSAL, as the 000/002 rules texts
    # 3.4 closing
    closing_bonus=50,  # 004 l.45
    closing_ace_effect=ClosingEffect.NONE,  # PROPOSAL, OQ-29
    pe_tabla_enabled=False,  # PROPOSAL (not mentioned)
    # 3.5 atu
    atu_bonus_trigger=AtuBonusTrigger.MELD_TWIN,  # 004 l.9
    # 3.7 deal, doubles, stock, ties
    redeal_doubles_threshold=3,  # 004 l.41
)
"""The ``rummy45`` preset."""
