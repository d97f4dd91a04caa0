"""A smoke test of benchmarks/bench_solver.py: a tiny run without the peer (no venv, no
network), the last line of its output one JSON object with the report's keys, and
the pieces the peer comparison relies on (the racks, their encoding for the peer, the
check of a Rummikub set)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import attrs
import pytest

from remi_rules import FULL_SET, best_melds, parse_tiles, variants

BENCH = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_solver.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_solver", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


bench = _load()


def test_bench_solver_main_prints_one_json_object_last(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = bench.main(["--count", "3", "--no-peer", "--seed", "7"])
    assert code == 0
    lines = capsys.readouterr().out.strip().splitlines()
    result = json.loads(lines[-1])
    for key in (
        "median_ms_15",
        "p99_ms_15",
        "median_ms_30",
        "p99_ms_30",
        "peer_ran",
        "peer_speedup_min",
        "peer_mismatches",
        "targets_met",
        "worst",
        "worst_ms_reachable",
        "harness_ns",
        "python",
        "preset",
    ):
        assert key in result, key
    assert result["preset"] == "clasic" and result["objective"] == "points"
    assert result["peer_ran"] is False and result["peer_mismatches"] is None
    assert set(result["sizes"]) == {"14", "15", "21", "30"}
    for size in result["sizes"].values():
        assert set(size) == {"any", "joker1", "joker2", "none"}
        for cat in size.values():
            assert cat["count"] == 3
            assert 0 < cat["median_ms"] <= cat["p99_ms"] <= cat["max_ms"]
    assert result["median_ms_15"] == result["sizes"]["15"]["any"]["median_ms"]
    assert result["p99_ms_30"] == result["sizes"]["30"]["any"]["p99_ms"]
    assert result["worst"]["30"]["p99_ms"] >= result["p99_ms_30"]
    assert result["targets_met"]["peer_mismatches"] is None
    assert isinstance(result["targets_met"]["all"], bool)
    assert any(line.startswith("15 tiles") for line in lines[:-1])


@pytest.mark.parametrize("category", ["any", "joker1", "joker2", "none"])
def test_bench_solver_racks_are_seeded_and_of_their_category(category: str) -> None:
    racks = bench.draw_racks(21, category, 50, 3)
    assert racks == bench.draw_racks(21, category, 50, 3)
    assert racks != bench.draw_racks(21, category, 50, 4)
    jokers = {"joker1": {1}, "joker2": {2}, "none": {0}, "any": {0, 1, 2}}[category]
    for rack in racks:
        assert len(set(rack)) == len(rack) == 21 and all(0 <= i < 106 for i in rack)
        assert sum(i >= 104 for i in rack) in jokers


def test_bench_solver_peer_encoding_and_rummikub_sets() -> None:
    # the peer's [value, colour] pairs, colour the remi index R G A N = 0 1 2 3
    assert bench.pairs_of([0, 1, 7, 103]) == [[1, 0], [1, 0], [1, 3], [13, 3]]
    assert [FULL_SET[i] for i in (0, 7, 103)] == list(parse_tiles("1R 1N 13N"))
    assert bench.rummikub_meld(parse_tiles("1R 2R 3R 4R 5R 6R"))
    assert bench.rummikub_meld(parse_tiles("9R 9A 9N"))
    assert not bench.rummikub_meld(parse_tiles("12R 13R 1R"))  # no high ace in Rummikub
    assert not bench.rummikub_meld(parse_tiles("9R 9R 9N"))
    assert not bench.rummikub_meld(parse_tiles("2R 3G 4R"))


PEER_PYTHON = bench._venv_python(bench.DEFAULT_PEER_VENV)


@pytest.mark.skipif(
    bench._peer_version(PEER_PYTHON) != bench.PEER_VERSION,
    reason="the peer venv (benchmarks/.peer-venv) is not installed; bench_solver.py makes it",
)
def test_bench_solver_peer_worker_agrees_on_a_fresh_solve() -> None:
    # The mismatch of the full run (seed 1) and the rack the peer solved just before it
    # there.  Solved in that order with HiGHS 1.16 the peer returns the earlier rack's
    # 9R 9A 9N for the second (a stale warm start; not asserted, the peer's dependencies
    # are not pinned); solved with a RuleSet of its own it places 9 tiles, as we do.
    rack = bench.draw_racks(21, "none", 27, "1:peer")[26]
    hard = (12, 20, 22, 25, 44, 45, 46, 51, 53, 54, 58, 63, 65, 68, 69, 71, 75, 81, 96, 99, 103)
    assert bench.tiles_of(hard) == parse_tiles(
        "2A 3A 3N 4R 6A 6A 6N 7G 7A 7N 8G 8N 9R 9A 9A 9N 10G 11R 13R 13G 13N"
    )
    got = bench.run_worker(PEER_PYTHON, [bench.pairs_of(r) for r in (rack, hard)], [])
    assert got["version"] == bench.PEER_VERSION and len(got["results"]) == 2
    low = attrs.evolve(variants.get("clasic"), ace_high_run=False)
    for r, res in zip((rack, hard), got["results"], strict=True):
        assert bench.check_peer_sets(r, res["sets"], res["placed"], low)
        assert res["ns"] > 0 and res["cpu_ns"] >= 0
    fresh = bench.run_worker(PEER_PYTHON, [bench.pairs_of(hard)], [], fresh=True)
    assert fresh["results"][0]["placed"] == 9
    assert best_melds(bench.tiles_of(hard), low, "tiles").placed == 9
