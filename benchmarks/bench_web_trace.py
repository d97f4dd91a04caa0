"""The web table's server with timestamps, for ``bench_web.py --trace`` (docs/web.md).

Usage (``bench_web.py`` starts it; by hand only to look at one trace)::

    python benchmarks/bench_web_trace.py PORT TRACE_FILE [serve options]

Runs ``remi-rules serve`` in this process with hooks around the server's own functions
(nothing of the server is changed; the hooks wrap it).  For every step message it
records, on the machine's monotonic clock (the same clock in every process, so the
client's send and receive times line up with these):

* ``recv``: the reader hands the frame to :func:`remi_rules.web.protocol.handle`;
* ``apply0``/``apply1``: :meth:`Table.apply` starts and ends (the table's lock held);
* ``put``: the sender's own update is queued (:meth:`Client.put`);
* ``got``/``sent``: it leaves its queue, and has been written (``websocket.send_text``
  returned);
* ``done``: the message is handled (every connection's update queued, the lock
  released).

It also records the event loop's lag (a 5 ms ticker's overshoot), the garbage
collector's pauses, and the process's CPU.  ``SIGUSR1`` writes what was recorded since
the last one to ``TRACE_FILE`` (one JSON object) and starts again.
"""

from __future__ import annotations

import asyncio
import contextvars
import gc
import json
import signal
import sys
import time
from pathlib import Path
from typing import Any

from remi_rules.cli import main as cli_main
from remi_rules.engine import Step
from remi_rules.web import app as web_app
from remi_rules.web import protocol, tables

_now = time.monotonic
_current: contextvars.ContextVar[tuple[Any, dict[str, Any]] | None] = contextvars.ContextVar(
    "current", default=None
)
"""The step the running reader task handles: its client and its record."""


class Trace:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.steps: list[dict[str, Any]] = []
        self.lags: list[float] = []
        self.gc_pauses: list[float] = []
        self.cpu = time.process_time()
        self.pending: dict[int, dict[str, Any]] = {}
        self._gc_start = 0.0

    def dump(self, *_: object) -> None:
        cpu = time.process_time()
        data = {
            "steps": [s for s in self.steps if "sent" in s],
            "lags_ms": self.lags,
            "gc_pauses_ms": self.gc_pauses,
            "cpu_s": cpu - self.cpu,
        }
        self.path.write_text(json.dumps(data))
        self.steps, self.lags, self.gc_pauses, self.cpu = [], [], [], cpu
        self.pending.clear()

    def on_gc(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._gc_start = _now()
        elif info.get("generation", 0) >= 1:
            self.gc_pauses.append((_now() - self._gc_start) * 1000)

    async def ticker(self) -> None:
        while True:
            t = _now()
            await asyncio.sleep(0.005)
            self.lags.append((_now() - t - 0.005) * 1000)


def install(trace: Trace) -> None:
    handle = protocol.handle
    apply = tables.Table.apply
    put = tables.Client.put
    start = tables.Table.kick

    async def traced_handle(table: tables.Table, client: tables.Client, text: str) -> None:
        if '"step"' not in text[:20]:
            await handle(table, client, text)
            return
        record: dict[str, Any] = {"table": table.id, "seat": client.seat, "recv": _now()}
        trace.steps.append(record)
        token = _current.set((client, record))
        try:
            await handle(table, client, text)
        finally:
            record["done"] = _now()
            _current.reset(token)

    def traced_apply(self: tables.Table, chosen: Step, seat: int) -> None:
        current = _current.get()
        if current is not None:
            current[1]["apply0"] = _now()
        apply(self, chosen, seat)
        if current is not None:
            current[1]["apply1"] = _now()

    def traced_put(self: tables.Client, message: dict[str, Any]) -> None:
        current = _current.get()
        if current is not None and current[0] is self and message.get("type") == "update":
            current[1]["put"] = _now()
            trace.pending[id(message)] = current[1]
        put(self, message)

    def start_writer(websocket: Any, client: tables.Client) -> asyncio.Task[None]:
        send_text = websocket.send_text
        get = client.queue.get
        record: list[dict[str, Any] | None] = [None]

        async def traced_get() -> dict[str, Any] | None:
            message = await get()
            if message is not None and id(message) in trace.pending:
                found = record[0] = trace.pending.pop(id(message))
                found["got"] = _now()
            return message

        async def traced_send(text: str) -> None:
            await send_text(text)
            if record[0] is not None:
                record[0]["sent"] = _now()
                record[0] = None

        client.queue.get = traced_get  # type: ignore[method-assign]
        websocket.send_text = traced_send
        return original_writer(websocket, client)

    ticking: list[asyncio.Task[None]] = []

    def kick(self: tables.Table) -> None:
        if not ticking:
            ticking.append(asyncio.get_running_loop().create_task(trace.ticker()))
        start(self)

    original_writer = web_app._start_writer
    protocol.handle = traced_handle
    tables.Table.apply = traced_apply  # type: ignore[method-assign,assignment]
    tables.Table.kick = kick  # type: ignore[method-assign]
    tables.Client.put = traced_put  # type: ignore[method-assign]
    web_app._start_writer = start_writer


def main() -> int:
    port, path, *rest = sys.argv[1:]
    trace = Trace(Path(path))
    install(trace)
    gc.callbacks.append(trace.on_gc)
    signal.signal(signal.SIGUSR1, trace.dump)
    return cli_main(["serve", "--port", port, *rest])


if __name__ == "__main__":
    sys.exit(main())
