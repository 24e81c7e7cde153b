"""Taps with a way back (issue 42): Rematch and Finish ask once before they act, and an empty match can be
abandoned: it stays in the group's history as abandoned and takes no rounds."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from scoring.models import Match
from tests.browser.helpers import shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_rematch_asks_once(page: Any, make_match: Any) -> None:
    match = make_match("njet", 4)
    page.goto(f"/matches/{match.pk}/")
    page.get_by_text("Rematch", exact=True).click()
    question = page.get_by_text("Start a new match of this game with the same players, seats and options?")
    expect(question).to_be_visible()
    assert Match.objects.count() == 1  # asked, nothing done yet
    shot(page, "rematch-asks", full=False)
    page.get_by_role("button", name="Start the rematch").click()
    expect(page.locator(".msgs")).to_contain_text("A rematch has started")
    assert Match.objects.count() == 2
    assert page.js_errors == []


def test_finish_asks_once(page: Any, make_match: Any) -> None:
    match = make_match("njet", 4)
    page.goto(f"/matches/{match.pk}/")
    page.get_by_text("Finish the match now", exact=True).click()
    expect(page.get_by_text("No more rounds can be entered once it is finished; it can be reopened.")).to_be_visible()
    assert Match.objects.get(pk=match.pk).state == Match.State.OPEN
    page.get_by_role("button", name="Finish the match", exact=True).click()
    expect(page.locator(".msgs")).to_contain_text("The match is finished.")
    expect(page.locator(".match-head .badge")).to_have_text("finished")
    assert Match.objects.get(pk=match.pk).state == Match.State.FINISHED


def test_an_empty_finished_match_can_be_abandoned(page: Any, make_match: Any, group: Any, user: Any) -> None:
    from scoring import services

    match = make_match("njet", 4)
    services.match_finish(match=match, expected_version=1, user=user)  # "0 rounds · finished · 8 rounds left"
    page.goto(f"/matches/{match.pk}/")
    page.get_by_text("Abandon this match", exact=True).click()
    expect(page.get_by_text("It has no rounds. It stays in the group's history as abandoned")).to_be_visible()
    page.get_by_role("button", name="Abandon the match").click()
    expect(page.locator(".msgs")).to_contain_text("The match was abandoned")
    expect(page.locator(".match-head .badge")).to_have_text("abandoned")
    expect(page.locator("#board")).to_contain_text("This match was abandoned: it counts in no statistics.")
    expect(page.locator("#entry")).to_contain_text("This match was abandoned.")
    expect(page.get_by_role("button", name="Reopen")).to_be_visible()
    assert Match.objects.get(pk=match.pk).state == Match.State.ABANDONED
    page.goto(f"/groups/{group.pk}/")
    item = page.locator("li.match-item")
    expect(item).to_contain_text("0 rounds")
    expect(item.locator(".badge")).to_have_text("abandoned")
    shot(page, "group-abandoned-match", full=False)


def test_a_match_with_rounds_offers_no_abandon(page: Any, make_match: Any, user: Any) -> None:
    from scoring import services

    match = make_match("njet", 4)
    facts = {"start_player": 0, "teams": [0, 1, 0, 1], "discard": "none", "points_per_trick": 1}
    services.round_record(match=match, facts={**facts, "tricks": [4, 3, 5, 3], "booty": [0] * 4}, user=user)
    page.goto(f"/matches/{match.pk}/")
    expect(page.get_by_text("Finish the match now", exact=True)).to_be_visible()
    expect(page.get_by_text("Abandon this match", exact=True)).to_have_count(0)
