"""Load benchmark of the reference web table (docs/web.md), on loopback only.

Usage::

    nice python benchmarks/bench_web.py [--tables 50] [--rate 2] [--seconds 60]
                                        [--ramp 4,8,16] [--ramp-seconds 15] [--search 3]
                                        [--aligned] [--trace] [--state-dir] [--src DIR]

Starts ``remi-rules serve`` in its own process on a free loopback port, creates
``--tables`` tables of four people through the lobby's API, and opens four WebSocket
clients per table in this process (the bot clients, an asyncio loop).  Each table
offers ``--rate`` steps a second: the client whose turn it is waits for its table's
next slot, then sends a step chosen from the legal steps it was sent (draw, then
discard the first tile listed; a ``next_round`` once a round is over).  A step's
latency is the time from sending it to receiving the update that logs it (or its
refusal, counted as an error).  Reported after ``--seconds``: the steps a second
made, p50/p99 latency, the errors (refusals, closed connections), the server's CPU
(cores used, and milliseconds of CPU per step) and the machine's load average.

The tables' slots are spread evenly over each period (``--aligned``: every table's
at the same moments).  ``--trace`` runs the server with timestamps
(bench_web_trace.py) and cuts each step's latency into where it went;
``--state-dir`` serves with a state folder; ``--src`` names the source tree the server
runs (to compare two); the clients' CPU and how bursty the load was are reported too.

Then the highest offered rate one server process holds (no error, p99 under 100 ms):
if the main rate is held, ``--ramp`` tries each rate a table of its list in turn
(each phase ``--ramp-seconds``) up to the first not held; then ``--search`` phases
halve the gap between the highest rate held and the lowest not held (from zero when
even the main rate is not held).  Every loop is bounded in time and the server is
stopped at the end.  The last line printed is one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import json
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any, Final

from webload import Server, Stats, TableLoad, cpu_seconds, free_port, post, summary

TARGET_P99_MS = 100.0


async def _phase(
    loads: list[TableLoad],
    stats: Stats,
    rate: float,
    seconds: float,
    server: Server,
    *,
    aligned: bool = False,
) -> dict[str, Any]:
    settle = 1.0 + max((1.0 / load.rate for load in loads), default=0.0)
    start = time.monotonic() + settle
    for k, load in enumerate(loads):  # the slots already given out at the old rate run out
        load.rate = rate
        # the tables' first slots spread evenly over one period, unless --aligned
        load.next_slot = start if aligned else start + k / (rate * len(loads))
    await asyncio.sleep(settle)
    server.trace()  # starts the server's trace afresh
    stats.reset()
    stats.measuring = True
    cpu, own = cpu_seconds(server.pid), time.process_time()
    ticker = asyncio.create_task(_ticker(stats.lags))
    await asyncio.sleep(seconds)
    stats.measuring = False
    ticker.cancel()
    out = summary(stats, seconds)
    used = cpu_seconds(server.pid) - cpu
    out["offered_per_s"] = round(rate * len(loads), 1)
    out["server_cpu"] = round(used / seconds, 2)
    # what one step costs the server, whatever else the machine is doing: the figure
    # to divide a core by for the rate one process can hold
    out["server_cpu_ms_per_step"] = round(used * 1000 / stats.steps, 2) if stats.steps else None
    out["client_cpu"] = round((time.process_time() - own) / seconds, 2)
    out["sent_together_p50"] = _together(sorted(t[2] for t in stats.timed))
    out["client_loop_lag_ms"] = _quantiles(stats.lags)
    out["load_average"] = os.getloadavg()[0]
    traced = server.trace()
    if traced is not None:
        out["server_loop_lag_ms"] = _quantiles(traced["lags_ms"])
        out["server_gc_pauses_ms"] = _quantiles(traced["gc_pauses_ms"])
        out["where_ms"] = _attribute(stats.timed, traced["steps"])
    return out


async def _ticker(lags: list[float]) -> None:
    """The event loop's lag: how late a 5 ms sleep wakes up."""
    while True:
        t = time.monotonic()
        await asyncio.sleep(0.005)
        lags.append((time.monotonic() - t - 0.005) * 1000)


