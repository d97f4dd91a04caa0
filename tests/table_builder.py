"""A test helper: a :class:`~remi_rules.table.Table` built from tile notation, each
token taking the next free physical id (shared by the lay-off and joker tests)."""

from __future__ import annotations

from typing import Any

from remi_rules import Ruleset, Tile, ids_of
from remi_rules.lipire import lay_off
from remi_rules.table import Table

FULL: dict[str, Any] = {"opened": True, "opened_this_turn": False}
"""A player with full rights: opened in an earlier turn."""


class TableBuilder:
    """A table built from notation; each token takes the next free physical id."""

    def __init__(self, rules: Ruleset) -> None:
        self.rules = rules
        self.table = Table()
        self.used: set[int] = set()

    def id(self, text: str) -> int:
        for i in ids_of(Tile.parse(text)):
            if i not in self.used:
                self.used.add(i)
                return i
        raise AssertionError(f"no copy of {text} left")

    def free_id(self, text: str) -> int:
        """A physical id of ``text`` not used yet, without taking it."""
        return next(i for i in ids_of(Tile.parse(text)) if i not in self.used)

    def meld(self, owner: int, text: str) -> int:
        ids = [self.id(t) for t in text.split()]
        self.table, index = self.table.add_meld(owner, ids, self.rules)
        return index

    def lay(self, index: int, text: str, seat: int, **kw: Any) -> int:
        tile_id = self.id(text)
        self.table = lay_off(self.table, index, tile_id, seat, self.rules, **{**FULL, **kw})
        return tile_id

    def text(self, index: int) -> str:
        return str(self.table.melds[index].meld)
