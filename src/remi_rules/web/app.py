"""The reference web table's ASGI application (Starlette): the page, the lobby's API,
the catalogues as JSON and one WebSocket per seat or spectator.

Needs the optional extra ``web`` (``pip install 'remi-rules[web]'``); nothing here is
imported by ``import remi_rules``.  :func:`create_app` builds the application;
``remi-rules serve`` runs it with uvicorn.

Routes:

``GET /`` and ``GET /t/{table}``
    the page (static HTML, CSS and JavaScript shipped with the package);
``GET /api/config``
    the presets, the seat kinds, the languages and the limits;
``GET /api/i18n/{lang}``
    the page's strings in ``lang``: every ``web:`` entry of the gettext catalogues;
``GET /api/tables`` / ``POST /api/tables``
    the tables (no token, no tile) / a new one: ``{"seats": ["human", "greedy", …],
    "variant": "clasic"}`` or ``"house_rules": TEXT`` (JSON or TOML), ``"rounds"``;
    the answer holds each human seat's link with its token;
``WS /ws/{table}?token=…&lang=…``
    the table's messages (:mod:`remi_rules.web.protocol`); without a token, a spectator.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
from collections.abc import AsyncIterator
from importlib import resources
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from .. import _i18n as i18n
from .. import serde, variants
from ..errors import RemiError
from . import protocol
from .registry import Registry
from .specs import BOT_KINDS, SEAT_KINDS, TableSpec, WebRefusal
from .tables import Client

__all__ = ["GC_THRESHOLD_OLDEST", "STATIC_DIR", "create_app", "page_strings", "tune_gc"]

log = logging.getLogger("remi_rules.web")

STATIC_DIR = resources.files("remi_rules.web") / "static"
"""The page's files (package data)."""

MAX_BODY_BYTES = serde.MAX_MESSAGE_BYTES * 2
"""The largest request body the lobby's API reads (a house-rules text and the seats)."""


GC_THRESHOLD_OLDEST = 1000
"""The collections of the middle generation between two full ones in a serving process
(Python's default: 10); see :func:`tune_gc`."""


def tune_gc() -> None:
    """Keep the garbage collector's full collections out of a serving process's steps
    (``remi-rules serve`` calls it once, just before serving): what is loaded by then
    (the modules, the tables of the state folder) is frozen out of every later
    collection (:func:`gc.freeze`), and a full collection waits for
    :data:`GC_THRESHOLD_OLDEST` collections of the middle generation instead of 10.
    A full collection stops every table, longer as the heap grows (82 ms at 50 tables
    6,000 steps into ``benchmarks/bench_web_gc.py``) and came every 430 steps; with
    this, none in those 6,000 steps, and no pause over 3 ms."""
    gc.collect()
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, GC_THRESHOLD_OLDEST)


def page_strings(lang: str) -> dict[str, str]:
    """Every ``web:`` entry of the catalogues in ``lang`` (English where ``lang``'s own
    catalogue lacks one), keyed without the ``web:`` prefix: the page's strings."""
    lang = i18n.language(lang)
    return {
        key.removeprefix("web:"): i18n.template(key, lang)
        for key in sorted(i18n.contexts())
        if key.startswith("web:")
    }


def _same_origin(origin: str | None, host: str | None, allowed: frozenset[str]) -> bool:
    """No Origin (not a browser), the page's own host, or an allowed origin."""
    if origin is None:
        return True
    if origin in allowed:
        return True
    try:
        netloc = urlsplit(origin).netloc
    except ValueError:
        return False
    return bool(host) and netloc == host


