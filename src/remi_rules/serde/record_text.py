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
import re
import unicodedata
from collections.abc import Sequence
from typing import Any, Final

import attrs

from .. import _i18n as i18n
from .. import variants
from ..engine import Game, GameRecord, GameState, PlayerView, Step
from ..engine.events import EndReason
from ..errors import (
    IllegalStepError,
    InvalidRecordTextError,
    InvalidRulesetError,
    InvalidStateError,
    NotationError,
    NotationErrorCode,
    RecordTextErrorCode,
    TileParseError,
    UnknownVariantError,
)
from ..notation import PRIMES, format_step, parse_step
from ..ruleset import Ruleset
from ..tiles import Tile, ids_of, tile_of
from ._bounds import MAX_NAME_LENGTH
from ._forms import MAX_DOCUMENT_BYTES
from .rulesets import house_rules_from_dict, ruleset_to_dict

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
_SEED_CHARS: Final = MAX_NAME_LENGTH
_MAX_SEED: Final = 2**63


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


def _fail(
    code: RecordTextErrorCode, line: int | None = None, **details: object
) -> InvalidRecordTextError:
    return InvalidRecordTextError(code, line=line, **details)


def _word(key: str, lang: str) -> str:
    return i18n.template(f"word:record_{key}", lang)


def _physical(tile_id: int) -> str:
    return str(tile_of(tile_id)) + ("'" if tile_id % 2 else "")


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


def _rack_sizes(rules: Ruleset, players: int, starter: int) -> list[int]:
    return [rules.hand_sizes[0] if s == starter else rules.hand_sizes[1] for s in range(players)]


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


def _seed_deals(seed: int | str, record: GameRecord) -> bool:
    """Whether :meth:`Game.new <remi_rules.engine.Game.new>` with ``seed`` deals
    ``record`` (its starter drawn, or given as the record's)."""
    for starter in (None, record.starter):
        dealt = Game.new(record.rules, record.players, seed=seed, starter=starter).record()
        if dealt.deal == record.deal and dealt.starter == record.starter:
            return True
    return False


# -- reading ---------------------------------------------------------------------------------

_HEADER: Final = re.compile(r"\[([A-Za-z][A-Za-z0-9]*)\s+(.*)\]\Z")
_TURN: Final = re.compile(r"(\d{1,6})\.\s+(.*)\Z")
_TAGS: Final = frozenset(
    {
        "Language",
        "Rules",
        "Fingerprint",
        "Players",
        "Seat0",
        "Seat1",
        "Seat2",
        "Seat3",
        "Starter",
        "Date",
        "Result",
        "Closer",
        "Scores",
        "Seed",
    }
)


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
    return _Reader(lines).read()


