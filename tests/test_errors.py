"""Errors: every code has a message in every catalogue, every error class is a RemiError
and a ValueError, errors pickle, and ``str(err)`` names the code.

The code enums are discovered (every StrEnum defined in ``remi_rules.errors``), so a new
code or a new code enum is checked without touching this file.
"""

from __future__ import annotations

import enum
import inspect
import pickle
import string
from typing import Any

import attrs
import pytest

import remi_rules
from remi_rules import _i18n as i18n
from remi_rules import errors, variants
from remi_rules.errors import (
    ClosingErrorCode,
    EngineArgumentError,
    EngineErrorCode,
    HintError,
    HintErrorCode,
    IllegalStepError,
    InvalidClosingError,
    InvalidHandError,
    InvalidLayoffError,
    InvalidMeldError,
    InvalidOpeningError,
    InvalidRecordTextError,
    InvalidRulesetError,
    InvalidScoringInputError,
    InvalidSimulationError,
    InvalidStateError,
    InvalidSwapError,
    InvalidTakeError,
    InvalidTileError,
    LayoffErrorCode,
    MeldErrorCode,
    NotationError,
    NotationErrorCode,
    OpeningErrorCode,
    RecordTextErrorCode,
    RemiError,
    RulesetErrorCode,
    RulesetTypeError,
    ScoringErrorCode,
    SimErrorCode,
    SimulationFailedError,
    SolverErrorCode,
    StateErrorCode,
    StepErrorCode,
    SwapErrorCode,
    TakeErrorCode,
    TileErrorCode,
    TileParseError,
    UnknownVariantError,
    VariantErrorCode,
    all_codes,
)

LANGS = ("ro", "en")

CODE_ENUMS: tuple[type[enum.StrEnum], ...] = tuple(
    obj
    for name, obj in vars(errors).items()
    if name in errors.__all__ and inspect.isclass(obj) and issubclass(obj, enum.StrEnum)
)
ALL_CODES: tuple[enum.StrEnum, ...] = tuple(code for enum_ in CODE_ENUMS for code in enum_)

ERROR_CLASSES: tuple[type[RemiError], ...] = tuple(
    obj
    for obj in vars(errors).values()
    if inspect.isclass(obj)
    and issubclass(obj, RemiError)
    and obj is not RemiError
    and obj.__module__ == errors.__name__
)

# The error class that carries each code enum; a new enum must be added here.
CLASS_OF_ENUM: dict[type[enum.StrEnum], tuple[type[RemiError], ...]] = {
    TileErrorCode: (InvalidTileError, TileParseError),
    MeldErrorCode: (InvalidMeldError,),
    OpeningErrorCode: (InvalidOpeningError,),
    ClosingErrorCode: (InvalidClosingError,),
    LayoffErrorCode: (InvalidLayoffError,),
    SwapErrorCode: (InvalidSwapError,),
    TakeErrorCode: (InvalidTakeError,),
    ScoringErrorCode: (InvalidScoringInputError,),
    RulesetErrorCode: (InvalidRulesetError, RulesetTypeError),
    VariantErrorCode: (UnknownVariantError,),
    StepErrorCode: (IllegalStepError,),
    StateErrorCode: (InvalidStateError,),
    SolverErrorCode: (InvalidHandError,),
    HintErrorCode: (HintError,),
    EngineErrorCode: (EngineArgumentError,),
    SimErrorCode: (InvalidSimulationError, SimulationFailedError),
    NotationErrorCode: (NotationError,),
    RecordTextErrorCode: (InvalidRecordTextError,),
}

CLASS_CODE_CASES = [
    pytest.param(cls, code, id=f"{cls.__name__}-{code.value}")
    for enum_ in CODE_ENUMS
    for cls in CLASS_OF_ENUM.get(enum_, (RemiError,))
    for code in enum_
]


def _fields(template: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(template) if field is not None}


def _templates(code: enum.StrEnum) -> tuple[str, ...]:
    """The code's template in each language of LANGS (KeyError for a code without)."""
    return tuple(i18n.template(code.value, lang) for lang in LANGS)


