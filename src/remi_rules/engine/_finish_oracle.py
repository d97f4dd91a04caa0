"""The oracle of the finishable search (:mod:`remi_rules.engine._finish`): can new
melds alone end the pending turn now?  The melds the turn owes first (the picked
tile's justifying meld, :func:`~remi_rules.rupere.justifying_melds`; a meld for each
swapped joker JOLY-04 wants melded), then the rest of the rack split by the solver
(:func:`~remi_rules.best_opening` under the opening's rules with the melds already
down, else :func:`~remi_rules.best_melds`; most tiles placed, with the tiles that must
stay).  Every plan it finds is played out by the engine itself
(:func:`~remi_rules.engine.transition.apply_step`, then
:func:`~remi_rules.engine.legal.can_end_turn`), so a True answer is never a guess."""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Final

import attrs

from .._partition import FAST_MAX_TILES, counts_of, field_of, tile_of_field
from ..errors import IllegalStepError, InvalidMeldError
from ..lipire import End, might_fit
from ..melds import Meld, analyze_meld, arrange_meld
from ..opening import min_rack_after_opening
from ..ruleset import Ruleset, SwappedJokerUse
from ..rupere import TakeSource, justifying_melds, obligation_met
from ..solver import Objective, Solution, best_melds, best_opening
from ..tiles import Tile
from ..turn_plans import placing_split
from ._common import is_pe_tabla_turn, keeps_opening_minimum, layable_ids
from .deal import NoChance
from .state import GameState
from .steps import LayOff, MeldTiles, Step
from .transition import apply_listed, apply_step

if TYPE_CHECKING:
    from .._by_ranks import Shared

__all__ = [
    "apply_or_none",
    "keeps_picked",
    "lay_off_room",
    "makes_opening",
    "must_close",
    "oracle",
    "own_left",
    "placing_melds",
    "plan_refusals",
    "turn_melds",
]

_NO_CHANCE = NoChance()


plan_refusals = [0]
"""How many plans of the oracle the engine refused (a test keeps it at 0: a refused
plan means the oracle misread a rule, and its answer fell back to False)."""


def apply_or_none(state: GameState, step: Step, listed: bool = False) -> GameState | None:
    """The state after ``step``, or None where it is refused; ``listed``: a step listed
    as legal in ``state`` (the engine's generators), applied without its checks
    (:func:`~remi_rules.engine.transition.apply_listed`)."""
    try:
        after, _ = (apply_listed if listed else apply_step)(state, step, _NO_CHANCE)
    except IllegalStepError:
        return None
    return after


def must_close(state: GameState) -> bool:
    turn = state.pending
    assert turn is not None
    seat = state.seats[state.current]
    ob = turn.obligation
    return (ob is not None and ob.must_close) or is_pe_tabla_turn(state, seat, turn)


def keeps_picked(state: GameState) -> bool:
    """The taken tile may stay unmelded, which declares pe tablă (a row take by a
    player not opened before, under ``take_discard_without_meld_declares_pe_tabla``)."""
    turn = state.pending
    assert turn is not None
    rules = state.rules
    ob = turn.obligation
    return (
        ob is not None
        and ob.source is not TakeSource.ATU
        and rules.take_discard_without_meld_declares_pe_tabla
        and rules.pe_tabla_enabled
        and not turn.opened_before
    )


def own_left(state: GameState) -> int:
    """The rack tiles that count as the player's own for the picked tile's meld
    (RUPE-06: held before the take, unless ``take_meld_tiles_must_predate_take`` is
    off; a joker where ``take_meld_joker_counts_as_own``)."""
    turn = state.pending
    assert turn is not None and turn.obligation is not None
    ob = turn.obligation
    rules = state.rules
    rack = state.seats[state.current].rack
    own = set(ob.rack_before_take)
    if not rules.take_meld_tiles_must_predate_take:
        own |= {*ob.also_taken, *turn.swapped_jokers}
    jokers = rules.take_meld_joker_counts_as_own
    return sum(1 for i in rack if i in own and i != ob.picked and (jokers or i < 104))


@functools.lru_cache(maxsize=64)
def _any_meld_rules(rules: Ruleset) -> Ruleset:
    """``rules`` where any valid meld holding a given tile counts (for the melds a
    swapped joker must go into)."""
    return attrs.evolve(
        rules,
        take_meld_min_own_tiles=1,
        take_meld_joker_counts_as_own=True,
        take_meld_tiles_must_predate_take=False,
    )