def create_app(
    registry: Registry | None = None,
    *,
    lang: str = "en",
    variant: str = "clasic",
    bots: str = "greedy",
    allowed_origins: frozenset[str] = frozenset(),
    house_rules: str | None = None,
) -> Starlette:
    """The web table's application.  ``registry`` holds the tables (default: a new one,
    in memory); ``lang``, ``variant`` and ``bots`` are the lobby's defaults;
    ``allowed_origins`` lists the origins, other than the page's own, whose pages may
    open a WebSocket or create a table; ``house_rules`` (a house-rules file's text) is
    the lobby's default ruleset instead of ``variant``."""
    reg = registry if registry is not None else Registry()
    lang = i18n.language(lang)
    if variant not in variants.names():
        variants.get(variant)  # the library's UnknownVariantError
    if bots not in BOT_KINDS:
        raise ValueError(f"unknown bot kind {bots!r}; use one of {BOT_KINDS}")
    page = STATIC_DIR / "index.html"

    async def index(request: Request) -> Response:
        return FileResponse(str(page), media_type="text/html; charset=utf-8")

    async def config(request: Request) -> Response:
        return JSONResponse(
            {
                "langs": list(i18n.languages()),
                "lang": lang,
                "variants": list(variants.names()),
                "variant": variant,
                "house_rules": house_rules,
                "seat_kinds": list(SEAT_KINDS),
                "bots": bots,
                "max_message_bytes": protocol.MAX_FRAME_BYTES,
                "max_messages_per_second": protocol.MAX_MESSAGES_PER_SECOND,
            }
        )

    async def strings(request: Request) -> Response:
        wanted = request.path_params["lang"]
        if wanted not in i18n.languages():
            return JSONResponse({"error": "unknown language"}, status_code=404)
        return JSONResponse(page_strings(wanted))

    async def tables(request: Request) -> Response:
        if request.method == "GET":
            return JSONResponse([t.summary() for t in reg.tables.values()])
        if not _same_origin(
            request.headers.get("origin"), request.headers.get("host"), allowed_origins
        ):
            return JSONResponse(_refusal("bad_origin", lang), status_code=403)
        ask = request.query_params.get("lang", lang)
        ask = ask if ask in i18n.languages() else lang
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_BODY_BYTES:
                return JSONResponse(_refusal("too_large", ask), status_code=413)
        try:
            data = json.loads(body or b"null")
        except ValueError:
            return JSONResponse(_refusal("bad_json", ask), status_code=400)
        try:
            table = reg.create(TableSpec.from_json(data))
        except WebRefusal as refusal:
            return JSONResponse({"error": refusal.dump(ask)}, status_code=400)
        except RemiError as err:
            return JSONResponse({"error": serde.dump_error(err, ask)}, status_code=400)
        table.kick()
        links = [
            {"seat": s, "kind": k, "url": f"/t/{table.id}?seat={s}&token={tok}"}
            for s, (k, tok) in enumerate(zip(table.kinds, table.tokens, strict=True))
            if tok is not None
        ]
        return JSONResponse(
            {"id": table.id, "links": links, "watch": f"/t/{table.id}"}, status_code=201
        )

    async def socket(websocket: WebSocket) -> None:
        await _serve_socket(websocket, reg, lang, allowed_origins)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        reg.start()
        try:
            yield
        finally:
            await reg.stop()

    app = Starlette(
        routes=[
            Route("/", index),
            Route("/t/{table}", index),
            Route("/api/config", config),
            Route("/api/i18n/{lang}", strings),
            Route("/api/tables", tables, methods=["GET", "POST"]),
            WebSocketRoute("/ws/{table}", socket),
            Mount("/static", StaticFiles(directory=str(STATIC_DIR)), name="static"),
        ],
        lifespan=lifespan,
    )
    app.state.registry = reg
    return app


def _refusal(code: str, lang: str, **details: object) -> dict[str, Any]:
    return {"error": WebRefusal(code, **details).dump(lang)}


async def _serve_socket(
    websocket: WebSocket, reg: Registry, default_lang: str, allowed: frozenset[str]
) -> None:
    await websocket.accept()
    if not _same_origin(websocket.headers.get("origin"), websocket.headers.get("host"), allowed):
        await websocket.close(protocol.CLOSE_POLICY, "origin not allowed")
        return
    table = reg.get(websocket.path_params["table"])
    if table is None:
        await websocket.close(protocol.CLOSE_POLICY, "no such table")
        return
    token = websocket.query_params.get("token")
    seat = table.seat_of(token)
    if token and seat is None:
        await websocket.close(protocol.CLOSE_POLICY, "unknown token")
        return
    lang = websocket.query_params.get("lang", default_lang)
    client = Client(seat, lang if lang in i18n.languages() else default_lang)
    async with table.lock:
        table.clients.add(client)
        client.put(table.welcome(client))
        table.broadcast()  # the newcomer's whole state, and the others' "connected"
    writer = _start_writer(websocket, client)
    limit = protocol.RateLimit()
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            if text is None:
                raw = message.get("bytes") or b""
                if len(raw) > protocol.MAX_FRAME_BYTES:
                    await websocket.close(protocol.CLOSE_TOO_BIG, "message too big")
                    break
                client.put(_refusal("binary", client.lang))
                continue
            if len(text) > protocol.MAX_FRAME_BYTES or (
                len(text.encode("utf-8", "surrogatepass")) > protocol.MAX_FRAME_BYTES
            ):
                await websocket.close(protocol.CLOSE_TOO_BIG, "message too big")
                break
            if not limit.hit():
                await websocket.close(protocol.CLOSE_POLICY, "too many messages")
                break
            try:
                await protocol.handle(table, client, text)
            except WebRefusal as refusal:
                client.put({"type": "refused", "error": refusal.dump(client.lang)})
    except WebSocketDisconnect:
        pass
    finally:
        client.close()
        writer.cancel()
        with contextlib.suppress(BaseException):
            await writer
        async with table.lock:
            table.clients.discard(client)
            table.broadcast()


def _start_writer(websocket: WebSocket, client: Client) -> asyncio.Task[None]:
    """The connection's writer: sends the client's queued messages in order; closes
    the connection (1008) when the client fell :data:`~remi_rules.web.tables.MAX_QUEUE`
    messages behind."""

    async def write() -> None:
        try:
            while True:
                message = await client.queue.get()
                if message is None:
                    break
                await websocket.send_text(
                    json.dumps(message, ensure_ascii=False, separators=(",", ":"))
                )
        except Exception:  # the socket went away: the reader sees it too
            client.closed = True
            return
        if client.overflow:
            with contextlib.suppress(Exception):
                await websocket.close(protocol.CLOSE_POLICY, "too far behind")

    return asyncio.get_running_loop().create_task(write())
