"""Generate the preset pages of docs/presets/ from the :class:`~remi_rules.Ruleset` values.

Each preset in :func:`remi_rules.variants.names` gets one markdown page, and
``index.md`` puts the presets side by side: their sources, and a table of every knob
whose value differs between them (:func:`overview_page`).  The pages are built only
from the presets' ``Ruleset`` values, the knob metadata (:func:`remi_rules.ruleset.knobs`)
and the preset modules' docstrings, so they cannot drift from the code::

    python -m remi_rules.docgen docs/presets           # (re)write the pages
    python -m remi_rules.docgen --check docs/presets   # exit 1 and print a diff if stale

It also writes the page of the error codes (:func:`error_codes_page`): for each code
enum of :mod:`remi_rules.errors`, a table of its codes and their English message
templates, read from the English catalogue (``locale/en/LC_MESSAGES/remi_rules.po``,
the ``msgid`` of the entry whose ``msgctxt`` is the code, as the library's compiled
catalogue gives it)::

    python -m remi_rules.docgen docs/presets --error-codes docs/api/error-codes.md
    python -m remi_rules.docgen --check docs/presets --error-codes docs/api/error-codes.md

The output is deterministic: the same rulesets and catalogue always give the same bytes.

>>> page = preset_page("online")
>>> page.splitlines()[0]
'# Preset `online`'
>>> "| `closing_bonus` | **`0`** | `100` |" in page
True
>>> "| `closing_bonus` | `100` | **`0`** | **`50`** |" in overview_page()
True
"""

from __future__ import annotations

import argparse
import difflib
import enum
import importlib
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from . import _i18n, errors, variants
from .ruleset import KNOB_GROUPS, ClosingAtuTwinEffect, KnobInfo, Ruleset, knobs

__all__ = [
    "ERROR_CODES_COMMAND",
    "INDEX",
    "check_error_codes_page",
    "check_pages",
    "code_enums",
    "english_templates",
    "error_codes_page",
    "format_value",
    "main",
    "overview_page",
    "preset_page",
    "render_pages",
    "write_error_codes_page",
    "write_pages",
]

REFERENCE: Final = "clasic"
"""The preset every other page is compared with."""

GROUP_TITLES: Final[dict[str, str]] = {
    "opening": "Opening (RULES.md §3.1)",
    "rupere": "Taking from the row (RULES.md §3.2)",
    "jokers": "Jokers (RULES.md §3.3)",
    "closing": "Closing (RULES.md §3.4)",
    "atu": "Atu and the double game (RULES.md §3.5)",
    "scoring": "End-of-round values and penalties (RULES.md §3.6)",
    "deal": "Deal, doubles, stock, ties (RULES.md §3.7)",
    "melds": "Melds (not in the matrix)",
}
"""Section titles of the knob groups; a group missing here is titled by its name."""

COMMAND: Final = "python -m remi_rules.docgen docs/presets"

INDEX: Final = "index.md"
"""The file name of the overview page (:func:`overview_page`); no preset may be called
``index``."""


def format_value(value: object) -> str:
    """A knob value as it is shown on the pages (Python values, enums by their value).

    >>> from remi_rules import OpeningComposition
    >>> format_value(OpeningComposition.RUN), format_value(None), format_value((15, 14))
    ('run', 'None', '(15, 14)')
    """
    if isinstance(value, enum.Enum):
        return str(value.value)
    if isinstance(value, ClosingAtuTwinEffect):
        return f"bonus={value.bonus}, mult={value.mult.value}"
    if isinstance(value, tuple):
        return "(" + ", ".join(format_value(v) for v in value) + ")"
    return repr(value)


def _code(value: object) -> str:
    return f"`{format_value(value)}`"


def _cell(text: str) -> str:
    """Make ``text`` safe inside a markdown table cell."""
    return text.replace("|", "\\|").replace("\n", " ")


def _type_text(info: KnobInfo) -> str:
    if info.lo is not None and info.hi is not None:
        return f"{info.type_name}, {info.lo:,}–{info.hi:,}"
    return info.type_name


