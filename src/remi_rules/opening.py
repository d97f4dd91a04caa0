"""The first etalare (prima etalare): OPEN-01 … OPEN-09, TURN-04.

:func:`check_opening` says whether melds are a valid first etalare under a ruleset:
the minimum points (OPEN-02), the composition (OPEN-03) and the ace-set exception
with the other sets it keeps back (OPEN-04).  The turn-level questions around the
opening are separate pure functions: may this player open in this turn
(:func:`may_open`, TURN-04, OPEN-01), lay off on others' melds (:func:`may_lay_off_on_others`,
OPEN-07, LIPI-01, LIPI-03), swap a joker (:func:`may_swap_joker`, OPEN-09, JOLY-01),
close (:func:`may_close`, OPEN-08, CLOSE-03).

>>> from remi_rules import analyze_meld, check_opening, variants
>>> clasic = variants.get("clasic")
>>> melds = [analyze_meld("10R J 12R", clasic), analyze_meld("5G 5A 5N", clasic)]
>>> check_opening(melds, clasic)                                   # EX-05: exactly 45
45
"""

from __future__ import annotations

from collections.abc import Iterable

from .errors import InvalidOpeningError, OpeningErrorCode
from .melds import Meld, MeldKind, analyze_meld
from .ruleset import OpeningComposition, Ruleset, require_ruleset

__all__ = [
    "check_opening",
    "is_ace_set",
    "may_close",
    "may_lay_off_on_others",
    "may_open",
    "may_swap_joker",
    "min_rack_after_opening",
    "opening_points",
]


def _melds(melds: Iterable[Meld]) -> tuple[Meld, ...]:
    out = tuple(melds)
    for meld in out:
        if not isinstance(meld, Meld):
            raise TypeError(f"an opening is made of Meld values, not {type(meld).__name__}")
    return out


def is_ace_set(meld: Meld, rules: Ruleset) -> bool:
    """True if ``meld`` can be the set of aces of the ace-set exception (OPEN-04): three
    or four aces, or two aces and a joker when ``opening_ace_set_joker_ok`` (MELD-08)."""
    if not isinstance(meld, Meld):
        raise TypeError(f"meld must be a Meld, not {type(meld).__name__}")
    require_ruleset(rules)
    if meld.kind is not MeldKind.TERTA or meld.low != 1:
        return False
    real = sum(not t.is_joker for t in meld.tiles)
    return real >= 3 or rules.opening_ace_set_joker_ok


def opening_points(melds: Iterable[Meld]) -> int:
    """OPEN-02: the points the melds count toward the opening minimum: their VALUE-01
    values, each joker worth what it stands for."""
    return sum(m.points for m in _melds(melds))


def check_opening(melds: Iterable[Meld], rules: Ruleset, *, pe_tabla: bool = False) -> int:
    """Check ``melds`` (the new melds of the opening turn, as they stand at the turn's
    end) as a first etalare under ``rules``; return the points they count.

    Refuses with :class:`~remi_rules.InvalidOpeningError`:

    * ``no_melds``: nothing to check;
    * the composition (OPEN-03), checked first: ``missing_run`` / ``missing_set``, or
      under the ace-set exception ``missing_run_or_ace_set`` and
      ``ace_set_with_other_sets`` (OPEN-04: without a run, the set of aces goes down
      alone; the other sets wait for a later turn);
    * ``below_minimum``: fewer than ``opening_min_points`` (OPEN-02).  The minimum
      applies to the ace-set exception too; a set of aces is worth 75 or more, so it
      meets the 45 of every preset by itself.

    Each meld is checked again under ``rules`` (:class:`~remi_rules.InvalidMeldError`
    if it is not valid there).  Tiles a player adds in the same turn to one of these
    new melds count (OQ-34):
    pass the melds as they stand at the turn's end.  For the melds of a pe-tablă
    closing (``pe_tabla=True``, CLOSE-06) the minimum and the composition apply only
    when ``pe_tabla_opening_rules_apply`` (OQ-14).
    """
    require_ruleset(rules)
    melds = tuple(analyze_meld(m.tiles, rules) for m in _melds(melds))  # under *these* rules
    points = sum(m.points for m in melds)
    details = {"points": points, "minimum": rules.opening_min_points}
    if not melds:
        raise InvalidOpeningError(OpeningErrorCode.NO_MELDS, **details)
    if pe_tabla and not rules.pe_tabla_opening_rules_apply:
        return points
    runs = sum(m.kind is MeldKind.SUITA for m in melds)
    sets = len(melds) - runs
    if not runs:
        ace_sets = [m for m in melds if is_ace_set(m, rules)]
        if not (rules.opening_ace_set_exception and ace_sets):
            code = (
                OpeningErrorCode.MISSING_RUN_OR_ACE_SET
                if rules.opening_ace_set_exception
                else OpeningErrorCode.MISSING_RUN
            )
            raise InvalidOpeningError(code, **details)
        if rules.opening_ace_set_blocks_other_sets and sets > 1:
            raise InvalidOpeningError(OpeningErrorCode.ACE_SET_WITH_OTHER_SETS, **details)
    elif rules.opening_composition is OpeningComposition.RUN_AND_SET and not sets:
        raise InvalidOpeningError(OpeningErrorCode.MISSING_SET, **details)
    if points < rules.opening_min_points:
        raise InvalidOpeningError(OpeningErrorCode.BELOW_MINIMUM, **details)
    return points


