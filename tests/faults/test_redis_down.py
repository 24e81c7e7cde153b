"""Fault: Redis (broker and cache) stopped during a stream of round submissions.

Every round must still be saved (the broker is only needed for statistics); after Redis returns, the
periodic catch-up (what beat sends every minute) brings the statistics up to date.  Redis is restarted empty
(``shutdown nosave``), so whatever was queued when it stopped is gone: the catch-up must not depend on it.
"""

from __future__ import annotations

import math
import time
from collections import Counter

import pytest

from tests.conftest import wait_for
from tests.faults.helpers import SCALE, group_stats_fresh, integrity, report, round_plan, stream

pytestmark = pytest.mark.faults

GAMES = 5  # short matches, so that finished matches (standings, ratings) are part of the statistics


def test_rounds_saved_while_redis_is_down_and_stats_catch_up(stack, table_factory):  # type: ignore[no-untyped-def]
    stack.web(workers=2, threads=4)
    worker = stack.worker("worker")
    per_phase = 30 * SCALE
    total = 3 * per_phase
    table = table_factory(matches=math.ceil(total / GAMES), games=GAMES)
    plan = round_plan(table, GAMES, total)
    phases = {"before": plan[:per_phase], "down": plan[per_phase : 2 * per_phase], "after": plan[2 * per_phase :]}

    results = {}
    took = {}
    for name, part in phases.items():
        if name == "down":
            stack.redis.stop()
            assert not stack.redis.ping()
        if name == "after":
            stack.redis.start()
        started = time.monotonic()
        results[name] = stream(stack.base_url, table, part, clients=4)
        took[name] = time.monotonic() - started
        statuses = Counter(s.statuses[-1] for s in results[name])
        report(
            f"Redis {'stopped' if name == 'down' else 'running'} ({name}): sent {len(part)} rounds in "
            f"{took[name]:.1f} s -> statuses {dict(statuses)}"
        )

    sent = sum(len(r) for r in results.values())
    saved = sum(s.saved for r in results.values() for s in r)
    found = integrity(table.match_ids)
    report(
        f"sent {sent}, answered 201: {saved}, stored {found['stored']}, lost {sent - found['stored']}, "
        f"half-written {found['half_written']}, numbering gaps {found['numbering_gaps']}"
    )

    # Redis is back: the worker reconnects; beat's periodic catch-up recomputes what is stale.
    caught_up_from = time.monotonic()
    stack.send_task("analytics.stats_catch_up")

    def fresh() -> dict[str, object] | None:
        state = group_stats_fresh(table.group_id)
        ok = state["stale"] == 0 and state["dirty"] == 0 and state["rounds_entered"] == found["stored"]
        return state if ok else None

    state = wait_for(fresh, timeout=60 + 10 * SCALE, interval=0.5)
    final = group_stats_fresh(table.group_id)
    report(
        f"after Redis returned: statistics caught up in {time.monotonic() - caught_up_from:.1f} s -> "
        f"stale snapshots {final['stale']}, dirty matches {final['dirty']}, group snapshot counts "
        f"{final['rounds_entered']} rounds and {final['matches']} finished matches"
    )

    assert saved == sent, "every round sent while Redis was down must be saved (201)"
    assert found == {"stored": sent, "half_written": 0, "numbering_gaps": 0}
    assert state is not None, f"statistics did not catch up after Redis returned: {final}\n{worker.log_text()[-2000:]}"
    assert final["matches"] == len(table.match_ids)