def oracle(state: GameState) -> bool | None:
    """Whether new melds alone (the owed ones, then the solver's split of the rest)
    can end the turn now; each plan found is played out by the engine.  In a turn
    that must close the split may also lay tiles off, as many of a value as the table
    has places for now (:func:`lay_off_room`): False then also says that no close
    lays off only on those places; None where such a split was found that the engine
    did not play out (so nothing is proved)."""
    turn = state.pending
    assert turn is not None
    seat = state.seats[state.current]
    rules = state.rules
    table = state.table
    if seat.turns == 1 and rules.first_turn_no_meld:
        return False
    rack = seat.rack
    ob = turn.obligation
    # The picked tile: its justifying meld first (or, where keeping it unmelded
    # declares pe tablă, held back), unless it is already on the table.
    owed: list[list[tuple[int, ...] | None]] = []
    if ob is not None:
        p = ob.picked
        keeps = keeps_picked(state)
        if p in rack and not keeps and own_left(state) < rules.take_meld_min_own_tiles:
            return False  # too few own tiles left for its meld
        if p in rack:
            own = [i for i in ob.rack_before_take if i in rack]
            also = [i for i in ob.also_taken if i in rack]
            later = [i for i in rack if i != p and i not in own and i not in also]
            options: list[tuple[int, ...] | None] = list(
                justifying_melds(
                    p,
                    own,
                    rules,
                    also_taken=also,
                    acquired_later=later,
                    min_left=0,
                    jokers=table.jokers,
                )
            )
            if keeps:
                options.append(())  # held back: it stays on the rack
            if not options:
                return False
            owed.append(options)
        elif not obligation_met(
            ob,
            [table.melds[m].ids for m in turn.new_melds],
            rules,
            laid_off=turn.laid_off,
            acquired_later=turn.swapped_jokers,
            opened_before_this_turn=turn.opened_before,
            jokers=table.jokers,
        ):
            return False
    # JOLY-04: each swapped joker still on the rack goes into a new meld.
    if rules.swapped_joker_use is SwappedJokerUse.SAME_TURN_NEW_MELD:
        melded = {i for m in turn.new_melds for i in table.melds[m].ids}
        for j in dict.fromkeys(turn.swapped_jokers):
            if j in melded:
                continue
            if j not in rack:
                return False
            owed.append([None])  # its meld is chosen once the others are known
    unsure = False
    for chosen in _choices(owed):
        for plan in _plans(state, chosen):
            if _plays_out(state, plan):
                return True
            unsure = unsure or plan[-1:] == [_LAY_THE_REST]
    return None if unsure else False


def _choices(
    owed: list[list[tuple[int, ...] | None]],
) -> Iterator[list[tuple[int, ...] | None]]:
    if not owed:
        yield []
        return
    first, rest = owed[0], owed[1:]
    for option in first:
        for tail in _choices(rest):
            yield [option, *tail]


def _plans(
    state: GameState, chosen: list[tuple[int, ...] | None]
) -> Iterator[list[tuple[int, ...]]]:
    """Plans (melds as ids, in the order to put them down) that start with the owed
    melds of ``chosen`` (``None``: a swapped joker's meld, searched here; ``()``: the
    picked tile held back) and end with the solver's split of the rest."""
    turn = state.pending
    assert turn is not None
    table = state.table
    rack = state.seats[state.current].rack
    used: set[int] = set()
    fixed: list[tuple[int, ...]] = []
    held: set[int] = set()
    for option in chosen:
        if option is None:
            continue
        if option == ():
            ob = turn.obligation
            assert ob is not None
            held.add(ob.picked)
            continue
        if used & set(option):
            return
        used |= set(option)
        fixed.append(option)
    jokers_owed = []
    if any(option is None for option in chosen):
        melded = {i for m in turn.new_melds for i in table.melds[m].ids}
        jokers_owed = [
            j for j in dict.fromkeys(turn.swapped_jokers) if j not in melded and j not in used
        ]
    yield from _joker_melds(state, rack, fixed, used, held, jokers_owed)


def _joker_melds(
    state: GameState,
    rack: Sequence[int],
    fixed: list[tuple[int, ...]],
    used: set[int],
    held: set[int],
    jokers: list[int],
) -> Iterator[list[tuple[int, ...]]]:
    if not jokers:
        yield from _splits(state, rack, fixed, used, held)
        return
    j, rest = jokers[0], jokers[1:]
    free = [i for i in rack if i not in used and i not in held and i != j]
    for meld in justifying_melds(
        j, free, _any_meld_rules(state.rules), min_left=0, jokers=state.table.jokers
    ):
        yield from _joker_melds(state, rack, [*fixed, meld], used | set(meld), held, rest)


