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
  CLOSE-06) for the turn plans that must open or close (searched by the solver, in
  :mod:`remi_rules.turn_plans`; the meld catalogue is :mod:`remi_rules.layouts`).
* At the turn's end: :func:`verify_obligation` / :func:`obligation_met`.

The facts of the turn (has the player opened, which of his turns it is, a pe-tablă
declaration, …) come as keyword flags with the ruleset, or as one
:class:`~remi_rules.context.TurnContext` in the place of the ruleset, as the engine
passes them.

>>> from remi_rules import Tile, ids_of, variants
>>> from remi_rules.rupere import take_options
>>> clasic = variants.get("clasic")
>>> row = [ids_of(Tile.parse(t))[0] for t in ("2N", "4G", "9R", "2A", "13N", "6G")]
>>> take_options(row, 6, clasic, opened_before_this_turn=True, turn_number=5)
(1, 2, 3, 4, 5)
"""

from __future__ import annotations

import enum
from collections.abc import Collection, Sequence
from typing import Final

import attrs

from ._fields import TILE_ID, TILES
from ._take_melds import (
    can_justify,
    distinct,
    ids_arg,
    int_arg,
    justifying_melds,
    own_count,
    valuer,
)
from .context import NO_JOKER_HISTORY, TurnContext, boolean_form, context_of
from .errors import InvalidMeldError, InvalidTakeError, TakeErrorCode
from .melds import analyze_meld, arrange_meld
from .opening import min_rack_after_opening
from .ruleset import AtuFaceUpTakeable, Ruleset, require_ruleset
from .table import JokerHistory
from .tiles import Tile, tile_of, tiles_str
from .turn_plans import can_close_with, can_open_with

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
_NO_HISTORY: Final = NO_JOKER_HISTORY


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
    picked: int = attrs.field(metadata=TILE_ID)
    """The physical id of the tile that must be melded (the chosen row tile, or the atu)."""
    rack_before_take: tuple[int, ...] = attrs.field(metadata=TILES)
    """The rack at the moment of taking (RUPE-06)."""
    also_taken: tuple[int, ...] = attrs.field(default=(), metadata=TILES)
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


# -- which tiles may be taken -----------------------------------------------------------------


def _may_declare_pe_tabla_by_taking(rules: Ruleset, opened: bool) -> bool:
    return (
        rules.take_discard_without_meld_declares_pe_tabla and rules.pe_tabla_enabled and not opened
    )


def _refusal(ctx: TurnContext, length: int, index: int, rack: int) -> InvalidTakeError | None:
    """Why row position ``index`` may not be taken now, or ``None``."""
    rules = ctx.rules
    opened = ctx.opened_before_this_turn
    closing_turn = ctx.closing_turn
    turn_number = ctx.turn_number
    row_starts_with_first_discard = ctx.row_starts_with_first_discard
    # A pe-tablă declaration means nothing where pe tablă is disabled (CLOSE-06).
    declared_pe_tabla = ctx.declared_pe_tabla and rules.pe_tabla_enabled
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


def _take_context(
    rules: Ruleset | TurnContext,
    opened_before_this_turn: bool | None,
    turn_number: int | None,
    declared_pe_tabla: bool,
    closing_turn: bool,
    row_starts_with_first_discard: bool,
    jokers: Sequence[JokerHistory],
) -> TurnContext:
    """The context of a take function: ``rules`` if it is one, else built from the
    keyword flags (``opened_before_this_turn`` and ``turn_number`` required)."""
    if (
        type(rules) is TurnContext
        and opened_before_this_turn is None
        and turn_number is None
        and declared_pe_tabla is False
        and closing_turn is False
        and row_starts_with_first_discard is True
        and jokers is _NO_HISTORY
    ):
        return rules  # the engine's call: no flags beside the context

    def build() -> TurnContext:
        ruleset = require_ruleset(rules)
        if opened_before_this_turn is None or turn_number is None:
            raise TypeError("give opened_before_this_turn= and turn_number=, or a TurnContext")
        return TurnContext(
            ruleset,
            opened_before_this_turn=opened_before_this_turn,
            turn_number=turn_number,
            declared_pe_tabla=declared_pe_tabla,
            closing_turn=closing_turn,
            row_starts_with_first_discard=row_starts_with_first_discard,
            jokers=jokers,
        )

    return context_of(
        rules,
        (
            opened_before_this_turn,
            turn_number,
            declared_pe_tabla,
            closing_turn,
            row_starts_with_first_discard,
            jokers,
        ),
        (None, None, False, False, True, _NO_HISTORY),
        build,
    )


def take_options(
    row: Sequence[int],
    rack_size_at_turn_start: int,
    rules: Ruleset | TurnContext,
    *,
    opened_before_this_turn: bool | None = None,
    turn_number: int | None = None,
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

    ``rules`` is the ruleset with the turn's facts as keyword flags, or a
    :class:`~remi_rules.context.TurnContext` holding both (then no flags).
    ``turn_number`` counts the player's own turns from 1.
    ``row_starts_with_first_discard`` says the row still begins with the starter's
    first discard (false after an ``online`` reshuffle of the row into the stock).
    Whether the rack can actually justify a position is :func:`can_justify`;
    :func:`verify_take` checks both.
    """
    ctx = _take_context(
        rules,
        opened_before_this_turn,
        turn_number,
        declared_pe_tabla,
        closing_turn,
        row_starts_with_first_discard,
        _NO_HISTORY,
    )
    row = ids_arg(row, "row")
    distinct(row)
    int_arg(rack_size_at_turn_start, "rack_size_at_turn_start", 0)
    length = len(row)
    return tuple(
        i for i in range(length) if _refusal(ctx, length, i, rack_size_at_turn_start) is None
    )


