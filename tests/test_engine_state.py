"""The engine's fast copy of its state values (``engine.state.evolve``) is
``attrs.evolve`` without ``__init__``: it is only valid while those classes have no
validators, converters or post-init hooks, and gives equal values."""

from __future__ import annotations

import attrs
import pytest

from remi_rules import variants
from remi_rules.bots import GreedyBot, RandomBot
from remi_rules.engine import Bot, Game, GameState, SeatState, TurnState
from remi_rules.engine.state import evolve


@pytest.mark.parametrize("cls", [GameState, SeatState, TurnState])
def test_the_state_classes_stay_plain(cls: type) -> None:
    assert not hasattr(cls, "__attrs_post_init__")
    for field in attrs.fields(cls):
        assert field.validator is None and field.converter is None, field.name


def test_evolve_is_attrs_evolve() -> None:
    game = Game.new(variants.get("clasic"), 3, seed=4)
    bots: list[Bot] = [GreedyBot(), RandomBot(1), RandomBot(2)]
    for _ in range(40):
        state = game.state
        assert evolve(state, turn=state.turn + 1) == attrs.evolve(state, turn=state.turn + 1)
        seat = state.seats[0]
        assert evolve(seat, opened=not seat.opened) == attrs.evolve(seat, opened=not seat.opened)
        if state.pending is not None:
            assert evolve(state.pending, steps=9) == attrs.evolve(state.pending, steps=9)
        if game.over:
            break
        game.apply(bots[state.current].choose(game.view(state.current)))
    with pytest.raises(TypeError, match="no field"):
        evolve(game.state, turns=1)


def test_the_fast_copiers_are_internal_and_evolve_is_public() -> None:
    from remi_rules.engine import state

    assert "evolve" in state.__all__
    assert not {"evolve_seat", "evolve_state", "evolve_turn"} & set(state.__all__)
    with pytest.raises(TypeError):
        evolve(GameState, turn=1)


def test_replay_refuses_what_is_no_record() -> None:
    game = Game.new(variants.get("clasic"), 3, seed=4)
    with pytest.raises(TypeError, match="record"):
        Game.replay(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="upto"):
        Game.replay(game.record(), upto="1")  # type: ignore[arg-type]
    assert Game.replay(game.record(), upto=10**5000).state == game.state
