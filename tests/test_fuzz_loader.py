"""The strict loaders against the fuzzer of benchmarks/fuzz_loader.py: 2,000 seeded
mutations of saved games and records (wrong types, missing and extra keys, duplicated,
missing and moved tile ids, impossible phases, huge numbers, deep nesting, swapped
values, truncated or damaged JSON text).  Loading raises nothing but
``InvalidStateError``, and whatever it accepts keeps the engine's invariants and dumps
back equal."""

from __future__ import annotations

import fuzz_loader
import pytest


@pytest.mark.rule("TILES-01")
def test_TILES_01_two_thousand_mutated_saves_never_break_the_loader() -> None:
    result = fuzz_loader.run(2000, seed=0, games=1)
    assert result["cases"] == 2000
    assert result["other_exceptions"] == 0, result["examples"]
    assert result["accepted_but_invariant_broken"] == 0, result["examples"]
    assert result["engine_errors"] == 0, result["examples"]
    # The mutations reach every kind of refusal, and some make another valid save.
    assert result["accepted"] > 0
    assert len(result["codes"]) >= 12, result["codes"]


def test_the_fuzzer_is_seeded() -> None:
    first = fuzz_loader.run(60, seed=5, games=1)
    second = fuzz_loader.run(60, seed=5, games=1)
    for key in ("accepted", "rejected", "codes", "mutations"):
        assert first[key] == second[key]
