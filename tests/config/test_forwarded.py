"""Issue 49: forwarded headers are believed only from the proxy's address (``FORWARDED_ALLOW_IPS``).

Once a web host listens on a routable address, anyone who reaches its port directly could send X-Forwarded-For
and pick the address the throttles count (``TRUSTED_PROXIES=1`` reads the last hop), or X-Forwarded-Proto and claim
HTTPS. The app now drops those headers unless the connection comes from the proxy, the same list gunicorn's
``forwarded_allow_ips`` and uvicorn's ``--forwarded-allow-ips`` read.
"""

from __future__ import annotations

import os
import runpy
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.cache import cache

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
PROXY = "10.0.0.5"
DIRECT = "198.51.100.20"


@pytest.fixture(autouse=True)
def _one_proxy(settings: Any) -> Iterator[None]:
    """nginx at PROXY is the one proxy; three failed log-ins per client address; the per-minute throttles out of
    the way, so that what is counted is the sign-in limit per address."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.TRUSTED_PROXIES = 1
    settings.FORWARDED_ALLOW_IPS = [PROXY]
    settings.AUTH_LIMITS = {"login_account": 10, "login_ip": 3, "signup_ip": 20, "reset_ip": 10, "reset_email": 3}
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"auth": "100000/min", "calculator": "100000/min", "writes": "100000/min"},
    }
    cache.clear()
    yield
    cache.clear()


def _token(client: Any, n: int, **extra: str) -> int:
    body = {"username": f"nobody{n}", "password": "wrong"}
    return int(client.post("/api/v1/auth/token", body, content_type="application/json", **extra).status_code)


def test_a_made_up_forwarded_for_sent_straight_to_a_web_host_is_not_believed(client: Any) -> None:
    """A client at DIRECT posts to the web host itself with a new made-up X-Forwarded-For each time: it is still
    one client (its connection's address), blocked after three failed log-ins."""
    codes = [_token(client, i, REMOTE_ADDR=DIRECT, HTTP_X_FORWARDED_FOR=f"203.0.113.{i + 1}") for i in range(4)]
    assert codes == [400, 400, 400, 429]


def test_through_the_proxy_each_client_is_counted_by_the_address_nginx_appended(client: Any) -> None:
    """The same requests through the proxy: each last hop is another client, none of them blocked; a client that
    does reach its limit behind the proxy is blocked whatever it puts before the proxy's hop."""
    codes = [_token(client, i, REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=f"203.0.113.{i + 1}") for i in range(4)]
    assert codes == [400, 400, 400, 400]
    codes = [_token(client, i, REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=f"10.9.{i}.1, 192.0.2.9") for i in range(4)]
    assert codes == [400, 400, 400, 429]


def test_networks_and_ipv4_mapped_peers_are_matched(client: Any, settings: Any) -> None:
    """FORWARDED_ALLOW_IPS takes networks as gunicorn does; a peer seen as an IPv4-mapped IPv6 address is the
    same peer."""
    settings.FORWARDED_ALLOW_IPS = ["10.0.0.0/24"]
    codes = [_token(client, i, REMOTE_ADDR=f"::ffff:{PROXY}", HTTP_X_FORWARDED_FOR=f"203.0.113.{i}") for i in range(4)]
    assert codes == [400, 400, 400, 400]


def test_a_direct_client_cannot_claim_https(client: Any, settings: Any) -> None:
    """Behind TLS the app believes X-Forwarded-Proto (SECURE_PROXY_SSL_HEADER) only from the proxy: sent straight
    to the web host it is dropped and the plain-HTTP request is redirected."""
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.SECURE_SSL_REDIRECT = True
    direct = client.get("/ping", REMOTE_ADDR=DIRECT, HTTP_X_FORWARDED_PROTO="https")
    assert direct.status_code == 301 and direct["Location"].startswith("https://")
    assert client.get("/ping", REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_PROTO="https").status_code == 200


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"PYTEST_CURRENT_TEST", "FORWARDED_ALLOW_IPS"}}
    return {**env, **extra}


def _settings_list(**env: str) -> subprocess.CompletedProcess[str]:
    code = "import django; django.setup(); from django.conf import settings; print(settings.FORWARDED_ALLOW_IPS)"
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=_env(DJANGO_SETTINGS_MODULE="config.settings", **env),
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_gunicorn_uvicorn_and_the_app_read_the_same_list(monkeypatch: pytest.MonkeyPatch) -> None:
    """One variable, one default: gunicorn's config, the live unit's uvicorn and the settings."""
    monkeypatch.delenv("FORWARDED_ALLOW_IPS", raising=False)
    assert runpy.run_path(str(ROOT / "deploy" / "gunicorn.conf.py"))["forwarded_allow_ips"] == "127.0.0.1,::1"
    assert _settings_list().stdout.strip() == "['127.0.0.1', '::1']"
    monkeypatch.setenv("FORWARDED_ALLOW_IPS", "10.0.0.5,10.1.0.0/16")
    assert runpy.run_path(str(ROOT / "deploy" / "gunicorn.conf.py"))["forwarded_allow_ips"] == "10.0.0.5,10.1.0.0/16"
    assert _settings_list(FORWARDED_ALLOW_IPS="10.0.0.5,10.1.0.0/16").stdout.strip() == "['10.0.0.5', '10.1.0.0/16']"
    live = (ROOT / "deploy" / "systemd" / "scorekeeper-live.service").read_text()
    assert "--forwarded-allow-ips ${FORWARDED_ALLOW_IPS}" in live
    assert "Environment=FORWARDED_ALLOW_IPS=127.0.0.1,::1" in live  # the default, replaced by the env file

    bad = _settings_list(FORWARDED_ALLOW_IPS="nginx.internal")
    assert bad.returncode == 2
    assert bad.stderr.strip() == (
        "config error: FORWARDED_ALLOW_IPS: expected addresses or networks (or *), separated by commas; "
        "got 'nginx.internal'"
    )
