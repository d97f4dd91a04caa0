"""The words of a hint (ONLINE-06): what a :class:`~remi_rules.hints.TurnPlan` says.

A plan's explanation is a list of :class:`Note` values, one sentence each: a
:class:`NoteCode` and the details (data and sub-codes) that fill its text, in any
language of the catalogues (the entry ``hint:<code>``, see :mod:`remi_rules._i18n`).  The
search (:mod:`remi_rules._hint_search`) builds the notes of each candidate turn as it
plays it out; only the winner's are kept.  The names are exported from
:mod:`remi_rules.hints`.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping

import attrs

from . import _i18n as i18n
from .engine import Step
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


@attrs.frozen
class Note:
    """One sentence of a plan's explanation: a :class:`NoteCode` and its details."""

    code: NoteCode
    details: Mapping[str, object] = attrs.field(factory=dict)

    def message(self, lang: str = "en") -> str:
        """The sentence in ``lang`` (``"ro"``, ``"en"``, any of
        :func:`remi_rules._i18n.languages`)."""
        return i18n.text(f"hint:{self.code.value}", lang, self.details)


def few_tiles_note(count: int, penalty: int | None) -> Note:
    """The note that asks a seat left with ``count`` tiles to announce it (ANNOUNCE-01),
    or lose ``penalty`` points (ANNOUNCE-03)."""
    return Note(NoteCode.ANNOUNCE_FEW, {"count": count, "penalty": penalty or 0})


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
        """Why this turn, in ``lang`` (``"ro"`` Romanian, ``"en"`` English, any of
        :func:`remi_rules._i18n.languages`)."""
        return " ".join(note.message(lang) for note in self.notes)

    def __str__(self) -> str:
        return "; ".join(str(step) for step in self.steps)


def meld_text(meld: TableMeld) -> str:
    """A table meld in notation, as the notes show it."""
    return tiles_str(meld.tiles)
