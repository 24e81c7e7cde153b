"""The statistics pipeline with a real Redis and a real Celery worker process against the test database."""

from __future__ import annotations

from typing import Any

import pytest

from analytics import tasks
from analytics.models import MatchStanding, RatingHistory, Snapshot, StatsDirty
from config.celery import app
from scoring import services as scoring
from tests.analytics.helpers import abluxxen, differences, make_table, snapshots, worker_start, worker_stop
from tests.conftest import wait_for

pytestmark = pytest.mark.services


def _fresh(key: str, **payload: Any) -> Snapshot | None:
    found = Snapshot.objects.filter(key=key, stale=False, computing=False).first()
    if found is None:
        return None
    summary = found.payload.get("summary", found.payload.get("overall", {}))
    return found if all(summary.get(k) == v for k, v in payload.items()) else None


def _all_fresh() -> bool:
    return not Snapshot.objects.filter(stale=True).exists() and not StatsDirty.objects.exists()


def test_a_saved_round_reaches_the_dashboard(celery_worker_process: Any, client: Any) -> None:
    table = make_table()
    a, b, c = table.players[:3]
    match = scoring.match_create(
        group=table.group, ruleset="abluxxen", options={"games": 1}, player_ids=[a.pk, b.pk, c.pk], user=table.owner
    )
    scoring.round_record(match=match, facts={"front": [11, 6, 4], "hand": [0, 2, 3], "end": "out"}, user=table.owner)
    key = f"group:{table.group.pk}|all"
    snapshot = wait_for(lambda: _fresh(key, matches=1, rounds_entered=1), timeout=60)
    assert snapshot is not None, "the worker did not bring the snapshot up to date"
    assert Snapshot.objects.get(key=f"player:{a.pk}|all").payload["overall"]["wins"] == 1

    client.force_login(table.member)
    page = client.get(f"/stats/groups/{table.group.pk}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Updated" in html and "Out of date" not in html
    assert "<b>1</b> match<" in html and a.name in html
    api = client.get(f"/api/v1/groups/{table.group.pk}/stats")
    assert api.status_code == 200
    body = api.json()
    assert body["stale"] is False and body["updated_at"] is not None
    assert body["stats"]["summary"]["rounds_entered"] == 1
    assert body["players"][str(a.pk)] == a.name


def test_worker_down_rounds_saved_stale_then_caught_up(celery_worker_process: Any) -> None:
    queue = app.conf.task_default_queue
    table = make_table()
    a, b, c, d = table.players[:4]
    abluxxen(table, [a, b, c], [11, 6, 4], [0, 2, 3])
    key = f"group:{table.group.pk}|all"
    assert wait_for(lambda: _fresh(key, matches=1), timeout=60)

    worker_stop(celery_worker_process)
    abluxxen(table, [a, b, d], [3, 9, 7], [2, 0, 1])
    abluxxen(table, [b, c, d], [8, 8, 2], [1, 1, 0])
    stale = Snapshot.objects.get(key=key)
    assert stale.stale and stale.payload["summary"]["matches"] == 1  # saved, flagged, not yet recomputed
    assert Snapshot.objects.get(key=f"player:{d.pk}|all").stale
    assert StatsDirty.objects.filter(group_id=table.group.pk).count() == 2

    again = worker_start(queue)
    try:
        assert wait_for(lambda: _fresh(key, matches=2 + 1) and _all_fresh(), timeout=60)
        assert Snapshot.objects.get(key=f"player:{d.pk}|all").payload["overall"]["matches"] == 2
    finally:
        worker_stop(again)


def test_incremental_equals_full_rebuild_through_the_worker(celery_worker_process: Any) -> None:
    table = make_table()
    p = table.players
    seats = [[p[i % 6], p[(i + 1) % 6], p[(i + 3) % 6]] for i in range(8)]
    matches = [abluxxen(table, seats[i], [5 + i % 4, 7, 6], [1 + i % 3, 0, 2]) for i in range(8)]
    round_ = matches[2].rounds.get()
    scoring.round_edit(
        round=round_, facts={"front": [20, 1, 1], "hand": [0, 5, 5], "end": "out"}, expected_version=1,
        user=table.owner,
    )  # fmt: skip
    scoring.match_delete(match=matches[5], expected_version=matches[5].version, user=table.owner)
    assert wait_for(_all_fresh, timeout=90)
    incremental = snapshots()
    assert len(incremental) == 1 + 1 + 6

    Snapshot.objects.update(payload={}, stale=True)
    MatchStanding.objects.all().delete()
    RatingHistory.objects.all().delete()
    tasks.stats_rebuild_all.delay()
    assert wait_for(_all_fresh, timeout=90)
    assert differences(snapshots(), incremental) == []
