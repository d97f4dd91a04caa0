"""How a hint values things (ONLINE-06): finished turns, tiles to keep, and the cheap
tests and bounds that let the search skip what cannot win.

* :func:`turn_score` values a finished candidate turn: a close by the seat's real round
  score, else the etalare points put down, an opening and what the rack would cost at
  the end (:class:`Costs`, worked out once per hint call).
* :class:`Keeper` orders a rack for the discard: jokers last, then tiles that go with
  others, or whose partners are still unseen.
* Necessary conditions, cheaper than the rules they stand for: :class:`TakeCheck` and
  :func:`could_justify` (a taken tile can go into a justifying meld), :class:`Pool`
  and :func:`never_placed` (a tile can go into some meld at all), :func:`most_worth`
  (the most a tile is worth); :func:`extensions` lists the rack values that may be
  laid off on a meld.  They over-estimate what a candidate can reach, so a search that
  skips what they rule out finds the same best turn.

Everything here is a pure function of its arguments, or (:class:`Keeper`,
:class:`Costs`) memoised for one hint call only.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Final

from ._placeable import _ACTING, Pool, never_placed
from .engine import GameState, score_state
from .melds import Meld, MeldKind
from .ruleset import Ruleset
from .scoring import RoundResult
from .table import Table
from .tiles import FULL_SET, JOKER_CODE, JOKER_IDS, Tile
from .values import rack_value_end

__all__ = [
    "NEAR",
    "Costs",
    "Held",
    "Keeper",
    "Pool",
    "TakeCheck",
    "could_justify",
    "extensions",
    "most_worth",
    "never_placed",
    "partners_all",
    "turn_score",
    "values_of",
]

_FIRST_JOKER: Final = JOKER_IDS[0]


def values_of(table: Table, ids: Iterable[int]) -> list[Tile]:
    """The tile values of physical tiles ``ids`` on ``table`` (:meth:`Table.tile`, the
    numbered tiles looked up directly: the hint asks for them all the time)."""
    return [FULL_SET[i] if i < _FIRST_JOKER else table.tile(i) for i in ids]


CLOSE_BONUS: Final = 100_000.0
"""Added to a close's round score: a close beats every turn that does not close."""
OPENING_BONUS: Final = 150.0
"""Added when the turn makes the seat's first etalare."""
RACK_WEIGHT: Final = 0.25
"""What a point of end-of-round rack cost weighs against a point put down."""


def _near_ranks(rank: int) -> frozenset[int]:
    """The ranks within two places of ``rank`` in a run (the ace at both ends)."""
    out: set[int] = set()
    for place in (rank, 14) if rank == 1 else (rank,):
        for step in (-2, -1, 1, 2):
            other = place + step
            if 1 <= other <= 13:
                out.add(other)
            elif other == 14:
                out.add(1)
    out.discard(rank)
    return frozenset(out)


NEAR: Final = (frozenset[int](), *(_near_ranks(r) for r in range(1, 14)))
"""``NEAR[rank]``: the ranks a tile of ``rank`` may share a run with, two places away
at most."""
_NEAR_LISTS: Final = tuple(tuple(sorted(ranks)) for ranks in NEAR)


class Costs:
    """For one hint call: what each tile value would cost on the rack at the end
    (:func:`~remi_rules.values.rack_value_end`), and the round's score of a position
    that ends the round (:func:`~remi_rules.engine.score_state`), each worked out once."""

    def __init__(self, rules: Ruleset) -> None:
        self.rules = rules
        self._costs: dict[int, int] = {}
        self._results: dict[int, tuple[GameState, RoundResult]] = {}

    def __call__(self, tile: Tile) -> int:
        cost = self._costs.get(tile._code)
        if cost is None:
            cost = self._costs[tile._code] = rack_value_end(tile, self.rules)
        return cost

    def result(self, state: GameState) -> RoundResult:
        """The score of the round ``state`` has ended."""
        found = self._results.get(id(state))
        if found is None or found[0] is not state:
            found = (state, score_state(state))
            self._results[id(state)] = found
        return found[1]


def turn_score(
    state: GameState, points: int, seat: int, opened_before: bool, costs: Costs
) -> float:
    """A finished turn's valuation for ``seat``: a close by the seat's real round score
    (plus :data:`CLOSE_BONUS` for the closer); else the ``points`` put down, an opening
    (``opened_before``: the seat had opened before the turn) and a quarter of what the
    rack would cost at the end (``costs``)."""
    if state.end is not None:
        mine = costs.result(state).seats[seat].total
        return CLOSE_BONUS + mine if state.end.closer == seat else float(mine)
    me = state.seats[seat]
    score = float(points)
    if me.opened:
        score -= RACK_WEIGHT * sum(map(costs, values_of(state.table, me.rack)))
        if not opened_before:
            score += OPENING_BONUS
    return score


