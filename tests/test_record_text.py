"""The text game record (serde.dump_record_text / load_record_text): random rounds of
every preset (and house rules) written and read back replay to the same game, the
golden record stays byte for byte, and a bad record is refused with its code and
line."""

from __future__ import annotations

import os
import random
from pathlib import Path

import attrs
import pytest
from reliability_play import PRESETS, random_round

from remi_rules import Ruleset, serde, variants
from remi_rules.engine import Game
from remi_rules.errors import InvalidRecordTextError, RecordTextErrorCode
from remi_rules.serde import MAX_DOCUMENT_BYTES, MAX_RECORD_LINE

GOLDEN = Path(__file__).resolve().parent / "golden"
R = RecordTextErrorCode


def played(preset: str, seed: int, players: int = 3, *, finish: bool = True) -> Game:
    rules = variants.get(preset) if preset != "house" else _house()
    names = ["Ana", "Bogdan", "Carmen", "Dan"][:players]
    game = Game.new(rules, names, seed=seed)
    random_round(game, random.Random(seed), lambda g: None, max_steps=1500 if finish else 60)
    return game


def _house() -> Ruleset:
    return serde.house_rules_from_dict(
        {"base": "online", "overrides": {"closing_bonus": 50, "no_announce_penalty": None}}
    )


ROUNDS = int(os.environ.get("REMI_WIDE_ROUNDS", "100")) if os.environ.get("REMI_WIDE") else 4
"""Rounds per preset and language (``REMI_WIDE=1``: 100, or ``REMI_WIDE_ROUNDS``)."""


@pytest.mark.parametrize("preset", [*PRESETS, "house"])
@pytest.mark.parametrize("lang", ["en", "ro"])
def test_random_rounds_round_trip(preset: str, lang: str) -> None:
    for seed in range(ROUNDS):
        game = played(preset, seed, 2 + seed % 3, finish=seed != 3)
        text = serde.dump_record_text(game, lang=lang, seed=seed if game.over else None)
        read = serde.read_record_text(text)
        again = Game.replay(read.record)
        assert read.record == game.record()
        assert again.state == game.state
        assert read.names == game.names and read.language == lang
        assert read.seed == (seed if game.over else None)
        again.names = read.names
        assert serde.dump_record_text(again, lang=lang, seed=read.seed) == text


def _rewritten(text: str) -> str:
    """The record read, replayed and written again."""
    read = serde.read_record_text(text)
    game = Game.replay(read.record)
    game.names = read.names
    return serde.dump_record_text(game, date=read.date, seed=read.seed, lang=read.language)


@pytest.mark.parametrize("name", ["record_clasic_ro.remi", "record_online_en.remi"])
def test_the_golden_records_are_written_byte_for_byte(name: str) -> None:
    """The golden records (a finished clasic round in Romanian, dated and seeded; an
    unfinished online round in English) read, replay and are written again exactly.
    They were written by ``dump_record_text`` from rounds of random_round; reading them
    back does not depend on how the engine lists its steps or on a bot."""
    text = (GOLDEN / name).read_text(encoding="utf-8")
    assert _rewritten(text) == text
    read = serde.read_record_text(text)
    assert (read.date is not None) == name.startswith("record_clasic")


def test_the_record_in_the_protocol_page_is_one() -> None:
    page = (Path(__file__).resolve().parent.parent / "docs" / "protocol.md").read_text("utf-8")
    section = page[page.index("## A text game record") :]
    text = section[section.index("```text\n") + 8 : section.index("```\n\n*")]
    assert _rewritten(text) == text
    game = Game.replay(serde.load_record_text(text))
    assert game.over and game.result() is not None


def test_a_seed_is_written_only_for_a_finished_round() -> None:
    game = played("clasic", 5, finish=False)
    assert not game.over
    text = serde.dump_record_text(game, seed=5)
    assert "[Seed" not in text and "[Result" not in text
    over = played("clasic", 5)
    with pytest.raises(InvalidRecordTextError) as info:
        serde.dump_record_text(over, seed=6)
    assert info.value.code is R.BAD_SEED


def _bad(text: str, code: RecordTextErrorCode, line: int | None) -> InvalidRecordTextError:
    with pytest.raises(InvalidRecordTextError) as info:
        serde.load_record_text(text)
    err = info.value
    assert err.code is code, err
    assert err.details.get("line") == line, err
    en, ro = err.message("en"), err.message("ro")
    assert en and ro and en != ro
    if line is not None:
        assert f"(line {line}" in en and f"(linia {line}" in ro
    return err


