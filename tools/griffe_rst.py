"""A Griffe extension that lets mkdocstrings render the project's reST-flavoured docstrings.

The docstrings of ``remi_rules`` are written for ``help()`` and for doctest, in the
reStructuredText habits of the standard library: ``code``, Sphinx roles such as
:class:`~remi_rules.Ruleset`, ``::`` literal blocks, definition lists, and bare
``>>>`` examples.  Markdown reads a bare ``>>>`` line as a nested block quote and a
role as stray text, so this extension rewrites each docstring *when the site is
built* (the source files are never changed):

* ``>>>`` examples become fenced ``pycon`` blocks;
* a paragraph ending in ``::`` and the indented block after it become a fenced
  ``text`` block (``text::`` → ``text:``, ``text ::`` → ``text``);
* a reST definition-list item (a line followed directly by a more indented one)
  becomes a bold term and its dedented definition;
* a list that follows a paragraph line gets the blank line Markdown needs;
* a reST simple table (columns under ``===  ===`` borders, a row whose first cell is
  empty continuing the one above) becomes a Markdown table, its header row the one
  above the second border if the table has three;
* the ``*`` of a rule-ID wildcard (``SCORE-*``) is escaped, so it is not emphasis;
* a role (``:class:``, ``:func:``, ``:meth:``, ``:attr:``, ``:data:``, ``:mod:``,
  ``:exc:``, ``:obj:``) becomes an *optional* cross-reference: resolved in the
  object's scope as Python would (``Game`` inside ``remi_rules.engine`` is
  ``remi_rules.engine.game.Game``), through re-exports to the object's own page; a
  target that is not rendered anywhere is shown as code and never fails the strict
  build.

It is loaded by ``mkdocs.yml`` (``plugins: mkdocstrings: handlers: python: options:
extensions``).  :func:`convert` is the pure text part, tested in tests/test_docs.py.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import griffe

__all__ = ["RstDocstrings", "convert"]

ROLE_RE = re.compile(r":(?:py:)?(class|func|meth|attr|data|mod|exc|obj):`([^`]+)`")
"""A Sphinx role: its kind and its target (``~a.b.C``, ``title <a.b.C>``)."""

_CODE_RE = re.compile(r"(`+).+?\1")
_WILDCARD_RE = re.compile(r"(?<=[A-Z]-)\*")

_BORDER_RE = re.compile(r"^ *=+(?: +=+)+ *$")
_LIST_RE = re.compile(r"^\s*(?:[*+-]|\d+[.)])\s+\S")
_FENCE_RE = re.compile(r"^\s*(```|~~~)")

Resolver = Callable[[str], str]
"""Turns a role's target into the identifier of the object it names."""


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _role(match: re.Match[str], resolve: Resolver) -> str:
    target = " ".join(match[2].split())  # a role may be wrapped over two lines
    explicit = re.fullmatch(r"(.*?)\s*<([^<>]+)>", target)
    if explicit:
        title, target = explicit[1], explicit[2].strip()
    else:
        short = target.startswith("~")
        target = target.lstrip("~")
        title = target.rsplit(".", 1)[-1] if short else target
    identifier = resolve(target.lstrip("."))
    return f'<autoref identifier="{identifier}" optional>`{title}`</autoref>'


def _roles(text: str, resolve: Resolver) -> str:
    return ROLE_RE.sub(lambda m: _role(m, resolve), text)


def _text(line: str) -> str:
    """Escape the ``*`` of rule-ID wildcards (``SCORE-*``) outside code spans, which
    Markdown would otherwise read as emphasis."""
    out, end = [], 0
    for code in _CODE_RE.finditer(line):
        out += [_WILDCARD_RE.sub(r"\\*", line[end : code.start()]), code[0]]
        end = code.end()
    out.append(_WILDCARD_RE.sub(r"\\*", line[end:]))
    return "".join(out)


def _open_code(line: str, run: str | None) -> str | None:
    """The backtick run of an inline code span still open after ``line`` (a span may
    be wrapped over lines), given the one open before it."""
    rest = line
    if run is not None:
        close = re.search(rf"(?<!`){run}(?!`)", rest)
        if close is None:
            return run
        rest = rest[close.end() :]
    rest = _CODE_RE.sub("", rest)
    opening = re.search(r"`+", rest)
    return opening[0] if opening else None


