"""Taking from the discard row (rupere) and taking the face-up atu.

Rules: RUPE-01 … RUPE-08, TURN-01, TURN-03, TURN-04, TURN-07, TURN-10, OPEN-06,
ATU-06, CLOSE-06 (the pe-tablă closing turn) of docs/RULES.md, configured only by the
:class:`~remi_rules.Ruleset` (the "rupere" knobs and ``atu_face_up_takeable``).

Everything here is a pure function of plain values: the discard row is a sequence of
physical tile ids, oldest first (its first element is the starter's dead first discard
while ``row_starts_with_first_discard``), and a rack is a sequence of physical ids.

* Who may take what: :func:`take_options`, and the triplet :func:`verify_take` (raises
  :class:`~remi_rules.InvalidTakeError`), :func:`can_take` (bool) and :func:`take`
  (the mechanics: the new row, what comes into the rack, the obligation).  The atu:
  :func:`verify_take_atu`, :func:`can_take_atu`, :func:`take_atu`.
* Whether the taken tile can justify itself (RUPE-01/02/06): :func:`justifying_melds`
  and :func:`can_justify`, judged against the rack *as it was when the tile was
  taken*; :func:`can_open_with` (OPEN-06) and :func:`can_close_with` (ATU-06,
  CLOSE-06) for the turn plans that must open or close.
* At the turn's end: :func:`verify_obligation` / :func:`obligation_met`.

>>> from remi_rules import Tile, ids_of, variants
>>> from remi_rules.rupere import take_options
>>> clasic = variants.get("clasic")
>>> row = [ids_of(Tile.parse(t))[0] for t in ("2N", "4G", "9R", "2A", "13N", "6G")]
>>> take_options(row, 6, clasic, opened_before_this_turn=True, turn_number=5)
(1, 2, 3, 4, 5)
"""

from __future__ import annotations

import enum
import itertools
from collections import Counter
from collections.abc import Callable, Collection, Iterator, Sequence
from typing import Final

import attrs

from . import _partition as partition
from .errors import InvalidMeldError, InvalidTakeError, TakeErrorCode
from .melds import Meld, analyze_meld, arrange_meld, is_valid_meld
from .opening import min_rack_after_opening
from .ruleset import AtuFaceUpTakeable, Ruleset, require_ruleset
from .solver import opening_classes, opening_split
from .table import JokerHistory, tile_value_of
from .tiles import JOKER, Color, Tile, tile_of, tiles_str

__all__ = [
    "ObligationOutcome",
    "TakeObligation",
    "TakeResult",
    "TakeSource",
    "can_close_with",
    "can_justify",
    "can_open_with",
    "can_take",
    "can_take_atu",
    "justifying_melds",
    "obligation_met",
    "take",
    "take_atu",
    "take_options",
    "verify_obligation",
    "verify_take",
    "verify_take_atu",
]

E: Final = TakeErrorCode
_COLORS: Final = tuple(Color)


class TakeSource(enum.StrEnum):
    """Where a taken tile came from (TURN-03 b, c, d)."""

    LAST_DISCARD = "last_discard"
    """The last discard of the row (RUPE-01)."""
    OLDER = "older"
    """An older row tile, taken with every tile discarded after it (RUPE-03)."""
    ATU = "atu"
    """The face-up atu (ATU-06)."""


class ObligationOutcome(enum.StrEnum):
    """How the obligation of a take was met at the turn's end."""

    NEW_MELD = "new_meld"
    """The picked tile is in a new meld with enough pre-take rack tiles (RUPE-01)."""
    LAYOFF = "layoff"
    """The picked tile was laid off; only when ``take_discard_may_layoff``."""
    DECLARES_PE_TABLA = "declares_pe_tabla"
    """Kept without melding: the player thereby declares pe tablă; only when
    ``take_discard_without_meld_declares_pe_tabla`` (000 l.53, OQ-08)."""


@attrs.frozen
class TakeObligation:
    """What a take obliges the player to do before his turn ends: put :attr:`picked`
    into a new meld with at least ``take_meld_min_own_tiles`` tiles of
    :attr:`rack_before_take` (RUPE-01, RUPE-06); for the atu also close (ATU-06)."""

    source: TakeSource
    picked: int
    """The physical id of the tile that must be melded (the chosen row tile, or the atu)."""
    rack_before_take: tuple[int, ...]
    """The rack at the moment of taking (RUPE-06)."""
    also_taken: tuple[int, ...] = ()
    """The other row tiles that came with a rupere; free to meld, lay off or keep."""

    @property
    def must_close(self) -> bool:
        """ATU-06: whoever takes the atu must close in the same turn."""
        return self.source is TakeSource.ATU


