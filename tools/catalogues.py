"""The message catalogues' development tool (Babel): compile, check, update.

    python tools/catalogues.py --compile [DIR ...]   write each remi_rules.mo from its .po
    python tools/catalogues.py --check [DIR ...]     fail when a .mo is stale or an entry is bad
    python tools/catalogues.py --update [DIR ...]    add the verb of a new step class to
                                                     the English catalogue, append the keys
                                                     the others lack (empty and fuzzy) and
                                                     name the entries whose English changed

``DIR`` is a locale folder (``<DIR>/<lang>/LC_MESSAGES/remi_rules.po``); the default
is the package's, ``src/remi_rules/locale``.  The English catalogue of the package
is the reference: it lists every key, and its ``msgid`` are the templates of every
catalogue.  ``--check`` (run by ``.ci/run``) fails when

* a ``.mo`` is missing or differs from what its ``.po`` compiles to;
* a catalogue lacks a key of the reference, has one it does not have, has an entry
  that is untranslated or fuzzy, or the same key twice;
* a translation's placeholders differ from its ``msgid``'s (for a plural entry: the
  last form has them all, and no form has another), or a ``{name:noun}`` names a
  noun without a ``count:noun`` entry;
* a plural entry has not the catalogue's ``nplurals`` forms, or the catalogue's
  ``Plural-Forms`` header is missing;
* a package catalogue's message contains a word of the other language's
  catalogue where its own has a different translation (a word-level check: a
  Romanian message with an English ``why`` left in, say);
* an error code of :mod:`remi_rules.errors` has no entry, or a step class's verb
  (its ``word``) no ``word:`` entry.

The English entry of a step's verb is written by ``--update`` from the class
(``word`` with spaces for underscores): adding a step type, a maintainer only
translates its verb in the other catalogues.

Only the English catalogue of the package is the reference; a folder given on the
command line (a test catalogue) is checked for stale ``.mo``, placeholders and
plural forms, and may be partial (what it lacks falls back to English).
"""

from __future__ import annotations

import argparse
import io
import string
import sys
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parent.parent
PACKAGE_LOCALE = ROOT / "src" / "remi_rules" / "locale"
DOMAIN = "remi_rules"
REFERENCE = "en"


def po_files(folder: Path) -> list[Path]:
    """The catalogues of a locale folder, by language."""
    return sorted(folder.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))


def read(path: Path) -> Catalog:
    with path.open("rb") as fp:
        return read_po(fp, locale=path.parent.parent.name, domain=DOMAIN, abort_invalid=True)


def compiled(catalog: Catalog) -> bytes:
    """What ``catalog`` compiles to (fuzzy entries left out, as msgfmt does)."""
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


def fields(template: str) -> set[tuple[str, str]]:
    """The ``(name, noun)`` placeholders of a template; raises ValueError if broken.
    Each language picks its own nouns, so only the names must match."""
    return {
        (field, spec or "")
        for _, field, spec, _ in string.Formatter().parse(template)
        if field is not None
    }


def _forms(message: Message) -> tuple[str, ...]:
    value = message.string
    return tuple(value) if isinstance(value, list | tuple) else (value,)


def _ids(message: Message) -> tuple[str, ...]:
    value = message.id
    return tuple(value) if isinstance(value, list | tuple) else (value,)


def entry_problems(message: Message, nplurals: int, nouns: set[str]) -> Iterator[str]:
    """What is wrong with one entry of a catalogue whose plural rule has ``nplurals``."""
    ids, forms = _ids(message), _forms(message)
    if not message.context:
        yield f"{message.id!r}: no msgctxt"
        return
    where = message.context
    if message.fuzzy:
        yield f"{where}: fuzzy"
    if not all(forms):
        yield f"{where}: untranslated"
        return
    try:
        specs = set().union(*(fields(i) for i in ids), *(fields(f) for f in forms))
    except ValueError as err:
        yield f"{where}: broken template ({err})"
        return
    want = {name for i in ids for name, _ in fields(i)}
    got = [{name for name, _ in fields(form)} for form in forms]
    if len(ids) > 1:
        if len(forms) != nplurals:
            yield f"{where}: {len(forms)} plural forms, the catalogue has {nplurals}"
        if got[-1] != want or any(not g <= want for g in got):
            yield f"{where}: placeholders {sorted(want)} in the msgid, {got} in the forms"
    elif got[0] != want:
        yield f"{where}: placeholders {sorted(want)} in the msgid, {sorted(got[0])} here"
    for _, noun in specs:
        if noun and noun not in nouns:
            yield f"{where}: no count:{noun} entry for {{…:{noun}}}"


