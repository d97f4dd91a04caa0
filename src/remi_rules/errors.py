"""Errors of remi_rules: one base class, area subclasses, stable codes, two languages.

Every error the library raises on bad input is a :class:`RemiError` carrying

* ``code``: a member of one of the documented code enums below (stable; frontends
  translate it, tests assert it);
* ``details``: a mapping with what a frontend needs to explain the refusal;
* ``message(lang)``: the explanation in Romanian (``"ro"``) or English (``"en"``).

The area classes are also :class:`ValueError` subclasses, so ``except ValueError``
keeps working for callers that do not know this library.  A wrong *Python type*
passed to a function raises :class:`TypeError` (for rulesets an
:class:`RulesetTypeError`, which is both).
"""

from __future__ import annotations

import enum
import math
from collections.abc import Callable, Iterator, Mapping
from typing import Final

__all__ = [
    "MESSAGES",
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
    "InvalidRulesetError",
    "InvalidScoringInputError",
    "InvalidSimulationError",
    "InvalidStateError",
    "InvalidSwapError",
    "InvalidTakeError",
    "InvalidTileError",
    "LayoffErrorCode",
    "MeldErrorCode",
    "OpeningErrorCode",
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

LANGS: Final = ("ro", "en")


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


# (Romanian, English) templates; ``{name}`` placeholders come from ``details``.
MESSAGES: dict[enum.StrEnum, tuple[str, str]] = {
    TileErrorCode.EMPTY: (
        "Nu a fost dată nicio piesă.",
        "No tile was given.",
    ),
    TileErrorCode.BAD_FORMAT: (
        "„{text}” nu este o piesă: se scrie numărul urmat de culoare (7R), J sau J(=8R).",
        "'{text}' is not a tile: write the rank then the colour (7R), J or J(=8R).",
    ),
    TileErrorCode.RANK_OUT_OF_RANGE: (
        "„{text}”: numărul piesei trebuie să fie între 1 și 13.",
        "'{text}': a tile's rank must be between 1 and 13.",
    ),
    TileErrorCode.UNKNOWN_COLOUR: (
        "„{text}”: culoarea trebuie să fie R (roșu), G (galben), A (albastru) sau N (negru).",
        "'{text}': the colour must be R (red), G (yellow), A (blue) or N (black).",
    ),
    TileErrorCode.BAD_FIXED_JOKER: (
        "„{text}”: un joker întors ține locul unei singure piese numerotate, ca J(=8R).",
        "'{text}': a fixed joker stands for one numbered tile, as in J(=8R).",
    ),
    TileErrorCode.ID_OUT_OF_RANGE: (
        "Identificatorul de piesă {id} nu există: setul are piesele 0–105.",
        "There is no tile id {id}: the set's ids are 0-105.",
    ),
    TileErrorCode.TOKEN_TOO_LONG: (
        "„{text}” nu este o piesă: este prea lung (lungimea {length}; o piesă se scrie "
        "cu cel mult {limit} caractere: 7R, 13N, J, J(=8R)).",
        "'{text}' is not a tile: it is {length} characters long, and a tile is written "
        "in at most {limit} (7R, 13N, J, J(=8R)).",
    ),
    MeldErrorCode.TOO_SHORT: (
        "O formație are cel puțin 3 piese; aici sunt {count}.",
        "A meld needs at least 3 tiles; this one has {count}.",
    ),
    MeldErrorCode.TOO_MANY_JOKERS: (
        "Prea mulți jokeri: o formație are cel mult 2 jokeri și {per} piese reale pentru "
        "fiecare; aici sunt {jokers} jokeri și {real} piese reale.",
        "Too many jokers: a meld holds at most 2 jokers and {per} real tiles for each; "
        "this one has {jokers} joker(s) and {real} real tile(s).",
    ),
    MeldErrorCode.ADJACENT_JOKERS: (
        "Cei doi jokeri nu pot sta unul lângă altul în suită.",
        "The two jokers may not be next to each other in a run.",
    ),
    MeldErrorCode.MIXED_COLOURS: (
        "Piesele nu formează nici suită (aceeași culoare), nici terță (același număr).",
        "These tiles form neither a run (one colour) nor a set (one rank).",
    ),
    MeldErrorCode.REPEATED_COLOUR: (
        "Într-o terță toate piesele au culori diferite; {tile} se repetă.",
        "All tiles of a set must have different colours; {tile} is repeated.",
    ),
    MeldErrorCode.SET_TOO_LONG: (
        "O terță are cel mult 4 piese; aici sunt {count}.",
        "A set has at most 4 tiles; this one has {count}.",
    ),
    MeldErrorCode.RUN_TOO_LONG: (
        "O suită are cel mult 13 piese; aici sunt {count}.",
        "A run has at most 13 tiles; this one has {count}.",
    ),
    MeldErrorCode.RUN_NOT_ASCENDING: (
        "Suita se așază crescător; {tile} nu poate urma acolo.",
        "A run is laid in ascending order; {tile} cannot come there.",
    ),
    MeldErrorCode.RUN_REPEATED_RANK: (
        "Într-o suită fiecare număr apare o singură dată; {tile} se repetă.",
        "Each rank appears once in a run; {tile} is repeated.",
    ),
    MeldErrorCode.RUN_GAP: (
        "Suita nu este continuă: {tile} nu se potrivește pe poziția {position}.",
        "The run is not consecutive: {tile} does not fit at position {position}.",
    ),
    MeldErrorCode.ACE_IN_MIDDLE: (
        "Asul nu poate sta în mijlocul suitei (13-1-2): după 13-1 suita nu continuă.",
        "An ace cannot sit inside a run (13-1-2): a run ending 13-1 cannot go on.",
    ),
    MeldErrorCode.HIGH_ACE_NOT_ALLOWED: (
        "În aceste reguli asul nu poate urma după 13.",
        "Under these rules an ace cannot follow the 13.",
    ),
    MeldErrorCode.JOKER_OUT_OF_RANGE: (
        "Jokerul de pe poziția {position} ar ține locul unei piese care nu există "
        "(sub 1 sau peste cel mai mare număr permis).",
        "The joker at position {position} would stand for a tile that does not exist "
        "(below 1 or above the highest rank allowed).",
    ),
    MeldErrorCode.FIXED_JOKER_OUT_OF_PLACE: (
        "Jokerul întors {tile} se poate folosi doar ca {fixed}, "
        "iar aici nu ține locul lui {fixed}.",
        "The fixed joker {tile} can only be used as {fixed}, "
        "and here it does not stand for {fixed}.",
    ),
    OpeningErrorCode.NO_MELDS: (
        "Prima etalare are nevoie de cel puțin o formație.",
        "A first etalare needs at least one meld.",
    ),
    OpeningErrorCode.MISSING_RUN: (
        "Prima etalare trebuie să conțină cel puțin o suită.",
        "A first etalare must contain at least one run.",
    ),
    OpeningErrorCode.MISSING_RUN_OR_ACE_SET: (
        "Prima etalare trebuie să conțină cel puțin o suită, sau să fie doar o terță de 1.",
        "A first etalare must contain at least one run, or be a set of aces alone.",
    ),
    OpeningErrorCode.MISSING_SET: (
        "Prima etalare trebuie să conțină și cel puțin o terță.",
        "A first etalare must also contain at least one set.",
    ),
    OpeningErrorCode.ACE_SET_WITH_OTHER_SETS: (
        "Fără suită, prima etalare se poate face doar cu terța de 1; celelalte terțe "
        "rămân pentru tura următoare.",
        "Without a run, a first etalare may be the set of aces alone; the other sets "
        "wait for a later turn.",
    ),
    OpeningErrorCode.BELOW_MINIMUM: (
        "Prima etalare are {points} puncte; trebuie cel puțin {minimum}.",
        "The first etalare is worth {points} points; it needs at least {minimum}.",
    ),
    OpeningErrorCode.BAD_TURN_NUMBER: (
        "Turele unui jucător se numără de la 1, nu de la {turn_number}.",
        "A player's turns are counted from 1, not from {turn_number}.",
    ),
    RulesetErrorCode.WRONG_TYPE: (
        "Regula „{knob}” trebuie să fie de tipul {expected}, nu {got}.",
        "Knob '{knob}' must be of type {expected}, not {got}.",
    ),
    RulesetErrorCode.OUT_OF_RANGE: (
        "Regula „{knob}” nu poate avea valoarea {value}: trebuie să fie între {lo} și {hi}.",
        "Knob '{knob}' cannot be {value}: it must be between {lo} and {hi}.",
    ),
    RulesetErrorCode.NOT_A_CHOICE: (
        "Regula „{knob}” nu poate avea valoarea {value}; valorile posibile: {choices}.",
        "Knob '{knob}' cannot be {value}; the possible values are: {choices}.",
    ),
    RulesetErrorCode.HAND_SIZES: (
        "Regula „{knob}” nu poate fi {value}: 1 ≤ ceilalți ≤ cel care începe ≤ 30, cel "
        "care începe primește cel puțin 2 piese (prima lui tură e o aruncare), iar patru "
        "mâini și atuul trebuie să încapă în cele 106 piese.",
        "Knob '{knob}' cannot be {value}: 1 <= others <= starter <= 30, the starter gets "
        "at least 2 tiles (his first turn is a discard), and four hands plus the atu must "
        "fit in the 106 tiles.",
    ),
    RulesetErrorCode.UNKNOWN_BASE: (
        "Fișierul de reguli pornește de la varianta „{base}”, care nu există; "
        "variantele cunoscute: {known}.",
        "The house-rules file is based on '{base}', which does not exist; "
        "the known variants are: {known}.",
    ),
    RulesetErrorCode.BAD_STRUCTURE: (
        "Un fișier de reguli este un tabel cu cheile base și overrides; „{key}” nu se potrivește.",
        "A house-rules file is a table with the keys base and overrides; '{key}' does not fit.",
    ),
    RulesetErrorCode.UNKNOWN_KNOB: (
        "Nu există regula „{knob}”.",
        "There is no knob named '{knob}'.",
    ),
    RulesetErrorCode.MISSING_KNOB: (
        "Lipsește regula „{knob}”.",
        "Knob '{knob}' is missing.",
    ),
    RulesetErrorCode.BAD_FILE: (
        "Fișierul de reguli nu poate fi citit: {reason}.",
        "The house-rules file cannot be read: {reason}.",
    ),
    RulesetErrorCode.FILE_TOO_LARGE: (
        "Fișierul de reguli este prea mare (lungimea {size}; se citesc cel mult {limit} "
        "de caractere).",
        "The house-rules file has {size} characters; at most {limit} are read.",
    ),
    RulesetErrorCode.NUMBER_TOO_LONG: (
        "Fișierul de reguli conține un număr prea lung (cifre: {digits}; un număr are "
        "cel mult {limit} de cifre).",
        "The house-rules file holds a number of {digits} digits; "
        "a number has at most {limit} digits.",
    ),
    RulesetErrorCode.TOO_DEEP: (
        "Fișierul de reguli are valori imbricate prea adânc (cel mult {limit} de niveluri).",
        "The house-rules file nests values too deeply (at most {limit} levels).",
    ),
    RulesetErrorCode.UNKNOWN_FORMAT: (
        "Formatul „{format}” nu este cunoscut; se poate folosi json sau toml.",
        "The format '{format}' is unknown; use json or toml.",
    ),
    RulesetErrorCode.UNPLAYABLE_COMBINATION: (
        "Regulile {knobs} nu se pot juca împreună.",
        "The knobs {knobs} cannot be played together.",
    ),
    VariantErrorCode.UNKNOWN_VARIANT: (
        "Varianta „{name}” nu există; variantele cunoscute: {known}.",
        "There is no variant '{name}'; the known variants are: {known}.",
    ),
}


MAX_DETAIL_CHARS: Final = 60
"""The longest a detail value appears in a message: a longer one (a 5,000-character
token, a huge number, a deep structure) is shortened around an ellipsis (``…``)."""

MAX_REASON_CHARS: Final = 240
"""The same bound for the details that hold an explanation sentence (``why``,
``reason``, ``known``, ``choices``)."""

_SENTENCE_KEYS: Final = frozenset({"why", "reason", "known", "choices", "knobs"})
# An int with more bits than this is written by its magnitude (str() of an int past
# 4,300 digits raises ValueError, and a long one is no use in a message anyway).
_INT_BITS: Final = 190  # about 57 decimal digits


def _shorten(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    head = (limit - 1) * 2 // 3
    tail = limit - 1 - head
    return text[:head] + "…" + (text[-tail:] if tail else "")


def _int_text(value: int) -> str:
    if value.bit_length() <= _INT_BITS:
        return int.__repr__(value)
    exponent = math.log10(abs(value))  # exact enough for a magnitude, for any size
    digits = math.floor(exponent)
    mantissa = f"{10 ** (exponent - digits):.3f}"
    if mantissa == "10.000":
        mantissa, digits = "1.000", digits + 1
    sign = "-" if value < 0 else ""
    return f"{sign}{mantissa}e+{digits}"


def safe_text(value: object, limit: int = MAX_DETAIL_CHARS) -> str:
    """``value`` as message text that never fails and is at most ``limit`` characters.

    Strings and the usual ``format(value)`` text are kept when short and shortened
    around an ellipsis otherwise; an int too long to write is given by its magnitude
    (``1.000e+5000``); control characters are escaped; an object whose
    ``__str__`` or ``__format__`` raises is named by its type.

    >>> safe_text("7R"), safe_text(10**5000), safe_text("1" * 100, 9)
    ('7R', '1.000e+5000', '11111…111')
    """
    if type(value) is bool or value is None:
        text = str(value)
    elif isinstance(value, int):
        text = _int_text(int(value))
    else:
        try:
            text = value if type(value) is str else format(value, "")
            if not isinstance(text, str):
                raise TypeError("__format__ did not return a str")
        except Exception:
            text = f"<{_type_name(value)}>"
    if not text.isprintable():
        text = "".join(c if c.isprintable() else ascii(c)[1:-1] for c in text[: limit * 4])
    return _shorten(text, limit)


def safe_repr(value: object, limit: int = MAX_DETAIL_CHARS) -> str:
    """Like :func:`safe_text`, from ``repr(value)`` (strings quoted)."""
    if isinstance(value, int) and type(value) is not bool:
        return _int_text(int(value))
    try:
        text = repr(value)
        if not isinstance(text, str):
            raise TypeError("__repr__ did not return a str")
    except Exception:
        text = f"<{_type_name(value)}>"
    return _shorten(text, limit)


def _type_name(value: object) -> str:
    try:
        return str(type(value).__name__)
    except Exception:  # pragma: no cover - a metaclass with a broken __name__
        return "object"


class _SafeDetails(Mapping[str, str]):
    """The details as ``str.format_map`` reads them: each value through
    :func:`safe_text`, ``?`` for a missing one."""

    __slots__ = ("_details",)

    def __init__(self, details: Mapping[str, object]) -> None:
        self._details = details

    def __getitem__(self, key: str) -> str:
        try:
            value = self._details[key]
        except Exception:
            return "?"
        return safe_text(value, MAX_REASON_CHARS if key in _SENTENCE_KEYS else MAX_DETAIL_CHARS)

    def __iter__(self) -> Iterator[str]:  # pragma: no cover - format_map only indexes
        return iter(())

    def __len__(self) -> int:  # pragma: no cover
        return 0


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
        """The explanation in ``"ro"`` (Romanian) or ``"en"`` (English).

        Any detail value formats safely (:func:`safe_text`): long values are
        shortened, huge numbers written by their magnitude, and a value whose
        ``__str__`` raises is named by its type.  An unknown ``lang`` raises
        :class:`ValueError` (a programming error, like an unknown keyword)."""
        if lang not in LANGS:
            raise ValueError(f"unknown language {safe_repr(lang)}; use one of {LANGS}")
        code = self.code
        try:
            template = MESSAGES[code][LANGS.index(lang)]
        except (KeyError, TypeError):  # not one of the library's codes
            return safe_repr(code)
        return template.format_map(_SafeDetails(self.details))

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
            where = "piesa nr." if lang == "ro" else "token"
            return f"{base} ({where} {safe_text(self.details['position'])})"
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
        if lang not in LANGS:
            raise ValueError(f"unknown language {safe_repr(lang)}; use one of {LANGS}")
        template = MESSAGES[self.code][LANGS.index(lang)]
        shown: dict[str, object] = dict(self.details)
        if self.knobs:
            shown["knobs"] = ", ".join(self.knobs)
        details = _SafeDetails(shown)
        text = template.format_map(details)
        conflict = UNPLAYABLE_CONFLICTS.get(str(self.details.get("conflict")))
        if conflict is not None:
            text += " " + conflict[LANGS.index(lang)].format_map(details)
        return text


UNPLAYABLE_CONFLICTS: Final[Mapping[str, tuple[str, str]]] = {
    "no_turn_cap_with_reshuffle": (
        "Fără o limită de ture (max_turns_per_round = None), piesele aruncate refac "
        "grămada la nesfârșit (stock_exhausted = reshuffle_discards), iar o rundă pe care "
        "nu o închide nimeni nu se mai termină.",
        "Without a turn cap (max_turns_per_round = None) the discards refill the stock "
        "for ever (stock_exhausted = reshuffle_discards), so a round that nobody closes "
        "never ends.",
    ),
    "rack_cap_below_hand": (
        "Un jucător care doar trage și aruncă rămâne la sfârșitul turei cu {needed} "
        "piese (mâinile {hand_sizes}; cel care începe, după prima aruncare), mai multe "
        "decât limita de {maximum}: nu și-ar putea încheia tura.",
        "A player who only draws and discards ends his turn with {needed} tiles (hands "
        "{hand_sizes}; the starter after his first discard), more than the cap of "
        "{maximum}: he could not end his turn.",
    ),
}
"""The conflicts behind ``unplayable_combination``: (Romanian, English) sentences,
by the ``conflict`` key of the error's details."""


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


MESSAGES.update(
    {
        LayoffErrorCode.BAD_MELD_INDEX: (
            "Pe masă nu există formația nr. {meld_index}.",
            "There is no meld number {meld_index} on the table.",
        ),
        LayoffErrorCode.TILE_ON_TABLE: (
            "Piesa {tile} este deja pe masă; se lipesc doar piese de pe tablă.",
            "Tile {tile} is already on the table; only rack tiles can be laid off.",
        ),
        LayoffErrorCode.NOT_OPENED: (
            "Poți lipi piese abia după prima etalare.",
            "You may lay tiles off only after your first etalare.",
        ),
        LayoffErrorCode.OPENING_TURN: (
            "În tura primei etalări poți lipi doar la formațiile tale noi; la celelalte "
            "formații abia din tura următoare.",
            "In your opening turn you may lay off only on your own new melds; on the "
            "other melds from your next turn on.",
        ),
        LayoffErrorCode.JOKER_ON_OTHERS_MELD: (
            "Jokerul nu se poate lipi la formațiile celorlalți jucători.",
            "A joker may not be laid off on another player's meld.",
        ),
        LayoffErrorCode.REUSED_JOKER_SET: (
            "La o terță de 3 piese cu un joker re-folosit nu se mai poate lipi nimic: "
            "culoarea jokerului nu se știe.",
            "Nothing can be laid on a 3-tile set whose joker is a reused joker: the "
            "joker's colour is unknown.",
        ),
        LayoffErrorCode.MELD_FULL: (
            "Formația {meld} este completă și nu mai primește piese.",
            "The meld {meld} is full and accepts nothing more.",
        ),
        LayoffErrorCode.END_CLOSED: (
            "Suita {meld} se termină cu asul mare (13-1) și nu mai poate fi continuată.",
            "The run {meld} ends with a high ace (13-1) and cannot be extended there.",
        ),
        LayoffErrorCode.END_REQUIRED: (
            "Piesa {tile} se poate lipi la ambele capete ale suitei {meld}; spune la care.",
            "Tile {tile} fits at both ends of the run {meld}; say which end.",
        ),
        LayoffErrorCode.BAD_END: (
            "Capătul „{end}” nu există pentru formația {meld}.",
            "The end '{end}' does not exist for the meld {meld}.",
        ),
        LayoffErrorCode.NOT_FITTING: (
            "Piesa {tile} nu se potrivește la formația {meld}.",
            "Tile {tile} does not fit the meld {meld}.",
        ),
        LayoffErrorCode.JOKER_LIMIT: (
            "Cu piesa {tile}, formația {meld} ar încălca regula jokerilor.",
            "With tile {tile}, the meld {meld} would break the joker limits.",
        ),
        LayoffErrorCode.IS_SWAP: (
            "Piesa {tile} este exact piesa pe care o ține jokerul din {meld}: "
            "punerea ei este un schimb de joker, nu o lipire.",
            "Tile {tile} is exactly the tile the joker in {meld} stands for: laying it "
            "is a joker swap, not a lay-off.",
        ),
        LayoffErrorCode.TILE_NOT_IN_MELD: (
            "Piesa {tile_id} nu este în formația nr. {meld_index}.",
            "Tile {tile_id} is not in meld number {meld_index}.",
        ),
        SwapErrorCode.BAD_MELD_INDEX: (
            "Pe masă nu există formația nr. {meld_index}.",
            "There is no meld number {meld_index} on the table.",
        ),
        SwapErrorCode.NOT_A_JOKER_HERE: (
            "Piesa {joker_id} nu este un joker din formația {meld}.",
            "Tile {joker_id} is not a joker in the meld {meld}.",
        ),
        SwapErrorCode.TILE_ON_TABLE: (
            "Piesa {tile} este deja pe masă; jokerul se schimbă doar cu o piesă de pe tablă.",
            "Tile {tile} is already on the table; a joker is swapped only for a rack tile.",
        ),
        SwapErrorCode.NOT_OPENED: (
            "Doar un jucător care a etalat poate schimba un joker.",
            "Only a player who has opened may swap a joker.",
        ),
        SwapErrorCode.OPENING_TURN: (
            "În tura primei etalări nu se poate schimba un joker.",
            "A joker cannot be swapped in your opening turn.",
        ),
        SwapErrorCode.JOKER_FIXED: (
            "Jokerul întors {joker} nu mai poate fi luat de pe masă.",
            "The fixed joker {joker} can never be taken off the table again.",
        ),
        SwapErrorCode.SWAP_LIMIT: (
            "Acest joker a fost deja luat de {swaps} ori și nu mai poate fi schimbat.",
            "This joker was already taken {swaps} time(s) and cannot be swapped again.",
        ),
        SwapErrorCode.THREE_TILE_SET: (
            "Jokerul unei terțe de 3 piese nu se poate lua: mai întâi se lipește a treia "
            "culoare, apoi cine pune a patra ia jokerul.",
            "The joker of a 3-tile set cannot be taken: first a third colour is laid, "
            "then whoever lays the fourth takes the joker.",
        ),
        SwapErrorCode.SAME_TURN_COMPLETION: (
            "Ai lipit a treia culoare în această tură; jokerul îl poți lua abia mai târziu.",
            "You laid the third colour in this turn; you may take the joker only later.",
        ),
        SwapErrorCode.WRONG_TILE: (
            "Jokerul ține locul lui {wanted}; nu poate fi schimbat cu {tile}.",
            "The joker stands for {wanted}; it cannot be swapped for {tile}.",
        ),
        SwapErrorCode.JOKER_NOT_MELDED: (
            "Jokerul luat ({joker_ids}) trebuie pus chiar în această tură într-o formație nouă.",
            "The joker you took ({joker_ids}) must go into a new meld in this same turn.",
        ),
        SwapErrorCode.NOT_A_JOKER: (
            "Piesa {joker_id} nu este un joker: jokerii au numerele 104 și 105.",
            "Tile {joker_id} is not a joker: the jokers are tiles 104 and 105.",
        ),
    }
)


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


MESSAGES.update(
    {
        ScoringErrorCode.SEAT_COUNT: (
            "La o masă joacă 2, 3 sau 4 jucători; aici sunt {count}.",
            "A table seats 2, 3 or 4 players; here there are {count}.",
        ),
        ScoringErrorCode.CLOSER_OUT_OF_RANGE: (
            "Jucătorul care a închis ({closer}) nu este la masă (locurile 0–{last}).",
            "The closer ({closer}) is not at the table (seats 0-{last}).",
        ),
        ScoringErrorCode.CLOSING_TILE_MISSING: (
            "Jucătorul {closer} a închis, dar piesa de închidere lipsește.",
            "Seat {closer} closed, but the closing tile is missing.",
        ),
        ScoringErrorCode.CLOSING_TILE_WITHOUT_CLOSER: (
            "Este dată o piesă de închidere ({tile_id}), dar nimeni nu a închis.",
            "A closing tile ({tile_id}) is given, but nobody closed.",
        ),
        ScoringErrorCode.CLOSER_RACK_NOT_EMPTY: (
            "Jucătorul {closer} a închis, deci pe tabla lui nu mai rămâne nicio altă piesă "
            "(piesa de închidere se dă separat); aici sunt {count}.",
            "Seat {closer} closed, so no other tile is left on his rack (the closing tile "
            "is given separately); here there are {count}.",
        ),
        ScoringErrorCode.CLOSER_NOT_OPENED: (
            "Jucătorul {closer} nu poate închide fără să fi etalat.",
            "Seat {closer} cannot have closed without having opened.",
        ),
        ScoringErrorCode.TILE_ON_TABLE: (
            "Piesa {tile_id} ({tile}) este pe masă; nu poate fi și {where}.",
            "Tile {tile_id} ({tile}) is on the table; it cannot also be {where}.",
        ),
        ScoringErrorCode.DUPLICATE_TILE: (
            "Piesa {tile_id} ({tile}) apare de două ori.",
            "Tile {tile_id} ({tile}) appears twice.",
        ),
        ScoringErrorCode.ATU_MISPLACED: (
            "Atuul întors ({tile_id}) nu poate fi {where}: se ia doar într-o formație nouă.",
            "The face-up atu ({tile_id}) cannot be {where}: it is taken only into a new meld.",
        ),
        ScoringErrorCode.ATU_JOKER_NOT_ALLOWED: (
            "În aceste reguli atuul nu poate fi joker (DEAL-03).",
            "Under these rules the atu is never a joker (DEAL-03).",
        ),
        ScoringErrorCode.ATU_NOT_TAKEABLE: (
            "În aceste reguli atuul de pe masă nu se ia niciodată, dar e într-o formație.",
            "Under these rules the face-up atu is never taken, yet it lies in a meld.",
        ),
        ScoringErrorCode.ATU_NOT_CLOSERS: (
            "Atuul se ia doar de cel care închide, în tura închiderii (ATU-06); "
            "aici e pus de locul {seat}.",
            "The face-up atu is taken only by the closer, in his closing turn (ATU-06); "
            "here seat {seat} placed it.",
        ),
        ScoringErrorCode.TABLE_SEAT_OUT_OF_RANGE: (
            "Formația nr. {meld_index} pomenește jucătorul {seat}, care nu este la masă.",
            "Meld number {meld_index} names seat {seat}, who is not at the table.",
        ),
        ScoringErrorCode.UNOPENED_ON_TABLE: (
            "Jucătorul {seat} nu a etalat, dar are piese pe masă (formația nr. {meld_index}).",
            "Seat {seat} never opened, but has tiles on the table (meld number {meld_index}).",
        ),
        ScoringErrorCode.ATU_ANNOUNCED_TWICE: (
            "Perechea atuului există o singură dată; au anunțat-o jucătorii {seats}.",
            "There is only one atu twin; seats {seats} announced it.",
        ),
        ScoringErrorCode.PE_TABLA_WITHOUT_CLOSER: (
            "O închidere pe tablă are nevoie de un jucător care a închis.",
            "A pe-tablă closing needs a closer.",
        ),
        ScoringErrorCode.PE_TABLA_NOT_DECLARED: (
            "Jucătorul {closer} nu a anunțat că joacă pe tablă.",
            "Seat {closer} did not declare a pe-tablă closing.",
        ),
        ScoringErrorCode.PE_TABLA_DISABLED: (
            "În aceste reguli nu se închide pe tablă.",
            "These rules have no pe-tablă closing.",
        ),
        ScoringErrorCode.BAD_POSITION: (
            "Formația {meld} nu are poziția {position} (pozițiile se numără de la 0).",
            "The meld {meld} has no position {position} (positions count from 0).",
        ),
        ScoringErrorCode.NOT_A_JOKER_POSITION: (
            "Pe poziția {position} a formației {meld} stă {tile}, nu un joker.",
            "Position {position} of the meld {meld} holds {tile}, not a joker.",
        ),
    }
)


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


MESSAGES.update(
    {
        TakeErrorCode.EMPTY_ROW: (
            "Șirul de piese aruncate este gol: nu ai ce lua de jos.",
            "The discard row is empty: there is nothing to take.",
        ),
        TakeErrorCode.INDEX_OUT_OF_RANGE: (
            "Poziția {index} nu există în șir (șirul are {length} piese).",
            "There is no position {index} in the row (it holds {length} tiles).",
        ),
        TakeErrorCode.DUPLICATE_TILE: (
            "Piesa cu identificatorul {id} apare de două ori (în șir sau pe tablă).",
            "The tile with id {id} appears twice (in the row or on the rack).",
        ),
        TakeErrorCode.DEAD_FIRST_DISCARD: (
            "Prima piesă din șir (pusă orizontal) nu poate fi luată de nimeni.",
            "The first discard of the row (laid crosswise) can never be taken.",
        ),
        TakeErrorCode.FIRST_TURN: (
            "În prima tură doar tragi din grămadă și arunci: nu poți lua de jos.",
            "In your first turn you only draw from the stock and discard: no take from the row.",
        ),
        TakeErrorCode.PE_TABLA_NOT_CLOSING: (
            "Ai anunțat că închizi pe tablă: iei doar din grămadă, cu excepția turei în "
            "care închizi.",
            "You declared pe tablă: you draw only from the stock, except in your closing turn.",
        ),
        TakeErrorCode.UNOPENED_LAST_DISCARD: (
            "În aceste reguli ultima piesă aruncată nu poate fi luată înainte de prima etalare.",
            "Under these rules the last discard cannot be taken before your first etalare.",
        ),
        TakeErrorCode.LAST_DISCARD_RACK_TOO_SMALL: (
            "Cu {rack} piese pe tablă nu poți lua ultima piesă din șir; trebuie cel puțin "
            "{minimum}. Trage din grămadă.",
            "With {rack} tiles on the rack you cannot take the last discard; you need at "
            "least {minimum}. Draw from the stock.",
        ),
        TakeErrorCode.RUPERE_DISABLED: (
            "În aceste reguli se poate lua doar ultima piesă din șir.",
            "Under these rules only the last discard may be taken.",
        ),
        TakeErrorCode.RUPERE_UNOPENED: (
            "Poți rupe șirul la o piesă mai veche doar dacă ai etalat într-o tură anterioară.",
            "You may break the row at an older tile only after opening in an earlier turn.",
        ),
        TakeErrorCode.RUPERE_RACK_TOO_SMALL: (
            "Cu {rack} piese pe tablă nu poți rupe șirul la o piesă mai veche; trebuie "
            "cel puțin {minimum}.",
            "With {rack} tiles on the rack you cannot break the row at an older tile; you "
            "need at least {minimum}.",
        ),
        TakeErrorCode.NOTHING_WOULD_REMAIN: (
            "Piesa luată ar trebui pusă într-o formație nouă cu cel puțin {own} piese de pe "
            "tablă, iar pe tablă trebuie să rămână cel puțin {left} piese: cu {rack} piese "
            "nu se poate.",
            "The taken tile must go into a new meld with at least {own} rack tiles and at "
            "least {left} tile(s) must stay on the rack: with {rack} tiles that is impossible.",
        ),
        TakeErrorCode.CANNOT_JUSTIFY: (
            "Piesa {tile} nu formează o formație nouă cu cel puțin {own} piese care erau pe "
            "tablă când ai luat-o.",
            "{tile} forms no new meld with at least {own} tiles that were on the rack when "
            "it was taken.",
        ),
        TakeErrorCode.CANNOT_OPEN: (
            "Cu piesa {tile} nu poți face prima etalare în tura aceasta.",
            "With {tile} you cannot make your first etalare in this turn.",
        ),
        TakeErrorCode.CANNOT_CLOSE: (
            "Cu piesa {tile} nu poți închide în tura aceasta (îți trebuie și o piesă de "
            "închidere).",
            "With {tile} you cannot close in this turn (you also need a closing tile).",
        ),
        TakeErrorCode.ATU_NEVER: (
            "În aceste reguli atuul întors nu poate fi luat.",
            "Under these rules the face-up atu can never be taken.",
        ),
        TakeErrorCode.ATU_NOT_CLOSING_TURN: (
            "Atuul se poate lua doar în tura în care și închizi jocul.",
            "The atu may be taken only in the turn in which you close.",
        ),
        TakeErrorCode.ATU_NO_FULL_RIGHTS: (
            "Atuul îl poate lua doar cine a etalat într-o tură anterioară (sau cine închide "
            "pe tablă).",
            "Only a player who opened in an earlier turn (or who closes pe tablă) may take "
            "the atu.",
        ),
        TakeErrorCode.NOT_IN_NEW_MELD: (
            "Piesa luată, {tile}, trebuie pusă în aceeași tură într-o formație nouă.",
            "The taken tile {tile} must go into a new meld in this same turn.",
        ),
        TakeErrorCode.INVALID_MELD: (
            "Formația cu piesa luată, {tile}, nu este validă.",
            "The meld holding the taken tile {tile} is not valid.",
        ),
        TakeErrorCode.TOO_FEW_OWN_TILES: (
            "Formația cu piesa luată, {tile}, are doar {count} piese care erau pe tablă "
            "când ai luat-o; trebuie cel puțin {own}.",
            "The meld holding the taken tile {tile} has only {count} tile(s) that were on "
            "the rack when it was taken; it needs at least {own}.",
        ),
    }
)


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


MESSAGES.update(
    {
        ClosingErrorCode.NO_TAKE: (
            "Nu poți închide fără să fi luat o piesă în această tură.",
            "You cannot close without having taken a tile in this turn.",
        ),
        ClosingErrorCode.NOT_OPENED: (
            "Nu poți închide înainte de prima etalare (doar pe tablă, dacă ai anunțat).",
            "You cannot close before your first etalare (only pe tablă, if declared).",
        ),
        ClosingErrorCode.OPENING_TURN: (
            "Nu poți închide în tura în care te-ai etalat prima dată.",
            "You cannot close in the turn of your first etalare.",
        ),
        ClosingErrorCode.PE_TABLA: (
            "Închiderea pe tablă nu e posibilă: nu ai anunțat-o, te-ai etalat deja, "
            "sau regulile nu o permit.",
            "A pe-tablă closing is not possible: not declared, already opened, or not "
            "allowed by these rules.",
        ),
        ClosingErrorCode.NO_CLOSING_TILE: (
            "Trebuie să-ți rămână cel puțin o piesă pe tablă: piesa de închidere.",
            "At least one tile must stay on your rack: the closing tile.",
        ),
        ClosingErrorCode.TOO_FEW_AFTER_OPENING: (
            "În tura primei etalări trebuie să-ți rămână cel puțin {minimum} piese.",
            "In the turn of your first etalare at least {minimum} tiles must stay on your rack.",
        ),
        ClosingErrorCode.BAD_RACK_SIZE: (
            "Numărul de piese de pe tablă nu poate fi negativ: {rack}.",
            "The number of tiles on the rack cannot be negative: {rack}.",
        ),
        ClosingErrorCode.NOTHING_TO_DISCARD: (
            "Nu ai nicio piesă de aruncat: tabla ta e goală.",
            "There is no tile to discard: your rack is empty.",
        ),
    }
)


class InvalidClosingError(RemiError, ValueError):
    """A close, or the rack left by the action phase, is not allowed (CLOSE-01 …
    CLOSE-04, OPEN-08, TURN-07).  ``code`` is a :class:`ClosingErrorCode`."""

    code: ClosingErrorCode


class StepErrorCode(enum.StrEnum):
    """Why the engine refused a step (engine-level reasons; a refusal by a turn rule
    keeps that rule's own code, see :class:`IllegalStepError`)."""

    ROUND_OVER = "round_over"
    NOT_YOUR_TURN = "not_your_turn"
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
    DOUBLE_CLASS_MISMATCH = "double_class_mismatch"
    DOUBLE_ALREADY_EXCHANGED = "double_already_exchanged"
    REDEAL_DISABLED = "redeal_disabled"
    TOO_FEW_DOUBLES = "too_few_doubles"
    NOTHING_TO_UNDO = "nothing_to_undo"
    UNDO_IRREVERSIBLE = "undo_irreversible"
    UNDO_LIMIT = "undo_limit"
    PE_TABLA_TAKE_MUST_CLOSE = "pe_tabla_take_must_close"


MESSAGES.update(
    {
        StepErrorCode.ROUND_OVER: (
            "Jocul s-a încheiat; nu se mai poate muta.",
            "The round is over; no more steps can be made.",
        ),
        StepErrorCode.NOT_YOUR_TURN: (
            "Nu este rândul jucătorului {seat}.",
            "It is not seat {seat}'s turn.",
        ),
        StepErrorCode.BAD_SEAT: (
            "Locul {seat} nu există la această masă ({players} jucători).",
            "There is no seat {seat} at this table ({players} players).",
        ),
        StepErrorCode.TAKE_FIRST: (
            "Mai întâi trebuie să iei o piesă (din grămadă, de jos sau atuul).",
            "You must first take a tile (from the stock, the row or the atu).",
        ),
        StepErrorCode.ALREADY_TOOK: (
            "Ai luat deja o piesă în această tură.",
            "You have already taken a tile in this turn.",
        ),
        StepErrorCode.STARTER_FIRST_TURN: (
            "În prima tură, cel care începe nu ia nicio piesă: doar aruncă una.",
            "In his first turn the starter takes nothing: he only discards.",
        ),
        StepErrorCode.STOCK_EMPTY: (
            "Grămada s-a terminat.",
            "The stock is empty.",
        ),
        StepErrorCode.NOT_IN_RACK: (
            "Piesa {tile} nu este pe tabla ta.",
            "Tile {tile} is not on your rack.",
        ),
        StepErrorCode.RUPERE_IS_LAST_DISCARD: (
            "Ultima piesă aruncată se ia cu „ia ultima piesă”, nu prin rupere.",
            "The last discard is taken with 'take last discard', not by a rupere.",
        ),
        StepErrorCode.ATU_ALREADY_TAKEN: (
            "Atuul a fost deja luat.",
            "The atu has already been taken.",
        ),
        StepErrorCode.FIRST_TURN_NO_MELD: (
            "În prima ta tură nu poți etala, lipi sau schimba jokeri: doar tragi și arunci.",
            "In your first turn you may not meld, lay off or swap: only draw and discard.",
        ),
        StepErrorCode.PE_TABLA_BINDING: (
            "Ai anunțat că joci pe tablă: te poți etala doar închizând dintr-odată.",
            "You declared pe tablă: you may only meld by closing all at once.",
        ),
        StepErrorCode.PE_TABLA_MUST_CLOSE: (
            "Jucând pe tablă, tura în care etalezi trebuie să fie cea în care închizi.",
            "Playing pe tablă, the turn in which you meld must be the turn you close.",
        ),
        StepErrorCode.ATU_MUST_CLOSE: (
            "Cine ia atuul trebuie să și închidă în aceeași tură.",
            "Whoever takes the atu must also close in the same turn.",
        ),
        StepErrorCode.MUST_CLOSE: (
            "Ai rămas cu o singură piesă: nu mai poți arunca, închizi cu ea.",
            "You have a single tile left: you cannot discard it; you close with it.",
        ),
        StepErrorCode.CLOSE_NOT_LAST_TILE: (
            "Poți închide doar cu ultima piesă rămasă ({rack} pe tablă).",
            "You can only close with your last remaining tile ({rack} on the rack).",
        ),
        StepErrorCode.RACK_OVER_MAX: (
            "La sfârșitul turei poți avea cel mult {maximum} piese pe tablă, nu {rack}.",
            "At the end of a turn you may hold at most {maximum} tiles, not {rack}.",
        ),
        StepErrorCode.ANNOUNCE_NOT_DUE: (
            "Anunțul se face doar când ai cel mult {threshold} piese (ai {rack}).",
            "The announcement is made only with at most {threshold} tiles ({rack} held).",
        ),
        StepErrorCode.ANNOUNCE_AFTER_DISCARD: (
            "În tura ta, anunțurile se fac după ce arunci piesa (sau înainte să iei).",
            "In your own turn you announce or declare after your discard (or before you take).",
        ),
        StepErrorCode.ALREADY_ANNOUNCED: (
            "Ai anunțat deja în acest joc.",
            "You have already announced in this round.",
        ),
        StepErrorCode.ATU_TWIN_NOT_HELD: (
            "Nu ai pe tablă piesa identică cu atuul.",
            "You do not hold the atu's twin.",
        ),
        StepErrorCode.ATU_ALREADY_ANNOUNCED: (
            "Atuul a fost deja anunțat în acest joc.",
            "The atu has already been announced in this round.",
        ),
        StepErrorCode.ATU_ANNOUNCE_TOO_LATE: (
            "Atuul se anunță cel târziu înainte de prima ta piesă luată.",
            "The atu must be announced before your first take at the latest.",
        ),
        StepErrorCode.PE_TABLA_DISABLED: (
            "Aceste reguli nu au închiderea pe tablă.",
            "These rules have no pe-tablă closing.",
        ),
        StepErrorCode.PE_TABLA_TOO_LATE: (
            "Jocul pe tablă se anunță cel târziu după primul tur al mesei.",
            "Pe tablă must be declared by the end of the first cycle.",
        ),
        StepErrorCode.PE_TABLA_ALREADY_OPENED: (
            "Te-ai etalat deja: nu mai poți juca pe tablă.",
            "You have already melded: you can no longer play pe tablă.",
        ),
        StepErrorCode.PE_TABLA_ALREADY_DECLARED: (
            "Ai anunțat deja că joci pe tablă.",
            "You have already declared pe tablă.",
        ),
        StepErrorCode.PREPLAY_OVER: (
            "Dublele se schimbă (sau jocul se strică) doar înainte de prima piesă aruncată.",
            "Doubles are exchanged (or the deal voided) only before the first discard.",
        ),
        StepErrorCode.EXCHANGE_DISABLED: (
            "Aceste reguli nu permit schimbul de duble.",
            "These rules do not allow exchanging doubles.",
        ),
        StepErrorCode.EXCHANGE_SAME_SEAT: (
            "Schimbul de duble se face între doi jucători diferiți.",
            "Doubles are exchanged between two different players.",
        ),
        StepErrorCode.NOT_A_DOUBLE: (
            "Jucătorul {seat} nu are dublă de {tile}.",
            "Seat {seat} holds no double of {tile}.",
        ),
        StepErrorCode.DOUBLE_CLASS_MISMATCH: (
            "Se schimbă doar dublă mică cu dublă mică și dublă mare cu dublă mare "
            "({first} cu {second} nu se poate).",
            "Only small for small and big for big ({first} for {second} is not allowed).",
        ),
        StepErrorCode.DOUBLE_ALREADY_EXCHANGED: (
            "Dubla de {tile} a fost deja schimbată.",
            "The double of {tile} was already exchanged.",
        ),
        StepErrorCode.REDEAL_DISABLED: (
            "Aceste reguli nu permit stricarea jocului.",
            "These rules do not allow voiding the deal.",
        ),
        StepErrorCode.TOO_FEW_DOUBLES: (
            "Pentru a strica jocul trebuie {threshold} duble; jucătorul {seat} are {count}.",
            "Voiding the deal needs {threshold} doubles; seat {seat} holds {count}.",
        ),
        StepErrorCode.NOTHING_TO_UNDO: (
            "Nu este nicio mutare de luat înapoi în această tură.",
            "There is no step of this turn to take back.",
        ),
        StepErrorCode.UNDO_IRREVERSIBLE: (
            "Mutarea {step} nu se poate lua înapoi (a dezvăluit o piesă sau a încheiat tura).",
            "Step {step} cannot be taken back (it revealed a tile or ended the turn).",
        ),
        StepErrorCode.UNDO_LIMIT: (
            "O tură poate lua înapoi cel mult {limit} de mutări; continuă tura sau încheie-o.",
            "A turn may take back at most {limit} steps; go on with the turn or end it.",
        ),
        StepErrorCode.PE_TABLA_TAKE_MUST_CLOSE: (
            "Jucând pe tablă, iei din rând doar în tura în care închizi.",
            "Playing pe tablă, you take from the row only in the turn you close.",
        ),
    }
)


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


MESSAGES.update(
    {
        EngineErrorCode.PLAYERS: (
            "Remi se joacă în 2, 3 sau 4 jucători, nu în {players}.",
            "Remi is played by 2, 3 or 4 players (TILES-02), not {players}.",
        ),
        EngineErrorCode.BAD_SEAT: (
            "Locul {seat} nu există la această masă ({players} jucători).",
            "There is no seat {seat} at this table ({players} players).",
        ),
        EngineErrorCode.ROUND_NOT_OVER: (
            "Runda nu s-a încheiat, deci nu se poate încă număra.",
            "The round is not over, so it cannot be scored yet.",
        ),
        EngineErrorCode.BOT_COUNT: (
            "Trebuie câte un robot pentru fiecare loc ({players}), nu {bots}.",
            "One bot per seat is needed ({players}), not {bots}.",
        ),
        EngineErrorCode.ROUND_TOO_LONG: (
            "Runda nu s-a încheiat în limita de pași dată ({max_steps}).",
            "The round did not end within the step limit given ({max_steps}).",
        ),
        EngineErrorCode.NOT_IN_RACK: (
            "Piesa {tile} nu este pe tabla locului {seat}.",
            "Tile {tile} is not on seat {seat}'s rack.",
        ),
        EngineErrorCode.JOKER_NOT_DOUBLE: (
            "Jokerul nu face niciodată parte dintr-o dublă (DUBLE-01).",
            "A joker is never part of a double (DUBLE-01).",
        ),
        EngineErrorCode.BAD_MATCH_CONFIG: (
            "Configurația meciului nu este bună: {why}.",
            "The match configuration is wrong: {why}.",
        ),
        EngineErrorCode.MATCH_ROUND_PENDING: (
            "Runda curentă a meciului nu s-a încheiat încă.",
            "The match's current round is not over yet.",
        ),
        EngineErrorCode.MATCH_OVER: (
            "Meciul s-a încheiat: nu mai urmează nicio rundă.",
            "The match is over: no round follows.",
        ),
        EngineErrorCode.NO_ROUNDS: (
            "Un meci are cel puțin o rundă.",
            "A match has at least one round.",
        ),
    }
)


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
    FORMAT_VERSION = "state_format_version"
    BAD_RULESET = "state_bad_ruleset"
    BAD_RECORD = "state_bad_record"
    TOO_DEEP = "state_too_deep"
    NOT_JSON = "state_not_json"
    STRING_TOO_LONG = "state_string_too_long"
    DOCUMENT_TOO_LARGE = "state_document_too_large"


MESSAGES.update(
    {
        StateErrorCode.WRONG_TYPE: (
            "La {path}: era așteptat {expected}, s-a primit {got}.",
            "At {path}: expected {expected}, got {got}.",
        ),
        StateErrorCode.MISSING_KEY: (
            "La {path}: lipsește cheia „{key}”.",
            "At {path}: the key '{key}' is missing.",
        ),
        StateErrorCode.UNKNOWN_KEY: (
            "La {path}: cheia „{key}” nu este cunoscută.",
            "At {path}: unknown key '{key}'.",
        ),
        StateErrorCode.OUT_OF_RANGE: (
            "La {path}: valoarea {value} este în afara intervalului {lo}…{hi}.",
            "At {path}: value {value} is outside {lo}..{hi}.",
        ),
        StateErrorCode.BAD_VALUE: (
            "La {path}: valoare imposibilă ({why}).",
            "At {path}: impossible value ({why}).",
        ),
        StateErrorCode.TILE_COUNT: (
            "Piesele nu se regăsesc fiecare exact o dată: {why}.",
            "The tiles are not each present exactly once: {why}.",
        ),
        StateErrorCode.BAD_PHASE: (
            "La {path}: starea jocului este imposibilă ({why}).",
            "At {path}: the game is in an impossible phase ({why}).",
        ),
        StateErrorCode.FINGERPRINT: (
            "Amprenta regulilor ({got}) nu corespunde regulilor salvate ({expected}).",
            "The rules' fingerprint ({got}) does not match the saved rules ({expected}).",
        ),
        StateErrorCode.FORMAT_VERSION: (
            "Versiunea formatului ({got}) nu este suportată (se așteaptă {expected}).",
            "Format version {got} is not supported (expected {expected}).",
        ),
        StateErrorCode.BAD_RULESET: (
            "La {path}: regulile salvate sunt invalide ({why}).",
            "At {path}: the saved rules are invalid ({why}).",
        ),
        StateErrorCode.BAD_RECORD: (
            "La {path}: înregistrarea nu se poate rejuca ({why}).",
            "At {path}: the record cannot be replayed ({why}).",
        ),
        StateErrorCode.TOO_DEEP: (
            "La {path}: date imbricate prea adânc.",
            "At {path}: the data is nested too deeply.",
        ),
        StateErrorCode.NOT_JSON: (
            "Textul nu este JSON valid ({why}).",
            "The text is not valid JSON ({why}).",
        ),
        StateErrorCode.STRING_TOO_LONG: (
            "La {path}: textul este prea lung (lungime {length}, cel mult {limit}).",
            "At {path}: the text is too long (length {length}, at most {limit}).",
        ),
        StateErrorCode.DOCUMENT_TOO_LARGE: (
            "Documentul este prea mare (cel puțin {size} B; limita este de {limit} B).",
            "The document is too large (at least {size} bytes; the limit is {limit}).",
        ),
    }
)


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


MESSAGES.update(
    {
        SolverErrorCode.TOO_MANY_TILES: (
            "Mâna are {count} piese; soluționarea primește cel mult {limit}.",
            "The hand holds {count} tiles; the solver takes at most {limit}.",
        ),
        SolverErrorCode.TOO_MANY_COPIES: (
            "Mâna are {count} piese {tile}, dar setul are doar {limit}.",
            "The hand holds {count} copies of {tile}, but the set has only {limit}.",
        ),
        SolverErrorCode.TOO_MANY_JOKERS: (
            "Mâna are {count} jokeri, dar setul are doar {limit}.",
            "The hand holds {count} jokers, but the set has only {limit}.",
        ),
        SolverErrorCode.UNKNOWN_OBJECTIVE: (
            "Obiectiv necunoscut „{objective}”: se poate cere {known}.",
            "Unknown objective '{objective}': use one of {known}.",
        ),
        SolverErrorCode.BAD_MIN_LEFTOVER: (
            "Nu se pot păstra {min_leftover} piese dintr-o mână de {count}.",
            "Cannot keep {min_leftover} tiles back from a hand of {count}.",
        ),
    }
)


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


MESSAGES.update(
    {
        HintErrorCode.NOT_YOUR_TURN: (
            "Nu este rândul jucătorului {seat}: sugestia se cere la rândul tău.",
            "It is not seat {seat}'s turn: a hint is for the seat to move.",
        ),
        HintErrorCode.ROUND_OVER: (
            "Runda s-a încheiat: nu mai este nimic de sugerat.",
            "The round is over: there is nothing left to suggest.",
        ),
        HintErrorCode.RULES_MISMATCH: (
            "Regulile date nu sunt cele ale jocului ({given} în loc de {expected}).",
            "The rules given are not the game's ({given} instead of {expected}).",
        ),
        HintErrorCode.BAD_SAMPLES: (
            "„samples” trebuie să fie un număr întreg de la 0 în sus, nu {samples}.",
            "'samples' must be a whole number from 0 up, not {samples}.",
        ),
    }
)


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


MESSAGES.update(
    {
        SimErrorCode.BAD_SEATS: (
            "O rundă se joacă de 2 până la 4 roboți, nu de {count}.",
            "A round seats 2 to 4 bots, not {count}.",
        ),
        SimErrorCode.UNKNOWN_BOT: (
            "Robot necunoscut „{name}”: se poate alege {known}.",
            "Unknown bot '{name}': use one of {known}.",
        ),
        SimErrorCode.BAD_ROUNDS: (
            "Numărul de runde trebuie să fie cel puțin 1, nu {rounds}.",
            "The number of rounds must be at least 1, not {rounds}.",
        ),
        SimErrorCode.BAD_LABELS: (
            "Regulile simulate au nevoie de etichete distincte și nevide, nu {labels}.",
            "The rulesets simulated need distinct, non-empty labels, not {labels}.",
        ),
        SimErrorCode.BAD_SEED_RANGE: (
            "Sarcina se oprește la seed-ul {stop_seed}, înainte de primul, {first_seed}.",
            "The task stops at seed {stop_seed}, before its first seed {first_seed}.",
        ),
        SimErrorCode.BAD_CHUNK: (
            "O sarcină are cel puțin 1 rundă, nu {chunk}.",
            "A task holds at least 1 round, not {chunk}.",
        ),
        SimErrorCode.BAD_JOBS: (
            "Numărul de procese trebuie să fie cel puțin 1, nu {jobs}.",
            "The number of processes must be at least 1, not {jobs}.",
        ),
        SimErrorCode.UNKNOWN_BACKEND: (
            "Mod de rulare necunoscut „{backend}”: se poate alege {known}.",
            "Unknown backend '{backend}': use one of {known}.",
        ),
        SimErrorCode.BAD_OUTCOME: (
            "Rezultat de rundă imposibil: {why}.",
            "An impossible round outcome: {why}.",
        ),
        SimErrorCode.BAD_VALUES: (
            "Valorile măsurate trebuie să fie numere finite, nu {value}.",
            "The values measured must be finite numbers, not {value}.",
        ),
        SimErrorCode.BAD_COUNTS: (
            "O proporție are nevoie de 0 ≤ reușite ≤ total, nu {hits} din {n}.",
            "A share needs 0 ≤ hits ≤ total, not {hits} of {n}.",
        ),
        SimErrorCode.RAY_MISSING: (
            "Modul de rulare „ray” are nevoie de Ray: pip install 'remi-rules[ray]'.",
            "The ray backend needs Ray: pip install 'remi-rules[ray]'.",
        ),
        SimErrorCode.WORKER_LOST: (
            "Un proces al simulării s-a oprit pe neașteptate (cod de ieșire {exitcode}).",
            "A simulation worker process ended unexpectedly (exit code {exitcode}).",
        ),
        SimErrorCode.COUNT_TOO_LARGE: (
            "Un număr de runde atât de mare ({n}) nu se poate măsura: cel mult {limit}.",
            "A count of rounds this large ({n}) cannot be measured: at most {limit}.",
        ),
        SimErrorCode.BAD_RESULTS: (
            "Acestea nu sunt rezultatele unei simulări: {why}.",
            "These are not the results of a simulation: {why}.",
        ),
    }
)


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


def all_codes() -> tuple[enum.StrEnum, ...]:
    """Every error code the library defines, in a stable order."""
    return tuple(MESSAGES)
