"""``remi-rules replay FILE``: a saved game told step by step.

The file is JSON written by :func:`~remi_rules.serde.dump_game` (``kind: game``),
:func:`~remi_rules.serde.dump_record` (``kind: record``) or
:func:`~remi_rules.serde.dump_match` (``kind: match``, every round in turn); its
``kind`` says which, and it is loaded strictly (docs/saving.md).  The round is
replayed from its deal without a random generator: each step is printed with its
turn and seat in the notation of ``play``, each turn's end with the rack sizes, the
stock, the row and the table, and a finished round with how it ended and its score
(SCORE-01 … SCORE-08).
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any, TextIO

from .. import serde, variants
from ..engine import Game, GameRecord
from ..errors import InvalidStateError
from .common import OK, CliError, RulesChoice, add_lang, read_text
from .narrate import TurnLog, replay_entries
from .render import end_lines, seat_name, table_lines
from .texts import tr

if TYPE_CHECKING:
    from .common import Subparsers

__all__ = ["add_parser", "load_rounds", "replay_lines", "run"]


def add_parser(subparsers: Subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "replay",
        help="print a saved game (game, record or match JSON) step by step",
        description="Print a saved game step by step: a JSON file written by "
        "serde.dump_game, dump_record or dump_match (its kind says which).",
    )
    parser.add_argument("file", metavar="FILE", help="the saved game (JSON)")
    add_lang(parser)
    return parser


def load_rounds(
    path: str, lang: str
) -> tuple[str, list[tuple[GameRecord, tuple[str, ...] | None]]]:
    """The kind of the file at ``path`` and its rounds, each a record and the
    players' names (``None`` for a bare record).  :class:`CliError` if the file cannot
    be read, is not a saved game, or is refused by the strict loader."""
    text = read_text(path)
    try:
        data: Any = json.loads(text)
    except ValueError:
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


def replay_lines(record: GameRecord, names: tuple[str, ...] | None, lang: str) -> list[str]:
    """One round told step by step, ending with its result if it is over."""
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
    log = TurnLog(lang, per_step=True)
    told, game = replay_entries(record, lang)
    for entry, before in told:
        lines += log.add(entry, before)
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


def run(args: argparse.Namespace, out: TextIO) -> int:
    lang: str = args.lang
    kind, rounds = load_rounds(args.file, lang)
    out.write(tr(lang, "replay_title", kind=tr(lang, f"kind_{kind}"), path=args.file) + "\n")
    for number, (record, names) in enumerate(rounds, start=1):
        if kind == "match":
            starter = seat_name(record.starter, lang)
            out.write("\n" + tr(lang, "round_header", n=number, seat=starter) + "\n")
        for line in replay_lines(record, names, lang):
            out.write(line + "\n")
    return OK
