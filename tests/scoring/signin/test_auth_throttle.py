"""Issue 32, the two "high" rows: sign-in throttles that count what an attacker cannot change.

Row "HTML login /accounts/login/": 60 wrong passwords for one user, then the right one logged in; sign-up and
password reset had no throttle. Row "API auth/token, auth/signup": the limit was keyed on a client-supplied
X-Forwarded-For, so rotating that header gave unlimited guesses and sign-ups.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.cache import cache
from rest_framework.authtoken.models import Token

from scoring.signin.limits import client_ip
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

LOCKED_EN = "Too many attempts. Try again in 15 minutes."
LOCKED_HU = "Túl sok próbálkozás. Próbáld újra 15 perc múlva."


@pytest.fixture(autouse=True)
def _fresh_counters(settings: Any) -> Iterator[None]:
    """Counters live in the cache: none at the start; the defaults of config/settings.py; fast password hashing;
    the per-minute request throttle out of the way, so that what is measured is the sign-in limits."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.AUTH_LIMIT_WINDOW = 15 * 60
    settings.AUTH_LIMITS = {"login_account": 10, "login_ip": 30, "signup_ip": 20, "reset_ip": 10, "reset_email": 3}
    settings.TRUSTED_PROXIES = 0
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"auth": "100000/min", "calculator": "100000/min", "writes": "100000/min"},
    }
    cache.clear()
    yield


def _login_page(client: Any, username: str, password: str, **extra: str) -> Any:
    return client.post("/accounts/login/", {"username": username, "password": password}, **extra)


def _token(client: Any, username: str, password: str, **extra: str) -> Any:
    body = {"username": username, "password": password}
    return client.post("/api/v1/auth/token", body, content_type="application/json", **extra)


def _signup(client: Any, username: str, **extra: str) -> Any:
    body = {"username": username, "password": "a-long-table-password-42"}
    return client.post("/api/v1/auth/signup", body, content_type="application/json", **extra)


def _logged_in(client: Any) -> bool:
    return "_auth_user_id" in client.session


# --- HTML log-in ------------------------------------------------------------------------------------------------


def test_html_login_sixty_wrong_passwords_then_the_right_one_is_refused_with_the_page(client):
    """Row "HTML login": 60 wrong passwords for one user, then the right one, no longer logs in; the page
    answers 429, says how long to wait and keeps the username typed."""
    UserFactory(username="alice")
    codes = [_login_page(client, "alice", f"guess-{i}").status_code for i in range(60)]
    assert codes == [200] * 10 + [429] * 50

    response = _login_page(client, "alice", PASSWORD)
    assert response.status_code == 429
    text = response.content.decode()
    assert LOCKED_EN in text
    assert 'value="alice"' in text  # the form is kept
    assert not _logged_in(client)


def test_html_login_lock_holds_whatever_the_address_and_spelling_and_speaks_hungarian(client):
    """Row "HTML login": the account's counter does not care which address (REMOTE_ADDR) the guesses come from,
    nor how the username is spelled (case, full-width letters); the refusal is in Hungarian for a Hungarian
    phone."""
    UserFactory(username="alice")
    spellings = ["alice", "ALICE", "Alice", "ａｌｉｃｅ"]
    for i in range(10):
        _login_page(client, spellings[i % 4], "wrong", REMOTE_ADDR=f"192.0.2.{i + 1}")
    response = _login_page(client, "alice", PASSWORD, REMOTE_ADDR="198.51.100.1", HTTP_ACCEPT_LANGUAGE="hu")
    assert response.status_code == 429
    assert LOCKED_HU in response.content.decode()
    assert not _logged_in(client)


def test_a_successful_login_clears_the_accounts_counter(client):
    """Row "HTML login": nine wrong passwords and the right one logs in and starts the count again: ten more
    wrong ones are needed for the lock."""
    UserFactory(username="alice")
    for _ in range(9):
        assert _login_page(client, "alice", "wrong").status_code == 200
    assert _login_page(client, "alice", PASSWORD).status_code == 302
    client.post("/accounts/logout/")
    codes = [_login_page(client, "alice", "wrong").status_code for _ in range(11)]
    assert codes == [200] * 10 + [429]


