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
    page.get_by_text("Rematch", exact=True).click()  # it asks once
    page.get_by_role("button", name="Start the rematch").click()
    expect(page.locator(".msgs")).to_contain_text("A rematch has started")
    again = Match.objects.exclude(pk=heavy.pk).filter(ruleset="sticheln").get()
    assert page.url.endswith(f"/matches/{again.pk}/")
    assert again.options == heavy.options
    assert _seat_names(again) == _seat_names(heavy)
    expect(page.locator(".seats-line")).to_contain_text("1. Anna, 2. Bence, 3. Cili, 4. Dani")
    shot(page, "match-header", full=False)


def test_was_sticht_seats_a_start_player_and_an_unfinished_draft_names_whose_task_is_missing(
    page: Page, group: Any, dora: Any
) -> None:
    """Was sticht? has no dealer (the start player shuffles and deals): the seating names only who starts. A
    draft left half done is refused naming the player and the task, the empty selects marked, nothing stored."""
    page.goto(f"/groups/{group.pk}/matches/new?game=was-sticht")
    expect(page.get_by_text("starting with the first start player")).to_be_visible()
    for name in ("Bence", "Dóra", "Anna"):
        _chip(page, name).click()
    summary = page.locator("#seating")
    expect(summary.locator("li")).to_have_text(_seats("Bence", "Dóra", "Anna"))
    expect(summary).to_contain_text("Bence starts the first round.")
    expect(summary).not_to_contain_text("deals")
    for n, task in enumerate(("betli", "no-red", "exactly-1", "last-trick"), start=1):
        page.get_by_label(f"Task {n} of Bence").select_option(task)
    page.get_by_label("Task 1 of Dóra").select_option("most")
    page.get_by_role("button", name="Start the match").last.click()

    errors = page.get_by_role("alert")
    expect(errors).to_contain_text("The match cannot start:")
    expect(errors).to_contain_text("Dóra, task 2: choose the task card.")
    expect(errors).to_contain_text("Anna, task 4: choose the task card.")
    expect(errors).not_to_contain_text("None")
    expect(errors).not_to_contain_text("Bence")  # his four are drafted
    expect(page.get_by_label("Task 2 of Dóra")).to_have_attribute("aria-invalid", "true")
    expect(page.get_by_label("Task 1 of Dóra")).not_to_have_attribute("aria-invalid", "true")
    expect(page.get_by_label("Task 2 of Dóra")).to_be_focused()
    expect(page.get_by_label("Task 1 of Dóra")).to_have_value("most")  # what was chosen stays chosen
    expect(summary.locator("li")).to_have_text(_seats("Bence", "Dóra", "Anna"))  # and so do the seats
    assert not Match.objects.filter(group=group).exists()
    shot(page, "was-sticht-draft-missing", full=False)


def test_was_sticht_draft_errors_in_hungarian(new_context: Any, group: Any) -> None:
    page = new_context(locale="hu-HU").new_page()
    page.goto(f"/groups/{group.pk}/matches/new?game=was-sticht")
    expect(page.get_by_text("az első kezdőjátékossal kezdve")).to_be_visible()
    for name in ("Cili", "Anna", "Bence"):
        _chip(page, name).click()
    expect(page.locator("#seating")).to_contain_text("Az első kör kezdőjátékosa: Cili.")
    page.get_by_role("button", name="A mérkőzés indítása").last.click()
    expect(page.get_by_role("alert")).to_contain_text("Anna 3. feladata: válaszd ki a feladatkártyát.")
    assert not Match.objects.filter(group=group).exists()
