"""The tables of the reference web server: one :class:`~remi_rules.engine.Match` per
table, one :class:`asyncio.Lock` per table, the seats' tokens and bots, and what each
connection is sent.

Nothing here implements a rule.  A client's step goes through
:func:`remi_rules.serde.load_step` and ``game.apply(step, seat=…)``; what a connection
is sent is the seat's view (:func:`remi_rules.serde.dump_view`), its legal steps
(``game.legal_steps(seat)``), the new events as that seat may see them
(:func:`remi_rules.serde.dump_event`), the round's result
(:func:`remi_rules.serde.dump_result`) and refusals (:func:`remi_rules.serde.dump_error`).
The only thing computed here is presentation: a meld's kind and points and what its
jokers stand for come from the library's own analysis of the table
(:class:`remi_rules.melds.Meld`), a step's label from the library's notation.

This module needs no third-party package; :mod:`remi_rules.web.app` puts it behind
Starlette.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Sequence
from typing import Any, Final

import attrs

from .. import _i18n as i18n
from .. import serde
from ..engine import Bot, Match, PlayerView, Step
from ..errors import RemiError
from ..hints import hint
from ..notation import format_step
from .present import finishable, ids_in, melds, spectator_view, tile_table
from .specs import WebRefusal, make_bot
from .store import Store

__all__ = ["MAX_QUEUE", "Client", "Table"]

log = logging.getLogger("remi_rules.web")

MAX_QUEUE: Final = 256
"""The most messages waiting for one connection; a client that falls further behind
is closed (it reconnects with its token and gets the whole state again)."""


@attrs.define(eq=False)
class Client:
    """One connection: its seat (``None``: a spectator), its language and a queue of
    messages its writer sends in order.  ``round``/``events``/``log`` count what it
    was sent of the current round, so updates carry only what is new."""

    seat: int | None
    lang: str
    queue: asyncio.Queue[dict[str, Any] | None] = attrs.field(
        factory=lambda: asyncio.Queue(MAX_QUEUE)
    )
    round: int = -1
    events: int = 0
    log: int = 0
    closed: bool = False
    overflow: bool = False

    def put(self, message: dict[str, Any]) -> None:
        """Queue ``message``; a client too far behind is closed (``None`` ends its writer)."""
        if self.closed:
            return
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:
            self.overflow = True
            self.close()

    def close(self) -> None:
        """Stop: the writer ends after the messages before it (a client too far behind
        loses its oldest one, to make room for the end)."""
        if not self.closed:
            self.closed = True
            if self.queue.full():
                self.queue.get_nowait()
            self.queue.put_nowait(None)


class Table:
    """One table: a match under one ruleset, its seats (people or bots), the
    connections watching it, and the log of the steps made (with their notation)."""

    def __init__(
        self,
        table_id: str,
        *,
        match: Match,
        kinds: Sequence[str],
        tokens: Sequence[str | None],
        label: str,
        stored_rules: dict[str, Any],
        seed: int | None,
        log: list[list[dict[str, Any]]] | None = None,
        bot_delay: float = 0.0,
        store: Store | None = None,
    ) -> None:
        self.id = table_id
        self.match = match
        self.kinds = tuple(kinds)
        self.tokens = tuple(tokens)
        self.label = label
        self.stored_rules = stored_rules
        self.seed = seed
        self.bots: dict[int, Bot] = {
            s: make_bot(k, seed, s) for s, k in enumerate(self.kinds) if k != "human"
        }
        self.log: list[list[dict[str, Any]]] = log if log is not None else [[]]
        while len(self.log) < len(match.games):
            self.log.append([])
        self.lock = asyncio.Lock()
        self.clients: set[Client] = set()
        self.bot_delay = bot_delay
        self.store = store
        self._kick = asyncio.Event()
        self._runner: asyncio.Task[None] | None = None
        self.failed: str | None = None
        self._saver: asyncio.Task[None] | None = None
        self._dirty = False
        self._match_key: tuple[int, bool] | None = None
        self._match_value: dict[str, Any] = {}

    # -- who is who -------------------------------------------------------------------------

    @property
    def players(self) -> int:
        return self.match.players

    def seat_of(self, token: str | None) -> int | None:
        """The seat whose token is ``token`` (compared in constant time), else None."""
        if not token:
            return None
        for seat, mine in enumerate(self.tokens):
            if mine is not None and secrets.compare_digest(mine, token):
                return seat
        return None

    def summary(self) -> dict[str, Any]:
        """What the lobby lists: no token, no tile."""
        connected = {c.seat for c in self.clients if c.seat is not None}
        return {
            "id": self.id,
            "rules": self.label,
            "players": self.players,
            "seats": list(self.kinds),
            "connected": sorted(connected),
            "round": len(self.match.games),
            "rounds": self.planned_rounds,
            "over": self.match.over,
        }

    @property
    def planned_rounds(self) -> int:
        cfg = self.match.config
        return cfg.rounds if cfg.rounds is not None else self.players

    # -- saving -------------------------------------------------------------------------------

    def document(self) -> dict[str, Any]:
        """The table as the state folder keeps it: the match as the library's JSON
        (:func:`remi_rules.serde.dump_match`), the seats' kinds and tokens, the rules'
        source and the step log."""
        return {
            "kind": "remi_web_table",
            "version": 1,
            "id": self.id,
            "seats": list(self.kinds),
            "tokens": list(self.tokens),
            "label": self.label,
            "rules": self.stored_rules,
            "seed": self.seed,
            "match": serde.dump_match(self.match),
            # the lists of the log as they are now (a round's list grows in place)
            "log": [list(lines) for lines in self.log],
        }

    def save(self) -> None:
        """Write the table to the state folder now (atomically: :meth:`Store.save`)."""
        if self.store is not None:
            self.store.save(self.id, self.document())

    def save_soon(self) -> None:
        """Have the table written to the state folder (:meth:`Store.save`, atomically)
        by its saver, a task that writes in a worker thread (the JSON text, the file,
        its ``fsync``) while the other tables go on.  The saver takes the table as it
        is when it starts a file (under the lock, so at a step's boundary), and writes
        one file at a time: a table's files come in the order of its steps, and when
        steps come faster than the disk writes, one file carries them all."""
        if self.store is None:
            return
        self._dirty = True
        if self._saver is None or self._saver.done():
            self._saver = asyncio.get_running_loop().create_task(self._save_all())

    async def _save_all(self) -> None:
        assert self.store is not None
        loop = asyncio.get_running_loop()
        while self._dirty:
            async with self.lock:
                self._dirty = False
                document = self.document()
            try:
                await loop.run_in_executor(None, self.store.save, self.id, document)
            except Exception:  # the next step tries again
                log.exception("table %s: not saved", self.id)

    async def flush(self) -> None:
        """Wait until the table's last step is in its file (or its saver failed: it
        logs why)."""
        if self._saver is not None:
            await asyncio.wait({self._saver})

    async def commit(self, first: Client | None) -> None:
        """After a step (the lock held): the table to be saved (:meth:`save_soon`) and
        every connection told (:meth:`publish`, ``first``'s update first)."""
        self.save_soon()
        await self.publish(first)

    # -- messages out ---------------------------------------------------------------------------

    def welcome(self, client: Client) -> dict[str, Any]:
        return {
            "type": "welcome",
            "table": self.id,
            "seat": client.seat,
            "players": self.players,
            "seats": list(self.kinds),
            "rules": self.label,
            "fingerprint": self.match.rules.fingerprint(),
            "max_message_bytes": serde.MAX_MESSAGE_BYTES,
            "tiles": tile_table(),
        }

    def update(self, client: Client, shared: dict[str, Any] | None = None) -> dict[str, Any]:
        """What ``client`` has not been sent yet: the whole state of the round (view,
        legal steps, melds, match) and the events and log lines that are new to it.
        ``shared``: a dict kept for one broadcast, where the parts that are the same
        for every connection in a language are computed once."""
        match = self.match
        game = match.game
        rnd = len(match.games) - 1
        if client.round != rnd:
            client.round, client.events, client.log = rnd, 0, 0
            fresh = True
        else:
            fresh = False
        seat = client.seat
        events = game.events
        new_events = [serde.dump_event(e, seat=seat) for e in events[client.events :]]
        client.events = len(events)
        lines = self.log[rnd]
        new_log = [self._log_line(line, seat, client.lang) for line in lines[client.log :]]
        client.log = len(lines)
        view: PlayerView | None = None
        if seat is None:
            view_data = spectator_view(game)
        else:
            view = game.view(seat)
            view_data = serde.dump_view(view, with_rules=False)
        legal: list[dict[str, Any]] = []
        if view is not None and seat is not None and not game.over:
            steps = game.legal_steps(seat)
            for step, flag in zip(steps, finishable(game, seat, steps), strict=True):
                legal.append(
                    {
                        "step": serde.dump_step(step),
                        "label": format_step(step, view, client.lang),
                        "finishable": flag,
                    }
                )
        common = self._common(client.lang, {} if shared is None else shared)
        return {
            "type": "update",
            "fresh": fresh,
            "round": rnd + 1,
            "view": view_data,
            "legal": legal,
            "melds": common["melds"],
            "tiles_text": common["tiles_text"],
            "events": new_events,
            "log": new_log,
            "result": common["result"],
            "match": common["match"],
            "connected": common["connected"],
            "failed": self.failed,
        }

    def _common(self, lang: str, shared: dict[str, Any]) -> dict[str, Any]:
        """The parts of an update that are the same for every connection in ``lang``,
        computed once per broadcast (``shared``); the match's totals once per round
        and once more when it ends (they change only then)."""
        common: dict[str, Any] | None = shared.get(lang)
        if common is not None:
            return common
        game = self.match.game
        if "result" not in shared:
            result = game.result()
            shared["result"] = None if result is None else serde.dump_result(result)
            shared["match"] = self._match_part()
            shared["connected"] = sorted({c.seat for c in self.clients if c.seat is not None})
        common = {
            "melds": melds(game, lang),
            "tiles_text": [i18n.counted("tiles", len(s.rack), lang) for s in game.state.seats],
            "result": shared["result"],
            "match": shared["match"],
            "connected": shared["connected"],
        }
        shared[lang] = common
        return common

    def _match_part(self) -> dict[str, Any]:
        """The update's ``match``: ``Match.totals`` scores every finished round again,
        so it is asked once each time the number of rounds or the current round's end
        changes (a finished round's result never changes)."""
        match = self.match
        key = (len(match.games), match.game.over)
        if self._match_key != key:
            over = match.over
            self._match_key = key
            self._match_value = {
                "round": key[0],
                "rounds": self.planned_rounds,
                "totals": list(match.totals),
                "over": over,
                "winners": list(match.winners) if over else [],
            }
        return self._match_value

    def _log_line(self, line: dict[str, Any], seat: int | None, lang: str) -> dict[str, Any]:
        seen = line["seen"]
        visible = seat in seen if seat is not None else line["public"]
        text = line["text"].get(lang) or line["text"].get("en") if visible else None
        return {"seat": line["seat"], "kind": line["step"]["kind"], "text": text}

    def broadcast(self) -> None:
        """Queue an update for every connection (called with the lock held, so every
        connection gets the updates in the order the steps were made)."""
        shared: dict[str, Any] = {}
        for client in list(self.clients):
            client.put(self.update(client, shared))

    async def publish(self, first: Client | None) -> None:
        """:meth:`broadcast` after ``first``'s own message: its update is queued first,
        and its writer may send it before the others' updates are made (the loop runs
        once in between; the lock is still held, so no connection's order changes)."""
        shared: dict[str, Any] = {}
        others = [c for c in self.clients if c is not first]
        if first is not None and first in self.clients:
            first.put(self.update(first, shared))
            try:
                await asyncio.sleep(0)
            finally:  # even when cancelled there: everyone is told
                for client in others:
                    client.put(self.update(client, shared))
        else:
            for client in others:
                client.put(self.update(client, shared))

    # -- steps --------------------------------------------------------------------------------

    def _record(self, step: Step, sender: int, before: PlayerView) -> None:
        """A log line for ``step``: its text in every language, written from the view
        it was made in, and who may read it (the seats that can see every tile it
        names, right after it; ``public`` when all of them can)."""
        game = self.match.game
        data = serde.dump_step(step)
        named = ids_in(data)
        seen = [s for s in range(self.players) if named <= game.view(s).visible_ids()]
        self.log[len(self.match.games) - 1].append(
            {
                "seat": sender,
                "step": data,
                "text": {lang: format_step(step, before, lang) for lang in i18n.languages()},
                "seen": seen,
                "public": len(seen) == self.players,
            }
        )

    def apply(self, step: Step, seat: int) -> None:
        """Apply ``step`` for ``seat`` (``game.apply(step, seat=seat)``; a refusal
        raises the library's error and changes nothing), log it, then let the bots
        react to it (:meth:`react`) before anyone is told."""
        self._apply(step, seat)
        self.react()

    def _apply(self, step: Step, seat: int) -> None:
        game = self.match.game
        before = game.view(seat)
        game.apply(step, seat=seat)
        self._record(step, seat, before)

    def react(self) -> None:
        """The bots' out-of-turn steps (``bot.react(view)``: an announcement, a
        declaration), seat by seat, until none has one: run after every step, under
        the table's lock, so what a bot answers to a step never depends on when the
        next message arrives."""
        game = self.match.game
        for _ in range(4 * self.players):
            acted = False
            for seat, bot in self.bots.items():
                react = getattr(bot, "react", None)
                if react is None or game.over:
                    continue
                step = react(game.view(seat))
                if step is not None and game.can(step, seat=seat):
                    self._apply(step, seat)
                    acted = True
            if not acted:
                return

    async def step(self, client: Client, data: object) -> None:
        """A client's step message: read strictly, applied for the client's seat; the
        refusal goes to that client only, the update to everyone."""
        if client.seat is None:
            raise WebRefusal("not_seated")
        async with self.lock:
            try:
                step = serde.load_step(data, players=self.players)
                self.apply(step, client.seat)
            except RemiError as err:
                client.put({"type": "refused", "error": serde.dump_error(err, client.lang)})
                return
            await self.commit(client)
        self.kick()

    async def ask_hint(self, client: Client) -> None:
        """The library's hint (``hint(view)``) for the client's seat, with its reason."""
        if client.seat is None:
            raise WebRefusal("not_seated")
        async with self.lock:
            view = self.match.game.view(client.seat)
        try:
            plan = await asyncio.to_thread(hint, view)
        except RemiError as err:
            client.put({"type": "refused", "error": serde.dump_error(err, client.lang)})
            return
        client.put(
            {
                "type": "hint",
                # the first step is labelled from the view it is made in; the later
                # ones come after it, so they keep the engine's short form
                "steps": [
                    {
                        "step": serde.dump_step(s),
                        "label": format_step(s, view, client.lang) if k == 0 else str(s),
                    }
                    for k, s in enumerate(plan.steps)
                ],
                "reason": plan.reason(client.lang),
                "complete": plan.complete,
            }
        )

    async def next_round(self, client: Client) -> None:
        """Deal the match's next round (``match.next_round()``); the library refuses
        it while the round is in play or once the match is over."""
        if client.seat is None:
            raise WebRefusal("not_seated")
        async with self.lock:
            try:
                self.match.next_round()
            except RemiError as err:
                client.put({"type": "refused", "error": serde.dump_error(err, client.lang)})
                return
            self.log.append([])
            self.react()
            await self.commit(client)
        self.kick()

    # -- the bots -------------------------------------------------------------------------------

    def kick(self) -> None:
        """Wake the table's bot runner (started on first use)."""
        if not self.bots:
            return
        if self._runner is None or self._runner.done():
            self._runner = asyncio.get_running_loop().create_task(self._run_bots())
        self._kick.set()

    async def _run_bots(self) -> None:
        while True:
            await self._kick.wait()
            self._kick.clear()
            while await self._bot_turn():
                if self.bot_delay:
                    await asyncio.sleep(self.bot_delay)
                else:
                    await asyncio.sleep(0)

    async def _bot_turn(self) -> bool:
        """One step of the bot to move (its ``choose(view)`` in a worker thread, then
        the bots' reactions), or the next round of a table without people.  False
        when no bot acts."""
        async with self.lock:
            if self.failed:
                return False
            game = self.match.game
            acted = False
            try:
                if game.over:
                    if not any(k == "human" for k in self.kinds) and not self.match.over:
                        self.match.next_round()
                        self.log.append([])
                        self.react()
                        acted = True
                else:
                    seat = game.state.current
                    bot = self.bots.get(seat)
                    if bot is not None:
                        chosen = await asyncio.to_thread(bot.choose, game.view(seat))
                        self.apply(chosen, seat)
                        acted = True
            except RemiError as err:  # a bot's step refused: the table stops, says why
                self.failed = f"{err.code.value}: {err.message('en')}"
                log.error("table %s: bot failed: %s", self.id, self.failed)
                acted = True
            if acted:
                await self.commit(None)
            return acted and not self.failed

    async def stop(self) -> None:
        """Stop the bots, wait for a file being written, close the connections."""
        if self._runner is not None:
            self._runner.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._runner
        await self.flush()
        for client in list(self.clients):
            client.close()
