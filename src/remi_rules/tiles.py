"""Tiles: the colours, the tile value, its notation and the 106 physical tiles (TILES-01).

A :class:`Tile` is a *value*: a rank and a colour, or a joker.  The set holds two
physical copies of every numbered value plus two jokers; the physical tiles are
numbered 0–105 (frozen as part of every saved format)::

    id = 8 * (rank - 1) + 2 * colour_index + copy      # numbered tiles, 0..103
    104, 105                                             # the two jokers

Notation: rank then colour letter (``7R``), ``J`` for a joker and ``J(=8R)`` for a
joker with a fixed identity (the ``online`` preset's *joker întors*, JOLY-05).

>>> t = Tile.parse("7R")
>>> t.rank, t.color, str(t)
(7, <Color.ROSU: 'R'>, '7R')
>>> parse_tiles("12R 13R, 1R")
(Tile.parse('12R'), Tile.parse('13R'), Tile.parse('1R'))
>>> ids_of(t), tile_of(49)
((48, 49), Tile.parse('7R'))
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable
from typing import Final

import attrs

from .errors import InvalidTileError, TileErrorCode, TileParseError

__all__ = [
    "FULL_SET",
    "JOKER",
    "JOKER_IDS",
    "MAX_TOKEN_LENGTH",
    "Color",
    "Tile",
    "ids_of",
    "parse_tiles",
    "tile_of",
    "tiles_str",
]


class Color(enum.StrEnum):
    """The four colours, written ``R G A N``; :attr:`index` is 0–3 in that order."""

    ROSU = "R"
    """roșu, red"""
    GALBEN = "G"
    """galben, yellow"""
    ALBASTRU = "A"
    """albastru, blue"""
    NEGRU = "N"
    """negru, black"""

    @property
    def index(self) -> int:  # type: ignore[override]  # shadows str.index on purpose
        """0 for ROSU, 1 GALBEN, 2 ALBASTRU, 3 NEGRU (the order of the tile ids)."""
        return _COLOR_INDEX[self]


_COLORS: Final = tuple(Color)
_COLOR_INDEX: Final = {c: i for i, c in enumerate(_COLORS)}

# Internal small-int code of a tile value, used by the hot paths (meld checks):
# numbered tile: colour_index * 16 + rank (1..61); joker: 64; fixed joker: 128 + code.
JOKER_CODE: Final = 64
FIXED_BASE: Final = 128


def _check_rank_color(rank: object, color: object) -> tuple[int, Color]:
    if type(rank) is not int:
        raise TypeError(f"Tile rank must be an int, not {type(rank).__name__}")
    if not isinstance(color, Color):
        raise TypeError(f"Tile colour must be a Color, not {type(color).__name__}")
    if not 1 <= rank <= 13:
        raise InvalidTileError(TileErrorCode.RANK_OUT_OF_RANGE, text=f"{rank}{color.value}")
    return rank, color


@attrs.frozen(eq=False, order=False, repr=False)
class Tile:
    """One tile value: ``Tile(7, Color.ROSU)``, a joker ``Tile()``, or a fixed joker
    ``Tile(fixed_as=Tile(8, Color.ROSU))``.  Immutable, hashable and ordered
    (by colour, then rank; jokers last), so tiles go into sets, dict keys and
    ``sorted``.  Usually built with :meth:`parse`.

    A fixed joker (JOLY-05, ``online``) is still a joker (``is_joker``), but fits in a
    meld only where its :attr:`fixed_as` tile would and is worth what that tile is worth.
    """

    rank: int | None = None
    """1–13, or ``None`` for a joker."""
    color: Color | None = None
    """The colour, or ``None`` for a joker."""
    fixed_as: Tile | None = None
    """For a fixed joker (*joker întors*): the numbered tile it permanently is."""
    _code: int = attrs.field(init=False, repr=False, alias="_code")

    def __attrs_post_init__(self) -> None:
        if self.rank is None and self.color is None:
            fixed = self.fixed_as
            if fixed is None:
                code = JOKER_CODE
            else:
                if not isinstance(fixed, Tile):
                    raise TypeError(f"Tile fixed_as must be a Tile, not {type(fixed).__name__}")
                if fixed._code >= JOKER_CODE:
                    raise InvalidTileError(TileErrorCode.BAD_FIXED_JOKER, text=f"J(={fixed})")
                code = FIXED_BASE + fixed._code
        else:
            rank, color = _check_rank_color(self.rank, self.color)
            if self.fixed_as is not None:
                raise InvalidTileError(
                    TileErrorCode.BAD_FIXED_JOKER, text=f"{rank}{color.value}(={self.fixed_as})"
                )
            code = _COLOR_INDEX[color] * 16 + rank
        object.__setattr__(self, "_code", code)

    # -- construction ---------------------------------------------------------------

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Parse exactly one tile: ``"7R"``, ``"J"`` or ``"J(=8R)"``.

        Raises :class:`~remi_rules.TileParseError` for anything else (``""``, ``"7"``,
        ``"14R"``, ``"0R"``, ``"7X"``, ``"JJ"``, ``" 7R"``, ``"7r"`` …; code
        ``token_too_long`` past :data:`MAX_TOKEN_LENGTH` characters) and
        :class:`TypeError` if ``text`` is not a ``str``.
        """
        tile = _BY_TEXT.get(text) if type(text) is str else None
        if tile is not None:
            return tile
        if not isinstance(text, str):
            raise TypeError(f"Tile.parse expects a str, not {type(text).__name__}")
        raise _diagnose(text)

    # -- queries ----------------------------------------------------------------------

    @property
    def is_joker(self) -> bool:
        """True for a joker, fixed or not."""
        return self._code >= JOKER_CODE

    @property
    def is_fixed_joker(self) -> bool:
        """True for a joker with a fixed identity (JOLY-05, ``online``)."""
        return self._code > JOKER_CODE

    @property
    def acts_as(self) -> Tile | None:
        """The numbered tile this tile counts as in a meld: itself, the fixed identity
        of a fixed joker, or ``None`` for a free joker."""
        if self._code < JOKER_CODE:
            return self
        return self.fixed_as

    # -- dunder -------------------------------------------------------------------------

    def __str__(self) -> str:
        return _TEXT[self._code]

    def __repr__(self) -> str:
        return f"Tile.parse({_TEXT[self._code]!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Tile):
            return self._code == other._code
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        if isinstance(other, Tile):
            return self._code != other._code
        return NotImplemented

    def __hash__(self) -> int:
        return self._code

    def __lt__(self, other: Tile) -> bool:
        if isinstance(other, Tile):
            return self._code < other._code
        return NotImplemented

    def __le__(self, other: Tile) -> bool:
        if isinstance(other, Tile):
            return self._code <= other._code
        return NotImplemented

    def __gt__(self, other: Tile) -> bool:
        if isinstance(other, Tile):
            return self._code > other._code
        return NotImplemented

    def __ge__(self, other: Tile) -> bool:
        if isinstance(other, Tile):
            return self._code >= other._code
        return NotImplemented


