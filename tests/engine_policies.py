"""Shared helpers of the engine's property tests (tests/test_engine_agreement.py,
tests/test_engine_properties.py and benchmarks/agreement.py).

* :class:`VariedPolicy` plays a round the way the agreement test needs: it opens
  (greedy melds, undone when they do not make a valid opening), takes from the row and
  the atu, lays off, swaps jokers, undoes, declares pe tablă, announces (or forgets to),
  exchanges doubles, and now and then plays a uniformly random legal step.
* :func:`play_states` drives one seeded round with it and yields every state reached.
* :func:`candidate_steps` draws steps from a wide candidate space (every step class,
  tiles from the rack and elsewhere, any meld index and end, row indexes in and out of
  range, any seat; melds as subsets of the rack in run order or in a set's canonical
  order), mostly illegal, to check that whatever :meth:`Game.verify` accepts is listed
  by :meth:`Game.legal_steps`.
* :func:`check_agreement` runs both directions of the check on one state.
* :class:`Coverage` counts the kinds of states seen (pending takes from the row,
  openings in progress, swaps, small racks, pe-tablă declarations, …).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TypedDict, Unpack

from remi_rules import InvalidMeldError, analyze_meld, arrange_meld, ids_of, variants
from remi_rules.engine import (
    AcceptDoubles,
    AnnounceAtu,
    AnnounceFewTiles,
    Close,
    DeclarePeTabla,
    DemandRedeal,
    Discard,
    Draw,
    Game,
    GameState,
    LayOff,
    MeldTiles,
    OfferDoubles,
    Phase,
    Rupere,
    Step,
    SwapJoker,
    TakeAtu,
    TakeKind,
    TakeLastDiscard,
    Undo,
)
from remi_rules.engine.legal import canonical_step
from remi_rules.errors import IllegalStepError
from remi_rules.lipire import End
from remi_rules.tiles import JOKER_IDS, Tile

PRESETS = ("clasic", "online", "rummy45")


# -- the policy ---------------------------------------------------------------------------------


@dataclass
class _TurnMemory:
    key: tuple[int, int] = (-1, -1)
    failed_takes: set[Step] = field(default_factory=set)
    failures: int = 0
    steps: int = 0
    undos: int = 0
    plan: list[Step] = field(default_factory=list)


class PolicyOptions(TypedDict, total=False):
    """The keyword options of :class:`VariedPolicy`, as :func:`play_states` passes them on."""

    random_rate: float
    row_rate: float
    declare_rate: float
    avoid_known_bugs: bool


class VariedPolicy:
    """A seeded policy that reaches varied states (see the module docstring).

    ``random_rate``: the chance of a uniformly random legal step (bounded so that a
    turn cannot loop on undo); ``row_rate``: of taking from the row when allowed;
    ``declare_rate``: of declaring pe tablă at each chance."""

    def __init__(
        self,
        rng: random.Random,
        *,
        random_rate: float = 0.08,
        row_rate: float = 0.75,
        declare_rate: float = 0.02,
        avoid_known_bugs: bool = False,
    ) -> None:
        self.rng = rng
        self.avoid_known_bugs = avoid_known_bugs
        self.random_rate = random_rate
        self.row_rate = row_rate
        self.declare_rate = declare_rate
        self.turn = _TurnMemory()

    def _memory(self, state: GameState) -> _TurnMemory:
        key = (state.turn, state.current)
        if self.turn.key != key:
            self.turn = _TurnMemory(key=key)
        return self.turn

    def choose(self, game: Game, legal: Sequence[Step]) -> Step:
        state = game.state
        mem = self._memory(state)
        mem.steps += 1
        step = self._choose(state, mem, legal)
        if isinstance(step, Undo):
            mem.undos += 1
        return step

    def note_undo(self, game: Game) -> None:
        """Called after an undo: an undo back to the take marks the turn as failed."""
        if game.state.phase is Phase.TAKE:
            self.turn.failures += 1

    def _choose(self, state: GameState, mem: _TurnMemory, legal: Sequence[Step]) -> Step:
        rng = self.rng
        out_of_turn = [s for s in legal if not s.in_turn]
        in_turn = [s for s in legal if s.in_turn]
        pick = self._out_of_turn(state, out_of_turn)
        if pick is not None:
            return pick
        if not in_turn:
            return rng.choice(list(legal))
        budget_left = mem.steps < 30 and mem.undos < 6
        if budget_left and rng.random() < self.random_rate:
            return rng.choice(in_turn)
        if mem.plan and mem.plan[0] in in_turn:
            return mem.plan.pop(0)
        if state.phase is Phase.TAKE:
            if mem.failures >= 2 and not any(isinstance(s, Draw) for s in in_turn):
                mem.plan = find_turn(state)
                if mem.plan:
                    return mem.plan.pop(0)
            return self._take(state, mem, in_turn)
        return self._action(state, mem, in_turn, budget_left)

    def _out_of_turn(self, state: GameState, steps: list[Step]) -> Step | None:
        rng = self.rng
        for step in steps:
            if isinstance(step, AnnounceFewTiles) and rng.random() < 0.6:
                return step
            if isinstance(step, AnnounceAtu) and rng.random() < 0.3:
                if self.avoid_known_bugs and any(s.announced_atu for s in state.seats):
                    continue  # atu_announced_twice
                return step
            if isinstance(step, DeclarePeTabla) and rng.random() < self.declare_rate:
                return step
            if isinstance(step, OfferDoubles) and rng.random() < 0.02:
                return step
            if isinstance(step, AcceptDoubles) and rng.random() < 0.2:
                return step
            if isinstance(step, DemandRedeal) and rng.random() < 0.01:
                return step
        return None

    def _take(self, state: GameState, mem: _TurnMemory, steps: list[Step]) -> Step:
        rng = self.rng
        if mem.failures == 0 or (mem.failures == 1 and rng.random() < 0.3):
            rows = [
                s
                for s in steps
                if s.take not in (None, TakeKind.DRAW) and s not in mem.failed_takes
            ]
            if rows and rng.random() < self.row_rate:
                last = [s for s in rows if isinstance(s, TakeLastDiscard | TakeAtu)]
                step = rng.choice(last) if last and rng.random() < 0.6 else rng.choice(rows)
                mem.failed_takes.add(step)  # forgiven only if the turn ends well
                return step
        draws = [s for s in steps if isinstance(s, Draw)]
        return draws[0] if draws else rng.choice(steps)

    def _action(
        self, state: GameState, mem: _TurnMemory, steps: list[Step], budget_left: bool
    ) -> Step:
        rng = self.rng
        closes = [s for s in steps if isinstance(s, Close)]
        if closes and rng.random() < 0.95:
            return rng.choice(closes)
        if budget_left and mem.failures < 2:
            step = self._table_step(state, steps)
            if step is not None:
                return step
        discards = [s for s in steps if isinstance(s, Discard)]
        if discards:
            return self._discard(state, discards)
        undo = [s for s in steps if isinstance(s, Undo)]
        if undo:
            return undo[0]
        return rng.choice(steps)

    def _table_step(self, state: GameState, steps: list[Step]) -> Step | None:
        rng = self.rng
        turn = state.pending
        assert turn is not None
        melds = [s for s in steps if isinstance(s, MeldTiles)]
        layoffs = [s for s in steps if isinstance(s, LayOff)]
        swaps = [s for s in steps if isinstance(s, SwapJoker)]
        must: set[int] = set(turn.swapped_jokers)
        if turn.obligation is not None:
            must.add(turn.obligation.picked)
        placed = {i for m in turn.new_melds for i in state.table.melds[m].ids}
        must -= placed
        if must and melds:
            wanted = [m for m in melds if must & set(m.tiles)]
            if wanted:
                return self._best_meld(state, wanted)
        if swaps and rng.random() < 0.7:
            return rng.choice(swaps)
        if melds and rng.random() < 0.85:
            return self._best_meld(state, melds)
        if layoffs and rng.random() < 0.75:
            return rng.choice(layoffs)
        return None

    def _best_meld(self, state: GameState, melds: list[MeldTiles]) -> Step:
        rng = self.rng
        if rng.random() < 0.3:
            return rng.choice(melds)

        def points(step: MeldTiles) -> int:
            try:
                return analyze_meld([state.table.tile(i) for i in step.tiles], state.rules).points
            except InvalidMeldError:
                return 0

        best = max(points(m) for m in melds)
        return rng.choice([m for m in melds if points(m) == best])

    def _discard(self, state: GameState, discards: Sequence[Step]) -> Step:
        rng = self.rng
        if rng.random() < 0.2:
            return rng.choice(discards)
        # keep jokers and tiles that have a neighbour; throw a loner
        rack = state.seats[state.current].rack
        values = [state.table.tile(i) for i in rack]

        def keeps(step: Step) -> int:
            assert isinstance(step, Discard)
            t = state.table.tile(step.tile)
            if t.is_joker:
                return 10
            acts = t.acts_as or t
            assert acts.rank is not None  # not a joker: it has a rank
            near = 0
            for v in values:
                a = v.acts_as
                if a is None or a is acts:
                    continue
                if a.rank == acts.rank or (
                    a.color is acts.color and a.rank is not None and abs(a.rank - acts.rank) <= 2
                ):
                    near += 1
            return near

        low = min(keeps(s) for s in discards)
        return rng.choice([s for s in discards if keeps(s) == low])


def find_turn(state: GameState, *, budget: int = 5000) -> list[Step]:
    """A whole turn from ``state`` (its take, table steps, and a discard or close),
    found by a depth-first search over the legal steps; [] if none within ``budget``
    states.  For the policy when the stock is empty and its own tries failed."""
    from remi_rules.engine.legal import legal_steps
    from remi_rules.engine.transition import NoChance, apply_step

    seen: set[object] = set()
    left = [budget]

    def dfs(st: GameState) -> list[Step] | None:
        for step in legal_steps(st):
            if not step.in_turn:
                continue
            if isinstance(step, Discard | Close):
                return [step]
            if left[0] <= 0:
                return None
            left[0] -= 1
            new, _ = apply_step(st, step, NoChance())
            key = (new.seats[new.current].rack, new.table, new.phase)
            if key in seen:
                continue
            seen.add(key)
            rest = dfs(new)
            if rest is not None:
                return [step, *rest]
        return None

    return dfs(state) or []


def play_step(
    game: Game,
    policy: VariedPolicy,
    legal: Sequence[Step],
    *,
    refused: list[tuple[Step, str]] | None = None,
) -> Step:
    """Apply the policy's choice among ``legal``.  A listed step that apply refuses
    is raised, or, with ``refused``, noted there (with its error code) and the policy
    chooses again without it."""
    options = list(legal)
    while options:
        step = policy.choose(game, options)
        try:
            game.apply(step)
        except IllegalStepError as err:
            if refused is None:
                raise
            refused.append((step, str(err.code)))
            options.remove(step)
            continue
        if isinstance(step, Undo):
            policy.note_undo(game)
        return step
    raise AssertionError("apply refused every listed step")


@dataclass
class Reached:
    """A state reached by :func:`play_states`, before the policy's next step."""

    game: Game
    legal: tuple[Step, ...]
    preset: str
    players: int
    seed: int
    index: int
    """How many steps of the record led here (``game.record().steps[:index]``)."""


