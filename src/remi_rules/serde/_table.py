"""The table of a saved document made whole: its melds re-analysed under the document's
rules (a meld's analysis is derived, never saved) and checked against them, with the
jokers' histories.  The converter (:mod:`._convert`) calls :func:`table_of` once the
table's fields have their shape."""

from __future__ import annotations

from typing import Any

from ..errors import InvalidMeldError
from ..melds import analyze_meld
from ..ruleset import Ruleset, SwappedJokerMode, SwapReplacementCredit
from ..table import JokerHistory, Table, TableMeld, tile_value_of
from ..tiles import JOKER_IDS
from ._bounds import _S, _refuse_meaning

__all__ = ["table_of"]


def table_of(fields: dict[str, Any], rules: Ruleset) -> Table:
    """The :class:`Table` of a saved table's fields (``melds``: each meld's saved fields;
    ``jokers``: the two histories): each meld re-analysed from its tiles (a fixed
    joker's value from the jokers' histories) and refused if invalid or not in table
    order, the credits and the joker histories checked against the rules.  The paths
    of the refusals are below the table, in this order: the melds one by one, the
    jokers, then the swaps the replacements add up to."""
    jokers: tuple[JokerHistory, JokerHistory] = fields["jokers"]
    melds = tuple(
        _meld(meld, f".melds[{m}]", jokers, rules) for m, meld in enumerate(fields["melds"])
    )
    fixed_mode = rules.swapped_joker_mode is SwappedJokerMode.FIXED_IDENTITY
    for j, history in enumerate(jokers):
        at = f".jokers[{j}]"
        if history.swaps > rules.joker_swap_limit:
            _refuse_meaning(
                _S.OUT_OF_RANGE,
                f"{at}.swaps",
                value=history.swaps,
                lo=0,
                hi=rules.joker_swap_limit,
            )
        if history.fixed_as is not None and not (fixed_mode and history.swaps):
            _refuse_meaning(_S.BAD_VALUE, f"{at}.fixed_as", why="fixed_only_swapped")
        if history.fixed_as is None and fixed_mode and history.swaps:
            _refuse_meaning(_S.BAD_VALUE, f"{at}.fixed_as", why="swapped_is_fixed")
    replaced = sum(len(meld.replacements) for meld in melds)
    swaps = sum(h.swaps for h in jokers)
    if replaced != swaps:
        _refuse_meaning(_S.BAD_VALUE, ".jokers", why="replacements", replaced=replaced, swaps=swaps)
    return Table(melds=melds, jokers=jokers)


def _meld(
    meld: dict[str, Any], at: str, jokers: tuple[JokerHistory, JokerHistory], rules: Ruleset
) -> TableMeld:
    ids, owner = meld["ids"], meld["owner"]
    for key in ("credited", "placed_by"):
        if len(meld[key]) != len(ids):
            _refuse_meaning(
                _S.BAD_VALUE,
                f"{at}.{key}",
                why="entries_per_tile",
                count=len(meld[key]),
                tiles=len(ids),
            )
    tiles = tuple(tile_value_of(i, jokers) for i in ids)
    try:
        analysis = analyze_meld(tiles, rules)
    except InvalidMeldError as err:
        _refuse_meaning(
            _S.BAD_VALUE, f"{at}.ids", why="invalid_meld", cause=err, meld_code=err.code.value
        )
    if analysis.tiles != tiles:
        _refuse_meaning(_S.BAD_VALUE, f"{at}.ids", why="table_order")
    replacements = meld["replacements"]
    for k, tile_id in enumerate(sorted(replacements)):
        if tile_id not in ids or tile_id in JOKER_IDS:
            _refuse_meaning(
                _S.BAD_VALUE, f"{at}.replacements[{k}]", why="not_a_real_tile", tile_id=tile_id
            )
    to_owner = rules.swap_replacement_credited_to is SwapReplacementCredit.MELD_OWNER
    for i, (tile_id, credited, placed) in enumerate(
        zip(ids, meld["credited"], meld["placed_by"], strict=True)
    ):
        want = owner if tile_id in replacements and to_owner else placed
        if credited != want:
            _refuse_meaning(_S.BAD_VALUE, f"{at}.credited[{i}]", why="credited", seat=want)
    return TableMeld(meld=analysis, **meld)
