"""Reliability of the engine: every input ends in a typed error or a playable game, in
bounded time.

* ``legal_steps`` lists each choice once, with canonical copies (docs/engine.md,
  "Copies"): fast on a huge rack, the same choices as every physical copy on standard
  racks, copy classes that are exact symmetries of the state, the CLI's copy listed;
* a turn makes at most ``MAX_UNDOS_PER_TURN`` undos (``undo_limit``), also when a
  record is replayed or loaded;
* every public function and method of :mod:`remi_rules.engine` refuses wrong-type
  arguments with :class:`TypeError` and out-of-range ones with a coded
  :class:`~remi_rules.RemiError` (parametrised over ``engine.__all__``, so a new public
  name without an entry fails :func:`test_every_public_name_is_walked`).
"""

from __future__ import annotations

import itertools
import time
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import attrs
import pytest
from engine_policies import PRESETS, find_turn, play_states, tile_id, two_seat_deal

from remi_rules import MeldKind, RemiError, Tile, analyze_meld, ids_of, serde, variants
from remi_rules import _i18n as i18n
from remi_rules import engine as eng
from remi_rules.cli.play import parse_command
from remi_rules.engine import (
    MAX_UNDOS_PER_TURN,
    Close,
    Discard,
    Draw,
    Game,
    GameState,
    LayOff,
    MeldTiles,
    Phase,
    Step,
    SwapJoker,
    TakeLastDiscard,
    Undo,
    canonical_step,
    copy_key,
)
from remi_rules.engine.transition import NoChance, apply_step
from remi_rules.errors import (
    EngineArgumentError,
    EngineErrorCode,
    IllegalStepError,
    InvalidStateError,
    InvalidTileError,
    StepErrorCode,
)
from remi_rules.layouts import meld_layouts
from remi_rules.lipire import End
from remi_rules.notation import format_step
from remi_rules.tiles import JOKER_IDS

# -- A. one step per choice ---------------------------------------------------------------------


def _big_rack_game() -> Game:
    """The issue's rack: hand sizes (30, 25), seat 0 holds 1R-13R twice, J J 1G 1A
    after its draw of the second turn."""
    rules = attrs.evolve(variants.get("clasic"), hand_sizes=(30, 25))
    reds = [i for r in range(1, 14) for i in ids_of(Tile.parse(f"{r}R"))]
    seat0 = [*reds, *JOKER_IDS, tile_id("1G"), tile_id("5N")]
    drawn = tile_id("1A")
    rest = [i for i in range(106) if i not in {*seat0, drawn}]
    seat1, atu, seat1_draw, stock = rest[:25], rest[25], rest[26], rest[27:]
    game = Game.new(rules, 2, deal=[*seat0, *seat1, atu, seat1_draw, drawn, *stock])
    game.apply(Discard(tile_id("5N")))
    game.apply(Draw())
    game.apply(Discard(seat1_draw))
    game.apply(Draw())
    return game


def _values(state: GameState, ids: tuple[int, ...]) -> tuple[Tile, ...]:
    return tuple(state.table.tile(i) for i in ids)


def test_a_huge_rack_lists_each_meld_once_and_fast() -> None:
    game = _big_rack_game()
    state = game.state
    assert len(state.rack(0)) == 30
    start = time.perf_counter()
    legal = game.legal_steps()
    elapsed = time.perf_counter() - start
    # Measured: 0.34-0.45 s on a loaded 2-core machine (every copy: 1,833,502 steps in
    # 57-277 s); the bound here only catches a return of the exponential listing.
    assert elapsed < 5.0
    melds = [s for s in legal if isinstance(s, MeldTiles)]
    values = [_values(state, s.tiles) for s in melds]
    assert len(set(values)) == len(values)  # no two melds differ only in their copies
    # every plain red run is there, independently of the generator's catalogue
    for low in range(1, 12):
        for high in range(low + 2, 14):
            run = tuple(Tile.parse(f"{r}R") for r in range(low, high + 1))
            if len(state.rack(0)) - len(run) >= 1:
                assert run in values
    discards = [s for s in legal if isinstance(s, Discard)]
    assert len(discards) == len({state.table.tile(i) for i in state.rack(0)}) == 16
    for step in legal[:50]:
        game.verify(step)
    # a step naming the other copy still verifies and applies
    meld = melds[0]
    other = tuple(i ^ 1 if i not in JOKER_IDS else i for i in meld.tiles)
    assert MeldTiles(other) not in legal and canonical_step(state, MeldTiles(other)) == meld
    game.apply(MeldTiles(other))
    assert set(other) <= set(game.state.table.ids())


def _sample_states(per_preset: int = 120) -> Iterator[tuple[str, Game]]:
    """Seeded reachable states of every preset with the current seat in its action
    phase (the in-turn steps name rack tiles), at most ``per_preset`` each."""
    for preset in PRESETS:
        found = 0
        for seed in range(40):
            for k, at in enumerate(play_states(preset, 2 + seed % 3, 500 + seed)):
                if at.game.state.phase is Phase.ACTION and k % 3 == 0:
                    yield preset, at.game
                    found += 1
                    if found >= per_preset:
                        break
            if found >= per_preset:
                break


