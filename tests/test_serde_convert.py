"""The cattrs converter of saved documents (remi_rules.serde._convert): the ranges
of the engine's attrs field metadata, cattrs' detailed validation turned into
StateErrorCode with the path of the field; here on a saved match's config."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import pytest

from remi_rules import serde
from remi_rules.engine import MatchConfig
from remi_rules.errors import (
    EngineArgumentError,
    EngineErrorCode,
    InvalidStateError,
    StateErrorCode,
)

S = StateErrorCode
MATCH = json.loads(
    (Path(__file__).resolve().parent / "data" / "match-clasic-3p.json").read_text("utf-8")
)


def _config(change: Callable[[dict[str, Any]], object]) -> dict[str, Any]:
    data: dict[str, Any] = copy.deepcopy(MATCH)
    change(data["config"])
    return data


@pytest.mark.parametrize(
    ("change", "code", "path"),
    [
        (lambda c: c["automation"].pop("scoring"), S.MISSING_KEY, "config.automation.scoring"),
        (lambda c: c.pop("max_rounds"), S.MISSING_KEY, "config.max_rounds"),
        (lambda c: c.update(extra=1), S.UNKNOWN_KEY, "config.extra"),
        (lambda c: c["automation"].update(x=True), S.UNKNOWN_KEY, "config.automation.x"),
        (lambda c: c.update(automation=[]), S.WRONG_TYPE, "config.automation"),
        (lambda c: c.update(rounds=0), S.OUT_OF_RANGE, "config.rounds"),
        (lambda c: c.update(rounds=True), S.WRONG_TYPE, "config.rounds"),
        (lambda c: c.update(max_rounds=None), S.WRONG_TYPE, "config.max_rounds"),
        (lambda c: c.update(max_rounds=10_001), S.OUT_OF_RANGE, "config.max_rounds"),
        (lambda c: c.update(first_starter=3), S.OUT_OF_RANGE, "config.first_starter"),
        (lambda c: c.update(first_starter=None), S.WRONG_TYPE, "config.first_starter"),
    ],
)
def test_a_bad_config_is_refused_with_the_path_of_the_field(
    change: Callable[[dict[str, Any]], object], code: StateErrorCode, path: str
) -> None:
    with pytest.raises(InvalidStateError) as err:
        serde.load_match(_config(change))
    assert err.value.code is code and err.value.details["path"] == path


def test_the_bounds_are_the_engine_s_field_metadata() -> None:
    # a seat number is bounded by the players of the document (3 here), from metadata
    meta = attrs.fields(MatchConfig).first_starter.metadata
    assert meta == {"lo": 0, "seat": True}
    with pytest.raises(InvalidStateError) as err:
        serde.load_match(_config(lambda c: c.update(first_starter=3)))
    assert (err.value.details["lo"], err.value.details["hi"]) == (0, 2)
    with pytest.raises(InvalidStateError) as err:
        serde.load_match(_config(lambda c: c.update(target=10**9 + 1, rounds=None)))
    assert err.value.details["hi"] == attrs.fields(MatchConfig).target.metadata["hi"]


def test_an_unknown_key_is_named_before_a_missing_one_and_a_bad_value() -> None:
    def change(c: dict[str, Any]) -> None:
        c.update(rounds="three", extra=1)
        del c["target"]

    with pytest.raises(InvalidStateError) as err:
        serde.load_match(_config(change))
    assert err.value.code is S.UNKNOWN_KEY
    with pytest.raises(InvalidStateError) as err:
        serde.load_match(_config(lambda c: (c.update(rounds="three"), c.pop("target"))))
    assert err.value.code is S.MISSING_KEY and err.value.details["path"] == "config.target"


def test_the_config_s_own_check_is_named_with_its_sub_codes() -> None:
    # MatchConfig refuses rounds and target both given; the loader says so with the
    # engine's refusal as the cause (sub-codes, each language its own text).
    with pytest.raises(InvalidStateError) as err:
        serde.load_match(_config(lambda c: c.update(rounds=3, target=100)))
    details = err.value.details
    assert err.value.code is S.BAD_VALUE and details["path"] == "config"
    assert details["why"] == "bad_config"
    cause = details["cause"]
    assert isinstance(cause, EngineArgumentError)
    assert cause.code is EngineErrorCode.BAD_MATCH_CONFIG
    assert cause.details["why"] == "rounds_or_target"
    ro, en = err.value.message("ro"), err.value.message("en")
    assert cause.message("ro") in ro and cause.message("en") in en
    assert "EngineArgumentError" not in ro + en


@pytest.mark.parametrize(
    ("change", "code", "path"),
    [
        (lambda s: s["seats"][1]["rack"].append(106), S.OUT_OF_RANGE, "state.seats[1].rack[-1]"),
        (lambda s: s["seats"][1].update(rack=[0] * 107), S.TILE_COUNT, "state.seats[1].rack"),
        (lambda s: s["seats"][0].update(rack={}), S.WRONG_TYPE, "state.seats[0].rack"),
        (lambda s: s["seats"][2].pop("turns"), S.MISSING_KEY, "state.seats[2].turns"),
        (lambda s: s["seats"][2].update({7: 1}), S.WRONG_TYPE, "state.seats[2]"),
        (lambda s: s["seats"][0].update(opened=1), S.WRONG_TYPE, "state.seats[0].opened"),
        (lambda s: s["end"].update(reason="won"), S.BAD_VALUE, "state.end.reason"),
        (lambda s: s["end"].update(closer=3), S.OUT_OF_RANGE, "state.end.closer"),
        (lambda s: s["end"].update(x=0), S.UNKNOWN_KEY, "state.end.x"),
    ],
)
def test_the_converted_forms_of_a_game_keep_their_paths(
    change: Callable[[dict[str, Any]], object], code: StateErrorCode, path: str
) -> None:
    data = json.loads(
        (Path(__file__).resolve().parent / "data" / "game-online-3p-finished.json").read_text(
            "utf-8"
        )
    )
    change(data["state"])
    if path.endswith("[-1]"):
        path = path.replace("-1", str(len(data["state"]["seats"][1]["rack"]) - 1))
    with pytest.raises(InvalidStateError) as err:
        serde.load_game(data)
    assert err.value.code is code and err.value.details["path"] == path
