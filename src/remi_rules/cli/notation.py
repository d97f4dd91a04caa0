"""The short step notation of ``remi-rules play`` and ``replay``: text to engine steps
and back.

:func:`parse_command` reads one typed line for the seat of a
:class:`~remi_rules.engine.PlayerView` and returns an engine step, with the typed
tiles mapped to that seat's physical tile ids, or a :class:`Meta` command of the
terminal (``hint``, ``help``, ...).  Bad input raises :class:`NotationError`, whose
``message("ro")`` / ``message("en")`` says what is wrong (the catalogue entry of
its code); whether a well-formed step
is *legal* is the engine's business (``IllegalStepError``).  :func:`format_step`
writes a step in the same notation, so a hint's steps can be typed back.

===============================  ==============================================
``draw`` / ``trage``             :class:`~remi_rules.engine.Draw` (TURN-03)
``take`` / ``ia``                :class:`~remi_rules.engine.TakeLastDiscard` (RUPE-01)
``rupere 9R``, ``rupere 3``      :class:`~remi_rules.engine.Rupere` at that tile
                                 (its latest copy) or position (RUPE-03)
``atu``                          :class:`~remi_rules.engine.TakeAtu` (ATU-06)
``meld 5R 6R 7R``                :class:`~remi_rules.engine.MeldTiles`, in laid order
``lay 9G on 2 [low|high]``       :class:`~remi_rules.engine.LayOff` (LIPI-01/02)
``swap 6R on 3``                 :class:`~remi_rules.engine.SwapJoker` (JOLY-01)
``discard 13R``, ``close 2A``    :class:`~remi_rules.engine.Discard`,
                                 :class:`~remi_rules.engine.Close` (CLOSE-01/02)
``announce``, ``announce atu``   :class:`~remi_rules.engine.AnnounceFewTiles`
                                 (ANNOUNCE-01), :class:`~remi_rules.engine.AnnounceAtu`
                                 (ATU-02)
``pe tabla``, ``redeal``         :class:`~remi_rules.engine.DeclarePeTabla` (CLOSE-06),
                                 :class:`~remi_rules.engine.DemandRedeal` (DUBLE-05)
``offer 7R``                     :class:`~remi_rules.engine.OfferDoubles`: the double
                                 of 7R (DUBLE-03)
``accept 4G from 2``             :class:`~remi_rules.engine.AcceptDoubles`: seat 2's
                                 offer, with the double of 4G (DUBLE-03/04)
``undo``                         :class:`~remi_rules.engine.Undo`
===============================  ==============================================

The Romanian words work too (``trage``, ``ia``, ``etalează``, ``lipește 9G la 2``,
``schimbă 6R la 3``, ``aruncă 13R``, ``închide 2A``, ``anunță``, ``oferă 7R``,
``acceptă 4G de la 2``, ``anulează``), with
or without diacritics; tiles may be typed in lower case.  Among two copies of a
value on the rack, a step that places a tile uses the one the turn owes first (the
tile taken from the row, a swapped joker, the atu's twin) and a discard keeps it.

>>> from remi_rules import variants
>>> from remi_rules.engine import Game
>>> game = Game.new(variants.get("clasic"), 2, seed=4, starter=0)
>>> view = game.view(0)
>>> rack = sorted(str(view.table.tile(i)) for i in view.rack)
>>> step = parse_command(f"discard {rack[0].lower()}", view)
>>> step.kind, format_step(step, view, "en") == f"discard {rack[0]}"
('discard', True)
>>> format_step(step, view, "ro").split()[0]
'aruncă'
>>> try:
...     parse_command("discard 13X", view)
... except NotationError as err:
...     print(err.code.value, "|", err.message("ro"))
input_bad_tile | „13X”: culoarea trebuie să fie R (roșu), G (galben), A (albastru) sau N (negru).
"""

from __future__ import annotations

import enum
import unicodedata
from collections.abc import Sequence
from typing import Final, Protocol

