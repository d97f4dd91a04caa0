"""The turn context: what the rule functions need to know about the player's turn.

The take, lay-off and swap rules (:mod:`remi_rules.rupere`, :mod:`remi_rules.lipire`,
:mod:`remi_rules.joly`) depend on the ruleset and on a few facts about the turn: has
the player opened, in an earlier turn or in this one, which of his own turns this is,
has he declared pe tablă, which melds he made and which tiles he laid off in this
turn, the fixed identities of the jokers.  :class:`TurnContext` holds them in one
frozen value, which each of those functions takes where it takes the rules; the
engine builds it from its state (:func:`remi_rules.engine.turn_context`).  The
keyword flags of those functions (``opened_before_this_turn=``, ``opened=``, …)
remain a shorthand that builds the same context.

Each ``can_x`` is :func:`boolean_form` of its ``verify_x``: the same arguments, True
where ``verify_x`` passes and False where it refuses with its error.

>>> from remi_rules import variants
>>> from remi_rules.context import TurnContext
>>> from remi_rules.rupere import take_options
>>> ctx = TurnContext(variants.get("clasic"), opened_before_this_turn=True, turn_number=5)
>>> ctx.opened, ctx.opened_this_turn
(True, False)
>>> take_options([0, 10, 20], 6, ctx)
(1, 2)
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Collection, Sequence
from typing import Final, ParamSpec

import attrs

from .errors import InvalidOpeningError, OpeningErrorCode, RemiError
from .ruleset import Ruleset, require_ruleset
from .table import JokerHistory

__all__ = ["NO_JOKER_HISTORY", "TurnContext", "boolean_form", "context_of", "table_context"]

NO_JOKER_HISTORY: Final = (JokerHistory(), JokerHistory())
"""The histories of jokers 104 and 105 before either has been on the table."""

_P = ParamSpec("_P")


def _bool(_inst: object, attribute: attrs.Attribute[bool], value: object) -> None:
    if type(value) is not bool:
        raise TypeError(f"{attribute.name} must be a bool, not {type(value).__name__}")


def _turn_number(_inst: object, _attribute: attrs.Attribute[int], value: object) -> None:
    if type(value) is not int:
        raise TypeError(f"turn_number must be an int, not {type(value).__name__}")
    if value < 1:
        raise InvalidOpeningError(OpeningErrorCode.BAD_TURN_NUMBER, turn_number=value)


def _rules(_inst: object, _attribute: attrs.Attribute[Ruleset], value: object) -> None:
    require_ruleset(value)


def _ints(value: object) -> tuple[int, ...]:
    if isinstance(value, str | bytes) or not hasattr(value, "__iter__"):
        raise TypeError(f"expected a collection of ints, not {type(value).__name__}")
    return tuple(value)


def _jokers(value: object) -> tuple[JokerHistory, JokerHistory]:
    if isinstance(value, str | bytes) or not hasattr(value, "__iter__"):
        raise TypeError("jokers must be the two JokerHistory values of ids 104 and 105")
    histories = tuple(value)
    if len(histories) != 2 or not all(isinstance(h, JokerHistory) for h in histories):
        raise TypeError("jokers must be the two JokerHistory values of ids 104 and 105")
    return histories[0], histories[1]


def _opened_default(ctx: TurnContext) -> bool:
    return ctx.opened_before_this_turn or ctx.opened_this_turn


@attrs.frozen(kw_only=True, weakref_slot=False)  # a twin for the engine: remi_rules._slots
class TurnContext:
    """The facts about the player's turn that the rules depend on (see the module).

    ``rules`` and the take's facts (``opened_before_this_turn``, ``turn_number``)
    are required; ``opened`` defaults to having opened before or in this turn.  A
    field of the wrong type is a :class:`TypeError`, a ``turn_number`` below 1 a
    :class:`ValueError`."""

    rules: Ruleset = attrs.field(validator=_rules, kw_only=False)
    opened_before_this_turn: bool = attrs.field(validator=_bool)
    """The player completed a first etalare in an earlier turn (full rights)."""
    turn_number: int = attrs.field(validator=_turn_number)
    """The player's own turns, from 1 (TURN-04: the first one only draws)."""
    declared_pe_tabla: bool = attrs.field(default=False, validator=_bool)
    """The player declared a pe-tablă closing (CLOSE-06); ignored where
    ``pe_tabla_enabled`` is false."""
    closing_turn: bool = attrs.field(default=False, validator=_bool)
    """The player closes in this turn (RUPE-07, ATU-06)."""
    row_starts_with_first_discard: bool = attrs.field(default=True, validator=_bool)
    """The row still begins with the starter's dead first discard (TURN-01; false after
    an ``online`` reshuffle of the row into the stock)."""
    opened_this_turn: bool = attrs.field(default=False, validator=_bool)
    """The player made his first etalare in this turn (OPEN-07, OPEN-09)."""
    opened: bool = attrs.field(
        default=attrs.Factory(_opened_default, takes_self=True), validator=_bool
    )
    """The player has opened, in an earlier turn or in this one (LIPI-01, JOLY-01)."""
    new_meld_indexes: tuple[int, ...] = attrs.field(default=(), converter=_ints)
    """The table indexes of the melds made in this turn (OPEN-07)."""
    laid_off_this_turn: tuple[int, ...] = attrs.field(default=(), converter=_ints)
    """The ids laid off in this turn (``set_complete_and_swap_same_turn``)."""
    jokers: tuple[JokerHistory, JokerHistory] = attrs.field(
        default=NO_JOKER_HISTORY, converter=_jokers
    )
    """The histories of jokers 104 and 105, as in ``Table.jokers`` (JOLY-05)."""

    @property
    def pe_tabla(self) -> bool:
        """A pe-tablă declaration that counts (``pe_tabla_enabled``, CLOSE-06)."""
        return self.declared_pe_tabla and self.rules.pe_tabla_enabled


