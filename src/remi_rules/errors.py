"""Errors of remi_rules: one base class, area subclasses, stable codes, any language.

Every error the library raises on bad input is a :class:`RemiError` carrying

* ``code``: a member of one of the documented code enums below (stable; frontends
  translate it, tests assert it);
* ``details``: a mapping with what a frontend needs to explain the refusal: data
  and sub-codes (``why="dealer"``), never prose;
* ``message(lang)``: the explanation in a language of :func:`remi_rules._i18n.languages`
  (``"ro"``, ``"en"``), from the message catalogues (the entry whose ``msgctxt`` is
  the code, see :mod:`remi_rules._i18n`).

The area classes are also :class:`ValueError` subclasses, so ``except ValueError``
keeps working for callers that do not know this library.  A wrong *Python type*
passed to a function raises :class:`TypeError` (for rulesets an
:class:`RulesetTypeError`, which is both).
"""

from __future__ import annotations

import contextlib
import enum
from collections.abc import Callable, Mapping
from typing import Final

from . import _i18n as i18n
from ._safe_text import MAX_DETAIL_CHARS, MAX_REASON_CHARS, safe_repr, safe_text

__all__ = [
    "MAX_DETAIL_CHARS",
    "MAX_REASON_CHARS",
    "UNPLAYABLE_CONFLICTS",
    "ClosingErrorCode",
    "EngineArgumentError",
    "EngineErrorCode",
    "HintError",
    "HintErrorCode",
    "IllegalStepError",
    "InvalidClosingError",
    "InvalidHandError",
    "InvalidLayoffError",
    "InvalidMeldError",
    "InvalidOpeningError",
    "InvalidRecordTextError",
    "InvalidRulesetError",
    "InvalidScoringInputError",
    "InvalidSimulationError",
    "InvalidStateError",
    "InvalidSwapError",
    "InvalidTakeError",
    "InvalidTileError",
    "LayoffErrorCode",
    "MeldErrorCode",
    "NotationError",
    "NotationErrorCode",
    "OpeningErrorCode",
    "RecordTextErrorCode",
    "RemiError",
    "RulesetErrorCode",
    "RulesetTypeError",
    "ScoringErrorCode",
    "SimErrorCode",
    "SimulationFailedError",
    "SolverErrorCode",
    "StateErrorCode",
    "StepErrorCode",
    "SwapErrorCode",
    "TakeErrorCode",
    "TileErrorCode",
    "TileParseError",
    "UnknownVariantError",
    "VariantErrorCode",
    "all_codes",
    "safe_repr",
    "safe_text",
]


class TileErrorCode(enum.StrEnum):
    """Why a tile, its notation or its physical id was refused (TILES-01)."""

    EMPTY = "empty"
    BAD_FORMAT = "bad_format"
    RANK_OUT_OF_RANGE = "rank_out_of_range"
    UNKNOWN_COLOUR = "unknown_colour"
    BAD_FIXED_JOKER = "bad_fixed_joker"
    ID_OUT_OF_RANGE = "id_out_of_range"
    TOKEN_TOO_LONG = "token_too_long"


class MeldErrorCode(enum.StrEnum):
    """Why a sequence of tiles is not a valid meld (MELD-01 … MELD-06)."""

    TOO_SHORT = "too_short"
    TOO_MANY_JOKERS = "too_many_jokers"
    ADJACENT_JOKERS = "adjacent_jokers"
    MIXED_COLOURS = "mixed_colours"
    REPEATED_COLOUR = "repeated_colour"
    SET_TOO_LONG = "set_too_long"
    RUN_TOO_LONG = "run_too_long"
    RUN_NOT_ASCENDING = "run_not_ascending"
    RUN_REPEATED_RANK = "run_repeated_rank"
    RUN_GAP = "run_gap"
    ACE_IN_MIDDLE = "ace_in_middle"
    HIGH_ACE_NOT_ALLOWED = "high_ace_not_allowed"
    JOKER_OUT_OF_RANGE = "joker_out_of_range"
    FIXED_JOKER_OUT_OF_PLACE = "fixed_joker_out_of_place"


