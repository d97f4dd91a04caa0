"""Point values of tiles: in a meld during play, on the table and on the rack at the end.

Rules: VALUE-01 … VALUE-06 of docs/RULES.md, configured by the ``scoring`` knobs of
the :class:`~remi_rules.Ruleset`.

* VALUE-01: the etalare value of a tile in a meld (:func:`~remi_rules.tile_points`,
  :attr:`Meld.points <remi_rules.Meld.points>`): the opening minimum, lay-off credit.
* VALUE-02: melded numbered tiles keep that value at the end (a 1 in ``12 13 1`` is 10).
* VALUE-03: a joker on the table at the end counts 50 (``fixed_50``) or what it stands
  for (``represented``); a fixed joker always counts as its tile.
* VALUE-04 / VALUE-06: tiles left on the rack at the end; the atu twin may have a
  value of its own.
* VALUE-05: a reused (swapped) joker, and the tile laid in a joker's place.

>>> from remi_rules import analyze_meld, parse_tiles, variants
>>> from remi_rules.values import meld_end_values, rack_value_end
>>> clasic, online = variants.get("clasic"), variants.get("online")
>>> meld_end_values(analyze_meld("4R J 6R", clasic), clasic)         # EX-30
(5, 50, 5)
>>> sum(meld_end_values(analyze_meld("4R J 6R", online), online))
15
>>> [rack_value_end(t, clasic) for t in parse_tiles("9A 1A J")]      # EX-35
[5, 25, 50]
"""

from __future__ import annotations

from collections.abc import Collection

from .errors import InvalidScoringInputError, ScoringErrorCode
from .melds import Meld, MeldKind, tile_points
from .ruleset import (
    JokerTableValueEnd,
    ReusedJokerValueEnd,
    Ruleset,
    SwapReplacementValue,
    require_ruleset,
)
from .tiles import Tile

__all__ = [
    "JOKER_END_VALUE",
    "meld_end_values",
    "rack_value_end",
    "replacement_value_end",
    "table_joker_value_end",
]

JOKER_END_VALUE = 50
"""The end value of a joker on the table under ``joker_table_value_end=fixed_50``
(VALUE-03), and of the tile laid in a joker's place under ``joker_50`` (VALUE-05)."""


def table_joker_value_end(
    meld: Meld, position: int, rules: Ruleset, *, reused: bool = False
) -> int:
    """VALUE-03 / VALUE-05: the end value of the joker at ``position`` of ``meld``.

    A fixed joker (*joker întors*) counts as the tile it is.  A free joker counts 50
    under ``fixed_50`` or the VALUE-01 value of what it stands for under
    ``represented``; a *reused* joker (already swapped once) counts 0 instead when
    ``reused_joker_value_end`` is ``zero``.
    """
    _require_position(meld, position)
    require_ruleset(rules)
    tile = meld.tiles[position]
    if not tile.is_joker:
        raise InvalidScoringInputError(
            ScoringErrorCode.NOT_A_JOKER_POSITION, meld=meld, position=position, tile=tile
        )
    represented = _position_value(meld, position)
    if tile.is_fixed_joker:
        return represented
    if reused and rules.reused_joker_value_end is ReusedJokerValueEnd.ZERO:
        return 0
    if rules.joker_table_value_end is JokerTableValueEnd.FIXED_50:
        return JOKER_END_VALUE
    return represented


def _require_meld(meld: object) -> None:
    if not isinstance(meld, Meld):
        raise TypeError(f"meld must be a Meld, not {type(meld).__name__}")


def _require_position(meld: object, position: object) -> None:
    """A :class:`TypeError` unless ``meld`` is a Meld and ``position`` an int; a
    ``scoring_bad_position`` refusal unless ``position`` is one of its positions."""
    _require_meld(meld)
    if type(position) is not int:
        raise TypeError(f"position must be an int, not {type(position).__name__}")
    assert isinstance(meld, Meld)
    if not 0 <= position < len(meld.tiles):
        raise InvalidScoringInputError(ScoringErrorCode.BAD_POSITION, meld=meld, position=position)


def _position_value(meld: Meld, position: int) -> int:
    if meld.kind is MeldKind.SUITA:
        return tile_points(meld.low + position, MeldKind.SUITA)
    return tile_points(meld.low, MeldKind.TERTA)


def meld_end_values(meld: Meld, rules: Ruleset, *, reused: Collection[int] = ()) -> tuple[int, ...]:
    """The end value of each position of ``meld`` (VALUE-02, VALUE-03), in
    :attr:`Meld.tiles` order.  ``reused`` lists the positions holding a reused joker.

    Who is credited with each position (the owner, a layer, a swapper) is table
    bookkeeping; this gives only the values.
    """
    _require_meld(meld)
    require_ruleset(rules)
    return tuple(
        table_joker_value_end(meld, i, rules, reused=i in reused)
        if tile.is_joker
        else _position_value(meld, i)
        for i, tile in enumerate(meld.tiles)
    )


def replacement_value_end(meld: Meld, position: int, rules: Ruleset) -> int:
    """VALUE-05: the end value, for the meld's owner, of the real tile laid at
    ``position`` in place of a swapped joker: its face value (VALUE-01 in that meld)
    under ``face``, or 50 under ``joker_50`` (the Q&A l.109 variant)."""
    _require_position(meld, position)
    require_ruleset(rules)
    if rules.swap_replacement_value_for_owner is SwapReplacementValue.JOKER_50:
        return JOKER_END_VALUE
    return _position_value(meld, position)


def rack_value_end(tile: Tile, rules: Ruleset, *, atu_twin: bool = False) -> int:
    """VALUE-04 / VALUE-06: what ``tile`` left on an opened player's rack costs at the
    end (a positive amount, subtracted by the scoring).

    2–9 cost 5, 10–13 cost 10, a 1 ``ace_rack_value_end`` (25), a joker
    ``joker_rack_value_end`` (50), a fixed joker what its tile costs.  Pass
    ``atu_twin=True`` for the twin of the face-up atu: it costs
    ``atu_twin_rack_value_end`` when that knob is set (25 in ``online``), else its
    normal value.
    """
    require_ruleset(rules)
    if not isinstance(tile, Tile):
        raise TypeError(f"expected a Tile, not {type(tile).__name__}")
    if atu_twin and rules.atu_twin_rack_value_end is not None and not tile.is_joker:
        return rules.atu_twin_rack_value_end
    acting = tile.acts_as
    if acting is None:
        return rules.joker_rack_value_end
    rank = acting.rank
    assert rank is not None
    if rank == 1:
        return rules.ace_rack_value_end
    return 10 if rank >= 10 else 5
