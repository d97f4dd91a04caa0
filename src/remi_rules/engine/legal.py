"""Which steps are legal now: :func:`legal_steps` generates them, each one passing
:func:`~remi_rules.engine.transition.apply_step` (a test checks the agreement on many
reachable states, both ways).

**Copies.** Every value but the joker exists twice (TILES-01), so a rack often holds
two tiles that the rules cannot tell apart.  Two tiles of one rack are *copies of each
other* (:func:`copy_key`) when they have the same value (a joker's history — its
swaps and fixed identity, JOLY-02/05 — included) and the same part in the pending
turn: the tile taken from the row or the atu (RUPE-01, ATU-06), the other tiles of a
rupere where RUPE-06 counts only tiles held before the take
(``take_meld_tiles_must_predate_take``), a joker swapped this turn (JOLY-04), the
atu's twin (ATU-02/04).  Exchanging two copies everywhere in a state leaves every
rule's answer the same (tests/test_reliability_engine.py checks it), so the generator
lists each choice once, with *canonical* copies (:func:`canonical_step`):

* a step that puts tiles down (meld, lay-off, swap) is listed once per choice of
  copy classes for its tile values; the owed classes (the taken tile, a swapped
  joker, the atu's twin) come first, as in the CLI's notation
  (:mod:`remi_rules.notation`: "the copy the turn owes first"), and within a
  class the copies are used in rack order;
* a discard is listed once per class (its first copy in rack order).

The doubles steps (out of turn, before play) name the first copy of each double.

A step that names another copy of the same class still verifies and applies: the
verifier accepts any physical copy.

Melds are generated from the rack's values (every valid run and set inside it, a
joker in every slot it may fill); a set is listed once, in its canonical order
(:attr:`Meld.tiles <remi_rules.Meld.tiles>`), a run in its laid (ascending) order.
Lay-offs name their end.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Hashable, Iterator, Sequence
from typing import Final

from .._slots import maker
from ..closing import verify_rack_after_actions as _rack_after
from ..context import TurnContext
from ..errors import EngineArgumentError, EngineErrorCode, IllegalStepError, InvalidClosingError
from ..joly import can_swap
from ..layouts import meld_layouts
from ..lipire import End, can_lay_off
from ..melds import MeldKind, analyze_meld
from ..opening import may_lay_off_on_others, min_rack_after_opening
from ..ruleset import ClosingTileMode, Ruleset
from ..table import JokerHistory, Table, TableMeld
from ..tiles import JOKER_IDS, Color, Tile, tile_of
from ._common import SEAT_LISTINGS, is_pe_tabla_turn, keeps_opening_minimum, rights
from ._takes import can_reshuffle, may_take_atu, row_take_indexes, verify_atu_take
from ._turn_end import verify_turn_end
from ._windows import open_offer
from .deal import NoChance, double_class, doubles_of
from .state import GameState, Phase, context_of_state, full_rights_context
from .steps import (
    STEP_TYPES,
    AcceptDoubles,
    Close,
    DemandRedeal,
    Discard,
    Draw,
    LayOff,
    MeldTiles,
    OfferDoubles,
    Rupere,
    Step,
    SwapJoker,
    TakeAtu,
    TakeLastDiscard,
    tile_label,
)
from .transition import apply_step

__all__ = [
    "can_end_turn",
    "canonical_step",
    "copy_key",
    "legal_steps",
    "meld_candidates",
    "out_of_turn_steps",
    "turn_steps",
]


def _require_state(state: object) -> GameState:
    if not isinstance(state, GameState):
        raise TypeError(f"state must be a GameState, not {type(state).__name__}")
    return state


# -- copies ---------------------------------------------------------------------------------

_TILE_OF_ID: Final = tuple(tile_of(i) for i in range(104))
"""The value of each numbered tile id (a joker's value is the table's: its history)."""

_discard = maker(Discard, trusted=True)
_meld = maker(MeldTiles, trusted=True)
_lay_off = maker(LayOff, trusted=True)
"""The engine's own steps, built without their argument checks (the hot path: the ids
come from the rack, the ends from the meld)."""


def _key(state: GameState, seat: int, tile_id: int) -> tuple[Hashable, ...]:
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


def copy_key(state: GameState, seat: int, tile_id: int) -> tuple[Hashable, ...]:
    """What tells rack tile ``tile_id`` of ``seat`` apart from the other tiles of that
    rack: two tiles with equal keys are copies of each other (see the module's
    docstring), and the generator lists a step with only one of them.  The key holds
    the tile's value, a joker's history, and whether it is the tile the pending turn
    took (RUPE-01, ATU-06), a joker swapped this turn (JOLY-04), the atu's twin
    (ATU-02/04) or, where RUPE-06 counts only tiles held before the take, another
    tile of the rupere.  Raises :class:`~remi_rules.errors.EngineArgumentError`
    (``engine_bad_seat``, ``engine_not_in_rack``) for a seat or tile not at the table."""
    _require_state(state)
    if type(seat) is not int or type(tile_id) is not int:
        raise TypeError("seat and tile_id must be ints")
    if not 0 <= seat < state.players:
        raise EngineArgumentError(EngineErrorCode.BAD_SEAT, seat=seat, players=state.players)
    if tile_id not in state.seats[seat].rack:
        raise EngineArgumentError(EngineErrorCode.NOT_IN_RACK, tile=tile_label(tile_id), seat=seat)
    return _key(state, seat, tile_id)


def _owed(key: tuple[Hashable, ...]) -> bool:
    return bool(key[2] or key[3] or key[4])


class _Classes:
    """The copy classes of one rack: for each value, its classes (owed ones first,
    then in rack order), each a list of ids in rack order."""

    def __init__(self, state: GameState, seat: int) -> None:
        of: dict[int, list[int]] = {}
        by_key: dict[Hashable, list[int]] = {}
        # The tiles with a part in the turn (and the jokers, whose history counts) get
        # their whole key (_key); any other tile is told apart by its value alone.
        special = {state.atu ^ 1, 104, 105}
        turn = state.pending
        if turn is not None and turn.seat == seat:
            ob = turn.obligation
            if ob is not None:
                special.add(ob.picked)
                if state.rules.take_meld_tiles_must_predate_take:
                    special.update(ob.also_taken)
            special.update(turn.swapped_jokers)
        owed: list[Hashable] = []
        values: dict[Hashable, Tile] = {}
        tiles = _TILE_OF_ID
        for i in state.seats[seat].rack:
            key: Hashable
            value: Tile
            if i in special:
                full = _key(state, seat, i)
                key = full
                assert isinstance(full[0], Tile)
                value = full[0]
                if _owed(full) and key not in by_key:
                    owed.append(key)
            else:
                key = value = tiles[i]
            ids = by_key.get(key)
            if ids is None:
                ids = by_key[key] = []
                values[key] = value
            ids.append(i)
            of[i] = ids
        self.of = of
        by_value: dict[Tile, list[list[int]]] = {}
        for key in owed:
            by_value.setdefault(values[key], []).append(by_key[key])
        for key, ids in by_key.items():
            if owed and key in owed:
                continue
            group = by_value.get(values[key])
            if group is None:
                by_value[values[key]] = [ids]
            else:
                group.append(ids)
        self.by_value = by_value
        self.single = {t: group[0] for t, group in by_value.items() if len(group) == 1}
        """The copies of each value that has a single class."""
        self.representatives = [ids[0] for ids in by_key.values()]
        """The first copy of each class, the classes in rack order of their first copy."""
        self._owed = [by_key[key][0] for key in owed]

    def placing_order(self) -> list[int]:
        """:attr:`representatives`, the owed classes first (the CLI's preference)."""
        owed = self._owed
        return [*owed, *(i for i in self.representatives if i not in owed)]

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


def canonical_step(state: GameState, step: Step) -> Step:
    """The listed step equivalent to ``step``: the same step with each rack tile
    replaced by the canonical copy of its class (:func:`copy_key`; the copies of a
    class used in rack order).  Steps that name no rack tile, and tiles that are not
    on the rack, are returned unchanged.  ``step in legal_steps(state)`` for every
    legal ``step`` (up to a lay-off's omitted end), and ``step`` verifies exactly when
    its canonical step does.  (A doubles step names a double by its first copy.)"""
    _require_state(state)
    if isinstance(step, OfferDoubles | AcceptDoubles):
        tile = step.tile & ~1 if 0 <= step.tile < 104 else step.tile
        if isinstance(step, OfferDoubles):
            return OfferDoubles(step.seat, tile)
        return AcceptDoubles(step.seat, tile, step.offer)
    if not isinstance(step, MeldTiles | LayOff | SwapJoker | Discard | Close):
        if not isinstance(step, STEP_TYPES):
            raise TypeError(f"not a step: {type(step).__name__}")
        return step
    if state.pending is None:
        return step
    classes = _Classes(state, state.current)
    if isinstance(step, MeldTiles):
        return MeldTiles(classes.canonical(step.tiles))
    (tile,) = classes.canonical((step.tile,))
    if isinstance(step, LayOff):
        return LayOff(tile, step.meld, step.end)
    if isinstance(step, SwapJoker):
        return SwapJoker(tile, step.meld, step.joker)
    if isinstance(step, Discard):
        return Discard(tile)
    return Close(tile)


def _ok(state: GameState, step: Step) -> bool:
    try:
        apply_step(state, step, NoChance())
    except IllegalStepError:
        return False
    return True


def out_of_turn_steps(state: GameState) -> Iterator[Step]:
    """Announcements, declarations and the pre-play steps legal now, for every seat
    (the doubles steps with the first copy of each double)."""
    _require_state(state)
    return _out_of_turn(state, None)


def _out_of_turn(state: GameState, only: int | None) -> Iterator[Step]:
    """:func:`out_of_turn_steps`, of seat ``only`` (None: every seat)."""
    if state.phase is Phase.OVER:
        return
    listings = SEAT_LISTINGS.items()
    for seat, held in enumerate(state.seats):
        if only is not None and seat != only:
            continue
        # the full check only where the cheap one passes (a refusal is costly to make)
        for cls, (maybe, check) in listings:
            if maybe(state, held):
                step = cls(seat)  # type: ignore[call-arg]
                try:
                    check(state, step)
                except IllegalStepError:
                    continue
                yield step
    if not state.preplay:
        return
    rules = state.rules
    if rules.redeal_doubles_threshold is not None:
        for seat in range(state.players):
            if only is not None and seat != only:
                continue
            if len(doubles_of(state.seats[seat].rack)) >= rules.redeal_doubles_threshold:
                yield DemandRedeal(seat)
    if rules.doubles_exchange:
        yield from _doubles_steps(state, only)


def _doubles_steps(state: GameState, only: int | None) -> Iterator[Step]:
    """The exchange of doubles (DUBLE-03/04), each step naming only its seat's own
    tile: an offer of each double not exchanged (its first copy) by a seat without an
    open offer, the acceptance of another seat's open offer with each such double (of
    the offer's class where ``doubles_exchange_same_class``)."""
    rules = state.rules
    same_class = rules.doubles_exchange_same_class
    offers = state.offers
    for seat, held in enumerate(state.seats):
        if only is not None and seat != only:
            continue
        doubles = [2 * v for v in doubles_of(held.rack) if v not in state.exchanged]
        mine = open_offer(state, seat)
        if mine is None:
            yield from (OfferDoubles(seat, tile) for tile in doubles)
        for offer in offers:
            if offer.seat == seat:
                continue
            for tile in doubles:
                if not same_class or double_class(tile, rules) == offer.double_class:
                    yield AcceptDoubles(seat, tile, offer.seat)


def _takes(state: GameState) -> Iterator[Step]:
    if state.stock or can_reshuffle(state):
        yield Draw()
    row = state.row
    last = len(row) - 1
    for index in row_take_indexes(state):
        yield TakeLastDiscard() if index == last else Rupere(index)
    if may_take_atu(state):
        try:
            verify_atu_take(state, TakeAtu())
        except IllegalStepError:
            return
        yield TakeAtu()


def _assignments(layout: tuple[Tile, ...], classes: _Classes) -> Iterator[tuple[int, ...]]:
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


_Layouts = tuple[tuple[Tile, ...], ...]
_LAYOUTS: dict[tuple[int, frozenset[tuple[Tile, int]]], tuple[Ruleset, _Layouts]] = {}
"""``(id(rules), the pool's items) -> (rules, layouts)``: the meld catalogue of a rack's
values (:func:`~remi_rules.layouts.meld_layouts`, sets in their canonical order), made
once per rack: a turn's steps keep asking it of the same rack."""


def _rack_layouts(pool: Counter[Tile], rules: Ruleset) -> _Layouts:
    key = (id(rules), frozenset(pool.items()))
    hit = _LAYOUTS.get(key)
    if hit is not None and hit[0] is rules:
        return hit[1]
    out: list[tuple[Tile, ...]] = []
    for layout in meld_layouts(pool, rules):
        if layout[0].rank == layout[-1].rank or layout[0].is_joker or layout[-1].is_joker:
            meld = analyze_meld(layout, rules)
            if meld.kind is MeldKind.TERTA:
                layout = meld.tiles  # a set in its canonical order (fixed jokers included)
        out.append(layout)
    if len(_LAYOUTS) >= 1024:
        _LAYOUTS.clear()
    layouts = tuple(out)
    _LAYOUTS[key] = (rules, layouts)
    return layouts


def meld_candidates(state: GameState) -> Iterator[MeldTiles]:
    """Every new meld the current player may put down now (before the turn-end
    checks), once per choice of tile values and copy classes, with canonical copies
    (see :func:`canonical_step`)."""
    _require_state(state)
    return _meld_candidates(state, None)


def _meld_candidates(state: GameState, classes: _Classes | None) -> Iterator[MeldTiles]:
    """:func:`meld_candidates`: each one passes :func:`~remi_rules.engine._table_steps.
    verify_meld` by construction (its tiles are on the rack, it is a valid meld, the
    rack keeps what it must)."""
    turn = state.pending
    if turn is None or turn.took is None or state.phase is not Phase.ACTION:
        return
    seat = state.seats[state.current]
    rules = state.rules
    if seat.turns == 1 and rules.first_turn_no_meld:
        return
    minimum = min_rack_after_opening(rules) if keeps_opening_minimum(state, seat, turn) else 1
    limit = len(seat.rack) - minimum
    if limit < 3:
        return
    if classes is None:
        classes = _Classes(state, state.current)
    pool = Counter({t: sum(len(ids) for ids in group) for t, group in classes.by_value.items()})
    seen: set[tuple[int, ...]] = set()
    for layout in _rack_layouts(pool, rules):
        if len(layout) > limit:
            continue
        for ids in _assignments(layout, classes):
            if ids not in seen:
                seen.add(ids)
                yield _meld(ids)


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
        self.jokers = info.jokers
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


_TableInfo = tuple[Table, Ruleset, list[_MeldInfo], dict[Tile, list[int]]]
_TABLES: dict[tuple[int, int], _TableInfo] = {}
"""``(id(table), id(rules)) -> (table, rules, each meld's info, value -> melds it may
fit)``: most steps leave the table as it is (a take, a discard), so this is made once
per table."""


def _table_info(table: Table, rules: Ruleset) -> tuple[list[_MeldInfo], dict[Tile, list[int]]]:
    key = (id(table), id(rules))
    hit = _TABLES.get(key)
    if hit is not None and hit[0] is table and hit[1] is rules:
        return hit[2], hit[3]
    infos = [_meld_info(table, index, rules) for index in range(len(table.melds))]
    # which melds each value may fit (a free joker: every meld)
    where: dict[Tile, list[int]] = {}
    for index, info in enumerate(infos):
        for value in info.values:
            where.setdefault(value, []).append(index)
    if len(_TABLES) >= 1024:
        _TABLES.clear()
    _TABLES[key] = (table, rules, infos, where)
    return infos, where


def _fitting_ends(
    table: Table, index: int, info: _MeldInfo, tile_id: int, tile: Tile, full: TurnContext
) -> tuple[End, ...]:
    """The ends of meld ``index`` where ``tile`` (rack tile ``tile_id``) may be laid
    off for a player with every right: :func:`~remi_rules.lipire.can_lay_off` in the
    place of the meld's owner, cached per meld."""
    ends = info.ends.get(tile)
    if ends is None:
        meld = info.meld
        candidates = (End.LOW, End.HIGH) if meld.kind is MeldKind.SUITA else (End.SET,)
        ends = info.ends[tile] = tuple(
            end
            for end in candidates
            if can_lay_off(table, index, tile_id, meld.owner, full, end=end)
        )
    return ends


def _layoffs_and_swaps(state: GameState, classes: _Classes) -> Iterator[Step]:
    """The legal lay-offs and joker swaps, without building a state for each: the
    checks of :func:`~remi_rules.engine._table_steps.lay_off_step` and
    :func:`~remi_rules.engine._table_steps.swap_step` (what a meld says by itself made
    once per meld, :func:`_meld_info`)."""
    turn = state.pending
    if turn is None or turn.took is None or state.phase is not Phase.ACTION:
        return
    seat = state.seats[state.current]
    rules = state.rules
    if seat.turns == 1 and rules.first_turn_no_meld:
        return
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
    infos, where = _table_info(table, rules)
    every = range(len(melds))
    tile_of_id = table.tile
    for tile_id in classes.placing_order():
        tile = tile_of_id(tile_id)
        is_joker = tile_id in JOKER_IDS
        if is_joker and not tile.is_fixed_joker:
            indexes: Sequence[int] = every
        else:
            acts = tile.acts_as if tile.is_fixed_joker else tile
            indexes = where.get(acts, ()) if acts is not None else ()
        if not indexes:
            continue
        if may_lay:
            for index in indexes:
                if not (on_others or index in new):
                    continue
                if is_joker and not jokers_elsewhere and melds[index].owner != current:
                    continue
                yield from (
                    _lay_off(tile_id, index, end)
                    for end in _fitting_ends(table, index, infos[index], tile_id, tile, full)
                )
        if is_joker:
            continue
        # A joker the tile may replace (a 3-tile set's joker stands for either missing
        # colour, JOLY-03: the swap rules decide).
        for index in indexes:
            info = infos[index]
            for slot in info.jokers:
                if tile in slot.candidates:
                    joker = info.meld.ids[slot.position]
                    if ctx is None:
                        ctx = context_of_state(state)
                    if can_swap(table, index, joker, tile_id, current, ctx):
                        yield SwapJoker(tile_id, index, joker)


def _ends(state: GameState, classes: _Classes) -> Iterator[Step]:
    turn = state.pending
    assert turn is not None
    seat = state.seats[state.current]
    rack = seat.rack
    keep = state.rules.closing_tile_mode is ClosingTileMode.KEEP
    if len(rack) == 1:
        if turn.took is None:
            return
        try:
            verify_turn_end(state, Close(rack[0]), closing_now=True)
        except IllegalStepError:
            return
        yield Close(rack[0])
        if not keep:
            yield Discard(rack[0])
        return
    try:
        verify_turn_end(state, Discard(rack[0]), closing_now=False)
    except IllegalStepError:
        return
    limit = state.rules.max_rack_after_turn
    if limit is not None and len(rack) - 1 > limit:
        return
    for tile_id in classes.representatives:
        yield _discard(tile_id)


def can_end_turn(state: GameState) -> bool:
    """The pending turn can end now: a :class:`~remi_rules.engine.steps.Discard` or a
    :class:`~remi_rules.engine.steps.Close` is legal (the engine's undo cap keeps every
    turn that reaches it able to end: :meth:`Game.legal_steps
    <remi_rules.engine.Game.legal_steps>`)."""
    _require_state(state)
    turn = state.pending
    if state.phase is not Phase.ACTION or turn is None:
        return False
    if turn.took is None:  # the starter's first turn: any discard
        return True
    return next(_ends(state, _Classes(state, state.current)), None) is not None


def turn_steps(state: GameState) -> Iterator[Step]:
    """The current player's legal steps (takes, melds, lay-offs, swaps, the discard or
    the close), with canonical copies (:func:`canonical_step`)."""
    _require_state(state)
    if state.phase is Phase.OVER:
        return
    turn = state.pending
    assert turn is not None
    if state.phase is Phase.TAKE:
        yield from _takes(state)
        return
    classes = _Classes(state, state.current)
    if turn.took is None:  # the starter's first turn: discard only (TURN-01)
        for tile_id in classes.representatives:
            yield Discard(tile_id)
        return
    # each candidate passes apply_step's checks of a meld by construction (closing the
    # previous seat's announcement window first changes nothing a meld's legality reads)
    yield from _meld_candidates(state, classes)
    yield from _layoffs_and_swaps(state, classes)
    yield from _ends(state, classes)


def seat_steps(state: GameState, seat: int) -> tuple[Step, ...]:
    """The steps of :func:`legal_steps` that ``seat`` sends (its turn's steps when it
    is to move, its announcements, declarations and doubles steps), in the same
    order."""
    _require_state(state)
    if state.phase is not Phase.OVER and seat == state.current:
        return (*turn_steps(state), *_out_of_turn(state, seat))
    return tuple(_out_of_turn(state, seat))


def legal_steps(state: GameState) -> tuple[Step, ...]:
    """Every legal step now except :class:`~remi_rules.engine.steps.Undo` (which
    depends on the game's history: see :meth:`Game.legal_steps
    <remi_rules.engine.Game.legal_steps>`), each choice once: steps that differ only in
    which copy of a tile they name are listed with the canonical copy
    (:func:`canonical_step`); any copy of the same class verifies and applies."""
    _require_state(state)
    return (*turn_steps(state), *out_of_turn_steps(state))