def _together(sent: list[float], window: float = 0.010) -> int | None:
    """How bursty the offered load was: the median number of other steps sent within
    ``window`` seconds of a step (about ``2 * window * steps/s`` when the tables' slots
    are spread, about the number of tables when they are --aligned)."""
    if not sent:
        return None
    near = [
        bisect.bisect_right(sent, t + window) - bisect.bisect_left(sent, t - window) - 1
        for t in sent
    ]
    return sorted(near)[len(near) // 2]


def _quantiles(values: list[float]) -> dict[str, float | int] | None:
    if not values:
        return None
    v = sorted(values)
    return {
        "n": len(v),
        "p50": round(v[len(v) // 2], 1),
        "p99": round(v[min(len(v) - 1, int(len(v) * 0.99))], 1),
        "max": round(v[-1], 1),
    }


SEGMENTS: Final = (
    ("to_server", "client_sent", "recv"),  # the client's send, the wire, the server's reader
    ("lock_wait", "recv", "apply0"),  # reading the message, waiting for the table's lock
    ("apply", "apply0", "apply1"),  # game.apply, the log line, the bots' reactions
    ("update", "apply1", "put"),  # saving, the sender's update made and queued
    ("queued", "put", "got"),  # waiting for its writer (the others' updates made)
    ("write", "got", "sent"),  # json.dumps and websocket.send_text
    ("to_client", "sent", "client_got"),  # the wire, the client's loop and its parsing
)
"""A step's latency cut at the server's timestamps (bench_web_trace.py)."""


def _attribute(
    timed: list[tuple[str, int, float, float]], records: list[dict[str, Any]]
) -> dict[str, Any]:
    """Each timed step matched with the server's record of it (the same table and seat,
    the first the server received after the client sent it: the clock is the machine's
    monotonic clock in both processes), then each segment's p50 and p99 over all steps
    and its mean over the slowest 1 %."""
    by_seat: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for record in records:
        by_seat.setdefault((record["table"], record["seat"]), []).append(record)
    for found in by_seat.values():
        found.sort(key=lambda r: r["recv"])
    rows: list[dict[str, float]] = []
    for table, seat, sent, got in timed:
        found = by_seat.get((table, seat), [])
        k = bisect.bisect_left([r["recv"] for r in found], sent)
        if k < len(found) and found[k]["sent"] <= got:
            rows.append({**found[k], "client_sent": sent, "client_got": got})
    if not rows:
        return {"matched": 0}
    rows.sort(key=lambda r: r["client_got"] - r["client_sent"])
    tail = rows[-max(1, len(rows) // 100) :]
    out: dict[str, Any] = {"matched": len(rows)}
    inside = sorted((r["sent"] - r["recv"]) * 1000 for r in rows)  # the server's own part
    out["server"] = {
        "p50": round(inside[len(inside) // 2], 2),
        "p99": round(inside[min(len(inside) - 1, int(len(inside) * 0.99))], 2),
    }
    for name, a, b in SEGMENTS:
        ms = sorted((r[b] - r[a]) * 1000 for r in rows)
        out[name] = {
            "p50": round(ms[len(ms) // 2], 2),
            "p99": round(ms[min(len(ms) - 1, int(len(ms) * 0.99))], 2),
            "slowest_1pct_mean": round(statistics.fmean((r[b] - r[a]) * 1000 for r in tail), 2),
        }
    return out


def _holds(phase: dict[str, Any]) -> bool:
    """No error, and p99 under the target."""
    p99 = phase["p99_ms"]
    return p99 is not None and p99 < TARGET_P99_MS and not phase["errors"]


async def _run(args: argparse.Namespace, url: str, server: Server) -> dict[str, Any]:
    stats = Stats()
    loads = []
    for _ in range(args.tables):
        # a long match of draws and discards, so no table runs out of rounds
        created = post(f"{url}/api/tables", {"seats": ["human"] * 4, "rounds": 100})
        tokens = [link["url"].split("token=")[1] for link in created["links"]]
        loads.append(TableLoad(url, created["id"], tokens, stats))
    tasks = [asyncio.create_task(load.client(s)) for load in loads for s in range(4)]
    try:
        result: dict[str, Any] = {
            "main": await _phase(
                loads, stats, args.rate, args.seconds, server, aligned=args.aligned
            )
        }
        print(json.dumps({"phase": "main", **result["main"]}), flush=True)
        ramp: list[dict[str, Any]] = []
        best, worst = (args.rate, None) if _holds(result["main"]) else (None, args.rate)
        for rate in args.ramp if best is not None else ():
            phase = await _phase(
                loads, stats, rate, args.ramp_seconds, server, aligned=args.aligned
            )
            print(json.dumps({"phase": "ramp", **phase}), flush=True)
            ramp.append(phase)
            if not _holds(phase):
                worst = rate
                break
            best = rate
        # then halve the gap between the highest rate held and the lowest not held
        # (from below the main rate when even that one was not held)
        for _ in range(args.search):
            if worst is None:
                break
            rate = round(((best or 0.0) + worst) / 2, 3)
            phase = await _phase(
                loads, stats, rate, args.ramp_seconds, server, aligned=args.aligned
            )
            print(json.dumps({"phase": "search", **phase}), flush=True)
            ramp.append(phase)
            if _holds(phase):
                best = rate
            else:
                worst = rate
        best = None if best is None else round(best * len(loads), 1)
        result["ramp"] = ramp
        result["highest_offered_per_s_under_100ms"] = best
        return result
    finally:
        for load in loads:
            load.stop = True
        await asyncio.wait(tasks, timeout=10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--rate", type=float, default=2.0, help="steps a second per table")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument(
        "--ramp",
        type=lambda s: [float(x) for x in s.split(",") if x],
        default=[4.0, 8.0, 16.0],
        help="rates per table to try after",
    )
    parser.add_argument("--ramp-seconds", type=float, default=15.0)
    parser.add_argument(
        "--search",
        type=int,
        default=3,
        help="phases halving the gap between the highest rate held and the lowest not",
    )
    parser.add_argument(
        "--aligned",
        action="store_true",
        help="every table's steps at the same moments (bursts of one step per table), "
        "instead of the tables' slots spread evenly over each period",
    )
    parser.add_argument(
        "--trace",
        action="store_true",
        help="run the server with timestamps (bench_web_trace.py) and cut each step's "
        "latency into where it was spent",
    )
    parser.add_argument(
        "--state-dir",
        action="store_true",
        help="serve with --state-dir (a temporary folder): every step written to disk",
    )
    parser.add_argument(
        "--src",
        type=Path,
        default=Path(__file__).parents[1] / "src",
        help="the source tree the server runs (default: this checkout's), to compare two",
    )
    parser.add_argument(
        "--serve-option",
        dest="serve_options",
        action="append",
        default=[],
        help="one more argument for remi-rules serve (repeatable)",
    )
    args = parser.parse_args()
    rates = [args.rate, *args.ramp]
    if (
        not 1 <= args.tables <= 500
        or not all(0 < r <= 18 for r in rates)
        or args.seconds > 600
        or not 0 <= args.search <= 10
    ):
        parser.error(
            "--tables 1..500, rates up to 18 (the per-connection limit), --seconds <= 600,"
            " --search 0..10"
        )
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory(prefix="bench_web.") as tmp:
        options = list(args.serve_options)
        if args.state_dir:
            options += ["--state-dir", str(Path(tmp) / "state")]
        server = Server(port, Path(tmp), traced=args.trace, options=options, src=args.src)
        try:
            server.wait_ready(url)
            result = asyncio.run(_run(args, url, server))
        finally:
            server.stop()
    result.update(
        tables=args.tables,
        clients=args.tables * 4,
        rate_per_table=args.rate,
        seconds=args.seconds,
        target_p99_ms=TARGET_P99_MS,
    )
    print(json.dumps(result))


if __name__ == "__main__":
    main()
