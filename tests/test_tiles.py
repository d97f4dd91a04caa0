"""Tiles (TILES-01, TILES-03): the value type, its notation, the 106 physical tiles,
fixed jokers (JOLY-05, EX-45), and the error codes with their two languages."""

from __future__ import annotations

import pickle
from collections import Counter

import attrs
import pytest

from remi_rules import (
    FULL_SET,
    JOKER,
    JOKER_IDS,
    Color,
    InvalidMeldError,
    InvalidTileError,
    MeldErrorCode,
    RemiError,
    Tile,
    TileErrorCode,
    TileParseError,
    analyze_meld,
    ids_of,
    is_valid_meld,
    parse_tiles,
    tile_of,
    tiles_str,
    variants,
)

COLOURS = (Color.ROSU, Color.GALBEN, Color.ALBASTRU, Color.NEGRU)
NUMBERED = tuple(Tile(rank, colour) for colour in COLOURS for rank in range(1, 14))
FIXED = tuple(Tile(fixed_as=t) for t in NUMBERED)
ALL_VALUES = (*NUMBERED, JOKER, *FIXED)
PRESETS = ("clasic", "online", "rummy45")


# -- TILES-01: the set ----------------------------------------------------------------------


def test_colours() -> None:
    assert [c.value for c in Color] == ["R", "G", "A", "N"]
    assert [c.index for c in COLOURS] == [0, 1, 2, 3]
    assert Color("A") is Color.ALBASTRU


@pytest.mark.rule("TILES-01")
def test_TILES_01_the_set_has_106_tiles() -> None:
    assert len(FULL_SET) == 106
    counts = Counter(FULL_SET)
    assert counts[JOKER] == 2
    assert all(counts[t] == 2 for t in NUMBERED)
    assert len(counts) == 53
    assert all(t.is_joker or (t.rank is not None and 1 <= t.rank <= 13) for t in FULL_SET)


@pytest.mark.rule("TILES-01")
def test_TILES_01_ids_follow_the_formula() -> None:
    for rank in range(1, 14):
        for colour in COLOURS:
            for copy in (0, 1):
                tile_id = 8 * (rank - 1) + 2 * colour.index + copy
                assert tile_of(tile_id) == Tile(rank, colour) == FULL_SET[tile_id]
            base = 8 * (rank - 1) + 2 * colour.index
            assert ids_of(Tile(rank, colour)) == (base, base + 1)
    assert JOKER_IDS == (104, 105)
    assert tile_of(104) == tile_of(105) == JOKER
    assert ids_of(JOKER) == (104, 105)
    assert ids_of(Tile.parse("J(=8R)")) == (104, 105)  # a joker's identity is game state


@pytest.mark.rule("TILES-01")
def test_TILES_01_tile_of_and_ids_of_are_inverse() -> None:
    assert [tile_of(i) for i in range(106)] == list(FULL_SET)
    for tile_id in range(106):
        assert tile_id in ids_of(tile_of(tile_id))
    for tile in (*NUMBERED, JOKER):
        assert [tile_of(i) for i in ids_of(tile)] == [tile, tile]
    assert sorted(i for t in (*NUMBERED, JOKER) for i in ids_of(t)) == list(range(106))


@pytest.mark.rule("TILES-01")
@pytest.mark.parametrize("bad", [-1, 106, 107, 1000, -106])
def test_TILES_01_bad_ids_are_refused(bad: int) -> None:
    with pytest.raises(InvalidTileError) as info:
        tile_of(bad)
    assert info.value.code is TileErrorCode.ID_OUT_OF_RANGE
    assert info.value.details["id"] == bad
    assert isinstance(info.value, ValueError)


@pytest.mark.rule("TILES-01")
@pytest.mark.parametrize("bad", [True, False, 7.0, "7", None, [7]])
def test_TILES_01_a_non_int_id_is_a_type_error(bad: object) -> None:
    with pytest.raises(TypeError):
        tile_of(bad)  # type: ignore[arg-type]


def test_ids_of_needs_a_tile() -> None:
    with pytest.raises(TypeError):
        ids_of("7R")  # type: ignore[arg-type]


# -- the value type -------------------------------------------------------------------------