from .. import _i18n as i18n
from ..engine import (
    AcceptDoubles,
    AnnounceAtu,
    AnnounceFewTiles,
    Close,
    DeclarePeTabla,
    DemandRedeal,
    Discard,
    Draw,
    LayOff,
    MeldTiles,
    OfferDoubles,
    PlayerView,
    Rupere,
    Step,
    SwapJoker,
    TakeAtu,
    TakeLastDiscard,
    Undo,
)
from ..errors import RemiError, TileParseError
from ..lipire import End
from ..table import Table
from ..tiles import JOKER, JOKER_IDS, Tile, parse_tiles

__all__ = ["Meta", "NotationError", "NotationErrorCode", "format_step", "parse_command"]


class Meta(enum.StrEnum):
    """A command of the terminal, not a step of the game."""

    HINT = "hint"
    HELP = "help"
    QUIT = "quit"
    SHOW = "show"
    PASS = "pass"
    """An empty line (or ``pass``): go on without a step."""


class NotationErrorCode(enum.StrEnum):
    """Why a typed line is not a step."""

    UNKNOWN_COMMAND = "input_unknown_command"
    MISSING = "input_missing"
    EXTRA = "input_extra"
    BAD_TILE = "input_bad_tile"
    NOT_IN_RACK = "input_not_in_rack"
    TOO_FEW = "input_too_few"
    NOT_IN_ROW = "input_not_in_row"
    BAD_NUMBER = "input_bad_number"
    ROW_POSITION = "input_row_position"
    NO_JOKER = "input_no_joker"
    BAD_END = "input_bad_end"


class NotationError(RemiError, ValueError):
    """A typed line that is not a step (bad notation, a tile the player does not
    hold, a row position that does not exist).  ``code`` is a
    :class:`NotationErrorCode`; ``details`` name the offending text."""

    code: NotationErrorCode

    def message(self, lang: str = "en") -> str:
        """The explanation in ``lang`` (``"ro"``, ``"en"`` …): the catalogue entry of
        the code; ``what`` names a ``what:`` entry, ``command`` its ``example:``, and
        a ``cause`` (the tile's parse error) is written in the same language."""
        details = dict(self.details)
        if "command" in details:
            details["example"] = details["command"]
        return i18n.text(self.code.value, lang, details, bounded=False)


# -- reading ------------------------------------------------------------------------------

_WORDS: Final[dict[str, str]] = {
    "draw": "draw",
    "trage": "draw",
    "take": "take",
    "ia": "take",
    "rupere": "rupere",
    "rupe": "rupere",
    "atu": "atu",
    "meld": "meld",
    "etaleaza": "meld",
    "etalez": "meld",
    "lay": "lay",
    "lipeste": "lay",
    "lipesc": "lay",
    "swap": "swap",
    "schimba": "swap",
    "schimb": "swap",
    "discard": "discard",
    "arunca": "discard",
    "arunc": "discard",
    "close": "close",
    "inchide": "close",
    "inchid": "close",
    "announce": "announce",
    "anunta": "announce",
    "anunt": "announce",
    "declare": "pe_tabla",
    "redeal": "redeal",
    "strica": "redeal",
    "undo": "undo",
    "anuleaza": "undo",
    "offer": "offer",
    "ofera": "offer",
    "ofer": "offer",
    "accept": "accept",
    "accepta": "accept",
    "hint": Meta.HINT,
    "sugestie": Meta.HINT,
    "help": Meta.HELP,
    "ajutor": Meta.HELP,
    "?": Meta.HELP,
    "quit": Meta.QUIT,
    "exit": Meta.QUIT,
    "iesire": Meta.QUIT,
    "show": Meta.SHOW,
    "arata": Meta.SHOW,
    "pass": Meta.PASS,
    "continua": Meta.PASS,
}
_CONNECTORS: Final = frozenset({"on", "la", "pe", "to", "in"})
_FROM: Final = frozenset({"from", "de", "la"})
_ENDS: Final = {"low": End.LOW, "jos": End.LOW, "high": End.HIGH, "sus": End.HIGH}