@attrs.frozen
class TakeResult:
    """The outcome of :func:`take` / :func:`take_atu`."""

    row: tuple[int, ...] | None
    """The row after the take (``None`` for the atu, which is not in the row)."""
    taken: tuple[int, ...]
    """Every tile that comes into the rack, picked tile first, in row order after it."""
    rack: tuple[int, ...]
    """The rack after the take: the old rack, then :attr:`taken` (TURN-10: no cap)."""
    obligation: TakeObligation

    @property
    def picked(self) -> int:
        """The tile that must go into a new meld this turn."""
        return self.obligation.picked


# -- input checks ---------------------------------------------------------------------------


def _ids(ids: Sequence[int] | Collection[int], what: str) -> tuple[int, ...]:
    if isinstance(ids, str | bytes):
        raise TypeError(f"{what} must be a sequence of tile ids, not {type(ids).__name__}")
    out = tuple(ids)
    for i in out:
        tile_of(i)  # TypeError / InvalidTileError for a bad id
    return out


def _distinct(*groups: tuple[int, ...]) -> None:
    seen: set[int] = set()
    for group in groups:
        for i in group:
            if i in seen:
                raise InvalidTakeError(E.DUPLICATE_TILE, id=i)
            seen.add(i)


def _int(value: object, what: str, lo: int) -> int:
    if type(value) is not int:
        raise TypeError(f"{what} must be an int, not {type(value).__name__}")
    if value < lo:
        raise ValueError(f"{what} must be at least {lo}, not {value}")
    return value


_NO_HISTORY: Final = (JokerHistory(), JokerHistory())
Valuer = Callable[[int], Tile]


def _valuer(jokers: Sequence[JokerHistory]) -> Valuer:
    """The tile value of a physical id, a joker's fixed identity (JOLY-05) taken from
    ``jokers`` (the histories of ids 104 and 105, as in ``Table.jokers``)."""
    histories = tuple(jokers)
    if len(histories) != 2 or not all(isinstance(h, JokerHistory) for h in histories):
        raise TypeError("jokers must be the two JokerHistory values of ids 104 and 105")
    if histories == _NO_HISTORY:
        return tile_of
    return lambda tile_id: tile_value_of(tile_id, histories)


# -- which tiles may be taken -----------------------------------------------------------------


def _may_declare_pe_tabla_by_taking(rules: Ruleset, opened: bool) -> bool:
    return (
        rules.take_discard_without_meld_declares_pe_tabla and rules.pe_tabla_enabled and not opened
    )


def _refusal(
    length: int,
    index: int,
    rack: int,
    rules: Ruleset,
    *,
    opened: bool,
    turn_number: int,
    declared_pe_tabla: bool,
    closing_turn: bool,
    row_starts_with_first_discard: bool,
) -> InvalidTakeError | None:
    """Why row position ``index`` may not be taken now, or ``None``."""
    for name, flag in (
        ("opened_before_this_turn", opened),
        ("declared_pe_tabla", declared_pe_tabla),
        ("closing_turn", closing_turn),
        ("row_starts_with_first_discard", row_starts_with_first_discard),
    ):
        if type(flag) is not bool:
            raise TypeError(f"{name} must be a bool, not {type(flag).__name__}")
    # A pe-tablă declaration means nothing where pe tablă is disabled (CLOSE-06).
    declared_pe_tabla = declared_pe_tabla and rules.pe_tabla_enabled
    if length == 0:
        return InvalidTakeError(E.EMPTY_ROW, index=index, length=length)
    if not 0 <= index < length:
        return InvalidTakeError(E.INDEX_OUT_OF_RANGE, index=index, length=length)
    if index == 0 and row_starts_with_first_discard and rules.first_discard_dead:
        return InvalidTakeError(E.DEAD_FIRST_DISCARD, index=index)
    if turn_number == 1 and rules.first_turn_no_meld:
        return InvalidTakeError(E.FIRST_TURN, index=index)
    if declared_pe_tabla and not closing_turn:
        return InvalidTakeError(E.PE_TABLA_NOT_CLOSING, index=index)
    if index == length - 1:
        if not opened and not declared_pe_tabla and not rules.take_last_discard_before_opening:
            return InvalidTakeError(E.UNOPENED_LAST_DISCARD, index=index)
        if rack < rules.take_last_discard_min_rack:
            return InvalidTakeError(
                E.LAST_DISCARD_RACK_TOO_SMALL,
                index=index,
                rack=rack,
                minimum=rules.take_last_discard_min_rack,
            )
    else:
        if not rules.rupere_anywhere:
            return InvalidTakeError(E.RUPERE_DISABLED, index=index)
        if rules.rupere_anywhere_requires_opened and not opened:
            return InvalidTakeError(E.RUPERE_UNOPENED, index=index)
        if rack < rules.rupere_anywhere_min_rack:
            return InvalidTakeError(
                E.RUPERE_RACK_TOO_SMALL,
                index=index,
                rack=rack,
                minimum=rules.rupere_anywhere_min_rack,
            )
    # TURN-07 (and OPEN-08 in an opening turn): the new meld takes the picked tile and
    # at least take_meld_min_own_tiles rack tiles, and something must stay on the rack.
    if (opened and rules.take_discard_may_layoff) or (
        not declared_pe_tabla and _may_declare_pe_tabla_by_taking(rules, opened)
    ):
        return None
    own = rules.take_meld_min_own_tiles
    left = 1 if opened or declared_pe_tabla else min_rack_after_opening(rules)
    others = length - index - 1
    if rack < own or rack + others - own < left:
        return InvalidTakeError(E.NOTHING_WOULD_REMAIN, index=index, rack=rack, own=own, left=left)
    return None