def play_states(
    preset: str,
    players: int,
    seed: int,
    *,
    failures: list[Disagreement] | None = None,
    max_steps: int = 3000,
    **policy: Unpack[PolicyOptions],
) -> Iterator[Reached]:
    """Play one round of ``preset`` with ``players`` seats, dealt by ``seed``, with a
    :class:`VariedPolicy` seeded by ``seed``; yield every state before each step (and
    the final one).  The caller may inspect ``game`` but must not change it.

    A listed step that :meth:`Game.apply` refuses is added to ``failures`` (if given;
    else it is raised) and the policy chooses again without it."""
    rules = variants.get(preset)
    game = Game.new(rules, players, seed=seed)
    rng = random.Random(f"policy-{preset}-{players}-{seed}")
    pol = VariedPolicy(rng, **policy)
    for _ in range(max_steps):
        legal = game.legal_steps()
        index = len(game.record().steps)
        yield Reached(game, legal, preset, players, seed, index)
        if game.over:
            return
        refused: list[tuple[Step, str]] = []
        play_step(game, pol, legal, refused=refused if failures is not None else None)
        for step, code in refused:
            known = known_bug(game, legal, step, code)
            what = "listed but apply refused it"
            assert failures is not None
            failures.append(Disagreement(preset, players, seed, index, step, what, code, known))
    raise AssertionError(f"{preset} {players}p seed {seed}: no end after {max_steps} steps")


