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

:func:`step_words` gives each verb's word in a language (a help text),
:func:`match_verb` the verb a typed line starts with and :func:`suggest` the closest
verb to a misspelt word, for a frontend's own commands (the command line's ``hint``,
``help`` …).

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

from collections.abc import Callable, Sequence
from typing import Final

import attrs

from ._notation_words import (
    PRIMES,
    STEP_WORDS,
    _language,
    _num,
    _number,
    _physical,
    _plain,
    _Rack,
    _tile_token,
    _Tokens,
    _word,
    _word_set,
    _written,
    match_verb,
    step_words,
    suggest,
)
from .engine.steps import (
    STEP_TYPES,
    AcceptDoubles,
    Discard,
    LayOff,
    MeldTiles,
    Rupere,
    Step,
    SwapJoker,
    TakeLastDiscard,
)
from .engine.view import PlayerView
from .errors import NotationError, NotationErrorCode
from .lipire import End
from .tiles import JOKER_IDS, Tile

__all__ = [
    "MAX_STEP_TEXT",
    "PRIMES",
    "STEP_WORDS",
    "NotationError",
    "NotationErrorCode",
    "format_step",
    "match_verb",
    "parse_step",
    "step_words",
    "suggest",
]

_S = NotationErrorCode

MAX_STEP_TEXT: Final = 200
"""The longest text :func:`parse_step` reads, in characters (the longest step, a meld
of 13 tiles with fixed jokers and primes, takes under 120).  A longer one is refused
as ``notation_too_long`` before it is split."""

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


def _by_traits(cls: type[Step]) -> Callable[[_Reader, str, int, bool], Step]:
    """The reader of a step class whose fields are none, a ``seat`` (out of turn)
    and/or a ``tile``: ``<verb>`` or ``<verb> <tile>`` (the seat is the prefix's or
    the view's).  The tile is the copy the turn owes first, or last for a discard."""
    names = tuple(f.name for f in attrs.fields(cls))
    takes_tile = names in (("tile",), ("seat", "tile"))
    if names not in ((), ("seat",)) and not takes_tile:
        raise TypeError(f"{cls.__name__} needs a reader of its own in remi_rules.notation")
    placing = cls is not Discard

    def build(reader: _Reader, word: str, seat: int, own: bool) -> Step:
        args: dict[str, int] = {} if cls.in_turn else {"seat": seat}
        if takes_tile:
            reader.need("tile", word, cls.word)
            tile = reader.tile()
            reader.done(word)
            (args["tile"],) = reader.rack_ids([tile], placing=placing, own=own)
        else:
            reader.done(word)
        return cls(**args)

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


def _accept(reader: _Reader, word: str, seat: int, own: bool) -> Step:
    """``accept seat 2 with 4G``: the seat takes up seat 2's offer with the double of
    4G (DUBLE-03/04)."""
    tokens = reader.tokens
    tokens.skip(_word_set(reader.lang, "seat"))
    reader.need("seat", word, "accept")
    offer = reader.seat_number(*tokens.take())
    tokens.skip(reader.connectors)
    reader.need("tile", word, "accept")
    tile = reader.tile()
    reader.done(word)
    (tile_id,) = reader.rack_ids([tile], placing=True, own=own)
    return AcceptDoubles(seat, tile_id, offer)


_READERS: Final[dict[type[Step], Callable[[_Reader, str, int, bool], Step]]] = {
    Rupere: _rupere,
    MeldTiles: _meld,
    LayOff: _lay,
    SwapJoker: _swap,
    AcceptDoubles: _accept,
}
"""The readers of the steps whose notation is more than their verb, seat and tile."""
_BUILDERS: Final = {cls.word: _READERS.get(cls) or _by_traits(cls) for cls in STEP_TYPES}
_IN_TURN: Final = frozenset(cls.word for cls in STEP_TYPES if cls.in_turn)


# -- writing -------------------------------------------------------------------------------


def format_step(step: Step, view: PlayerView | None = None, lang: str = "en") -> str:
    """``step`` in the notation :func:`parse_step` reads, in ``lang``'s words.

    With a ``view`` (the position *before* the step, as the seat that makes it sees
    it) the short form is used wherever :func:`parse_step` with the same view reads
    it back as the same step; without one, the view-free form (the module's doc).
    A step whose fields name nothing at a table (an id past 105) is still written
    (``#106``), but cannot be read back.  A wrong type is a :class:`TypeError`."""
    if not isinstance(step, STEP_TYPES):
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
        case AcceptDoubles(tile=tile, offer=offer):
            text = (
                f"{say('accept', lang)} {say('seat', lang)} {_num(offer)} "
                f"{say('with', lang)} {tiles([tile])}"
            )
        case _:  # by its traits (_by_traits): the verb, and its tile if it names one
            text = say(step.word, lang)
            tile_id = getattr(step, "tile", None)
            if isinstance(tile_id, int):
                text += f" {tiles([tile_id])}"
    if not in_turn and not own:
        text = f"{say('seat', lang)} {_num(seat if isinstance(seat, int) else -1)}: {text}"
    return text


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
