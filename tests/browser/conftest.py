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

from scoring import services
from scoring.models import Player

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

NAMES = ("Anna", "Bence", "Cili", "Dani", "Emil")
PASSWORD = "correct-horse-42"


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail("Debian's Chromium is missing: apt-get install -y chromium (make test does it)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def user(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("anna", email="anna@example.com", password=PASSWORD)


@pytest.fixture
def group(user: Any) -> Any:
    group = services.group_create(name="Friday table", user=user, player_name=NAMES[0])
    for name in NAMES[1:]:
        services.player_create(group=group, name=name, user=user)
    return group


@pytest.fixture
def players(group: Any) -> list[Player]:
    by_name = {p.name: p for p in Player.objects.filter(group=group)}
    return [by_name[name] for name in NAMES]


@pytest.fixture
def make_match(group: Any, players: list[Player], user: Any) -> Any:
    def make(ruleset: str, count: int = 4, options: dict[str, Any] | None = None) -> Any:
        ids = [p.pk for p in players[:count]]
        return services.match_create(group=group, ruleset=ruleset, options=options or {}, player_ids=ids, user=user)

    return make


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


@pytest.fixture
def page(new_context: Any) -> Page:
    pg: Page = new_context().new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.js_errors = errors  # type: ignore[attr-defined]
    return pg
