"""The legal-step generator and the verifier agree (DESIGN.md: ``legal_steps`` lists
exactly what ``verify`` accepts, each choice once: up to copies of the same tiles).

On at least 10,000 reachable states per preset (rounds of 2, 3 and 4 players played by
:class:`engine_policies.VariedPolicy`, which opens, takes from the row, lays off, swaps
jokers, undoes, declares pe tablă and now and then plays at random; plus fresh deals
with doubles exchanges and announcements before the first discard):

* every step of ``game.legal_steps()`` passes ``game.verify`` (and, for the step the
  policy plays, ``game.apply``);
* every listed step is its own canonical step and is listed once;
* every step of a random sample from a wide candidate space (every step class, tiles
  from the rack and elsewhere, any meld index and end, row indexes in and out of
  range, any seat; melds as subsets of the rack in run order or in a set's canonical
  order) that passes ``game.verify`` is in ``game.legal_steps()`` *up to copies*: its
  canonical step (each rack tile replaced by the canonical copy of its class,
  :func:`remi_rules.engine.canonical_step`) is listed and verifies.  Two rack tiles
  are copies of each other when their :func:`remi_rules.engine.copy_key` are equal:
  the same value and the same part in the pending turn (docs/engine.md, "Copies");
  tests/test_reliability_engine.py checks that equal keys are exactly the exchanges
  of ids that leave the state the same, and that listing every physical copy offers
  the same choices;
* ``verify`` raises nothing but :class:`~remi_rules.IllegalStepError`.

The count per preset is ``REMI_AGREEMENT_STATES`` (default 5,000, 10,000 with
``REMI_WIDE=1``; 80 candidates per state).  ``benchmarks/agreement.py`` runs the
same check from the command line with any count and prints a JSON summary.

Disagreements that are known engine bugs (``engine_policies.KNOWN_BUGS``, each with a
strict xfail reproduction below) are tolerated; any other fails the test with the
preset, the seed and the number of recorded steps that lead to it.
"""

from __future__ import annotations

import os
import random
from collections import Counter

import pytest
from engine_policies import (
    KNOWN_BUGS,
    PRESETS,
    Coverage,
    Disagreement,
    check_agreement,
    play_states,
    preplay_states,
    tile_id,
    two_seat_deal,
)

from remi_rules import Tile, variants
from remi_rules.engine import (
    AnnounceAtu,
    Discard,
    Draw,
    Game,
    MeldTiles,
    Rupere,
    SwapJoker,
    TakeLastDiscard,
    Undo,
)
from remi_rules.errors import IllegalStepError, StepErrorCode

STATES = int(
    os.environ.get(
        "REMI_AGREEMENT_STATES", "10000" if os.environ.get("REMI_WIDE") == "1" else "5000"
    )
)
CANDIDATES = 80
"""Candidate steps sampled per state."""
PREPLAY_DEALS = 60
"""Fresh deals per preset checked before and at the first discard (doubles, redeals)."""

# Kinds of state each preset's sample must hold at least this many of (per 10,000).
WANTED = {
    "take": 1000,
    "action": 4000,
    "preplay": 150,
    "pending_row_take": 400,
    "pending_rupere": 100,
    "opening_in_progress": 1000,
    "laid_off_this_turn": 200,
    "swap_this_turn": 20,
    "small_rack": 150,
    "announce_window": 20,
    "joker_reused": 100,
    "over": 10,
}
WANTED_CLASIC = {"pe_tabla_declared": 1000}


def agreement_run(
    preset: str, states: int
) -> tuple[int, Coverage, list[Disagreement], Counter[str]]:
    """Check ``states`` reachable states of ``preset`` (and the pre-play deals)."""
    coverage = Coverage()
    found: list[Disagreement] = []
    stats: Counter[str] = Counter()
    checked = 0
    for seed in range(PREPLAY_DEALS):
        rng = random.Random(f"preplay-candidates-{preset}-{seed}")
        for at in preplay_states(preset, 2 + seed % 3, 10_000 + seed):
            coverage.add(at.game.state)
            found += check_agreement(at, rng, CANDIDATES, stats=stats)
            checked += 1
    seed = 0
    while checked < states:
        players = 2 + seed % 3
        rng = random.Random(f"candidates-{preset}-{players}-{seed}")
        for at in play_states(preset, players, seed, failures=found):
            coverage.add(at.game.state)
            found += check_agreement(at, rng, CANDIDATES, stats=stats)
            checked += 1
        seed += 1
    return checked, coverage, found, stats


def _report(found: list[Disagreement]) -> str:
    firsts: dict[tuple[str, str, str | None], Disagreement] = {}
    counts: Counter[tuple[str, str, str | None]] = Counter()
    for d in found:
        key = (d.what, d.step.kind, d.code)
        counts[key] += 1
        firsts.setdefault(key, d)
    return "\n".join(f"{counts[k]} × {firsts[k]}" for k in counts)


