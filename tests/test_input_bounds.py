"""Every parser bounds its input before converting it, and every message formats any
value: tile notation past MAX_TOKEN_LENGTH, digit strings around CPython's 4,300-digit
limit, house-rules files with huge numbers (JSON and TOML), non-finite floats, deep
nesting and huge documents, and error details that cannot be written with str()."""

from __future__ import annotations

import itertools
import json
import math
import sys
from pathlib import Path

import pytest

from remi_rules import (
    JOKER,
    InvalidRulesetError,
    InvalidTileError,
    RemiError,
    RulesetErrorCode,
    Tile,
    TileErrorCode,
    TileParseError,
    analyze_meld,
    arrange_meld,
    could_become_meld,
    is_valid_meld,
    parse_tiles,
    serde,
    tiles_str,
    variants,
)
from remi_rules.cli import main
from remi_rules.errors import MAX_DETAIL_CHARS, safe_repr, safe_text
from remi_rules.serde import MAX_HOUSE_RULES_CHARS, MAX_INT_DIGITS, MAX_NESTING
from remi_rules.tiles import MAX_TOKEN_LENGTH

CLASIC = variants.get("clasic")
LIMIT = sys.get_int_max_str_digits() or 4300


def _messages_work(err: RemiError) -> None:
    for text in (str(err), err.message("ro"), err.message("en"), repr(err)):
        assert text and len(text) < 1000


# -- tile notation ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "length", [*range(1, MAX_TOKEN_LENGTH + 4), LIMIT - 1, LIMIT, LIMIT + 1, 5000]
)
def test_digit_tokens_of_every_length_are_refused_with_a_code(length: int) -> None:
    token = "9" * (length - 1) + "R"
    if length == 2:
        assert Tile.parse(token) == Tile.parse("9R")
        return
    expected = (
        TileErrorCode.TOKEN_TOO_LONG
        if length > MAX_TOKEN_LENGTH
        else TileErrorCode.BAD_FORMAT
        if length == 1
        else TileErrorCode.RANK_OUT_OF_RANGE
    )
    with pytest.raises(TileParseError) as info:
        Tile.parse(token)
    assert info.value.code is expected
    _messages_work(info.value)
    with pytest.raises(TileParseError) as listed:
        parse_tiles("7R " + token)
    assert listed.value.code is expected
    assert listed.value.details["position"] == 2
    _messages_work(listed.value)
    for fn in (analyze_meld, is_valid_meld, arrange_meld, could_become_meld):
        with pytest.raises(TileParseError) as meld_info:
            fn("7R 8R " + token, CLASIC)
        assert meld_info.value.code is expected


def test_the_longest_tiles_are_within_the_bound() -> None:
    assert (
        max(len(str(Tile(fixed_as=t))) for t in parse_tiles("13R 13G 13A 13N")) <= MAX_TOKEN_LENGTH
    )
    assert Tile.parse("J(=13N)").is_fixed_joker


@pytest.mark.parametrize(
    "token", ["J(=" + "1" * 20 + "R)", "x" * 17, "7" * 17, "1" * 5000 + "R", "ă" * 100_000]
)
def test_long_tokens_of_any_shape_are_token_too_long(token: str) -> None:
    with pytest.raises(TileParseError) as info:
        Tile.parse(token)
    assert info.value.code is TileErrorCode.TOKEN_TOO_LONG
    assert info.value.details["length"] == len(token)
    assert info.value.details["limit"] == MAX_TOKEN_LENGTH
    assert len(str(info.value)) < 300
    assert ("…" in info.value.message("ro")) == (len(token) > MAX_DETAIL_CHARS)


def test_check_command_reports_a_huge_token(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["check", "1" * (LIMIT + 1) + "R", "7R 8R 9R", "--lang", "ro"])
    out = capsys.readouterr().out
    assert code == 1
    assert "[token_too_long]" in out and "este prea lung" in out
    assert "7R 8R 9R: " in out


