"""Finishable steps (docs/engine.md, "Finishable steps"): ``Game.is_finishable``,
``legal_steps(seat, finishable=True)`` and the engine's own use of them past the undo
cap.

* On small positions (racks of at most :data:`SMALL` tiles) the flag agrees with a
  brute force over every continuation of the turn (every legal step of the player to
  move but ``Undo``, depth first), for every listed step; a draw is judged for every
  tile the stock could bring.
* A random player choosing only finishable steps never reaches a turn that cannot
  end: every state it reaches lists a step other than ``Undo`` (a deterministic slice
  here; ``python tests/test_engine_finishable.py --rounds 1000`` runs the wide one by
  hand, per preset).
* The oracle's plans are played out by the engine, and none is ever refused
  (``_finish.plan_refusals``).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Hashable, Iterator
from typing import Any

import attrs
import pytest
from engine_policies import VariedPolicy, tile_id, two_seat_deal
from reliability_play import random_rules

from remi_rules import variants
from remi_rules.engine import (
    MAX_UNDOS_PER_TURN,
    Close,
    DeclarePeTabla,
    Discard,
    Draw,
    Game,
    GameState,
    MeldTiles,
    Phase,
    Rupere,
    Step,
    TakeLastDiscard,
    Undo,
    _finish,
    _finish_bounds,
)
from remi_rules.engine.legal import can_end_turn, legal_steps, turn_steps
from remi_rules.engine.transition import NoChance, apply_step
from remi_rules.errors import IllegalStepError
from remi_rules.ruleset import Ruleset

PRESETS = ("clasic", "online", "rummy45")
WIDE = os.environ.get("REMI_WIDE") == "1"
SMALL = 7
"""The largest rack the brute force is run on."""


# -- the brute force ------------------------------------------------------------------------------


def _key(state: GameState) -> Hashable:
    turn = state.pending
    assert turn is not None
    return (
        frozenset(state.seats[state.current].rack),
        tuple(m.ids for m in state.table.melds),
        state.table.jokers,
        attrs.evolve(turn, steps=0),
        state.seats[state.current].declared_pe_tabla,
    )


def _continuations(state: GameState) -> Iterator[Step]:
    """Every legal step the player to move may make in his turn, but Undo: the steps
    of the turn and his own declaration (announcements change nothing of a turn)."""
    yield from turn_steps(state)
    if DeclarePeTabla(state.current) in legal_steps(state):
        yield DeclarePeTabla(state.current)


class TooBig(Exception):
    """The brute force met more positions than :data:`BUDGET`: the position is left
    out of the comparison (counted)."""


BUDGET = 4000
"""Positions the brute force may visit for one question."""


def brute_can_end(state: GameState, seen: dict[Hashable, bool] | None = None) -> bool:
    """Whether some sequence of steps of the player to move ends his turn, by trying
    them all (with the positions already judged remembered); :class:`TooBig` past
    :data:`BUDGET` positions."""
    if state.phase is Phase.OVER or state.pending is None:
        return False
    seen = {} if seen is None else seen
    if len(seen) > BUDGET:
        raise TooBig
    key = _key(state)
    if key in seen:
        return seen[key]
    seen[key] = False
    found = False
    for step in _continuations(state):
        if isinstance(step, Discard | Close):
            found = True
            break
        if isinstance(step, Draw):
            found = all(brute_can_end(s, {}) for s in _draws(state))
        else:
            after, _ = apply_step(state, step, NoChance())
            found = brute_can_end(after, seen)
        if found:
            break
    seen[key] = found
    return found


def _draws(state: GameState) -> Iterator[GameState]:
    """The state after a draw, once per tile value the stock could bring (the stock
    refilled from the row, in its order, when it is out)."""
    stock = state.stock or state.row[:-1]
    values: set[object] = set()
    for k, tile in enumerate(stock):
        value = state.table.tile(tile)
        if value in values:
            continue
        values.add(value)
        order = (tile, *stock[:k], *stock[k + 1 :])
        moved = attrs.evolve(state, stock=order) if state.stock else state
        if not state.stock:
            moved = attrs.evolve(state, row=(*order, state.row[-1]))
        after, _ = apply_step(moved, Draw(), NoChance())
        yield after


def brute_finishable(state: GameState, step: Step) -> bool:
    if isinstance(step, Draw):
        return all(brute_can_end(s) for s in _draws(state))
    after, _ = apply_step(state, step, NoChance())
    if after.phase is Phase.OVER or after.pending is None:
        return True
    if after.pending.seat != state.current or after.turn != state.turn:
        return True
    if not step.in_turn and getattr(step, "seat", None) != state.current:
        return True
    if after.phase is Phase.TAKE:
        return any(brute_finishable(after, s) for s in turn_steps(after))
    return brute_can_end(after)


# -- positions ------------------------------------------------------------------------------------


def _small_rules(rng: random.Random) -> Ruleset:
    """A preset, or random house rules, dealt small (so racks get small early), with
    now and then a low opening minimum (so that small racks open)."""
    base = variants.get(rng.choice(PRESETS)) if rng.random() < 0.5 else random_rules(rng)
    others = rng.randint(5, 8)
    changes: dict[str, Any] = {"hand_sizes": (others + 1, others), "max_turns_per_round": 60}
    if rng.random() < 0.6:
        changes["opening_min_points"] = rng.choice((10, 15, 20, 25))
    if base.max_rack_after_turn is not None:
        changes["max_rack_after_turn"] = max(base.max_rack_after_turn, others + 1)
    try:
        return attrs.evolve(base, **changes)
    except (ValueError, TypeError):
        return attrs.evolve(variants.get("rummy45"), hand_sizes=(8, 7))


def small_positions(seed: int, rounds: int) -> Iterator[tuple[Game, tuple[Step, ...]]]:
    """States of rounds played by :class:`VariedPolicy` (which opens, takes from the
    row, swaps, undoes and plays at random now and then, so it also reaches turns
    that cannot end) where the player to move holds at most :data:`SMALL` tiles."""
    rng = random.Random(f"finishable-{seed}")
    for k in range(rounds):
        rules = _small_rules(rng)
        game = Game.new(rules, 2 + k % 3, seed=f"{seed}-{k}")
        policy = VariedPolicy(random.Random(f"policy-{seed}-{k}"), random_rate=0.3)
        for _ in range(600):
            if game.over:
                break
            legal = game.legal_steps()
            state = game.state
            if len(state.seats[state.current].rack) <= SMALL and state.pending is not None:
                yield game, legal
            try:
                step = policy.choose(game, list(legal))
                game.apply(step)
            except (IllegalStepError, IndexError):
                break
            if isinstance(step, Undo):
                policy.note_undo(game)


def _agreement(seed: int, rounds: int, limit: int) -> tuple[int, int, list[str]]:
    checked = unfinishable = skipped = 0
    wrong: list[str] = []
    for game, legal in small_positions(seed, rounds):
        state = game.state
        for step in legal:
            if isinstance(step, Undo) or game.sender(step) != state.current:
                continue
            try:
                truth = brute_finishable(state, step)
            except TooBig:
                skipped += 1
                continue
            flag = game.is_finishable(step)
            checked += 1
            unfinishable += not truth
            if flag != truth:
                wrong.append(f"{step} in {state.rules.fingerprint()} turn {state.turn}: {flag}")
        if state.phase is Phase.ACTION:
            try:
                whole: bool | None = brute_can_end(state)
            except TooBig:
                whole = None
            if whole is not None and _finish.can_finish(state) != whole:
                wrong.append(f"can_finish in {state.rules.fingerprint()} turn {state.turn}")
        if checked >= limit:
            break
    assert skipped <= checked // 10, (skipped, checked)
    return checked, unfinishable, wrong


@pytest.mark.rule("RUPE-01")
@pytest.mark.rule("OPEN-02")
@pytest.mark.rule("OPEN-08")
@pytest.mark.rule("JOLY-04")
@pytest.mark.rule("ATU-06")
@pytest.mark.rule("CLOSE-06")
@pytest.mark.parametrize("seed", range(4))
def test_the_flag_agrees_with_brute_force_on_small_positions(seed: int) -> None:
    before = _finish.plan_refusals[0]
    checked, unfinishable, wrong = _agreement(seed, 40 if WIDE else 12, 20_000 if WIDE else 2500)
    assert not wrong, f"{len(wrong)} of {checked} steps judged wrongly:\n" + "\n".join(wrong[:20])
    assert checked >= 300 and unfinishable >= 10, (checked, unfinishable)
    assert _finish.plan_refusals[0] == before


def test_a_three_tile_set_under_four_real_tiles_per_joker() -> None:
    # The solver once listed no set of fewer real tiles than real_tiles_per_joker, with
    # or without a joker (tests/test_meld_catalogue.py); the oracle then missed openings.
    from remi_rules import best_melds

    rules = attrs.evolve(variants.get("clasic"), real_tiles_per_joker=4)
    assert best_melds("4G 4R 4A", rules).total == 15


# -- the finishable-only player -------------------------------------------------------------------


class DeadEnd(AssertionError):
    """The finishable-only player reached a turn that cannot end (no step but Undo)."""


def finishable_round(
    game: Game, rng: random.Random, *, max_steps: int = 4000, burn: float = 0.0
) -> tuple[int, int]:
    """A uniform random player over ``legal_steps(seat, finishable=True)`` of the seat
    to move (its out-of-turn steps included); raises :class:`DeadEnd` at a state that
    lists no step other than Undo (or, in the action phase, whose turn the search says
    cannot end).  With probability ``burn`` a turn first spends its undo cap
    (:func:`_spend_undo_cap`: a finishable step put down and taken back, again and
    again), so that the rest of the turn, its take included, is played past the cap,
    where the engine itself refuses the steps that would strand the turn.  Returns the
    number of steps and of the turns played past the cap."""
    past = 0
    seen: tuple[int, int] | None = None
    spend = False
    for n in range(max_steps):
        if game.over:
            return n, past
        seat = game.state.current
        turn = (game.state.turn, seat)
        if turn != seen:
            seen, spend = turn, burn > 0 and rng.random() < burn
        if spend and _spend_undo_cap(game, rng, seat):
            spend, past = False, past + 1
        steps = game.legal_steps(seat, finishable=True)
        forward = [s for s in steps if not isinstance(s, Undo)]
        if not forward:
            raise DeadEnd(f"turn {game.state.turn}: no finishable step but undo ({steps})")
        if game.state.phase is Phase.ACTION and not _finish.can_finish(game.state):
            raise DeadEnd(f"turn {game.state.turn}: the search says the turn cannot end")
        game.apply(rng.choice(steps), seat=seat)
    return max_steps, past


def _spend_undo_cap(game: Game, rng: random.Random, seat: int) -> bool:
    """Put down a random finishable undoable step of ``seat`` (a take from the row or
    the atu, then a meld, a lay-off, a swap) and take it back until the turn has made
    :data:`MAX_UNDOS_PER_TURN` undos: whether it was (not when nothing listed is
    undoable, as before a draw: the turn tries again after its next step)."""
    while game.undo_info().undos < MAX_UNDOS_PER_TURN:
        steps = [s for s in game.legal_steps(seat, finishable=True) if s.undoable]
        if not steps:
            return False
        game.apply(rng.choice(steps), seat=seat)
        game.apply(Undo(), seat=seat)
    assert game.undo_info().past_cap
    return True


@pytest.mark.parametrize("preset", PRESETS)
def test_a_finishable_only_player_never_strands_a_turn(preset: str) -> None:
    rules = attrs.evolve(variants.get(preset), max_turns_per_round=60)
    for k in range(6 if WIDE else 2):
        rng = random.Random(f"finishable-only-{preset}-{k}")
        game = Game.new(rules, 2 + k % 3, seed=f"fin-{preset}-{k}")
        finishable_round(game, rng)
        assert game.over


@pytest.mark.parametrize("preset", PRESETS)
def test_past_the_undo_cap_a_finishable_only_player_never_strands_a_turn(preset: str) -> None:
    """The same player, a third of its turns played past the undo cap (its take
    included: a take from the row or the atu past the cap is refused unless the turn
    can still end after it, and every step listed then is finishable)."""
    rules = attrs.evolve(variants.get(preset), max_turns_per_round=40)
    past = 0
    for k in range(3 if WIDE else 1):
        rng = random.Random(f"past-cap-{preset}-{k}")
        game = Game.new(rules, 2 + k % 3, seed=f"past-cap-{preset}-{k}")
        past += finishable_round(game, rng, burn=0.35)[1]
        assert game.over
    assert past >= 3, past


# -- examples -------------------------------------------------------------------------------------


@pytest.mark.rule("OPEN-02")
def test_an_opening_meld_that_cannot_be_completed_is_not_finishable() -> None:
    # clasic: seat 0 draws and holds 11R 11G 11A (33 points) and loose tiles: melding
    # the set leaves no way to reach 45 with a run, and the turn could then only be
    # undone; the meld is legal but not finishable, a discard is.
    hand = "11R 11G 11A 2N 5G 7A 9N 3A 1G 8R 4N 6A 13A 2G"
    seat0 = [tile_id(t) for t in hand.split()]
    deal = two_seat_deal([*seat0, tile_id("12N")], [tile_id("9G")], tile_id("4A"), [tile_id("5N")])
    game = Game.new(variants.get("clasic"), 2, deal=deal)
    game.apply(Discard(tile_id("12N")))
    game.apply(Draw())
    game.apply(Discard(tile_id("9G")))
    game.apply(Draw())
    meld = MeldTiles((tile_id("11R"), tile_id("11G"), tile_id("11A")))
    assert game.can(meld) and not game.is_finishable(meld)
    assert meld in game.legal_steps(0) and meld not in game.legal_steps(0, finishable=True)
    assert game.is_finishable(Discard(tile_id("2N")))
    game.apply(meld)
    assert not any(isinstance(s, Discard) for s in game.legal_steps(0))
    assert game.legal_steps(0, finishable=True) == (Undo(),)


@pytest.mark.rule("RUPE-01")
def test_a_take_and_the_meld_of_its_partners_elsewhere() -> None:
    # online: seat 0 (opened) takes the last discard 7R for 5R 6R; melding the set
    # 5R 5G 5A spends a partner (7R fits neither that set nor what is left), so the
    # turn could no longer end; melding 5R 6R 7R meets the obligation.  Melding 4R 5R
    # 6R is finishable: 7R is then laid off on that new meld (RUPE-01 counts it).
    run = [tile_id("10A"), tile_id("11A"), tile_id("12A")]
    sets = [tile_id(t) for t in ("9R", "9G", "9N", "3R", "3G", "3N")]
    fives = [tile_id("5R"), tile_id("5G"), tile_id("5A")]
    seat0 = [*run, *sets, *fives, tile_id("6R"), tile_id("2N"), tile_id("13G")]
    taken = tile_id("7R")
    stock = [tile_id("2A"), tile_id("4R"), tile_id("8G")]
    deal = two_seat_deal(seat0, [taken], tile_id("1A"), stock)
    game = Game.new(variants.get("online"), 2, deal=deal)
    game.apply(Discard(tile_id("13G")))
    game.apply(Draw())
    game.apply(Discard(tile_id("2A")))
    game.apply(Draw())  # 4R
    for meld in (run, sets[:3], sets[3:]):
        game.apply(MeldTiles(meld))
    game.apply(Discard(tile_id("2N")))
    game.apply(Draw())
    game.apply(Discard(taken))
    assert game.is_finishable(TakeLastDiscard())
    game.apply(TakeLastDiscard())
    elsewhere = MeldTiles(tuple(fives))
    justified = MeldTiles((tile_id("5R"), tile_id("6R"), taken))
    extended = MeldTiles((tile_id("4R"), tile_id("5R"), tile_id("6R")))
    assert game.can(elsewhere) and not game.is_finishable(elsewhere)
    assert game.is_finishable(justified) and game.is_finishable(extended)
    assert not can_end_turn(game.state)
    assert not any(isinstance(s, Discard) for s in game.legal_steps(0, finishable=True))
    game.apply(extended)
    assert not can_end_turn(game.state) and _finish.can_finish(game.state)


@pytest.mark.rule("RUPE-01")
@pytest.mark.rule("RUPE-03")
@pytest.mark.rule("RUPE-06")
@pytest.mark.parametrize(("loose", "finishable"), [("2N 4G", False), ("5R 6R", True)])
def test_a_picked_tile_melded_with_the_tiles_of_its_rupere(loose: str, finishable: bool) -> None:
    # rummy45: seat 0 (opened) breaks the row at 7R and gets 7R 8R 9R, his own partners
    # being 7G 7A; melding 7R 8R 9R uses no own tile (RUPE-06).  With no red tile and
    # no joker to grow that run, the turn can no longer end, and the search says so at
    # once (_finish's bound, which cut the rummy45 1019 round from 5 minutes to
    # seconds); with 5R 6R on the rack it grows by two own tiles and stays finishable.
    def ids(text: str) -> list[int]:
        return [tile_id(t) for t in text.split()]

    seat0 = ids(f"13G 11A 12A 13A 11R 11G 11N 7G 7A {loose} 9A 1G 3A 5N")
    seat1 = ids("7R 9R 2A 4A 6A 8A 10A 3N 6N 10N 12N 1N 3G 5G")
    deal = two_seat_deal(seat0, seat1, tile_id("13N"), ids("2G 8R 4N"))
    game = Game.new(variants.get("rummy45"), 2, deal=deal)
    game.apply(Discard(tile_id("13G")))
    game.apply(Draw())
    game.apply(Discard(tile_id("7R")))
    game.apply(Draw())
    game.apply(MeldTiles(tuple(ids("11A 12A 13A"))))
    game.apply(MeldTiles(tuple(ids("11R 11G 11N"))))
    game.apply(Discard(tile_id("8R")))
    game.apply(Draw())
    game.apply(Discard(tile_id("9R")))
    game.apply(Rupere(1))
    rupere = MeldTiles(tuple(ids("7R 8R 9R")))
    assert game.is_finishable(MeldTiles(tuple(ids("7R 7G 7A"))))
    assert game.can(rupere) and game.is_finishable(rupere) is finishable
    game.apply(rupere)
    state = game.state
    assert _finish_bounds.picked_out_of_reach(state) is not finishable
    assert _finish.can_finish(state) is finishable is brute_can_end(state)
    assert (game.legal_steps(0, finishable=True) == (Undo(),)) is not finishable


def test_is_finishable_is_false_for_an_illegal_step_and_checks_the_seat() -> None:
    game = Game.new(variants.get("clasic"), 3, seed=4, starter=0)
    tile = game.state.rack(0)[0]
    assert game.is_finishable(Discard(tile)) and game.is_finishable(Discard(tile), seat=0)
    assert not game.is_finishable(Discard(tile), seat=1)
    assert not game.is_finishable(Discard(game.state.rack(1)[0]))
    assert not game.is_finishable(Undo())
    with pytest.raises(TypeError):
        game.is_finishable("draw")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        game.legal_steps(0, finishable=1)  # type: ignore[arg-type]


# -- the wide run, by hand ----------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    """The wide run by hand: ``--rounds`` rounds per preset (2, 3 and 4 seats in turn),
    each played to its end by the finishable-only player; a dead end is counted (and
    printed) and its round left there.  Prints the rounds, steps and dead ends."""
    parser = argparse.ArgumentParser(description="The finishable-only player, wide.")
    parser.add_argument("--rounds", type=int, default=1000)
    parser.add_argument("--presets", default=",".join(PRESETS))
    parser.add_argument("--seed", default="wide")
    parser.add_argument(
        "--burn", type=float, default=0.1, help="share of turns played past the undo cap"
    )
    args = parser.parse_args(argv)
    dead_total = 0
    for preset in args.presets.split(","):
        rules = attrs.evolve(variants.get(preset), max_turns_per_round=120)
        t0, cpu0 = time.perf_counter(), time.process_time()
        steps = dead = ended = past = 0
        for k in range(args.rounds):
            rng = random.Random(f"{args.seed}-{preset}-{k}")
            game = Game.new(rules, 2 + k % 3, seed=f"{args.seed}-{preset}-{k}")
            try:
                played, burnt = finishable_round(game, rng, burn=args.burn)
                steps += played
                past += burnt
            except DeadEnd as err:
                dead += 1
                print(f"{preset}: round {k}: dead end: {err}", flush=True)
                continue
            ended += game.over
            if (k + 1) % 100 == 0:
                print(
                    f"{preset}: {k + 1} rounds, {steps} steps, {past} turns past the undo cap, "
                    f"{dead} dead ends, "
                    f"{time.perf_counter() - t0:.0f} s ({time.process_time() - cpu0:.0f} s of CPU)",
                    flush=True,
                )
        dead_total += dead
        print(
            f"{preset}: {args.rounds} rounds ({ended} played to their end), {steps} steps, "
            f"{past} turns past the undo cap, {dead} dead ends, {time.perf_counter() - t0:.0f} s "
            f"({time.process_time() - cpu0:.1f} s of CPU)",
            flush=True,
        )
    print(f"plan refusals: {_finish.plan_refusals[0]}")
    return 1 if dead_total or _finish.plan_refusals[0] else 0


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(__file__))
    raise SystemExit(main())
