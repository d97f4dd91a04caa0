"""The saving benchmark (benchmarks/bench_serde.py) runs and reports every figure it
documents, for this checkout and, compared, for another one (a report, never a timed
assertion)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def _bench() -> Any:
    spec = importlib.util.spec_from_file_location(
        "bench_serde", ROOT / "benchmarks" / "bench_serde.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_saving_benchmark_reports_every_figure_and_compares() -> None:
    bench = _bench()
    result = bench.run(1, 3, 1, against=str(ROOT / "src"))
    assert set(result["presets"]) == {"clasic", "online", "rummy45"}
    for figures in result["presets"].values():
        assert figures["saves"] == 2 and figures["bytes"] > 0 and figures["steps"] > 0
        for name in bench.FIGURES:
            assert figures[name] > 0
    for compared in result["compared"].values():
        for name in bench.FIGURES:
            assert compared[name]["ratio"] == round(
                compared[name]["this"] / compared[name]["that"], 3
            )
