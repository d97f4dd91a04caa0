"""``remi-rules simulate``: seeded rounds between bots under one or more rulesets.

Per ruleset: the mean round length, how often rounds end by a close, the stock or the
turn cap, each seat's scores, the first-player advantage and each bot's mean score,
with 95 % confidence intervals (:mod:`remi_rules.sim`).  The same seeds are played
under every ruleset, so the rulesets are compared on the same deals.  ``--format json``
prints results only (timings go to stderr), so two runs compare byte for byte,
whatever ``--jobs`` or ``--backend``.

Ctrl-C (SIGINT) or SIGTERM stops a simulation at once, whatever the backend: the
workers are stopped (:mod:`remi_rules.sim.workers`), one line on stderr says so (in
``--lang``), nothing goes to stdout, and the exit code is 130 for SIGINT, 143 for
SIGTERM (128 + the signal's number, as a shell reports a process it killed).
"""

from __future__ import annotations

import argparse
import atexit
import gc
import os
import signal
import sys
import threading
import time
import unicodedata
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any, Final, TextIO

from .. import serde, variants
from .._i18n import counted
from ..errors import InvalidSimulationError, SimErrorCode
from ..ruleset import Ruleset
from ..sim import BACKENDS, BOTS, Simulation
from ..sim import run as run_simulation
from ..sim.report import check_results, to_csv, to_json, write_plot
from ..sim.workers import STOP_SIGNALS
from .common import CliError, add_lang
from .texts import tr

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
    add_lang(parser)
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
    """A progress bar on stderr with the time left: tqdm's when the ``progress`` extra
    is installed (``pip install 'remi-rules[progress]'``), else a plain one."""

    def __init__(self, total: int, enabled: bool, err: TextIO, lang: str = "en") -> None:
        self.total, self.done, self.err = total, 0, err
        self.enabled = enabled
        self.lang = lang
        self.started = time.monotonic()
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
            f"\r[{'#' * filled}{' ' * (width - filled)}] {self.done}/{self.total} "
            + tr(self.lang, "sim_eta", eta=self.eta())
            + "   "
        )
        if self.done >= self.total:
            self.err.write("\n")
        self.err.flush()

    def eta(self) -> str:
        """The time left, ``m:ss`` (``h:mm:ss`` past an hour), from the rate so far."""
        if not self.done:
            return "?"
        elapsed = time.monotonic() - self.started
        left = int(elapsed * (self.total - self.done) / self.done + 0.5)
        hours, rest = divmod(left, 3600)
        minutes, seconds = divmod(rest, 60)
        return f"{hours}:{minutes:02}:{seconds:02}" if hours else f"{minutes}:{seconds:02}"

    def close(self) -> None:
        if self.tqdm is not None:
            self.tqdm.close()

    def abandon(self) -> None:
        """Clear the bar's line (the run was stopped), so that what follows starts it."""
        if self.tqdm is not None:
            self.tqdm.leave = False
            self.tqdm.close()
        elif self.enabled and 0 < self.done < self.total:
            self.err.write("\r" + " " * 80 + "\r")
            self.err.flush()