def take_options(
    row: Sequence[int],
    rack_size_at_turn_start: int,
    rules: Ruleset,
    *,
    opened_before_this_turn: bool,
    turn_number: int,
    declared_pe_tabla: bool = False,
    closing_turn: bool = False,
    row_starts_with_first_discard: bool = True,
) -> tuple[int, ...]:
    """The row positions (0-based, ascending) the player may take now.

    The last position is the last discard (RUPE-01; for an unopened player only when
    ``take_last_discard_before_opening``, OPEN-06; only with at least
    ``take_last_discard_min_rack`` tiles, RUPE-05); an older position breaks the row
    there (RUPE-03, when ``rupere_anywhere``; after an earlier etalare when
    ``rupere_anywhere_requires_opened``; with at least ``rupere_anywhere_min_rack``
    tiles, RUPE-04).  Never the dead first discard (TURN-01, ``first_discard_dead``),
    never in the player's first turn (TURN-04), and for a pe-tablă declarer only in
    his closing turn (RUPE-07).  A take is also refused where TURN-07 makes it
    pointless: the new meld needs the picked tile and ``take_meld_min_own_tiles`` rack
    tiles, and a tile must stay on the rack (two in an opening turn, OPEN-08), so with
    2 tiles the last discard can never be taken (EX-19).

    ``turn_number`` counts the player's own turns from 1.  ``row_starts_with_first_discard``
    says the row still begins with the starter's first discard (false after an
    ``online`` reshuffle of the row into the stock).  Whether the rack can actually
    justify a position is :func:`can_justify`; :func:`verify_take` checks both.
    """
    require_ruleset(rules)
    row = _ids(row, "row")
    _distinct(row)
    _int(rack_size_at_turn_start, "rack_size_at_turn_start", 0)
    _int(turn_number, "turn_number", 1)
    return tuple(
        i
        for i in range(len(row))
        if _refusal(
            len(row),
            i,
            rack_size_at_turn_start,
            rules,
            opened=opened_before_this_turn,
            turn_number=turn_number,
            declared_pe_tabla=declared_pe_tabla,
            closing_turn=closing_turn,
            row_starts_with_first_discard=row_starts_with_first_discard,
        )
        is None
    )


