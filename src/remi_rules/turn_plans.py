"""Turn plans with a taken tile, searched by the solver: can the player open
(OPEN-06, EX-15) or close (ATU-06, CLOSE-06) in this turn with the tile he takes?

The take rules ask these questions (:func:`remi_rules.rupere.verify_take`,
:func:`remi_rules.rupere.verify_take_atu`; both functions are also
:mod:`remi_rules.rupere`'s): the justifying meld of the taken tile comes from
:func:`remi_rules.rupere.justifying_melds`, and the solver answers exactly whether the
rest of the rack has a split that opens or closes (a yes-or-no question,
``_partition.split_reaching``, under :func:`~remi_rules.solver.opening_classes`).
"""

from __future__ import annotations

import functools
import itertools
import math
from collections import Counter
from collections.abc import Collection, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Final

from . import _partition as partition
from ._placeable import never_placed
from ._take_melds import Valuer, distinct, ids_arg, justifying, valuer
from .context import NO_JOKER_HISTORY
from .errors import InvalidMeldError
from .melds import Meld, analyze_meld, arrange_meld
from .opening import is_ace_set, min_rack_after_opening
from .ruleset import Ruleset, require_ruleset
from .solver import split_reaching
from .table import JokerHistory
from .tiles import Tile

if TYPE_CHECKING:
    from ._by_ranks import Shared

__all__ = ["can_close_with", "can_open_with"]

_NO_HISTORY = NO_JOKER_HISTORY


def _completions(
    picked: int, rack: tuple[int, ...], also: tuple[int, ...], rules: Ruleset, value: Valuer
) -> Iterator[tuple[Meld, list[int]]]:
    """Each distinct justifying meld with what would be left besides it, as the
    solver's counts (the solver then searches the rest exactly)."""
    held = Counter(value(i) for i in (picked, *rack, *also))
    seen: set[tuple[Tile, ...]] = set()
    for ids, meld in justifying(picked, rack, rules, also, (), value):
        if meld.tiles in seen:
            continue
        seen.add(meld.tiles)
        rest = held - Counter(value(i) for i in ids)
        yield meld, partition.counts_of(rest.elements())


def _undominated(
    completions: Sequence[tuple[Meld, list[int]]], picked: Tile, rules: Ruleset, opening: bool
) -> list[tuple[Meld, list[int]]]:
    """The justifying melds worth a question of their own.

    * One per set of tiles: the rest is the same whatever a joker stands for.  With
      ``opening`` one per set of tiles and kind of meld, the arrangement worth the
      most points (what a meld gives an opening is its kind, its points and whether it
      is an ace set, :func:`~remi_rules.solver.opening_classes`).
    * No run that splits into a justifying run holding ``picked`` and a valid meld: a
      close with the long run leaves the short one's rest with the other part as one
      of its melds.  With ``opening`` both parts as laid in the long run, their points
      adding up to its own (so the short run's rest still makes up the opening's
      points).  A taken joker is not split (either part may hold it)."""
    best: dict[tuple[object, ...], tuple[Meld, list[int]]] = {}

    def key(tiles: Sequence[Tile], run: bool, meld: Meld | None) -> tuple[object, ...]:
        if not opening:
            return tuple(sorted(tiles))
        return (tuple(sorted(tiles)), run, meld is not None and is_ace_set(meld, rules))

    for meld, rest in completions:
        k = key(meld.tiles, meld.is_run, meld)
        if k not in best or meld.points > best[k][0].points:
            best[k] = (meld, rest)

    def splits(meld: Meld) -> bool:
        tiles = meld.tiles
        for cut in range(3, len(tiles) - 2):
            short, other = tiles[:cut], tiles[cut:]
            if picked not in short:
                short, other = other, short
            if key(short, True, None) not in best:
                continue
            if not opening:
                if arrange_meld(other, rules):
                    return True
                continue
            try:
                parts = analyze_meld(short, rules), analyze_meld(other, rules)
            except InvalidMeldError:
                continue
            if parts[0].is_run and sum(p.points for p in parts) >= meld.points:
                return True
        return False

    return [
        (meld, rest)
        for meld, rest in best.values()
        if not (meld.is_run and not picked.is_joker and len(meld.tiles) >= 6 and splits(meld))
    ]