def _source_line(name: str) -> str | None:
    """The first paragraph of the preset module's docstring, in markdown."""
    try:
        module = importlib.import_module(f"{variants.__name__}.{name}")
    except ModuleNotFoundError:
        return None
    doc = module.__doc__
    if not doc:
        return None
    first = " ".join(doc.strip().split("\n\n", 1)[0].split()).replace("``", "`")
    return first.removeprefix(f"`{name}`: ")


def _knobs_count(n: int) -> str:
    return f"{n} knob" if n == 1 else f"{n} knobs"


def _rules_text(info: KnobInfo) -> str:
    return ", ".join(info.rules)


def _differences(rules: Ruleset, reference: Ruleset) -> list[KnobInfo]:
    return [k for k in knobs() if getattr(rules, k.name) != getattr(reference, k.name)]


def preset_page(name: str) -> str:
    """The markdown page of preset ``name``, generated from its :class:`Ruleset`.

    Raises :class:`~remi_rules.UnknownVariantError` for an unknown name.
    """
    rules = variants.get(name)
    reference = variants.get(REFERENCE)
    is_reference = name == REFERENCE
    out: list[str] = [f"# Preset `{name}`", ""]
    source = _source_line(name)
    if source is not None:
        out += [f"Source: {source}", ""]
    out += [
        f"<!-- Generated by `{COMMAND}` from the Ruleset values; do not edit by hand. -->",
        "",
        f'This page is generated from `variants.get("{name}")`; '
        f"`tests/test_docs.py` fails if it is out of date.",
        f"Ruleset fingerprint: `{rules.fingerprint()}`.",
        "Values are Python values; an enum knob shows its value, the string a house-rules",
        "file uses. Rule IDs refer to [RULES.md](../RULES.md); see also",
        f"[all presets side by side]({INDEX}), [the Ruleset guide](../rulesets.md) and",
        "[the decisions](../decisions.md).",
        "",
        f"## Differences from `{REFERENCE}`",
        "",
    ]
    diffs = _differences(rules, reference)
    if is_reference:
        others = [
            f"[`{other}`]({other}.md) "
            f"({_knobs_count(len(_differences(variants.get(other), reference)))})"
            for other in variants.names()
            if other != REFERENCE
        ]
        out += [
            f"`{REFERENCE}` is the reference preset; the other pages list how they differ "
            f"from it: {', '.join(others) or 'none yet'}.",
            "",
        ]
    elif not diffs:
        out += [f"None: this preset has the same knob values as `{REFERENCE}`.", ""]
    else:
        out += [
            f"{_knobs_count(len(diffs))} {'differs' if len(diffs) == 1 else 'differ'} "
            f"from `{REFERENCE}`:",
            "",
            f"| Knob | `{name}` | `{REFERENCE}` | Rules |",
            "|---|---|---|---|",
        ]
        for info in diffs:
            out.append(
                f"| `{info.name}` | {_cell(_code(getattr(rules, info.name)))} "
                f"| {_cell(_code(getattr(reference, info.name)))} | {_rules_text(info)} |"
            )
        out.append("")
    out += ["## All knobs", ""]
    if not is_reference:
        out += [
            f"A **bold** value differs from `{REFERENCE}`, whose value is then given beside it.",
            "",
        ]
    all_knobs = knobs()
    for group in _groups():
        members = [k for k in all_knobs if k.group == group]
        if not members:
            continue
        out += [f"### {GROUP_TITLES.get(group, group.capitalize())}", ""]
        if is_reference:
            out += ["| Knob | Value | Type | Rules | Meaning |", "|---|---|---|---|---|"]
        else:
            out += [
                f"| Knob | Value | `{REFERENCE}` | Type | Rules | Meaning |",
                "|---|---|---|---|---|---|",
            ]
        for info in members:
            value = getattr(rules, info.name)
            shown = _cell(_code(value))
            row = [f"`{info.name}`"]
            if is_reference:
                row.append(shown)
            elif value != getattr(reference, info.name):
                row += [f"**{shown}**", _cell(_code(getattr(reference, info.name)))]
            else:
                row += [shown, ""]
            row += [_cell(_type_text(info)), _rules_text(info), _cell(info.doc)]
            out.append("| " + " | ".join(row) + " |")
        out.append("")
    return "\n".join(out)