class OpeningErrorCode(enum.StrEnum):
    """Why melds are not a valid first etalare (OPEN-02 … OPEN-04)."""

    NO_MELDS = "no_melds"
    MISSING_RUN = "missing_run"
    MISSING_RUN_OR_ACE_SET = "missing_run_or_ace_set"
    MISSING_SET = "missing_set"
    ACE_SET_WITH_OTHER_SETS = "ace_set_with_other_sets"
    BELOW_MINIMUM = "below_minimum"
    BAD_TURN_NUMBER = "bad_turn_number"


class RulesetErrorCode(enum.StrEnum):
    """Why a ruleset, or a house-rules file, was refused."""

    WRONG_TYPE = "wrong_type"
    OUT_OF_RANGE = "out_of_range"
    NOT_A_CHOICE = "not_a_choice"
    HAND_SIZES = "hand_sizes"
    UNKNOWN_KNOB = "unknown_knob"
    MISSING_KNOB = "missing_knob"
    UNKNOWN_BASE = "unknown_base"
    BAD_STRUCTURE = "bad_structure"
    BAD_FILE = "bad_file"
    FILE_TOO_LARGE = "file_too_large"
    NUMBER_TOO_LONG = "number_too_long"
    TOO_DEEP = "too_deep"
    UNKNOWN_FORMAT = "unknown_format"
    UNPLAYABLE_COMBINATION = "unplayable_combination"


class VariantErrorCode(enum.StrEnum):
    """Why a preset lookup failed."""

    UNKNOWN_VARIANT = "unknown_variant"


class RemiError(Exception):
    """Base class of every error raised by remi_rules on bad input or an illegal action."""

    code: enum.StrEnum
    details: Mapping[str, object]

    def __init__(self, code: enum.StrEnum, /, **details: object) -> None:
        # Exception.__init__ is not called: BaseException.__new__ already keeps the
        # positional args, and skipping it keeps refusals cheap on hot paths.
        self.code = code
        self.details = details

    def message(self, lang: str = "en") -> str:
        """The explanation in ``lang``: ``"ro"`` (Romanian), ``"en"`` (English) or any
        language of :func:`remi_rules._i18n.languages`.

        Any detail value formats safely (:func:`safe_text`): long values are
        shortened, huge numbers written by their magnitude, and a value whose
        ``__str__`` raises is named by its type.  An unknown ``lang`` raises
        :class:`ValueError` (a programming error, like an unknown keyword)."""
        return _message(self.code, self.details, lang)

    def __str__(self) -> str:
        return f"[{safe_text(getattr(self.code, 'value', self.code))}] {self.message('en')}"

    def __repr__(self) -> str:
        try:
            items = list(self.details.items())
        except Exception:
            items = []
        shown = ", ".join(f"{safe_repr(k)}: {safe_repr(v)}" for k, v in items)
        return f"{type(self).__name__}({safe_text(self.code)}, {{{shown}}})"

    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuild, (type(self), self.code, dict(self.details)))


def _message(code: object, details: Mapping[str, object], lang: str) -> str:
    """The catalogue's message for ``code`` (its value is the ``msgctxt``), or the
    code itself for one no catalogue knows."""
    lang = i18n.language(lang)
    if isinstance(code, str):
        try:
            return i18n.text(str.__str__(code), lang, details)
        except KeyError:  # not one of the library's codes
            pass
    return safe_repr(code)


def _rebuild(cls: type[RemiError], code: enum.StrEnum, details: dict[str, object]) -> RemiError:
    err = cls.__new__(cls)
    RemiError.__init__(err, code, **details)
    return err


class InvalidTileError(RemiError, ValueError):
    """A tile value, a physical tile id or a tile's notation is invalid (TILES-01)."""

    code: TileErrorCode


class TileParseError(InvalidTileError):
    """Tile notation could not be parsed.  ``details`` has ``text``, and for
    :func:`~remi_rules.parse_tiles` also ``token`` and ``position`` (1-based)."""

    def message(self, lang: str = "en") -> str:
        base = super().message(lang)
        if "position" in self.details:
            return f"{base} {i18n.text('part:token_position', lang, self.details)}"
        return base


DEFERRED: Final = object()
"""Marks an :class:`InvalidMeldError` whose diagnosis is deferred (see there)."""