def test_html_login_failures_per_address_block_that_address_for_every_account(client):
    """Row "HTML login": spraying one password over many accounts is limited per client address (30)."""
    UserFactory(username="alice")
    codes = [_login_page(client, f"nobody{i}", "wrong").status_code for i in range(31)]
    assert codes == [200] * 30 + [429]
    assert _login_page(client, "alice", PASSWORD).status_code == 429
    assert not _logged_in(client)
    # another address is not blocked
    assert _login_page(client, "alice", PASSWORD, REMOTE_ADDR="198.51.100.1").status_code == 302


# --- API token: the address comes from the connection or from the trusted proxies -----------------------------


def test_api_token_rotating_x_forwarded_for_does_not_help_without_trusted_proxies(client):
    """Row "API auth/token": with TRUSTED_PROXIES=0 X-Forwarded-For is ignored: 60 guesses over many accounts,
    each with a new forged header, are counted on the one connection address; the 429 is JSON with
    Retry-After."""
    alice = UserFactory(username="alice")
    codes = [_token(client, f"nobody{i}", "wrong", HTTP_X_FORWARDED_FOR=f"10.0.{i}.1").status_code for i in range(60)]
    assert codes == [400] * 30 + [429] * 30
    response = _token(client, "alice", PASSWORD, HTTP_X_FORWARDED_FOR="10.9.9.9")
    assert response.status_code == 429
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"detail": LOCKED_EN}
    assert 840 < int(response["Retry-After"]) <= 900
    assert not Token.objects.filter(user=alice).exists()


def test_api_token_sixty_wrong_then_right_is_refused_whatever_the_address(client):
    """Row "API auth/token": 60 wrong passwords for one account from 60 addresses, then the right one: 429."""
    alice = UserFactory(username="alice")
    for i in range(60):
        _token(client, "alice", "wrong", REMOTE_ADDR=f"192.0.2.{i + 1}")
    response = _token(client, "alice", PASSWORD, REMOTE_ADDR="198.51.100.7")
    assert response.status_code == 429 and response.json() == {"detail": LOCKED_EN}
    assert not Token.objects.filter(user=alice).exists()


def test_api_token_behind_one_trusted_proxy_counts_the_last_hop_not_the_forged_first_one(client, settings):
    """Row "API auth/token": behind nginx (TRUSTED_PROXIES=1) the client address is the last hop, the one nginx
    appended; the client-supplied addresses before it change every time and do not help."""
    settings.TRUSTED_PROXIES = 1
    UserFactory(username="alice")
    codes = [
        _token(client, f"nobody{i}", "wrong", HTTP_X_FORWARDED_FOR=f"10.0.{i}.1, 203.0.113.7").status_code
        for i in range(31)
    ]
    assert codes == [400] * 30 + [429]
    forged = "203.0.113.99, 203.0.113.7"  # even the proxy's address of another client put first
    assert _token(client, "alice", PASSWORD, HTTP_X_FORWARDED_FOR=forged).status_code == 429
    # a different client behind the same proxy (another last hop) is not blocked
    assert _token(client, "alice", PASSWORD, HTTP_X_FORWARDED_FOR="203.0.113.7, 203.0.113.8").status_code == 200


def test_the_per_minute_auth_throttle_ignores_a_rotating_forwarded_header(client, settings):
    """Row "API auth/token": DRF's request throttle on auth/token used the whole X-Forwarded-For as the key; now
    the connection address (TRUSTED_PROXIES=0), and its 429 speaks like the sign-in limits."""
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"auth": "3/min", "calculator": "100/min", "writes": "100/min"},
    }
    codes = [_token(client, "x", "y", HTTP_X_FORWARDED_FOR=f"10.1.{i}.1").status_code for i in range(4)]
    assert codes == [400, 400, 400, 429]
    response = _token(client, "x", "y", HTTP_X_FORWARDED_FOR="10.2.0.1")
    assert response.status_code == 429
    assert response.json()["detail"].startswith("Too many attempts. Try again in 1 minute")
    assert int(response["Retry-After"]) >= 1


