"""Shared fixtures: real PostgreSQL/Redis when configured, a real Celery worker process on demand."""

from __future__ import annotations

import os
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from tests.workers import worker_ready, worker_spawn

ROOT = Path(__file__).resolve().parent.parent

# user / group / players / make_match for the page and browser tests
pytest_plugins = ["tests.table_fixtures"]

settings.register_profile(
    "ci", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
settings.register_profile("dev", max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(autouse=True)
def _language_reset() -> Iterator[None]:
    """Every test starts in the default language: a request through Django's test client activates its
    language (LocaleMiddleware) in this thread and nothing switches it back, so a Hungarian request would
    otherwise leave Hungarian on for whichever tests run after it."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


def _uses_postgres() -> bool:
    return os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://"))


@pytest.fixture(scope="session")
def services_up() -> None:
    """PostgreSQL and Redis must be running: start (or install) them rather than skip."""
    subprocess.run(["bash", str(ROOT / "tests" / "ensure_services.sh")], check=True, capture_output=True)


@pytest.fixture
def celery_worker_process(
    services_up: None, transactional_db: None, settings: object
) -> Iterator[subprocess.Popen[bytes]]:
    """A real `celery worker` process on REDIS_URL, using the same test database as this test.

    The test must commit its data (transactional_db) for the worker to see it.
    """
    from config.celery import app

    if not os.environ.get("REDIS_URL"):
        pytest.fail("REDIS_URL must be set for worker tests (make test sets it)")
    if not _uses_postgres():
        pytest.fail("worker tests need DATABASE_URL pointing at PostgreSQL (make test sets it)")
    queue = f"test-{uuid.uuid4().hex[:8]}"
    proc = worker_spawn(queue, f"worker-{queue}.log")
    old = (app.conf.task_always_eager, app.conf.task_default_queue)
    app.conf.task_always_eager = False
    app.conf.task_default_queue = queue
    try:
        try:
            worker_ready(proc)
        except RuntimeError as exc:
            pytest.fail(str(exc))
        yield proc
    finally:
        app.conf.task_always_eager, app.conf.task_default_queue = old
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()


def wait_for(predicate, timeout: float = 30.0, interval: float = 0.2):  # type: ignore[no-untyped-def]
    """Poll ``predicate`` until it returns a truthy value or time runs out (returns the last value)."""
    deadline = time.monotonic() + timeout
    value = predicate()
    while not value and time.monotonic() < deadline:
        time.sleep(interval)
        value = predicate()
    return value
