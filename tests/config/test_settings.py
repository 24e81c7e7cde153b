"""Configuration: bad environment gives one clear line naming the variable."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "DEBUG", "SECRET_KEY"}}
    clean.pop("PYTEST_CURRENT_TEST", None)
    clean.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)  # set by the browser tests' fixture; never in a deployment
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_unreachable_database_url_gives_one_line_naming_it():
    result = _manage("migrate", "--check", DATABASE_URL="postgres://nobody@127.0.0.1:1/nowhere")
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("config error: DATABASE_URL:")
    assert "Traceback" not in result.stderr


def test_malformed_redis_url_gives_one_line_naming_it():
    result = _manage("check", REDIS_URL="http//not-a-redis-url")
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "config error: REDIS_URL: expected redis://host:port/db, got 'http//not-a-redis-url'"
    ]


def test_unsupported_database_scheme_is_named():
    result = _manage("check", DATABASE_URL="mysql://x@y/z")
    assert result.returncode == 2
    assert result.stderr.startswith("config error: DATABASE_URL: unsupported scheme 'mysql'")


def test_production_mode_refuses_the_default_secret_key():
    result = _manage("check", DEBUG="0")
    assert result.returncode == 2
    assert result.stderr.strip().startswith("config error: SECRET_KEY:")


def test_production_mode_starts_with_a_real_secret_key():
    result = _manage("check", DEBUG="0", SECRET_KEY="x" * 50, ALLOWED_HOSTS="scores.example.org")
    assert result.returncode == 0, result.stderr


def test_the_deploy_check_prod_up_runs_passes_with_no_warning():
    """`make prod-up` refuses to start on any warning of `check --deploy` (the API schema's among them): a
    serializer that gave a match's state a second enum name once stopped the production stack from starting."""
    secret = "".join(chr(ord("a") + i % 26) + str(i % 10) for i in range(30))
    result = _manage(
        "check", "--deploy", "--fail-level", "WARNING", DEBUG="0", SECRET_KEY=secret, ALLOWED_HOSTS="localhost"
    )
    assert result.returncode == 0, result.stderr
    assert "WARNINGS" not in result.stderr


def test_no_environment_at_all_runs_on_sqlite_and_eager_celery():
    code = "from django.conf import settings as s; print(s.DATABASES['default']['ENGINE'], s.CELERY_TASK_ALWAYS_EAGER)"
    clean = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "CELERY_EAGER"}}
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "import django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'config.settings'); "
            f"django.setup(); {code}",
        ],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.stdout.split() == ["django.db.backends.sqlite3", "True"], result.stderr
