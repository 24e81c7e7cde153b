"""Issue 32, row "ops": with DEBUG=0 and no `collectstatic` every page answered 500 while /healthz said ok.

Now the web server's entry points (WSGI, ASGI) refuse to start with one ``config error:`` line, and /healthz
answers 503 ``{"ok": false}`` for a process serving without the manifest. The same for a manifest that is out
of date (a static file added since the last ``collectstatic``): every page naming that file answered 500 too.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _manifest(*, leave_out: str | None = None) -> dict[str, object]:
    """A manifest naming every static file the finders know (as collectstatic writes it), but ``leave_out``."""
    from config.static_manifest import uncollected

    names = [name for name in uncollected({}) if name != leave_out]
    return {"version": "1.1", "paths": {name: name for name in names}, "hash": "x"}


MANIFEST = _manifest()


def _production(static_root: Path, code: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "PYTEST_CURRENT_TEST"}}
    env = {
        **clean,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "0",
        "SECRET_KEY": "s" * 50,
        "ALLOWED_HOSTS": "scores.example.org",
        "STATIC_ROOT": str(static_root),
    }
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("entry", ["config.wsgi", "config.asgi"])
def test_production_server_refuses_to_start_without_the_static_manifest(tmp_path, entry):
    """Row "ops": DEBUG=0 without collectstatic: the server does not start, and says why in one line; with the
    manifest it starts; management commands (collectstatic itself, check) run without it."""
    result = _production(tmp_path, f"import {entry}")
    assert result.returncode == 2, result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("config error:")]
    assert len(errors) == 1, result.stderr
    assert errors[0].startswith("config error: STATIC_ROOT: production mode (DEBUG=0) needs the static manifest")
    assert str(tmp_path / "staticfiles.json") in errors[0] and "collectstatic" in errors[0]
    assert "Traceback" not in result.stderr

    check = _production(
        tmp_path, "from django.core.management import execute_from_command_line as run; run(['manage.py', 'check'])"
    )
    assert check.returncode == 0, check.stderr

    (tmp_path / "staticfiles.json").write_text(json.dumps(MANIFEST))
    started = _production(tmp_path, f"import {entry}")
    assert started.returncode == 0, started.stderr


@pytest.mark.parametrize("entry", ["config.wsgi", "config.asgi"])
def test_production_server_refuses_to_start_with_an_out_of_date_manifest(tmp_path, entry):
    """Row "ops": a manifest from before an upgrade that added a static file (htmx, on every page) made every
    page answer 500 while /healthz said ok; now the server does not start, and says why."""
    (tmp_path / "staticfiles.json").write_text(json.dumps(_manifest(leave_out="vendor/htmx/htmx.min.js")))
    result = _production(tmp_path, f"import {entry}")
    assert result.returncode == 2, result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("config error:")]
    assert len(errors) == 1 and "out of date" in errors[0] and "collectstatic" in errors[0], result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.django_db
def test_healthz_reports_an_out_of_date_static_manifest(client, settings, tmp_path):
    """Row "ops": /healthz answers 503 when a static file the pages name is missing from the manifest."""
    (tmp_path / "staticfiles.json").write_text(json.dumps(_manifest(leave_out="vendor/htmx/htmx.min.js")))
    settings.STATIC_ROOT = str(tmp_path)
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    }
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["problems"] == [
        "static manifest out of date (1 static files not collected): run `python manage.py collectstatic --noinput`"
    ]


@pytest.mark.django_db
def test_healthz_reports_a_missing_static_manifest(client, settings, tmp_path):
    """Row "ops": /healthz says ok only when pages can be rendered: 503 and the problem without the manifest."""
    settings.STATIC_ROOT = str(tmp_path)
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    }
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["ok"] is False
    assert body["problems"] == ["static manifest missing or empty: run `python manage.py collectstatic --noinput`"]
    assert str(tmp_path) not in response.content.decode()  # no server path to an anonymous caller

    (tmp_path / "staticfiles.json").write_text(json.dumps(MANIFEST))
    settings.STATIC_ROOT = str(tmp_path)  # a new process: the storage reads the manifest again
    response = client.get("/healthz")
    assert response.status_code == 200 and response.json() == {"ok": True}