def partners_all(tiles: Sequence[Tile]) -> list[int]:
    """For each tile of ``tiles``, how many of the others go with it: a joker with
    all; else a joker, the same rank in another colour, or the same colour within two
    ranks (:data:`NEAR`), counted in one pass."""
    jokers = 0
    by_rank = [0] * 14
    by_colour = [[0] * 14 for _ in range(4)]
    places: list[tuple[int, int] | None] = []
    acting = _ACTING
    for tile in tiles:
        if tile._code >= JOKER_CODE:
            jokers += 1
            places.append(None)
            continue
        place = acting[tile._code]
        assert place is not None
        rank, colour = place
        by_rank[rank] += 1
        by_colour[colour][rank] += 1
        places.append(place)
    out: list[int] = []
    everyone = len(tiles) - 1
    near = _NEAR_LISTS
    for place in places:
        if place is None:
            out.append(everyone)
            continue
        rank, colour = place
        row = by_colour[colour]
        mates = jokers + by_rank[rank] - row[rank]
        for r in near[rank]:
            mates += row[r]
        out.append(mates)
    return out


class Keeper:
    """The discard order of a rack, for one hint call (the seat's unseen tiles fixed).

    :meth:`order` is memoised by the rack (the candidates of one hint end with the same
    few racks over and over), and each tile value's own part of its keep value too;
    the memos live as long as the hint call."""

    def __init__(self, costs: Costs, unseen_at: Sequence[Sequence[int]]) -> None:
        self.costs = costs
        self.unseen_at = unseen_at
        self._by_rank = [sum(row) for row in unseen_at]
        self._orders: dict[object, tuple[tuple[int, bool], ...]] = {}
        self._own: dict[int, tuple[float, float]] = {}

    def outs(self, tile: Tile) -> int:
        """How many unseen tiles would go with ``tile`` in a meld: its rank in the
        other colours, its colour within two ranks."""
        place = _ACTING[tile._code]
        assert place is not None
        unseen = self.unseen_at
        rank, colour = place
        outs = self._by_rank[rank] - unseen[rank][colour]
        for r in _NEAR_LISTS[rank]:
            outs += unseen[r][colour]
        return outs

    def order(self, rack: tuple[int, ...], tiles: Sequence[Tile]) -> tuple[tuple[int, bool], ...]:
        """The rack's positions, the first to discard first (the least keep value,
        then the smallest id), each with whether the tile goes with nothing else in
        the rack (``tiles``: the rack's values).

        The keep value: jokers always; then tiles that go with others in the rack
        (:func:`partners_all`), and those whose completing tiles are still unseen;
        of equally useless tiles, the costliest at the end goes first."""
        codes = [t._code for t in tiles]
        key: object = rack if max(codes, default=0) < JOKER_CODE else (rack, tuple(codes))
        found = self._orders.get(key)
        if found is None:
            mates = partners_all(tiles)
            own = self._own
            keys: list[float] = []
            for tile, code, near in zip(tiles, codes, mates, strict=True):
                if code >= JOKER_CODE:
                    keys.append(1e6)
                    continue
                part = own.get(code)
                if part is None:
                    part = own[code] = (0.5 * self.outs(tile), 0.2 * self.costs(tile))
                keys.append(10.0 * near + part[0] - part[1])
            ranked = sorted(zip(keys, rack, range(len(rack)), strict=True))
            found = tuple((k, mates[k] == 0) for _, _, k in ranked)
            self._orders[key] = found
        return found


class TakeCheck:
    """A cheap necessary condition for a taken tile to go into a new meld with tiles
    of one rack (RUPE-01), the rack looked at once for every tile asked about:
    enough rack tiles of the tile's rank in other colours, or of its colour within two
    ranks (any rank when ``bridged``: the later tiles a rupere brings may fill the gaps
    of a run), jokers counting for either."""

    def __init__(self, rack: Sequence[Tile], rules: Ruleset) -> None:
        self.need = max(2, rules.take_meld_min_own_tiles)
        self.jokers = 0
        self.colours_at: list[set[int]] = [set() for _ in range(14)]
        self.ranks_in: list[set[int]] = [set() for _ in range(4)]
        for tile in rack:
            act = tile.acts_as
            if act is None or act.rank is None or act.color is None:
                self.jokers += tile.is_joker and act is None
                continue
            self.colours_at[act.rank].add(act.color.index)
            self.ranks_in[act.color.index].add(act.rank)

    def __call__(self, picked: Tile, *, bridged: bool = False) -> bool:
        acts = picked.acts_as
        if acts is None or acts.rank is None or acts.color is None:
            return True
        rank, colour = acts.rank, acts.color.index
        need = self.need - self.jokers
        same_rank = self.colours_at[rank]
        if len(same_rank) - (colour in same_rank) >= need:
            return True
        ranks = self.ranks_in[colour]
        near = len(ranks) - (rank in ranks) if bridged else len(ranks & NEAR[rank])
        return near >= need