def boolean_form(
    verify: Callable[_P, object], error: type[RemiError], name: str
) -> Callable[_P, bool]:
    """``name``, the bool form of ``verify``: the same arguments; True where ``verify``
    returns, False where it raises ``error``; any other exception (a TypeError for a
    wrong argument type, ...) propagates."""
    if not callable(verify) or not isinstance(getattr(verify, "__name__", None), str):
        raise TypeError(f"verify must be a named function, not {type(verify).__name__}")
    if not (isinstance(error, type) and issubclass(error, RemiError)):
        raise TypeError(f"error must be a RemiError class, not {type(error).__name__}")
    if type(name) is not str:
        raise TypeError(f"name must be a str, not {type(name).__name__}")

    @functools.wraps(verify)
    def can(*args: _P.args, **kwargs: _P.kwargs) -> bool:
        try:
            verify(*args, **kwargs)
        except error:
            return False
        return True

    can.__name__ = can.__qualname__ = name
    can.__doc__ = f":func:`{verify.__name__}` as a bool."
    del can.__wrapped__  # its own signature below, returning bool
    can.__annotations__ = {**getattr(verify, "__annotations__", {}), "return": "bool"}
    try:
        signature = inspect.signature(verify).replace(return_annotation="bool")
    except ValueError as err:  # a builtin without a signature
        raise TypeError(f"verify has no signature: {err}") from None
    can.__signature__ = signature  # type: ignore[attr-defined]
    return can


def context_of(
    rules: Ruleset | TurnContext,
    flags: Sequence[object],
    defaults: Sequence[object],
    build: Callable[[], TurnContext],
) -> TurnContext:
    """The context a rule function was given: ``rules`` itself when it is a
    :class:`TurnContext` (then ``flags``, the values of its keyword flags, must all
    be at their ``defaults``), else ``build()`` from the rules and flags."""
    if type(rules) is TurnContext:
        if tuple(flags) != tuple(defaults):
            raise TypeError("give either a TurnContext or the rules with their keyword flags")
        return rules
    return build()


def table_context(
    rules: Ruleset | TurnContext,
    opened: bool | None,
    opened_this_turn: bool | None,
    *,
    new_meld_indexes: Collection[int] = (),
    laid_off_this_turn: Collection[int] = (),
) -> TurnContext:
    """The context of a lay-off or swap function (:mod:`remi_rules.lipire`,
    :mod:`remi_rules.joly`): ``rules`` itself when it is a :class:`TurnContext` (then
    no flags), else one built from the flags, ``opened`` and ``opened_this_turn``
    required; the take's facts, which those rules do not read, are those of a later
    turn of a player who opened before it unless he opened in this one."""
    if type(rules) is TurnContext:
        no_flags = opened is None and opened_this_turn is None
        if no_flags and not new_meld_indexes and not laid_off_this_turn:
            return rules  # the engine's call: no flags beside the context
        if (
            opened is not None
            or opened_this_turn is not None
            or tuple(new_meld_indexes)
            or tuple(laid_off_this_turn)
        ):
            raise TypeError("give either a TurnContext or the rules with their keyword flags")
        return rules
    ruleset = require_ruleset(rules)
    if opened is None or opened_this_turn is None:
        raise TypeError("give opened= and opened_this_turn=, or a TurnContext")
    return TurnContext(
        ruleset,
        opened_before_this_turn=opened is True and opened_this_turn is not True,
        turn_number=2,
        opened_this_turn=opened_this_turn,
        opened=opened,
        new_meld_indexes=new_meld_indexes,
        laid_off_this_turn=laid_off_this_turn,
    )