def _every_copy_steps(game: Game) -> set[Step]:
    """The in-turn steps that name rack tiles, with every physical copy (the listing of
    before copy classes): every assignment of distinct rack ids to every valid meld of
    the rack's values (a set in its canonical order, runs ascending), every rack tile
    on every meld and end, every swap, every discard and close; those that verify."""
    state = game.state
    rack = state.rack(state.current)
    table = state.table
    by_value: dict[Tile, list[int]] = {}
    for i in rack:
        by_value.setdefault(table.tile(i), []).append(i)
    out: set[Step] = set()
    candidates: list[Step] = []
    for layout in meld_layouts(Counter({t: len(v) for t, v in by_value.items()}), state.rules):
        meld = analyze_meld(layout, state.rules)
        if meld.kind is MeldKind.TERTA:  # a set in its canonical order (one order per set)
            layout = meld.tiles
        for ids in itertools.product(*(by_value[t] for t in layout)):
            if len(set(ids)) == len(ids):
                candidates.append(MeldTiles(ids))
    for i in rack:
        for m, placed in enumerate(table.melds):
            for end in (End.LOW, End.HIGH, End.SET):
                candidates.append(LayOff(i, m, end))
            for j in placed.ids:
                if j in JOKER_IDS:
                    candidates.append(SwapJoker(i, m, j))
        candidates += [Discard(i), Close(i)]
    for step in candidates:
        if game.can(step):
            out.add(step)
    return out


def test_a_standard_racks_offer_the_same_choices_up_to_copies() -> None:
    checked = 0
    for _preset, game in _sample_states(60):
        state = game.state
        listed = [s for s in game.legal_steps() if isinstance(s, _RACK_STEPS)]
        # each listed step is its own canonical step, and no two are equivalent
        assert all(canonical_step(state, s) == s for s in listed)
        assert len(set(listed)) == len(listed)
        every = _every_copy_steps(game)
        assert {canonical_step(state, s) for s in every} == set(listed)
        checked += 1
    assert checked >= 150


_RACK_STEPS = (MeldTiles, LayOff, SwapJoker, Discard, Close)


def _pi(a: int, b: int) -> Callable[[int], int]:
    return lambda i: b if i == a else a if i == b else i