def catalogue_problems(path: Path, reference: Catalog | None) -> Iterator[str]:
    """What is wrong with the catalogue at ``path`` (compared with ``reference``)."""
    catalog = read(path)
    mo = path.with_suffix(".mo")
    if not mo.is_file():
        yield f"{mo}: missing (python tools/catalogues.py --compile)"
    elif mo.read_bytes() != compiled(catalog):
        yield f"{mo}: stale, it is not what {path.name} compiles to (--compile)"
    header = path.read_text(encoding="utf-8").split("\n\n", 1)[0]
    for name in ("Plural-Forms", "POT-Creation-Date"):  # without a date Babel puts now's
        if f'"{name}:' not in header:
            yield f"{path}: no {name} header"
    seen: dict[str, int] = {}
    entries = [m for m in catalog if m.id]
    for message in entries:
        if message.context:
            seen[message.context] = seen.get(message.context, 0) + 1
    for context, count in seen.items():
        if count > 1:
            yield f"{path}: {context} appears {count} times"
    nouns = {
        c.removeprefix("count:")
        for c in (seen if reference is None else _contexts(reference))
        if c.startswith("count:")
    }
    for message in entries:
        for problem in entry_problems(message, catalog.num_plurals, nouns):
            yield f"{path}: {problem}"
    if reference is None:
        return
    ref = {m.context: m for m in reference if m.id}
    own = {m.context: m for m in entries}
    for context in sorted(set(ref) - set(own)):
        yield f"{path}: no entry for {context}"
    for context in sorted(set(own) - set(ref)):
        yield f"{path}: {context} is not in the {REFERENCE} catalogue"
    for context in sorted(set(ref) & set(own)):
        if _ids(ref[context]) != _ids(own[context]):
            yield f"{path}: {context} has another msgid than the {REFERENCE} catalogue (--update)"


def _contexts(catalog: Catalog) -> set[str]:
    return {m.context for m in catalog if m.id and m.context}


def _words(text: str) -> set[str]:
    out = set()
    for literal, _, _, _ in string.Formatter().parse(text):
        out.update(w.strip(".,;:()'„”!?").lower() for w in literal.split())
    return {w for w in out if len(w) > 4 and w.isalpha()}


def mixed_language_problems(catalogs: dict[str, Catalog]) -> Iterator[str]:
    """Romanian and English share few words; a word of a message that another
    catalogue uses and no other message of its own catalogue does is a leak (an
    English ``why`` left in a Romanian message, say)."""
    counts: dict[str, Counter[str]] = {}
    for lang, catalog in catalogs.items():
        counts[lang] = Counter(
            w for m in catalog if m.id for w in set().union(*(_words(f) for f in _forms(m)))
        )
    by_context = {
        lang: {m.context: set().union(*(_words(f) for f in _forms(m))) for m in c if m.id}
        for lang, c in catalogs.items()
    }
    for lang, catalog in catalogs.items():
        others = set().union(*(set(c) for k, c in counts.items() if k != lang))
        for message in catalog:
            if not message.id or not message.context:
                continue
            words = set().union(*(_words(f) for f in _forms(message)))
            # a word the other catalogue's same entry has too is a name (a knob, a
            # command, a file format), not a leak
            same = set().union(
                *(v.get(message.context, set()) for k, v in by_context.items() if k != lang)
            )
            leaked = {w for w in (words & others) - same if counts[lang][w] == 1}
            if leaked:
                yield f"{lang}: {message.context} has words of another language: {sorted(leaked)}"


def code_problems(reference: Catalog) -> Iterator[str]:
    """Every error code of the library needs an entry."""
    sys.path.insert(0, str(ROOT / "src"))
    from remi_rules.errors import all_codes

    have = _contexts(reference)
    for code in all_codes():
        if code.value not in have:
            yield f"{REFERENCE}: no entry for the error code {code.value}"


def _step_words() -> list[str]:
    """The verb of every step class (:data:`remi_rules.engine.STEP_TYPES`)."""
    sys.path.insert(0, str(ROOT / "src"))
    from remi_rules.engine import STEP_TYPES

    return list(dict.fromkeys(cls.word for cls in STEP_TYPES))