def _lines(text: str) -> list[str]:
    return text.split("\n")


def _number(lines: list[str], start: str) -> int:
    return next(k for k, line in enumerate(lines) if line.startswith(start))


def test_strict_loading_names_the_line() -> None:
    game = played("online", 2)
    text = serde.dump_record_text(game, seed=2)
    lines = _lines(text)

    def swap(k: int, new: str) -> str:
        return "\n".join([*lines[:k], new, *lines[k + 1 :]])

    _bad("x" * (MAX_DOCUMENT_BYTES + 1), R.TOO_LARGE, None)
    _bad("[Rules " + "1" * MAX_RECORD_LINE + "]", R.LINE_TOO_LONG, 1)
    rules = _number(lines, "[Rules")
    _bad(swap(rules, '[Rules "nope"]'), R.BAD_RULES, rules + 1)
    _bad(swap(rules, "[Rules clasic"), R.BAD_HEADER, rules + 1)
    _bad(swap(rules, '[Colour "red"]'), R.BAD_HEADER, rules + 1)
    fp = _number(lines, "[Fingerprint")
    _bad(swap(fp, '[Fingerprint "0000"]'), R.FINGERPRINT, fp + 1)
    _bad(swap(fp, '[Rules "online"]'), R.DUPLICATE_HEADER, fp + 1)
    players = _number(lines, "[Players")
    _bad(swap(players, "[Players 5]"), R.BAD_VALUE, players + 1)
    _bad(swap(players, ""), R.MISSING_HEADER, None)
    rack = _number(lines, "rack 0:")
    _bad(swap(rack, lines[rack] + " 1R"), R.BAD_DEAL, rack + 1)
    _bad(swap(rack, lines[rack].replace(":", ": 1R", 1)[:-3]), R.BAD_DEAL, rack + 1)
    stock = _number(lines, "stock:")
    _bad(swap(stock, lines[stock].replace(" ", " 7X ", 2)), R.BAD_DEAL, stock + 1)
    turn = _number(lines, "2. ")
    _bad(swap(turn, "2. drwa"), R.BAD_STEP, turn + 1)
    err = _bad(swap(turn, "2. draw; meld 5R 6X"), R.BAD_STEP, turn + 1)
    assert err.details["column"] == 18
    _bad(swap(turn, "7. draw"), R.WRONG_TURN, turn + 1)
    _bad(swap(turn, "2. take atu"), R.STEP_REFUSED, turn + 1)
    _bad(swap(turn, "draw"), R.BAD_LINE, turn + 1)
    _bad(swap(turn, "2. seat 0: announce"), R.BAD_LINE, turn + 1)
    result = _number(lines, "[Scores")
    _bad(swap(result, "[Scores [1, 2]]"), R.RESULT, result + 1)
    seed = _number(lines, "[Seed")
    _bad(swap(seed, "[Seed 3]"), R.BAD_SEED, seed + 1)
    _bad(text + "shuffle: 1R 2R\n", R.BAD_CHANCE, len(lines))
    unfinished = serde.dump_record_text(played("online", 2, finish=False))
    at = _number(_lines(unfinished), "[Starter") + 1  # the inserted header's line
    _bad(unfinished.replace("[Starter", "[Seed 2]\n[Starter"), R.BAD_SEED, at)
    _bad(unfinished.replace("[Starter", '[Result "closed"]\n[Starter'), R.RESULT, at)


def test_a_reshuffle_is_written_after_its_draw() -> None:
    rules = attrs.evolve(variants.get("online"))
    for seed in range(40):
        game = Game.new(rules, 2, seed=seed)
        random_round(game, random.Random(seed), lambda g: None)
        if game.record().chance:
            break
    else:
        pytest.skip("no reshuffle in these rounds")
    text = serde.dump_record_text(game)
    assert "\nshuffle: " in text
    assert Game.replay(serde.load_record_text(text)).state == game.state
    lines = _lines(text)
    k = _number(lines, "shuffle:")
    dropped = "\n".join([*lines[:k], *lines[k + 1 :]])
    # the line of the step that shuffled, or the deal's (stock) line before a blank one
    _bad(dropped, R.BAD_CHANCE, k if lines[k - 1] else k - 1)
