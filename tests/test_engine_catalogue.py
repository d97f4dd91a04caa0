"""The engine's meld catalogue of a rack (``engine._catalogue.rack_layouts``) is made
from the catalogues of the racks met lately: a smaller pool keeps a larger one's
melds, a pool with one more value puts the melds that hold it in their places.  Either
way it must be the catalogue made afresh (:func:`remi_rules.layouts.meld_layouts`,
sets in their canonical order), in the same order: the order of the legal melds."""

from __future__ import annotations

import os
import random
from collections import Counter

import pytest

from remi_rules import Tile, variants
from remi_rules.engine import _catalogue
from remi_rules.layouts import meld_layouts
from remi_rules.melds import MeldKind, analyze_meld
from remi_rules.tiles import JOKER, Color

PRESETS = ("clasic", "online", "rummy45")
WALKS = 60 if os.environ.get("REMI_WIDE") == "1" else 12
NUMBERED = [Tile(r, c) for c in Color for r in range(1, 14)]


def _canonical(layout: tuple[Tile, ...], preset: str) -> tuple[Tile, ...]:
    # a set as the validator lays it; a run as listed
    if layout[0].rank == layout[-1].rank or layout[0].is_joker or layout[-1].is_joker:
        meld = analyze_meld(layout, variants.get(preset))
        if meld.kind is MeldKind.TERTA:
            return meld.tiles
    return layout


def _fresh(pool: Counter[Tile], preset: str) -> tuple[tuple[Tile, ...], ...]:
    return tuple(_canonical(m, preset) for m in meld_layouts(pool, variants.get(preset)))


def _random_pool(rng: random.Random, size: int) -> Counter[Tile]:
    tiles = [*NUMBERED, *NUMBERED, JOKER, JOKER]
    return Counter(rng.sample(tiles, size))


@pytest.mark.parametrize("preset", PRESETS)
def test_a_catalogue_lists_its_melds_in_key_order(preset: str) -> None:
    rules = variants.get(preset)
    rng = random.Random(f"keys-{preset}")
    for _ in range(WALKS):
        pool = _random_pool(rng, rng.randrange(6, 31))
        keyed = list(_catalogue._keyed(pool, rules))
        keys = [k for k, _ in keyed]
        assert keys == sorted(keys) and len(set(keys)) == len(keys)
        assert tuple(m for _, m in keyed) == _fresh(pool, preset)


@pytest.mark.parametrize("preset", PRESETS)
def test_a_catalogue_made_from_a_recent_one_is_the_fresh_one(
    preset: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a rack's life: it draws a tile (a new value, a second copy, a joker), puts some
    # down, takes several from the row; each catalogue is checked against a fresh one
    grown = []
    real = _catalogue._grown

    def spy(*args: object) -> object:
        grown.append(1)
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(_catalogue, "_grown", spy)
    monkeypatch.setattr(_catalogue, "_RECENT", [])
    monkeypatch.setattr(_catalogue, "_LAYOUTS", {})
    rules = variants.get(preset)
    rng = random.Random(f"walk-{preset}")
    bag = [*NUMBERED, *NUMBERED, JOKER, JOKER]
    rng.shuffle(bag)
    pool = Counter(bag[:14])
    del bag[:14]
    for _ in range(WALKS * 8):
        assert _catalogue.rack_layouts(+pool, rules) == _fresh(+pool, preset)
        move = rng.random()
        if move < 0.45 and bag:
            pool[bag.pop()] += 1  # a draw
        elif move < 0.55 and len(bag) >= 3:
            for _ in range(3):
                pool[bag.pop()] += 1  # a take from the row
        elif sum(pool.values()) > 4:
            for _ in range(rng.randrange(1, 4)):
                gone = rng.choice(list((+pool).elements()))
                pool[gone] -= 1
                bag.insert(0, gone)
    assert grown