def test_tiles_str_refuses_what_is_not_tiles() -> None:
    assert tiles_str(parse_tiles("7R J")) == "7R J"
    for bad in ("7R", [1, 2], None, 5, [Tile.parse("7R"), "8R"]):
        with pytest.raises(TypeError):
            tiles_str(bad)  # type: ignore[arg-type]


def test_endless_iterables_are_read_only_up_to_the_bound() -> None:
    assert arrange_meld(itertools.repeat(JOKER), CLASIC) == ()
    assert could_become_meld(itertools.repeat(Tile.parse("7R")), CLASIC) is False
    assert could_become_meld(iter(parse_tiles("7R 8R")), CLASIC) is True


# -- house-rules files -----------------------------------------------------------------------------


def _json_with(value: str) -> str:
    return '{"base": "clasic", "overrides": {"closing_bonus": ' + value + "}}"


def _toml_with(value: str) -> str:
    return f'base = "clasic"\n[overrides]\nclosing_bonus = {value}\n'


def _code_of(text: str, fmt: str) -> RulesetErrorCode:
    with pytest.raises(InvalidRulesetError) as info:
        serde.loads_house_rules(text, fmt)  # type: ignore[arg-type]
    _messages_work(info.value)
    return info.value.code


@pytest.mark.parametrize("fmt", ["json", "toml"])
@pytest.mark.parametrize(
    "digits",
    [
        MAX_INT_DIGITS - 1,
        MAX_INT_DIGITS,
        MAX_INT_DIGITS + 1,
        LIMIT - 1,
        LIMIT,
        LIMIT + 1,
        5000,
        60_000,
    ],
)
@pytest.mark.parametrize("sign", ["", "-"])
def test_numbers_around_the_digit_bounds(fmt: str, digits: int, sign: str) -> None:
    number = sign + "9" * digits
    text = _json_with(number) if fmt == "json" else _toml_with(number)
    if len(text) > MAX_HOUSE_RULES_CHARS:
        assert _code_of(text, fmt) is RulesetErrorCode.FILE_TOO_LARGE
    elif digits > MAX_INT_DIGITS:
        assert _code_of(text, fmt) is RulesetErrorCode.NUMBER_TOO_LONG
    else:  # converted, then refused by the knob's range, the value shortened
        with pytest.raises(InvalidRulesetError) as info:
            serde.loads_house_rules(text, fmt)  # type: ignore[arg-type]
        assert info.value.code is RulesetErrorCode.OUT_OF_RANGE
        assert len(info.value.message("ro")) < 300


def test_number_too_long_names_the_digits_and_the_limit() -> None:
    with pytest.raises(InvalidRulesetError) as info:
        serde.loads_house_rules(_json_with("9" * 5000))
    assert info.value.details == {"knob": None, "digits": 5000, "limit": MAX_INT_DIGITS}
    assert "5000" in str(info.value) and "100 de cifre" in info.value.message("ro")
    with pytest.raises(InvalidRulesetError) as toml_info:
        serde.loads_house_rules(_toml_with("9" * 5000), "toml")
    assert toml_info.value.details["digits"] == 5000


@pytest.mark.parametrize("number", ["0x" + "f" * 84, "0o" + "7" * 112, "0b" + "1" * 333])
def test_toml_non_decimal_ints_are_held_to_the_same_magnitude(number: str) -> None:
    assert _code_of(_toml_with(number), "toml") is RulesetErrorCode.NUMBER_TOO_LONG


@pytest.mark.parametrize(
    "value", ["1e309", "-1e309", "NaN", "Infinity", "-Infinity", "2.5", "1" * 5000 + ".5"]
)
def test_json_floats_are_the_wrong_type(value: str) -> None:
    assert _code_of(_json_with(value), "json") is RulesetErrorCode.WRONG_TYPE


@pytest.mark.parametrize("value", ["inf", "-inf", "nan", "1e309", "2.5"])
def test_toml_floats_are_the_wrong_type(value: str) -> None:
    assert _code_of(_toml_with(value), "toml") is RulesetErrorCode.WRONG_TYPE