def could_justify(
    picked: Tile, own: Sequence[Tile], others: Sequence[Tile], rules: Ruleset
) -> bool:
    """A necessary condition for ``picked`` to go into a new meld that justifies its
    take (RUPE-01): a set of its rank, or a run of its colour with no more gaps than
    the jokers can fill, from the tiles ``own`` (the rack) and ``others`` (the rest the
    take brings), holding at least ``take_meld_min_own_tiles`` own tiles (the taken
    ones count as own when ``take_meld_tiles_must_predate_take`` is off; jokers when
    ``take_meld_joker_counts_as_own``).  Looser than the rule (joker limits, the tiles
    left on the rack): it only rules out what no meld can do."""
    place = _ACTING[picked._code]
    if place is None:
        return True
    rank, colour = place
    need = rules.take_meld_min_own_tiles
    jokers_own = rules.take_meld_joker_counts_as_own
    ace_high = rules.ace_high_run
    jokers = own_jokers = 0
    pool_colours: set[int] = set()
    own_colours: set[int] = set()
    pool_run = [False] * 16
    own_run = [False] * 16
    for tiles, mine in ((own, True), (others, not rules.take_meld_tiles_must_predate_take)):
        for tile in tiles:
            counts = mine and (jokers_own or not tile.is_joker)
            at = _ACTING[tile._code]
            if at is None:
                jokers += 1
                own_jokers += counts
                continue
            r, c = at
            if r == rank and c != colour:
                pool_colours.add(c)
                if counts:
                    own_colours.add(c)
            if c == colour:
                for q in (1, 14) if r == 1 and ace_high else (r,):
                    pool_run[q] = True
                    own_run[q] = own_run[q] or counts
    jokers = min(jokers, 2)
    own_jokers = min(own_jokers, jokers)
    if len(pool_colours) + jokers >= 2 and len(own_colours) + own_jokers >= need:
        return True
    top = 14 if ace_high else 13
    for p in (1, 14) if rank == 1 and ace_high else (rank,):
        for lo in range(max(1, p - 12), p + 1):
            gaps = owned = 0
            for q in range(lo, min(top, lo + 12) + 1):
                if q != p:
                    if pool_run[q]:
                        owned += own_run[q]
                    else:
                        gaps += 1
                        if gaps > jokers:
                            break
                if q >= p and q - lo >= 2 and owned + own_jokers >= need:
                    return True
    return False


class Held:
    """A rack's values looked up the ways :func:`extensions` asks: each distinct value
    once, in the order of first appearance (which of two values standing for the same
    tile, 8R and J(=8R), extends a run depends on it)."""

    def __init__(self, values: Iterable[Tile]) -> None:
        self.tiles = list({t._code: t for t in values}.values())
        self.by_rank: list[list[Tile]] = [[] for _ in range(14)]
        self.run_tile: list[dict[int, Tile]] = [{} for _ in range(4)]
        self.ace: list[Tile | None] = [None] * 4
        self.alike: dict[tuple[int, int], list[Tile]] = {}
        """By the place (rank, colour index) they act as, the values standing for it."""
        acting = _ACTING
        for tile in self.tiles:
            place = acting[tile._code]
            if place is None:
                continue
            rank, colour = place
            self.by_rank[rank].append(tile)
            self.alike.setdefault(place, []).append(tile)
            if rank != 1:
                self.run_tile[colour][rank] = tile  # the last one, as a dict built in order
            elif self.ace[colour] is None:
                self.ace[colour] = tile


def extensions(info: Meld, size: int, held: Held) -> Iterator[tuple[Tile, int]]:
    """Rack values that could be laid on the meld ``info`` (of ``size`` tiles),
    directly or once other rack values have extended it (a run grows end by end), with
    their VALUE-01 worth there."""
    if info.kind is MeldKind.TERTA:
        if size >= 4:
            return
        present = 0
        for t in info.tiles:
            place = _ACTING[t._code]
            if place is not None:
                present |= 1 << place[1]
        worth = 25 if info.low == 1 else 10 if info.low >= 10 else 5
        for tile in held.by_rank[info.low]:
            place = _ACTING[tile._code]
            assert place is not None
            if not present >> place[1] & 1:
                yield tile, worth
        return
    assert info.color is not None
    colour = info.color.index
    low, high = info.low, info.high
    rank_tile = held.run_tile[colour]
    ace = held.ace[colour]
    r = high + 1
    while r <= 13 and r in rank_tile:
        yield rank_tile[r], 10 if r >= 10 else 5
        r += 1
    if r == 14 and ace is not None:
        yield ace, 10
    r = low - 1
    while r >= 2 and r in rank_tile:
        yield rank_tile[r], 10 if r >= 10 else 5
        r -= 1
    if r == 1 and ace is not None and low > 1:
        yield ace, 5


def most_worth(tile: Tile) -> int:
    """The most etalare points ``tile`` is worth in any meld or lay-off (VALUE-01): an
    ace or a joker 25 (in a set of aces), a 10 to 13 10, else 5."""
    return _MOST_WORTH[tile._code]


_MOST_WORTH: Final = {
    code: 25 if place is None or place[0] == 1 else 10 if place[0] >= 10 else 5
    for code, place in _ACTING.items()
}
""":func:`most_worth` by tile value (its code)."""
