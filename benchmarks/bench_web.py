"""Load benchmark of the reference web table (docs/web.md), on loopback only.

Usage::

    nice python benchmarks/bench_web.py [--tables 50] [--rate 2] [--seconds 60]
                                        [--ramp 4,8,16] [--ramp-seconds 15]

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

Then ``--ramp``: the same tables at each rate a table of the list (each phase
``--ramp-seconds``), stopping at the first whose p99 is 100 ms or more; the highest
offered rate whose p99 stays under 100 ms is reported.  Every loop is bounded in
time and the server is stopped at the end.  The last line printed is one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import websockets

TARGET_P99_MS = 100.0


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"content-type": "application/json"}
    )
    data: dict[str, Any] = json.loads(urllib.request.urlopen(request, timeout=30).read())
    return data


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.steps = 0
        self.refusals = 0
        self.closed = 0
        self.measuring = False

    def reset(self) -> None:
        self.latencies.clear()
        self.steps = self.refusals = self.closed = 0


class TableLoad:
    """One table's four clients; the table offers ``rate`` steps a second."""

    def __init__(self, url: str, table: str, tokens: list[str], stats: Stats) -> None:
        self.url, self.table, self.tokens, self.stats = url, table, tokens, stats
        self.rate = 2.0
        self.next_slot = 0.0
        self.stop = False

    async def slot(self) -> None:
        now = time.monotonic()
        wait = self.next_slot - now
        self.next_slot = max(now, self.next_slot) + 1.0 / self.rate
        if wait > 0:
            await asyncio.sleep(wait)

    async def client(self, seat: int) -> None:
        uri = f"{self.url.replace('http', 'ws')}/ws/{self.table}?token={self.tokens[seat]}"
        try:
            async with websockets.connect(uri, max_size=2**22) as ws:
                await self._play(ws, seat)
        except websockets.ConnectionClosed:
            if not self.stop:
                self.stats.closed += 1

    async def _play(self, ws: Any, seat: int) -> None:
        sent_at: float | None = None
        my_lines = 0
        latest: dict[str, Any] | None = None
        while not self.stop:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=0.5)
            except TimeoutError:
                raw = None
            if raw is not None:
                message = json.loads(raw)
                if message["type"] == "refused":
                    if self.stats.measuring:
                        self.stats.refusals += 1
                    sent_at = None
                elif message["type"] == "update":
                    if message["fresh"]:
                        my_lines = 0
                    mine = sum(1 for line in message["log"] if line["seat"] == seat)
                    my_lines += mine
                    if mine and sent_at is not None:
                        if self.stats.measuring:
                            self.stats.latencies.append((time.monotonic() - sent_at) * 1000)
                            self.stats.steps += 1
                        sent_at = None
                    latest = message
            if latest is None or sent_at is not None:
                continue
            step = _choose(latest, seat)
            if step is None:
                continue
            latest = None
            await self.slot()
            if self.stop:
                return
            if step["type"] == "step":  # a next_round is not timed
                sent_at = time.monotonic()
            await ws.send(json.dumps(step))


def _choose(update: dict[str, Any], seat: int) -> dict[str, Any] | None:
    """Draw, else discard the first tile listed; the next round once one is over."""
    if update["result"] is not None:
        if update["match"]["over"] or update["view"]["starter"] is None:
            return None
        # one client asks for the next round: the seat that starts it
        starter = (update["view"]["starter"] + 1) % update["view"]["players"]
        return {"type": "next_round"} if seat == starter else None
    if update["view"]["current"] != seat:
        return None
    kinds = {e["step"]["kind"]: e["step"] for e in update["legal"]}
    for kind in ("draw", "discard"):
        if kind in kinds:
            return {"type": "step", "step": kinds[kind]}
    return None


def _summary(stats: Stats, seconds: float) -> dict[str, Any]:
    lat = sorted(stats.latencies)
    p = (lambda q: round(lat[min(len(lat) - 1, int(len(lat) * q))], 1)) if lat else None
    return {
        "steps": stats.steps,
        "steps_per_s": round(stats.steps / seconds, 1),
        "p50_ms": round(statistics.median(lat), 1) if lat else None,
        "p99_ms": p(0.99) if p else None,
        "errors": stats.refusals + stats.closed,
        "refusals": stats.refusals,
        "closed": stats.closed,
    }


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def _phase(
    loads: list[TableLoad], stats: Stats, rate: float, seconds: float, pid: int
) -> dict[str, Any]:
    settle = 1.0 + max((1.0 / load.rate for load in loads), default=0.0)
    for load in loads:  # the slots already given out at the old rate run out first
        load.rate = rate
        load.next_slot = 0.0
    await asyncio.sleep(settle)
    stats.reset()
    stats.measuring = True
    cpu = _cpu_seconds(pid)
    await asyncio.sleep(seconds)
    stats.measuring = False
    out = _summary(stats, seconds)
    used = _cpu_seconds(pid) - cpu
    out["offered_per_s"] = round(rate * len(loads), 1)
    out["server_cpu"] = round(used / seconds, 2)
    # what one step costs the server, whatever else the machine is doing: the figure
    # to divide a core by for the rate one process can hold
    out["server_cpu_ms_per_step"] = round(used * 1000 / stats.steps, 2) if stats.steps else None
    out["load_average"] = os.getloadavg()[0]
    return out


async def _run(args: argparse.Namespace, url: str, pid: int) -> dict[str, Any]:
    stats = Stats()
    loads = []
    for _ in range(args.tables):
        # a long match of draws and discards, so no table runs out of rounds
        created = _post(f"{url}/api/tables", {"seats": ["human"] * 4, "rounds": 100})
        tokens = [link["url"].split("token=")[1] for link in created["links"]]
        loads.append(TableLoad(url, created["id"], tokens, stats))
    tasks = [asyncio.create_task(load.client(s)) for load in loads for s in range(4)]
    try:
        result: dict[str, Any] = {"main": await _phase(loads, stats, args.rate, args.seconds, pid)}
        print(json.dumps({"phase": "main", **result["main"]}), flush=True)
        ramp: list[dict[str, Any]] = []
        best = None
        main = result["main"]
        if main["p99_ms"] is not None and main["p99_ms"] < TARGET_P99_MS and not main["errors"]:
            best = main["offered_per_s"]
        for rate in args.ramp:
            phase = await _phase(loads, stats, rate, args.ramp_seconds, pid)
            print(json.dumps({"phase": "ramp", **phase}), flush=True)
            ramp.append(phase)
            if phase["p99_ms"] is None or phase["p99_ms"] >= TARGET_P99_MS or phase["errors"]:
                break
            best = phase["offered_per_s"]
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
    args = parser.parse_args()
    if not 1 <= args.tables <= 500 or not 0 < args.rate <= 18 or args.seconds > 600:
        parser.error(
            "--tables 1..500, --rate up to 18 (the per-connection limit), --seconds <= 600"
        )
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[1] / "src")}
    server = subprocess.Popen(
        [sys.executable, "-m", "remi_rules", "serve", "--port", str(port), "--bot-delay", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert server.stdout is not None
        server.stdout.readline()
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(f"{url}/api/config", timeout=2).read()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise
                time.sleep(0.1)
        result = asyncio.run(_run(args, url, server.pid))
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
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
