"""Scoring a finished round (SCORE-01 … SCORE-09, CLOSE-05, CLOSE-06, ATU-02 … ATU-05,
ANNOUNCE-03, VALUE-03 … VALUE-06, END-01, END-04, TIE-01, TIE-02).

:func:`score_round` is a pure function from the round's end state (the
:class:`~remi_rules.table.Table`, one :class:`SeatEnd` per seat, the atu, the closer and
the closing tile) to a :class:`RoundResult`: one :class:`SeatResult` per seat that names
every term of its result, the winners and whether the round was a *joc dublu*.

Every seat's total is ::

    multiplier × (table points − rack + closing_bonus + atu_bonus − flat penalty)

where *table points* are ``melded + credits`` when ``table_points_counted`` (a flat
penalty, or a pe-tablă closing without ``pe_tabla_adds_meld_points``, drops them), and the
flat penalty is ``flat_penalty.points`` or 0.

>>> from remi_rules import Tile, ids_of, variants
>>> from remi_rules.scoring import SeatEnd, score_round
>>> from remi_rules.table import Table
>>> clasic = variants.get("clasic")
>>> def tid(text: str) -> int:
...     return ids_of(Tile.parse(text))[0]
>>> table, _ = Table().add_meld(0, [tid(x) for x in "7R 8R 9R".split()], clasic)
>>> table, _ = table.add_meld(1, [tid(x) for x in "5G 5A 5N".split()], clasic)
>>> seats = [SeatEnd(rack=(), opened=True), SeatEnd(rack=(tid("1R"),), opened=True)]
>>> result = score_round(table, seats, clasic, atu=tid("3N"), closer=0, closing_tile=tid("2A"))
>>> [(s.melded, s.rack, s.closing_bonus, s.total) for s in result.seats]
[(15, 0, 100, 115), (15, 25, 0, -10)]
>>> result.winners
(0,)
"""

from __future__ import annotations

import enum
from collections.abc import Sequence

import attrs

from .errors import InvalidScoringInputError, ScoringErrorCode
from .ruleset import (
    AtuBonusTrigger,
    AtuFaceUpTakeable,
    ClosingEffect,
    ClosingTileMode,
    MultiplierStacking,
    Ruleset,
    TieRule,
    require_ruleset,
)
from .table import Table, TableMeld
from .tiles import Tile, tile_of
from .values import rack_value_end

__all__ = [
    "FlatPenalty",
    "InvalidScoringInputError",
    "MultiplierReason",
    "PenaltyKind",
    "RoundResult",
    "ScoringErrorCode",
    "SeatEnd",
    "SeatResult",
    "atu_twin_of",
    "position_values",
    "score_round",
]


class MultiplierReason(enum.StrEnum):
    """Why a seat's result is multiplied (ATU-05, CLOSE-05, SCORE-04 … SCORE-06)."""

    DOUBLE_GAME_ATU_JOKER = "double_game_atu_joker"
    """The atu is a joker (``double_game_if_atu_joker``): every seat ×2."""
    DOUBLE_GAME_ATU_ACE = "double_game_atu_ace"
    """The atu is a 1 (``double_game_if_atu_ace``): every seat ×2."""
    CLOSING_JOKER = "closing_joker"
    """The closing tile is a joker or a fixed joker (``closing_joker_effect``)."""
    CLOSING_ACE = "closing_ace"
    """The closing tile is a numbered 1 (``closing_ace_effect``)."""
    CLOSING_ATU_TWIN = "closing_atu_twin"
    """The closing tile is the atu twin (``closing_atu_twin_effect.mult``)."""


class PenaltyKind(enum.StrEnum):
    """Which flat penalty replaced a seat's result."""

    UNOPENED = "unopened"
    """SCORE-02: the seat never opened (``unopened_penalty``); also a pe-tablă declarer
    who never closed, under ``pe_tabla_unclosed_as_unopened`` (CLOSE-06)."""
    NO_ANNOUNCEMENT = "no_announcement"
    """ANNOUNCE-03: the seat failed to announce ≤3 tiles (``no_announce_penalty``)."""


_PENALTY_RULE = {PenaltyKind.UNOPENED: "SCORE-02", PenaltyKind.NO_ANNOUNCEMENT: "ANNOUNCE-03"}


