"""The turn context (remi_rules.context.TurnContext): the rule functions give the same
answers with one context as with the keyword flags it replaces, refuse a mix of both,
and the engine's context says what its state says."""

from __future__ import annotations

import inspect
import random
from collections.abc import Callable
from typing import Any

import attrs
import pytest
from reliability_play import random_round

from remi_rules import InvalidTakeError, Tile, ids_of, joly, lipire, rupere, variants
from remi_rules.context import TurnContext, boolean_form
from remi_rules.engine import Game, turn_context

CLASIC = variants.get("clasic")


def _ids(text: str) -> list[int]:
    return [ids_of(Tile.parse(t))[0] for t in text.split()]


def test_a_context_is_checked_when_made() -> None:
    with pytest.raises(TypeError, match="opened_before_this_turn must be a bool"):
        TurnContext(CLASIC, opened_before_this_turn=1, turn_number=2)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="turn_number must be an int"):
        TurnContext(CLASIC, opened_before_this_turn=True, turn_number="2")  # type: ignore[arg-type]
    with pytest.raises(ValueError) as info:  # coded: an InvalidOpeningError
        TurnContext(CLASIC, opened_before_this_turn=True, turn_number=0)
    assert getattr(info.value, "code", None) == "bad_turn_number"
    with pytest.raises(TypeError, match="rules must be a Ruleset"):
        TurnContext("clasic", opened_before_this_turn=True, turn_number=2)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="jokers"):
        TurnContext(CLASIC, opened_before_this_turn=True, turn_number=2, jokers=(1, 2))
    ctx = TurnContext(CLASIC, opened_before_this_turn=False, turn_number=3, opened_this_turn=True)
    assert ctx.opened and not ctx.pe_tabla
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        ctx.turn_number = 4  # type: ignore[misc]


FLAGS: list[dict[str, Any]] = [
    {"opened_before_this_turn": o, "turn_number": n, "declared_pe_tabla": d, "closing_turn": c}
    for o in (False, True)
    for n in (1, 2, 5)
    for d in (False, True)
    for c in (False, True)
]


@pytest.mark.parametrize("preset", ["clasic", "online", "rummy45"])
def test_the_take_rules_answer_the_same_with_a_context(preset: str) -> None:
    rules = variants.get(preset)
    row = _ids("2N 4G 9R 2A 13N 6G")
    rack = _ids("9N 9A 1R 2R 3R 4N")
    for flags in FLAGS:
        ctx = TurnContext(rules, **flags)
        for size in (2, 3, 6):
            assert rupere.take_options(row, size, ctx) == rupere.take_options(
                row, size, rules, **flags
            )
        for index in range(len(row)):
            got: list[object] = [rupere.can_take(row, index, 6, ctx, rack=rack)]
            want: list[object] = [rupere.can_take(row, index, 6, rules, rack=rack, **flags)]
            for form in (ctx, rules):
                extra: dict[str, Any] = {} if form is ctx else flags
                try:
                    rupere.verify_take(row, index, 6, form, rack=rack, **extra)
                except InvalidTakeError as err:
                    (got if form is ctx else want).append((err.code, dict(err.details)))
            assert got == want
        atu_ctx = attrs.evolve(ctx, closing_turn=True)
        atu_flags = {**flags, "closing_turn": True}
        assert rupere.can_take_atu(atu_ctx, atu=rack[0] ^ 1, rack=rack[1:]) == (
            rupere.can_take_atu(rules, atu=rack[0] ^ 1, rack=rack[1:], **atu_flags)
        )


def test_a_context_and_flags_together_are_refused() -> None:
    ctx = TurnContext(CLASIC, opened_before_this_turn=True, turn_number=5)
    row = _ids("2N 4G 9R")
    with pytest.raises(TypeError, match="either a TurnContext"):
        rupere.take_options(row, 6, ctx, turn_number=5)
    with pytest.raises(TypeError, match="either a TurnContext"):
        rupere.verify_take_atu(ctx, closing_turn=True)
    with pytest.raises(TypeError, match="opened_before_this_turn= and turn_number="):
        rupere.take_options(row, 6, CLASIC)
    with pytest.raises(TypeError, match="closing_turn="):
        rupere.verify_take_atu(CLASIC, opened_before_this_turn=True, turn_number=2)
    game = Game.new(CLASIC, 3, seed=1)
    table = game.state.table
    with pytest.raises(TypeError, match="either a TurnContext"):
        lipire.layoff_options(table, 0, 0, ctx, opened=True)
    with pytest.raises(TypeError, match="opened= and opened_this_turn="):
        joly.can_swap(table, 0, 104, 0, 0, CLASIC)


def test_the_bool_forms_are_made_from_the_verify_forms() -> None:
    pairs: list[tuple[Callable[..., bool], Callable[..., object]]] = [
        (rupere.can_take, rupere.verify_take),
        (rupere.can_take_atu, rupere.verify_take_atu),
        (rupere.obligation_met, rupere.verify_obligation),
        (lipire.can_lay_off, lipire.verify_lay_off),
        (joly.can_swap, joly.verify_swap),
    ]
    for can, verify in pairs:
        want = inspect.signature(verify).replace(return_annotation="bool")
        assert inspect.signature(can) == want, can.__name__
        assert verify.__name__ in (can.__doc__ or "")
    with pytest.raises(TypeError):
        boolean_form("verify", InvalidTakeError, "can")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        boolean_form(rupere.verify_take, ValueError, "can")  # type: ignore[arg-type]


@pytest.mark.parametrize("preset", ["clasic", "rummy45"])
def test_the_engines_context_is_its_states(preset: str) -> None:
    seen = {"opened_this_turn": False, "laid_off": False}

    def on_step(game: Game) -> None:
        state = game.state
        if state.pending is None:
            return
        seat, turn = state.seats[state.current], state.pending
        ctx = turn_context(state)
        assert ctx.rules is state.rules and ctx.turn_number == seat.turns
        assert ctx.opened_before_this_turn is seat.opened
        assert ctx.declared_pe_tabla is seat.declared_pe_tabla is ctx.closing_turn
        assert ctx.row_starts_with_first_discard is state.row_dead_first
        assert ctx.opened is (seat.opened or bool(turn.new_melds))
        assert ctx.opened_this_turn is (ctx.opened and not turn.opened_before)
        assert ctx.new_meld_indexes == turn.new_melds
        assert ctx.laid_off_this_turn == turn.laid_off
        assert ctx.jokers == state.table.jokers
        assert turn_context(state, closing_turn=True).closing_turn is True
        seen["opened_this_turn"] |= ctx.opened_this_turn
        seen["laid_off"] |= bool(ctx.laid_off_this_turn)

    for seed in range(2):
        game = Game.new(variants.get(preset), 3, seed=seed)
        random_round(game, random.Random(seed), on_step, max_steps=400)
    assert all(seen.values()), seen
    with pytest.raises(TypeError):
        turn_context("state")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        turn_context(Game.new(CLASIC, 3, seed=1).state, closing_turn=1)  # type: ignore[arg-type]
