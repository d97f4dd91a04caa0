"""The words of a hint (ONLINE-06): what a :class:`~remi_rules.hints.TurnPlan` says.

A plan's explanation is a list of :class:`Note` values, one sentence each: a
:class:`NoteCode` and the details that fill its text, in Romanian and in English.  The
search (:mod:`remi_rules._hint_search`) builds the notes of each candidate turn as it
plays it out; only the winner's are kept.  The names are exported from
:mod:`remi_rules.hints`.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import Final

import attrs

from .engine import Step
from .ruleset import OpeningComposition
from .table import TableMeld
from .tiles import tiles_str

__all__ = ["Note", "NoteCode", "TurnPlan", "few_tiles_note", "meld_text"]


class NoteCode(enum.StrEnum):
    """One sentence of a plan's explanation."""

    ANNOUNCE_ATU = "announce_atu"
    DRAW = "draw"
    DRAW_ONLY = "draw_only"
    THEN_ASK = "then_ask"
    TAKE_LAST = "take_last"
    RUPERE = "rupere"
    TAKE_ATU = "take_atu"
    SWAP = "swap"
    OPEN = "open"
    NO_OPENING = "no_opening"
    MELD = "meld"
    LAY_OFF = "lay_off"
    CLOSE = "close"
    DISCARD = "discard"
    FIRST_TURN = "first_turn"
    KEEP_JOKER = "keep_joker"
    ANNOUNCE_FEW = "announce_few"
    UNDO = "undo"


# (Romanian, English); ``{name}`` placeholders come from the note's details.
_TEXT: Final[dict[NoteCode, tuple[str, str]]] = {
    NoteCode.ANNOUNCE_ATU: (
        "Anunță atuul: ai perechea lui, {tile}; la final primești {bonus} de puncte "
        "dacă ai etalat.",
        "Announce the atu: you hold its twin, {tile}; it earns you {bonus} points at the "
        "end if you have opened.",
    ),
    NoteCode.DRAW: (
        "Trage din grămadă: nicio piesă de jos nu te ajută mai mult decât una nouă.",
        "Draw from the stock: no tile in the row helps you more than a fresh one.",
    ),
    NoteCode.DRAW_ONLY: (
        "Trage din grămadă: de jos nu poți lua nimic acum.",
        "Draw from the stock: you cannot take anything from the row now.",
    ),
    NoteCode.THEN_ASK: (
        "După ce tragi, cere din nou o sugestie pentru restul turei.",
        "Once you have drawn, ask again for the rest of the turn.",
    ),
    NoteCode.TAKE_LAST: (
        "Ia ultima piesă aruncată, {tile}: intră în {meld}.",
        "Take the last discard, {tile}: it goes into {meld}.",
    ),
    NoteCode.RUPERE: (
        "Rupe șirul la {tile} și ia cele {count} piese de acolo încolo: {tile} intră în {meld}.",
        "Break the row at {tile} and take the {count} tiles from there on: {tile} goes "
        "into {meld}.",
    ),
    NoteCode.TAKE_ATU: (
        "Ia atuul {tile}: cu el închizi în această tură.",
        "Take the atu {tile}: with it you close this turn.",
    ),
    NoteCode.SWAP: (
        "Schimbă jokerul din {meld} cu {tile} și ia jokerul.",
        "Put {tile} in the joker's place in {meld} and take the joker.",
    ),
    NoteCode.OPEN: (
        "Etalează prima dată: {melds} ({points} de puncte; minimul este {minimum}).",
        "Make your first etalare: {melds} ({points} points; the minimum is {minimum}).",
    ),
    NoteCode.NO_OPENING: (
        "Încă nu poți etala: îți trebuie {minimum} de puncte {shape_ro}.",
        "You cannot open yet: you need {minimum} points {shape_en}.",
    ),
    NoteCode.MELD: (
        "Pune jos {meld} ({points} de puncte).",
        "Meld {meld} ({points} points).",
    ),
    NoteCode.LAY_OFF: (
        "Lipește {tile} la {meld}.",
        "Lay {tile} off on {meld}.",
    ),
    NoteCode.CLOSE: (
        "Închide cu {tile}{effect_ro}: runda îți aduce {score} de puncte.",
        "Close with {tile}{effect_en}: the round scores {score} for you.",
    ),
    NoteCode.DISCARD: (
        "Aruncă {tile}: {why_ro}.",
        "Discard {tile}: {why_en}.",
    ),
    NoteCode.FIRST_TURN: (
        "În prima tură nu se etalează: doar arunci o piesă.",
        "No melds in your first turn: you only discard.",
    ),
    NoteCode.KEEP_JOKER: (
        "Păstrează jokerul pentru etalare.",
        "Keep the joker for your opening.",
    ),
    NoteCode.ANNOUNCE_FEW: (
        "Anunță că mai ai {tiles_ro}, altfel pierzi {penalty} de puncte.",
        "Announce that you hold {tiles_en}, or you lose {penalty} points.",
    ),
    NoteCode.UNDO: (
        "Tura nu se mai poate încheia așa: anulează ultimul pas.",
        "The turn cannot end as it stands: undo the last step.",
    ),
}

