"""Every table of one server: created by the lobby from a :class:`~remi_rules.web.specs.TableSpec`
or loaded from the state folder (``--state-dir``)."""

from __future__ import annotations

import logging
import secrets
from typing import Any

from .. import serde
from ..engine import Match, MatchConfig
from ..errors import RemiError
from .specs import AUTOMATION, MAX_TABLES, SEAT_KINDS, TableSpec, WebRefusal, rules_of
from .store import Store
from .tables import Table

__all__ = ["Registry"]

log = logging.getLogger("remi_rules.web")


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
        rules, label = rules_of(doc["rules"])
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