# The document nests 2 levels around the override's value (the table, overrides).
@pytest.mark.parametrize("fmt", ["json", "toml"])
@pytest.mark.parametrize("depth", [MAX_NESTING - 3, MAX_NESTING - 2, MAX_NESTING - 1, 1000, 30_000])
def test_deep_nesting_is_too_deep(fmt: str, depth: int) -> None:
    inner = "[" * depth + "1" + "]" * depth
    text = (
        '{"overrides": {"hand_sizes": ' + inner + "}}"
        if fmt == "json"
        else f"[overrides]\nhand_sizes = {inner}\n"
    )
    code = _code_of(text, fmt)
    if depth + 2 <= MAX_NESTING:
        assert code is RulesetErrorCode.WRONG_TYPE
    else:
        assert code is RulesetErrorCode.TOO_DEEP


@pytest.mark.parametrize("fmt", ["json", "toml"])
def test_unclosed_deep_nesting_is_refused(fmt: str) -> None:
    text = "[" * 30_000 if fmt == "json" else "a = " + "[" * 30_000
    assert _code_of(text, fmt) in (RulesetErrorCode.TOO_DEEP, RulesetErrorCode.BAD_FILE)


@pytest.mark.parametrize("fmt", ["json", "toml"])
@pytest.mark.parametrize("size", [MAX_HOUSE_RULES_CHARS, MAX_HOUSE_RULES_CHARS + 1, 10**6])
def test_document_size_bound(fmt: str, size: int) -> None:
    head = '{"base": "clasic"' if fmt == "json" else 'base = "clasic"\n#'
    tail = "}" if fmt == "json" else "\n"
    text = head + " " * (size - len(head) - len(tail)) + tail
    assert len(text) == size
    if size <= MAX_HOUSE_RULES_CHARS:
        assert serde.loads_house_rules(text, fmt) == CLASIC  # type: ignore[arg-type]
    else:
        assert _code_of(text, fmt) is RulesetErrorCode.FILE_TOO_LARGE


def test_load_house_rules_reads_no_more_than_the_bound(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    path.write_text('{"base": "clasic"' + " " * (3 * MAX_HOUSE_RULES_CHARS) + "}", encoding="utf-8")
    with pytest.raises(InvalidRulesetError) as info:
        serde.load_house_rules(path)
    assert info.value.code is RulesetErrorCode.FILE_TOO_LARGE
    huge = tmp_path / "huge.toml"
    huge.write_text(_toml_with("9" * 5000), encoding="utf-8")
    with pytest.raises(InvalidRulesetError) as toml_info:
        serde.load_house_rules(huge)
    assert toml_info.value.code is RulesetErrorCode.NUMBER_TOO_LONG


def test_load_house_rules_refuses_a_name_with_a_nul() -> None:
    with pytest.raises(InvalidRulesetError) as info:
        serde.load_house_rules("house\x00.json")
    assert info.value.code is RulesetErrorCode.BAD_FILE


def test_check_command_with_a_huge_number_in_its_rules_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name, text in (("h.json", _json_with("9" * 5000)), ("h.toml", _toml_with("9" * 5000))):
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        assert main(["check", "7R 8R 9R", "--rules", str(path)]) == 2
        captured = capsys.readouterr()
        assert captured.out == ""
        assert "a number of 5000 digits" in captured.err, captured.err


def test_unknown_format_has_a_code_and_a_wrong_type_is_a_type_error() -> None:
    assert _code_of("{}", "yaml") is RulesetErrorCode.UNKNOWN_FORMAT
    with pytest.raises(InvalidRulesetError) as info:
        serde.dumps_house_rules(CLASIC, format="yaml")  # type: ignore[arg-type]
    assert info.value.code is RulesetErrorCode.UNKNOWN_FORMAT
    with pytest.raises(TypeError):
        serde.loads_house_rules("{}", None)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "value",
    [10**5000, -(10**5000), "x" * 100_000, math.nan, float("inf")],
    ids=["10**5000", "-10**5000", "long_str", "nan", "inf"],
)
def test_dict_forms_with_values_no_file_can_hold(value: object) -> None:
    for data in (
        {"base": value},
        {"overrides": {"closing_bonus": value}},
        {value if not isinstance(value, float) else "k": 1},
    ):
        try:
            serde.house_rules_from_dict(data)  # type: ignore[arg-type]
        except (InvalidRulesetError, TypeError) as err:
            if isinstance(err, RemiError):
                _messages_work(err)
        else:  # pragma: no cover - every one of these is refused
            raise AssertionError(data)


