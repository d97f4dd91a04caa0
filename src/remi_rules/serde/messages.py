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
import json
import random
from typing import Any, Final

from ..engine.events import Event
from ..engine.steps import Step, _Step
from ..engine.view import PlayerView
from ..errors import RemiError
from ..errors import StateErrorCode as _S
from ..ruleset import Ruleset, require_ruleset
from ..scoring import RoundResult
from ._bounds import _fail, _parse_json, _scan, _show, _wrong_type
from ._convert import structure, unstructure
from ._documents import HEADER, read_fingerprint, read_kind, read_rules
from ._migrations import current_version, migrate
from ._size import MAX_DOCUMENT_BYTES

__all__ = [
    "FULL",
    "MAX_MESSAGE_BYTES",
    "dump_error",
    "dump_event",
    "dump_result",
    "dump_step",
    "dumps_step",
    "load_step",
    "load_view",
    "loads_step",
    "loads_view",
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
    data: dict[str, Any] = unstructure(step, Step)
    return data


def dumps_step(step: Step) -> str:
    """:func:`dump_step` as compact JSON text."""
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
    step: Step = structure(data, Step, "step", players=players)
    return step


def loads_step(text: str, *, players: int = 4) -> Step:
    """:func:`load_step` of JSON text (at most :data:`MAX_MESSAGE_BYTES`, checked
    before parsing)."""
    return load_step(_parse_json(text, MAX_MESSAGE_BYTES), players=players)


def dump_event(event: Event, *, seat: int | _Full | None) -> dict[str, Any]:
    """An event as JSON data for ``seat``: its projection for that seat (an int), for a
    spectator (``None``), or the whole event (:data:`FULL`); tagged by ``kind``, hidden
    ids as ``null``.  ``seat`` has no default, so that a server says whom it writes
    for.  A step inside an event (:class:`~remi_rules.engine.events.StepUndone`) is
    written as :func:`dump_step` writes it."""
    if not isinstance(event, Event) or not hasattr(event, "kind"):
        raise TypeError(f"event must be an Event, not {type(event).__name__}")
    seen = event if isinstance(seat, _Full) else event.seen_by(seat)
    data: dict[str, Any] = unstructure(seen)
    return data


def dump_result(result: RoundResult) -> dict[str, Any]:
    """The round's score breakdown (:class:`~remi_rules.scoring.RoundResult`) as JSON
    data: every seat's terms (``melded``, ``credits``, ``rack``, the bonuses, a flat
    penalty, the multiplier and its reasons, ``total``), the ``winners``, the joc dublu
    and the ``totals``; the racks themselves are in the round's last
    :class:`~remi_rules.engine.events.RoundEnded`."""
    if not isinstance(result, RoundResult):
        raise TypeError(f"result must be a RoundResult, not {type(result).__name__}")
    data: dict[str, Any] = unstructure(result)
    return {"kind": "round_result", **data, "totals": list(result.totals)}


def dump_error(error: RemiError, lang: str = "en") -> dict[str, Any]:
    """A refusal as JSON data: its ``code``, its ``details`` (data and sub-codes; a
    nested error as its own object) and its ``message`` in ``lang``."""
    if not isinstance(error, RemiError):
        raise TypeError(f"error must be a RemiError, not {type(error).__name__}")
    details = {
        key: dump_error(value, lang) if isinstance(value, RemiError) else unstructure(value)
        for key, value in error.details.items()
    }
    return {"code": error.code.value, "details": details, "message": error.message(lang)}


_VIEW_HEADER: Final = HEADER[:3]  # a view's rules are optional


def load_view(data: object, rules: Ruleset) -> PlayerView:
    """A :class:`~remi_rules.engine.PlayerView` from :func:`~remi_rules.serde.dump_view`'s
    data, for a remote bot or client that holds ``rules`` (sent once, as
    :func:`~remi_rules.serde.ruleset_to_dict`): the view names its ruleset by
    fingerprint, and one for other rules is refused (``state_rules_mismatch``); a
    view dumped with its rules (``with_rules=True``) must carry these rules.  Read
    strictly, like a saved game: the bounds first, then every field's type and range,
    the table's melds, and the census (the view's tiles and counts add up to the 106
    of the game: ``state_tile_count``)."""
    rules = require_ruleset(rules)
    _scan(data, MAX_DOCUMENT_BYTES)
    if not isinstance(data, dict):
        _wrong_type("$", "object", data)
    for key in _VIEW_HEADER:
        if key not in data:
            _fail(_S.MISSING_KEY, key, key=key)
    version = data["format_version"]
    if type(version) is not int:
        _wrong_type("format_version", "integer", version)
    if not 1 <= version <= current_version("view"):
        _fail(
            _S.FORMAT_VERSION,
            "format_version",
            got=_show(version),
            expected=current_version("view"),
        )
    if version != current_version("view"):  # an older view: brought to this version first
        data = migrate(data, "view")
    read_kind(data["kind"], "view")
    fingerprint = read_fingerprint(data["fingerprint"])
    if fingerprint != rules.fingerprint():
        _fail(_S.RULES_MISMATCH, "fingerprint", got=fingerprint, expected=rules.fingerprint())
    body = {k: v for k, v in data.items() if k not in _VIEW_HEADER}
    if "rules" in body and read_rules(body.pop("rules"), "rules") != rules:
        _fail(_S.RULES_MISMATCH, "rules", got=fingerprint, expected=rules.fingerprint())
    view: PlayerView = structure(body, PlayerView, "", rules=rules)  # the table as a save's
    if not 0 <= view.seat < view.players or len(view.seats) != view.players:
        _fail(_S.BAD_VALUE, "seat", why="view_seat", seat=view.seat)
    _census(view)
    # The rest of the position's checks are a game's: a state the view could come
    # from (its hidden tiles dealt at random) must have no problem, but for the
    # doubles the other seats exchanged, which a view does not show.
    from ..engine.problems import state_problems

    for problem in state_problems(view.sample_state(random.Random(0))):
        if problem.path != "exchanged":
            raise problem.error()
    return view


def _census(view: PlayerView) -> None:
    shown = [*view.rack, *view.row, *view.table.ids()]
    if view.atu_face_up:
        shown.append(view.atu)
    held = sum(seat.rack_size for seat in view.seats)
    total = held - len(view.rack) + len(shown) + view.stock_count
    if (
        len(set(shown)) != len(shown)
        or total != 106
        or view.seats[view.seat].rack_size != len(view.rack)
    ):
        _fail(_S.TILE_COUNT, "$", why="view_census")


def loads_view(text: str, rules: Ruleset) -> PlayerView:
    """:func:`load_view` of JSON text (at most
    :data:`~remi_rules.serde.MAX_DOCUMENT_BYTES`, checked before parsing)."""
    return load_view(_parse_json(text, MAX_DOCUMENT_BYTES), rules)
