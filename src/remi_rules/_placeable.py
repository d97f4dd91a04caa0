"""Which tiles some meld could hold: a cheap necessary condition, shared by the hint's
bounds (:mod:`remi_rules._hint_score`, :mod:`remi_rules._hint_bound`) and the take
checks (:func:`remi_rules.turn_plans.can_close_with`).

:class:`Pool` over-estimates what can be placed, so whatever it rules out (a tile no
meld of the pool can hold) no split of the hand places; :func:`never_placed` lists the
tiles of a rack that stay whatever the turn does.  Pure functions of the tiles, with
no dependency on the engine.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from typing import Final

from .tiles import FULL_SET, JOKER_CODE, JOKER_IDS, Tile

__all__ = ["Pool", "never_placed"]

_FIRST_JOKER: Final = JOKER_IDS[0]


def _acting(tile: Tile) -> tuple[int, int] | None:
    acts = tile.acts_as
    if acts is None or acts.rank is None or acts.color is None:
        return None
    return acts.rank, acts.color.index


_ACTING: Final = {
    t._code: _acting(t) for t in (*FULL_SET, *(Tile(fixed_as=n) for n in FULL_SET[:_FIRST_JOKER]))
}
"""By tile value (its code): the rank and colour index it acts as (None: a free joker)."""


def _windows(rank: int, ace_high: bool) -> tuple[int, ...]:
    """For a tile of ``rank``, each window of three run positions around it, as the
    bit mask of its two other positions (a high ace at position 14)."""
    places = (1, 14) if rank == 1 and ace_high else (rank,)
    return tuple(
        sum(1 << q for q in range(lo, lo + 3) if q != p)
        for p in places
        for lo in range(max(1, p - 2), min(p, 12 if ace_high else 11) + 1)
    )


_WINDOWS: Final = {
    ace_high: tuple(_windows(rank, ace_high) if rank else () for rank in range(14))
    for ace_high in (False, True)
}
_RUN_BITS: Final = {
    ace_high: tuple((1 << rank) | (1 << 14 if rank == 1 and ace_high else 0) for rank in range(14))
    for ace_high in (False, True)
}
"""By rank, the run positions a tile of that rank takes (an ace also 14 when high)."""


class Pool:
    """Tiles a turn may meld from (the rack and whatever else it may bring in), for
    :meth:`holds`: whether some meld made from them might hold a tile.  Tiles are
    added one at a time (a rupere's pool grows tile by tile down the row).

    An over-estimate of what can be placed: a tile counts as placeable when two more
    tiles of its rank in other colours, or a window of three run positions around it
    in its colour, are in the pool, jokers filling up to two gaps (whatever the joker
    rules)."""

    __slots__ = ("ace_high", "colours", "jokers", "runs", "windows")

    def __init__(self, ace_high: bool, tiles: Iterable[Tile] = ()) -> None:
        self.ace_high = ace_high
        self.windows = _WINDOWS[ace_high]
        self.jokers = 0
        self.colours = colours = [0] * 14
        """By rank, the bit mask of the colours (their index) present."""
        self.runs = runs = [0] * 4
        """By colour, the bit mask of the run positions present (a high ace at 14)."""
        bits = _RUN_BITS[ace_high]
        acting = _ACTING
        for tile in tiles:
            code = tile._code
            if code >= JOKER_CODE:
                self.jokers += 1
            place = acting[code]
            if place is None:
                continue
            rank, colour = place
            colours[rank] |= 1 << colour
            runs[colour] |= bits[rank]

    def add(self, tile: Tile) -> None:
        code = tile._code
        if code >= JOKER_CODE:
            self.jokers += 1
        place = _ACTING[code]
        if place is None:
            return
        rank, colour = place
        self.colours[rank] |= 1 << colour
        self.runs[colour] |= _RUN_BITS[self.ace_high][rank]

    def holds(self, tile: Tile) -> bool:
        """Whether some meld of the pool might hold numbered tile ``tile``."""
        place = _ACTING[tile._code]
        assert place is not None
        jokers = 2 if self.jokers > 2 else self.jokers
        rank, colour = place
        if (self.colours[rank] & ~(1 << colour)).bit_count() + jokers >= 2:
            return True
        missing = ~self.runs[colour]
        for window in self.windows[rank]:  # noqa: SIM110  (a loop: no generator on this hot path)
            if (window & missing).bit_count() <= jokers:
                return True
        return False


def never_placed(
    rack: Sequence[Tile],
    pool: Sequence[Tile] | Pool,
    layable: Collection[Tile],
    ace_high: bool,
) -> list[Tile]:
    """The tiles of ``rack`` that no meld made from ``pool`` (the rack and whatever
    else the turn may bring in) can hold (:meth:`Pool.holds`) and that cannot be laid
    off (``layable``): they stay on the rack whatever the turn does, but for the one
    discarded.  Jokers always count as placeable."""
    melds = pool if isinstance(pool, Pool) else Pool(ace_high, pool)
    return [t for t in rack if not (t._code >= JOKER_CODE or t in layable or melds.holds(t))]
