"""The public step notation (remi_rules.notation): every legal step of many reachable
positions is written and read back as the same step, in English and Romanian, with the
view of the seat that makes it and without a view; bad text is refused with a code,
the column of the bad word and, where close, a suggestion.

The slice here is deterministic and small; ``REMI_WIDE=1 python -m pytest
tests/test_notation.py`` (or ``python tests/test_notation.py``) runs the wide one,
10,000 positions per preset, and prints the counts."""

from __future__ import annotations

import os
import random
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reliability_play import PRESETS, random_round

from remi_rules import _i18n as i18n
from remi_rules import variants
from remi_rules.engine import (
    AcceptDoubles,
    AnnounceAtu,
    AnnounceFewTiles,
    Close,
    DeclarePeTabla,
    DemandRedeal,
    Discard,
    Draw,
    Game,
    LayOff,
    MeldTiles,
    OfferDoubles,
    Rupere,
    Step,
    SwapJoker,
    TakeAtu,
    TakeLastDiscard,
    Undo,
)
from remi_rules.errors import NotationError, NotationErrorCode
from remi_rules.lipire import End
from remi_rules.notation import MAX_STEP_TEXT, STEP_WORDS, format_step, parse_step, step_words
from remi_rules.tiles import tile_of

LANGS = ("en", "ro")


def round_trips(positions_per_preset: int, seed: int = 0) -> tuple[Counter[str], Counter[str]]:
    """Play random rounds of every preset until ``positions_per_preset`` positions
    each; at each, every legal step (every seat's) through format and parse in both
    languages, with the acting seat's view and without.  Returns (positions, steps
    checked) per preset; a step that does not come back fails with its text."""
    positions: Counter[str] = Counter()
    checked: Counter[str] = Counter()
    for preset in PRESETS:
        rules = variants.get(preset)
        k = 0
        while positions[preset] < positions_per_preset:
            game = Game.new(rules, 2 + k % 3, seed=seed * 100_000 + k)

            def check(game: Game, preset: str = preset) -> None:
                if positions[preset] >= positions_per_preset:
                    return
                positions[preset] += 1
                state = game.state
                for step in game.legal_steps():
                    seat = state.current if step.in_turn else step.seat  # type: ignore[union-attr]
                    view = game.view(seat)
                    for lang in LANGS:
                        for v in (view, None):
                            text = format_step(step, v, lang)
                            back = parse_step(text, v, lang)
                            assert back == step, (preset, lang, v is not None, text, step, back)
                            checked[preset] += 1

            check(game)
            random_round(game, random.Random(k), check)
            k += 1
    return positions, checked


def test_every_legal_step_round_trips_in_both_languages_with_and_without_a_view() -> None:
    positions, checked = round_trips(60)
    assert all(positions[p] == 60 for p in PRESETS)
    assert all(checked[p] > 1000 for p in PRESETS), checked


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("REMI_WIDE"), reason="the wide run: REMI_WIDE=1")
def test_wide_round_trip() -> None:
    positions, checked = round_trips(int(os.environ.get("REMI_WIDE_POSITIONS", "10000")))
    print(dict(positions), dict(checked))


def test_str_of_a_step_is_the_english_view_free_form() -> None:
    steps: list[Step] = [
        Draw(),
        TakeLastDiscard(),
        Rupere(2),
        TakeAtu(),
        MeldTiles((40, 49, 56)),
        LayOff(105, 3, End.HIGH),
        LayOff(48, 0),
        LayOff(51, 1, End.SET),
        SwapJoker(49, 2, 104),
        Discard(103),
        Close(0),
        AnnounceFewTiles(1),
        AnnounceAtu(2),
        DeclarePeTabla(0),
        OfferDoubles(0, 16),
        AcceptDoubles(2, 99, 0),
        DemandRedeal(3),
        Undo(),
    ]
    texts = [str(s) for s in steps]
    assert texts == [
        "draw",
        "take",
        "rupere 2",
        "take atu",
        "meld 6R 7R' 8R",
        "lay J' on 3 high",
        "lay 7R on 0",
        "lay 7G' on 1 set",
        "swap 7R' on 2 for J",
        "discard 13N'",
        "close 1R",
        "seat 1: announce",
        "seat 2: announce atu",
        "seat 0: pe tabla",
        "seat 0: offer 3R",
        "seat 2: accept seat 0 with 13G'",
        "seat 3: redeal",
        "undo",
    ]
    assert [parse_step(t) for t in texts] == steps
    ro = [format_step(s, None, "ro") for s in steps]
    assert ro[4] == "etalează 6R 7R' 8R" and ro[11] == "locul 1: anunță"
    assert ro[14] == "locul 0: oferă 3R"
    assert ro[15] == "locul 2: acceptă locul 0 cu 13G'"
    assert [parse_step(t, None, "ro") for t in ro] == steps


