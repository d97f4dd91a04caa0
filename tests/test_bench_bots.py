"""A smoke test of benchmarks/bench_bots.py's hint recording: the views four greedy
bots ask a hint about in a seeded round are written with their plans, and the same
checkout's hint, asked again from the file, makes every plan again; a plan changed in
the file is reported."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_bots.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_bots", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


bench = _load()


@pytest.mark.rule("ONLINE-06")
def test_the_recorded_hints_of_greedy_rounds_replay_to_the_same_plans(tmp_path: Path) -> None:
    path = tmp_path / "hints.jsonl"
    assert (
        bench.main(["--greedy-rounds", "1", "--preset", "online", "--record-hints", str(path)]) == 0
    )
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) > 20
    replay = bench.replay_hints(path)
    assert replay["views"] == len(lines)
    assert replay["plans_differ"] == 0
    # A plan changed in the file is one that differs.
    first = json.loads(lines[0])
    first["plan"]["score"] += 1
    path.write_text("\n".join([json.dumps(first), *lines[1:]]) + "\n", encoding="utf-8")
    assert bench.replay_hints(path)["plans_differ"] == 1
