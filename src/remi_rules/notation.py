"""The step notation: engine steps as text and back, in English or Romanian words.

:func:`format_step` writes a step, :func:`parse_step` reads one, as python-chess's
SAN and UCI do for chess moves (docs/notation.md, "Steps").  The words come from the
message catalogues (the ``word:`` and ``words:`` entries), so a language is one
``.po`` file.

* **Without a view** (``view=None``) a tile names one physical tile: ``7R`` is the
  copy with the even id, ``7R'`` the copy with the odd id, ``J`` and ``J'`` the
  jokers 104 and 105.  A rupere names the row position, a swap its joker, an
  out-of-turn step its seat (``seat 2: announce``).  ``str(step)`` is this form in
  English.
* :func:`parse_step` reads the words of every language of the catalogues, with or
  without diacritics, in any case; ``lang`` is the language it writes and the one of
  its suggestions.
* **With a view** (:class:`~remi_rules.engine.PlayerView`, the seat that makes the
  step) the short form is used wherever it is unambiguous: ``7R`` is the copy of the
  seat's rack the turn uses first (the taken row tile, a swapped joker, the atu's
  twin: "the copy the turn owes first"; for a discard, the copy it owes last) and
  ``7R'`` the other copy; a fixed joker is written ``J(=8R)``; ``rupere 9R`` names
  the latest 9R of the row; ``swap 6R on 3`` the joker of meld 3 whose place 6R
  fits; the seat's own out-of-turn steps need no seat.  Another seat's steps are
  written and read as without a view.

For every step ``s`` a seat can make, ``parse_step(format_step(s, view, lang), view,
lang) == s``, with or without a view (tests/test_notation.py checks it on every legal
step of many reachable positions).

>>> from remi_rules.engine import Discard, MeldTiles, Draw
>>> format_step(MeldTiles((40, 49, 56))), format_step(MeldTiles((40, 49, 56)), lang="ro")
("meld 6R 7R' 8R", "etalează 6R 7R' 8R")
>>> parse_step("etaleaza 6r 7r' 8r", lang="ro") == MeldTiles((40, 49, 56))
True
>>> str(Discard(105)), parse_step("discard J'")
("discard J'", Discard(tile=105))
>>> try:
...     parse_step("meld 5R 6R 7R", lang="ro") and parse_step("drwa")
... except NotationError as err:
...     print(err.code.value, err.details["column"], err.details["suggestion"])
...     print(err.message("en"))
...     print(err.message("ro"))
notation_unknown_command 1 draw
'drwa' is not a step. Did you mean draw? (column 1)
„drwa” nu este o mutare. Ai vrut să scrii trage? (coloana 1)
"""

from __future__ import annotations

import contextlib
import difflib
import re
import unicodedata
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Final

from . import _i18n as i18n
from ._safe_text import safe_text
from .engine.steps import (
    AnnounceAtu,
    AnnounceFewTiles,
    Close,
    DeclarePeTabla,
    DemandRedeal,
    Discard,
    Draw,
    ExchangeDoubles,
    LayOff,
    MeldTiles,
    Rupere,
    Step,
    SwapJoker,
    TakeAtu,
    TakeLastDiscard,
    Undo,
)
from .engine.view import PlayerView
from .errors import NotationError, NotationErrorCode, TileParseError
from .lipire import End
from .tiles import JOKER, JOKER_IDS, Tile, ids_of, tile_of

__all__ = [
    "MAX_STEP_TEXT",
    "PRIMES",
    "STEP_WORDS",
    "NotationError",
    "NotationErrorCode",
    "format_step",
    "parse_step",
    "step_words",
]

MAX_STEP_TEXT: Final = 200
"""The longest text :func:`parse_step` reads, in characters (the longest step, a meld
of 13 tiles with fixed jokers and primes, takes under 120).  A longer one is refused
as ``notation_too_long`` before it is split."""

PRIMES: Final = ("'", "\u2019", "\u02bc", "\u2032")
"""The marks of the second copy: the apostrophe, and the typographic ones a phone's
keyboard types (’ ʼ ′); :func:`format_step` writes the first."""

