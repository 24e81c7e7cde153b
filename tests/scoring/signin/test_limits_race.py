"""Issue 32, the two "high" rows, once more: the sign-in limits must hold for guesses sent in parallel.

The limits were checked before a password was and counted after it failed, so every guess that arrived while
the others were still being checked saw the counter under its limit: 60 parallel guesses against one account
were all checked (the limit is 10). Here the parallel guesses are made deterministic: an authentication
backend placed before Django's own sends the next guess from inside the password check of the previous one, so
that guess k is judged while guesses 1..k-1 are all still in flight. A refused guess checks no password, so
it sends no further guess: the chain ends at the first refusal.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import cache
from django.test import RequestFactory

from frontend.views.accounts import LoginView
from scoring.api.views.accounts import TokenView
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

IN_FLIGHT = 20  # guesses in flight at once (the account's limit is 10)


class GuessesInFlight:
    """An authentication backend that, while "checking" a password, sends the next guess (then declines, so
    that Django's ModelBackend checks the password as usual)."""

    surface = "api"
    sent = 0
    checked = 0  # passwords checked
    answers: list[int] = []

    def authenticate(self, request: Any, username: str | None = None, password: str | None = None, **kw: Any) -> None:
        cls = GuessesInFlight
        cls.checked += 1
        if cls.sent < IN_FLIGHT - 1:
            cls.sent += 1
            cls.answers.append(_guess(cls.surface, f"parallel-{cls.sent}").status_code)
        return None

    def get_user(self, user_id: Any) -> None:
        return None


def _guess(surface: str, password: str) -> Any:
    factory = RequestFactory()
    if surface == "api":
        body = {"username": "alice", "password": password}
        return TokenView.as_view()(factory.post("/api/v1/auth/token", body, content_type="application/json"))
    request = factory.post("/accounts/login/", {"username": "alice", "password": password})
    request._dont_enforce_csrf_checks = True  # type: ignore[attr-defined]
    from django.contrib.sessions.backends.db import SessionStore

    request.session = SessionStore()
    response = LoginView.as_view()(request)
    return response.render() if hasattr(response, "render") else response


@pytest.fixture(autouse=True)
def _limits(settings: Any) -> Iterator[None]:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.AUTH_LIMIT_WINDOW = 15 * 60
    settings.AUTH_LIMITS = {"login_account": 10, "login_ip": 30, "signup_ip": 20, "reset_ip": 10, "reset_email": 3}
    settings.TRUSTED_PROXIES = 0
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"auth": "100000/min", "calculator": "100000/min", "writes": "100000/min"},
    }
    settings.AUTHENTICATION_BACKENDS = [
        "tests.scoring.signin.test_limits_race.GuessesInFlight",
        "django.contrib.auth.backends.ModelBackend",
    ]
    GuessesInFlight.sent = 0
    GuessesInFlight.checked = 0
    GuessesInFlight.answers = []
    cache.clear()
    yield


@pytest.mark.parametrize("surface", ["api", "html"])
def test_parallel_guesses_get_no_more_tries_than_the_limit(surface: str) -> None:
    """Rows "HTML login" and "API auth/token": up to 20 guesses in flight at once; 10 passwords are checked
    (wrong: 400 from the API, the form again from the page) and the 11th guess is refused with 429 before its
    password is checked (before the fix all 20 were checked); then the right password is refused too."""
    UserFactory(username="alice")
    GuessesInFlight.surface = surface
    first = _guess(surface, "first-guess")
    answers = [first.status_code, *GuessesInFlight.answers]
    wrong = 400 if surface == "api" else 200
    assert GuessesInFlight.checked == 10
    assert sorted(answers) == sorted([wrong] * 10 + [429])

    GuessesInFlight.sent = IN_FLIGHT  # no more nested guesses
    assert _guess(surface, PASSWORD).status_code == 429
    assert GuessesInFlight.checked == 10


def test_right_passwords_do_not_use_up_the_address(client: Any) -> None:
    """Each attempt is counted before it is checked and given back when the password is right: 40 people
    logging in from one address (a club's Wi-Fi) are not stopped by the 30 failures the address may have."""
    GuessesInFlight.sent = IN_FLIGHT
    for i in range(40):
        UserFactory(username=f"player{i}")
        response = client.post(
            "/api/v1/auth/token", {"username": f"player{i}", "password": PASSWORD}, content_type="application/json"
        )
        assert response.status_code == 200, (i, response.content)
    # the failures still count: 30 wrong ones block the address
    codes = [
        client.post(
            "/api/v1/auth/token", {"username": f"player{i}", "password": "wrong"}, content_type="application/json"
        ).status_code
        for i in range(31)
    ]
    assert codes == [400] * 30 + [429]