WHY: Final = {
    "alone": ("nu face grup cu nimic din mână", "it goes with nothing in your hand"),
    "least": (
        "e piesa de care ai cea mai mică nevoie",
        "it is the tile you are least likely to use",
    ),
}
SHAPE: Final = {
    OpeningComposition.RUN: ("cu o suită", "with a run"),
    OpeningComposition.RUN_AND_SET: ("cu o suită și o terță", "with a run and a set"),
}


@attrs.frozen
class Note:
    """One sentence of a plan's explanation: a :class:`NoteCode` and its details."""

    code: NoteCode
    details: Mapping[str, object] = attrs.field(factory=dict)

    def message(self, lang: str = "en") -> str:
        """The sentence in ``"ro"`` or ``"en"``."""
        if lang not in ("ro", "en"):
            raise ValueError(f"unknown language {lang!r}; use 'ro' or 'en'")
        return _TEXT[self.code][lang == "en"].format(**self.details)


def few_tiles_note(count: int, penalty: int | None) -> Note:
    """The note that asks a seat left with ``count`` tiles to announce it (ANNOUNCE-01),
    or lose ``penalty`` points (ANNOUNCE-03)."""
    return Note(
        NoteCode.ANNOUNCE_FEW,
        {
            "tiles_ro": "o piesă" if count == 1 else f"{count} piese",
            "tiles_en": "1 tile" if count == 1 else f"{count} tiles",
            "penalty": penalty or 0,
        },
    )


@attrs.frozen
class TurnPlan:
    """A whole turn (or its rest) for ``seat``.

    ``steps`` apply legally in order from the position the plan was made for (the
    announcements a seat makes around its turn included).  ``complete`` is False when
    the plan stops at a draw from the stock.  ``closes`` and ``opens`` say whether the
    turn closes the round or makes the first etalare; ``points`` are the etalare
    points (VALUE-01) the turn puts on the table (new melds and lay-offs); ``score``
    is the planner's valuation; ``notes`` the explanation, one sentence each."""

    seat: int
    steps: tuple[Step, ...]
    notes: tuple[Note, ...]
    complete: bool = True
    closes: bool = False
    opens: bool = False
    points: int = 0
    score: float = 0.0

    def reason(self, lang: str = "en") -> str:
        """Why this turn, in ``"ro"`` (Romanian) or ``"en"`` (English)."""
        return " ".join(note.message(lang) for note in self.notes)

    def __str__(self) -> str:
        return "; ".join(str(step) for step in self.steps)


def meld_text(meld: TableMeld) -> str:
    """A table meld in notation, as the notes show it."""
    return tiles_str(meld.tiles)
