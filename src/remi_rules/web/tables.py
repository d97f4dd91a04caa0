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
import functools
import importlib
import logging
import secrets
from collections.abc import Callable, Sequence
from typing import Any, Final, Literal

import attrs

from .. import _i18n as i18n
from .. import serde, variants
from ..bots import GreedyBot, RandomBot
from ..engine import Automation, Bot, Game, Match, MatchConfig, PlayerView, Step
from ..errors import RemiError
from ..hints import hint
from ..ruleset import Ruleset
from ..tiles import tile_of
from .store import Store

__all__ = [
    "AUTOMATION",
    "BOT_KINDS",
    "MAX_TABLES",
    "SEAT_KINDS",
    "Client",
    "Registry",
    "Table",
    "TableSpec",
    "WebRefusal",
    "finishable",
    "step_text",
    "tile_table",
]

log = logging.getLogger("remi_rules.web")

BOT_KINDS: Final = ("greedy", "random")
"""The bots a seat can hold: :class:`~remi_rules.bots.GreedyBot` (plays the hint) and
:class:`~remi_rules.bots.RandomBot`."""
SEAT_KINDS: Final = ("human", *BOT_KINDS)
"""What a seat can be: a person (joined by a link with the seat's token) or a bot."""
AUTOMATION: Final = Automation(announcements=True)
"""What the engine does by itself at a web table: the automatic announcements of the
presets that make them (ANNOUNCE-04), as in ``remi-rules play``."""
MAX_TABLES: Final = 500
"""The most tables one server holds at once (``web_too_many_tables`` past it)."""
MAX_QUEUE: Final = 256
"""The most messages waiting for one connection; a client that falls further behind
is closed (it reconnects with its token and gets the whole state again)."""
MAX_HOUSE_RULES_TEXT: Final = serde.MAX_MESSAGE_BYTES
"""The largest house-rules text the lobby accepts (characters)."""


class WebRefusal(Exception):
    """A message the web table refuses before any game sees it (malformed, unknown,
    not allowed for a spectator …): ``code`` (``web:<code>`` in the catalogues) and
    ``details``, written like a library error by :meth:`dump`."""

    def __init__(self, code: str, /, **details: object) -> None:
        super().__init__(code)
        self.code = code
        self.details = details

    def message(self, lang: str = "en") -> str:
        return i18n.text(f"web:{self.code}", lang, self.details)

    def dump(self, lang: str) -> dict[str, Any]:
        """``{"code", "details", "message"}``, as :func:`remi_rules.serde.dump_error`."""
        return {"code": self.code, "details": dict(self.details), "message": self.message(lang)}


# -- what the protocol does not offer yet: feature checks ----------------------------------


def finishable(game: Game, seat: int, steps: Sequence[Step]) -> list[bool | None]:
    """For each of ``steps`` (the seat's legal steps), whether it still lets the turn
    end: the protocol's finishable flags, from ``game.legal_steps(seat,
    finishable=True)`` (one call for the list) or else ``game.is_finishable(step)``;
    ``None`` for each while the engine has neither (a feature check: the flags appear
    as soon as the engine offers them)."""
    check: Callable[[Step], object] | None = getattr(game, "is_finishable", None)
    if check is None:
        return [None] * len(steps)
    listing: Callable[..., Sequence[Step]] = game.legal_steps
    try:
        keep = set(listing(seat, finishable=True))
    except TypeError:  # is_finishable without the keyword
        return [bool(check(step)) for step in steps]
    return [step in keep for step in steps]


@functools.lru_cache(maxsize=1)
def _notation() -> Callable[[Step, PlayerView, str], str] | None:
    """``remi_rules.notation.format_step`` if the library has it (looked up once: a
    failed import costs more than writing a step)."""
    try:
        module = importlib.import_module("remi_rules.notation")
    except ImportError:
        return None
    found: Callable[[Step, PlayerView, str], str] | None = getattr(module, "format_step", None)
    return found


def step_text(step: Step, view: PlayerView, lang: str) -> str:
    """``step`` in the library's notation for ``lang`` (``remi_rules.notation.format_step``,
    with ``view`` the position it is made in), or ``str(step)`` while the library has no
    public notation module."""
    fmt = _notation()
    if fmt is not None:
        return fmt(step, view, lang)
    return str(step)