def _within_room(
    counts: list[int], split: Sequence[tuple[int, ...]], room: Mapping[int, int]
) -> bool:
    """The split (its melds) of the hand ``counts`` leaves at most one tile that is not
    laid off, each value laid off at most as often as ``room`` allows.  An empty split
    (none kept) proves nothing."""
    if not split:
        return False
    left = Counter({f: n for f, n in enumerate(counts) if n})
    for fields in split:
        left.subtract(fields)
    return sum(max(0, n - room.get(f, 0)) for f, n in left.items()) <= 1


def _inside(meld: Meld, split: Sequence[tuple[int, ...]]) -> bool:
    """``meld``'s tiles are all in one meld of ``split`` (its melds' fields)."""
    need = Counter(map(partition.field_of, meld.tiles))
    return any(need <= Counter(fields) for fields in split)


def _closes_within(
    split: Sequence[tuple[int, ...]],
    completions: Sequence[tuple[Meld, list[int]]],
    picked: Tile,
    rules: Ruleset,
) -> bool:
    """Whether a split of the whole hand that keeps one tile (``split``, its melds'
    fields) shows a close without asking the solver again: some justifying meld (of
    ``completions``) is part of a meld of the split holding the taken tile's value
    ``picked``, and what that meld has besides it is nothing or a valid meld (then
    the split with those two melds in its place is the close)."""
    field = partition.field_of(picked)
    holding = [Counter(fields) for fields in split if field in fields]
    for meld, _ in completions:
        need = Counter(map(partition.field_of, meld.tiles))
        for fields in holding:
            if not need <= fields:
                continue
            left = fields - need
            if not left or arrange_meld(map(partition.tile_of_field, left.elements()), rules):
                return True
    return False


def can_open_with(
    taken_tile_id: int,
    rack_before_take: Sequence[int],
    rules: Ruleset,
    *,
    also_taken: Sequence[int] = (),
    jokers: Sequence[JokerHistory] = _NO_HISTORY,
    melded: Sequence[Meld] = (),
) -> bool:
    """OPEN-06, EX-15: can an unopened player who takes ``taken_tile_id`` make his first
    etalare this turn with it?  The taken tile must be in a justifying meld
    (:func:`justifying_melds`), the new melds together must pass
    :func:`~remi_rules.check_opening`, and :func:`~remi_rules.opening.min_rack_after_opening`
    tiles must stay on the rack (OPEN-08).  The solver answers exactly whether the rest
    has a split that is such an opening (as :func:`remi_rules.best_opening` with the
    justifying meld ``melded`` would find one).
    ``melded``: melds already put down this turn, which count toward the opening (the
    question asked again in the middle of the turn)."""
    require_ruleset(rules)
    (picked,) = ids_arg((taken_tile_id,), "taken_tile_id")
    rack = ids_arg(rack_before_take, "rack_before_take")
    also = ids_arg(also_taken, "also_taken")
    distinct((picked,), rack, also)
    done = tuple(melded)
    if not all(isinstance(m, Meld) for m in done):
        raise TypeError("melded must be Meld values")
    valuer(jokers)  # (checked here, not in the cache)
    return _opens(picked, rack, also, rules, tuple(jokers), done)


_WAYS: Final = 64
"""The most ways :func:`can_close_with` asks about one hand of at most
:data:`~remi_rules._partition.FAST_MAX_TILES` tiles whose values are held more often
than the table has places for them (each such value, and each joker, asked with 0, 1,
... copies laid off).  Past it (more than six such values) the looser question
answers, every value laid off as often as held: the question stays bounded, at the
price of the over-count in that rare hand (docs/decisions.md).  A bigger hand's
search caps the lay-offs itself (:func:`placing_split`)."""

_CACHED: Final = 256
"""The answers :func:`can_open_with` and :func:`can_close_with` keep (the last ones
asked): the engine asks each row take again at every listing of a turn and after an
undo, and the replay of a save asks every take made (a bounded cache, the same
answers)."""


