"""The reference web table: play Remi in a browser, on the library's protocol
(docs/web.md).

``remi-rules serve`` runs it.  The server never implements a rule: it routes JSON
messages through :func:`remi_rules.serde.load_step`, ``game.apply(step, seat=…)``,
``game.legal_steps(seat)`` and the per-seat projections, and sends events, views,
results and refusals as the protocol's JSON (docs/protocol.md).

* :mod:`remi_rules.web.specs` — what a table is made of (the lobby's request, the seat
  kinds) and the refusals no game sees;
* :mod:`remi_rules.web.tables` — the tables, one lock each, their seats, bots and
  connections (no third-party import);
* :mod:`remi_rules.web.registry` — every table of one server, created or loaded;
* :mod:`remi_rules.web.present` — presentation beside the protocol's messages (the
  finishable flags, the tiles, the melds' analysis, a spectator's view);
* :mod:`remi_rules.web.protocol` — the messages a page sends, read as untrusted;
* :mod:`remi_rules.web.store` — the state folder, one file per table, written atomically;
* :mod:`remi_rules.web.app` — the Starlette application (the optional extra ``web``).
"""
