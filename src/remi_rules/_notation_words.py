"""The words, tokens and copies of the step notation (:mod:`remi_rules.notation`):
the catalogue words of each language, the typed words with their columns, a typed
tile, and the copies of a seat's rack in the order the short form names them."""

from __future__ import annotations

import contextlib
import difflib
import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache
from typing import Final

from . import _i18n as i18n
from ._safe_text import safe_text
from .engine.steps import STEP_TYPES
from .engine.view import PlayerView
from .errors import NotationError, NotationErrorCode, TileParseError
from .tiles import JOKER, Tile, ids_of, tile_of

PRIMES: Final = ("'", "\u2019", "\u02bc", "\u2032")
"""The marks of the second copy: the apostrophe, and the typographic ones a phone's
keyboard types (’ ʼ ′); :func:`~remi_rules.notation.format_step` writes the first."""

STEP_WORDS: Final = tuple(cls.word for cls in STEP_TYPES)
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


def _keys(keys: object) -> tuple[str, ...]:
    if isinstance(keys, str) or not isinstance(keys, Sequence):
        raise TypeError(f"keys must be a sequence of str, not {type(keys).__name__}")
    out = tuple(keys)
    if not all(isinstance(k, str) and len(k) <= 40 for k in out) or len(out) > 100:
        raise TypeError("keys must be at most 100 catalogue keys (str)")
    return out


def match_verb(
    words: Sequence[str], lang: str, keys: Sequence[str] = STEP_WORDS
) -> tuple[str, int] | None:
    """The verb (a key of ``keys``) that ``words`` start with (in any case, with or
    without diacritics) and how many words it takes, or None.  (The command line
    matches its own words, ``hint``, ``help`` …, the same way.)"""
    lang = _language(lang)
    keys = _keys(keys)
    if isinstance(words, str) or not isinstance(words, Sequence):
        raise TypeError(f"words must be a sequence of str, not {type(words).__name__}")
    head = tuple(_plain(w) if isinstance(w, str) else "" for w in words[:3])
    for phrase, key in _verbs(lang, tuple(keys)):
        if head[: len(phrase)] == phrase:
            return key, len(phrase)
    return None


def suggest(word: str, lang: str, keys: Sequence[str] = STEP_WORDS) -> str | None:
    """The key (of ``keys``) of the word closest to the unknown ``word`` among those
    read in ``lang``, or None when none is close (:func:`difflib.get_close_matches`,
    cutoff 0.6)."""
    lang = _language(lang)
    keys = _keys(keys)
    if not isinstance(word, str):
        raise TypeError(f"word must be a str, not {type(word).__name__}")
    plain = _plain(word[:40])
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
