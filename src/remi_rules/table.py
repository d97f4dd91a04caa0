"""The table: the melds that lie on it, their owners, the physical tiles in them, the
jokers' histories and who is credited with each tile (MELD-07, LIPI-04, JOLY-02,
JOLY-05, VALUE-05).

Everything here is an immutable value; every change returns a new value.  The rule
checks (may this tile be laid there, may this joker be taken) live in
:mod:`remi_rules.lipire` and :mod:`remi_rules.joly`; this module keeps the
bookkeeping exact.

* A :class:`TableMeld` holds the physical tile ids in table order, their values, the
  :class:`~remi_rules.Meld` they form, the seat that owns the meld, and for every
  position the seat *credited* with that tile's end value: the owner for the tiles he
  melded, the layer for a tile laid off (LIPI-04), and for the tile laid in a swapped
  joker's place the owner or the swapper (``swap_replacement_credited_to``, VALUE-05).
* :class:`JokerHistory` is the history of one physical joker (ids 104 and 105): how
  often it was taken off the table, and in ``online`` the tile it is fixed as (JOLY-05).
  It travels with the joker everywhere (table, rack, discard row).
* :class:`Table` is the melds in the order they were laid, plus both jokers'
  histories.  :meth:`Table.ledger` lists every lay-off (which seat laid which tile
  onto whose meld).

>>> from remi_rules import variants
>>> from remi_rules.table import Table
>>> clasic = variants.get("clasic")
>>> table, a = Table().add_meld(0, (40, 48, 56), clasic)      # seat 0 melds 6R 7R 8R
>>> table = table.extend(a, 64, 1, clasic)                    # seat 1 lays 9R off (high end)
>>> str(table.melds[a].meld), table.melds[a].credited
('6R 7R 8R 9R', (0, 0, 0, 1))
>>> [(e.layer, e.credited, e.owner, str(e.tile)) for e in table.ledger()]
[(1, 1, 0, '9R')]
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence

import attrs

from ._fields import SEAT, SEATS, SWAPS, TILE_ID, TILES, items
from .melds import Meld, MeldKind, analyze_meld
from .ruleset import Ruleset
from .tiles import JOKER_IDS, Tile, tile_of
from .values import meld_end_values, replacement_value_end

__all__ = [
    "JokerHistory",
    "JokerState",
    "LedgerEntry",
    "Table",
    "TableMeld",
    "tile_value_of",
]


class JokerState(enum.StrEnum):
    """What a physical joker is now (JOLY-02, JOLY-05)."""

    FRESH = "fresh"
    """Never taken off the table: wild, and swappable."""
    REUSED = "reused"
    """Taken off the table ``joker_swap_limit`` times (clasic, rummy45): wild, never
    swappable again."""
    FIXED = "fixed"
    """A *joker întors* (``online``): it is the tile it stood for when taken."""


@attrs.frozen
class JokerHistory:
    """The history of one physical joker.  ``swaps`` counts how often it was taken off
    the table (JOLY-02); ``fixed_as`` is the tile it permanently is, in ``online``
    (``swapped_joker_mode = fixed_identity``, JOLY-05)."""

    swaps: int = attrs.field(default=0, metadata=SWAPS)
    fixed_as: Tile | None = None

    def state(self, rules: Ruleset) -> JokerState:
        if self.fixed_as is not None:
            return JokerState.FIXED
        if self.swaps >= rules.joker_swap_limit:
            return JokerState.REUSED
        return JokerState.FRESH

    @property
    def tile(self) -> Tile:
        """The tile value this joker is: ``J``, or ``J(=8R)`` when fixed."""
        return Tile(fixed_as=self.fixed_as) if self.fixed_as is not None else tile_of(104)


def tile_value_of(tile_id: int, jokers: Sequence[JokerHistory]) -> Tile:
    """The tile value of physical tile ``tile_id``, with a joker's fixed identity
    taken from ``jokers`` (the histories of ids 104 and 105)."""
    if tile_id in JOKER_IDS:
        return jokers[tile_id - JOKER_IDS[0]].tile
    return tile_of(tile_id)


@attrs.frozen
class TableMeld:
    """One meld on the table (MELD-07).

    ``ids`` are the physical tiles in table order (a run ascending; a set in the
    canonical order of :attr:`Meld.tiles`); ``meld`` is their analysis; ``owner`` the
    seat that melded it; ``credited[i]`` the seat credited with position ``i`` at the
    end and ``placed_by[i]`` the seat that put it there; ``replacements`` the ids of
    tiles laid in place of a swapped joker (VALUE-05).
    """

    owner: int = attrs.field(metadata=SEAT)
    ids: tuple[int, ...] = attrs.field(
        metadata={
            **TILES,
            "doc": "the tiles in table order (a run ascending, a set in canonical order)",
        }
    )
    meld: Meld = attrs.field(metadata={"saved": False})
    credited: tuple[int, ...] = attrs.field(
        metadata={**SEATS, "doc": "the seat credited with each position at the end"}
    )
    placed_by: tuple[int, ...] = attrs.field(
        metadata={**SEATS, "doc": "the seat that put each position there"}
    )
    replacements: frozenset[int] = attrs.field(
        default=frozenset(),
        metadata=items(
            TILE_ID,
            most=106,
            ascending=True,
            doc="the tiles laid in place of a swapped joker (VALUE-05)",
        ),
    )

    @property
    def tiles(self) -> tuple[Tile, ...]:
        return self.meld.tiles

    @property
    def kind(self) -> MeldKind:
        return self.meld.kind

    def position_of(self, tile_id: int) -> int:
        """The position of physical tile ``tile_id`` in this meld."""
        return self.ids.index(tile_id)

    def joker_positions(self) -> tuple[int, ...]:
        return tuple(i for i, t in enumerate(self.ids) if t in JOKER_IDS)

    @property
    def real_count(self) -> int:
        """How many real (non-joker) tiles the meld holds."""
        return sum(1 for t in self.ids if t not in JOKER_IDS)


@attrs.frozen
class LedgerEntry:
    """One lay-off (LIPI-04): ``layer`` laid physical tile ``tile_id`` (value ``tile``)
    onto meld ``meld_index``, owned by ``owner``, and ``credited`` receives its end
    value; ``replacement`` marks a tile laid in a swapped joker's place (JOLY-01,
    VALUE-05)."""

    layer: int
    credited: int
    owner: int
    meld_index: int
    tile_id: int
    tile: Tile
    replacement: bool = False


def _arrange(ids: Sequence[int], tiles: Sequence[Tile], meld: Meld) -> tuple[int, ...]:
    """``ids`` reordered to follow ``meld.tiles`` (sets are stored canonically)."""
    if meld.kind is MeldKind.SUITA:
        return tuple(ids)
    pool = list(zip(tiles, ids, strict=True))
    out: list[int] = []
    for want in meld.tiles:
        for k, (tile, tile_id) in enumerate(pool):
            if tile == want:
                out.append(tile_id)
                del pool[k]
                break
    return tuple(out)


def _check_seat(seat: object, what: str) -> int:
    if type(seat) is not int:
        raise TypeError(f"{what} must be an int seat number, not {type(seat).__name__}")
    if seat < 0:
        raise ValueError(f"{what} must be a seat number (0, 1, ...), not {seat}")
    return seat


def _check_ids(ids: Iterable[int]) -> tuple[int, ...]:
    out = tuple(ids)
    for tile_id in out:
        tile_of(tile_id)  # TypeError / InvalidTileError for a bad id
    if len(set(out)) != len(out):
        raise ValueError(f"a physical tile appears twice: {out}")
    return out


@attrs.frozen
class Table:
    """The melds on the table, in the order they were laid, and the histories of the
    two physical jokers (index 0 for id 104, 1 for id 105)."""

    melds: tuple[TableMeld, ...] = attrs.field(default=(), metadata=items(most=106))
    jokers: tuple[JokerHistory, JokerHistory] = attrs.field(
        default=(JokerHistory(), JokerHistory()), metadata=items(least=2, most=2)
    )

    # -- queries -----------------------------------------------------------------------------

    def tile(self, tile_id: int) -> Tile:
        """The value of physical tile ``tile_id``, a joker's fixed identity included."""
        return tile_value_of(tile_id, self.jokers)

    def joker(self, tile_id: int) -> JokerHistory:
        """The history of physical joker ``tile_id`` (104 or 105)."""
        if tile_id not in JOKER_IDS:
            raise ValueError(f"tile {tile_id} is not a joker")
        return self.jokers[tile_id - JOKER_IDS[0]]

    def ids(self) -> frozenset[int]:
        """Every physical tile on the table."""
        return frozenset(t for m in self.melds for t in m.ids)

    def holds(self, tile_id: int) -> bool:
        """Physical tile ``tile_id`` lies in one of the melds."""
        return any(tile_id in m.ids for m in self.melds)

    def end_values(self, meld: TableMeld, rules: Ruleset) -> tuple[int, ...]:
        """The end value of each position of ``meld`` (on this table) for the seat
        credited with it: VALUE-02/03, a reused joker per VALUE-05 (a joker whose
        history shows a swap), and a tile laid in a swapped joker's place counted for
        the owner per ``swap_replacement_value_for_owner`` (for a swapper credited
        with it, its face value).  Lay-off credit (LIPI-04) and scoring both use it."""
        reused = [i for i, t in enumerate(meld.ids) if t in JOKER_IDS and self.joker(t).swaps]
        values = list(meld_end_values(meld.meld, rules, reused=reused))
        for i, tile_id in enumerate(meld.ids):
            if tile_id in meld.replacements and meld.credited[i] == meld.owner:
                values[i] = replacement_value_end(meld.meld, i, rules)
        return tuple(values)

    def melds_of(self, seat: int) -> tuple[int, ...]:
        """The indexes of the melds ``seat`` owns."""
        return tuple(i for i, m in enumerate(self.melds) if m.owner == seat)

    def ledger(self) -> tuple[LedgerEntry, ...]:
        """Every tile laid onto a meld by a seat other than its owner, or in a swapped
        joker's place (LIPI-04, VALUE-05), meld by meld in table order."""
        out: list[LedgerEntry] = []
        for index, meld in enumerate(self.melds):
            for tile_id, seat, layer in zip(meld.ids, meld.credited, meld.placed_by, strict=True):
                replacement = tile_id in meld.replacements
                if layer != meld.owner or replacement:
                    out.append(
                        LedgerEntry(
                            layer=layer,
                            credited=seat,
                            owner=meld.owner,
                            meld_index=index,
                            tile_id=tile_id,
                            tile=self.tile(tile_id),
                            replacement=replacement,
                        )
                    )
        return tuple(out)

    # -- changes (each returns a new Table) ------------------------------------------------

    def add_meld(self, owner: int, ids: Iterable[int], rules: Ruleset) -> tuple[Table, int]:
        """Put a new meld of physical tiles ``ids`` (in laid order) in front of
        ``owner``; returns the new table and the meld's index.  Raises
        :class:`~remi_rules.InvalidMeldError` if the tiles are not a valid meld and
        :class:`ValueError` if a tile is already on the table."""
        _check_seat(owner, "owner")
        ids = _check_ids(ids)
        if any(self.holds(t) for t in ids):
            raise ValueError(f"a tile of {ids} is already on the table")
        tiles = [self.tile(t) for t in ids]
        meld = analyze_meld(tiles, rules)
        table_meld = TableMeld(
            owner=owner,
            ids=_arrange(ids, tiles, meld),
            meld=meld,
            credited=(owner,) * len(ids),
            placed_by=(owner,) * len(ids),
        )
        return attrs.evolve(self, melds=(*self.melds, table_meld)), len(self.melds)

    def extend(
        self, index: int, tile_id: int, layer: int, rules: Ruleset, *, low_end: bool = False
    ) -> Table:
        """Lay physical tile ``tile_id`` onto meld ``index`` (at the high end of a run,
        or its low end with ``low_end=True``; anywhere in a set), credited to
        ``layer`` (LIPI-02, LIPI-04).  Only the bookkeeping and the meld's validity
        are checked here; who may lay what is :mod:`remi_rules.lipire`'s business."""
        _check_seat(layer, "layer")
        (tile_id,) = _check_ids((tile_id,))
        if self.holds(tile_id):
            raise ValueError(f"tile {tile_id} is already on the table")
        old = self._meld(index)
        ids = (tile_id, *old.ids) if low_end else (*old.ids, tile_id)
        credited = (layer, *old.credited) if low_end else (*old.credited, layer)
        placed = (layer, *old.placed_by) if low_end else (*old.placed_by, layer)
        return self._replace(index, self._rebuilt(old, ids, credited, placed, rules))

    def swap_joker(
        self, index: int, joker_id: int, tile_id: int, swapper: int, rules: Ruleset
    ) -> Table:
        """Put physical tile ``tile_id`` in the place of joker ``joker_id`` in meld
        ``index``; the joker leaves the table, its swap count grows, and in ``online``
        it becomes fixed as the tile it stood for (JOLY-01, JOLY-02, JOLY-05).  The
        replacement is credited per ``swap_replacement_credited_to`` (VALUE-05).
        Who may swap is :mod:`remi_rules.joly`'s business."""
        from .ruleset import SwappedJokerMode, SwapReplacementCredit

        (tile_id,) = _check_ids((tile_id,))
        if joker_id not in JOKER_IDS:
            raise ValueError(f"tile {joker_id} is not a joker")
        if self.holds(tile_id):
            raise ValueError(f"tile {tile_id} is already on the table")
        _check_seat(swapper, "swapper")
        old = self._meld(index)
        if joker_id not in old.ids:
            raise ValueError(f"joker {joker_id} is not in meld {index}")
        position = old.position_of(joker_id)
        ids = list(old.ids)
        ids[position] = tile_id
        credited = list(old.credited)
        credited[position] = (
            old.owner
            if rules.swap_replacement_credited_to is SwapReplacementCredit.MELD_OWNER
            else swapper
        )
        placed = list(old.placed_by)
        placed[position] = swapper
        new = self._rebuilt(old, ids, credited, placed, rules)
        new = attrs.evolve(new, replacements=old.replacements | {tile_id})
        history = self.joker(joker_id)
        fixed = history.fixed_as
        if rules.swapped_joker_mode is SwappedJokerMode.FIXED_IDENTITY and fixed is None:
            fixed = self.tile(tile_id)
        jokers = list(self.jokers)
        jokers[joker_id - JOKER_IDS[0]] = JokerHistory(swaps=history.swaps + 1, fixed_as=fixed)
        return attrs.evolve(self._replace(index, new), jokers=(jokers[0], jokers[1]))

    def _rebuilt(
        self,
        old: TableMeld,
        ids: Sequence[int],
        credited: Sequence[int],
        placed: Sequence[int],
        rules: Ruleset,
    ) -> TableMeld:
        """``old`` with new ``ids`` (and their credits and layers, position by
        position), re-analysed and stored in table order."""
        tiles = [self.tile(t) for t in ids]
        meld = analyze_meld(tiles, rules)
        arranged = _arrange(ids, tiles, meld)
        credit_of = dict(zip(ids, credited, strict=True))
        placed_of = dict(zip(ids, placed, strict=True))
        return attrs.evolve(
            old,
            ids=arranged,
            meld=meld,
            credited=tuple(credit_of[t] for t in arranged),
            placed_by=tuple(placed_of[t] for t in arranged),
        )

    def _meld(self, index: object) -> TableMeld:
        if type(index) is not int:
            raise TypeError(f"a meld index must be an int, not {type(index).__name__}")
        if not 0 <= index < len(self.melds):
            raise ValueError(f"there is no meld {index}: the table has {len(self.melds)}")
        return self.melds[index]

    def _replace(self, index: int, meld: TableMeld) -> Table:
        melds = list(self.melds)
        melds[index] = meld
        return attrs.evolve(self, melds=tuple(melds))