def preplay_states(preset: str, players: int, seed: int, *, steps: int = 3) -> Iterator[Reached]:
    """A fresh deal and up to ``steps`` out-of-turn steps made before the first
    discard (doubles exchanges, redeals, announcements, declarations), each state
    yielded; then the starter's first discard and one more state."""
    game = Game.new(variants.get(preset), players, seed=seed)
    rng = random.Random(f"preplay-{preset}-{players}-{seed}")
    for _ in range(steps):
        legal = game.legal_steps()
        yield Reached(game, legal, preset, players, seed, len(game.record().steps))
        extra = [s for s in legal if not s.in_turn]
        if not extra:
            break
        game.apply(rng.choice(extra))
    legal = game.legal_steps()
    yield Reached(game, legal, preset, players, seed, len(game.record().steps))
    game.apply(rng.choice([s for s in legal if isinstance(s, Discard)]))
    yield Reached(game, game.legal_steps(), preset, players, seed, len(game.record().steps))


# -- hand-made deals for the reproductions ------------------------------------------------------


def tile_id(tile: str, copy: int = 0) -> int:
    """The physical id of copy ``copy`` of ``tile`` (notation such as ``"7R"``)."""
    return ids_of(Tile.parse(tile))[copy]


def two_seat_deal(
    seat0: Sequence[int], seat1: Sequence[int], atu: int, stock_top: Sequence[int]
) -> list[int]:
    """A 2-player deal (seat 0 starts with 15 tiles) holding the given tiles; the
    racks are filled up in id order with the tiles left, then the stock."""
    used = {*seat0, *seat1, atu, *stock_top}
    rest = [i for i in range(106) if i not in used]
    fill0, rest = rest[: 15 - len(seat0)], rest[15 - len(seat0) :]
    fill1, rest = rest[: 14 - len(seat1)], rest[14 - len(seat1) :]
    return [*seat0, *fill0, *seat1, *fill1, atu, *stock_top, *rest]


