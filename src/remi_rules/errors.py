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
from ._error_codes import (
    CODE_ENUMS,
    ClosingErrorCode,
    EngineErrorCode,
    HintErrorCode,
    LayoffErrorCode,
    MeldErrorCode,
    NotationErrorCode,
    OpeningErrorCode,
    RecordTextErrorCode,
    RulesetErrorCode,
    ScoringErrorCode,
    SimErrorCode,
    SolverErrorCode,
    StateErrorCode,
    StepErrorCode,
    SwapErrorCode,
    TakeErrorCode,
    TileErrorCode,
    VariantErrorCode,
)
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


class InvalidScoringInputError(RemiError, ValueError):
    """The end of a round given to :func:`~remi_rules.score_round` is impossible
    (SCORE-*).  ``code`` is a :class:`ScoringErrorCode`; ``details`` names the seat,
    tile or meld at fault."""

    code: ScoringErrorCode


class InvalidTakeError(RemiError, ValueError):
    """A take from the discard row or of the face-up atu is not allowed, or its
    obligation was not met (RUPE-*, TURN-01, TURN-04, TURN-07, ATU-06).  ``code`` is a
    :class:`TakeErrorCode`; ``details`` names what a frontend needs (``index``,
    ``rack``, ``minimum``, ``tile``, ``own`` …)."""

    code: TakeErrorCode


class InvalidClosingError(RemiError, ValueError):
    """A close, or the rack left by the action phase, is not allowed (CLOSE-01 …
    CLOSE-04, OPEN-08, TURN-07).  ``code`` is a :class:`ClosingErrorCode`."""

    code: ClosingErrorCode


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


class EngineArgumentError(RemiError, ValueError):
    """A function of :mod:`remi_rules.engine` was given a value of the right type that
    makes no sense here (five players, seat 7, the score of a round still in play).
    ``code`` is an :class:`EngineErrorCode`."""

    code: EngineErrorCode


class InvalidStateError(RemiError, ValueError):
    """Saved data was refused when loaded (a game state, a record, a view).
    ``code`` is a :class:`StateErrorCode`; ``details["path"]`` names the bad field
    (``state.seats[2].rack[5]``)."""

    code: StateErrorCode


# -- the solver ------------------------------------------------------------------------


class InvalidHandError(RemiError, ValueError):
    """The solver was given a hand that cannot exist (more than 30 tiles, more copies
    of a tile than the set holds) or options it does not know.  ``code`` is a
    :class:`SolverErrorCode`; ``details`` names the tile, the count and the limit."""

    code: SolverErrorCode


# -- the hint ---------------------------------------------------------------------------


class HintError(RemiError, ValueError):
    """No hint can be given for this view.  ``code`` is a :class:`HintErrorCode`."""

    code: HintErrorCode


# -- the simulator ----------------------------------------------------------------------


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
    """Every error code the library defines, in a stable order (the code enums in the
    order of their areas).  Each has a message in every catalogue
    (tests/test_i18n.py; ``tools/catalogues.py --check``)."""
    return tuple(code for codes in CODE_ENUMS for code in codes)
