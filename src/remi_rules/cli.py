"""The ``remi-rules`` command (also ``python -m remi_rules``).  Only this module prints.

Commands:

``demo``
    Play one seeded round under a preset between simple built-in players and print
    it turn by turn, then the table and the score breakdown (``--melds``: instead,
    validate and print a few melds under each preset).
``check MELD [MELD ...]``
    Validate melds written in tile notation (``"11R 12R 13R 1R"``) under a preset
    or a house-rules file.
``variants``
    List the presets, or with ``--diff A B`` only the knobs where A and B differ.

Exit codes: 0 success, 1 an invalid meld in ``check``, 2 usage errors, unknown
presets and bad files.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import TextIO

from . import serde, variants
from .errors import InvalidMeldError, RemiError
from .melds import Meld, MeldKind, analyze_meld
from .ruleset import Ruleset
from .tiles import parse_tiles

__all__ = ["main"]

DEMO_MELDS = (
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

_KIND = {"en": {MeldKind.SUITA: "run", MeldKind.TERTA: "set"}}
_KIND["ro"] = {MeldKind.SUITA: "suită", MeldKind.TERTA: "terță"}


def _describe(meld: Meld, lang: str) -> str:
    text = f"{_KIND[lang][meld.kind]}, {meld.points} p"
    for slot in meld.jokers:
        if slot.tile is not None:
            text += f", J={slot.tile}"
        else:
            options = "/".join(str(t) for t in slot.candidates)
            text += f", J={options}"
    return text


def _check_line(notation: str, rules: Ruleset, lang: str) -> tuple[bool, str]:
    try:
        meld = analyze_meld(parse_tiles(notation), rules)
    except InvalidMeldError as err:
        return (
            False,
            f"{'invalid' if lang == 'en' else 'invalidă'} [{err.code}]: {err.message(lang)}",
        )
    return True, _describe(meld, lang)


def _load_rules(args: argparse.Namespace) -> Ruleset:
    if getattr(args, "rules", None):
        return serde.load_house_rules(args.rules)
    return variants.get(args.variant)


def _cmd_demo(args: argparse.Namespace, out: TextIO) -> int:
    if not args.melds:
        from .demo import play_demo

        return play_demo(
            variants.get(args.variant or "clasic"),
            players=args.players,
            seed=args.seed,
            lang=args.lang,
            out=out,
        )
    names = variants.names() if args.variant is None else (args.variant,)
    for name in names:
        rules = variants.get(name)
        out.write(f"== {name} (fingerprint {rules.fingerprint()})\n")
        for notation in DEMO_MELDS:
            _, text = _check_line(notation, rules, args.lang)
            out.write(f"  {notation:<20} {text}\n")
        out.write("\n")
    return 0


def _cmd_check(args: argparse.Namespace, out: TextIO) -> int:
    rules = _load_rules(args)
    status = 0
    for notation in args.melds:
        try:
            ok, text = _check_line(notation, rules, args.lang)
        except RemiError as err:  # bad notation
            ok, text = False, f"[{err.code}] {err.message(args.lang)}"
        out.write(f"{notation}: {text}\n")
        if not ok:
            status = 1
    return status


def _cmd_variants(args: argparse.Namespace, out: TextIO) -> int:
    if args.diff:
        left, right = (_named_or_file(x) for x in args.diff)
        a, b = serde.ruleset_to_dict(left), serde.ruleset_to_dict(right)
        width = max(len(k) for k in a)
        for knob in a:
            if a[knob] != b[knob]:
                out.write(f"{knob:<{width}}  {a[knob]!s:>20}  {b[knob]!s:>20}\n")
        return 0
    for name in variants.names():
        out.write(f"{name:<8} {variants.get(name).fingerprint()}\n")
    return 0


def _named_or_file(text: str) -> Ruleset:
    if text in variants.names():
        return variants.get(text)
    return serde.load_house_rules(text)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="remi-rules", description="Rules engine for Remi etalat (Rummy 45)."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    demo = sub.add_parser("demo", help="play a seeded demo round (or --melds)")
    demo.add_argument("--variant", choices=variants.names(), default=None)
    demo.add_argument("--seed", type=int, default=1)
    demo.add_argument("--players", type=int, choices=(2, 3, 4), default=4)
    demo.add_argument(
        "--melds", action="store_true", help="validate a few melds under each preset instead"
    )
    demo.add_argument("--lang", choices=("ro", "en"), default="en")
    check = sub.add_parser("check", help="validate melds written in tile notation")
    check.add_argument("melds", nargs="+", metavar="MELD", help='e.g. "11R 12R 13R 1R"')
    check.add_argument("--variant", default="clasic")
    check.add_argument("--rules", metavar="FILE", help="a house-rules file (JSON or TOML)")
    check.add_argument("--lang", choices=("ro", "en"), default="en")
    var = sub.add_parser("variants", help="list the presets, or compare two rulesets")
    var.add_argument("--diff", nargs=2, metavar=("A", "B"), help="preset names or files")
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the command line; returns the exit code."""
    stream = sys.stdout if out is None else out
    parser = _parser()
    args = parser.parse_args(argv)
    handlers = {"demo": _cmd_demo, "check": _cmd_check, "variants": _cmd_variants}
    try:
        return handlers[args.command](args, stream)
    except RemiError as err:
        sys.stderr.write(f"remi-rules: {err.message(getattr(args, 'lang', 'en'))}\n")
        return 2
    except BrokenPipeError:
        # The reader went away (``remi-rules demo | head``): not an error.
        if out is None:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
