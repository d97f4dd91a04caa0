"""The solver: the best melds in a hand, and the best first etalare.

* :func:`best_melds` splits a hand (up to 106 tiles, jokers included) into disjoint
  valid melds with the most etalare points (VALUE-01), or the most tiles placed.
* :func:`best_opening` does the same under the rules of a first etalare: the
  minimum (OPEN-02), the composition (OPEN-03) and the ace-set exception (OPEN-04).

Both are exact (docs/solver.md: a memoised search over the hand's own melds, with
no budget) and deterministic: among equally good splits they return the one with
fewer tiles left over, then the smallest *sorted notation* (see :class:`Solution`),
so a permuted hand gives the same answer.

>>> from remi_rules import best_melds, best_opening, variants
>>> clasic = variants.get("clasic")
>>> sol = best_melds("5R 6R 7R 7G 7A J 2N", clasic)
>>> [str(m) for m in sol.melds], sol.total, [str(t) for t in sol.leftover]
(['5R 6R 7R', '7G 7A J'], 30, ['2N'])
>>> best_opening("7R 8R 9R 10G 11G 12G 13G", variants.get("online")) is None  # EX-06
True
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Final

import attrs

from . import _partition as partition
from .errors import InvalidHandError, SolverErrorCode
from .melds import Meld, analyze_meld
from .opening import is_ace_set
from .ruleset import OpeningComposition, Ruleset, require_ruleset
from .tiles import Tile, parse_tiles, tiles_str

if TYPE_CHECKING:
    from ._by_ranks import Shared

__all__ = ["MAX_HAND", "Objective", "Solution", "best_melds", "best_opening"]

MAX_HAND: Final = 106
"""The largest hand the solver takes: every tile of the set (106)."""


class Objective(enum.StrEnum):
    """What the solver maximises."""

    POINTS = "points"
    """Etalare points (VALUE-01; a joker is worth what it stands for)."""
    TILES = "tiles"
    """Tiles placed in melds (jokers included)."""


@attrs.frozen
class Solution:
    """A split of a hand into melds.

    ``melds`` are in notation order (each meld's tiles sorted by rank, then colour
    R G A N, jokers last; the melds sorted by that); ``leftover`` is what stays on
    the rack, sorted the same way; ``total`` is the objective's value: the melds' points or the
    tiles placed.

    The order that breaks ties between equally good splits (after fewer leftover
    tiles): the split holding the smallest meld the other lacks wins, melds compared
    by their sorted notation, then their table order.
    """

    melds: tuple[Meld, ...]
    total: int
    leftover: tuple[Tile, ...]
    objective: Objective = Objective.POINTS

    @property
    def points(self) -> int:
        """The melds' etalare points (VALUE-01), whatever the objective."""
        return sum(m.points for m in self.melds)

    @property
    def placed(self) -> int:
        """Tiles placed in melds."""
        return sum(len(m.tiles) for m in self.melds)

    def __str__(self) -> str:
        melds = " | ".join(str(m) for m in self.melds) or "-"
        rest = f"; left {tiles_str(self.leftover)}" if self.leftover else ""
        return f"{melds} ({self.objective.value} {self.total}{rest})"


def _hand(tiles: Iterable[Tile] | str) -> tuple[tuple[Tile, ...], list[int]]:
    """The hand as Tile values and as the solver's counts, checked."""
    if isinstance(tiles, str):
        hand = parse_tiles(tiles)
    else:
        if not isinstance(tiles, Iterable):
            raise TypeError(f"a hand is an iterable of Tile values, not {type(tiles).__name__}")
        hand = tuple(tiles)
        for t in hand:
            if type(t) is not Tile:
                raise TypeError(f"a hand is made of Tile values, not {type(t).__name__}")
    if len(hand) > MAX_HAND:
        raise InvalidHandError(SolverErrorCode.TOO_MANY_TILES, count=len(hand), limit=MAX_HAND)
    counts = partition.counts_of(hand)
    if max(counts[: partition.REAL_FIELDS]) > 2:
        field = next(f for f, k in enumerate(counts) if k > 2)
        raise InvalidHandError(
            SolverErrorCode.TOO_MANY_COPIES,
            tile=str(partition.tile_of_field(field)),
            count=counts[field],
            limit=2,
        )
    jokers = sum(counts[partition.FREE_JOKER :])
    if jokers > 2:
        raise InvalidHandError(SolverErrorCode.TOO_MANY_JOKERS, count=jokers, limit=2)
    return hand, counts


