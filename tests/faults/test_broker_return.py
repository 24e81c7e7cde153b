"""Issue 49, "faults cost seconds": what a Redis outage and a killed worker process leave behind.

- After Redis returns, statistics are fresh again without beat's minute catch-up: the worker queues a catch-up when
  it reconnects, and the first save that reaches the broker again queues one for what its process could not queue.
  An outage is logged once per process and kind, not with a traceback per save.
- A refresh whose worker process is SIGKILLed mid-task runs again (acknowledged late, rejected back to the queue when
  the worker loses the process), instead of being lost until a catch-up.

Real gunicorn and Celery processes on a private Redis (``helpers``); no beat runs, and the tests send no catch-up.
"""

from __future__ import annotations

import math
import os
import re
import signal
import time
from collections import Counter

import pytest
import requests

from tests.conftest import wait_for
from tests.faults.helpers import abluxxen_facts, group_stats_fresh, integrity, report, round_plan, stream, submit

pytestmark = pytest.mark.faults

GAMES = 5
REFRESH = re.compile(r"analytics\.stats_refresh_group\[([0-9a-f-]+)\] received")


def _fresh(group_id: int, rounds: int) -> dict[str, object] | None:
    state = group_stats_fresh(group_id)
    return state if state["stale"] == 0 and state["dirty"] == 0 and state["rounds_entered"] == rounds else None


def test_statistics_are_fresh_soon_after_redis_returns_and_the_outage_is_logged_once(stack, table_factory):  # type: ignore[no-untyped-def]
    web = stack.web(workers=1, threads=4)
    worker = stack.worker("worker")
    table = table_factory(matches=math.ceil(40 / GAMES), games=GAMES)
    plan = round_plan(table, GAMES, 40)

    before = stream(stack.base_url, table, plan[:10], clients=2)
    assert all(s.saved for s in before)
    assert wait_for(lambda: _fresh(table.group_id, 10), timeout=30, interval=0.2), group_stats_fresh(table.group_id)

    stack.redis.stop()
    down_from = len(web.log_text())
    down = stream(stack.base_url, table, plan[10:30], clients=2)
    state_down = group_stats_fresh(table.group_id)
    stack.redis.start()
    back_at = time.monotonic()
    # the table plays on: a round every half second, as long as the statistics take
    sent = 30
    while not _fresh(table.group_id, sent) and time.monotonic() - back_at < 40 and sent < len(plan):
        match_id, facts = plan[sent]
        assert submit(stack.base_url, table, match_id, facts).saved
        sent += 1
        time.sleep(0.5)
    fresh = wait_for(lambda: _fresh(table.group_id, sent), timeout=30, interval=0.2)
    took = time.monotonic() - back_at
    log = web.log_text()[down_from:]
    outage_lines = [line for line in log.splitlines() if "not logged again" in line]
    found = integrity(table.match_ids)
    report(
        f"Redis stopped: 20 rounds -> {dict(Counter(s.statuses[-1] for s in down))}, statistics then {state_down}; "
        f"Redis back: fresh after {took:.1f} s with {sent - 30} more rounds saved meanwhile and no beat; the web "
        f"process logged {len(outage_lines)} outage lines and {log.count('Traceback')} tracebacks"
    )
    assert all(s.saved for s in down) and found["stored"] == sent
    assert state_down["stale"] > 0 or state_down["dirty"] > 0  # the outage did leave them stale
    assert fresh is not None, (
        f"statistics did not catch up: {group_stats_fresh(table.group_id)}\n{worker.log_text()[-2000:]}"
    )
    assert "Traceback" not in log
    # one line per kind of call that met the outage (live events, statistics broker, queued marks, throttles)
    assert 1 <= len(outage_lines) <= 4, outage_lines
    assert "reachable again" in log


def test_a_refresh_whose_worker_process_is_killed_runs_again(stack, table_factory):  # type: ignore[no-untyped-def]
    """A prefork worker as in production (one child). The group's second refresh waits out an 8-second spacing in
    the child; the child is SIGKILLed meanwhile. The task goes back to the queue and the new child runs it."""
    stack.web(workers=1, threads=2)
    worker = stack.worker("worker", pool="prefork", STATS_REFRESH_SPACING_MS="8000")
    table = table_factory(matches=1, games=100)
    match_id = table.match_ids[0]
    assert submit(stack.base_url, table, match_id, abluxxen_facts(1)).saved
    assert wait_for(lambda: _fresh(table.group_id, 1), timeout=30, interval=0.2), group_stats_fresh(table.group_id)

    assert submit(stack.base_url, table, match_id, abluxxen_facts(2)).saved  # within the spacing: its refresh waits
    assert wait_for(lambda: len(REFRESH.findall(worker.log_text())) >= 2, timeout=30, interval=0.1)
    task_id = REFRESH.findall(worker.log_text())[1]
    children = stack.web_workers(worker)  # the pool's processes, children of the worker's main process
    assert len(children) == 1, children
    (child,) = children
    time.sleep(0.5)  # the child has taken it and waits out the spacing
    assert f"[{task_id}] succeeded" not in worker.log_text()
    os.kill(child, signal.SIGKILL)
    killed_at = time.monotonic()

    def ran_again() -> bool:
        return f"[{task_id}] succeeded" in worker.log_text()

    assert wait_for(ran_again, timeout=60, interval=0.2), worker.log_text()[-3000:]
    fresh = wait_for(lambda: _fresh(table.group_id, 2), timeout=30, interval=0.2)
    log = worker.log_text()
    deliveries = log.count(f"[{task_id}] received")
    report(
        f"pool process {child} SIGKILLed while holding refresh {task_id}: delivered {deliveries} "
        f"times, succeeded {time.monotonic() - killed_at:.1f} s after the kill; statistics fresh: {fresh is not None}"
    )
    assert deliveries == 2  # given back to the queue and taken again
    assert fresh is not None, group_stats_fresh(table.group_id)
    assert requests.get(f"{stack.base_url}/healthz", timeout=5).status_code == 200
