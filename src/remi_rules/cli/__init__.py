"""The ``remi-rules`` command (also ``python -m remi_rules``).  Only this package prints.

Commands, one module each (every module has ``add_parser(subparsers)``, returning
its parser, and ``run(args, out) -> int``; :data:`COMMANDS` lists them in the order
of ``--help``):

``demo``
    Bots play a seeded round (or ``--match``) under a preset, printed turn by turn,
    then the score breakdown; ``--melds`` validates a few melds under each preset.
``check TILE [TILE ...]``
    Validate melds written in tile notation (no quotes needed; ``|`` between melds),
    or with ``--opening`` the melds together as a first etalare, under a preset or a
    house-rules file.
``variants``
    The presets side by side, knob by knob; ``--diff A B`` only what differs.
``play``
    Play a round in the terminal against bots; steps are typed in the step notation
    (:mod:`remi_rules.notation`) and read from stdin, so it can be scripted (at a
    terminal with readline's line editing); ``--resume`` goes on with a saved game.
``replay FILE``
    Print a saved game, record, match or text record step by step, with the result
    (``--upto N``, ``--step``).
``simulate``
    Seeded rounds between bots under one or more rulesets, on every core (or a Ray
    cluster): round lengths, how rounds end, scores and the first-player advantage
    with 95 % intervals, as a table, JSON or CSV, and a plot
    (:mod:`remi_rules.cli.simulate`, :mod:`remi_rules.sim`).
``serve``
    The reference web table in a browser (:mod:`remi_rules.cli.serve`, docs/web.md;
    needs the extra ``web``).

Exit codes: 0 success; 1 an invalid meld or opening in ``check`` (and a refused
step in ``play --strict``); 2 usage errors, unknown presets and bad files, with the
reason on stderr.  A closed pipe (``remi-rules demo | head``) ends quietly.

To add a command, write a module with ``add_parser`` and ``run`` and list it in
:data:`COMMANDS`.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, TextIO, cast

from ..errors import RemiError
from . import check, demo, play, replay, serve, simulate, variants
from .common import USAGE, CliError

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

    from .common import Subparsers

__all__ = ["COMMANDS", "Command", "build_parser", "main"]


class Command(Protocol):
    """What a command module provides."""

    def add_parser(self, subparsers: Subparsers) -> argparse.ArgumentParser:
        """Add the command's subparser (``subparsers.add_parser(name, ...)``) and return it."""
        ...

    def run(self, args: argparse.Namespace, out: TextIO) -> int:
        """Run the command, writing to ``out``; return the exit code."""
        ...


COMMANDS: tuple[Command, ...] = (demo, check, variants, play, replay, simulate, serve)
"""The commands, in the order ``--help`` lists them."""


class _Parser(argparse.ArgumentParser):
    """An argument parser that writes its help to the command's output stream."""

    out: TextIO | None = None

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        if message and self.out is not None and (file is None or file is sys.stdout):
            self.out.write(message)
            return
        super()._print_message(message, file)


def build_parser(out: TextIO | None = None) -> argparse.ArgumentParser:
    """The parser of every command in :data:`COMMANDS`; help goes to ``out``."""
    parser = _Parser(
        prog="remi-rules",
        description="Rules engine for Remi etalat (Rummy 45): demo rounds, meld checks, "
        "the presets, a game in the terminal, replays of saved games and simulations.",
    )
    sub = cast(
        "Subparsers", parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    )
    for command in COMMANDS:
        command.add_parser(sub).set_defaults(_run=command.run)
    for each in (parser, *sub.choices.values()):
        if isinstance(each, _Parser):
            each.out = out
    return parser


def _exit_code(exc: SystemExit) -> int:
    if exc.code is None:
        return 0
    return exc.code if isinstance(exc.code, int) else USAGE


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the command line on ``argv`` (default: ``sys.argv[1:]``), writing to
    ``out`` (default: stdout); return the exit code."""
    stream = sys.stdout if out is None else out
    try:
        args = build_parser(stream).parse_args(argv)
    except SystemExit as exc:  # --help, or a usage error argparse explained on stderr
        return _exit_code(exc)
    lang: str = getattr(args, "lang", "en")
    try:
        code: int = args._run(args, stream)
        stream.flush()
    except (RemiError, CliError) as err:
        sys.stderr.write(f"remi-rules: {err.message(lang)}\n")
        return USAGE
    except BrokenPipeError:
        # The reader went away (``remi-rules demo | head``): not an error.
        if out is None:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    return code
