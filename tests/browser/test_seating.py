"""Starting a match at 360 px: the order players are tapped is their seat order, the seating summary names
the first dealer (and start player) from the game's rules, the move buttons reorder, Start seats them so."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from scoring import services
from scoring.models import Match, Seat
from tests.browser.helpers import shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _chip(page: Page, name: str) -> Any:
    return page.locator("label.seatchip", has_text=name)


def _seats(*names: str) -> list[re.Pattern[str]]:
    """What the seating summary's rows start with: the seat number, then the name."""
    return [re.compile(rf"^\s*{n}\s+{name}\b") for n, name in enumerate(names, start=1)]


def _seat_names(match: Match) -> list[str]:
    return [s.player.name for s in Seat.objects.filter(match=match).select_related("player").order_by("number")]


@pytest.fixture
def dora(group: Any, user: Any) -> Any:
    return services.player_create(group=group, name="Dóra", user=user)


def test_seats_follow_the_tap_order(page: Page, group: Any, dora: Any) -> None:
    page.goto(f"/groups/{group.pk}/matches/new?game=meinz")
    for name in ("Dóra", "Anna", "Bence"):
        _chip(page, name).click()
    for name, seat in (("Dóra", "1"), ("Anna", "2"), ("Bence", "3")):
        expect(_chip(page, name).locator(".seatno")).to_have_text(seat)
    expect(_chip(page, "Cili").locator(".seatno")).to_have_text("")
    summary = page.locator("#seating")
    expect(summary.locator("li")).to_have_text(_seats("Dóra", "Anna", "Bence"))
    expect(summary).to_contain_text("Dóra deals first.")
    expect(summary).to_contain_text("Anna starts the first round.")  # Meinz: left of the dealer leads
    shot(page, "seating-tapped")

    # tapping a seated player again takes them off; the seats after close the gap
    _chip(page, "Anna").click()
    expect(_chip(page, "Bence").locator(".seatno")).to_have_text("2")
    expect(_chip(page, "Anna").locator(".seatno")).to_have_text("")
    expect(summary).to_contain_text("Choose 3–4 players.")  # Meinz needs a third player again
    _chip(page, "Anna").click()
    expect(_chip(page, "Anna").locator(".seatno")).to_have_text("3")

    # Dóra, Bence, Anna: move Anna up one seat, then Dóra down one seat -> Bence, Dóra, Anna... step by step
    summary.get_by_role("button", name="Move Anna one seat up").click()
    expect(_chip(page, "Anna").locator(".seatno")).to_have_text("2")
    expect(summary.locator("li")).to_have_text(_seats("Dóra", "Anna", "Bence"))
    summary.get_by_role("button", name="Move Dóra one seat down").click()
    expect(summary.locator("li")).to_have_text(_seats("Anna", "Dóra", "Bence"))
    expect(summary).to_contain_text("Anna deals first.")
    expect(summary).to_contain_text("Dóra starts the first round.")
    expect(summary.get_by_role("button", name="Move Anna one seat up")).to_be_disabled()
    box = summary.get_by_role("button", name="Move Bence one seat up").bounding_box()
    assert box is not None and box["width"] >= 44 and box["height"] >= 44
    shot(page, "seating-moved")

    page.get_by_role("button", name="Start the match").last.click()
    expect(page.locator("#board .status")).to_contain_text("Next dealer: Anna")
    match = Match.objects.get(group=group)
    assert _seat_names(match) == ["Anna", "Dóra", "Bence"]
    expect(page.locator(".seats-line")).to_contain_text("1. Anna, 2. Dóra, 3. Bence")
    assert not page.js_errors  # type: ignore[attr-defined]


def test_seating_in_hungarian(new_context: Any, group: Any, dora: Any) -> None:
    page = new_context(locale="hu-HU").new_page()
    page.goto(f"/groups/{group.pk}/matches/new?game=njet")
    for name in ("Dóra", "Anna", "Bence"):
        _chip(page, name).click()
    summary = page.locator("#seating")
    expect(summary).to_contain_text("Dóra oszt először.")
    expect(summary).to_contain_text("Az első kör kezdőjátékosát nem az ülésrend dönti el")
    summary.get_by_role("button", name="Bence: egy hellyel előrébb").click()
    expect(summary.locator("li")).to_have_text(_seats("Dóra", "Bence", "Anna"))
    shot(page, "hu-seating")
    page.get_by_role("button", name="A mérkőzés indítása").last.click()
    expect(page.locator("#board .status")).to_contain_text("Következő osztó: Dóra")
    assert _seat_names(Match.objects.get(group=group)) == ["Dóra", "Bence", "Anna"]


def test_rematch_and_the_match_lists(page: Page, group: Any, make_match: Any) -> None:
    heavy = make_match("sticheln", 4, {"variant": "heavy"})
    make_match("njet", 3, {"recording": "difference"})
    page.goto(f"/groups/{group.pk}/")
    items = page.locator("li.match-item")
    expect(items).to_have_count(2)
    expect(items.nth(0)).to_contain_text("NJET — difference recording")
    expect(items.nth(1)).to_contain_text("Sticheln — heavy")
    expect(items.nth(1)).to_contain_text("Anna, Bence, Cili, Dani")
    shot(page, "match-lists")
    items.nth(1).get_by_role("link").click()
    expect(page.locator("h1")).to_have_text("Sticheln — heavy")
    page.get_by_role("button", name="Rematch").click()
    expect(page.locator(".msgs")).to_contain_text("A rematch has started")
    again = Match.objects.exclude(pk=heavy.pk).filter(ruleset="sticheln").get()
    assert page.url.endswith(f"/matches/{again.pk}/")
    assert again.options == heavy.options
    assert _seat_names(again) == _seat_names(heavy)
    expect(page.locator(".seats-line")).to_contain_text("1. Anna, 2. Bence, 3. Cili, 4. Dani")
    shot(page, "match-header", full=False)