@attrs.frozen
class FlatPenalty:
    """A flat penalty that replaces a seat's melded points, credits and bonuses:
    ``points`` (a positive amount, subtracted), its ``kind`` and the ``rule`` ID."""

    kind: PenaltyKind
    points: int

    @property
    def rule(self) -> str:
        return _PENALTY_RULE[self.kind]


def _check_rack(value: object) -> tuple[int, ...]:
    if not isinstance(value, tuple):
        raise TypeError(f"SeatEnd.rack must be a tuple of tile ids, not {type(value).__name__}")
    for tile_id in value:
        tile_of(tile_id)  # TypeError for a non-int; InvalidTileError for a bad id
    return value


def _check_bool(_inst: object, attribute: attrs.Attribute[bool], value: object) -> None:
    if type(value) is not bool:
        raise TypeError(f"SeatEnd.{attribute.name} must be a bool, not {type(value).__name__}")


@attrs.frozen
class SeatEnd:
    """What the scoring needs to know about one seat at the end of the round."""

    rack: tuple[int, ...] = attrs.field(converter=_check_rack)
    """Physical tile ids left on the rack; the closing tile is *not* here."""
    opened: bool = attrs.field(validator=_check_bool)
    """The seat completed a first etalare (SCORE-02)."""
    announced_atu: bool = attrs.field(default=False, validator=_check_bool)
    """The seat announced the atu twin in time (ATU-02, ``announce_at_start``)."""
    failed_to_announce: bool = attrs.field(default=False, validator=_check_bool)
    """The seat is liable for the no-announcement penalty (ANNOUNCE-03, OQ-41)."""
    declared_pe_tabla: bool = attrs.field(default=False, validator=_check_bool)
    """The seat declared a pe-tablă closing (CLOSE-06)."""


@attrs.frozen
class SeatResult:
    """One seat's result, term by term, so a frontend can explain it.

    ``total == multiplier * ((melded + credits if table_points_counted else 0) - rack
    + closing_bonus + atu_bonus - (flat_penalty.points if flat_penalty else 0))``.
    """

    seat: int
    melded: int
    """End values (VALUE-02/03) of the positions of the seat's own melds credited to it."""
    credits: int
    """End values of tiles credited to the seat in others' melds (LIPI-04), and of tiles
    laid in a swapped joker's place credited to it (VALUE-05)."""
    rack: int
    """The rack penalty subtracted (VALUE-04/06, a positive amount): 0 for the closer
    (unless ``closer_keeps_tile_counted``) and under a flat penalty (unless
    ``unopened_rack_counted``)."""
    closing_bonus: int
    """``closing_bonus`` or ``pe_tabla_bonus`` for the closer (SCORE-03, CLOSE-06), plus
    ``closing_atu_twin_effect.bonus`` when he closed with the atu twin under a trigger
    other than ``close_with_twin``."""
    atu_bonus: int
    """ATU-02/03/04."""
    flat_penalty: FlatPenalty | None
    """SCORE-02 or ANNOUNCE-03: replaces the table points and the bonuses."""
    table_points_counted: bool
    """False when ``melded + credits`` do not count (a flat penalty; a pe-tablă closing
    without ``pe_tabla_adds_meld_points``)."""
    multiplier: int
    """1, 2 or 4: the multiplier actually applied."""
    multiplier_reasons: tuple[MultiplierReason, ...]
    """Every cause of the multiplier; closing reasons together give one ×2 at most."""
    total: int

    @property
    def base(self) -> int:
        """The result before the multiplier."""
        table_points = self.melded + self.credits if self.table_points_counted else 0
        penalty = self.flat_penalty.points if self.flat_penalty is not None else 0
        return table_points - self.rack + self.closing_bonus + self.atu_bonus - penalty


@attrs.frozen
class RoundResult:
    """The scored round: one :class:`SeatResult` per seat, the winners (SCORE-08,
    TIE-01/02), whether the round was a joc dublu (ATU-05) and why."""

    seats: tuple[SeatResult, ...]
    winners: tuple[int, ...]
    double_game: bool
    double_game_reason: MultiplierReason | None
    closer: int | None
    pe_tabla: bool

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(s.total for s in self.seats)


def atu_twin_of(atu: int) -> int:
    """The physical id of the atu's twin: the other copy of the same value (for a
    joker atu, the other joker)."""
    tile_of(atu)
    return atu ^ 1  # copies are 2k and 2k+1; the jokers 104 and 105


