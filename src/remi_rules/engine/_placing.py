"""The legal steps that put tiles down, generated directly (no state built per
candidate): the new melds a rack can make (:func:`meld_candidates`, each choice of
values and copy classes once) and the lay-offs and joker swaps on the table's melds
(:func:`layoffs_and_swaps`), with canonical copies (:mod:`remi_rules.engine.legal`).
What a meld or a table says by itself is cached per value (the engine's states share
them between steps)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Final

from .._slots import maker
from ..closing import verify_rack_after_actions as _rack_after
from ..context import TurnContext
from ..errors import InvalidClosingError
from ..joly import can_swap
from ..lipire import End, fits
from ..melds import MeldKind
from ..opening import may_lay_off_on_others, min_rack_after_opening
from ..ruleset import Ruleset
from ..table import JokerHistory, Table, TableMeld
from ..tiles import JOKER_IDS, Color, Tile
from ._catalogue import rack_layouts
from ._common import is_pe_tabla_turn, keeps_opening_minimum, rights
from ._copies import Classes, assignments, classes_of
from .state import GameState, Phase, TurnState, context_of_state, full_rights_context
from .steps import LayOff, MeldTiles, Step, SwapJoker

__all__ = ["layoffs_and_swaps", "meld_candidates"]

_meld = maker(MeldTiles, trusted=True)
_lay_off = maker(LayOff, trusted=True)
"""The engine's own steps, built without their argument checks (the hot path: the ids
come from the rack, the ends from the meld)."""


def _placing_turn(state: GameState) -> TurnState | None:
    """The pending turn if its player may put tiles down now (after the take, in the
    action phase, not in a first turn without melds: ``first_turn_no_meld``), else
    None."""
    turn = state.pending
    if turn is None or turn.took is None or state.phase is not Phase.ACTION:
        return None
    if state.seats[state.current].turns == 1 and state.rules.first_turn_no_meld:
        return None
    return turn


def meld_candidates(state: GameState, classes: Classes | None = None) -> Iterator[MeldTiles]:
    """Every new meld the current player may put down now (before the turn-end
    checks), once per choice of tile values and copy classes (``classes``: the rack's,
    if already made): each one passes :func:`~remi_rules.engine._table_steps.
    verify_meld` by construction (its tiles are on the rack, it is a valid meld, the
    rack keeps what it must)."""
    turn = _placing_turn(state)
    if turn is None:
        return
    seat = state.seats[state.current]
    rules = state.rules
    minimum = min_rack_after_opening(rules) if keeps_opening_minimum(state, seat, turn) else 1
    limit = len(seat.rack) - minimum
    if limit < 3:
        return
    if classes is None:
        classes = classes_of(state, state.current)
    # the list depends only on the rack's classes, the rules and the limit: kept with
    # the classes (an undo, the finishable search, come back to the same rack)
    known = classes.melds.get((id(rules), limit))
    if known is not None and known[0] is rules:
        yield from known[1]
        return
    pool = Counter({t: sum(len(ids) for ids in group) for t, group in classes.by_value.items()})
    seen: set[tuple[int, ...]] = set()
    out: list[MeldTiles] = []
    for layout in rack_layouts(pool, rules):
        if len(layout) > limit:
            continue
        for ids in assignments(layout, classes):
            if ids not in seen:
                seen.add(ids)
                out.append(_meld(ids))
    classes.melds[id(rules), limit] = (rules, tuple(out))
    yield from out


class _MeldInfo:
    """What a table meld says by itself, made once per meld (:data:`_MELDS`): the tile
    values that may fit it (:func:`~remi_rules.lipire.might_fit`: its rank for a set,
    its ends for a run, a high ace, what a joker stands for; free jokers fit anywhere
    and are not listed), its joker slots, and the ends each value may be laid off at
    for a player with every right (filled in as asked)."""

    __slots__ = ("ends", "jokers", "meld", "rules", "table_jokers", "values")

    def __init__(
        self, meld: TableMeld, rules: Ruleset, table_jokers: tuple[JokerHistory, ...]
    ) -> None:
        self.meld, self.rules, self.table_jokers = meld, rules, table_jokers
        info = meld.meld
        self.jokers = info.jokers if 104 in meld.ids or 105 in meld.ids else ()
        values: set[Tile] = set()
        if meld.kind is MeldKind.TERTA:
            values.update(_TILE_AT[info.low, c] for c in Color)
        else:
            color = info.color
            assert color is not None
            high = info.low + len(meld.ids) - 1
            for rank in (info.low - 1, high + 1, 1):
                if 1 <= rank <= 13:
                    values.add(_TILE_AT[rank, color])
            values.update(slot.tile for slot in self.jokers if slot.tile is not None)
        self.values = frozenset(values)
        self.ends: dict[Tile, tuple[End, ...]] = {}


_TILE_AT: Final = {(r, c): Tile(r, c) for r in range(1, 14) for c in Color}
_MELDS: dict[tuple[int, int], _MeldInfo] = {}
"""``(id(meld), id(rules)) -> _MeldInfo``: a meld on the table is a value most steps
leave as it is, so what it says by itself is made once; the entry holds the meld and
the rules, so their ids cannot be reused while it is cached."""


def _meld_info(table: Table, index: int, rules: Ruleset) -> _MeldInfo:
    meld = table.melds[index]
    key = (id(meld), id(rules))
    hit = _MELDS.get(key)
    if (
        hit is None
        or hit.meld is not meld
        or hit.rules is not rules
        or hit.table_jokers != table.jokers
    ):
        if len(_MELDS) >= 4096:
            _MELDS.clear()
        hit = _MELDS[key] = _MeldInfo(meld, rules, table.jokers)
    return hit


_Where = dict[Tile, list[int]]
_Swaps = dict[Tile, list[tuple[int, int]]]
_TableInfo = tuple[Table, Ruleset, list[_MeldInfo], _Where, _Swaps]
_TABLES: dict[tuple[int, int], _TableInfo] = {}
"""``(id(table), id(rules)) -> (table, rules, each meld's info, value -> melds it may
fit, value -> (meld, joker) it may take the place of)``: most steps leave the table
as it is (a take, a discard), so this is made once per table."""


def _table_info(table: Table, rules: Ruleset) -> tuple[list[_MeldInfo], _Where, _Swaps]:
    key = (id(table), id(rules))
    hit = _TABLES.get(key)
    if hit is not None and hit[0] is table and hit[1] is rules:
        return hit[2], hit[3], hit[4]
    infos = [_meld_info(table, index, rules) for index in range(len(table.melds))]
    # which melds each value may fit (a free joker: every meld), and which jokers it
    # may replace (a 3-tile set's joker stands for either missing colour, JOLY-03:
    # the swap rules decide)
    where: _Where = {}
    swaps: _Swaps = {}
    for index, info in enumerate(infos):
        for value in info.values:
            where.setdefault(value, []).append(index)
        for slot in info.jokers:
            joker = info.meld.ids[slot.position]
            for value in slot.candidates:
                swaps.setdefault(value, []).append((index, joker))
    if len(_TABLES) >= 1024:
        _TABLES.clear()
    _TABLES[key] = (table, rules, infos, where, swaps)
    return infos, where, swaps


def _fitting_ends(
    table: Table, index: int, info: _MeldInfo, tile_id: int, tile: Tile, full: TurnContext
) -> tuple[End, ...]:
    """The ends of meld ``index`` where ``tile`` (rack tile ``tile_id``) may be laid
    off for a player with every right: :func:`~remi_rules.lipire.can_lay_off` in the
    place of the meld's owner (:func:`~remi_rules.lipire.fits`), kept in
    ``info.ends``."""
    meld = info.meld
    candidates = (End.LOW, End.HIGH) if meld.kind is MeldKind.SUITA else (End.SET,)
    ends = info.ends[tile] = tuple(
        end for end in candidates if fits(table, index, tile_id, meld.owner, full, end)
    )
    return ends


def layoffs_and_swaps(state: GameState, classes: Classes) -> Iterator[Step]:
    """The legal lay-offs and joker swaps, without building a state for each: the
    checks of :func:`~remi_rules.engine._table_steps.lay_off_step` and
    :func:`~remi_rules.engine._table_steps.swap_step` (what a meld says by itself made
    once per meld, :func:`_meld_info`)."""
    turn = _placing_turn(state)
    if turn is None:
        return
    seat = state.seats[state.current]
    rules = state.rules
    opened, this_turn = rights(seat, turn)
    if not opened and rules.swap_requires_opened:
        return
    table = state.table
    melds = table.melds
    if not melds:
        return
    current = state.current
    new = turn.new_melds
    # the rights the lay-off rules check per state (LIPI-01/03, OPEN-07, CLOSE-06)
    may_lay = opened
    on_others = may_lay_off_on_others(opened=opened, opened_this_turn=this_turn, rules=rules)
    if is_pe_tabla_turn(state, seat, turn) and not may_lay_off_on_others(
        opened=opened, opened_this_turn=this_turn, rules=rules, pe_tabla=True
    ):
        on_others = False
    try:
        _rack_after(
            len(seat.rack) - 1, rules, opening_turn=keeps_opening_minimum(state, seat, turn)
        )
    except InvalidClosingError:
        may_lay = False
    jokers_elsewhere = rules.joker_layoff_on_others_melds
    full = full_rights_context(state)
    ctx: TurnContext | None = None
    infos, where, swaps = _table_info(table, rules)
    every = range(len(melds))
    for tile_id, tile in classes.placing:
        is_joker = tile_id in JOKER_IDS
        if not is_joker:
            indexes: Sequence[int] = where.get(tile, ())
        elif tile.is_fixed_joker:
            indexes = where.get(tile.acts_as, ()) if tile.acts_as is not None else ()
        else:
            indexes = every
        if may_lay:
            for index in indexes:
                if not (on_others or index in new):
                    continue
                if is_joker and not jokers_elsewhere and melds[index].owner != current:
                    continue
                info = infos[index]
                ends = info.ends.get(tile)
                if ends is None:
                    ends = _fitting_ends(table, index, info, tile_id, tile, full)
                for end in ends:
                    yield _lay_off(tile_id, index, end)
        if is_joker:
            continue
        for index, joker in swaps.get(tile, ()):
            if ctx is None:
                ctx = context_of_state(state)
            if can_swap(table, index, joker, tile_id, current, ctx):
                yield SwapJoker(tile_id, index, joker)
