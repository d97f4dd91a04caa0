"""A smoke test of benchmarks/bench_bots.py's hint recording: the views four greedy
bots ask a hint about in a seeded round are written with their plans, and the same
checkout's hint, asked again from the file, makes every plan again; a plan changed in
the file is reported."""

from __future__ import annotations

import json
from pathlib import Path

import bench_bots as bench  # benchmarks/ is on the tests' path (pyproject.toml)
import pytest
from hint_replay import replay_hints


@pytest.mark.rule("ONLINE-06")
def test_the_recorded_hints_of_greedy_rounds_replay_to_the_same_plans(tmp_path: Path) -> None:
    path = tmp_path / "hints.jsonl"
    assert (
        bench.main(["--greedy-rounds", "1", "--preset", "online", "--record-hints", str(path)]) == 0
    )
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) > 20
    replay = replay_hints(path)
    assert replay["views"] == len(lines)
    assert replay["plans_differ"] == 0
    # A plan changed in the file is one that differs.
    first = json.loads(lines[0])
    first["plan"]["score"] += 1
    path.write_text("\n".join([json.dumps(first), *lines[1:]]) + "\n", encoding="utf-8")
    assert replay_hints(path)["plans_differ"] == 1
