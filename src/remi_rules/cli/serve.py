"""``remi-rules serve``: the reference web table (docs/web.md), on uvicorn.

Needs the optional extra ``web`` (``pip install 'remi-rules[web]'``); without it the
command exits 2 with one line saying what to install.  ``--variant`` / ``--rules`` and
``--bots`` are the lobby's defaults for a new table, ``--lang`` the page's first
language, ``--seed`` makes every table's deals reproducible (the n-th table created is
dealt from ``seed + n``), ``--state-dir`` keeps every table in a folder so that it
survives a restart.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, TextIO

from .. import serde
from .common import OK, CliError, add_lang, add_rules, read_text
from .texts import tr

if TYPE_CHECKING:
    from .common import Subparsers

__all__ = ["add_parser", "run"]

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8045


def add_parser(sub: Subparsers) -> argparse.ArgumentParser:
    parser = sub.add_parser(
        "serve",
        help="play in a browser: the reference web table (needs remi-rules[web])",
        description="Serve the reference web table: a lobby, tables with people and bots, "
        "in Romanian or English.  Prints the address, then serves until stopped.",
    )
    parser.add_argument("--host", default=DEFAULT_HOST, help=f"default: {DEFAULT_HOST}")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"default: {DEFAULT_PORT}")
    add_rules(parser)
    parser.add_argument(
        "--bots",
        choices=("greedy", "random"),
        default="greedy",
        help="the lobby's default bot for a seat (default: greedy)",
    )
    add_lang(parser)
    parser.add_argument("--seed", type=int, help="reproducible deals: table n uses seed + n")
    parser.add_argument(
        "--state-dir", metavar="DIR", help="keep the tables in DIR, so they survive a restart"
    )
    parser.add_argument(
        "--bot-delay",
        type=float,
        default=0.6,
        metavar="SECONDS",
        help="the pause after each bot step, so people can follow (default: 0.6)",
    )
    return parser


_WEB_PACKAGES = frozenset({"uvicorn", "starlette", "websockets", "anyio", "h11", "httptools"})
"""What the ``web`` extra installs: without one of them, ``serve`` says what to install."""


def run(args: argparse.Namespace, out: TextIO) -> int:
    try:
        import uvicorn

        from ..web.app import create_app, tune_gc
        from ..web.protocol import MAX_FRAME_BYTES
        from ..web.registry import Registry
        from ..web.store import Store
    except ModuleNotFoundError as err:  # the extra's packages only: never hide our own bug
        if (err.name or "").partition(".")[0] not in _WEB_PACKAGES:
            raise
        raise CliError("web_missing") from None
    house: str | None = None
    if args.rules:
        house = read_text(args.rules)
        serde.loads_house_rules(house, "toml" if args.rules.endswith(".toml") else "json")
    if not 0 <= args.port <= 65535:
        raise CliError("bad_port", port=args.port)
    if args.bot_delay < 0 or args.bot_delay > 60:
        raise CliError("bad_bot_delay", value=args.bot_delay)
    store = Store(args.state_dir) if args.state_dir else None
    registry = Registry(seed=args.seed, store=store, bot_delay=args.bot_delay)
    app = create_app(
        registry, lang=args.lang, variant=args.variant, bots=args.bots, house_rules=house
    )
    config = uvicorn.Config(
        app,
        host=args.host,
        port=args.port,
        log_level="warning",
        ws_max_size=MAX_FRAME_BYTES * 4,
        lifespan="on",
    )
    server = uvicorn.Server(config)
    host = f"[{args.host}]" if ":" in args.host else args.host
    out.write(tr(args.lang, "serving", url=f"http://{host}:{args.port}/") + "\n")
    out.flush()
    tune_gc()
    server.run()
    return OK
