"""Laying off (lipire): LIPI-01 … LIPI-08, JOLY-07, OPEN-07.

Pure functions over the immutable :class:`~remi_rules.table.Table`, configured only by
the :class:`~remi_rules.Ruleset`:

* :func:`verify_lay_off` raises :class:`~remi_rules.InvalidLayoffError` with a stable
  :class:`~remi_rules.LayoffErrorCode` when physical tile ``tile_id`` may not be laid
  onto meld ``meld_index``; :func:`can_lay_off` is the same as a bool;
  :func:`lay_off` returns the new table.
* :func:`layoff_options` lists every place a tile may go (meld index and end), joker
  swaps included (LIPI-08).
* :func:`layoff_credit` is what the layer earns (LIPI-04): the VALUE-01 value of the
  tile in its new place, a joker's end value (VALUE-03).

A tile that is exactly what a determined joker of the meld stands for is never laid
off: putting it there is a swap (LIPI-08, JOLY-01, JOLY-03), refused here with
``layoff_is_swap`` and handled by :mod:`remi_rules.joly`.  Nothing ever leaves a meld
on a lay-off (LIPI-05, TURN-08): :func:`lay_off` only adds.

>>> from remi_rules import ids_of, Tile, variants
>>> from remi_rules.table import Table
>>> from remi_rules.lipire import lay_off, layoff_credit, layoff_options
>>> clasic = variants.get("clasic")
>>> t = lambda text, copy=0: ids_of(Tile.parse(text))[copy]
>>> table, a = Table().add_meld(0, [t("6R"), t("7R"), t("8R")], clasic)
>>> [str(o) for o in layoff_options(table, t("9R"), 1, clasic, opened=True, opened_this_turn=False)]
['0:high']
>>> table = lay_off(table, a, t("9R"), 1, clasic, opened=True, opened_this_turn=False)
>>> str(table.melds[a].meld), layoff_credit(table, a, t("9R"), clasic)
('6R 7R 8R 9R', 5)
"""

from __future__ import annotations

import enum
from collections.abc import Collection, Sequence

import attrs

from .context import TurnContext, boolean_form, table_context
from .errors import InvalidLayoffError, InvalidMeldError, LayoffErrorCode, MeldErrorCode
from .melds import Meld, MeldKind, analyze_meld, is_valid_meld
from .opening import may_lay_off_on_others
from .ruleset import Ruleset, require_ruleset
from .table import JokerState, Table, TableMeld
from .tiles import JOKER_IDS, Tile, tile_of

__all__ = [
    "End",
    "LayoffOption",
    "can_lay_off",
    "joker_replaced_by",
    "lay_off",
    "layoff_credit",
    "layoff_credits",
    "layoff_options",
    "might_fit",
    "verify_lay_off",
]

E = LayoffErrorCode


class End(enum.StrEnum):
    """Where a tile goes: the low or high end of a run, into a set, or (in
    :func:`layoff_options` only) in a joker's place by a swap (LIPI-08)."""

    LOW = "low"
    HIGH = "high"
    SET = "set"
    SWAP = "swap"


@attrs.frozen
class LayoffOption:
    """One place a tile may go: meld ``meld_index`` at ``end``; for ``End.SWAP`` the
    joker ``joker_id`` it would take (see :func:`remi_rules.joly.swap`)."""

    meld_index: int
    end: End
    joker_id: int | None = None

    def __str__(self) -> str:
        swap = f"({self.joker_id})" if self.joker_id is not None else ""
        return f"{self.meld_index}:{self.end.value}{swap}"


_JOKER_LIMIT_CODES = frozenset({MeldErrorCode.TOO_MANY_JOKERS, MeldErrorCode.ADJACENT_JOKERS})


def _require_table(table: object) -> None:
    if not isinstance(table, Table):
        raise TypeError(f"table must be a Table, not {type(table).__name__}")


def _require_tile(tile: object) -> None:
    if not isinstance(tile, Tile):
        raise TypeError(f"tile must be a Tile, not {type(tile).__name__}")


def _meld(table: Table, meld_index: int) -> TableMeld:
    if type(meld_index) is not int:
        raise TypeError(f"meld_index must be an int, not {type(meld_index).__name__}")
    if not 0 <= meld_index < len(table.melds):
        raise InvalidLayoffError(E.BAD_MELD_INDEX, meld_index=meld_index)
    return table.melds[meld_index]


