"""An open-loop HTTP/1.1 load generator for bench_openloop.py: requests are due at a fixed rate, whatever the
server does, and each one's latency is measured from the moment it was due (a stalled server cannot hide its
stall by slowing the generator down, the "coordinated omission" a closed loop like wrk's suffers from).

asyncio streams over TLS with keep-alive connections taken from a pool (a new one opened when every open one is
busy, up to ``max_connections``; past that a due request waits for one, and the wait counts in its latency).
Responses are read by Content-Length or chunked transfer encoding; nothing else of HTTP is needed here.  One
process, one thread: at 75 requests a second its own CPU is a few per cent of a core (printed by the caller).
"""

from __future__ import annotations

import asyncio
import ssl
import statistics
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

Request = tuple[str, str, dict[str, str], bytes]  # method, path, headers, body


@dataclass
class Outcome:
    """One run: latencies (ms, from the due time) of the answered requests, statuses, how late requests left."""

    latencies: list[float] = field(default_factory=list)
    statuses: dict[int, int] = field(default_factory=dict)
    errors: int = 0
    send_lag: list[float] = field(default_factory=list)  # ms between a request's due time and its first byte sent
    connections: int = 0

    def percentile(self, q: float) -> float:
        if not self.latencies:
            return float("nan")
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]

    def figures(self) -> dict[str, Any]:
        return {
            "requests": len(self.latencies) + self.errors,
            "statuses": {str(k): v for k, v in sorted(self.statuses.items())},
            "errors": self.errors,
            "p50_ms": self.percentile(50),
            "p90_ms": self.percentile(90),
            "p99_ms": self.percentile(99),
            "max_ms": max(self.latencies, default=float("nan")),
            "send_lag_p99_ms": sorted(self.send_lag)[int(0.99 * (len(self.send_lag) - 1))] if self.send_lag else 0.0,
            "mean_ms": statistics.fmean(self.latencies) if self.latencies else float("nan"),
            "connections": self.connections,
        }


class _Connection:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    async def exchange(self, host: str, request: Request) -> tuple[int, bool]:
        """Send one request, read its whole answer; (status, whether the server keeps the connection)."""
        method, path, headers, body = request
        head = [f"{method} {path} HTTP/1.1", f"Host: {host}", f"Content-Length: {len(body)}"]
        head += [f"{name}: {value}" for name, value in headers.items()]
        self.writer.write(("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body)
        await self.writer.drain()
        raw = await self.reader.readuntil(b"\r\n\r\n")
        lines = raw.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        fields = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            if name:
                fields[name.strip().lower()] = value.strip()
        if fields.get("transfer-encoding", "").lower() == "chunked":
            while True:
                size = int((await self.reader.readuntil(b"\r\n")).split(b";")[0], 16)
                await self.reader.readexactly(size + 2)
                if size == 0:
                    break
        else:
            await self.reader.readexactly(int(fields.get("content-length", "0")))
        return status, fields.get("connection", "").lower() != "close"

    def close(self) -> None:
        self.writer.close()


class OpenLoop:
    """Requests to one host:port over TLS, due at a constant rate."""

    def __init__(self, host: str, port: int, *, max_connections: int = 512) -> None:
        self.host, self.port, self.max_connections = host, port, max_connections
        self.context = ssl.create_default_context()
        self.context.check_hostname = False
        self.context.verify_mode = ssl.CERT_NONE  # the loopback stack's self-signed certificate
        self.idle: list[_Connection] = []
        self.opened = 0
        self.freed = asyncio.Condition()

    async def _take(self) -> _Connection:
        async with self.freed:
            while not self.idle and self.opened >= self.max_connections:
                await self.freed.wait()
            if self.idle:
                return self.idle.pop()
            self.opened += 1
        try:
            reader, writer = await asyncio.open_connection(self.host, self.port, ssl=self.context)
        except OSError:
            async with self.freed:
                self.opened -= 1
                self.freed.notify()
            raise
        return _Connection(reader, writer)

    async def _give(self, connection: _Connection | None) -> None:
        async with self.freed:
            if connection is None:
                self.opened -= 1
            else:
                self.idle.append(connection)
            self.freed.notify()

    async def _one(self, due: float, request: Request, outcome: Outcome) -> None:
        loop = asyncio.get_running_loop()
        connection = None
        try:
            connection = await self._take()
            outcome.send_lag.append((loop.time() - due) * 1000)
            status, keep = await connection.exchange(self.host, request)
        except (OSError, asyncio.IncompleteReadError, ValueError, IndexError):
            outcome.errors += 1
            if connection is not None:
                connection.close()
            await self._give(None)
            return
        outcome.latencies.append((loop.time() - due) * 1000)
        outcome.statuses[status] = outcome.statuses.get(status, 0) + 1
        if not keep:
            connection.close()
            connection = None
        await self._give(connection)

    async def run(self, *, rate: float, seconds: float, make: Callable[[int], Request]) -> Outcome:
        """``rate * seconds`` requests, the i-th due ``i / rate`` seconds after the start."""
        loop = asyncio.get_running_loop()
        outcome = Outcome()
        total = round(rate * seconds)
        start = loop.time() + 0.05
        tasks = []
        for i in range(total):
            due = start + i / rate
            wait = due - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            tasks.append(asyncio.create_task(self._one(due, make(i), outcome)))
        await asyncio.gather(*tasks)
        outcome.connections = self.opened
        return outcome

    async def aclose(self) -> None:
        """Close the idle connections (between runs, so that each run opens what it needs)."""
        for connection in self.idle:
            connection.close()
        self.idle.clear()
        self.opened = 0
        await asyncio.sleep(0)