def step_word_problems(reference: Catalog) -> Iterator[str]:
    """Every step class's verb needs a ``word:`` entry (``--update`` writes it)."""
    have = _contexts(reference)
    for word in _step_words():
        if f"word:{word}" not in have:
            yield f"{REFERENCE}: no entry for the verb of a step, word:{word} (--update)"


def _po_string(text: str) -> str:
    """``text`` as a .po string literal."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


def _entry(message: Message, *, blank: bool) -> str:
    """``message`` as .po text after a blank line; with ``blank``, untranslated and
    fuzzy."""
    lines = ["", *(["#, fuzzy"] if blank else [])]
    lines.append(f"msgctxt {_po_string(message.context or '')}")
    ids, forms = _ids(message), _forms(message)
    lines.append(f"msgid {_po_string(ids[0])}")
    if len(ids) > 1:
        lines.append(f"msgid_plural {_po_string(ids[1])}")
        lines += [f"msgstr[{k}] {_po_string('' if blank else f)}" for k, f in enumerate(forms)]
    else:
        lines.append(f"msgstr {_po_string('' if blank else forms[0])}")
    return "\n".join(lines) + "\n"


def add_step_words(path: Path) -> None:
    """Append the English ``word:`` entry of each step verb the reference lacks (the
    file is appended to, never rewritten)."""
    have = _contexts(read(path))
    missing = [w for w in _step_words() if f"word:{w}" not in have]
    with path.open("a", encoding="utf-8") as fp:
        for word in missing:
            text = word.replace("_", " ")
            fp.write(_entry(Message(text, text, context=f"word:{word}"), blank=False))
    if missing:
        print(f"updated {path}: {', '.join(missing)}")


def check(folders: Iterable[Path]) -> list[str]:
    problems: list[str] = []
    reference_path = PACKAGE_LOCALE / REFERENCE / "LC_MESSAGES" / f"{DOMAIN}.po"
    reference = read(reference_path)
    for folder in folders:
        package = folder.resolve() == PACKAGE_LOCALE.resolve()
        catalogs: dict[str, Catalog] = {}
        for path in po_files(folder):
            problems += catalogue_problems(path, reference if package else None)
            catalogs[path.parent.parent.name] = read(path)
        if package:
            problems += mixed_language_problems(catalogs)
            problems += code_problems(reference)
            problems += step_word_problems(reference)
    return problems


def compile_all(folders: Iterable[Path]) -> None:
    for folder in folders:
        for path in po_files(folder):
            data = compiled(read(path))
            mo = path.with_suffix(".mo")
            if not mo.is_file() or mo.read_bytes() != data:
                mo.write_bytes(data)
                print(f"wrote {mo}")


def update(folders: Iterable[Path]) -> None:
    """Add the verbs of new step classes to the reference, append each key the other
    catalogues lack (untranslated, fuzzy), and name the entries whose English
    template changed (to translate again).  A catalogue is appended to, never
    rewritten, so its layout stays as its translator wrote it."""
    reference_path = PACKAGE_LOCALE / REFERENCE / "LC_MESSAGES" / f"{DOMAIN}.po"
    add_step_words(reference_path)
    ref = [m for m in read(reference_path) if m.id]
    for folder in folders:
        for path in po_files(folder):
            if path.resolve() == reference_path.resolve():
                continue
            own = {m.context: m for m in read(path) if m.id}
            added = [m for m in ref if m.context not in own]
            with path.open("a", encoding="utf-8") as fp:
                for message in added:
                    fp.write(_entry(message, blank=True))
            changed = [
                m.context for m in ref if m.context in own and _ids(own[m.context]) != _ids(m)
            ]
            if added:
                print(f"updated {path}: {len(added)} new entries to translate")
            for context in changed:
                print(f"{path}: {context}: the English template changed; translate it again")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--compile", action="store_true")
    mode.add_argument("--check", action="store_true")
    mode.add_argument("--update", action="store_true")
    parser.add_argument("folders", nargs="*", type=Path)
    args = parser.parse_args(argv)
    folders = args.folders or [PACKAGE_LOCALE]
    if args.compile:
        compile_all(folders)
        return 0
    if args.update:
        update(folders)
        return 0
    problems = check(folders)
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        print(f"{len(problems)} problem(s) in the catalogues", file=sys.stderr)
        return 1
    print("catalogues: up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