def position_values(meld: TableMeld, table: Table, rules: Ruleset) -> tuple[int, ...]:
    """The end value of each position of ``meld`` for the seat credited with it
    (:meth:`Table.end_values <remi_rules.table.Table.end_values>`)."""
    if not isinstance(meld, TableMeld):
        raise TypeError(f"meld must be a TableMeld, not {type(meld).__name__}")
    if not isinstance(table, Table):
        raise TypeError(f"table must be a Table, not {type(table).__name__}")
    require_ruleset(rules)
    return table.end_values(meld, rules)


def _fail(code: ScoringErrorCode, **details: object) -> InvalidScoringInputError:
    return InvalidScoringInputError(code, **details)


def _validate(
    table: Table,
    seats: tuple[SeatEnd, ...],
    atu: int,
    closer: int | None,
    closing_tile: int | None,
    pe_tabla: bool,
    rules: Ruleset,
) -> None:
    n = len(seats)
    if not 2 <= n <= 4:
        raise _fail(ScoringErrorCode.SEAT_COUNT, count=n)
    on_table = table.ids()
    if tile_of(atu).is_joker and not rules.atu_may_be_joker:
        raise _fail(ScoringErrorCode.ATU_JOKER_NOT_ALLOWED, tile_id=atu)
    for meld in table.melds:
        if atu in meld.ids:
            if rules.atu_face_up_takeable is AtuFaceUpTakeable.NEVER:
                raise _fail(ScoringErrorCode.ATU_NOT_TAKEABLE, tile_id=atu)
            placer = meld.placed_by[meld.position_of(atu)]
            if placer != closer:
                raise _fail(ScoringErrorCode.ATU_NOT_CLOSERS, tile_id=atu, seat=placer)

    for index, meld in enumerate(table.melds):
        for seat in (meld.owner, *meld.credited, *meld.placed_by):
            if not 0 <= seat < n:
                raise _fail(ScoringErrorCode.TABLE_SEAT_OUT_OF_RANGE, meld_index=index, seat=seat)
            if not seats[seat].opened:
                raise _fail(ScoringErrorCode.UNOPENED_ON_TABLE, meld_index=index, seat=seat)
    if closer is not None:
        if not 0 <= closer < n:
            raise _fail(ScoringErrorCode.CLOSER_OUT_OF_RANGE, closer=closer, last=n - 1)
        if closing_tile is None:
            raise _fail(ScoringErrorCode.CLOSING_TILE_MISSING, closer=closer)
        if not seats[closer].opened:
            raise _fail(ScoringErrorCode.CLOSER_NOT_OPENED, closer=closer)
        if seats[closer].rack:
            raise _fail(
                ScoringErrorCode.CLOSER_RACK_NOT_EMPTY, closer=closer, count=len(seats[closer].rack)
            )
    elif closing_tile is not None:
        raise _fail(ScoringErrorCode.CLOSING_TILE_WITHOUT_CLOSER, tile_id=closing_tile)
    if pe_tabla:
        if closer is None:
            raise _fail(ScoringErrorCode.PE_TABLA_WITHOUT_CLOSER)
        if not rules.pe_tabla_enabled:
            raise _fail(ScoringErrorCode.PE_TABLA_DISABLED)
        if not seats[closer].declared_pe_tabla:
            raise _fail(ScoringErrorCode.PE_TABLA_NOT_DECLARED, closer=closer)
    placed: list[tuple[int, str]] = [
        (t, f"on the rack of seat {s}") for s in range(n) for t in seats[s].rack
    ]
    if closing_tile is not None:
        placed.append((closing_tile, "the closing tile"))
    seen: set[int] = set()
    for tile_id, where in placed:
        tile = str(tile_of(tile_id))
        if tile_id == atu:
            raise _fail(ScoringErrorCode.ATU_MISPLACED, tile_id=atu, where=where)
        if tile_id in on_table:
            raise _fail(ScoringErrorCode.TILE_ON_TABLE, tile_id=tile_id, tile=tile, where=where)
        if tile_id in seen:
            raise _fail(ScoringErrorCode.DUPLICATE_TILE, tile_id=tile_id, tile=tile)
        seen.add(tile_id)
    announcers = [s for s in range(n) if seats[s].announced_atu]
    if len(announcers) > 1:
        raise _fail(ScoringErrorCode.ATU_ANNOUNCED_TWICE, seats=", ".join(map(str, announcers)))