@functools.lru_cache(maxsize=_CACHED)
def _opens(
    picked: int,
    rack: tuple[int, ...],
    also: tuple[int, ...],
    rules: Ruleset,
    jokers: tuple[JokerHistory, ...],
    done: tuple[Meld, ...],
) -> bool:
    keep = min_rack_after_opening(rules)
    from ._by_ranks import Shared  # (only where the solver is asked)

    shared = Shared()  # (the rests are parts of one hand, as in can_close_with)
    for meld, rest in _completions(picked, rack, also, rules, valuer(jokers)):
        if sum(rest) < keep:
            continue
        # (any split that is an opening will do: a threshold question at 0 tiles; an
        # empty split may be the answer)
        opens = split_reaching(
            rest, rules, 0, min_leftover=keep, melded=[*done, meld], shared=shared
        )
        if opens is not None:
            return True
    return False


def can_close_with(
    taken_tile_id: int,
    rack_before_take: Sequence[int],
    rules: Ruleset,
    *,
    also_taken: Sequence[int] = (),
    layable: Collection[int] = (),
    opening: bool = False,
    jokers: Sequence[JokerHistory] = _NO_HISTORY,
) -> bool:
    """ATU-06, CLOSE-06: can the player take ``taken_tile_id`` and close this turn?  The
    taken tile goes into a justifying meld, the other tiles into new melds or, for the
    tiles of ``layable`` (rack ids the caller knows can be laid off on melds on the
    table, each id one lay-off: a value listed once is laid off at most once, even if
    held twice), lay-offs; exactly one tile must be
    left to close with (discarded or kept, CLOSE-04).  With ``opening`` (a pe-tablă
    closing under ``pe_tabla_opening_rules_apply``) the new melds must also pass
    :func:`~remi_rules.check_opening`.  The split is searched exactly by the solver.
    EX-32, EX-33, EX-42."""
    require_ruleset(rules)
    (picked,) = ids_arg((taken_tile_id,), "taken_tile_id")
    rack = ids_arg(rack_before_take, "rack_before_take")
    also = ids_arg(also_taken, "also_taken")
    distinct((picked,), rack, also)
    value = valuer(jokers)
    places = Counter(
        partition.field_of(value(i))
        for i in dict.fromkeys(ids_arg(tuple(layable), "layable"))
        if i in rack or i in also
    )
    return _closes(picked, rack, also, rules, tuple(sorted(places.items())), opening, tuple(jokers))


def placing_split(
    counts: list[int],
    rules: Ruleset,
    room: Mapping[int, int],
    *,
    melded: Sequence[Meld] | None = None,
    shared: Shared | None = None,
) -> tuple[tuple[int, ...], ...] | None:
    """A split of the hand ``counts`` (its melds, as solver fields) that places all its
    tiles but one, melded or laid off: the tiles of field ``f`` at most ``room[f]``
    times each (the places the table has for them; a joker's field too) and, with
    ``melded`` (the turn's melds, possibly none), an opening with them; or None.
    Lay-offs never count toward an opening's points.  The tiles the split leaves out
    are the lay-offs and the one tile kept.  On a hand of more than
    :data:`~remi_rules._partition.FAST_MAX_TILES` tiles the search by ranks caps each
    value's lay-offs itself (exact); on a smaller one, past :data:`_WAYS` ways the
    answer is the looser one (every listed value laid off as often as held): a None
    is then still exact, a split may lay off a value too often."""
    fits = frozenset(f for f, n in room.items() if n)

    def reaching(
        counts: list[int],
        goal: int,
        layable: frozenset[int],
        cap: Mapping[int, int] | None = None,
    ) -> tuple[tuple[int, ...], ...] | None:
        return split_reaching(
            counts,
            rules,
            goal,
            min_leftover=1,
            melded=melded,
            extra=(lambda f: 1 if f in layable else 0) if layable else None,
            shared=shared,
            lay_cap=cap,
        )

    def without(ways: Sequence[int], fields: Sequence[int]) -> list[int]:
        rest = list(counts)
        for f, laid in zip(fields, ways, strict=True):
            rest[f] -= laid
        return rest

    goal = sum(counts) - 1
    # A numbered value with as many places as copies is laid off by the solver (a
    # lay-off worth one tile); a value held more often than it has places, and a
    # joker (the solver lays off only numbered tiles), is capped: a joker is asked
    # each way (0, 1, ... of them taken out as laid off), the most laid off first.
    capped = [f for f in fits if counts[f] > room[f] or f >= partition.REAL_FIELDS]
    free = fits.difference(capped)
    jokers = [f for f in capped if f >= partition.REAL_FIELDS]
    most = [min(room[f], counts[f]) for f in jokers]
    if sum(counts) - sum(most) > partition.FAST_MAX_TILES:
        # (every question's hand is big: the search by ranks caps the numbered ones)
        cap = {f: room[f] for f in capped if f < partition.REAL_FIELDS}
        numbered = fits.difference(jokers)
        for ways in itertools.product(*(range(n, -1, -1) for n in most)):
            split = reaching(without(ways, jokers), goal - sum(ways), numbered, cap or None)
            if split is not None:
                return split
        return None
    # A small hand: a numbered value too is asked each way, the others not layable.
    loose = None
    if capped and not jokers:
        # (first with every value laid off as often as held: a looser question, which
        # most hands fail, and whose split may lay off none too often)
        loose = reaching(counts, goal, fits)
        if loose is None or _within_room(counts, loose, room):
            return loose
    choices = [range(min(room[f], counts[f]), -1, -1) for f in capped]
    if math.prod(map(len, choices)) > _WAYS:
        return loose if loose is not None else reaching(counts, goal, fits)
    for ways in itertools.product(*choices):
        split = reaching(without(ways, capped), goal - sum(ways), free)
        if split is not None:
            return split
    return None


