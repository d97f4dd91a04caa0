"""Bounds of the finishable search (:mod:`remi_rules.engine._finish`): necessary
conditions for the pending turn to end, whatever moves it still makes.  Where one
fails, the search stops at that position without asking the oracle or trying the
moves on the table, which matters where every lay-off is tried (a turn that must
close, a rack cap): there the positions grow with every subset of the rack.

Every bound rests on two facts of a turn: tiles only leave the rack (a lay-off, a
meld, a swap), except jokers that a swap brings back; and no step takes a numbered
tile off the table.  So the tiles a meld may still hold are on the rack now, or are
jokers that are on the rack or that a swap may still free (:func:`reachable_jokers`:
a joker whose swaps are not used up, with a tile it stands for on the rack).  Each
bound is deliberately generous (a joker fills any gap, the knobs on runs and sets
are ignored), so it never stops a turn that can end; the tests check it against a
brute force over the whole turn."""

from __future__ import annotations

from ..melds import MeldKind
from ..ruleset import Ruleset, SwappedJokerMode
from ..rupere import TakeSource
from ..table import TableMeld
from ..tiles import JOKER_IDS, Color, Tile
from ._copies import TILE_OF_ID
from ._finish_oracle import must_close
from .state import GameState

__all__ = ["out_of_reach", "picked_out_of_reach", "reachable_jokers", "too_many_stuck"]


def out_of_reach(state: GameState) -> bool:
    """Some necessary condition of the turn's end fails: the picked tile can no
    longer be justified (:func:`picked_out_of_reach`), or more tiles can no longer
    leave the rack than the turn's end allows (:func:`too_many_stuck`)."""
    return picked_out_of_reach(state) or too_many_stuck(state)


def reachable_jokers(state: GameState) -> set[int]:
    """The jokers that are on the rack, or on the table where a swap may still take
    them: not fixed (JOLY-05), swaps left (JOLY-02), and a tile of the rack that the
    joker stands for (a set's joker: any of its open colours)."""
    return set(_joker_values(state))


_Jokers = dict[int, tuple[Tile, ...] | None]
"""Reachable jokers -> the values they may take (``None``: any, a wild joker)."""


def _joker_values(state: GameState) -> _Jokers:
    """:func:`reachable_jokers` with what each may stand for once on the rack: a
    fixed joker only its tile; a joker a swap brings back, under ``fixed_identity``,
    only the tile it stood for (JOLY-05); any other is wild."""
    rack = state.seats[state.current].rack
    table = state.table
    fixing = state.rules.swapped_joker_mode is SwappedJokerMode.FIXED_IDENTITY
    out: _Jokers = {}
    for j in JOKER_IDS:
        if j in rack:
            fixed = table.joker(j).fixed_as
            out[j] = None if fixed is None else (fixed,)
    values = {TILE_OF_ID[i] for i in rack if i not in JOKER_IDS}
    for j in JOKER_IDS:
        if j in out or not table.holds(j):
            continue
        history = table.joker(j)
        if history.fixed_as is not None or history.swaps >= state.rules.joker_swap_limit:
            continue
        meld = next(m for m in table.melds if j in m.ids)
        position = meld.position_of(j)
        slot = next(s for s in meld.meld.jokers if s.position == position)
        wanted = tuple(t for t in slot.candidates if t in values)
        if wanted:
            out[j] = wanted if fixing else None
    return out


