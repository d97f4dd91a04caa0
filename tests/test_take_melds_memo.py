"""``justifying_melds`` keeps its answers by the tiles that could be in a meld with the
taken tile (``_take_melds._memoized``): racks that differ only in other tiles share
one.  The answers must be those made afresh, whatever was asked before (RUPE-01/06)."""

from __future__ import annotations

import os
import random

import pytest

from remi_rules import ids_of, variants
from remi_rules._take_melds import _fitting
from remi_rules.rupere import justifying_melds
from remi_rules.table import JokerHistory
from remi_rules.tiles import Tile

PRESETS = ("clasic", "online", "rummy45")
CASES = 400 if os.environ.get("REMI_WIDE") == "1" else 60
FIXED = (JokerHistory(swaps=1, fixed_as=Tile.parse("7R")), JokerHistory())


def _fresh(
    taken: int,
    rack: list[int],
    preset: str,
    also: list[int],
    min_left: int,
    jokers: tuple[JokerHistory, JokerHistory],
) -> tuple[tuple[int, ...], ...]:
    rules = variants.get(preset)
    return tuple(_fitting(taken, rack, rules, also, (), min_left, jokers, memo=False))


@pytest.mark.rule("RUPE-06")
@pytest.mark.parametrize("preset", PRESETS)
def test_the_kept_answers_are_the_fresh_ones(preset: str) -> None:
    rules = variants.get(preset)
    rng = random.Random(f"justify-{preset}")
    found = 0
    for k in range(CASES):
        ids = rng.sample(range(106), 24)
        taken, rack, also = ids[0], ids[1:16], ids[16 : 16 + rng.randrange(0, 4)]
        jokers = FIXED if k % 5 == 0 and preset == "online" else (JokerHistory(), JokerHistory())
        # the same question, then with a tile put down, then with other tiles taken
        # along, then with one drawn: the later answers may come from what was kept
        for step in range(5):
            min_left = rng.randrange(0, 3)
            got = justifying_melds(
                taken, rack, rules, also_taken=also, min_left=min_left, jokers=jokers
            )
            assert got == _fresh(taken, rack, preset, also, min_left, jokers), (k, step)
            found += bool(got)
            if step == 1:
                rack = rack[1:]
            elif step == 2:
                also = also[:-1] if also else [i for i in ids[16:] if i not in rack][:2]
            elif step == 3:
                rack = [*rack, *(i for i in ids[20:] if i not in rack and i not in also)][:16]
    assert found > CASES // 4


def test_a_rack_differing_only_in_unrelated_tiles_gets_the_same_melds() -> None:
    rules = variants.get("clasic")
    seven = ids_of(Tile.parse("7R"))[0]
    near = [ids_of(Tile.parse(t))[0] for t in ("8R", "9R", "7G", "7A")]
    far = [ids_of(Tile.parse(t))[0] for t in ("2N", "12G", "4A")]
    with_far = justifying_melds(seven, [*near, *far], rules, min_left=0)
    without = justifying_melds(seven, near, rules, min_left=0)
    assert with_far == without and len(with_far) >= 2
    # min_left counts every tile held, the unrelated ones too
    assert justifying_melds(seven, near, rules, min_left=3) != justifying_melds(
        seven, [*near, *far], rules, min_left=3
    )
