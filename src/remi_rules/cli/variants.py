"""``remi-rules variants``: rulesets side by side, knob by knob (RULES.md §3).

Without arguments the three presets, one column each, every knob in the groups of the
variant matrix, with the rule IDs each knob configures; rows where the columns differ
are marked ``*``.  Preset names or house-rules files given as arguments choose the
columns; ``--diff A B`` keeps only the knobs where A and B differ.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TYPE_CHECKING, TextIO

from .. import variants as presets
from ..docgen import format_value
from ..ruleset import KNOB_GROUPS, knobs
from .common import OK, RulesChoice, add_lang, rules_from
from .texts import tr

if TYPE_CHECKING:
    from .common import Subparsers

__all__ = ["add_parser", "knob_table", "run"]


def add_parser(subparsers: Subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "variants",
        help="the presets side by side, or what differs between two rulesets",
        description="Rulesets side by side, every knob, one column each (default: the "
        "presets); --diff A B keeps only the knobs where A and B differ.",
    )
    parser.add_argument(
        "rulesets",
        nargs="*",
        metavar="NAME-OR-FILE",
        help="preset names or house-rules files, one column each (default: every preset)",
    )
    parser.add_argument(
        "--diff",
        nargs=2,
        metavar=("A", "B"),
        help="only the knobs where A and B differ (preset names or files)",
    )
    add_lang(parser)
    return parser


def knob_table(columns: Sequence[RulesChoice], lang: str, *, only_differences: bool) -> list[str]:
    """The table: a heading, then per group of knobs (KNOB_GROUPS) a title line and a
    line per knob, ``*`` marking the knobs whose values differ between the columns."""
    infos = knobs()
    cells = {k.name: [format_value(getattr(c.rules, k.name)) for c in columns] for k in infos}
    differs = {name: len(set(values)) > 1 for name, values in cells.items()}
    shown = [k for k in infos if differs[k.name] or not only_differences]
    if not shown:
        return [tr(lang, "no_differences")]
    names = [c.name for c in columns]
    name_width = max(len(tr(lang, "knob")), *(len(k.name) for k in shown))
    widths = [
        max(len(name), *(len(cells[k.name][col]) for k in shown)) for col, name in enumerate(names)
    ]

    def line(mark: str, first: str, values: Sequence[str], last: str) -> str:
        body = "  ".join(f"{v:<{w}}" for v, w in zip(values, widths, strict=True))
        return f"{mark} {first:<{name_width}}  {body}  {last}".rstrip()

    out = [line(" ", tr(lang, "knob"), names, tr(lang, "rule_ids"))]
    for group in KNOB_GROUPS:
        rows = [k for k in shown if k.group == group]
        if not rows:
            continue
        out.append(f"-- {tr(lang, 'group_' + group)}")
        for info in rows:
            mark = "*" if differs[info.name] else " "
            out.append(line(mark, info.name, cells[info.name], " ".join(info.rules)))
    return out


def run(args: argparse.Namespace, out: TextIO) -> int:
    lang: str = args.lang
    if args.diff:
        columns = [rules_from(text) for text in args.diff]
        lines = knob_table(columns, lang, only_differences=True)
    else:
        names: list[str] = args.rulesets or list(presets.names())
        lines = knob_table([rules_from(text) for text in names], lang, only_differences=False)
    out.write("\n".join(lines) + "\n")
    return OK
