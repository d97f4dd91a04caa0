"""The simulator's own worker processes, which never outlive the run that started them.

:func:`gather` runs tasks on ``jobs`` processes and returns their outcomes in task
order.  It is not a :class:`concurrent.futures.ProcessPoolExecutor`, whose shutdown
waits for every queued task (Ctrl-C used to let a whole simulation finish first) and
whose workers, forked with each other's pipes, never notice that their parent died.
What it guarantees:

* **an exception in the caller stops everything at once.**  A
  :class:`KeyboardInterrupt` (Ctrl-C, or a SIGTERM handler that raises one), an error
  in the progress callback or in a task: the workers are killed and reaped, then the
  exception goes on to the caller.  A second Ctrl-C during that cleanup is held back
  until the cleanup is done (when it runs in the main thread, where Python delivers
  signals).
* **Ctrl-C is the parent's.**  A terminal sends SIGINT to its whole process group, the
  workers included; they ignore it (no traceback per worker) and are stopped by the
  parent.  SIGINT and SIGTERM are blocked while a worker starts, so none arrives
  before it has set that up.
* **an orphaned worker exits by itself at once**, even if the parent was killed by
  SIGKILL: each worker holds the read end of a *lifeline* pipe whose only write end
  is the parent's, and a thread of the worker waits for it to close (portable).  On
  Linux the kernel also kills a worker whose parent dies
  (``prctl(PR_SET_PDEATHSIG, SIGKILL)``, through :mod:`ctypes`).

Each worker has a pipe of its own and at most :data:`IN_FLIGHT` tasks queued on it,
so no task is lost in a shared queue when a worker is killed.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import signal
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from types import FrameType
from typing import Any, Final, NoReturn

from ..errors import SimErrorCode, SimulationFailedError
from .tasks import RoundOutcome, SimTask, run_task

__all__ = ["IN_FLIGHT", "STOP_SIGNALS", "gather"]

STOP_SIGNALS: Final = frozenset({signal.SIGINT, signal.SIGTERM})
"""The signals that ask a simulation to stop."""

IN_FLIGHT: Final = 2
"""Tasks queued on a worker at a time: one running, one ready, so that a worker never
waits for the parent between two tasks."""

_GRACE: Final = 2.0
"""Seconds to wait for a worker to exit after it was told to, or killed."""

_PR_SET_PDEATHSIG: Final = 1
"""``<linux/prctl.h>``: deliver a signal to this process when its parent dies."""

Progress = Callable[[int], None]


# -- in the worker ------------------------------------------------------------------------


def _die_with_parent() -> None:
    """On Linux, ask the kernel for SIGKILL when the parent dies (best effort: the
    lifeline does the same everywhere)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
    except (OSError, AttributeError):  # pragma: no cover - an unusual libc
        pass


def _watch(lifeline: Connection) -> None:
    """Wait until the parent's end of the lifeline closes, then exit at once."""
    with contextlib.suppress(EOFError, OSError):
        lifeline.recv_bytes()
    os._exit(1)


def _work(conn: Connection, lifeline: Connection, parents_end: Connection | None) -> None:
    """A worker's life: run the tasks that arrive on ``conn`` until told to stop
    (``None``), until the parent goes away, or until it is killed."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
    if parents_end is not None:  # forked: this process holds a copy of the write end
        parents_end.close()
    _die_with_parent()
    threading.Thread(target=_watch, args=(lifeline,), name="lifeline", daemon=True).start()
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        index, task = message
        try:
            reply: tuple[int, bool, Any] = (index, True, run_task(task))
        except Exception as exc:
            reply = (index, False, exc)
        try:
            conn.send(reply)
        except (OSError, EOFError):
            return
        except Exception as exc:  # an exception that does not pickle
            conn.send((index, False, RuntimeError(f"{type(exc).__name__}: {exc}")))


# -- in the parent ------------------------------------------------------------------------


@contextlib.contextmanager
def _stop_signals_blocked() -> Iterator[None]:
    """SIGINT and SIGTERM blocked in this thread (and in the processes it starts) for
    the duration; one that arrives meanwhile is delivered at the end."""
    if not hasattr(signal, "pthread_sigmask"):  # pragma: no cover - Windows
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


@contextlib.contextmanager
def _stop_signals_held() -> Iterator[None]:
    """SIGINT and SIGTERM held back for the duration, then raised again: a second
    Ctrl-C cannot cut the cleanup short.  Only in the main thread (signal handlers run
    there, and only there can they be changed)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held: list[int] = []

    def hold(signum: int, frame: FrameType | None) -> None:
        held.append(signum)

    previous: dict[signal.Signals, Any] = {}
    for sig in STOP_SIGNALS:
        handler = signal.getsignal(sig)
        if handler is None or handler == signal.SIG_IGN:
            continue  # not Python's to restore, or ignored anyway
        previous[sig] = handler
        signal.signal(sig, hold)
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        for signum in dict.fromkeys(held):
            signal.raise_signal(signum)