def test_tile_attributes() -> None:
    seven = Tile.parse("7R")
    assert (seven.rank, seven.color, seven.is_joker, seven.is_fixed_joker) == (
        7,
        Color.ROSU,
        False,
        False,
    )
    assert (seven.fixed_as, seven.acts_as) == (None, seven)
    assert seven == Tile(7, Color.ROSU)
    joker = Tile.parse("J")
    assert joker == JOKER == Tile()
    assert (joker.rank, joker.color, joker.is_joker, joker.is_fixed_joker) == (
        None,
        None,
        True,
        False,
    )
    assert (joker.fixed_as, joker.acts_as) == (None, None)


@pytest.mark.rule("TILES-03")
def test_TILES_03_a_joker_has_no_rank_or_colour() -> None:
    for joker in (JOKER, *FIXED):
        assert joker.rank is None and joker.color is None and joker.is_joker


PARSE_REFUSALS = [
    ("", TileErrorCode.EMPTY),
    ("7", TileErrorCode.BAD_FORMAT),
    ("14R", TileErrorCode.RANK_OUT_OF_RANGE),
    ("0R", TileErrorCode.RANK_OUT_OF_RANGE),
    ("7X", TileErrorCode.UNKNOWN_COLOUR),
    ("JJ", TileErrorCode.BAD_FORMAT),
    ("1.5R", TileErrorCode.BAD_FORMAT),
    (" 7R", TileErrorCode.BAD_FORMAT),
    ("7R ", TileErrorCode.BAD_FORMAT),
    ("07R", TileErrorCode.BAD_FORMAT),
    ("R7", TileErrorCode.BAD_FORMAT),
    ("7RR", TileErrorCode.BAD_FORMAT),
    ("7R 8R", TileErrorCode.BAD_FORMAT),
    ("j", TileErrorCode.BAD_FORMAT),
    ("J(=J)", TileErrorCode.BAD_FIXED_JOKER),
    ("J(=14R)", TileErrorCode.BAD_FIXED_JOKER),
    ("J(=J(=8R))", TileErrorCode.BAD_FIXED_JOKER),
    ("J(=)", TileErrorCode.BAD_FIXED_JOKER),
    ("1" * 4301 + "R", TileErrorCode.TOKEN_TOO_LONG),
    ("J(=" + "1" * 20 + "R)", TileErrorCode.TOKEN_TOO_LONG),
]


@pytest.mark.rule("TILES-01")
@pytest.mark.parametrize(("text", "code"), PARSE_REFUSALS, ids=repr)
def test_tile_parse_refuses(text: str, code: TileErrorCode) -> None:
    with pytest.raises(TileParseError) as info:
        Tile.parse(text)
    err = info.value
    assert err.code is code
    assert err.details["text"] == text
    assert isinstance(err, InvalidTileError) and isinstance(err, ValueError)
    assert isinstance(err, RemiError)


def test_tile_parse_lower_case_colour() -> None:
    with pytest.raises(TileParseError) as info:
        Tile.parse("7r")
    # the colour letter is wrong (upper case only); "bad format" would also be fair
    assert info.value.code in (TileErrorCode.UNKNOWN_COLOUR, TileErrorCode.BAD_FORMAT)


@pytest.mark.parametrize("bad", [7, None, b"7R", ["7R"]])
def test_tile_parse_needs_a_str(bad: object) -> None:
    with pytest.raises(TypeError):
        Tile.parse(bad)  # type: ignore[arg-type]


def test_tile_constructor_validates() -> None:
    with pytest.raises(InvalidTileError) as info:
        Tile(14, Color.ROSU)
    assert info.value.code is TileErrorCode.RANK_OUT_OF_RANGE
    with pytest.raises(InvalidTileError):
        Tile(0, Color.ROSU)
    for rank, colour in [
        ("7", Color.ROSU),
        (True, Color.ROSU),
        (7, "R"),
        (7, None),
        (None, Color.ROSU),
    ]:
        with pytest.raises(TypeError):
            Tile(rank, colour)  # type: ignore[arg-type]
    with pytest.raises(InvalidTileError) as info:
        Tile(fixed_as=JOKER)
    assert info.value.code is TileErrorCode.BAD_FIXED_JOKER
    with pytest.raises(InvalidTileError):
        Tile(7, Color.ROSU, fixed_as=Tile(8, Color.ROSU))


