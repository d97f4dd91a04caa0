"""The message catalogues (remi_rules._i18n): every code in every catalogue, the same
placeholders, Romanian plurals by the catalogue's rule, no language mixed into
another, the compiled .mo up to date, and a third language added by one .po file."""

from __future__ import annotations

import ast
import enum
import os
import string
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import remi_rules
from remi_rules import _i18n as i18n
from remi_rules import errors
from remi_rules.errors import (
    InvalidOpeningError,
    InvalidRulesetError,
    InvalidStateError,
    OpeningErrorCode,
    RemiError,
    RulesetErrorCode,
    StateErrorCode,
    all_codes,
)
from remi_rules.hints import NoteCode

ROOT = Path(__file__).resolve().parent.parent
TEST_LOCALE = Path(__file__).resolve().parent / "locale"
SHIPPED = ("en", "ro")


@pytest.fixture
def fresh_catalogues(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The catalogues read again before and after the test."""
    i18n.reload()
    yield
    monkeypatch.delenv(i18n.LOCALE_PATH_ENV, raising=False)
    i18n.reload()


def _names(template: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(template) if f is not None}


def _keys() -> list[str]:
    """Every key the code uses: error codes, notation errors, hint notes."""
    return [
        *(c.value for c in all_codes()),
        *(f"hint:{c.value}" for c in NoteCode),
    ]


# -- coverage ------------------------------------------------------------------------------


def test_the_shipped_languages_are_found() -> None:
    assert set(SHIPPED) <= set(i18n.languages())
    assert i18n.languages() == tuple(sorted(i18n.languages()))


@pytest.mark.parametrize("lang", SHIPPED)
def test_every_code_has_a_message_in_every_catalogue(lang: str) -> None:
    # A code added without an entry (say by MESSAGES.update, the old way) fails here,
    # naming it: port it into both .po files.
    missing = [key for key in _keys() if not i18n.has_text(key, lang)]
    assert not missing, f"no {lang} message for {missing}"


def test_the_catalogues_have_the_same_keys() -> None:
    state = i18n._get()
    assert set(state.keys("ro")) == set(state.keys("en"))
    assert len(state.keys("en")) > 400


@pytest.mark.parametrize("key", sorted(i18n.contexts()))
def test_placeholders_match(key: str) -> None:
    en = i18n.template(key, "en")
    for lang in SHIPPED:
        for n in (1, 2, 20):
            text = i18n.template(key, lang, n)
            if key.startswith("count:") and n == 1:
                assert _names(text) <= _names(en)  # "o dată" for 1
            else:
                assert _names(text) == _names(en), (lang, n)


def test_a_missing_code_fails_loudly() -> None:
    class Fresh(enum.StrEnum):
        NEW = "a_code_without_message"

    assert not i18n.has_text(Fresh.NEW, "ro")
    with pytest.raises(KeyError):
        i18n.template(Fresh.NEW, "ro")
    # At run time the message says the code rather than fail.
    assert "a_code_without_message" in RemiError(Fresh.NEW).message("ro")


# -- Romanian plurals ------------------------------------------------------------------------

RO_POINTS = {
    0: "0 puncte",
    1: "1 punct",
    2: "2 puncte",
    19: "19 puncte",
    20: "20 de puncte",
    21: "21 de puncte",
    100: "100 de puncte",
    101: "101 puncte",
    120: "120 de puncte",
}
RO_TILES = {
    0: "0 piese",
    1: "1 piesă",
    2: "2 piese",
    19: "19 piese",
    20: "20 de piese",
    21: "21 de piese",
    100: "100 de piese",
    101: "101 piese",
    120: "120 de piese",
}


@pytest.mark.parametrize(("n", "want"), RO_POINTS.items())
def test_romanian_points(n: int, want: str) -> None:
    assert i18n.counted("points", n, "ro") == want


@pytest.mark.parametrize(("n", "want"), RO_TILES.items())
def test_romanian_tiles(n: int, want: str) -> None:
    assert i18n.counted("tiles", n, "ro") == want


@pytest.mark.parametrize("n", RO_POINTS)
def test_romanian_plurals_in_messages(n: int) -> None:
    err = InvalidOpeningError(OpeningErrorCode.BELOW_MINIMUM, points=n, minimum=45)
    assert f"are {RO_POINTS[n]};" in err.message("ro")
    assert f"worth {n} point{'' if n == 1 else 's'};" in err.message("en")
    from remi_rules.cli.texts import tiles, tr

    assert tiles("ro", n) == RO_TILES[n]
    assert tr("ro", "match_target", n=n) == f"până la {RO_POINTS[n]}"


def test_english_plurals_and_the_count_of_times() -> None:
    assert [i18n.counted("tiles", n, "en") for n in (0, 1, 2)] == ["0 tiles", "1 tile", "2 tiles"]
    assert [i18n.counted("times", n, "ro") for n in (1, 2, 20)] == [
        "o dată",
        "de 2 ori",
        "de 20 de ori",
    ]
    assert i18n.counted("points", -5, "ro") == "-5 puncte"  # by the magnitude
    assert i18n.counted("points", 10**5000, "ro").endswith("de puncte")
    assert i18n.counted("points", "?", "ro") == "? puncte"


# -- no language inside another -------------------------------------------------------------


def test_sub_codes_are_written_in_the_message_language() -> None:
    err = InvalidStateError(StateErrorCode.BAD_VALUE, path="state.dealer", why="dealer")
    assert "cel care împarte" in err.message("ro")
    assert "dealer sits just before" in err.message("en")
    assert "dealer sits" not in err.message("ro")
    assert err.details == {"path": "state.dealer", "why": "dealer"}


def test_a_loader_refusal_has_no_english_in_romanian() -> None:
    from remi_rules import serde, variants
    from remi_rules.engine import Game

    game = Game.new(variants.get("clasic"), 2, seed=1)
    data = serde.dump_game(game)
    data["state"]["phase"] = "nope"
    with pytest.raises(InvalidStateError) as info:
        serde.load_game(data)
    err = info.value
    assert err.details["path"] == "state.phase"
    assert err.details["why"] == "not_one_of"
    ro = err.message("ro")
    assert "nu este una dintre valorile" in ro and "is not one of" not in ro


def test_a_nested_error_is_written_in_the_same_language() -> None:
    inner = InvalidRulesetError(RulesetErrorCode.UNKNOWN_KNOB, knob="k")
    err = InvalidStateError(StateErrorCode.BAD_RULESET, path="rules.k", why="ruleset", cause=inner)
    assert inner.message("ro") in err.message("ro")
    assert inner.message("en") in err.message("en")


def test_the_house_rules_file_reasons_are_sub_codes(tmp_path: Path) -> None:
    from remi_rules import serde

    with pytest.raises(InvalidRulesetError) as info:
        serde.loads_house_rules("{nope")
    assert info.value.details["reason"] == "not_valid"
    assert info.value.details["line"] == 1
    assert "nu este JSON valid (rândul 1" in info.value.message("ro")
    with pytest.raises(InvalidRulesetError) as info:
        serde.load_house_rules(tmp_path / "missing.json")
    assert info.value.details["reason"] == "not_found"
    assert "fișierul nu există" in info.value.message("ro")


def test_the_catalogues_check_passes() -> None:
    pytest.importorskip("babel")
    run = subprocess.run(
        [
            sys.executable,
            str(ROOT / "tools" / "catalogues.py"),
            "--check",
            str(ROOT / "src" / "remi_rules" / "locale"),
            str(TEST_LOCALE),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr


def test_the_check_catches_a_bad_catalogue(tmp_path: Path) -> None:
    pytest.importorskip("babel")
    sys.path.insert(0, str(ROOT / "tools"))
    import catalogues

    po = ROOT / "src" / "remi_rules" / "locale" / "ro" / "LC_MESSAGES" / "remi_rules.po"
    text = po.read_text(encoding="utf-8")
    bad = text.replace(
        'msgstr "Prima etalare are {points:points}; trebuie cel puțin {minimum}."',
        'msgstr "Prima etalare are {points:points}; the minimum is {minimum} {extra}."',
    )
    assert bad != text
    folder = tmp_path / "locale"
    (folder / "ro" / "LC_MESSAGES").mkdir(parents=True)
    (folder / "ro" / "LC_MESSAGES" / "remi_rules.po").write_text(bad, encoding="utf-8")
    problems = list(
        catalogues.catalogue_problems(folder / "ro" / "LC_MESSAGES" / "remi_rules.po", None)
    )
    assert any("remi_rules.mo: missing" in p for p in problems)
    assert any("below_minimum: placeholders" in p for p in problems)
    catalogues.compile_all([folder])
    stale = bad.replace("Prima etalare", "Prima etalare!")
    (folder / "ro" / "LC_MESSAGES" / "remi_rules.po").write_text(stale, encoding="utf-8")
    problems = list(
        catalogues.catalogue_problems(folder / "ro" / "LC_MESSAGES" / "remi_rules.po", None)
    )
    assert any("stale" in p for p in problems)


def test_update_writes_a_new_step_verb_and_appends_what_translators_lack(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A new step class's verb: --update appends its English entry to the reference
    and an untranslated, fuzzy one to the other catalogues (which --check then
    refuses until it is translated); everything already there is left byte for
    byte, and a second --update adds nothing."""
    pytest.importorskip("babel")
    sys.path.insert(0, str(ROOT / "tools"))
    import shutil

    import catalogues

    folder = tmp_path / "locale"
    shutil.copytree(ROOT / "src" / "remi_rules" / "locale", folder)
    en, ro = (folder / lang / "LC_MESSAGES" / "remi_rules.po" for lang in ("en", "ro"))
    before = {path: path.read_text(encoding="utf-8") for path in (en, ro)}
    words = catalogues._step_words()
    monkeypatch.setattr(catalogues, "PACKAGE_LOCALE", folder)
    monkeypatch.setattr(catalogues, "_step_words", lambda: [*words, "knock_twice"])
    assert any("word:knock_twice" in p for p in catalogues.step_word_problems(catalogues.read(en)))
    catalogues.update([folder])
    for path, text in before.items():
        assert path.read_text(encoding="utf-8").startswith(text)
    assert en.read_text(encoding="utf-8")[len(before[en]) :] == (
        '\nmsgctxt "word:knock_twice"\nmsgid "knock twice"\nmsgstr "knock twice"\n'
    )
    assert ro.read_text(encoding="utf-8")[len(before[ro]) :] == (
        '\n#, fuzzy\nmsgctxt "word:knock_twice"\nmsgid "knock twice"\nmsgstr ""\n'
    )
    assert not list(catalogues.step_word_problems(catalogues.read(en)))
    assert any(
        "word:knock_twice" in p for p in catalogues.catalogue_problems(ro, catalogues.read(en))
    )
    grown = {path: path.read_text(encoding="utf-8") for path in (en, ro)}
    catalogues.update([folder])
    assert {path: path.read_text(encoding="utf-8") for path in (en, ro)} == grown


# -- a third language -----------------------------------------------------------------------


def test_a_third_language_is_one_po_file(
    fresh_catalogues: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert "fr" not in i18n.languages()
    with pytest.raises(ValueError):
        RemiError(OpeningErrorCode.BELOW_MINIMUM).message("fr")
    monkeypatch.setenv(i18n.LOCALE_PATH_ENV, str(TEST_LOCALE))
    i18n.reload()
    assert i18n.languages() == ("en", "fr", "ro")
    err = InvalidOpeningError(OpeningErrorCode.BELOW_MINIMUM, points=1, minimum=45)
    assert err.message("fr") == "La première pose vaut 1 point ; il en faut au moins 45."
    err = InvalidOpeningError(OpeningErrorCode.BELOW_MINIMUM, points=30, minimum=45)
    assert "30 points" in err.message("fr")
    # what the catalogue lacks falls back to English
    assert RemiError(OpeningErrorCode.NO_MELDS).message("fr") == RemiError(
        OpeningErrorCode.NO_MELDS
    ).message("en")


def test_the_cli_offers_the_languages_present(fresh_catalogues: None) -> None:
    env = {**os.environ, i18n.LOCALE_PATH_ENV: str(TEST_LOCALE), "PYTHONPATH": str(ROOT / "src")}
    args = [sys.executable, "-m", "remi_rules.cli", "check", "--lang", "fr", "3R 4R 5R"]
    run = subprocess.run(args, capture_output=True, text=True, env=env, check=False)
    assert run.returncode == 0, run.stderr
    env.pop(i18n.LOCALE_PATH_ENV)
    run = subprocess.run(args, capture_output=True, text=True, env=env, check=False)
    assert run.returncode == 2 and "invalid choice" in run.stderr


# -- lazy loading ---------------------------------------------------------------------------


def test_import_does_not_read_the_catalogues() -> None:
    code = (
        "import remi_rules, remi_rules._i18n as i, sys; "
        "assert i._state is None, 'read on import'; "
        "assert 'babel' not in sys.modules; print('ok')"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=False
    )
    assert run.returncode == 0 and "ok" in run.stdout, run.stderr


def test_the_catalogues_are_package_data() -> None:
    base = Path(remi_rules.__file__).parent / "locale"
    for lang in SHIPPED:
        assert (base / lang / "LC_MESSAGES" / "remi_rules.po").is_file()
        assert (base / lang / "LC_MESSAGES" / "remi_rules.mo").is_file()
    assert errors.all_codes()  # the enums stay the public contract


def test_the_check_catches_english_left_in_a_romanian_message() -> None:
    pytest.importorskip("babel")
    sys.path.insert(0, str(ROOT / "tools"))
    import catalogues

    base = ROOT / "src" / "remi_rules" / "locale"
    cats = {
        lang: catalogues.read(base / lang / "LC_MESSAGES" / "remi_rules.po") for lang in SHIPPED
    }
    assert list(catalogues.mixed_language_problems(cats)) == []
    leaked = cats["ro"].get("At {path}: impossible value ({why}).", "state_bad_value")
    assert leaked is not None
    leaked.string = "La {path}: valoare imposibilă (the dealer sits just before the starter)."
    problems = list(catalogues.mixed_language_problems(cats))
    assert any(p.startswith("ro: state_bad_value") and "dealer" in p for p in problems)


# -- the sub-codes the library raises ---------------------------------------------------------

_REFUSERS = frozenset({"_fail", "_bad", "_refuse", "refuse", "_NotJson"})


def _called(node: ast.Call) -> str:
    func = node.func
    return func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")


def _sub_codes_in_source() -> Iterator[tuple[str, str, ast.expr]]:
    """``(where, key, value)`` for each sub-code detail the library's refusals pass:
    the keywords of :data:`remi_rules._i18n.SUBCODE_KEYS` in a call of an error class
    or of a refusal helper (``_NotJson``'s first argument is its ``why``)."""
    package = Path(remi_rules.__file__).resolve().parent
    for path in sorted(package.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = _called(node)
            if not (name.endswith("Error") or name in _REFUSERS):
                continue
            where = f"{path.relative_to(package)}:{node.lineno}"
            if name == "_NotJson" and node.args:
                yield where, "why", node.args[0]
            for keyword in node.keywords:
                if keyword.arg is not None and keyword.arg in i18n.SUBCODE_KEYS:
                    yield where, keyword.arg, keyword.value


def test_every_sub_code_the_library_raises_has_an_entry() -> None:
    # A detail written as English prose (why=f"...", why="the tiles are ...") or a new
    # sub-code without its catalogue entries fails here: give it a sub-code and a
    # ``why:<sub>`` entry in every catalogue.
    found = list(_sub_codes_in_source())
    assert len(found) > 100
    problems = []
    for where, key, value in found:
        if isinstance(value, ast.JoinedStr):
            problems.append(f"{where}: {key}= is an f-string")
        elif isinstance(value, ast.Constant):
            if not isinstance(value.value, str) or not value.value.isidentifier():
                problems.append(f"{where}: {key}={value.value!r} is not a sub-code")
            elif not all(i18n.has_text(f"{key}:{value.value}", lang) for lang in SHIPPED):
                problems.append(f"{where}: no {key}:{value.value} entry in {SHIPPED}")
    assert not problems, problems