# -- discovery -----------------------------------------------------------------------------


def test_the_known_code_enums_are_discovered() -> None:
    assert set(CODE_ENUMS) >= {TileErrorCode, MeldErrorCode, RulesetErrorCode, VariantErrorCode}


def test_every_code_enum_has_an_error_class() -> None:
    assert set(CODE_ENUMS) == set(CLASS_OF_ENUM)


def test_every_code_enum_is_exported() -> None:
    for enum_ in CODE_ENUMS:
        assert enum_.__name__ in remi_rules.__all__
        assert getattr(remi_rules, enum_.__name__) is enum_


def test_every_error_class_is_exported() -> None:
    classes: tuple[type[RemiError], ...] = (RemiError, *ERROR_CLASSES)
    for cls in classes:
        assert cls.__name__ in remi_rules.__all__
        assert getattr(remi_rules, cls.__name__) is cls


def test_code_values_are_unique_across_enums() -> None:
    # StrEnum members with the same value are equal and hash alike, and the value is the
    # catalogue key: two enums sharing a value would silently share one message.
    values = [code.value for code in ALL_CODES]
    assert len(values) == len(set(values))


def test_the_catalogues_cover_every_code() -> None:
    missing = [(c.value, lang) for c in ALL_CODES for lang in LANGS if not i18n.has_text(c, lang)]
    assert not missing


def test_all_codes() -> None:
    codes = all_codes()
    assert isinstance(codes, tuple)
    assert len(codes) == len(set(codes)) == len(ALL_CODES)
    assert set(codes) == set(ALL_CODES)
    assert all_codes() == codes  # stable order


# -- messages ------------------------------------------------------------------------------


@pytest.mark.parametrize("code", ALL_CODES, ids=lambda c: f"{type(c).__name__}.{c.name}")
def test_code_has_two_messages(code: enum.StrEnum) -> None:
    ro, en = _templates(code)
    assert isinstance(ro, str) and ro.strip()
    assert isinstance(en, str) and en.strip()
    assert ro != en
    # the two languages use the same placeholders
    assert _fields(ro) == _fields(en)


@pytest.mark.parametrize("code", ALL_CODES, ids=lambda c: f"{type(c).__name__}.{c.name}")
def test_message_formats_with_empty_details(code: enum.StrEnum) -> None:
    err = RemiError(code)
    texts = [err.message(lang) for lang in LANGS]
    for text in texts:
        assert text.strip()
        assert "{" not in text and "}" not in text
    assert texts[0] != texts[1]


@pytest.mark.parametrize(("cls", "code"), CLASS_CODE_CASES)
def test_message_formats_in_its_own_class(cls: type[RemiError], code: enum.StrEnum) -> None:
    empty = cls(code)
    for lang in LANGS:
        assert empty.message(lang).strip()
    # with every placeholder filled, the values appear in both languages
    fields = _fields(_templates(code)[1])
    full = cls(code, **{f: f"<{f}>" for f in fields})
    for lang in LANGS:
        text = full.message(lang)
        for f in fields:
            assert f"<{f}>" in text, (lang, f)


@pytest.mark.parametrize(("cls", "code"), CLASS_CODE_CASES)
def test_str_contains_the_code(cls: type[RemiError], code: enum.StrEnum) -> None:
    err = cls(code)
    assert code.value in str(err)
    assert cls.__name__ in repr(err)


@pytest.mark.parametrize("cls", (RemiError, *ERROR_CLASSES), ids=lambda c: c.__name__)
@pytest.mark.parametrize("lang", ["xx", "", "fr", "english"])
def test_unknown_language_is_a_value_error(cls: type[RemiError], lang: str) -> None:
    codes = [c for e, classes in CLASS_OF_ENUM.items() if cls in classes for c in e]
    err = cls(codes[0]) if codes else cls(RulesetErrorCode.WRONG_TYPE)
    with pytest.raises(ValueError):
        err.message(lang)


def test_default_language_is_english() -> None:
    err = RemiError(RulesetErrorCode.UNKNOWN_KNOB, knob="k")
    assert err.message() == err.message("en")