class InvalidMeldError(RemiError, ValueError):
    """The tiles do not form a valid meld (MELD-01 … MELD-06).  ``code`` is a
    :class:`MeldErrorCode`; ``details`` has ``tiles`` (the Tile values) and, where
    one tile is at fault, ``tile`` and ``position`` (1-based).

    The validator raises it with the diagnosis *deferred*: deciding that a meld is
    invalid is fast, finding out why takes longer, so ``code`` and ``details`` are
    worked out the first time they are read.  Callers see no difference.
    """

    @classmethod
    def deferred(
        cls,
        tiles: object,
        diagnosis: Callable[..., tuple[MeldErrorCode, dict[str, object]]],
        *args: object,
    ) -> InvalidMeldError:
        """An error whose code and details come from ``diagnosis(*args)`` when first
        read.  (Hot paths build the same thing with ``BaseException.__new__`` and
        :data:`DEFERRED` directly, which is cheaper.)"""
        err: InvalidMeldError = cls.__new__(cls, DEFERRED, tiles, diagnosis, *args)
        return err

    def _resolve(self) -> None:
        args = self.args
        if "code" not in self.__dict__ and len(args) >= 3 and args[0] is DEFERRED:
            tiles, diagnosis = args[1], args[2]
            code, details = diagnosis(*args[3:])
            self.__dict__["code"] = code
            self.__dict__["details"] = {"tiles": tuple(tiles), **details}
            self.args = (code,)

    @property  # type: ignore[override]
    def code(self) -> MeldErrorCode:
        self._resolve()
        return self.__dict__["code"]  # type: ignore[no-any-return]

    @code.setter
    def code(self, value: MeldErrorCode) -> None:
        self.__dict__["code"] = value

    @property
    def details(self) -> Mapping[str, object]:
        self._resolve()
        return self.__dict__["details"]  # type: ignore[no-any-return]

    @details.setter
    def details(self, value: Mapping[str, object]) -> None:
        self.__dict__["details"] = value


class InvalidOpeningError(RemiError, ValueError):
    """The melds are not a valid first etalare (OPEN-02 … OPEN-04).  ``code`` is an
    :class:`OpeningErrorCode`; ``details`` has ``points`` (the melds' total) and
    ``minimum`` (the ruleset's ``opening_min_points``)."""

    code: OpeningErrorCode


class InvalidRulesetError(RemiError, ValueError):
    """A ruleset knob, or a house-rules file, is invalid.  ``knob`` names the field
    (a dotted path for nested values), or ``None`` for a problem with a whole file.

    For ``unplayable_combination`` (knobs that are each in range but cannot be played
    together) ``details`` has ``knobs`` (the names, a tuple; ``knob`` is the first),
    ``conflict`` (a key of :data:`UNPLAYABLE_CONFLICTS`, which the message explains)
    and the values involved."""

    code: RulesetErrorCode

    @property
    def knob(self) -> str | None:
        knob = self.details.get("knob")
        return None if knob is None else str(knob)

    @property
    def knobs(self) -> tuple[str, ...]:
        """The knobs at fault: ``details['knobs']``, else ``(knob,)``, else ``()``."""
        named = self.details.get("knobs")
        if isinstance(named, tuple | list):
            return tuple(str(k) for k in named)
        return () if self.knob is None else (self.knob,)

    def message(self, lang: str = "en") -> str:
        if self.code is not RulesetErrorCode.UNPLAYABLE_COMBINATION:
            return super().message(lang)
        shown: dict[str, object] = dict(self.details)
        if self.knobs:
            shown["knobs"] = ", ".join(self.knobs)
        text = _message(self.code, shown, lang)
        conflict = self.details.get("conflict")
        if conflict in UNPLAYABLE_CONFLICTS:
            text += " " + i18n.text(f"conflict:{conflict}", lang, shown)
        return text


UNPLAYABLE_CONFLICTS: Final = ("no_turn_cap_with_reshuffle", "rack_cap_below_hand")
"""The conflicts behind ``unplayable_combination``, by the ``conflict`` key of the
error's details; the catalogues explain each (the entry ``conflict:<key>``)."""


class RulesetTypeError(InvalidRulesetError, TypeError):
    """A ruleset knob was given a value of the wrong Python type (code ``WRONG_TYPE``).
    It is both an :class:`InvalidRulesetError` and a :class:`TypeError`."""


class UnknownVariantError(RemiError, ValueError):
    """No preset has that name; ``details['known']`` lists the names that exist."""

    code: VariantErrorCode


# -- lay-offs and joker swaps (LIPI-*, JOLY-*) -----------------------------------------------