class Stopped(KeyboardInterrupt):
    """SIGINT or SIGTERM arrived during a simulation (``signum`` says which).  A
    :class:`KeyboardInterrupt`, so that :func:`remi_rules.sim.run` stops its workers
    for either."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


STOP_EXIT: Final = 128
"""A stopped simulation exits with 128 + the signal's number: 130 for SIGINT, 143 for
SIGTERM."""

_Handlers = dict[signal.Signals, Any]


def _stop(signum: int, frame: FrameType | None) -> None:
    # The first signal stops the run; later ones are ignored until the handlers are
    # restored, so that neither the cleanup nor the one line reporting it is cut short.
    for sig in STOP_SIGNALS:
        signal.signal(sig, signal.SIG_IGN)
    raise Stopped(signum)


def _catch_stop_signals(previous: _Handlers) -> None:
    """Turn SIGINT and SIGTERM into :class:`Stopped` (in the main thread only, where
    Python runs signal handlers), keeping the handlers to restore in ``previous``."""
    if threading.current_thread() is not threading.main_thread():
        return
    for sig in STOP_SIGNALS:
        handler = signal.getsignal(sig)
        if handler is None:
            continue  # installed outside Python: leave it alone
        previous[sig] = handler
        signal.signal(sig, _stop)


_quick_exit_registered = False


def _quick_exit() -> None:
    """At interpreter exit, leave the objects alive then to the operating system
    (:func:`gc.freeze`) instead of collecting them one by one: with Ray imported that
    collection alone takes over a second, which a stopped simulation cannot afford.
    Registered with :mod:`atexit`, so it changes nothing for a caller of
    :func:`remi_rules.cli.main` that goes on running."""
    global _quick_exit_registered
    if not _quick_exit_registered:
        _quick_exit_registered = True
        atexit.register(gc.freeze)


def run(args: argparse.Namespace, out: TextIO, err: TextIO | None = None) -> int:
    """Run the simulation the options describe; the report to ``out``, the progress
    and the time taken to ``err`` (stderr).  SIGINT and SIGTERM stop it: one line on
    ``err`` and :data:`STOP_EXIT` + the signal's number."""
    err = err or sys.stderr
    lang: str = getattr(args, "lang", "en")
    previous: _Handlers = {}
    _quick_exit()
    try:
        _catch_stop_signals(previous)
        return _simulate(args, out, err)
    except KeyboardInterrupt as exc:
        signum = exc.signum if isinstance(exc, Stopped) else int(signal.SIGINT)
        name = signal.Signals(signum).name
        err.write(f"remi-rules: {tr(lang, 'sim_stopped', signal=name)}\n")
        err.flush()
        return STOP_EXIT + signum
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _simulate(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    bots = tuple(b.strip().lower() for b in args.bots.split(",") if b.strip())
    if args.jobs < 1:
        raise InvalidSimulationError(SimErrorCode.BAD_JOBS, jobs=args.jobs)
    sim = Simulation(_rulesets(args), bots, args.rounds, args.seed)
    show = args.progress if args.progress is not None else err.isatty()
    lang: str = getattr(args, "lang", "en")
    bar = _Bar(args.rounds * len(sim.rulesets), show, err, lang)
    started = time.perf_counter()
    try:
        results = run_simulation(
            sim, jobs=args.jobs, backend=args.backend, address=args.ray_address, progress=bar
        )
    except BaseException:
        bar.abandon()
        raise
    bar.close()
    elapsed = time.perf_counter() - started
    total = args.rounds * len(sim.rulesets)
    workers = (
        tr(lang, "sim_ray") if args.backend != "local" else counted("processes", args.jobs, lang)
    )
    err.write(
        tr(
            lang,
            "sim_done",
            rounds=total,
            seconds=f"{elapsed:.1f}",
            rate=f"{total / max(elapsed, 1e-9):.0f}",
            workers=workers,
        )
        + "\n"
    )
    if args.format == "table":
        text = table(results, lang)
    else:
        text = {"json": to_json, "csv": to_csv}[args.format](results)
    out.write(text)
    if args.plot:
        try:
            write_plot(results, args.plot)
        except RuntimeError as exc:  # matplotlib is missing
            raise CliError("sim_no_plot") from exc
        err.write(tr(lang, "sim_plot", path=args.plot) + "\n")
    return 0


def width(text: str) -> int:
    """The columns ``text`` takes in a terminal: a combining mark (a diacritic typed
    as a separate character) takes none, a wide character (CJK) two."""
    total = 0
    for char in text:
        if unicodedata.combining(char):
            continue
        total += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return total


def _pad(text: str, columns: int) -> str:
    return text + " " * max(columns - width(text), 0)


def _ci(m: dict[str, float]) -> str:
    return f"{m['mean']:.1f} [{m['ci_low']:.1f}, {m['ci_high']:.1f}]"


def _share(m: dict[str, float]) -> str:
    return f"{100 * m['share']:.1f}% [{100 * m['ci_low']:.1f}, {100 * m['ci_high']:.1f}]"


def table(results: dict[str, Any], lang: str) -> str:
    """The simulation's summary in ``lang``, one block per ruleset, each in columns
    that line up (measured with :func:`width`, so ``ă`` written as ``a`` and a
    combining breve is one column)."""
    check_results(results)
    lines = [
        tr(
            lang,
            "sim_header",
            rounds=results["rounds"],
            seed=results["seed"],
            bots=", ".join(results["bots"]),
            last=results["players"] - 1,
        )
    ]
    for block in results["rulesets"]:
        rows: list[tuple[str, str, str]] = [
            (tr(lang, "sim_length"), _ci(block["round_length_turns"]), "")
        ]
        for reason, m in block["ends"].items():
            rows.append((tr(lang, f"sim_end_{reason}"), _share(m), f"({m['count']})"))
        rows.append((tr(lang, "sim_first"), _ci(block["first_player_advantage"]), ""))
        for seat in block["seats"]:
            extra = tr(
                lang,
                "sim_spread",
                median=f"{seat['median']:.0f}",
                low=f"{seat['min']:.0f}",
                high=f"{seat['max']:.0f}",
            )
            rows.append((tr(lang, "sim_seat", n=seat["seat"], bot=seat["bot"]), _ci(seat), extra))
        for name, m in block["bots"].items():
            rows.append((tr(lang, "sim_bot", name=name), _ci(m), ""))
        first = max(width(label) for label, _, _ in rows) + 2
        second = max(width(value) for _, value, _ in rows) + 2
        lines += ["", tr(lang, "sim_block", label=block["label"], fp=block["fingerprint"])]
        for label, value, extra in rows:
            line = "  " + _pad(label, first) + (_pad(value, second) + extra if extra else value)
            lines.append(line.rstrip())
    return "\n".join(lines) + "\n"