def _fingerprint(state: GameState, p: Callable[[int], int]) -> tuple[Any, ...]:
    """``state`` with ids renamed by ``p``, the fields that hold sets of tiles sorted;
    without ``rack_at_start`` (no rule reads it) and, where RUPE-06 does not ask that
    the take's meld tiles predate it, without the split of the rupere's tiles from the
    rack before the take."""

    def ids(t: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(p(i) for i in t)

    def srt(t: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(sorted(ids(t)))

    table = state.table
    jokers = table.jokers
    if p(JOKER_IDS[0]) == JOKER_IDS[1]:
        jokers = (jokers[1], jokers[0])
    melds = tuple((m.owner, ids(m.ids), m.meld, m.credited, m.placed_by) for m in table.melds)
    seats = tuple(attrs.evolve(s, rack=srt(s.rack)) for s in state.seats)
    turn = state.pending
    pending: tuple[Any, ...] | None = None
    if turn is not None:
        ob = turn.obligation
        obligation: tuple[Any, ...] | None = None
        if ob is not None:
            if state.rules.take_meld_tiles_must_predate_take:
                own: tuple[Any, ...] = (srt(ob.rack_before_take), srt(ob.also_taken))
            else:
                own = (srt(ob.rack_before_take + ob.also_taken),)
            obligation = (ob.source, p(ob.picked), *own)
        pending = (
            turn.seat,
            turn.number,
            turn.opened_before,
            turn.took,
            obligation,
            turn.new_melds,
            srt(turn.laid_off),
            srt(turn.swapped_jokers),
            srt(turn.placed),
            turn.steps,
        )
    end = state.end
    return (
        state.phase,
        state.current,
        state.turn,
        seats,
        ids(state.stock),
        ids(state.row),
        state.row_dead_first,
        p(state.atu),
        state.atu_face_up,
        melds,
        jokers,
        pending,
        state.announce_window,
        state.preplay,
        tuple(sorted(state.exchanged)),
        None if end is None else attrs.evolve(end, closing_tile=None),
        None if end is None or end.closing_tile is None else p(end.closing_tile),
    )


def _same_value_pairs(state: GameState) -> Iterator[tuple[int, int]]:
    rack = state.rack(state.current)
    for a, b in itertools.combinations(rack, 2):
        if state.table.tile(a) == state.table.tile(b):
            yield a, b


def _renamed(step: Step, p: Callable[[int], int]) -> Step:
    if isinstance(step, MeldTiles):
        return MeldTiles(tuple(p(i) for i in step.tiles))
    if isinstance(step, LayOff):
        return LayOff(p(step.tile), step.meld, step.end)
    if isinstance(step, SwapJoker):
        return SwapJoker(p(step.tile), step.meld, step.joker)
    if isinstance(step, Discard):
        return Discard(p(step.tile))
    assert isinstance(step, Close)
    return Close(p(step.tile))


def test_a_copies_are_exactly_the_symmetries_of_the_state() -> None:
    # Two rack tiles of one value have equal copy keys exactly when exchanging their
    # ids throughout the state changes nothing (up to the documented fields); and a
    # step naming one behaves as the step naming the other: both verify or neither,
    # and the states they lead to are the same up to that exchange.
    same = different = steps = 0
    for _preset, game in _sample_states(200):
        state = game.state
        seat = state.current
        identity = _fingerprint(state, lambda i: i)
        legal = [s for s in game.legal_steps() if isinstance(s, _RACK_STEPS)]
        for a, b in _same_value_pairs(state):
            p = _pi(a, b)
            symmetric = _fingerprint(state, p) == identity
            equal = copy_key(state, seat, a) == copy_key(state, seat, b)
            assert symmetric == equal, (a, b, copy_key(state, seat, a), copy_key(state, seat, b))
            if not equal:
                different += 1
                continue
            same += 1
            for step in legal:
                twin = _renamed(step, p)
                if twin == step:
                    continue
                assert game.can(twin)
                after, _ = apply_step(state, step, NoChance())
                after_twin, _ = apply_step(state, twin, NoChance())
                assert _fingerprint(after, p) == _fingerprint(after_twin, lambda i: i)
                steps += 1
    assert same >= 100 and steps >= 100 and different >= 5, (same, different, steps)


def test_a_the_copy_the_cli_names_is_listed() -> None:
    # "meld 5R 6R 7R" typed at the CLI picks the owed copy first, then rack order
    # (remi_rules.notation's short form): exactly the listed step.
    checked = 0
    for _preset, game in _sample_states(40):
        state = game.state
        view = game.view(state.current)
        legal = game.legal_steps()
        for step in legal:
            if isinstance(step, MeldTiles | LayOff | SwapJoker):
                text = format_step(step, view)
                parsed = parse_command(text, view)
                assert isinstance(parsed, MeldTiles | LayOff | SwapJoker), text
                if isinstance(step, MeldTiles):
                    assert parsed in legal, (text, step, parsed)
                    checked += 1
    assert checked >= 100


def test_a_an_owed_copy_is_never_swapped_for_another() -> None:
    # clasic: seat 1 discards 7R (copy 1); seat 0 holds 7R (copy 0), 5R and 6R and
    # takes the discard: the meld with the taken copy and the one with his own copy
    # are both listed (different choices), the taken copy's first (the CLI's).
    taken, own = tile_id("7R", 1), tile_id("7R", 0)
    run = [tile_id("5R"), tile_id("6R")]
    sets = [tile_id(t) for t in ("10R", "10G", "10A", "11R", "11G", "11A")]
    seat0 = [*run, own, *sets, tile_id("2N"), tile_id("3G")]
    deal = two_seat_deal(seat0, [taken], tile_id("4N"), [tile_id("9A"), tile_id("8N")])
    game = Game.new(variants.get("online"), 2, deal=deal)
    game.apply(Discard(tile_id("2N")))
    game.apply(Draw())
    game.apply(Discard(taken))
    assert game.can(TakeLastDiscard())
    game.apply(TakeLastDiscard())
    state = game.state
    assert copy_key(state, 0, taken) != copy_key(state, 0, own)
    melds = [s for s in game.legal_steps() if isinstance(s, MeldTiles)]
    with_taken = MeldTiles((*run, taken))
    with_own = MeldTiles((*run, own))
    assert with_taken in melds and with_own in melds
    assert melds.index(with_taken) < melds.index(with_own)
    assert canonical_step(state, with_own) == with_own


# -- B. bounded turns ------------------------------------------------------------------------


def _a_turn_with_a_row_take() -> Game:
    """A seeded online round at a turn whose player may take the last discard and
    then end his turn."""
    for seed in range(200):
        for at in play_states("online", 2, 900 + seed):
            if TakeLastDiscard() in at.legal:
                after, _ = apply_step(at.game.state, TakeLastDiscard(), NoChance())
                if find_turn(after, budget=300):
                    return Game.replay(at.game.record())
    raise AssertionError("no row take found")


def test_b_a_turn_makes_at_most_max_undos() -> None:
    assert MAX_UNDOS_PER_TURN == 64
    game = _a_turn_with_a_row_take()
    seat = game.state.current
    for _ in range(MAX_UNDOS_PER_TURN):
        game.apply(TakeLastDiscard())
        assert Undo() in game.legal_steps()
        game.apply(Undo())
    # past the cap the take would stay, and the turn cannot end right after it (the
    # taken tile must go into a meld first); it can still end later, so the take is
    # finishable and accepted, and from then on only finishable steps are
    assert not eng.legal.can_end_turn(apply_step(game.state, TakeLastDiscard(), NoChance())[0])
    assert game.is_finishable(TakeLastDiscard())
    assert TakeLastDiscard() in game.legal_steps()
    assert game.can_undo() is False and Undo() not in game.legal_steps()
    game.apply(TakeLastDiscard())
    assert game.can_undo() is False and Undo() not in game.legal_steps()
    for _ in range(40):
        if game.state.current != seat or game.over:
            break
        legal = game.legal_steps()
        assert legal and legal == game.legal_steps(finishable=True)
        refused = [
            s
            for s in eng.legal_steps(game.state)
            if s not in legal and s.in_turn and not isinstance(s, Undo)
        ]
        for step in refused[:5]:
            with pytest.raises(IllegalStepError) as info:
                game.apply(step)
            assert info.value.code is StepErrorCode.UNDO_LIMIT
            assert info.value.details["limit"] == MAX_UNDOS_PER_TURN
            assert "64" in info.value.message("ro") and "64" in info.value.message("en")
        ends = [s for s in legal if isinstance(s, Discard)]
        game.apply(ends[0] if ends else legal[0])
    assert game.state.current != seat or game.over
    # and a later turn has its own undos
    for _ in range(200):
        if game.over or game.can(TakeLastDiscard()):
            break
        game.apply(Draw())
        game.apply(next(s for s in game.legal_steps() if isinstance(s, Discard)))
    assert game.can(TakeLastDiscard())
    game.apply(TakeLastDiscard())
    assert game.can_undo() and Undo() in game.legal_steps()


def _a_declarer_at_the_cap_with_a_meld_down() -> Game:
    """clasic: seat 0 declares pe tablă, melds 10R 11R 12R in his second turn (he
    cannot close: the rest of his rack is loose tiles) and spends the turn's 64 undos
    laying off 13R and taking it back, the meld still down."""
    hand = "10R 11R 12R 13R 2N 5G 7A 9N 3A 1G 8R 4N 6A 11G 13A"
    seat0 = [tile_id(t) for t in hand.split()]
    deal = two_seat_deal(seat0, [tile_id("9G")], tile_id("4A"), [tile_id("5N"), tile_id("6N")])
    game = Game.new(variants.get("clasic"), 2, deal=deal)
    game.apply(eng.DeclarePeTabla(0))
    game.apply(Discard(tile_id("2N")))
    game.apply(Draw())
    game.apply(Discard(tile_id("9G")))
    game.apply(Draw())
    game.apply(MeldTiles((tile_id("10R"), tile_id("11R"), tile_id("12R"))))
    lay = LayOff(tile_id("13R"), 0, End.HIGH)
    for _ in range(MAX_UNDOS_PER_TURN):
        game.apply(lay)
        game.apply(Undo())
    return game


def test_b_past_the_cap_a_turn_can_still_end() -> None:
    # Found by the engine's state machine: a pe-tablă declarer whose 64th undo left a
    # meld on the table had no legal step at all.  Past the cap he may undo the steps
    # kept from before it while his turn cannot end, and nothing that would leave it
    # unable to end is accepted.
    game = _a_declarer_at_the_cap_with_a_meld_down()
    state = game.state
    assert not eng.legal.can_end_turn(state)
    assert game.legal_steps() == (Undo(),)
    for bad in ("x", None, 10**5000):  # past the cap too, not a step is a TypeError
        for method in (game.apply, game.can, game.verify):
            with pytest.raises(TypeError):
                method(bad)  # type: ignore[arg-type]
    lay = LayOff(tile_id("13R"), 0, End.HIGH)
    with pytest.raises(IllegalStepError) as info:
        game.apply(lay)
    assert info.value.code is StepErrorCode.UNDO_LIMIT and game.state == state
    assert not game.can(lay)
    game.apply(Undo())  # the meld comes back to the rack
    assert eng.legal.can_end_turn(game.state)
    assert Undo() not in game.legal_steps() and not game.can_undo()
    with pytest.raises(IllegalStepError) as info:
        game.apply(Undo())
    assert info.value.code is StepErrorCode.NOTHING_TO_UNDO  # back to the draw
    # melding again would leave the turn unable to end: refused, not listed
    meld = MeldTiles((tile_id("10R"), tile_id("11R"), tile_id("12R")))
    assert meld not in game.legal_steps() and not game.can(meld)
    game.apply(next(s for s in game.legal_steps() if isinstance(s, Discard)))
    assert game.state.current == 1
    # the record replays and saves (the rescue undo is part of it)
    assert Game.replay(game.record()).state == game.state
    assert serde.loads_game(serde.dumps_game(game)).state == game.state


@pytest.mark.rule("RUPE-03")
@pytest.mark.rule("OPEN-06")
@pytest.mark.rule("JOLY-04")
@pytest.mark.parametrize(
    ("preset", "seed", "sampled"),
    [
        # 1019 took 5 minutes of CPU (one finishable search past the undo cap with the
        # stock out cost 13 s) until the search learnt that a picked tile melded
        # where it cannot be justified any more strands the turn (_finish's bound).
        ("rummy45", 1019, 20),
        ("rummy45", 1022, 20),
        ("clasic", 1150, 1),
        ("rummy45", 1406, 20),
    ],
)
def test_b_a_take_past_the_cap_with_the_stock_out_cannot_be_stranded(
    preset: str, seed: int, sampled: int
) -> None:
    # Found by the wide save-and-load run (16 of 900 rounds): a player spent his 64
    # undos on a take from the row and its undo, took again with the stock out, and
    # melded the picked tile's partners elsewhere (rummy45 1019, 1022: he had opened),
    # or melded it in a meld that left his opening out of reach (clasic 1150: he had
    # not), or laid off a joker swapped this turn where JOLY-04 wants it in a new meld
    # (rummy45 1406): no step was legal and the round could never end.  The same
    # random plays now go on.
    import random

    from reliability_play import random_round

    rng = random.Random(f"{preset} sampled-{seed}")
    rng.sample(range(1, 400), sampled)  # as the wide run drew its save points
    game = Game.new(variants.get(preset), 2 + seed % 3, seed=seed)
    random_round(game, rng, lambda g: None)  # raises AssertionError at a dead end


@pytest.mark.rule("ATU-02")
@pytest.mark.parametrize("seed", [1873, 2194])
def test_b_an_undo_drops_the_announcement_its_step_made_possible(seed: int) -> None:
    # Found by the wide save-and-load run (rummy45): a player took the atu's twin from
    # the row, announced the atu, and undid the take; the undo re-applied the
    # announcement, which no longer held (atu_twin_not_held), so a listed Undo was
    # refused.  The announcement now goes with the take.
    import random

    from reliability_play import random_round

    rng = random.Random(f"rummy45 sampled-{seed}")
    rng.sample(range(1, 400), 20)
    game = Game.new(variants.get("rummy45"), 2 + seed % 3, seed=seed)
    random_round(game, rng, lambda g: None)  # raises AssertionError on a refused listed step
    assert Game.replay(game.record()).state == game.state


def test_b_a_uniform_player_past_the_cap_always_has_a_step() -> None:
    # The protocol benchmark's player (uniform over the seat's legal steps, undo
    # included) met the same dead end in 1 of 60 rounds; this is that round.
    import random

    rules = attrs.evolve(variants.get("rummy45"), max_turns_per_round=120)
    game = Game.new(rules, 4, seed="1-rummy45-8")
    rng = random.Random("1-8")
    while not game.over:
        seat = game.state.current
        legal = game.legal_steps(seat)
        assert legal, f"no legal step in turn {game.state.turn}"
        game.apply(rng.choice(legal), seat=seat)


@pytest.mark.parametrize("preset", PRESETS)
def test_b_a_turn_past_the_cap_always_has_a_step(preset: str) -> None:
    # Random rounds in which a turn now and then spends its 64 undos (a table step or
    # a take, then its undo) and then plays on at random: a listed step is always
    # accepted, and an unfinished round always lists one.
    import random

    rng = random.Random(preset)
    rounds = 0
    for seed in range(3):
        game = Game.new(variants.get(preset), 2 + seed, seed=seed)
        for _ in range(1500):
            if game.over:
                rounds += 1
                break
            legal = game.legal_steps()
            assert legal, f"no legal step in turn {game.state.turn}"
            backable = [s for s in legal if isinstance(s, MeldTiles | LayOff | TakeLastDiscard)]
            if backable and game.can_undo() and rng.random() < 0.2:
                step = rng.choice(backable)
                for _ in range(MAX_UNDOS_PER_TURN):
                    if not game.can(step):  # past the cap, where it could strand the turn
                        break
                    game.apply(step)
                    if not game.can_undo():
                        break
                    game.apply(Undo())
                continue
            kinds: list[Step] = [s for s in legal if not isinstance(s, Undo)] or list(legal)
            game.apply(rng.choice(kinds))
    assert rounds >= 1


def test_b_keyword_and_huge_arguments_of_the_take_rules_are_coded() -> None:
    # Found by benchmarks/fuzz.py (steps surface): game.can(Rupere(index=<5,001
    # digits>)) raised CPython's digit-limit ValueError from the take rules' argument
    # check; a negative rack size, a rack of the wrong size and turn_number=0 were bare
    # ValueErrors.
    from remi_rules import rupere
    from remi_rules.context import TurnContext
    from remi_rules.errors import InvalidOpeningError, InvalidTakeError, TakeErrorCode

    game = _game()
    for index in (10**5000, -(10**5000), -1, 10**6):
        assert not game.can(eng.Rupere(index))
        with pytest.raises(IllegalStepError) as info:
            game.apply(eng.Rupere(index))
        assert str(info.value) and info.value.message("ro")
    clasic = variants.get("clasic")
    flags = {"opened_before_this_turn": True, "turn_number": 3}
    with pytest.raises(InvalidTakeError) as taken:
        rupere.verify_take((1, 2, 3), 1, -5, clasic, **flags)  # type: ignore[arg-type]
    assert taken.value.code is TakeErrorCode.BAD_ARGUMENT
    with pytest.raises(InvalidTakeError) as taken:
        rupere.verify_take((1, 2, 3), 1, 14, clasic, rack=(10, 11, 12), **flags)  # type: ignore[arg-type]
    assert taken.value.code is TakeErrorCode.RACK_SIZE_MISMATCH
    assert "3 piese" in taken.value.message("ro") and "3 tiles" in taken.value.message("en")
    with pytest.raises(InvalidOpeningError) as opening:
        TurnContext(clasic, opened_before_this_turn=True, turn_number=0)
    assert opening.value.code.value == "bad_turn_number"


def _over_cap_record() -> Any:
    game = _a_turn_with_a_row_take()
    for _ in range(MAX_UNDOS_PER_TURN):
        game.apply(TakeLastDiscard())
        game.apply(Undo())
    record = game.record()
    return attrs.evolve(record, steps=(*record.steps, TakeLastDiscard(), Undo()))


def _codes(err: BaseException) -> list[object]:
    out: list[object] = []
    seen: BaseException | None = err
    while seen is not None:
        out.append(getattr(seen, "code", None))
        details = getattr(seen, "details", {})
        out.append(details.get("step_code"))
        seen = seen.__cause__
    return out


def test_b_a_record_over_the_cap_is_refused_with_its_code() -> None:
    record = _over_cap_record()
    start = time.perf_counter()
    with pytest.raises(InvalidStateError) as info:
        Game.replay(record)
    assert StepErrorCode.UNDO_LIMIT in _codes(info.value)
    text = serde.dumps_record(record)
    with pytest.raises(InvalidStateError) as info:
        serde.loads_record(text)
    assert StepErrorCode.UNDO_LIMIT in _codes(info.value) or "undo_limit" in _codes(info.value)
    assert time.perf_counter() - start < 10


def test_b_a_huge_take_undo_record_is_refused_quickly() -> None:
    # 100,000 take/undo steps (a legal save before the cap) stop at the 65th undo.
    base = _over_cap_record()
    steps = base.steps[: -(2 * MAX_UNDOS_PER_TURN + 2)]
    record = attrs.evolve(base, steps=(*steps, *(TakeLastDiscard(), Undo()) * 50_000))
    start = time.perf_counter()
    with pytest.raises(InvalidStateError) as info:
        Game.replay(record)
    assert StepErrorCode.UNDO_LIMIT in _codes(info.value)
    assert time.perf_counter() - start < 5


def test_b_the_undo_limit_has_both_messages() -> None:
    err = IllegalStepError(StepErrorCode.UNDO_LIMIT, limit=64)
    ro, en = err.message("ro"), err.message("en")
    assert "64 de mutări" in ro and "64 steps" in en and "înapoi" in ro


# -- C. typed errors from every public name -----------------------------------------------------


def _game() -> Game:
    return Game.new(variants.get("clasic"), 3, seed=5)


def _over_game() -> Game:
    from remi_rules.bots import RandomBot

    game = Game.new(variants.get("online"), 2, seed=3)
    eng.play_round(game, [RandomBot(1), RandomBot(2)])
    return game


class _NoBot:
    pass


RULES = variants.get("clasic")
TYPE = TypeError
Coded = tuple[type[BaseException], object]


def _coded(code: object) -> Coded:
    return (RemiError, code)


# name -> calls with bad arguments and what each must raise (TypeError, or a RemiError
# with that code).  Each lambda builds what it needs.
CALLS: dict[str, list[tuple[str, Callable[[], object], Any]]] = {
    "Game": [
        ("new rules", lambda: Game.new("clasic", 2), TYPE),  # type: ignore[arg-type]
        ("new players 1000", lambda: Game.new(RULES, 1000), _coded(EngineErrorCode.PLAYERS)),
        ("new players 1", lambda: Game.new(RULES, 1), _coded(EngineErrorCode.PLAYERS)),
        ("new players str", lambda: Game.new(RULES, "ab"), TYPE),
        ("new players float", lambda: Game.new(RULES, 2.0), TYPE),  # type: ignore[arg-type]
        ("new names", lambda: Game.new(RULES, [1, 2]), TYPE),  # type: ignore[list-item]
        (
            "new starter 9",
            lambda: Game.new(RULES, 2, starter=9),
            _coded(EngineErrorCode.BAD_SEAT),
        ),
        ("new starter str", lambda: Game.new(RULES, 2, starter="0"), TYPE),  # type: ignore[arg-type]
        ("new seed", lambda: Game.new(RULES, 2, seed=[1]), TYPE),  # type: ignore[arg-type]
        ("new deal int", lambda: Game.new(RULES, 2, deal=5), TYPE),  # type: ignore[arg-type]
        ("new deal str ids", lambda: Game.new(RULES, 2, deal=["a"] * 106), TYPE),  # type: ignore[list-item]
        (
            "new deal short",
            lambda: Game.new(RULES, 2, deal=list(range(100))),
            _coded(InvalidStateError),
        ),
        ("new automation", lambda: Game.new(RULES, 2, automation=True), TYPE),  # type: ignore[arg-type]
        ("init", lambda: Game("x", record=None, chance=None), TYPE),  # type: ignore[arg-type]
        ("replay", lambda: Game.replay("x"), TYPE),  # type: ignore[arg-type]
        ("apply str", lambda: _game().apply("x"), TYPE),  # type: ignore[arg-type]
        ("apply None", lambda: _game().apply(None), TYPE),  # type: ignore[arg-type]
        ("can str", lambda: _game().can("x"), TYPE),  # type: ignore[arg-type]
        ("verify str", lambda: _game().verify("x"), TYPE),  # type: ignore[arg-type]
        ("verify int", lambda: _game().verify(3), TYPE),  # type: ignore[arg-type]
        ("view 5", lambda: _game().view(5), _coded(EngineErrorCode.BAD_SEAT)),
        ("view -1", lambda: _game().view(-1), _coded(EngineErrorCode.BAD_SEAT)),
        ("view str", lambda: _game().view("0"), TYPE),  # type: ignore[arg-type]
        ("events_for 5", lambda: _game().events_for(5), _coded(EngineErrorCode.BAD_SEAT)),
        ("events_for str", lambda: _game().events_for("0"), TYPE),  # type: ignore[arg-type]
        ("sender str", lambda: _game().sender("draw"), TYPE),  # type: ignore[arg-type]
        ("legal_steps 9", lambda: _game().legal_steps(9), _coded(EngineErrorCode.BAD_SEAT)),
        ("legal_steps seat str", lambda: _game().legal_steps("1"), TYPE),  # type: ignore[arg-type]
        ("legal_steps finishable int", lambda: _game().legal_steps(0, finishable=1), TYPE),  # type: ignore[arg-type]
        ("is_finishable str", lambda: _game().is_finishable("draw"), TYPE),  # type: ignore[arg-type]
        (
            "is_finishable seat 9",
            lambda: _game().is_finishable(Draw(), seat=9),
            _coded(EngineErrorCode.BAD_SEAT),
        ),
        ("is_finishable seat str", lambda: _game().is_finishable(Draw(), seat="0"), TYPE),  # type: ignore[arg-type]
        (
            "apply another seat's step",
            lambda: _game().apply(Draw(), seat=(_game().state.current + 1) % 2),
            _coded(StepErrorCode.NOT_YOUR_STEP),
        ),
        ("apply seat 7", lambda: _game().apply(Draw(), seat=7), _coded(EngineErrorCode.BAD_SEAT)),
        ("verify seat str", lambda: _game().verify(Draw(), seat="0"), TYPE),  # type: ignore[arg-type]
        (
            "can seat huge",
            lambda: _game().can(Draw(), seat=10**5000),
            _coded(EngineErrorCode.BAD_SEAT),
        ),
        ("undo nothing", lambda: _game().undo(), _coded(StepErrorCode.NOTHING_TO_UNDO)),
        (
            "apply discard 999",
            lambda: _game().apply(Discard(999)),
            _coded(StepErrorCode.NOT_IN_RACK),
        ),
        ("apply over", lambda: _over_game().apply(Draw()), _coded(StepErrorCode.ROUND_OVER)),
    ],
    "round_step_bound": [
        ("str", lambda: eng.round_step_bound("x"), TYPE),  # type: ignore[arg-type]
        ("players str", lambda: eng.round_step_bound(RULES, "4"), TYPE),  # type: ignore[arg-type]
        ("players 5", lambda: eng.round_step_bound(RULES, 5), _coded(EngineErrorCode.PLAYERS)),
        ("huge", lambda: eng.round_step_bound(RULES, 10**5000), _coded(EngineErrorCode.PLAYERS)),
    ],
    "round_turn_bound": [
        ("str", lambda: eng.round_turn_bound("x"), TYPE),  # type: ignore[arg-type]
        ("players 1", lambda: eng.round_turn_bound(RULES, 1), _coded(EngineErrorCode.PLAYERS)),
    ],
    "score_state": [
        ("str", lambda: eng.score_state("x"), TYPE),  # type: ignore[arg-type]
        (
            "unfinished",
            lambda: eng.score_state(_game().state),
            _coded(EngineErrorCode.ROUND_NOT_OVER),
        ),
    ],
    "legal_steps": [("str", lambda: eng.legal_steps("x"), TYPE)],  # type: ignore[arg-type]
    "canonical_step": [
        ("state", lambda: eng.canonical_step("x", Draw()), TYPE),  # type: ignore[arg-type]
        ("step", lambda: eng.canonical_step(_game().state, "x"), TYPE),  # type: ignore[arg-type]
    ],
    "copy_key": [
        ("state", lambda: eng.copy_key("x", 0, 0), TYPE),  # type: ignore[arg-type]
        ("seat type", lambda: eng.copy_key(_game().state, "0", 0), TYPE),  # type: ignore[arg-type]
        ("seat 7", lambda: eng.copy_key(_game().state, 7, 0), _coded(EngineErrorCode.BAD_SEAT)),
        (
            "not in rack",
            lambda: eng.copy_key(_game().state, 0, 200),
            _coded(EngineErrorCode.NOT_IN_RACK),
        ),
    ],
    "double_class": [
        ("joker", lambda: eng.double_class(104, RULES), _coded(EngineErrorCode.JOKER_NOT_DOUBLE)),
        ("id", lambda: eng.double_class(300, RULES), _coded(InvalidTileError)),
        ("type", lambda: eng.double_class("5", RULES), TYPE),  # type: ignore[arg-type]
        ("rules", lambda: eng.double_class(5, "clasic"), TYPE),  # type: ignore[arg-type]
    ],
    "doubles_of": [
        ("str", lambda: eng.doubles_of("abc"), TYPE),  # type: ignore[arg-type]
        ("int", lambda: eng.doubles_of(5), TYPE),  # type: ignore[arg-type]
        ("id", lambda: eng.doubles_of((300, 301)), _coded(RemiError)),
        ("str ids", lambda: eng.doubles_of(("a", "b")), TYPE),  # type: ignore[arg-type]
    ],
    "tile_census": [("str", lambda: eng.tile_census("x"), TYPE)],  # type: ignore[arg-type]
    "state_problems": [("str", lambda: eng.state_problems("x"), TYPE)],  # type: ignore[arg-type]
    "turn_context": [
        ("str", lambda: eng.turn_context("x"), TYPE),  # type: ignore[arg-type]
        ("closing_turn", lambda: eng.turn_context(_game().state, closing_turn=1), TYPE),  # type: ignore[arg-type]
    ],
    "play_round": [
        ("game", lambda: eng.play_round("x", []), TYPE),  # type: ignore[arg-type]
        ("bots type", lambda: eng.play_round(_game(), "abc"), TYPE),  # type: ignore[arg-type]
        ("not bots", lambda: eng.play_round(_game(), [_NoBot()] * 3), TYPE),  # type: ignore[list-item]
        ("bot count", lambda: eng.play_round(_game(), []), _coded(EngineErrorCode.BOT_COUNT)),
        ("max_steps", lambda: eng.play_round(_game(), [], max_steps="9"), TYPE),  # type: ignore[arg-type]
        (
            "too long",
            lambda: _play_short(),
            _coded(EngineErrorCode.ROUND_TOO_LONG),
        ),
    ],
    "Match": [
        ("rules", lambda: eng.Match("x", 2), TYPE),  # type: ignore[arg-type]
        ("players", lambda: eng.Match(RULES, 7), _coded(EngineErrorCode.PLAYERS)),
        ("players type", lambda: eng.Match(RULES, 2.5), TYPE),  # type: ignore[arg-type]
        ("config type", lambda: eng.Match(RULES, 2, "x"), TYPE),  # type: ignore[arg-type]
        (
            "first starter",
            lambda: eng.Match(RULES, 2, eng.MatchConfig(first_starter=5)),
            _coded(EngineErrorCode.BAD_SEAT),
        ),
        ("seed", lambda: eng.Match(RULES, 2, seed=[1]), TYPE),  # type: ignore[arg-type]
        (
            "next round pending",
            lambda: eng.Match(RULES, 2, seed=1).next_round(),
            _coded(EngineErrorCode.MATCH_ROUND_PENDING),
        ),
        ("play", lambda: eng.Match(RULES, 2, seed=1).play([]), _coded(EngineErrorCode.BOT_COUNT)),
        (
            "from_games none",
            lambda: eng.Match.from_games(RULES, 2, eng.MatchConfig(), [], first_starter=0),
            _coded(EngineErrorCode.NO_ROUNDS),
        ),
        (
            "from_games starter",
            lambda: eng.Match.from_games(RULES, 2, eng.MatchConfig(), [_game()], first_starter=4),
            _coded(EngineErrorCode.BAD_SEAT),
        ),
        (
            "from_games games",
            lambda: eng.Match.from_games(RULES, 2, eng.MatchConfig(), ["g"], first_starter=0),  # type: ignore[list-item]
            TYPE,
        ),
        (
            "from_games config",
            lambda: eng.Match.from_games(RULES, 2, "x", [_game()], first_starter=0),  # type: ignore[arg-type]
            TYPE,
        ),
    ],
    "MatchConfig": [
        ("rounds 0", lambda: eng.MatchConfig(rounds=0), _coded(EngineErrorCode.BAD_MATCH_CONFIG)),
        ("rounds str", lambda: eng.MatchConfig(rounds="3"), TYPE),  # type: ignore[arg-type]
        (
            "both",
            lambda: eng.MatchConfig(rounds=2, target=100),
            _coded(EngineErrorCode.BAD_MATCH_CONFIG),
        ),
        ("first starter", lambda: eng.MatchConfig(first_starter="1"), TYPE),  # type: ignore[arg-type]
        ("automation", lambda: eng.MatchConfig(automation=1), TYPE),  # type: ignore[arg-type]
    ],
    "Automation": [("flag", lambda: eng.Automation(scoring="yes"), TYPE)],  # type: ignore[arg-type]
    "GameRecord": [
        ("rules", lambda: _record(rules="x"), TYPE),
        ("players", lambda: _record(players="2"), TYPE),
        ("deal", lambda: _record(deal=[1]), TYPE),
        ("steps", lambda: _record(steps=[Draw()]), TYPE),
    ],
    "PlayerView": [
        ("of state", lambda: eng.PlayerView.of("x", 0), TYPE),  # type: ignore[arg-type]
        ("of seat", lambda: eng.PlayerView.of(_game().state, 3), _coded(EngineErrorCode.BAD_SEAT)),
        ("of seat type", lambda: eng.PlayerView.of(_game().state, None), TYPE),  # type: ignore[arg-type]
        ("sample_state", lambda: _game().view(0).sample_state(3), TYPE),  # type: ignore[arg-type]
        ("of undo", lambda: eng.PlayerView.of(_game().state, 0, "x"), TYPE),  # type: ignore[arg-type]
        ("legal_steps finishable", lambda: _game().view(0).legal_steps(finishable=None), TYPE),  # type: ignore[arg-type]
    ],
    "UndoInfo": [
        ("steps str", lambda: eng.UndoInfo(steps="1"), TYPE),  # type: ignore[arg-type]
        ("undos float", lambda: eng.UndoInfo(undos=1.0), TYPE),  # type: ignore[arg-type]
    ],
}


def _record(**changes: object) -> object:
    fields: dict[str, object] = {"rules": RULES, "players": 2, "dealer": 0, "starter": 1}
    fields["deal"] = tuple(range(106))
    return eng.GameRecord(**{**fields, **changes})  # type: ignore[arg-type]


def _play_short() -> object:
    from remi_rules.bots import RandomBot

    game = Game.new(variants.get("online"), 2, seed=3)
    return eng.play_round(game, [RandomBot(1), RandomBot(2)], max_steps=3)


def _step_calls() -> list[tuple[str, Callable[[], object], Any]]:
    """Every step class with a wrong-type field (the ints are checked when built; their
    ranges when verified, see test_engine_agreement)."""
    out: list[tuple[str, Callable[[], object], Any]] = []
    for cls in eng.STEP_TYPES:
        bad = ["x"] * max(1, len(attrs.fields(cls)))  # a field-less step takes none

        def build(cls: type[Step] = cls, bad: list[str] = bad) -> object:
            return cls(*bad)  # type: ignore[arg-type]  # the wrong type is the point

        out.append((cls.__name__, build, TYPE))
    return out


STEP_NAMES = {cls.__name__ for cls in eng.STEP_TYPES}
for _name in STEP_NAMES:
    CALLS.setdefault(_name, [])
for _label, _call, _want in _step_calls():
    CALLS[_label].append(("wrong type", _call, _want))
CALLS["LayOff"].append(("end", lambda: LayOff(1, 0, "middle"), TYPE))
CALLS["Event"] = [  # the base class of the events: no field, no kind
    ("an argument", lambda: eng.Event(1), TYPE),  # type: ignore[call-arg]
    ("dumped", lambda: serde.dump_event(eng.Event(), seat=0), TYPE),
]
CALLS["Discard"].append(
    ("verify out of range", lambda: _game().verify(Discard(-1)), _coded(StepErrorCode.NOT_IN_RACK))
)

VALUES = {
    # records and types the engine builds; they take no arguments from a caller that
    # are not checked when they are used (serde.load_* checks saved ones field by field)
    "Step": "a type alias",
    "STEP_TYPES": "a tuple of classes",
    "MAX_UNDOS_PER_TURN": "a constant",
    "Bot": "a Protocol",
    "EndReason": "an enum",
    "End": "an enum (remi_rules.lipire's)",
    "Phase": "an enum",
    "Obligation": "an enum",
    "TakeKind": "an enum",
    "GameState": "a record the engine builds (unchecked for speed; serde.load_game checks)",
    "SeatState": "a record the engine builds (unchecked for speed; serde.load_game checks)",
    "TurnState": "a record the engine builds (unchecked for speed; serde.load_game checks)",
    "RoundEnd": "a record the engine builds",
    "DoublesOffer": "a record the engine builds (unchecked for speed; serde.load_game checks)",
    "PublicSeat": "a record the engine builds",
    "PublicTurn": "a record the engine builds",
    "MatchRecord": "a record Match.record builds",
    "StateProblem": "a record state_problems builds",
}


def test_every_public_name_is_walked() -> None:
    missing = set(eng.__all__) - set(CALLS) - set(VALUES)
    assert not missing, f"public names without a bad-argument walk: {sorted(missing)}"
    assert not (set(CALLS) & set(VALUES))
    assert set(CALLS) | set(VALUES) <= set(eng.__all__)
    for name, calls in CALLS.items():
        assert calls, f"{name} has no bad call"


def test_every_public_method_of_game_and_match_is_walked() -> None:
    # Game's and Match's public methods with arguments all appear in the walk
    for cls, name in ((Game, "Game"), (eng.Match, "Match")):
        labels = " ".join(label for label, _, _ in CALLS[name])
        for attr, value in vars(cls).items():
            if attr.startswith("_") or isinstance(value, property):
                continue
            func = getattr(value, "__func__", value)
            code = getattr(func, "__code__", None)
            if code is None:
                continue
            params = code.co_varnames[: code.co_argcount + code.co_kwonlyargcount]
            if len([p for p in params if p not in ("self", "cls")]) == 0:
                continue
            assert attr in labels or (attr == "__init__"), f"{name}.{attr} is not walked"


def _cases() -> Iterator[Any]:
    for name in sorted(CALLS):
        for label, call, want in CALLS[name]:
            yield pytest.param(call, want, id=f"{name}: {label}")


@pytest.mark.parametrize(("call", "want"), list(_cases()))
def test_bad_arguments_raise_a_type_error_or_a_coded_error(
    call: Callable[[], object], want: Any
) -> None:
    with pytest.raises(Exception) as info:
        call()
    err = info.value
    if want is TYPE:
        assert isinstance(err, TypeError), repr(err)
        return
    _cls, code = want
    assert isinstance(err, RemiError), repr(err)
    assert i18n.has_text(err.code, "ro") and i18n.has_text(err.code, "en")
    if isinstance(code, type):
        assert isinstance(err, code), repr(err)
    else:
        assert err.code is code, repr(err)
    assert err.message("ro") and err.message("en")


def test_engine_error_codes_have_both_messages() -> None:
    for code in EngineErrorCode:
        ro, en = i18n.template(code, "ro"), i18n.template(code, "en")
        assert ro and en and ro != en
    err = EngineArgumentError(EngineErrorCode.PLAYERS, players=1000)
    assert isinstance(err, ValueError)
    assert "1000" in err.message("ro") and "1000" in err.message("en")
