"""Audit of the turn rules (rupere, opening, closing) against RULES.md.

Every test asserts what RULES.md requires under each preset (``clasic``, ``online``,
``rummy45``).  The first group pins problems an audit found and that were then fixed
(a disagreement with RULES.md, accepted bad input or a misleading API); the others
document behaviour that was checked and found right, including Hypothesis
properties (``take_options`` against ``can_take``, tile conservation by ``take``, the
error types of the ``verify_*`` functions, and a brute-force oracle for
``can_close_with`` / ``can_open_with`` on small racks).
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from remi_rules import (
    Color,
    InvalidClosingError,
    InvalidMeldError,
    InvalidOpeningError,
    InvalidTakeError,
    Ruleset,
    TakeErrorCode,
    Tile,
    analyze_meld,
    check_opening,
    ids_of,
    tile_of,
    variants,
)
from remi_rules.closing import (
    closes_on_action,
    closes_on_discard,
    verify_close,
    verify_rack_after_actions,
)
from remi_rules.melds import arrange_meld
from remi_rules.opening import may_close, may_lay_off_on_others, may_open
from remi_rules.rupere import (
    ObligationOutcome,
    TakeObligation,
    TakeSource,
    can_close_with,
    can_open_with,
    can_take,
    justifying_melds,
    take,
    take_options,
    verify_obligation,
    verify_take,
    verify_take_atu,
)
from remi_rules.table import JokerHistory

E = TakeErrorCode
PRESETS = ("clasic", "online", "rummy45")
CLASIC, ONLINE, RUMMY45 = (variants.get(n) for n in PRESETS)


class Deal:
    """Distinct physical ids for tile notation (the second copy once the first is out)."""

    def __init__(self) -> None:
        self.used: set[int] = set()

    def __call__(self, text: str) -> list[int]:
        out = []
        for token in text.split():
            free = [i for i in ids_of(Tile.parse(token)) if i not in self.used]
            assert free, f"no copy of {token} left"
            self.used.add(free[0])
            out.append(free[0])
        return out

    def one(self, text: str) -> int:
        (i,) = self(text)
        return i


def refusal(fn: Callable[..., object], *args: object, **kwargs: object) -> TakeErrorCode | None:
    try:
        fn(*args, **kwargs)
    except InvalidTakeError as err:
        return err.code
    return None


# ============================================================================================
# Findings of the audit, fixed: most serious first
# ============================================================================================

# EX-41 «online, rummy45: no pe-tablă rule (PROPOSAL: disabled), so P's play would be an
# illegal close in the opening turn.»  CLOSE-06 «presets: online, rummy45 — not mentioned
# (PROPOSAL: disabled)».  verify_take_atu ignores declared_pe_tabla when pe_tabla_enabled
# is false; verify_take and may_open do not.


def _closing_but_not_opening() -> tuple[list[int], list[int]]:
    """Unopened P, last discard 13R; the take allows 11R 12R 13R + 13G 13A 13N (60) with
    only 2A left: a close in the opening turn, never a legal opening (OPEN-08)."""
    deal = Deal()
    return deal("2N 4G 13R"), deal("11R 12R 13G 13A 13N 2A")


@pytest.mark.rule("CLOSE-06")
@pytest.mark.rule("EX-41")
@pytest.mark.parametrize("preset", ["online", "rummy45"])
def test_EX_41_no_pe_tabla_take_where_pe_tabla_is_disabled(preset: str) -> None:
    rules = variants.get(preset)
    row, rack = _closing_but_not_opening()
    kw: dict[str, Any] = {"opened_before_this_turn": False, "turn_number": 5, "rack": rack}
    # Without the (meaningless) declaration the take is refused: P cannot open with it.
    assert refusal(verify_take, row, 2, len(rack), rules, **kw) is E.CANNOT_OPEN
    # The declaration must change nothing where pe tablă does not exist.
    assert (
        refusal(
            verify_take,
            row,
            2,
            len(rack),
            rules,
            declared_pe_tabla=True,
            closing_turn=True,
            **kw,
        )
        is E.CANNOT_OPEN
    )


@pytest.mark.rule("CLOSE-06")
@pytest.mark.rule("EX-41")
def test_EX_41_clasic_pe_tabla_take_is_allowed_and_control_passes() -> None:
    """The same position in clasic: the declared closing turn may take the discard."""
    row, rack = _closing_but_not_opening()
    kw: dict[str, Any] = {"opened_before_this_turn": False, "turn_number": 5, "rack": rack}
    assert refusal(verify_take, row, 2, len(rack), CLASIC, **kw) is E.CANNOT_OPEN
    assert (
        refusal(
            verify_take,
            row,
            2,
            len(rack),
            CLASIC,
            declared_pe_tabla=True,
            closing_turn=True,
            **kw,
        )
        is None
    )
    # ... but not before the closing turn (RUPE-07).
    assert (
        refusal(verify_take, row, 2, len(rack), CLASIC, declared_pe_tabla=True, **kw)
        is E.PE_TABLA_NOT_CLOSING
    )


@pytest.mark.rule("RUPE-07")
@pytest.mark.parametrize("preset", ["online", "rummy45"])
def test_RUPE_07_applies_only_where_pe_tabla_exists(preset: str) -> None:
    rules = variants.get(preset)
    deal = Deal()
    row = deal("2N 4G 8R")
    kw: dict[str, Any] = {"opened_before_this_turn": False, "turn_number": 3}
    assert take_options(row, 14, rules, **kw) == (2,)
    assert take_options(row, 14, rules, declared_pe_tabla=True, **kw) == (2,)


@pytest.mark.rule("CLOSE-06")
@pytest.mark.rule("OPEN-01")
@pytest.mark.parametrize("preset", ["online", "rummy45"])
def test_OPEN_01_may_open_ignores_pe_tabla_where_disabled(preset: str) -> None:
    rules = variants.get(preset)
    assert may_open(5, rules)
    assert may_open(5, rules, declared_pe_tabla=True)


# JOLY-05 online: a joker întors «can be used only as that tile (in melds, ...)»; EX-45
# «never in `3R 3G J`».  RUPE-01 needs a *valid* new meld.  The rupere functions see only
# physical ids, so every rack joker is wild; no argument carries the joker histories
# (remi_rules.table.JokerHistory), unlike the table/lipire/joly modules.


@pytest.mark.rule("JOLY-05")
@pytest.mark.rule("EX-45")
def test_EX_45_online_joker_intors_does_not_justify_a_take_as_a_wild_joker() -> None:
    deal = Deal()
    row = deal("2N 4G 3G")
    rack = deal("3R J 9A 11N")  # J is B's joker întors J(=8R)
    jokers = (JokerHistory(swaps=1, fixed_as=Tile.parse("8R")), JokerHistory())
    assert justifying_melds(row[2], rack, ONLINE)  # today: 3R 3G J, as if J were wild
    kw: dict[str, Any] = {"opened_before_this_turn": True, "turn_number": 6, "rack": rack}
    assert refusal(verify_take, row, 2, len(rack), ONLINE, jokers=jokers, **kw) is E.CANNOT_JUSTIFY


@pytest.mark.rule("JOLY-05")
def test_JOLY_05_online_obligation_with_a_joker_intors_in_a_set() -> None:
    deal = Deal()
    row = deal("2N 4G 3G")
    rack = deal("3R J 9A 11N")
    result = take(row, 2, rack)
    jokers = (JokerHistory(swaps=1, fixed_as=Tile.parse("8R")), JokerHistory())
    with pytest.raises(InvalidTakeError):
        verify_obligation(result.obligation, [[rack[0], row[2], rack[1]]], ONLINE, jokers=jokers)


# CLOSE-06 PROPOSAL 5 «No layoffs on other players' melds in that turn (OPEN-07).»
# clasic: pe_tabla_layoff_on_others = False.  verify_take_atu still counts ``layable``.


@pytest.mark.rule("CLOSE-06")
@pytest.mark.rule("EX-42")
def test_EX_42_pe_tabla_atu_closing_may_not_rely_on_layoffs() -> None:
    deal = Deal()
    atu = deal.one("4R")
    rack = deal("1R 2R 3R 6G 7G 8G 9A 9N 9R 12N 12G 12A 5A 11N")
    kw: dict[str, Any] = {
        "opened_before_this_turn": False,
        "turn_number": 5,
        "closing_turn": True,
        "declared_pe_tabla": True,
        "atu": atu,
        "rack": rack,
    }
    assert not CLASIC.pe_tabla_layoff_on_others
    assert refusal(verify_take_atu, CLASIC, **kw) is E.CANNOT_CLOSE  # 5A and 11N left
    # 11N fits someone's 8N 9N 10N, but a pe-tablă closer may not lay off on it.
    assert refusal(verify_take_atu, CLASIC, layable=[rack[-1]], **kw) is E.CANNOT_CLOSE


@pytest.mark.rule("EX-42")
def test_EX_42_the_atu_in_a_pe_tabla_closing_is_valid_in_clasic_only() -> None:
    deal = Deal()
    atu = deal.one("4R")
    rack = deal("1R 2R 3R 6G 7G 8G 9A 9N 9R 12N 12G 12A 12R 5A")
    kw: dict[str, Any] = {
        "opened_before_this_turn": False,
        "turn_number": 5,
        "closing_turn": True,
        "declared_pe_tabla": True,
        "atu": atu,
        "rack": rack,
    }
    assert refusal(verify_take_atu, CLASIC, **kw) is None
    assert refusal(verify_take_atu, ONLINE, **kw) is E.ATU_NEVER
    assert refusal(verify_take_atu, RUMMY45, **kw) is E.ATU_NO_FULL_RIGHTS


# The ``opened`` flag of may_close/verify_close means "has opened, this turn included"
# (opened=True, opened_this_turn=True is an etalare in this turn).  A pe-tablă closer
# melds everything in this turn, so the consistent flags are opened=True,
# opened_this_turn=True; the functions then refuse the legal closing (CLOSE-06 «He closes
# by laying down all his tiles in melds at once and discarding the closing tile.»).


@pytest.mark.rule("CLOSE-06")
def test_CLOSE_06_pe_tabla_closing_with_consistent_opened_flags() -> None:
    assert may_close(opened=True, opened_this_turn=True, rules=CLASIC, pe_tabla=True)
    verify_close(
        took_this_turn=True,
        opened=True,
        opened_this_turn=True,
        rules=CLASIC,
        pe_tabla=True,
        declared_pe_tabla=True,
    )


@pytest.mark.rule("CLOSE-06")
def test_CLOSE_06_no_pe_tabla_closing_after_an_earlier_etalare() -> None:
    """000 Q&A l.161 «Odata ce ai etalat nu mai poti inchide pe tabla»: right today."""
    assert not may_close(opened=True, opened_this_turn=False, rules=CLASIC, pe_tabla=True)


# RUPE-02/RUPE-01: the justifying meld must hold ≥2 tiles that were on the rack.  A
# physical tile can be in a meld once; verify_obligation counts a repeated id twice.


@pytest.mark.rule("RUPE-02")
@pytest.mark.rule("RUPE-03")
def test_RUPE_03_obligation_rejects_a_meld_that_repeats_a_physical_tile() -> None:
    deal = Deal()
    row = deal("2N 7R 6R 8R 9R")
    rack = deal("J 3A 5G")
    joker = rack[0]
    result = take(row, 1, rack)  # 7R, with 6R 8R 9R after it
    meld = [joker, row[2], row[1], row[3], row[4], joker]  # "J 6R 7R 8R 9R J", one joker
    with pytest.raises(InvalidTakeError):
        verify_obligation(result.obligation, [meld], CLASIC)


# RUPE-08 «A take from the row is atomic» — verify_take(rack=...) is the check a game
# engine calls before every take; for an unopened 14-tile rack it can take seconds.


# check_opening takes Meld values but never checks them against ``rules``: a meld
# analysed under online (adjacent jokers allowed) passes as a clasic opening.
# MELD-05 «clasic: ... the two jokers may not be adjacent».


@pytest.mark.rule("OPEN-02")
@pytest.mark.rule("MELD-05")
def test_OPEN_02_check_opening_refuses_a_meld_invalid_under_its_rules() -> None:
    adjacent = analyze_meld("3R 4R J J 7R 8R", ONLINE)
    with pytest.raises(InvalidMeldError):
        analyze_meld("3R 4R J J 7R 8R", CLASIC)
    with pytest.raises((InvalidOpeningError, ValueError)):
        check_opening([adjacent, analyze_meld("5G 5A 5N", CLASIC)], CLASIC)


# take() refuses a row that repeats a physical id (take_duplicate_tile); take_options and
# verify_take without a rack accept it and answer about an impossible row.


@pytest.mark.rule("TURN-09")
def test_TURN_09_take_options_refuses_a_row_with_a_repeated_tile() -> None:
    deal = Deal()
    a, b = deal("2N 9R")
    with pytest.raises(InvalidTakeError):
        take((a, b, b), 2, ())
    with pytest.raises(InvalidTakeError):
        take_options((a, b, b), 6, CLASIC, opened_before_this_turn=True, turn_number=4)


# Flags are documented as bools; ints are type-checked strictly (a bool index is a
# TypeError) but flags are only tested for truth, so the string "no" means "yes".


@pytest.mark.rule("RUPE-04")
def test_RUPE_04_string_flag_is_not_taken_as_opened() -> None:
    deal = Deal()
    row = deal("2N 4G 9R 2A 13N 6G")
    with pytest.raises(TypeError):
        take_options(row, 6, CLASIC, opened_before_this_turn="no", turn_number=5)  # type: ignore[arg-type]


@pytest.mark.rule("CLOSE-03")
def test_CLOSE_03_string_took_this_turn_is_not_a_take() -> None:
    with pytest.raises((TypeError, InvalidClosingError)):
        verify_close(
            took_this_turn="no",  # type: ignore[arg-type]
            opened=True,
            opened_this_turn=False,
            rules=CLASIC,
        )


@pytest.mark.rule("TURN-06")
def test_TURN_06_no_discard_from_an_empty_rack() -> None:
    with pytest.raises(ValueError):
        closes_on_discard(0, CLASIC)


# ============================================================================================
# Checked and found right
# ============================================================================================


@pytest.mark.rule("EX-18")
@pytest.mark.rule("RUPE-04")
@pytest.mark.rule("RUPE-05")
@pytest.mark.parametrize(
    ("preset", "six", "three", "unopened"),
    [
        ("clasic", (1, 2, 3, 4, 5), (5,), (5,)),
        ("online", (1, 2, 3, 4, 5), (1, 2, 3, 4, 5), (5,)),
        ("rummy45", (1, 2, 3, 4, 5), (1, 2, 3, 4, 5), (5,)),
    ],
)
def test_EX_18_take_options_per_preset(
    preset: str, six: tuple[int, ...], three: tuple[int, ...], unopened: tuple[int, ...]
) -> None:
    rules = variants.get(preset)
    row = Deal()("2N 4G 9R 2A 13N 6G")
    assert take_options(row, 6, rules, opened_before_this_turn=True, turn_number=5) == six
    assert take_options(row, 3, rules, opened_before_this_turn=True, turn_number=5) == three
    assert take_options(row, 6, rules, opened_before_this_turn=False, turn_number=5) == unopened


@pytest.mark.rule("EX-18")
@pytest.mark.parametrize(("preset", "expected"), [("clasic", E.RUPERE_RACK_TOO_SMALL)])
def test_EX_18b_three_tiles_rupere_clasic(preset: str, expected: TakeErrorCode) -> None:
    deal = Deal()
    row = deal("2N 4G 9R 2A 13N 6G")
    rack = deal("9G 9A 5N")
    kw: dict[str, Any] = {"opened_before_this_turn": True, "turn_number": 5, "rack": rack}
    assert refusal(verify_take, row, 2, 3, variants.get(preset), **kw) is expected
    for rules in (ONLINE, RUMMY45):
        assert refusal(verify_take, row, 2, 3, rules, **kw) is None


@pytest.mark.rule("EX-19")
@pytest.mark.rule("EX-20")
@pytest.mark.rule("EX-21")
@pytest.mark.parametrize("preset", PRESETS)
def test_EX_19_20_21_small_racks_and_the_swapped_joker(preset: str) -> None:
    rules = variants.get(preset)
    kw: dict[str, Any] = {"opened_before_this_turn": True, "turn_number": 7}
    deal = Deal()
    row = deal("2N 4G 6R")
    two = deal("5R 7R")
    assert refusal(verify_take, row, 2, 2, rules, rack=two, **kw) is not None  # EX-19
    three = [*two, deal.one("2N")]
    assert refusal(verify_take, row, 2, 3, rules, rack=three, **kw) is None  # EX-20
    deal = Deal()
    row = deal("2G 5A 11R")
    rack = deal("13R 13N 4A")
    assert refusal(verify_take, row, 2, 3, rules, rack=rack, **kw) is E.CANNOT_JUSTIFY  # EX-21


@pytest.mark.rule("EX-32")
@pytest.mark.rule("EX-33")
@pytest.mark.rule("EX-34")
@pytest.mark.rule("ATU-06")
def test_EX_32_33_34_taking_the_atu_per_preset() -> None:
    kw: dict[str, Any] = {"opened_before_this_turn": True, "turn_number": 6, "closing_turn": True}
    deal = Deal()
    atu = deal.one("6N")
    rack = deal("8R 8G 8A 4N 5N")
    for rules in (CLASIC, RUMMY45):
        assert refusal(verify_take_atu, rules, atu=atu, rack=rack, **kw) is E.CANNOT_CLOSE
        extra = [*rack, Deal()("2G")[0]]
        assert refusal(verify_take_atu, rules, atu=atu, rack=extra, **kw) is None
    assert refusal(verify_take_atu, ONLINE, atu=atu, rack=rack, **kw) is E.ATU_NEVER
    deal = Deal()
    atu = deal.one("10G")
    rack = deal("11G 12G 13G 5N 9A")
    layable = [rack[2], rack[3]]
    assert refusal(verify_take_atu, CLASIC, atu=atu, rack=rack, layable=layable, **kw) is None
    assert refusal(verify_take_atu, CLASIC, atu=atu, rack=rack, **kw) is E.CANNOT_CLOSE
    assert (
        refusal(verify_take_atu, CLASIC, **{**kw, "closing_turn": False}) is E.ATU_NOT_CLOSING_TURN
    )
    deal = Deal()
    joker_atu = deal.one("J")
    rack = deal("3R 3G 10A")
    assert refusal(verify_take_atu, CLASIC, atu=joker_atu, rack=rack, **kw) is None


@pytest.mark.rule("OPEN-08")
@pytest.mark.rule("EX-40")
@pytest.mark.rule("CLOSE-04")
@pytest.mark.parametrize("preset", PRESETS)
def test_EX_40_no_close_in_the_opening_turn(preset: str) -> None:
    rules = variants.get(preset)
    with pytest.raises(InvalidClosingError):
        verify_rack_after_actions(1, rules, opening_turn=True)
    verify_rack_after_actions(2, rules, opening_turn=True)
    with pytest.raises(InvalidClosingError):
        verify_rack_after_actions(0, rules)
    with pytest.raises(InvalidClosingError):
        verify_close(took_this_turn=True, opened=True, opened_this_turn=True, rules=rules)


@pytest.mark.rule("EX-44")
@pytest.mark.rule("EX-48")
@pytest.mark.rule("CLOSE-02")
def test_EX_44_48_closing_kinds_and_the_take() -> None:
    for rules in (CLASIC, RUMMY45):
        assert closes_on_discard(1, rules) and not closes_on_action(1, rules)
    assert not closes_on_discard(1, ONLINE) and closes_on_action(1, ONLINE)
    assert not closes_on_action(2, ONLINE)
    for rules in (CLASIC, ONLINE, RUMMY45):
        with pytest.raises(InvalidClosingError):
            verify_close(took_this_turn=False, opened=True, opened_this_turn=False, rules=rules)


@pytest.mark.rule("EX-54")
@pytest.mark.rule("OPEN-07")
@pytest.mark.parametrize("preset", PRESETS)
def test_EX_54_no_layoff_on_others_in_the_opening_turn(preset: str) -> None:
    rules = variants.get(preset)
    assert not may_lay_off_on_others(opened=True, opened_this_turn=True, rules=rules)
    assert may_lay_off_on_others(opened=True, opened_this_turn=False, rules=rules)
    melds = [analyze_meld("3R 4R 5R 6R", rules), analyze_meld("10G 10A 10N", rules)]
    assert check_opening(melds, rules) == 50


OPENINGS: dict[str, tuple[tuple[str, ...], tuple[object, object, object]]] = {
    "EX-05": (("10R J 12R", "5G 5A 5N"), (45, 45, 45)),
    "EX-06": (("7R 8R 9R", "10G 11G 12G 13G"), (55, None, None)),
    "EX-07": (("5R 5G 5A", "9N 9R 9G", "10A 10G 10N"), (None, None, None)),
    "EX-08": (("1R 1G 1A",), (75, None, None)),
    "EX-09": (("1R 1G J",), (75, None, None)),
    "EX-09b": (("1R 1G J", "4A 5A 6A"), (90, 90, 90)),
    "EX-10a": (("1R 1G 1A", "13R 13G 13N"), (None, None, None)),
    "EX-10b": (("1R 1G 1A", "13R 13G 13N", "4R 5R 6R"), (120, 120, 120)),
    "EX-11": (("3A 4A 5A 6A 7A 8A 9A 10A",), (45, None, None)),
    "EX-12": (("2R 3R 4R J", "6G 6A 6N"), (None, None, None)),
    "EX-13": (("1R 2R 3R", "12G 13G 1G"), (45, None, None)),
    "EX-13b": (("1R 2R 3R", "1G 1A 1N"), (90, 90, 90)),
}


@pytest.mark.rule("EX-05")
@pytest.mark.rule("EX-06")
@pytest.mark.rule("EX-07")
@pytest.mark.rule("EX-08")
@pytest.mark.rule("EX-09")
@pytest.mark.rule("EX-10")
@pytest.mark.rule("EX-11")
@pytest.mark.rule("EX-12")
@pytest.mark.rule("EX-13")
@pytest.mark.parametrize("example", sorted(OPENINGS))
def test_EX_05_to_13_opening_matrix(example: str) -> None:
    texts, expected = OPENINGS[example]
    for rules, want in zip((CLASIC, ONLINE, RUMMY45), expected, strict=True):
        melds = [analyze_meld(t, rules) for t in texts]
        if want is None:
            with pytest.raises(InvalidOpeningError):
                check_opening(melds, rules)
        else:
            assert check_opening(melds, rules) == want


# ============================================================================================
# Properties
# ============================================================================================

ALL_IDS = list(range(106))
RULESETS = st.sampled_from([CLASIC, ONLINE, RUMMY45])


@st.composite
def row_and_rack(draw: st.DrawFn, pool: list[int] = ALL_IDS) -> tuple[list[int], list[int]]:
    ids = draw(st.lists(st.sampled_from(pool), unique=True, min_size=2, max_size=18))
    n = draw(st.integers(1, min(8, len(ids) - 1)))
    return ids[:n], ids[n:]


FLAGS = st.fixed_dictionaries(
    {
        "opened_before_this_turn": st.booleans(),
        "turn_number": st.integers(1, 6),
        "declared_pe_tabla": st.booleans(),
        "closing_turn": st.booleans(),
        "row_starts_with_first_discard": st.booleans(),
    }
)


@pytest.mark.rule("RUPE-03")
@given(rules=RULESETS, rr=row_and_rack(), size=st.integers(0, 16), flags=FLAGS)
def test_RUPE_03_take_options_agrees_with_can_take(
    rules: Ruleset, rr: tuple[list[int], list[int]], size: int, flags: dict[str, Any]
) -> None:
    row, _ = rr
    options = take_options(row, size, rules, **flags)
    for index in range(-1, len(row) + 1):
        ok = can_take(row, index, size, rules, **flags)
        assert ok == (index in options)


@pytest.mark.rule("RUPE-08")
@given(rules=RULESETS, rr=row_and_rack(), flags=FLAGS, data=st.data())
def test_RUPE_08_the_rack_check_only_narrows(
    rules: Ruleset, rr: tuple[list[int], list[int]], flags: dict[str, Any], data: st.DataObject
) -> None:
    row, rack = rr
    index = data.draw(st.integers(0, len(row) - 1))
    if can_take(row, index, len(rack), rules, rack=rack, **flags):
        assert index in take_options(row, len(rack), rules, **flags)


@pytest.mark.rule("TURN-10")
@pytest.mark.rule("TURN-09")
@given(rr=row_and_rack(), data=st.data())
def test_TURN_10_take_conserves_tiles(rr: tuple[list[int], list[int]], data: st.DataObject) -> None:
    row, rack = rr
    index = data.draw(st.integers(0, len(row) - 1))
    result = take(row, index, rack)
    assert result.row is not None
    assert list(result.row) + list(result.taken) == row
    assert list(result.rack) == rack + list(result.taken)
    assert result.picked == row[index]
    assert result.obligation.rack_before_take == tuple(rack)
    assert result.obligation.also_taken == tuple(row[index + 1 :])
    expected = TakeSource.LAST_DISCARD if index == len(row) - 1 else TakeSource.OLDER
    assert result.obligation.source is expected


@pytest.mark.rule("RUPE-08")
@given(rules=RULESETS, rr=row_and_rack(), flags=FLAGS, data=st.data())
def test_RUPE_08_verify_functions_raise_only_documented_errors(
    rules: Ruleset, rr: tuple[list[int], list[int]], flags: dict[str, Any], data: st.DataObject
) -> None:
    row, rack = rr
    index = data.draw(st.integers(-2, len(row) + 1))
    with contextlib.suppress(InvalidTakeError):
        verify_take(row, index, len(rack), rules, rack=rack, **flags)
    with contextlib.suppress(InvalidTakeError):
        verify_take_atu(
            rules,
            opened_before_this_turn=bool(flags["opened_before_this_turn"]),
            turn_number=int(flags["turn_number"]),
            closing_turn=bool(flags["closing_turn"]),
            declared_pe_tabla=bool(flags["declared_pe_tabla"]),
            atu=row[0],
            rack=rack,
            layable=data.draw(st.lists(st.sampled_from(rack), unique=True)),
        )
    everything = row + rack
    melds = data.draw(
        st.lists(st.lists(st.sampled_from(everything), max_size=7, unique=True), max_size=3)
    )
    source = data.draw(st.sampled_from(list(TakeSource)))
    obligation = TakeObligation(source, row[0], tuple(rack), tuple(row[1:]))
    with contextlib.suppress(InvalidTakeError):
        verify_obligation(
            obligation,
            melds,
            rules,
            laid_off=data.draw(st.sets(st.sampled_from(everything))),
            opened_before_this_turn=bool(flags["opened_before_this_turn"]),
        )
    with contextlib.suppress(InvalidClosingError):
        verify_close(
            took_this_turn=data.draw(st.booleans()),
            opened=bool(flags["opened_before_this_turn"]),
            opened_this_turn=data.draw(st.booleans()),
            rules=rules,
            pe_tabla=data.draw(st.booleans()),
            declared_pe_tabla=bool(flags["declared_pe_tabla"]),
        )
    with contextlib.suppress(InvalidClosingError):
        verify_rack_after_actions(
            len(rack),
            rules,
            opening_turn=data.draw(st.booleans()),
        )


# A pool that makes melds likely: ranks 1-5 and 11-13 in three colours, and the jokers.
MELDY = [
    i
    for i in range(106)
    if i >= 104
    or (
        tile_of(i).rank in (1, 2, 3, 4, 5, 11, 12, 13)
        and tile_of(i).color in (Color.ROSU, Color.GALBEN, Color.ALBASTRU)
    )
]


@pytest.mark.rule("RUPE-01")
@pytest.mark.rule("RUPE-06")
@given(rules=RULESETS, rr=row_and_rack(MELDY), data=st.data())
def test_RUPE_01_every_justifying_meld_meets_the_obligation(
    rules: Ruleset, rr: tuple[list[int], list[int]], data: st.DataObject
) -> None:
    row, rack = rr
    index = data.draw(st.integers(0, len(row) - 1))
    result = take(row, index, rack)
    found = justifying_melds(result.picked, rack, rules, also_taken=result.obligation.also_taken)
    for meld in found:
        assert result.picked in meld
        assert sum(i in rack for i in meld) >= 2
        outcome = verify_obligation(result.obligation, [meld], rules)
        assert outcome is ObligationOutcome.NEW_MELD
    kw: dict[str, Any] = {"opened_before_this_turn": True, "turn_number": 5}
    if can_take(row, index, len(rack), rules, rack=rack, **kw):
        assert found


def _groupings(items: list[int]) -> Iterator[tuple[list[tuple[int, ...]], list[int]]]:
    """Every way to put some of ``items`` into groups of ≥3; yields (groups, left)."""
    if not items:
        yield [], []
        return
    first, rest = items[0], items[1:]
    for groups, left in _groupings(rest):
        yield groups, [first, *left]
    for k in range(2, len(rest) + 1):
        for comb in itertools.combinations(rest, k):
            remaining = [x for x in rest if x not in comb]
            for groups, left in _groupings(remaining):
                yield [(first, *comb), *groups], left


def _oracle(picked: int, rack: list[int], rules: Ruleset, *, opening: bool) -> bool:
    """Brute force: the taken tile in a new meld with ≥2 rack tiles, the rest in melds,
    exactly one tile left (closing) or ≥2 left and a valid etalare (opening)."""
    for groups, left in _groupings([picked, *rack]):
        if (len(left) < 2) if opening else (len(left) != 1):
            continue
        mine = [g for g in groups if picked in g]
        if not mine or sum(i in rack for i in mine[0]) < 2:
            continue
        readings = [arrange_meld([tile_of(i) for i in g], rules) for g in groups]
        if not all(readings):
            continue
        if not opening:
            return True
        for combo in itertools.product(*readings):
            try:
                check_opening(list(combo), rules)
            except InvalidOpeningError:
                continue
            return True
    return False


@pytest.mark.rule("ATU-06")
@pytest.mark.rule("OPEN-06")
@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=RULESETS,
    ids=st.lists(st.sampled_from(MELDY), unique=True, min_size=3, max_size=8),
)
def test_ATU_06_can_close_with_and_can_open_with_match_a_brute_force(
    rules: Ruleset, ids: list[int]
) -> None:
    picked, rack = ids[0], ids[1:]
    assert can_close_with(picked, rack, rules) == _oracle(picked, rack, rules, opening=False)
    assert can_open_with(picked, rack, rules) == _oracle(picked, rack, rules, opening=True)
