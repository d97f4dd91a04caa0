"""The saved documents: a header (``kind``, ``format_version``, ``fingerprint``,
``rules``) then the fields of a body class, written and read by the converter
(:mod:`._convert`) and described by the schema walker (:mod:`._schema`).

========  ===============================================
``kind``  body
========  ===============================================
game      :class:`SavedGame` (names, state, record)
record    :class:`~remi_rules.engine.GameRecord`
view      :class:`~remi_rules.engine.PlayerView` (its ``rules`` optional)
match     players, config and rounds (:mod:`.matches`)
========  ===============================================
"""

from __future__ import annotations

from typing import Any, Final

import attrs

from .._fields import items
from ..engine import GameRecord, GameState, PlayerView
from ..errors import InvalidRulesetError
from ..ruleset import Ruleset
from ._bounds import _S, _child, _fail, _HugeInt, _scan, _show, _wrong_type
from ._convert import const_hook, field_hook, keys_hook, saved_fields, structure, unstructure
from ._migrations import current_version, migrate
from ._size import MAX_DOCUMENT_BYTES
from .rulesets import ruleset_from_dict, ruleset_to_dict

__all__ = [
    "BODIES",
    "FINGERPRINT",
    "HEADER",
    "SavedGame",
    "body_keys",
    "check_keys",
    "dump_document",
    "read_fingerprint",
    "read_header",
    "read_kind",
    "read_rules",
]


@attrs.frozen
class SavedGame:
    """A saved round: the players' names, the state of the round and its record (the
    loader checks that the record replays to exactly this state)."""

    names: tuple[str, ...] = attrs.field(metadata=items(most=4, least=2))
    state: GameState
    record: GameRecord


BODIES: Final[dict[str, type]] = {"game": SavedGame, "record": GameRecord, "view": PlayerView}
"""The body class of each document kind (a match is read by :mod:`.matches`)."""

HEADER: Final = ("kind", "format_version", "fingerprint", "rules")
"""The keys every document begins with."""

FINGERPRINT: Final = {"pattern": "[0-9a-f]{16}"}
"""The metadata of a fingerprint (:meth:`Ruleset.fingerprint
<remi_rules.Ruleset.fingerprint>`)."""
_FINGERPRINT_HOOK: Final = field_hook(str, FINGERPRINT)


def body_keys(kind: str) -> tuple[str, ...]:
    """The keys of a document of ``kind``: the header's, then its body's fields."""
    return HEADER + tuple(f.name for f in saved_fields(BODIES[kind]))


def dump_document(kind: str, rules: Ruleset, body: object, *, with_rules: bool = True) -> Any:
    """The document of ``kind`` holding ``body`` (its class's fields), under ``rules``."""
    head: dict[str, Any] = {
        "kind": kind,
        "format_version": current_version(kind),
        "fingerprint": rules.fingerprint(),
    }
    if with_rules:
        head["rules"] = ruleset_to_dict(rules)
    data: dict[str, Any] = unstructure(body)
    return {**head, **data}


def read_rules(value: object, path: str) -> Ruleset:
    """The rules of a document: :func:`ruleset_from_dict`, its refusals wrapped as
    ``state_bad_ruleset`` at the knob's path."""
    if not isinstance(value, dict):
        _wrong_type(path, "object", value)
    try:
        return ruleset_from_dict(value)
    except InvalidRulesetError as err:
        knob = err.details.get("knob")
        where = _child(path, str(knob)) if knob else path
        _fail(_S.BAD_RULESET, where, why="ruleset", cause=err, ruleset_code=err.code.value)
    except Exception as err:  # anything else ruleset_from_dict may meet in odd data
        _fail(_S.BAD_RULESET, path, why="unexpected", error=type(err).__name__)


def read_fingerprint(value: object) -> str:
    """A document's fingerprint, of its shape (16 hexadecimal digits)."""
    text: str = structure(value, str, "fingerprint", hook=_FINGERPRINT_HOOK)
    return text


def read_kind(value: object, kind: str) -> None:
    """A document's ``kind``, which must be ``kind``."""
    structure(value, str, "kind", hook=const_hook(kind))


def check_keys(data: dict[str, Any], keys: tuple[str, ...], path: str = "") -> None:
    """Exactly ``keys``: an odd key (not a string, then unknown), then a missing one."""
    structure(data, dict, path, hook=keys_hook(keys))


def read_header(data: object, kind: str) -> tuple[dict[str, Any], Ruleset]:
    """The checks every saved game or record starts with, in this order: the format
    version (so that a newer file says so, whatever it holds), the bounds (:func:`_scan`:
    depth, integers, strings, size), an object, the version's type (an older document
    is migrated: :mod:`._migrations`), the kind, the keys, the rules and their
    fingerprint.  The document (migrated) and its rules."""
    current = current_version(kind)
    if isinstance(data, dict) and "format_version" in data:
        version = data["format_version"]
        if isinstance(version, _HugeInt) or (type(version) is int and not 1 <= version <= current):
            _fail(_S.FORMAT_VERSION, "format_version", got=_show(version), expected=current)
    _scan(data, MAX_DOCUMENT_BYTES)
    if not isinstance(data, dict):
        _wrong_type("$", "object", data)
    if "format_version" not in data:
        _fail(_S.MISSING_KEY, "format_version", key="format_version")
    version = data["format_version"]
    if type(version) is not int:
        _wrong_type("format_version", "integer", version)
    if version != current:  # an older document: brought to this version first
        data = migrate(data, kind)
    if "kind" not in data:
        _fail(_S.MISSING_KEY, "kind", key="kind")
    read_kind(data["kind"], kind)
    check_keys(data, body_keys(kind))
    rules = read_rules(data["rules"], "rules")
    fingerprint = read_fingerprint(data["fingerprint"])
    if fingerprint != rules.fingerprint():
        _fail(_S.FINGERPRINT, "fingerprint", got=fingerprint, expected=rules.fingerprint())
    return data, rules
