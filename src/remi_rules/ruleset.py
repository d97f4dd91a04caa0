"""The configurable ruleset: one frozen, flat :class:`Ruleset` with a field per knob.

The fields are the knobs of the variant matrix (docs/RULES.md §3.1–3.7) under exactly
the matrix's snake_case names, plus ``ace_high_run`` and the knobs that OQ-14 and
OQ-26 call for.  Every field is typed, validated (a bad value raises
:class:`~remi_rules.InvalidRulesetError` with ``.knob`` and ``.code``) and documented,
in its ``metadata``, with its group, the rule IDs it configures and one sentence.

A house rule is one field changed::

    >>> import attrs
    >>> from remi_rules import variants
    >>> house = attrs.evolve(variants.get("clasic"), closing_bonus=50)
    >>> house.closing_bonus, house == variants.get("clasic")
    (50, False)
"""

from __future__ import annotations

import enum
import functools
import hashlib
import json
from collections.abc import Iterator
from typing import Any, Final

import attrs

from ._knob_types import INT_MAX as _INT_MAX
from ._knob_types import (
    AceDoubleClass,
    AtuAnnounceDeadline,
    AtuBonusTrigger,
    AtuFaceUpTakeable,
    ClosingAtuTwinEffect,
    ClosingEffect,
    ClosingTileMode,
    DoublesExchangeUnit,
    JokerTableValueEnd,
    MultiplierStacking,
    OpeningComposition,
    PeTablaDeclareBy,
    PeTablaTakeDiscard,
    ReusedJokerValueEnd,
    StarterRotation,
    StockExhausted,
    SwappedJokerMode,
    SwappedJokerUse,
    SwapReplacementCredit,
    SwapReplacementValue,
    TieRule,
)
from ._ruleset_checks import check_playable, validate
from .errors import InvalidRulesetError, RulesetErrorCode

__all__ = [
    "KNOB_GROUPS",
    "MAX_TURNS_PER_ROUND",
    "OPENING_POINTS_MAX",
    "AceDoubleClass",
    "AtuAnnounceDeadline",
    "AtuBonusTrigger",
    "AtuFaceUpTakeable",
    "ClosingAtuTwinEffect",
    "ClosingEffect",
    "ClosingTileMode",
    "DoublesExchangeUnit",
    "JokerTableValueEnd",
    "KnobInfo",
    "MultiplierStacking",
    "OpeningComposition",
    "PeTablaDeclareBy",
    "PeTablaTakeDiscard",
    "ReusedJokerValueEnd",
    "Ruleset",
    "StarterRotation",
    "StockExhausted",
    "SwapReplacementCredit",
    "SwapReplacementValue",
    "SwappedJokerMode",
    "SwappedJokerUse",
    "TieRule",
    "knobs",
    "require_ruleset",
]


# -- knob metadata --------------------------------------------------------------------------

KNOB_GROUPS: Final = (
    "opening",
    "rupere",
    "jokers",
    "closing",
    "atu",
    "scoring",
    "deal",
    "melds",
)
"""The documentation groups of the knobs, in the order of the matrix (§3.1–3.7)."""


@attrs.frozen
class KnobInfo:
    """Documentation of one knob: its group, the rule IDs it configures, one sentence."""

    name: str
    group: str
    rules: tuple[str, ...]
    doc: str
    type_name: str
    lo: int | None = None
    """Smallest allowed value of an int knob (``None`` for other knobs)."""
    hi: int | None = None
    """Largest allowed value of an int knob (``None`` for other knobs)."""


MAX_TURNS_PER_ROUND: Final = 1000
"""The largest ``max_turns_per_round`` (2.5 times the presets' 400).  A round with a
reshuffled stock lasts up to its cap, and every round the engine can play must save
and load (``serde.MAX_SAVED_TURNS`` is this number, and the loader's size limit
``serde.MAX_DOCUMENT_BYTES`` is the save of a round of that many turns): a higher cap
would allow rounds whose saves the loader refuses."""

OPENING_POINTS_MAX: Final = 880
"""The most points a first etalare can be worth (the upper bound of
``opening_min_points``): the VALUE-01 values of the 104 best tiles of the set, since
another seat always holds a tile and the opener keeps one (OPEN-08).  The 8 aces and
the 2 jokers count 25 each (in sets of aces), the 32 tiles 10-13 count 10 and 62 of
the 64 tiles 2-9 count 5: 250 + 320 + 310.  A higher minimum could never be met."""


