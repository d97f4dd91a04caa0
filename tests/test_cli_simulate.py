"""``remi-rules simulate``: results independent of ``--jobs`` and ``--backend`` byte for
byte, the three formats, the plot, the progress bar on stderr, every exit code."""

from __future__ import annotations

import importlib.util
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from remi_rules.cli import main


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(["simulate", *argv], out=out)
    return code, out.getvalue()


def cli(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "remi_rules", "simulate", *argv],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )


RANDOM4 = ("--bots", "random,random,random,random")


def test_json_is_the_same_bytes_for_one_and_two_processes() -> None:
    one = cli("--rounds", "300", *RANDOM4, "--format", "json", "--jobs", "1")
    two = cli("--rounds", "300", *RANDOM4, "--format", "json", "--jobs", "2")
    assert one.returncode == two.returncode == 0, one.stderr + two.stderr
    assert one.stdout == two.stdout
    results = json.loads(one.stdout)
    assert [b["label"] for b in results["rulesets"]] == ["clasic", "online", "rummy45"]
    assert all(b["rounds"] == 300 for b in results["rulesets"])
    assert "rounds/s" in one.stderr and "rounds/s" not in one.stdout  # timings on stderr


@pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="Ray is an optional extra")
def test_the_ray_backend_gives_the_same_bytes() -> None:
    args = ("--variant", "online", "--rounds", "20", *RANDOM4, "--format", "json")
    local = cli(*args, "--jobs", "1")
    ray = cli(*args, "--backend", "ray")
    assert local.returncode == ray.returncode == 0, ray.stderr
    assert local.stdout == ray.stdout


def test_formats_and_house_rules(tmp_path: Path) -> None:
    house = tmp_path / "house.toml"
    house.write_text('base = "clasic"\n\n[overrides]\nclosing_bonus = 50\n', encoding="utf-8")
    code, table = run("--variant", "clasic", "--rules", str(house), "--rounds", "6", "--jobs", "1")
    assert code == 0
    assert "== clasic" in table and "== house" in table and "first-player advantage" in table
    code, text = run("--variant", "rummy45", "--rounds", "4", "--format", "csv", "--jobs", "1")
    assert code == 0 and text.splitlines()[0] == "ruleset,measure,seat,value,ci_low,ci_high"
    code, text = run(
        "--variant", "online", "--rounds", "3", "--bots", "greedy,random", "--format", "json"
    )
    assert code == 0 and json.loads(text)["bots"] == ["greedy", "random"]


@pytest.mark.skipif(importlib.util.find_spec("matplotlib") is None, reason="the plot extra")
def test_the_plot_and_the_progress_bar(tmp_path: Path) -> None:
    plot = tmp_path / "cmp.png"
    done = cli(
        "--variant", "clasic", "--variant", "online", "--rounds", "4", *RANDOM4,
        "--plot", str(plot), "--progress", "--jobs", "1",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert plot.read_bytes()[:4] == b"\x89PNG"
    assert "8/8 rounds" in done.stderr or "round" in done.stderr


@pytest.mark.parametrize(
    "argv",
    [
        ("--variant", "nope"),
        ("--bots", "greedy,clever"),
        ("--bots", "greedy"),
        ("--jobs", "0"),
        ("--rounds", "0"),
        ("--rules", "/no/such/house.toml"),
        ("--format", "xml"),
        ("--backend", "dask"),
    ],
)
def test_bad_options_exit_2(argv: tuple[str, ...]) -> None:
    assert run(*argv)[0] == 2  # refused before any round is played