class _Reader:
    def __init__(self, lines: list[str]) -> None:
        self.lines = [line.strip() for line in lines]
        self.headers: dict[str, tuple[int, Any]] = {}
        self.rules: list[tuple[int, str, Any]] = []
        self.deal_line: int | None = None
        """The line of the deal's last line (the stock)."""

    # -- headers

    def read(self) -> RecordText:
        at = self._headers()
        lang = self._language()
        rules = self._rules()
        players = self._int("Players", 2, 4, "value_players")
        starter = self._int("Starter", 0, players - 1, "value_seat")
        names = tuple(self._name(seat) for seat in range(players))
        for tag in ("Seat0", "Seat1", "Seat2", "Seat3"):
            if tag in self.headers and int(tag[-1]) >= players:
                line, value = self.headers[tag]
                raise _fail(_R.BAD_VALUE, line, tag=tag, value=_show(value), why="value_players")
        date = self._date()
        deal, at = self._deal(at, rules, players, starter, lang)
        body = self._body(at, lang)
        record, game = self._replay(rules, players, starter, deal, body, lang)
        self._result(game)
        seed = self._seed(game, record)
        return RecordText(record, names, lang, date, seed)

    def _headers(self) -> int:
        at = 0
        lines = self.lines
        while at < len(lines):
            line = lines[at]
            number = at + 1
            if not line or line.startswith("#"):
                at += 1
                continue
            if not line.startswith("["):
                break
            found = _HEADER.match(line)
            if found is None:
                raise _fail(_R.BAD_HEADER, number, text=line[:60], why="header_syntax")
            tag, raw = found.group(1), found.group(2)
            if tag == "Rule":
                knob, _, raw = raw.partition(" ")
                value = self._value(raw, number, line)
                if any(k == knob for _, k, _ in self.rules):
                    raise _fail(_R.DUPLICATE_HEADER, number, tag=f"Rule {knob}"[:60])
                self.rules.append((number, knob, value))
            elif tag in _TAGS:
                if tag in self.headers:
                    raise _fail(_R.DUPLICATE_HEADER, number, tag=tag)
                self.headers[tag] = (number, self._value(raw, number, line))
            else:
                raise _fail(_R.BAD_HEADER, number, text=line[:60], why="header_unknown")
            at += 1
        return at

    @staticmethod
    def _value(raw: str, number: int, line: str) -> Any:
        try:
            return json.loads(raw)
        except (ValueError, RecursionError):
            raise _fail(_R.BAD_HEADER, number, text=line[:60], why="header_syntax") from None

    def _need(self, tag: str) -> tuple[int, Any]:
        if tag not in self.headers:
            raise _fail(_R.MISSING_HEADER, tag=tag)
        return self.headers[tag]

    def _int(self, tag: str, lo: int, hi: int, why: str) -> int:
        line, value = self._need(tag)
        if type(value) is not int or not lo <= value <= hi:
            raise _fail(_R.BAD_VALUE, line, tag=tag, value=_show(value), why=why)
        return value

    def _language(self) -> str:
        if "Language" not in self.headers:
            return i18n.SOURCE_LANGUAGE
        line, value = self.headers["Language"]
        if type(value) is not str or value not in i18n.languages():
            raise _fail(
                _R.BAD_VALUE, line, tag="Language", value=_show(value), why="value_language"
            )
        return value

    def _rules(self) -> Ruleset:
        line, name = self._need("Rules")
        if type(name) is not str:
            raise _fail(
                _R.BAD_VALUE,
                line,
                tag="Rules",
                value=_show(name),
                why="value_text",
                limit=MAX_NAME_LENGTH,
            )
        try:
            rules = variants.get(name)
            if self.rules:
                overrides = {knob: value for _, knob, value in self.rules}
                rules = house_rules_from_dict({"base": name, "overrides": overrides})
        except (UnknownVariantError, InvalidRulesetError) as err:
            where = line
            knob = err.details.get("knob") or err.details.get("path")
            for number, each, _ in self.rules:
                if isinstance(knob, str) and each in knob:
                    where = number
            raise _fail(_R.BAD_RULES, where, cause=err) from None
        fp_line, fingerprint = self._need("Fingerprint")
        if fingerprint != rules.fingerprint():
            raise _fail(
                _R.FINGERPRINT, fp_line, got=_show(fingerprint), expected=rules.fingerprint()
            )
        return rules

    def _name(self, seat: int) -> str:
        tag = f"Seat{seat}"
        if tag not in self.headers:
            return f"seat {seat}"
        line, value = self.headers[tag]
        if type(value) is not str or len(value) > MAX_NAME_LENGTH:
            raise _fail(
                _R.BAD_VALUE,
                line,
                tag=tag,
                value=_show(value),
                why="value_text",
                limit=MAX_NAME_LENGTH,
            )
        return value

    def _date(self) -> datetime.date | None:
        if "Date" not in self.headers:
            return None
        line, value = self.headers["Date"]
        try:
            if type(value) is not str or len(value) != 10:
                raise ValueError
            return datetime.date.fromisoformat(value)
        except ValueError:
            raise _fail(
                _R.BAD_VALUE, line, tag="Date", value=_show(value), why="value_date"
            ) from None

    # -- the deal

    def _labelled(self, at: int, label: str, lang: str) -> tuple[int, str] | None:
        """The next body line (skipping blanks and comments) if it starts ``label:``,
        with its rest."""
        lines = self.lines
        while at < len(lines) and (not lines[at] or lines[at].startswith("#")):
            at += 1
        if at >= len(lines):
            return None
        head, colon, rest = lines[at].partition(":")
        if colon and _plain(head) == _plain(label):
            return at, rest
        return None

    def _deal(
        self, at: int, rules: Ruleset, players: int, starter: int, lang: str
    ) -> tuple[tuple[int, ...], int]:
        sizes = _rack_sizes(rules, players, starter)
        labels = [
            *(f"{_word('rack', lang)} {seat}" for seat in range(players)),
            _word("atu", lang),
            _word("stock", lang),
        ]
        deal: list[int] = []
        seen: dict[int, int] = {}
        for k, label in enumerate(labels):
            found = self._labelled(at, label, lang)
            if found is None:
                line = min(at + 1, len(self.lines))
                why = "deal_missing" if k == 0 else "deal_order"
                raise _fail(_R.BAD_DEAL, line, why=why)
            at, rest = found
            ids = _read_tiles(rest, at + 1, _R.BAD_DEAL)
            if k < players and len(ids) != sizes[k]:
                raise _fail(
                    _R.BAD_DEAL,
                    at + 1,
                    why="deal_rack_size",
                    seat=k,
                    count=len(ids),
                    expected=sizes[k],
                )
            if k == players and len(ids) != 1:
                raise _fail(_R.BAD_DEAL, at + 1, why="deal_atu")
            for tile_id in ids:
                if tile_id in seen:
                    raise _fail(_R.BAD_DEAL, at + 1, why="deal_twice", tile=_physical(tile_id))
                seen[tile_id] = at + 1
            deal += ids
            self.deal_line = at + 1
            at += 1
        if len(deal) != 106:
            raise _fail(_R.BAD_DEAL, at, why="deal_count", count=len(deal))
        return tuple(deal), at

    # -- the body

    def _body(self, at: int, lang: str) -> list[tuple[int, str, Any]]:
        """The body's lines: ("turn", (number, [(text, column)…])), ("out", text) or
        ("shuffle", ids), each with its line number."""
        shuffle = _plain(_word("shuffle", lang))
        out: list[tuple[int, str, Any]] = []
        for k in range(at, len(self.lines)):
            line, number = self.lines[k], k + 1
            if not line or line.startswith("#"):
                continue
            if line.startswith("["):
                raise _fail(_R.BAD_HEADER, number, text=line[:60], why="header_after_body")
            head, colon, rest = line.partition(":")
            if colon and _plain(head) == shuffle:
                out.append((number, "shuffle", _read_tiles(rest, number, _R.BAD_CHANCE)))
                continue
            found = _TURN.match(line)
            if found is not None:
                column = found.start(2) + 1
                steps: list[tuple[str, int]] = []
                for part in found.group(2).split(";"):
                    if part.strip():
                        lead = len(part) - len(part.lstrip())
                        steps.append((part.strip(), column + lead))
                    column += len(part) + 1
                out.append((number, "turn", (int(found.group(1)), steps)))
                continue
            out.append((number, "out", line))
        return out

    def _replay(
        self,
        rules: Ruleset,
        players: int,
        starter: int,
        deal: tuple[int, ...],
        body: list[tuple[int, str, Any]],
        lang: str,
    ) -> tuple[GameRecord, Game]:
        outcomes = [ids for _, kind, ids in body if kind == "shuffle"]
        shuffle_lines = [number for number, kind, _ in body if kind == "shuffle"]
        record = GameRecord(
            rules=rules,
            players=players,
            dealer=(starter - 1) % players,
            starter=starter,
            deal=deal,
            chance=tuple(tuple(o) for o in outcomes),
        )
        try:
            game = Game.replay(record, upto=0)
        except InvalidStateError as err:  # the deal's shuffle is missing or wrong
            line = shuffle_lines[0] if shuffle_lines else self.deal_line
            why = "chance_wrong" if shuffle_lines else "chance_missing"
            raise _fail(_R.BAD_CHANCE, line, why=why, cause=err) from None
        steps: list[Step] = []
        given = 0  # the shuffles written so far
        for number, kind, data in body:
            if kind == "shuffle":
                given += 1
                continue
            self._check_chance(game, given, shuffle_lines, outcomes, number)
            if kind == "turn":
                turn, texts = data
                for text, column in texts:
                    state = game.state
                    if state.turn != turn:
                        raise _fail(_R.WRONG_TURN, number, got=turn, expected=state.turn)
                    view = PlayerView.of(state, state.current)
                    step = _parse(text, view, lang, number, column)
                    if not step.in_turn:  # an out-of-turn step has a line of its own
                        raise _fail(_R.BAD_LINE, number, text=text[:60])
                    self._apply(game, step, number, text)
                    steps.append(step)
            else:
                step = _parse(data, None, lang, number, 1)
                if step.in_turn:  # a step of the turn is written in a numbered line
                    raise _fail(_R.BAD_LINE, number, text=data[:60])
                self._apply(game, step, number, data)
                steps.append(step)
        self._check_chance(game, given, shuffle_lines, outcomes, len(self.lines))
        record = attrs.evolve(record, steps=tuple(steps))
        return record, game

    @staticmethod
    def _apply(game: Game, step: Step, number: int, text: str) -> None:
        try:
            game.apply(step)
        except IllegalStepError as err:
            raise _fail(_R.STEP_REFUSED, number, step=text[:60], cause=err) from None

    @staticmethod
    def _check_chance(
        game: Game, given: int, lines: list[int], outcomes: list[tuple[int, ...]], number: int
    ) -> None:
        """The shuffles made so far are exactly the ``given`` first ones written."""
        made = game.record().chance
        for k, outcome in enumerate(made):
            if k >= len(outcomes):
                raise _fail(_R.BAD_CHANCE, number, why="chance_missing")
            if tuple(outcome) != tuple(outcomes[k]):
                raise _fail(_R.BAD_CHANCE, lines[k], why="chance_wrong")
        if len(made) < given:
            raise _fail(_R.BAD_CHANCE, lines[len(made)], why="chance_unused")
        if len(made) > given:
            raise _fail(_R.BAD_CHANCE, number, why="chance_missing")

    # -- the result and the seed

    def _result(self, game: Game) -> None:
        state: GameState = game.state
        result = game.result()
        tags = ("Result", "Closer", "Scores")
        if state.end is None or result is None:
            for tag in tags:
                if tag in self.headers:
                    raise _fail(_R.RESULT, self.headers[tag][0], why="result_not_over")
            return
        end = state.end
        expected: dict[str, Any] = {
            "Result": end.reason.value,
            "Scores": list(result.totals),
        }
        if end.closer is not None:
            expected["Closer"] = end.closer
        elif "Closer" in self.headers:
            line, value = self.headers["Closer"]
            raise _fail(
                _R.RESULT, line, why="result_differs", tag="Closer", got=_show(value), expected="-"
            )
        for tag, value in expected.items():
            if tag not in self.headers:
                raise _fail(_R.RESULT, why="result_missing", tag=tag)
            line, given = self.headers[tag]
            if tag == "Result" and given not in {r.value for r in EndReason}:
                raise _fail(_R.BAD_VALUE, line, tag=tag, value=_show(given), why="value_end")
            if tag == "Scores" and (
                not isinstance(given, list) or not all(type(v) is int for v in given)
            ):
                raise _fail(_R.BAD_VALUE, line, tag=tag, value=_show(given), why="value_scores")
            if given != value or type(given) is not type(value):
                raise _fail(
                    _R.RESULT,
                    line,
                    why="result_differs",
                    tag=tag,
                    got=_show(given),
                    expected=_show(value),
                )

    def _seed(self, game: Game, record: GameRecord) -> int | str | None:
        if "Seed" not in self.headers:
            return None
        line, seed = self.headers["Seed"]
        if not (
            (type(seed) is int and -_MAX_SEED <= seed <= _MAX_SEED)
            or (type(seed) is str and len(seed) <= _SEED_CHARS)
        ):
            raise _fail(_R.BAD_VALUE, line, tag="Seed", value=_show(seed), why="value_seed")
        if not game.over:
            raise _fail(_R.BAD_SEED, line, why="seed_not_over")
        if not _seed_deals(seed, record):
            raise _fail(_R.BAD_SEED, line, why="seed_deal")
        return seed


