"""The frontend protocol's messages as JSON: a client's step in, events and errors out.

A server receives steps from strangers' clients: :func:`load_step` (and
:func:`loads_step` for the text) reads one strictly, under its own size bound
(:data:`MAX_MESSAGE_BYTES`), refusing unknown keys, wrong types and out-of-range values
with :class:`~remi_rules.InvalidStateError` codes and paths, as the game loader does.
:func:`dump_event` writes an event as a seat may see it (the seat's projection,
:meth:`~remi_rules.engine.events.Dealt.seen_by`), as a spectator sees it, or whole
(:data:`FULL`, for the server's own log); :func:`dump_error` writes a refusal with its
code, details and message.  docs/protocol.md shows each.
"""

from __future__ import annotations

import enum
from typing import Any, Final

import attrs

from ..engine.events import Event
from ..engine.events import _Event as _EventBase
from ..engine.steps import Step, _Step
from ..errors import RemiError
from ._bounds import _parse_json, _scan
from ._forms import _STEP
from ._spec import _Ctx

__all__ = [
    "FULL",
    "MAX_MESSAGE_BYTES",
    "dump_error",
    "dump_event",
    "dump_step",
    "dumps_step",
    "load_step",
    "loads_step",
]

MAX_MESSAGE_BYTES: Final = 16_384
"""The largest step message :func:`loads_step` and :func:`load_step` read (bytes of
compact JSON); the largest step, a meld of every tile, is under 1 KB."""


class _Full(enum.Enum):
    FULL = "full"

    def __repr__(self) -> str:
        return "serde.FULL"


FULL: Final = _Full.FULL
"""``seat=FULL`` in :func:`dump_event`: the whole event, hidden ids included (for the
server's own log, never for a client)."""


def dump_step(step: Step) -> dict[str, Any]:
    """A step as JSON data, tagged by its ``kind`` (the form of the saved records)."""
    if not isinstance(step, _Step):
        raise TypeError(f"step must be a Step, not {type(step).__name__}")
    data: dict[str, Any] = _STEP.dump(step)
    return data


def dumps_step(step: Step) -> str:
    """:func:`dump_step` as compact JSON text."""
    import json

    return json.dumps(dump_step(step), ensure_ascii=False, separators=(",", ":"))


def load_step(data: object, *, players: int = 4) -> Step:
    """A client's step from JSON data, strictly: an object tagged by ``kind``, with
    exactly that step's fields, each of its type and range (a seat below ``players``).
    Refused with :class:`~remi_rules.InvalidStateError` (``state_missing_key``,
    ``state_unknown_key``, ``state_wrong_type``, ``state_out_of_range``,
    ``state_bad_value`` with ``why="no_such_step"``, and the size bounds), ``path``
    starting at ``step``.  Whether the step is legal is the game's to say."""
    if type(players) is not int:
        raise TypeError(f"players must be an int, not {type(players).__name__}")
    _scan(data, MAX_MESSAGE_BYTES)
    ctx = _Ctx()
    ctx.players = players
    step: Step = _STEP.read(data, "step", ctx)
    return step


def loads_step(text: str, *, players: int = 4) -> Step:
    """:func:`load_step` of JSON text (at most :data:`MAX_MESSAGE_BYTES`, checked
    before parsing)."""
    return load_step(_parse_json(text, MAX_MESSAGE_BYTES), players=players)


def _plain(value: Any) -> Any:
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if attrs.has(type(value)):
        return {f.name: _plain(getattr(value, f.name)) for f in attrs.fields(type(value))}
    return value


def dump_event(event: Event, *, seat: int | _Full | None) -> dict[str, Any]:
    """An event as JSON data for ``seat``: its projection for that seat (an int), for a
    spectator (``None``), or the whole event (:data:`FULL`); tagged by ``kind``, hidden
    ids as ``null``.  ``seat`` has no default, so that a server says whom it writes
    for.  A step inside an event (:class:`~remi_rules.engine.events.StepUndone`) is
    written as :func:`dump_step` writes it."""
    if not isinstance(event, _EventBase):
        raise TypeError(f"event must be an Event, not {type(event).__name__}")
    seen = event if isinstance(seat, _Full) else event.seen_by(seat)
    data: dict[str, Any] = {"kind": seen.kind}
    for f in attrs.fields(type(seen)):
        value = getattr(seen, f.name)
        data[f.name] = _STEP.dump(value) if isinstance(value, _Step) else _plain(value)
    return data


def dump_error(error: RemiError, lang: str = "en") -> dict[str, Any]:
    """A refusal as JSON data: its ``code``, its ``details`` (data and sub-codes; a
    nested error as its own object) and its ``message`` in ``lang``."""
    if not isinstance(error, RemiError):
        raise TypeError(f"error must be a RemiError, not {type(error).__name__}")
    details = {
        key: dump_error(value, lang) if isinstance(value, RemiError) else _plain(value)
        for key, value in error.details.items()
    }
    return {"code": error.code.value, "details": details, "message": error.message(lang)}