# -- the interned values ----------------------------------------------------------------

_NUMBERED: Final = tuple(Tile(rank, color) for color in _COLORS for rank in range(1, 14))
JOKER: Final = Tile()
"""The (free) joker value."""
_FIXED: Final = tuple(Tile(fixed_as=t) for t in _NUMBERED)

_TEXT: dict[int, str] = {t._code: f"{t.rank}{t.color.value}" for t in _NUMBERED if t.color}
_TEXT[JOKER_CODE] = "J"
for _f in _FIXED:
    _TEXT[_f._code] = f"J(={_TEXT[_f._code - FIXED_BASE]})"

_BY_CODE: Final[dict[int, Tile]] = {t._code: t for t in (*_NUMBERED, JOKER, *_FIXED)}
_BY_TEXT: Final[dict[str, Tile]] = {_TEXT[c]: t for c, t in _BY_CODE.items()}

_TILE_RE: Final = re.compile(r"([0-9]+)([A-Za-z])")

MAX_TOKEN_LENGTH: Final = 16
"""The longest token the tile parsers look into (the longest tile, ``J(=13R)``, has
7 characters).  A longer one is refused with ``TileErrorCode.TOKEN_TOO_LONG`` before
anything is converted, so ``"1" * 5000 + "R"`` costs no digit conversion."""


