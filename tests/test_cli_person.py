"""The command line as a person uses it: every command takes --lang, check reads
tiles without quotes, demo and play write text records that replay reads (--upto,
--step), play resumes a saved game, simulate's table lines up in Romanian, and play
at a real terminal (a pseudo-terminal driven by pexpect) edits lines with readline:
arrow-up brings the last command back."""

from __future__ import annotations

import io
import os
import sys
from pathlib import Path

import pytest

from remi_rules import serde
from remi_rules.cli import COMMANDS, build_parser, main
from remi_rules.cli.simulate import table, width
from remi_rules.engine import Game

GOLDEN = Path(__file__).resolve().parent / "golden"
ROOT = Path(__file__).resolve().parent.parent


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out)
    return code, out.getvalue()


def test_every_command_takes_lang() -> None:
    parser = build_parser(io.StringIO())
    names = [c.add_parser.__module__.rsplit(".", 1)[-1] for c in COMMANDS]
    for name in names:
        args = ["check", "1R", "2R", "3R"] if name == "check" else [name]
        if name == "replay":
            args.append("x.json")
        parsed = parser.parse_args([*args, "--lang", "ro"])
        assert parsed.lang == "ro", name


def test_check_reads_tiles_without_quotes() -> None:
    code, text = run("check", "11R", "12R", "13R", "1R")
    assert code == 0 and text == "11R 12R 13R 1R: run, 40 p\n"
    code, text = run("check", "1R", "2R", "3R", "|", "7R", "7A", "7N", "--lang", "ro")
    assert code == 0 and text == "1R 2R 3R: suită, 15 p\n7R 7A 7N: terță, 15 p\n"
    code, text = run("check", "1R 2R 3R", "7R 7A 7N")
    assert code == 0 and text.count("\n") == 2
    assert run("check", "1R", "2R", "4R")[0] == 1


def test_demo_saves_a_text_record_that_replay_reads(tmp_path: Path) -> None:
    path = tmp_path / "demo.remi"
    code, _ = run("demo", "--seed", "3", "--players", "2", "--save", str(path))
    assert code == 0
    text = path.read_text(encoding="utf-8")
    assert text.startswith('[Rules "clasic"]\n') and "[Seed 3]" in text
    game = Game.replay(serde.load_record_text(text))
    assert game.over
    code, out = run("replay", str(path))
    assert code == 0 and out.startswith(f"Replay: text record from {path}\n")
    code, upto = run("replay", str(path), "--upto", "3")
    steps = [line for line in upto.splitlines() if line.startswith("T")]
    assert len(steps) == 3 and "not over" in upto
    code, each = run("replay", str(path), "--upto", "3", "--step", "--lang", "ro")
    assert code == 0 and each.count("grămada") >= 3 and "\f" not in each
    assert run("replay", str(path), "--upto", "-1")[0] == 2


def test_a_bad_text_record_names_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.txt"
    from remi_rules import variants

    fp = variants.get("clasic").fingerprint()
    path.write_text(f'[Rules "clasic"]\n[Fingerprint "{fp}"]\n[Players 9]\n', encoding="utf-8")
    assert run("replay", str(path))[0] == 2
    assert "(line 3)" in capsys.readouterr().err


def test_play_resumes_a_text_record(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    saved = tmp_path / "game.txt"
    monkeypatch.setattr(sys, "stdin", io.StringIO("draw\nquit\n"))
    code, _ = run("play", "--seed", "3", "--players", "2", "--save", str(saved))
    assert code == 0 and saved.exists()
    record = serde.load_record_text(saved.read_text(encoding="utf-8"))
    monkeypatch.setattr(sys, "stdin", io.StringIO("show\nquit\n"))
    code, text = run("play", "--resume", str(saved), "--lang", "ro")
    assert code == 0
    assert f"reluat din {saved}" in text and "Jocul continuă cu tura" in text
    assert len(record.steps) >= 2


def test_simulate_table_lines_up_in_romanian() -> None:
    out = io.StringIO()
    err = io.StringIO()
    from remi_rules.cli import simulate

    args = build_parser(out).parse_args(
        ["simulate", "--rounds", "3", "--jobs", "1", "--variant", "clasic", "--lang", "ro"]
    )
    assert simulate.run(args, out, err) == 0
    text = out.getvalue()
    assert "lungimea rundei (ture)" in text and "avantajul primului jucător" in text
    assert "round length" not in text and "simulate în" in err.getvalue()
    rows = [line for line in text.splitlines() if line.startswith("  ")]
    starts = {
        width(line[: line.index("[") - len(line.split("[")[0].split()[-1]) - 1]) for line in rows
    }
    assert len(starts) == 1, rows  # the values start in one column
    assert width("a\u0306") == 1 and width("ă") == 1
    assert table.__doc__


def test_simulate_progress_shows_the_time_left() -> None:
    from remi_rules.cli.simulate import _Bar

    err = io.StringIO()
    bar = _Bar(10, True, err, "ro")
    bar.tqdm = None  # the plain bar
    bar(5)
    assert "mai sunt" in err.getvalue() and "5/10" in err.getvalue()


# -- play at a terminal -----------------------------------------------------------------------


def test_play_edits_lines_and_keeps_history_at_a_terminal() -> None:
    pexpect = pytest.importorskip("pexpect")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "TERM": "xterm", "COLUMNS": "120"}
    child = pexpect.spawn(
        sys.executable,
        ["-m", "remi_rules", "play", "--seed", "3", "--players", "2"],
        env=env,
        encoding="utf-8",
        timeout=30,
        dimensions=(40, 120),
    )
    try:
        child.expect("> ")
        child.sendline("drwa")
        child.expect(r"Did you mean draw\?")
        child.expect("> ")
        child.send("show")
        child.send("\x1b[D\x1b[D\x1b[D\x1b[D")  # arrow left: the cursor moves, the line stays
        child.sendline("")
        child.expect("your rack")
        child.expect("> ")
        child.send("\x1b[A")  # arrow up: the last line again
        child.sendline("")
        child.expect("your rack")
        child.expect("> ")
        child.sendline("quit")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0


def test_replay_of_the_golden_record_matches_its_golden_output() -> None:
    path = GOLDEN / "record_clasic_ro.remi"
    code, text = run("replay", str(path), "--lang", "ro", "--upto", "14")
    assert code == 0
    want = (GOLDEN / "replay_record_clasic_ro.txt").read_text(encoding="utf-8")
    assert text == want.replace("{path}", str(path))


def test_play_refuses_a_step_for_another_seat(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("seat 1: announce\nquit\n"))
    code, text = run("play", "--seed", "3", "--players", "2")
    assert code == 0 and "not allowed [not_your_step]" in text
