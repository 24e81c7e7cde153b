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


@pytest.fixture
def page(new_context: Any) -> Page:
    pg: Page = new_context().new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.js_errors = errors  # type: ignore[attr-defined]
    return pg
