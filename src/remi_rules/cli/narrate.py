"""A round told turn by turn: the steps in notation, grouped into turns (TURN-02).

:func:`apply_logged` applies a step to a :class:`~remi_rules.engine.Game` and returns
it, and the steps the engine made by itself after it (:class:`~remi_rules.engine.Automation`),
as :class:`Entry` values; :func:`replay_entries` does the same for every step of a
saved record.  A :class:`TurnLog` groups entries into turns and returns the lines to
print: one line a turn with the melds it put down or changed (``demo``, ``play``),
or one line a step with the table at each turn's end (``replay``).
"""

from __future__ import annotations

from collections.abc import Callable

import attrs

from ..engine import (
    Draw,
    Game,
    GameRecord,
    GameState,
    PlayerView,
    Rupere,
    Step,
    TakeAtu,
    TakeLastDiscard,
)
from ..notation import format_step
from ..table import Table
from .render import ids_text, row_text, seat_name, status_text, table_lines
from .texts import tiles

__all__ = ["Entry", "TurnLog", "apply_logged", "describe", "replay_entries", "step_view"]


@attrs.frozen
class Entry:
    """One step as told: who made it, in whose turn, in notation."""

    turn: int
    """The round's turn number when the step was made."""
    mover: int
    """The seat whose turn it was."""
    seat: int
    """The seat that made the step (another one for an announcement out of turn)."""
    step: Step
    in_turn: bool
    text: str
    table: Table
    """The table before the step."""


def describe(step: Step, before: GameState, after: GameState, lang: str, *, reveal: bool) -> Entry:
    """``step``, made from ``before`` and leading to ``after``, as an :class:`Entry`;
    a take names the tiles it took (face up, so public), a draw the tile drawn only
    when ``reveal``.  The step is written in the notation of :mod:`remi_rules.notation`
    as the seat that made it sees the position (the short form)."""
    mover = before.current
    seat = mover if step.in_turn else getattr(step, "seat", mover)
    text = format_step(step, step_view(before, seat), lang)
    taken: tuple[int, ...] = ()
    if isinstance(step, TakeLastDiscard) and before.row:
        taken = before.row[-1:]
    elif isinstance(step, Rupere):
        taken = before.row[step.index :]
    elif isinstance(step, TakeAtu):
        taken = (before.atu,)
    elif isinstance(step, Draw) and reveal and after.rack(mover):
        taken = after.rack(mover)[-1:]
    if taken:
        text += f" ({ids_text(taken, before.table)})"
    return Entry(before.turn, mover, seat, step, step.in_turn, text, before.table)


def step_view(state: GameState, seat: int) -> PlayerView | None:
    """The view of ``seat`` in which its steps are written, or None (the view-free
    form) for a seat not at the table."""
    return PlayerView.of(state, seat) if 0 <= seat < state.players else None


def apply_logged(
    game: Game,
    step: Step,
    lang: str,
    *,
    reveal: Callable[[int], bool],
    seat: int | None = None,
) -> list[Entry]:
    """Apply ``step`` to ``game`` and tell it, with the automatic steps that followed
    it (a forced draw, an automatic announcement).  ``reveal(seat)`` says whether the
    tile that seat draws may be shown; ``seat``, when given, is the seat that sends
    the step (another seat's step is refused, ``not_your_step``).  An illegal step
    raises :class:`~remi_rules.IllegalStepError` and changes nothing."""
    before = game.state
    known = len(game.record().steps)
    game.apply(step, seat=seat)
    after = game.state
    made = game.record().steps[known:]
    out = [describe(made[0], before, after, lang, reveal=reveal(before.current))]
    for auto in made[1:]:  # the engine's own steps, made on the state after ``step``
        out.append(describe(auto, after, after, lang, reveal=reveal(after.current)))
    return out


def replay_entries(record: GameRecord, lang: str) -> tuple[list[tuple[Entry, GameState]], Game]:
    """Every step of ``record`` told from the state it was made in (paired with that
    state), and the game at the end: the record is replayed step by step from its
    deal, without a random generator (automatic steps are in the record)."""
    game = Game.replay(record, upto=0)
    told: list[tuple[Entry, GameState]] = []
    for step in record.steps:
        before = game.state
        game.apply(step)
        told.append((describe(step, before, game.state, lang, reveal=True), before))
    return told, game


class TurnLog:
    """Groups entries into turns and says what to print.

    ``per_step=False`` (``demo``, ``play``): at each turn's end one line, ``T12  seat 2:
    draw · meld 5R 6R 7R · discard 13R  [9 tiles]``, then the melds the turn put
    down (``+``) or changed (``~``), except in the turns of ``you``, who saw them
    made.  ``per_step=True`` (``replay``): a line per step as it comes, and at each
    turn's end the rack sizes, the stock, the row and the whole table."""

    def __init__(
        self,
        lang: str,
        *,
        you: int | None = None,
        per_step: bool = False,
        each_step: bool = False,
    ) -> None:
        self.lang = lang
        self.you = you
        self.per_step = per_step or each_step
        self.each_step = each_step
        """With ``per_step``: the table after every step, not only at a turn's end."""
        self._group: list[Entry] = []

    @property
    def mover(self) -> int | None:
        """The seat whose turn is being told, if any."""
        return self._group[0].mover if self._group else None

    def add(self, entry: Entry, now: GameState) -> list[str]:
        """Take ``entry`` (``now`` is the state before it, or after it for an
        automatic step: the end of the turn before, if this entry starts a new one)."""
        lines: list[str] = []
        if self._group and entry.in_turn and entry.turn != self._group[0].turn:
            lines += self.finish(now)
        self._group.append(entry)
        if self.per_step:
            who = seat_name(entry.seat, self.lang, self.you)
            lines.append(f"T{entry.turn:<3} {who}  {entry.text}")
        return lines

    def after(self, now: GameState) -> list[str]:
        """With ``each_step``, the position after a step (``now``)."""
        if not self.each_step:
            return []
        return self._position(now)

    def finish(self, now: GameState) -> list[str]:
        """The end of the turn being told, ``now`` being the state at its end."""
        if not self._group:
            return []
        group, self._group = self._group, []
        lang = self.lang
        if self.per_step:
            return [] if self.each_step else self._position(now)
        first = group[0]
        mover = first.mover
        parts = [
            e.text
            if e.in_turn or e.seat == mover
            else f"[{seat_name(e.seat, lang, self.you)}: {e.text}]"
            for e in group
        ]
        who = seat_name(mover, lang, self.you)
        left = tiles(lang, len(now.rack(mover)))
        lines = [f"T{first.turn:<3} {who}: {' · '.join(parts)}  [{left}]"]
        if mover == self.you:  # the player saw his own melds as he made them
            return lines
        before = first.table
        marks: dict[int, str] = {}
        for index, meld in enumerate(now.table.melds):
            if index >= len(before.melds):
                marks[index] = "+"
            elif before.melds[index].ids != meld.ids:
                marks[index] = "~"
        if marks:
            lines += table_lines(
                now.table, lang, you=self.you, only=sorted(marks), marks=marks, indent="    "
            )
        return lines

    def _position(self, now: GameState) -> list[str]:
        lang = self.lang
        return [
            "      " + status_text(now, lang),
            "      " + _row_line(now, lang),
            *table_lines(now.table, lang, you=self.you, indent="      "),
        ]


def _row_line(state: GameState, lang: str) -> str:
    return row_text(state.row, state.table, lang, dead_first=state.row_dead_first)
