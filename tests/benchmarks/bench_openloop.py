"""Benchmark 6: round writes under open-loop load at fixed rates against the prod-up stack (issue 33 §2).

    make prod-up && .venv/bin/python tests/benchmarks/bench_openloop.py [--rates 10,25,50,75] [--seconds 20]

Requests are due at a constant rate and each latency is measured from its due time (``openloop.py``), so a
stall shows in full.  For each rate, in this order: ``GET /ping`` (the machine's own noise floor at that rate),
then ``POST /api/v1/matches/{id}/rounds`` spread over 300 open matches of one group, then the same over 300
groups of one match each (Abluxxen, three players, 100 games a match: no round ends a match).  Before them, a
warm-up gives every match one round, so every group's dashboards are computed as at tables that have been playing
a while (a group's first refresh computes everything; the later ones only what a round moved).  Between runs it
waits until the Celery queues are empty again, so a run does not inherit the previous one's backlog.  For each
run it prints p50/p90/p99/max, the statuses, how late the generator sent its requests (its own lag), and the CPU
seconds each part of the stack used during the run (gunicorn, uvicorn, Celery, PostgreSQL, Redis, nginx, this
generator) with the machine's idle share and the share the host stole: where the time went when the latency
turns.  Checks afterwards that every 201 is a stored round.  Writes ``var/bench/openloop.json``.  Goal: p99 ≤ 100 ms
at 50 rounds/s.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import time
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from common import BASE_URL, bench_user, django_setup, get, require_stack, save, verdict
from openloop import OpenLoop, Outcome, Request

GOAL_RATE = 50
GOAL_P99_MS = 100.0
GAMES = 100
WARMUP_RATE = 20.0
TICK = os.sysconf("SC_CLK_TCK")
PARTS = ("gunicorn", "uvicorn", "celery", "postgres", "redis", "nginx", "generator")


def tables(*, groups: int, matches_per_group: int) -> dict[str, Any]:
    """``groups`` fresh groups of three players with ``matches_per_group`` open Abluxxen matches each."""
    from rest_framework.authtoken.models import Token

    from scoring import services

    user = bench_user()
    token, _ = Token.objects.get_or_create(user=user)
    stamp = time.strftime("%Y-%m-%d %H:%M:%S")
    made_groups, matches = [], []
    for g in range(groups):
        group = services.group_create(name=f"Bench open loop {stamp} #{g + 1}", user=user)
        made_groups.append(group.pk)
        players = [services.player_create(group=group, name=n, user=user).pk for n in ("Anna", "Béla", "Cili")]
        for _ in range(matches_per_group):
            match = services.match_create(
                group=group, ruleset="abluxxen", options={"games": GAMES}, player_ids=players, user=user
            )
            matches.append(match.pk)
    return {"token": token.key, "groups": made_groups, "matches": matches}


def _part(cmdline: str, pid: int) -> str | None:
    if pid == os.getpid():
        return "generator"
    for part in PARTS[:-1]:
        if part in cmdline:
            return part
    return None


def cpu_by_part() -> dict[str, float]:
    """CPU seconds used so far by the live processes of each part of the stack (children that already exited,
    such as a closed PostgreSQL backend, are not counted: the stack keeps its connections open)."""
    totals = dict.fromkeys(PARTS, 0.0)
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        part = _part(cmdline, int(entry.name))
        if part is not None:
            fields = stat.rsplit(")", 1)[1].split()
            totals[part] += (int(fields[11]) + int(fields[12])) / TICK
    return totals


def machine_idle() -> tuple[float, float, float]:
    """(idle, stolen, total) jiffies of the whole machine so far. Stolen is the time the host ran something
    else while this virtual machine had work: a stall with the machine "idle" but much stolen is the host's."""
    values = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    return values[3] + values[4], values[7], sum(values[:8])


def queued() -> int:
    """Tasks waiting in the Celery queues on the broker."""
    import redis
    from django.conf import settings

    client = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    return sum(int(client.llen(name)) for name in ("celery", "stats-rebuild"))


def settle(limit: float = 60.0) -> float:
    """Wait until the Celery queues are empty (at most ``limit`` seconds); the seconds waited."""
    began = time.monotonic()
    while queued() and time.monotonic() - began < limit:
        time.sleep(0.25)
    time.sleep(1.0)  # the task taken last finishes
    return time.monotonic() - began


