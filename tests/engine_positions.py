"""Positions of the worked examples (RULES.md §5), reached by playing from explicit
deals: shared by the engine's scenario tests and the hint's tests.

Seat 0 (P) starts; in a two-player deal the opponent (Q) holds every other player's
melds of the example.
"""

from __future__ import annotations

from typing import Any

import attrs
from engine_deals import Spec, announce, discard, new_game, play

from remi_rules import Ruleset, Tile, tile_of, variants
from remi_rules.engine import Game

__all__ = [
    "EX33_OPENING",
    "P_OPENING_11",
    "P_OPENING_12",
    "announce_if_due",
    "ex15",
    "ex19",
    "ex20",
    "open_p",
    "p_with_full_rights",
    "p_with_three",
    "preset",
    "rack",
    "same",
    "text",
]


def preset(name: str, **knobs: Any) -> Ruleset:
    rules = variants.get(name)
    return attrs.evolve(rules, **knobs) if knobs else rules


def text(tile_ids: tuple[int, ...] | list[int]) -> str:
    return " ".join(str(tile_of(i)) for i in tile_ids)


def rack(game: Game, seat: int) -> list[str]:
    return sorted(str(tile_of(i)) for i in game.state.rack(seat))


def same(tile_id: int | None, notation: str) -> bool:
    return tile_id is not None and tile_of(tile_id) == Tile.parse(notation)


def announce_if_due(game: Game, seat: int) -> None:
    """Announce few tiles for ``seat`` if its rack is at the preset's threshold."""
    if len(game.state.rack(seat)) <= game.rules.announce_threshold:
        play(game, announce(seat))


# P (seat 0) opens in his second turn with four melds that take none of the tiles
# below; he ends that turn with exactly the tiles an example gives him.
P_OPENING_12 = ("11A 12A 13A", "3G 4G 5G", "10R 10G 10N", "7A 7N 7G")


def open_p(melds: tuple[str, ...]) -> str:
    return "draw; " + "; ".join(f"meld {m}" for m in melds) + "; discard"


def ex19(rules: Ruleset, kept: str, q_discard: str, p_draw: str) -> Game:
    # Q (seat 1) opens with 6R 7R 8R + 9R 9A 9N (+ 11G 12G 13G for online and rummy45's
    # 45 and set) and then discards q_discard; P holds `kept` with full rights.
    p_rack = "2N " + " ".join(P_OPENING_12) + " " + kept
    game = new_game(
        rules,
        players=2,
        racks={0: p_rack, 1: f"6R 7R 8R 9R 9A 9N 11G 12G 13G {q_discard}"},
        stock=f"2A 13N 4N {p_draw}",
    )
    play(game, "discard 2N", "draw; discard", open_p(P_OPENING_12))
    announce_if_due(game, 0)
    play(game, "draw; meld 6R 7R 8R; meld 9R 9A 9N; meld 11G 12G 13G", discard(q_discard))
    assert rack(game, 0) == sorted(kept.split())
    return game


# P's 11-tile opening for the examples where he keeps three tiles.
P_OPENING_11 = ("11A 12A 13A", "3G 4G 5G 6G 7G", "10R 10G 10N")


def p_with_three(rules: Ruleset, kept: str, q_tiles: str, q_first_discard: Spec) -> Game:
    """P (seat 0) opens in his second turn and then holds ``kept`` (3 tiles), with
    full rights from his next turn; Q (seat 1) made ``q_first_discard`` in his first
    turn.  It is then Q's second turn."""
    p_rack = "2N " + " ".join(P_OPENING_11) + " " + kept
    game = new_game(rules, players=2, racks={0: p_rack, 1: q_tiles}, stock="2A 13N 4N 9A")
    play(game, "discard 2N", "draw", q_first_discard, open_p(P_OPENING_11))
    assert rack(game, 0) == sorted(kept.split())
    return game


def ex20(rules: Ruleset, *, announced: bool, rupere_at_older: bool = False) -> Game:
    # Q discards 6R in his second turn (the last discard), or in his first turn (an
    # older tile) and then the 4N he draws.
    first, second = (discard("6R"), discard()) if rupere_at_older else (discard(), discard("6R"))
    game = p_with_three(rules, "5R 7R 2N", "6R", first)
    if announced:
        announce_if_due(game, 0)
    play(game, "draw", second)
    return game


def p_with_full_rights(
    rules: Ruleset,
    opening: tuple[str, ...],
    kept: str,
    *,
    q_tiles: str = "",
    q_melds: tuple[str, ...] = (),
    atu: str | None = None,
    stock: str = "2A 13N 4N 9A 12R 6A 11G",
) -> Game:
    """P (seat 0) opens with ``opening`` in his second turn and then holds ``kept``;
    Q (seat 1) opens with ``q_melds`` in his second turn (or only draws).  After this
    it is P's turn, with full rights."""
    p_rack = "2N " + " ".join(opening) + " " + kept
    game = new_game(rules, players=2, racks={0: p_rack, 1: q_tiles}, atu=atu, stock=stock)
    play(game, "discard 2N", "draw; discard", open_p(opening))
    announce_if_due(game, 0)
    if q_melds:
        play(game, "draw; " + "; ".join(f"meld {m}" for m in q_melds) + "; discard")
    else:
        play(game, "draw; discard")
    assert rack(game, 0) == sorted(kept.split())
    return game


EX33_OPENING = ("1R 2R 3R", "10R 10A 10N", "4G 4A 4R")  # 60, takes none of P's tiles


def ex15(rules: Ruleset, others: str) -> Game:
    # P (seat 0) is unopened; seat 1 discards 8R in its first turn.
    game = new_game(rules, players=2, racks={0: f"6R 7R {others}", 1: "8R"}, stock="5N 13A")
    play(game, "discard", "draw; discard 8R")
    return game
