"""What a page is sent besides the protocol's own messages: the finishable flags of
the legal steps, the 106 tiles, the melds with
the library's analysis, and a spectator's part of a view.  Presentation only: no rule."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .. import _i18n as i18n
from .. import serde
from ..engine import Game, Step
from ..tiles import tile_of

__all__ = ["finishable", "ids_in", "melds", "spectator_view", "tile_table"]


def finishable(game: Game, seat: int, steps: Sequence[Step]) -> list[bool | None]:
    """For each of ``steps`` (the seat's legal steps), whether it still lets the turn
    end: the protocol's finishable flags, from ``game.legal_steps(seat,
    finishable=True)`` (one call for the list) or else ``game.is_finishable(step)``;
    ``None`` for each while the engine has neither (a feature check: the flags appear
    as soon as the engine offers them)."""
    check: Callable[[Step], object] | None = getattr(game, "is_finishable", None)
    if check is None:
        return [None] * len(steps)
    listing: Callable[..., Sequence[Step]] = game.legal_steps
    try:
        keep = set(listing(seat, finishable=True))
    except TypeError:  # is_finishable without the keyword
        return [bool(check(step)) for step in steps]
    return [step in keep for step in steps]


def tile_table() -> list[dict[str, Any]]:
    """The 106 physical tiles for a page: ``{"id", "text", "color", "rank", "joker"}``,
    from :func:`remi_rules.tile_of` (the ids are fixed; this is no rule)."""
    out: list[dict[str, Any]] = []
    for i in range(106):
        tile = tile_of(i)
        out.append(
            {
                "id": i,
                "text": str(tile),
                "color": None if tile.color is None else str(tile.color.value),
                "rank": tile.rank,
                "joker": tile.is_joker,
            }
        )
    return out


def ids_in(step: dict[str, Any]) -> frozenset[int]:
    """The tile ids a step's JSON names (``tile``, ``tiles``, ``joker``)."""
    ids: set[int] = set()
    for key in ("tile", "joker"):
        value = step.get(key)
        if type(value) is int:
            ids.add(value)
    tiles = step.get("tiles")
    if isinstance(tiles, list):
        ids.update(t for t in tiles if type(t) is int)
    return frozenset(ids)


def spectator_view(game: Game) -> dict[str, Any]:
    """The public part of a view, for a spectator: the current player's view without
    its rack, its turn's rack, its doubles and the tile of its open offer of a double
    (the library has no spectator view)."""
    data = serde.dump_view(game.view(game.state.current), with_rules=False)
    for key in ("rack", "own_turn", "own_exchanged"):
        data.pop(key, None)
    data["offers"] = [{**offer, "tile": None} for offer in data.get("offers", [])]
    data["seat"] = None
    return data


def melds(game: Game, lang: str) -> list[dict[str, Any]]:
    """The melds on the table as the page shows them: owner, ids, and from the library's
    analysis (:class:`remi_rules.melds.Meld`) the kind, the points and each joker's slot."""
    table = game.state.table
    out: list[dict[str, Any]] = []
    for meld in table.melds:
        analysed = meld.meld
        out.append(
            {
                "owner": meld.owner,
                "ids": list(meld.ids),
                "text": [str(table.tile(i)) for i in meld.ids],
                "kind": analysed.kind.value,
                "points": analysed.points,
                "points_text": i18n.counted("points", analysed.points, lang),
                "jokers": [
                    {
                        "position": slot.position,
                        "id": meld.ids[slot.position],
                        "stands_for": [str(t) for t in slot.candidates],
                    }
                    for slot in analysed.jokers
                ],
            }
        )
    return out
