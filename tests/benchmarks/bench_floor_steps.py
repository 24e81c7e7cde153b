"""Benchmark 5c: where a round write's CPU goes, step by step, beside the raw statements (issue 48's accounting).

    DATABASE_URL=postgres://…/scratch REDIS_URL=redis://127.0.0.1:6379/N \\
        .venv/bin/python tests/benchmarks/bench_floor_steps.py [--rounds 600] [--prod]

Set up as ``bench_floor.py`` (its ``prepare``: the same test client, matches and 4-player NJET round), then wraps
the steps of ``POST /api/v1/matches/{id}/rounds`` with ``time.process_time`` and posts ``--rounds`` rounds after a
warm-up: each step's CPU a round, nested steps indented under the step they are part of (a step's figure includes
its nested ones), every SQL statement by its first words, and the raw psycopg write of the same statements
(``floor_raw.RawWriter``) timed the same way in the same minutes.  The wrapping adds a little CPU of its own to
every wrapped step (two clock reads); compare steps with each other and with raw, and take the path's total from
``bench_floor.py``.  Writes ``var/bench/floor_steps.json``.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import statistics
import time
from typing import Any

from common import save

# (module, attribute path, label, depth): the steps, outermost first
STEPS: list[tuple[str, str, str, int]] = [
    ("django.core.handlers.base", "BaseHandler.get_response", "Django's handler (all server-side work)", 0),
    ("whitenoise.middleware", "WhiteNoiseMiddleware.__call__", "the middleware below whitenoise, and the view", 1),
    ("django_htmx.middleware", "HtmxMiddleware.__call__", "URL resolution, the view and its response", 2),
    ("rest_framework.views", "APIView.dispatch", "DRF's dispatch", 3),
    ("rest_framework.views", "APIView.perform_authentication", "token authentication", 4),
    ("scoring.api.authentication", "token_with_user", "the token and its user (one statement)", 5),
    ("rest_framework.views", "APIView.check_throttles", "the write throttle (one Redis script)", 4),
    ("scoring.api.views.rounds", "RoundListView.post", "the view", 4),
    ("scoring.api.views.base", "ApiView.payload", "the body's shape (serializer)", 5),
    ("scoring.services", "round_record", "the service (transaction included)", 5),
    ("scoring.services.rounds", "match_lock_table", "the locking SELECT and the match (one statement)", 6),
    ("scoring.services.rounds", "_round_create", "the new round", 6),
    ("scoring.services.rounds", "parse_or_fail", "the facts parsed (rules engine)", 7),
    ("scoring.services.rounds", "rounds_rescore", "scoring and explanation (rules engine)", 7),
    ("scoring.services.rounds", "round_create_rows", "the round's rows (one statement)", 7),
    ("scoring.services.rounds", "stats_match_changed", "the statistics' dirty record (one statement)", 7),
    ("scoring.api.views.rounds", "_RoundView.written", "the answer (serializer)", 6),
    ("scoring.services.rounds", "idempotency_insert", "the Idempotency-Key's row (one statement)", 6),
    ("django.db.backends.base.base", "BaseDatabaseWrapper.commit", "COMMIT", 6),
    ("django.db.backends.base.base", "BaseDatabaseWrapper.run_and_clear_commit_hooks", "after the commit", 6),
    ("analytics.services.scheduling", "_mark_match", "statistics flagged stale (two statements)", 7),
    ("analytics.services.scheduling", "stats_enqueue", "the refresh's queued mark (one Redis command)", 7),
    ("scoring.services.live", "publish", "the new version to the open phones (one Redis PUBLISH)", 7),
]


def _wrap(totals: dict[str, float], module: str, attr: str, label: str) -> None:
    owner: Any = importlib.import_module(module)
    *parents, name = attr.split(".")
    for part in parents:
        owner = getattr(owner, part)
    inner = getattr(owner, name)

    @functools.wraps(inner)
    def timed(*args: Any, **kwargs: Any) -> Any:
        start = time.process_time()
        try:
            return inner(*args, **kwargs)
        finally:
            totals[label] = totals.get(label, 0.0) + time.process_time() - start

    setattr(owner, name, timed)


def _wrap_statements(totals: dict[str, float]) -> None:
    from django.db.backends import utils

    inner = utils.CursorWrapper.execute

    def timed(self: Any, sql: str, params: Any = None) -> Any:
        start = time.process_time()
        try:
            return inner(self, sql, params)
        finally:
            label = "SQL " + " ".join(sql.split()[:4])[:48]
            totals[label] = totals.get(label, 0.0) + time.process_time() - start

    utils.CursorWrapper.execute = timed  # type: ignore[method-assign]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=600, help="rounds timed (default 600)")
    parser.add_argument("--warmup", type=int, default=50, help="untimed rounds first (default 50)")
    parser.add_argument("--prod", action="store_true", help="use the prod-up environment (var/prod/env)")
    args = parser.parse_args()

    import bench_floor

    bench_floor.setup_django(prod=args.prod)
    client, path, _floor, sizes = bench_floor.prepare(rounds=args.rounds + args.warmup, warmup=0, raw=True)
    raw = sizes["raw_side"]
    totals: dict[str, float] = {}
    for module, attr, label, _depth in STEPS:
        _wrap(totals, module, attr, label)
    _wrap_statements(totals)
    for _ in range(args.warmup):
        bench_floor.post(client, path)
        bench_floor.post(client, raw)
    totals.clear()

    # alternate path and raw in blocks of 50, so both meet the same minutes of a noisy machine
    path_cpu, raw_cpu = [], []
    for _ in range(args.rounds // 50):
        for side, into in ((path, path_cpu), (raw, raw_cpu)):
            start = time.process_time()
            for _ in range(50):
                bench_floor.post(client, side)
            into.append((time.process_time() - start) * 1000 / 50)
    raw.raw.close()
    timed = 50 * len(path_cpu)

    per_round = {label: seconds * 1000 / timed for label, seconds in totals.items()}
    print(f"path (test client and all, wrapped): {statistics.median(path_cpu):.3f} ms CPU a round")
    for _module, _attr, label, depth in STEPS:
        print(f"{'  ' * depth}{label}: {per_round.get(label, 0.0):.3f}")
    print("each SQL statement (Django's cursor, client-side binding):")
    for label in sorted(k for k in per_round if k.startswith("SQL ")):
        print(f"  {label[4:]}: {per_round[label]:.3f}")
    statements = sum(v for k, v in per_round.items() if k.startswith("SQL "))
    print(f"  all statements: {statements:.3f}")
    print(f"raw (the same statements by psycopg alone): {statistics.median(raw_cpu):.3f} ms CPU a round")
    save(
        "floor_steps",
        {
            "path_cpu_ms": statistics.median(path_cpu),
            "raw_cpu_ms": statistics.median(raw_cpu),
            "steps_ms": per_round,
            "statements_ms": statements,
            "rounds": timed,
        },
    )


if __name__ == "__main__":
    main()
