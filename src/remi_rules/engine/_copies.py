"""Copies of a rack's tiles (see :mod:`remi_rules.engine.legal`, "Copies"): what tells
two tiles of one rack apart (:func:`tile_key`), the copy classes of a rack
(:class:`Classes`) and the physical ids a meld's tile values get, once per choice of
copy classes (:func:`assignments`)."""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Iterator, Sequence
from typing import Final

from ..ruleset import Ruleset
from ..tiles import JOKER_IDS, Tile, tile_of
from .state import GameState
from .steps import MeldTiles

__all__ = ["TILE_OF_ID", "Classes", "assignments", "classes_of", "tile_key"]

TILE_OF_ID: Final = tuple(tile_of(i) for i in range(104))
"""The value of each numbered tile id (a joker's value is the table's: its history)."""


def tile_key(state: GameState, seat: int, tile_id: int) -> tuple[Hashable, ...]:
    """:func:`~remi_rules.engine.legal.copy_key` without its argument checks."""
    table = state.table
    value = table.tile(tile_id)
    history = table.joker(tile_id) if tile_id in JOKER_IDS else None
    twin = tile_id == state.atu ^ 1
    turn = state.pending
    picked = rupere_tile = swapped = False
    if turn is not None and turn.seat == seat:
        ob = turn.obligation
        if ob is not None:
            picked = tile_id == ob.picked
            rupere_tile = state.rules.take_meld_tiles_must_predate_take and tile_id in ob.also_taken
        swapped = tile_id in turn.swapped_jokers
    return (value, history, picked, swapped, twin, rupere_tile)


def _owed(key: tuple[Hashable, ...]) -> bool:
    return bool(key[2] or key[3] or key[4])


class Classes:
    """The copy classes of one rack: for each value, its classes (owed ones first,
    then in rack order), each a list of ids in rack order."""

    def __init__(self, state: GameState, seat: int) -> None:
        of: dict[int, list[int]] = {}
        by_key: dict[Hashable, list[int]] = {}
        # The tiles with a part in the turn (and the jokers, whose history counts) get
        # their whole key (tile_key); any other tile is told apart by its value alone,
        # keyed by ``id >> 1`` (ids 2k and 2k + 1 are the two copies of one value).
        twin = state.atu ^ 1
        special = {twin, 104, 105}
        picked = -1
        rupere: set[int] = set()
        swapped: set[int] = set()
        turn = state.pending
        if turn is not None and turn.seat == seat:
            ob = turn.obligation
            if ob is not None:
                picked = ob.picked
                if state.rules.take_meld_tiles_must_predate_take:
                    rupere = set(ob.also_taken)
            swapped = set(turn.swapped_jokers)
        special.add(picked)
        special |= rupere | swapped
        table = state.table
        owed: list[Hashable] = []
        values: dict[Hashable, Tile] = {}
        tiles = TILE_OF_ID
        for i in state.seats[seat].rack:
            key: Hashable
            if i in special:
                # tile_key's tuple, made here with sets (a rupere brings many tiles)
                joker = i in JOKER_IDS
                value = table.tile(i) if joker else tiles[i]
                full = (
                    value,
                    table.joker(i) if joker else None,
                    i == picked,
                    i in swapped,
                    i == twin,
                    i in rupere,
                )
                key = full
                ids = by_key.get(key)
                if ids is None:
                    ids = by_key[key] = []
                    values[key] = value
                    if _owed(full):
                        owed.append(key)
            else:
                key = i >> 1
                ids = by_key.get(key)
                if ids is None:
                    of[i] = by_key[key] = [i]
                    values[key] = tiles[i]
                    continue
            ids.append(i)
            of[i] = ids
        self.of = of
        by_value: dict[Tile, list[list[int]]] = {}
        first: list[tuple[int, Tile]] = []
        for key in owed:
            ids, value = by_key[key], values[key]
            by_value.setdefault(value, []).append(ids)
            first.append((ids[0], value))
        rest: list[tuple[int, Tile]] = []
        for key, ids in by_key.items():
            if owed and key in owed:
                continue
            value = values[key]
            group = by_value.get(value)
            if group is None:
                by_value[value] = [ids]
            else:
                group.append(ids)
            rest.append((ids[0], value))
        self.by_value = by_value
        self.single = {t: group[0] for t, group in by_value.items() if len(group) == 1}
        """The copies of each value that has a single class."""
        self.representatives = [ids[0] for ids in by_key.values()]
        """The first copy of each class, the classes in rack order of their first copy."""
        self.placing: tuple[tuple[int, Tile], ...] = (*first, *rest)
        """:attr:`representatives`, the owed classes first (the CLI's preference), each
        with its value."""
        self.melds: dict[tuple[int, int], tuple[Ruleset, tuple[MeldTiles, ...]]] = {}
        """The rack's new melds per ``(id(rules), the most tiles a meld may take)``
        (:func:`~remi_rules.engine._placing.meld_candidates`), made once."""

    def canonical(self, ids: Sequence[int]) -> tuple[int, ...]:
        """``ids`` with each class's copies replaced by its first ones, in order."""
        used: dict[int, int] = {}
        out: list[int] = []
        for i in ids:
            cls = self.of.get(i)
            if cls is None:
                out.append(i)
                continue
            k = used.get(id(cls), 0)
            used[id(cls)] = k + 1
            out.append(cls[k] if k < len(cls) else i)
        return tuple(out)


_CLASSES: dict[Hashable, Classes] = {}
"""The copy classes of the racks met lately, keyed by what :class:`Classes` reads (the
rack, the atu, the pending turn's picked, rupere and swapped tiles, the jokers'
histories where the rack holds one): an undo, a step another seat makes, or the
finishable search come back to the same rack."""


def classes_of(state: GameState, seat: int) -> Classes:
    """``Classes(state, seat)``, made once per rack and turn facts (:data:`_CLASSES`)."""
    rack = state.seats[seat].rack
    turn = state.pending
    picked = -1
    rupere: tuple[int, ...] = ()
    swapped: tuple[int, ...] = ()
    if turn is not None and turn.seat == seat:
        ob = turn.obligation
        if ob is not None:
            picked = ob.picked
            if state.rules.take_meld_tiles_must_predate_take:
                rupere = ob.also_taken
        swapped = turn.swapped_jokers
    jokers = state.table.jokers if 104 in rack or 105 in rack else None
    key = (rack, state.atu, picked, rupere, swapped, jokers)
    hit = _CLASSES.get(key)
    if hit is None:
        if len(_CLASSES) >= 512:
            _CLASSES.clear()
        hit = _CLASSES[key] = Classes(state, seat)
    return hit


def assignments(layout: tuple[Tile, ...], classes: Classes) -> Iterator[tuple[int, ...]]:
    """Physical ids for the tile values of ``layout``, once per choice of copy classes
    (owed classes first); a class's copies go to its slots in rack order."""
    single = classes.single
    out: list[int] = []
    for t in layout:  # the common case first: one class per value
        ids = single.get(t)
        if ids is None:
            break
        for i in ids:
            if i not in out:
                out.append(i)
                break
        else:
            return  # fewer copies than the layout needs
    else:
        yield tuple(out)
        return
    choices = [classes.by_value[t] for t in layout]
    for pick in itertools.product(*choices):
        counts: dict[int, int] = {}
        out = []
        for ids in pick:
            k = counts.get(id(ids), 0)
            if k == len(ids):
                break
            counts[id(ids)] = k + 1
            out.append(ids[k])
        else:
            yield tuple(out)