# -- classes -------------------------------------------------------------------------------


def test_the_known_error_classes_are_discovered() -> None:
    assert set(ERROR_CLASSES) >= {
        InvalidTileError,
        TileParseError,
        InvalidMeldError,
        InvalidRulesetError,
        RulesetTypeError,
        UnknownVariantError,
    }


@pytest.mark.parametrize("cls", ERROR_CLASSES, ids=lambda c: c.__name__)
def test_error_class_is_a_remi_error_and_a_value_error(cls: type[RemiError]) -> None:
    assert issubclass(cls, RemiError)
    assert issubclass(cls, ValueError)
    assert issubclass(cls, Exception)


def test_ruleset_type_error_is_also_a_type_error() -> None:
    assert issubclass(RulesetTypeError, InvalidRulesetError)
    assert issubclass(RulesetTypeError, TypeError)


def test_invalid_ruleset_error_knob() -> None:
    assert InvalidRulesetError(RulesetErrorCode.OUT_OF_RANGE, knob="closing_bonus").knob == (
        "closing_bonus"
    )
    assert InvalidRulesetError(RulesetErrorCode.BAD_FILE, reason="x").knob is None


# -- pickling ------------------------------------------------------------------------------


def _roundtrip(err: RemiError) -> RemiError:
    return pickle.loads(pickle.dumps(err))  # type: ignore[no-any-return]


def _assert_same(a: RemiError, b: RemiError) -> None:
    assert type(b) is type(a)
    assert b.code is a.code
    assert dict(b.details) == dict(a.details)
    assert str(b) == str(a)
    for lang in LANGS:
        assert b.message(lang) == a.message(lang)


@pytest.mark.parametrize(("cls", "code"), CLASS_CODE_CASES)
def test_pickle_roundtrip(cls: type[RemiError], code: enum.StrEnum) -> None:
    details: dict[str, Any] = {"knob": "closing_bonus", "value": -1, "items": [1, "a", None]}
    for err in (cls(code), cls(code, **details)):
        back = _roundtrip(err)
        _assert_same(err, back)
        if isinstance(err, InvalidRulesetError):
            assert back.knob == err.knob  # type: ignore[attr-defined]


def test_pickle_deferred_meld_error() -> None:
    tiles = remi_rules.parse_tiles("1R 5G 9A")
    err = InvalidMeldError.deferred(
        tiles, lambda: (MeldErrorCode.MIXED_COLOURS, {"tile": tiles[1], "position": 2})
    )
    back = _roundtrip(err)
    assert type(back) is InvalidMeldError
    assert back.code is MeldErrorCode.MIXED_COLOURS
    assert dict(back.details) == {"tiles": tiles, "tile": tiles[1], "position": 2}
    assert str(back) == str(err)


def _raised(fn: Any) -> RemiError:
    with pytest.raises(RemiError) as info:
        fn()
    return info.value


@pytest.mark.parametrize(
    "make",
    [
        pytest.param(lambda: remi_rules.Tile.parse("14R"), id="tile-parse"),
        pytest.param(lambda: remi_rules.parse_tiles("1R 2R X"), id="parse-tiles"),
        pytest.param(lambda: remi_rules.tile_of(106), id="tile-of"),
        pytest.param(
            lambda: remi_rules.analyze_meld("1R 5G 9A", variants.get("clasic")), id="meld"
        ),
        pytest.param(lambda: variants.get("nope"), id="variant"),
        pytest.param(
            lambda: attrs.evolve(variants.get("clasic"), closing_bonus=-1), id="ruleset-range"
        ),
        pytest.param(
            lambda: attrs.evolve(variants.get("clasic"), closing_bonus="1"),  # type: ignore[arg-type]
            id="ruleset-type",
        ),
    ],
)
def test_raised_errors_pickle_and_name_their_code(make: Any) -> None:
    err = _raised(make)
    assert isinstance(err, ValueError)
    assert err.code.value in str(err)
    assert type(err.code) in CODE_ENUMS
    for lang in LANGS:
        assert err.message(lang).strip()
    _assert_same(err, _roundtrip(err))