def picked_out_of_reach(state: GameState) -> bool:
    """The picked tile can no longer be justified, whatever the rest of the turn does
    (the take's obligation is checked at every turn's end, RUPE-01/06, ATU-06).

    Where neither a lay-off of the picked tile (``take_discard_may_layoff``) nor
    keeping it (``take_discard_without_meld_declares_pe_tabla``) can meet the
    obligation, the picked tile must end in a new meld with enough own tiles (RUPE-01
    counts the new meld it ends in): a meld of rack tiles and the jokers the turn may
    still hold (:func:`_may_justify`; :func:`_joker_values`: a joker a swap brings back
    may be fixed as the tile it stood for, JOLY-05), or a meld of this turn it can
    still join (:func:`_may_take`), grown by rack tiles and jokers (:func:`_may_grow`;
    two melds on the table never become one, so their tiles are not one pool).  Once
    it is down, it stays in the meld that holds it, grown (a new meld of this turn),
    or, a joker, goes back to the rack by a swap and into another meld."""
    turn = state.pending
    assert turn is not None
    ob = turn.obligation
    if ob is None:
        return False
    rules = state.rules
    if ob.source is not TakeSource.ATU and (
        rules.take_discard_may_layoff
        or (
            rules.take_discard_without_meld_declares_pe_tabla
            and rules.pe_tabla_enabled
            and not turn.opened_before
        )
    ):
        return False
    picked = ob.picked
    rack = state.seats[state.current].rack
    own = set(ob.rack_before_take)
    if not rules.take_meld_tiles_must_predate_take:
        own |= {*ob.also_taken, *turn.swapped_jokers, *JOKER_IDS}
    jokers = _joker_values(state)
    table = state.table
    need = rules.take_meld_min_own_tiles
    if picked in rack:
        # its meld: a new one of rack tiles and jokers ...
        pool = {*rack, *jokers}
        pool.discard(picked)
        values = jokers.get(picked) if picked in JOKER_IDS else (TILE_OF_ID[picked],)
        if _may_justify(values, pool, own, jokers, rules, need):
            return False
        # ... or a meld of this turn it can be laid off on (or swapped into), grown by
        # rack tiles and jokers (melds on the table never merge: their tiles are not
        # one pool)
        return not any(
            _may_take(table.melds[m], values)
            and _may_grow(
                table.melds[m],
                picked,
                {*rack, *(j for j in jokers if j not in table.melds[m].ids)},
                own,
                jokers,
                state,
            )
            for m in turn.new_melds
        )
    found = next(((k, m) for k, m in enumerate(table.melds) if picked in m.ids), None)
    if found is None:
        return False  # (not met in a turn: the picked tile is on the rack or the table)
    index, holder = found
    # it stays in the new meld that holds it, grown ...
    others = {*rack, *(j for j in jokers if j not in holder.ids)}
    if index in turn.new_melds and _may_grow(holder, picked, others, own, jokers, state):
        return False
    # ... or a joker goes back to the rack by a swap and into another meld
    if picked in jokers:
        pool = {*rack, *jokers}
        pool.discard(picked)
        return not _may_justify(jokers[picked], pool, own, jokers, rules, need)
    return True  # no step takes a numbered tile off the table


def too_many_stuck(state: GameState) -> bool:
    """More rack tiles can never leave the rack than the turn's end allows: a turn
    that must close (ATU-06, CLOSE-06) ends with one tile (CLOSE-04), a rack with a
    cap (TURN-10) with the cap and the discard.  A numbered tile is *stuck* when no
    run or set of the rack's tiles and the reachable jokers holds it, no meld on the
    table can take it as a lay-off (a set of its rank without its colour, a run of
    its colour whose gap to it the rack or the jokers fill) and no joker on the table
    stands for it (a swap)."""
    cap = state.rules.max_rack_after_turn
    if must_close(state):
        allowed = 1
    elif cap is not None:
        allowed = cap + 1
    else:
        return False
    rack = state.seats[state.current].rack
    if len(rack) <= allowed:
        return False
    jokers = _joker_values(state)
    pool = {*rack, *jokers}
    held = _held(pool, pool, jokers)  # a meld of any tiles (need 0 own tiles)
    wild = sum(1 for j in jokers if jokers[j] is None)
    stuck = 0
    seen: dict[Tile, bool] = {}
    for i in rack:
        if i in JOKER_IDS:
            continue
        tile = TILE_OF_ID[i]
        free = seen.get(tile)
        if free is None:
            free = seen[tile] = _may_leave(state, tile, held, wild)
        if not free:
            stuck += 1
            if stuck > allowed:
                return True
    return False


