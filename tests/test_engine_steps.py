"""The step classes' traits (``kind``, ``in_turn``, ``take``, ``undoable``,
``resumable``): the one place the engine, the loader and the tests learn what a step
is, checked here against the rules and against what the engine does with each step."""

from __future__ import annotations

import json
import random

import pytest
from reliability_play import random_round

from remi_rules import serde, variants
from remi_rules.engine import STEP_TYPES, Draw, Game, Phase, TakeKind
from remi_rules.engine.steps import TAKES

# kind: (in_turn, take, undoable, resumable), as the rules say (TURN-02, TURN-03).
EXPECTED = {
    "draw": (True, TakeKind.DRAW, False, False),
    "take_last_discard": (True, TakeKind.LAST_DISCARD, True, True),
    "rupere": (True, TakeKind.RUPERE, True, True),
    "take_atu": (True, TakeKind.ATU, True, True),
    "meld": (True, None, True, True),
    "lay_off": (True, None, True, True),
    "swap_joker": (True, None, True, True),
    "discard": (True, None, False, False),
    "close": (True, None, False, False),
    "announce_few_tiles": (False, None, False, True),
    "announce_atu": (False, None, False, True),
    "declare_pe_tabla": (False, None, False, True),
    "offer_doubles": (False, None, False, True),
    "accept_doubles": (False, None, False, True),
    "demand_redeal": (False, None, False, False),
    "undo": (True, None, False, True),
}


def test_each_step_class_declares_its_traits() -> None:
    got = {cls.kind: (cls.in_turn, cls.take, cls.undoable, cls.resumable) for cls in STEP_TYPES}
    assert got == EXPECTED
    assert len({cls.kind for cls in STEP_TYPES}) == len(STEP_TYPES)


def test_the_take_kinds_are_the_take_steps_tags() -> None:
    assert [cls.take for cls in TAKES] == list(TakeKind)
    assert [cls.kind for cls in TAKES] == [k.value for k in TakeKind]


@pytest.mark.parametrize("preset", ["clasic", "online", "rummy45"])
def test_the_engine_does_what_the_traits_say(preset: str) -> None:
    """After a take the pending turn records its kind; Undo can take back exactly the
    undoable steps; a resumable step uses no chance outcome."""
    seen: set[str] = set()
    chance = [0]

    def on_step(game: Game) -> None:
        record = game.record()
        step = record.steps[-1]
        seen.add(step.kind)
        turn = game.state.pending
        if step.take is not None:
            assert turn is not None and turn.took is step.take
            assert turn.took.value == step.kind
        if step.undoable:
            assert game.can_undo(), step
        elif step.in_turn and step.kind != "undo" and not game.over:
            assert not game.can_undo(), step
        if step.resumable:
            assert len(record.chance) == chance[0], step
        chance[0] = len(record.chance)

    for seed in range(2):
        game = Game.new(variants.get(preset), 3, seed=seed)
        chance[0] = len(game.record().chance)
        random_round(game, random.Random(seed), on_step, max_steps=400)
    assert {"draw", "take_last_discard", "meld", "discard", "undo"} <= seen


def test_took_saves_as_the_step_kind_and_loads_as_the_enum() -> None:
    game = Game.new(variants.get("clasic"), 3, seed=1)
    while game.state.phase is not Phase.TAKE:
        game.apply(next(s for s in game.legal_steps() if s.in_turn))
    game.apply(Draw())
    doc = json.loads(json.dumps(serde.dump_game(game)))
    assert doc["state"]["pending"]["took"] == "draw"
    loaded = serde.load_game(doc)
    assert loaded.state.pending is not None and loaded.state.pending.took is TakeKind.DRAW
    assert loaded.state == game.state