STEP_WORDS: Final = (
    "draw",
    "take",
    "take_atu",
    "rupere",
    "meld",
    "lay",
    "swap",
    "discard",
    "close",
    "announce",
    "announce_atu",
    "pe_tabla",
    "redeal",
    "exchange",
    "undo",
)
"""The keys of the step verbs in the catalogues (``word:<key>``: the word written;
``words:<key>``: other words read, ``|``-separated)."""

_S = NotationErrorCode

_MAX_NUMBER_DIGITS: Final = 6
"""A meld number, a row position or a seat is at most this many digits (a larger one
names nothing at a table and is refused before it is converted)."""


# -- words ------------------------------------------------------------------------------


def _plain(word: str) -> str:
    """``word`` in lower case without diacritics (``Aruncă`` → ``arunca``)."""
    decomposed = unicodedata.normalize("NFD", word.lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


_SEEN_LANGUAGES: list[tuple[str, ...]] = [()]


def _language(lang: object) -> str:
    """``lang`` checked; the word caches are emptied when the catalogues found
    changed (:func:`remi_rules._i18n.reload` with another locale path)."""
    if type(lang) is not str:
        raise TypeError(f"lang must be a str, not {type(lang).__name__}")
    present = i18n.languages()
    if present != _SEEN_LANGUAGES[0]:
        _SEEN_LANGUAGES[0] = present
        for cached in (_phrases, _verbs, _word_set):
            cached.cache_clear()
    if lang not in present:
        raise NotationError(_S.UNKNOWN_LANGUAGE, lang=lang, known=", ".join(i18n.languages()))
    return lang


def _word(key: str, lang: str) -> str:
    return i18n.template(f"word:{key}", lang)


@lru_cache(maxsize=64)
def _phrases(key: str, lang: str) -> tuple[tuple[str, ...], ...]:
    """Every phrase (its words, plain) read for ``key``: the written word and the
    ``words:`` alternatives of ``lang`` first, then those of English and of every other
    language of the catalogues (a person types the words he knows)."""
    out: list[tuple[str, ...]] = []
    for each in dict.fromkeys((lang, i18n.SOURCE_LANGUAGE, *i18n.languages())):
        forms: list[str] = []
        for entry in (f"word:{key}", f"words:{key}"):
            with contextlib.suppress(KeyError):  # a key with only one of the two
                forms += i18n.template(entry, each).split("|")
        for form in forms:
            words = tuple(_plain(w) for w in form.split())
            if words and words not in out:
                out.append(words)
    return tuple(out)


def step_words(lang: str = "en") -> dict[str, str]:
    """The word written for each step verb in ``lang`` (:data:`STEP_WORDS` → word),
    for a help text.

    >>> step_words("ro")["meld"], step_words("en")["take_atu"]
    ('etalează', 'take atu')
    """
    lang = _language(lang)
    return {key: _word(key, lang) for key in STEP_WORDS}


@lru_cache(maxsize=8)
def _verbs(lang: str, keys: tuple[str, ...]) -> tuple[tuple[tuple[str, ...], str], ...]:
    """(phrase, key) for every verb of ``keys``, the longest phrases first."""
    pairs = [(phrase, key) for key in keys for phrase in _phrases(key, lang)]
    pairs.sort(key=lambda pair: -len(pair[0]))
    return tuple(pairs)


@lru_cache(maxsize=8)
def _word_set(lang: str, key: str) -> frozenset[str]:
    return frozenset(p[0] for p in _phrases(key, lang) if len(p) == 1)


def match_verb(
    words: Sequence[str], lang: str, keys: Sequence[str] = STEP_WORDS
) -> tuple[str, int] | None:
    """The verb (a key of ``keys``) that ``words`` start with (in any case, with or
    without diacritics) and how many words it takes, or None.  (The command line
    matches its own words, ``hint``, ``help`` …, the same way.)"""
    lang = _language(lang)
    head = tuple(_plain(w) for w in words[:3])
    for phrase, key in _verbs(lang, tuple(keys)):
        if head[: len(phrase)] == phrase:
            return key, len(phrase)
    return None


def suggest(word: str, lang: str, keys: Sequence[str] = STEP_WORDS) -> str | None:
    """The key (of ``keys``) of the word closest to the unknown ``word`` among those
    read in ``lang``, or None when none is close (:func:`difflib.get_close_matches`,
    cutoff 0.6)."""
    lang = _language(lang)
    plain = _plain(word)[:40]
    by_form: dict[str, str] = {}
    for key in keys:
        for phrase in _phrases(key, lang):
            by_form.setdefault(phrase[0], key)
    found = difflib.get_close_matches(plain, list(by_form), n=1, cutoff=0.6)
    return by_form[found[0]] if found else None


# -- tokens ------------------------------------------------------------------------------


class _Tokens:
    """The words of a text with their 1-based columns; commas separate like spaces."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.words: list[str] = []
        self.columns: list[int] = []
        for found in re.finditer(r"[^\s,]+", text):
            self.words.append(found.group())
            self.columns.append(found.start() + 1)
        self.plain = [_plain(w) for w in self.words]
        self.at = 0

    def left(self) -> int:
        return len(self.words) - self.at

    def peek(self) -> str | None:
        return self.plain[self.at] if self.at < len(self.words) else None

    def column(self) -> int:
        if self.at < len(self.columns):
            return self.columns[self.at]
        return len(self.text.rstrip()) + 1

    def take(self) -> tuple[str, int]:
        word, column = self.words[self.at], self.columns[self.at]
        self.at += 1
        return word, column

    def skip(self, words: frozenset[str]) -> None:
        if self.peek() in words:
            self.at += 1

    def rest(self) -> str:
        return " ".join(self.words[self.at :])


def _tile_token(word: str, column: int) -> tuple[Tile, bool]:
    """A typed tile: its value and whether it is primed (``7r'`` → 7R, True)."""
    primed = word.endswith(PRIMES)
    body = word[:-1] if primed else word
    try:
        return Tile.parse(body.upper() if len(body) <= 16 else body), primed
    except TileParseError as err:
        raise NotationError(_S.BAD_TILE, cause=err, column=column) from None


def _number(word: str, column: int, what: str) -> int:
    if not (word.isdigit() and word.isascii()) or len(word) > _MAX_NUMBER_DIGITS:
        raise NotationError(_S.BAD_NUMBER, text=word, what=what, column=column)
    return int(word)


def _physical(tile: Tile, primed: bool, column: int) -> int:
    """The physical id a tile names without a view: the even copy, or the odd one
    when primed; a joker ``J`` is 104, ``J'`` 105."""
    if tile.is_fixed_joker:
        raise NotationError(_S.NEEDS_VIEW, text=str(tile), why="needs_plain_joker", column=column)
    return ids_of(tile)[1 if primed else 0]


def _written(tile_id: int) -> str:
    """A physical tile without a view: ``7R``, ``7R'``, ``J``, ``J'``; ``#id`` for an
    id that names no tile (a step that no game accepts)."""
    if type(tile_id) is int and 0 <= tile_id <= 105:
        return str(tile_of(tile_id)) + ("'" if tile_id % 2 else "")
    return "#" + safe_text(tile_id)


def _num(value: int) -> str:
    return str(value) if -(10**9) < value < 10**9 else safe_text(value)


# -- the seat's rack (the short form) ----------------------------------------------------


class _Rack:
    """The acting seat's rack as a view shows it: for each value, its copies in the
    order the short form takes them."""

    def __init__(self, view: PlayerView, *, placing: bool) -> None:
        self.table = view.table
        self.rack = view.rack
        owed = {view.atu ^ 1}
        turn = view.own_turn
        if turn is not None:
            if turn.obligation is not None:
                owed.add(turn.obligation.picked)
            owed.update(turn.swapped_jokers)
        where = {tile_id: k for k, tile_id in enumerate(self.rack)}
        self.order: dict[Tile, list[int]] = {}
        for tile_id in self.rack:
            self.order.setdefault(self.table.tile(tile_id), []).append(tile_id)
        for ids in self.order.values():
            if placing:
                ids.sort(key=lambda i: (i not in owed, where[i]))
            else:
                ids.sort(key=lambda i: (i in owed, where[i]))

    def copies(self, tile: Tile) -> list[int]:
        found = self.order.get(tile, [])
        if not found and tile == JOKER:  # a plain J also names a fixed joker (JOLY-05)
            found = [i for t, ids in self.order.items() if t.is_joker for i in ids]
        return found

    def resolve(self, tile: Tile, primed: bool, used: set[int], wanted: int) -> int:
        found = self.copies(tile)
        if primed:
            if len(found) >= 2:
                return found[1]
        else:
            for tile_id in found:
                if tile_id not in used:
                    return tile_id
        if not found:
            raise NotationError(_S.NOT_IN_RACK, tile=str(tile))
        raise NotationError(_S.TOO_FEW, tile=str(tile), held=len(found), wanted=wanted)

    def write(self, tile_id: int, used: set[int]) -> str:
        """The shortest token :meth:`resolve` reads back as ``tile_id``."""
        if tile_id not in self.rack:
            return _written(tile_id)
        tile = self.table.tile(tile_id)
        found = self.copies(tile)
        if next((i for i in found if i not in used), None) == tile_id:
            return str(tile)
        if len(found) >= 2 and found[1] == tile_id:
            return f"{tile}'"
        return _written(tile_id)


# -- reading -------------------------------------------------------------------------------


class _Reader:
    def __init__(self, text: str, view: PlayerView | None, lang: str) -> None:
        self.tokens = _Tokens(text)
        self.view = view
        self.lang = lang
        self.connectors = _word_set(lang, "connectors")

    def fail(self, code: NotationErrorCode, **details: object) -> NotationError:
        return NotationError(code, **details)

    # -- the parts of a step

    def seat_prefix(self) -> int | None:
        """``seat 2:`` (or ``locul 2:``) before an out-of-turn step."""
        tokens = self.tokens
        if tokens.peek() not in _word_set(self.lang, "seat") or tokens.left() < 2:
            return None
        tokens.take()
        word, column = tokens.take()
        word = word.removesuffix(":")
        if tokens.peek() == ":":
            tokens.take()
        return self.seat_number(word, column)

    def seat_number(self, word: str, column: int) -> int:
        seat = _number(word, column, "seat")
        view = self.view
        if view is not None and seat >= view.players:
            raise self.fail(
                _S.BAD_SEAT, text=word, why="seat_range", last=view.players - 1, column=column
            )
        return seat

    def need(self, what: str, word: str, command: str) -> None:
        if self.tokens.left() == 0:
            raise self.fail(
                _S.MISSING,
                word=word,
                what=what,
                command=command,
                column=self.tokens.column(),
            )

    def done(self, word: str) -> None:
        tokens = self.tokens
        if tokens.left():
            column = tokens.column()
            raise self.fail(_S.EXTRA, text=tokens.rest(), word=word, column=column)

    def tile(self) -> tuple[Tile, bool, int]:
        word, column = self.tokens.take()
        tile, primed = _tile_token(word, column)
        return tile, primed, column

    def meld_number(self) -> int:
        word, column = self.tokens.take()
        index = _number(word, column, "meld_number")
        view = self.view
        if view is not None and index >= len(view.table.melds):
            raise self.fail(_S.NO_MELD, meld=index, column=column)
        return index

    # -- tiles to ids

    def rack_ids(
        self, tiles: Sequence[tuple[Tile, bool, int]], *, placing: bool, own: bool
    ) -> tuple[int, ...]:
        view = self.view
        if view is None or not own:
            return tuple(_physical(t, p, c) for t, p, c in tiles)
        rack = _Rack(view, placing=placing)
        used: set[int] = set()
        out: list[int] = []
        for tile, primed, column in tiles:
            wanted = sum(1 for t, _, _ in tiles if t == tile)
            try:
                tile_id = rack.resolve(tile, primed, used, wanted)
            except NotationError as err:
                raise NotationError(err.code, **err.details, column=column) from None
            used.add(tile_id)
            out.append(tile_id)
        return tuple(out)


def parse_step(text: str, view: PlayerView | None = None, lang: str = "en") -> Step:
    """The step written ``text`` (the notation of :func:`format_step`, in ``lang``'s
    words or English ones, with or without diacritics, in any case).

    With a ``view``, the text is a step of ``view.seat``: its tiles are read on that
    seat's rack in the short form (the module's doc), a rupere may name its row tile
    and a swap may leave its joker out.  Raises :class:`NotationError` for a text
    that is not a step, with the ``column`` of the bad word; whether the step is
    legal is the engine's business.  A wrong type is a :class:`TypeError`, a text
    longer than :data:`MAX_STEP_TEXT` is ``notation_too_long``."""
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, not {type(text).__name__}")
    if view is not None and not isinstance(view, PlayerView):
        raise TypeError(f"view must be a PlayerView or None, not {type(view).__name__}")
    lang = _language(lang)
    if len(text) > MAX_STEP_TEXT:
        raise NotationError(_S.TOO_LONG, length=len(text), limit=MAX_STEP_TEXT)
    reader = _Reader(text, view, lang)
    tokens = reader.tokens
    if not tokens.left():
        raise NotationError(_S.EMPTY)
    seat = reader.seat_prefix()
    if not tokens.left():
        raise NotationError(
            _S.MISSING, word=text.strip(), what="step", command="announce", column=tokens.column()
        )
    found = match_verb(tokens.words[tokens.at :], lang)
    if found is None:
        word, column = tokens.take()
        raise NotationError(
            _S.UNKNOWN_COMMAND, word=word, suggestion=suggest(word, lang), column=column
        )
    key, length = found
    verb_column = tokens.column()
    word = " ".join(tokens.words[tokens.at : tokens.at + length])
    tokens.at += length
    build = _BUILDERS[key]
    in_turn = key in _IN_TURN
    if seat is not None and in_turn:
        raise NotationError(_S.BAD_SEAT, text=word, why="seat_in_turn", column=verb_column)
    if not in_turn and seat is None:
        if view is None:
            raise NotationError(_S.NEEDS_VIEW, text=word, why="needs_seat", column=verb_column)
        seat = view.seat
    own = view is not None and (view.seat == view.current if in_turn else seat == view.seat)
    return build(reader, word, seat if seat is not None else -1, own)


def _no_args(make: Callable[[], Step]) -> Callable[[_Reader, str, int, bool], Step]:
    def build(reader: _Reader, word: str, seat: int, own: bool) -> Step:
        reader.done(word)
        return make()

    return build


def _seat_only(make: Callable[[int], Step]) -> Callable[[_Reader, str, int, bool], Step]:
    def build(reader: _Reader, word: str, seat: int, own: bool) -> Step:
        reader.done(word)
        return make(seat)

    return build


def _rupere(reader: _Reader, word: str, seat: int, own: bool) -> Step:
    reader.need("position", word, "rupere")
    tokens = reader.tokens
    first, column = tokens.plain[tokens.at], tokens.columns[tokens.at]
    if first.isdigit():
        tokens.take()
        reader.done(word)
        index = _number(first, column, "position")
        view = reader.view
        if view is not None and index >= len(view.row):
            raise NotationError(_S.ROW_POSITION, index=index, count=len(view.row), column=column)
        return Rupere(index)
    tile, primed, column = reader.tile()
    reader.done(word)
    view = reader.view
    if view is None:
        raise NotationError(_S.NEEDS_VIEW, text=str(tile), why="needs_row_position", column=column)
    row = view.row
    found = [k for k, i in enumerate(row) if view.table.tile(i) == tile]
    pick = -2 if primed else -1
    if len(found) < -pick:
        raise NotationError(_S.NOT_IN_ROW, tile=str(tile) + ("'" if primed else ""), column=column)
    index = found[pick]
    return TakeLastDiscard() if index == len(row) - 1 else Rupere(index)


def _meld(reader: _Reader, word: str, seat: int, own: bool) -> Step:
    reader.need("tiles", word, "meld")
    tiles = []
    while reader.tokens.left():
        tiles.append(reader.tile())
    return MeldTiles(reader.rack_ids(tiles, placing=True, own=own))


def _one_tile(cls: type[Discard] | type[Close], command: str) -> Callable[..., Step]:
    def build(reader: _Reader, word: str, seat: int, own: bool) -> Step:
        reader.need("tile", word, command)
        tile = reader.tile()
        reader.done(word)
        (tile_id,) = reader.rack_ids([tile], placing=cls is Close, own=own)
        return cls(tile_id)

    return build


def _lay(reader: _Reader, word: str, seat: int, own: bool) -> Step:
    reader.need("tile", word, "lay")
    tile = reader.tile()
    reader.tokens.skip(reader.connectors)
    reader.need("meld", word, "lay")
    meld = reader.meld_number()
    end: End | None = None
    if reader.tokens.left():
        given, column = reader.tokens.take()
        plain = _plain(given)
        for each in (End.LOW, End.HIGH, End.SET):
            if plain in _word_set(reader.lang, each.value):
                end = each
                break
        else:
            raise NotationError(_S.BAD_END, text=given, column=column)
    reader.done(word)
    (tile_id,) = reader.rack_ids([tile], placing=True, own=own)
    return LayOff(tile_id, meld, end)


def _swap(reader: _Reader, word: str, seat: int, own: bool) -> Step:
    reader.need("tile", word, "swap")
    tile = reader.tile()
    reader.tokens.skip(reader.connectors)
    reader.need("meld", word, "swap")
    meld_column = reader.tokens.column()
    meld = reader.meld_number()
    joker: int | None = None
    if reader.tokens.left():
        reader.tokens.skip(reader.connectors)
        reader.need("joker", word, "swap")
        value, primed, column = reader.tile()
        if not value.is_joker:
            raise NotationError(_S.NO_JOKER, meld=meld, tile=str(value), column=column)
        joker = JOKER_IDS[1 if primed else 0]
    reader.done(word)
    (tile_id,) = reader.rack_ids([tile], placing=True, own=own)
    if joker is None:
        view = reader.view
        if view is None:
            raise NotationError(_S.NEEDS_VIEW, text=str(tile[0]), why="needs_joker", column=tile[2])
        joker = _joker_for(tile[0], meld, view, meld_column)
    return SwapJoker(tile_id, meld, joker)


def _joker_for(tile: Tile, index: int, view: PlayerView, column: int) -> int:
    """The joker of meld ``index`` whose place ``tile`` fits (MELD-06), else its first
    joker."""
    meld = view.table.melds[index]
    jokers = [(p, i) for p, i in enumerate(meld.ids) if i in JOKER_IDS]
    if not jokers:
        raise NotationError(_S.NO_JOKER, meld=index, column=column)
    slots = {slot.position: slot for slot in meld.meld.jokers}
    for position, joker in jokers:
        slot = slots.get(position)
        if slot is not None and tile in slot.candidates:
            return joker
    return jokers[0][1]


def _exchange(reader: _Reader, word: str, seat: int, own: bool) -> Step:
    reader.need("tile", word, "exchange")
    tile = reader.tile()
    tokens = reader.tokens
    tokens.skip(reader.connectors)
    tokens.skip(_word_set(reader.lang, "seat"))
    reader.need("seat", word, "exchange")
    other = reader.seat_number(*tokens.take())
    tokens.skip(reader.connectors)
    reader.need("tile", word, "exchange")
    other_tile = reader.tile()
    reader.done(word)
    return ExchangeDoubles(
        seat,
        other,
        _physical(tile[0], tile[1], tile[2]),
        _physical(other_tile[0], other_tile[1], other_tile[2]),
    )


_BUILDERS: Final[dict[str, Callable[[_Reader, str, int, bool], Step]]] = {
    "draw": _no_args(Draw),
    "take": _no_args(TakeLastDiscard),
    "take_atu": _no_args(TakeAtu),
    "rupere": _rupere,
    "meld": _meld,
    "lay": _lay,
    "swap": _swap,
    "discard": _one_tile(Discard, "discard"),
    "close": _one_tile(Close, "close"),
    "announce": _seat_only(AnnounceFewTiles),
    "announce_atu": _seat_only(AnnounceAtu),
    "pe_tabla": _seat_only(DeclarePeTabla),
    "redeal": _seat_only(DemandRedeal),
    "exchange": _exchange,
    "undo": _no_args(Undo),
}
_IN_TURN: Final = frozenset(
    {"draw", "take", "take_atu", "rupere", "meld", "lay", "swap", "discard", "close", "undo"}
)


# -- writing -------------------------------------------------------------------------------


def format_step(step: Step, view: PlayerView | None = None, lang: str = "en") -> str:
    """``step`` in the notation :func:`parse_step` reads, in ``lang``'s words.

    With a ``view`` (the position *before* the step, as the seat that makes it sees
    it) the short form is used wherever :func:`parse_step` with the same view reads
    it back as the same step; without one, the view-free form (the module's doc).
    A step whose fields name nothing at a table (an id past 105) is still written
    (``#106``), but cannot be read back.  A wrong type is a :class:`TypeError`."""
    if not isinstance(step, _STEP_CLASSES):
        raise TypeError(f"step must be a Step, not {type(step).__name__}")
    if view is not None and not isinstance(view, PlayerView):
        raise TypeError(f"view must be a PlayerView or None, not {type(view).__name__}")
    lang = _language(lang)
    say = _word
    in_turn = step.in_turn
    seat = getattr(step, "seat", None)
    if view is None:
        own = False
    elif in_turn:
        own = view.seat == view.current
    else:
        own = seat == view.seat
    rack = _Rack(view, placing=not isinstance(step, Discard)) if own and view else None

    def tiles(ids: Sequence[int]) -> str:
        used: set[int] = set()
        out = []
        for tile_id in ids:
            out.append(rack.write(tile_id, used) if rack is not None else _written(tile_id))
            used.add(tile_id)
        return " ".join(out)

    text: str
    match step:
        case Draw():
            text = say("draw", lang)
        case TakeLastDiscard():
            text = say("take", lang)
        case TakeAtu():
            text = say("take_atu", lang)
        case Rupere(index=index):
            text = f"{say('rupere', lang)} {_rupere_target(index, view)}"
        case MeldTiles(tiles=ids):
            text = f"{say('meld', lang)} {tiles(ids)}"
        case LayOff(tile=tile, meld=meld, end=end):
            text = f"{say('lay', lang)} {tiles([tile])} {say('on', lang)} {_num(meld)}"
            if end is not None:
                text += f" {say(end.value, lang)}"
        case SwapJoker(tile=tile, meld=meld, joker=joker):
            text = f"{say('swap', lang)} {tiles([tile])} {say('on', lang)} {_num(meld)}"
            if not _joker_implied(tile, meld, joker, view):
                text += f" {say('for', lang)} {_written(joker)}"
        case Discard(tile=tile):
            text = f"{say('discard', lang)} {tiles([tile])}"
        case Close(tile=tile):
            text = f"{say('close', lang)} {tiles([tile])}"
        case AnnounceFewTiles():
            text = say("announce", lang)
        case AnnounceAtu():
            text = say("announce_atu", lang)
        case DeclarePeTabla():
            text = say("pe_tabla", lang)
        case DemandRedeal():
            text = say("redeal", lang)
        case ExchangeDoubles(other=other, tile=tile, other_tile=other_tile):
            text = (
                f"{say('exchange', lang)} {_written(tile)} {say('with', lang)} "
                f"{say('seat', lang)} {_num(other)} {say('exchange_for', lang)} "
                f"{_written(other_tile)}"
            )
        case Undo():
            text = say("undo", lang)
    if not in_turn and not own:
        text = f"{say('seat', lang)} {_num(seat if isinstance(seat, int) else -1)}: {text}"
    return text


_STEP_CLASSES: Final = (
    Draw,
    TakeLastDiscard,
    Rupere,
    TakeAtu,
    MeldTiles,
    LayOff,
    SwapJoker,
    Discard,
    Close,
    AnnounceFewTiles,
    AnnounceAtu,
    DeclarePeTabla,
    ExchangeDoubles,
    DemandRedeal,
    Undo,
)


def _rupere_target(index: int, view: PlayerView | None) -> str:
    """The row tile when ``rupere <tile>`` reads back as this rupere (the latest copy
    of its value, not the last tile), else the position."""
    if view is None or not 0 <= index < len(view.row) - 1:
        return _num(index)
    row, table = view.row, view.table
    tile = table.tile(row[index])
    latest = max(k for k, i in enumerate(row) if table.tile(i) == tile)
    return str(tile) if latest == index else _num(index)


def _joker_implied(tile: int, meld: int, joker: int, view: PlayerView | None) -> bool:
    """Whether ``swap <tile> on <meld>`` reads back with this joker."""
    if view is None or not 0 <= meld < len(view.table.melds) or not 0 <= tile <= 105:
        return False
    value = view.table.tile(tile)
    try:
        return _joker_for(value, meld, view, 0) == joker
    except NotationError:
        return False
