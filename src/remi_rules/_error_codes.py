"""The error codes of remi_rules: one :class:`enum.StrEnum` per area, each member a
stable code with a message in every catalogue.  Public from :mod:`remi_rules.errors`
(and :mod:`remi_rules`); see that module for the errors that carry them.
"""

from __future__ import annotations

import enum

__all__ = [
    "CODE_ENUMS",
    "ClosingErrorCode",
    "EngineErrorCode",
    "HintErrorCode",
    "LayoffErrorCode",
    "MeldErrorCode",
    "NotationErrorCode",
    "OpeningErrorCode",
    "RecordTextErrorCode",
    "RulesetErrorCode",
    "ScoringErrorCode",
    "SimErrorCode",
    "SolverErrorCode",
    "StateErrorCode",
    "StepErrorCode",
    "SwapErrorCode",
    "TakeErrorCode",
    "TileErrorCode",
    "VariantErrorCode",
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


class SolverErrorCode(enum.StrEnum):
    """Why the solver (:func:`~remi_rules.best_melds`, :func:`~remi_rules.best_opening`)
    refused a hand or its options."""

    TOO_MANY_TILES = "hand_too_many_tiles"
    TOO_MANY_COPIES = "hand_too_many_copies"
    TOO_MANY_JOKERS = "hand_too_many_jokers"
    UNKNOWN_OBJECTIVE = "hand_unknown_objective"
    BAD_MIN_LEFTOVER = "hand_bad_min_leftover"


class HintErrorCode(enum.StrEnum):
    """Why :func:`~remi_rules.hint.hint` gives no plan."""

    NOT_YOUR_TURN = "hint_not_your_turn"
    ROUND_OVER = "hint_round_over"
    RULES_MISMATCH = "hint_rules_mismatch"
    BAD_SAMPLES = "hint_bad_samples"


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


CODE_ENUMS: tuple[type[enum.StrEnum], ...] = (
    TileErrorCode,
    MeldErrorCode,
    OpeningErrorCode,
    RulesetErrorCode,
    VariantErrorCode,
    LayoffErrorCode,
    SwapErrorCode,
    ScoringErrorCode,
    TakeErrorCode,
    ClosingErrorCode,
    StepErrorCode,
    EngineErrorCode,
    StateErrorCode,
    SolverErrorCode,
    HintErrorCode,
    SimErrorCode,
    NotationErrorCode,
    RecordTextErrorCode,
)
"""Every code enum, in a stable order (the order of the areas above)."""
