"""What the commands share: the exit codes, the options every command reads the same
way (``--lang``, ``--variant`` / ``--rules``, ``--bots``), the usage error and file
reading.  Nothing here prints."""

from __future__ import annotations

import argparse
import datetime
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Final

import attrs

from .. import serde, variants
from ..engine import Automation, Bot, Game
from ..errors import InvalidRecordTextError, InvalidStateError
from ..ruleset import Ruleset
from ..sim.tasks import BOTS, make_bot
from .texts import languages, tr

if TYPE_CHECKING:
    Subparsers = argparse._SubParsersAction[argparse.ArgumentParser]

__all__ = [
    "AUTOMATION",
    "BOT_KINDS",
    "INVALID",
    "OK",
    "TEXT_RECORD_SUFFIXES",
    "USAGE",
    "CliError",
    "RulesChoice",
    "add_lang",
    "add_rules",
    "chosen_rules",
    "is_text_record",
    "load_game_file",
    "make_bots",
    "parse_bot_kinds",
    "read_text",
    "rules_from",
    "save_game",
    "write_text",
]

OK: Final = 0
"""Exit code: success."""
INVALID: Final = 1
"""Exit code: an invalid meld or opening in ``check`` (or, in ``play --strict``, a
refused step)."""
USAGE: Final = 2
"""Exit code: a usage error, an unknown preset, a bad file."""

AUTOMATION: Final = Automation(announcements=True)
"""What the engine does by itself in ``demo`` and ``play``: online's automatic
announcement (ANNOUNCE-04).  Not ``forced_takes``: a forced draw is made inside the
previous player's discard, which closes that player's announcement window
(ANNOUNCE-02) before he can announce, so he would always miss it (ANNOUNCE-03)."""

BOT_KINDS: Final = tuple(BOTS)
"""The bots ``--bots`` names: :class:`~remi_rules.bots.GreedyBot`,
:class:`~remi_rules.bots.FastBot` and :class:`~remi_rules.bots.RandomBot`."""


class CliError(Exception):
    """A usage problem the command line reports on stderr with exit code 2: a bad
    option value, a file that cannot be read or is not what was asked for.  ``key``
    names a sentence of :mod:`remi_rules.cli.texts` (the catalogue entry ``cli:<key>``)."""

    def __init__(self, key: str, /, **details: object) -> None:
        super().__init__(key)
        self.key = key
        self.details = details

    def message(self, lang: str = "en") -> str:
        """The explanation in ``lang`` (``"ro"``, ``"en"`` …)."""
        return tr(lang, self.key, **self.details)

    def __str__(self) -> str:
        return self.message("en")


def add_lang(parser: argparse.ArgumentParser) -> None:
    """``--lang ro|en|…``: the language of everything the command writes (default en);
    the choices are the languages with a catalogue (:func:`remi_rules._i18n.languages`)."""
    choices = languages()
    parser.add_argument(
        "--lang",
        choices=choices,
        default="en",
        help=f"the language: {', '.join(choices)} (default: en)",
    )


def add_rules(parser: argparse.ArgumentParser, *, default: str | None = "clasic") -> None:
    """``--variant NAME`` (a preset) or ``--rules FILE`` (a house-rules file, JSON or
    TOML), not both."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument(
        "--variant",
        metavar="NAME",
        default=default,
        help=f"a preset: {', '.join(variants.names())} (default: {default})",
    )
    group.add_argument("--rules", metavar="FILE", help="a house-rules file (JSON or TOML)")


@attrs.frozen
class RulesChoice:
    """A ruleset and where it came from: a preset's name, or a house-rules file."""

    rules: Ruleset
    name: str
    """The preset name, or the file's name (without its folders)."""
    preset: bool

    def label(self, lang: str) -> str:
        """``clasic (fingerprint …)`` or ``house rules house.toml (fingerprint …)``."""
        key = "rules_preset" if self.preset else "rules_house"
        return tr(lang, key, name=self.name, fp=self.rules.fingerprint())


def rules_from(text: str) -> RulesChoice:
    """A preset name, or else a house-rules file (:func:`remi_rules.serde.load_house_rules`).
    An unknown name that is no file raises the preset lookup's error."""
    if text in variants.names():
        return RulesChoice(variants.get(text), text, preset=True)
    if not os.path.exists(text) and os.sep not in text and "." not in text:
        variants.get(text)  # UnknownVariantError, listing the presets
    return RulesChoice(serde.load_house_rules(text), Path(text).name, preset=False)