@pytest.mark.rule("DUBLE-03")
def test_the_doubles_steps_round_trip_from_every_seat() -> None:
    """An offer and its acceptances, as each seat lists them: written with the seat's
    view (no seat, the copy on its rack) and without (``seat 2: accept seat 0 with
    7N'``), in both languages, they read back as the same step."""
    from engine_deals import new_game

    game = new_game(
        variants.get("clasic"),
        players=4,
        racks={0: "5R 5R J", 1: "7N 7N J", 2: "12G 12G 3A", 3: "9A 9A"},
    )
    fives = tuple(i for i in game.state.rack(0) if i < 104)[:2]
    offers = [s for s in game.legal_steps(0) if isinstance(s, OfferDoubles)]
    assert {s.tile for s in offers} >= {fives[0]}
    game.apply(offers[0], seat=0)
    seen: Counter[str] = Counter()
    for seat in range(4):
        view = game.view(seat)
        listed = game.legal_steps(seat)
        assert listed == view.legal_steps()
        for step in listed:
            if not isinstance(step, OfferDoubles | AcceptDoubles):
                continue
            seen[step.kind] += 1
            for lang in LANGS:
                for v in (view, None):
                    text = format_step(step, v, lang)
                    assert parse_step(text, v, lang) == step, (text, step)
                    named = "seat" in text or "locul" in text
                    assert named == (v is None or step.kind == "accept_doubles")
    # seats 1 and 3 accept with a double of the offer's class (small); seat 2's 12G
    # is big, so it may only offer
    assert seen["accept_doubles"] >= 2 and seen["offer_doubles"] >= 2, seen
    sevens = [i for i in game.state.rack(1) if i < 104 and str(tile_of(i)) == "7N"]
    texts = {format_step(AcceptDoubles(1, i, 0), game.view(1), "ro") for i in sevens}
    assert texts == {"acceptă locul 0 cu 7N", "acceptă locul 0 cu 7N'"}


def test_the_short_form_uses_the_copy_the_turn_owes() -> None:
    """RUPE-01: holding two 5R after taking the last discard (the other 5R), ``meld 5R
    6R 7R`` is the taken copy, ``5R'`` the own one; a discard keeps the owed copy."""
    mine = [32, 40, 48, 98, 100, 102, 0, 10, 20, 60, 70, 80, 90, 13, 25]
    theirs = [33, 2, 4, 6, 9, 11, 15, 17, 19, 22, 27, 29, 35, 37]
    rest = [i for i in range(106) if i not in set(mine) | set(theirs)]
    game = Game.new(variants.get("clasic"), 2, deal=[*mine, *theirs, *rest])
    for step in (Discard(0), Draw(), Discard(33), TakeLastDiscard()):
        game.apply(step)
    view = game.view(0)
    assert parse_step("meld 5R 6R 7R", view) == MeldTiles((33, 40, 48))
    assert parse_step("meld 5R' 6R 7R", view) == MeldTiles((32, 40, 48))
    assert format_step(MeldTiles((33, 40, 48)), view) == "meld 5R 6R 7R"
    assert format_step(MeldTiles((32, 40, 48)), view) == "meld 5R' 6R 7R"
    assert format_step(MeldTiles((32, 40, 48))) == "meld 5R 6R 7R"  # without a view: by id
    assert parse_step("discard 5R", view) == Discard(32)
    assert parse_step("close 5R", view) == Close(33)
    # another seat's step is read without the short form
    other = game.view(1)
    assert format_step(MeldTiles((33, 40, 48)), other) == "meld 5R' 6R 7R"


