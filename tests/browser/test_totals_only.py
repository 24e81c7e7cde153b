"""A totals-only match at 360 px, in Hungarian: record last week's Meinz from the paper pad on the group page,
read the final scores and the "no rounds" mark on its page and in the group's match list."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from scoring.models import Match
from tests.browser.helpers import shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_final_scores_from_paper_are_recorded_and_marked(new_context: Any, group: Any, players: Any) -> None:
    page = new_context(locale="hu-HU").new_page()
    js_errors: list[str] = []
    page.on("pageerror", lambda exc: js_errors.append(str(exc)))
    last_week = timezone.localdate() - dt.timedelta(days=7)
    page.goto(f"/groups/{group.pk}/")
    page.get_by_role("link", name="Végeredmény rögzítése").click()
    page.get_by_role("link", name="Meinz", exact=True).click()

    expect(page.get_by_role("heading", name="Végeredmény: Meinz")).to_be_visible()
    page.get_by_label("A játék napja").fill(last_week.isoformat())
    page.get_by_label("Anna végeredménye").fill("41")
    page.get_by_label("Cili végeredménye").fill("28")
    page.get_by_label("Bence végeredménye").fill("35")
    # a score that is not a number is refused, naming the player
    page.get_by_label("Dani végeredménye").fill("sok")
    page.get_by_role("button", name="Mérkőzés rögzítése").click()
    expect(page.get_by_role("alert")).to_contain_text("Dani: a végeredmény")
    page.get_by_label("Dani végeredménye").fill("")
    # Cili sat second, Bence third
    page.get_by_label("Anna helye").fill("1")
    page.get_by_label("Cili helye").fill("2")
    page.get_by_label("Bence helye").fill("3")
    shot(page, "hu-totals-form")
    page.get_by_role("button", name="Mérkőzés rögzítése").click()

    expect(page.get_by_text("csak végeredmény – körök nélkül")).to_be_visible()
    rows = page.locator("table.totals tbody tr")
    expect(rows).to_have_count(3)
    expect(rows.nth(0)).to_contain_text("Anna")
    expect(rows.nth(0)).to_contain_text("41")
    expect(rows.nth(0)).to_contain_text("győztes")
    expect(rows.nth(1)).to_contain_text("Cili")
    expect(rows.nth(2)).to_contain_text("Bence")
    expect(page.get_by_role("button", name="Mentés")).to_have_count(0)  # no round entry on this page
    shot(page, "hu-totals-match")

    page.get_by_role("link", name=group.name).click()
    item = page.locator("li.match-item", has_text="Meinz")
    expect(item).to_contain_text("csak végeredmény – körök nélkül")
    assert js_errors == []

    match = Match.objects.get(group=group)
    assert (match.totals_only, match.totals, match.winners) == (True, [41, 28, 35], [0])
    assert [s.player.name for s in match.seats.order_by("number")] == ["Anna", "Cili", "Bence"]
    assert timezone.localtime(match.finished_at).date() == last_week
