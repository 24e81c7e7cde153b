"""Fault: a Celery worker is killed (SIGKILL) in the middle of a statistics rebuild.

The rebuild is one task per group, each acknowledged late (``acks_late``): the broker still holds the killed
worker's group as unacknowledged; once the visibility timeout has passed (5 s here via ``CELERY_VISIBILITY_TIMEOUT``,
an hour in production) a new worker gets it again, rebuilds it and the groups left, and the last one finishes the
run.  The snapshots must end exactly as a from-scratch rebuild computes them.
"""

from __future__ import annotations

import re
import subprocess
import sys
import time

import pytest

from analytics import services
from analytics.models import Snapshot, StatsDirty, StatsRebuild
from scoring.models import Group, Round
from tests.conftest import wait_for
from tests.faults.helpers import ROOT, SCALE, VISIBILITY_TIMEOUT, report

pytestmark = pytest.mark.faults
PART = re.compile(r"analytics\.stats_rebuild_part\[([0-9a-f-]+)\] received")


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
    runs = StatsRebuild.objects.filter(pk__gt=max(StatsRebuild.objects.values_list("pk", flat=True), default=0))
    task_id = stack.send_task("analytics.stats_rebuild_all")  # as beat sends it: one part per group follows

    # mid-job: worker-a has queued the parts and is rebuilding a group (its snapshots say "computing")
    def mid_job() -> bool:
        if runs.filter(finished_at__isnull=False).exists():
            pytest.fail(f"the rebuild finished before it could be killed; raise the rounds (now {rounds})")
        return Snapshot.objects.filter(computing=True).exists()

    assert wait_for(mid_job, timeout=120, interval=0.02), f"the rebuild never started:\n{first.log_text()[-2000:]}"
    stack.kill9(first)
    killed_at = time.monotonic()
    left_computing = Snapshot.objects.filter(computing=True).count()
    run = runs.get()
    log = first.log_text()
    assert f"[{task_id}] succeeded" in log  # the nightly task only queues the parts
    in_flight = [t for t in PART.findall(log) if f"[{t}] succeeded" not in log]
    assert len(in_flight) == 1, f"expected one part in the killed worker's hands, found {in_flight}"
    (part_id,) = in_flight
    report(
        f"history of {Round.objects.count()} rounds in {Group.objects.count()} groups; killed worker-a "
        f"(pid {first.pid}, SIGKILL) in the middle of a full rebuild's part {part_id}: {left_computing} snapshots "
        f"left 'computing', {len(run.pending)} of {run.groups} groups still to do"
    )

    # A replacement worker comes up once the task's visibility timeout has run out (it is counted from the
    # delivery to worker-a, before the kill); it finds the unacknowledged part and takes it again, then the rest.
    time.sleep(VISIBILITY_TIMEOUT + 1)
    second = stack.worker("worker-b")

    def redone() -> bool:
        log = second.log_text()
        return f"[{part_id}] succeeded" in log and runs.filter(finished_at__isnull=False).exists()

    assert wait_for(redone, timeout=60 * SCALE, interval=0.25), (
        f"the killed part was not redelivered or the run not finished:\n{second.log_text()[-3000:]}"
    )
    redelivered_after = time.monotonic() - killed_at
    run.refresh_from_db()
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
        f"worker-b started {VISIBILITY_TIMEOUT + 1} s later; part {part_id} redelivered to it, and the run of "
        f"{run.groups} groups finished {redelivered_after:.1f} s after the kill; "
        f"snapshots {state['snapshots']}, stale {state['stale']}, computing {state['computing']}, "
        f"dirty {state['dirty']}; differing from a from-scratch rebuild: {len(differ)}"
    )
    assert state["stale"] == 0 and state["computing"] == 0 and state["dirty"] == 0
    assert run.pending == [] and run.finished_at is not None
    assert set(reference) == set(after_kill)
    assert not differ, f"snapshots differ from a from-scratch rebuild: {differ[:5]}"