def verify_take(
    row: Sequence[int],
    index: int,
    rack_size_at_turn_start: int,
    rules: Ruleset,
    *,
    opened_before_this_turn: bool,
    turn_number: int,
    declared_pe_tabla: bool = False,
    closing_turn: bool = False,
    row_starts_with_first_discard: bool = True,
    rack: Sequence[int] | None = None,
    jokers: Sequence[JokerHistory] = _NO_HISTORY,
) -> None:
    """Raise :class:`~remi_rules.InvalidTakeError` unless row position ``index`` may be
    taken now (the conditions of :func:`take_options`).

    With ``rack`` (the physical ids on the rack now, ``rack_size_at_turn_start`` of
    them), the take must also be usable (RUPE-08: a take the player cannot meld is
    illegal as a whole): an opened player needs a justifying meld
    (:func:`can_justify`, code ``take_cannot_justify``); an unopened player must be
    able to open with it (:func:`can_open_with`, ``take_cannot_open``, EX-15); a
    pe-tablă declarer must be able to close with it (:func:`can_close_with`,
    ``take_cannot_close``, CLOSE-06).  The knobs ``take_discard_may_layoff`` and
    ``take_discard_without_meld_declares_pe_tabla`` relax these as they relax the
    obligation (:func:`verify_obligation`).
    """
    require_ruleset(rules)
    row = _ids(row, "row")
    _distinct(row)
    _int(index, "index", -(2**62))
    _int(rack_size_at_turn_start, "rack_size_at_turn_start", 0)
    _int(turn_number, "turn_number", 1)
    err = _refusal(
        len(row),
        index,
        rack_size_at_turn_start,
        rules,
        opened=opened_before_this_turn,
        turn_number=turn_number,
        declared_pe_tabla=declared_pe_tabla,
        closing_turn=closing_turn,
        row_starts_with_first_discard=row_starts_with_first_discard,
    )
    if err is not None:
        raise err
    if rack is None:
        return
    rack = _ids(rack, "rack")
    _distinct(row, rack)
    if len(rack) != rack_size_at_turn_start:
        raise ValueError(
            f"rack holds {len(rack)} tiles, but rack_size_at_turn_start is "
            f"{rack_size_at_turn_start}"
        )
    picked, others = row[index], row[index + 1 :]
    value = _valuer(jokers)
    tile = str(value(picked))
    if declared_pe_tabla and rules.pe_tabla_enabled:
        if not can_close_with(
            picked,
            rack,
            rules,
            also_taken=others,
            opening=rules.pe_tabla_opening_rules_apply,
            jokers=jokers,
        ):
            raise InvalidTakeError(E.CANNOT_CLOSE, index=index, tile=tile)
        return
    if not opened_before_this_turn:
        if _may_declare_pe_tabla_by_taking(rules, False):
            return
        if not can_open_with(picked, rack, rules, also_taken=others, jokers=jokers):
            raise InvalidTakeError(E.CANNOT_OPEN, index=index, tile=tile)
        return
    if rules.take_discard_may_layoff:
        return  # whether it fits a meld on the table is the lay-off module's question
    if not can_justify(picked, rack, rules, also_taken=others, jokers=jokers):
        raise InvalidTakeError(
            E.CANNOT_JUSTIFY, index=index, tile=tile, own=rules.take_meld_min_own_tiles
        )


def can_take(
    row: Sequence[int],
    index: int,
    rack_size_at_turn_start: int,
    rules: Ruleset,
    *,
    opened_before_this_turn: bool,
    turn_number: int,
    declared_pe_tabla: bool = False,
    closing_turn: bool = False,
    row_starts_with_first_discard: bool = True,
    rack: Sequence[int] | None = None,
    jokers: Sequence[JokerHistory] = _NO_HISTORY,
) -> bool:
    """:func:`verify_take` as a bool."""
    try:
        verify_take(
            row,
            index,
            rack_size_at_turn_start,
            rules,
            opened_before_this_turn=opened_before_this_turn,
            turn_number=turn_number,
            declared_pe_tabla=declared_pe_tabla,
            closing_turn=closing_turn,
            row_starts_with_first_discard=row_starts_with_first_discard,
            rack=rack,
            jokers=jokers,
        )
    except InvalidTakeError:
        return False
    return True


def take(row: Sequence[int], index: int, rack: Sequence[int]) -> TakeResult:
    """The mechanics of taking row position ``index`` (RUPE-01, RUPE-03): the picked
    tile and every tile discarded after it leave the row and join the rack (TURN-10:
    the rack may then exceed 14).  Call :func:`verify_take` first for the rules; this
    only refuses an index outside the row (``take_index_out_of_range``)."""
    row = _ids(row, "row")
    rack = _ids(rack, "rack")
    _distinct(row, rack)
    _int(index, "index", -(2**62))
    if not row:
        raise InvalidTakeError(E.EMPTY_ROW, index=index, length=0)
    if not 0 <= index < len(row):
        raise InvalidTakeError(E.INDEX_OUT_OF_RANGE, index=index, length=len(row))
    taken = row[index:]
    source = TakeSource.LAST_DISCARD if index == len(row) - 1 else TakeSource.OLDER
    return TakeResult(
        row=row[:index],
        taken=taken,
        rack=rack + taken,
        obligation=TakeObligation(source, taken[0], rack, taken[1:]),
    )


