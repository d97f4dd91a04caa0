"""The web table's messages: what a page sends over its WebSocket, and how the server
routes it.  Every message is untrusted; this module reads it before any game sees it.

Client → server (JSON text frames, at most :data:`MAX_FRAME_BYTES` each, at most
:data:`MAX_MESSAGES_PER_SECOND` a second):

``{"type": "step", "step": {...}}``
    a step, in the library's step form (:func:`remi_rules.serde.load_step`), applied
    for the connection's seat (``game.apply(step, seat=…)``);
``{"type": "hint"}``
    the library's hint for the seat (``hint(view)``) with its reason;
``{"type": "next_round"}``
    deal the match's next round once this one is over;
``{"type": "lang", "lang": "ro"}``
    the language of the connection's refusals, labels and log;
``{"type": "ping"}``
    answered ``{"type": "pong"}``.

Server → client: ``welcome`` (the seat, the table, the 106 tiles), ``update`` (the
seat's view, legal steps, the melds, the new events and log lines, the result and the
match), ``hint``, ``pong`` and ``refused`` (``{"error": {"code", "details",
"message"}}``: a library error as :func:`remi_rules.serde.dump_error` writes it, or
one of the web table's own codes, :class:`~remi_rules.web.specs.WebRefusal`).

A refused message changes nothing.  A frame over :data:`MAX_FRAME_BYTES` is closed
with WebSocket code 1009, a connection sending more than
:data:`MAX_MESSAGES_PER_SECOND` messages in a second with 1008, each with its reason.
"""

from __future__ import annotations

import collections
import json
import time
from collections.abc import Callable
from typing import Final

from .. import _i18n as i18n
from .. import serde
from .specs import WebRefusal
from .tables import Client, Table

__all__ = [
    "CLOSE_POLICY",
    "CLOSE_TOO_BIG",
    "MAX_FRAME_BYTES",
    "MAX_MESSAGES_PER_SECOND",
    "RateLimit",
    "handle",
]

MAX_FRAME_BYTES: Final = serde.MAX_MESSAGE_BYTES
"""The largest frame a page may send (bytes of UTF-8): the protocol's step bound,
:data:`remi_rules.serde.MAX_MESSAGE_BYTES`, for the whole message."""
MAX_MESSAGES_PER_SECOND: Final = 20
"""The most messages a connection may send within any one second; the next closes
it with code 1008."""
CLOSE_POLICY: Final = 1008
"""WebSocket close code: a policy violation (too many messages, a wrong Origin, an
unknown table or token)."""
CLOSE_TOO_BIG: Final = 1009
"""WebSocket close code: a frame over :data:`MAX_FRAME_BYTES`."""


class RateLimit:
    """At most ``limit`` messages in any ``window`` seconds (a sliding window)."""

    def __init__(
        self,
        limit: int = MAX_MESSAGES_PER_SECOND,
        window: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.limit = limit
        self.window = window
        self._clock = clock
        self._times: collections.deque[float] = collections.deque()

    def hit(self) -> bool:
        """Count one message; False once the limit is passed."""
        now = self._clock()
        times = self._times
        while times and now - times[0] >= self.window:
            times.popleft()
        times.append(now)
        return len(times) <= self.limit


async def handle(table: Table, client: Client, text: str) -> None:
    """Route one text frame of ``client`` at ``table``; a message the table cannot read
    raises :class:`WebRefusal` (the caller sends it to the client)."""
    try:
        data = json.loads(text)
    except ValueError:
        raise WebRefusal("bad_json") from None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise WebRefusal("bad_message")
    kind = data["type"]
    allowed = _FIELDS.get(kind)
    if allowed is None:
        raise WebRefusal("unknown_message", type=kind[:40])
    extra = sorted(set(data) - allowed - {"type"})
    if extra:
        raise WebRefusal("bad_message_key", key=extra[0][:40], type=kind)
    if kind == "step":
        if "step" not in data:
            raise WebRefusal("bad_message_key", key="step", type=kind)
        await table.step(client, data["step"])
    elif kind == "hint":
        await table.ask_hint(client)
    elif kind == "next_round":
        await table.next_round(client)
    elif kind == "lang":
        lang = data.get("lang")
        if not isinstance(lang, str) or lang not in i18n.languages():
            raise WebRefusal("bad_lang", known=", ".join(i18n.languages()))
        client.lang = lang
        async with table.lock:
            client.round = -1  # the next update is whole, in the new language
            client.put(table.update(client))
    else:
        client.put({"type": "pong"})


_FIELDS: Final[dict[str, set[str]]] = {
    "step": {"step"},
    "hint": set(),
    "next_round": set(),
    "lang": {"lang"},
    "ping": set(),
}
