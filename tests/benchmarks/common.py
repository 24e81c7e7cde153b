"""Shared by the benchmark scripts: the prod-up environment, Django against the prod database, results files.

The benchmarks run against the stack that ``make prod-up`` starts (nginx TLS on https://127.0.0.1:8443, two
gunicorn processes, Celery workers, DEBUG=0) and read its environment from ``var/prod/env``.  Each one prints
its figures and writes them to ``var/bench/<name>.json`` for the summary table of ``run_all.sh``.
"""

from __future__ import annotations

import json
import os
import secrets
import ssl
import sys
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
PROD_ENV = ROOT / "var" / "prod" / "env"
RESULTS = ROOT / "var" / "bench"
BASE_URL = os.environ.get("BENCH_URL", "https://127.0.0.1:8443")
BENCH_USER = "bench"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROME_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    "--ignore-certificate-errors",
]


def prod_env() -> None:
    """Load ``var/prod/env`` (written by ``make prod-up``) into this process's environment."""
    if not PROD_ENV.exists():
        sys.exit(f"bench: {PROD_ENV} is missing: run `make prod-up` first")
    for line in PROD_ENV.read_text().splitlines():
        line = line.strip()
        if line.startswith("export ") and "=" in line:
            name, _, value = line[len("export ") :].partition("=")
            value = value.split(" #", 1)[0]  # a comment after the value, as the shell reads it
            os.environ[name.strip()] = value.strip().strip("'\"")


def django_setup() -> None:
    """Django with the prod settings and database (setup data goes through our services)."""
    prod_env()
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def insecure_context() -> ssl.SSLContext:
    """The loopback stack uses a self-signed certificate."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


def get(path: str, *, timeout: float = 10) -> tuple[int, bytes]:
    request = urllib.request.Request(BASE_URL + path, headers={"Accept": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout, context=insecure_context()) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def require_stack() -> None:
    try:
        status, _ = get("/healthz", timeout=5)
    except OSError as exc:
        sys.exit(f"bench: {BASE_URL} does not answer ({exc}); run `make prod-up` first")
    if status != 200:
        sys.exit(f"bench: {BASE_URL}/healthz answered {status}; is the prod-up stack healthy?")


def bench_password() -> str:
    """The bench user's password, made once and kept in var/bench/ (git-ignored)."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / "password"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(24))
        path.chmod(0o600)
    return path.read_text().strip()


def bench_user() -> Any:
    """The user the benchmarks act as (created once in the prod database, password in var/bench/)."""
    from django.contrib.auth import get_user_model

    user, _ = get_user_model().objects.get_or_create(username=BENCH_USER)
    password = bench_password()
    if not user.check_password(password):
        user.set_password(password)
        user.save(update_fields=["password"])
    return user


def verdict(ok: bool) -> str:
    return "PASS" if ok else "MISS"


def save(name: str, data: dict[str, Any]) -> None:
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / f"{name}.json").write_text(json.dumps(data, indent=2, default=str))
