"""A web process loads the URLconf and the language catalogs when it starts (``config.warmup``), so that gunicorn's
forked workers inherit them instead of each importing them on its first request; and it opens no connection
doing so (a socket opened in gunicorn's master would be shared by every worker)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# In a fresh interpreter: import an entry point, then serve a first request through it, and report what that
# request still had to import, which catalogs were loaded before it and whether a connection was open.
PROBE = """
import io, json, sys
import {entry} as entry
from django.db import connections
from django.utils.translation import trans_real
loaded = sorted(trans_real._translations)
before = set(sys.modules)
connected = connections["default"].connection is not None
{serve}
imported = sorted(m for m in set(sys.modules) - before if m.split(".")[0] in
                  {{"config", "scoring", "frontend", "analytics", "rest_framework", "drf_spectacular"}})
print(json.dumps({{"loaded": loaded, "connected": connected, "status": status, "imported": imported}}))
"""

WSGI = """
out = {}
body = b"".join(entry.application(
    {"REQUEST_METHOD": "GET", "PATH_INFO": "/ping", "SERVER_NAME": "localhost", "SERVER_PORT": "80",
     "HTTP_HOST": "localhost", "wsgi.input": io.BytesIO(), "wsgi.url_scheme": "http", "wsgi.errors": sys.stderr,
     "REMOTE_ADDR": "127.0.0.1", "SERVER_PROTOCOL": "HTTP/1.1"},
    lambda s, h, e=None: out.setdefault("status", s)))
status = out["status"]
"""

ASGI = """
import asyncio
sent, asked = [], []
async def receive():
    asked.append(1)
    if len(asked) > 1:  # no disconnect while the response is on its way
        await asyncio.Event().wait()
    return {"type": "http.request", "body": b"", "more_body": False}
async def send(message):
    sent.append(message)
scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET", "scheme": "http",
         "path": "/ping", "raw_path": b"/ping", "query_string": b"", "root_path": "",
         "headers": [(b"host", b"localhost")], "client": ("127.0.0.1", 1), "server": ("localhost", 80)}
asyncio.run(entry.application(scope, receive, send))
status = str(sent[0]["status"])
"""


def _probe(entry: str, serve: str) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if k not in {"DJANGO_SETTINGS_MODULE"}}
    env.update(DEBUG="1", DJANGO_SETTINGS_MODULE="config.settings")
    done = subprocess.run(
        [sys.executable, "-c", PROBE.format(entry=entry, serve=serve)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_the_wsgi_entry_loads_the_urlconf_and_catalogs_before_the_first_request() -> None:
    found = _probe("config.wsgi", WSGI)
    assert found["status"].startswith("200"), found  # type: ignore[union-attr]
    assert {"en", "hu"} <= set(found["loaded"]), found  # type: ignore[arg-type]
    assert found["imported"] == [], "the first request still imported these: " + ", ".join(found["imported"])  # type: ignore[arg-type]
    assert found["connected"] is False, "the warm-up opened a database connection"


def test_the_asgi_entry_does_the_same() -> None:
    found = _probe("config.asgi", ASGI)
    assert found["status"] == "200", found
    assert {"en", "hu"} <= set(found["loaded"]), found  # type: ignore[arg-type]
    assert found["imported"] == [], "the first request still imported these: " + ", ".join(found["imported"])  # type: ignore[arg-type]
    assert found["connected"] is False, "the warm-up opened a database connection"


def test_gunicorn_freezes_the_masters_objects_before_each_fork() -> None:
    """The workers' collections then leave everything the master loaded alone (see deploy/gunicorn.conf.py)."""
    code = (
        "import gc, runpy; conf = runpy.run_path('deploy/gunicorn.conf.py'); "
        "before = gc.get_freeze_count(); conf['pre_fork'](None, None); print(before, gc.get_freeze_count())"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    before, after = map(int, done.stdout.split())
    assert before == 0 and after > 10_000, (before, after)
