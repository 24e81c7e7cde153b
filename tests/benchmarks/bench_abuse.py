"""Benchmark "abuse" (issue 44): what one member can make the web tier spend with the heavy GETs.

    make prod-up && .venv/bin/python tests/benchmarks/bench_abuse.py [--seconds 30] [--parallel 8]

One member of a group with a 1 000-match history (imported once as the issue's probe did: 1 000 matches a minute
apart, which the app filed as one game night; kept in the prod database and reused by later runs) sends, for each
heavy endpoint in turn, ``--parallel`` requests at a time for ``--seconds`` seconds: the night page, the night PNG,
the JSON export, the rounds CSV, the group dashboard and a what-if preview (the rescore page of the group's
longest match). Meanwhile ``GET /ping`` runs open-loop at 20 requests a second (each latency counted from its due
time, ``openloop.py``), so a stalled web tier shows in full.

For each endpoint it prints the first request's cost (alone, before the load: the first computation) and the
repeated requests' p50/p99/max under the load, their statuses, ``/ping``'s p99 and the web processes' memory.
The first request of each endpoint is a second member's (``first_reader``), whose heavy count is fresh, so that it
is the first computation even when the previous endpoint's load has used up the bench user's count.
Goals (issue 44): ``/ping`` p99 ≤ 100 ms, no heavy request over 2 s after its first computation, web process memory
growth ≤ 50 MB over the whole run: the most any one web process grew (the issue measured one process); all of
them together (2 gunicorns × 4 workers on ``prod-up``, each growing once to its working size) is printed beside.
Writes ``var/bench/abuse.json``. Not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import statistics
import threading
import time
from pathlib import Path
from random import Random
from typing import Any
from urllib.parse import urlsplit

from common import BASE_URL, ROOT, bench_user, django_setup, insecure_context, require_stack, save, verdict
from openloop import OpenLoop

GROUP_NAME = "Bench abuse: 1000 matches a minute apart"
MATCHES = 1000
PING_RATE = 20.0
GOAL_PING_P99_MS = 100.0
GOAL_REPEAT_MAX_S = 2.0
GOAL_MEMORY_MB = 50.0
NAMES = ("Anna", "Béla", "Cili", "Dóra", "Ede", "Flóra")


# --- the history ----------------------------------------------------------------------------------------------


def _iso(minute: int) -> str:
    day, hour = 1 + minute // 1440, minute // 60 % 24
    return f"2026-03-{day:02d}T{hour:02d}:{minute % 60:02d}:00+00:00"


def document(seed: int = 44) -> dict[str, Any]:
    """An export document of MATCHES finished matches of four of six players, one started every minute (about
    2.5 MB, as the issue's probe sent): each a few rounds scored by the rules engine."""
    from analytics import synthetic
    from scoring import rules
    from scoring.services.common import explanation_store

    rng = Random(seed)
    doc: dict[str, Any] = {
        "format": "scorekeeper-group",
        "version": 1,
        "group": {"name": GROUP_NAME},
        "players": [{"name": n, "user": None, "created_at": _iso(0)} for n in NAMES],
        "matches": [],
    }
    ruleset = rules.get("abluxxen")
    for i in range(MATCHES):
        seated = rng.sample(NAMES, 4)
        played = synthetic.play_match(rng, "abluxxen", synthetic.player_skills(rng, 4), rounds=3)
        doc["matches"].append(
            {
                "ruleset": "abluxxen",
                "options": played.options,
                "state": "finished",
                "finish_reason": "manual",
                "created_at": _iso(i),
                "finished_at": _iso(i + 1),
                "players": seated,
                "rounds": [
                    {
                        "number": k + 1,
                        "facts": facts,
                        "ruleset_version": ruleset.version,
                        "points": list(result.scores),
                        "explanation": explanation_store(ruleset, result, names=seated),
                        "entered_by": None,
                        "created_at": _iso(i),
                        "deleted_at": None,
                    }
                    for k, (facts, result) in enumerate(played.rounds)
                ],
            }
        )
    return doc


def history(user: Any) -> Any:
    """The bench user's 1 000-match group: imported on the first run, reused afterwards."""
    from scoring.models import Group, Match
    from scoring.transfer import importing
    from scoring.transfer.import_check import document_check

    group = Group.objects.filter(name=GROUP_NAME, memberships__user=user).order_by("-pk").first()
    if group is not None and Match.objects.filter(group=group).count() >= MATCHES:
        print(f"history: group {group.pk} ({MATCHES} matches) from an earlier run")
        return group
    started = time.perf_counter()
    doc = document()
    raw = json.dumps(doc).encode()
    data = json.loads(raw)
    document_check(data)
    group = importing.group_import_new(data=data, user=user)
    print(f"history: imported {len(raw) / 1e6:.1f} MB, {MATCHES} matches as group {group.pk} "
          f"in {time.perf_counter() - started:.1f} s")  # fmt: skip
    return group


def endpoints(group: Any) -> dict[str, str]:
    """The heavy GETs of issue 44 for ``group``: its biggest night (page and PNG), exports, dashboard, preview."""
    from django.db.models import Count

    from analytics.nights.grouping import night_list
    from scoring.models import Match

    nights = night_list(group=group)
    biggest = max(nights, key=lambda night: len(night.matches))
    longest = Match.objects.filter(group=group).annotate(n=Count("rounds")).order_by("-n", "pk").first()
    assert longest is not None
    print(f"nights: {len(nights)}; the biggest holds {len(biggest.matches)} matches (key {biggest.key})")
    return {
        "night page": f"/stats/nights/{biggest.key}/",
        "night PNG": f"/stats/nights/{biggest.key}/night.png",
        "JSON export": f"/api/v1/groups/{group.pk}/export",
        "rounds CSV": f"/api/v1/groups/{group.pk}/export/rounds.csv",
        "dashboard": f"/stats/groups/{group.pk}/",
        "what-if preview": f"/matches/{longest.pk}/rescore",
    }


def first_reader(group: Any) -> Any:
    """A second member of the group, whose heavy count is fresh: the first request of each endpoint is theirs, so
    that it is the first computation (not a 429 left by the previous endpoint's load on the bench user's count)."""
    from django.contrib.auth import get_user_model

    from scoring.models import Membership

    reader, _ = get_user_model().objects.get_or_create(username="bench-abuse-first")
    Membership.objects.get_or_create(group=group, user=reader)
    return reader


def session_cookie(user: Any) -> str:
    """A signed-in session for ``user`` (what the log-in page would set), as a Cookie header."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"


# --- load -----------------------------------------------------------------------------------------------------


def fetch(host: str, port: int, path: str, cookie: str, *, conn: http.client.HTTPSConnection | None = None) -> Any:
    """One GET, the whole body read and dropped: (status, seconds, bytes, the connection to reuse or None)."""
    began = time.perf_counter()
    conn = conn or http.client.HTTPSConnection(host, port, context=insecure_context(), timeout=180)
    try:
        conn.request("GET", path, headers={"Cookie": cookie, "Accept-Language": "en"})
        response = conn.getresponse()
        size = 0
        while chunk := response.read(1 << 16):
            size += len(chunk)
        keep = not response.will_close
    except (OSError, http.client.HTTPException):
        conn.close()
        return 0, time.perf_counter() - began, 0, None
    if not keep:
        conn.close()
    return response.status, time.perf_counter() - began, size, conn if keep else None


def hammer(host: str, port: int, path: str, cookie: str, *, parallel: int, seconds: float) -> list[tuple[int, float]]:
    """``parallel`` clients, each sending the next request as soon as its last one is answered, for ``seconds``;
    every (status, seconds). Requests still running at the end are waited for (and counted)."""
    results: list[tuple[int, float]] = []
    lock = threading.Lock()
    stop = time.monotonic() + seconds

    def client() -> None:
        conn = None
        while time.monotonic() < stop:
            status, took, _size, conn = fetch(host, port, path, cookie, conn=conn)
            with lock:
                results.append((status, took))

    threads = [threading.Thread(target=client) for _ in range(parallel)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def ping_open_loop(host: str, port: int, seconds: float, found: dict[str, Any]) -> None:
    async def run() -> None:
        loop = OpenLoop(host, port)
        outcome = await loop.run(rate=PING_RATE, seconds=seconds, make=lambda i: ("GET", "/ping", {}, b""))
        await loop.aclose()
        found.update(outcome.figures())

    asyncio.run(run())


def web_rss_mb() -> float:
    """Resident memory of prod-up's gunicorn processes (each master, from var/prod/web-*.pid, and its workers)
    in MB, all together; other gunicorn processes on the machine are not counted."""
    return sum(web_rss_each().values())


def web_rss_each() -> dict[int, float]:
    """The same per process: {pid: MB}."""
    masters = set()
    for pidfile in (ROOT / "var" / "prod").glob("web-*.pid"):
        try:
            masters.add(int(pidfile.read_text().strip()))
        except (OSError, ValueError):
            continue
    each: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            status = (entry / "status").read_text().splitlines()
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in status if ":" in line)
        if int(entry.name) in masters or int(fields.get("PPid", "0").strip()) in masters:
            each[int(entry.name)] = int(fields.get("VmRSS", "0 kB").split()[0]) / 1024
    return each


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0, help="load per endpoint (default 30)")
    parser.add_argument("--parallel", type=int, default=8, help="requests at a time per endpoint (default 8)")
    parser.add_argument("--only", default="", help="comma-separated endpoint names (default: all six)")
    args = parser.parse_args()

    django_setup()
    require_stack()
    from bench_openloop import settle

    user = bench_user()
    group = history(user)
    paths = endpoints(group)
    if args.only:
        wanted = {name.strip() for name in args.only.split(",")}
        paths = {name: path for name, path in paths.items() if name in wanted}
    cookie = session_cookie(user)
    first_cookie = session_cookie(first_reader(group))
    print(f"waited {settle(600):.1f} s for the workers' queue to empty (the import's statistics)")
    url = urlsplit(BASE_URL)
    host, port = url.hostname or "127.0.0.1", url.port or 443

    memory_before = web_rss_mb()
    peak = memory_before
    each_before = web_rss_each()
    each_peak = dict(each_before)
    results: dict[str, Any] = {}
    for name, path in paths.items():
        status, first, size, conn = fetch(host, port, path, first_cookie)
        if conn is not None:
            conn.close()
        ping: dict[str, Any] = {}
        pinger = threading.Thread(target=ping_open_loop, args=(host, port, args.seconds, ping))
        pinger.start()
        load = hammer(host, port, path, cookie, parallel=args.parallel, seconds=args.seconds)
        pinger.join()
        peak = max(peak, web_rss_mb())
        for pid, mb in web_rss_each().items():
            each_peak[pid] = max(mb, each_peak.get(pid, 0.0))
        times = [took for _status, took in load]
        statuses: dict[str, int] = {}
        for code, _took in load:
            statuses[str(code)] = statuses.get(str(code), 0) + 1
        results[name] = {
            "path": path,
            "first": {"status": status, "seconds": first, "bytes": size},
            "repeated": {
                "requests": len(load),
                "statuses": statuses,
                "p50_s": _pct(times, 50),
                "p99_s": _pct(times, 99),
                "max_s": max(times, default=float("nan")),
                "mean_s": statistics.fmean(times) if times else float("nan"),
            },
            "ping": ping,
            "web_rss_mb": web_rss_mb(),
        }
        r = results[name]["repeated"]
        print(
            f"{name:16} first {status} in {first:6.2f} s ({size / 1e6:.1f} MB); repeated x{len(load)} "
            f"p50 {r['p50_s']:.2f} p99 {r['p99_s']:.2f} max {r['max_s']:.2f} s {statuses}; "
            f"/ping p99 {ping.get('p99_ms', float('nan')):.0f} ms max {ping.get('max_ms', float('nan')):.0f} ms "
            f"{ping.get('statuses')} errors {ping.get('errors')}; web RSS {results[name]['web_rss_mb']:.0f} MB"
        )
        settle(120)

    memory_after = web_rss_mb()
    ping_p99 = max((r["ping"].get("p99_ms", float("inf")) for r in results.values()), default=float("nan"))
    repeat_max = max((r["repeated"]["max_s"] for r in results.values()), default=float("nan"))
    growth = max(peak, memory_after) - memory_before
    # per process: a process that was not there before (a worker restarted) grows from nothing, and is not counted
    grew = {pid: each_peak[pid] - mb for pid, mb in each_before.items() if pid in each_peak}
    process_growth = max(grew.values(), default=float("nan"))
    passed = {
        "ping_p99": ping_p99 <= GOAL_PING_P99_MS,
        "repeat_max": repeat_max <= GOAL_REPEAT_MAX_S,
        "memory": process_growth <= GOAL_MEMORY_MB,
    }
    print(
        f"\n/ping p99 (worst endpoint) {ping_p99:.0f} ms (goal ≤ {GOAL_PING_P99_MS:.0f}): "
        f"{verdict(passed['ping_p99'])}; slowest repeated heavy request {repeat_max:.2f} s "
        f"(goal ≤ {GOAL_REPEAT_MAX_S:.0f}): {verdict(passed['repeat_max'])}; web memory, the most one process "
        f"grew: +{process_growth:.0f} MB (goal ≤ {GOAL_MEMORY_MB:.0f}): {verdict(passed['memory'])}; all "
        f"{len(each_before)} web processes together {memory_before:.0f} -> peak {peak:.0f}, end "
        f"{memory_after:.0f} MB (+{growth:.0f})"
    )
    save(
        "abuse",
        {
            "group": group.pk,
            "seconds": args.seconds,
            "parallel": args.parallel,
            "ping_rate": PING_RATE,
            "results": results,
            "ping_p99_ms": ping_p99,
            "repeat_max_s": repeat_max,
            "web_rss_mb": {
                "before": memory_before,
                "peak": peak,
                "after": memory_after,
                "growth": growth,
                "process_growth_max": process_growth,
                "processes": len(each_before),
            },
            "pass": passed,
            "machine": os.uname().nodename,
        },
    )


if __name__ == "__main__":
    main()