def verify_take(
    row: Sequence[int],
    index: int,
    rack_size_at_turn_start: int,
    rules: Ruleset | TurnContext,
    *,
    opened_before_this_turn: bool | None = None,
    turn_number: int | None = None,
    declared_pe_tabla: bool = False,
    closing_turn: bool = False,
    row_starts_with_first_discard: bool = True,
    rack: Sequence[int] | None = None,
    jokers: Sequence[JokerHistory] = _NO_HISTORY,
) -> None:
    """Raise :class:`~remi_rules.InvalidTakeError` unless row position ``index`` may be
    taken now (the conditions of :func:`take_options`; ``rules`` and the flags as
    there, ``jokers`` too may be in the context).

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
    ctx = _take_context(
        rules,
        opened_before_this_turn,
        turn_number,
        declared_pe_tabla,
        closing_turn,
        row_starts_with_first_discard,
        jokers,
    )
    row = ids_arg(row, "row")
    distinct(row)
    int_arg(index, "index", None)  # its range: take_index_out_of_range
    int_arg(rack_size_at_turn_start, "rack_size_at_turn_start", 0)
    err = _refusal(ctx, len(row), index, rack_size_at_turn_start)
    if err is not None:
        raise err
    if rack is None:
        return
    rack = ids_arg(rack, "rack")
    distinct(row, rack)
    if len(rack) != rack_size_at_turn_start:
        raise InvalidTakeError(E.RACK_SIZE_MISMATCH, count=len(rack), size=rack_size_at_turn_start)
    the_rules = ctx.rules
    jokers = ctx.jokers
    picked, others = row[index], row[index + 1 :]
    tile = str(valuer(jokers)(picked))
    if ctx.pe_tabla:
        if not can_close_with(
            picked,
            rack,
            the_rules,
            also_taken=others,
            opening=the_rules.pe_tabla_opening_rules_apply,
            jokers=jokers,
        ):
            raise InvalidTakeError(E.CANNOT_CLOSE, index=index, tile=tile)
        return
    if not ctx.opened_before_this_turn:
        if _may_declare_pe_tabla_by_taking(the_rules, False):
            return
        if not can_open_with(picked, rack, the_rules, also_taken=others, jokers=jokers):
            raise InvalidTakeError(E.CANNOT_OPEN, index=index, tile=tile)
        return
    if the_rules.take_discard_may_layoff:
        return  # whether it fits a meld on the table is the lay-off module's question
    if not can_justify(picked, rack, the_rules, also_taken=others, jokers=jokers):
        raise InvalidTakeError(
            E.CANNOT_JUSTIFY, index=index, tile=tile, own=the_rules.take_meld_min_own_tiles
        )


can_take = boolean_form(verify_take, InvalidTakeError, "can_take")


def take(row: Sequence[int], index: int, rack: Sequence[int]) -> TakeResult:
    """The mechanics of taking row position ``index`` (RUPE-01, RUPE-03): the picked
    tile and every tile discarded after it leave the row and join the rack (TURN-10:
    the rack may then exceed 14).  Call :func:`verify_take` first for the rules; this
    only refuses an index outside the row (``take_index_out_of_range``)."""
    row = ids_arg(row, "row")
    rack = ids_arg(rack, "rack")
    distinct(row, rack)
    int_arg(index, "index", None)  # its range: take_index_out_of_range
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
    rules: Ruleset | TurnContext,
    *,
    opened_before_this_turn: bool | None = None,
    turn_number: int | None = None,
    closing_turn: bool | None = None,
    declared_pe_tabla: bool = False,
    atu: int | None = None,
    rack: Sequence[int] | None = None,
    layable: Collection[int] = (),
    jokers: Sequence[JokerHistory] = _NO_HISTORY,
) -> None:
    """Raise :class:`~remi_rules.InvalidTakeError` unless the face-up atu may be taken
    now as the turn's take (ATU-06, OQ-40).  ``rules`` is the ruleset with the flags
    (``opened_before_this_turn``, ``turn_number`` and ``closing_turn`` required), or
    a :class:`~remi_rules.context.TurnContext` holding them.

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
    if type(rules) is TurnContext:
        if closing_turn is not None:
            raise TypeError("give either a TurnContext or the rules with their keyword flags")
    elif closing_turn is None:
        raise TypeError("give closing_turn= with the rules, or a TurnContext")
    ctx = _take_context(
        rules,
        opened_before_this_turn,
        turn_number,
        declared_pe_tabla,
        False if closing_turn is None else closing_turn,
        True,
        jokers,
    )
    the_rules = ctx.rules
    opened = ctx.opened_before_this_turn
    if the_rules.atu_face_up_takeable is AtuFaceUpTakeable.NEVER:
        raise InvalidTakeError(E.ATU_NEVER)
    if ctx.turn_number == 1 and the_rules.first_turn_no_meld:
        raise InvalidTakeError(E.FIRST_TURN)
    if not ctx.closing_turn:
        raise InvalidTakeError(E.ATU_NOT_CLOSING_TURN)
    pe_tabla = ctx.pe_tabla and not opened
    if not opened and not pe_tabla:
        raise InvalidTakeError(E.ATU_NO_FULL_RIGHTS)
    if atu is None or rack is None:
        return
    rack = ids_arg(rack, "rack")
    (atu,) = ids_arg((atu,), "atu")
    distinct(rack, (atu,))
    opening = pe_tabla and the_rules.pe_tabla_opening_rules_apply
    if pe_tabla and not the_rules.pe_tabla_layoff_on_others:
        layable = ()  # CLOSE-06: no lay-offs on others' melds in a pe-tablă closing
    if not can_close_with(
        atu, rack, the_rules, layable=layable, opening=opening, jokers=ctx.jokers
    ):
        raise InvalidTakeError(E.CANNOT_CLOSE, tile=str(tile_of(atu)))


can_take_atu = boolean_form(verify_take_atu, InvalidTakeError, "can_take_atu")


def take_atu(atu: int, rack: Sequence[int]) -> TakeResult:
    """The mechanics of taking the face-up atu: it joins the rack and must go into a
    new meld, and the player must close this turn (ATU-06)."""
    (atu,) = ids_arg((atu,), "atu")
    rack = ids_arg(rack, "rack")
    distinct(rack, (atu,))
    return TakeResult(
        row=None,
        taken=(atu,),
        rack=(*rack, atu),
        obligation=TakeObligation(TakeSource.ATU, atu, rack),
    )


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
    value = valuer(jokers)
    melds = [ids_arg(m, "meld") for m in new_melds]
    for meld in melds:
        distinct(*((i,) for i in meld))  # a physical tile once per meld
    later = ids_arg(acquired_later, "acquired_later")
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
        count = own_count(meld, own_ids, rules)
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


obligation_met = boolean_form(verify_obligation, InvalidTakeError, "obligation_met")


def _valid_any_order(tiles: list[Tile], rules: Ruleset) -> bool:
    try:
        analyze_meld(tiles, rules)
    except InvalidMeldError:
        return bool(arrange_meld(tiles, rules))
    return True