def joker_replaced_by(table: Table, meld_index: int, tile: Tile) -> int | None:
    """The id of the joker in meld ``meld_index`` that stands for exactly ``tile``
    (a determined joker: in a run always, in a set once it holds three real tiles,
    MELD-06), or ``None``.  Putting ``tile`` there is a swap, not a lay-off (LIPI-08,
    JOLY-01, JOLY-03)."""
    _require_table(table)
    _require_tile(tile)
    meld = _meld(table, meld_index)
    if tile.is_joker or (104 not in meld.ids and 105 not in meld.ids):
        return None  # (a meld's jokers are the physical jokers it holds)
    for slot in meld.meld.jokers:
        if slot.tile == tile:
            return meld.ids[slot.position]
    return None


def _ends(meld: TableMeld) -> tuple[End, ...]:
    return (End.LOW, End.HIGH) if meld.kind is MeldKind.SUITA else (End.SET,)


def _placed(tiles: Sequence[Tile], tile: Tile, end: End) -> list[Tile]:
    return [tile, *tiles] if end is End.LOW else [*tiles, tile]


def _check_end(
    table: Table, meld: TableMeld, tile: Tile, end: End, rules: Ruleset, explain: bool = True
) -> LayoffErrorCode | tuple[LayoffErrorCode, MeldErrorCode] | None:
    """``None`` if ``tile`` fits meld at ``end`` (validity only), else why not (without
    ``explain``, ``layoff_not_fitting`` for any meld that is not valid: its diagnosis
    is not worked out)."""
    if end not in _ends(meld):
        return E.BAD_END
    if end is End.HIGH and meld.meld.high_ace:
        return E.END_CLOSED
    if meld.meld.is_full:
        return E.MELD_FULL
    tiles = [table.tile(i) for i in meld.ids]
    if not explain:
        return None if is_valid_meld(_placed(tiles, tile, end), rules) else E.NOT_FITTING
    try:
        analyze_meld(_placed(tiles, tile, end), rules)
    except InvalidMeldError as err:
        if err.code in _JOKER_LIMIT_CODES:
            return E.JOKER_LIMIT, err.code
        return E.NOT_FITTING, err.code
    return None


def extends(meld: Meld, tile: Tile, rules: Ruleset) -> bool:
    """Whether ``tile`` makes a valid meld laid at an end of ``meld`` (a run) or with it
    (a set): the shape of a lay-off (MELD-02/03/05), with ``meld`` as read, so a joker
    keeps the tile it stands for.  The table's own conditions (whose meld, the turn,
    LIPI-07 and JOLY-07) are :func:`verify_lay_off`'s."""
    if meld.is_full:
        return False
    if meld.kind is MeldKind.TERTA:
        return is_valid_meld([*meld.tiles, tile], rules)
    ends = (End.LOW,) if meld.high_ace else (End.LOW, End.HIGH)
    return any(is_valid_meld(_placed(meld.tiles, tile, end), rules) for end in ends)


def _reused_joker_3set(table: Table, meld: TableMeld, rules: Ruleset) -> bool:
    """LIPI-07: a set of two real tiles whose (wild) joker was already taken off the
    table as often as it may be, so its colour can never be resolved."""
    if meld.kind is not MeldKind.TERTA or meld.real_count != 2:
        return False
    return any(
        table.joker(meld.ids[p]).state(rules) is JokerState.REUSED for p in meld.joker_positions()
    )


def might_fit(tile: Tile, meld: TableMeld) -> bool:
    """A cheap necessary condition for laying ``tile`` on ``meld``, or for swapping it
    for one of the meld's jokers: a free joker may fit anywhere; a numbered tile (or a
    fixed joker, as its tile) only at the rank of a set, or in a run's colour at one
    of its ends, as a high ace, or where a joker stands for it.  The rules themselves
    are :func:`verify_lay_off` and :func:`remi_rules.joly.verify_swap`."""
    _require_tile(tile)
    if not isinstance(meld, TableMeld):
        raise TypeError(f"meld must be a TableMeld, not {type(meld).__name__}")
    if tile.is_joker and not tile.is_fixed_joker:
        return True
    acts = tile.acts_as
    assert acts is not None
    info = meld.meld
    if meld.kind is MeldKind.TERTA:
        return acts.rank == info.low
    if acts.color is not info.color:
        return False
    high = info.low + len(meld.ids) - 1
    return acts.rank in (info.low - 1, high + 1, 1) or any(s.tile == acts for s in info.jokers)


