"""The load generator of ``bench_web.py``: the server in its own process, the tables'
WebSocket clients (:class:`TableLoad`, one asyncio task a table, steps offered at its
time slots) and what they count (:class:`Stats`)."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import websockets

__all__ = ["Server", "Stats", "TableLoad", "choose", "cpu_seconds", "free_port", "post", "summary"]


class Server:
    """``remi-rules serve`` in its own process (``traced``: bench_web_trace.py's hooked
    server, whose trace :meth:`trace` collects); its stderr goes to a file in ``tmp``."""

    def __init__(
        self, port: int, tmp: Path, *, traced: bool, options: list[str], src: Path
    ) -> None:
        env = {**os.environ, "PYTHONPATH": str(src)}
        self.trace_file = tmp / "trace.json" if traced else None
        if self.trace_file is not None:
            command = [str(Path(__file__).with_name("bench_web_trace.py")), str(port)]
            command.append(str(self.trace_file))
        else:
            command = ["-m", "remi_rules", "serve", "--port", str(port)]
        self.stderr = (tmp / "server.err").open("w")
        self.process = subprocess.Popen(
            [sys.executable, *command, "--bot-delay", "0", *options],
            stdout=subprocess.DEVNULL,
            stderr=self.stderr,
            env=env,
            # its own session: the kernel shares the CPU between sessions first, so
            # the clients do not take the server's share
            start_new_session=True,
        )
        self.pid = self.process.pid

    def wait_ready(self, url: str) -> None:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(f"{url}/api/config", timeout=2).read()
                return
            except OSError:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    raise
                time.sleep(0.1)

    def trace(self) -> dict[str, Any] | None:
        """What the traced server recorded since the last call (None: not traced)."""
        if self.trace_file is None:
            return None
        self.trace_file.unlink(missing_ok=True)
        os.kill(self.pid, signal.SIGUSR1)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                data: dict[str, Any] = json.loads(self.trace_file.read_text())
                return data
            except (OSError, ValueError):
                time.sleep(0.05)
        return None

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.stderr.close()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"content-type": "application/json"}
    )
    data: dict[str, Any] = json.loads(urllib.request.urlopen(request, timeout=30).read())
    return data


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.timed: list[tuple[str, int, float, float]] = []  # table, seat, sent, received
        self.lags: list[float] = []
        self.steps = 0
        self.refusals = 0
        self.closed = 0
        self.measuring = False

    def reset(self) -> None:
        self.latencies.clear()
        self.timed.clear()
        self.lags.clear()
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
                            now = time.monotonic()
                            self.stats.latencies.append((now - sent_at) * 1000)
                            self.stats.timed.append((self.table, seat, sent_at, now))
                            self.stats.steps += 1
                        sent_at = None
                    latest = message
            if latest is None or sent_at is not None:
                continue
            step = choose(latest, seat)
            if step is None:
                continue
            latest = None
            await self.slot()
            if self.stop:
                return
            if step["type"] == "step":  # a next_round is not timed
                sent_at = time.monotonic()
            await ws.send(json.dumps(step))


def choose(update: dict[str, Any], seat: int) -> dict[str, Any] | None:
    """Draw, else discard the first tile listed, else the first legal step that lets
    the turn end (a take the rules require, then the meld it requires); the next
    round once one is over."""
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
    for entry in update["legal"]:
        if entry["finishable"] is not False and entry["step"]["kind"] != "undo":
            return {"type": "step", "step": entry["step"]}
    return None


def summary(stats: Stats, seconds: float) -> dict[str, Any]:
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


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
