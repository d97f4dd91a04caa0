"""The web table's server under load (docs/web.md, "Load"): the updates of a step, the
sender's first and the same as each connection would be sent alone; the state folder
written by a saver off the event loop, in the order of the steps, one file carrying
the steps that came while the disk was busy; the garbage collector's settings of
``remi-rules serve``."""

from __future__ import annotations

import asyncio
import gc
import threading
from typing import Any

import attrs
from web_support import require

from remi_rules import serde

require("starlette")

from bench_web_gc import mover_step  # noqa: E402

from remi_rules.web.app import GC_THRESHOLD_OLDEST, tune_gc  # noqa: E402
from remi_rules.web.registry import Registry  # noqa: E402
from remi_rules.web.specs import TableSpec  # noqa: E402
from remi_rules.web.store import Store  # noqa: E402
from remi_rules.web.tables import Client  # noqa: E402

ORDER: list[Client] = []


@attrs.define(eq=False)
class Recording(Client):
    """A connection that notes the order in which the connections are sent updates."""

    def put(self, message: dict[str, Any]) -> None:
        if message.get("type") == "update":
            ORDER.append(self)
        super().put(message)


def _drain(client: Client) -> list[dict[str, Any]]:
    out = []
    while not client.queue.empty():
        message = client.queue.get_nowait()
        assert message is not None
        out.append(message)
    return out


def test_a_steps_updates_go_to_the_sender_first_each_as_if_sent_alone() -> None:
    async def play() -> None:
        table = Registry(seed=3).create(TableSpec(seats=("human",) * 4))
        clients = [Recording(s, lang) for s, lang in ((None, "en"), (0, "ro"), (1, "en"))]
        clients += [Recording(s, "en") for s in (2, 3)]
        table.clients.update(clients)
        table.broadcast()
        for client in clients:
            _drain(client)
        for _ in range(6):
            seat, step = mover_step(table)
            sender = next(c for c in clients if c.seat == seat)
            twins = [attrs.evolve(c) for c in clients]  # the same counters, own queues
            ORDER.clear()
            await table.step(sender, step)
            assert ORDER[0] is sender and sorted(map(id, ORDER)) == sorted(map(id, clients))
            for client, twin in zip(clients, twins, strict=True):
                (sent,) = _drain(client)
                assert sent == table.update(twin)
                assert sent["log"] and sent["log"][-1]["seat"] == seat

    asyncio.run(play())


class SlowStore(Store):
    """A state folder whose writes wait for ``go`` (a disk slower than the steps)."""

    def __init__(self, folder: Any) -> None:
        super().__init__(folder)
        self.go = threading.Event()
        self.saved: list[dict[str, Any]] = []

    def save(self, table_id: str, document: dict[str, Any]) -> None:
        if self.saved:  # the first, when the table is made, is not held
            assert self.go.wait(30)
        super().save(table_id, document)
        self.saved.append(document)


def test_steps_faster_than_the_disk_are_saved_in_their_order_in_fewer_files(
    tmp_path: Any,
) -> None:
    store = SlowStore(tmp_path)
    registry = Registry(seed=4, store=store)
    table = registry.create(TableSpec(seats=("human",) * 4))
    clients = [Client(s, "en") for s in range(4)]
    table.clients.update(clients)

    async def play() -> None:
        for _ in range(8):
            seat, step = mover_step(table)
            # each step is answered while the disk still holds the first file
            await asyncio.wait_for(table.step(clients[seat], step), 10)
        store.go.set()
        await registry.stop()  # the last step is on disk before it returns

    asyncio.run(play())
    steps = [len(doc["log"][-1]) for doc in store.saved]
    assert steps[0] == 0 and steps[-1] == 8
    assert steps == sorted(steps) and len(steps) < 8
    again = Registry(seed=4, store=Store(tmp_path)).tables[table.id]
    assert serde.dumps_game(again.match.game) == serde.dumps_game(table.match.game)
    assert again.log == table.log


def test_serve_freezes_what_is_loaded_and_makes_full_collections_rare() -> None:
    before = gc.get_threshold()
    try:
        tune_gc()
        assert gc.get_freeze_count() > 0
        assert gc.get_threshold() == (before[0], before[1], GC_THRESHOLD_OLDEST)
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
