"""Real-world behaviour: rounds entered without a connection are sent exactly once when it returns; a
second phone sees new rounds within 5 seconds without reloading; the rules work offline."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from scoring.models import IdempotencyKey, Round
from tests.browser.helpers import shot, tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def quick_round(page: Any, start: int, partner: int, tricks: tuple[int, int, int]) -> None:
    for name, value in (("start_player", start), ("discard", "none"), ("points_per_trick", 1), ("partner", partner)):
        tap(page, name, value)
    for seat, count in enumerate(tricks):
        tap(page, f"tricks.{seat}", count)
    page.locator("#entry-form button[type=submit]").click()


def test_five_rounds_offline_are_synced_exactly_once(new_context: Any, make_match: Any) -> None:
    match = make_match("njet", 4)
    context = new_context()
    page = context.new_page()
    page.goto(f"/matches/{match.pk}/")
    page.wait_for_function("navigator.serviceWorker && navigator.serviceWorker.controller !== null || true")
    context.set_offline(True)
    expect(page.locator("#net")).to_be_visible()
    for n in range(5):
        quick_round(page, start=n % 4, partner=(n + 1) % 4, tricks=(3, 4, 4))
        expect(page.locator("#pending li")).to_have_count(n + 1)
        expect(page.locator('#entry-form input[name="start_player"]:checked')).to_have_count(0)  # a fresh form
    expect(page.locator("#pending")).to_contain_text("waiting to be sent")
    shot(page, "offline-pending")
    assert Round.objects.filter(match=match).count() == 0

    # The first answer after the connection returns is lost on the way back (the server did store the
    # round): the browser retries with the same Idempotency-Key and the server does not store it again.
    lost: list[str] = []

    def lose_first_answer(route: Any) -> None:
        if not lost:
            lost.append(route.request.headers.get("idempotency-key", ""))
            route.fetch()
            route.abort("connectionreset")
        else:
            route.continue_()

    page.route(re.compile(r".*/matches/\d+/rounds$"), lose_first_answer)
    context.set_offline(False)
    expect(page.locator("#pending")).to_be_hidden(timeout=20_000)
    expect(page.locator("#board caption")).to_have_text("after 5 rounds", timeout=10_000)
    assert lost and lost[0]
    assert Round.objects.filter(match=match).count() == 5
    assert sorted(Round.objects.filter(match=match).values_list("number", flat=True)) == [1, 2, 3, 4, 5]
    keys = list(IdempotencyKey.objects.values_list("key", flat=True))
    assert len(keys) == 5 and len(set(keys)) == 5 and lost[0] in keys
    starts = [r.facts["start_player"] for r in Round.objects.filter(match=match).order_by("number")]
    assert starts == [0, 1, 2, 3, 0]  # in the order they were entered
    shot(page, "offline-synced")


def test_another_phone_sees_the_round_within_five_seconds(new_context: Any, make_match: Any) -> None:
    match = make_match("njet", 4)
    watcher = new_context().new_page()
    watcher.goto(f"/matches/{match.pk}/")
    expect(watcher.locator("#board caption")).to_have_text("after 0 rounds")
    scorer = new_context().new_page()
    scorer.goto(f"/matches/{match.pk}/")
    quick_round(scorer, start=1, partner=3, tricks=(3, 4, 4))
    expect(scorer.locator("#board caption")).to_have_text("after 1 round")
    expect(watcher.locator("#board caption")).to_have_text("after 1 round", timeout=5_000)
    expect(watcher.locator("#board")).to_contain_text("Next dealer: Bence")
    # the untouched form on the watching phone moved on to the next round as well
    expect(watcher.locator("#entry h2")).to_have_text("Round 2", timeout=5_000)


def test_the_rules_reference_and_app_shell_work_offline(new_context: Any) -> None:
    context = new_context(logged_in=False)
    page = context.new_page()
    page.goto("/rules/")
    page.wait_for_function("navigator.serviceWorker.ready.then(() => true)")
    page.evaluate("navigator.serviceWorker.ready")
    page.wait_for_timeout(1500)  # let the install finish caching the shell
    context.set_offline(True)
    page.goto("/rules/mue/")
    expect(page.locator("#mue-target")).to_be_attached()
    page.goto("/rules/njet/#njet-scoring")
    expect(page.locator("#njet-scoring")).to_be_attached()
    page.goto("/groups/12345/")  # not stored: the offline page, not the browser's error
    expect(page.locator("h1")).to_have_text("No connection")
    context.set_offline(False)


def test_a_phone_that_loses_its_connection_before_the_offline_copy_is_fetched_gets_it_when_back(
    page: Any, make_match: Any
) -> None:
    """The offline worker could not be fetched (the connection dropped as the page opened): no script error, and
    the worker is registered as soon as the connection returns, so the next outage finds the offline copy."""
    match = make_match("njet", 4)
    refused: list[str] = []

    def refuse_once(route: Any) -> None:
        if not refused:
            refused.append(route.request.url)
            route.abort("internetdisconnected")
        else:
            route.continue_()

    page.context.route(re.compile(r".*/sw\.js$"), refuse_once)
    page.goto(f"/matches/{match.pk}/")
    expect(page.locator("#board")).to_be_visible()
    for _ in range(100):  # the page asks for its worker once it is up (the route answers while Playwright waits)
        if refused:
            break
        page.wait_for_timeout(50)
    page.wait_for_timeout(500)  # time for a refused registration to surface as a script error
    assert len(refused) == 1
    assert page.js_errors == []  # the failed fetch is no script error
    assert page.evaluate("navigator.serviceWorker.getRegistration().then(r => r === undefined)")
    page.context.set_offline(True)
    page.context.set_offline(False)
    page.wait_for_function("navigator.serviceWorker.getRegistration().then(r => r !== undefined)", timeout=10_000)
    assert page.evaluate("navigator.serviceWorker.ready.then(r => r.scope)").endswith("/")
    assert page.js_errors == []
