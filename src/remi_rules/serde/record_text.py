"""A round as a text game record, as PGN is for chess: headers, the deal, then the turns
in the step notation (:mod:`remi_rules.notation`), with the shuffles where they
happened.  docs/protocol.md ("A text game record") shows a complete one.

::

    [Rules "clasic"]
    [Fingerprint "20d1c9179d3f4469"]
    [Players 2]
    [Seat0 "Ana"]
    [Starter 0]

    rack 0: 5R 7G' …
    rack 1: …
    atu: 9A'
    stock: 3N 4R' …

    1. discard 13N'
    2. draw; meld 5R 6R 7R; discard 2G'
    seat 0: announce

* **Headers** ``[Name value]``, the value in JSON: ``Language`` (when not English:
  the words of the turns), ``Rules`` (a preset; house rules are that preset and one
  ``[Rule knob value]`` line per knob that differs), ``Fingerprint`` (the rules'),
  ``Players``, ``Seat0`` … (names other than ``seat 0`` …), ``Starter``, ``Date``
  (``YYYY-MM-DD``, when given), and for a round that is over ``Result`` (how it
  ended), ``Closer``, ``Scores`` (one total per seat) and the ``Seed`` that dealt it,
  when given: a seed is never written for a round still in play (it would tell the
  stock).
* **The deal**: the racks of seats 0, 1 …, the atu and the stock, top first, each tile
  naming its physical copy (``7R`` the even id, ``7R'`` the odd one, ``J``/``J'``).
* **The turns**: ``N.`` and the in-turn steps of turn N separated by ``;`` (a long
  turn, or one cut by an out-of-turn step or a shuffle, goes on in another line with
  the same number), each written in the short form of the seat to move
  (:func:`~remi_rules.notation.format_step` with its view); an out-of-turn step
  on its own line with its seat (``seat 2: announce``); a ``shuffle:`` line after the
  line whose step shuffled (the stock made again from the row, a new deal), or after
  the deal when the dealt atu was a joker put back (DEAL-03).
* Blank lines and lines starting with ``#`` are ignored.

:func:`load_record_text` is strict: anything wrong raises
:class:`~remi_rules.errors.InvalidRecordTextError` with a
:class:`~remi_rules.errors.RecordTextErrorCode` and the ``line`` (and for a step the
``column``); the text is bounded before it is read (:data:`MAX_DOCUMENT_BYTES`, lines
of at most :data:`MAX_RECORD_LINE` characters), and every step is replayed, so the
record it returns replays (:meth:`Game.replay <remi_rules.engine.Game.replay>`) to
the round written.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Sequence
from typing import Any, Final

import attrs

from .. import _i18n as i18n
from .. import variants
from ..engine import Game, GameRecord, PlayerView
from ..errors import (
    RecordTextErrorCode,
)
from ..notation import format_step
from ..ruleset import Ruleset
from ._bounds import MAX_NAME_LENGTH
from ._record_reader import _fail, _physical, _rack_sizes, _Reader, _seed_deals, _word
from ._size import MAX_DOCUMENT_BYTES
from .rulesets import ruleset_to_dict

__all__ = [
    "MAX_RECORD_LINE",
    "RecordText",
    "dump_record_text",
    "load_record_text",
    "read_record_text",
]

MAX_RECORD_LINE: Final = 2000
"""The longest line of a text record, in characters (the writer puts at most
:data:`STEPS_PER_LINE` steps on a line; the stock's line takes under 400)."""

STEPS_PER_LINE: Final = 12
"""The writer's limit of steps on one turn line (a longer turn goes on in the next)."""

_R = RecordTextErrorCode


@attrs.frozen
class RecordText:
    """A text record as read: the :class:`~remi_rules.engine.GameRecord`, and what
    its headers say beside it."""

    record: GameRecord
    names: tuple[str, ...]
    """The players' names (``seat 0`` … where the record names none)."""
    language: str
    """The language of the turns' words."""
    date: datetime.date | None = None
    seed: int | str | None = None
    """The seed that dealt the round (only a finished round's record holds one)."""


def _tiles(ids: Sequence[int]) -> str:
    return " ".join(_physical(i) for i in ids)


def _json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


def _house_base(rules: Ruleset) -> tuple[str, dict[str, Any]]:
    """The preset that differs from ``rules`` in the fewest knobs, and those knobs."""
    mine = ruleset_to_dict(rules)
    best: tuple[str, dict[str, Any]] | None = None
    for name in variants.names():
        base = ruleset_to_dict(variants.get(name))
        diff = {k: v for k, v in mine.items() if base[k] != v}
        if best is None or len(diff) < len(best[1]):
            best = (name, diff)
    assert best is not None
    return best


# -- writing ---------------------------------------------------------------------------------


def dump_record_text(
    game: Game,
    *,
    date: datetime.date | None = None,
    seed: int | str | None = None,
    lang: str = "en",
) -> str:
    """The round of ``game`` as a text record (the module's doc), its turns in
    ``lang``'s words.  ``date`` is written when given; ``seed`` (the seed that dealt
    the round, :meth:`Game.new <remi_rules.engine.Game.new>`) only once the round is
    over, and it must deal this round (``record_bad_seed`` otherwise).
    :func:`load_record_text` reads the text back.  Deterministic: the same game gives
    the same text."""
    if not isinstance(game, Game):
        raise TypeError(f"game must be a Game, not {type(game).__name__}")
    if date is not None and (
        not isinstance(date, datetime.date) or isinstance(date, datetime.datetime)
    ):
        raise TypeError(f"date must be a datetime.date or None, not {type(date).__name__}")
    if seed is not None and (not isinstance(seed, int | str) or isinstance(seed, bool)):
        raise TypeError(f"seed must be an int, a str or None, not {type(seed).__name__}")
    if type(lang) is not str:
        raise TypeError(f"lang must be a str, not {type(lang).__name__}")
    if lang not in i18n.languages():
        raise _fail(_R.BAD_VALUE, tag="Language", value=lang[:40], why="value_language")
    record = game.record()
    rules = record.rules
    lines: list[str] = []
    if lang != i18n.SOURCE_LANGUAGE:
        lines.append(f"[Language {_json(lang)}]")
    name = variants.name_of(rules)
    if name is not None:
        lines.append(f"[Rules {_json(name)}]")
    else:
        base, diff = _house_base(rules)
        lines.append(f"[Rules {_json(base)}]")
        lines += [f"[Rule {knob} {_json(value)}]" for knob, value in diff.items()]
    lines.append(f"[Fingerprint {_json(rules.fingerprint())}]")
    lines.append(f"[Players {record.players}]")
    for seat, who in enumerate(game.names):
        if who != f"seat {seat}":
            if len(who) > MAX_NAME_LENGTH:
                raise _fail(
                    _R.BAD_VALUE,
                    tag=f"Seat{seat}",
                    value=who[:40],
                    why="value_text",
                    limit=MAX_NAME_LENGTH,
                )
            lines.append(f"[Seat{seat} {_json(who)}]")
    lines.append(f"[Starter {record.starter}]")
    if date is not None:
        lines.append(f"[Date {_json(date.isoformat())}]")
    state = game.state
    result = game.result()
    if state.end is not None and result is not None:
        lines.append(f"[Result {_json(state.end.reason.value)}]")
        if state.end.closer is not None:
            lines.append(f"[Closer {state.end.closer}]")
        lines.append(f"[Scores {_json(list(result.totals))}]")
        if seed is not None:
            if not _seed_deals(seed, record):
                raise _fail(_R.BAD_SEED, why="seed_deal")
            lines.append(f"[Seed {_json(seed)}]")
    lines.append("")
    lines += _deal_lines(record, lang)
    lines += _turn_lines(record, lang)
    return "\n".join(lines) + "\n"


def _deal_lines(record: GameRecord, lang: str) -> list[str]:
    sizes = _rack_sizes(record.rules, record.players, record.starter)
    out = []
    at = 0
    for seat, size in enumerate(sizes):
        out.append(f"{_word('rack', lang)} {seat}: {_tiles(record.deal[at : at + size])}")
        at += size
    out.append(f"{_word('atu', lang)}: {_physical(record.deal[at])}")
    out.append(f"{_word('stock', lang)}: {_tiles(record.deal[at + 1 :])}")
    return out


def _turn_lines(record: GameRecord, lang: str) -> list[str]:
    game = Game.replay(attrs.evolve(record, steps=()), upto=0)
    lines: list[str] = []
    shuffle = _word("shuffle", lang)
    used = len(game.record().chance)
    lines += [f"{shuffle}: {_tiles(o)}" for o in record.chance[:used]]
    if used:
        lines.insert(0, "")
    lines.append("")
    turn: int | None = None
    count = 0
    for step in record.steps:
        before = game.state
        if step.in_turn:
            text = format_step(step, PlayerView.of(before, before.current), lang)
            if turn == before.turn and count < STEPS_PER_LINE:
                lines[-1] += f"; {text}"
                count += 1
            else:
                lines.append(f"{before.turn}. {text}")
                turn, count = before.turn, 1
        else:
            lines.append(format_step(step, None, lang))
            turn = None
        game.apply(step)
        chance = game.record().chance
        if len(chance) > used:
            lines += [f"{shuffle}: {_tiles(o)}" for o in chance[used:]]
            used = len(chance)
            turn = None
    if lines[-1] == "":
        lines.pop()
    return lines


# -- reading ---------------------------------------------------------------------------------


def load_record_text(text: str) -> GameRecord:
    """The :class:`~remi_rules.engine.GameRecord` of a text record
    (:func:`dump_record_text`), read strictly: see :func:`read_record_text`."""
    return read_record_text(text).record


def read_record_text(text: str) -> RecordText:
    """A text record read strictly, with its headers (:class:`RecordText`).  The
    text is bounded first (:data:`MAX_DOCUMENT_BYTES` in UTF-8, lines of at most
    :data:`MAX_RECORD_LINE` characters), then read line by line and every step is
    replayed; anything wrong raises
    :class:`~remi_rules.errors.InvalidRecordTextError` naming the line.  A text that
    is no ``str`` is a :class:`TypeError`."""
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, not {type(text).__name__}")
    if len(text) > MAX_DOCUMENT_BYTES or len(text.encode("utf-8", "surrogatepass")) > (
        MAX_DOCUMENT_BYTES
    ):
        raise _fail(_R.TOO_LARGE, size=len(text), limit=MAX_DOCUMENT_BYTES)
    lines = text.split("\n")
    for number, line in enumerate(lines, start=1):
        if len(line) > MAX_RECORD_LINE:
            raise _fail(_R.LINE_TOO_LONG, number, length=len(line), limit=MAX_RECORD_LINE)
    record, names, lang, date, seed = _Reader(lines).read()
    return RecordText(record, names, lang, date, seed)
