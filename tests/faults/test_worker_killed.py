"""Fault: a Celery worker is killed (SIGKILL) in the middle of a statistics rebuild.

The task is acknowledged late (``acks_late``), so the broker still holds it as unacknowledged; once the
visibility timeout has passed (5 s here via ``CELERY_VISIBILITY_TIMEOUT``, an hour in production) a new worker
gets it again and finishes it.  The snapshots must end exactly as a from-scratch rebuild computes them.
"""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from analytics import services
from analytics.models import Snapshot, StatsDirty
from scoring.models import Group, Round
from tests.conftest import wait_for
from tests.faults.helpers import ROOT, SCALE, VISIBILITY_TIMEOUT, report

pytestmark = pytest.mark.faults


def _payloads() -> dict[str, object]:
    return dict(Snapshot.objects.values_list("key", "payload"))


def test_killed_worker_job_is_redelivered_and_snapshots_end_correct(stack):  # type: ignore[no-untyped-def]
    rounds = 4000 * SCALE
    argv = ["generate_history", "--skip-checks", "--rounds", str(rounds), "--groups", "3", "--players", "24"]
    generated = subprocess.run(
        [sys.executable, "manage.py", *argv, "--open", "0.05", "--seed", "8"],
        cwd=ROOT,
        env=stack.env(REDIS_URL="", CELERY_EAGER="1"),
        capture_output=True,
        text=True,
        check=False,
    )
    assert generated.returncode == 0, generated.stderr[-3000:]
    first = stack.worker("worker-a")
    task_id = stack.send_task("analytics.stats_rebuild_all")

    # mid-job: the worker has received the task and is writing snapshots (they say "computing")
    def mid_job() -> bool:
        if f"[{task_id}] succeeded" in first.log_text():
            pytest.fail(f"the rebuild finished before it could be killed; raise the rounds (now {rounds})")
        return Snapshot.objects.filter(computing=True).exists()

    assert wait_for(mid_job, timeout=120, interval=0.02), f"the rebuild never started:\n{first.log_text()[-2000:]}"
    stack.kill9(first)
    killed_at = time.monotonic()
    left_computing = Snapshot.objects.filter(computing=True).count()
    assert f"[{task_id}] received" in first.log_text()
    assert f"[{task_id}] succeeded" not in first.log_text()
    report(
        f"history of {Round.objects.count()} rounds in {Group.objects.count()} groups; killed worker-a "
        f"(pid {first.pid}, SIGKILL) in the middle of stats_rebuild_all: {left_computing} snapshots left 'computing'"
    )

    # A replacement worker comes up once the task's visibility timeout has run out (it is counted from the
    # delivery to worker-a, before the kill); it finds the unacknowledged task and takes it again.
    time.sleep(VISIBILITY_TIMEOUT + 1)
    second = stack.worker("worker-b")

    def redone() -> bool:
        log = second.log_text()
        return f"[{task_id}] received" in log and f"[{task_id}] succeeded" in log

    assert wait_for(redone, timeout=60 * SCALE, interval=0.25), (
        f"the killed task was not redelivered:\n{second.log_text()[-3000:]}"
    )
    redelivered_after = time.monotonic() - killed_at
    after_kill = _payloads()
    state = {
        "snapshots": len(after_kill),
        "stale": Snapshot.objects.filter(stale=True).count(),
        "computing": Snapshot.objects.filter(computing=True).count(),
        "dirty": StatsDirty.objects.count(),
    }

    # the reference: a from-scratch rebuild of the same history, in this process
    services.stats_rebuild_all()
    reference = _payloads()
    differ = sorted(k for k in reference if reference[k] != after_kill.get(k))
    report(
        f"worker-b started {VISIBILITY_TIMEOUT + 1} s later; task {task_id} redelivered to it and finished "
        f"{redelivered_after:.1f} s after the kill; "
        f"snapshots {state['snapshots']}, stale {state['stale']}, computing {state['computing']}, "
        f"dirty {state['dirty']}; differing from a from-scratch rebuild: {len(differ)}"
    )
    assert state["stale"] == 0 and state["computing"] == 0 and state["dirty"] == 0
    assert set(reference) == set(after_kill)
    assert not differ, f"snapshots differ from a from-scratch rebuild: {differ[:5]}"