def verify_lay_off(
    table: Table,
    meld_index: int,
    tile_id: int,
    seat: int,
    rules: Ruleset | TurnContext,
    *,
    opened: bool | None = None,
    opened_this_turn: bool | None = None,
    new_meld_indexes: Collection[int] = (),
    end: End | None = None,
) -> End:
    """Check that ``seat`` may lay physical tile ``tile_id`` (from his rack) onto meld
    ``meld_index``; return the end it goes to.  ``new_meld_indexes`` are the melds
    created in this turn (OPEN-07); ``end`` is required only where a tile fits at both
    ends of a run (a joker, or a 1 on ``2 … 13``: MELD-06).

    Refuses with :class:`~remi_rules.InvalidLayoffError`, checked in this order:
    ``layoff_bad_meld_index``, ``layoff_tile_on_table``, ``layoff_not_opened``
    (LIPI-01), ``layoff_opening_turn`` (LIPI-03, OPEN-07: melds that existed before
    the opening turn, unless ``layoff_on_others_in_opening_turn``),
    ``layoff_joker_on_others_meld`` (JOLY-07), ``layoff_is_swap`` (LIPI-08, JOLY-03:
    the tile a determined joker stands for), ``layoff_reused_joker_set`` (LIPI-07),
    ``layoff_bad_end``, ``layoff_meld_full`` (MELD-03), ``layoff_end_closed``
    (MELD-02, a high ace), ``layoff_joker_limit`` (MELD-05), ``layoff_not_fitting``,
    ``layoff_end_required``.

    ``rules`` is the ruleset with the turn's facts as keyword flags (``opened`` and
    ``opened_this_turn`` required), or a :class:`~remi_rules.context.TurnContext`
    holding them (its ``opened``, ``opened_this_turn`` and ``new_meld_indexes``).
    """
    ctx = table_context(rules, opened, opened_this_turn, new_meld_indexes=new_meld_indexes)
    return _lay_off_end(table, meld_index, tile_id, seat, ctx, end, True)


class _Refused(Exception):
    """A lay-off refused where nobody asks why (:func:`fits`)."""


def _lay_off_end(
    table: Table,
    meld_index: int,
    tile_id: int,
    seat: int,
    ctx: TurnContext,
    end: End | None,
    explain: bool,
) -> End:
    """:func:`verify_lay_off` with its context made; without ``explain`` a refusal is
    a bare :class:`_Refused` (no details, no meld diagnosis)."""
    rules = ctx.rules
    opened, opened_this_turn = ctx.opened, ctx.opened_this_turn
    meld = _meld(table, meld_index)
    tile = table.tile(tile_id)

    def refused(code: LayoffErrorCode, **extra: object) -> Exception:
        if not explain:
            return _Refused()
        return InvalidLayoffError(
            code, **extra, meld_index=meld_index, tile=tile, meld=str(meld.meld)
        )

    if explain and table.holds(tile_id):  # (fits: a rack tile)
        raise refused(E.TILE_ON_TABLE)
    if not opened:
        raise refused(E.NOT_OPENED)
    if meld_index not in ctx.new_meld_indexes and not may_lay_off_on_others(
        opened=opened, opened_this_turn=opened_this_turn, rules=rules
    ):
        raise refused(E.OPENING_TURN)
    if tile.is_joker and meld.owner != seat and not rules.joker_layoff_on_others_melds:
        raise refused(E.JOKER_ON_OTHERS_MELD)
    joker_id = joker_replaced_by(table, meld_index, tile)
    if joker_id is not None:
        raise refused(E.IS_SWAP, joker_id=joker_id)
    if _reused_joker_3set(table, meld, rules) and not rules.layoff_on_3set_with_reused_joker:
        raise refused(E.REUSED_JOKER_SET)
    if end is not None:
        if not isinstance(end, End) or end is End.SWAP:
            raise refused(E.BAD_END, end=str(end))
        problem = _check_end(table, meld, tile, end, rules, explain)
        if problem is not None:
            code, why = problem if isinstance(problem, tuple) else (problem, None)
            extra = {"end": end.value} if why is None else {"end": end.value, "why": why}
            raise refused(code, **extra)
        return end
    fits: list[End] = []
    problems: list[LayoffErrorCode | tuple[LayoffErrorCode, MeldErrorCode]] = []
    for candidate in _ends(meld):
        problem = _check_end(table, meld, tile, candidate, rules, explain)
        if problem is None:
            fits.append(candidate)
        else:
            problems.append(problem)
    if len(fits) == 1:
        return fits[0]
    if len(fits) > 1:
        raise refused(E.END_REQUIRED, ends=tuple(e.value for e in fits))
    raise refused(_worst(problems))


def fits(
    table: Table, meld_index: int, tile_id: int, seat: int, ctx: TurnContext, end: End | None
) -> bool:
    """:func:`can_lay_off` with a :class:`~remi_rules.context.TurnContext`, the
    arguments trusted (a meld of the table, a tile off it), and no refusal made: the
    engine's list of legal steps asks it of every tile and meld that might fit."""
    try:
        _lay_off_end(table, meld_index, tile_id, seat, ctx, end, False)
    except (_Refused, InvalidLayoffError):
        return False
    return True


