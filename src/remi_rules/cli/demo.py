"""``remi-rules demo``: bots play a seeded round, or a match, under a preset.

A round is printed turn by turn (the steps in the notation of ``play``, the melds a
turn put down or changed), then how it ended, the table and the score breakdown
(SCORE-01 … SCORE-08).  ``--match`` plays a :class:`~remi_rules.engine.Match`
(SCORE-10: the length is ours to choose, one round per player by default, the
starter rotating, DEAL-01) and prints each round's result and the running totals.
Every seat is a :class:`~remi_rules.bots.GreedyBot` unless ``--bots`` says otherwise;
the engine announces where the rules make it automatic (ANNOUNCE-04).  The same
options print the same game.

``--melds`` instead validates a few melds under each preset (MELD-01 … MELD-06).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterable
from typing import TYPE_CHECKING, Final, TextIO

from .. import serde, variants
from ..engine import Bot, Game, Match, MatchConfig, Step
from .check import check_meld
from .common import (
    AUTOMATION,
    OK,
    TEXT_RECORD_SUFFIXES,
    CliError,
    RulesChoice,
    add_lang,
    add_rules,
    chosen_rules,
    make_bots,
    parse_bot_kinds,
    save_game,
    write_text,
)
from .narrate import TurnLog, apply_logged
from .render import end_lines, end_reason, score_lines, seat_name
from .texts import tr

if TYPE_CHECKING:
    from .common import Subparsers

__all__ = ["DEMO_MELDS", "add_parser", "run"]

DEMO_MELDS: Final = (
    "1R 2R 3R",
    "11R 12R 13R 1R",
    "13R 1R 2R",
    "7R 7A 7N 7G",
    "7R 7R 7A",
    "1R 1G J",
    "5R J 7R",
    "12R 13R J",
    "J 1R 2R",
    "3R J 5R 6R J 8R",
    "3R 4R J J 7R 8R",
    "J J 7R",
)
"""The melds ``demo --melds`` checks under each preset."""


def add_parser(subparsers: Subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "demo",
        help="bots play a seeded round (or --match), printed turn by turn",
        description="Bots play a seeded round under a preset, printed turn by turn, "
        "then the score breakdown; --match plays a whole match.",
    )
    add_rules(parser, default=None)
    parser.add_argument("--seed", type=int, default=1, help="the deal's seed (default: 1)")
    parser.add_argument(
        "--players", type=int, choices=(2, 3, 4), default=4, help="2, 3 or 4 (default: 4)"
    )
    parser.add_argument(
        "--bots",
        default="greedy",
        metavar="KIND[,KIND...]",
        help="greedy, fast or random, one per seat or one for all (default: greedy)",
    )
    parser.add_argument("--match", action="store_true", help="play a match, not one round")
    length = parser.add_mutually_exclusive_group()
    length.add_argument("--rounds", type=int, metavar="N", help="a match of N rounds")
    length.add_argument("--target", type=int, metavar="POINTS", help="a match to POINTS")
    parser.add_argument(
        "--save",
        metavar="FILE",
        help="save the game: a text record for FILE.txt or FILE.remi, else JSON (a match: JSON)",
    )
    parser.add_argument(
        "--melds", action="store_true", help="validate a few melds under each preset instead"
    )
    add_lang(parser)
    return parser


def _write(out: TextIO, lines: Iterable[str]) -> None:
    for line in lines:
        out.write(line + "\n")


def _players_line(kinds: list[str], lang: str) -> str:
    seats = ", ".join(f"{seat_name(s, lang)} {tr(lang, k)}" for s, k in enumerate(kinds))
    return tr(lang, "players_line", seats=seats)


def _play_round(game: Game, bots: dict[int, Bot], lang: str, out: TextIO | None) -> None:
    """Let ``bots`` play ``game`` to its end as :func:`~remi_rules.engine.play_round`
    does (each bot's out-of-turn step first, then the seat to move), telling it turn
    by turn to ``out`` if given."""
    log = TurnLog(lang)

    def apply(step: Step) -> None:
        before = game.state
        entries = apply_logged(game, step, lang, reveal=lambda seat: False)
        if out is not None:
            for k, entry in enumerate(entries):
                _write(out, log.add(entry, before if k == 0 else game.state))

    while not game.over:
        for seat, bot in bots.items():
            react = getattr(bot, "react", None)
            step = None if react is None or game.over else react(game.view(seat))
            if step is not None:
                apply(step)
        if not game.over:
            seat = game.state.current
            apply(bots[seat].choose(game.view(seat)))
    if out is not None:
        _write(out, log.finish(game.state))


def _melds(choice: RulesChoice | None, lang: str, out: TextIO) -> int:
    choices = (
        [RulesChoice(variants.get(n), n, preset=True) for n in variants.names()]
        if choice is None
        else [choice]
    )
    for each in choices:
        out.write(f"== {each.name} (fingerprint {each.rules.fingerprint()})\n")
        for notation in DEMO_MELDS:
            _, text = check_meld(notation, each.rules, lang)
            out.write(f"  {notation:<20} {text}\n")
        out.write("\n")
    return OK


def run(args: argparse.Namespace, out: TextIO) -> int:
    lang: str = args.lang
    given = args.variant is not None or args.rules is not None
    if args.melds:
        return _melds(chosen_rules(args) if given else None, lang, out)
    if not args.match:
        for option in ("rounds", "target"):
            if getattr(args, option) is not None:
                raise CliError("match_only", option=f"--{option}")
    if not given:
        args.variant = "clasic"
    choice = chosen_rules(args)
    players: int = args.players
    seed: int = args.seed
    kinds = parse_bot_kinds(args.bots, players)
    if args.match:
        if args.save and args.save.lower().endswith(TEXT_RECORD_SUFFIXES):
            raise CliError("match_text")
        return _match(choice, kinds, seed, lang, out, save=args.save, config=args)
    game = Game.new(choice.rules, kinds, seed=seed, automation=AUTOMATION)
    state = game.state
    _write(
        out,
        [
            tr(lang, "title", rules=choice.label(lang), players=players, seed=seed),
            _players_line(kinds, lang),
            tr(
                lang,
                "start_line",
                tile=state.table.tile(state.atu),
                seat=seat_name(state.starter, lang),
            ),
            "",
        ],
    )
    _play_round(game, make_bots(kinds, range(players), seed), lang, out)
    result = game.result()
    assert result is not None
    _write(out, ["", *end_lines(game.state, result, lang)])
    if args.save:
        save_game(args.save, game, lang, seed=seed)
        out.write(tr(lang, "saved", path=args.save) + "\n")
    return OK


def _match(
    choice: RulesChoice,
    kinds: list[str],
    seed: int,
    lang: str,
    out: TextIO,
    *,
    save: str | None,
    config: argparse.Namespace,
) -> int:
    """Play and print a match: each round's end and score, then the running totals."""
    players = len(kinds)
    cfg = MatchConfig(rounds=config.rounds, target=config.target, automation=AUTOMATION)
    match = Match(choice.rules, kinds, cfg, seed=seed)
    length = (
        tr(lang, "match_target", n=cfg.target)
        if cfg.target is not None
        else tr(lang, "match_rounds", n=cfg.rounds or players)
    )
    _write(
        out,
        [
            tr(
                lang,
                "match_title",
                rules=choice.label(lang),
                players=players,
                seed=seed,
                length=length,
            ),
            _players_line(kinds, lang),
        ],
    )
    while True:
        game = match.game
        number = len(match.games)
        starter = seat_name(game.state.starter, lang)
        out.write("\n" + tr(lang, "round_header", n=number, seat=starter) + "\n")
        bots = make_bots(kinds, range(players), seed * 100 + number)
        _play_round(game, bots, lang, None)
        result = game.result()
        assert result is not None
        totals = ", ".join(f"{seat_name(s, lang)} {t}" for s, t in enumerate(match.totals))
        _write(
            out,
            [
                tr(lang, "round_result", n=number, why=end_reason(game.state, lang)),
                *score_lines(result, lang),
                tr(lang, "totals", n=number, totals=totals),
            ],
        )
        if match.over:
            break
        match.next_round()
    winners = ", ".join(seat_name(w, lang) for w in match.winners)
    out.write("\n" + tr(lang, "match_over", n=len(match.games), seats=winners) + "\n")
    if save:
        write_text(save, json.dumps(serde.dump_match(match), sort_keys=True) + "\n")
        out.write(tr(lang, "saved", path=save) + "\n")
    return OK