def _groups() -> list[str]:
    """The knob groups in page order: :data:`KNOB_GROUPS`, then any other, sorted."""
    return list(KNOB_GROUPS) + sorted({k.group for k in knobs()} - set(KNOB_GROUPS))


def overview_page() -> str:
    """The markdown page ``index.md``: every preset's source and fingerprint, and the
    table of the knobs whose values differ between the presets, group by group."""
    names = variants.names()
    rules = {name: variants.get(name) for name in names}
    reference = rules[REFERENCE]
    all_knobs = knobs()
    differing = [
        k
        for k in all_knobs
        if any(getattr(r, k.name) != getattr(reference, k.name) for r in rules.values())
    ]
    out: list[str] = [
        "# The rules per preset",
        "",
        f"<!-- Generated by `{COMMAND}` from the Ruleset values; do not edit by hand. -->",
        "",
        "`remi_rules` has one preset per rule family of the sources",
        "([RULES.md](../RULES.md) §3, the variant matrix): a `Ruleset` with a value for",
        "every knob, returned by `variants.get(name)`. This page is generated from those",
        "values, like the preset pages; `tests/test_docs.py` fails if it is out of date.",
        "A house rule starts from a preset and changes some knobs: see",
        "[the Ruleset guide](../rulesets.md#house-rules).",
        "",
        f"| Preset | Source | Knobs that differ from `{REFERENCE}` | Fingerprint |",
        "|---|---|---|---|",
    ]
    for name in names:
        count = (
            "(the reference)"
            if name == REFERENCE
            else str(len(_differences(rules[name], reference)))
        )
        source = _source_line(name) or ""
        out.append(
            f"| [`{name}`]({name}.md) | {_cell(source)} | {count} | `{rules[name].fingerprint()}` |"
        )
    header = " | ".join(f"`{name}`" for name in names)
    out += [
        "",
        "## Where the presets differ",
        "",
        f"{_knobs_count(len(differing))} of {len(all_knobs)} "
        f"{'has' if len(differing) == 1 else 'have'} different values in different "
        f"presets; every other knob has the same value in all of them (see the",
        f"[`{REFERENCE}` page]({REFERENCE}.md) for the full list). A **bold** value "
        f"differs from `{REFERENCE}`.",
        "",
    ]
    for group in _groups():
        members = [k for k in differing if k.group == group]
        if not members:
            continue
        out += [
            f"### {GROUP_TITLES.get(group, group.capitalize())}",
            "",
            f"| Knob | {header} | Rules | Meaning |",
            "|---|" + "---|" * len(names) + "---|---|",
        ]
        for info in members:
            cells = []
            for name in names:
                shown = _cell(_code(getattr(rules[name], info.name)))
                differs = getattr(rules[name], info.name) != getattr(reference, info.name)
                cells.append(f"**{shown}**" if differs else shown)
            out.append(
                f"| `{info.name}` | {' | '.join(cells)} | {_rules_text(info)} | {_cell(info.doc)} |"
            )
        out.append("")
    return "\n".join(out)


def render_pages() -> dict[str, str]:
    """Every page by file name: ``index.md`` (:func:`overview_page`), then each preset's
    (``"clasic.md"`` …) in :func:`variants.names` order."""
    if INDEX.removesuffix(".md") in variants.names():
        raise ValueError(f"a preset may not be called {INDEX.removesuffix('.md')!r}")
    pages = {INDEX: overview_page()}
    pages.update((f"{name}.md", preset_page(name)) for name in variants.names())
    return pages


def check_pages(directory: Path) -> list[str]:
    """The unified diff between the pages in ``directory`` and freshly generated ones.

    An empty list means every page is up to date; a missing page shows as a diff from
    an empty file, and a page for a preset that no longer exists as a diff to one.
    """
    diff: list[str] = []
    pages = render_pages()
    if directory.is_dir():
        for path in sorted(directory.glob("*.md")):
            if path.name not in pages:
                diff += difflib.unified_diff(
                    path.read_text(encoding="utf-8").splitlines(keepends=True),
                    [],
                    fromfile=str(path),
                    tofile=f"{path} (no such preset)",
                )
    for filename, expected in pages.items():
        path = directory / filename
        actual = path.read_text(encoding="utf-8") if path.exists() else ""
        if actual != expected:
            diff += difflib.unified_diff(
                actual.splitlines(keepends=True),
                expected.splitlines(keepends=True),
                fromfile=str(path),
                tofile=f"{path} (generated)",
            )
    return diff


