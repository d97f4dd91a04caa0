"""``clasic``: the rules of the Romanian "regulament oficial" and its Q&A (source 000)
with the classic rules article (source 002).

Where 000's rules text and its Q&A disagree, the later site answer wins; where 002
disagrees with a 000 Q&A answer, the Q&A wins (docs/RULES.md §0).  Each value cites
its source; "PROPOSAL" marks a value no source gives (docs/RULES.md §3).
"""

from __future__ import annotations

from ..ruleset import (
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

__all__ = ["RULES"]

RULES = Ruleset(
    # 3.1 opening
    opening_min_points=45,  # 000 l.45
    opening_composition=OpeningComposition.RUN,  # 000 l.45
    opening_ace_set_exception=True,  # 000 l.46, 002 l.21
    opening_ace_set_blocks_other_sets=True,  # 000 l.46
    opening_ace_set_joker_ok=True,  # 000 Q&A l.120
    first_turn_no_meld=True,  # 000 l.42
    close_in_opening_turn=False,  # 000 Q&A l.247 (over l.87/l.90), OQ-07
    layoff_on_others_in_opening_turn=False,  # 000 l.48
    swap_in_opening_turn=False,  # PROPOSAL, OPEN-09
    # 3.2 rupere
    take_last_discard_before_opening=True,  # 000 l.48
    take_discard_may_layoff=False,  # 000 Q&A l.124
    take_discard_without_meld_declares_pe_tabla=False,  # Q&A l.79/124/159 over 000 l.53, OQ-08
    take_meld_min_own_tiles=2,  # 000 Q&A l.154
    take_meld_joker_counts_as_own=True,  # 000 Q&A l.248
    take_meld_tiles_must_predate_take=True,  # 000 Q&A l.224 (interpreted), OQ-11
    rupere_anywhere=True,  # 000 l.48, l.54
    rupere_anywhere_requires_opened=True,  # 000 l.54
    rupere_anywhere_min_rack=4,  # 000 l.54
    take_last_discard_min_rack=3,  # 000 l.59-60
    first_discard_dead=True,  # 000 l.41, 002 l.5
    # 3.3 jokers
    real_tiles_per_joker=2,  # 000 l.55
    jokers_may_be_adjacent=False,  # 000 l.55
    joker_swap_limit=1,  # 000 l.55, Q&A l.102
    swap_requires_opened=True,  # PROPOSAL, OQ-39
    swapped_joker_use=SwappedJokerUse.KEEP,  # 000 Q&A l.196 (002 l.36 not chosen)
    swapped_joker_mode=SwappedJokerMode.WILD,  # 000 Q&A l.237
    three_tile_set_joker_locked=True,  # 000 l.56 (Q&A l.110 contra), OQ-10
    set_complete_and_swap_same_turn=True,  # 000 Q&A l.95
    layoff_on_3set_with_reused_joker=False,  # 000 Q&A l.102, l.126
    joker_layoff_on_others_melds=True,  # 000 Q&A l.238 (000 l.57, 002 l.38 say no), OQ-06
    # 3.4 closing
    closing_tile_mode=ClosingTileMode.DISCARD,  # 000 l.63
    closing_bonus=100,  # 000 Q&A l.142, OQ-01
    closing_joker_effect=ClosingEffect.CLOSER_X2,  # 000 l.64
    closing_ace_effect=ClosingEffect.CLOSER_X2,  # 000 l.64, Q&A l.189, OQ-02
    closing_atu_twin_effect=ClosingAtuTwinEffect(bonus=0, mult=ClosingEffect.NONE),  # PROPOSAL
    multiplier_stacking=MultiplierStacking.MULTIPLY,  # 000 l.65 (x4)
    pe_tabla_enabled=True,  # 000 Q&A l.78-92, l.158-161
    pe_tabla_bonus=250,  # 000 Q&A l.82 (500 and 2000 heard of, l.88)
    pe_tabla_declare_by=PeTablaDeclareBy.END_OF_FIRST_CYCLE,  # 000 Q&A l.81, l.161
    pe_tabla_take_discard=PeTablaTakeDiscard.CLOSING_TURN_ONLY,  # 000 Q&A l.159
    pe_tabla_adds_meld_points=True,  # PROPOSAL, OQ-14
    pe_tabla_binding=True,  # PROPOSAL, OQ-14
    pe_tabla_opening_rules_apply=True,  # PROPOSAL, OQ-14
    pe_tabla_unclosed_as_unopened=True,  # PROPOSAL, OQ-14
    pe_tabla_layoff_on_others=False,  # PROPOSAL, CLOSE-06 (5)
    # 3.5 atu
    double_game_if_atu_joker=True,  # 000 l.65, Q&A l.134
    double_game_if_atu_ace=True,  # 000 l.65, Q&A l.189, OQ-03
    atu_may_be_joker=True,  # 000 Q&A l.134
    atu_bonus_trigger=AtuBonusTrigger.ANNOUNCE_AT_START,  # 000 l.14
    atu_bonus_points=50,  # 000 l.14
    atu_announce_deadline=AtuAnnounceDeadline.BEFORE_OWN_FIRST_TAKE,  # 000 Q&A l.85
    atu_bonus_if_unopened=False,  # 000 Q&A l.165
    atu_bonus_for_joker_atu=False,  # PROPOSAL, OQ-37
    atu_face_up_takeable=AtuFaceUpTakeable.CLOSING_TURN_ONLY,  # 000 l.14, Q&A l.155/170/179
    atu_bonus_layoff_counts=True,  # inert here (announce_at_start); OQ-26
    # 3.6 end-of-round values and penalties
    ace_rack_value_end=25,  # 000 l.35, Q&A l.114
    joker_rack_value_end=50,  # 000 l.36
    joker_table_value_end=JokerTableValueEnd.FIXED_50,  # 000 Q&A l.145, l.177, OQ-05
    reused_joker_value_end=ReusedJokerValueEnd.AS_ANY_JOKER,  # Q&A l.178-180 (l.38 said 0)
    swap_replacement_value_for_owner=SwapReplacementValue.FACE,  # Q&A l.180 (l.109 said 50)
    swap_replacement_credited_to=SwapReplacementCredit.MELD_OWNER,  # Q&A l.180
    atu_twin_rack_value_end=None,  # PROPOSAL normal value (000 l.37 read as a bonus), OQ-13
    unopened_penalty=100,  # 000 l.62
    unopened_rack_counted=False,  # 000 Q&A l.114, l.165
    announce_threshold=3,  # 000 l.58
    announce_automatic=False,
    no_announce_penalty=500,  # 000 l.58, 002 l.42 (Q&A l.222 softens), OQ-12
    multipliers_apply_to_penalties=True,  # Q&A l.75 for -100; PROPOSAL for -500
    closer_keeps_tile_counted=False,  # n/a (the closing tile is discarded)
    # 3.7 deal, doubles, stock, ties
    hand_sizes=(15, 14),  # 000 l.13
    starter_rotation=StarterRotation.NEXT_IN_TURN_ORDER,  # 000 l.4, l.13
    doubles_exchange=True,  # 000 l.15
    doubles_exchange_same_class=True,  # 000 l.15
    ace_double_class=AceDoubleClass.BIG,  # 000 Q&A l.184
    doubles_exchange_unit=DoublesExchangeUnit.ONE_TILE,  # PROPOSAL, OQ-30
    redeal_doubles_threshold=None,  # Q&A l.242 (rules text l.15-16 said 3), OQ-09
    stock_exhausted=StockExhausted.END_ROUND,  # 000 l.63, 002 l.50
    tie_rule=TieRule.CLOSER_THEN_SHARED,  # PROPOSAL, TIE-02
    max_rack_after_turn=None,  # PROPOSAL, TURN-10
    max_turns_per_round=400,  # PROPOSAL, END-04
    # melds
    ace_high_run=True,  # MELD-02
)
"""The ``clasic`` preset."""
