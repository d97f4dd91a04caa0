"""Reliability of the loaders (remi_rules.serde): every input ends in a coded error or
a playable game, in time linear in its size.

* bounds before converting: an integer beyond ``MAX_INTEGER`` or a string beyond
  ``MAX_STRING_LENGTH`` anywhere in a game, a record or a match (as data or as JSON
  text) is a coded refusal naming it, whose message and details stay short;
* linear time: pathological texts are refused fast, and a document larger than
  ``MAX_DOCUMENT_BYTES`` is refused before it is parsed; that bound admits the
  largest legal round (the formula of docs/saving.md);
* every state the engine reaches saves and loads back (a joker laid off twice in one
  turn, a round over in turn 1), checked after every step of random rounds;
* a replayed or loaded game goes on past a chance event, from ``seed=``, which is
  never saved.

``REMI_WIDE=1`` sizes the random rounds as the wide run of
``tests/reliability_play.py`` (run by hand: it takes hours).
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import random
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest

sys.path.insert(0, str(Path(__file__).parent))

from engine_deals import discard as discard_tile
from engine_deals import lay, meld, new_game, play, swap
from reliability_play import (
    PRESETS,
    WIDE_SIZES,
    check_save,
    random_round,
    random_rules,
    run_rounds,
)

from remi_rules import serde, variants
from remi_rules.engine import (
    DemandRedeal,
    Discard,
    Draw,
    Game,
    Match,
    MatchConfig,
    TakeLastDiscard,
    Undo,
)
from remi_rules.errors import InvalidStateError, StateErrorCode
from remi_rules.serde import _size as serde_forms

S = StateErrorCode
WIDE = os.environ.get("REMI_WIDE") == "1"


# -- sample documents --------------------------------------------------------------------


def _played(preset: str = "clasic", players: int = 3, seed: int = 5, steps: int = 40) -> Game:
    game = Game.new(variants.get(preset), players, seed=seed)
    count = [0]

    class _Enough(Exception):
        pass

    def stop(g: Game) -> None:
        count[0] += 1
        if count[0] >= steps:
            raise _Enough

    with contextlib.suppress(_Enough):
        random_round(game, random.Random(seed), stop)
    return game


@pytest.fixture(scope="module")
def game() -> Game:
    return _played()


@functools.cache
def _match_data() -> str:
    match = Match(variants.get("clasic"), 2, MatchConfig(rounds=2), seed=3)
    random_round(match.game, random.Random(3), lambda g: None)
    match.next_round()
    return json.dumps(serde.dump_match(match))


def _match() -> Match:
    return serde.loads_match(_match_data())


Doc = tuple[Callable[[Any], Any], Callable[[str], Any], dict[str, Any]]


def _docs(game: Game) -> dict[str, Doc]:
    return {
        "game": (serde.load_game, serde.loads_game, serde.dump_game(game)),
        "record": (serde.load_record, serde.loads_record, serde.dump_record(game)),
        "match": (serde.load_match, serde.loads_match, json.loads(_match_data())),
    }


def _leaves(data: Any, path: str = "") -> Iterator[tuple[str, tuple[Any, ...], Any]]:
    """(path as the loader names it, keys to reach it, value) of every scalar."""

    def walk(value: Any, path: str, keys: tuple[Any, ...]) -> Iterator[Any]:
        if isinstance(value, dict):
            for key, item in value.items():
                yield from walk(item, f"{path}.{key}" if path else key, (*keys, key))
        elif isinstance(value, list):
            for k, item in enumerate(value):
                yield from walk(item, f"{path}[{k}]", (*keys, k))
        else:
            yield path, keys, value

    yield from walk(data, path, ())


def _set(data: Any, keys: tuple[Any, ...], value: Any) -> Any:
    out = json.loads(json.dumps(data))
    node = out
    for key in keys[:-1]:
        node = node[key]
    node[keys[-1]] = value
    return out


def _sample(items: list[Any], k: int, *must: str) -> list[Any]:
    chosen = [item for item in items if item[0] in must]
    rest = [item for item in items if item[0] not in must]
    return chosen + random.Random(0).sample(rest, min(k, len(rest)))


def _check_short(err: InvalidStateError) -> None:
    """The error's text and details are short whatever the value refused."""
    assert len(str(err)) < 600 and len(err.message("ro")) < 600
    for key, value in err.details.items():
        assert len(repr(value)) < 300, (key, repr(value)[:100])


# -- 1. bounds before converting -------------------------------------------------------------