def write_pages(directory: Path) -> list[Path]:
    """Write every preset page into ``directory`` (created if needed); returns the
    paths whose content changed."""
    directory.mkdir(parents=True, exist_ok=True)
    changed: list[Path] = []
    for filename, text in render_pages().items():
        path = directory / filename
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8", newline="\n")
            changed.append(path)
    return changed


# -- the error codes (docs/api/error-codes.md) ------------------------------------------------

STEP_TABLES_COMMAND: Final = (
    "python -m remi_rules.docgen docs/presets --step-tables docs/engine.md docs/notation.md "
    "docs/api/engine/index.md"
)
ERROR_CODES_COMMAND: Final = (
    "python -m remi_rules.docgen docs/presets --error-codes docs/api/error-codes.md"
)

_ROLE_RE: Final = re.compile(r":(?:py:)?\w+:`(~?)([^`]+)`")
_WILDCARD_RE: Final = re.compile(r"(?<=[A-Z]-)\*")


def code_enums() -> tuple[type[enum.StrEnum], ...]:
    """The code enums of :mod:`remi_rules.errors`, in the order they are defined (that of
    :func:`~remi_rules.errors.all_codes`).

    >>> [e.__name__ for e in code_enums()][:3]
    ['TileErrorCode', 'MeldErrorCode', 'OpeningErrorCode']
    """
    out: list[type[enum.StrEnum]] = []
    for code in errors.all_codes():
        if type(code) not in out:
            out.append(type(code))
    return tuple(out)


def english_templates() -> dict[str, str]:
    """The English templates by ``msgctxt``, as the library's own catalogue holds them
    (:func:`remi_rules._i18n.template`; a plural entry gives its singular form)."""
    lang = _i18n.SOURCE_LANGUAGE
    return {context: _i18n.template(context, lang, 1) for context in _i18n.contexts()}


def _role_text(match: re.Match[str]) -> str:
    """A Sphinx role as the code span Sphinx would show (``~a.b.C`` → ``C``)."""
    target = match[2].rsplit("<", 1)[-1].rstrip(">").strip()
    return f"`{target.rsplit('.', 1)[-1] if match[1] else target}`"


def _summary(doc: str | None) -> str:
    """The first paragraph of a docstring as one markdown line: roles and ``code`` as
    code spans, rule-ID wildcards escaped (``OPEN-\\*``)."""
    first = " ".join((doc or "").strip().split("\n\n", 1)[0].split())
    first = _ROLE_RE.sub(_role_text, first).replace("``", "`")
    parts = first.split("`")
    parts[::2] = [_WILDCARD_RE.sub(r"\\*", part) for part in parts[::2]]
    return "`".join(parts)


def error_codes_page(templates: dict[str, str] | None = None) -> str:
    """The markdown page of every error code and its English message template, one
    table per code enum of :mod:`remi_rules.errors`.  ``templates`` defaults to
    :func:`english_templates`; a code without one is a :class:`ValueError`."""
    if templates is None:
        templates = english_templates()
    enums = code_enums()
    missing = [code.value for code in errors.all_codes() if code.value not in templates]
    if missing:
        raise ValueError(f"codes without an English message: {', '.join(missing)}")
    count = sum(len(e) for e in enums)
    out: list[str] = [
        "# Error codes",
        "",
        f"<!-- Generated by `{ERROR_CODES_COMMAND}`",
        "from remi_rules.errors and the English catalogue; do not edit by hand. -->",
        "",
        "Every error of `remi_rules` has a `code`, a member of one of the code enums of",
        "[`remi_rules.errors`](errors.md); `err.message(lang)` writes the catalogue entry",
        "whose `msgctxt` is the code ([the messages](errors.md#messages)). Each table below",
        "lists an enum's codes (the values a frontend receives, e.g. in",
        "`serde.dump_error`) with their English message templates, the `msgid` of",
        "`src/remi_rules/locale/en/LC_MESSAGES/remi_rules.po`; a placeholder such as",
        "`{tile}` names a key of the error's `details`, and `{points:points}` writes that",
        "number with its noun ([languages.md](../languages.md)).",
        "This page is generated from the enums and the catalogue;",
        "`tests/test_docs.py` fails if it is out of date.",
        "",
        f"{count} codes in {len(enums)} enums: "
        + ", ".join(f"[`{e.__name__}`](#{e.__name__.lower()})" for e in enums)
        + ".",
        "",
    ]
    for code_enum in enums:
        out += [
            f"## `{code_enum.__name__}`",
            "",
            f"[`{code_enum.__name__}`][remi_rules.errors.{code_enum.__qualname__}]: "
            f"{_summary(code_enum.__doc__)}",
            "",
            "| Code | English message template |",
            "|---|---|",
        ]
        out += [
            f"| `{code.value}` | {_cell(_code_span(templates[code.value]))} |" for code in code_enum
        ]
        out.append("")
    return "\n".join(out)


