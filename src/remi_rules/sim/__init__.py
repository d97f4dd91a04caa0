"""The simulator: many seeded rounds between bots under one or more rulesets, to
compare variants and house rules (``remi-rules simulate``, docs/simulation.md).

* :class:`SimTask` / :func:`run_task`: the pure unit of work (a ruleset, the bots, a
  range of seeds), schedulable anywhere;
* :class:`Simulation` / :func:`run`: split into tasks, run on a backend (processes or
  Ray), gathered in seed order and summarised (:mod:`remi_rules.sim.stats`);
* :mod:`remi_rules.sim.workers`: the worker processes, which stop at once on
  Ctrl-C and never outlive their parent;
* :mod:`remi_rules.sim.report`: the results as a table, JSON, CSV or a plot.

A value of the wrong type raises :class:`TypeError`, a value out of range an
:class:`~remi_rules.errors.InvalidSimulationError` with a
:class:`~remi_rules.errors.SimErrorCode`.

>>> from remi_rules import variants
>>> from remi_rules.sim import Simulation, run
>>> sim = Simulation((("clasic", variants.get("clasic")),), ("random", "random"), rounds=3)
>>> results = run(sim)
>>> block = results["rulesets"][0]
>>> block["rounds"], sorted(block["ends"])
(3, ['closed', 'max_turns', 'stock_exhausted'])
"""

from __future__ import annotations

from .runner import BACKENDS, Simulation, plan_tasks, run
from .stats import mean_ci, summarize, wilson_ci
from .tasks import BOTS, RoundOutcome, SimTask, make_bot, run_task

__all__ = [
    "BACKENDS",
    "BOTS",
    "RoundOutcome",
    "SimTask",
    "Simulation",
    "make_bot",
    "mean_ci",
    "plan_tasks",
    "run",
    "run_task",
    "summarize",
    "wilson_ci",
]
