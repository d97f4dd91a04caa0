"""The engine's generated copies and constructions (``remi_rules._slots``) give the
values ``attrs.evolve`` and the classes' own ``__init__`` give, for every class on the
hot path, and the classes keep the layout that makes the fast path possible."""

from __future__ import annotations

import attrs
import pytest

from remi_rules import variants
from remi_rules._slots import _twin, evolver, maker, replacer, require_plain
from remi_rules.bots import GreedyBot, RandomBot
from remi_rules.engine import Bot, Game, GameState, PlayerView, SeatState, TurnState, events
from remi_rules.engine._common import fresh_turn
from remi_rules.engine.view import PublicSeat, PublicTurn, _public_seats_of

HOT: list[type] = [GameState, SeatState, TurnState, PlayerView, PublicSeat, PublicTurn]
HOT_EVENTS: list[type] = [events.Drew, events.Discarded, events.TurnStarted]


@pytest.mark.parametrize("cls", HOT + HOT_EVENTS)
def test_the_hot_classes_have_a_layout_twin(cls: type) -> None:
    """Without a twin the functions still work, through the slot descriptors, but
    about ten times slower: a ``__weakref__`` slot or a new base would lose it."""
    assert _twin(cls, require_plain(cls)) is not None


def _positions(rules_name: str, seed: int, count: int) -> list[GameState]:
    game = Game.new(variants.get(rules_name), 3, seed=seed)
    bots: list[Bot] = [GreedyBot(), RandomBot(seed), RandomBot(seed + 1)]
    states: list[GameState] = []
    for _ in range(count):
        states.append(game.state)
        if game.over:
            break
        game.apply(bots[game.state.current].choose(game.view(game.state.current)))
    return states


@pytest.mark.parametrize("name", ["clasic", "online", "rummy45"])
def test_views_equal_views_built_by_the_constructor(name: str) -> None:
    """``PlayerView.of`` fills the view positionally: a field out of order would show
    here, against the view built with keywords by attrs' own ``__init__``."""
    for state in _positions(name, 11, 60):
        for seat in range(state.players):
            view = PlayerView.of(state, seat)
            by_keyword = PlayerView(
                **{f.name: getattr(view, f.name) for f in attrs.fields(PlayerView)}
            )
            assert view == by_keyword and type(view) is PlayerView
            assert view.rack == state.seats[seat].rack
            assert view.stock_count == len(state.stock)
            for pub, seat_state in zip(view.seats, state.seats, strict=True):
                expected = PublicSeat(
                    rack_size=len(seat_state.rack),
                    **{
                        f.name: getattr(seat_state, f.name)
                        for f in attrs.fields(SeatState)
                        if f.name != "rack"
                    },
                )
                assert pub == expected
            turn = state.pending
            if turn is None:
                assert view.pending is None and view.own_turn is None
            else:
                assert view.pending is not None
                assert (view.pending.seat, view.pending.number) == (turn.seat, turn.number)
                assert view.pending.steps == turn.steps and view.pending.placed == turn.placed
                assert (view.own_turn is turn) == (turn.seat == seat)


def test_the_public_seats_are_made_from_the_seats_each_time() -> None:
    """No cache (the engine is the one place that holds mutable state): a seat's public
    part always says what the seat state says now."""
    seats = (SeatState(rack=(1, 2, 3)), SeatState(rack=(1, 2), opened=True, turns=4))
    assert _public_seats_of(seats) == (
        PublicSeat(3, False, 0, False, False, False, False, False),
        PublicSeat(2, True, 4, False, False, False, False, False),
    )
    again = (seats[0], attrs.evolve(seats[1], rack=(7,), announced_few=True))
    assert _public_seats_of(again)[1] == PublicSeat(1, True, 4, False, True, False, False, False)


def test_a_new_turn_is_the_constructor_with_its_defaults() -> None:
    made = fresh_turn(2, 7, (4, 5, 6), True)
    assert made == TurnState(seat=2, number=7, rack_at_start=(4, 5, 6), opened_before=True)
    assert type(made) is TurnState


@pytest.mark.parametrize("cls", [GameState, SeatState, TurnState])
def test_evolver_and_replacer_are_attrs_evolve(
    cls: type[GameState | SeatState | TurnState],
) -> None:
    names = [f.name for f in attrs.fields(cls)]
    evolve = evolver(cls)
    for state in _positions("online", 5, 40):
        values: list[GameState | SeatState | TurnState] = [state, *state.seats]
        if state.pending is not None:
            values.append(state.pending)
        for inst in (v for v in values if type(v) is cls):
            for k, name in enumerate(names):
                change = {name: getattr(inst, names[(k + 1) % len(names)])}
                expected = attrs.evolve(inst, **change)
                assert evolve(inst, **change) == expected
                assert replacer(cls, name)(inst, change[name]) == expected
            pair = names[-2:]
            both = replacer(cls, *pair)(inst, "x", "y")
            assert both == attrs.evolve(inst, **dict(zip(pair, ("x", "y"), strict=True)))


def test_results_are_frozen_and_hash_like_the_originals() -> None:
    state = _positions("clasic", 2, 3)[-1]
    copy = evolver(GameState)(state)
    assert copy == state and hash(copy) == hash(state) and copy is not state
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        copy.turn = 9  # type: ignore[misc]
    view = PlayerView.of(state, 0)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        view.seat = 1  # type: ignore[misc]


def test_maker_is_the_constructor_in_field_order() -> None:
    made = maker(events.Drew)(1, 42)
    assert made == events.Drew(1, 42) and type(made) is events.Drew
    assert not hasattr(made, "__dict__")  # events are fully slotted


def test_bad_names_are_refused() -> None:
    state = _positions("clasic", 1, 1)[0]
    with pytest.raises(TypeError, match="GameState has no field turns"):
        evolver(GameState)(state, turns=1)
    with pytest.raises(TypeError, match="bad fields"):
        replacer(GameState, "turns")
    with pytest.raises(TypeError, match="bad fields"):
        replacer(GameState, "turn", "turn")


@attrs.frozen
class _WithWeakref:
    a: int
    b: str = "b"


@attrs.frozen(weakref_slot=False)
class _Checked:
    a: int = attrs.field(validator=attrs.validators.instance_of(int))


class _NotAttrs:
    __slots__ = ("a",)


def test_without_a_twin_the_descriptor_path_gives_the_same_values() -> None:
    assert _twin(_WithWeakref, ("a", "b")) is None
    inst = _WithWeakref(1)
    assert evolver(_WithWeakref)(inst, b="c") == _WithWeakref(1, "c")
    assert maker(_WithWeakref)(2, "d") == _WithWeakref(2, "d")
    assert replacer(_WithWeakref, "a")(inst, 5) == _WithWeakref(5)


@pytest.mark.parametrize("cls", [_Checked, _NotAttrs])
def test_classes_that_need_init_are_refused(cls: type) -> None:
    with pytest.raises(TypeError):
        evolver(cls)
