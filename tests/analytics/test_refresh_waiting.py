"""While a refresh of a group runs, the next one waits for the group's lock; rounds arriving meanwhile must ride
on that waiting refresh instead of queueing more of them (each would hold a worker and a database connection
waiting for the same lock, and a burst of rounds in one group could fill every worker)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection

from analytics import services
from analytics.services import scheduling
from config.celery import app
from tests.analytics.helpers import make_table, run_until_blocked

pytestmark = pytest.mark.django_db(transaction=True)


def test_rounds_during_a_refresh_ride_on_the_one_waiting_for_the_lock(side: Callable[[], Any]) -> None:
    if connection.vendor != "postgresql":
        pytest.fail("this test needs PostgreSQL (make test sets DATABASE_URL)")
    group_id = make_table().group.pk
    old, app.conf.task_always_eager = app.conf.task_always_eager, False
    running = side()  # plays the refresh that is running: it holds the group's lock
    threads: list[Any] = []
    try:
        assert scheduling._queue_marks() is not None, "needs REDIS_URL (the tests run against a real Redis)"
        scheduling._queued_release(group_id)
        with running.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_lock(%s, %s)", [services.GROUP_LOCK, group_id])
        assert scheduling._queued_claim(group_id)  # a round queued the next refresh; a worker took it ...
        thread, result = run_until_blocked(
            lambda: services.stats_group_refresh(group_id=group_id), "the refresh"
        )  # ... and it waits for the running one
        threads.append(thread)

        assert not scheduling._queued_claim(group_id), "a round during the wait queued yet another refresh"
    finally:
        with running.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [services.GROUP_LOCK, group_id])
        for thread in threads:
            thread.join(timeout=30)
        app.conf.task_always_eager = old
    assert result.get("done") and "error" not in result, result
    assert scheduling._queued_claim(group_id), "once the refresh started, the next round must queue a new one"
    scheduling._queued_release(group_id)
