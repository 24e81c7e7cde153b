"""Benchmark 5: the CPU of one round write against its floor, in one process (issue 33 §1).

    DATABASE_URL=postgres://…/scratch REDIS_URL=redis://127.0.0.1:6379/N \\
        .venv/bin/python tests/benchmarks/bench_floor.py [--rounds 200] [--blocks 6]

(``run_all.sh`` runs it with ``--prod``: the prod-up environment, ``var/prod/env``, and its database.)

Both sides go through DRF's test client in this process, with the whole middleware stack, ``DEBUG=0``,
PostgreSQL and the Redis cache the write throttle counts in (its rate raised so that it never refuses):

* the path: ``POST /api/v1/matches/{id}/rounds`` with a 4-player NJET round and an Idempotency-Key;
* the floor: ``floor_view.FloorRoundView`` (a URLconf of this benchmark only), which stores the same round with
  points and explanation computed beforehand and answers a body of the same size: what any implementation of
  this feature must do on this stack (see floor_view.py).

Each round's ``time.process_time`` is taken; matches are created beforehand (new ones every seven rounds, so no
round finishes a match: rounds 1 to 7 of an eight-round match).  Blocks of ``--rounds`` rounds alternate floor
and path (the order swapped every pair), ``--blocks`` pairs in all.  Prints, per side, the median CPU and wall
time a round over the blocks with their spread (lowest–highest block median), floor/path per pair with its
median and spread, and the SQL statements one round sends (``CaptureQueriesContext``, on an extra round outside
the timing).  Writes ``var/bench/floor.json`` for the summary.  It writes to the database: use a scratch one.
"""

from __future__ import annotations

import argparse
import gc
import os
import secrets
import statistics
import sys
import time
import uuid
from typing import Any

from common import PROD_ENV, ROOT, save

GOAL = 0.9
ROUNDS_PER_MATCH = 7  # an NJET match of four players has eight rounds: none of these finishes one
FACTS = {
    "start_player": 0,
    "teams": [0, 0, 1, 1],
    "discard": "none",
    "points_per_trick": 2,
    "tricks": [4, 4, 3, 4],
    "booty": [1, 0, 1, 0],
}


def setup_django(*, prod: bool) -> None:
    if prod:
        if not PROD_ENV.exists():
            sys.exit(f"bench_floor: {PROD_ENV} is missing: run `make prod-up` first, or leave out --prod")
        from common import prod_env

        prod_env()
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        sys.exit("bench_floor: DATABASE_URL must name a (scratch) PostgreSQL database")
    if not os.environ.get("REDIS_URL"):
        sys.exit("bench_floor: REDIS_URL must name a Redis database (the write throttle counts there)")
    os.environ["DEBUG"] = "0"
    if len(os.environ.get("SECRET_KEY", "")) < 32:
        os.environ["SECRET_KEY"] = secrets.token_urlsafe(48)
    os.environ["CELERY_EAGER"] = "0"  # the refresh is queued as in production, never run in this process
    os.environ["THROTTLE_WRITES"] = "100000000/min"  # counted in Redis, never refused
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    for where in (str(ROOT), str(ROOT / "tests" / "benchmarks")):
        if where not in sys.path:
            sys.path.insert(0, where)
    import django

    django.setup()
    from django.conf import settings

    settings.ROOT_URLCONF = "floor_view"  # the app's URLs plus the floor's


def tables(matches: int) -> dict[str, Any]:
    """A user with a token, a group of four players and ``matches`` open 4-player NJET matches (services only)."""
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from scoring import services

    user, _ = get_user_model().objects.get_or_create(username="bench-floor")
    token, _ = Token.objects.get_or_create(user=user)
    group = services.group_create(name=f"Bench floor {time.strftime('%Y-%m-%d %H:%M:%S')}", user=user)
    players = [services.player_create(group=group, name=n, user=user).pk for n in ("Anna", "Béla", "Cili", "Dani")]
    ids = [
        services.match_create(group=group, ruleset="njet", options={}, player_ids=players, user=user).pk
        for _ in range(matches)
    ]
    return {"token": token.key, "user": user.pk, "group": group.pk, "players": players, "matches": ids}