def _check_types(
    table: object,
    seats: object,
    rules: object,
    atu: object,
    closer: object,
    closing_tile: object,
    pe_tabla: object,
) -> tuple[SeatEnd, ...]:
    if not isinstance(table, Table):
        raise TypeError(f"table must be a Table, not {type(table).__name__}")
    if not isinstance(rules, Ruleset):
        raise TypeError(f"rules must be a Ruleset, not {type(rules).__name__}")
    if not isinstance(seats, Sequence) or isinstance(seats, str | bytes):
        raise TypeError(f"seats must be a sequence of SeatEnd, not {type(seats).__name__}")
    out = tuple(seats)
    for seat in out:
        if not isinstance(seat, SeatEnd):
            raise TypeError(f"seats must hold SeatEnd values, not {type(seat).__name__}")
    tile_of(atu)  # type: ignore[arg-type]
    for name, value in (("closer", closer), ("closing_tile", closing_tile)):
        if value is not None and type(value) is not int:
            raise TypeError(f"{name} must be an int or None, not {type(value).__name__}")
    if closing_tile is not None:
        tile_of(closing_tile)  # type: ignore[arg-type]
    if type(pe_tabla) is not bool:
        raise TypeError(f"pe_tabla must be a bool, not {type(pe_tabla).__name__}")
    return out


def _reaches(effect: ClosingEffect, seat: int, closer: int) -> bool:
    return effect is ClosingEffect.ALL_X2 or (effect is ClosingEffect.CLOSER_X2 and seat == closer)


