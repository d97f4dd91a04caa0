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
from collections.abc import Callable, Mapping
from typing import Final

__all__ = [
    "MESSAGES",
    "InvalidMeldError",
    "InvalidOpeningError",
    "InvalidRulesetError",
    "InvalidTileError",
    "MeldErrorCode",
    "OpeningErrorCode",
    "RemiError",
    "RulesetErrorCode",
    "RulesetTypeError",
    "TileErrorCode",
    "TileParseError",
    "UnknownVariantError",
    "VariantErrorCode",
    "all_codes",
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
        "Regula „{knob}” nu poate fi {value}: 1 ≤ ceilalți ≤ cel care începe ≤ 30, "
        "iar patru mâini și atuul trebuie să încapă în cele 106 piese.",
        "Knob '{knob}' cannot be {value}: 1 <= others <= starter <= 30, and four hands "
        "plus the atu must fit in the 106 tiles.",
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
    VariantErrorCode.UNKNOWN_VARIANT: (
        "Varianta „{name}” nu există; variantele cunoscute: {known}.",
        "There is no variant '{name}'; the known variants are: {known}.",
    ),
}


class _Missing(dict[str, object]):
    def __missing__(self, key: str) -> str:
        return "?"


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
        """The explanation in ``"ro"`` (Romanian) or ``"en"`` (English)."""
        try:
            template = MESSAGES[self.code][LANGS.index(lang)]
        except ValueError:
            raise ValueError(f"unknown language {lang!r}; use one of {LANGS}") from None
        return template.format_map(_Missing(self.details))

    def __str__(self) -> str:
        return f"[{self.code.value}] {self.message('en')}"

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!s}, {dict(self.details)!r})"

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
            return f"{base} ({where} {self.details['position']})"
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
    (a dotted path for nested values), or ``None`` for a problem with a whole file."""

    code: RulesetErrorCode

    @property
    def knob(self) -> str | None:
        knob = self.details.get("knob")
        return None if knob is None else str(knob)


class RulesetTypeError(InvalidRulesetError, TypeError):
    """A ruleset knob was given a value of the wrong Python type (code ``WRONG_TYPE``).
    It is both an :class:`InvalidRulesetError` and a :class:`TypeError`."""


class UnknownVariantError(RemiError, ValueError):
    """No preset has that name; ``details['known']`` lists the names that exist."""

    code: VariantErrorCode


def all_codes() -> tuple[enum.StrEnum, ...]:
    """Every error code the library defines, in a stable order."""
    return tuple(MESSAGES)
