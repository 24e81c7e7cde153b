"""Numbers typed while a fresh form is on its way are kept (360 px).

An untouched form is replaced by a fresh one when the board moves on (another phone saved a round, or a queued
save was sent). The bench script for issue 45 lost its first numbers that way: the fresh form was asked for while
the form was untouched and landed after the player had started typing. Once a number is typed the form stays, and
stays for its round (issue 42: a form is for its round): the next board poll turns its Save button into the
conflict panel instead of moving it on."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, Route, expect

from scoring import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_numbers_typed_while_a_fresh_form_is_on_its_way_stay(page: Page, make_match: Any, user: Any) -> None:
    match = make_match("abluxxen", 3, {"games": 3})  # round 1 must not end the match
    page.goto(f"/matches/{match.pk}/")
    expect(page.get_by_role("button", name="Save round 1")).to_be_visible()
    held: list[Route] = []
    page.route(f"**/matches/{match.pk}/entry", lambda route: held.append(route))  # the fresh form waits
    # another phone saves round 1: the board's next poll sees it and, the form being untouched, asks for a new one
    services.round_record(match=match, facts={"front": [17, 12, 9], "hand": [0, 4, 7], "end": "out"}, user=user)
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "the page did not ask for a fresh form"
    front = page.locator('#entry-form [name="front.0"]')
    front.click()
    page.keyboard.type("12")  # the player starts typing before the fresh form arrives
    held[0].continue_()
    page.wait_for_timeout(500)
    expect(front).to_have_value("012")  # the typed number stays (the field held 0)
    # the next poll finds round 1 saved: the half-typed form stays for round 1, its Save turned into the choice
    panel = page.locator("#conflict")
    expect(panel).to_contain_text(re.compile(r"Round 1 was (just )?saved"), timeout=8_000)
    expect(page.get_by_role("button", name="Save round 1")).to_be_hidden()
    expect(panel.get_by_role("button", name="Enter mine as round 2")).to_be_visible()
    expect(front).to_have_value("012")
    assert page.js_errors == []  # type: ignore[attr-defined]
