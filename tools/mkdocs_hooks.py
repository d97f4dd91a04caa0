"""MkDocs hooks of the documentation site (``hooks:`` in mkdocs.yml).

The pages in docs/ are written to read well on GitHub too, whose Markdown lets a list
start right after a paragraph line and nests a list under an item indented by two
spaces.  Python-Markdown needs a blank line before a list and four spaces per level,
so without help docs/RULES.md (a verbatim copy of the rule specification) renders its
lists as run-on paragraphs.  :func:`gfm_lists` rewrites the page's Markdown, at build
time only, the way GitHub reads it:

* a bullet list, or an ordered list starting at 1, that follows a paragraph line
  gets a blank line before it (as in CommonMark, another number does not start a
  list inside a paragraph: ``in\\n2006. Then`` stays text);
* a list item indented under another item is re-indented to four spaces per level.

Fenced code blocks are left alone.

:func:`on_config` puts the package's version in the site name, so the header shows
``remi_rules 0.1.0``: the version is read from pyproject.toml (``[project] version``,
the one the package is built with, :func:`project_version`), never written twice.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

__all__ = ["gfm_lists", "on_config", "on_page_markdown", "project_version"]

PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"

_ITEM_RE = re.compile(r"^( *)(?:[*+-]|(\d+)[.)]) +\S")
_FENCE_RE = re.compile(r"^ *(```+|~~~+)")


def gfm_lists(markdown: str) -> str:
    """``markdown`` with its lists written the way Python-Markdown reads them.

    >>> print(gfm_lists("Options:\\n- one\\n  - one a\\n- two"))
    Options:
    <BLANKLINE>
    - one
        - one a
    - two
    """
    out: list[str] = []
    fence: str | None = None
    indents: list[int] = []  # the source indents of the open items, outermost first
    previous = ""
    for line in markdown.split("\n"):
        if fence is not None:
            out.append(line)
            if line.strip().startswith(fence):
                fence = None
            previous = line
            continue
        opening = _FENCE_RE.match(line)
        if opening:
            fence = opening[1]
            out.append(line)
            previous = line
            continue
        item = _ITEM_RE.match(line)
        indent = len(line) - len(line.lstrip(" "))
        if item and not indents:
            starts = item[2] is None or item[2] == "1"
            if indent >= 4 or (previous.strip() and not starts):
                item = None  # an indented code block, or a number inside a paragraph
            elif previous.strip():
                out.append("")  # GitHub starts a list here; Python-Markdown needs a blank
        if item:
            while indents and indents[-1] >= indent:
                indents.pop()
            out.append(" " * (4 * len(indents)) + line.lstrip(" "))
            indents.append(indent)
        else:
            if line.strip() and indent == 0 and not previous.strip():
                indents.clear()  # a paragraph after a blank line ends the list
            out.append(line)
        previous = line
    return "\n".join(out)


def on_page_markdown(markdown: str, **kwargs: Any) -> str:
    """MkDocs: rewrite each page's lists (:func:`gfm_lists`) before it is rendered."""
    return gfm_lists(markdown)


def project_version(pyproject: Path = PYPROJECT) -> str:
    """The ``[project] version`` of ``pyproject``: the package's version."""
    with pyproject.open("rb") as fp:
        version = tomllib.load(fp)["project"]["version"]
    if not isinstance(version, str):
        raise TypeError(f"{pyproject}: [project] version is not a string")
    return version


def on_config(config: Any, **kwargs: Any) -> Any:
    """MkDocs: show the version in the header, as part of the site name
    (``remi_rules`` → ``remi_rules 0.1.0``)."""
    version = project_version()
    if not config.site_name.endswith(f" {version}"):  # once, even if called again
        config.site_name = f"{config.site_name} {version}"
    return config
