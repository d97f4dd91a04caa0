"""The step tables of the docs (docs/engine.md, docs/notation.md, and the links of
docs/api/engine/index.md), made from the step
classes: each class's summary (the first paragraph of its docstring) and its notation
in every language of the catalogues, so that a new step class is in the docs without
an edit there.  :mod:`remi_rules.docgen` writes them between the marker lines
``<!-- steps: NAME -->`` and ``<!-- /steps -->`` of a page (``--step-tables``)."""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from pathlib import Path
from typing import Final

import attrs

from . import _i18n as i18n
from .docgen import _summary as docgen_summary
from .engine.steps import STEP_TYPES, Step
from .lipire import End
from .notation import format_step
from .tiles import Tile, ids_of

__all__ = ["TABLES", "update_tables"]

_BLOCK_RE: Final = re.compile(r"(<!-- steps: ([a-z_]+) -->\n)(.*?)(<!-- /steps -->)", re.S)


_LANGUAGE_NAMES: Final = {"en": "English", "ro": "Romanian"}
"""The column heads of the languages the package ships (another: its code)."""


def _tile(text: str) -> int:
    return ids_of(Tile.parse(text))[0]


_SAMPLE: Final[dict[str, object]] = {
    "seat": 2,
    "tile": _tile("7R"),
    "tiles": tuple(_tile(t) for t in ("5R", "6R", "7R")),
    "index": 3,
    "meld": 2,
    "end": End.HIGH,
    "joker": 105,
    "offer": 0,
}
"""A value for each field a step class may have: the example step of the tables."""


def _example(cls: type[Step]) -> Step:
    return cls(**{f.name: _SAMPLE[f.name] for f in attrs.fields(cls)})  # type: ignore[arg-type]


def _summary(cls: type[Step]) -> str:
    """The first paragraph of the class's docstring, on one line, as a table cell."""
    return docgen_summary(inspect.getdoc(cls)).replace("|", "\\|")


def _signature(cls: type[Step]) -> str:
    return f"`{cls.__name__}({', '.join(f.name for f in attrs.fields(cls))})`"


def turn_model_table() -> str:
    """Each step class and when it is made (docs/engine.md)."""
    rows = ["| Step | When |", "|---|---|"]
    rows += [f"| {_signature(cls)} | {_summary(cls)} |" for cls in STEP_TYPES]
    return "\n".join(rows) + "\n"


def words_table() -> str:
    """Each step class's example in the notation of every language (docs/notation.md)."""
    languages = i18n.languages()
    names = [_LANGUAGE_NAMES.get(lang, f"`{lang}`") for lang in languages]
    rows = ["| Step | " + " | ".join(names) + " |", "|---" * (len(names) + 1) + "|"]
    for cls in STEP_TYPES:
        step = _example(cls)
        written = [f"`{format_step(step, lang=lang)}`" for lang in languages]
        rows.append(f"| `{cls.__name__}` | " + " | ".join(written) + " |")
    return "\n".join(rows) + "\n"


def api_links() -> str:
    """A link to each step class's API entry (docs/api/engine/index.md)."""
    links = [f"[`{c.__name__}`][remi_rules.engine.steps.{c.__name__}]" for c in STEP_TYPES]
    return ",\n".join(links) + ",\n"


TABLES: Final[dict[str, Callable[[], str]]] = {
    "turn_model": turn_model_table,
    "words": words_table,
    "api_links": api_links,
}
"""The tables by the name their marker line gives."""


def update_tables(path: Path, *, write: bool) -> bool:
    """Put the current tables between the markers of ``path``; True when a table was
    stale (written only with ``write``).  An unknown table name is a ValueError."""
    text = path.read_text(encoding="utf-8")

    def fill(match: re.Match[str]) -> str:
        name = match.group(2)
        if name not in TABLES:
            raise ValueError(f"{path}: no step table named {name!r}")
        return match.group(1) + TABLES[name]() + match.group(4)

    new = _BLOCK_RE.sub(fill, text)
    if new != text and write:
        path.write_text(new, encoding="utf-8")
    return new != text
