"""``remi-rules simulate``: seeded rounds between bots under one or more rulesets.

Per ruleset: the mean round length, how often rounds end by a close, the stock or the
turn cap, each seat's scores, the first-player advantage and each bot's mean score,
with 95 % confidence intervals (:mod:`remi_rules.sim`).  The same seeds are played
under every ruleset, so the rulesets are compared on the same deals.  ``--format json``
prints results only (timings go to stderr), so two runs compare byte for byte,
whatever ``--jobs`` or ``--backend``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from .. import serde, variants
from ..errors import RemiError
from ..ruleset import Ruleset
from ..sim import BACKENDS, BOTS, Simulation
from ..sim import run as run_simulation
from ..sim.report import to_csv, to_json, to_table, write_plot
from .common import CliError

if TYPE_CHECKING:
    from .common import Subparsers

__all__ = ["add_parser", "run"]


def add_parser(sub: Subparsers) -> argparse.ArgumentParser:
    parser = sub.add_parser(
        "simulate", help="simulate seeded rounds between bots under one or more rulesets"
    )
    parser.add_argument(
        "--variant",
        action="append",
        default=[],
        metavar="NAME",
        help="a preset to simulate (repeatable; default: every preset)",
    )
    parser.add_argument(
        "--rules",
        action="append",
        default=[],
        metavar="FILE",
        help="a house-rules file (JSON or TOML) to simulate (repeatable)",
    )
    parser.add_argument("--rounds", type=int, default=1000, help="rounds per ruleset")
    parser.add_argument("--seed", type=int, default=0, help="the first round's seed")
    parser.add_argument(
        "--jobs", type=int, default=os.cpu_count() or 1, help="processes (default: all cores)"
    )
    parser.add_argument(
        "--bots",
        default="greedy,greedy,greedy,greedy",
        help=f"one bot per seat, comma-separated ({', '.join(BOTS)}); 2 to 4 seats",
    )
    parser.add_argument("--format", choices=("table", "json", "csv"), default="table")
    parser.add_argument("--plot", metavar="FILE.png", help="also draw the comparison")
    parser.add_argument("--backend", choices=BACKENDS, default="local")
    parser.add_argument("--ray-address", default=None, help="a Ray cluster (default: local)")
    parser.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="a progress bar on stderr (default: when stderr is a terminal)",
    )
    return parser


def _rulesets(args: argparse.Namespace) -> tuple[tuple[str, Ruleset], ...]:
    out: list[tuple[str, Ruleset]] = [(name, variants.get(name)) for name in args.variant]
    for file in args.rules:
        out.append((Path(file).stem, serde.load_house_rules(file)))
    if not out:
        out = [(name, variants.get(name)) for name in variants.names()]
    seen: dict[str, int] = {}
    labelled = []
    for label, rules in out:
        seen[label] = seen.get(label, 0) + 1
        labelled.append((label if seen[label] == 1 else f"{label}#{seen[label]}", rules))
    return tuple(labelled)


class _Bar:
    """A plain progress bar on stderr (tqdm's when it is installed)."""

    def __init__(self, total: int, enabled: bool, err: TextIO) -> None:
        self.total, self.done, self.err = total, 0, err
        self.enabled = enabled
        self.tqdm: Any = None
        if enabled:
            try:
                from tqdm import tqdm

                self.tqdm = tqdm(total=total, unit="round", file=err)
            except ImportError:
                self.tqdm = None

    def __call__(self, rounds: int) -> None:
        self.done += rounds
        if not self.enabled:
            return
        if self.tqdm is not None:
            self.tqdm.update(rounds)
            return
        width = 30
        filled = width * self.done // max(self.total, 1)
        self.err.write(
            f"\r[{'#' * filled}{' ' * (width - filled)}] {self.done}/{self.total} rounds"
        )
        if self.done >= self.total:
            self.err.write("\n")
        self.err.flush()

    def close(self) -> None:
        if self.tqdm is not None:
            self.tqdm.close()


def run(args: argparse.Namespace, out: TextIO, err: TextIO | None = None) -> int:
    """Run the simulation the options describe; the report to ``out``, the progress
    and the time taken to ``err`` (stderr)."""
    err = err or sys.stderr
    bots = tuple(b.strip().lower() for b in args.bots.split(",") if b.strip())
    if args.jobs < 1:
        raise CliError("sim_bad", why=f"--jobs must be at least 1, not {args.jobs}")
    try:
        sim = Simulation(_rulesets(args), bots, args.rounds, args.seed)
    except ValueError as exc:
        if isinstance(exc, RemiError):
            raise
        raise CliError("sim_bad", why=str(exc)) from None
    show = args.progress if args.progress is not None else err.isatty()
    bar = _Bar(args.rounds * len(sim.rulesets), show, err)
    started = time.perf_counter()
    try:
        results = run_simulation(
            sim, jobs=args.jobs, backend=args.backend, address=args.ray_address, progress=bar
        )
    except RuntimeError as exc:  # an optional extra is missing (Ray)
        raise CliError("sim_bad", why=str(exc)) from None
    finally:
        bar.close()
    elapsed = time.perf_counter() - started
    total = args.rounds * len(sim.rulesets)
    err.write(
        f"simulated {total} rounds in {elapsed:.1f} s ({total / max(elapsed, 1e-9):.0f} rounds/s, "
        f"{args.jobs if args.backend == 'local' else 'ray'} "
        f"{'process' if args.jobs == 1 and args.backend == 'local' else 'workers'})\n"
    )
    text = {"table": to_table, "json": to_json, "csv": to_csv}[args.format](results)
    out.write(text)
    if args.plot:
        try:
            write_plot(results, args.plot)
        except RuntimeError as exc:  # matplotlib is missing
            raise CliError("sim_bad", why=str(exc)) from None
        err.write(f"plot written to {args.plot}\n")
    return 0