@pytest.mark.parametrize(
    ("text", "view", "code", "column"),
    [
        ("", False, NotationErrorCode.EMPTY, None),
        ("x" * (MAX_STEP_TEXT + 1), False, NotationErrorCode.TOO_LONG, None),
        ("drwa", False, NotationErrorCode.UNKNOWN_COMMAND, 1),
        ("meld", False, NotationErrorCode.MISSING, 5),
        ("draw 5R", False, NotationErrorCode.EXTRA, 6),
        ("meld 5R 6X 7R", False, NotationErrorCode.BAD_TILE, 9),
        ("lay 5R on x", False, NotationErrorCode.BAD_NUMBER, 11),
        ("lay 5R on 99999999", False, NotationErrorCode.BAD_NUMBER, 11),
        ("lay 5R on 0 sideways", False, NotationErrorCode.BAD_END, 13),
        ("swap 5R on 0", False, NotationErrorCode.NEEDS_VIEW, 6),
        ("rupere 9R", False, NotationErrorCode.NEEDS_VIEW, 8),
        ("announce", False, NotationErrorCode.NEEDS_VIEW, 1),
        ("seat 1: draw", False, NotationErrorCode.BAD_SEAT, 9),
        ("meld J(=8R) 9R 10R", False, NotationErrorCode.NEEDS_VIEW, 6),
        ("seat 7: announce", True, NotationErrorCode.BAD_SEAT, 6),
        ("lay 5R on 9", True, NotationErrorCode.NO_MELD, 11),
        ("rupere 40", True, NotationErrorCode.ROW_POSITION, 8),
    ],
)
def test_bad_text_is_refused_with_a_code_and_the_column(
    text: str, view: bool, code: NotationErrorCode, column: int | None
) -> None:
    game = Game.new(variants.get("clasic"), 3, seed=1)
    with pytest.raises(NotationError) as info:
        parse_step(text, game.view(game.state.current) if view else None)
    err = info.value
    assert err.code is code
    assert err.details.get("column") == column
    en, ro = err.message("en"), err.message("ro")
    assert en and ro and en != ro
    if column is not None:
        assert f"(column {column})" in en and f"(coloana {column})" in ro


def test_a_misspelt_word_gets_the_closest_in_the_language_of_the_message() -> None:
    for typed, key in [("drwa", "draw"), ("mled", "meld"), ("arunc", None), ("discrad", "discard")]:
        try:
            parse_step(f"{typed} 5R", lang="ro")
        except NotationError as err:
            assert err.code is NotationErrorCode.UNKNOWN_COMMAND
            assert err.details["suggestion"] == key
            words = step_words("ro")
            assert f"Ai vrut să scrii {words[key]}?" in err.message("ro")  # type: ignore[index]
            assert f"Did you mean {step_words('en')[key]}?" in err.message("en")  # type: ignore[index]
        else:
            assert key is None  # "arunc" is a Romanian word for discard
    with pytest.raises(NotationError) as info:
        parse_step("xyzzy")
    assert info.value.details["suggestion"] is None
    assert "?" not in info.value.message("en")


def test_every_verb_has_a_word_in_every_language() -> None:
    for lang in LANGS:
        words = step_words(lang)
        assert set(words) == set(STEP_WORDS) and all(words.values())
    assert step_words("ro")["discard"] == "aruncă"


def test_the_language_and_the_types_are_checked() -> None:
    with pytest.raises(NotationError) as info:
        parse_step("draw", lang="fr")
    assert info.value.code is NotationErrorCode.UNKNOWN_LANGUAGE
    with pytest.raises(TypeError):
        parse_step(b"draw")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        format_step("draw")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        format_step(Draw(), lang=1)  # type: ignore[arg-type]


def test_a_third_language_writes_and_reads_its_words(monkeypatch: pytest.MonkeyPatch) -> None:
    """tests/locale/fr holds two words of the notation: a language is one .po file,
    what it lacks is written in English, and every language's words are read."""
    locale = Path(__file__).resolve().parent / "locale"
    monkeypatch.setenv(i18n.LOCALE_PATH_ENV, str(locale))
    i18n.reload()
    try:
        meld = MeldTiles((40, 49, 56))
        assert format_step(Draw(), lang="fr") == "piocher"
        assert format_step(meld, lang="fr") == "poser 6R 7R' 8R"
        assert format_step(Undo(), lang="fr") == "undo"  # not in the catalogue: English
        assert parse_step("piocher", lang="fr") == Draw() == parse_step("piocher")
        assert parse_step("poser 6R 7R' 8R", lang="fr") == meld
        with pytest.raises(NotationError) as info:
            parse_step("pioche", lang="fr")
        assert info.value.details["suggestion"] == "draw"
        assert "piocher?" in info.value.message("fr")
    finally:
        monkeypatch.delenv(i18n.LOCALE_PATH_ENV)
        i18n.reload()
    with pytest.raises(NotationError):
        format_step(Draw(), lang="fr")


@settings(max_examples=300)
@given(st.text(max_size=80))
def test_any_text_is_a_step_or_a_notation_error(text: str) -> None:
    game = Game.new(variants.get("online"), 2, seed=2)
    for view in (None, game.view(0)):
        try:
            step = parse_step(text, view)
        except NotationError as err:
            assert err.message("ro") and err.message("en")
        else:
            assert parse_step(format_step(step, view), view) == step


if __name__ == "__main__":  # the wide run, by hand
    wanted = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    started = time.perf_counter()
    found, steps = round_trips(wanted)
    print(
        f"positions {dict(found)}; steps x 2 languages x (view, no view) {dict(steps)}; "
        f"{time.perf_counter() - started:.0f} s"
    )