def _may_leave(state: GameState, tile: Tile, held: _Held, jokers: int) -> bool:
    """``tile`` (a rack tile) could leave the rack: a new meld, a lay-off or a swap."""
    assert tile.rank is not None and tile.color is not None
    if _may_justify_held(tile, held, jokers, 0, 0):
        return True
    table = state.table
    spots = (tile.rank, 14) if tile.rank == 1 else (tile.rank,)
    for meld in table.melds:
        info = meld.meld
        if meld.kind is MeldKind.TERTA:
            if (
                info.low == tile.rank
                and len(meld.ids) < 4
                and all(t.color is not tile.color for t in info.tiles if not t.is_joker)
            ):
                return True
        elif info.color is tile.color:
            low, high = info.low, info.high
            for spot in spots:
                if low <= spot <= high:
                    continue
                gap = range(spot + 1, low) if spot < low else range(high + 1, spot)
                span = max(high, spot) - min(low, spot) + 1
                missing = sum(1 for r in gap if (1 if r == 14 else r, tile.color) not in held)
                if span <= 13 and missing <= jokers:
                    return True
        for j in meld.joker_positions():
            slot = next(s for s in info.jokers if s.position == j)
            if tile in slot.candidates and _swappable(state, meld.ids[j]):
                return True
    return False


def _swappable(state: GameState, joker: int) -> bool:
    history = state.table.joker(joker)
    return history.fixed_as is None and history.swaps < state.rules.joker_swap_limit


_Held = dict[tuple[int, Color], bool]
"""(rank, colour) of the numbered tiles of a pool -> an own copy among them."""


def _held(pool: set[int], own: set[int], jokers: _Jokers) -> _Held:
    """The (rank, colour) table of ``pool``: its numbered tiles, and the values a
    joker of ``jokers`` that is not wild may stand for."""
    held: _Held = {}
    for i in pool:
        if i in JOKER_IDS:
            values: tuple[Tile, ...] = jokers.get(i) or ()
        else:
            values = (TILE_OF_ID[i],)
        for t in values:
            assert t.rank is not None and t.color is not None
            held[t.rank, t.color] = held.get((t.rank, t.color), False) or i in own
    return held


def _wild(pool: set[int], jokers: _Jokers) -> list[int]:
    return [i for i in pool if i in JOKER_IDS and jokers.get(i) is None]


def _may_take(meld: TableMeld, values: tuple[Tile, ...] | None) -> bool:
    """A loose test that the picked tile, standing for one of ``values`` (``None``: a
    wild joker), could still join ``meld``: a set of its rank without its colour; a run
    of its colour where its rank lies beyond the run's ends or at one of its jokers'
    places (a swap)."""
    if values is None:
        return True
    info = meld.meld
    placed = [TILE_OF_ID[i] for i in meld.ids if i not in JOKER_IDS]
    for value in values:
        assert value.rank is not None and value.color is not None
        if meld.kind is MeldKind.TERTA:
            if value.rank == info.low and all(t.color is not value.color for t in placed):
                return True
            continue
        if info.color is not value.color:
            continue
        low, high = info.low, info.low + len(meld.ids) - 1
        for spot in (value.rank, 14) if value.rank == 1 else (value.rank,):
            if not low <= spot <= high or meld.ids[spot - low] in JOKER_IDS:
                return True
    return False


