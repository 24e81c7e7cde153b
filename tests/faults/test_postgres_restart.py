"""Fault: PostgreSQL drops every connection of the app under load; the app recovers without a restart.

Bounded form (``make test``): every backend connected to the test database is terminated
(``pg_terminate_backend``) twice in the middle of a stream of round submissions, which is what the web and
worker processes see when the server restarts.  With ``FAULTS_PG_RESTART=1`` (``make faults``) the
PostgreSQL cluster itself is restarted (``pg_ctlcluster … restart``), which affects everyone using it;
``FAULTS_PG_RESTART_CMD`` replaces that command (e.g. ``pg_ctl -D … restart`` for a private cluster).

Phones retry a failed submit with the same Idempotency-Key, so the expected result is: every round stored
exactly once, none half-written (each round has its Score rows and its "create" event), and requests after
the fault succeed against the same gunicorn processes.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import threading
import time
from collections import Counter
from pathlib import Path

import pytest
from django.db import connection

from tests.conftest import wait_for
from tests.faults.helpers import SCALE, abluxxen_facts, group_stats_fresh, integrity, report, round_plan, stream, submit

pytestmark = pytest.mark.faults

PG_RESTART = os.environ.get("FAULTS_PG_RESTART", "") == "1"
ROUNDS_PER_MATCH = 20


def _restart_command() -> list[str]:
    custom = os.environ.get("FAULTS_PG_RESTART_CMD", "")
    if custom:
        return shlex.split(custom)
    version = sorted(p.name for p in Path("/etc/postgresql").iterdir())[0]
    return ["pg_ctlcluster", "--skip-systemctl-redirect", version, "main", "restart"]


def _drop_connections() -> int:
    """Terminate every other backend connected to the test database; returns how many."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        return int(cursor.fetchone()[0])


def _restart_cluster() -> str:
    started = time.monotonic()
    # no pipes: a postmaster started by the command would keep them open (and this call waiting) for ever
    subprocess.run(_restart_command(), check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)
    connection.close()  # this thread's own connection died with the server
    return f"restarted PostgreSQL ({shlex.join(_restart_command())}, {time.monotonic() - started:.1f} s)"


def test_app_recovers_from_dropped_database_connections(stack, table_factory):  # type: ignore[no-untyped-def]
    web = stack.web(workers=2, threads=4)
    stack.worker("worker")
    total = 60 * SCALE
    table = table_factory(matches=-(-total // ROUNDS_PER_MATCH))
    plan = round_plan(table, ROUNDS_PER_MATCH, total)
    web_pids = stack.web_workers(web)

    faults: list[str] = []
    triggers = [total // 3, 2 * total // 3] if not PG_RESTART else [total // 2]
    progress = {"done": 0}

    def count(done: int) -> None:
        progress["done"] = max(progress["done"], done)

    def saboteur() -> None:
        """Inject the fault each time the stream has reached the next trigger."""
        try:
            for trigger in triggers:
                while progress["done"] < trigger:
                    if stop.is_set():
                        return
                    time.sleep(0.01)
                if PG_RESTART:
                    faults.append(f"after {progress['done']} rounds: {_restart_cluster()}")
                else:
                    faults.append(f"after {progress['done']} rounds: terminated {_drop_connections()} connections")
        finally:
            connection.close()  # this thread's connection (Django's are per thread)

    stop = threading.Event()
    thread = threading.Thread(target=saboteur, daemon=True)
    thread.start()
    started = time.monotonic()
    subs = stream(stack.base_url, table, plan, clients=8, retries=10, done=count)
    took = time.monotonic() - started
    stop.set()
    thread.join(timeout=60)
    connection.close()  # a fresh connection for the checks below

    attempts = sum(s.attempts for s in subs)
    failed = Counter(code for s in subs for code in s.statuses if code >= 500 or code == 0)
    saved = sum(s.saved for s in subs)
    report(
        f"{'; '.join(faults)} while {len(plan)} rounds were being sent by 8 clients ({took:.1f} s): "
        f"{attempts} requests, failed answers {dict(failed) or 'none'} (0 = connection reset), "
        "each retried with its Idempotency-Key"
    )

    # recovery: the same web processes answer, without anyone restarting them
    after = submit(stack.base_url, table, table.match_ids[-1], abluxxen_facts(999), retries=0)
    same_processes = web.popen.poll() is None and stack.web_workers(web) == web_pids
    found = integrity(table.match_ids)
    expected = total + int(after.saved)
    report(
        f"sent {total} (+1 after the fault: {after.statuses}), answered 201: {saved}, stored {found['stored']}, "
        f"lost {max(expected - found['stored'], 0)}, duplicates {max(found['stored'] - expected, 0)}, "
        f"half-written {found['half_written']}, numbering gaps {found['numbering_gaps']}; "
        f"same gunicorn workers: {same_processes}"
    )

    stack.send_task("analytics.stats_catch_up")
    state = wait_for(
        lambda: (
            (s := group_stats_fresh(table.group_id))["stale"] == 0
            and s["dirty"] == 0
            and s["rounds_entered"] == found["stored"]
        ),
        timeout=60 + 10 * SCALE,
        interval=0.5,
    )
    final = group_stats_fresh(table.group_id)
    report(f"statistics after the catch-up: {final}")

    assert len(faults) == len(triggers), f"the fault was not injected: {faults}"
    assert set(failed) <= {503, 0}, f"a database outage must answer 503 (retry), not {dict(failed)}"
    assert after.statuses == [201], "a request after the fault must succeed at once (no restart of the app)"
    assert web.popen.poll() is None
    assert saved == total
    assert found == {"stored": expected, "half_written": 0, "numbering_gaps": 0}
    assert state, f"statistics did not catch up: {final}"
