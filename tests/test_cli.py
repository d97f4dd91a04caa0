"""The ``remi-rules`` command line: every command, every exit code, the step notation.

The output of ``check`` and ``variants`` is compared with the files of tests/golden/;
after a deliberate change, regenerate them with ``REMI_UPDATE_GOLDEN=1 pytest
tests/test_cli.py`` and review the diff.  ``play`` is driven through stdin: a scripted
player types ``hint`` and then the steps the command printed for it, until the round
ends.
"""

from __future__ import annotations

import difflib
import io
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from remi_rules import serde, variants
from remi_rules.bots import GreedyBot, RandomBot
from remi_rules.cli import COMMANDS, build_parser, main
from remi_rules.cli.play import Meta, parse_command
from remi_rules.engine import (
    AnnounceAtu,
    AnnounceFewTiles,
    Bot,
    Close,
    DeclarePeTabla,
    DemandRedeal,
    Discard,
    Draw,
    Game,
    LayOff,
    Match,
    MatchConfig,
    MeldTiles,
    PlayerView,
    Rupere,
    SwapJoker,
    TakeAtu,
    TakeLastDiscard,
    Undo,
    play_round,
)
from remi_rules.errors import NotationError, NotationErrorCode
from remi_rules.lipire import End
from remi_rules.notation import format_step

GOLDEN = Path(__file__).resolve().parent / "golden"
UPDATE = os.environ.get("REMI_UPDATE_GOLDEN") == "1"


def run(*argv: str) -> tuple[int, str]:
    """The command in-process: its exit code and what it wrote."""
    out = io.StringIO()
    code = main(list(argv), out=out)
    return code, out.getvalue()