def round_request(token: str, match: int, i: int, run: str) -> Request:
    body = json.dumps(
        {"facts": {"front": [8 + i % 7, 5 + i % 3, 4], "hand": [0, 1 + i % 4, 2 + i % 5], "end": "out"}}
    ).encode()
    headers = {
        "Authorization": f"Token {token}",
        "Content-Type": "application/json",
        "Accept": "application/json",
        "Idempotency-Key": f"{run}-{i}",
    }
    return ("POST", f"/api/v1/matches/{match}/rounds", headers, body)


EVENTS = asyncio.new_event_loop()  # one for every run: the connections belong to it


def measured(loop: OpenLoop, *, rate: float, seconds: float, make: Any) -> dict[str, Any]:
    cpu0, (idle0, stolen0, total0), wall0 = cpu_by_part(), machine_idle(), time.monotonic()
    outcome: Outcome = EVENTS.run_until_complete(loop.run(rate=rate, seconds=seconds, make=make))
    cpu1, (idle1, stolen1, total1), wall1 = cpu_by_part(), machine_idle(), time.monotonic()
    EVENTS.run_until_complete(loop.aclose())
    figures = outcome.figures()
    figures["rate"] = rate
    figures["cpu_s"] = {part: round(cpu1[part] - cpu0[part], 2) for part in PARTS}
    figures["idle_share"] = (idle1 - idle0) / max(1, total1 - total0)
    figures["stolen_share"] = (stolen1 - stolen0) / max(1, total1 - total0)
    figures["wall_s"] = wall1 - wall0
    return figures