def test_str_and_repr_round_trip() -> None:
    for tile in ALL_VALUES:
        assert Tile.parse(str(tile)) == tile
        assert repr(tile) == f"Tile.parse({str(tile)!r})"
        assert eval(repr(tile), {"Tile": Tile}) == tile
    assert [str(t) for t in parse_tiles("1R 13G 10A 2N J J(=8R) J(=1N)")] == [
        "1R",
        "13G",
        "10A",
        "2N",
        "J",
        "J(=8R)",
        "J(=1N)",
    ]
    assert tiles_str(parse_tiles("12R 13R 1R")) == "12R 13R 1R"
    assert tiles_str([]) == ""


def test_ordering_is_colour_then_rank_with_jokers_last() -> None:
    def colour_then_rank(t: Tile) -> tuple[int, int]:
        assert t.color is not None and t.rank is not None  # numbered tiles only
        return (t.color.index, t.rank)

    by_hand = sorted(NUMBERED, key=colour_then_rank)
    assert sorted(reversed(NUMBERED)) == by_hand
    assert Tile.parse("13R") < Tile.parse("1G") < Tile.parse("2G")
    assert all(t < JOKER for t in NUMBERED)
    assert all(JOKER > t for t in NUMBERED)  # noqa: SIM300 (checks __gt__)
    assert all(t < f for t in NUMBERED for f in FIXED)
    # a total order consistent with equality
    for a in ALL_VALUES:
        for b in ALL_VALUES[::7]:
            assert sum((a < b, a == b, a > b)) == 1
            assert (a <= b) == (a < b or a == b)
            assert (a >= b) == (a > b or a == b)
    with pytest.raises(TypeError):
        _ = Tile.parse("7R") < 7  # type: ignore[operator]


def test_hashing_and_equality() -> None:
    assert len(set(ALL_VALUES)) == len(ALL_VALUES) == 105
    for tile in ALL_VALUES:
        assert hash(tile) == hash(Tile.parse(str(tile)))
    assert {Tile.parse("7R"): 1}[Tile(7, Color.ROSU)] == 1
    eight, fixed = Tile.parse("8R"), Tile.parse("J(=8R)")
    assert fixed != eight and fixed != JOKER and fixed == Tile(fixed_as=eight)
    assert Tile.parse("7R") != "7R"


def test_tiles_are_immutable() -> None:
    tile = Tile.parse("7R")
    for name, value in [("rank", 8), ("color", Color.GALBEN), ("fixed_as", JOKER)]:
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            setattr(tile, name, value)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        del tile.rank
    assert tile == Tile.parse("7R")


def test_tiles_pickle() -> None:
    for tile in ALL_VALUES:
        again = pickle.loads(pickle.dumps(tile))
        assert again == tile and hash(again) == hash(tile) and str(again) == str(tile)
    assert pickle.loads(pickle.dumps(FULL_SET)) == FULL_SET


def test_tile_errors_pickle() -> None:
    with pytest.raises(TileParseError) as info:
        parse_tiles("7R 7X")
    again = pickle.loads(pickle.dumps(info.value))
    assert type(again) is TileParseError
    assert (again.code, dict(again.details)) == (info.value.code, dict(info.value.details))
    assert again.message("ro") == info.value.message("ro")


# -- fixed jokers (JOLY-05, EX-45) ----------------------------------------------------------


@pytest.mark.rule("EX-45")
def test_fixed_joker_notation() -> None:
    fixed = Tile.parse("J(=8R)")
    assert str(fixed) == "J(=8R)"
    assert fixed.fixed_as == Tile.parse("8R") == fixed.acts_as
    assert fixed.is_joker and fixed.is_fixed_joker
    assert (fixed.rank, fixed.color) == (None, None)
    for tile in FIXED:
        assert Tile.parse(str(tile)) == tile
        assert str(tile) == f"J(={tile.fixed_as})"


@pytest.mark.rule("EX-45")
@pytest.mark.parametrize("preset", PRESETS)
def test_fixed_joker_fits_only_where_its_tile_would(preset: str) -> None:
    rules = variants.get(preset)
    assert is_valid_meld("6R 7R J(=8R)", rules)
    assert is_valid_meld("J(=8R) 8G 8A", rules)
    for text in ("3R 3G J(=8R)", "5R 6R J(=8R)", "7R 8R J(=8R)", "J(=8R) 8G 8R"):
        assert not is_valid_meld(text, rules), text
    with pytest.raises(InvalidMeldError) as info:
        analyze_meld("3R 3G J(=8R)", rules)
    assert info.value.code is MeldErrorCode.FIXED_JOKER_OUT_OF_PLACE


