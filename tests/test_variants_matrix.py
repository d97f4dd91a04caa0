"""The presets against the variant matrix, RULES.md §3.1–3.7, transcribed independently.

``MATRIX`` below was written from the RULES.md text, not from the presets: one row per
knob, ``knob -> (clasic, online, rummy45)``.  "silent → PROPOSAL x" is read as ``x``;
"n/a" is read as the clasic value (inert while the knob that governs it is off); "int or
normal" / "int or null" is ``int | None`` with ``None`` for normal / no penalty.  The
comment on each row is the line of the matrix row in RULES.md (../shared/RULES.md; the
project's copy is docs/RULES.md).

``EXTRA`` holds the knobs that are not matrix rows: the OQ-14 and OQ-26 recommendations
and ``ace_high_run``.  §3.8 is front-end only and must not be a Ruleset field.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import attrs
import pytest

from remi_rules import (
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
    variants,
)

PRESETS = ("clasic", "online", "rummy45")
DOCS_RULES = Path(__file__).resolve().parent.parent / "docs" / "RULES.md"

_NONE = ClosingEffect.NONE
_X2 = ClosingEffect.CLOSER_X2
_ALL_X2 = ClosingEffect.ALL_X2
_NO_TWIN = ClosingAtuTwinEffect(bonus=0, mult=_NONE)

# knob -> (clasic, online, rummy45)
MATRIX: dict[str, tuple[Any, Any, Any]] = {
    # -- 3.1 Opening ------------------------------------------------------------------------
    "opening_min_points": (45, 45, 45),  # l.588
    "opening_composition": (  # l.589: online l.22 chosen over the summary l.43
        OpeningComposition.RUN,
        OpeningComposition.RUN_AND_SET,
        OpeningComposition.RUN_AND_SET,
    ),
    "opening_ace_set_exception": (True, False, False),  # l.590: rummy45 PROPOSAL false
    "opening_ace_set_blocks_other_sets": (True, True, True),  # l.591: n/a, n/a
    "opening_ace_set_joker_ok": (True, True, True),  # l.592: n/a, n/a
    "first_turn_no_meld": (True, True, True),  # l.593
    "close_in_opening_turn": (False, False, False),  # l.594
    "layoff_on_others_in_opening_turn": (False, False, False),  # l.595
    "swap_in_opening_turn": (False, False, False),  # l.596: all PROPOSAL false
    # -- 3.2 Taking from the row -------------------------------------------------------------
    "take_last_discard_before_opening": (True, True, True),  # l.602
    "take_discard_may_layoff": (False, False, False),  # l.603
    "take_discard_without_meld_declares_pe_tabla": (False, False, False),  # l.604: n/a, n/a
    "take_meld_min_own_tiles": (2, 2, 2),  # l.605
    "take_meld_joker_counts_as_own": (True, True, True),  # l.606
    "take_meld_tiles_must_predate_take": (True, True, True),  # l.607
    "rupere_anywhere": (True, True, True),  # l.608
    "rupere_anywhere_requires_opened": (True, True, True),  # l.609
    "rupere_anywhere_min_rack": (4, 2, 3),  # l.610
    "take_last_discard_min_rack": (3, 3, 3),  # l.611
    "first_discard_dead": (True, True, True),  # l.612
    # -- 3.3 Jokers --------------------------------------------------------------------------
    "real_tiles_per_joker": (2, 2, 2),  # l.618
    "jokers_may_be_adjacent": (False, True, False),  # l.619
    "joker_swap_limit": (1, 1, 1),  # l.620
    "swap_requires_opened": (True, True, True),  # l.621
    "swapped_joker_use": (  # l.622
        SwappedJokerUse.KEEP,
        SwappedJokerUse.KEEP,
        SwappedJokerUse.SAME_TURN_NEW_MELD,
    ),
    "swapped_joker_mode": (  # l.623
        SwappedJokerMode.WILD,
        SwappedJokerMode.FIXED_IDENTITY,
        SwappedJokerMode.WILD,
    ),
    "three_tile_set_joker_locked": (True, True, True),  # l.624
    "set_complete_and_swap_same_turn": (True, True, True),  # l.625
    "layoff_on_3set_with_reused_joker": (False, False, False),  # l.626: online n/a
    "joker_layoff_on_others_melds": (True, True, False),  # l.627
    # -- 3.4 Closing -------------------------------------------------------------------------
    "closing_tile_mode": (  # l.633
        ClosingTileMode.DISCARD,
        ClosingTileMode.KEEP,
        ClosingTileMode.DISCARD,
    ),
    "closing_bonus": (100, 0, 50),  # l.634
    "closing_joker_effect": (_X2, _ALL_X2, _X2),  # l.635
    "closing_ace_effect": (_X2, _NONE, _NONE),  # l.636
    "closing_atu_twin_effect": (  # l.637
        _NO_TWIN,
        ClosingAtuTwinEffect(bonus=50, mult=_ALL_X2),
        _NO_TWIN,
    ),
    "multiplier_stacking": (  # l.638
        MultiplierStacking.MULTIPLY,
        MultiplierStacking.CAP_X2,
        MultiplierStacking.MULTIPLY,
    ),
    "pe_tabla_enabled": (True, False, False),  # l.639
    "pe_tabla_bonus": (250, 250, 250),  # l.640: n/a, n/a
    "pe_tabla_declare_by": (PeTablaDeclareBy.END_OF_FIRST_CYCLE,) * 3,  # l.641: n/a, n/a
    "pe_tabla_take_discard": (PeTablaTakeDiscard.CLOSING_TURN_ONLY,) * 3,  # l.642: n/a, n/a
    "pe_tabla_adds_meld_points": (True, True, True),  # l.643: n/a, n/a
    # -- 3.5 Atu and the double game ---------------------------------------------------------
    "double_game_if_atu_joker": (True, True, True),  # l.649: online n/a (atu never a joker)
    "double_game_if_atu_ace": (True, False, True),  # l.650
    "atu_may_be_joker": (True, False, True),  # l.651
    "atu_bonus_trigger": (  # l.652
        AtuBonusTrigger.ANNOUNCE_AT_START,
        AtuBonusTrigger.CLOSE_WITH_TWIN,
        AtuBonusTrigger.MELD_TWIN,
    ),
    "atu_bonus_points": (50, 50, 50),  # l.653
    "atu_announce_deadline": (AtuAnnounceDeadline.BEFORE_OWN_FIRST_TAKE,) * 3,  # l.654: n/a
    "atu_bonus_if_unopened": (False, False, False),  # l.655: n/a, n/a
    "atu_bonus_for_joker_atu": (False, False, False),  # l.656: online n/a
    "atu_face_up_takeable": (  # l.657
        AtuFaceUpTakeable.CLOSING_TURN_ONLY,
        AtuFaceUpTakeable.NEVER,
        AtuFaceUpTakeable.CLOSING_TURN_ONLY,
    ),
    # -- 3.6 End-of-round values and penalties -----------------------------------------------
    "ace_rack_value_end": (25, 25, 25),  # l.663
    "joker_rack_value_end": (50, 50, 50),  # l.664
    "joker_table_value_end": (  # l.665
        JokerTableValueEnd.FIXED_50,
        JokerTableValueEnd.REPRESENTED,
        JokerTableValueEnd.FIXED_50,
    ),
    "reused_joker_value_end": (ReusedJokerValueEnd.AS_ANY_JOKER,) * 3,  # l.666: online n/a
    "swap_replacement_value_for_owner": (SwapReplacementValue.FACE,) * 3,  # l.667
    "swap_replacement_credited_to": (SwapReplacementCredit.MELD_OWNER,) * 3,  # l.668
    "atu_twin_rack_value_end": (None, 25, None),  # l.669: "normal" is None
    "unopened_penalty": (100, 100, 100),  # l.670
    "unopened_rack_counted": (False, False, False),  # l.671
    "announce_threshold": (3, 2, 3),  # l.672: online "2, automatic"
    "announce_automatic": (False, True, False),  # l.673
    "no_announce_penalty": (500, None, 500),  # l.674: online null
    "multipliers_apply_to_penalties": (True, True, True),  # l.675
    # l.676: clasic and rummy45 are n/a; online's PROPOSAL false is the only value given,
    # and a discarded closing tile (clasic, rummy45) is never counted, so false everywhere.
    "closer_keeps_tile_counted": (False, False, False),
    # -- 3.7 Deal, doubles, stock, ties ------------------------------------------------------
    "hand_sizes": ((15, 14), (15, 14), (15, 14)),  # l.682
    "starter_rotation": (StarterRotation.NEXT_IN_TURN_ORDER,) * 3,  # l.683
    "doubles_exchange": (True, False, True),  # l.684
    "doubles_exchange_same_class": (True, True, True),  # l.685: online n/a
    "ace_double_class": (AceDoubleClass.BIG,) * 3,  # l.686: online n/a
    "doubles_exchange_unit": (DoublesExchangeUnit.ONE_TILE,) * 3,  # l.687: online n/a
    "redeal_doubles_threshold": (None, None, 3),  # l.688
    "stock_exhausted": (  # l.689
        StockExhausted.END_ROUND,
        StockExhausted.RESHUFFLE_DISCARDS,
        StockExhausted.END_ROUND,
    ),
    "tie_rule": (TieRule.CLOSER_THEN_SHARED,) * 3,  # l.690
    "max_rack_after_turn": (None, None, None),  # l.691
    "max_turns_per_round": (400, 400, 400),  # l.692
}

# Knobs that are not matrix rows.
EXTRA: dict[str, tuple[Any, Any, Any]] = {
    # OQ-14 (l.727) recommendations, and CLOSE-06 PROPOSAL 5 (l.487); n/a outside clasic.
    "pe_tabla_binding": (True, True, True),
    "pe_tabla_opening_rules_apply": (True, True, True),
    "pe_tabla_unclosed_as_unopened": (True, True, True),
    "pe_tabla_layoff_on_others": (False, False, False),
    # OQ-26 (l.752): "a layoff counts".
    "atu_bonus_layoff_counts": (True, True, True),
    # MELD-02 (l.157): 12-13-1 runs are allowed in every source.
    "ace_high_run": (True, True, True),
}

TABLE: dict[str, tuple[Any, Any, Any]] = {**MATRIX, **EXTRA}

# §3.8: front-end only, not library logic.
FRONT_END_ONLY = (
    "turn_timer_warning_s",
    "timeout_autoplay",
    "missed_turns_before_presence_check",
    "abandon_penalty",
)


def _field_names() -> set[str]:
    return {f.name for f in attrs.fields(Ruleset)}


def _expected(preset: str) -> dict[str, Any]:
    column = PRESETS.index(preset)
    return {knob: values[column] for knob, values in TABLE.items()}


def _mismatches(preset: str) -> list[str]:
    rules = variants.get(preset)
    out = []
    for knob, want in _expected(preset).items():
        got = getattr(rules, knob)
        # compare the type too: True == 1 must not pass for an int knob, nor 1 for a bool
        if (type(got), got) != (type(want), want):
            out.append(f"{preset}.{knob}: preset {got!r}, matrix {want!r}")
    return out


def test_table_is_well_formed() -> None:
    assert not set(MATRIX) & set(EXTRA)
    for knob, values in TABLE.items():
        assert len(values) == len(PRESETS), knob


def test_table_knobs_are_exactly_the_ruleset_fields() -> None:
    fields = _field_names()
    assert set(TABLE) - fields == set(), "rows with no Ruleset field"
    assert fields - set(TABLE) == set(), "Ruleset fields with no matrix row"


def test_front_end_knobs_are_not_ruleset_fields() -> None:
    assert _field_names().isdisjoint(FRONT_END_ONLY)


def test_matrix_rows_match_docs_rules_md() -> None:
    """The knob names of §3.1–3.7 in the project's docs/RULES.md are MATRIX's rows."""
    if not DOCS_RULES.exists():
        pytest.skip("docs/RULES.md is not there yet")
    text = DOCS_RULES.read_text(encoding="utf-8")
    start = text.index("### 3.1 ")
    end = text.index("### 3.8 ")
    names = set(re.findall(r"^\| `([a-z0-9_]+)\s*:", text[start:end], flags=re.MULTILINE))
    assert names == set(MATRIX)


def test_presets_are_exactly_the_three() -> None:
    assert variants.names() == PRESETS


def test_matrix_clasic() -> None:
    assert _mismatches("clasic") == []


def test_matrix_online() -> None:
    assert _mismatches("online") == []


def test_matrix_rummy45() -> None:
    assert _mismatches("rummy45") == []


def test_presets_differ_exactly_where_the_matrix_says() -> None:
    presets = {name: variants.get(name) for name in PRESETS}
    # any knob whose three values are not all equal
    want_varying = {k for k, v in TABLE.items() if len({repr(x) for x in v}) > 1}
    got_varying = {
        f.name
        for f in attrs.fields(Ruleset)
        if len({repr(getattr(r, f.name)) for r in presets.values()}) > 1
    }
    assert got_varying == want_varying
    # and pair by pair
    for i, a in enumerate(PRESETS):
        for b in PRESETS[i + 1 :]:
            want = {k for k, v in TABLE.items() if v[PRESETS.index(a)] != v[PRESETS.index(b)]}
            got = {
                f.name
                for f in attrs.fields(Ruleset)
                if getattr(presets[a], f.name) != getattr(presets[b], f.name)
            }
            assert got == want, (a, b)


def test_the_varying_knobs_are_the_expected_ones() -> None:
    """A readable summary of where the presets differ (the matrix read by hand)."""
    varying = {k for k, v in TABLE.items() if len({repr(x) for x in v}) > 1}
    assert varying == {
        "opening_composition",
        "opening_ace_set_exception",
        "rupere_anywhere_min_rack",
        "jokers_may_be_adjacent",
        "swapped_joker_use",
        "swapped_joker_mode",
        "joker_layoff_on_others_melds",
        "closing_tile_mode",
        "closing_bonus",
        "closing_joker_effect",
        "closing_ace_effect",
        "closing_atu_twin_effect",
        "multiplier_stacking",
        "pe_tabla_enabled",
        "double_game_if_atu_ace",
        "atu_may_be_joker",
        "atu_bonus_trigger",
        "atu_face_up_takeable",
        "joker_table_value_end",
        "atu_twin_rack_value_end",
        "announce_threshold",
        "announce_automatic",
        "no_announce_penalty",
        "doubles_exchange",
        "redeal_doubles_threshold",
        "stock_exhausted",
    }