class Side:
    """One side (floor, path or raw): its URL pattern, its matches and a cursor through them."""

    def __init__(self, name: str, url: str, matches: list[int], raw: Any = None) -> None:
        self.name, self.url, self.matches = name, url, matches
        self.raw = raw  # floor_raw.RawWriter for the raw side: psycopg alone, no request
        self.done = 0

    def next_match(self) -> int:
        match = self.matches[self.done // ROUNDS_PER_MATCH]
        self.done += 1
        return match

    def next_url(self) -> str:
        return self.url.format(match=self.next_match())


def post(client: Any, side: Side) -> Any:
    if side.raw is not None:
        side.raw.write(side.next_match())
        return None
    response = client.post(
        side.next_url(),
        {"facts": FACTS},
        format="json",
        secure=True,
        HTTP_IDEMPOTENCY_KEY=uuid.uuid4().hex,
    )
    if response.status_code != 201:
        sys.exit(f"bench_floor: {side.name} answered {response.status_code}: {response.content[:500]!r}")
    return response


def block(client: Any, side: Side, rounds: int) -> tuple[float, float]:
    """Median CPU and wall milliseconds a round over ``rounds`` rounds."""
    cpu, wall = [], []
    gc.collect()
    for _ in range(rounds):
        c0, w0 = time.process_time(), time.perf_counter()
        post(client, side)
        cpu.append((time.process_time() - c0) * 1000)
        wall.append((time.perf_counter() - w0) * 1000)
    return statistics.median(cpu), statistics.median(wall)


def statements(client: Any, side: Side, *, show: bool = False) -> int:
    if side.raw is not None:
        return 0  # not a Django connection: the same statements as the path (floor_raw.py)
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        post(client, side)
    if show:
        print(f"-- {side.name}: {len(queries)} statements")
        for query in queries:
            print("   ", query["sql"][:160])
    return len(queries)


def spread(values: list[float]) -> str:
    return f"{min(values):.2f}–{max(values):.2f}"


def prepare(*, rounds: int, warmup: int, raw: bool = False) -> tuple[Any, Side, Side, dict[str, int]]:
    """A client and both sides with matches for ``rounds`` more rounds each, after ``warmup`` untimed rounds a
    side. The floor stores what the path stored for the same facts (a first path round, untimed). Also returns
    the size of each side's answer.  With ``raw`` the answer's sides also hold a third, ``raw`` (floor_raw.py),
    as ``sizes["raw_side"]``."""
    import floor_view
    from rest_framework.test import APIClient

    from scoring.models import Round

    need = -(-(warmup + rounds + 1) // ROUNDS_PER_MATCH) + 1
    made = tables(3 * need if raw else 2 * need)
    path = Side("path", "/api/v1/matches/{match}/rounds", made["matches"][:need])
    floor = Side("floor", "/bench/floor/matches/{match}/rounds", made["matches"][need : 2 * need])
    client = APIClient(SERVER_NAME="localhost")  # in ALLOWED_HOSTS everywhere
    client.credentials(HTTP_AUTHORIZATION=f"Token {made['token']}")

    first = post(client, path).json()
    stored = Round.objects.get(pk=first["id"])
    floor_view.FLOOR.update(
        facts=stored.facts,
        points=list(stored.points),
        explanation=stored.explanation,
        ruleset_version=stored.ruleset_version,
        seats=made["players"],
        answer=first,
    )
    for _ in range(warmup):
        post(client, path)
        post(client, floor)
    sizes: dict[str, Any] = {side.name: len(post(client, side).content) for side in (path, floor)}
    if raw:
        from django.conf import settings
        from floor_raw import RawWriter

        db = settings.DATABASES["default"]
        dsn = f"host={db['HOST'] or '127.0.0.1'} port={db['PORT'] or 5432} dbname={db['NAME']} user={db['USER']}"
        template = {**floor_view.FLOOR, "answer": first}
        writer = RawWriter(
            dsn,
            token=made["token"],
            user_id=made["user"],
            group_id=made["group"],
            seats=made["players"],
            template=template,
        )
        raw_side = Side("raw", "", made["matches"][2 * need :], raw=writer)
        for _ in range(warmup):
            post(client, raw_side)
        sizes["raw_side"] = raw_side
    return client, path, floor, sizes


RAW_GOAL = 0.4  # issue 48: a round write's CPU at most 2.5 x that of the same statements sent by psycopg


def engine_cpu(*, rounds: int, blocks: int) -> list[float]:
    """CPU a round of the rules engine's share of the path's write, without Django: the options and facts parsed,
    the round validated and scored against the state after three stored rounds, its explanation rendered in
    English with the players' names, and the match state after it (as ``scoring.services.rounds`` calls them)."""
    from scoring import rules

    ruleset, names = rules.get("njet"), ["Anna", "Bence", "Dóra", "Éva"]
    options = ruleset.options_parse({}, players=4)
    earlier = ruleset.parse_normalise(FACTS, players=4, options=options)[1]
    points = [list(r.scores) for _, r in ruleset.history([earlier] * 3, players=4, options=options)]

    def one() -> None:
        opts = ruleset.options_parse({}, players=4)
        parsed = ruleset.parse_normalise(FACTS, players=4, options=opts)[0]
        done = ruleset.history([earlier] * 3 + [parsed], players=4, options=opts, stored=points, numbers=[1, 2, 3, 4])
        for line in (ln.as_dict() for ln in done[-1][1].lines):
            line["text"] = ruleset.render(line["msg"], line["params"], names=names)
        ruleset.module.match_state(done, players=4, options=opts)

    for _ in range(rounds):
        one()
    cpus = []
    for _ in range(blocks):
        start = time.process_time()
        for _ in range(rounds):
            one()
        cpus.append((time.process_time() - start) * 1000 / rounds)
    return cpus


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=200, help="rounds a block (default 200)")
    parser.add_argument("--blocks", type=int, default=6, help="rounds of blocks, one block a side (default 6)")
    parser.add_argument("--warmup", type=int, default=30, help="untimed rounds a side first (default 30)")
    parser.add_argument("--prod", action="store_true", help="use the prod-up environment (var/prod/env)")
    parser.add_argument("--sql", action="store_true", help="print the statements of one round of each side")
    parser.add_argument("--no-raw", action="store_true", help="leave out the raw psycopg side (floor_raw.py)")
    args = parser.parse_args()
    setup_django(prod=args.prod)
    client, path, floor, sizes = prepare(rounds=args.rounds * args.blocks + 1, warmup=args.warmup, raw=not args.no_raw)
    raw = sizes.pop("raw_side", None)
    sides = [s for s in (floor, path, raw) if s is not None]

    figures: dict[str, list[tuple[float, float]]] = {side.name: [] for side in sides}
    ratios: list[float] = []
    raw_ratios: list[float] = []
    for pair in range(args.blocks):
        order = sides[pair % len(sides) :] + sides[: pair % len(sides)]  # every side takes every place in turn
        got = {side.name: block(client, side, args.rounds) for side in order}
        for name, value in got.items():
            figures[name].append(value)
        ratios.append(got["floor"][0] / got["path"][0])
        line = (
            f"blocks {pair + 1} ({order[0].name} first): floor {got['floor'][0]:.2f} ms, path {got['path'][0]:.2f} ms"
        )
        if raw is not None:
            raw_ratios.append(got["raw"][0] / got["path"][0])
            line += f", raw {got['raw'][0]:.2f} ms"
        line += f" CPU a round; floor/path {ratios[-1]:.2f}"
        if raw is not None:
            line += f", raw/path {raw_ratios[-1]:.2f}"
        print(line, flush=True)
    counted = {side.name: statements(client, side, show=args.sql) for side in (path, floor)}
    if raw is not None:
        raw.raw.close()

    med = {name: statistics.median(c for c, _ in values) for name, values in figures.items()}
    wall = {name: statistics.median(w for _, w in values) for name, values in figures.items()}
    ratio = statistics.median(ratios)
    print()
    for name in ("path", "floor"):
        cpus = [c for c, _ in figures[name]]
        print(
            f"{name:5}: CPU {med[name]:.2f} ms a round (block medians {spread(cpus)}), wall {wall[name]:.2f} ms, "
            f"{counted[name]} SQL statements a round, answer {sizes[name]} bytes"
        )
    if raw is not None:
        cpus = [c for c, _ in figures["raw"]]
        print(f"raw  : CPU {med['raw']:.2f} ms a round (block medians {spread(cpus)}), wall {wall['raw']:.2f} ms")
    engine = engine_cpu(rounds=args.rounds, blocks=args.blocks)
    print(f"engine: CPU {statistics.median(engine):.2f} ms a round (blocks {spread(engine)}), the rules' share of path")
    print(
        f"floor/path CPU: {ratio:.2f} (pairs {spread(ratios)}; {args.blocks} rounds of blocks of {args.rounds} rounds) "
        f"goal ≥ {GOAL}: {'PASS' if ratio >= GOAL else 'MISS'}"
    )
    raw_ratio = statistics.median(raw_ratios) if raw_ratios else None
    if raw_ratio is not None:
        print(
            f"raw/path CPU: {raw_ratio:.2f} (blocks {spread(raw_ratios)}) goal ≥ {RAW_GOAL}: "
            f"{'PASS' if raw_ratio >= RAW_GOAL else 'MISS'}"
        )
    save(
        "floor",
        {
            "ratio": ratio,
            "ratios": ratios,
            "raw_ratio": raw_ratio,
            "raw_ratios": raw_ratios,
            "raw_cpu_ms": med.get("raw"),
            "engine_cpu_ms": statistics.median(engine),
            "raw_pass": raw_ratio is not None and raw_ratio >= RAW_GOAL,
            "path_cpu_ms": med["path"],
            "floor_cpu_ms": med["floor"],
            "path_wall_ms": wall["path"],
            "floor_wall_ms": wall["floor"],
            "path_statements": counted["path"],
            "floor_statements": counted["floor"],
            "answer_bytes": sizes,
            "rounds": args.rounds,
            "blocks": args.blocks,
            "pass": ratio >= GOAL,
        },
    )


if __name__ == "__main__":
    main()
