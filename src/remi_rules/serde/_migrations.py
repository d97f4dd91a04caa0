"""Format versions and their migrations (docs/saving.md, "Versions and migrations").

Each saved format (``kind``: ``game``, ``record``, ``match``, ``view``) has its
version, :data:`FORMAT_VERSIONS`.  A document of an older version is brought to the
current one before it is read, one version at a time, by a chain of steps; a newer
one is refused (``state_format_version``).  The usual step is a knob added to the
:class:`~remi_rules.Ruleset`: :data:`KNOBS_ADDED` gives the version that added it and
the value older documents get (the one that plays as they did).  Before such a step
rewrites the rules, it checks the document's fingerprint under the old knob set
(``state_fingerprint`` otherwise), so a document is never rewritten into one it was
not; then it adds the knob and writes the new fingerprint.

No knob has been added yet.  Version 2 (all formats) turned the doubles exchange into
an offer and an acceptance, gave the state and the view the open offers, and the view
what an undo may still do; the files under tests/data/ (version 1) are loaded by the
test suite for ever after.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from typing import Any, Final

import attrs

from ..errors import InvalidStateError, StateErrorCode

__all__ = ["FORMAT_VERSIONS", "KNOBS_ADDED", "KnobAdded", "current_version", "migrate"]

_S: Final = StateErrorCode


@attrs.frozen
class KnobAdded:
    """A knob added to the rules in format ``version``: older documents get
    ``default`` (a plain JSON value, as :func:`~remi_rules.serde.ruleset_to_dict`
    writes it)."""

    version: int
    knob: str
    default: Any


FORMAT_VERSIONS: Final[dict[str, int]] = {"game": 2, "record": 2, "match": 2, "view": 2}
"""The version each format is written in (``format_version`` of its documents)."""

KNOBS_ADDED: Final[list[KnobAdded]] = []
"""The knobs added since format 1, oldest first (none yet).  Adding a knob: append
``KnobAdded(v, name, default)`` and set every format's version to ``v``."""

Step = Callable[[dict[str, Any]], dict[str, Any]]


def current_version(kind: str) -> int:
    """The version :func:`~remi_rules.serde.dump_game` and the others write for
    ``kind``."""
    return FORMAT_VERSIONS[kind]


def _fingerprint(rules: Mapping[str, Any]) -> str:
    """:meth:`Ruleset.fingerprint <remi_rules.Ruleset.fingerprint>` of plain rules
    (the same hash of the same canonical text), for any knob set."""
    canonical = json.dumps(rules, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()[:16]


def _add_knobs(version: int) -> Step:
    """The step from ``version - 1`` to ``version``: the knobs added in ``version``."""

    def step(doc: dict[str, Any]) -> dict[str, Any]:
        added = [k for k in KNOBS_ADDED if k.version == version]
        rules, fingerprint = doc.get("rules"), doc.get("fingerprint")
        if added and isinstance(rules, dict) and type(fingerprint) is str:
            old = _fingerprint(rules)
            if fingerprint != old:
                raise InvalidStateError(
                    _S.FINGERPRINT, path="fingerprint", got=fingerprint, expected=old
                )
            for knob in added:
                if knob.knob in rules:  # the old format had no such knob
                    raise InvalidStateError(
                        _S.UNKNOWN_KEY, path=f"rules.{knob.knob}", key=knob.knob
                    )
            rules = {**rules, **{k.knob: k.default for k in added}}
            doc = {**doc, "rules": rules, "fingerprint": _fingerprint(rules)}
        return {**doc, "format_version": version}

    return step


def _offer_and_accept(steps: object) -> object:
    """Version 1 → 2 of a record's steps: the doubles exchange became an offer and an
    acceptance (docs/decisions.md): ``exchange_doubles`` (``seat`` gives ``tile`` to
    ``other`` for ``other_tile``) is ``offer_doubles`` (``seat``, ``tile``) then
    ``accept_doubles`` (``other``, ``other_tile``, ``offer`` = ``seat``), which replay
    to the same state.  Anything else is left for the loader to judge."""
    if not isinstance(steps, list):
        return steps
    out: list[object] = []
    for step in steps:
        if (
            isinstance(step, dict)
            and step.get("kind") == "exchange_doubles"
            and set(step) == {"kind", "seat", "other", "tile", "other_tile"}
        ):
            out.append({"kind": "offer_doubles", "seat": step["seat"], "tile": step["tile"]})
            out.append(
                {
                    "kind": "accept_doubles",
                    "seat": step["other"],
                    "tile": step["other_tile"],
                    "offer": step["seat"],
                }
            )
        else:
            out.append(step)
    return out


def _record_2(doc: dict[str, Any]) -> dict[str, Any]:
    """Record 1 → 2: its steps (:func:`_offer_and_accept`)."""
    if "steps" not in doc:
        return doc
    return {**doc, "steps": _offer_and_accept(doc["steps"])}


def _game_2(doc: dict[str, Any]) -> dict[str, Any]:
    """Game 1 → 2: its record's steps (:func:`_offer_and_accept`), and its state has
    the open offers of doubles (``offers``: none, as version 1 had no offers)."""
    record, state = doc.get("record"), doc.get("state")
    if isinstance(record, dict):
        doc = {**doc, "record": _record_2(record)}
    if isinstance(state, dict):
        if "offers" in state:
            raise InvalidStateError(_S.UNKNOWN_KEY, path="state.offers", key="offers")
        doc = {**doc, "state": {**state, "offers": []}}
    return doc


def _view_2(doc: dict[str, Any]) -> dict[str, Any]:
    """View 1 → 2: a view tells what an undo may still do in the pending turn
    (``undo``: nothing, for a version-1 view) and the open offers of doubles
    (``offers``: none)."""
    for key in ("undo", "offers"):
        if key in doc:
            raise InvalidStateError(_S.UNKNOWN_KEY, path=key, key=key)
    return {**doc, "undo": {"steps": 0, "undos": 0, "rescue": 0}, "offers": []}


EXTRA_STEPS: Final[dict[tuple[str, int], Step]] = {
    ("game", 2): _game_2,
    ("record", 2): _record_2,
    ("view", 2): _view_2,
}
"""Steps other than knobs added, by ``(kind, version they lead to)``; they run after
that version's knobs are added.  (A match's rounds are games, each brought to the
current version when it is read.)"""


def _chain(kind: str, version: int) -> list[Step]:
    steps: list[Step] = []
    for v in range(version + 1, current_version(kind) + 1):
        steps.append(_add_knobs(v))
        if (kind, v) in EXTRA_STEPS:
            steps.append(EXTRA_STEPS[kind, v])
    return steps


def migrate(doc: dict[str, Any], kind: str) -> dict[str, Any]:
    """``doc`` brought to the current version of ``kind`` (itself when it is there):
    a new dict, ``doc`` untouched.  Its ``format_version`` is an int from 1 to the
    current one (the loaders refuse any other first); a step refuses a document it
    cannot rewrite with :class:`~remi_rules.errors.InvalidStateError`."""
    version = doc["format_version"]
    for step in _chain(kind, version):
        doc = step(doc)
    return doc
