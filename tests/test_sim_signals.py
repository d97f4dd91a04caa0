"""Stopping a simulation the way a person does: Ctrl-C (SIGINT to the terminal's
process group, or to the process), SIGTERM, or SIGKILL of the parent.

Each test starts ``python -m remi_rules.cli simulate`` (or a script calling
``remi_rules.sim.run``) in a session of its own, waits until it is simulating, sends
the signal and measures how long the command takes to end.  Required: exit 130
(SIGINT) / 143 (SIGTERM) within 2 s, exactly one line on stderr, nothing on stdout,
and no process of the session left; after a SIGKILL of the parent, its workers gone
within 2 s.  The hard limit here is :data:`LIMIT` (5 s), for a busy shared machine;
the measured times are printed (``pytest -s``).

The processes are found through ``/proc`` (every process of the command's session),
so these tests run on Linux only.
"""

from __future__ import annotations

import contextlib
import importlib.util
import multiprocessing
import os
import re
import signal
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from remi_rules import variants
from remi_rules.errors import SimErrorCode, SimulationFailedError
from remi_rules.sim import Simulation, run

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/stat").exists(), reason="counts processes through /proc (Linux)"
)

LIMIT = 5.0
"""Seconds a stop may take here (2 s required; slack for a loaded machine)."""
STARTUP = 120.0
"""Seconds to wait for the command to start simulating (imports are slow when busy)."""

EN_STOP = "remi-rules: the simulation was stopped ({}); no results were written"
RO_STOP = "remi-rules: simularea a fost oprită ({}); nu s-a scris niciun rezultat"
LONG = ("--rounds", "1000000", "--variant", "clasic", "--bots", "random,random")


# -- processes, through /proc ---------------------------------------------------------------


def _stat(pid: int) -> tuple[str, int, int, int] | None:
    """(state, ppid, session, start time) of ``pid``, or None if it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    return fields[0], int(fields[1]), int(fields[3]), int(fields[19])


def session_processes(sid: int) -> dict[int, int]:
    """The live (not zombie) processes of session ``sid``: pid -> start time."""
    found = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            stat = _stat(int(entry))
            if stat is not None and stat[2] == sid and stat[0] != "Z":
                found[int(entry)] = stat[3]
    return found


def children(pid: int) -> list[int]:
    """The live children of ``pid``."""
    kids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            stat = _stat(int(entry))
            if stat is not None and stat[1] == pid and stat[0] != "Z":
                kids.append(int(entry))
    return kids


class Command:
    """A command in a new session, its stderr read as it comes."""

    def __init__(self, argv: list[str]) -> None:
        self.proc = subprocess.Popen(
            argv,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        self.err = b""
        self.out = b""
        self._readers = [
            threading.Thread(target=self._read, args=("err",), daemon=True),
            threading.Thread(target=self._read, args=("out",), daemon=True),
        ]
        for reader in self._readers:
            reader.start()

    def _read(self, which: str) -> None:
        stream = self.proc.stderr if which == "err" else self.proc.stdout
        assert stream is not None
        while chunk := os.read(stream.fileno(), 4096):
            setattr(self, which, getattr(self, which) + chunk)

    @property
    def pid(self) -> int:
        return self.proc.pid

    def wait_until(self, what: str, ready: object) -> None:
        deadline = time.monotonic() + STARTUP
        while not ready():  # type: ignore[operator]
            if self.proc.poll() is not None:
                pytest.fail(f"ended ({self.proc.returncode}) before {what}: {self.err!r}")
            if time.monotonic() > deadline:
                pytest.fail(f"no {what} after {STARTUP} s: {self.err!r}")
            time.sleep(0.05)

    def wait_for_workers(self, count: int) -> list[int]:
        self.wait_until(f"{count} workers", lambda: len(children(self.pid)) >= count)
        time.sleep(0.3)  # the workers are running tasks
        return children(self.pid)

    def stop(self, sig: int, group: bool) -> float:
        """Send ``sig`` (to the process group or the process); the seconds until exit."""
        sent = time.monotonic()
        if group:
            os.killpg(self.pid, sig)
        else:
            os.kill(self.pid, sig)
        try:
            self.proc.wait(LIMIT)
        except subprocess.TimeoutExpired:
            pytest.fail(f"still running {LIMIT} s after signal {sig}")
        took = time.monotonic() - sent
        for reader in self._readers:
            reader.join(LIMIT)
        return took

    def kill_all(self) -> None:
        for pid in session_processes(self.pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        self.proc.wait(LIMIT)


@pytest.fixture
def command() -> Iterator[list[Command]]:
    started: list[Command] = []
    yield started
    for each in started:  # whatever a failed test left behind
        each.kill_all()


def simulate(started: list[Command], *argv: str) -> Command:
    cmd = Command([sys.executable, "-m", "remi_rules.cli", "simulate", *argv])
    started.append(cmd)
    return cmd


def assert_nothing_left(cmd: Command, took: float, label: str) -> None:
    """No process of the command's session is alive (allowing for the time limit)."""
    exited = time.monotonic()
    deadline = exited + max(0.0, LIMIT - took)
    while (left := session_processes(cmd.pid)) and time.monotonic() < deadline:
        time.sleep(0.02)
    after = time.monotonic() - exited
    assert not left, f"{label}: processes left behind: {sorted(left)}"
    print(f"\n{label}: exited {took:.2f} s after the signal; no process left {after:.2f} s later")


