"""The languages of remi_rules: one gettext catalogue per language.

Every sentence the library and its command line write lives in a catalogue,
``remi_rules/locale/<lang>/LC_MESSAGES/remi_rules.po``, compiled beside it to
``remi_rules.mo`` (what this module reads, with the standard library's
:mod:`gettext` only).  The languages are the catalogues present
(:func:`languages`); adding one is adding one ``.po`` file and its compiled
``.mo`` (``tools/catalogues.py --compile``), no code.

An entry's ``msgctxt`` is its key and its ``msgid`` the English template:

===================  ===================================================================
``msgctxt``          the entry
===================  ===================================================================
``<code>``           the message of an error code (:meth:`remi_rules.RemiError.message`)
``why:<sub>``        a sub-code held by a detail (also ``reason:``, ``conflict:``,
                     ``shape:``, ``what:``, ``example:``): the sentence it stands for
``count:<noun>``     a number with its noun (``{n} point`` / ``{n} points``), a plural
                     entry: each catalogue picks the form by its own ``Plural-Forms``
``hint:<note>``      a sentence of a hint's explanation
``cli:<key>``        a sentence of the command line
``word:<key>``       a word of the step notation the command line writes
``part:<key>``       a piece the code joins to a message (the position of a bad token)
===================  ===================================================================

Placeholders name the details: ``{tile}`` writes one (shortened when long, see
:func:`~remi_rules.errors.safe_text`), ``{points:points}`` writes the number
``points`` with its noun through the ``count:points`` entry, so each language
agrees its own nouns (Romanian: *1 punct*, *2 puncte*, *20 de puncte*).  A detail
that holds an error is written as that error's message, in the same language.

The catalogues are read on first use, not on ``import remi_rules``.  The
environment variable ``REMI_RULES_LOCALE_PATH`` (folders separated by
:data:`os.pathsep`) adds folders of the same layout, searched before the
package's own: a language can be tried without touching the package.

>>> counted("points", 20, "ro"), counted("points", 101, "ro"), counted("tiles", 1, "en")
('20 de puncte', '101 puncte', '1 tile')
>>> text("cli:seat", "ro", {"n": 2})
'locul 2'
"""

from __future__ import annotations

import gettext
import os
import string
import threading
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Final

from ._safe_text import MAX_DETAIL_CHARS, MAX_REASON_CHARS, SENTENCE_KEYS, safe_repr, safe_text

__all__ = [
    "DOMAIN",
    "LOCALE_DIR",
    "LOCALE_PATH_ENV",
    "SOURCE_LANGUAGE",
    "SUBCODE_KEYS",
    "contexts",
    "counted",
    "has_text",
    "language",
    "languages",
    "locale_dirs",
    "reload",
    "template",
    "text",
]

DOMAIN: Final = "remi_rules"
"""The gettext domain: the catalogues' file name."""
LOCALE_DIR: Final = Path(__file__).with_name("locale")
"""The package's catalogues: ``LOCALE_DIR/<lang>/LC_MESSAGES/remi_rules.mo``."""
LOCALE_PATH_ENV: Final = "REMI_RULES_LOCALE_PATH"
"""The environment variable naming more catalogue folders (read on first use and
by :func:`reload`)."""
SOURCE_LANGUAGE: Final = "en"
"""The language of the ``msgid`` templates, whose catalogue lists every key."""
SUBCODE_KEYS: Final = ("why", "reason", "conflict", "shape", "what", "example")
"""Details that hold a sub-code: ``{why}`` with ``why="dealer"`` writes the entry
``why:dealer`` (filled from the same details), or the value itself when there is
no such entry."""

_MAX_DEPTH: Final = 3


class _Catalogue(gettext.GNUTranslations):
    """A compiled catalogue that can also list its keys."""

    def keys(self) -> dict[str, tuple[str, str | None]]:
        """``msgctxt`` → (``msgid``, this catalogue's second plural form or None)."""
        catalog: Mapping[object, str] = getattr(self, "_catalog", {})
        out: dict[str, tuple[str, str | None]] = {}
        for key in catalog:
            plural = isinstance(key, tuple)
            name = key[0] if isinstance(key, tuple) else key
            if not isinstance(name, str) or "\x04" not in name:
                continue
            context, msgid = name.split("\x04", 1)
            out[context] = (msgid, catalog.get((name, 1), msgid) if plural else None)
        return out


class _State:
    """The catalogues found, each opened on first use."""

    def __init__(self) -> None:
        self.files: dict[str, Path] = {}
        for folder in reversed(locale_dirs()):  # the first folder wins
            try:
                entries = sorted(folder.iterdir())
            except OSError:
                continue
            for entry in entries:
                mo = entry / "LC_MESSAGES" / f"{DOMAIN}.mo"
                if mo.is_file():
                    self.files[entry.name] = mo
        self.languages = tuple(sorted(self.files))
        self.opened: dict[str, _Catalogue] = {}
        self.lock = threading.Lock()
        self._keys: dict[str, dict[str, tuple[str, str | None]]] = {}

    def catalogue(self, lang: str) -> _Catalogue:
        found = self.opened.get(lang)
        if found is not None:
            return found
        with self.lock:
            found = self.opened.get(lang)
            if found is None:
                with self.files[lang].open("rb") as fp:
                    found = _Catalogue(fp)
                if lang != SOURCE_LANGUAGE and SOURCE_LANGUAGE in self.files:
                    found.add_fallback(self.catalogue_unlocked(SOURCE_LANGUAGE))
                self.opened[lang] = found
        return found

    def catalogue_unlocked(self, lang: str) -> _Catalogue:
        found = self.opened.get(lang)
        if found is None:
            with self.files[lang].open("rb") as fp:
                found = _Catalogue(fp)
            self.opened[lang] = found
        return found

    def keys(self, lang: str) -> dict[str, tuple[str, str | None]]:
        found = self._keys.get(lang)
        if found is None:
            found = self.catalogue(lang).keys() if lang in self.files else {}
            self._keys[lang] = found
        return found