def _may_grow(
    meld: TableMeld, picked: int, pool: set[int], own: set[int], jokers: _Jokers, state: GameState
) -> bool:
    """A loose bound for a new meld that holds the picked tile for good, or may take
    it (a lay-off of the picked tile, still on the rack): grown by tiles of ``pool``
    (lay-offs at its ends, tiles swapped in for its jokers), can it hold
    ``take_meld_min_own_tiles`` tiles of ``own``?  Counts its own tiles, every own
    tile of ``pool`` that could join it (a colour its set lacks; its colour in the
    ranks a run could span beyond its ends, or in the place of one of its jokers but
    ``picked`` whose swaps are not used up, which a swap would take out of it), wild
    jokers filling the gaps, and the own wild jokers."""
    rules = state.rules
    need = rules.take_meld_min_own_tiles
    counts = rules.take_meld_joker_counts_as_own
    have = sum(1 for i in meld.ids if i in own and (counts or i not in JOKER_IDS))
    wild = _wild(pool, jokers)
    have += sum(1 for i in wild if i in own) if counts else 0
    info = meld.meld
    held = _held(pool, own, jokers)
    placed = {TILE_OF_ID[i] for i in meld.ids if i not in JOKER_IDS}
    if meld.kind is MeldKind.TERTA:
        colours = {t.color for t in placed}
        return have + sum(1 for c in Color if held.get((info.low, c)) and c not in colours) >= need
    colour = info.color
    assert colour is not None
    low, high = info.low, info.low + len(meld.ids) - 1
    present = [False] + [(1 if r == 14 else r, colour) in held for r in range(1, 15)]
    owned = [False] + [held.get((1 if r == 14 else r, colour), False) for r in range(1, 15)]
    # inside its span only a joker's place can still take a tile, by a swap
    for r in range(low, high + 1):
        place = meld.ids[r - low]
        owned[r] = owned[r] and place in JOKER_IDS and place != picked and _swappable(state, place)
    for lo in range(low, 0, -1):
        gaps = sum(1 for r in range(lo, low) if not present[r])
        for hi in range(high, min(14, lo + 12) + 1):
            gaps += hi > high and not present[hi]
            if gaps <= len(wild) and have + sum(owned[lo : hi + 1]) >= need:
                return True
    return False


def _may_justify(
    values: tuple[Tile, ...] | None,
    pool: set[int],
    own: set[int],
    jokers: _Jokers,
    rules: Ruleset,
    need: int,
) -> bool:
    """A loose form of :func:`~remi_rules.rupere.can_justify` (True wherever it is):
    some run or set of the picked tile, standing for one of ``values`` (``None``: a
    wild joker), and tiles of ``pool`` holds at least ``need`` tiles of ``own``, a
    fixed joker as its tile, the knobs on runs and sets ignored, a run from the ace to
    the ace, wild jokers anywhere.  Linear in the windows of ranks, where the exact
    catalogue of a big rack costs seconds."""
    wild = _wild(pool, jokers)
    own_jokers = sum(1 for i in wild if i in own) if rules.take_meld_joker_counts_as_own else 0
    held = _held(pool, own, jokers)
    return any(
        _may_justify_held(v, held, len(wild), own_jokers, need)
        for v in ((None,) if values is None else values)
    )


def _may_justify_held(
    picked: Tile | None, held: _Held, jokers: int, own_jokers: int, need: int
) -> bool:
    """:func:`_may_justify` over the pool's (rank, colour) table ``held`` and its
    jokers (``own_jokers`` of them counted as own)."""
    if picked is None:  # a joker: it fills a place of any run or set
        ranks: range | tuple[int, ...] = range(1, 14)
        colours: tuple[Color, ...] | list[Color] = tuple(Color)
        spare = jokers + 1
    else:
        assert picked.rank is not None and picked.color is not None
        ranks, colours, spare = (picked.rank,), (picked.color,), jokers
    # a set: 3 or 4 tiles of one rank in distinct colours, the picked tile one of them
    for rank in ranks:
        others = [
            c for c in Color if (rank, c) in held and (picked is None or c is not picked.color)
        ]
        if 1 + len(others) + jokers >= 3 and (
            min(3, sum(1 for c in others if held[rank, c]) + own_jokers) >= need
        ):
            return True
    # a run: one colour, ranks lo..hi (14: the ace high), the jokers in its gaps
    spots = None if picked is None else {picked.rank, 14} if picked.rank == 1 else {picked.rank}
    for colour in colours:
        present = [False] + [(1 if r == 14 else r, colour) in held for r in range(1, 15)]
        mine_at = [False] + [held.get((1 if r == 14 else r, colour), False) for r in range(1, 15)]
        for lo in range(1, 13):
            gaps = mine = 0
            inside = False
            for hi in range(lo, min(14, lo + 12) + 1):
                if spots is not None and hi in spots:
                    inside = True  # the picked tile's own place
                elif not present[hi]:
                    gaps += 1
                elif mine_at[hi]:
                    mine += 1
                if (
                    hi - lo >= 2
                    and (spots is None or inside)
                    and gaps <= spare
                    and mine + own_jokers >= need
                ):
                    return True
    return False
