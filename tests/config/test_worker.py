"""A row saved through a Celery task run by a real worker process on Redis, against PostgreSQL."""

from __future__ import annotations

import time
import uuid

import pytest

from analytics.models import WorkerPing
from analytics.tasks import worker_ping
from tests.conftest import wait_for

pytestmark = pytest.mark.services


def test_real_worker_saves_a_row_through_redis(celery_worker_process):  # type: ignore[no-untyped-def]
    token = uuid.uuid4().hex
    worker_ping.delay(token)
    ping = wait_for(lambda: WorkerPing.objects.filter(token=token).first(), timeout=60)
    assert ping is not None, "the worker did not store the row"
    assert ping.worker  # filled in by the worker process, not by this test
    assert WorkerPing.objects.filter(token=token).count() == 1


def _other_backends() -> set[int]:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() "
            "AND backend_type = 'client backend'"
        )
        return {row[0] for row in cursor.fetchall()}


def _ping_and_wait() -> None:
    token = uuid.uuid4().hex
    worker_ping.delay(token)
    assert wait_for(lambda: WorkerPing.objects.filter(token=token).exists(), timeout=60), "the worker did not answer"
    time.sleep(1.0)  # the task's end (Celery's clean-up after it) has run


def test_a_worker_keeps_its_database_connection_from_one_task_to_the_next(celery_worker_process):  # type: ignore[no-untyped-def]
    """Celery's Django fix-up used to close the connection after every task, so each statistics refresh opened a new
    PostgreSQL backend (more CPU than a small group's refresh itself); the worker now keeps it, as a web process
    keeps its own between requests."""
    ours = _other_backends()  # this test's own other connections, if any
    _ping_and_wait()
    after_first = _other_backends() - ours
    assert after_first, "the worker holds no connection after its task"
    for _ in range(3):
        _ping_and_wait()
    assert _other_backends() - ours == after_first, "the worker reconnected between tasks"


def test_a_worker_drops_a_broken_connection_and_answers_the_next_task(celery_worker_process):  # type: ignore[no-untyped-def]
    """A kept connection that dies (PostgreSQL restarted, the backend killed) costs at most the task that meets it:
    the next one gets a new connection, as the next request of a web process would."""
    from django.db import connection

    ours = _other_backends()
    _ping_and_wait()
    with connection.cursor() as cursor:
        for pid in _other_backends() - ours:
            cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
    token = uuid.uuid4().hex
    worker_ping.delay(token)
    if not wait_for(lambda: WorkerPing.objects.filter(token=token).exists(), timeout=20):
        worker_ping.delay(token)  # the task that met the dead connection failed; the next one must not
        assert wait_for(lambda: WorkerPing.objects.filter(token=token).exists(), timeout=60)
