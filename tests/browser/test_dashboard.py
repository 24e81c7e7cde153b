"""The statistics dashboard on a 360 px phone: every figure drawn as a static SVG at once, an interactive Plotly
figure on request (then the others as they scroll into view), no horizontal scrolling."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from scoring import services
from tests.browser.helpers import shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_group_dashboard_on_a_phone(page: Any, group: Any, players: Any, user: Any) -> None:
    # three finished one-game Abluxxen matches (Celery runs eagerly here: the snapshots follow at once)
    for fronts, hands in (((9, 5, 3), (0, 2, 4)), ((4, 8, 6), (3, 0, 1)), ((7, 7, 2), (1, 0, 5))):
        match = services.match_create(
            group=group, ruleset="abluxxen", options={}, player_ids=[p.pk for p in players[:3]], user=user
        )
        services.round_record(match=match, facts={"front": list(fronts), "hand": list(hands), "end": "out"}, user=user)
    page.goto(f"/stats/groups/{group.pk}/")
    expect(page.locator("h1")).to_have_text("Friday table")
    expect(page.locator("body")).to_contain_text("3 matches")
    figures = page.locator(".stats-figure")
    assert figures.count() >= 2
    for i in range(figures.count()):  # drawn by the server: there before any script runs, labelled for readers
        drawing = figures.nth(i).locator("svg.stats-svg")
        expect(drawing).to_have_attribute("role", "img")
        assert drawing.get_attribute("aria-label")
        assert drawing.locator("rect, path").count() > 0
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert page.evaluate("'Plotly' in window") is False  # plotly.js is not fetched until asked for
    shot(page, "dashboard-group")
    last = figures.nth(figures.count() - 1)
    last.scroll_into_view_if_needed()
    page.locator(".stats-explore").nth(figures.count() - 1).click()
    expect(last.locator(".main-svg").first).to_be_attached(timeout=10_000)  # plotly drew it
    expect(last.locator("svg.stats-svg")).to_have_count(0)
    expect(page.locator(".stats-explore").nth(figures.count() - 1)).to_be_hidden()
    for i in range(figures.count()):  # the others follow as they come near the screen
        figures.nth(i).scroll_into_view_if_needed()
        expect(figures.nth(i).locator(".main-svg").first).to_be_attached(timeout=10_000)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shot(page, "dashboard-group-interactive")
    assert page.js_errors == []


def test_a_failed_plotly_download_leaves_the_static_figure(page: Any, group: Any, players: Any, user: Any) -> None:
    match = services.match_create(
        group=group, ruleset="abluxxen", options={}, player_ids=[p.pk for p in players[:3]], user=user
    )
    services.round_record(match=match, facts={"front": [9, 5, 3], "hand": [0, 2, 4], "end": "out"}, user=user)
    page.route("**/plotly-basic*.js", lambda route: route.abort())  # offline, say
    page.goto(f"/stats/groups/{group.pk}/")
    button = page.locator(".stats-explore").first
    button.click()
    expect(button).to_be_enabled()  # it can be tried again
    expect(button).not_to_have_attribute("aria-busy", "true")
    expect(page.locator(".stats-figure").first.locator("svg.stats-svg")).to_be_visible()
    assert page.js_errors == []
