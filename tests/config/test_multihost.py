"""Issue 49: the deployment files render for a multi-host layout from the environment alone.

Two web hosts, a live host and the proxy's address, every value from environment variables: gunicorn's bind, the
units' listen addresses and trusted proxy, and the settings of a web host pointed at a separate data host. (The
nginx site for two web hosts is rendered and run in ``test_nginx_site.py``.)
"""

from __future__ import annotations

import json
import os
import re
import runpy
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UNITS = ROOT / "deploy" / "systemd"


def _gunicorn(monkeypatch: pytest.MonkeyPatch, **env: str) -> dict[str, object]:
    for name in ("GUNICORN_BIND", "BIND_ADDRESS", "WEB_PORT", "FORWARDED_ALLOW_IPS"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(ROOT / "deploy" / "gunicorn.conf.py"))


def test_gunicorn_binds_each_web_hosts_address_and_the_units_port(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _gunicorn(monkeypatch)["bind"] == "127.0.0.1:8001"  # one machine
    web1 = _gunicorn(monkeypatch, BIND_ADDRESS="10.0.0.11", WEB_PORT="8001", FORWARDED_ALLOW_IPS="10.0.0.20")
    web2 = _gunicorn(monkeypatch, BIND_ADDRESS="10.0.0.12", WEB_PORT="8002", FORWARDED_ALLOW_IPS="10.0.0.20")
    assert (web1["bind"], web2["bind"]) == ("10.0.0.11:8001", "10.0.0.12:8002")
    assert web1["forwarded_allow_ips"] == web2["forwarded_allow_ips"] == "10.0.0.20"
    assert _gunicorn(monkeypatch, BIND_ADDRESS="fd00::11", WEB_PORT="8001")["bind"] == "[fd00::11]:8001"
    assert _gunicorn(monkeypatch, GUNICORN_BIND="0.0.0.0:9000", BIND_ADDRESS="10.0.0.11")["bind"] == "0.0.0.0:9000"


def test_the_units_take_every_address_from_the_environment() -> None:
    """The web and live units listen where BIND_ADDRESS says and trust FORWARDED_ALLOW_IPS; their loopback values
    are defaults (Environment=), which /etc/scorekeeper.env overrides (systemd reads the file after them)."""
    web = (UNITS / "scorekeeper-web@.service").read_text()
    live = (UNITS / "scorekeeper-live.service").read_text()
    assert "Environment=WEB_PORT=%i" in web and "Environment=BIND_ADDRESS=127.0.0.1" in web
    assert "GUNICORN_BIND" not in web
    start = next(line for line in live.splitlines() if line.startswith("ExecStart="))
    assert "--host ${BIND_ADDRESS} --port ${LIVE_PORT}" in start
    assert "--forwarded-allow-ips ${FORWARDED_ALLOW_IPS}" in start
    for text in (web, live):
        service = text.split("[Service]", 1)[1]
        # no address is written into a command line: only Environment= defaults carry one
        for line in service.splitlines():
            if re.search(r"\b\d+\.\d+\.\d+\.\d+\b", line):
                assert line.startswith("Environment="), line


def test_a_web_hosts_settings_come_from_its_environment(tmp_path: Path) -> None:
    """The environment of web1 in deploy/README.md's layout: the data host's PostgreSQL and Redis, the proxy's
    address, DEBUG=0. The settings take every value as it is given."""
    env = {k: v for k, v in os.environ.items() if k not in {"PYTEST_CURRENT_TEST"}}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="scores.example.org",
        CSRF_TRUSTED_ORIGINS="https://scores.example.org",
        DATABASE_URL="postgres://scorekeeper:pw@10.0.0.10:5432/scorekeeper",
        REDIS_URL="redis://:pw@10.0.0.10:6379/0",
        FORWARDED_ALLOW_IPS="10.0.0.20",
        TRUSTED_PROXIES="1",
        BIND_ADDRESS="10.0.0.11",
        STATIC_ROOT=str(tmp_path),
    )
    code = (
        "import json, django; django.setup(); from django.conf import settings as s; "
        "db = s.DATABASES['default']; "
        "print(json.dumps([db['HOST'], db['PORT'], s.CELERY_BROKER_URL, s.CACHES['default']['LOCATION'], "
        "s.FORWARDED_ALLOW_IPS, s.TRUSTED_PROXIES, s.ALLOWED_HOSTS, s.MIDDLEWARE[0]]))"
    )
    shown = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60, check=True
    )
    assert json.loads(shown.stdout) == [
        "10.0.0.10",
        5432,
        "redis://:pw@10.0.0.10:6379/0",
        "redis://:pw@10.0.0.10:6379/0",
        ["10.0.0.20"],
        1,
        ["scores.example.org"],
        "config.middleware.ForwardedHeadersMiddleware",
    ]


def test_the_nginx_site_refuses_a_value_nginx_could_not_read_and_keeps_the_old_file(tmp_path: Path) -> None:
    site = tmp_path / "scorekeeper.conf"
    site.write_text("the site in use\n")
    env = {"PATH": os.environ.get("PATH", ""), "WEB_UPSTREAMS": "10.0.0.11:8001;include /etc/passwd"}
    argv = [sys.executable, str(ROOT / "deploy" / "nginx_site.py"), str(site)]
    refused = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=30)
    assert refused.returncode == 2
    assert refused.stderr == (
        "config error: WEB_UPSTREAMS: expected host:port[,host:port...], got '10.0.0.11:8001;include /etc/passwd'\n"
    )
    assert site.read_text() == "the site in use\n"
    env["WEB_UPSTREAMS"] = "10.0.0.11:8001,10.0.0.12:8001"
    subprocess.run(argv, env=env, capture_output=True, text=True, timeout=30, check=True)
    servers = re.findall(r"^\s*server (\S+) max_fails", site.read_text(), re.M)
    assert servers == ["10.0.0.11:8001", "10.0.0.12:8001"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["scorekeeper.conf"]