def _worst(problems: Sequence[LayoffErrorCode | tuple[LayoffErrorCode, MeldErrorCode]]) -> E:
    """The most telling reason among the ends' refusals."""
    codes = [p[0] if isinstance(p, tuple) else p for p in problems]
    for code in (E.MELD_FULL, E.JOKER_LIMIT, E.END_CLOSED):
        if code in codes:
            return code
    return E.NOT_FITTING


can_lay_off = boolean_form(verify_lay_off, InvalidLayoffError, "can_lay_off")


def lay_off(
    table: Table,
    meld_index: int,
    tile_id: int,
    seat: int,
    rules: Ruleset | TurnContext,
    *,
    opened: bool | None = None,
    opened_this_turn: bool | None = None,
    new_meld_indexes: Collection[int] = (),
    end: End | None = None,
) -> Table:
    """Lay physical tile ``tile_id`` from ``seat``'s rack onto meld ``meld_index``
    (after :func:`verify_lay_off`); return the new table.  The tile is credited to
    ``seat`` (LIPI-04, the ledger); the meld keeps its owner and every tile it had
    (LIPI-05).  ``rules`` and the flags as for :func:`verify_lay_off`."""
    ctx = table_context(rules, opened, opened_this_turn, new_meld_indexes=new_meld_indexes)
    where = verify_lay_off(table, meld_index, tile_id, seat, ctx, end=end)
    return table.extend(meld_index, tile_id, seat, ctx.rules, low_end=where is End.LOW)


def layoff_options(
    table: Table,
    tile_id: int,
    seat: int,
    rules: Ruleset | TurnContext,
    *,
    opened: bool | None = None,
    opened_this_turn: bool | None = None,
    new_meld_indexes: Collection[int] = (),
) -> tuple[LayoffOption, ...]:
    """Every place ``seat`` may put physical tile ``tile_id`` from his rack: each
    meld and end where :func:`can_lay_off` holds, and each joker the tile may take by
    a swap (``End.SWAP``, LIPI-08, :func:`remi_rules.joly.can_swap`), in table order.
    ``rules`` and the flags as for :func:`verify_lay_off`."""
    from .joly import can_swap

    ctx = table_context(rules, opened, opened_this_turn, new_meld_indexes=new_meld_indexes)
    out: list[LayoffOption] = []
    for index, meld in enumerate(table.melds):
        for end in _ends(meld):
            if can_lay_off(table, index, tile_id, seat, ctx, end=end):
                out.append(LayoffOption(index, end))
        if tile_id in JOKER_IDS:
            continue
        joker_id = joker_replaced_by(table, index, tile_of(tile_id))
        if joker_id is not None and can_swap(table, index, joker_id, tile_id, seat, ctx):
            out.append(LayoffOption(index, End.SWAP, joker_id))
    return tuple(out)


def layoff_credit(table: Table, meld_index: int, tile_id: int, rules: Ruleset) -> int:
    """LIPI-04: what the layer of physical tile ``tile_id``, now in meld
    ``meld_index``, is credited at the end: its VALUE-01 value in that place (a 1 is
    5 low, 10 high, 25 in a set of aces); a joker, its end value (VALUE-03: 50 under
    ``fixed_50``, what it stands for under ``represented``; a fixed joker, its tile).
    Refused with ``layoff_bad_meld_index`` for a meld that is not on the table, and
    ``layoff_tile_not_in_meld`` for a tile that is not in that meld.
    """
    _require_table(table)
    require_ruleset(rules)
    meld = _meld(table, meld_index)
    if type(tile_id) is not int:
        raise TypeError(f"tile_id must be an int, not {type(tile_id).__name__}")
    if tile_id not in meld.ids:
        raise InvalidLayoffError(E.TILE_NOT_IN_MELD, tile_id=tile_id, meld_index=meld_index)
    return table.end_values(meld, rules)[meld.position_of(tile_id)]


def layoff_credits(table: Table, rules: Ruleset) -> dict[int, int]:
    """The total lay-off credit of each seat (LIPI-04): :func:`layoff_credit` summed
    over the table's ledger, tiles laid in a swapped joker's place excluded (those are
    VALUE-05 bookkeeping for the scoring)."""
    _require_table(table)
    require_ruleset(rules)
    out: dict[int, int] = {}
    for entry in table.ledger():
        if entry.replacement:
            continue
        value = layoff_credit(table, entry.meld_index, entry.tile_id, rules)
        out[entry.credited] = out.get(entry.credited, 0) + value
    return out
