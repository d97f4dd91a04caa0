"""Running a simulation: split the rounds into pure tasks, run them on a backend,
gather the outcomes in seed order and summarise them.

Backends:

* ``"local"``: this process (``jobs=1``) or ``jobs`` worker processes of the
  simulator's own (:mod:`remi_rules.sim.workers`);
* ``"ray"``: a Ray cluster (``ray.init(address)``; without an address Ray starts a
  local one).  Ray is an optional extra (``pip install 'remi-rules[ray]'``), imported
  only here and only when asked for.

The tasks are the same whatever the backend and the number of processes, and the
outcomes are summarised in seed order, so the results are identical bit for bit.

Stopping: a :class:`KeyboardInterrupt` (Ctrl-C) or any other exception during
:func:`run` stops the simulation at once, whatever the backend: the worker processes
are killed and reaped (the Ray tasks cancelled, a Ray cluster that :func:`run`
started shut down), then the exception reaches the caller.  Workers whose parent is
killed outright exit by themselves.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
from collections.abc import Callable, Sequence
from typing import Any, Final

import attrs

from ..errors import InvalidSimulationError, SimErrorCode, SimulationFailedError
from ..ruleset import Ruleset
from .stats import summarize
from .tasks import RoundOutcome, SimTask, check_bots, check_int, check_str, run_task
from .workers import gather

__all__ = ["BACKENDS", "Simulation", "plan_tasks", "run"]

BACKENDS: Final = ("local", "ray")
CHUNK: Final = 25
"""Rounds per task: small enough to balance the processes, large enough to pay for
sending a task."""

Progress = Callable[[int], None]
"""Called with the number of rounds just finished."""

_RAY_POLL: Final = 0.1
"""Seconds between two looks at the Ray tasks (and at a pending Ctrl-C)."""


def _shape(pair: object) -> str:
    """A pair's type, or its items' types (never its ``repr``: a huge int or string
    must not make the message fail or grow)."""
    if isinstance(pair, tuple | list):
        return f"({', '.join(type(x).__name__ for x in pair[:3])}{', …' if len(pair) > 3 else ''})"
    return type(pair).__name__


def _rulesets(value: object) -> tuple[tuple[str, Ruleset], ...]:
    if not isinstance(value, tuple | list):
        raise TypeError(
            f"rulesets must be a tuple of (label, Ruleset) pairs, not {type(value).__name__}"
        )
    pairs = []
    for pair in value:
        if (
            not isinstance(pair, tuple | list)
            or len(pair) != 2
            or not isinstance(pair[0], str)
            or not isinstance(pair[1], Ruleset)
        ):
            raise TypeError(f"a ruleset must be a (label, Ruleset) pair, not {_shape(pair)}")
        pairs.append((pair[0], pair[1]))
    return tuple(pairs)


@attrs.frozen
class Simulation:
    """What to simulate: each ruleset (with its label) for ``rounds`` rounds from
    ``seed`` on, the same seeds for every ruleset, seat ``s`` taken by ``bots[s]``.

    Checked when made, before any work: :class:`TypeError` for a wrong type
    (``rulesets`` no sequence of ``(str, Ruleset)`` pairs, ``bots`` no tuple or list
    of ``str``, ``rounds`` or ``seed`` no ``int``);
    :class:`~remi_rules.errors.InvalidSimulationError` for 2 to 4 bots out of range,
    an unknown bot, fewer than 1 round, no ruleset, or labels empty or repeated."""

    rulesets: tuple[tuple[str, Ruleset], ...] = attrs.field(converter=_rulesets)
    bots: tuple[str, ...] = attrs.field(converter=check_bots)
    rounds: int
    seed: int = 0

    def __attrs_post_init__(self) -> None:
        check_int("rounds", self.rounds)
        check_int("seed", self.seed)
        if self.rounds < 1:
            raise InvalidSimulationError(SimErrorCode.BAD_ROUNDS, rounds=self.rounds)
        labels = [label for label, _ in self.rulesets]
        if not labels or len(set(labels)) != len(labels) or "" in labels:
            raise InvalidSimulationError(SimErrorCode.BAD_LABELS, labels=labels)


def plan_tasks(sim: Simulation, chunk: int = CHUNK) -> list[SimTask]:
    """The tasks of ``sim``: each ruleset's seeds in chunks of ``chunk`` rounds.
    :class:`TypeError` for a ``sim`` that is no :class:`Simulation` or a ``chunk`` no
    ``int``; :class:`~remi_rules.errors.InvalidSimulationError`
    (:attr:`~remi_rules.errors.SimErrorCode.BAD_CHUNK`) for a chunk below 1."""
    if not isinstance(sim, Simulation):
        raise TypeError(f"sim must be a Simulation, not {type(sim).__name__}")
    if check_int("chunk", chunk) < 1:
        raise InvalidSimulationError(SimErrorCode.BAD_CHUNK, chunk=chunk)
    tasks = []
    for label, rules in sim.rulesets:
        for start in range(sim.seed, sim.seed + sim.rounds, chunk):
            stop = min(start + chunk, sim.seed + sim.rounds)
            tasks.append(SimTask(rules, sim.bots, start, stop, label))
    return tasks


def _gather_local(
    tasks: Sequence[SimTask], jobs: int, progress: Progress | None
) -> list[tuple[RoundOutcome, ...]]:
    if jobs > 1 and len(tasks) > 1:
        return gather(tasks, jobs, progress)
    done = []
    for task in tasks:
        done.append(run_task(task))
        if progress:
            progress(task.stop_seed - task.first_seed)
    return done


def _gather_ray(
    tasks: Sequence[SimTask], address: str | None, progress: Progress | None
) -> list[tuple[RoundOutcome, ...]]:
    try:
        import ray
    except ImportError:  # pragma: no cover - depends on the machine
        raise SimulationFailedError(SimErrorCode.RAY_MISSING) from None
    started = not ray.is_initialized()
    pending: list[Any] = []
    try:
        if started:
            ray.init(
                address=address,
                include_dashboard=False,
                log_to_driver=False,
                ignore_reinit_error=True,
                logging_level=logging.ERROR,
            )
        remote = ray.remote(run_task)
        # A window of tasks in flight, not every task at once: a million rounds are
        # 40,000 tasks, and Ray takes seconds to drop that many when stopped.
        cluster: Any = ray  # typed whether or not Ray is installed
        window = max(2, 2 * int(cluster.cluster_resources().get("CPU", 1)))
        results: list[Any] = [None] * len(tasks)
        index: dict[Any, int] = {}
        following = iter(range(len(tasks)))

        def submit() -> None:
            k = next(following, None)
            if k is not None:
                ref = remote.remote(tasks[k])
                index[ref] = k
                pending.append(ref)

        for _ in range(window):
            submit()
        while pending:
            # With a timeout: Ray's wait blocks in C++, where Python cannot run the
            # signal handler; Ctrl-C is seen at the next return.
            ready, pending[:] = ray.wait(pending, num_returns=1, timeout=_RAY_POLL)
            for ref in ready:
                k = index.pop(ref)
                results[k] = ray.get(ref)
                submit()
                if progress:
                    progress(tasks[k].stop_seed - tasks[k].first_seed)
        return results
    except BaseException as exc:
        if not started:  # a cluster of the caller's: leave it, without our tasks
            for ref in pending:
                with contextlib.suppress(Exception):
                    ray.cancel(ref, force=True)
        elif isinstance(exc, KeyboardInterrupt):
            _kill_at_shutdown(ray)
        raise
    finally:
        if started:  # also kills the tasks still running
            ray.shutdown()


def _descendants(root: int) -> list[int]:
    """The processes below ``root`` (children, theirs …), read from ``/proc``; none
    where there is no ``/proc``."""
    children: dict[int, list[int]] = {}
    with contextlib.suppress(OSError):
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                with contextlib.suppress(OSError, IndexError, ValueError):
                    with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as f:
                        parent = int(f.read().rsplit(")", 1)[1].split()[1])
                    children.setdefault(parent, []).append(int(entry))
    found: list[int] = []
    todo = [root]
    while todo:
        for child in children.get(todo.pop(), ()):
            found.append(child)
            todo.append(child)
    return found


def _kill_at_shutdown(ray: Any) -> None:
    """Make the coming ``ray.shutdown()`` kill the local cluster's processes outright.

    Ray's shutdown stops them gracefully (SIGTERM, then waits): 1.7 s of its 2.2 s
    here, too slow for a stopped simulation (docs/simulation.md).  Killing them first
    is no better (the driver then waits for the dead raylet), so the node's own
    ``kill_all_processes`` is told not to be graceful.  That is Ray's private API:
    where it is missing, the shutdown stays graceful."""
    node = getattr(getattr(getattr(ray, "_private", None), "worker", None), "_global_node", None)
    kill = getattr(node, "kill_all_processes", None)
    if node is None or not callable(kill):
        return

    def at_once(**options: Any) -> Any:
        # Killed outright, the raylet leaves its own children (Ray's agents): they
        # are this process's descendants, found before and killed after.
        family = _descendants(os.getpid())
        try:
            return kill(**{**options, "allow_graceful": False})
        finally:
            for pid in family:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)

    with contextlib.suppress(Exception):
        node.kill_all_processes = at_once


def run(
    sim: Simulation,
    *,
    jobs: int = 1,
    backend: str = "local",
    address: str | None = None,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Run ``sim`` and return its results: per ruleset (in the order given) the
    measurements of :func:`~remi_rules.sim.stats.summarize`.  Only results: no
    timings, nothing that depends on the backend or on ``jobs``.

    ``jobs`` processes for the local backend (1: this process); ``address`` the Ray
    cluster of the ray backend; ``progress`` is called with the number of rounds of
    each task that finishes.  :class:`TypeError` for an argument of the wrong type;
    :class:`~remi_rules.errors.InvalidSimulationError` for ``jobs`` below 1
    (:attr:`~remi_rules.errors.SimErrorCode.BAD_JOBS`) or an unknown backend
    (:attr:`~remi_rules.errors.SimErrorCode.UNKNOWN_BACKEND`);
    :class:`~remi_rules.errors.SimulationFailedError` if Ray is missing or a worker
    process dies.  On :class:`KeyboardInterrupt` (or any exception) the simulation
    stops at once and the exception is raised again once no worker is left."""
    if not isinstance(sim, Simulation):
        raise TypeError(f"sim must be a Simulation, not {type(sim).__name__}")
    if check_int("jobs", jobs) < 1:
        raise InvalidSimulationError(SimErrorCode.BAD_JOBS, jobs=jobs)
    if check_str("backend", backend) not in BACKENDS:
        raise InvalidSimulationError(
            SimErrorCode.UNKNOWN_BACKEND, backend=backend, known=", ".join(BACKENDS)
        )
    if address is not None:
        check_str("address", address)
    if progress is not None and not callable(progress):
        raise TypeError(f"progress must be callable, not {type(progress).__name__}")
    tasks = plan_tasks(sim)
    if backend == "ray":
        parts = _gather_ray(tasks, address, progress)
    else:
        parts = _gather_local(tasks, jobs, progress)
    by_label: dict[str, list[RoundOutcome]] = {label: [] for label, _ in sim.rulesets}
    for task, outcomes in zip(tasks, parts, strict=True):
        by_label[task.label].extend(outcomes)
    return {
        "format_version": 1,
        "rounds": sim.rounds,
        "seed": sim.seed,
        "bots": list(sim.bots),
        "players": len(sim.bots),
        "rulesets": [
            {
                "label": label,
                "fingerprint": rules.fingerprint(),
                **summarize(by_label[label], sim.bots),
            }
            for label, rules in sim.rulesets
        ],
    }