@pytest.mark.rule("EX-45")
@pytest.mark.parametrize("preset", PRESETS)
def test_fixed_joker_is_worth_what_its_tile_is_worth(preset: str) -> None:
    rules = variants.get(preset)
    pairs = [
        ("6R 7R J(=8R)", "6R 7R 8R"),
        ("J(=8R) 8G 8A", "8R 8G 8A"),
        ("J(=1G) 1R 1A", "1G 1R 1A"),
        ("12G 13G J(=1G)", "12G 13G 1G"),
        ("J(=1G) 2G 3G", "1G 2G 3G"),
        ("J(=10N) 11N 12N", "10N 11N 12N"),
    ]
    for with_fixed, with_tile in pairs:
        fixed = analyze_meld(with_fixed, rules)
        assert fixed.points == analyze_meld(with_tile, rules).points, with_fixed
        (slot,) = fixed.jokers
        assert slot.tile == Tile.parse(with_fixed.split("(=")[1].split(")")[0])


# -- parse_tiles ------------------------------------------------------------------------------


def test_parse_tiles_separators() -> None:
    want = parse_tiles("7R 8R 9R J")
    assert [str(t) for t in want] == ["7R", "8R", "9R", "J"]
    for text in ("7R,8R,9R,J", "7R, 8R ,9R  J", "  7R\t8R\n9R , J  "):
        assert parse_tiles(text) == want
    assert parse_tiles("") == parse_tiles("   ") == ()
    with pytest.raises(TypeError):
        parse_tiles(None)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "token", "position", "code"),
    [
        ("7R 8R 14R 9R", "14R", 3, TileErrorCode.RANK_OUT_OF_RANGE),
        ("7R, 8X", "8X", 2, TileErrorCode.UNKNOWN_COLOUR),
        ("JJ", "JJ", 1, TileErrorCode.BAD_FORMAT),
        ("12R 13R 1R J(=0R)", "J(=0R)", 4, TileErrorCode.BAD_FIXED_JOKER),
        ("7R 8R 9", "9", 3, TileErrorCode.BAD_FORMAT),
    ],
)
def test_parse_tiles_error_names_the_token_and_position(
    text: str, token: str, position: int, code: TileErrorCode
) -> None:
    with pytest.raises(TileParseError) as info:
        parse_tiles(text)
    err = info.value
    assert (err.code, err.details["token"], err.details["position"]) == (code, token, position)
    for lang in ("ro", "en"):
        assert token in err.message(lang) and str(position) in err.message(lang)


def test_parse_tiles_empty_token_between_commas() -> None:
    with pytest.raises(TileParseError) as info:
        parse_tiles("7R,,8R")
    assert info.value.details["position"] == 2


# -- messages --------------------------------------------------------------------------------

DETAILS = {
    "text": "7X",
    "id": 106,
    "count": 2,
    "jokers": 2,
    "needed": 4,
    "per": 2,
    "real": 1,
    "tile": Tile.parse("8R"),
    "fixed": Tile.parse("8R"),
    "position": 3,
    "tiles": parse_tiles("7R 8R"),
    "length": 17,
    "limit": 16,
}


@pytest.mark.parametrize("code", [*TileErrorCode, *MeldErrorCode], ids=str)
def test_every_error_code_has_a_romanian_and_an_english_message(
    code: TileErrorCode | MeldErrorCode,
) -> None:
    cls = InvalidTileError if isinstance(code, TileErrorCode) else InvalidMeldError
    err = cls(code, **DETAILS)
    ro, en = err.message("ro"), err.message("en")
    assert ro.strip() and en.strip()
    assert ro != en
    assert "{" not in ro + en and "?" not in ro + en
    assert err.message() == en
    with pytest.raises(ValueError):
        err.message("fr")


def test_produced_tile_errors_have_complete_messages() -> None:
    errors: list[InvalidTileError] = []
    for text, _ in PARSE_REFUSALS:
        with pytest.raises(TileParseError) as info:
            Tile.parse(text)
        errors.append(info.value)
    with pytest.raises(InvalidTileError) as id_info:
        tile_of(200)
    errors.append(id_info.value)
    assert {e.code for e in errors} == set(TileErrorCode)
    for err in errors:
        ro, en = err.message("ro"), err.message("en")
        assert ro and en and ro != en
        assert "{" not in ro + en and "?" not in ro + en
