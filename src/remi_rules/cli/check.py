"""``remi-rules check``: validate melds (MELD-01 … MELD-06) or a first etalare
(``--opening``, OPEN-02 … OPEN-04) written in tile notation.

Each meld gets a line: its kind, its points (VALUE-01) and what each joker stands for
(MELD-06), or why it is invalid.  With ``--opening`` the melds are also checked
together by :func:`~remi_rules.check_opening`, and no value may be used more often
than the set holds it (two copies, two jokers, TILES-01).  Exit code 1 when a meld
or the opening is invalid.

The tiles need no quotes: ``remi-rules check 11R 12R 13R 1R`` checks one meld.
Several melds are separated by ``|`` (quoted for the shell: ``'|'``), or each given as
one quoted argument (``"1R 2R 3R" "7R 7A 7N"``): an argument holding a space is a meld
of its own (:func:`group_melds`).
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, TextIO

from ..errors import InvalidOpeningError, RemiError
from ..melds import Meld, analyze_meld
from ..opening import check_opening
from ..ruleset import Ruleset
from ..tiles import JOKER, parse_tiles
from .common import INVALID, OK, add_lang, add_rules, chosen_rules
from .render import meld_text
from .texts import tr

if TYPE_CHECKING:
    from .common import Subparsers

__all__ = ["add_parser", "check_meld", "group_melds", "run"]


def add_parser(subparsers: Subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "check",
        help="validate melds, or a first etalare, written in tile notation",
        description="Validate melds written in tile notation (11R 12R 13R 1R, J for a "
        "joker; several melds separated by '|' or each quoted) under a preset or a "
        "house-rules file: the kind, the points and what each joker stands for, or why it "
        "is invalid.  Exit code 1 if one is invalid.",
    )
    parser.add_argument(
        "melds",
        nargs="+",
        metavar="TILE",
        help="the tiles, e.g. 11R 12R 13R 1R; separate melds with '|' or quote each meld",
    )
    parser.add_argument(
        "--opening",
        action="store_true",
        help="check the melds together as a first etalare (minimum and composition)",
    )
    add_rules(parser)
    add_lang(parser)
    return parser


def check_meld(notation: str, rules: Ruleset, lang: str) -> tuple[Meld | None, str]:
    """The meld written ``notation`` and its description, or ``None`` and why it is
    not one (bad notation included)."""
    try:
        meld = analyze_meld(parse_tiles(notation), rules)
    except RemiError as err:
        return None, f"{tr(lang, 'invalid')} [{err.code}]: {err.message(lang)}"
    return meld, meld_text(meld, lang)


def _opening_line(melds: list[Meld], rules: Ruleset, lang: str) -> tuple[bool, str]:
    """OPEN-02 … OPEN-04 for the melds together, after the tile census (TILES-01)."""
    used = Counter(JOKER if t.is_joker else t for m in melds for t in m.tiles)
    for tile, count in sorted(used.items()):
        if count > 2:
            return False, tr(lang, "opening_copies", tile=tile, count=count, limit=2)
    try:
        points = check_opening(melds, rules)
    except InvalidOpeningError as err:
        return False, tr(lang, "opening_bad", code=err.code, why=err.message(lang))
    return True, tr(lang, "opening_ok", points=points, minimum=rules.opening_min_points)


def group_melds(arguments: Sequence[str]) -> list[str]:
    """The melds the command-line arguments write: ``|`` separates melds (alone or
    inside an argument), an argument holding a space is a meld of its own, and the
    arguments between are the tiles of one meld.

    >>> group_melds(["11R", "12R", "13R", "1R"])
    ['11R 12R 13R 1R']
    >>> group_melds(["1R", "2R", "3R", "|", "7R", "7A", "7N"]), group_melds(["1R 2R 3R", "J 5R 6R"])
    (['1R 2R 3R', '7R 7A 7N'], ['1R 2R 3R', 'J 5R 6R'])
    >>> group_melds(["1R 2R 3R|7R 7A 7N"]), group_melds(["1R", "2R", "3R|7R", "7A", "7N"])
    (['1R 2R 3R', '7R 7A 7N'], ['1R 2R 3R', '7R 7A 7N'])
    """
    melds: list[str] = []
    tiles: list[str] = []

    def close() -> None:
        if tiles:
            melds.append(" ".join(tiles))
            tiles.clear()

    for argument in arguments:
        if "|" not in argument and len(argument.split()) > 1:
            close()
            melds.append(" ".join(argument.split()))
            continue
        for k, part in enumerate(argument.split("|")):
            if k:
                close()
            tiles.extend(part.split())
    close()
    return melds


def run(args: argparse.Namespace, out: TextIO) -> int:
    rules = chosen_rules(args).rules
    lang: str = args.lang
    status = OK
    melds: list[Meld] = []
    for notation in group_melds(args.melds):
        meld, text = check_meld(notation, rules, lang)
        out.write(f"{notation}: {text}\n")
        if meld is None:
            status = INVALID
        else:
            melds.append(meld)
    if args.opening:
        if status != OK:
            out.write(tr(lang, "opening_skipped") + "\n")
        else:
            valid, text = _opening_line(melds, rules, lang)
            out.write(text + "\n")
            if not valid:
                status = INVALID
    return status