_state: _State | None = None
_state_lock = threading.Lock()


def _get() -> _State:
    global _state
    state = _state
    if state is None:
        with _state_lock:
            if _state is None:
                _state = _State()
            state = _state
    return state


def locale_dirs() -> tuple[Path, ...]:
    """The folders searched for catalogues, first wins: those of
    ``REMI_RULES_LOCALE_PATH``, then the package's :data:`LOCALE_DIR`."""
    extra = os.environ.get(LOCALE_PATH_ENV, "")
    return (*(Path(p) for p in extra.split(os.pathsep) if p), LOCALE_DIR)


def reload() -> None:
    """Forget the catalogues read so far; the next use scans :func:`locale_dirs` again
    (after ``REMI_RULES_LOCALE_PATH`` changed, or a catalogue was recompiled)."""
    global _state
    with _state_lock:
        _state = None
    _parse.cache_clear()


def languages() -> tuple[str, ...]:
    """The language codes with a compiled catalogue, sorted: ``('en', 'ro')``."""
    return _get().languages


def language(lang: object) -> str:
    """``lang`` if it names a catalogue present, else :class:`ValueError` (a
    programming error, like an unknown keyword)."""
    if type(lang) is not str or lang not in _get().files:
        raise ValueError(f"unknown language {safe_repr(lang)}; use one of {languages()}")
    return lang


def contexts() -> frozenset[str]:
    """Every key of the source catalogue (:data:`SOURCE_LANGUAGE`)."""
    return frozenset(_get().keys(SOURCE_LANGUAGE))


def has_text(context: str, lang: str) -> bool:
    """Whether ``lang``'s own catalogue (not its English fallback) has ``context``."""
    state = _get()
    return lang in state.files and context in state.keys(lang)


def template(context: str, lang: str, n: int | None = None) -> str:
    """The raw template of ``context`` in ``lang`` (the form for ``n`` of a plural
    entry).  A key the source catalogue does not have raises :class:`KeyError`; one
    that ``lang`` lacks falls back to English."""
    state = _get()
    lang = language(lang)
    entry = state.keys(SOURCE_LANGUAGE).get(context)
    if entry is None:
        raise KeyError(context)
    msgid, plural = entry
    catalogue = state.catalogue(lang)
    if plural is None:
        return catalogue.pgettext(context, msgid)
    return catalogue.npgettext(context, msgid, plural, 2 if n is None else abs(n))


def text(
    context: str,
    lang: str = "en",
    details: Mapping[str, object] | None = None,
    *,
    bounded: bool = True,
) -> str:
    """The sentence ``context`` in ``lang``, its placeholders filled from ``details``
    (a missing one is written ``?``).  Each value is written by
    :func:`~remi_rules.errors.safe_text` (shortened when long), or with ``str`` when
    not ``bounded`` (the command line's own sentences, whose details are sentences
    already written).  Raises :class:`KeyError` for a key no catalogue has and
    :class:`ValueError` for an unknown language."""
    return _render(template(context, lang), details or {}, lang, 0 if bounded else -_MAX_DEPTH)


def counted(noun: str, n: object, lang: str = "en") -> str:
    """``n`` with ``noun`` in ``lang``, by the catalogue's plural rule (the entry
    ``count:<noun>``); a value that is not a whole number takes the form of 2."""
    number = _number(n)
    form = template(f"count:{noun}", lang, 2 if number is None else number)
    return _render(form, {"n": n}, lang, _MAX_DEPTH)


def _number(value: object) -> int | None:
    if isinstance(value, int) and type(value) is not bool:
        return int(value)
    if type(value) is str and value.lstrip("-").isdigit() and len(value) < 100:
        return int(value)
    return None


@lru_cache(maxsize=1024)
def _parse(template: str) -> tuple[tuple[str, str | None, str], ...]:
    try:
        return tuple(
            (literal, field, spec or "")
            for literal, field, spec, _ in string.Formatter().parse(template)
        )
    except ValueError:  # a broken template (tools/catalogues.py --check refuses it)
        return ((template, None, ""),)


def _render(template: str, details: Mapping[str, object], lang: str, depth: int) -> str:
    out: list[str] = []
    for literal, field, spec in _parse(template):
        out.append(literal)
        if field is not None:
            out.append(_field(field, spec, details, lang, depth))
    return "".join(out)


def _field(name: str, spec: str, details: Mapping[str, object], lang: str, depth: int) -> str:
    try:
        value = details[name]
    except Exception:  # missing, or a mapping that fails
        return "?"
    if spec:
        try:
            return counted(spec, value, lang)
        except KeyError:
            pass
    elif isinstance(value, Exception) and callable(message := getattr(value, "message", None)):
        try:
            shown = message(lang)  # a nested RemiError, in the same language
            if isinstance(shown, str):
                return shown
        except Exception:
            pass
    elif depth != _MAX_DEPTH and depth != -1 and name in SUBCODE_KEYS and type(value) is str:
        context = f"{name}:{value}"
        if context in _get().keys(SOURCE_LANGUAGE):
            return _render(template(context, lang), details, lang, depth + 1)
    if depth < 0:  # not bounded
        return str(value)
    return safe_text(value, MAX_REASON_CHARS if name in SENTENCE_KEYS else MAX_DETAIL_CHARS)