def _splits(
    state: GameState,
    rack: Sequence[int],
    fixed: list[tuple[int, ...]],
    used: set[int],
    held: set[int],
) -> Iterator[list[tuple[int, ...]]]:
    """The owed melds ``fixed`` and the solver's split of the rest (most tiles placed,
    the tiles that must stay kept), as ids; none where no split can end the turn.
    Where the turn must close or has a rack cap and the rest is big, first the split
    that a yes-or-no question proved (the best one only if that one does not play
    out)."""
    turn = state.pending
    assert turn is not None
    seat = state.seats[state.current]
    rules = state.rules
    table = state.table
    value = table.tile
    rest_ids = [i for i in rack if i not in used]
    free_ids = [i for i in rest_ids if i not in held]
    tiles = [value(i) for i in free_ids]
    closing = must_close(state)
    keep_total = 1 if closing or not keeps_opening_minimum(state, seat, turn) else None
    if keep_total is None:
        keep_total = min_rack_after_opening(rules)
    keep = max(0, keep_total - len(held))
    if len(tiles) < keep:
        return
    placed_melds = turn_melds(state)
    owed_melds = [_meld_of(value, ids, rules) for ids in fixed]
    if any(m is None for m in owed_melds):
        return
    down = [*placed_melds, *(m for m in owed_melds if m is not None)]
    opening = makes_opening(state)
    cap = rules.max_rack_after_turn
    bounded = closing or cap is not None  # (how many tiles stay is bounded)
    goal = len(rest_ids) - 1 - (0 if closing or cap is None else cap)
    if bounded and goal > len(tiles) - keep:
        return  # (too few tiles may go down)
    if closing and not held:
        # The close with the lay-offs the table has room for now (each value at most
        # as often as it has places): none if no such split exists, which covers the
        # splits without lay-offs too; else its melds, then the rest laid off.
        room = lay_off_room(state, free_ids)
        if room:
            melds = placing_melds(tiles, rules, room, down if opening else None)
            if melds is None:
                return
            plan = _plan_of(fixed, [m.tiles for m in melds], free_ids, value)
            if plan is not None:
                yield [*plan, _LAY_THE_REST]
    if bounded and len(tiles) > FAST_MAX_TILES:
        # A yes-or-no question, with the split it proved (a big hand's best split
        # costs the tie-break's questions).
        proved = _reaching(tiles, rules, goal, keep, down if opening else None)
        if proved is None:
            return
        if proved:
            plan = _plan_of(fixed, proved, free_ids, value)
            if plan is not None:
                yield plan
    solution: Solution | None
    if opening and (down or bounded):
        solution = best_opening(tiles, rules, Objective.TILES, min_leftover=keep, melded=down)
    elif opening or not bounded:
        yield list(fixed)  # nothing more to put down (an opening would need it all)
        return
    else:
        solution = best_melds(tiles, rules, Objective.TILES, min_leftover=keep)
    if solution is None:
        return
    left = len(rest_ids) - solution.placed
    if closing and left != 1:
        return
    if not closing and cap is not None and left - 1 > cap:
        return
    plan = _plan_of(fixed, [meld.tiles for meld in solution.melds], free_ids, value)
    if plan is not None:
        yield plan


def _plan_of(
    fixed: list[tuple[int, ...]],
    melds: Iterable[Sequence[Tile]],
    free_ids: list[int],
    value: object,
) -> list[tuple[int, ...]] | None:
    """The owed melds ``fixed`` and ``melds`` (tiles) as ids of ``free_ids``."""
    plan = list(fixed)
    pool = Counter({i: 1 for i in free_ids})
    for tiles in melds:
        ids = _ids_for(tiles, free_ids, pool, value)
        if ids is None:
            return None
        plan.append(ids)
    return plan


def _reaching(
    tiles: list[Tile], rules: Ruleset, goal: int, keep: int, down: list[Meld] | None
) -> list[tuple[Tile, ...]] | None:
    """Whether new melds of ``tiles`` can place ``goal`` of them with ``keep`` kept
    (with ``down``, the turn's melds, an opening with them): None if not, else the
    melds of a split that does, laid in order (the arrangement worth most points), or
    ``[]`` where the solver kept no split (:func:`~remi_rules._partition.split_reaching`)."""
    from .. import _partition as partition
    from ..melds import arrange_meld
    from ..solver import split_reaching

    split = split_reaching(partition.counts_of(tiles), rules, goal, min_leftover=keep, melded=down)
    if split is None:
        return None
    arranged = (arrange_meld(map(partition.tile_of_field, f), rules) for f in split)
    return [max(ways, key=lambda meld: meld.points).tiles for ways in arranged]


