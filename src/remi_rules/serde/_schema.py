"""The JSON Schemas of the saved formats (docs/schema/) and the command that writes or
checks them: ``python -m remi_rules.serde [--check] DIR``."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from typing import Any, Final

from ._forms import _GAME_DOC, _RECORD_DOC
from ._message_schema import MESSAGE_SCHEMAS, _document
from ._message_schema import SCHEMA_DIALECT as SCHEMA_DIALECT
from ._migrations import current_version
from ._spec import _Obj


def _document_schema(doc: _Obj, title: str, description: str) -> dict[str, Any]:
    defs: dict[str, Any] = {}
    top = doc.schema(defs)
    body = defs.pop(doc.name)
    assert top == {"$ref": f"#/$defs/{doc.name}"}
    return _document(
        title, description, {k: v for k, v in body.items() if k != "description"}, defs
    )


def game_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of :func:`dump_game`'s output
    (docs/schema/game.schema.json)."""
    return _document_schema(
        _GAME_DOC,
        "remi_rules saved game",
        "A round of Remi etalat as remi_rules.serde.dump_game writes it (format_version "
        f"{current_version('game')}). The schema gives the shape, types and ranges; the loader "
        "also checks that the 106 tiles are each in one place, that the phase is possible "
        "and that the record replays to exactly this state (docs/saving.md).",
    )


def record_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of :func:`dump_record`'s output
    (docs/schema/record.schema.json)."""
    return _document_schema(
        _RECORD_DOC,
        "remi_rules game record",
        "The record of a round as remi_rules.serde.dump_record writes it (format_version "
        f"{current_version('record')}): rules, deal, steps and chance outcomes. The loader also "
        "replays it (docs/saving.md).",
    )


SCHEMAS: Final = dict(
    sorted(
        {
            "game.schema.json": game_schema,
            "record.schema.json": record_schema,
            **MESSAGE_SCHEMAS,
        }.items()
    )
)
"""The schema files of docs/schema/ and the functions that write them."""


def render_schemas() -> dict[str, str]:
    """The text of every schema file, by file name."""
    return {
        name: json.dumps(make(), indent=2, ensure_ascii=False) + "\n"
        for name, make in SCHEMAS.items()
    }


def write_schemas(directory: str | os.PathLike[str]) -> list[str]:
    """Write the schema files into ``directory``; return the names of those that changed."""
    changed = []
    for name, text in render_schemas().items():
        path = os.path.join(os.fspath(directory), name)
        try:
            with open(path, encoding="utf-8") as fh:
                old = fh.read()
        except FileNotFoundError:
            old = None
        if old != text:
            os.makedirs(os.fspath(directory), exist_ok=True)
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(text)
            changed.append(name)
    return changed


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m remi_rules.serde [--check] DIR``: write (or check) the schema files."""
    args = list(sys.argv[1:] if argv is None else argv)
    if "-h" in args or "--help" in args:
        print("usage: python -m remi_rules.serde [--check] [DIR]")
        print("write the JSON Schema files into DIR (default docs/schema), or with --check")
        print("fail (exit 1) naming each file that is missing or differs")
        return 0
    check = "--check" in args
    args = [a for a in args if a != "--check"]
    directory = args[0] if args else "docs/schema"
    if check:
        stale = []
        for name, text in render_schemas().items():
            try:
                with open(os.path.join(directory, name), encoding="utf-8") as fh:
                    if fh.read() != text:
                        stale.append(name)
            except FileNotFoundError:
                stale.append(name)
        for name in stale:
            print(f"{os.path.join(directory, name)} is stale: run python -m remi_rules.serde")
        return 1 if stale else 0
    write_schemas(directory)
    return 0