@pytest.mark.rule("TURN-03")
@pytest.mark.rule("TURN-06")
@pytest.mark.rule("RUPE-01")
@pytest.mark.rule("LIPI-01")
@pytest.mark.rule("JOLY-01")
@pytest.mark.parametrize("preset", PRESETS)
def test_generator_and_verifier_agree_on_reachable_states(preset: str) -> None:
    checked, coverage, found, stats = agreement_run(preset, STATES)
    assert checked >= STATES
    new = [d for d in found if d.known is None]
    assert not new, "generator and verifier disagree:\n" + _report(new)
    # the sample holds the states that matter, in proportion to its size
    scale = STATES / 10_000
    wanted = {**WANTED, **(WANTED_CLASIC if preset == "clasic" else {})}
    thin = {k: coverage[k] for k, n in wanted.items() if coverage[k] < n * scale}
    assert not thin, f"too few states of these kinds: {thin} (of {dict(coverage)})"
    # and the reverse direction was exercised: candidates of most classes verified
    verified = {k.split()[0] for k, n in stats.items() if k.endswith("verified") and n}
    assert {"draw", "take_last_discard", "rupere", "meld", "lay_off", "swap_joker"} <= verified
    assert {"discard", "close", "undo", "announce_few_tiles", "announce_atu"} <= verified


def test_known_bug_tags_are_documented() -> None:
    # each tag has its strict xfail reproduction (here, or in test_engine_properties.py)
    assert set(KNOWN_BUGS) == set()


# -- the engine bugs this check found, as minimal reproductions ----------------------------------


_id = tile_id
_deal = two_seat_deal


@pytest.mark.rule("ATU-02")
def test_undo_of_a_take_after_the_takers_atu_announcement() -> None:
    # online: the atu is 7R; seat 1 discards its twin, seat 0 takes it with 5R 6R; he
    # may not announce the atu in the middle of his own turn (found as a bug: the
    # announcement made the take impossible to undo), and the take undoes.
    atu, twin = _id("7R"), _id("7R", 1)
    deal = _deal([_id("5R"), _id("6R")], [twin], atu, [])
    game = Game.new(variants.get("online"), 2, deal=deal)
    game.apply(Discard(game.state.rack(0)[-1]))
    game.apply(Draw())
    game.apply(Discard(twin))
    rack_before_take = game.state.rack(0)
    game.apply(TakeLastDiscard())
    with pytest.raises(IllegalStepError) as info:
        game.apply(AnnounceAtu(0))
    assert info.value.code is StepErrorCode.ANNOUNCE_AFTER_DISCARD
    assert Undo() in game.legal_steps()
    game.apply(Undo())
    assert game.state.rack(0) == rack_before_take


@pytest.mark.rule("JOLY-05")
def test_a_set_with_a_fixed_joker_is_listed_in_canonical_order() -> None:
    # online: seat 0 opens with 10A J 12A 13A and two sets, later swaps the joker out
    # with 11A, so it holds a joker fixed as 11A; with 11G and 11N on the rack the set
    # 11G 11N J(=11A) verifies, and that is its canonical (Meld.tiles) order.
    joker = 104
    run = [_id("10A"), joker, _id("12A"), _id("13A")]
    sets = [_id("5R"), _id("5G"), _id("5N"), _id("9R"), _id("9G"), _id("9N")]
    eleven = [_id("11A"), _id("11G"), _id("11N")]
    seat0 = [*run, *sets, *eleven, _id("2R"), _id("3G")]
    stock = [_id("2N"), _id("6A"), _id("4N"), _id("7G")]
    game = Game.new(variants.get("online"), 2, deal=_deal(seat0, [], _id("4R"), stock))
    game.apply(Discard(_id("2R")))
    game.apply(Draw())
    game.apply(Discard(_id("2N")))
    game.apply(Draw())
    for meld in (run, sets[:3], sets[3:]):
        game.apply(MeldTiles(meld))
    game.apply(Discard(_id("3G")))
    game.apply(Draw())
    game.apply(Discard(_id("4N")))
    game.apply(Draw())
    game.apply(SwapJoker(_id("11A"), 0, joker))
    assert game.state.table.joker(joker).fixed_as == Tile.parse("11A")
    canonical = MeldTiles((_id("11G"), _id("11N"), joker))
    game.verify(canonical)
    assert canonical in game.legal_steps()


def test_listed_steps_apply_on_a_short_round() -> None:
    # a smoke test of the harness itself: a few hundred states, no new disagreement
    found: list[Disagreement] = []
    for at in play_states("rummy45", 3, 12345, failures=found):
        found += check_agreement(at, random.Random(1), 10)
    assert not [d for d in found if d.known is None], _report(found)


def test_verify_refuses_out_of_range_values_with_its_own_error() -> None:
    game = Game.new(variants.get("clasic"), 3, seed=5)
    for step in (Rupere(-1), Rupere(99), Discard(106), Discard(-1), Undo()):
        with pytest.raises(IllegalStepError):
            game.verify(step)
