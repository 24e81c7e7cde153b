"""Live match boards under load: N phones hold the match events stream open against `make prod-up`.

Measures (1) memory per open phone: the resident memory of the uvicorn process serving the streams, the nginx
workers and Redis, before and after opening the N streams, divided by N; (2) the push latency: from the start of a
round's save (API POST) on one phone to the version event on the other phones of that match, and to the new board
fetched after it (the p95 goal is 1 s); (3) whether the save itself slows down with the N streams open (the same
rounds saved with no stream open, then with N). The phones sit four to a match; rounds go round-robin over them.

    make prod-up && .venv/bin/python tests/benchmarks/bench_live.py --phones 500 --rounds 100

Against a lone uvicorn instead (no nginx): BENCH_URL=http://127.0.0.1:PORT BENCH_LIVE_PID=<its pid>.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import ssl
import sys
import time
import urllib.request
from importlib import import_module
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from common import BASE_URL, ROOT, bench_user, django_setup, insecure_context, require_stack, save, verdict

GOAL_P95_MS = 1000.0
SEATS = 4
RUN = ROOT / "var" / "prod"


def tables(phones: int) -> dict[str, Any]:
    """A bench group, ceil(phones / 4) open Abluxxen matches, a session cookie for the streams and an API token."""
    from django.conf import settings
    from rest_framework.authtoken.models import Token

    from scoring import services

    user = bench_user()
    token, _ = Token.objects.get_or_create(user=user)
    group = services.group_create(name=f"Bench live {time.strftime('%Y-%m-%d %H:%M:%S')}", user=user)
    players = [services.player_create(group=group, name=n, user=user).pk for n in ("Anna", "Béla", "Cili", "Dóra")]
    count = max(1, -(-phones // SEATS))
    matches = [
        services.match_create(group=group, ruleset="abluxxen", options={"games": 100}, player_ids=players, user=user).pk
        for _ in range(count)
    ]
    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store["_auth_user_id"] = str(user.pk)
    store["_auth_user_backend"] = "django.contrib.auth.backends.ModelBackend"
    store["_auth_user_hash"] = user.get_session_auth_hash()
    store.create()
    return {"token": token.key, "session": store.session_key, "group": group.pk, "matches": matches}


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def nginx_workers() -> list[int]:
    master = int((RUN / "nginx" / "nginx.pid").read_text())
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == master:
            found.append(int(stat.parent.name))
    return found


def memory() -> dict[str, int]:
    import redis
    from django.conf import settings

    live = int(os.environ.get("BENCH_LIVE_PID") or (RUN / "live-8003.pid").read_text())
    info = redis.Redis.from_url(settings.REDIS_URL).info("memory")
    return {
        "uvicorn_kib": rss_kib(live),
        "nginx_kib": sum(rss_kib(pid) for pid in nginx_workers()) if (RUN / "nginx" / "nginx.pid").exists() else 0,
        "redis_kib": int(info["used_memory"]) // 1024,
    }


class Phone:
    """One open events stream (raw HTTP/1.1 over TLS, as the browser's EventSource holds it)."""

    def __init__(self, match: int, session: str) -> None:
        self.match, self.session = match, session
        self.heard: dict[str, float] = {}  # version -> when its event arrived
        self.open = asyncio.Event()

    async def run(self) -> None:
        url = urlparse(BASE_URL)
        context = ssl.create_default_context()
        context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
        tls = url.scheme == "https"
        port = url.port or (443 if tls else 80)
        reader, writer = await asyncio.open_connection(url.hostname, port, ssl=context if tls else None)
        writer.write(
            f"GET /matches/{self.match}/events HTTP/1.1\r\nHost: {url.hostname}\r\nAccept: text/event-stream\r\n"
            f"Cookie: sessionid={self.session}\r\n\r\n".encode()
        )
        await writer.drain()
        status = (await reader.readline()).decode()
        if " 200 " not in status:
            raise RuntimeError(f"events stream for match {self.match}: {status.strip()}")
        try:
            while line := await reader.readline():
                text = line.decode().strip()
                # chunked transfer: the chunk-size lines are not "data:" lines and are skipped
                if text.startswith("data: "):
                    self.heard.setdefault(text[6:], time.perf_counter())
                    self.open.set()
        finally:
            writer.close()


def post_round(match: int, token: str, n: int) -> tuple[float, int]:
    facts = {"front": [8 + n % 7, 5 + n % 3, 4, 3], "hand": [0, 1 + n % 4, 2 + n % 5, 1], "end": "out"}
    body = json.dumps({"facts": facts})
    request = urllib.request.Request(
        f"{BASE_URL}/api/v1/matches/{match}/rounds",
        data=body.encode(),
        method="POST",
        headers={"Authorization": f"Token {token}", "Content-Type": "application/json", "Accept": "application/json"},
    )
    started = time.perf_counter()
    with urllib.request.urlopen(request, timeout=30, context=insecure_context()) as response:
        payload = json.loads(response.read())
    return started, int(payload["match_state"]["version"])


def board(match: int, session: str) -> None:
    request = urllib.request.Request(f"{BASE_URL}/matches/{match}/board", headers={"Cookie": f"sessionid={session}"})
    with urllib.request.urlopen(request, timeout=30, context=insecure_context()) as response:
        response.read()


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def measure(setup: dict[str, Any], phones: int, rounds: int) -> dict[str, Any]:
    loop = asyncio.get_running_loop()
    matches, token, session = setup["matches"], setup["token"], setup["session"]

    async def saves(tag: int) -> list[tuple[int, float, float, int]]:
        done = []
        for n in range(rounds):
            match = matches[n % len(matches)]
            t0 = time.perf_counter()
            started, version = await loop.run_in_executor(None, post_round, match, token, tag * 100000 + n)
            done.append((match, started, time.perf_counter() - t0, version))
            await asyncio.sleep(0.05)
        return done

    quiet = await saves(1)  # the save alone, no stream open
    before = memory()
    crowd = [Phone(matches[i // SEATS], session) for i in range(phones)]
    tasks = [asyncio.create_task(p.run()) for p in crowd]
    await asyncio.wait_for(asyncio.gather(*(p.open.wait() for p in crowd)), timeout=120)
    await asyncio.sleep(2)
    held = memory()
    loaded = await saves(2)
    await asyncio.sleep(2)  # the last events arrive
    to_event, to_board = [], []
    by_match: dict[int, list[Phone]] = {}
    for p in crowd:
        by_match.setdefault(p.match, []).append(p)
    for match, started, _took, version in loaded:
        for p in by_match[match]:
            if str(version) in p.heard:
                to_event.append((p.heard[str(version)] - started) * 1000)
    for match, started, _took, version in loaded[: min(len(loaded), 30)]:  # the board fetch after the event
        t = time.perf_counter()
        await loop.run_in_executor(None, board, match, session)
        first = min(p.heard.get(str(version), t) for p in by_match[match])
        to_board.append((first - started + time.perf_counter() - t) * 1000)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    missed = sum(1 for match, _s, _t, v in loaded for p in by_match[match] if str(v) not in p.heard)
    per_phone = {k: (held[k] - before[k]) / phones for k in before}
    quiet_ms = [took * 1000 for _m, _s, took, _v in quiet]
    held_ms = [took * 1000 for _m, _s, took, _v in loaded]
    return {
        "phones": phones,
        "rounds": rounds,
        "memory_before_kib": before,
        "memory_held_kib": held,
        "memory_per_phone_kib": per_phone,
        "save_ms_quiet": {"p50": pct(quiet_ms, 0.5), "p95": pct(quiet_ms, 0.95)},
        "save_ms_held": {"p50": pct(held_ms, 0.5), "p95": pct(held_ms, 0.95)},
        "save_to_event_ms": {"p50": pct(to_event, 0.5), "p95": pct(to_event, 0.95), "n": len(to_event)},
        "save_to_board_ms": {"p50": pct(to_board, 0.5), "p95": pct(to_board, 0.95), "n": len(to_board)},
        "events_missed": missed,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phones", type=int, default=500, help="open event streams (default 500)")
    parser.add_argument("--rounds", type=int, default=100, help="rounds saved with and without them (default 100)")
    args = parser.parse_args()
    require_stack()
    django_setup()
    setup = tables(args.phones)
    result = asyncio.run(measure(setup, args.phones, args.rounds))
    p95 = result["save_to_board_ms"]["p95"]
    result["verdict"] = verdict(p95 <= GOAL_P95_MS and result["events_missed"] == 0)
    per = result["memory_per_phone_kib"]
    print(
        f"bench_live: {args.phones} open phones on {len(setup['matches'])} matches, {args.rounds} rounds\n"
        f"  memory per open phone: uvicorn {per['uvicorn_kib']:.1f} KiB, nginx {per['nginx_kib']:.1f} KiB, "
        f"redis {per['redis_kib']:.1f} KiB\n"
        f"  save p50/p95: {result['save_ms_quiet']['p50']:.1f}/{result['save_ms_quiet']['p95']:.1f} ms with no stream, "
        f"{result['save_ms_held']['p50']:.1f}/{result['save_ms_held']['p95']:.1f} ms with {args.phones} open\n"
        f"  save -> event on the other phones p50/p95: {result['save_to_event_ms']['p50']:.0f}/"
        f"{result['save_to_event_ms']['p95']:.0f} ms; save -> new board p95 {p95:.0f} ms "
        f"(goal <= {GOAL_P95_MS:.0f}) {result['verdict']}; events missed: {result['events_missed']}"
    )
    save("live", result)
    sys.exit(0)


if __name__ == "__main__":
    main()