@functools.lru_cache(maxsize=_CACHED)
def _closes(
    picked: int,
    rack: tuple[int, ...],
    also: tuple[int, ...],
    rules: Ruleset,
    places: tuple[tuple[int, int], ...],
    opening: bool,
    jokers: tuple[JokerHistory, ...],
) -> bool:
    value = valuer(jokers)
    room = dict(places)
    fits = frozenset(room)
    # Two tiles that no meld of the hand can hold and that cannot be laid off stay
    # whatever the split (no solver asked).
    hand = [value(i) for i in (picked, *rack, *also)]
    laid = {t for t in hand if partition.field_of(t) in fits}
    if len(never_placed(hand, hand, laid, rules.ace_high_run)) >= 2:
        return False
    from ._by_ranks import Shared  # (only where the solver is asked)

    # The hand and the rests are parts of one hand: one set of the search by ranks'
    # memos serves every question, each a threshold question (all but one tile placed).
    shared = Shared()

    def placed(counts: list[int], melded: Sequence[Meld]) -> tuple[tuple[int, ...], ...] | None:
        return placing_split(counts, rules, room, melded=melded if opening else None, shared=shared)

    # One question first for every justifying meld: a split of the rest with the meld
    # beside it is a split of the whole hand that keeps the same tile (and, with
    # ``opening``, an opening); so no meld closes where the whole hand has no such
    # split, which most hands fail.
    whole = partition.counts_of(hand)
    split = placed(whole, ())
    if split is None:
        return False
    completions = list(_completions(picked, rack, also, rules, value))
    if opening:
        # (the melds that are part of the whole hand's split are asked about first)
        found = split
        asked = sorted(
            _undominated(completions, value(picked), rules, True),
            key=lambda pair: not _inside(pair[0], found),
        )
    else:
        if not split:  # (a small hand's split, where the fast search gave none)
            full = partition.solve(
                whole,
                rules,
                tiles_objective=True,
                constraints=partition.Constraints(min_leftover=1),
                extra=(lambda f: 1 if f in fits else 0) if fits else None,
                shared=shared,
            )
            assert full is not None  # (the same question)
            split = tuple(m.fields for m in full[1])
        if _within_room(whole, split, room) and _closes_within(
            split, completions, value(picked), rules
        ):
            return True
        asked = _undominated(completions, value(picked), rules, False)
    for meld, rest in asked:
        if sum(rest) < 1:
            continue
        left = [partition.tile_of_field(f) for f, n in enumerate(rest) for _ in range(n)]
        if len(never_placed(left, left, laid, rules.ace_high_run)) >= 2:
            continue  # (as for the whole hand)
        if placed(rest, [meld]) is not None:
            return True
    return False
