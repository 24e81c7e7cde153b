"""Live in under a second: a round saved on one phone reaches the other phone's board by a push (server-sent
events on Redis pub/sub), without a reload; when no stream can be held the page keeps its 3-second poll."""

from __future__ import annotations

import pytest
from django.conf import settings as django_settings
from playwright.sync_api import expect

from tests.browser.test_two_phones import fill, phone, save

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not django_settings.REDIS_URL, reason="the push needs REDIS_URL"),
]


NO_POLL = "window.SK_LIVE_POLL_MS = 3600000;"  # while the stream is open, no poll for an hour: only the push


def test_a_saved_round_reaches_the_other_phone_by_push(new_context, live_server, make_match, bence, settings) -> None:
    settings.LIVE_EVENTS_WSGI = True  # the live server is WSGI: let it hold the two streams
    match = make_match("njet", 4)
    a = phone(new_context, live_server, who=bence)
    b = phone(new_context, live_server)
    b.context.add_init_script(NO_POLL)
    for p in (a, b):
        p.goto(f"/matches/{match.pk}/")
        expect(p.locator("html")).to_have_attribute("data-live", "open")
    expect(b.locator("html")).to_have_attribute("data-live-events", "1")  # the version when connected
    b.evaluate("window.notReloaded = true")
    polls: list[str] = []
    b.on("request", lambda r: polls.append(r.url) if r.url.endswith("/board") else None)

    fill(a, start=0, partner=2, tricks=(4, 3, 5))
    save(a)
    expect(a.locator("#board caption")).to_have_text("after 1 round")

    expect(b.locator("#board caption")).to_have_text("after 1 round")
    expect(b.locator("html")).to_have_attribute("data-live-events", "2")
    assert b.evaluate("window.notReloaded") is True
    assert len(polls) == 1  # one board request, the one the event asked for
    assert a.js_errors == [] and b.js_errors == []
    for p in (a, b):
        p.context.close()


def test_without_a_stream_the_board_still_follows_by_polling(
    new_context,
    live_server,
    make_match,
    bence,
    settings,
) -> None:
    settings.LIVE_EVENTS_WSGI = False  # as under gunicorn: the events view answers 204
    match = make_match("njet", 4)
    a = phone(new_context, live_server, who=bence)
    b = phone(new_context, live_server)
    for p in (a, b):
        p.goto(f"/matches/{match.pk}/")
    expect(b.locator("html")).to_have_attribute("data-live", "off")
    b.evaluate("window.notReloaded = true")
    fill(a, start=0, partner=2, tricks=(4, 3, 5))
    save(a)
    expect(b.locator("#board caption")).to_have_text("after 1 round", timeout=10_000)
    assert b.evaluate("window.notReloaded") is True
    assert b.locator("html").get_attribute("data-live-events") == "0"
