"""How long a round can last: :func:`round_step_bound`, the documented bound B(rules).

Every :class:`~remi_rules.Ruleset` that validates (docs/rulesets.md, "Combinations
that cannot be played") has a bound on the steps of a round, and this module says
what it is and why.  Bots, simulations and servers may rely on it: a round whose
record grows past the bound is an engine bug.

>>> from remi_rules import variants
>>> round_turn_bound(variants.get("clasic"), 4), round_step_bound(variants.get("clasic"), 4)
(160, 465)
"""

from __future__ import annotations

from ..errors import EngineArgumentError, EngineErrorCode
from ..ruleset import Ruleset, StockExhausted, require_ruleset

__all__ = ["round_step_bound", "round_turn_bound"]

_TILES = 106
_NUMBERED_VALUES = 52  # id // 2 of the 104 numbered tiles: the doubles there can be


def _players(players: object) -> tuple[int, ...]:
    if players is None:
        return (2, 3, 4)
    if type(players) is not int:
        raise TypeError(f"players must be 2, 3, 4 or None, not {type(players).__name__}")
    if not 2 <= players <= 4:
        raise EngineArgumentError(EngineErrorCode.PLAYERS, players=players)
    return (players,)


def _turns(rules: Ruleset, players: int) -> int:
    cap = rules.max_turns_per_round
    if rules.stock_exhausted is StockExhausted.RESHUFFLE_DISCARDS:
        assert cap is not None  # the Ruleset refuses a reshuffled stock without a cap
        return cap
    starter, others = rules.hand_sizes
    stock = _TILES - starter - (players - 1) * others - 1
    # The starter's first turn; a turn per drawn tile (the stock never grows under
    # END-01); a turn per tile put on the table by a take from the row (its tile
    # goes into a meld or onto one, and the table never shrinks); a turn per seat
    # that declares pe tablă by keeping a taken tile (a declarer's take from the row
    # must close, RUPE-07); the taken atu closes (ATU-06).
    turns = 1 + stock + _TILES + players + 1
    return turns if cap is None else min(cap, turns)


def round_turn_bound(rules: Ruleset, players: int | None = None) -> int:
    """The most turns a round of ``players`` seats (``None``: the largest over 2-4)
    can last under ``rules``: ``max_turns_per_round`` where the stock is reshuffled
    (END-02, END-04); otherwise at most one turn per tile of the stock, one per tile
    that a take from the row puts on the table, one per seat that declares pe tablă
    by taking, the starter's first and the atu's, and never more than the cap."""
    rules = require_ruleset(rules)
    return max(_turns(rules, p) for p in _players(players))


def round_step_bound(rules: Ruleset, players: int | None = None) -> int:
    """B(rules): the most steps a round of ``players`` seats (``None``: the largest
    over 2-4) can last under ``rules``, from the deal to its end.

    It counts every step of :class:`~remi_rules.engine.GameRecord.steps` (automatic
    ones included) of a play **without** :class:`~remi_rules.engine.Undo` (an undone
    step and the undo are not counted: undos are bounded per turn by the engine, not
    here), and it counts from the last deal: a
    :class:`~remi_rules.engine.DemandRedeal` deals again (DUBLE-05) and starts the
    count anew.  With T = :func:`round_turn_bound`, L = ``joker_swap_limit`` and p
    the number of seats::

        B = 2 T                 a take and a discard or close per turn
          + 106 + 2 L           melds and lay-offs: each puts a tile or more on the
                                table, and only a swap takes a tile (a joker) back
          + 2 L                 swaps: each of the 2 jokers leaves the table L times
          + 2 p + 1             few-tiles announcements and pe-tablă declarations
                                (once per seat), the atu announcement (once)
          + 26                  doubles exchanges (each spends two of the 52 values)

    No play can be longer: either the round has ended by then, or the player to
    move is stuck in a turn he has spoilt and must undo (a bot that plans its turn,
    such as :class:`~remi_rules.bots.GreedyBot`, never is).

    >>> from remi_rules import variants
    >>> round_step_bound(variants.get("online"), 2) == 2 * 400 + 106 + 4 * 1 + 5 + 26
    True
    """
    rules = require_ruleset(rules)
    swaps = 2 * rules.joker_swap_limit
    return max(
        2 * _turns(rules, p) + (_TILES + swaps) + swaps + (2 * p + 1) + _NUMBERED_VALUES // 2
        for p in _players(players)
    )