def _objective(objective: Objective | str) -> Objective:
    try:
        return Objective(objective)
    except ValueError:
        raise InvalidHandError(
            SolverErrorCode.UNKNOWN_OBJECTIVE,
            objective=objective,
            known=", ".join(o.value for o in Objective),
        ) from None


def _min_leftover(min_leftover: int, hand: tuple[Tile, ...]) -> int:
    if type(min_leftover) is not int:
        raise TypeError(f"min_leftover must be an int, not {type(min_leftover).__name__}")
    if not 0 <= min_leftover <= len(hand):
        raise InvalidHandError(
            SolverErrorCode.BAD_MIN_LEFTOVER, min_leftover=min_leftover, count=len(hand)
        )
    return min_leftover


def _solution(
    counts: list[int],
    found: tuple[int, tuple[partition.Candidate, ...]],
    rules: Ruleset,
    objective: Objective,
) -> Solution:
    _, cands = found
    cands = tuple(sorted(cands, key=lambda c: c.key))
    melds = tuple(analyze_meld(c.tiles, rules) for c in cands)
    rest = list(counts)
    for c in cands:
        for f in c.fields:
            rest[f] -= 1
    leftover = tuple(partition.tile_of_field(f) for f, k in enumerate(rest) for _ in range(k))
    placed = sum(len(c.fields) for c in cands)
    total = placed if objective is Objective.TILES else sum(c.points for c in cands)
    return Solution(melds, total, leftover, objective)


def best_melds(
    tiles: Iterable[Tile] | str,
    rules: Ruleset,
    objective: Objective | str = Objective.POINTS,
    *,
    min_leftover: int = 0,
) -> Solution:
    """The best split of ``tiles`` into disjoint valid melds under ``rules``.

    ``objective`` is ``"points"`` (etalare points, VALUE-01) or ``"tiles"`` (tiles
    placed).  Ties go to fewer tiles left over, then to the smallest sorted notation
    (:class:`Solution`).  ``min_leftover`` keeps at least that many tiles out of the
    melds (TURN-07: one to discard).  ``tiles`` is notation or Tile values, at most 106,
    no value more often than the set holds it; else :class:`~remi_rules.InvalidHandError`.

    >>> from remi_rules import variants
    >>> best_melds("1R 1G 1A 12R 13R", variants.get("clasic")).total  # the aces as a set
    75
    """
    require_ruleset(rules)
    hand, counts = _hand(tiles)
    goal = _objective(objective)
    keep = _min_leftover(min_leftover, hand)
    found = partition.solve(
        counts,
        rules,
        tiles_objective=goal is Objective.TILES,
        constraints=partition.Constraints(min_leftover=keep),
    )
    assert found is not None  # leaving everything over always works
    return _solution(counts, found, rules, goal)


def opening_classes(
    rules: Ruleset, melded: Iterable[Meld] = ()
) -> tuple[partition.Constraints, ...]:
    """The shapes a first etalare may take under ``rules`` (OPEN-02 … OPEN-04), as
    solver constraints on the tiles still to be melded: a run (and a set under
    ``run_and_set``), or, under the ace-set exception, no run and a set of aces (alone
    when it blocks other sets).  ``melded`` are melds already put down in the opening
    turn: what they provide (a kind, points, a set) is taken off the constraints, and
    a shape they already break is left out."""
    done = tuple(melded)
    points = sum(m.points for m in done)
    runs = sum(m.is_run for m in done)
    sets = len(done) - runs
    kinds = (partition.NEED_RUN if runs else 0) | (partition.NEED_SET if sets else 0)
    if any(is_ace_set(m, rules) for m in done):
        kinds |= partition.NEED_ACE_SET
    minimum = max(0, rules.opening_min_points - points)
    need = partition.NEED_RUN
    if rules.opening_composition is OpeningComposition.RUN_AND_SET:
        need |= partition.NEED_SET
    out = [partition.Constraints(need=need & ~kinds, min_points=minimum)]
    if rules.opening_ace_set_exception and not runs:
        limit = 1 - sets if rules.opening_ace_set_blocks_other_sets else None
        if limit is None or limit >= 0:
            out.append(
                partition.Constraints(
                    need=partition.NEED_ACE_SET & ~kinds,
                    allow_runs=False,
                    min_points=minimum,
                    max_sets=limit,
                )
            )
    return tuple(out)


