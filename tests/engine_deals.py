"""A test helper for the engine: deals written in tile notation, and short scripts of
steps written in notation too.

* :func:`build_deal` makes the 106 ids a :meth:`Game.new <remi_rules.engine.Game.new>`
  ``deal`` expects from racks, an atu and the top (and bottom) of the stock written in
  tile notation.  A token is a tile (``7G``, ``J``: the first free physical copy, in
  the order racks of seat 0, 1, …, atu, stock, bottom) or an explicit id (``#49`` or
  the int ``49``).  Every other tile is filled in deterministically: the racks are
  padded to their sizes (``rules.hand_sizes``: the starter's, then the others') with
  tiles chosen not to form doubles, melds or near-melds with what the rack already
  holds, and the rest of the stock follows the named top, jokers last, then the
  named bottom.
* :func:`new_game` deals such a round.
* Steps are written with helpers that pick physical ids from the rack when the step
  is applied (``meld("6R 7R 8R")``, ``lay("13N", on="10N 11N 12N")``,
  ``discard("8G")``), or as compact strings (``"draw"``, ``"meld 6R 7R 8R"``,
  ``"lay 13N on 2 high"``, ``"discard"`` for the tile just drawn).  :func:`play`
  applies them and returns the events; :func:`illegal` checks that a step is refused
  with a given code and changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

import attrs
import pytest

from remi_rules import Ruleset, Tile, ids_of, tile_of, variants
from remi_rules.engine import (
    STEP_TYPES,
    AcceptDoubles,
    AnnounceAtu,
    AnnounceFewTiles,
    Automation,
    Close,
    DeclarePeTabla,
    DemandRedeal,
    Discard,
    Draw,
    Event,
    Game,
    GameState,
    LayOff,
    MeldTiles,
    OfferDoubles,
    Rupere,
    Step,
    SwapJoker,
    TakeAtu,
    TakeLastDiscard,
    Undo,
)
from remi_rules.errors import IllegalStepError
from remi_rules.lipire import End
from remi_rules.tiles import JOKER_IDS

__all__ = [
    "Spec",
    "accept",
    "announce",
    "announce_atu",
    "build_deal",
    "close",
    "declare",
    "discard",
    "draw",
    "exchange",
    "ids",
    "illegal",
    "lay",
    "meld",
    "meld_index",
    "new_game",
    "offer",
    "play",
    "redeal",
    "resolve",
    "rupere",
    "swap",
    "take",
    "take_atu",
    "undo",
]

Tokens = str | Sequence[str | int] | None

# Rack filler preference: middle ranks first, aces last (they score specially).
_RANK_ORDER = (7, 10, 4, 13, 5, 11, 8, 2, 12, 9, 3, 6, 1)


def _tokens(spec: Tokens) -> list[str | int]:
    if spec is None:
        return []
    if isinstance(spec, str):
        return list(spec.replace(",", " ").split())
    return list(spec)


def _explicit(token: str | int) -> int | None:
    if isinstance(token, int):
        return token
    if token.startswith("#"):
        return int(token[1:])
    return None


class _Allocator:
    """Hands out physical ids: explicit ones as given, notation the first free copy."""

    def __init__(self, reserved: Iterable[int]) -> None:
        self.used: set[int] = set()
        self.reserved = set(reserved)

    def take(self, token: str | int) -> int:
        explicit = _explicit(token)
        if explicit is not None:
            if explicit in self.used:
                raise ValueError(f"tile id {explicit} is named twice")
            self.used.add(explicit)
            return explicit
        assert isinstance(token, str)
        for i in ids_of(Tile.parse(token)):
            if i not in self.used and i not in self.reserved:
                self.used.add(i)
                return i
        raise ValueError(f"no free copy of {token} left")


def _rank(i: int) -> int:
    rank = tile_of(i).rank
    assert rank is not None
    return rank


def _colour(i: int) -> int:
    return (i % 8) // 2


def _near(a: int, b: int) -> bool:
    """Two numbered tiles that could share a run (same colour, ranks ≤ 2 apart, the
    ace also after the 13) or a set (same rank)."""
    ra, rb = _rank(a), _rank(b)
    if ra == rb:
        return True
    if _colour(a) != _colour(b):
        return False
    ranks_a = {ra, 14} if ra == 1 else {ra}
    ranks_b = {rb, 14} if rb == 1 else {rb}
    return any(abs(x - y) <= 2 for x in ranks_a for y in ranks_b)


def _fits(candidate: int, rack: list[int], level: int) -> bool:
    """Level 0: no double, no set, no run can grow out of the rack with this tile;
    level 1: no double and no set; level 2: no double."""
    if any(i // 2 == candidate // 2 for i in rack):
        return False  # never a double by accident
    if level >= 2:
        return True
    numbered = [i for i in rack if i not in JOKER_IDS]
    joker = len(numbered) < len(rack)
    same_rank = sum(1 for i in numbered if _rank(i) == _rank(candidate))
    if same_rank >= (1 if joker else 2):
        return False  # a third colour of a rank (or a joker) would make a set
    if level == 1:
        return True
    return not any(_near(candidate, i) and _rank(i) != _rank(candidate) for i in numbered)


def build_deal(
    players: int = 4,
    starter: int = 0,
    racks: Mapping[int, Tokens] | None = None,
    atu: str | int | None = None,
    stock: Tokens = None,
    bottom: Tokens = None,
    rules: Ruleset | None = None,
) -> tuple[int, ...]:
    """The 106 ids of a deal for ``Game.new(rules, players, deal=..., starter=starter)``.

    ``racks`` maps a seat to its named tiles (the rest is filler); ``atu`` is the
    face-up tile (default: a filler tile whose twin stays in the stock); ``stock``
    the top of the stock, next to draw first; ``bottom`` the last tiles of the stock.
    The hand sizes come from ``rules`` (default: clasic's 15 and 14)."""
    rules = rules or variants.get("clasic")
    racks = dict(racks or {})
    if not 2 <= players <= 4 or not 0 <= starter < players:
        raise ValueError("bad players or starter")
    sizes = [rules.hand_sizes[0] if s == starter else rules.hand_sizes[1] for s in range(players)]
    named = {s: _tokens(racks.get(s)) for s in range(players)}
    atu_tokens: list[str | int] = [] if atu is None else [atu]
    top, low = _tokens(stock), _tokens(bottom)
    every = [t for s in range(players) for t in named[s]] + atu_tokens + top + low
    alloc = _Allocator(e for t in every if (e := _explicit(t)) is not None)
    rack_ids = {s: [alloc.take(t) for t in named[s]] for s in range(players)}
    for s in range(players):
        if len(rack_ids[s]) > sizes[s]:
            raise ValueError(f"seat {s} is dealt {sizes[s]} tiles, not {len(rack_ids[s])}")
    atu_id = alloc.take(atu_tokens[0]) if atu_tokens else None
    top_ids = [alloc.take(t) for t in top]
    low_ids = [alloc.take(t) for t in low]
    used = set(alloc.used)

    free = [i for i in range(106) if i not in used]
    if atu_id is None:
        atu_id = next(
            i
            for i in sorted(free, key=lambda i: (_RANK_ORDER.index(_rank(i)) if i < 104 else 99, i))
            if i not in JOKER_IDS and i ^ 1 in free and _rank(i) != 1
        )
        free.remove(atu_id)
        used.add(atu_id)
    twin = atu_id ^ 1
    filler = sorted(
        (i for i in free if i not in JOKER_IDS and i != twin),
        key=lambda i: (_RANK_ORDER.index(_rank(i)), _colour(i), i),
    )
    for s in range(players):
        rack = rack_ids[s]
        for level in (0, 1, 2):
            for i in list(filler):
                if len(rack) >= sizes[s]:
                    break
                if _fits(i, rack, level):
                    rack.append(i)
                    filler.remove(i)
        used.update(rack)
        if len(rack) < sizes[s]:  # huge hands: the twin and the jokers too
            spare = [i for i in range(106) if i not in used and i not in filler] + filler
            for i in spare[: sizes[s] - len(rack)]:
                rack.append(i)
                if i in filler:
                    filler.remove(i)
            used.update(rack)
        if len(rack) < sizes[s]:
            raise ValueError(f"cannot pad seat {s} to {sizes[s]} tiles")
    rest = sorted(i for i in range(106) if i not in used)
    rest_numbered = [i for i in rest if i not in JOKER_IDS]
    rest_jokers = [i for i in rest if i in JOKER_IDS]
    order = [i for s in range(players) for i in rack_ids[s]]
    order += [atu_id, *top_ids, *rest_numbered, *rest_jokers, *low_ids]
    assert sorted(order) == list(range(106)), "the deal lost or doubled a tile"
    return tuple(order)


def new_game(
    rules: Ruleset,
    players: int = 4,
    starter: int = 0,
    racks: Mapping[int, Tokens] | None = None,
    atu: str | int | None = None,
    stock: Tokens = None,
    bottom: Tokens = None,
    automation: Automation | None = None,
    seed: int = 0,
) -> Game:
    """A round dealt by :func:`build_deal` under ``rules``; ``seed`` drives the
    chance events that may follow (a re-turned atu, a reshuffle, a redeal)."""
    deal = build_deal(players, starter, racks, atu, stock, bottom, rules)
    return Game.new(rules, players, deal=deal, starter=starter, automation=automation, seed=seed)


def ids(text: str) -> tuple[int, ...]:
    """Physical ids for a text, each token taking the next free copy (a table-free
    helper for assertions: ``ids("7G 7G")`` is both copies)."""
    alloc = _Allocator(())
    return tuple(alloc.take(t) for t in _tokens(text))


# -- steps in notation ------------------------------------------------------------------


Spec = Step | str | Callable[[GameState], Step]


@attrs.frozen
class _Spec:
    """A step to be resolved against the state when it is applied."""

    text: str
    make: Callable[[GameState], Step] = attrs.field(repr=False)

    def __call__(self, state: GameState) -> Step:
        return self.make(state)

    def __str__(self) -> str:
        return self.text


def _pick(rack: Sequence[int], tokens: Sequence[str | int], what: str) -> tuple[int, ...]:
    out: list[int] = []
    for token in tokens:
        explicit = _explicit(token)
        if explicit is not None:
            out.append(explicit)  # the engine judges whether it is on the rack
            continue
        assert isinstance(token, str)
        wanted = Tile.parse(token)
        found = next((i for i in rack if tile_of(i) == wanted and i not in out), None)
        if found is None:
            shown = " ".join(str(tile_of(i)) for i in rack)
            raise AssertionError(f"{what}: no {token} on the rack [{shown}]")
        out.append(found)
    return tuple(out)


def _norm(token: str) -> str:
    return "J" if token.startswith("J") else token


def meld_index(state: GameState, ref: int | str) -> int:
    """The index of a table meld given as an index or as its tiles (in any order; a
    joker is ``J``)."""
    if isinstance(ref, int):
        return ref
    wanted = sorted(_norm(t) for t in ref.split())
    for index, meld in enumerate(state.table.melds):
        if sorted(_norm(t) for t in str(meld.meld).split()) == wanted:
            return index
    shown = [str(m.meld) for m in state.table.melds]
    raise AssertionError(f"no meld {ref!r} on the table {shown}")


def _rack(state: GameState, seat: int | None = None) -> tuple[int, ...]:
    return state.rack(state.current if seat is None else seat)


def draw() -> Draw:
    return Draw()


def take() -> TakeLastDiscard:
    """Take the last discard."""
    return TakeLastDiscard()


def take_atu() -> TakeAtu:
    return TakeAtu()


def undo() -> Undo:
    return Undo()


def rupere(at: int | str) -> _Spec:
    """A rupere at row index ``at``, or at the newest row tile of that value."""

    def make(state: GameState) -> Step:
        if isinstance(at, int):
            return Rupere(at)
        wanted = Tile.parse(at)
        found = [k for k, i in enumerate(state.row) if tile_of(i) == wanted]
        if not found:
            raise AssertionError(f"rupere: no {at} in the row")
        return Rupere(found[-1])

    return _Spec(f"rupere {at}", make)


def meld(text: str) -> _Spec:
    """Meld these rack tiles, in this (table) order."""
    return _Spec(
        f"meld {text}", lambda state: MeldTiles(_pick(_rack(state), _tokens(text), "meld"))
    )


def lay(tile: str | int, on: int | str, end: str | End | None = None) -> _Spec:
    """Lay a rack tile on a table meld (an index or its tiles), at ``end`` if given."""
    side = End(end) if isinstance(end, str) else end

    def make(state: GameState) -> Step:
        (tile_id,) = _pick(_rack(state), [tile], "lay")
        return LayOff(tile_id, meld_index(state, on), side)

    return _Spec(f"lay {tile} on {on}", make)


def swap(tile: str | int, on: int | str, joker: int | None = None) -> _Spec:
    """Swap a rack tile for the joker of a table meld (its only joker unless given)."""

    def make(state: GameState) -> Step:
        (tile_id,) = _pick(_rack(state), [tile], "swap")
        index = meld_index(state, on)
        jokers = [i for i in state.table.melds[index].ids if i in JOKER_IDS]
        chosen = joker if joker is not None else jokers[0]
        return SwapJoker(tile_id, index, chosen)

    return _Spec(f"swap {tile} on {on}", make)


def discard(tile: str | int | None = None) -> _Spec:
    """Discard a rack tile; without one, the tile that arrived last (the one drawn)."""

    def make(state: GameState) -> Step:
        rack = _rack(state)
        if tile is None:
            return Discard(rack[-1])
        (tile_id,) = _pick(rack, [tile], "discard")
        return Discard(tile_id)

    return _Spec(f"discard {tile if tile is not None else '(drawn)'}", make)


def close(tile: str | int | None = None) -> _Spec:
    """Close with a rack tile (the last one if not given)."""

    def make(state: GameState) -> Step:
        rack = _rack(state)
        if tile is None:
            return Close(rack[-1])
        (tile_id,) = _pick(rack, [tile], "close")
        return Close(tile_id)

    return _Spec(f"close {tile}", make)


def announce(seat: int) -> AnnounceFewTiles:
    return AnnounceFewTiles(seat)


def announce_atu(seat: int) -> AnnounceAtu:
    return AnnounceAtu(seat)


def declare(seat: int) -> DeclarePeTabla:
    return DeclarePeTabla(seat)


def redeal(seat: int) -> DemandRedeal:
    return DemandRedeal(seat)


def offer(seat: int, tile: str | int) -> _Spec:
    """Seat ``seat`` offers the double of ``tile`` (a tile of its rack)."""

    def make(state: GameState) -> Step:
        (a,) = _pick(state.rack(seat), [tile], "offer")
        return OfferDoubles(seat, a)

    return _Spec(f"offer {seat} {tile}", make)


def accept(seat: int, tile: str | int, of: int) -> _Spec:
    """Seat ``seat`` takes up seat ``of``'s offer with the double of ``tile``."""

    def make(state: GameState) -> Step:
        (a,) = _pick(state.rack(seat), [tile], "accept")
        return AcceptDoubles(seat, a, of)

    return _Spec(f"accept {seat} {tile} {of}", make)


def exchange(seat: int, other: int, tile: str | int, other_tile: str | int) -> list[Spec]:
    """Seats ``seat`` and ``other`` exchange doubles: ``seat`` offers the double of
    ``tile``, ``other`` accepts with the double of ``other_tile``."""
    return [offer(seat, tile), accept(other, other_tile, seat)]


def _parse(text: str) -> Spec:
    words = text.split()
    verb, args = words[0], words[1:]
    simple: dict[str, Callable[[], Step]] = {
        "draw": draw,
        "take": take,
        "atu": take_atu,
        "undo": undo,
    }
    if verb in simple and not args:
        return simple[verb]()
    if verb == "meld":
        return meld(" ".join(args))
    if verb in ("discard", "close"):
        helper = discard if verb == "discard" else close
        return helper(args[0] if args else None)
    if verb == "rupere":
        return rupere(int(args[0]) if args[0].isdigit() else args[0])
    if verb in ("lay", "swap"):
        tile, rest = args[0], args[1:]
        if not rest or rest[0] != "on":
            raise ValueError(f"write '{verb} TILE on MELD': {text!r}")
        rest = rest[1:]
        end = None
        if verb == "lay" and rest and rest[-1] in ("low", "high", "set"):
            end = rest.pop()
        ref: int | str = int(rest[0]) if len(rest) == 1 and rest[0].isdigit() else " ".join(rest)
        return lay(tile, ref, end) if verb == "lay" else swap(tile, ref)
    seat_steps: dict[str, Callable[[int], Step]] = {
        "announce": announce,
        "announce-atu": announce_atu,
        "pe-tabla": declare,
        "redeal": redeal,
    }
    if verb in seat_steps and len(args) == 1:
        return seat_steps[verb](int(args[0]))
    if verb == "offer" and len(args) == 2:
        return offer(int(args[0]), args[1])
    if verb == "accept" and len(args) == 3:
        return accept(int(args[0]), args[1], int(args[2]))
    raise ValueError(f"cannot read the step {text!r}")


def resolve(state: GameState, spec: Spec) -> Step:
    """The step ``spec`` stands for in ``state``."""
    if isinstance(spec, str):
        spec = _parse(spec)
    if isinstance(spec, STEP_TYPES):
        return spec
    assert callable(spec)
    return spec(state)


def play(game: Game, *specs: Spec | Iterable[Spec]) -> tuple[Event, ...]:
    """Apply the steps in order (strings may hold several, separated by ``;``; lists
    are flattened); return all the events.  A refused step says which it was."""
    flat: list[Spec] = []
    for spec in specs:
        if isinstance(spec, str):
            flat.extend(part.strip() for part in spec.split(";") if part.strip())
        elif isinstance(spec, list | tuple):
            flat.extend(spec)
        else:
            flat.append(spec)  # type: ignore[arg-type]
    events: list[Event] = []
    for k, spec in enumerate(flat):
        step = resolve(game.state, spec)
        try:
            events.extend(game.apply(step))
        except IllegalStepError as err:
            err.add_note(f"script step {k} ({spec}): {step}")
            raise
    return tuple(events)


def illegal(game: Game, spec: Spec, code: object) -> IllegalStepError:
    """Assert that ``spec`` is refused with ``code`` and that nothing changed."""
    before = game.state
    step = resolve(before, spec)
    assert not game.can(step), f"{step} should be refused"
    with pytest.raises(IllegalStepError) as info:
        game.apply(step)
    assert info.value.code == code, f"{step}: {info.value.code!r} instead of {code!r}"
    assert game.state == before
    return info.value