def _table(rows: list[str], border: str) -> list[list[str]]:
    """The cells of a reST simple table's ``rows``, cut at the columns of ``border``; a
    row whose first cell is empty continues the row above."""
    starts = [m.start() for m in re.finditer(r"=+", border)]
    cells: list[list[str]] = []
    for row in rows:
        if not row.strip():
            continue
        bounds = [*starts[1:], len(row)]
        cut = [row[a:b].strip() for a, b in zip(starts, bounds, strict=True)]
        if cells and not cut[0]:
            cells[-1] = [f"{old} {new}".strip() for old, new in zip(cells[-1], cut, strict=True)]
        else:
            cells.append(cut)
    return cells


def _tables(lines: list[str]) -> list[str]:
    """The reST simple tables of ``lines`` rewritten as Markdown tables.  It runs before
    the roles are rewritten, while the columns still line up with the borders."""
    out: list[str] = []
    i, n = 0, len(lines)
    while i < n:
        line = lines[i]
        if not _BORDER_RE.match(line):
            out.append(line)
            i += 1
            continue
        segments: list[list[str]] = [[]]
        j = i + 1
        while j < n and not (lines[j].rstrip() == line.rstrip() and len(segments) == 3):
            if lines[j].rstrip() == line.rstrip():
                if j + 1 == n or not lines[j + 1].strip():
                    break  # the closing border
                segments.append([])
            else:
                segments[-1].append(lines[j])
            j += 1
        if j >= n or len(segments) > 2 or not any(s.strip() for s in segments[-1]):
            out.append(line)  # not a table after all
            i += 1
            continue
        pad = " " * _indent(line)
        body = _table(segments[-1], line)
        head = _table(segments[0], line) if len(segments) == 2 else [[""] * len(body[0])]
        for k, row in enumerate([*head, *body]):
            out.append(pad + "| " + " | ".join(c.replace("|", "\\|") for c in row) + " |")
            if k == len(head) - 1:
                out.append(pad + "|" + " --- |" * len(row))
        i = j + 1
    return out


def _blocks(lines: list[str]) -> Iterator[str]:
    """The docstring's lines, rewritten (see the module docstring)."""
    i, n = 0, len(lines)
    in_list = False
    defined = False  # the previous lines were a definition (items may follow directly)
    code: str | None = None  # the backticks of an inline code span wrapped over lines
    while i < n:
        line = lines[i]
        stripped = line.strip()
        after_definition, defined = defined, False
        # The continuation of a wrapped code span is text, whatever it starts with.
        if code is not None:
            code = _open_code(line, code)
            yield line
            i += 1
            continue
        # An existing fenced block passes through untouched.
        if _FENCE_RE.match(line):
            fence = _FENCE_RE.match(line)[1]  # type: ignore[index]
            yield line
            i += 1
            while i < n:
                yield lines[i]
                i += 1
                if lines[i - 1].strip().startswith(fence):
                    break
            continue
        # A doctest block: from a ">>>" line to the next blank line.
        if stripped.startswith(">>>"):
            pad = " " * _indent(line)
            yield f"{pad}```pycon"
            while i < n and lines[i].strip():
                yield lines[i]
                i += 1
            yield f"{pad}```"
            in_list = False
            continue
        # A literal block announced by "::".
        if stripped.endswith("::"):
            base = _indent(line)
            j = i + 1
            while j < n and not lines[j].strip():
                j += 1
            if j < n and _indent(lines[j]) > base:
                head = line.rstrip()[:-2].rstrip()
                if head.strip():
                    yield head if line.rstrip()[-3] == " " else head + ":"
                    yield ""
                body: list[str] = []
                while j < n and (not lines[j].strip() or _indent(lines[j]) > base):
                    body.append(lines[j])
                    j += 1
                while body and not body[-1].strip():
                    body.pop()
                cut = min(_indent(b) for b in body if b.strip())
                pad = " " * base
                yield f"{pad}```text"
                yield from (f"{pad}{b[cut:]}" if b.strip() else "" for b in body)
                yield f"{pad}```"
                yield ""
                i = j
                in_list = False
                continue
        is_item = bool(_LIST_RE.match(line))
        previous = lines[i - 1] if i else ""
        # A definition-list item: a term line, then (no blank line) a deeper indent.
        if (
            stripped
            and not is_item
            and (after_definition or not previous.strip())
            and i + 1 < n
            and lines[i + 1].strip()
            and _indent(lines[i + 1]) > _indent(line)
            and not stripped.startswith(">>>")
        ):
            base = _indent(line)
            yield f"{' ' * base}**{_text(stripped)}**"
            yield ""
            j = i + 1
            body = []
            while j < n and (not lines[j].strip() or _indent(lines[j]) > base):
                body.append(lines[j])
                j += 1
            while body and not body[-1].strip():
                body.pop()
            cut = min(_indent(b) for b in body if b.strip()) - base
            yield from _blocks([b[cut:] if b.strip() else "" for b in body])
            yield ""
            i = j
            in_list = False
            defined = True
            continue
        # Markdown needs a blank line between a paragraph and a list.
        if is_item and not in_list and previous.strip():
            yield ""
        if is_item:
            in_list = True
        elif not stripped:
            following = lines[i + 1] if i + 1 < n else ""
            if following.strip() and not _LIST_RE.match(following) and _indent(following) == 0:
                in_list = False
        code = _open_code(line, None)
        yield _text(line)
        i += 1