def tile_table() -> list[dict[str, Any]]:
    """The 106 physical tiles for a page: ``{"id", "text", "color", "rank", "joker"}``,
    from :func:`remi_rules.tile_of` (the ids are fixed; this is no rule)."""
    out: list[dict[str, Any]] = []
    for i in range(106):
        tile = tile_of(i)
        out.append(
            {
                "id": i,
                "text": str(tile),
                "color": None if tile.color is None else str(tile.color.value),
                "rank": tile.rank,
                "joker": tile.is_joker,
            }
        )
    return out


# -- a table ---------------------------------------------------------------------------------


@attrs.frozen
class TableSpec:
    """What the lobby asks for: a preset or a house-rules text, the seats (2–4, each
    ``human``, ``greedy`` or ``random``) and the number of rounds (default: one per
    player, each seat starting once)."""

    seats: tuple[str, ...]
    variant: str | None = "clasic"
    house_rules: str | None = None
    rounds: int | None = None

    @classmethod
    def from_json(cls, data: object) -> TableSpec:
        """The lobby's request, strictly: unknown keys, wrong types and values out of
        range are refused with :class:`WebRefusal` (``bad_table``)."""
        if not isinstance(data, dict):
            raise WebRefusal("bad_table", why="object")
        unknown = sorted(set(data) - {"seats", "variant", "house_rules", "rounds"})
        if unknown:
            raise WebRefusal("bad_table", why=f"unknown key {unknown[0][:40]!r}")
        seats = data.get("seats")
        if (
            not isinstance(seats, list)
            or not 2 <= len(seats) <= 4
            or not all(isinstance(k, str) and k in SEAT_KINDS for k in seats)
        ):
            raise WebRefusal("bad_table", why="seats: 2 to 4 of " + ", ".join(SEAT_KINDS))
        variant = data.get("variant")
        house = data.get("house_rules")
        if house is not None:
            if not isinstance(house, str) or len(house) > MAX_HOUSE_RULES_TEXT:
                raise WebRefusal("bad_table", why="house_rules: a text")
            variant = None
        elif variant is None:
            variant = "clasic"
        if variant is not None and (
            not isinstance(variant, str) or variant not in variants.names()
        ):
            raise WebRefusal("bad_table", why="variant: " + ", ".join(variants.names()))
        rounds = data.get("rounds")
        if rounds is not None and (type(rounds) is not int or not 1 <= rounds <= 100):
            raise WebRefusal("bad_table", why="rounds: 1 to 100")
        return cls(seats=tuple(seats), variant=variant, house_rules=house, rounds=rounds)

    def ruleset(self) -> tuple[Ruleset, str, dict[str, Any]]:
        """The ruleset, its label and its stored form (a preset's name or the house
        rules as :func:`remi_rules.serde.house_rules_to_dict` writes them); a bad
        house-rules text raises the library's :class:`~remi_rules.InvalidRulesetError`."""
        if self.house_rules is not None:
            text = self.house_rules
            fmt: Literal["json", "toml"] = "json" if text.lstrip().startswith("{") else "toml"
            rules = serde.loads_house_rules(text, fmt)
            base = _base_of(text, fmt)
            return rules, f"{base}+", {"house": serde.house_rules_to_dict(rules, base)}
        assert self.variant is not None
        return variants.get(self.variant), self.variant, {"preset": self.variant}


def _base_of(text: str, fmt: str) -> str:
    """The preset a house-rules text names as its base (default clasic)."""
    import json
    import tomllib

    try:
        data = json.loads(text) if fmt == "json" else tomllib.loads(text)
    except ValueError:
        return "clasic"
    base = data.get("base", "clasic") if isinstance(data, dict) else "clasic"
    return base if isinstance(base, str) and base in variants.names() else "clasic"


def _rules_of(stored: dict[str, Any]) -> tuple[Ruleset, str]:
    if "house" in stored:
        house = stored["house"]
        return serde.house_rules_from_dict(house), f"{house.get('base', 'clasic')}+"
    name = stored["preset"]
    return variants.get(name), name