def _diagnose(text: str) -> TileParseError:
    """Explain why ``text`` (not a valid tile) was refused."""
    if text == "":
        return TileParseError(TileErrorCode.EMPTY, text=text)
    if len(text) > MAX_TOKEN_LENGTH:
        return TileParseError(
            TileErrorCode.TOKEN_TOO_LONG, text=text, length=len(text), limit=MAX_TOKEN_LENGTH
        )
    if text.startswith("J(=") and text.endswith(")"):
        return TileParseError(TileErrorCode.BAD_FIXED_JOKER, text=text)
    m = _TILE_RE.fullmatch(text)
    if m is None:
        return TileParseError(TileErrorCode.BAD_FORMAT, text=text)
    digits = m.group(1)
    if len(digits) > 1 and digits[0] == "0":
        return TileParseError(TileErrorCode.BAD_FORMAT, text=text)
    if not 1 <= int(digits) <= 13:
        return TileParseError(TileErrorCode.RANK_OUT_OF_RANGE, text=text)
    return TileParseError(TileErrorCode.UNKNOWN_COLOUR, text=text)


_SEP: Final = re.compile(r"\s*,\s*|\s+")


def parse_tiles(text: str) -> tuple[Tile, ...]:
    """Parse a list of tiles separated by spaces and/or commas: ``"12R 13R 1R"``.

    An empty or blank string gives ``()``.  A bad token raises
    :class:`~remi_rules.TileParseError` whose details name the ``token`` and its
    1-based ``position`` (a token longer than :data:`MAX_TOKEN_LENGTH` characters is
    refused as ``token_too_long`` without being looked into).
    """
    if not isinstance(text, str):
        raise TypeError(f"parse_tiles expects a str, not {type(text).__name__}")
    stripped = text.strip()
    if not stripped:
        return ()
    out: list[Tile] = []
    for position, token in enumerate(_SEP.split(stripped), start=1):
        tile = _BY_TEXT.get(token)
        if tile is None:
            err = _diagnose(token)
            raise TileParseError(err.code, **err.details, token=token, position=position)
        out.append(tile)
    return tuple(out)


def tiles_str(tiles: Iterable[Tile]) -> str:
    """The notation of several tiles, space-separated (the inverse of :func:`parse_tiles`).

    :class:`TypeError` if ``tiles`` is not an iterable of :class:`Tile`."""
    try:
        return " ".join([_TEXT[t._code] for t in tiles])
    except (AttributeError, TypeError, KeyError):
        if isinstance(tiles, str):
            raise TypeError("tiles_str expects Tile values, not a str") from None
        bad = next((t for t in tiles if not isinstance(t, Tile)), tiles)
        raise TypeError(f"tiles_str expects Tile values, not {type(bad).__name__}") from None


# -- physical tiles -----------------------------------------------------------------------

JOKER_IDS: Final = (104, 105)
"""The ids of the two physical jokers."""

FULL_SET: Final[tuple[Tile, ...]] = tuple(
    [_NUMBERED[_COLOR_INDEX[c] * 13 + r - 1] for r in range(1, 14) for c in _COLORS for _ in (0, 1)]
    + [JOKER, JOKER]
)
"""The 106 tiles of the set, indexed by physical id: ``FULL_SET[i] == tile_of(i)``."""


def tile_of(tile_id: int) -> Tile:
    """The tile value of physical tile ``tile_id`` (0–105).  Jokers give the free
    joker; a joker's fixed identity is game state, not part of its id."""
    if type(tile_id) is not int:
        raise TypeError(f"tile id must be an int, not {type(tile_id).__name__}")
    if not 0 <= tile_id < 106:
        raise InvalidTileError(TileErrorCode.ID_OUT_OF_RANGE, id=tile_id)
    return FULL_SET[tile_id]


def ids_of(tile: Tile) -> tuple[int, int]:
    """The two physical ids that carry this value (both jokers for any joker)."""
    if not isinstance(tile, Tile):
        raise TypeError(f"ids_of expects a Tile, not {type(tile).__name__}")
    if tile.rank is None or tile.color is None:
        return JOKER_IDS
    base = 8 * (tile.rank - 1) + 2 * _COLOR_INDEX[tile.color]
    return (base, base + 1)


def tile_from_code(code: int) -> Tile:
    """The interned tile with internal code ``code`` (for the library's hot paths)."""
    return _BY_CODE[code]
