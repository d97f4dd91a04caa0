"""Closing (CLOSE-01 … CLOSE-04, OPEN-08, TURN-06, TURN-07, OQ-25): when a turn
closes the round and what the rack must keep; RULES.md EX-19, EX-20, EX-38, EX-40,
EX-44 and EX-48 at the level of the rules (the engine replays them end to end)."""

from __future__ import annotations

import attrs
import pytest

from remi_rules import ClosingErrorCode, InvalidClosingError, variants
from remi_rules.closing import (
    closes_on_action,
    closes_on_discard,
    verify_close,
    verify_rack_after_actions,
)
from remi_rules.ruleset import ClosingTileMode

E = ClosingErrorCode
PRESETS = variants.names()
CLASIC, ONLINE, RUMMY45 = (variants.get(n) for n in PRESETS)


def refusal(call: object, *args: object, **kwargs: object) -> ClosingErrorCode | None:
    try:
        call(*args, **kwargs)  # type: ignore[operator]
    except InvalidClosingError as err:
        return err.code
    return None


@pytest.mark.rule("CLOSE-01")
@pytest.mark.rule("TURN-06")
@pytest.mark.parametrize("rules", [CLASIC, RUMMY45], ids=["clasic", "rummy45"])
def test_CLOSE_01_closing_by_discarding_the_last_tile(rules: object) -> None:
    assert closes_on_discard(1, rules)  # type: ignore[arg-type]
    assert not closes_on_discard(2, rules)  # type: ignore[arg-type]
    assert not closes_on_action(1, rules)  # type: ignore[arg-type]


@pytest.mark.rule("CLOSE-02")
@pytest.mark.rule("EX-44")
def test_CLOSE_02_online_closes_by_a_meld_or_layoff_leaving_one_tile() -> None:
    # EX-44: a discard that leaves one tile does not close; a lay-off that does, closes.
    assert not closes_on_discard(1, ONLINE)
    assert not closes_on_discard(2, ONLINE)
    assert closes_on_action(1, ONLINE)
    assert not closes_on_action(2, ONLINE)


@pytest.mark.rule("CLOSE-04")
@pytest.mark.rule("TURN-07")
@pytest.mark.rule("OQ-25")
@pytest.mark.parametrize("preset", PRESETS)
def test_CLOSE_04_a_closing_tile_is_always_needed(preset: str) -> None:
    rules = variants.get(preset)
    # Melding one's last three tiles is not a close (EX-20: 5R 6R 7R leaves 2N).
    assert refusal(verify_rack_after_actions, 0, rules) is E.NO_CLOSING_TILE
    assert refusal(verify_rack_after_actions, 1, rules) is None


@pytest.mark.rule("OPEN-08")
@pytest.mark.rule("EX-40")
@pytest.mark.parametrize("preset", PRESETS)
def test_EX_40_no_close_in_the_opening_turn(preset: str) -> None:
    rules = variants.get(preset)
    # P may not meld 14 tiles and discard the 15th in his opening turn ...
    assert refusal(verify_rack_after_actions, 1, rules, opening_turn=True) is (
        E.TOO_FEW_AFTER_OPENING
    )
    assert (
        refusal(verify_close, took_this_turn=True, opened=True, opened_this_turn=True, rules=rules)
        is E.OPENING_TURN
    )
    # ... but he may open keeping two tiles and close in a later turn.
    assert refusal(verify_rack_after_actions, 2, rules, opening_turn=True) is None
    assert (
        refusal(verify_close, took_this_turn=True, opened=True, opened_this_turn=False, rules=rules)
        is None
    )


@pytest.mark.rule("CLOSE-06")
@pytest.mark.rule("EX-41")
def test_EX_41_a_declared_pe_tabla_closing_may_close_in_its_opening_turn() -> None:
    kwargs = {"took_this_turn": True, "opened": False, "opened_this_turn": False}
    assert (
        refusal(verify_close, rules=CLASIC, pe_tabla=True, declared_pe_tabla=True, **kwargs) is None
    )
    assert refusal(verify_close, rules=CLASIC, pe_tabla=True, **kwargs) is E.PE_TABLA
    # online and rummy45 have no pe tablă: the same play is an illegal close
    for rules in (ONLINE, RUMMY45):
        assert (
            refusal(verify_close, rules=rules, pe_tabla=True, declared_pe_tabla=True, **kwargs)
            is E.PE_TABLA
        )
        assert refusal(verify_close, rules=rules, **kwargs) is E.NOT_OPENED


@pytest.mark.rule("CLOSE-03")
@pytest.mark.rule("EX-48")
@pytest.mark.parametrize("preset", PRESETS)
def test_EX_48_closing_without_taking(preset: str) -> None:
    rules = variants.get(preset)
    assert (
        refusal(
            verify_close, took_this_turn=False, opened=True, opened_this_turn=False, rules=rules
        )
        is E.NO_TAKE
    )


@pytest.mark.rule("EX-19")
@pytest.mark.rule("EX-38")
def test_EX_19_and_EX_38_the_last_layoff_closes_only_online() -> None:
    # P lays off until one tile is left: online has closed; clasic and rummy45 discard it.
    for rules in (CLASIC, RUMMY45):
        assert not closes_on_action(1, rules) and closes_on_discard(1, rules)
    assert closes_on_action(1, ONLINE) and not closes_on_discard(1, ONLINE)


def test_flip_closing_tile_mode_on_the_close() -> None:
    keep = attrs.evolve(CLASIC, closing_tile_mode=ClosingTileMode.KEEP)
    assert closes_on_action(1, keep) and not closes_on_discard(1, keep)


def test_bad_arguments() -> None:
    with pytest.raises(TypeError):
        closes_on_discard("1", CLASIC)  # type: ignore[arg-type]
    with pytest.raises(InvalidClosingError) as neg:
        closes_on_action(-1, CLASIC)
    assert neg.value.code is ClosingErrorCode.BAD_RACK_SIZE
    with pytest.raises(InvalidClosingError) as huge:
        verify_rack_after_actions(-(10**5000), CLASIC)
    assert "e+5000" in str(huge.value) and huge.value.message("ro")
    with pytest.raises(InvalidClosingError) as empty:
        closes_on_discard(0, CLASIC)
    assert empty.value.code is ClosingErrorCode.NOTHING_TO_DISCARD
    with pytest.raises(TypeError):
        verify_rack_after_actions(1, "clasic")  # type: ignore[arg-type]


@pytest.mark.parametrize("code", list(ClosingErrorCode), ids=str)
def test_every_closing_code_has_both_messages(code: ClosingErrorCode) -> None:
    err = InvalidClosingError(code, rack=0, minimum=2)
    assert err.message("ro") != err.message("en")
    assert "?" not in err.message("ro") + err.message("en")