class LayoffErrorCode(enum.StrEnum):
    """Why a tile may not be laid off onto a meld (LIPI-01 … LIPI-08, JOLY-07, OPEN-07)."""

    BAD_MELD_INDEX = "layoff_bad_meld_index"
    TILE_ON_TABLE = "layoff_tile_on_table"
    NOT_OPENED = "layoff_not_opened"
    OPENING_TURN = "layoff_opening_turn"
    JOKER_ON_OTHERS_MELD = "layoff_joker_on_others_meld"
    REUSED_JOKER_SET = "layoff_reused_joker_set"
    MELD_FULL = "layoff_meld_full"
    END_CLOSED = "layoff_end_closed"
    END_REQUIRED = "layoff_end_required"
    BAD_END = "layoff_bad_end"
    NOT_FITTING = "layoff_not_fitting"
    JOKER_LIMIT = "layoff_joker_limit"
    IS_SWAP = "layoff_is_swap"
    TILE_NOT_IN_MELD = "layoff_tile_not_in_meld"


class SwapErrorCode(enum.StrEnum):
    """Why a joker on the table may not be taken (JOLY-01 … JOLY-05, OPEN-09)."""

    BAD_MELD_INDEX = "swap_bad_meld_index"
    NOT_A_JOKER_HERE = "swap_not_a_joker_here"
    TILE_ON_TABLE = "swap_tile_on_table"
    NOT_OPENED = "swap_not_opened"
    OPENING_TURN = "swap_opening_turn"
    JOKER_FIXED = "swap_joker_fixed"
    SWAP_LIMIT = "swap_limit_reached"
    THREE_TILE_SET = "swap_three_tile_set"
    SAME_TURN_COMPLETION = "swap_same_turn_completion"
    WRONG_TILE = "swap_wrong_tile"
    JOKER_NOT_MELDED = "swap_joker_not_melded"
    NOT_A_JOKER = "swap_not_a_joker"


class InvalidLayoffError(RemiError, ValueError):
    """A tile may not be laid off there (LIPI-01 … LIPI-08, JOLY-07).  ``code`` is a
    :class:`LayoffErrorCode`; ``details`` has ``meld_index``, ``tile`` and, where it
    helps, ``meld``, ``end`` or ``joker_id``."""

    code: LayoffErrorCode


class InvalidSwapError(RemiError, ValueError):
    """A joker may not be taken off the table (JOLY-01 … JOLY-05, OPEN-09).  ``code``
    is a :class:`SwapErrorCode`; ``details`` has ``meld_index``, ``joker_id`` and,
    where it helps, ``tile`` and ``wanted``."""

    code: SwapErrorCode


# -- scoring (SCORE-*, CLOSE-05, ATU-02 … ATU-05, VALUE-04 … VALUE-06, TIE-*) ------------------


class ScoringErrorCode(enum.StrEnum):
    """Why the end of a round could not be scored (the input describes no possible round)."""

    SEAT_COUNT = "scoring_seat_count"
    CLOSER_OUT_OF_RANGE = "scoring_closer_out_of_range"
    CLOSING_TILE_MISSING = "scoring_closing_tile_missing"
    CLOSING_TILE_WITHOUT_CLOSER = "scoring_closing_tile_without_closer"
    CLOSER_RACK_NOT_EMPTY = "scoring_closer_rack_not_empty"
    CLOSER_NOT_OPENED = "scoring_closer_not_opened"
    TILE_ON_TABLE = "scoring_tile_on_table"
    DUPLICATE_TILE = "scoring_duplicate_tile"
    ATU_MISPLACED = "scoring_atu_misplaced"
    TABLE_SEAT_OUT_OF_RANGE = "scoring_table_seat_out_of_range"
    UNOPENED_ON_TABLE = "scoring_unopened_on_table"
    ATU_ANNOUNCED_TWICE = "scoring_atu_announced_twice"
    PE_TABLA_WITHOUT_CLOSER = "scoring_pe_tabla_without_closer"
    PE_TABLA_NOT_DECLARED = "scoring_pe_tabla_not_declared"
    PE_TABLA_DISABLED = "scoring_pe_tabla_disabled"
    ATU_JOKER_NOT_ALLOWED = "scoring_atu_joker_not_allowed"
    ATU_NOT_TAKEABLE = "scoring_atu_not_takeable"
    ATU_NOT_CLOSERS = "scoring_atu_not_closers"
    BAD_POSITION = "scoring_bad_position"
    NOT_A_JOKER_POSITION = "scoring_not_a_joker_position"


