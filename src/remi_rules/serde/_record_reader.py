"""The reader of a text game record (:mod:`remi_rules.serde.record_text`): the
headers, the deal, the turns replayed step by step, the result and the seed, each
refused with its code and line."""

from __future__ import annotations

import datetime
import json
import re
import unicodedata
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
from ..notation import PRIMES, parse_step
from ..ruleset import Ruleset
from ..tiles import Tile, ids_of, tile_of
from ._bounds import MAX_NAME_LENGTH
from .rulesets import house_rules_from_dict

_R = RecordTextErrorCode
_SEED_CHARS: Final = MAX_NAME_LENGTH
_MAX_SEED: Final = 2**63


def _fail(
    code: RecordTextErrorCode, line: int | None = None, **details: object
) -> InvalidRecordTextError:
    return InvalidRecordTextError(code, line=line, **details)


def _word(key: str, lang: str) -> str:
    return i18n.template(f"word:record_{key}", lang)


def _physical(tile_id: int) -> str:
    return str(tile_of(tile_id)) + ("'" if tile_id % 2 else "")


def _rack_sizes(rules: Ruleset, players: int, starter: int) -> list[int]:
    return [rules.hand_sizes[0] if s == starter else rules.hand_sizes[1] for s in range(players)]


def _seed_deals(seed: int | str, record: GameRecord) -> bool:
    """Whether :meth:`Game.new <remi_rules.engine.Game.new>` with ``seed`` deals
    ``record`` (its starter drawn, or given as the record's)."""
    for starter in (None, record.starter):
        dealt = Game.new(record.rules, record.players, seed=seed, starter=starter).record()
        if dealt.deal == record.deal and dealt.starter == record.starter:
            return True
    return False


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


class _Reader:
    def __init__(self, lines: list[str]) -> None:
        self.lines = [line.strip() for line in lines]
        self.headers: dict[str, tuple[int, Any]] = {}
        self.rules: list[tuple[int, str, Any]] = []
        self.deal_line: int | None = None
        """The line of the deal's last line (the stock)."""

    # -- headers

    def read(
        self,
    ) -> tuple[GameRecord, tuple[str, ...], str, datetime.date | None, int | str | None]:
        """The record, the names, the language, the date and the seed."""
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
        return record, names, lang, date, seed

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
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else value
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