def chosen_rules(args: argparse.Namespace) -> RulesChoice:
    """The ruleset of ``--variant`` / ``--rules``."""
    if getattr(args, "rules", None):
        path: str = args.rules
        return RulesChoice(serde.load_house_rules(path), Path(path).name, preset=False)
    name: str = args.variant
    return RulesChoice(variants.get(name), name, preset=True)


def parse_bot_kinds(text: str, seats: int) -> list[str]:
    """``--bots greedy,random,...``: one kind per seat, or one kind for every seat."""
    kinds = [k.strip().lower() for k in text.split(",") if k.strip()]
    for kind in kinds:
        if kind not in BOT_KINDS:
            raise CliError("unknown_bot", name=kind, known=", ".join(BOT_KINDS))
    if len(kinds) == 1:
        kinds *= seats
    if len(kinds) != seats:
        raise CliError("bot_count", given=len(kinds), needed=seats)
    return kinds


def make_bots(kinds: Sequence[str], seats: Sequence[int], seed: int) -> dict[int, Bot]:
    """The bots for ``seats`` (:func:`remi_rules.sim.make_bot`, as the simulator seats
    them): a random bot is seeded from ``seed`` and the seat, so a seeded game is the
    same every time."""
    return {seat: make_bot(kind, seed * 10 + seat) for kind, seat in zip(kinds, seats, strict=True)}


def read_text(path: str) -> str:
    """The text of file ``path`` (UTF-8); :class:`CliError` if it cannot be read."""
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise CliError("cannot_read", path=path, why=_why(exc)) from None


def write_text(path: str, text: str) -> None:
    """Write ``text`` to ``path`` (UTF-8); :class:`CliError` if it cannot be written."""
    try:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
    except OSError as exc:
        raise CliError("cannot_write", path=path, why=_why(exc)) from None


def _why(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc)


TEXT_RECORD_SUFFIXES: Final = (".txt", ".remi")
"""A file whose name ends so is a text record (:func:`remi_rules.serde.dump_record_text`);
any other is JSON."""


def is_text_record(text: str) -> bool:
    """Whether a file's text is a text record rather than JSON (a JSON save is an
    object: it starts with ``{``)."""
    return not text.lstrip().startswith("{")


def load_game_file(path: str, lang: str, *, seed: int | None = None) -> Game:
    """The game saved at ``path``: a game or a record in JSON, or a text record
    (replayed, with the names of its headers).  Its future chance comes from ``seed``.
    :class:`CliError` if it cannot be read or is refused (``why`` in ``lang``)."""
    text = read_text(path)
    try:
        if is_text_record(text):
            read = serde.read_record_text(text)
            game = Game.replay(read.record, seed=seed)
            game.names = read.names
            return game
        kind = _kind(text)
        if kind == "game":
            return serde.loads_game(text, seed=seed)
        if kind == "record":
            return Game.replay(serde.loads_record(text), seed=seed)
    except (InvalidStateError, InvalidRecordTextError) as err:
        raise CliError("bad_save", path=path, why=err.message(lang)) from None
    raise CliError("not_a_save", path=path, kind=json.dumps(_kind(text)))


def _kind(text: str) -> str | None:
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    kind = data.get("kind") if isinstance(data, dict) else None
    return kind if isinstance(kind, str) else None


def save_game(
    path: str,
    game: Game,
    lang: str,
    *,
    seed: int | None = None,
    date: datetime.date | None = None,
) -> None:
    """Write ``game`` to ``path``: a text record in ``lang``'s words for a name ending
    :data:`TEXT_RECORD_SUFFIXES` (with the ``seed`` that dealt it once the round is
    over, and ``date``), else the JSON game (:func:`remi_rules.serde.dumps_game`)."""
    if path.lower().endswith(TEXT_RECORD_SUFFIXES):
        text = serde.dump_record_text(game, seed=seed if game.over else None, date=date, lang=lang)
    else:
        text = serde.dumps_game(game) + "\n"
    write_text(path, text)