class InvalidScoringInputError(RemiError, ValueError):
    """The end of a round given to :func:`~remi_rules.score_round` is impossible
    (SCORE-*).  ``code`` is a :class:`ScoringErrorCode`; ``details`` names the seat,
    tile or meld at fault."""

    code: ScoringErrorCode


class TakeErrorCode(enum.StrEnum):
    """Why a tile may not be taken from the discard row or the atu, or why the take's
    obligation was not met (RUPE-01 … RUPE-08, TURN-01, TURN-04, TURN-07, ATU-06)."""

    EMPTY_ROW = "take_empty_row"
    INDEX_OUT_OF_RANGE = "take_index_out_of_range"
    DUPLICATE_TILE = "take_duplicate_tile"
    DEAD_FIRST_DISCARD = "take_dead_first_discard"
    FIRST_TURN = "take_first_turn"
    PE_TABLA_NOT_CLOSING = "take_pe_tabla_not_closing"
    UNOPENED_LAST_DISCARD = "take_unopened_last_discard"
    LAST_DISCARD_RACK_TOO_SMALL = "take_last_discard_rack_too_small"
    RUPERE_DISABLED = "take_rupere_disabled"
    RUPERE_UNOPENED = "take_rupere_unopened"
    RUPERE_RACK_TOO_SMALL = "take_rupere_rack_too_small"
    NOTHING_WOULD_REMAIN = "take_nothing_would_remain"
    CANNOT_JUSTIFY = "take_cannot_justify"
    CANNOT_OPEN = "take_cannot_open"
    CANNOT_CLOSE = "take_cannot_close"
    ATU_NEVER = "take_atu_never"
    ATU_NOT_CLOSING_TURN = "take_atu_not_closing_turn"
    ATU_NO_FULL_RIGHTS = "take_atu_no_full_rights"
    NOT_IN_NEW_MELD = "take_not_in_new_meld"
    INVALID_MELD = "take_invalid_meld"
    TOO_FEW_OWN_TILES = "take_too_few_own_tiles"
    BAD_ARGUMENT = "take_bad_argument"
    RACK_SIZE_MISMATCH = "take_rack_size_mismatch"


class InvalidTakeError(RemiError, ValueError):
    """A take from the discard row or of the face-up atu is not allowed, or its
    obligation was not met (RUPE-*, TURN-01, TURN-04, TURN-07, ATU-06).  ``code`` is a
    :class:`TakeErrorCode`; ``details`` names what a frontend needs (``index``,
    ``rack``, ``minimum``, ``tile``, ``own`` …)."""

    code: TakeErrorCode


class ClosingErrorCode(enum.StrEnum):
    """Why a player may not close now, or why his rack cannot end the action phase so
    (CLOSE-01 … CLOSE-04, OPEN-08, TURN-07)."""

    NO_TAKE = "close_no_take"
    NOT_OPENED = "close_not_opened"
    OPENING_TURN = "close_opening_turn"
    PE_TABLA = "close_pe_tabla"
    NO_CLOSING_TILE = "close_no_closing_tile"
    TOO_FEW_AFTER_OPENING = "close_too_few_after_opening"
    BAD_RACK_SIZE = "close_bad_rack_size"
    NOTHING_TO_DISCARD = "close_nothing_to_discard"


class InvalidClosingError(RemiError, ValueError):
    """A close, or the rack left by the action phase, is not allowed (CLOSE-01 …
    CLOSE-04, OPEN-08, TURN-07).  ``code`` is a :class:`ClosingErrorCode`."""

    code: ClosingErrorCode