def show(label: str, f: dict[str, Any]) -> str:
    other = {s: n for s, n in f["statuses"].items() if not 200 <= int(s) < 300}
    cpu = ", ".join(f"{part} {f['cpu_s'][part]:.1f}" for part in PARTS if f["cpu_s"][part] >= 0.05)
    n = max(1, f["requests"])
    per = ", ".join(f"{part} {f['cpu_s'][part] * 1000 / n:.1f}" for part in PARTS if f["cpu_s"][part] >= 0.05)
    return (
        f"{label:<26} {f['rate']:>4g}/s  p50 {f['p50_ms']:7.1f}  p90 {f['p90_ms']:7.1f}  p99 {f['p99_ms']:7.1f}  "
        f"max {f['max_ms']:7.1f} ms  n {f['requests']}  non-2xx {other or 0}  errors {f['errors']}  "
        f"send lag p99 {f['send_lag_p99_ms']:.1f} ms  conns {f['connections']}\n"
        f"{'':<26} CPU s: {cpu}; machine idle {f['idle_share']:.0%}, stolen by the host "
        f"{f['stolen_share']:.0%} of {f['wall_s']:.1f} s\n"
        f"{'':<26} CPU ms a request: {per}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rates", default="10,25,50,75", help="rounds a second, comma-separated")
    parser.add_argument("--seconds", type=float, default=20.0, help="seconds of load per run (default 20)")
    parser.add_argument(
        "--warmup",
        type=float,
        default=3.0,
        help="seconds of /ping warm-up at 10/s, then a round in every match at 20/s; 0: none (default 3)",
    )
    parser.add_argument("--matches", type=int, default=300, help="open matches per layout (default 300)")
    parser.add_argument(
        "--layouts", default="one,many", help="one (300 matches in one group), many (300 groups), or both (default)"
    )
    parser.add_argument("--keep", action="store_true", help="keep the bench groups (default: deleted afterwards)")
    args = parser.parse_args()
    rates = [float(r) for r in args.rates.split(",")]

    require_stack()
    status, _ = get("/ping")
    if status != 200:
        raise SystemExit(f"bench_openloop: {BASE_URL}/ping answered {status}")
    django_setup()
    url = urlsplit(BASE_URL)
    host, port = url.hostname or "127.0.0.1", url.port or 443
    chosen = set(args.layouts.split(","))
    if not chosen or chosen - {"one", "many"}:
        raise SystemExit(f"bench_openloop: --layouts takes one, many or one,many, not {args.layouts!r}")
    one_group = tables(groups=1, matches_per_group=args.matches) if "one" in chosen else {"groups": [], "matches": []}
    many_groups = (
        tables(groups=args.matches, matches_per_group=1) if "many" in chosen else {"groups": [], "matches": []}
    )
    layouts = {
        name: setup
        for name, setup in (("rounds, 1 group", one_group), (f"rounds, {args.matches} groups", many_groups))
        if setup["matches"]
    }
    token = (one_group if one_group["matches"] else many_groups)["token"]
    print(
        f"bench_openloop: {BASE_URL}, rates {args.rates} a second, {args.seconds:g} s each; "
        + "; ".join(
            f"{len(setup['matches'])} open Abluxxen matches ({name.removeprefix('rounds, ')})"
            for name, setup in layouts.items()
        )
    )

    def ping(i: int) -> Request:
        return ("GET", "/ping", {"Accept": "application/json"}, b"")

    def rounds(matches: list[int], run: str) -> Any:
        return lambda i: round_request(token, matches[(i * 7919) % len(matches)], i, run)

    loop = OpenLoop(host, port)
    answered = 0  # 201 answers, warm-up included: each must be a stored round
    if args.warmup > 0:
        measured(loop, rate=10, seconds=args.warmup, make=ping)
        # one round in every match (7919 is prime to the match count: the first len(matches) requests visit each
        # once), so that every group has its dashboards computed before the measured runs, as at a table that
        # has been playing for a while; a group's first refresh computes everything, the later ones what moved
        for setup in layouts.values():
            n = len(setup["matches"])
            f = measured(
                loop, rate=WARMUP_RATE, seconds=n / WARMUP_RATE, make=rounds(setup["matches"], uuid.uuid4().hex[:12])
            )
            answered += f["statuses"].get("201", 0)
            settle()
    results: dict[str, list[dict[str, Any]]] = {"ping": [], **{name: [] for name in layouts}}
    for rate in rates:
        f = measured(loop, rate=rate, seconds=args.seconds, make=ping)
        results["ping"].append(f)
        print(show("GET /ping", f), flush=True)
        for name, setup in layouts.items():
            f = measured(loop, rate=rate, seconds=args.seconds, make=rounds(setup["matches"], uuid.uuid4().hex[:12]))
            f["settle_s"] = settle()
            results[name].append(f)
            answered += f["statuses"].get("201", 0)
            print(show(f"POST rounds ({name.removeprefix('rounds, ')})", f), flush=True)
            print(f"{'':<26} queues empty again {f['settle_s']:.1f} s after the run", flush=True)

    from scoring.models import Round

    every = one_group["matches"] + many_groups["matches"]
    stored = Round.objects.filter(match_id__in=every).count()
    at_goal = next((f for f in results.get("rounds, 1 group", []) if f["rate"] == GOAL_RATE), None)
    ok = at_goal is not None and at_goal["p99_ms"] <= GOAL_P99_MS
    # The generator waits for every answer, so nothing is in flight: each 201 is one stored round, and a round
    # stored without its 201 is one whose answer was lost (a dropped connection, counted in "errors").
    errors = sum(f["errors"] for runs in results.values() for f in runs)
    print(
        f"rounds answered 201: {answered}; stored in the bench matches: {stored}; connection errors: {errors} "
        f"-> {verdict(answered <= stored <= answered + errors)}"
    )
    if at_goal is not None:
        print(
            f"p99 at {GOAL_RATE} rounds/s (one group): {at_goal['p99_ms']:.1f} ms   goal ≤ {GOAL_P99_MS:g} ms: "
            f"{verdict(ok)}"
        )
    spread = next((f for f in results.get(f"rounds, {args.matches} groups", []) if f["rate"] == GOAL_RATE), None)
    if spread is not None:
        print(
            f"p99 at {GOAL_RATE} rounds/s ({args.matches} groups, reported): {spread['p99_ms']:.1f} ms   "
            f"within {GOAL_P99_MS:g} ms: {verdict(spread['p99_ms'] <= GOAL_P99_MS)}"
        )
    save(
        "openloop",
        {
            "seconds": args.seconds,
            "results": results,
            "answered": answered,
            "stored": stored,
            "errors": errors,
            "goal_rate": GOAL_RATE,
            "pass": ok,
        },
    )
    if not args.keep:
        from scoring import services
        from scoring.models import Group

        user = bench_user()
        for pk in one_group["groups"] + many_groups["groups"]:
            services.group_delete(group=Group.objects.get(pk=pk), user=user)


if __name__ == "__main__":
    main()
