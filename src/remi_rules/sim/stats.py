"""What a simulation measures, with 95 % confidence intervals.

Per ruleset (:func:`summarize`): the mean round length; how often rounds end by a
close, by the stock, or by the turn cap; each seat's score distribution; the
first-player advantage (the starter's score minus the mean of the others' in the same
round); and each bot's mean score.  Means carry a normal-approximation interval
(mean ± 1.96 standard errors); shares a Wilson score interval.  Every number is
computed from the rounds in seed order, so the same rounds give the same bits.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Final

from ..errors import InvalidSimulationError, SimErrorCode
from .tasks import END_REASONS, RoundOutcome, check_bots, check_int

__all__ = ["END_REASONS", "MAX_COUNT", "Z95", "mean_ci", "summarize", "wilson_ci"]

Z95: Final = 1.959963984540054
"""The standard normal quantile of a two-sided 95 % interval."""

_DIGITS: Final = 4

MAX_COUNT: Final = 2**53
"""The largest count :func:`wilson_ci` measures: every int up to it is exact as a float."""


def _r(x: float) -> float:
    return round(x, _DIGITS)


def _sequence(what: str, values: object) -> Sequence[object]:
    if isinstance(values, str | bytes) or not isinstance(values, Sequence):
        raise TypeError(f"{what} must be a sequence, not {type(values).__name__}")
    return values


def mean_ci(values: Sequence[float]) -> dict[str, float]:
    """Mean, standard deviation and the 95 % interval of the mean (all 0 for no
    values).  :class:`TypeError` unless ``values`` is a sequence of ``int`` or
    ``float``; :class:`~remi_rules.errors.InvalidSimulationError`
    (:attr:`~remi_rules.errors.SimErrorCode.BAD_VALUES`) for a NaN or an infinity."""
    for v in _sequence("values", values):
        if isinstance(v, bool) or not isinstance(v, int | float):
            raise TypeError(f"values must be numbers, not {type(v).__name__}")
        try:
            finite = math.isfinite(v)
        except OverflowError:  # an int too large for a float
            finite = False
        if not finite:
            raise InvalidSimulationError(SimErrorCode.BAD_VALUES, value=v)
    n = len(values)
    if n == 0:
        return {"mean": 0.0, "sd": 0.0, "ci_low": 0.0, "ci_high": 0.0}
    mean = math.fsum(values) / n
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    half = Z95 * math.sqrt(var / n)
    return {
        "mean": _r(mean),
        "sd": _r(math.sqrt(var)),
        "ci_low": _r(mean - half),
        "ci_high": _r(mean + half),
    }


def wilson_ci(hits: int, n: int) -> dict[str, float]:
    """A share and its 95 % Wilson score interval (all 0 for ``n == 0``).
    :class:`TypeError` unless both are ``int``;
    :class:`~remi_rules.errors.InvalidSimulationError`
    (:attr:`~remi_rules.errors.SimErrorCode.BAD_COUNTS`) unless ``0 <= hits <= n``,
    (:attr:`~remi_rules.errors.SimErrorCode.COUNT_TOO_LARGE`) for ``n`` above
    :data:`MAX_COUNT` (2**53)."""
    check_int("hits", hits)
    check_int("n", n)
    if not 0 <= hits <= n:
        raise InvalidSimulationError(SimErrorCode.BAD_COUNTS, hits=hits, n=n)
    if n > MAX_COUNT:
        raise InvalidSimulationError(SimErrorCode.COUNT_TOO_LARGE, n=n, limit=MAX_COUNT)
    if n == 0:
        return {"share": 0.0, "ci_low": 0.0, "ci_high": 0.0}
    p = hits / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return {
        "share": _r(p),
        "ci_low": _r(max(0.0, centre - half)),
        "ci_high": _r(min(1.0, centre + half)),
    }


def _quantiles(values: Sequence[int]) -> dict[str, float]:
    ordered = sorted(values)
    n = len(ordered)

    def at(q: float) -> float:
        # The nearest-rank quantile (no interpolation: exact on integers).
        return float(ordered[min(n - 1, max(0, math.ceil(q * n) - 1))])

    return {"min": at(0.0), "p25": at(0.25), "median": at(0.5), "p75": at(0.75), "max": at(1.0)}


def summarize(outcomes: Sequence[RoundOutcome], bots: Sequence[str]) -> dict[str, Any]:
    """The measurements of one ruleset's rounds (in seed order), seat ``s`` taken by
    ``bots[s]``.  :class:`TypeError` unless ``outcomes`` is a sequence of
    :class:`~remi_rules.sim.RoundOutcome` and ``bots`` a tuple or list of names;
    :class:`~remi_rules.errors.InvalidSimulationError` for bots out of range
    (:func:`~remi_rules.sim.tasks.check_bots`) or a round with another number of
    seats than ``bots`` (:attr:`~remi_rules.errors.SimErrorCode.BAD_OUTCOME`)."""
    bots = check_bots(bots)
    for o in _sequence("outcomes", outcomes):
        if not isinstance(o, RoundOutcome):
            raise TypeError(f"outcomes must be RoundOutcome values, not {type(o).__name__}")
        if len(o.totals) != len(bots):
            raise InvalidSimulationError(
                SimErrorCode.BAD_OUTCOME, why="totals_per_bot", totals=len(o.totals), bots=len(bots)
            )
    rounds = sorted(outcomes, key=lambda o: o.seed)
    n = len(rounds)
    players = len(bots)
    out: dict[str, Any] = {"rounds": n}
    out["round_length_turns"] = mean_ci([o.turns for o in rounds])
    out["ends"] = {
        reason: {"count": c, **wilson_ci(c, n)}
        for reason in END_REASONS
        for c in [sum(1 for o in rounds if o.reason == reason)]
    }
    seats = []
    for seat in range(players):
        scores = [o.totals[seat] for o in rounds]
        seats.append(
            {
                "seat": seat,
                "bot": bots[seat],
                **mean_ci(scores),
                **(_quantiles(scores) if n else {}),
            }
        )
    out["seats"] = seats
    advantage = [
        o.totals[o.starter]
        - math.fsum(t for s, t in enumerate(o.totals) if s != o.starter) / (players - 1)
        for o in rounds
    ]
    out["first_player_advantage"] = mean_ci(advantage)
    by_bot: dict[str, Any] = {}
    for name in sorted(set(bots)):
        scores = [t for o in rounds for s, t in enumerate(o.totals) if bots[s] == name]
        by_bot[name] = mean_ci(scores)
    out["bots"] = by_bot
    return out
