"""The protocol benchmark (benchmarks/bench_protocol.py) runs and reports every
figure it documents (a report, never a timed assertion)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def _bench() -> Any:
    spec = importlib.util.spec_from_file_location(
        "bench_protocol", ROOT / "benchmarks" / "bench_protocol.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_protocol_benchmark_reports_sizes_and_costs() -> None:
    result = _bench().run(1, 3, every=5)
    assert set(result["presets"]) == {"clasic", "online", "rummy45"}
    for figures in result["presets"].values():
        assert figures["steps"] > 0
        for name in (
            "step_us",
            "legal_steps_us",
            "finishable_us",
            "events_out_us",
            "views_out_us",
            "step_in_us",
        ):
            assert figures[name]["median"] > 0
        assert figures["step_us"]["median"] >= figures["legal_steps_us"]["median"]
        sizes = figures["bytes"]
        assert 0 < sizes["view"]["median"] < sizes["view_with_rules"]["median"]
        assert sizes["step"]["median"] > 0 and sizes["result"]["median"] > 0
    assert set(result["targets"]["met"]) == set(result["presets"])
    assert "peer" not in result


def test_a_missing_peer_venv_is_reported_not_raised(tmp_path: Path) -> None:
    peer = _bench().run_peer(tmp_path / "no-such-python", 1, 1)
    assert "pip install open_spiel" in peer["error"]
