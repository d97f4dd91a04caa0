"""``remi-rules replay FILE``: a saved game told step by step.

The file is a text record (:func:`~remi_rules.serde.dump_record_text`,
docs/protocol.md), or JSON written by :func:`~remi_rules.serde.dump_game` (``kind:
game``), :func:`~remi_rules.serde.dump_record` (``kind: record``) or
:func:`~remi_rules.serde.dump_match` (``kind: match``, every round in turn); its
``kind`` says which, and it is loaded strictly (docs/saving.md).  ``--upto N`` stops
after the first N steps and shows the position there; ``--step`` shows the table
after every step and, at a terminal, waits for Enter before the next (``q`` stops).  The round is
replayed from its deal without a random generator: each step is printed with its
turn and seat in the notation of ``play``, each turn's end with the rack sizes, the
stock, the row and the table, and a finished round with how it ended and its score
(SCORE-01 … SCORE-08).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any, Final, TextIO

import attrs

from .. import serde, variants
from ..engine import Game, GameRecord
from ..errors import InvalidRecordTextError, InvalidStateError
from .common import OK, CliError, RulesChoice, add_lang, is_text_record, read_text
from .narrate import TurnLog, replay_entries
from .render import end_lines, seat_name, table_lines
from .texts import tr

if TYPE_CHECKING:
    from .common import Subparsers

__all__ = ["add_parser", "load_rounds", "replay_lines", "run"]


def add_parser(subparsers: Subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "replay",
        help="print a saved game (a text record, or game, record or match JSON) step by step",
        description="Print a saved game step by step: a text record (serde.dump_record_text, "
        "demo --save x.remi) or a JSON file written by serde.dump_game, dump_record or "
        "dump_match (its kind says which).",
    )
    parser.add_argument("file", metavar="FILE", help="the saved game (a text record, or JSON)")
    parser.add_argument(
        "--upto", type=int, metavar="N", help="stop after the first N steps of each round"
    )
    parser.add_argument(
        "--step",
        action="store_true",
        help="the table after every step; at a terminal, Enter shows the next (q stops)",
    )
    add_lang(parser)
    return parser


def load_rounds(
    path: str, lang: str
) -> tuple[str, list[tuple[GameRecord, tuple[str, ...] | None]]]:
    """The kind of the file at ``path`` and its rounds, each a record and the
    players' names (``None`` for a bare record).  :class:`CliError` if the file cannot
    be read, is not a saved game, or is refused by the strict loader."""
    text = read_text(path)
    if is_text_record(text):
        try:
            read = serde.read_record_text(text)
        except InvalidRecordTextError as err:
            raise CliError("bad_save", path=path, why=err.message(lang)) from None
        return "text", [(read.record, read.names)]
    try:
        data: Any = json.loads(text)
    except (ValueError, RecursionError):
        data = None
    kind = data.get("kind") if isinstance(data, dict) else None
    try:
        if kind == "game":
            game = serde.loads_game(text)
            return kind, [(game.record(), game.names)]
        if kind == "record":
            return kind, [(serde.loads_record(text), None)]
        if kind == "match":
            match = serde.load_match(data)
            return kind, [(g.record(), g.names) for g in match.games]
        if data is None:
            serde.loads_record(text)  # not JSON: the loader says why
    except InvalidStateError as err:
        raise CliError("bad_save", path=path, why=err.message(lang)) from None
    raise CliError("not_a_save", path=path, kind=json.dumps(kind))


def replay_lines(
    record: GameRecord,
    names: tuple[str, ...] | None,
    lang: str,
    *,
    upto: int | None = None,
    each_step: bool = False,
) -> list[str]:
    """One round told step by step, ending with its result if it is over: its first
    ``upto`` steps only, if given; with ``each_step``, the table after every step
    (each step's block starts with a line ``\f``, where ``--step`` pauses)."""
    if upto is not None:
        record = attrs.evolve(record, steps=record.steps[: max(upto, 0)])
    rules = record.rules
    name = variants.name_of(rules)
    choice = RulesChoice(rules, name or "", preset=name is not None)
    start = Game.replay(record, upto=0).state
    lines = [tr(lang, "replay_rules", rules=choice.label(lang), players=record.players)]
    default = tuple(f"seat {s}" for s in range(record.players))
    if names is not None and names != default:
        seats = ", ".join(f"{seat_name(s, lang)} {n}" for s, n in enumerate(names))
        lines.append(tr(lang, "players_line", seats=seats))
    lines += [
        tr(
            lang,
            "start_line",
            tile=start.table.tile(start.atu),
            seat=seat_name(start.starter, lang),
        ),
        "",
    ]
    log = TurnLog(lang, per_step=True, each_step=each_step)
    told, game = replay_entries(record, lang)
    for k, (entry, before) in enumerate(told):
        if each_step:
            lines.append(PAUSE)
        lines += log.add(entry, before)
        lines += log.after(told[k + 1][1] if k + 1 < len(told) else game.state)
    state = game.state
    lines += log.finish(state)
    result = game.result()
    if result is None:
        turn = state.pending.number if state.pending is not None else state.turn
        lines += ["", tr(lang, "not_over", turn=turn, seat=seat_name(state.current, lang))]
        if not told:
            lines += table_lines(state.table, lang)
    else:
        lines += ["", *end_lines(state, result, lang)]
    return lines


PAUSE: Final = "\f"
"""The line :func:`replay_lines` puts before each step's block with ``each_step``."""


def run(args: argparse.Namespace, out: TextIO) -> int:
    lang: str = args.lang
    upto: int | None = args.upto
    if upto is not None and upto < 0:
        raise CliError("bad_upto", n=upto)
    kind, rounds = load_rounds(args.file, lang)
    out.write(tr(lang, "replay_title", kind=tr(lang, f"kind_{kind}"), path=args.file) + "\n")
    wait = args.step and _isatty(sys.stdin) and out is sys.stdout
    for number, (record, names) in enumerate(rounds, start=1):
        if kind == "match":
            starter = seat_name(record.starter, lang)
            out.write("\n" + tr(lang, "round_header", n=number, seat=starter) + "\n")
        first = True
        for line in replay_lines(record, names, lang, upto=upto, each_step=args.step):
            if line == PAUSE:
                if wait and not first:
                    out.write(tr(lang, "replay_next"))
                    out.flush()
                    if sys.stdin.readline().strip().lower() in ("q", "quit", "ieșire", "iesire"):
                        return OK
                first = False
                continue
            out.write(line + "\n")
    return OK


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