# -- coverage ----------------------------------------------------------------------------------


def state_kinds(state: GameState) -> set[str]:
    """The kinds of a state the agreement test wants well represented."""
    out: set[str] = set()
    turn = state.pending
    if state.phase is Phase.OVER:
        return {"over"}
    out.add(state.phase.value)
    if state.preplay:
        out.add("preplay")
    if turn is not None:
        if turn.took not in (None, TakeKind.DRAW):
            out.add("pending_row_take" if turn.took is not TakeKind.ATU else "pending_atu_take")
            if turn.took is TakeKind.RUPERE:
                out.add("pending_rupere")
        if turn.new_melds and not turn.opened_before:
            out.add("opening_in_progress")
        if turn.swapped_jokers:
            out.add("swap_this_turn")
        if turn.laid_off:
            out.add("laid_off_this_turn")
    if len(state.seats[state.current].rack) <= 3:
        out.add("small_rack")
    if any(s.declared_pe_tabla for s in state.seats):
        out.add("pe_tabla_declared")
    if state.announce_window is not None:
        out.add("announce_window")
    if state.table.melds:
        out.add("table_not_empty")
    if any(state.table.joker(j).swaps for j in JOKER_IDS):
        out.add("joker_reused")
    if not state.stock:
        out.add("stock_empty")
    return out


class Coverage(Counter[str]):
    def add(self, state: GameState) -> None:
        self.update(state_kinds(state))