# --- sign-up ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("proxies", [0, 1])
def test_api_signup_rotating_x_forwarded_for_does_not_help(client, settings, proxies):
    """Row "API auth/signup": 25 sign-ups, each with a new forged X-Forwarded-For, create 20 accounts (the limit
    per address), with TRUSTED_PROXIES=0 and behind one trusted proxy."""
    settings.TRUSTED_PROXIES = proxies
    codes = [
        _signup(client, f"player{i}", HTTP_X_FORWARDED_FOR=f"10.3.{i}.1, 203.0.113.7").status_code for i in range(25)
    ]
    assert codes == [201] * 20 + [429] * 5
    assert get_user_model().objects.filter(username__startswith="player").count() == 20
    refused = _signup(client, "latecomer", HTTP_X_FORWARDED_FOR="10.4.0.1, 203.0.113.7")
    assert refused.status_code == 429 and refused.json() == {"detail": LOCKED_EN}
    assert not get_user_model().objects.filter(username="latecomer").exists()


def test_html_signup_is_limited_per_address_with_the_form_kept(client, settings):
    """Row "HTML login" (sign-up has no throttle either): the page refuses with 429, the form kept."""
    settings.AUTH_LIMITS = {**settings.AUTH_LIMITS, "signup_ip": 3}
    for i in range(3):
        body = {"username": f"p{i}", "password1": "a-long-table-password-42", "password2": "a-long-table-password-42"}
        assert client.post("/accounts/signup/", body).status_code == 302
        client.post("/accounts/logout/")
    body = {"username": "vera", "password1": "a-long-table-password-42", "password2": "a-long-table-password-42"}
    response = client.post("/accounts/signup/", body, HTTP_ACCEPT_LANGUAGE="hu")
    assert response.status_code == 429
    text = response.content.decode()
    assert LOCKED_HU in text and 'value="vera"' in text
    assert not get_user_model().objects.filter(username="vera").exists()
    assert not _logged_in(client)


# --- password reset ---------------------------------------------------------------------------------------------


def test_password_reset_is_limited_per_email_address_whatever_the_client_address(client):
    """Row "HTML login" (password reset has no throttle either): three mails per address and window, even
    from a new client address each time."""
    UserFactory(username="alice", email="alice@example.org")
    codes = [
        client.post("/accounts/password_reset/", {"email": "Alice@Example.org"}, REMOTE_ADDR=f"192.0.2.{i}").status_code
        for i in range(1, 6)
    ]
    assert codes == [302, 302, 302, 429, 429]
    assert len(mail.outbox) == 3


def test_password_reset_is_limited_per_client_address(client):
    """Row "HTML login": ten requests per client address, whatever e-mail addresses they name; the page keeps
    what was typed."""
    codes = [client.post("/accounts/password_reset/", {"email": f"n{i}@example.org"}).status_code for i in range(11)]
    assert codes == [302] * 10 + [429]
    response = client.post("/accounts/password_reset/", {"email": "late@example.org"})
    assert response.status_code == 429
    text = response.content.decode()
    assert LOCKED_EN in text and 'value="late@example.org"' in text


# --- the cache down, and the address itself ---------------------------------------------------------------------


def test_with_the_cache_unreachable_log_ins_are_let_through(client, settings):
    """Row "HTML login", behaviour kept on purpose (a guard, so it passed before the limits too): Redis down must
    not lock everybody out; the limits let attempts through (deploy/README.md, "Several machines")."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens on port 1
            "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
        }
    }
    UserFactory(username="alice")
    assert _login_page(client, "alice", "wrong").status_code == 200
    assert _login_page(client, "alice", PASSWORD).status_code == 302
    assert _token(client, "alice", PASSWORD).status_code == 200


def test_client_ip_reads_only_the_trusted_hops(rf, settings):
    """Row "API auth/token": the address is the connection's unless TRUSTED_PROXIES says how many hops to
    believe; a hop that is not an address falls back to the connection's."""
    request = rf.get("/", HTTP_X_FORWARDED_FOR="1.1.1.1, 2.2.2.2, 3.3.3.3", REMOTE_ADDR="127.0.0.1")
    settings.TRUSTED_PROXIES = 0
    assert client_ip(request) == "127.0.0.1"
    settings.TRUSTED_PROXIES = 1
    assert client_ip(request) == "3.3.3.3"
    settings.TRUSTED_PROXIES = 2
    assert client_ip(request) == "2.2.2.2"
    settings.TRUSTED_PROXIES = 9
    assert client_ip(request) == "1.1.1.1"
    settings.TRUSTED_PROXIES = 1
    assert client_ip(rf.get("/", HTTP_X_FORWARDED_FOR="not-an-address", REMOTE_ADDR="127.0.0.1")) == "127.0.0.1"
    assert client_ip(rf.get("/", REMOTE_ADDR="127.0.0.1")) == "127.0.0.1"


