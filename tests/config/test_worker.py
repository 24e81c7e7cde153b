"""A row saved through a Celery task run by a real worker process on Redis, against PostgreSQL."""

from __future__ import annotations

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