def test_json_duplicate_keys_keep_the_last() -> None:
    text = (
        '{"base": "online", "base": "clasic", '
        '"overrides": {"closing_bonus": 1, "closing_bonus": 50}}'
    )
    assert serde.loads_house_rules(text).closing_bonus == 50


# -- messages of any value -------------------------------------------------------------------------


class _Hostile:
    def __str__(self) -> str:
        raise RuntimeError("no str")

    def __format__(self, spec: str) -> str:
        raise RuntimeError("no format")

    def __repr__(self) -> str:
        raise RuntimeError("no repr")


@pytest.mark.parametrize(
    "value",
    [
        10**5000,
        -(10**5000),
        10 ** (LIMIT - 1),
        2**200,
        "1" * 5000 + "R",
        "x" * 10**6,
        "a\nb\x00c",
        math.nan,
        _Hostile(),
        [10**5000],
        {"k": 10**5000},
        [[[[]]]],
    ],
    ids=lambda v: type(v).__name__,
)
def test_any_detail_value_formats(value: object) -> None:
    err = InvalidTileError(TileErrorCode.BAD_FORMAT, text=value)
    for text in (str(err), err.message("ro"), err.message("en"), repr(err)):
        assert len(text) < 400
    shown = safe_text(value)
    assert len(shown) <= MAX_DETAIL_CHARS and shown.isprintable()
    assert len(safe_repr(value)) <= MAX_DETAIL_CHARS


def test_short_values_are_written_as_before() -> None:
    err = InvalidTileError(TileErrorCode.ID_OUT_OF_RANGE, id=106)
    assert str(err) == "[id_out_of_range] There is no tile id 106: the set's ids are 0-105."
    assert repr(err) == "InvalidTileError(id_out_of_range, {'id': 106})"
    assert safe_text(Tile.parse("7R")) == "7R" and safe_text(None) == "None"


def test_huge_ints_are_written_by_their_magnitude() -> None:
    assert safe_text(10**5000) == "1.000e+5000"
    assert safe_text(-(10**400) * 3) == "-3.000e+400"
    assert safe_text(10**5000 - 1) == "1.000e+5000"
    assert safe_text(10**50) == str(10**50)
    err = InvalidTileError(TileErrorCode.ID_OUT_OF_RANGE, id=10**5000)
    assert "1.000e+5000" in err.message("ro")


def test_long_values_are_shortened_around_an_ellipsis() -> None:
    text = safe_text("1" * 5000 + "R")
    assert len(text) == MAX_DETAIL_CHARS and "…" in text and text.endswith("R")
    reason = InvalidRulesetError(RulesetErrorCode.BAD_FILE, reason="y" * 200)
    assert "y" * 200 in str(reason)  # an explanation may be longer (MAX_REASON_CHARS)


def test_an_error_with_an_unknown_code_still_formats() -> None:
    for code in ("", None, 10**5000, _Hostile()):
        err = RemiError(code)  # type: ignore[arg-type]
        assert str(err) and err.message("ro") and repr(err)


def test_a_house_rules_error_keeps_its_json_message() -> None:
    with pytest.raises(InvalidRulesetError) as info:
        serde.loads_house_rules('{"base": ')
    assert info.value.code is RulesetErrorCode.BAD_FILE
    assert "not valid JSON" in str(info.value)
    json.loads("{}")  # the module's own json is left alone