def convert(text: str, resolve: Resolver = lambda target: target) -> str:
    """The docstring ``text`` rewritten as Markdown for mkdocstrings.

    ``resolve`` maps a role's target to the identifier to link to (by default the
    target itself).  Trailing blank lines are dropped, so converting twice changes
    nothing.

    >>> print(convert("Call :func:`~remi_rules.variants.get`::\\n\\n    get('x')\\n"))
    Call <autoref identifier="remi_rules.variants.get" optional>`get`</autoref>:
    <BLANKLINE>
    ```text
    get('x')
    ```
    """
    lines = _roles("\n".join(_tables(text.splitlines())), resolve).splitlines()
    return "\n".join(_blocks(lines)).rstrip("\n")


def _canonical(collection: griffe.ModulesCollection, path: str) -> str | None:
    """The path of the object that ``path`` names, through aliases (re-exports)."""
    try:
        obj = collection[path]
    except Exception:  # a missing member, an alias that does not resolve, ...
        return None
    try:
        return str(obj.final_target.path) if obj.is_alias else str(obj.path)
    except Exception:
        return None


def _scoped(obj: griffe.Object, collection: griffe.ModulesCollection) -> Resolver:
    def resolve(target: str) -> str:
        found = _canonical(collection, target)
        if found is not None:
            return found
        first, _, rest = target.partition(".")
        scope: griffe.Object | None = obj
        while scope is not None:
            try:
                base = scope.resolve(first)
            except Exception:
                scope = scope.parent
                continue
            found = _canonical(collection, f"{base}.{rest}" if rest else base)
            if found is not None:
                return found
            scope = scope.parent
        return target

    return resolve


def _objects(obj: griffe.Object) -> Iterator[griffe.Object]:
    yield obj
    for member in obj.members.values():
        if not member.is_alias:
            yield from _objects(member)  # type: ignore[arg-type]


class RstDocstrings(griffe.Extension):
    """Rewrite every docstring of a loaded package with :func:`convert`."""

    def __init__(self) -> None:
        super().__init__()
        self._done: set[int] = set()

    def _convert_package(self, pkg: griffe.Module, loader: griffe.GriffeLoader) -> None:
        for obj in _objects(pkg):
            docstring = obj.docstring
            if docstring is None or id(docstring) in self._done:
                continue
            docstring.value = convert(docstring.value, _scoped(obj, loader.modules_collection))
            self._done.add(id(docstring))

    def on_package(self, *, pkg: griffe.Module, loader: griffe.GriffeLoader, **kwargs: Any) -> None:
        """Griffe 2: the package is loaded, aliases included."""
        self._convert_package(pkg, loader)

    def on_package_loaded(
        self, *, pkg: griffe.Module, loader: griffe.GriffeLoader, **kwargs: Any
    ) -> None:
        """Griffe 1 names the same event this way."""
        self._convert_package(pkg, loader)
