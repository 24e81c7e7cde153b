"""While a refresh of a group runs, the next one waits for the group's lock; rounds arriving meanwhile must ride
on that waiting refresh instead of queueing more of them (each would hold a worker and a database connection
waiting for the same lock, and a burst of rounds in one group could fill every worker)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection

from analytics import services
from config.celery import app
from tests.analytics.helpers import backend_waits_for_a_lock, make_table

pytestmark = pytest.mark.django_db(transaction=True)


def test_rounds_during_a_refresh_ride_on_the_one_waiting_for_the_lock(side: Callable[[], Any]) -> None:
    if connection.vendor != "postgresql":
        pytest.fail("this test needs PostgreSQL (make test sets DATABASE_URL)")
    group_id = make_table().group.pk
    old, app.conf.task_always_eager = app.conf.task_always_eager, False
    running = side()  # plays the refresh that is running: it holds the group's lock
    result: dict[str, Any] = {}

    def waiting_refresh() -> None:
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                result["pid"] = cursor.fetchone()[0]
            services.stats_group_refresh(group_id=group_id)
            result["done"] = True
        except Exception as exc:  # reported by the assertions below
            result["error"] = exc
        finally:
            connection.close()

    thread = threading.Thread(target=waiting_refresh)
    try:
        assert services._queue_marks() is not None, "needs REDIS_URL (the tests run against a real Redis)"
        services._queued_release(group_id)
        with running.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_lock(%s, %s)", [7007, group_id])
        assert services._queued_claim(group_id)  # a round queued the next refresh ...
        thread.start()  # ... a worker took it, and it waits for the running one
        deadline = time.monotonic() + 10
        while "pid" not in result and "error" not in result and time.monotonic() < deadline:
            time.sleep(0.01)
        assert "error" not in result, result.get("error")
        assert backend_waits_for_a_lock(result["pid"]), "the refresh did not wait for the group's lock"

        assert not services._queued_claim(group_id), "a round during the wait queued yet another refresh"
    finally:
        with running.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [7007, group_id])
        thread.join(timeout=30)
        app.conf.task_always_eager = old
    assert result.get("done") and "error" not in result, result
    assert services._queued_claim(group_id), "once the refresh started, the next round must queue a new one"
    services._queued_release(group_id)