def may_open(turn_number: int, rules: Ruleset, *, declared_pe_tabla: bool = False) -> bool:
    """TURN-04, OPEN-01: may a player meld in his ``turn_number``-th own turn (1 for his
    first)?  Not in the first when ``first_turn_no_meld``; never by an ordinary
    etalare after a binding pe-tablă declaration (CLOSE-06, ``pe_tabla_binding``)."""
    require_ruleset(rules)
    if type(turn_number) is not int:
        raise TypeError(f"turn_number must be an int, not {type(turn_number).__name__}")
    if turn_number < 1:
        raise InvalidOpeningError(OpeningErrorCode.BAD_TURN_NUMBER, turn_number=turn_number)
    if declared_pe_tabla and rules.pe_tabla_enabled and rules.pe_tabla_binding:
        return False
    return turn_number > 1 or not rules.first_turn_no_meld


def may_lay_off_on_others(
    *, opened: bool, opened_this_turn: bool, rules: Ruleset, pe_tabla: bool = False
) -> bool:
    """LIPI-01, LIPI-03, OPEN-07: may the player lay tiles off on melds that existed
    before this turn (other players' melds)?  Only once opened, and in the opening
    turn only when ``layoff_on_others_in_opening_turn``.  (Extending his own new
    melds in the opening turn is always allowed.)  In a pe-tablă closing turn
    (``pe_tabla=True``, CLOSE-06) ``pe_tabla_layoff_on_others`` decides."""
    require_ruleset(rules)
    if pe_tabla:
        return rules.pe_tabla_enabled and rules.pe_tabla_layoff_on_others
    if not opened:
        return False
    return not opened_this_turn or rules.layoff_on_others_in_opening_turn


def may_swap_joker(*, opened: bool, opened_this_turn: bool, rules: Ruleset) -> bool:
    """JOLY-01, OPEN-09, OQ-39: may the player swap a joker on the table?  Not before
    opening when ``swap_requires_opened``; not in the opening turn unless
    ``swap_in_opening_turn``."""
    require_ruleset(rules)
    if not opened:
        return not rules.swap_requires_opened
    return not opened_this_turn or rules.swap_in_opening_turn


def may_close(
    *, opened: bool, opened_this_turn: bool, rules: Ruleset, pe_tabla: bool = False
) -> bool:
    """OPEN-08, CLOSE-03, CLOSE-06: may the player close in this turn?  He must have
    opened, and not in this very turn unless ``close_in_opening_turn``; the exception
    is a declared pe-tablă closing (when ``pe_tabla_enabled``), which opens and
    closes at once."""
    require_ruleset(rules)
    if pe_tabla:  # he must not have opened before this turn
        return rules.pe_tabla_enabled and not (opened and not opened_this_turn)
    if not opened:
        return False
    return not opened_this_turn or rules.close_in_opening_turn


def min_rack_after_opening(rules: Ruleset) -> int:
    """OPEN-08 in practice: the fewest tiles the rack may hold when the action phase of
    the opening turn ends: 2 when the player may not close in that turn (one to
    discard or keep, one more so it is not a close), else what closing needs."""
    require_ruleset(rules)
    return 1 if rules.close_in_opening_turn else 2