def _knob(
    group: str,
    rules: str,
    doc: str,
    *,
    lo: int | None = None,
    hi: int | None = None,
) -> Any:
    assert group in KNOB_GROUPS
    return attrs.field(
        kw_only=True,
        metadata={"group": group, "rules": tuple(rules.split()), "doc": doc, "lo": lo, "hi": hi},
    )


@attrs.frozen(kw_only=True)
class Ruleset:
    """Every rule that differs between the sources, one flat field per knob.

    Build one from a preset (:func:`remi_rules.variants.get`) and change fields with
    ``attrs.evolve``.  All fields are keyword-only and required; see :func:`knobs`
    for each field's group, rule IDs and meaning, and docs/RULES.md §3 for the matrix.
    """

    # 3.1 opening ------------------------------------------------------------------------
    opening_min_points: int = _knob(
        "opening",
        "OPEN-02",
        "Points the new melds of the first etalare must reach.",
        lo=0,
        hi=OPENING_POINTS_MAX,
    )
    opening_composition: OpeningComposition = _knob(
        "opening", "OPEN-03", "What the first etalare must contain: a run, or a run and a set."
    )
    opening_ace_set_exception: bool = _knob(
        "opening", "OPEN-04", "A set of aces alone (no run) is a valid first etalare."
    )
    opening_ace_set_blocks_other_sets: bool = _knob(
        "opening", "OPEN-04", "When opening by the ace-set exception, no other set goes down."
    )
    opening_ace_set_joker_ok: bool = _knob(
        "opening", "OPEN-04 MELD-08", "Two aces and a joker count as the ace set of the exception."
    )
    first_turn_no_meld: bool = _knob(
        "opening", "TURN-04 OPEN-01", "A player's first turn is draw and discard only."
    )
    close_in_opening_turn: bool = _knob(
        "opening", "OPEN-08", "A player may close in the turn of his first etalare."
    )
    layoff_on_others_in_opening_turn: bool = _knob(
        "opening", "OPEN-07 LIPI-03", "In the opening turn, tiles may be laid off on others' melds."
    )
    swap_in_opening_turn: bool = _knob(
        "opening", "OPEN-09", "In the opening turn, a joker on the table may be swapped."
    )

    # 3.2 rupere -------------------------------------------------------------------------
    take_last_discard_before_opening: bool = _knob(
        "rupere", "OPEN-06", "An unopened player may take the last discard to open with it."
    )
    take_discard_may_layoff: bool = _knob(
        "rupere", "RUPE-01", "A taken discard may be used for a lay-off instead of a new meld."
    )
    take_discard_without_meld_declares_pe_tabla: bool = _knob(
        "rupere", "RUPE-01", "Taking a discard without melding it counts as declaring pe tablă."
    )
    take_meld_min_own_tiles: int = _knob(
        "rupere", "RUPE-01", "Rack tiles the taken tile's new meld must contain.", lo=1, hi=12
    )
    take_meld_joker_counts_as_own: bool = _knob(
        "rupere", "RUPE-02", "A joker from the rack counts as one of those rack tiles."
    )
    take_meld_tiles_must_predate_take: bool = _knob(
        "rupere", "RUPE-06", "Those rack tiles must have been on the rack when the tile was taken."
    )
    rupere_anywhere: bool = _knob(
        "rupere", "RUPE-03", "A player may break the row at an older tile, taking all after it."
    )
    rupere_anywhere_requires_opened: bool = _knob(
        "rupere", "RUPE-04", "Breaking the row at an older tile needs an earlier etalare."
    )
    rupere_anywhere_min_rack: int = _knob(
        "rupere",
        "RUPE-04",
        "Rack size at the turn's start needed to break at an older tile.",
        lo=0,
        hi=30,
    )
    take_last_discard_min_rack: int = _knob(
        "rupere",
        "RUPE-05",
        "Rack size at the turn's start needed to take the last discard.",
        lo=0,
        hi=30,
    )
    first_discard_dead: bool = _knob(
        "rupere", "TURN-01", "The starter's first discard lies crosswise and can never be taken."
    )

    # 3.3 jokers -------------------------------------------------------------------------
    real_tiles_per_joker: int = _knob(
        "jokers", "MELD-05", "Real tiles a meld needs for each joker in it.", lo=1, hi=6
    )
    jokers_may_be_adjacent: bool = _knob(
        "jokers", "MELD-05", "Two jokers may sit next to each other in a run."
    )
    joker_swap_limit: int = _knob(
        "jokers",
        "JOLY-02",
        "How often one joker may be taken off the table in a round.",
        lo=0,
        hi=10,
    )
    swap_requires_opened: bool = _knob(
        "jokers", "JOLY-01 OQ-39", "Only a player who has opened may swap a joker."
    )
    swapped_joker_use: SwappedJokerUse = _knob(
        "jokers", "JOLY-04", "Whether a swapped joker may be kept or must go into a new meld now."
    )
    swapped_joker_mode: SwappedJokerMode = _knob(
        "jokers", "JOLY-05", "A swapped joker is wild again, or fixed as the tile it stood for."
    )
    three_tile_set_joker_locked: bool = _knob(
        "jokers", "JOLY-03", "The joker of a set with only two real tiles cannot be taken."
    )
    set_complete_and_swap_same_turn: bool = _knob(
        "jokers", "JOLY-03", "One player may lay the third colour and swap the fourth in one turn."
    )
    layoff_on_3set_with_reused_joker: bool = _knob(
        "jokers", "LIPI-07", "Tiles may be laid on a 3-tile set whose joker is a reused joker."
    )
    joker_layoff_on_others_melds: bool = _knob(
        "jokers", "JOLY-07", "A joker may be laid off on another player's meld."
    )

    # 3.4 closing ------------------------------------------------------------------------
    closing_tile_mode: ClosingTileMode = _knob(
        "closing", "CLOSE-01 CLOSE-02", "The closing tile is discarded, or kept on the rack."
    )
    closing_bonus: int = _knob(
        "closing", "SCORE-03", "Points the closer receives for closing.", lo=0, hi=_INT_MAX
    )
    closing_joker_effect: ClosingEffect = _knob(
        "closing", "CLOSE-05", "Multiplier caused by closing with a joker."
    )
    closing_ace_effect: ClosingEffect = _knob(
        "closing", "CLOSE-05 OQ-02", "Multiplier caused by closing with a 1."
    )
    closing_atu_twin_effect: ClosingAtuTwinEffect = _knob(
        "closing", "CLOSE-05 ATU-03", "Bonus and multiplier of closing with the atu twin."
    )
    multiplier_stacking: MultiplierStacking = _knob(
        "closing", "SCORE-04 SCORE-05 SCORE-06", "Doublings multiply (x4), or are capped at x2."
    )
    pe_tabla_enabled: bool = _knob("closing", "CLOSE-06", "Players may declare and close pe tablă.")
    pe_tabla_bonus: int = _knob(
        "closing",
        "CLOSE-06",
        "Closing bonus of a pe-tablă closing (instead of closing_bonus).",
        lo=0,
        hi=_INT_MAX,
    )
    pe_tabla_declare_by: PeTablaDeclareBy = _knob(
        "closing", "CLOSE-06", "Deadline for declaring pe tablă."
    )
    pe_tabla_take_discard: PeTablaTakeDiscard = _knob(
        "closing", "RUPE-07", "When a pe-tablă declarer may take from the row."
    )
    pe_tabla_adds_meld_points: bool = _knob(
        "closing", "CLOSE-06 OQ-14", "The pe-tablă closer's meld values are added to the bonus."
    )
    pe_tabla_binding: bool = _knob(
        "closing", "CLOSE-06 OQ-14", "A declarer may not open normally afterwards."
    )
    pe_tabla_opening_rules_apply: bool = _knob(
        "closing",
        "CLOSE-06 OQ-14",
        "The opening minimum and composition apply to the pe-tablă melds.",
    )
    pe_tabla_unclosed_as_unopened: bool = _knob(
        "closing", "CLOSE-06 OQ-14", "A declarer who never closes is scored as unopened."
    )
    pe_tabla_layoff_on_others: bool = _knob(
        "closing",
        "CLOSE-06 OQ-14",
        "In the pe-tablă closing turn, tiles may go onto others' melds.",
    )

    # 3.5 atu ----------------------------------------------------------------------------
    double_game_if_atu_joker: bool = _knob(
        "atu", "ATU-05", "A joker atu makes the round a joc dublu (everyone x2)."
    )
    double_game_if_atu_ace: bool = _knob(
        "atu", "ATU-05 OQ-03", "A 1 as atu makes the round a joc dublu (everyone x2)."
    )
    atu_may_be_joker: bool = _knob(
        "atu", "DEAL-03", "The atu may be a joker (else a joker is put back and another turned)."
    )
    atu_bonus_trigger: AtuBonusTrigger = _knob(
        "atu", "ATU-02 ATU-03 ATU-04", "What earns the atu bonus."
    )
    atu_bonus_points: int = _knob(
        "atu", "ATU-02 ATU-03 ATU-04", "Points of the atu bonus.", lo=0, hi=_INT_MAX
    )
    atu_announce_deadline: AtuAnnounceDeadline = _knob(
        "atu", "ATU-02", "Last moment to announce the atu twin."
    )
    atu_bonus_if_unopened: bool = _knob(
        "atu", "ATU-02", "An unopened player still receives the atu bonus."
    )
    atu_bonus_for_joker_atu: bool = _knob(
        "atu", "OQ-37", "A joker atu can earn the atu bonus (its twin being the other joker)."
    )
    atu_face_up_takeable: AtuFaceUpTakeable = _knob(
        "atu", "ATU-06", "When the face-up atu may be taken."
    )
    atu_bonus_layoff_counts: bool = _knob(
        "atu", "ATU-04 OQ-26", "Under meld_twin, laying the twin off also earns the bonus."
    )

    # 3.6 scoring ------------------------------------------------------------------------
    ace_rack_value_end: int = _knob(
        "scoring", "VALUE-04", "Points a 1 left on the rack costs at the end.", lo=0, hi=_INT_MAX
    )
    joker_rack_value_end: int = _knob(
        "scoring",
        "VALUE-04",
        "Points a joker left on the rack costs at the end.",
        lo=0,
        hi=_INT_MAX,
    )
    joker_table_value_end: JokerTableValueEnd = _knob(
        "scoring", "VALUE-03 OQ-05", "A joker on the table at the end: 50, or what it represents."
    )
    reused_joker_value_end: ReusedJokerValueEnd = _knob(
        "scoring", "VALUE-05 OQ-04", "A reused joker at the end: like any joker, or 0."
    )
    swap_replacement_value_for_owner: SwapReplacementValue = _knob(
        "scoring", "VALUE-05 OQ-04", "The tile laid in a joker's place: its face value or 50."
    )
    swap_replacement_credited_to: SwapReplacementCredit = _knob(
        "scoring", "VALUE-05 OQ-20", "Who is credited with the tile laid in a joker's place."
    )
    atu_twin_rack_value_end: int | None = _knob(
        "scoring",
        "VALUE-06 VALUE-04",
        "The atu twin left on the rack: a fixed value, or None (normal).",
        lo=0,
        hi=_INT_MAX,
    )
    unopened_penalty: int = _knob(
        "scoring",
        "SCORE-02",
        "Flat penalty (subtracted) of a player who never opened.",
        lo=0,
        hi=_INT_MAX,
    )
    unopened_rack_counted: bool = _knob(
        "scoring", "SCORE-02", "An unopened player's rack is subtracted too."
    )
    announce_threshold: int = _knob(
        "scoring",
        "ANNOUNCE-01 ANNOUNCE-04",
        "A rack of this many tiles or fewer must be announced.",
        lo=0,
        hi=14,
    )
    announce_automatic: bool = _knob(
        "scoring", "ANNOUNCE-04", "The announcement is made automatically."
    )
    no_announce_penalty: int | None = _knob(
        "scoring",
        "ANNOUNCE-03 OQ-12",
        "Flat penalty for not announcing, or None for no penalty.",
        lo=0,
        hi=_INT_MAX,
    )
    multipliers_apply_to_penalties: bool = _knob(
        "scoring", "SCORE-07 OQ-35", "Doublings also multiply flat penalties."
    )
    closer_keeps_tile_counted: bool = _knob(
        "scoring", "SCORE-05 OQ-24", "A kept closing tile is subtracted from the closer."
    )

    # 3.7 deal ---------------------------------------------------------------------------
    hand_sizes: tuple[int, int] = _knob(
        "deal", "DEAL-02", "Tiles dealt to the starter and to each other player."
    )
    starter_rotation: StarterRotation = _knob("deal", "DEAL-01", "Who starts the next round.")
    doubles_exchange: bool = _knob(
        "deal", "DUBLE-03", "Players may exchange doubles blind at the start."
    )
    doubles_exchange_same_class: bool = _knob(
        "deal", "DUBLE-03", "Only small for small and big for big."
    )
    ace_double_class: AceDoubleClass = _knob(
        "deal", "DUBLE-02", "The class of a pair of 1s in exchanges."
    )
    doubles_exchange_unit: DoublesExchangeUnit = _knob(
        "deal", "DUBLE-04 OQ-30", "Each side gives one tile of its double, or the pair."
    )
    redeal_doubles_threshold: int | None = _knob(
        "deal",
        "DUBLE-05 OQ-09",
        "Doubles in a dealt hand that allow demanding a redeal, or None.",
        lo=1,
        hi=7,
    )
    stock_exhausted: StockExhausted = _knob(
        "deal",
        "END-01 END-02 END-03",
        "When the stock runs out: the round ends, or the row is reshuffled.",
    )
    tie_rule: TieRule = _knob("deal", "TIE-01 TIE-02", "Who wins a tie for the top result.")
    max_rack_after_turn: int | None = _knob(
        "deal",
        "TURN-10 OQ-32",
        "Largest rack allowed at a turn's end, or None for no cap.",
        lo=1,
        hi=106,
    )
    max_turns_per_round: int | None = _knob(
        "deal",
        "END-04",
        "Turns after which a round ends without a close, or None.",
        lo=1,
        hi=MAX_TURNS_PER_ROUND,
    )

    # melds (not in the matrix) ------------------------------------------------------------
    ace_high_run: bool = _knob(
        "melds", "MELD-02", "A 1 may follow the 13 in a run (12-13-1); False allows only 1-2-3."
    )

    def __attrs_post_init__(self) -> None:
        for field in attrs.fields(type(self)):
            validate(field, _field_type(field), getattr(self, field.name))
        starter, others = self.hand_sizes
        if starter + 3 * others + 1 > 106:
            raise InvalidRulesetError(
                RulesetErrorCode.HAND_SIZES, knob="hand_sizes", value=self.hand_sizes
            )
        check_playable(self)

    def fingerprint(self) -> str:
        """A short stable hash (16 hex digits) of the knob values, for saved games.

        It depends only on the knobs' names and values, never on the preset's name:
        equal rulesets have equal fingerprints.  A release that adds a knob changes
        every fingerprint (the rules then say more), and says so in the changelog.

        >>> from remi_rules import variants
        >>> len(variants.get("clasic").fingerprint())
        16
        """
        return _fingerprint(self)

    def as_plain_dict(self) -> dict[str, object]:
        """The knob values as plain JSON values (enums as their string values), in
        field order.  :mod:`remi_rules.serde` is the full, strict conversion."""
        return {name: _plain(value) for name, value in self._items()}

    def _items(self) -> Iterator[tuple[str, object]]:
        for field in attrs.fields(type(self)):
            yield field.name, getattr(self, field.name)


