"""Jokers on the table (joly): JOLY-01 … JOLY-09, OPEN-09, LIPI-06 … LIPI-08.

Pure functions over the immutable :class:`~remi_rules.table.Table`, configured only by
the :class:`~remi_rules.Ruleset`:

* :func:`verify_swap` raises :class:`~remi_rules.InvalidSwapError` with a stable
  :class:`~remi_rules.SwapErrorCode` when ``seat`` may not put rack tile ``tile_id``
  in the place of joker ``joker_id``; :func:`can_swap` is the same as a bool;
  :func:`swap` returns the new table (the joker goes to the caller's rack).
* :func:`swapped_jokers_unmelded` / :func:`swapped_joker_use_met` /
  :func:`verify_swapped_joker_use`: the JOLY-04 obligation of
  ``swapped_joker_use = same_turn_new_meld`` (rummy45), which the engine checks when
  the turn ends.
* :func:`joker_after_swap`: what the joker is afterwards (JOLY-05): ``J`` (wild, but
  its history makes it *reused*, JOLY-02) or ``J(=x)`` (``fixed_identity``).

JOLY-09: a joker that is discarded keeps its history (its
:class:`~remi_rules.table.JokerHistory` lives in :attr:`Table.jokers` whatever
happens to the physical tile), so nothing here needs to change when it is discarded.

>>> from remi_rules import ids_of, Tile, variants
>>> from remi_rules.table import Table
>>> from remi_rules.joly import joker_after_swap, swap
>>> clasic, online = variants.get("clasic"), variants.get("online")
>>> t = lambda text: ids_of(Tile.parse(text))[0]
>>> table, a = Table().add_meld(0, [t("5R"), 104, t("7R")], online)      # EX-28
>>> after = swap(table, a, 104, t("6R"), 0, online, opened=True, opened_this_turn=False)
>>> str(after.melds[a].meld), str(joker_after_swap(after, 104, online))
('5R 6R 7R', 'J(=6R)')
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

from .context import TurnContext, boolean_form, table_context
from .errors import InvalidSwapError, SwapErrorCode
from .melds import MeldKind
from .opening import may_swap_joker
from .ruleset import Ruleset, SwappedJokerUse, require_ruleset
from .table import JokerState, Table, TableMeld
from .tiles import JOKER_IDS, Tile

__all__ = [
    "can_swap",
    "joker_after_swap",
    "joker_state",
    "swap",
    "swapped_joker_use_met",
    "swapped_jokers_unmelded",
    "verify_swap",
    "verify_swapped_joker_use",
]

E = SwapErrorCode


def _require_table(table: object) -> None:
    if not isinstance(table, Table):
        raise TypeError(f"table must be a Table, not {type(table).__name__}")


def _meld(table: Table, meld_index: int) -> TableMeld:
    if type(meld_index) is not int:
        raise TypeError(f"meld_index must be an int, not {type(meld_index).__name__}")
    if not 0 <= meld_index < len(table.melds):
        raise InvalidSwapError(E.BAD_MELD_INDEX, meld_index=meld_index)
    return table.melds[meld_index]


def verify_swap(
    table: Table,
    meld_index: int,
    joker_id: int,
    tile_id: int,
    seat: int,
    rules: Ruleset | TurnContext,
    *,
    opened: bool | None = None,
    opened_this_turn: bool | None = None,
    laid_off_this_turn: Collection[int] = (),
) -> Tile:
    """Check that ``seat`` may put physical tile ``tile_id`` from his **rack** in the
    place of joker ``joker_id`` of meld ``meld_index`` and take the joker (JOLY-01);
    return the tile the joker stood for.  ``laid_off_this_turn`` holds the ids of the
    tiles ``seat`` laid off in this turn (for ``set_complete_and_swap_same_turn``).

    Refuses with :class:`~remi_rules.InvalidSwapError`, checked in this order:
    ``swap_bad_meld_index``; ``swap_not_a_joker_here``; ``swap_tile_on_table``
    (JOLY-01, TURN-08: never a tile from a meld); ``swap_not_opened``
    (``swap_requires_opened``, OQ-39); ``swap_opening_turn`` (``swap_in_opening_turn``,
    OPEN-09); ``swap_joker_fixed`` (JOLY-05: a joker întors is never taken again);
    ``swap_limit_reached`` (``joker_swap_limit``, JOLY-02); ``swap_three_tile_set``
    (JOLY-03, ``three_tile_set_joker_locked``: a set with two real tiles and a joker);
    ``swap_same_turn_completion`` (``set_complete_and_swap_same_turn`` false and the
    set's third colour laid off by ``seat`` in this turn); ``swap_wrong_tile`` (the
    replacement must be exactly the tile the joker stands for).

    ``rules`` is the ruleset with the turn's facts as keyword flags (``opened`` and
    ``opened_this_turn`` required), or a :class:`~remi_rules.context.TurnContext`
    holding them (its ``opened``, ``opened_this_turn`` and ``laid_off_this_turn``).
    """
    ctx = table_context(rules, opened, opened_this_turn, laid_off_this_turn=laid_off_this_turn)
    rules = ctx.rules
    opened, opened_this_turn = ctx.opened, ctx.opened_this_turn
    laid_off_this_turn = ctx.laid_off_this_turn
    meld = _meld(table, meld_index)
    details: dict[str, object] = {
        "meld_index": meld_index,
        "joker_id": joker_id,
        "meld": str(meld.meld),
    }
    if joker_id not in JOKER_IDS or joker_id not in meld.ids:
        raise InvalidSwapError(E.NOT_A_JOKER_HERE, **details)
    tile = table.tile(tile_id)
    details["tile"] = tile
    if table.holds(tile_id):
        raise InvalidSwapError(E.TILE_ON_TABLE, **details)
    if not may_swap_joker(opened=opened, opened_this_turn=opened_this_turn, rules=rules):
        raise InvalidSwapError(E.OPENING_TURN if opened else E.NOT_OPENED, **details)
    history = table.joker(joker_id)
    if history.fixed_as is not None:
        raise InvalidSwapError(E.JOKER_FIXED, joker=history.tile, **details)
    if history.swaps >= rules.joker_swap_limit:
        raise InvalidSwapError(E.SWAP_LIMIT, swaps=history.swaps, **details)
    position = meld.position_of(joker_id)
    (slot,) = (s for s in meld.meld.jokers if s.position == position)
    candidates = slot.candidates
    if meld.kind is MeldKind.TERTA:
        if len(candidates) > 1 and rules.three_tile_set_joker_locked:
            raise InvalidSwapError(E.THREE_TILE_SET, **details)
        if not rules.set_complete_and_swap_same_turn and any(
            i in laid_off_this_turn and placed == seat
            for i, placed in zip(meld.ids, meld.placed_by, strict=True)
            if i not in JOKER_IDS
        ):
            raise InvalidSwapError(E.SAME_TURN_COMPLETION, **details)
    if tile not in candidates:
        wanted = " / ".join(str(c) for c in candidates)
        raise InvalidSwapError(E.WRONG_TILE, wanted=wanted, **details)
    return tile


can_swap = boolean_form(verify_swap, InvalidSwapError, "can_swap")


def swap(
    table: Table,
    meld_index: int,
    joker_id: int,
    tile_id: int,
    seat: int,
    rules: Ruleset | TurnContext,
    *,
    opened: bool | None = None,
    opened_this_turn: bool | None = None,
    laid_off_this_turn: Collection[int] = (),
) -> Table:
    """Swap (after :func:`verify_swap`): ``tile_id`` takes the joker's place, the
    joker leaves the table for ``seat``'s rack, its swap count grows (JOLY-02) and
    under ``fixed_identity`` it becomes the tile it stood for (JOLY-05).  The
    replacement is credited per ``swap_replacement_credited_to`` (VALUE-05, OQ-20).
    ``rules`` and the flags as for :func:`verify_swap`."""
    ctx = table_context(rules, opened, opened_this_turn, laid_off_this_turn=laid_off_this_turn)
    verify_swap(table, meld_index, joker_id, tile_id, seat, ctx)
    return table.swap_joker(meld_index, joker_id, tile_id, seat, ctx.rules)


def joker_state(table: Table, joker_id: int, rules: Ruleset) -> JokerState:
    """JOLY-02, JOLY-05: ``fresh`` (swappable), ``reused`` (wild, never swapped
    again) or ``fixed`` (a joker întors).  An id that is not a joker's (104, 105) is
    refused with ``swap_not_a_joker``."""
    _require_table(table)
    require_ruleset(rules)
    if type(joker_id) is not int:
        raise TypeError(f"joker_id must be an int, not {type(joker_id).__name__}")
    if joker_id not in JOKER_IDS:
        raise InvalidSwapError(E.NOT_A_JOKER, joker_id=joker_id)
    return table.joker(joker_id).state(rules)


def joker_after_swap(table: Table, joker_id: int, rules: Ruleset) -> Tile:
    """JOLY-05: the tile value joker ``joker_id`` is now: ``J`` under
    ``swapped_joker_mode = wild`` (its history still makes it reused), ``J(=x)``
    under ``fixed_identity``.  An id that is not a joker's (104, 105) is refused with
    ``swap_not_a_joker``."""
    _require_table(table)
    require_ruleset(rules)
    if type(joker_id) is not int:
        raise TypeError(f"joker_id must be an int, not {type(joker_id).__name__}")
    if joker_id not in JOKER_IDS:
        raise InvalidSwapError(E.NOT_A_JOKER, joker_id=joker_id)
    return table.tile(joker_id)


def swapped_jokers_unmelded(
    table: Table,
    swapped_joker_ids: Iterable[int],
    new_meld_indexes: Collection[int],
    rules: Ruleset,
) -> tuple[int, ...]:
    """JOLY-04: the jokers taken by a swap in this turn that break the
    ``same_turn_new_meld`` obligation: those not lying, at the turn's end, in one of
    the melds created in this turn (``new_meld_indexes``).  Always ``()`` under
    ``swapped_joker_use = keep``."""
    require_ruleset(rules)
    if rules.swapped_joker_use is SwappedJokerUse.KEEP:
        return ()
    placed = {
        i
        for index in new_meld_indexes
        if 0 <= index < len(table.melds)
        for i in table.melds[index].ids
    }
    return tuple(j for j in dict.fromkeys(swapped_joker_ids) if j not in placed)


def swapped_joker_use_met(
    table: Table,
    swapped_joker_ids: Iterable[int],
    new_meld_indexes: Collection[int],
    rules: Ruleset,
) -> bool:
    """JOLY-04: is the swapped-joker obligation of this turn met?"""
    return not swapped_jokers_unmelded(table, swapped_joker_ids, new_meld_indexes, rules)


def verify_swapped_joker_use(
    table: Table,
    swapped_joker_ids: Iterable[int],
    new_meld_indexes: Collection[int],
    rules: Ruleset,
) -> None:
    """JOLY-04 at the turn's end: raise ``swap_joker_not_melded`` when a joker taken
    in this turn is not in a new meld of this turn under ``same_turn_new_meld``."""
    missing = swapped_jokers_unmelded(table, swapped_joker_ids, new_meld_indexes, rules)
    if missing:
        raise InvalidSwapError(E.JOKER_NOT_MELDED, joker_ids=", ".join(map(str, missing)))