def _plain(word: str) -> str:
    """``word`` in lower case without diacritics (``Aruncă`` → ``arunca``)."""
    decomposed = unicodedata.normalize("NFD", word.lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _tile_token(token: str) -> str:
    """A typed tile in the library's notation: ``7r`` → ``7R``, ``j(=8r)`` → ``J(=8R)``."""
    return token.upper()


def parse_command(text: str, view: PlayerView) -> Step | Meta:
    """The step (or terminal command) typed as ``text`` by ``view.seat``.

    Tiles are mapped to the seat's physical tile ids on its rack (``view.rack``),
    a row tile to its position in ``view.row``, a swap to the joker of the meld whose
    place the tile fits.  Raises :class:`NotationError` for anything that is not a
    step in the notation (see the module's table)."""
    words = text.replace(",", " ").split()
    if not words:
        return Meta.PASS
    word = words[0]
    plain = [_plain(w) for w in words]
    if plain[:2] == ["pe", "tabla"]:
        _no_more(words[2:], 0, word)
        return DeclarePeTabla(view.seat)
    command = _WORDS.get(plain[0])
    if command is None:
        raise NotationError(NotationErrorCode.UNKNOWN_COMMAND, word=word)
    args = words[1:]
    if isinstance(command, Meta):
        _no_more(args, 0, word)
        return command
    simple: dict[str, Step] = {
        "draw": Draw(),
        "atu": TakeAtu(),
        "undo": Undo(),
        "pe_tabla": DeclarePeTabla(view.seat),
        "redeal": DemandRedeal(view.seat),
    }
    if command in simple:
        _no_more(args, 0, word)
        return simple[command]
    if command == "take":
        if plain[1:] == ["atu"]:
            return TakeAtu()
        _no_more(args, 0, word)
        return TakeLastDiscard()
    if command == "announce":
        if plain[1:] == ["atu"]:
            return AnnounceAtu(view.seat)
        _no_more(args, 0, word)
        return AnnounceFewTiles(view.seat)
    if command == "rupere":
        return _rupere(args, view, word)
    if command in ("offer", "accept"):
        return _doubles(command, args, view, word)
    if command == "meld":
        if not args:
            raise NotationError(NotationErrorCode.MISSING, word=word, what="tiles", command=command)
        return MeldTiles(_rack_ids(_tiles(args), view, placing=True))
    if command in ("discard", "close"):
        if not args:
            raise NotationError(NotationErrorCode.MISSING, word=word, what="tile", command=command)
        _no_more(args, 1, word)
        (tile_id,) = _rack_ids(_tiles(args), view, placing=command == "close")
        return Discard(tile_id) if command == "discard" else Close(tile_id)
    return _lay_or_swap(command, args, view, word)


def _no_more(args: Sequence[str], allowed: int, word: str) -> None:
    """Refuse anything typed after the ``allowed`` arguments of command ``word``."""
    if len(args) > allowed:
        raise NotationError(NotationErrorCode.EXTRA, text=" ".join(args[allowed:]), word=word)


def _tiles(tokens: Sequence[str]) -> tuple[Tile, ...]:
    """The typed tiles; a bad one is named with its position only among several."""
    try:
        if len(tokens) == 1:
            return (Tile.parse(_tile_token(tokens[0])),)
        return parse_tiles(" ".join(_tile_token(t) for t in tokens))
    except TileParseError as err:
        raise NotationError(NotationErrorCode.BAD_TILE, cause=err) from None


def _meld_number(token: str) -> int:
    if not token.isdigit():
        raise NotationError(NotationErrorCode.BAD_NUMBER, text=token, what="meld_number")
    return int(token)


def _owed(view: PlayerView) -> set[int]:
    """Rack tiles the turn owes to the table: the tile taken from the row (RUPE-01) or
    the atu (ATU-06), a swapped joker (JOLY-04), and the atu's twin (ATU-02/04)."""
    owed = {view.atu ^ 1}
    turn = view.own_turn
    if turn is not None:
        if turn.obligation is not None:
            owed.add(turn.obligation.picked)
        owed.update(turn.swapped_jokers)
    return owed


def _rack_ids(tiles: Sequence[Tile], view: PlayerView, *, placing: bool) -> tuple[int, ...]:
    """The seat's physical tiles for ``tiles``: for a step that places them, the owed
    copy first; for a discard, the owed copy last."""
    table = view.table
    free = list(view.rack)
    owed = _owed(view)
    out: list[int] = []
    for tile in tiles:
        same = [i for i in free if table.tile(i) == tile]
        if not same and tile == JOKER:  # a plain J also names a fixed joker (JOLY-05)
            same = [i for i in free if table.tile(i).is_joker]
        if not same:
            held = sum(1 for i in view.rack if table.tile(i) == tile)
            wanted = sum(1 for t in tiles if t == tile)
            if held:
                raise NotationError(
                    NotationErrorCode.TOO_FEW, tile=str(tile), held=held, wanted=wanted
                )
            raise NotationError(NotationErrorCode.NOT_IN_RACK, tile=str(tile))
        same.sort(key=lambda i: (i not in owed) if placing else (i in owed))
        out.append(same[0])
        free.remove(same[0])
    return tuple(out)


def _row_index(tile: Tile, row: Sequence[int], table: Table) -> int | None:
    """The position of the latest copy of ``tile`` in the row (the shorter rupere)."""
    found = [k for k, i in enumerate(row) if table.tile(i) == tile]
    return found[-1] if found else None


def _rupere(args: Sequence[str], view: PlayerView, word: str) -> Step:
    if not args:
        raise NotationError(NotationErrorCode.MISSING, word=word, what="position", command="rupere")
    _no_more(args, 1, word)
    row = view.row
    if args[0].isdigit():
        index = int(args[0])
        if index >= len(row):
            raise NotationError(NotationErrorCode.ROW_POSITION, index=index, count=len(row))
    else:
        (tile,) = _tiles(args[:1])
        found = _row_index(tile, row, view.table)
        if found is None:
            raise NotationError(NotationErrorCode.NOT_IN_ROW, tile=str(tile))
        index = found
    return TakeLastDiscard() if index == len(row) - 1 else Rupere(index)


def _doubles(command: str, args: Sequence[str], view: PlayerView, word: str) -> Step:
    """``offer 7R``: offer the double of 7R; ``accept 4G [from] 2``: take up seat 2's
    offer with the double of 4G (DUBLE-03)."""
    if not args:
        raise NotationError(NotationErrorCode.MISSING, word=word, what="tile", command=command)
    (tile_id,) = _rack_ids(_tiles(args[:1]), view, placing=True)
    if command == "offer":
        _no_more(args, 1, word)
        return OfferDoubles(view.seat, tile_id)
    rest = [a for a in args[1:] if _plain(a) not in _FROM]
    if not rest:
        raise NotationError(NotationErrorCode.MISSING, word=word, what="seat", command=command)
    _no_more(rest, 1, word)
    if not rest[0].isdigit():
        raise NotationError(NotationErrorCode.BAD_NUMBER, text=rest[0], what="seat")
    return AcceptDoubles(view.seat, tile_id, int(rest[0]))


def _lay_or_swap(command: str, args: Sequence[str], view: PlayerView, word: str) -> Step:
    rest = list(args)
    if len(rest) >= 2 and _plain(rest[1]) in _CONNECTORS:
        del rest[1]
    if len(rest) < 2:
        what = "tile" if not rest else "meld"
        raise NotationError(NotationErrorCode.MISSING, word=word, what=what, command=command)
    (tile,) = _tiles(rest[:1])
    meld = _meld_number(rest[1])
    if command == "swap":
        _no_more(rest, 2, word)
        (tile_id,) = _rack_ids((tile,), view, placing=True)
        return SwapJoker(tile_id, meld, _joker_for(tile, meld, view.table))
    end: End | None = None
    if len(rest) > 2:
        end = _ENDS.get(_plain(rest[2]))
        if end is None:
            raise NotationError(NotationErrorCode.BAD_END, text=rest[2])
        _no_more(rest, 3, word)
    (tile_id,) = _rack_ids((tile,), view, placing=True)
    return LayOff(tile_id, meld, end)


def _joker_for(tile: Tile, index: int, table: Table) -> int:
    """The joker of meld ``index`` whose place ``tile`` fits (MELD-06), else its first
    joker; a meld that does not exist is left to the engine to refuse."""
    if not 0 <= index < len(table.melds):
        return JOKER_IDS[0]
    meld = table.melds[index]
    jokers = [(p, i) for p, i in enumerate(meld.ids) if i in JOKER_IDS]
    if not jokers:
        raise NotationError(NotationErrorCode.NO_JOKER, meld=index)
    slots = {slot.position: slot for slot in meld.meld.jokers}
    for position, joker in jokers:
        slot = slots.get(position)
        if slot is not None and tile in slot.candidates:
            return joker
    return jokers[0][1]


# -- writing ------------------------------------------------------------------------------


class _Where(Protocol):
    """Where a step is made: a :class:`~remi_rules.engine.GameState` or a view."""

    @property
    def table(self) -> Table: ...

    @property
    def row(self) -> tuple[int, ...]: ...


def format_step(step: Step, where: _Where, lang: str = "en") -> str:
    """``step`` in the notation :func:`parse_command` reads, for the position
    ``where`` (the state or view *before* the step: a rupere names the row tile, or
    its position when an earlier copy of it lies in the row)."""
    i18n.language(lang)
    table = where.table

    def say(key: str, **details: object) -> str:
        return i18n.text(f"word:{key}", lang, details, bounded=False)

    def t(tile_id: int) -> str:
        return _tile_text(tile_id, table)

    match step:
        case Draw():
            return say("draw")
        case TakeLastDiscard():
            return say("take")
        case Rupere(index=index):
            row = where.row
            if 0 <= index < len(row) and _row_index(table.tile(row[index]), row, table) == index:
                return f"{say('rupere')} {t(row[index])}"
            return f"{say('rupere')} {index}"
        case TakeAtu():
            return say("atu")
        case MeldTiles(tiles=tiles):
            return f"{say('meld')} {' '.join(t(i) for i in tiles)}"
        case LayOff(tile=tile, meld=meld, end=end):
            text = say("lay", tile=t(tile), meld=meld)
            if end in (End.LOW, End.HIGH):
                text += f" {say(end.value)}"
            return text
        case SwapJoker(tile=tile, meld=meld):
            return say("swap", tile=t(tile), meld=meld)
        case Discard(tile=tile):
            return f"{say('discard')} {t(tile)}"
        case Close(tile=tile):
            return f"{say('close')} {t(tile)}"
        case AnnounceFewTiles():
            return say("announce")
        case AnnounceAtu():
            return say("announce_atu")
        case DeclarePeTabla():
            return say("pe_tabla")
        case DemandRedeal():
            return say("redeal")
        case OfferDoubles(tile=tile):
            return say("offer", tile=t(tile))
        case AcceptDoubles(tile=tile, offer=offer):
            return say("accept", tile=t(tile), offer=offer)
        case Undo():
            return say("undo")
    raise TypeError(f"not a step: {step!r}")  # pragma: no cover


def _tile_text(tile_id: int, table: Table) -> str:
    try:
        return str(table.tile(tile_id))
    except (TypeError, ValueError):
        return f"#{tile_id}"
