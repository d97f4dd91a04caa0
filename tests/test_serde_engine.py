"""remi_rules.serde for the engine: saved games, records and views (docs/saving.md).

* round trips are exact on states of seeded games of every preset at many points
  (``load(dump(x))`` equals ``x``, ``dump(load(dump(x)))`` equals ``dump(x)``), in
  plain data and in JSON text; records replay to the same state; a loaded game goes
  on, and its pending turn can still be undone;
* views dump without any id of another rack or of the stock;
* the JSON Schemas in docs/schema/ are what :func:`serde.render_schemas` writes, and
  every dumped sample validates against them;
* refusals: each :class:`StateErrorCode` on targeted cases, with the path named.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from fuzzing.play import play_randomly, sample_games

from remi_rules import serde, variants
from remi_rules.engine import (
    Automation,
    Discard,
    Draw,
    Game,
    GameRecord,
    Phase,
    PlayerView,
    Undo,
    tile_census,
)
from remi_rules.errors import InvalidStateError, StateErrorCode

S = StateErrorCode
ROOT = Path(__file__).resolve().parent.parent
SCHEMA_DIR = ROOT / "docs" / "schema"


@pytest.fixture(scope="module")
def games() -> list[Game]:
    """Seeded games of every preset (2, 3 and 4 players) at many points."""
    return list(sample_games(2, seed=11, every=20))


def _first(games: list[Game], test: Callable[[Game], bool]) -> Game:
    for game in games:
        if test(game):
            return game
    raise AssertionError("no sample game has this")  # pragma: no cover


# -- round trips ---------------------------------------------------------------------------


def test_the_samples_cover_the_interesting_states(games: list[Game]) -> None:
    states = [g.state for g in games]
    assert {s.rules for s in states} == {variants.get(n) for n in variants.names()}
    assert {s.players for s in states} == {2, 3, 4}
    assert {s.phase for s in states} == set(Phase)
    assert any(s.end is not None and s.end.closer is not None for s in states)
    assert any(s.pending is not None and s.pending.obligation is not None for s in states)
    assert any(s.table.jokers[0].fixed_as or s.table.jokers[1].fixed_as for s in states)
    assert any(m.replacements for s in states for m in s.table.melds)
    assert any(s.announce_window is not None for s in states)
    assert any(s.exchanged for s in states)
    assert any(any(isinstance(step, Undo) for step in g.record().steps) for g in games)


@pytest.mark.rule("TILES-01")
@pytest.mark.rule("MELD-07")
@pytest.mark.rule("JOLY-05")
@pytest.mark.rule("VALUE-05")
def test_TILES_01_MELD_07_JOLY_05_game_round_trip_is_exact(games: list[Game]) -> None:
    for game in games:
        data = serde.dump_game(game)
        assert json.loads(json.dumps(data)) == data  # plain JSON values only
        loaded = serde.load_game(data)
        assert loaded.state == game.state
        assert loaded.record() == game.record()
        assert loaded.names == game.names
        assert serde.dump_game(loaded) == data
        assert tile_census(loaded.state) is None


def test_game_round_trip_through_json_text(games: list[Game]) -> None:
    for game in games[::3]:
        text = serde.dumps_game(game)
        assert text == json.dumps(json.loads(text), sort_keys=True, ensure_ascii=False)
        loaded = serde.loads_game(text)
        assert loaded.state == game.state
        assert serde.dumps_game(loaded) == text


def test_record_round_trip_is_exact_and_replays(games: list[Game]) -> None:
    for game in games:
        record = game.record()
        data = serde.dump_record(record)
        assert serde.dump_record(game) == data
        loaded = serde.load_record(json.loads(json.dumps(data)))
        assert loaded == record
        assert serde.dump_record(loaded) == data
        assert Game.replay(loaded).state == game.state
    text = serde.dumps_record(games[-1])
    assert serde.loads_record(text) == games[-1].record()
    assert serde.dumps_record(serde.loads_record(text)) == text


def test_names_are_saved() -> None:
    game = Game.new(variants.get("clasic"), ["Ana", "Ion", "Maria"], seed=3)
    loaded = serde.load_game(serde.dump_game(game))
    assert loaded.names == ("Ana", "Ion", "Maria")


def test_a_loaded_game_goes_on_like_the_original(games: list[Game]) -> None:
    checked = 0
    for sample in games:
        if sample.over:
            continue
        game = Game.replay(sample.record())  # a copy: the samples are shared
        loaded = serde.load_game(serde.dump_game(game))
        step = game.legal_steps()[0]
        assert loaded.legal_steps() == game.legal_steps()
        if isinstance(step, Draw) and not game.state.stock:
            continue  # an online reshuffle: a new chance outcome, by another generator
        assert loaded.apply(step) == game.apply(step)
        assert loaded.state == game.state
        assert loaded.record() == game.record()
        checked += 1
    assert checked > 10


def test_the_pending_turn_can_still_be_undone_after_loading() -> None:
    game = Game.new(variants.get("clasic"), 2, seed=4)
    rng = random.Random(4)
    for _ in range(400):  # play until a step can be taken back
        if any(isinstance(s, Undo) for s in game.legal_steps()):
            break
        play_randomly(game, rng, max_steps=1)
    before_undo = Game.replay(game.record())
    assert any(isinstance(s, Undo) for s in game.legal_steps())
    loaded = serde.load_game(serde.dump_game(game))
    assert Undo() in loaded.legal_steps()
    loaded.apply(Undo())
    game.apply(Undo())
    assert loaded.state == game.state != before_undo.state
    assert loaded.record() == game.record()


def test_automation_is_given_when_loading() -> None:
    game = Game.new(variants.get("online"), 3, seed=5, automation=Automation.all())
    data = serde.dump_game(game)
    assert serde.load_game(data).automation == Automation()
    loaded = serde.load_game(data, automation=Automation.all())
    assert loaded.automation == Automation.all()
    with pytest.raises(TypeError):
        serde.load_game(data, automation="all")  # type: ignore[arg-type]


def test_dump_functions_refuse_other_types() -> None:
    for dump in (serde.dump_game, serde.dump_record, serde.dump_view):
        with pytest.raises(TypeError):
            dump("a game")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        serde.loads_game(b"{}")  # type: ignore[arg-type]


# -- views -----------------------------------------------------------------------------------

_ID_KEYS = frozenset(
    {
        "rack",
        "row",
        "atu",
        "ids",
        "replacements",
        "taken",
        "laid_off",
        "swapped_jokers",
        "placed",
        "rack_at_start",
        "rack_before_take",
        "also_taken",
        "picked",
        "closing_tile",
    }
)


def _ids_in(data: Any, key: str | None = None) -> Iterator[int]:
    """Every tile id in a dumped view (the values of the id-bearing keys)."""
    if isinstance(data, dict):
        for k, value in data.items():
            yield from _ids_in(value, k)
    elif isinstance(data, list):
        for value in data:
            yield from _ids_in(value, key)
    elif type(data) is int and key in _ID_KEYS:
        yield data


@pytest.mark.rule("TILES-01")
def test_TILES_01_views_hide_other_racks_and_the_stock(games: list[Game]) -> None:
    for game in games[::2]:
        state = game.state
        for seat in range(state.players):
            view = game.view(seat)
            data = serde.dump_view(view)
            assert json.loads(json.dumps(data)) == data
            assert data["kind"] == "view" and data["seat"] == seat
            shown = set(_ids_in(data))
            hidden = set(view.hidden_ids())
            assert not shown & hidden
            assert not shown & set(state.stock)
            for other in range(state.players):
                if other != seat:
                    assert not shown & (set(state.rack(other)) - view.visible_ids())
            # Another deal of the hidden tiles gives the same dump.
            sampled = view.sample_state(random.Random(seat))
            assert serde.dump_view(PlayerView.of(sampled, seat, view.undo)) == data


# -- JSON Schema -------------------------------------------------------------------------------


def test_schema_files_are_up_to_date() -> None:
    for name, text in serde.render_schemas().items():
        path = SCHEMA_DIR / name
        assert path.read_text(encoding="utf-8") == text, (
            f"{name} is stale: run python -m remi_rules.serde docs/schema"
        )
    assert serde.main(["--check", str(SCHEMA_DIR)]) == 0


def test_schema_check_mode_reports_a_stale_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert serde.main(["--check", str(tmp_path)]) == 1
    assert serde.write_schemas(tmp_path) == sorted(serde.SCHEMAS)
    assert serde.write_schemas(tmp_path) == []
    assert serde.main(["--check", str(tmp_path)]) == 0
    assert "stale" in capsys.readouterr().out


def _validator(name: str) -> jsonschema.Draft202012Validator:
    schema = json.loads((SCHEMA_DIR / name).read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def test_dumped_samples_validate_against_the_schemas(games: list[Game]) -> None:
    game_v, record_v = _validator("game.schema.json"), _validator("record.schema.json")
    # Every fourth sample and every finished round (whose record holds all its steps):
    # jsonschema takes about 0.1 s for a long record.
    for game in [g for k, g in enumerate(games) if k % 4 == 0 or g.over]:
        assert not list(game_v.iter_errors(serde.dump_game(game)))
        assert not list(record_v.iter_errors(serde.dump_record(game)))


def test_the_schemas_refuse_what_the_loader_refuses_by_shape(games: list[Game]) -> None:
    game_v = _validator("game.schema.json")
    data = serde.dump_game(_first(games, lambda g: 3 < g.state.turn < 20))
    changes: tuple[Callable[[dict[str, Any]], object], ...] = (
        lambda d: d["state"]["seats"][0].update(opened=1),
        lambda d: d["state"]["seats"][0]["rack"].append(106),
        lambda d: d["state"].update(colour="R"),
        lambda d: d["state"].pop("turn"),
        lambda d: d["record"]["steps"].append({"kind": "fly"}),
        lambda d: d["record"]["steps"].append({"kind": "discard"}),
        lambda d: d["rules"].update(closing_bonus=-1),
        lambda d: d.update(format_version=3),
    )
    for change in changes:
        bad = copy.deepcopy(data)
        change(bad)
        assert list(game_v.iter_errors(bad))


# -- refusals --------------------------------------------------------------------------------


def _refused(load: Callable[[Any], Any], data: Any) -> InvalidStateError:
    with pytest.raises(InvalidStateError) as info:
        load(data)
    err = info.value
    assert err.message("ro") and err.message("en") and str(err)
    return err


def _game_with(games: list[Game], test: Callable[[Game], bool]) -> dict[str, Any]:
    return serde.dump_game(_first(games, test))


def _on_table(g: Game) -> bool:
    return len(g.state.table.melds) >= 2


def _in_play(g: Game) -> bool:
    return not g.over and g.state.turn > 3


def _ended(g: Game) -> bool:
    return g.state.end is not None and g.state.end.closer is not None


GameCase = tuple[Callable[[Game], bool], Callable[[dict[str, Any]], Any], StateErrorCode, str]

GAME_CASES: dict[str, GameCase] = {
    "turn is a string": (
        _in_play,
        lambda d: d["state"].update(turn="3"),
        S.WRONG_TYPE,
        "state.turn",
    ),
    "bool is not int": (
        _in_play,
        lambda d: d["state"]["seats"][1]["rack"].__setitem__(5, True),
        S.WRONG_TYPE,
        "state.seats[1].rack[5]",
    ),
    "int is not bool": (
        _in_play,
        lambda d: d["state"]["seats"][0].update(opened=0),
        S.WRONG_TYPE,
        "state.seats[0].opened",
    ),
    "float id": (_in_play, lambda d: d["state"].update(atu=3.0), S.WRONG_TYPE, "state.atu"),
    "state is a list": (_in_play, lambda d: d.update(state=[]), S.WRONG_TYPE, "state"),
    "missing seat flag": (
        _in_play,
        lambda d: d["state"]["seats"][1].pop("has_taken"),
        S.MISSING_KEY,
        "state.seats[1].has_taken",
    ),
    "missing record": (_in_play, lambda d: d.pop("record"), S.MISSING_KEY, "record"),
    "missing step kind": (
        _in_play,
        lambda d: d["record"]["steps"][0].pop("kind"),
        S.MISSING_KEY,
        "record.steps[0].kind",
    ),
    "derived meld saved": (
        _on_table,
        lambda d: d["state"]["table"]["melds"][1].update(meld="7R 8R 9R"),
        S.UNKNOWN_KEY,
        "state.table.melds[1].meld",
    ),
    "extra top-level key": (_in_play, lambda d: d.update(comment="hi"), S.UNKNOWN_KEY, "comment"),
    "id 106": (
        _in_play,
        lambda d: d["state"]["seats"][2 % len(d["state"]["seats"])]["rack"].__setitem__(5, 106),
        S.OUT_OF_RANGE,
        "state.seats[*].rack[5]",
    ),
    "seat beyond the players": (
        lambda g: _in_play(g) and g.state.players < 4,
        lambda d: d["state"].update(current=d["state"]["players"]),
        S.OUT_OF_RANGE,
        "state.current",
    ),
    "turn 0": (_in_play, lambda d: d["state"].update(turn=0), S.OUT_OF_RANGE, "state.turn"),
    "huge int": (_in_play, lambda d: d["state"].update(atu=10**30), S.OUT_OF_RANGE, "state.atu"),
    "negative count": (
        _in_play,
        lambda d: d["state"]["seats"][0].update(turns=-1),
        S.OUT_OF_RANGE,
        "state.seats[0].turns",
    ),
    "unknown phase": (
        _in_play,
        lambda d: d["state"].update(phase="wait"),
        S.BAD_VALUE,
        "state.phase",
    ),
    "unknown step": (
        _in_play,
        lambda d: d["record"]["steps"][0].update(kind="fly"),
        S.BAD_VALUE,
        "record.steps[0].kind",
    ),
    "meld out of table order": (
        _on_table,
        lambda d: d["state"]["table"]["melds"][1]["ids"].reverse(),
        S.BAD_VALUE,
        "state.table.melds[1].ids",
    ),
    "credited to a stranger": (
        _on_table,
        lambda d: d["state"]["table"]["melds"][0]["credited"].__setitem__(
            0, (d["state"]["table"]["melds"][0]["owner"] + 1) % d["state"]["players"]
        ),
        S.BAD_VALUE,
        "state.table.melds[0].credited[0]",
    ),
    "names do not match the players": (
        _in_play,
        lambda d: d["names"].pop(),
        S.BAD_VALUE,
        "names",
    ),
    "wrong kind": (_in_play, lambda d: d.update(kind="record"), S.BAD_VALUE, "kind"),
    "a flag the record contradicts": (
        lambda g: _in_play(g) and not g.state.seats[0].announced_atu,
        lambda d: d["state"]["seats"][0].update(announced_atu=True),
        S.BAD_VALUE,
        "state.seats[0].announced_atu",
    ),
    "a tile twice": (
        _in_play,
        lambda d: d["state"]["stock"].__setitem__(0, d["state"]["seats"][0]["rack"][0]),
        S.TILE_COUNT,
        "state.stock[0]",
    ),
    "a tile missing": (
        _in_play,
        lambda d: d["state"]["stock"].pop(),
        S.TILE_COUNT,
        "state",
    ),
    "a rack of 107": (
        _in_play,
        lambda d: d["state"]["seats"][0].update(rack=[*range(106), 0]),
        S.TILE_COUNT,
        "state.seats[0].rack",
    ),
    "over without an end": (
        _in_play,
        lambda d: d["state"].update(phase="over", pending=None),
        S.BAD_PHASE,
        "state.end",
    ),
    "no pending turn in play": (
        _in_play,
        lambda d: d["state"].update(pending=None),
        S.BAD_PHASE,
        "state.pending",
    ),
    "another seat's turn": (
        _in_play,
        lambda d: d["state"]["pending"].update(
            seat=(d["state"]["current"] + 1) % d["state"]["players"]
        ),
        S.BAD_PHASE,
        "state.pending.seat",
    ),
    "take phase after the take": (
        lambda g: _in_play(g) and g.state.phase is Phase.ACTION,
        lambda d: d["state"].update(phase="take"),
        S.BAD_PHASE,
        "state.phase",
    ),
    "an end with a pending turn": (
        _ended,
        lambda d: d["state"].update(phase="action"),
        S.BAD_PHASE,
        "state.phase",
    ),
    "the wrong seat to move": (
        _in_play,
        lambda d: d["state"].update(current=(d["state"]["current"] + 1) % d["state"]["players"]),
        S.BAD_PHASE,
        "state.current",
    ),
    "fingerprint": (
        _in_play,
        lambda d: d.update(fingerprint="0" * 16),
        S.FINGERPRINT,
        "fingerprint",
    ),
    "version 3": (
        _in_play,
        lambda d: d.update(format_version=3),
        S.FORMAT_VERSION,
        "format_version",
    ),
    "version 0 before the keys": (
        _in_play,
        lambda d: d.update(format_version=0, other=1),
        S.FORMAT_VERSION,
        "format_version",
    ),
    "a bad knob": (
        _in_play,
        lambda d: d["rules"].update(closing_bonus=-1),
        S.BAD_RULESET,
        "rules.closing_bonus",
    ),
    "an unknown knob": (
        _in_play,
        lambda d: d["rules"].update(house_bonus=1),
        S.BAD_RULESET,
        "rules.house_bonus",
    ),
    "an illegal step": (
        _in_play,
        lambda d: d["record"]["steps"].__setitem__(
            _first_discard(d["record"]["steps"]),
            {"kind": "discard", "tile": d["record"]["deal"][-1]},
        ),
        S.BAD_RECORD,
        "record.steps[*]",
    ),
    "an unused chance outcome": (
        _in_play,
        lambda d: d["record"]["chance"].append(list(range(10))),
        S.BAD_RECORD,
        "record.chance[*]",
    ),
    "deep nesting": (
        _in_play,
        lambda d: d["names"].__setitem__(0, _nest(40)),
        S.TOO_DEEP,
        "names[0]" + "[0]" * 30,  # names[0] is at depth 3: 30 more reach 33
    ),
}


def _first_discard(steps: list[dict[str, Any]]) -> int:
    return next(k for k, s in enumerate(steps) if s["kind"] == "discard")


def _nest(depth: int) -> Any:
    value: Any = "x"
    for _ in range(depth):
        value = [value]
    return value


def _path_matches(path: str, pattern: str) -> bool:
    if "*" not in pattern:
        return path == pattern
    head, tail = pattern.split("*", 1)
    return path.startswith(head) and path.endswith(tail)


@pytest.mark.parametrize("case", list(GAME_CASES))
def test_a_bad_game_is_refused_naming_the_path(games: list[Game], case: str) -> None:
    pick, change, code, path = GAME_CASES[case]
    data = _game_with(games, pick)
    change(data)
    err = _refused(serde.load_game, data)
    assert err.code is code, (err, case)
    assert _path_matches(str(err.details["path"]), path), (err.details, case)


@pytest.mark.rule("TURN-01")
def test_TURN_01_turn_one_is_a_discard_only(games: list[Game]) -> None:
    data = _game_with(games, lambda g: g.state.turn == 1)
    data["state"]["pending"]["took"] = "draw"
    assert _refused(serde.load_game, data).details["path"] == "state.pending.took"
    data = _game_with(games, lambda g: g.state.turn == 1)
    data["state"]["phase"] = "take"
    assert _refused(serde.load_game, data).details["path"] == "state.phase"


@pytest.mark.rule("ATU-06")
def test_ATU_06_the_atu_is_face_down_only_when_taken(games: list[Game]) -> None:
    data = _game_with(games, lambda g: _in_play(g) and g.state.atu_face_up)
    data["state"]["atu_face_up"] = False
    data["state"]["stock"].append(data["state"]["atu"])
    err = _refused(serde.load_game, data)
    assert (err.code, err.details["path"]) == (S.BAD_PHASE, "state.atu_face_up")


@pytest.mark.rule("TURN-09")
def test_TURN_09_a_state_that_moved_a_tile_is_refused_where_it_differs(games: list[Game]) -> None:
    """The census still holds, but the record leads elsewhere: the first differing
    field is named."""
    data = _game_with(games, lambda g: _in_play(g) and len(g.state.row) >= 2)
    row = data["state"]["row"]
    row[-1], row[-2] = row[-2], row[-1]
    err = _refused(serde.load_game, data)
    assert err.code is S.BAD_VALUE
    assert str(err.details["path"]).startswith("state.row[")


RECORD_CASES: dict[str, tuple[Callable[[dict[str, Any]], Any], StateErrorCode, str]] = {
    "deal too short": (lambda d: d["deal"].pop(), S.TILE_COUNT, "deal"),
    "deal with a tile twice": (
        lambda d: d["deal"].__setitem__(7, d["deal"][3]),
        S.TILE_COUNT,
        "deal[7]",
    ),
    "bool seat": (lambda d: d.update(dealer=False), S.WRONG_TYPE, "dealer"),
    "five players": (lambda d: d.update(players=5), S.OUT_OF_RANGE, "players"),
    "starter beyond the players": (lambda d: d.update(starter=4), S.OUT_OF_RANGE, "starter"),
    "step field missing": (
        lambda d: d["steps"].insert(0, {"kind": "discard"}),
        S.MISSING_KEY,
        "steps[0].tile",
    ),
    "step field unknown": (
        lambda d: d["steps"].insert(0, {"kind": "draw", "tile": 3}),
        S.UNKNOWN_KEY,
        "steps[0].tile",
    ),
    "lay-off end": (
        lambda d: d["steps"].insert(0, {"kind": "lay_off", "tile": 1, "meld": 0, "end": "swap"}),
        S.BAD_VALUE,
        "steps[0].end",
    ),
    "meld of a tile twice": (
        lambda d: d["steps"].insert(0, {"kind": "meld", "tiles": [1, 1, 2]}),
        S.BAD_VALUE,
        "steps[0].tiles[1]",
    ),
    "a step that does not apply": (
        lambda d: d["steps"].insert(0, {"kind": "draw"}),
        S.BAD_RECORD,
        "steps[0]",
    ),
    "a chance outcome missing": (
        lambda d: d["steps"].insert(0, {"kind": "demand_redeal", "seat": 0}),
        S.BAD_RECORD,
        "steps[0]",
    ),
    "records are not games": (lambda d: d.update(kind="game"), S.BAD_VALUE, "kind"),
}


@pytest.mark.parametrize("case", list(RECORD_CASES))
def test_a_bad_record_is_refused_naming_the_path(case: str) -> None:
    change, code, path = RECORD_CASES[case]
    data = serde.dump_record(Game.new(variants.get("rummy45"), 3, seed=21))
    change(data)
    err = _refused(serde.load_record, data)
    assert err.code is code, (err, case)
    assert err.details["path"] == path, (err.details, case)


def test_a_chance_outcome_that_is_not_a_permutation() -> None:
    game = Game.new(variants.get("rummy45"), 2, seed=1)
    outcome = tuple(range(106))
    record = GameRecord(
        rules=game.rules,
        players=2,
        dealer=1,
        starter=0,
        deal=game.record().deal,
        steps=(),
        chance=(outcome,),
    )
    data = serde.dump_record(record)
    data["chance"][0] = data["chance"][0][:50]
    err = _refused(serde.load_record, data)
    assert (err.code, err.details["path"]) == (S.BAD_RECORD, "chance[0]")


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", S.NOT_JSON),
        ("{", S.NOT_JSON),
        ('{"kind": "game", "kind": "game"}', S.NOT_JSON),
        ('{"format_version": NaN}', S.NOT_JSON),
        ('{"format_version": Infinity}', S.NOT_JSON),
        ("[" * 33 + "]" * 33, S.TOO_DEEP),
        ("[" * 100_000, S.TOO_DEEP),
        ('{"a": "' + "[" * 100 + '"}', S.MISSING_KEY),  # brackets in a string do not count
        ("[]", S.WRONG_TYPE),
        ("null", S.WRONG_TYPE),
        ('{"format_version": 1.0}', S.WRONG_TYPE),
        ('{"format_version": ' + "9" * 5000 + "}", S.FORMAT_VERSION),
        # the bounds come before the keys (tests/test_reliability_serde.py)
        ('{"format_version": 1, "names": ' + "9" * 5000 + "}", S.OUT_OF_RANGE),
    ],
)
def test_bad_json_text(text: str, code: StateErrorCode) -> None:
    for load in (serde.loads_game, serde.loads_record):
        err = _refused(load, text)
        assert err.code is code
        path = err.details["path"]
        assert path in ("$", "format_version", "fingerprint", "kind", "names") or (
            code is S.TOO_DEEP and path == "[0]" * 32
        )


def test_a_huge_integer_in_text_is_out_of_range(games: list[Game]) -> None:
    text = serde.dumps_game(_first(games, _in_play))
    data = json.loads(text)
    atu = data["state"]["atu"]
    text = text.replace(f'"atu": {atu},', '"atu": ' + "7" * 500 + ",", 1)
    err = _refused(serde.loads_game, text)
    assert (err.code, err.details["path"]) == (S.OUT_OF_RANGE, "state.atu")


def test_deep_and_cyclic_data_is_refused_without_recursion() -> None:
    deep: Any = {}
    node = deep
    for _ in range(10_000):
        node["x"] = {}
        node = node["x"]
    assert _refused(serde.load_game, deep).code is S.TOO_DEEP
    cyclic: dict[str, Any] = {"format_version": 1}
    cyclic["self"] = cyclic
    assert _refused(serde.load_record, cyclic).code is S.TOO_DEEP
    assert _refused(serde.load_game, [1, 2]).code is S.WRONG_TYPE


def test_non_json_values_in_data_are_refused(games: list[Game]) -> None:
    data = serde.dump_game(_first(games, _in_play))
    data["state"]["row"] = tuple(data["state"]["row"])
    err = _refused(serde.load_game, data)
    assert (err.code, err.details["path"]) == (S.WRONG_TYPE, "state.row")
    data = serde.dump_game(_first(games, _in_play))
    data["state"]["seats"][0][1] = True
    err = _refused(serde.load_game, data)
    assert (err.code, err.details["path"]) == (S.WRONG_TYPE, "state.seats[0]")


def test_discard_of_a_loaded_game_matches_the_engine() -> None:
    """A minimal end-to-end example (docs/saving.md shows it too)."""
    game = Game.new(variants.get("clasic"), 4, seed=7, starter=0)
    game.apply(Discard(game.state.rack(0)[0]))
    text = serde.dumps_game(game)
    again = serde.loads_game(text)
    assert again.state == game.state and again.state.phase is Phase.TAKE