# -- the face-up atu (ATU-06) ---------------------------------------------------------------


def verify_take_atu(
    rules: Ruleset,
    *,
    opened_before_this_turn: bool,
    turn_number: int,
    closing_turn: bool,
    declared_pe_tabla: bool = False,
    atu: int | None = None,
    rack: Sequence[int] | None = None,
    layable: Collection[int] = (),
    jokers: Sequence[JokerHistory] = _NO_HISTORY,
) -> None:
    """Raise :class:`~remi_rules.InvalidTakeError` unless the face-up atu may be taken
    now as the turn's take (ATU-06, OQ-40).

    ``atu_face_up_takeable`` ``never`` refuses always (``take_atu_never``);
    ``closing_turn_only`` allows it only in a turn in which the player closes
    (``closing_turn``; ``take_atu_not_closing_turn``), only with full rights (opened in
    an earlier turn), except in a pe-tablă closing (CLOSE-06, EX-42;
    ``take_atu_no_full_rights``), and never in the first turn (TURN-04).

    With ``atu`` and ``rack`` (ids), the closing itself must be possible
    (:func:`can_close_with`, ``take_cannot_close``, EX-32): the atu in a new meld with
    enough rack tiles, the rest melded, or laid off where ``layable`` (rack ids that
    fit melds on the table) says so, and one tile left to close with.
    """
    require_ruleset(rules)
    _int(turn_number, "turn_number", 1)
    if rules.atu_face_up_takeable is AtuFaceUpTakeable.NEVER:
        raise InvalidTakeError(E.ATU_NEVER)
    if turn_number == 1 and rules.first_turn_no_meld:
        raise InvalidTakeError(E.FIRST_TURN)
    if not closing_turn:
        raise InvalidTakeError(E.ATU_NOT_CLOSING_TURN)
    pe_tabla = declared_pe_tabla and rules.pe_tabla_enabled and not opened_before_this_turn
    if not opened_before_this_turn and not pe_tabla:
        raise InvalidTakeError(E.ATU_NO_FULL_RIGHTS)
    if atu is None or rack is None:
        return
    rack = _ids(rack, "rack")
    (atu,) = _ids((atu,), "atu")
    _distinct(rack, (atu,))
    opening = pe_tabla and rules.pe_tabla_opening_rules_apply
    if pe_tabla and not rules.pe_tabla_layoff_on_others:
        layable = ()  # CLOSE-06: no lay-offs on others' melds in a pe-tablă closing
    if not can_close_with(atu, rack, rules, layable=layable, opening=opening, jokers=jokers):
        raise InvalidTakeError(E.CANNOT_CLOSE, tile=str(tile_of(atu)))


def can_take_atu(
    rules: Ruleset,
    *,
    opened_before_this_turn: bool,
    turn_number: int,
    closing_turn: bool,
    declared_pe_tabla: bool = False,
    atu: int | None = None,
    rack: Sequence[int] | None = None,
    layable: Collection[int] = (),
    jokers: Sequence[JokerHistory] = _NO_HISTORY,
) -> bool:
    """:func:`verify_take_atu` as a bool."""
    try:
        verify_take_atu(
            rules,
            opened_before_this_turn=opened_before_this_turn,
            turn_number=turn_number,
            closing_turn=closing_turn,
            declared_pe_tabla=declared_pe_tabla,
            atu=atu,
            rack=rack,
            layable=layable,
            jokers=jokers,
        )
    except InvalidTakeError:
        return False
    return True


def take_atu(atu: int, rack: Sequence[int]) -> TakeResult:
    """The mechanics of taking the face-up atu: it joins the rack and must go into a
    new meld, and the player must close this turn (ATU-06)."""
    (atu,) = _ids((atu,), "atu")
    rack = _ids(rack, "rack")
    _distinct(rack, (atu,))
    return TakeResult(
        row=None,
        taken=(atu,),
        rack=(*rack, atu),
        obligation=TakeObligation(TakeSource.ATU, atu, rack),
    )


# -- candidate melds ----------------------------------------------------------------------


_TILE: Final = {(r, c): Tile(r, c) for r in range(1, 14) for c in Color}
"""Every numbered tile value by (rank, colour), built once (hot loops below)."""


