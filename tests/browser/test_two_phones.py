"""Two phones on one match: one round is stored once. A form is for its round: when that round was saved
elsewhere (the save is refused, or the live board shows it first) the form keeps its number and what was typed,
and its Save button turns into the conflict panel, in view: who saved it, the points side by side, "discard mine"
or "enter mine as the next round". After Save the totals are in view; the number on the Save button is the
number the round gets, also after a delete."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from scoring.models import Round
from tests.browser.conftest import _session_cookie
from tests.browser.helpers import shot, tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BOARD = re.compile(r".*/matches/\d+/board$")


def phone(new_context: Any, live_server: Any, who: Any = None, locale: str = "en-GB") -> Any:
    """A phone: a browser context at 360 px (signed in as the fixture's user, or as ``who``)."""
    context = new_context(locale=locale, logged_in=who is None)
    if who is not None:
        context.add_cookies([_session_cookie(who, live_server.url)])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.js_errors = errors
    return page


class Thumb:
    """A phone's thumb resting on its Save button: it taps that spot later, whatever the page put there meanwhile;
    ``posts`` lists the rounds the phone sent from now on."""

    def __init__(self, page: Any, label: str) -> None:
        button = page.get_by_role("button", name=label)
        button.scroll_into_view_if_needed()
        box = button.bounding_box()
        assert box is not None
        self.page, self.button, self.box = page, button, box
        self.posts: list[str] = []
        page.on(
            "request", lambda r: self.posts.append(r.url) if r.method == "POST" and r.url.endswith("/rounds") else None
        )

    def tap(self) -> None:
        self.page.mouse.click(self.box["x"] + self.box["width"] / 2, self.box["y"] + self.box["height"] / 2)


def fill(page: Any, start: int, partner: int, tricks: tuple[int, int, int], ppt: int = 1) -> None:
    """A four-player NJET round, typed but not saved."""
    for name, value in (("start_player", start), ("discard", "none"), ("points_per_trick", ppt), ("partner", partner)):
        tap(page, name, value)
    for seat, count in enumerate(tricks):
        tap(page, f"tricks.{seat}", count)


def save(page: Any) -> None:
    page.locator("#entry-form button[type=submit]").click()


def typed_kept(page: Any) -> None:
    """What ``fill(page, start=1, partner=3, tricks=(3, 4, 3), ppt=3)`` typed is still in the form."""
    expect(page.locator('#entry-form input[name="start_player"][value="1"]')).to_be_checked()
    expect(page.locator('#entry-form input[name="points_per_trick"][value="3"]')).to_be_checked()
    expect(page.locator('#entry-form input[name="tricks.1"][value="4"]')).to_be_checked()


def test_two_phones_saving_the_same_round_store_it_once(new_context, live_server, make_match, bence) -> None:
    match = make_match("njet", 4)
    a = phone(new_context, live_server, who=bence)
    b = phone(new_context, live_server)
    for p in (a, b):
        p.goto(f"/matches/{match.pk}/")
        expect(p.get_by_role("button", name="Save round 1")).to_be_visible()
    b.route(BOARD, lambda route: route.abort())  # B's board poll has not seen A's save yet: a true race
    fill(a, start=0, partner=2, tricks=(4, 3, 5))
    fill(b, start=1, partner=3, tricks=(3, 4, 3), ppt=3)
    save(a)
    expect(a.locator("#board caption")).to_have_text("after 1 round")
    save(b)

    # where B's Save button was: who saved round 1, its points beside B's, and two choices
    panel = b.locator("#conflict")
    expect(panel).to_contain_text("Round 1 was just saved by Bence. Nothing was saved from this phone.")
    expect(panel).to_have_attribute("role", "alert")
    expect(panel).to_be_in_viewport()
    expect(panel.locator("table")).to_contain_text("saved by Bence")
    expect(panel.get_by_role("link", name="Discard mine")).to_be_visible()
    # B keeps what it typed, in a form still for round 1
    expect(b.locator("#entry h2")).to_have_text("Round 1")
    expect(b.get_by_role("button", name="Save round 1")).to_be_hidden()
    typed_kept(b)
    shot(b, "two-phones-round-taken")

    rounds = list(Round.objects.filter(match=match))
    assert [(r.number, r.facts["start_player"], r.entered_by_id) for r in rounds] == [(1, 0, bence.pk)]
    assert b.js_errors == [] and a.js_errors == []

    # B decides its round is the next one: it is stored as round 2 because B chose so
    b.unroute(BOARD)
    b.get_by_role("button", name="Enter mine as round 2").click()
    expect(b.locator("#board caption")).to_have_text("after 2 rounds")
    assert sorted(Round.objects.filter(match=match).values_list("number", "facts__start_player")) == [(1, 0), (2, 1)]


def test_the_late_phone_is_told_in_hungarian_too(new_context, live_server, make_match, bence) -> None:
    match = make_match("njet", 4)
    a = phone(new_context, live_server, who=bence, locale="hu-HU")
    b = phone(new_context, live_server, locale="hu-HU")
    for p in (a, b):
        p.goto(f"/matches/{match.pk}/")
    expect(b.get_by_role("button", name="1. kör mentése")).to_be_visible()
    b.route(BOARD, lambda route: route.abort())
    fill(b, start=1, partner=3, tricks=(3, 4, 3))
    fill(a, start=0, partner=2, tricks=(4, 3, 5))
    save(a)
    expect(a.get_by_role("button", name="2. kör mentése")).to_be_visible()
    save(b)
    panel = b.locator("#conflict")
    expect(panel).to_contain_text("1. kör: épp most mentette el Bence. Erről a telefonról semmi sem lett elmentve.")
    expect(b.locator("#entry h2")).to_have_text("1. kör")
    expect(panel.get_by_role("link", name="Az enyém elvetése")).to_be_visible()
    expect(panel.get_by_role("button", name="Az enyém mentése 2. körként")).to_be_visible()
    expect(panel.locator("thead")).to_contain_text("Bence mentette")
    assert Round.objects.filter(match=match).count() == 1


def test_the_late_phone_whose_live_update_came_first_stores_nothing_and_gets_the_choice(
    new_context, live_server, make_match, bence, user
) -> None:
    """Issue 42: B is scrolled down at its sticky Save button; A saves round 1; B's live update arrives, and then
    B taps where Save was. Nothing is stored, the conflict panel is in view, and only B's explicit choice enters
    its round, as round 2."""
    match = make_match("njet", 4)
    a = phone(new_context, live_server, who=bence)
    b = phone(new_context, live_server)
    for p in (a, b):
        p.goto(f"/matches/{match.pk}/")
    fill(b, start=1, partner=3, tricks=(3, 4, 3), ppt=3)  # typed, not saved
    thumb = Thumb(b, "Save round 1")
    fill(a, start=0, partner=2, tricks=(4, 3, 5))
    save(a)

    # B's board (poll or push) sees round 1: the Save button turns into the conflict panel, in view
    panel = b.locator("#conflict")
    expect(panel).to_contain_text(re.compile(r"Round 1 was (just )?saved"), timeout=8_000)
    expect(thumb.button).to_be_hidden()
    expect(panel).to_be_in_viewport()
    expect(b.locator("#entry h2")).to_have_text("Round 1")  # the form does not relabel itself
    # B's thumb comes down where Save was
    thumb.tap()
    expect(panel).to_contain_text("Round 1 was just saved by Bence.")  # the server's panel: who, and the points
    expect(panel.locator("table")).to_contain_text("typed here")
    expect(panel).to_be_in_viewport()
    typed_kept(b)
    assert thumb.posts == [] and Round.objects.filter(match=match).count() == 1
    shot(b, "two-phones-late-phone-choice", full=False)

    b.get_by_role("button", name="Enter mine as round 2").click()
    expect(b.locator("#board caption")).to_have_text("after 2 rounds")
    assert sorted(Round.objects.filter(match=match).values_list("number", "entered_by_id")) == [
        (1, bence.pk),
        (2, user.pk),
    ]
    assert Round.objects.get(match=match, number=2).facts["start_player"] == 1
    assert b.js_errors == []


def test_discard_mine_gives_a_fresh_form_for_the_next_round(new_context, live_server, make_match, bence) -> None:
    match = make_match("njet", 4)
    a = phone(new_context, live_server, who=bence)
    b = phone(new_context, live_server)
    for p in (a, b):
        p.goto(f"/matches/{match.pk}/")
    fill(b, start=1, partner=3, tricks=(3, 4, 3), ppt=3)
    fill(a, start=0, partner=2, tricks=(4, 3, 5))
    save(a)
    panel = b.locator("#conflict")
    expect(panel).to_contain_text("Round 1 was just saved by Bence.", timeout=8_000)
    panel.get_by_role("link", name="Discard mine").click()
    expect(b.locator("#entry h2")).to_have_text("Round 2")
    expect(b.get_by_role("button", name="Save round 2")).to_be_visible()
    expect(b.locator('#entry-form input[name="start_player"]:checked')).to_have_count(0)
    expect(b.locator("#conflict")).to_have_count(0)
    assert Round.objects.filter(match=match).count() == 1
    assert b.js_errors == []


def test_after_save_the_new_totals_and_points_and_why_are_in_view(new_context, live_server, make_match) -> None:
    match = make_match("njet", 4)
    page = phone(new_context, live_server)
    page.goto(f"/matches/{match.pk}/")
    fill(page, start=0, partner=2, tricks=(4, 3, 5))
    save_button = page.get_by_role("button", name="Save round 1")
    save_button.scroll_into_view_if_needed()
    save_button.click()

    totals = page.locator("#totals")
    expect(page.locator("#board caption")).to_have_text("after 1 round")
    anna = Round.objects.get(match=match, number=1).points[0]
    expect(totals.locator("tr", has_text="Anna").locator("td.total")).to_have_text(str(anna))
    expect(totals).to_be_in_viewport()
    expect(totals).to_be_focused()
    expect(page.locator("#last-round")).to_have_attribute("open", "")
    expect(page.locator("#last-round summary")).to_be_in_viewport()
    box, height = totals.bounding_box(), page.viewport_size["height"]
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height, box
    # the next round's form follows below
    expect(page.get_by_role("button", name="Save round 2")).to_be_attached()
    shot(page, "after-save-totals", full=False)


def test_delete_the_last_round_then_enter_one_keeps_the_number_the_form_showed(
    new_context, live_server, make_match
) -> None:
    match = make_match("njet", 4)
    page = phone(new_context, live_server)
    page.goto(f"/matches/{match.pk}/")
    for n, start in ((1, 0), (2, 1)):
        fill(page, start=start, partner=(start + 2) % 4, tricks=(4, 3, 5))
        save(page)
        expect(page.get_by_role("button", name=f"Save round {n + 1}")).to_be_visible()

    # Edit and Delete are one tap away on each round, without opening anything
    delete = page.get_by_role("button", name="Delete round 2")
    expect(delete).to_be_visible()
    expect(page.get_by_role("link", name="Edit round 2")).to_be_visible()
    size = delete.bounding_box()
    assert size is not None and size["width"] >= 44 and size["height"] >= 44, size
    delete.click()
    expect(page.locator("#board caption")).to_have_text("after 1 round")

    button = page.get_by_role("button", name="Save round 2")
    expect(button).to_be_visible()
    expect(page.locator("#entry h2")).to_have_text("Round 2")
    fill(page, start=1, partner=3, tricks=(3, 4, 3))
    button.click()
    expect(page.locator("#board caption")).to_have_text("after 2 rounds")
    expect(page.locator("#last-round summary")).to_have_text("Round 2: points and why")
    expect(page.locator("#rounds tbody tr")).to_have_count(2)
    expect(page.locator("#rounds tbody tr").first.locator("td").first).to_have_text("2")
    live = Round.objects.filter(match=match, deleted_at__isnull=True).order_by("number")
    assert list(live.values_list("number", "facts__start_player")) == [(1, 0), (2, 1)]
    assert page.js_errors == []


def test_a_deleted_middle_round_is_shown_in_its_place_and_can_be_restored(new_context, live_server, make_match) -> None:
    match = make_match("njet", 4)
    page = phone(new_context, live_server)
    page.goto(f"/matches/{match.pk}/")
    for start in (0, 1, 2):
        fill(page, start=start, partner=(start + 2) % 4, tricks=(4, 3, 5))
        save(page)
        expect(page.get_by_role("button", name=f"Save round {start + 2}")).to_be_visible()
    expect(page.locator("#board caption")).to_have_text("after 3 rounds")
    page.get_by_role("button", name="Delete round 2").click()

    cards = page.locator("#rounds .card")
    expect(cards).to_have_count(3)
    expect(cards.nth(1)).to_contain_text("Round 2 (deleted)")
    expect(page.locator("#rounds tbody tr").nth(1)).to_contain_text("deleted")
    expect(page.get_by_role("button", name="Save round 4")).to_be_visible()
    page.locator("#rounds").scroll_into_view_if_needed()
    shot(page, "rounds-table-gap", full=False)
    page.get_by_role("button", name="Restore round 2").click()
    expect(page.locator("#board caption")).to_have_text("after 3 rounds")
    assert Round.objects.filter(match=match, deleted_at__isnull=True).count() == 3


def test_rounds_entered_offline_take_the_numbers_their_buttons_showed(new_context, live_server, make_match) -> None:
    match = make_match("njet", 4)
    page = phone(new_context, live_server)
    page.goto(f"/matches/{match.pk}/")
    expect(page.get_by_role("button", name="Save round 1")).to_be_visible()
    page.context.set_offline(True)
    expect(page.locator("#net")).to_be_visible()
    for n, start in ((1, 0), (2, 1)):
        fill(page, start=start, partner=(start + 2) % 4, tricks=(4, 3, 5))
        page.get_by_role("button", name=f"Save round {n}").click()
        expect(page.locator("#pending li")).to_have_count(n)
        # the queued entry is round n: the fresh form is for the round after it
        expect(page.locator("#entry h2")).to_have_text(f"Round {n + 1}")
        expect(page.get_by_role("button", name=f"Save round {n + 1}")).to_be_visible()
    page.context.set_offline(False)
    expect(page.locator("#pending")).to_be_hidden(timeout=20_000)
    expect(page.locator("#board caption")).to_have_text("after 2 rounds", timeout=10_000)
    expect(page.get_by_role("button", name="Save round 3")).to_be_visible()
    assert list(Round.objects.filter(match=match).order_by("number").values_list("number", "facts__start_player")) == [
        (1, 0),
        (2, 1),
    ]