def cli(*argv: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """The command in a new process, as ``python -m remi_rules``."""
    return subprocess.run(
        [sys.executable, "-m", "remi_rules", *argv],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )


def assert_golden(name: str, text: str) -> None:
    """``text`` must equal tests/golden/``name``; ``REMI_UPDATE_GOLDEN=1`` rewrites it."""
    path = GOLDEN / name
    if UPDATE:
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return
    if not path.exists():
        pytest.fail(f"{path} is missing: run REMI_UPDATE_GOLDEN=1 pytest {__file__}")
    expected = path.read_text(encoding="utf-8")
    if text != expected:
        diff = "".join(
            difflib.unified_diff(
                expected.splitlines(keepends=True),
                text.splitlines(keepends=True),
                fromfile=f"golden/{name}",
                tofile="output",
            )
        )
        pytest.fail(
            f"output differs from golden/{name} (REMI_UPDATE_GOLDEN=1 rewrites it):\n{diff}"
        )


class HintFollower(io.TextIOBase):
    """A player at the terminal who types ``hint``, then the steps ``play`` printed for
    it (``  1) meld 5R 6R 7R``), one a line; ``script`` lines are typed first."""

    def __init__(self, out: io.StringIO, script: tuple[str, ...] = (), limit: int = 2000) -> None:
        self.out = out
        self.seen = 0
        self.queue = list(script)
        self.typed: list[str] = []
        self.limit = limit

    def readable(self) -> bool:
        return True

    # [override]: typeshed's TextIOBase inherits IOBase.readline (bytes) as well as str
    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        text = self.out.getvalue()
        new, self.seen = text[self.seen :], len(text)
        steps = re.findall(r"^  \d+\) (.*)$", new, flags=re.MULTILINE)
        if steps:
            self.queue = steps
        if len(self.typed) >= self.limit:
            return ""
        line = self.queue.pop(0) if self.queue else "hint"
        self.typed.append(line)
        return line + "\n"


def play(
    monkeypatch: pytest.MonkeyPatch, *argv: str, stdin: io.TextIOBase | str = ""
) -> tuple[int, str]:
    """``remi-rules play ARGV`` in-process with ``stdin`` (text, or a reader)."""
    out = io.StringIO()
    if isinstance(stdin, HintFollower):
        stdin.out = out
    reader = io.StringIO(stdin) if isinstance(stdin, str) else stdin
    monkeypatch.setattr(sys, "stdin", reader)
    code = main(["play", *argv], out=out)
    return code, out.getvalue()


def last_lines(text: str, n: int) -> list[str]:
    return text.rstrip("\n").splitlines()[-n:]


# -- the parser ---------------------------------------------------------------------------


def test_every_command_is_registered_in_help_order() -> None:
    code, text = run("--help")
    assert code == 0
    names = re.findall(r"^    (\w+) ", text, flags=re.MULTILINE)
    assert names == ["demo", "check", "variants", "play", "replay", "simulate", "serve"]
    assert len(COMMANDS) == 7


def test_a_command_module_is_added_by_listing_it() -> None:
    """The registry's contract (for the ``simulate`` command to come): a module with
    ``add_parser(subparsers)`` and ``run(args, out)``, its parser running it."""
    parser = build_parser()
    args = parser.parse_args(["variants"])
    assert args._run.__module__ == "remi_rules.cli.variants"


def test_help_of_a_command_goes_to_the_output_and_exits_0() -> None:
    code, text = run("play", "--help")
    assert code == 0
    assert "--seat" in text and "--strict" in text


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("frobnicate")[0] == 2
    assert "invalid choice" in capsys.readouterr().err
    assert run()[0] == 2
    assert run("demo", "--players", "5")[0] == 2
    assert run("check")[0] == 2  # a meld is required


def test_python_dash_m_runs_the_same_command() -> None:
    done = cli("check", "7R 7A 7N")
    assert done.returncode == 0
    assert done.stdout == "7R 7A 7N: set, 15 p\n"


def test_python_dash_m_remi_rules_cli_runs_it_too() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "remi_rules.cli", "check", "7R 7A 7N"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (done.returncode, done.stdout) == (0, "7R 7A 7N: set, 15 p\n")


def test_a_closed_pipe_is_not_an_error() -> None:
    """``remi-rules demo | head -1``: the reader leaves early; exit 0, no traceback."""

    class ClosedPipe(io.StringIO):
        def write(self, text: str) -> int:
            raise BrokenPipeError(32, "Broken pipe")

    assert main(["demo"], out=ClosedPipe()) == 0


def test_a_closed_pipe_in_a_real_process_ends_quietly() -> None:
    script = (
        "import subprocess, sys\n"
        "p = subprocess.Popen([sys.executable, '-m', 'remi_rules', 'demo'],"
        " stdout=subprocess.PIPE, stderr=subprocess.PIPE)\n"
        "p.stdout.readline(); p.stdout.close()\n"
        "err = p.stderr.read().decode(); p.wait()\n"
        "print(p.returncode, 'Traceback' in err)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.stdout.split() == ["0", "False"]


# -- demo ---------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["clasic", "online", "rummy45"])
def test_demo_plays_a_round_to_its_score(variant: str) -> None:
    code, text = run("demo", "--variant", variant, "--seed", "3", "--players", "3")
    assert code == 0
    fingerprint = variants.get(variant).fingerprint()
    assert text.startswith(
        f"Remi etalat · {variant} (fingerprint {fingerprint}) · 3 players · seed 3\n"
    )
    assert "players: seat 0 greedy, seat 1 greedy, seat 2 greedy\n" in text
    assert re.search(r"^T1 {3}seat \d: .*discard \S+ {2}\[14 tiles\]$", text, re.MULTILINE)
    assert "round over: " in text
    assert text.count("\n  seat ") == 3  # one score line per seat
    assert last_lines(text, 1)[0].startswith("winner(s): seat ")
    assert run("demo", "--variant", variant, "--seed", "3", "--players", "3")[1] == text


def test_demo_shows_the_melds_each_turn_put_down_or_changed() -> None:
    code, text = run("demo", "--seed", "3", "--players", "3")
    assert code == 0
    assert re.search(r"^ +\d+ \+  seat \d  .*\((run|set), \d+ p", text, re.MULTILINE)
    assert re.search(r"^ +\d+ ~  seat \d", text, re.MULTILINE)  # a lay-off changed one


def test_demo_default_is_a_fast_four_player_clasic_round() -> None:
    code, text = run("demo")
    assert code == 0
    assert text.startswith("Remi etalat · clasic (fingerprint ")
    assert text.splitlines()[0].endswith(" · 4 players · seed 1")


def test_demo_speaks_romanian() -> None:
    code, text = run("demo", "--seed", "3", "--players", "3", "--lang", "ro")
    assert code == 0
    assert "3 jucători" in text.splitlines()[0]
    assert "joc încheiat: " in text and "punctaj:" in text
    assert " aruncă " in text and "[14 piese]" in text
    assert last_lines(text, 1)[0].startswith("câștigă: locul ")


def test_demo_with_random_bots_for_some_seats() -> None:
    code, text = run("demo", "--players", "2", "--seed", "4", "--bots", "greedy,random")
    assert code == 0
    assert "players: seat 0 greedy, seat 1 random" in text
    assert "winner(s): " in text


def test_demo_with_a_house_rules_file(tmp_path: Path) -> None:
    path = tmp_path / "house.toml"
    path.write_text('base = "clasic"\n\n[overrides]\nclosing_bonus = 77\n', encoding="utf-8")
    code, text = run("demo", "--rules", str(path), "--players", "2", "--seed", "2")
    assert code == 0
    assert text.startswith("Remi etalat · house rules house.toml (fingerprint ")
    assert "+ closing 77 " in text


def test_demo_match_prints_each_round_and_the_running_totals() -> None:
    code, text = run("demo", "--match", "--players", "2", "--rounds", "2", "--seed", "5")
    assert code == 0
    assert "Remi etalat match · clasic" in text.splitlines()[0]
    assert "· 2 rounds" in text.splitlines()[0]
    assert text.count("== round ") == 2
    assert "round 1: " in text and "round 2: " in text
    totals = re.findall(r"^totals after round (\d): seat 0 (-?\d+), seat 1 (-?\d+)$", text, re.M)
    assert [t[0] for t in totals] == ["1", "2"]
    scores = [int(x) for x in re.findall(r"^  seat \d: .* = (-?\d+)$", text, re.M)]
    assert [int(totals[1][1]), int(totals[1][2])] == [
        scores[0] + scores[2],
        scores[1] + scores[3],
    ]
    assert last_lines(text, 1)[0].startswith("match over after 2 rounds; winner(s): seat ")


def test_demo_match_is_the_library_match() -> None:
    """The same seed gives the match :class:`Match` deals (one round per player)."""
    code, text = run("demo", "--match", "--players", "2", "--seed", "7")
    assert code == 0
    match = Match(variants.get("clasic"), 2, MatchConfig(), seed=7)
    starters = re.findall(r"^== round \d: seat (\d) starts$", text, re.M)
    assert starters[0] == str(match.game.state.starter)
    assert len(starters) == 2


def test_demo_match_to_a_target() -> None:
    code, text = run("demo", "--match", "--players", "2", "--target", "1", "--seed", "5")
    assert code == 0
    assert "· to 1 point" in text.splitlines()[0]  # was "to 1 points"
    assert "match over after " in text


def test_demo_melds_prints_every_preset() -> None:
    code, text = run("demo", "--melds")
    assert code == 0
    for name in variants.names():
        assert f"== {name}" in text
    assert "11R 12R 13R 1R       run, 40 p" in text
    assert "[ace_in_middle]" in text


def test_demo_melds_under_one_preset() -> None:
    code, text = run("demo", "--melds", "--variant", "online", "--lang", "ro")
    assert code == 0
    assert text.count("== ") == 1
    assert "3R 4R J J 7R 8R      suită" in text


def test_demo_save_writes_a_game_that_loads(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    code, text = run("demo", "--players", "2", "--seed", "2", "--save", str(path))
    assert code == 0
    assert last_lines(text, 1) == [f"saved to {path}"]
    game = serde.loads_game(path.read_text(encoding="utf-8"))
    assert game.over and game.names == ("greedy", "greedy")


def test_demo_errors_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run("demo", "--variant", "nope")[0] == 2
    assert "There is no variant 'nope'" in capsys.readouterr().err
    assert run("demo", "--bots", "smart")[0] == 2
    assert "unknown bot 'smart'" in capsys.readouterr().err
    assert run("demo", "--bots", "greedy,random", "--players", "3")[0] == 2
    assert "2 bots for 3 seats" in capsys.readouterr().err
    assert run("demo", "--rounds", "2")[0] == 2
    assert "--rounds goes with --match only" in capsys.readouterr().err
    bad = tmp_path / "bad.toml"
    bad.write_text("base = 'nope'\n", encoding="utf-8")
    assert run("demo", "--rules", str(bad))[0] == 2
    assert run("demo", "--save", str(tmp_path / "no" / "dir" / "g.json"))[0] == 2
    assert "cannot write" in capsys.readouterr().err


# -- check --------------------------------------------------------------------------------

CHECK_MELDS = (
    "1R 2R 3R",
    "11R 12R 13R 1R",
    "13R 1R 2R",
    "7R 7A 7N 7G",
    "7R 7R 7A",
    "1R 1G J",
    "12R 13R J",
    "3R J 5R 6R J 8R",
    "3R 4R J J 7R 8R",
    "J(=8R) 9R 10R",
    "7X 8R 9R",
    "5R",
)


@pytest.mark.parametrize("lang", ["en", "ro"])
@pytest.mark.parametrize("variant", ["clasic", "online"])
def test_check_melds_matches_the_golden_output(variant: str, lang: str) -> None:
    code, text = run("check", *CHECK_MELDS, "--variant", variant, "--lang", lang)
    assert code == 1  # some are invalid
    assert_golden(f"check_melds_{variant}_{lang}.txt", text)


OPENINGS = {
    "valid": ("10R J 12R", "5G 5A 5N"),
    "below_minimum": ("3R 4R 5R", "2G 2A 2N"),
    "sets_only": ("1R 1G 1A", "2R 2G 2A"),
    "runs_only": ("7R 8R 9R 10R 11R", "3A 4A 5A"),
    "too_many_copies": ("5R 5G 5A", "5R 6R 7R", "5R 5A 5N"),
    "invalid_meld": ("5R 5R 5A", "11G 12G 13G"),
}


@pytest.mark.parametrize("lang", ["en", "ro"])
@pytest.mark.parametrize("variant", ["clasic", "online"])
def test_check_opening_matches_the_golden_output(variant: str, lang: str) -> None:
    parts = []
    for name, melds in OPENINGS.items():
        code, text = run("check", "--opening", *melds, "--variant", variant, "--lang", lang)
        parts.append(f"## {name}: exit {code}\n{text}")
    assert_golden(f"check_opening_{variant}_{lang}.txt", "".join(parts))


def test_check_valid_and_invalid_exit_codes() -> None:
    assert run("check", "11R 12R 13R 1R") == (0, "11R 12R 13R 1R: run, 40 p\n")
    code, text = run("check", "1R 2R 3R", "13R 1R 2R", "--lang", "ro")
    assert code == 1
    assert "13R 1R 2R: invalidă [ace_in_middle]" in text
    code, text = run("check", "7X 8R 9R")
    assert code == 1
    assert "[unknown_colour]" in text


@pytest.mark.rule("OPEN-02")
def test_check_opening_exit_codes() -> None:
    code, text = run("check", "--opening", "10R J 12R", "5G 5A 5N")
    assert (code, text.splitlines()[-1]) == (0, "opening: 45 p (minimum 45): valid")
    code, text = run("check", "--opening", "3R 4R 5R", "2G 2A 2N")
    assert code == 1
    assert text.splitlines()[-1].startswith("invalid opening [below_minimum]: ")
    code, text = run("check", "--opening", "5R 5R 5A", "11G 12G 13G")
    assert (code, text.splitlines()[-1]) == (1, "opening: not checked, a meld is invalid")


@pytest.mark.rule("OPEN-03")
def test_check_opening_composition_follows_the_preset() -> None:
    """clasic asks for a run, online and rummy45 for a run and a set (OPEN-03)."""
    melds = ("7R 8R 9R 10R 11R", "3A 4A 5A 6A")
    assert run("check", "--opening", *melds, "--variant", "clasic")[0] == 0
    code, text = run("check", "--opening", *melds, "--variant", "online")
    assert code == 1 and "[missing_set]" in text


def test_check_under_online_allows_adjacent_jokers() -> None:
    assert run("check", "3R 4R J J 7R 8R", "--variant", "online")[0] == 0
    assert run("check", "3R 4R J J 7R 8R", "--variant", "clasic")[0] == 1


def test_check_with_a_house_rules_file(tmp_path: Path) -> None:
    path = tmp_path / "house.toml"
    path.write_text('base = "clasic"\n\n[overrides]\nace_high_run = false\n', encoding="utf-8")
    assert run("check", "12R 13R 1R", "--rules", str(path))[0] == 1
    assert run("check", "12R 13R 1R")[0] == 0
    json_path = tmp_path / "house.json"
    json_path.write_text('{"base": "clasic", "overrides": {"opening_min_points": 51}}')
    code, text = run("check", "--opening", "10R J 12R", "5G 5A 5N", "--rules", str(json_path))
    assert code == 1
    assert "[below_minimum]: The first etalare is worth 45 points; it needs at least 51." in text


def test_check_errors_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run("check", "1R 2R 3R", "--variant", "nope")[0] == 2
    assert "nope" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    assert run("check", "1R 2R 3R", "--rules", str(bad))[0] == 2
    assert "remi-rules: " in capsys.readouterr().err
    unknown_knob = tmp_path / "knob.json"
    unknown_knob.write_text('{"base": "clasic", "overrides": {"no_such_knob": 1}}')
    assert run("check", "1R 2R 3R", "--rules", str(unknown_knob))[0] == 2
    assert "no_such_knob" in capsys.readouterr().err
    assert run("check", "1R 2R 3R", "--rules", str(tmp_path / "missing.toml"))[0] == 2
    assert run("check", "1R 2R 3R", "--variant", "clasic", "--rules", str(bad))[0] == 2


def test_check_error_messages_speak_the_chosen_language(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("check", "1R 2R 3R", "--variant", "nope", "--lang", "ro")[0] == 2
    assert "remi-rules: Varianta „nope” nu există" in capsys.readouterr().err


def test_check_exit_codes_through_a_process(tmp_path: Path) -> None:
    assert cli("check", "1R 2R 3R").returncode == 0
    assert cli("check", "--opening", "1R 2R 3R").returncode == 1
    bad = cli("check", "1R 2R 3R", "--rules", str(tmp_path / "missing.toml"))
    assert bad.returncode == 2
    assert bad.stderr.startswith("remi-rules: ") and "Traceback" not in bad.stderr


# -- variants -----------------------------------------------------------------------------


def house_file(tmp_path: Path) -> Path:
    path = tmp_path / "house.toml"
    path.write_text(
        'base = "clasic"\n\n[overrides]\nclosing_bonus = 50\nno_announce_penalty = "none"\n',
        encoding="utf-8",
    )
    return path


@pytest.mark.parametrize("lang", ["en", "ro"])
def test_variants_side_by_side_matches_the_golden_output(lang: str) -> None:
    code, text = run("variants", "--lang", lang)
    assert code == 0
    assert_golden(f"variants_{lang}.txt", text)


def test_variants_lists_every_knob_of_every_preset() -> None:
    from remi_rules.ruleset import knobs

    code, text = run("variants")
    assert code == 0
    header = text.splitlines()[0].split()
    assert header == ["knob", "clasic", "online", "rummy45", "rules"]
    for info in knobs():
        assert re.search(rf"^[ *] {info.name} ", text, re.MULTILINE), info.name
    assert re.search(r"^\* closing_bonus +100 +0 +50 +SCORE-03$", text, re.MULTILINE)
    assert re.search(r"^  opening_min_points +45 +45 +45 +OPEN-02$", text, re.MULTILINE)


@pytest.mark.parametrize("lang", ["en", "ro"])
def test_variants_diff_matches_the_golden_output(lang: str, tmp_path: Path) -> None:
    text = run("variants", "--diff", "clasic", "rummy45", "--lang", lang)[1]
    text += run("variants", "--diff", "clasic", str(house_file(tmp_path)), "--lang", lang)[1]
    text += run("variants", "--diff", "online", "online", "--lang", lang)[1]
    assert_golden(f"variants_diff_{lang}.txt", text)


def test_variants_diff_shows_only_what_differs(tmp_path: Path) -> None:
    code, text = run("variants", "--diff", "clasic", "rummy45")
    assert code == 0
    assert "closing_bonus" in text
    assert "tie_rule" not in text
    code, text = run("variants", "--diff", "clasic", str(house_file(tmp_path)))
    assert code == 0
    knobs_shown = re.findall(r"^\* (\w+)", text, re.MULTILINE)
    assert knobs_shown == ["closing_bonus", "no_announce_penalty"]
    assert text.splitlines()[0].split() == ["knob", "clasic", "house.toml", "rules"]
    assert run("variants", "--diff", "clasic", "clasic") == (0, "no differences\n")


def test_variants_with_chosen_columns(tmp_path: Path) -> None:
    code, text = run("variants", "online", str(house_file(tmp_path)))
    assert code == 0
    assert text.splitlines()[0].split() == ["knob", "online", "house.toml", "rules"]


def test_variants_errors_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run("variants", "--diff", "clasic", "nope")[0] == 2
    assert "There is no variant 'nope'" in capsys.readouterr().err
    bad = tmp_path / "bad.toml"
    bad.write_text("base = \n", encoding="utf-8")
    assert run("variants", "--diff", "clasic", str(bad))[0] == 2
    assert run("variants", "--diff", "clasic", str(tmp_path / "missing.json"))[0] == 2
    assert run("variants", "--diff", "clasic")[0] == 2  # --diff takes two
    assert cli("variants", "nope").returncode == 2


# -- the step notation --------------------------------------------------------------------


def position(seed: int, players: int = 3, *, melds: int = 2, turn: int = 1) -> Game:
    """A seeded round played by bots until the seat to move has taken, from turn
    ``turn`` on and with at least ``melds`` melds on the table."""
    game = Game.new(variants.get("clasic"), players, seed=seed)
    bots = [GreedyBot() for _ in range(players)]
    while not game.over:
        state = game.state
        ready = len(state.table.melds) >= melds and state.turn >= turn
        if ready and state.phase.value == "action":
            return game
        seat = state.current
        game.apply(bots[seat].choose(game.view(seat)))
    raise AssertionError("the round ended first")


def test_notation_reads_every_kind_of_step() -> None:
    game = position(3)
    view = game.view(game.state.current)
    table = view.table
    rack = [str(table.tile(i)) for i in view.rack]
    seat = view.seat
    assert parse_command("draw", view) == Draw()
    assert parse_command("TRAGE", view) == Draw()
    assert parse_command("take", view) == TakeLastDiscard()
    assert parse_command("ia", view) == TakeLastDiscard()
    assert parse_command("atu", view) == TakeAtu()
    assert parse_command("take atu", view) == TakeAtu()
    assert parse_command("undo", view) == Undo()
    assert parse_command("anulează", view) == Undo()
    assert parse_command("announce", view) == AnnounceFewTiles(seat)
    assert parse_command("anunță atu", view) == AnnounceAtu(seat)
    assert parse_command("pe tablă", view) == DeclarePeTabla(seat)
    assert parse_command("redeal", view) == DemandRedeal(seat)
    tile = rack[0]

    def value(step: object) -> str:
        return str(table.tile(step.tile))  # type: ignore[attr-defined]

    discard = parse_command(f"discard {tile}", view)
    assert isinstance(discard, Discard) and value(discard) == tile
    assert parse_command(f"aruncă {tile.lower()}", view) == discard
    close = parse_command(f"close {tile}", view)
    assert isinstance(close, Close) and value(close) == tile
    meld = parse_command("meld " + " ".join(rack[:3]), view)
    assert isinstance(meld, MeldTiles)
    assert [str(table.tile(i)) for i in meld.tiles] == rack[:3]
    assert parse_command("etalează " + " ".join(rack[:3]), view) == meld
    lay = parse_command(f"lay {tile} on 1", view)
    assert isinstance(lay, LayOff) and (value(lay), lay.meld, lay.end) == (tile, 1, None)
    assert parse_command(f"lipește {tile} la 1 sus", view) == LayOff(lay.tile, 1, End.HIGH)
    assert parse_command(f"lay {tile} 0 low", view) == LayOff(lay.tile, 0, End.LOW)
    for word, meta in [("hint", Meta.HINT), ("help", Meta.HELP), ("quit", Meta.QUIT)]:
        assert parse_command(word, view) is meta
    assert parse_command("", view) is Meta.PASS
    assert parse_command("sugestie", view) is Meta.HINT


def test_notation_names_a_row_tile_or_its_position() -> None:
    game = position(3, melds=0, turn=6)
    view = game.view(game.state.current)
    row = view.row
    assert len(row) >= 3
    last = len(row) - 1
    assert parse_command(f"rupere {last}", view) == TakeLastDiscard()
    assert parse_command("rupere 0", view) == Rupere(0)
    tile = view.table.tile(row[0])
    latest = max(k for k, i in enumerate(row) if view.table.tile(i) == tile)
    expected = TakeLastDiscard() if latest == last else Rupere(latest)
    assert parse_command(f"rupere {tile}", view) == expected
    assert format_step(Rupere(0), view) in (f"rupere {tile}", "rupere 0")


def dealt(mine: list[int], theirs: list[int]) -> Game:
    """A clasic two-player round with these racks (seat 0 starts with 15 tiles)."""
    used = set(mine) | set(theirs)
    rest = [i for i in range(106) if i not in used]
    return Game.new(variants.get("clasic"), 2, deal=[*mine, *theirs, *rest])


def test_notation_swap_names_the_joker_the_tile_replaces() -> None:
    """JOLY-01: ``swap 7R on 0`` names the joker whose place 7R fits (MELD-06), in a
    run with two jokers."""
    run_ids = [16, 104, 32, 40, 105, 56]  # 3R J 5R 6R J 8R
    mine = [*run_ids, 24, 48, 0, 10, 20, 60, 70, 80, 90]  # and 4R 7R
    game = dealt(mine, [2, 4, 6, 9, 11, 15, 17, 19, 22, 27, 29, 35, 37, 43])
    game.apply(Discard(0))
    game.apply(Draw())
    game.apply(Discard(2))
    game.apply(Draw())
    game.apply(MeldTiles(tuple(run_ids)))
    view = PlayerView.of(game.state, 0)
    assert parse_command("swap 7R on 0", view) == SwapJoker(48, 0, 105)
    assert parse_command("schimbă 4R la 0", view) == SwapJoker(24, 0, 104)
    assert format_step(SwapJoker(48, 0, 105), view, "en") == "swap 7R on 0"


def test_notation_round_trips_every_legal_step() -> None:
    """``parse_command(format_step(step))`` is the step, or the same values (another
    physical copy of a tile), for every legal step at many positions."""
    checked = 0
    for seed in (1, 2, 5):
        game = Game.new(variants.get("online"), 3, seed=seed)
        bots: list[Bot] = [GreedyBot(), RandomBot(seed=1), GreedyBot()]
        for _ in range(60):
            if game.over:
                break
            state = game.state
            seat = state.current
            view = game.view(seat)
            for step in view.legal_steps():
                for lang in ("en", "ro"):
                    text = format_step(step, view, lang)
                    again = parse_command(text, view, lang)
                    assert not isinstance(again, Meta), text
                    assert again == step, text
                    assert format_step(again, view, lang) == text
                    assert again.kind == step.kind
                    checked += 1
            game.apply(bots[seat].choose(view))
    assert checked > 500


def test_a_typed_tile_is_the_copy_the_turn_owes() -> None:
    """Holding two 5R after taking the last discard, ``meld 5R ...`` uses the taken one
    (RUPE-01) and ``discard 5R`` the other."""
    mine = [32, 40, 48, 98, 100, 102, 0, 10, 20, 60, 70, 80, 90, 13, 25]  # 5R 6R 7R 13G 13A 13N
    game = dealt(mine, [33, 2, 4, 6, 9, 11, 15, 17, 19, 22, 27, 29, 35, 37])  # 33: 5R
    game.apply(Discard(0))  # turn 1: the starter only discards
    game.apply(Draw())
    game.apply(Discard(33))  # seat 1 discards the other 5R
    game.apply(TakeLastDiscard())
    view = game.view(0)
    assert parse_command("meld 5R 6R 7R", view) == MeldTiles((33, 40, 48))
    assert parse_command("discard 5R", view) == Discard(32)
    assert parse_command("close 5R", view) == Close(33)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("frobnicate", NotationErrorCode.UNKNOWN_COMMAND),
        ("meld", NotationErrorCode.MISSING),
        ("discard", NotationErrorCode.MISSING),
        ("lay 5R", NotationErrorCode.MISSING),
        ("rupere", NotationErrorCode.MISSING),
        ("draw 5R", NotationErrorCode.EXTRA),
        ("discard 5R 6R", NotationErrorCode.EXTRA),
        ("discard 13X", NotationErrorCode.BAD_TILE),
        ("meld 5R 0R", NotationErrorCode.BAD_TILE),
        ("rupere 99", NotationErrorCode.ROW_POSITION),
        ("lay {tile} on x", NotationErrorCode.BAD_NUMBER),
        ("lay {tile} on 0 sideways", NotationErrorCode.BAD_END),
        ("swap {tile} on {set_without_joker}", NotationErrorCode.NO_JOKER),
        ("discard {absent}", NotationErrorCode.NOT_IN_RACK),
        ("meld {tile} {tile} {tile}", NotationErrorCode.TOO_FEW),
        ("rupere {not_in_row}", NotationErrorCode.NOT_IN_ROW),
    ],
)
def test_bad_input_raises_a_notation_error_in_both_languages(
    text: str, code: NotationErrorCode
) -> None:
    game = position(3)
    view = game.view(game.state.current)
    table = view.table
    held = {table.tile(i) for i in view.rack}
    tile = next(t for t in (table.tile(i) for i in view.rack) if not t.is_joker)
    absent = next(t for t in (table.tile(i) for i in range(104)) if t not in held)
    in_row = {table.tile(i) for i in view.row}
    not_in_row = next(t for t in (table.tile(i) for i in range(104)) if t not in in_row)
    plain = next(k for k, m in enumerate(table.melds) if not m.joker_positions())
    filled = text.format(tile=tile, absent=absent, not_in_row=not_in_row, set_without_joker=plain)
    with pytest.raises(NotationError) as info:
        parse_command(filled, view)
    err = info.value
    assert err.code is code
    ro, en = err.message("ro"), err.message("en")
    assert ro and en and ro != en and "?" not in en
    with pytest.raises(ValueError, match="unknown language"):
        err.message("fr")


# -- play ---------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["clasic", "online", "rummy45"])
def test_play_a_whole_round_by_following_the_hint(
    variant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    follower = HintFollower(io.StringIO())
    code, text = play(
        monkeypatch,
        "--variant",
        variant,
        "--seed",
        "3",
        "--players",
        "3",
        "--strict",
        stdin=follower,
    )
    assert code == 0, text[-2000:]
    assert "round over: " in text
    assert text.count("\n  you (seat 0): melded ") == 1
    assert last_lines(text, 1)[0].startswith("winner(s): ")
    assert "draw" in follower.typed and any(t.startswith("discard ") for t in follower.typed)
    assert any(t.startswith("meld ") for t in follower.typed)
    assert "not allowed" not in text and "cannot read that" not in text


@pytest.mark.rule("ANNOUNCE-02")
def test_play_asks_to_announce_after_the_discard(monkeypatch: pytest.MonkeyPatch) -> None:
    """clasic: the player left with 3 tiles or fewer is asked after his discard, and
    the hint's announcement saves him the ANNOUNCE-03 penalty."""
    code, text = play(
        monkeypatch, "--seed", "3", "--players", "3", stdin=HintFollower(io.StringIO())
    )
    assert code == 0
    assert "You hold 1 tile: announce now (announce) or press Enter to go on.\n> announce\n" in text
    assert "done: announce" in text
    score = next(line for line in text.splitlines() if line.startswith("  you (seat 0):"))
    assert "penalty" not in score


def test_play_hint_after_the_discard_suggests_the_announcement(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Asked for a hint at the announcement prompt, ``play`` proposes ``announce``
    (ANNOUNCE-02) with the penalty it avoids (ANNOUNCE-03)."""

    class SkipsAnnouncements(HintFollower):
        def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
            line = super().readline(size)
            if line == "announce\n" and self.typed[-2:-1] != ["hint"]:
                self.typed.pop()
                return self.readline(size)  # forget it: ask again at the prompt
            return line

    code, text = play(
        monkeypatch, "--seed", "3", "--players", "3", stdin=SkipsAnnouncements(io.StringIO())
    )
    assert code == 0
    assert (
        "announce now (announce) or press Enter to go on.\n> hint\n"
        "hint: Announce that you hold 1 tile, or you lose 500 points.\n  1) announce\n"
        "> announce\ndone: announce\n"
    ) in text


def test_play_in_romanian_by_following_the_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    follower = HintFollower(io.StringIO())
    code, text = play(
        monkeypatch, "--seed", "2", "--players", "2", "--lang", "ro", "--strict", stdin=follower
    )
    assert code == 0, text[-2000:]
    assert "sugestie: " in text and "-- rândul tău (tura " in text
    assert any(t.startswith("aruncă ") for t in follower.typed)
    assert "trage" in follower.typed
    assert last_lines(text, 1)[0].startswith("câștigă: ")


def test_play_shows_the_sorted_rack_the_row_and_what_is_owed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    code, text = play(monkeypatch, "--seed", "3", "--players", "2", stdin="quit\n")
    assert code == 0
    game = Game.new(variants.get("clasic"), 2, seed=3)
    rack = [game.state.table.tile(i) for i in game.state.rack(0)]
    shown = re.search(r"^your rack \((\d+)\): (.*)$", text, re.MULTILINE)
    assert shown is not None
    assert int(shown.group(1)) == len(rack) == 14
    assert shown.group(2).replace("· ", "").split() == [str(t) for t in sorted(rack)]
    assert re.search(r"^row: 0:\S+ .*\(the first tile is dead\)$", text, re.MULTILINE)
    assert "still to do: take a tile" in text
    assert "you quit: the round is left unfinished" in text


@pytest.mark.parametrize(
    ("lang", "reason"),
    [
        ("en", "not allowed [take_first]: You must first take a tile"),
        ("ro", "nu se poate [take_first]: Mai întâi trebuie să iei o piesă"),
    ],
)
def test_play_an_illegal_step_prints_the_reason_and_changes_nothing(
    lang: str, reason: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    game = Game.new(variants.get("clasic"), 2, seed=3)
    tile = game.state.table.tile(game.state.rack(0)[0])
    saved = tmp_path / "game.json"
    script = f"show\ndiscard {tile}\nshow\nquit\n"
    code, text = play(
        monkeypatch,
        "--seed",
        "3",
        "--players",
        "2",
        "--lang",
        lang,
        "--save",
        str(saved),
        stdin=script,
    )
    assert code == 0
    assert reason in text
    blocks = text.split("> show\n")
    assert blocks[1].split("> ")[0] == blocks[2].split("> ")[0]  # the same position
    after = serde.loads_game(saved.read_text(encoding="utf-8"))
    assert after.state.phase.value == "take" and after.state.current == 0
    assert [s.kind for s in after.record().steps if s.in_turn] == ["discard"]  # seat 1's T1


def test_play_bad_notation_prints_a_typed_error(monkeypatch: pytest.MonkeyPatch) -> None:
    code, text = play(
        monkeypatch, "--seed", "3", "--players", "2", stdin="meld 5X\nlay\nfoo\nquit\n"
    )
    assert code == 0
    assert "cannot read that [notation_bad_tile]: Not a tile: '5X': the colour must be" in text
    assert "cannot read that [notation_missing]: lay needs a tile, for example: lay 9G on 2" in text
    assert "cannot read that [notation_unknown_command]: 'foo' is not a step" in text


def test_play_strict_exits_1_at_a_refused_or_unreadable_step(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = Game.new(variants.get("clasic"), 2, seed=3)
    tile = game.state.table.tile(game.state.rack(0)[0])
    code, text = play(
        monkeypatch, "--seed", "3", "--players", "2", "--strict", stdin=f"discard {tile}\n"
    )
    assert code == 1
    assert "[take_first]" in text
    code, _ = play(monkeypatch, "--seed", "3", "--players", "2", "--strict", stdin="meld 5X\n")
    assert code == 1


def test_play_undo_takes_a_meld_back(monkeypatch: pytest.MonkeyPatch) -> None:
    class UndoFirstMeld(HintFollower):
        undone = False

        def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
            line = super().readline(size)
            if line.startswith("meld ") and not self.undone:
                self.undone = True
                self.queue[:0] = ["undo", "show", line.rstrip("\n")]
            return line

    follower = UndoFirstMeld(io.StringIO())
    code, text = play(monkeypatch, "--seed", "3", "--players", "2", "--strict", stdin=follower)
    assert code == 0, text[-2000:]
    first_meld = next(t for t in follower.typed if t.startswith("meld "))
    assert f"taken back: {first_meld}\n" in text
    assert last_lines(text, 1)[0].startswith("winner(s): ")


def test_play_end_of_input_ends_the_game_cleanly(monkeypatch: pytest.MonkeyPatch) -> None:
    code, text = play(monkeypatch, "--seed", "3", "--players", "2", stdin="")
    assert code == 0
    assert last_lines(text, 1) == ["end of input: the round is left unfinished (turn 2)."]


def test_play_other_seats_and_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    code, text = play(
        monkeypatch,
        "--seed",
        "3",
        "--players",
        "3",
        "--seat",
        "2",
        "--bots",
        "random,greedy",
        stdin="",
    )
    assert code == 0
    assert "players: seat 0 random, seat 1 greedy, you (seat 2)" in text
    assert "You are seat 2." in text


def test_play_save_then_replay_an_unfinished_game(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    saved = tmp_path / "game.json"
    code, text = play(
        monkeypatch, "--seed", "3", "--players", "2", "--save", str(saved), stdin="draw\n"
    )
    assert code == 0 and f"saved to {saved}" in text
    code, text = run("replay", str(saved))
    assert code == 0
    assert re.search(r"^T2 +seat 0  draw \(\S+\)$", text, re.MULTILINE)
    assert last_lines(text, 1) == ["the round is not over: turn 2, seat 0 to move"]


def test_play_errors_exit_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert play(monkeypatch, "--seat", "4", "--players", "4")[0] == 2
    assert "--seat 4: the seats are 0-3" in capsys.readouterr().err
    assert play(monkeypatch, "--players", "4", "--bots", "greedy,random")[0] == 2
    assert "2 bots for 3 seats" in capsys.readouterr().err
    assert play(monkeypatch, "--variant", "nope")[0] == 2
    assert play(monkeypatch, "--players", "2", "--lang", "fr")[0] == 2


def test_play_through_a_process_with_piped_input() -> None:
    done = cli("play", "--seed", "3", "--players", "2", stdin="hint\nfoo\ndraw\nquit\n")
    assert done.returncode == 0, done.stderr
    assert "hint: Draw from the stock" in done.stdout
    assert "> foo\ncannot read that [notation_unknown_command]" in done.stdout
    assert "you drew " in done.stdout
    assert done.stdout.rstrip().endswith("you quit: the round is left unfinished (turn 2).")
    strict = cli("play", "--seed", "3", "--players", "2", "--strict", stdin="foo\n")
    assert strict.returncode == 1
    assert cli("play", "--seat", "9").returncode == 2


# -- replay -------------------------------------------------------------------------------


def bot_game(seed: int = 4, variant: str = "online") -> Game:
    game = Game.new(variants.get(variant), ["Ana", "Ion", "Dan"], seed=seed)
    play_round(game, [GreedyBot(), RandomBot(seed=seed), GreedyBot()])
    return game


def step_texts(game: Game) -> Iterator[str]:
    """Each step of ``game``'s record in notation, from the state it was made in."""
    again = Game.replay(game.record(), upto=0)
    for step in game.record().steps:
        state = again.state
        seat = state.current if step.in_turn else getattr(step, "seat", state.current)
        yield format_step(step, again.view(seat), "en")
        again.apply(step)


def test_replay_names_every_step_and_ends_with_the_result(tmp_path: Path) -> None:
    game = bot_game()
    path = tmp_path / "game.json"
    path.write_text(serde.dumps_game(game), encoding="utf-8")
    code, text = run("replay", str(path))
    assert code == 0
    assert text.startswith(f"Replay: saved game from {path}\nonline (fingerprint ")
    assert "players: seat 0 Ana, seat 1 Ion, seat 2 Dan" in text
    step_lines = [line for line in text.splitlines() if re.match(r"^T\d+ +seat \d  ", line)]
    assert len(step_lines) == len(game.record().steps)
    for line, expected in zip(step_lines, step_texts(game), strict=True):
        assert line.split("  ", 2)[-1].split(" (")[0] == expected.split(" (")[0]
    assert re.search(r"^      table:$", text, re.MULTILINE)
    result = game.result()
    assert result is not None
    for seat, total in enumerate(result.totals):
        assert re.search(rf"^  seat {seat}: .* = {total}$", text, re.MULTILINE)
    assert last_lines(text, 1)[0].startswith("winner(s): ")


def test_replay_of_a_record_and_of_a_match(tmp_path: Path) -> None:
    game = bot_game(seed=6, variant="clasic")
    record = tmp_path / "record.json"
    record.write_text(serde.dumps_record(game), encoding="utf-8")
    code, text = run("replay", str(record), "--lang", "ro")
    assert code == 0
    assert text.startswith(f"Reluare: înregistrare din {record}\nclasic (amprenta ")
    assert last_lines(text, 1)[0].startswith("câștigă: ")
    match = Match(variants.get("rummy45"), 2, MatchConfig(rounds=2), seed=3)
    match.play([GreedyBot(), GreedyBot()])
    saved = tmp_path / "match.json"
    saved.write_text(json.dumps(serde.dump_match(match)), encoding="utf-8")
    code, text = run("replay", str(saved))
    assert code == 0
    assert text.count("== round ") == 2 and text.count("winner(s): ") == 2


def test_replay_of_a_demo_tells_the_same_turns(tmp_path: Path) -> None:
    path = tmp_path / "demo.json"
    shown = run("demo", "--players", "2", "--seed", "2", "--save", str(path))[1]
    text = run("replay", str(path))[1]
    end = shown.split("\n\nround over: ")[1].removesuffix(f"saved to {path}\n")
    assert text.endswith(end)  # the same end, table and score
    turns = {int(t) for t in re.findall(r"^T(\d+) ", shown, re.MULTILINE)}
    assert {int(t) for t in re.findall(r"^T(\d+) ", text, re.MULTILINE)} == turns


def test_replay_errors_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run("replay", str(tmp_path / "missing.json"))[0] == 2
    assert "cannot read " in capsys.readouterr().err
    not_json = tmp_path / "bad.json"
    not_json.write_text("{", encoding="utf-8")
    assert run("replay", str(not_json))[0] == 2
    assert "The text is not valid JSON" in capsys.readouterr().err
    view = tmp_path / "view.json"
    view.write_text(json.dumps(serde.dump_view(bot_game().view(0))), encoding="utf-8")
    assert run("replay", str(view))[0] == 2
    assert 'is not a saved game (kind "view")' in capsys.readouterr().err
    broken = serde.dump_game(bot_game())
    broken["state"]["seats"][1]["rack"][0] = True
    corrupt = tmp_path / "corrupt.json"
    corrupt.write_text(json.dumps(broken), encoding="utf-8")
    assert run("replay", str(corrupt), "--lang", "ro")[0] == 2
    assert "state.seats[1].rack[0]" in capsys.readouterr().err
    listed = tmp_path / "list.json"
    listed.write_text("[1, 2]", encoding="utf-8")
    assert run("replay", str(listed))[0] == 2
    done = cli("replay", str(corrupt))
    assert done.returncode == 2 and "Traceback" not in done.stderr