class StepErrorCode(enum.StrEnum):
    """Why the engine refused a step (engine-level reasons; a refusal by a turn rule
    keeps that rule's own code, see :class:`IllegalStepError`)."""

    ROUND_OVER = "round_over"
    NOT_YOUR_TURN = "not_your_turn"
    NOT_YOUR_STEP = "not_your_step"
    BAD_SEAT = "bad_seat"
    TAKE_FIRST = "take_first"
    ALREADY_TOOK = "already_took"
    STARTER_FIRST_TURN = "starter_first_turn"
    STOCK_EMPTY = "stock_empty"
    NOT_IN_RACK = "not_in_rack"
    RUPERE_IS_LAST_DISCARD = "rupere_is_last_discard"
    ATU_ALREADY_TAKEN = "atu_already_taken"
    FIRST_TURN_NO_MELD = "first_turn_no_meld"
    PE_TABLA_BINDING = "pe_tabla_binding"
    PE_TABLA_MUST_CLOSE = "pe_tabla_must_close"
    ATU_MUST_CLOSE = "atu_must_close"
    MUST_CLOSE = "must_close"
    CLOSE_NOT_LAST_TILE = "close_not_last_tile"
    RACK_OVER_MAX = "rack_over_max"
    ANNOUNCE_NOT_DUE = "announce_not_due"
    ANNOUNCE_AFTER_DISCARD = "announce_after_discard"
    ALREADY_ANNOUNCED = "already_announced"
    ATU_TWIN_NOT_HELD = "atu_twin_not_held"
    ATU_ALREADY_ANNOUNCED = "atu_already_announced"
    ATU_ANNOUNCE_TOO_LATE = "atu_announce_too_late"
    PE_TABLA_DISABLED = "pe_tabla_disabled"
    PE_TABLA_TOO_LATE = "pe_tabla_too_late"
    PE_TABLA_ALREADY_OPENED = "pe_tabla_already_opened"
    PE_TABLA_ALREADY_DECLARED = "pe_tabla_already_declared"
    PREPLAY_OVER = "preplay_over"
    EXCHANGE_DISABLED = "exchange_disabled"
    EXCHANGE_SAME_SEAT = "exchange_same_seat"
    NOT_A_DOUBLE = "not_a_double"
    DOUBLE_CLASS_DIFFERS = "double_class_differs"
    DOUBLE_ALREADY_EXCHANGED = "double_already_exchanged"
    DOUBLES_OFFER_OPEN = "doubles_offer_open"
    NO_DOUBLES_OFFER = "no_doubles_offer"
    REDEAL_DISABLED = "redeal_disabled"
    TOO_FEW_DOUBLES = "too_few_doubles"
    NOTHING_TO_UNDO = "nothing_to_undo"
    UNDO_IRREVERSIBLE = "undo_irreversible"
    UNDO_LIMIT = "undo_limit"
    PE_TABLA_TAKE_MUST_CLOSE = "pe_tabla_take_must_close"


class IllegalStepError(RemiError, ValueError):
    """The engine refused a step; the state is unchanged.

    ``code`` is the most precise reason: a :class:`StepErrorCode` for the engine's own
    checks, or the code of the turn rule that refused it (a :class:`TakeErrorCode`,
    :class:`LayoffErrorCode`, :class:`SwapErrorCode`, :class:`OpeningErrorCode`,
    :class:`ClosingErrorCode` or :class:`MeldErrorCode`), so a frontend can always say
    *why*.  ``details["step"]`` names the step's kind."""

    code: enum.StrEnum

    @classmethod
    def wrap(cls, err: RemiError, step: str) -> IllegalStepError:
        """The refusal ``err`` of a turn rule, as a refusal of ``step``."""
        out = cls(err.code, **dict(err.details), step=step)
        out.__cause__ = err
        return out


class EngineErrorCode(enum.StrEnum):
    """Why a function of :mod:`remi_rules.engine` refused its arguments (values of the
    right type that make no sense here; a refused *step* is an
    :class:`IllegalStepError`)."""

    PLAYERS = "engine_players"
    BAD_SEAT = "engine_bad_seat"
    ROUND_NOT_OVER = "engine_round_not_over"
    BOT_COUNT = "engine_bot_count"
    ROUND_TOO_LONG = "engine_round_too_long"
    NOT_IN_RACK = "engine_not_in_rack"
    JOKER_NOT_DOUBLE = "engine_joker_not_double"
    BAD_MATCH_CONFIG = "engine_bad_match_config"
    MATCH_ROUND_PENDING = "engine_match_round_pending"
    MATCH_OVER = "engine_match_over"
    NO_ROUNDS = "engine_no_rounds"


class EngineArgumentError(RemiError, ValueError):
    """A function of :mod:`remi_rules.engine` was given a value of the right type that
    makes no sense here (five players, seat 7, the score of a round still in play).
    ``code`` is an :class:`EngineErrorCode`."""

    code: EngineErrorCode