def one_line(err: bytes) -> str:
    """The one line a terminal shows: one newline, at the end; what a progress bar
    drew before it on the same line was erased (carriage returns)."""
    text = err.decode()
    assert text.count("\n") == 1 and text.endswith("\n"), repr(text)
    return text[:-1].rsplit("\r", 1)[-1]


# -- the command line -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sig", "group", "code"),
    [
        (signal.SIGINT, True, 130),
        (signal.SIGINT, False, 130),
        (signal.SIGTERM, True, 143),
        (signal.SIGTERM, False, 143),
    ],
    ids=["SIGINT-group", "SIGINT-process", "SIGTERM-group", "SIGTERM-process"],
)
def test_two_jobs_stop_at_once(
    command: list[Command], sig: signal.Signals, group: bool, code: int
) -> None:
    cmd = simulate(command, *LONG, "--jobs", "2", "--no-progress")
    cmd.wait_for_workers(2)
    took = cmd.stop(sig, group)
    assert cmd.proc.returncode == code, cmd.err
    assert cmd.err.decode() == EN_STOP.format(sig.name) + "\n"
    assert cmd.out == b""
    assert took < LIMIT
    assert_nothing_left(cmd, took, f"--jobs 2, {sig.name} to the {'group' if group else 'process'}")


@pytest.mark.parametrize(
    ("sig", "group", "code"),
    [(signal.SIGINT, True, 130), (signal.SIGTERM, False, 143)],
    ids=["SIGINT-group", "SIGTERM-process"],
)
def test_one_job_stops_at_once_in_romanian(
    command: list[Command], sig: signal.Signals, group: bool, code: int
) -> None:
    cmd = simulate(command, *LONG, "--jobs", "1", "--progress", "--lang", "ro")
    cmd.wait_until("progress", lambda: b"/1000000" in cmd.err)  # tqdm's bar or the plain one
    took = cmd.stop(sig, group)
    assert cmd.proc.returncode == code, cmd.err
    assert one_line(cmd.err) == RO_STOP.format(sig.name)
    assert cmd.out == b""
    assert took < LIMIT
    assert_nothing_left(cmd, took, f"--jobs 1, {sig.name} to the {'group' if group else 'process'}")


def test_workers_of_a_killed_parent_exit_by_themselves(command: list[Command]) -> None:
    cmd = simulate(command, *LONG, "--jobs", "2", "--no-progress")
    workers = cmd.wait_for_workers(2)
    assert len(workers) == 2
    sent = time.monotonic()
    os.kill(cmd.pid, signal.SIGKILL)
    cmd.proc.wait(LIMIT)
    while (alive := [w for w in workers if _alive(w)]) and time.monotonic() - sent < LIMIT:
        time.sleep(0.02)
    took = time.monotonic() - sent
    assert not alive, f"orphaned workers still running after {took:.2f} s"
    print(f"\nSIGKILL of the parent, --jobs 2: workers gone in {took:.2f} s")
    assert not session_processes(cmd.pid)


