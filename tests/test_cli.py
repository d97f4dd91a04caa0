"""The ``remi-rules`` command line: every command and every exit code."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from remi_rules import variants
from remi_rules.cli import main


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out=out)
    return code, out.getvalue()


@pytest.mark.parametrize("variant", ["clasic", "online", "rummy45"])
def test_demo_plays_a_round_to_its_score(variant: str) -> None:
    code, text = run("demo", "--variant", variant, "--seed", "3", "--players", "3")
    assert code == 0
    assert text.startswith("Remi etalat, 3 players, seed 3")
    assert "round over: " in text
    assert text.count("\n  seat ") == 3  # one score line per seat
    assert "winner(s): seat " in text
    assert run("demo", "--variant", variant, "--seed", "3", "--players", "3")[1] == text


def test_demo_melds_prints_every_preset() -> None:
    code, text = run("demo", "--melds")
    assert code == 0
    for name in variants.names():
        assert f"== {name}" in text
    assert "11R 12R 13R 1R       run, 40 p" in text
    assert "[ace_in_middle]" in text


def test_check_valid_and_invalid_exit_codes() -> None:
    assert run("check", "11R 12R 13R 1R") == (0, "11R 12R 13R 1R: run, 40 p\n")
    code, text = run("check", "1R 2R 3R", "13R 1R 2R", "--lang", "ro")
    assert code == 1
    assert "13R 1R 2R: invalidă [ace_in_middle]" in text
    code, text = run("check", "7X 8R 9R")
    assert code == 1
    assert "[unknown_colour]" in text


def test_check_under_online_allows_adjacent_jokers() -> None:
    assert run("check", "3R 4R J J 7R 8R", "--variant", "online")[0] == 0
    assert run("check", "3R 4R J J 7R 8R", "--variant", "clasic")[0] == 1


def test_check_with_a_house_rules_file(tmp_path: Path) -> None:
    path = tmp_path / "house.toml"
    path.write_text('base = "clasic"\n\n[overrides]\nace_high_run = false\n', encoding="utf-8")
    assert run("check", "12R 13R 1R", "--rules", str(path))[0] == 1
    assert run("check", "12R 13R 1R")[0] == 0


def test_usage_errors_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run("check", "1R 2R 3R", "--variant", "nope")[0] == 2
    assert "nope" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    assert run("check", "1R 2R 3R", "--rules", str(bad))[0] == 2
    with pytest.raises(SystemExit) as info:
        run("frobnicate")
    assert info.value.code == 2


def test_variants_list_and_diff() -> None:
    code, text = run("variants")
    assert code == 0
    assert text.splitlines()[0].startswith("clasic")
    code, text = run("variants", "--diff", "clasic", "rummy45")
    assert code == 0
    assert "closing_bonus" in text
    assert "tie_rule" not in text


def test_python_dash_m_runs_the_same_command() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "remi_rules", "check", "7R 7A 7N"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0
    assert done.stdout == "7R 7A 7N: set, 15 p\n"


def test_a_closed_pipe_is_not_an_error() -> None:
    """``remi-rules demo | head -1``: the reader leaves early; exit 0, no traceback."""

    class ClosedPipe(io.StringIO):
        def write(self, text: str) -> int:
            raise BrokenPipeError(32, "Broken pipe")

    assert main(["demo"], out=ClosedPipe()) == 0