class StateErrorCode(enum.StrEnum):
    """Why saved data (a game state, a record) was refused when loaded."""

    WRONG_TYPE = "state_wrong_type"
    MISSING_KEY = "state_missing_key"
    UNKNOWN_KEY = "state_unknown_key"
    OUT_OF_RANGE = "state_out_of_range"
    BAD_VALUE = "state_bad_value"
    TILE_COUNT = "state_tile_count"
    BAD_PHASE = "state_bad_phase"
    FINGERPRINT = "state_fingerprint"
    RULES_MISMATCH = "state_rules_mismatch"
    FORMAT_VERSION = "state_format_version"
    BAD_RULESET = "state_bad_ruleset"
    BAD_RECORD = "state_bad_record"
    TOO_DEEP = "state_too_deep"
    NOT_JSON = "state_not_json"
    STRING_TOO_LONG = "state_string_too_long"
    DOCUMENT_TOO_LARGE = "state_document_too_large"


class InvalidStateError(RemiError, ValueError):
    """Saved data was refused when loaded (a game state, a record, a view).
    ``code`` is a :class:`StateErrorCode`; ``details["path"]`` names the bad field
    (``state.seats[2].rack[5]``)."""

    code: StateErrorCode


# -- the solver ------------------------------------------------------------------------


class SolverErrorCode(enum.StrEnum):
    """Why the solver (:func:`~remi_rules.best_melds`, :func:`~remi_rules.best_opening`)
    refused a hand or its options."""

    TOO_MANY_TILES = "hand_too_many_tiles"
    TOO_MANY_COPIES = "hand_too_many_copies"
    TOO_MANY_JOKERS = "hand_too_many_jokers"
    UNKNOWN_OBJECTIVE = "hand_unknown_objective"
    BAD_MIN_LEFTOVER = "hand_bad_min_leftover"


class InvalidHandError(RemiError, ValueError):
    """The solver was given a hand that cannot exist (more than 30 tiles, more copies
    of a tile than the set holds) or options it does not know.  ``code`` is a
    :class:`SolverErrorCode`; ``details`` names the tile, the count and the limit."""

    code: SolverErrorCode


# -- the hint ---------------------------------------------------------------------------


class HintErrorCode(enum.StrEnum):
    """Why :func:`~remi_rules.hint.hint` gives no plan."""

    NOT_YOUR_TURN = "hint_not_your_turn"
    ROUND_OVER = "hint_round_over"
    RULES_MISMATCH = "hint_rules_mismatch"
    BAD_SAMPLES = "hint_bad_samples"


class HintError(RemiError, ValueError):
    """No hint can be given for this view.  ``code`` is a :class:`HintErrorCode`."""

    code: HintErrorCode


# -- the simulator ----------------------------------------------------------------------


class SimErrorCode(enum.StrEnum):
    """Why the simulator (:mod:`remi_rules.sim`) refused a simulation, a task or a
    measurement, or could not finish one."""

    BAD_SEATS = "sim_bad_seats"
    UNKNOWN_BOT = "sim_unknown_bot"
    BAD_ROUNDS = "sim_bad_rounds"
    BAD_LABELS = "sim_bad_labels"
    BAD_SEED_RANGE = "sim_bad_seed_range"
    BAD_CHUNK = "sim_bad_chunk"
    BAD_JOBS = "sim_bad_jobs"
    UNKNOWN_BACKEND = "sim_unknown_backend"
    BAD_OUTCOME = "sim_bad_outcome"
    BAD_VALUES = "sim_bad_values"
    BAD_COUNTS = "sim_bad_counts"
    RAY_MISSING = "sim_ray_missing"
    WORKER_LOST = "sim_worker_lost"
    COUNT_TOO_LARGE = "sim_count_too_large"
    BAD_RESULTS = "sim_bad_results"


class InvalidSimulationError(RemiError, ValueError):
    """The simulator was given a value it cannot use: a bot it does not know, a seat
    count, a number of rounds, processes or seeds out of range, an impossible round
    outcome.  ``code`` is a :class:`SimErrorCode`; ``details`` names the value."""

    code: SimErrorCode


class SimulationFailedError(RemiError, RuntimeError, ValueError):
    """A simulation could not be run or finished: the Ray backend without Ray
    installed (:attr:`SimErrorCode.RAY_MISSING`), a worker process that died
    (:attr:`SimErrorCode.WORKER_LOST`).  The values were fine, the machine was not,
    so it is also a :class:`RuntimeError` (and, like every area class, a
    :class:`ValueError`)."""

    code: SimErrorCode