@functools.lru_cache(maxsize=64)
def _fingerprint(rules: Ruleset) -> str:
    """:meth:`Ruleset.fingerprint`, remembered for the last few rulesets (a server sends
    it with every view; equal rulesets are equal keys, so a hit is always right)."""
    canonical = json.dumps(rules.as_plain_dict(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()[:16]


def _plain(value: object) -> object:
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if isinstance(value, ClosingAtuTwinEffect):
        return {"bonus": value.bonus, "mult": value.mult.value}
    return value


def _type_name(tp: object) -> str:
    return tp if isinstance(tp, str) else getattr(tp, "__name__", str(tp))


_RESOLVED: dict[str, Any] = {}


def _field_type(field: attrs.Attribute[Any]) -> Any:
    if not _RESOLVED:
        attrs.resolve_types(Ruleset)
        for f in attrs.fields(Ruleset):
            _RESOLVED[f.name] = f.type
    return _RESOLVED[field.name]


def require_ruleset(rules: object) -> Ruleset:
    """``rules`` itself if it is a :class:`Ruleset`; else :class:`TypeError` (the check
    every public rules function makes of its ``rules`` argument)."""
    if not isinstance(rules, Ruleset):
        raise TypeError(f"rules must be a Ruleset, not {type(rules).__name__}")
    return rules


def knobs() -> tuple[KnobInfo, ...]:
    """Documentation of every knob, in field order (groups follow the matrix)."""
    return tuple(
        KnobInfo(
            name=f.name,
            group=f.metadata["group"],
            rules=f.metadata["rules"],
            doc=f.metadata["doc"],
            type_name=_describe(_field_type(f)),
            lo=f.metadata["lo"],
            hi=f.metadata["hi"],
        )
        for f in attrs.fields(Ruleset)
    )


def _describe(tp: Any) -> str:
    if tp == int | None:
        return "int | None"
    if tp == tuple[int, int]:
        return "tuple[int, int]"
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return f"{tp.__name__} ({', '.join(m.value for m in tp)})"
    return _type_name(tp)
