"""Real Celery worker processes for the tests that need one (the fixture in conftest.py, and a second worker)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def worker_spawn(queue: str, log_name: str) -> subprocess.Popen[bytes]:
    """Start a real ``celery worker`` (one solo process) on ``queue`` and its rebuild queue, against the database
    Django uses now; its output is appended to ``var/<log_name>``. Call ``worker_ready`` before sending it work."""
    from django.db import connection

    db = connection.settings_dict
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "CELERY_EAGER": "0",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "STATS_REBUILD_QUEUE": f"{queue}-rebuild",  # the parts of a full rebuild, also this worker's alone
    }
    env.pop("PYTEST_CURRENT_TEST", None)
    (ROOT / "var").mkdir(exist_ok=True)
    with open(ROOT / "var" / log_name, "ab") as log:  # the child keeps its own copy of the descriptor
        return subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "-Q", f"{queue},{queue}-rebuild", "-c", "1",
             "--pool", "solo", "--without-gossip", "--without-mingle", "--without-heartbeat", "-l", "INFO"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip


def worker_ready(proc: subprocess.Popen[bytes], timeout: float = 60.0) -> None:
    """Wait until a worker answers a ping; RuntimeError if it exits first or stays silent (it is then killed)."""
    from config.celery import app

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"celery worker exited with {proc.returncode}")
        if app.control.ping(timeout=0.5):
            return
        time.sleep(0.5)
    proc.kill()
    raise RuntimeError(f"celery worker did not answer within {timeout:.0f} s")
