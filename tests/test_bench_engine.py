"""A smoke test of benchmarks/bench_engine.py, the driver that seats four
``remi_rules.bots.FastBot`` per round: a few seeded rounds per preset, every step
checked by the engine's ``state_problems`` (tile census, racks, phase), every step
audited against legal_steps(), no step refused, and the last line of the command's
output one JSON object."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

from remi_rules import variants
from remi_rules.engine import Discard, Undo
from remi_rules.errors import IllegalStepError

BENCH = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_engine.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_engine", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


bench = _load()


@pytest.mark.rule("TILES-01")
@pytest.mark.rule("CLOSE-01")
@pytest.mark.parametrize("preset", ["clasic", "online", "rummy45"])
def test_tiles_01_close_01_bench_rounds_keep_the_invariants(preset: str) -> None:
    rules = variants.get(preset)
    tally, cpu, wall = bench.run_pass(rules, range(1, 4), checked=True, replay_every=1)
    n = tally.n
    assert n["rounds"] == 3
    assert n["invariant_breaches"] == 0, tally.examples
    assert tally.ends["stuck"] == 0, tally.examples
    assert n["scoring_errors"] == 0
    assert n["replays"] == 3 and n["replay_mismatches"] == 0
    assert not tally.refusals, tally.examples  # the bot sends only steps it played out
    assert n["audited_steps"] == n["steps"] > 0
    assert n["legal_steps_disagreements"] == 0, tally.examples
    assert tally.kinds["opening"] > 0
    assert sum(tally.ends.values()) == 3
    assert cpu > 0 and wall > 0


@pytest.mark.rule("TILES-01")
def test_tiles_01_bench_main_prints_one_json_object_last(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = bench.main(["--rounds", "2", "--presets", "clasic,online", "--profile-rounds", "1"])
    assert code == 0
    lines = capsys.readouterr().out.strip().splitlines()
    result = json.loads(lines[-1])
    assert result["invariant_breaches"] == 0
    assert result["stuck_rounds"] == 0
    assert result["policy_refusals"] == 0
    assert result["bot"] == "FastBot"
    assert result["determinism_ok"] is True
    assert set(result["rounds_per_s"]) == {"clasic", "online"}
    assert result["rounds_per_s_min"] == min(result["rounds_per_s"].values())
    for key in ("capped_rounds", "end_reasons", "step_kind_counts", "policy_refusals"):
        assert key in result
    assert result["profile"]["top_cumulative"]
    assert any(line.startswith("== clasic") for line in lines[:-1])


def test_the_driver_counts_a_refused_step_and_checks_after_each_step() -> None:
    tally = bench.Tally()
    game = bench.CheckedGame.new(variants.get("clasic"), 4, seed=3)
    assert isinstance(game, bench.CheckedGame)
    game.tally, game.checked, game.audit = tally, True, True
    seat = game.state.current
    with pytest.raises(IllegalStepError):
        game.apply(Undo())  # nothing to take back yet
    assert sum(tally.refusals.values()) == 1 and tally.n["steps"] == 0
    game.apply(Discard(game.state.rack(seat)[0]))  # the starter's first turn
    assert tally.kinds["discard"] == 1 and tally.n["turns"] == 1
    assert tally.n["audited_steps"] == 2 and tally.n["legal_steps_disagreements"] == 0
    assert tally.n["invariant_breaches"] == 0