# -- candidates --------------------------------------------------------------------------------


def _ids_for(values: Sequence[Tile], pool: Sequence[int], state: GameState) -> tuple[int, ...]:
    """Physical ids of ``pool`` for ``values`` in order (each id once)."""
    used: set[int] = set()
    out: list[int] = []
    for v in values:
        for i in pool:
            if i not in used and state.table.tile(i) == v:
                used.add(i)
                out.append(i)
                break
    return tuple(out)


def _rack_meld_candidate(state: GameState, rack: Sequence[int], rng: random.Random) -> MeldTiles:
    """A subset of ``rack`` near a meld, in run order or in a set's canonical order."""
    table = state.table
    values = {i: table.tile(i) for i in rack}
    jokers = [i for i in rack if values[i].is_joker and values[i].acts_as is None]
    real = [i for i in rack if i not in jokers]
    kind = rng.random()
    if not real or kind < 0.1:
        size = rng.randint(1, min(len(rack), 6)) if rack else 0
        chosen = rng.sample(list(rack), size)
    elif kind < 0.55:  # a run around a seed tile
        seed = values[rng.choice(real)].acts_as
        assert seed is not None and seed.rank is not None
        same = [i for i in real if (a := values[i].acts_as) is not None and a.color is seed.color]
        near = [i for i in same if abs(values[i].acts_as.rank - seed.rank) <= rng.randint(1, 5)]  # type: ignore[union-attr,operator]
        chosen = rng.sample(near, rng.randint(1, len(near))) if near else []
        chosen += rng.sample(jokers, rng.randint(0, len(jokers)))
    else:  # a set around a seed rank
        seed = values[rng.choice(real)].acts_as
        assert seed is not None
        same = [i for i in real if (a := values[i].acts_as) is not None and a.rank == seed.rank]
        chosen = rng.sample(same, rng.randint(1, len(same)))
        chosen += rng.sample(jokers, rng.randint(0, len(jokers)))
    if rng.random() < 0.1 and rack:
        chosen.append(rng.choice(list(rack)))  # maybe a duplicate id
    tiles = [values.get(i) or table.tile(i) for i in chosen]
    readings = arrange_meld(tiles, state.rules) if len(tiles) >= 3 else ()
    if readings:  # a valid group: one of its readings, never another order of a set
        reading = rng.choice(readings)
        ids = _ids_for(reading.tiles, chosen, state)
        if len(ids) == len(chosen):
            if sum(i in JOKER_IDS for i in ids) == 2 and rng.random() < 0.5:
                ids = _swap_jokers(ids)
            return MeldTiles(ids)
    order = sorted(chosen, key=lambda i: (tiles[chosen.index(i)].acts_as is None, i))
    return MeldTiles(order if rng.random() < 0.7 else chosen)


def _set_in_canonical_order(state: GameState, ids: tuple[int, ...]) -> tuple[int, ...]:
    """``ids`` in the canonical order if they make a set (the generator lists one order
    per set), else as they are."""
    if len(ids) < 3 or len(set(ids)) < len(ids) or not all(0 <= i < 106 for i in ids):
        return ids
    try:
        meld = analyze_meld([state.table.tile(i) for i in ids], state.rules)
    except InvalidMeldError:
        return ids
    if meld.is_run:
        return ids
    return _ids_for(meld.tiles, ids, state)


