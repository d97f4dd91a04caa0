"""Running a simulation: split the rounds into pure tasks, run them on a backend,
gather the outcomes in seed order and summarise them.

Backends:

* ``"local"``: this process (``jobs=1``) or a pool of ``jobs`` processes;
* ``"ray"``: a Ray cluster (``ray.init(address)``; without an address Ray starts a
  local one).  Ray is an optional extra (``pip install 'remi-rules[ray]'``), imported
  only here and only when asked for.

The tasks are the same whatever the backend and the number of processes, and the
outcomes are summarised in seed order, so the results are identical bit for bit.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any, Final

import attrs

from ..ruleset import Ruleset
from .stats import summarize
from .tasks import RoundOutcome, SimTask, make_bot, run_task

__all__ = ["BACKENDS", "Simulation", "plan_tasks", "run"]

BACKENDS: Final = ("local", "ray")
CHUNK: Final = 25
"""Rounds per task: small enough to balance the processes, large enough to pay for
sending a task."""

Progress = Callable[[int], None]
"""Called with the number of rounds just finished."""


@attrs.frozen
class Simulation:
    """What to simulate: each ruleset (with its label) for ``rounds`` rounds from
    ``seed`` on, the same seeds for every ruleset, seat ``s`` taken by ``bots[s]``."""

    rulesets: tuple[tuple[str, Ruleset], ...]
    bots: tuple[str, ...]
    rounds: int
    seed: int = 0

    def __attrs_post_init__(self) -> None:
        if not 2 <= len(self.bots) <= 4:
            raise ValueError(f"a round seats 2 to 4 bots, not {len(self.bots)}")
        for name in self.bots:
            make_bot(name, 0)  # unknown names fail here, before any work
        if self.rounds < 1:
            raise ValueError(f"rounds must be at least 1, not {self.rounds}")
        labels = [label for label, _ in self.rulesets]
        if not labels or len(set(labels)) != len(labels):
            raise ValueError(f"rulesets need distinct labels, not {labels}")


def plan_tasks(sim: Simulation, chunk: int = CHUNK) -> list[SimTask]:
    """The tasks of ``sim``: each ruleset's seeds in chunks of ``chunk`` rounds."""
    tasks = []
    for label, rules in sim.rulesets:
        for start in range(sim.seed, sim.seed + sim.rounds, chunk):
            stop = min(start + chunk, sim.seed + sim.rounds)
            tasks.append(SimTask(rules, sim.bots, start, stop, label))
    return tasks


def _gather_local(
    tasks: list[SimTask], jobs: int, progress: Progress | None
) -> list[tuple[RoundOutcome, ...]]:
    if jobs <= 1:
        done = []
        for task in tasks:
            done.append(run_task(task))
            if progress:
                progress(task.stop_seed - task.first_seed)
        return done
    results: list[tuple[RoundOutcome, ...] | None] = [None] * len(tasks)
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = {pool.submit(run_task, task): k for k, task in enumerate(tasks)}
        for future in as_completed(futures):
            k = futures[future]
            results[k] = future.result()
            if progress:
                progress(tasks[k].stop_seed - tasks[k].first_seed)
    return [r for r in results if r is not None]


def _gather_ray(
    tasks: list[SimTask], address: str | None, progress: Progress | None
) -> list[tuple[RoundOutcome, ...]]:
    try:
        import ray
    except ImportError as err:  # pragma: no cover - depends on the machine
        raise RuntimeError("the ray backend needs Ray: pip install 'remi-rules[ray]'") from err
    started = not ray.is_initialized()
    if started:
        ray.init(
            address=address, include_dashboard=False, log_to_driver=False, ignore_reinit_error=True
        )
    try:
        remote = ray.remote(run_task)
        refs = [remote.remote(task) for task in tasks]
        index = {ref: k for k, ref in enumerate(refs)}
        results: list[Any] = [None] * len(tasks)
        pending = list(refs)
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                k = index[ref]
                results[k] = ray.get(ref)
                if progress:
                    progress(tasks[k].stop_seed - tasks[k].first_seed)
        return results
    finally:
        if started:
            ray.shutdown()


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
    timings, nothing that depends on the backend or on ``jobs``."""
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; use one of {', '.join(BACKENDS)}")
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