def opening_split(
    counts: list[int],
    rules: Ruleset,
    *,
    tiles_objective: bool = False,
    min_leftover: int = 0,
    melded: Iterable[Meld] = (),
    catalogued: Sequence[partition.Candidate] | None = None,
) -> tuple[int, tuple[partition.Candidate, ...]] | None:
    """:func:`best_opening` on the solver's counts, without the checks of a hand:
    the best split, as ``(value, melds)``, or None (``catalogued`` as for
    :func:`~remi_rules._partition.solve`)."""
    done = tuple(melded)
    best: tuple[int, tuple[partition.Candidate, ...]] | None = None
    for shape in opening_classes(rules, done):
        found = partition.solve(
            counts,
            rules,
            tiles_objective=tiles_objective,
            constraints=shape._replace(min_leftover=min_leftover),
            catalogued=catalogued,
        )
        if found is None:
            continue
        if best is None or better(found, best):
            best = found
    return best


def split_reaching(
    counts: list[int],
    rules: Ruleset,
    goal: int,
    *,
    min_leftover: int = 0,
    melded: Iterable[Meld] | None = None,
    extra: Callable[[int], int] | None = None,
    shared: Shared | None = None,
    lay_cap: Mapping[int, int] | None = None,
) -> tuple[tuple[int, ...], ...] | None:
    """Whether the solver's split of ``counts`` places ``goal`` tiles (melded, or laid
    off where ``extra`` says, at most ``lay_cap`` of a field where given) with
    ``min_leftover`` kept and, with ``melded`` (melds already down in the turn,
    possibly none), is an opening with them: None if not, else the melds of such a
    split (:func:`remi_rules._partition.split_reaching`, under each shape of
    :func:`opening_classes`)."""
    shapes = (partition.Constraints(),) if melded is None else opening_classes(rules, melded)
    for shape in shapes:
        split = partition.split_reaching(
            counts,
            rules,
            goal,
            tiles_objective=True,
            constraints=shape._replace(min_leftover=min_leftover),
            extra=extra,
            shared=shared,
            lay_cap=lay_cap,
        )
        if split is not None:
            return split
    return None


def better(
    a: tuple[int, tuple[partition.Candidate, ...]], b: tuple[int, tuple[partition.Candidate, ...]]
) -> bool:
    """Whether split ``a`` beats split ``b``: a higher value, or an equal value and
    the smaller notation (:func:`~remi_rules._partition.solution_key`)."""
    if a[0] != b[0]:
        return a[0] > b[0]
    return partition.solution_key(a[1]) < partition.solution_key(b[1])


def best_opening(
    tiles: Iterable[Tile] | str,
    rules: Ruleset,
    objective: Objective | str = Objective.POINTS,
    *,
    min_leftover: int = 0,
    melded: Iterable[Meld] = (),
) -> Solution | None:
    """The best split of ``tiles`` that is a valid first etalare under ``rules``, or
    ``None`` if there is none.

    Valid means what :func:`~remi_rules.check_opening` accepts: at least
    ``opening_min_points`` (OPEN-02), a run (and a set under ``run_and_set``,
    OPEN-03), or the ace-set exception (OPEN-04).  ``objective``, the ties and
    ``min_leftover`` as for :func:`best_melds`; pass
    :func:`~remi_rules.opening.min_rack_after_opening` as ``min_leftover`` to keep the
    tiles the opening turn needs (OPEN-08).  ``melded``: melds already put down in
    this turn (the meld a taken discard went into, OPEN-06); the answer is then the
    best set of further melds from ``tiles`` that completes the opening with them
    (possibly none), and its ``total`` counts only those.

    >>> from remi_rules import analyze_meld, variants
    >>> clasic = variants.get("clasic")
    >>> str(best_opening("1R 1G 1A 13R 13G 13N 2G", clasic))  # EX-10: the aces go alone
    '1R 1G 1A (points 75; left 2G 13R 13G 13N)'
    >>> taken = analyze_meld("6R 7R 8R", clasic)                 # EX-15, with the last discard
    >>> str(best_opening("12G 12A 12N 3A", clasic, melded=[taken]))
    '12G 12A 12N (points 30; left 3A)'
    """
    require_ruleset(rules)
    hand, counts = _hand(tiles)
    goal = _objective(objective)
    keep = _min_leftover(min_leftover, hand)
    done = tuple(melded)
    for m in done:
        if not isinstance(m, Meld):
            raise TypeError(f"melded holds Meld values, not {type(m).__name__}")
    found = opening_split(
        counts, rules, tiles_objective=goal is Objective.TILES, min_leftover=keep, melded=done
    )
    return None if found is None else _solution(counts, found, rules, goal)