def _run_layouts(pool: Counter[Tile], rules: Ruleset) -> Iterator[tuple[Tile, ...]]:
    """Every valid run whose values are a sub-multiset of ``pool``."""
    jokers = min(pool[JOKER], 2)
    size = sum(pool.values())
    top = 14 if rules.ace_high_run else 13
    for colour in _COLORS:
        present = {r for r in range(1, 14) if pool[_TILE[r, colour]]}
        if not present:
            continue
        if 1 in present:
            present.add(14)
        for low in range(1, top - 1):
            for high in range(low + 2, min(top, low + 12, low + size - 1) + 1):
                ranks = range(low, high + 1)
                gaps = [r for r in ranks if r not in present]
                if len(gaps) > jokers:
                    break  # a longer window only has more gaps
                reals = [r for r in ranks if r in present]
                for extra in range(jokers - len(gaps) + 1):
                    for swapped in itertools.combinations(reals, extra):
                        as_joker = set(gaps) | set(swapped)
                        layout = tuple(
                            JOKER if r in as_joker else _TILE[1 if r == 14 else r, colour]
                            for r in ranks
                        )
                        if is_valid_meld(layout, rules):
                            yield layout


def _set_layouts(pool: Counter[Tile], rules: Ruleset) -> Iterator[tuple[Tile, ...]]:
    """Every valid set whose values are a sub-multiset of ``pool``."""
    jokers = min(pool[JOKER], 2)
    for rank in range(1, 14):
        colours = [c for c in _COLORS if pool[_TILE[rank, c]]]
        for n in range(1, len(colours) + 1):
            for chosen in itertools.combinations(colours, n):
                for j in range(jokers + 1):
                    if 3 <= n + j <= 4:
                        layout = (*(_TILE[rank, c] for c in chosen), *([JOKER] * j))
                        if is_valid_meld(layout, rules):
                            yield layout


def _layouts(pool: Counter[Tile], rules: Ruleset) -> list[tuple[Tile, ...]]:
    """Every valid meld inside ``pool``.  A fixed joker (JOLY-05) stands only where its
    tile would: the layouts are built with it as that tile, then each reading that
    uses the fixed joker instead is checked on its own."""
    fixed = {t.fixed_as: t for t in pool if t.is_fixed_joker and t.fixed_as is not None}
    if not fixed:
        return [*_run_layouts(pool, rules), *_set_layouts(pool, rules)]
    acting: Counter[Tile] = Counter()
    for tile, count in pool.items():
        acting[fixed_as if (fixed_as := tile.fixed_as) is not None else tile] += count
    out: list[tuple[Tile, ...]] = []
    for layout in [*_run_layouts(acting, rules), *_set_layouts(acting, rules)]:
        spots = [i for i, t in enumerate(layout) if t in fixed]
        for k in range(len(spots) + 1):
            for chosen in itertools.combinations(spots, k):
                variant = tuple(fixed[t] if i in chosen else t for i, t in enumerate(layout))
                need = Counter(variant)
                if all(pool[t] >= c for t, c in need.items()) and is_valid_meld(variant, rules):
                    out.append(variant)
    return list(dict.fromkeys(out))


def _assign(
    layout: tuple[Tile, ...], picked: int, pools: Sequence[Sequence[int]], value: Valuer
) -> tuple[int, ...] | None:
    """Physical ids for ``layout``: ``picked`` for one slot of its value, the rest taken
    from ``pools`` in order of preference; ``None`` if impossible."""
    used: set[int] = {picked}
    out: list[int] = []
    picked_value = value(picked)
    placed = False
    for want in layout:
        if not placed and want == picked_value:
            out.append(picked)
            placed = True
            continue
        for i in itertools.chain.from_iterable(pools):
            if i not in used and value(i) == want:
                used.add(i)
                out.append(i)
                break
        else:
            return None
    return tuple(out) if placed else None


def _own_count(meld: Sequence[int], own: Collection[int], rules: Ruleset) -> int:
    return sum(1 for i in meld if i in own and (rules.take_meld_joker_counts_as_own or i < 104))


def _justifying(
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
    seen: set[tuple[int, ...]] = set()
    for layout in _layouts(values, rules):
        if picked_value not in layout:
            continue
        ids = _assign(layout, picked, pool_ids, value)
        if ids is None or ids in seen:
            continue
        seen.add(ids)
        if _own_count(ids, own, rules) >= rules.take_meld_min_own_tiles:
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
            taken_tile_id, rack_before_take, rules, also_taken, acquired_later, min_left, jokers
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
) -> Iterator[tuple[int, ...]]:
    """The justifying melds that leave ``min_left`` tiles, lazily (arguments checked)."""
    require_ruleset(rules)
    (picked,) = _ids((taken_tile_id,), "taken_tile_id")
    rack = _ids(rack_before_take, "rack_before_take")
    also = _ids(also_taken, "also_taken")
    later = _ids(acquired_later, "acquired_later")
    _distinct((picked,), rack, also, later)
    _int(min_left, "min_left", 0)
    held = len(rack) + 1 + len(also) + len(later)
    for ids, _ in _justifying(picked, rack, rules, also, later, _valuer(jokers)):
        if held - len(ids) >= min_left:
            yield ids