def _plain(text: str) -> str:
    """``text`` stripped, in lower case, without diacritics."""
    decomposed = unicodedata.normalize("NFD", text.strip().lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _show(value: object) -> str:
    text = _json(value) if not isinstance(value, str) else value
    return text if len(text) <= 40 else text[:39] + "…"


def _read_tiles(text: str, number: int, code: RecordTextErrorCode) -> list[int]:
    """Physical tiles written ``7R`` / ``7R'`` / ``J`` / ``J'``."""
    out: list[int] = []
    for token in text.split():
        primed = token.endswith(PRIMES)
        body = token[:-1] if primed else token
        try:
            tile = Tile.parse(body)
        except TileParseError as err:
            raise _fail(code, number, why="bad_tile", cause=err) from None
        if tile.is_fixed_joker:
            plain = NotationError(
                NotationErrorCode.NEEDS_VIEW, text=token[:20], why="needs_plain_joker"
            )
            raise _fail(code, number, why="bad_tile", cause=plain)
        out.append(ids_of(tile)[1 if primed else 0])
    return out


def _parse(text: str, view: PlayerView | None, lang: str, number: int, column: int) -> Step:
    try:
        return parse_step(text, view, lang)
    except NotationError as err:
        at = err.details.get("column")
        where = column + (at - 1 if isinstance(at, int) else 0)
        raise _fail(_R.BAD_STEP, number, column=where, cause=err) from None
