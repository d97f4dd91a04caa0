"""The meld catalogue of a multiset of tile values: every valid meld it holds.

:func:`meld_layouts` lists them (runs, then sets), for the take rules
(:mod:`remi_rules.rupere`: the melds that can justify a taken tile) and for the
engine's list of legal melds (:func:`remi_rules.engine.legal_steps`).  It checks its
arguments and asks the one meld catalogue (``remi_rules._meld_catalogue``, which also
gives the solver its candidates), built once per ruleset's meld knobs.

>>> from collections import Counter
>>> from remi_rules import Tile, variants
>>> pool = Counter(Tile.parse(t) for t in ("7R", "8R", "9R", "7N"))
>>> [" ".join(str(t) for t in m) for m in meld_layouts(pool, variants.get("clasic"))]
['7R 8R 9R']
"""

from __future__ import annotations

from collections.abc import Mapping

from ._meld_catalogue import layouts_of
from .ruleset import Ruleset, require_ruleset
from .tiles import Tile

__all__ = ["meld_layouts"]


def meld_layouts(pool: Mapping[Tile, int], rules: Ruleset) -> list[tuple[Tile, ...]]:
    """Every valid meld (tile values in laid order) whose values are a sub-multiset of
    ``pool`` (each value with the number of copies held; a count below 1 holds none),
    runs first.  A free joker
    fills the gaps of a run or the missing colours of a set, and also stands in for a
    held tile where it could; a fixed joker (JOLY-05) only where its tile would."""
    require_ruleset(rules)
    if not isinstance(pool, Mapping):
        raise TypeError(f"pool must be a mapping of tiles to counts, not {type(pool).__name__}")
    positive = True
    for tile, count in pool.items():
        if not isinstance(tile, Tile):
            raise TypeError(f"a pool key must be a Tile, not {type(tile).__name__}")
        if type(count) is not int:
            raise TypeError(f"a pool count must be an int, not {type(count).__name__}")
        positive = positive and count > 0
    return layouts_of(pool if positive else {t: n for t, n in pool.items() if n > 0}, rules)