def _make_bot(kind: str, seed: int | None, seat: int) -> Bot:
    if kind == "random":
        return RandomBot(None if seed is None else seed * 10 + seat)
    return GreedyBot()


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
            s: _make_bot(k, seed, s) for s, k in enumerate(self.kinds) if k != "human"
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
            "log": self.log,
        }

    def save(self) -> None:
        if self.store is not None:
            self.store.save(self.id, self.document())

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

    def update(self, client: Client) -> dict[str, Any]:
        """What ``client`` has not been sent yet: the whole state of the round (view,
        legal steps, melds, match) and the events and log lines that are new to it."""
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
            view_data = _spectator_view(game)
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
                        "label": step_text(step, view, client.lang),
                        "finishable": flag,
                    }
                )
        result = game.result()
        return {
            "type": "update",
            "fresh": fresh,
            "round": rnd + 1,
            "view": view_data,
            "legal": legal,
            "melds": _melds(game, client.lang),
            "tiles_text": [
                i18n.counted("tiles", len(s.rack), client.lang) for s in game.state.seats
            ],
            "events": new_events,
            "log": new_log,
            "result": None if result is None else serde.dump_result(result),
            "match": {
                "round": rnd + 1,
                "rounds": self.planned_rounds,
                "totals": list(match.totals),
                "over": match.over,
                "winners": list(match.winners) if match.over else [],
            },
            "connected": sorted({c.seat for c in self.clients if c.seat is not None}),
            "failed": self.failed,
        }

    def _log_line(self, line: dict[str, Any], seat: int | None, lang: str) -> dict[str, Any]:
        seen = line["seen"]
        visible = seat in seen if seat is not None else line["public"]
        text = line["text"].get(lang) or line["text"].get("en") if visible else None
        return {"seat": line["seat"], "kind": line["step"]["kind"], "text": text}

    def broadcast(self) -> None:
        """Queue an update for every connection (called with the lock held, so every
        connection gets the updates in the order the steps were made)."""
        for client in list(self.clients):
            client.put(self.update(client))

    # -- steps --------------------------------------------------------------------------------

    def _record(self, step: Step, sender: int, before: PlayerView) -> None:
        """A log line for ``step``: its text in every language, written from the view
        it was made in, and who may read it (the seats that can see every tile it
        names, right after it; ``public`` when all of them can)."""
        game = self.match.game
        data = serde.dump_step(step)
        named = _ids_in(data)
        seen = [s for s in range(self.players) if named <= game.view(s).visible_ids()]
        self.log[len(self.match.games) - 1].append(
            {
                "seat": sender,
                "step": data,
                "text": {lang: step_text(step, before, lang) for lang in i18n.languages()},
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
            self.save()
            self.broadcast()
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
                        "label": step_text(s, view, client.lang) if k == 0 else str(s),
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
            self.save()
            self.broadcast()
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
            finally:  # also when cancelled while a bot thinks: what was done is kept
                if acted:
                    self.save()
                    self.broadcast()
            return acted and not self.failed

    async def stop(self) -> None:
        if self._runner is not None:
            self._runner.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._runner
        for client in list(self.clients):
            client.close()


def _ids_in(step: dict[str, Any]) -> frozenset[int]:
    """The tile ids a step's JSON names (``tile``, ``tiles``, ``joker``)."""
    ids: set[int] = set()
    for key in ("tile", "joker"):
        value = step.get(key)
        if type(value) is int:
            ids.add(value)
    tiles = step.get("tiles")
    if isinstance(tiles, list):
        ids.update(t for t in tiles if type(t) is int)
    return frozenset(ids)


def _spectator_view(game: Game) -> dict[str, Any]:
    """The public part of a view, for a spectator: the current player's view without
    its rack, its turn's rack, its doubles and the tile of its open offer of a double
    (the library has no spectator view)."""
    data = serde.dump_view(game.view(game.state.current), with_rules=False)
    for key in ("rack", "own_turn", "own_exchanged"):
        data.pop(key, None)
    data["offers"] = [{**offer, "tile": None} for offer in data.get("offers", [])]
    data["seat"] = None
    return data


def _melds(game: Game, lang: str) -> list[dict[str, Any]]:
    """The melds on the table as the page shows them: owner, ids, and from the library's
    analysis (:class:`remi_rules.melds.Meld`) the kind, the points and each joker's slot."""
    table = game.state.table
    out: list[dict[str, Any]] = []
    for meld in table.melds:
        analysed = meld.meld
        out.append(
            {
                "owner": meld.owner,
                "ids": list(meld.ids),
                "text": [str(table.tile(i)) for i in meld.ids],
                "kind": analysed.kind.value,
                "points": analysed.points,
                "points_text": i18n.counted("points", analysed.points, lang),
                "jokers": [
                    {
                        "position": slot.position,
                        "id": meld.ids[slot.position],
                        "stands_for": [str(t) for t in slot.candidates],
                    }
                    for slot in analysed.jokers
                ],
            }
        )
    return out


# -- the registry --------------------------------------------------------------------------------


class Registry:
    """Every table of one server, created by the lobby or loaded from the state folder."""

    def __init__(
        self,
        *,
        seed: int | None = None,
        store: Store | None = None,
        bot_delay: float = 0.0,
        max_tables: int = MAX_TABLES,
    ) -> None:
        self.tables: dict[str, Table] = {}
        self.seed = seed
        self.store = store
        self.bot_delay = bot_delay
        self.max_tables = max_tables
        self._created = 0
        if store is not None:
            for doc in store.load_all():
                try:
                    table = self._load(doc)
                except (RemiError, KeyError, TypeError, ValueError) as err:
                    log.error("state folder: table %s not loaded: %s", doc.get("id"), err)
                    continue
                self.tables[table.id] = table
            self._created = len(self.tables)

    def _load(self, doc: dict[str, Any]) -> Table:
        rules, label = _rules_of(doc["rules"])
        rounds = len(doc["match"]["rounds"])
        seed = doc["seed"]
        match = serde.load_match(doc["match"], seed=None if seed is None else f"{seed}:{rounds}")
        if match.rules != rules:
            raise ValueError("the match's rules differ from the table's")
        kinds = [str(k) for k in doc["seats"]]
        if len(kinds) != match.players or any(k not in SEAT_KINDS for k in kinds):
            raise ValueError("bad seats")
        return Table(
            str(doc["id"]),
            match=match,
            kinds=kinds,
            tokens=doc["tokens"],
            label=doc.get("label", label),
            stored_rules=doc["rules"],
            seed=seed,
            log=doc.get("log"),
            bot_delay=self.bot_delay,
            store=self.store,
        )

    def create(
        self, spec: TableSpec, *, table_id: str | None = None, match: Match | None = None
    ) -> Table:
        """A new table for ``spec`` (``match``: one built by the caller, for tests);
        the library refuses a bad ruleset with its own error."""
        if len(self.tables) >= self.max_tables:
            raise WebRefusal("too_many_tables", n=self.max_tables)
        rules, label, stored = spec.ruleset()
        n = len(spec.seats)
        seed = None if self.seed is None else self.seed + self._created
        if match is None:
            config = MatchConfig(rounds=spec.rounds, automation=AUTOMATION)
            match = Match(rules, n, config, seed=seed)
        self._created += 1
        tokens = [secrets.token_urlsafe(18) if k == "human" else None for k in spec.seats]
        table = Table(
            table_id or secrets.token_urlsafe(9),
            match=match,
            kinds=spec.seats,
            tokens=tokens,
            label=label,
            stored_rules=stored,
            seed=seed,
            bot_delay=self.bot_delay,
            store=self.store,
        )
        self.tables[table.id] = table
        table.react()  # an announcement a bot makes before anyone plays
        table.save()
        return table

    def get(self, table_id: str) -> Table | None:
        return self.tables.get(table_id)

    def start(self) -> None:
        """Wake every table's bots (after a restart, a bot may be to move)."""
        for table in self.tables.values():
            table.kick()

    async def stop(self) -> None:
        for table in self.tables.values():
            await table.stop()
