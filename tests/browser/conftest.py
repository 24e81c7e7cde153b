"""Playwright (Python) driving Debian's Chromium against pytest-django's live server.

Screenshots of the key pages at 360 px go to ``artifacts/screenshots/`` (git-ignored).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

# Playwright's sync API runs an event loop in this thread; the ORM calls the tests make are still synchronous.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail("Debian's Chromium is missing: apt-get install -y chromium (make test does it)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def _session_cookie(user: Any, base: str) -> dict[str, Any]:
    from django.test import Client

    client = Client()
    client.force_login(user)
    return {"name": "sessionid", "value": client.cookies["sessionid"].value, "url": base}


@pytest.fixture
def new_context(browser: Browser, live_server: Any, user: Any) -> Iterator[Any]:
    made: list[BrowserContext] = []

    def make(locale: str = "en-GB", logged_in: bool = True) -> BrowserContext:
        context = browser.new_context(viewport={"width": 360, "height": 740}, locale=locale, base_url=live_server.url)
        context.set_default_timeout(10_000)
        if logged_in:
            context.add_cookies([_session_cookie(user, live_server.url)])
        made.append(context)
        return context

    yield make
    for context in made:
        context.close()
    _server_settled()


def _server_settled(timeout: float = 10.0) -> None:
    """Wait until no other connection to the test database is inside a query or transaction. A closed page can
    leave a request (a poll, a save) still running in the live server's thread; the database flush that follows
    a transactional test would then lock tables in the opposite order and PostgreSQL breaks the deadlock by
    failing the flush."""
    import time

    from django.db import connection

    if connection.vendor != "postgresql":
        return
    deadline = time.monotonic() + timeout
    with connection.cursor() as cursor:
        while True:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                " AND pid <> pg_backend_pid() AND state IS NOT NULL AND state <> 'idle'"
            )
            if cursor.fetchone()[0] == 0 or time.monotonic() > deadline:
                return
            time.sleep(0.05)


@pytest.fixture
def page(new_context: Any) -> Page:
    pg: Page = new_context().new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.js_errors = errors  # type: ignore[attr-defined]
    return pg


@pytest.fixture
def bence(django_user_model: Any, group: Any, players: Any, user: Any) -> Any:
    """A second member at the table, linked to the player Bence: what the other phones call them."""
    from scoring import services
    from scoring.models import Player

    other = django_user_model.objects.create_user("bence", password="correct-horse-43")
    services.membership_add(group=group, user=other)
    services.player_link(player=Player.objects.get(group=group, name="Bence"), linked_user=other, user=user)
    return other
