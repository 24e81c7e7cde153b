"""What a client sees when a view fails: 503 + Retry-After for a database outage, 500 otherwise; JSON under /api/."""

from __future__ import annotations

import pytest
from django.db import OperationalError
from django.urls import path

from config.urls import handler500  # noqa: F401  (the project's handler, used through this module's URLconf)


def _db_down(request):  # type: ignore[no-untyped-def]
    raise OperationalError("connection to server at 127.0.0.1, port 5432 failed: server closed the connection")


def _bug(request):  # type: ignore[no-untyped-def]
    raise ZeroDivisionError


urlpatterns = [
    path("api/v1/down", _db_down),
    path("down", _db_down),
    path("api/v1/bug", _bug),
]


@pytest.fixture
def failing(settings, client):  # type: ignore[no-untyped-def]
    settings.ROOT_URLCONF = __name__
    settings.DEBUG = False
    client.raise_request_exception = False
    return client


def test_database_outage_is_503_with_retry_after(failing) -> None:  # type: ignore[no-untyped-def]
    api = failing.get("/api/v1/down")
    assert api.status_code == 503
    assert api["Retry-After"] == "5"
    assert api.json() == {"detail": "The database is unavailable for a moment. Nothing was saved; please try again."}
    page = failing.get("/down", HTTP_ACCEPT_LANGUAGE="hu")
    assert page.status_code == 503
    assert "Az adatbázis egy pillanatra nem érhető el." in page.content.decode()


def test_other_errors_stay_500(failing) -> None:  # type: ignore[no-untyped-def]
    response = failing.get("/api/v1/bug")
    assert response.status_code == 500
    assert "Retry-After" not in response
    assert response.json()["detail"].startswith("Something went wrong on the server.")