# -- the step notation and the text game record -----------------------------------------


class NotationErrorCode(enum.StrEnum):
    """Why a text is not a step in the notation of :mod:`remi_rules.notation`."""

    EMPTY = "notation_empty"
    TOO_LONG = "notation_too_long"
    UNKNOWN_LANGUAGE = "notation_unknown_language"
    UNKNOWN_COMMAND = "notation_unknown_command"
    MISSING = "notation_missing"
    EXTRA = "notation_extra"
    BAD_TILE = "notation_bad_tile"
    NOT_IN_RACK = "notation_not_in_rack"
    TOO_FEW = "notation_too_few"
    NOT_IN_ROW = "notation_not_in_row"
    BAD_NUMBER = "notation_bad_number"
    ROW_POSITION = "notation_row_position"
    NO_MELD = "notation_no_meld"
    NO_JOKER = "notation_no_joker"
    BAD_END = "notation_bad_end"
    BAD_SEAT = "notation_bad_seat"
    NEEDS_VIEW = "notation_needs_view"


class NotationError(RemiError, ValueError):
    """A text that is not a step (:func:`remi_rules.notation.parse_step`): an unknown
    word, a missing or extra part, a tile the seat does not hold, a row position or a
    meld that does not exist.  ``code`` is a :class:`NotationErrorCode`; ``details``
    name the offending ``text`` or ``word``, its 1-based ``column`` in the text, and
    for an unknown word the key of the closest known one (``suggestion``, a
    :data:`~remi_rules.notation.STEP_WORDS` key such as ``"draw"``), which the message
    offers in its language ("did you mean draw?", "ai vrut să scrii trage?").
    Whether a well-formed step is *legal* is the engine's business
    (:class:`IllegalStepError`)."""

    code: NotationErrorCode

    def message(self, lang: str = "en") -> str:
        details = dict(self.details)
        if "command" in details:
            details["example"] = details["command"]
        base = _message(self.code, details, lang)
        parts = [base]
        key = details.get("suggestion")
        if key is not None:
            with contextlib.suppress(KeyError):  # else not a word: shown as it is
                details["suggestion"] = i18n.template(f"word:{key}", lang)
            parts.append(i18n.text("part:did_you_mean", lang, details))
        if details.get("column") is not None:
            parts.append(i18n.text("part:column", lang, details))
        return " ".join(parts)


class RecordTextErrorCode(enum.StrEnum):
    """Why a text game record (:func:`remi_rules.serde.load_record_text`) was refused."""

    TOO_LARGE = "record_too_large"
    LINE_TOO_LONG = "record_line_too_long"
    BAD_LINE = "record_bad_line"
    BAD_HEADER = "record_bad_header"
    DUPLICATE_HEADER = "record_duplicate_header"
    MISSING_HEADER = "record_missing_header"
    BAD_VALUE = "record_bad_value"
    BAD_RULES = "record_bad_rules"
    FINGERPRINT = "record_fingerprint"
    BAD_DEAL = "record_bad_deal"
    BAD_STEP = "record_bad_step"
    STEP_REFUSED = "record_step_refused"
    WRONG_TURN = "record_wrong_turn"
    BAD_CHANCE = "record_bad_chance"
    RESULT = "record_result"
    BAD_SEED = "record_bad_seed"


class InvalidRecordTextError(RemiError, ValueError):
    """A text game record was refused when loaded.  ``code`` is a
    :class:`RecordTextErrorCode`; ``details["line"]`` is the 1-based line at fault
    (absent for the whole text), ``details["column"]`` the column of a bad step's
    token, and a ``cause`` (the notation's or the engine's error) says more."""

    code: RecordTextErrorCode

    def message(self, lang: str = "en") -> str:
        base = _message(self.code, self.details, lang)
        if self.details.get("line") is None:
            return base
        key = "part:line_column" if self.details.get("column") is not None else "part:line"
        return f"{base} {i18n.text(key, lang, self.details)}"


def all_codes() -> tuple[enum.StrEnum, ...]:
    """Every error code the library defines, in a stable order (the code enums of this
    module in the order they are defined).  Each has a message in every catalogue
    (tests/test_i18n.py; ``tools/catalogues.py --check``)."""
    return tuple(
        code
        for value in list(globals().values())
        if isinstance(value, type)
        and issubclass(value, enum.StrEnum)
        and value.__module__ == __name__
        for code in value
    )