# -- turn plans: opening or closing with the taken tile -------------------------------------


def _completions(
    picked: int, rack: tuple[int, ...], also: tuple[int, ...], rules: Ruleset, value: Valuer
) -> Iterator[tuple[Meld, list[int]]]:
    """Each distinct justifying meld with what would be left besides it, as the
    solver's counts (the solver then searches the rest exactly)."""
    held = Counter(value(i) for i in (picked, *rack, *also))
    seen: set[tuple[Tile, ...]] = set()
    for ids, meld in _justifying(picked, rack, rules, also, (), value):
        if meld.tiles in seen:
            continue
        seen.add(meld.tiles)
        rest = held - Counter(value(i) for i in ids)
        yield meld, partition.counts_of(rest.elements())


def can_open_with(
    taken_tile_id: int,
    rack_before_take: Sequence[int],
    rules: Ruleset,
    *,
    also_taken: Sequence[int] = (),
    jokers: Sequence[JokerHistory] = _NO_HISTORY,
) -> bool:
    """OPEN-06, EX-15: can an unopened player who takes ``taken_tile_id`` make his first
    etalare this turn with it?  The taken tile must be in a justifying meld
    (:func:`justifying_melds`), the new melds together must pass
    :func:`~remi_rules.check_opening`, and :func:`~remi_rules.opening.min_rack_after_opening`
    tiles must stay on the rack (OPEN-08).  The other melds are searched exactly by the
    solver (:func:`remi_rules.best_opening` with the justifying meld ``melded``)."""
    require_ruleset(rules)
    (picked,) = _ids((taken_tile_id,), "taken_tile_id")
    rack = _ids(rack_before_take, "rack_before_take")
    also = _ids(also_taken, "also_taken")
    _distinct((picked,), rack, also)
    keep = min_rack_after_opening(rules)
    for meld, rest in _completions(picked, rack, also, rules, _valuer(jokers)):
        if sum(rest) >= keep and opening_split(rest, rules, min_leftover=keep, melded=[meld]):
            return True
    return False


def can_close_with(
    taken_tile_id: int,
    rack_before_take: Sequence[int],
    rules: Ruleset,
    *,
    also_taken: Sequence[int] = (),
    layable: Collection[int] = (),
    opening: bool = False,
    jokers: Sequence[JokerHistory] = _NO_HISTORY,
) -> bool:
    """ATU-06, CLOSE-06: can the player take ``taken_tile_id`` and close this turn?  The
    taken tile goes into a justifying meld, the other tiles into new melds or, for the
    tiles of ``layable`` (rack ids the caller knows fit melds on the table; each such
    value may be laid off as often as it is held), lay-offs; exactly one tile must be
    left to close with (discarded or kept, CLOSE-04).  With ``opening`` (a pe-tablă
    closing under ``pe_tabla_opening_rules_apply``) the new melds must also pass
    :func:`~remi_rules.check_opening`.  The split is searched exactly by the solver.
    EX-32, EX-33, EX-42."""
    require_ruleset(rules)
    (picked,) = _ids((taken_tile_id,), "taken_tile_id")
    rack = _ids(rack_before_take, "rack_before_take")
    also = _ids(also_taken, "also_taken")
    _distinct((picked,), rack, also)
    value = _valuer(jokers)
    fits = {
        partition.field_of(value(i))
        for i in _ids(tuple(layable), "layable")
        if i in rack or i in also
    }
    extra = (lambda f: 1 if f in fits else 0) if fits else None
    for meld, rest in _completions(picked, rack, also, rules, value):
        tiles = sum(rest)
        if tiles < 1:
            continue
        shapes = opening_classes(rules, [meld]) if opening else (partition.Constraints(),)
        for shape in shapes:
            # Most tiles placed (melded or laid off) with one kept back: a close when
            # only that one is left.  Lay-offs never count toward an opening's points.
            found = partition.solve(
                rest,
                rules,
                tiles_objective=True,
                constraints=shape._replace(min_leftover=1),
                extra=extra,
            )
            if found is not None and found[0] == tiles - 1:
                return True
    return False


