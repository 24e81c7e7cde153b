"""Shared fixtures: real PostgreSQL/Redis when configured, a real Celery worker process on demand."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parent.parent

# user / group / players / make_match for the page and browser tests
pytest_plugins = ["tests.table_fixtures"]

settings.register_profile(
    "ci", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
settings.register_profile("dev", max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


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
    from django.db import connection

    from config.celery import app

    redis_url = os.environ.get("REDIS_URL")
    if not redis_url:
        pytest.fail("REDIS_URL must be set for worker tests (make test sets it)")
    if not _uses_postgres():
        pytest.fail("worker tests need DATABASE_URL pointing at PostgreSQL (make test sets it)")
    db = connection.settings_dict
    test_url = f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
    queue = f"test-{uuid.uuid4().hex[:8]}"
    env = {
        **os.environ,
        "DATABASE_URL": test_url,
        "CELERY_EAGER": "0",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "STATS_REBUILD_QUEUE": f"{queue}-rebuild",  # the parts of a full rebuild, also this worker's alone
    }
    env.pop("PYTEST_CURRENT_TEST", None)
    (ROOT / "var").mkdir(exist_ok=True)
    log = open(ROOT / "var" / f"worker-{queue}.log", "wb")  # noqa: SIM115 - closed in finally
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "-Q",
            f"{queue},{queue}-rebuild",
            "-c",
            "1",
            "--pool",
            "solo",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
            "-l",
            "INFO",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    old = (app.conf.task_always_eager, app.conf.task_default_queue)
    app.conf.task_always_eager = False
    app.conf.task_default_queue = queue
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                pytest.fail(f"celery worker exited with {proc.returncode}")
            replies = app.control.ping(timeout=0.5, destination=None) or []
            if replies:
                break
            time.sleep(0.5)
        else:
            pytest.fail("celery worker did not answer within 60 s")
        yield proc
    finally:
        app.conf.task_always_eager, app.conf.task_default_queue = old
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def wait_for(predicate, timeout: float = 30.0, interval: float = 0.2):  # type: ignore[no-untyped-def]
    """Poll ``predicate`` until it returns a truthy value or time runs out (returns the last value)."""
    deadline = time.monotonic() + timeout
    value = predicate()
    while not value and time.monotonic() < deadline:
        time.sleep(interval)
        value = predicate()
    return value