def _code_span(text: str) -> str:
    """``text`` as a markdown code span (its ``<``, ``_`` and ``[`` stay literal)."""
    ticks = "`" * (max((len(run) for run in re.findall(r"`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


def check_error_codes_page(path: Path) -> list[str]:
    """The unified diff between the page at ``path`` and a fresh :func:`error_codes_page`
    (a missing page shows as a diff from an empty file); empty when it is up to date."""
    expected = error_codes_page()
    actual = path.read_text(encoding="utf-8") if path.exists() else ""
    if actual == expected:
        return []
    return list(
        difflib.unified_diff(
            actual.splitlines(keepends=True),
            expected.splitlines(keepends=True),
            fromfile=str(path),
            tofile=f"{path} (generated)",
        )
    )


def write_error_codes_page(path: Path) -> bool:
    """Write :func:`error_codes_page` to ``path`` (its folder created if needed); whether
    the content changed."""
    text = error_codes_page()
    if path.exists() and path.read_text(encoding="utf-8") == text:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8", newline="\n")
    return True


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m remi_rules.docgen [--check] [DIRECTORY] [--error-codes FILE]
    [--step-tables FILE ...]`` (``DIRECTORY`` defaults to ``docs/presets``; the error
    codes page and the step tables are generated or checked only when named)."""
    parser = argparse.ArgumentParser(
        prog="python -m remi_rules.docgen",
        description="Generate (or check) the preset pages and their index from the Ruleset "
        "values, and the error codes page from remi_rules.errors and the English catalogue.",
    )
    parser.add_argument(
        "directory",
        nargs="?",
        default="docs/presets",
        type=Path,
        help="where the pages are (default: docs/presets)",
    )
    parser.add_argument(
        "--error-codes",
        type=Path,
        metavar="FILE",
        help="also the error codes page (docs/api/error-codes.md)",
    )
    parser.add_argument(
        "--step-tables",
        type=Path,
        nargs="+",
        default=[],
        metavar="FILE",
        help="also the step tables between the '<!-- steps: NAME -->' markers of these pages",
    )
    parser.add_argument(
        "--check", action="store_true", help="write nothing; exit 1 and print a diff if stale"
    )
    args = parser.parse_args(argv)
    directory: Path = args.directory
    codes_page: Path | None = args.error_codes
    if args.step_tables:
        from ._step_tables import update_tables

        for page in args.step_tables:
            if update_tables(page, write=not args.check):
                print(f"{'stale' if args.check else 'wrote'}: the step tables of {page}")
                if args.check:
                    print(f"run: {STEP_TABLES_COMMAND}", file=sys.stderr)
                    return 1
    if args.check:
        status = 0
        diff = check_pages(directory)
        if diff:
            sys.stdout.writelines(diff)
            print(f"\npreset pages are out of date; run: {COMMAND}", file=sys.stderr)
            status = 1
        diff = check_error_codes_page(codes_page) if codes_page is not None else []
        if diff:
            sys.stdout.writelines(diff)
            print(
                f"\nthe error codes page is out of date; run: {ERROR_CODES_COMMAND}",
                file=sys.stderr,
            )
            status = 1
        return status
    for path in write_pages(directory):
        print(f"wrote {path}")
    if codes_page is not None and write_error_codes_page(codes_page):
        print(f"wrote {codes_page}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