def _swap_jokers(ids: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(
        JOKER_IDS[1] if i == JOKER_IDS[0] else JOKER_IDS[0] if i == JOKER_IDS[1] else i for i in ids
    )


def _any_tile(state: GameState, rng: random.Random) -> int:
    rack = state.seats[state.current].rack
    r = rng.random()
    if rack and r < 0.6:
        return rng.choice(rack)
    if r < 0.7:
        return rng.choice(JOKER_IDS)
    if r < 0.75:
        return rng.choice((-1, 106, 107, 1000))
    return rng.randrange(106)


def _doubles_tile(state: GameState, seat: int, rng: random.Random) -> int:
    if 0 <= seat < state.players:
        rack = state.seats[seat].rack
        held = Counter(i // 2 for i in rack)
        doubles = [v for v, n in held.items() if n == 2 and 2 * v < 104]
        if doubles and rng.random() < 0.8:
            return 2 * rng.choice(doubles) + rng.randrange(2)
        if rack and rng.random() < 0.5:
            return rng.choice(rack)
    return rng.randrange(-1, 107)


def _near_layoff(state: GameState, rng: random.Random) -> tuple[int, int] | None:
    """A rack tile and a meld it might extend (same rank, or same colour near an end;
    a joker anywhere)."""
    rack = state.seats[state.current].rack
    table = state.table
    options: list[tuple[int, int]] = []
    for tile_id in rack:
        tile = table.tile(tile_id)
        acts = tile.acts_as
        for index, meld in enumerate(table.melds):
            info = meld.meld
            if acts is None:
                options.append((tile_id, index))
            elif info.is_run:
                ends = (info.low - 1, info.high + 1, info.high - 12, 1)
                if acts.color is info.color and acts.rank in ends:
                    options.append((tile_id, index))
            elif acts.rank == info.low:
                options.append((tile_id, index))
    return rng.choice(options) if options else None


def _near_swap(state: GameState, rng: random.Random) -> SwapJoker | None:
    """A joker on the table and a rack tile that might replace it (what the joker
    stands for, or any rack tile)."""
    rack = state.seats[state.current].rack
    table = state.table
    options: list[SwapJoker] = []
    for index, meld in enumerate(table.melds):
        for slot in meld.meld.jokers:
            joker = meld.ids[slot.position]
            fits = [i for i in rack if table.tile(i) in slot.candidates]
            for tile_id in fits or ([rng.choice(rack)] if rack else []):
                options.append(SwapJoker(tile_id, index, joker))
    return rng.choice(options) if options else None


def candidate_steps(game: Game, rng: random.Random, count: int) -> list[Step]:
    """``count`` steps drawn from the wide candidate space, mostly illegal."""
    state = game.state
    players = state.players
    rack = state.seats[state.current].rack
    melds = len(state.table.melds)
    seats = range(-1, players + 1)
    out: list[Step] = []
    for _ in range(count):
        r = rng.randrange(15)
        step: Step
        if r == 0:
            step = rng.choice((Draw(), TakeLastDiscard(), TakeAtu(), Undo()))
        elif r == 1:
            step = Rupere(rng.randrange(-2, len(state.row) + 2))
        elif r in (2, 3, 4):
            pool = rack
            if rng.random() < 0.1:
                other = rng.randrange(players)
                pool = state.seats[other].rack
            if rng.random() < 0.05:
                ids = tuple(_any_tile(state, rng) for _ in range(rng.randint(0, 4)))
                step = MeldTiles(_set_in_canonical_order(state, ids))
            else:
                step = _rack_meld_candidate(state, pool, rng)
        elif r in (5, 6):
            end = rng.choice((None, End.LOW, End.HIGH, End.SET))
            near = _near_layoff(state, rng) if rng.random() < 0.7 else None
            if near is not None:
                step = LayOff(near[0], near[1], end)
            else:
                step = LayOff(_any_tile(state, rng), rng.randrange(-1, melds + 2), end)
        elif r == 7:
            swap = _near_swap(state, rng) if rng.random() < 0.7 else None
            if swap is None:
                joker = rng.choice(JOKER_IDS) if rng.random() < 0.8 else _any_tile(state, rng)
                swap = SwapJoker(_any_tile(state, rng), rng.randrange(-1, melds + 2), joker)
            step = swap
        elif r == 8:
            step = Discard(_any_tile(state, rng))
        elif r == 9:
            step = Close(_any_tile(state, rng))
        elif r == 10:
            step = AnnounceFewTiles(rng.choice(seats))
        elif r == 11:
            step = AnnounceAtu(rng.choice(seats))
        elif r == 12:
            step = DeclarePeTabla(rng.choice(seats))
        elif r == 13:
            a, b = rng.choice(seats), rng.choice(seats)
            if rng.random() < 0.5:
                step = OfferDoubles(a, _doubles_tile(state, a, rng))
            else:
                step = AcceptDoubles(a, _doubles_tile(state, a, rng), b)
        else:
            step = DemandRedeal(rng.choice(seats))
        out.append(step)
    return out


# -- the agreement check -----------------------------------------------------------------------


def listed(step: Step, legal: Sequence[Step], state: GameState | None = None) -> bool:
    """``step`` is among ``legal`` up to copy equivalence: its canonical step (with
    ``state``, :func:`~remi_rules.engine.legal.canonical_step`: each rack tile
    replaced by the canonical copy of its class, see :func:`copy_key`) is listed; a
    :class:`LayOff` without an end matches the listed lay-off of the same tile on the
    same meld (the generator names the end)."""
    if state is not None:
        step = canonical_step(state, step)
    if step in legal:
        return True
    if isinstance(step, LayOff) and step.end is None:
        return any(
            isinstance(s, LayOff) and (s.tile, s.meld) == (step.tile, step.meld) for s in legal
        )
    return False


@dataclass
class Disagreement:
    preset: str
    players: int
    seed: int
    index: int
    step: Step
    what: str
    code: str | None = None
    known: str | None = None
    """The tag of a known engine bug (:data:`KNOWN_BUGS`) this is an instance of."""

    def __str__(self) -> str:
        known = f" [known: {self.known}]" if self.known else ""
        return (
            f"{self.what}: {self.step!r} — preset {self.preset}, {self.players} players, "
            f"seed {self.seed}, after the first {self.index} steps of the round's record{known}"
        )


KNOWN_BUGS: dict[str, str] = {}
"""Engine bugs the property tests have found and that are not fixed yet, by tag, each
with a strict xfail reproduction.  Empty: the three found (an undo refused after the
taker's own atu announcement, a set with a fixed joker listed out of canonical order,
two atu announcements in online) are fixed, and their reproductions are now plain
tests in tests/test_engine_agreement.py and tests/test_engine_properties.py."""


def known_bug(game: Game, legal: Sequence[Step], step: Step, code: str | None) -> str | None:
    """The :data:`KNOWN_BUGS` tag of a disagreement, or None if it is new (there are
    no known bugs at present)."""
    del game, legal, step, code
    return None


def check_agreement(
    at: Reached, rng: random.Random, candidates: int, *, stats: Counter[str] | None = None
) -> list[Disagreement]:
    """Both directions on one state: every legal step verifies, is its own canonical
    step and is listed once; every sampled candidate that verifies is listed up to
    copies (its canonical step, :func:`~remi_rules.engine.legal.canonical_step`, is
    listed, and verifies too).  A verify that raises anything but
    :class:`IllegalStepError` is a disagreement too."""
    game, legal = at.game, at.legal
    out: list[Disagreement] = []

    def bad(step: Step, what: str, code: object = None) -> None:
        code_s = None if code is None else str(code)
        known = known_bug(game, legal, step, code_s)
        out.append(
            Disagreement(at.preset, at.players, at.seed, at.index, step, what, code_s, known)
        )

    state = game.state
    for step in legal:
        try:
            game.verify(step)
        except IllegalStepError as err:
            bad(step, "listed but refused", err.code)
        except Exception as err:  # any other exception is a bug of its own
            bad(step, f"listed, verify raised {type(err).__name__}: {err}")
        if canonical_step(state, step) != step:
            bad(step, "listed with copies that are not canonical")
    if len(set(legal)) != len(legal):
        bad(legal[0], "a step is listed twice")
    for step in candidate_steps(game, rng, candidates):
        try:
            game.verify(step)
        except IllegalStepError:
            if stats is not None:
                stats[f"{step.kind} refused"] += 1
            continue
        except Exception as err:
            bad(step, f"verify raised {type(err).__name__}: {err}")
            continue
        if stats is not None:
            stats[f"{step.kind} verified"] += 1
        if not listed(step, legal, state):
            bad(step, "verifies but is not listed (up to copies)")
        if not game.can(canonical_step(state, step)):
            bad(step, "verifies but its canonical step does not")
    return out