def _meld_of(value: object, ids: tuple[int, ...], rules: Ruleset) -> Meld | None:
    assert callable(value)
    try:
        return analyze_meld([value(i) for i in ids], rules)
    except InvalidMeldError:
        return None


def _ids_for(
    tiles: Iterable[Tile], ids: Sequence[int], pool: Counter[int], value: object
) -> tuple[int, ...] | None:
    assert callable(value)
    out: list[int] = []
    for tile in tiles:
        for i in ids:
            if pool[i] and value(i) == tile:
                pool[i] -= 1
                out.append(i)
                break
        else:
            return None
    return tuple(out)


def makes_opening(state: GameState) -> bool:
    """Whether the pending turn's new melds must together be an opening (the seat had
    not opened before the turn, and is no pe-tablă declarer closing without the
    opening's rules)."""
    turn = state.pending
    assert turn is not None
    seat = state.seats[state.current]
    return not turn.opened_before and not (
        is_pe_tabla_turn(state, seat, turn) and not state.rules.pe_tabla_opening_rules_apply
    )


def turn_melds(state: GameState) -> list[Meld]:
    """The melds the pending turn has put down so far."""
    turn = state.pending
    assert turn is not None
    return [state.table.melds[m].meld for m in turn.new_melds]


def lay_off_room(state: GameState, ids: Sequence[int]) -> Counter[int]:
    """Per solver field, how many tiles of ``ids`` (the current seat's rack tiles)
    the table takes as lay-offs now: the places it has for them
    (:func:`~remi_rules.engine._common.layable_ids`, what the take checks count)."""
    value = state.table.tile
    return Counter(field_of(value(i)) for i in layable_ids(state, ids, state.current))


def placing_melds(
    tiles: Sequence[Tile],
    rules: Ruleset,
    room: Mapping[int, int],
    down: Sequence[Meld] | None,
    shared: Shared | None = None,
) -> list[Meld] | None:
    """The new melds of a close of the hand ``tiles`` that lays off the rest on the
    places ``room`` counts (:func:`~remi_rules.turn_plans.placing_split`; with
    ``down``, the turn's melds, an opening with them), each arranged to be worth the
    most; None where no such close exists (none without lay-offs either).  The
    question :func:`~remi_rules.turn_plans.can_close_with` answered for a take that
    must close, so its split is the one to play."""
    split = placing_split(counts_of(tiles), rules, room, melded=down, shared=shared)
    if split is None:
        return None
    arranged = (arrange_meld(map(tile_of_field, f), rules) for f in split)
    return [max(ways, key=lambda meld: meld.points) for ways in arranged]


_LAY_THE_REST: Final[tuple[int, ...]] = ()
"""The last item of a plan whose melds leave tiles to lay off (:func:`_lay_the_rest`)."""


def _lay_the_rest(state: GameState) -> GameState:
    """Lay off rack tiles (each where the engine first accepts it, again while one
    more goes) until the turn can end or one tile is left."""
    from .legal import can_end_turn

    laid = True
    while laid and not can_end_turn(state):
        laid = False
        for tile_id in state.seats[state.current].rack:
            if len(state.seats[state.current].rack) == 1:
                break
            tile = state.table.tile(tile_id)
            after = next(
                (
                    after
                    for index, meld in enumerate(state.table.melds)
                    if might_fit(tile, meld)
                    for end in (End.LOW, End.HIGH, End.SET)
                    if (after := apply_or_none(state, LayOff(tile_id, index, end))) is not None
                ),
                None,
            )
            if after is not None:
                state, laid = after, True
    return state


def _plays_out(state: GameState, plan: list[tuple[int, ...]]) -> bool:
    """Put the plan's melds down with the engine (and, where it ends so, lay off the
    rest); the turn must then be able to end."""
    from .legal import can_end_turn

    for ids in plan:
        if ids == _LAY_THE_REST:
            state = _lay_the_rest(state)
            continue
        after = apply_or_none(state, MeldTiles(ids))
        if after is None:
            plan_refusals[0] += 1
            return False
        state = after
    if can_end_turn(state):
        return True
    plan_refusals[0] += 1
    return False