class _Worker:
    __slots__ = ("conn", "process", "queued")

    def __init__(self, process: BaseProcess, conn: Connection) -> None:
        self.process = process
        self.conn = conn
        self.queued = 0


def _stop(workers: Sequence[_Worker], graceful: bool) -> None:
    """End the workers: told to stop after a complete run, killed otherwise; reaped."""
    with _stop_signals_held():
        if graceful:
            for w in workers:
                with contextlib.suppress(OSError):
                    w.conn.send(None)
            for w in workers:
                w.process.join(_GRACE)
        for w in workers:
            if w.process.pid is not None and w.process.exitcode is None:
                w.process.kill()
        for w in workers:
            if w.process.pid is not None:
                w.process.join(_GRACE)
            w.conn.close()


def gather(
    tasks: Sequence[SimTask], jobs: int, progress: Progress | None = None
) -> list[tuple[RoundOutcome, ...]]:
    """Run ``tasks`` on ``jobs`` worker processes (fewer if there are fewer tasks) and
    return each task's outcomes, in the order of ``tasks``.  ``progress`` is called in
    this process with the number of rounds of each task that finishes.  Whatever ends
    the run (completion, an exception, Ctrl-C), every worker is gone when it returns
    or raises."""
    ctx = multiprocessing.get_context()
    forked = ctx.get_start_method() == "fork"
    results: list[tuple[RoundOutcome, ...] | None] = [None] * len(tasks)
    todo = deque(range(len(tasks)))
    lifeline, parents_end = ctx.Pipe(duplex=False)
    workers: list[_Worker] = []
    complete = False

    def feed(w: _Worker) -> None:
        if todo:
            index = todo.popleft()
            w.conn.send((index, tasks[index]))
            w.queued += 1

    try:
        with _stop_signals_blocked():
            for k in range(min(jobs, len(tasks))):
                mine, theirs = ctx.Pipe()
                process = ctx.Process(
                    target=_work,
                    args=(theirs, lifeline, parents_end if forked else None),
                    name=f"remi-sim-{k}",
                    daemon=True,
                )
                workers.append(_Worker(process, mine))
                process.start()
                theirs.close()
        lifeline.close()  # the workers hold the read ends; this process the write end
        for _ in range(IN_FLIGHT):
            for w in workers:
                feed(w)
        by_conn = {w.conn: w for w in workers}
        by_sentinel = {w.process.sentinel: w for w in workers}
        left = len(tasks)
        while left:
            for ready in wait([*by_conn, *by_sentinel]):
                if isinstance(ready, int):  # a worker ended
                    if by_sentinel[ready].conn.poll():
                        continue  # its last reply is still to be read
                    _lost(by_sentinel[ready])
                if not isinstance(ready, Connection):  # pragma: no cover - a socket
                    continue
                w = by_conn[ready]
                try:
                    index, ok, value = w.conn.recv()
                except (EOFError, OSError):
                    _lost(w)
                w.queued -= 1
                if not ok:
                    raise value
                results[index] = value
                left -= 1
                feed(w)
                if progress is not None:
                    progress(tasks[index].stop_seed - tasks[index].first_seed)
        complete = True
    finally:
        _stop(workers, graceful=complete)
        parents_end.close()
        lifeline.close()
    return [r for r in results if r is not None]


def _lost(w: _Worker) -> NoReturn:
    w.process.join(_GRACE)
    raise SimulationFailedError(SimErrorCode.WORKER_LOST, exitcode=w.process.exitcode)