_MUST_INTS = (
    "rules.closing_bonus",
    "rules.hand_sizes[0]",
    "rules.closing_atu_twin_effect.bonus",
    "rules.max_turns_per_round",
    "state.turn",
    "steps[0].tile",
    "config.rounds",
    "players",
)


@pytest.mark.parametrize("kind", ["game", "record", "match"])
def test_a_huge_integer_anywhere_is_a_short_coded_refusal(game: Game, kind: str) -> None:
    load, loads, data = _docs(game)[kind]
    ints = [leaf for leaf in _leaves(data) if type(leaf[2]) is int or leaf[2] is None]
    assert ints
    for path, keys, _ in _sample(ints, 10, *_MUST_INTS):
        for huge in (10**5000, -(10**5000), 2**53):
            with pytest.raises(InvalidStateError) as info:
                load(_set(data, keys, huge))
            err = info.value
            want = S.FORMAT_VERSION if path == "format_version" else S.OUT_OF_RANGE
            assert (err.code, err.details["path"]) == (want, path)
            _check_short(err)
        text = json.dumps(_set(data, keys, "@@")).replace('"@@"', "9" * 5000)
        with pytest.raises(InvalidStateError) as info:
            loads(text)
        assert info.value.details["path"] == path
        _check_short(info.value)


def test_the_reported_huge_values(game: Game) -> None:
    data = serde.dump_game(game)
    data["rules"]["closing_bonus"] = 10**5000
    with pytest.raises(InvalidStateError) as info:
        serde.load_game(data)
    assert info.value.code is S.OUT_OF_RANGE and "16610 bits" in str(info.value)
    saved = json.loads(_match_data())
    saved["config"]["rounds"] = 10**5000
    with pytest.raises(InvalidStateError) as info:
        serde.load_match(saved)
    assert (info.value.code, info.value.details["path"]) == (S.OUT_OF_RANGE, "config.rounds")
    _check_short(info.value)


@pytest.mark.parametrize("kind", ["game", "record", "match"])
def test_a_long_string_or_key_anywhere_is_a_short_coded_refusal(game: Game, kind: str) -> None:
    load, loads, data = _docs(game)[kind]
    strings = [leaf for leaf in _leaves(data) if isinstance(leaf[2], str)]
    long = "é" * (serde.MAX_STRING_LENGTH + 1)
    for path, keys, _ in _sample(strings, 8, "kind", "fingerprint", "names[0]"):
        for load_it, doc in ((load, _set(data, keys, long)), (loads, None)):
            arg = doc if doc is not None else json.dumps(_set(data, keys, "x" * 10**6))
            with pytest.raises(InvalidStateError) as info:
                load_it(arg)
            err = info.value
            assert (err.code, err.details["path"]) == (S.STRING_TOO_LONG, path)
            _check_short(err)
    for keys in (
        (),
        ("rules",),
        {"game": ("state",), "record": ("steps", 0), "match": ("config",)}[kind],
    ):
        doc = json.loads(json.dumps(data))
        node = doc
        for key in keys:
            node = node[key]
        if isinstance(node, dict):
            node["k" * 10**5] = 1
            with pytest.raises(InvalidStateError) as info:
                load(doc)
            assert info.value.code is S.STRING_TOO_LONG
            _check_short(info.value)