def _alive(pid: int) -> bool:
    stat = _stat(pid)
    return stat is not None and stat[0] != "Z"


@pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="Ray is an optional extra")
def test_the_ray_backend_stops_at_once(command: list[Command]) -> None:
    cmd = simulate(command, *LONG, "--backend", "ray", "--progress")
    cmd.wait_until("progress", lambda: b"/1000000" in cmd.err)  # tqdm's bar or the plain one
    took = cmd.stop(signal.SIGINT, True)
    assert cmd.proc.returncode == 130, cmd.err
    # Ray's own core may log to the same stderr as it is interrupted (seen on a loaded
    # machine: "[2026-12-02 13:34:56,821 E 2597 2830] task_manager.cc:1545: Failed to
    # push error to driver ..."): its lines are not the command's, and are set aside.
    assert one_line(_RAY_LOG.sub(b"", cmd.err)) == EN_STOP.format("SIGINT")
    assert took < LIMIT
    assert_nothing_left(cmd, took, "--backend ray, SIGINT to the group")


_RAY_LOG = re.compile(rb"\[\d{4}-\d\d-\d\d [\d:,]+ [DIWEF] \d+ \d+\] [^\n]*\n")
"""A log line of Ray's C++ core (glog format)."""


# -- the library ----------------------------------------------------------------------------

LIBRARY = textwrap.dedent(
    """
    import os, sys
    from remi_rules import variants
    from remi_rules.sim import Simulation, run

    sim = Simulation((("clasic", variants.get("clasic")),), ("random", "random"), 10**6)
    try:
        run(sim, jobs=2, progress=lambda n: (sys.stdout.write(f"done {n}\\n"), sys.stdout.flush()))
    except KeyboardInterrupt:
        left = [p for p in os.listdir("/proc") if p.isdigit() and
                open(f"/proc/{p}/stat").read().rsplit(")", 1)[1].split()[1] == str(os.getpid())]
        print("interrupted; children left:", len(left), flush=True)
        sys.exit(0)
    """
)


def test_the_library_raises_keyboard_interrupt_once_its_workers_are_gone(
    command: list[Command],
) -> None:
    cmd = Command([sys.executable, "-c", LIBRARY])
    command.append(cmd)
    cmd.wait_until("a finished task", lambda: b"done" in cmd.out)
    took = cmd.stop(signal.SIGINT, True)
    assert cmd.proc.returncode == 0, cmd.err
    # (the interrupt may land inside the script's own progress line: only its end counts)
    assert cmd.out.decode().splitlines()[-1].endswith("interrupted; children left: 0")
    assert cmd.err == b""  # no traceback from the workers
    assert took < LIMIT
    assert_nothing_left(cmd, took, "sim.run, jobs=2, SIGINT to the group")


def small(rounds: int = 400) -> Simulation:
    return Simulation((("clasic", variants.get("clasic")),), ("random", "random"), rounds)


def test_an_exception_in_the_progress_callback_stops_the_workers() -> None:
    class Enough(Exception):
        pass

    def progress(rounds: int) -> None:
        assert len(multiprocessing.active_children()) == 2
        raise Enough

    with pytest.raises(Enough):
        run(small(), jobs=2, progress=progress)
    assert multiprocessing.active_children() == []
    assert children(os.getpid()) == []


def test_a_keyboard_interrupt_in_the_caller_stops_the_workers() -> None:
    def progress(rounds: int) -> None:
        raise KeyboardInterrupt

    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        run(small(), jobs=2, progress=progress)
    assert time.monotonic() - started < 60  # not the whole simulation
    assert children(os.getpid()) == []


def test_a_worker_that_dies_is_a_coded_error() -> None:
    def progress(rounds: int) -> None:
        for child in multiprocessing.active_children():
            os.kill(child.pid or 0, signal.SIGKILL)
            break

    with pytest.raises(SimulationFailedError) as caught:
        run(small(), jobs=2, progress=progress)
    assert caught.value.code is SimErrorCode.WORKER_LOST
    assert caught.value.details["exitcode"] == -signal.SIGKILL
    assert children(os.getpid()) == []
