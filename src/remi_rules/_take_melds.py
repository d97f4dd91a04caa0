"""The melds that can justify a taken tile (RUPE-01, RUPE-02, RUPE-06), shared by the
take rules (:mod:`remi_rules.rupere`) and the turn plans of the solver layer
(:mod:`remi_rules.solver`'s ``can_open_with`` / ``can_close_with``); the public
functions are :func:`remi_rules.rupere.justifying_melds` and
:func:`remi_rules.rupere.can_justify`.  Also the argument checks those modules share."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from typing import Final

from ._meld_catalogue import layouts_of
from .context import NO_JOKER_HISTORY
from .errors import InvalidTakeError, TakeErrorCode
from .melds import Meld, analyze_meld
from .ruleset import Ruleset, require_ruleset
from .table import JokerHistory, tile_value_of
from .tiles import Tile, tile_of

E: Final = TakeErrorCode
_NO_HISTORY: Final = NO_JOKER_HISTORY


def ids_arg(ids: Sequence[int] | Collection[int], what: str) -> tuple[int, ...]:
    if isinstance(ids, str | bytes):
        raise TypeError(f"{what} must be a sequence of tile ids, not {type(ids).__name__}")
    out = tuple(ids)
    for i in out:
        tile_of(i)  # TypeError / InvalidTileError for a bad id
    return out


def distinct(*groups: tuple[int, ...]) -> None:
    seen: set[int] = set()
    for group in groups:
        for i in group:
            if i in seen:
                raise InvalidTakeError(E.DUPLICATE_TILE, id=i)
            seen.add(i)


def int_arg(value: object, what: str, lo: int | None) -> int:
    """``value`` if it is an int of at least ``lo`` (any int for None); else
    :class:`TypeError`, or ``take_bad_argument`` (the value shown safely)."""
    if type(value) is not int:
        raise TypeError(f"{what} must be an int, not {type(value).__name__}")
    if lo is not None and value < lo:
        raise InvalidTakeError(TakeErrorCode.BAD_ARGUMENT, argument=what, minimum=lo, value=value)
    return value


Valuer = Callable[[int], Tile]


def valuer(jokers: Sequence[JokerHistory]) -> Valuer:
    """The tile value of a physical id, a joker's fixed identity (JOLY-05) taken from
    ``jokers`` (the histories of ids 104 and 105, as in ``Table.jokers``)."""
    histories = tuple(jokers)
    if len(histories) != 2 or not all(isinstance(h, JokerHistory) for h in histories):
        raise TypeError("jokers must be the two JokerHistory values of ids 104 and 105")
    if histories == _NO_HISTORY:
        return tile_of
    return lambda tile_id: tile_value_of(tile_id, histories)


def _assign(
    layout: tuple[Tile, ...],
    picked: int,
    picked_value: Tile,
    by_value: dict[Tile, list[int]],
) -> tuple[int, ...] | None:
    """Physical ids for ``layout``: ``picked`` for one slot of its value, the rest the
    first unused ids of each value in ``by_value`` (the pools' ids by value, in order
    of preference); ``None`` if impossible."""
    out: list[int] = []
    taken: dict[Tile, int] = {}
    placed = False
    for want in layout:
        if not placed and want == picked_value:
            out.append(picked)
            placed = True
            continue
        ids = by_value.get(want)
        k = taken.get(want, 0)
        if ids is None or k >= len(ids):
            return None
        out.append(ids[k])
        taken[want] = k + 1
    return tuple(out) if placed else None


def own_count(meld: Sequence[int], own: Collection[int], rules: Ruleset) -> int:
    return sum(1 for i in meld if i in own and (rules.take_meld_joker_counts_as_own or i < 104))


def justifying(
    picked: int,
    rack: tuple[int, ...],
    rules: Ruleset,
    also_taken: tuple[int, ...],
    acquired_later: tuple[int, ...],
    value: Valuer,
) -> Iterator[tuple[tuple[int, ...], Meld]]:
    """Each justifying meld (ids in table order, with its Meld), ignoring TURN-07."""
    predate = rules.take_meld_tiles_must_predate_take
    own = set(rack) if predate else {*rack, *also_taken, *acquired_later}
    extra = also_taken + acquired_later
    # Prefer ids that count as own tiles (jokers last unless they count).
    pool_ids = (rack, extra) if predate else (rack + extra,)
    picked_value = value(picked)
    values = Counter(value(i) for i in (picked, *rack, *extra))
    acts = picked_value.acts_as
    if acts is not None:
        # A meld holding the picked tile is a run of its colour or a set of its rank:
        # only those tiles (and free jokers) can be in it.
        values = Counter(
            {
                t: n
                for t, n in values.items()
                if t.acts_as is None or t.acts_as.color is acts.color or t.acts_as.rank == acts.rank
            }
        )
    # Each value's ids in order of preference (the picked tile is in no pool).
    by_value: dict[Tile, list[int]] = {}
    for i in itertools.chain.from_iterable(pool_ids):
        by_value.setdefault(value(i), []).append(i)
    seen: set[tuple[int, ...]] = set()
    # Only the layouts that may hold the picked tile's value (a free joker: all).
    for layout in layouts_of(+values, rules, acts):
        if picked_value not in layout:
            continue
        ids = _assign(layout, picked, picked_value, by_value)
        if ids is None or ids in seen:
            continue
        seen.add(ids)
        if own_count(ids, own, rules) >= rules.take_meld_min_own_tiles:
            yield ids, analyze_meld([value(i) for i in ids], rules)


def justifying_melds(
    taken_tile_id: int,
    rack_before_take: Sequence[int],
    rules: Ruleset,
    *,
    also_taken: Sequence[int] = (),
    acquired_later: Sequence[int] = (),
    min_left: int = 1,
    jokers: Sequence[JokerHistory] = _NO_HISTORY,
) -> tuple[tuple[int, ...], ...]:
    """RUPE-01, RUPE-02, RUPE-06: every new meld (physical ids, in table order) that can
    justify taking ``taken_tile_id``: a valid meld holding it and at least
    ``take_meld_min_own_tiles`` tiles of ``rack_before_take`` (a rack joker counts when
    ``take_meld_joker_counts_as_own``).

    ``also_taken`` are the other tiles a rupere brings (RUPE-03) and ``acquired_later``
    tiles got later in the turn (a swapped joker): they may complete the meld, but
    count as own tiles only when ``take_meld_tiles_must_predate_take`` is false
    (OQ-11, EX-21).  A meld is listed only if at least ``min_left`` tiles would then
    stay on the rack (TURN-07; OPEN-08 wants 2 in an opening turn), counting the old
    rack, every taken tile and ``acquired_later``.  Jokers fill only the gaps of a run
    or the missing colours of a set (plus, where a rack joker could stand in for a
    held tile, that reading too); a fixed joker (``jokers``: the histories of ids 104
    and 105, as in ``Table.jokers``) only where its tile would (JOLY-05).  A lay-off
    never justifies a take here; see ``take_discard_may_layoff`` in
    :func:`verify_obligation`.
    """
    return tuple(
        _fitting(
            taken_tile_id,
            rack_before_take,
            rules,
            also_taken,
            acquired_later,
            min_left,
            jokers,
            memo=True,
        )
    )


def can_justify(
    taken_tile_id: int,
    rack_before_take: Sequence[int],
    rules: Ruleset,
    *,
    also_taken: Sequence[int] = (),
    acquired_later: Sequence[int] = (),
    min_left: int = 1,
    jokers: Sequence[JokerHistory] = _NO_HISTORY,
) -> bool:
    """True if :func:`justifying_melds` finds at least one meld."""
    for _ in _fitting(
        taken_tile_id, rack_before_take, rules, also_taken, acquired_later, min_left, jokers
    ):
        return True
    return False


def _fitting(
    taken_tile_id: int,
    rack_before_take: Sequence[int],
    rules: Ruleset,
    also_taken: Sequence[int],
    acquired_later: Sequence[int],
    min_left: int,
    jokers: Sequence[JokerHistory],
    *,
    memo: bool = False,
) -> Iterator[tuple[int, ...]]:
    """The justifying melds that leave ``min_left`` tiles, lazily (arguments checked);
    with ``memo``, all of them made at once and kept (:func:`_memoized`)."""
    require_ruleset(rules)
    (picked,) = ids_arg((taken_tile_id,), "taken_tile_id")
    rack = ids_arg(rack_before_take, "rack_before_take")
    also = ids_arg(also_taken, "also_taken")
    later = ids_arg(acquired_later, "acquired_later")
    distinct((picked,), rack, also, later)
    int_arg(min_left, "min_left", 0)
    held = len(rack) + 1 + len(also) + len(later)
    value = valuer(jokers)
    if memo:
        melds: Iterable[tuple[int, ...]] = _memoized(picked, rack, rules, also, later, value)
    else:
        melds = (ids for ids, _ in justifying(picked, rack, rules, also, later, value))
    for ids in melds:
        if held - len(ids) >= min_left:
            yield ids


_MEMO: dict[tuple[object, ...], tuple[Ruleset, tuple[tuple[int, ...], ...]]] = {}
"""The justifying melds asked lately, by the tiles that could be in them
(:func:`_memoized`): a turn asks again for the same taken tile as its rack changes
elsewhere (the finishable search, a turn's lists)."""


def _memoized(
    picked: int,
    rack: tuple[int, ...],
    rules: Ruleset,
    also: tuple[int, ...],
    later: tuple[int, ...],
    value: Valuer,
) -> tuple[tuple[int, ...], ...]:
    """Every justifying meld (:func:`justifying`), made from the tiles that could be in
    a meld with ``picked`` (free jokers, its colour, its rank): the others change no
    answer, so racks that differ only in them share one."""
    acts = value(picked).acts_as
    if acts is not None:

        def could(i: int) -> bool:
            other = value(i).acts_as
            return other is None or other.color is acts.color or other.rank == acts.rank

        rack = tuple(filter(could, rack))
        also = tuple(filter(could, also))
        later = tuple(filter(could, later))
    jokers = value(104), value(105)
    key = (picked, rack, also, later, id(rules), jokers)
    hit = _MEMO.get(key)
    if hit is not None and hit[0] is rules:
        return hit[1]
    melds = tuple(ids for ids, _ in justifying(picked, rack, rules, also, later, value))
    if len(_MEMO) >= 1024:
        _MEMO.clear()
    _MEMO[key] = (rules, melds)
    return melds