def test_names_are_bounded_when_saving_so_that_every_save_loads() -> None:
    longest = "Ș\x1fț" * (serde.MAX_NAME_LENGTH // 3) + "a" * (serde.MAX_NAME_LENGTH % 3)
    assert len(longest) == serde.MAX_NAME_LENGTH
    game = Game.new(variants.get("clasic"), [longest, "Ion"], seed=1)
    assert serde.loads_game(serde.dumps_game(game)).names == (longest, "Ion")
    game = Game.new(variants.get("clasic"), [longest + "x", "Ion"], seed=1)
    with pytest.raises(InvalidStateError) as info:
        serde.dump_game(game)
    assert (info.value.code, info.value.details["path"]) == (S.STRING_TOO_LONG, "names[0]")


# -- 2. linear time, bounded size ----------------------------------------------------------


def _refusal_time(load: Callable[[Any], Any], arg: Any) -> tuple[float, InvalidStateError]:
    """The best of three times ``load(arg)`` takes to refuse (a busy machine's noise)."""
    best, err = float("inf"), None
    for _ in range(3):
        start = time.perf_counter()
        with pytest.raises(InvalidStateError) as info:
            load(arg)
        best, err = min(best, time.perf_counter() - start), info.value
        if best < 0.2:
            break
    assert err is not None
    return best, err


_PATHOLOGICAL: dict[str, Callable[[int], str]] = {
    "escaped quotes": lambda n: '"' + '\\"' * (n // 2),
    "quotes": lambda n: '"' * n,
    "backslashes": lambda n: "\\" * n,
    "unicode escapes": lambda n: '"\\u' * (n // 3),
    "open arrays": lambda n: "[" * n,
    "open objects": lambda n: '{"a":' * (n // 5),
    "digits": lambda n: "1" * n,
    "minus signs": lambda n: "-" * n,
    "array of ones": lambda n: "[" + "1," * (n // 2) + "1]",
    "nested strings": lambda n: '["' + '\\\\"' * (n // 3) + '"]',
    "strings in arrays": lambda n: '[{"x": "' + "[" * n + '"}]',
}


@pytest.mark.parametrize("name", sorted(_PATHOLOGICAL))
def test_pathological_texts_are_refused_in_linear_time(name: str) -> None:
    # '"' + '\\"' * 16000 took 9 s before (64 KB: about a minute): quadratic.
    make = _PATHOLOGICAL[name]
    for load in (serde.loads_game, serde.loads_record, serde.loads_match):
        for n in (64_000, 1_000_000):
            took, _ = _refusal_time(load, make(n))
            # generous for a busy machine: quadratic would take minutes, then hours
            assert took < (1.0 if n < 100_000 else 5.0), (name, n)


@pytest.mark.parametrize("load", [serde.loads_game, serde.loads_record, serde.loads_match])
def test_a_50_mb_document_is_refused_before_parsing(load: Callable[[str], Any]) -> None:
    for text in ("[" + "1, " * (50 * 10**6 // 3) + "1]", "x" * 50 * 10**6, "€" * 17 * 10**6):
        took, err = _refusal_time(load, text)
        assert took < 1.0
        assert err.code is S.DOCUMENT_TOO_LARGE
        assert err.details["limit"] == serde.MAX_DOCUMENT_BYTES
        _check_short(err)
    # just over the limit in UTF-8 but not in characters
    text = "€" * (serde.MAX_DOCUMENT_BYTES // 3 + 1)
    with pytest.raises(InvalidStateError) as info:
        load(text)
    assert info.value.code is S.DOCUMENT_TOO_LARGE


def test_data_larger_than_the_bound_is_refused_without_walking_it_all(game: Game) -> None:
    for load, data in (
        (serde.load_game, serde.dump_game(game)),
        (serde.load_record, serde.dump_record(game)),
        (serde.load_match, json.loads(_match_data())),
    ):
        data["extra"] = ["x" * 100] * (serde.MAX_DOCUMENT_BYTES // 50)
        start = time.perf_counter()
        with pytest.raises(InvalidStateError) as info:
            load(data)
        assert info.value.code is S.DOCUMENT_TOO_LARGE
        assert time.perf_counter() - start < 10.0  # the walk stops at the bound


def test_the_bound_is_the_documented_formula() -> None:
    g = serde_forms
    s = max(g._widest(kind) for kind in g._KINDS)
    one = max(g._widest("lay_off"), g._widest("swap_joker"))
    u = g.MAX_UNDOS_PER_TURN
    c = len(json.dumps(list(range(106)))) + 2
    turn = 3 * s + (106 + 2 * 10) * one + (u + 1 + 106 + 2 * 10) * (s + g._widest("undo")) + c
    rounds = (4 + 4 + 26 + 56 + 64) * s + 64 * c  # 26 acceptances, 56 offers of doubles
    assert 65_536 + rounds + serde.MAX_SAVED_TURNS * turn == serde.MAX_DOCUMENT_BYTES
    assert (s, one, g._widest("undo"), c) == (94, 64, 18, 422)
    assert serde.MAX_DOCUMENT_BYTES < 50 * 10**6  # so that the 50 MB test means something


def test_every_step_and_outcome_is_within_the_widest(game: Game) -> None:
    for seed, preset in enumerate(PRESETS):
        played = _played(preset, 2 + seed % 3, seed, steps=250)
        data = serde.dump_record(played)
        for step in data["steps"]:
            assert len(json.dumps(step, sort_keys=True)) + 2 <= serde_forms._widest(step["kind"])
        rest = serde.dump_game(played)
        rest["record"]["steps"] = rest["record"]["chance"] = []
        assert len(json.dumps(rest, sort_keys=True, ensure_ascii=False)) < 65_536 // 2


def _long_round(turns: int, undos: int) -> Game:
    """A round of ``turns`` turns (online rules: the stock is reshuffled) whose turns
    each take the last discard and undo it ``undos`` times before drawing: about the
    most steps a turn can hold, and a chance outcome every few turns."""
    rules = attrs.evolve(variants.get("online"), max_turns_per_round=turns)
    game = Game.new(rules, ["Ș" * serde.MAX_NAME_LENGTH] * 4, seed=1)
    take, undo = TakeLastDiscard(), Undo()
    while not game.over:
        if game.state.phase.value == "take":
            for _ in range(undos):
                if not game.can(take):
                    break
                game.apply(take)
                game.apply(undo)
            game.apply(Draw())
        rack = game.state.seats[game.state.current].rack
        game.apply(Discard(rack[-1]))
    return game


def test_a_longest_round_fits_the_bound() -> None:
    u = serde_forms.MAX_UNDOS_PER_TURN
    turns = serde.MAX_SAVED_TURNS if WIDE else 100
    game = _long_round(turns, u)
    assert game.state.turn == turns and game.record().chance  # reshuffles
    text = serde.dumps_game(game)
    assert len(text.encode()) <= serde_forms._document_bound(turns)
    assert serde.loads_game(text).state == game.state


# -- 3. every reachable state saves and loads back ---------------------------------------


@pytest.mark.parametrize("preset", ["clasic", "rummy45"])
def test_a_joker_laid_off_swapped_back_and_laid_off_again_saves(preset: str) -> None:
    game = new_game(
        variants.get(preset),
        2,
        racks={0: "5R 6R 7R 10N 11N 12N 13N 1N J 8R 9G 9A 9N 2G"},
        stock="2A 3A 4A 5A",
    )
    play(game, discard_tile("2G"), "draw", "discard", "draw")
    play(game, meld("10N 11N 12N 13N 1N"), meld("5R 6R 7R"), meld("9G 9A 9N"), "discard")
    play(game, "draw", "discard", "draw", lay("J", on=1, end="high"), swap("8R", on=1))
    play(game, lay(104, on=1, end="high"))
    turn = game.state.pending
    assert turn is not None and turn.laid_off == (104, 104) and turn.swapped_jokers == (104,)
    check_save(game)
    # The loader stays strict: a real tile, or the joker once more than its swaps allow.
    data = serde.dump_game(game)
    for key, value in (("laid_off", 104), ("placed", 104), ("placed", turn.placed[1])):
        bad = json.loads(json.dumps(data))
        bad["state"]["pending"][key].append(value)
        with pytest.raises(InvalidStateError) as info:
            serde.load_game(bad)
        assert info.value.code is S.BAD_VALUE
        path = info.value.details["path"]
        assert isinstance(path, str) and path.startswith(f"state.pending.{key}")


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_round_over_in_turn_1_saves(preset: str, players: int) -> None:
    rules = attrs.evolve(variants.get(preset), max_turns_per_round=1)
    game = Game.new(rules, players, seed=players)
    game.apply(next(s for s in game.legal_steps() if isinstance(s, Discard)))
    assert game.over and game.state.turn == 1
    check_save(game)


_EVERY = WIDE_SIZES["every"] if WIDE else 1
_SAMPLED = WIDE_SIZES["sampled"] if WIDE else 1
_HOUSE = WIDE_SIZES["house"] if WIDE else 3


@pytest.mark.parametrize("preset", PRESETS)
def test_every_step_of_random_rounds_saves_and_loads(preset: str) -> None:
    # The CI slice: a short round (a turn cap of 16) with every step, and a whole
    # round sampled at 20 steps; REMI_WIDE=1 plays the wide sizes.
    short = attrs.evolve(variants.get(preset), max_turns_per_round=None if WIDE else 16)
    every = run_rounds(lambda _s: short, preset, _EVERY, every_step=True, seed0=7)
    sampled = run_rounds(lambda _s: variants.get(preset), preset, _SAMPLED, every_step=False)
    for tally in (every, sampled):
        assert not tally.failures, tally.failures[:3]
        assert not tally.engine_bugs, tally.engine_bugs
    assert every.loads >= every.steps > 20


def test_random_house_rules_rounds_save_and_load() -> None:
    tally = run_rounds(
        lambda s: random_rules(random.Random(s)), "house", _HOUSE, every_step=False, seed0=3
    )
    assert not tally.failures, tally.failures[:3]
    assert tally.loads > _HOUSE


# -- 4. a replayed or loaded game goes on past a chance event --------------------------


def _stock_emptied() -> Game:
    """An online round (4 players, big hands: a stock of 8) played by drawing and
    discarding the tile drawn until the stock is empty: the next draw reshuffles."""
    rules = attrs.evolve(variants.get("online"), hand_sizes=(25, 24))
    game = Game.new(rules, 4, seed=2, starter=0)
    game.apply(Discard(game.state.seats[0].rack[0]))
    while game.state.stock:
        game.apply(Draw())
        game.apply(Discard(game.state.seats[game.state.current].rack[-1]))
    return game


def _reshuffled(game: Game) -> tuple[int, ...]:
    before = len(game.record().chance)
    game.apply(Draw())
    chance = game.record().chance
    assert len(chance) == before + 1  # the reshuffle is recorded
    return chance[-1]


def test_a_replayed_or_loaded_game_reshuffles_like_a_live_one() -> None:
    game = _stock_emptied()
    record, text = game.record(), serde.dumps_game(game)
    seeded = [
        _reshuffled(Game.replay(record, seed=42)),
        _reshuffled(Game.replay(record, seed=random.Random(42))),
        _reshuffled(serde.loads_game(text, seed=42)),
        _reshuffled(serde.load_game(json.loads(text), seed="42")),
    ]
    assert seeded[0] == seeded[1] == seeded[2] != seeded[3]
    fresh = {_reshuffled(Game.replay(record)) for _ in range(3)}
    fresh |= {_reshuffled(serde.loads_game(text)) for _ in range(3)}
    assert len(fresh) > 1  # OS randomness: the save does not decide the future
    again = Game.replay(record, seed=42)
    _reshuffled(again)
    check_save(again)  # the outcome is in the record, so the game saves and loads


def test_a_replayed_game_can_demand_a_listed_redeal() -> None:
    rules = variants.get("rummy45")
    game = new_game(rules, 2, racks={1: "5R 5R 6G 6G 7A 7A"}, seed=1)
    assert DemandRedeal(1) in game.legal_steps()
    for seed in (1, 2):
        again = Game.replay(game.record(), seed=seed)
        again.apply(DemandRedeal(1))
        assert again.record().chance  # the new deal is the recorded outcome
        check_save(again)
    a = Game.replay(game.record(), seed=5)
    b = serde.load_game(serde.dump_game(game), seed=5)
    a.apply(DemandRedeal(1))
    b.apply(DemandRedeal(1))
    assert a.state == b.state


def test_replay_upto_replays_the_recorded_outcomes_then_goes_on() -> None:
    game = _stock_emptied()
    _reshuffled(game)
    record = game.record()
    k = len(record.steps) - 1
    again = Game.replay(record, upto=k, seed=9)
    again.apply(record.steps[k])  # the recorded reshuffle, not the seed's
    assert again.state == game.state and again.record() == record


def test_the_seed_is_never_saved() -> None:
    game = _stock_emptied()
    secret = "seed-XYZZY-8231"
    loaded = serde.loads_game(serde.dumps_game(game), seed=secret)
    _reshuffled(loaded)
    for text in (serde.dumps_game(loaded), serde.dumps_record(loaded)):
        assert secret not in text and "XYZZY" not in text
        keys = {key for path, _, _ in _leaves(json.loads(text)) for key in path.split(".")}
        assert not any("seed" in key or "rng" in key for key in keys)
    # The same save loaded with two seeds goes two ways: the save holds no future.
    a = serde.loads_game(serde.dumps_game(game), seed=1)
    b = serde.loads_game(serde.dumps_game(game), seed=2)
    assert _reshuffled(a) != _reshuffled(b)


@pytest.mark.parametrize("seed", [1.5, b"x", True, object()])
def test_a_seed_of_another_type_is_a_type_error(game: Game, seed: Any) -> None:
    with pytest.raises(TypeError):
        Game.replay(game.record(), seed=seed)
    with pytest.raises(TypeError):
        serde.load_game(serde.dump_game(game), seed=seed)
    with pytest.raises(TypeError):
        serde.load_match(json.loads(_match_data()), seed=seed)


def test_a_loaded_match_goes_on_from_its_seed() -> None:
    match = _match()
    data = serde.dump_match(match)
    a, b = serde.load_match(data, seed=4), serde.loads_match(json.dumps(data), seed=4)
    assert a.game.state == b.game.state == match.game.state
    random_round(a.game, random.Random(1), lambda g: None)
    random_round(b.game, random.Random(1), lambda g: None)
    assert a.game.record() == b.game.record()
