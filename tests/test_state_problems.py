"""remi_rules.engine.state_problems: a position's problems as codes and paths (like
python-chess's Board.status()); none for the positions the engine reaches."""

from __future__ import annotations

import random
from pathlib import Path

import attrs
import pytest

from remi_rules import serde
from remi_rules.engine import Game, StateProblem, state_problems
from remi_rules.errors import InvalidStateError, StateErrorCode

S = StateErrorCode
DATA = Path(__file__).resolve().parent / "data"


def _game(name: str) -> Game:
    return serde.loads_game((DATA / name).read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", sorted(p.name for p in DATA.glob("game-*.json")))
def test_the_engine_s_positions_have_no_problem(name: str) -> None:
    game = _game(name)
    assert state_problems(game.state) == []
    # and every position of its replay, step by step
    record = game.record()
    for upto in range(0, len(record.steps) + 1, 7):
        assert state_problems(Game.replay(record, upto=upto).state) == []


def test_random_play_makes_no_problem() -> None:
    game = _game("game-online-3p-in-progress.json")
    rng = random.Random(5)
    for _ in range(60):
        if game.over:
            break
        steps = [s for s in game.legal_steps() if s.in_turn]
        game.apply(rng.choice(steps))
        assert state_problems(game.state) == []


def test_problems_are_coded_with_paths_relative_to_the_state() -> None:
    state = _game("game-clasic-4p-in-progress.json").state
    seats = list(state.seats)
    seats[1] = attrs.evolve(seats[1], turns=seats[1].turns + 5)
    bad = attrs.evolve(state, seats=tuple(seats), dealer=(state.dealer + 1) % 4)
    problems = state_problems(bad)
    assert [(p.code, p.path) for p in problems] == [
        (S.BAD_VALUE, "dealer"),
        (S.BAD_VALUE, "seats[1].turns"),
    ]
    err = problems[1].error("state")
    assert isinstance(err, InvalidStateError) and err.code is S.BAD_VALUE
    assert err.details["path"] == "state.seats[1].turns"


def test_the_census_names_the_second_place_of_a_tile() -> None:
    state = _game("game-rummy45-2p-finished.json").state
    seats = list(state.seats)
    seats[0] = attrs.evolve(seats[0], rack=(*seats[0].rack, state.stock[0]))
    problems = state_problems(attrs.evolve(state, seats=tuple(seats)))
    assert problems[0] == StateProblem(S.TILE_COUNT, "stock[0]")
    assert problems[0].error().details["path"] == "stock[0]"


def test_a_seat_count_other_than_the_players_stops_the_checks() -> None:
    state = _game("game-online-3p-finished.json").state
    bad = attrs.evolve(state, seats=state.seats[:2])
    assert [(p.code, p.path) for p in state_problems(bad)] == [(S.BAD_VALUE, "seats")]


def test_an_empty_rack_but_by_a_close_is_a_problem() -> None:
    state = _game("game-clasic-4p-in-progress.json").state
    seats = list(state.seats)
    moved = seats[2].rack
    seats[2] = attrs.evolve(seats[2], rack=())
    bad = attrs.evolve(state, seats=tuple(seats), stock=state.stock + moved)
    assert (S.BAD_VALUE, "seats[2].rack") in [(p.code, p.path) for p in state_problems(bad)]


def test_state_problems_wants_a_state() -> None:
    with pytest.raises(TypeError):
        state_problems("state")  # type: ignore[arg-type]