def test_ipv6_clients_are_counted_by_their_64_network(client):
    """Row "API auth/token": a client with an IPv6 address owns its whole /64; a new address in it for every
    guess does not make a new client."""
    codes = [
        _token(client, f"nobody{i}", "wrong", REMOTE_ADDR=f"2001:db8:1:2::{i + 1:x}").status_code for i in range(31)
    ]
    assert codes == [400] * 30 + [429]
    assert _token(client, "nobody", "wrong", REMOTE_ADDR="2001:db8:1:3::1").status_code == 400  # another /64


def test_the_admin_login_page_shares_the_counters(client):
    """Row "HTML login": /admin/login/ is a log-in page too: failures on the app's page lock a staff account
    there, and the right password is refused with the admin's own form kept."""
    UserFactory(username="root", is_staff=True, is_superuser=True)
    for _ in range(10):
        assert _login_page(client, "root", "wrong").status_code == 200
    response = client.post("/admin/login/", {"username": "root", "password": PASSWORD, "next": "/admin/"})
    assert response.status_code == 429
    assert LOCKED_EN in response.content.decode() and 'value="root"' in response.content.decode()
    assert not _logged_in(client)
    assert client.get("/admin/").status_code == 302  # still sent to log in


def test_the_admin_login_page_counts_its_own_failures_and_still_logs_staff_in(client):
    """Row "HTML login": ten wrong passwords on /admin/login/ lock the account on the app's page as well; before
    that, the right one logs a staff member into the admin."""
    UserFactory(username="root", is_staff=True, is_superuser=True)
    response = client.post("/admin/login/", {"username": "root", "password": PASSWORD, "next": "/admin/"})
    assert response.status_code == 302 and _logged_in(client)
    client.post("/admin/logout/")
    codes = [client.post("/admin/login/", {"username": "root", "password": "x"}).status_code for _ in range(11)]
    assert codes == [200] * 10 + [429]
    assert _login_page(client, "root", PASSWORD).status_code == 429


def test_the_deployment_says_how_many_proxies_stand_in_front():
    """Row "API auth/token" (the nginx site appends to the header, so the deployed stack was open too): the
    production environment and `make prod-up` trust exactly the one nginx, which appends the address it was
    connected from; a negative count stops the settings with one line."""
    root = Path(__file__).resolve().parents[3]
    assert "\nTRUSTED_PROXIES=1\n" in (root / "deploy" / "production.env.example").read_text()
    assert "export TRUSTED_PROXIES=1" in (root / "deploy" / "prod_up.sh").read_text()
    assert "X-Forwarded-For $proxy_add_x_forwarded_for" in (root / "deploy" / "nginx" / "scorekeeper.conf").read_text()
    assert "\nTRUSTED_PROXIES=0\n" in (root / ".env.example").read_text()
    assert "| `TRUSTED_PROXIES` | `0` |" in (root / "deploy" / "README.md").read_text()  # the configuration table

    env = {k: v for k, v in os.environ.items() if k not in {"PYTEST_CURRENT_TEST"}}
    code = "import django, os; os.environ['DJANGO_SETTINGS_MODULE'] = 'config.settings'; django.setup()"
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=root,
        env={**env, "TRUSTED_PROXIES": "-1"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert result.stderr.strip() == "config error: TRUSTED_PROXIES: expected 0 or more proxies, got -1"