def score_round(
    table: Table,
    seats: Sequence[SeatEnd],
    rules: Ruleset,
    *,
    atu: int,
    closer: int | None = None,
    closing_tile: int | None = None,
    pe_tabla: bool = False,
) -> RoundResult:
    """Score a finished round (SCORE-01 … SCORE-09; see docs/scoring.md).

    ``atu`` is the physical id of the face-up atu; ``closer`` and ``closing_tile`` are
    ``None`` for a round that ended without a close (END-01, END-04).  The closing tile
    (discarded, or kept in ``online``) is not part of the closer's ``rack``.  ``pe_tabla``
    marks the close as a pe-tablă closing (CLOSE-06).

    Raises :class:`~remi_rules.InvalidScoringInputError` for an impossible round and
    :class:`TypeError` for arguments of the wrong type.
    """
    seat_ends = _check_types(table, seats, rules, atu, closer, closing_tile, pe_tabla)
    _validate(table, seat_ends, atu, closer, closing_tile, pe_tabla, rules)
    n = len(seat_ends)
    twin = atu_twin_of(atu)
    atu_tile = tile_of(atu)

    # -- table points (VALUE-02/03/05, LIPI-04) -------------------------------------------
    melded = [0] * n
    credits = [0] * n
    for meld in table.melds:
        for i, value in enumerate(position_values(meld, table, rules)):
            seat = meld.credited[i]
            if seat == meld.owner and meld.ids[i] not in meld.replacements:
                melded[seat] += value
            else:
                credits[seat] += value

    # -- the double game (ATU-05) --------------------------------------------------------
    double_reason: MultiplierReason | None = None
    if atu_tile.is_joker and rules.double_game_if_atu_joker:
        double_reason = MultiplierReason.DOUBLE_GAME_ATU_JOKER
    elif atu_tile.rank == 1 and rules.double_game_if_atu_ace:
        double_reason = MultiplierReason.DOUBLE_GAME_ATU_ACE

    # -- closing-tile effects (CLOSE-05, SCORE-09) ---------------------------------------
    closing_effects: list[tuple[ClosingEffect, MultiplierReason]] = []
    closing_value: Tile | None = None
    closed_with_twin = False
    if closer is not None and closing_tile is not None:
        closing_value = table.tile(closing_tile)
        if closing_value.is_joker:
            closing_effects.append((rules.closing_joker_effect, MultiplierReason.CLOSING_JOKER))
        elif closing_value.rank == 1:
            closing_effects.append((rules.closing_ace_effect, MultiplierReason.CLOSING_ACE))
        if closing_tile == twin:
            closed_with_twin = True
            closing_effects.append(
                (rules.closing_atu_twin_effect.mult, MultiplierReason.CLOSING_ATU_TWIN)
            )

    # -- the atu bonus (ATU-02/03/04, OQ-37) ---------------------------------------------
    atu_bonus_seats: set[int] = set()
    if not atu_tile.is_joker or rules.atu_bonus_for_joker_atu:
        trigger = rules.atu_bonus_trigger
        if trigger is AtuBonusTrigger.ANNOUNCE_AT_START:
            atu_bonus_seats = {
                s
                for s, end in enumerate(seat_ends)
                if end.announced_atu and (end.opened or rules.atu_bonus_if_unopened)
            }
        elif trigger is AtuBonusTrigger.MELD_TWIN:
            for meld in table.melds:
                if twin in meld.ids:
                    placer = meld.placed_by[meld.position_of(twin)]
                    if placer == meld.owner or rules.atu_bonus_layoff_counts:
                        atu_bonus_seats.add(placer)
        elif closed_with_twin:  # CLOSE_WITH_TWIN
            assert closer is not None
            atu_bonus_seats.add(closer)

    results: list[SeatResult] = []
    for s, end in enumerate(seat_ends):
        is_closer = s == closer
        declared = end.declared_pe_tabla and rules.pe_tabla_enabled
        if declared and not is_closer:  # CLOSE-06, OQ-14
            unopened = rules.pe_tabla_unclosed_as_unopened
        else:
            unopened = not end.opened
        penalty: FlatPenalty | None = None
        if end.failed_to_announce and rules.no_announce_penalty is not None:
            penalty = FlatPenalty(PenaltyKind.NO_ANNOUNCEMENT, rules.no_announce_penalty)
        elif unopened:
            penalty = FlatPenalty(PenaltyKind.UNOPENED, rules.unopened_penalty)

        rack_ids: tuple[int, ...] = end.rack
        if (
            is_closer
            and rules.closer_keeps_tile_counted
            and rules.closing_tile_mode is ClosingTileMode.KEEP
            and closing_tile is not None
        ):
            rack_ids = (closing_tile,)
        rack = sum(rack_value_end(table.tile(t), rules, atu_twin=t == twin) for t in rack_ids)

        closing_bonus = atu_bonus = 0
        counted = True
        if penalty is not None:
            counted = False
            if not (penalty.kind is PenaltyKind.UNOPENED and rules.unopened_rack_counted):
                rack = 0
            if penalty.kind is PenaltyKind.UNOPENED and s in atu_bonus_seats:
                atu_bonus = rules.atu_bonus_points  # only under atu_bonus_if_unopened
        else:
            if is_closer:
                closing_bonus = rules.pe_tabla_bonus if pe_tabla else rules.closing_bonus
                if pe_tabla and not rules.pe_tabla_adds_meld_points:
                    counted = False
                if (
                    closed_with_twin
                    and rules.atu_bonus_trigger is not AtuBonusTrigger.CLOSE_WITH_TWIN
                ):
                    closing_bonus += rules.closing_atu_twin_effect.bonus
            if s in atu_bonus_seats:
                atu_bonus = rules.atu_bonus_points

        reasons: list[MultiplierReason] = []
        multiplier = 1
        if double_reason is not None:
            reasons.append(double_reason)
            multiplier *= 2
        if closer is not None:
            hits = [reason for effect, reason in closing_effects if _reaches(effect, s, closer)]
            if hits:
                reasons.extend(hits)
                multiplier *= 2
        if rules.multiplier_stacking is MultiplierStacking.CAP_X2:
            multiplier = min(multiplier, 2)
        if penalty is not None and not rules.multipliers_apply_to_penalties:
            multiplier, reasons = 1, []

        table_points = melded[s] + credits[s] if counted else 0
        base = (
            table_points
            - rack
            + closing_bonus
            + atu_bonus
            - (penalty.points if penalty is not None else 0)
        )
        results.append(
            SeatResult(
                seat=s,
                melded=melded[s],
                credits=credits[s],
                rack=rack,
                closing_bonus=closing_bonus,
                atu_bonus=atu_bonus,
                flat_penalty=penalty,
                table_points_counted=counted,
                multiplier=multiplier,
                multiplier_reasons=tuple(reasons),
                total=base * multiplier,
            )
        )

    # -- the winner (SCORE-08, TIE-01/02) ------------------------------------------------
    best = max(r.total for r in results)
    tied = tuple(r.seat for r in results if r.total == best)
    winners = tied
    if rules.tie_rule is TieRule.CLOSER_THEN_SHARED and closer is not None and closer in tied:
        winners = (closer,)
    return RoundResult(
        seats=tuple(results),
        winners=winners,
        double_game=double_reason is not None,
        double_game_reason=double_reason,
        closer=closer,
        pe_tabla=pe_tabla,
    )