# -- the obligation at the turn's end -------------------------------------------------------


def verify_obligation(
    obligation: TakeObligation,
    new_melds: Sequence[Sequence[int]],
    rules: Ruleset,
    *,
    laid_off: Collection[int] = (),
    acquired_later: Sequence[int] = (),
    opened_before_this_turn: bool = True,
    jokers: Sequence[JokerHistory] = _NO_HISTORY,
) -> ObligationOutcome:
    """Check, at the turn's end, that the take's obligation was met by what the player
    actually did this turn (RUPE-01, RUPE-02, RUPE-06, RUPE-08).

    ``new_melds`` are the melds the player created this turn, each as physical ids as
    they stand at the turn's end (any order).  The picked tile must be in one of them,
    and that meld must be valid and hold at least ``take_meld_min_own_tiles`` tiles of
    the rack at the moment of taking (a rack joker counts when
    ``take_meld_joker_counts_as_own``; tiles of the rupere and ``acquired_later`` ones,
    such as a swapped joker, count only when ``take_meld_tiles_must_predate_take`` is
    false).  Otherwise the alternatives, each only if its knob allows it: the picked
    tile is in ``laid_off`` (``take_discard_may_layoff``, never for the atu), or the
    player keeps it unmelded and thereby declares pe tablă
    (``take_discard_without_meld_declares_pe_tabla``, only if ``pe_tabla_enabled`` and
    the player had not opened, never for the atu).

    Returns how it was met; raises :class:`~remi_rules.InvalidTakeError`
    (``take_not_in_new_meld``, ``take_invalid_meld``, ``take_too_few_own_tiles``).
    TURN-07, the opening and the closing are checked by their own functions.
    """
    require_ruleset(rules)
    if not isinstance(obligation, TakeObligation):
        raise TypeError(f"obligation must be a TakeObligation, not {type(obligation).__name__}")
    value = _valuer(jokers)
    melds = [_ids(m, "meld") for m in new_melds]
    for meld in melds:
        _distinct(*((i,) for i in meld))  # a physical tile once per meld
    later = _ids(acquired_later, "acquired_later")
    picked = obligation.picked
    tile = str(value(picked))
    own_ids: set[int] = set(obligation.rack_before_take)
    if not rules.take_meld_tiles_must_predate_take:
        own_ids |= {*obligation.also_taken, *later}
    failure: InvalidTakeError | None = None
    for meld in melds:
        if picked not in meld:
            continue
        tiles = [value(i) for i in meld]
        if not _valid_any_order(tiles, rules):
            failure = InvalidTakeError(E.INVALID_MELD, tile=tile, meld=tiles_str(tiles))
            break
        count = _own_count(meld, own_ids, rules)
        if count < rules.take_meld_min_own_tiles:
            failure = InvalidTakeError(
                E.TOO_FEW_OWN_TILES, tile=tile, count=count, own=rules.take_meld_min_own_tiles
            )
            break
        return ObligationOutcome.NEW_MELD
    is_discard = obligation.source is not TakeSource.ATU
    if is_discard and rules.take_discard_may_layoff and picked in laid_off:
        return ObligationOutcome.LAYOFF
    if (
        is_discard
        and failure is None
        and picked not in laid_off
        and _may_declare_pe_tabla_by_taking(rules, opened_before_this_turn)
    ):
        return ObligationOutcome.DECLARES_PE_TABLA
    raise failure or InvalidTakeError(E.NOT_IN_NEW_MELD, tile=tile)


def obligation_met(
    obligation: TakeObligation,
    new_melds: Sequence[Sequence[int]],
    rules: Ruleset,
    *,
    laid_off: Collection[int] = (),
    acquired_later: Sequence[int] = (),
    opened_before_this_turn: bool = True,
    jokers: Sequence[JokerHistory] = _NO_HISTORY,
) -> bool:
    """:func:`verify_obligation` as a bool."""
    try:
        verify_obligation(
            obligation,
            new_melds,
            rules,
            laid_off=laid_off,
            acquired_later=acquired_later,
            opened_before_this_turn=opened_before_this_turn,
            jokers=jokers,
        )
    except InvalidTakeError:
        return False
    return True


def _valid_any_order(tiles: list[Tile], rules: Ruleset) -> bool:
    try:
        analyze_meld(tiles, rules)
    except InvalidMeldError:
        return bool(arrange_meld(tiles, rules))
    return True
