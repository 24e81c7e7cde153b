"""The phone that was offline, and the small lies the match page told (issue 42): a queued round whose number was
taken meanwhile comes back as the conflict (never a silent next round), a refusal is readable, the board is right
as soon as the connection returns, no "not sent" box shows during an ordinary online save, and the header follows
a finish that arrives by the live update."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.conf import settings as django_settings
from playwright.sync_api import expect

from scoring import services
from scoring.models import Match, Round
from tests.browser.helpers import shot
from tests.browser.test_two_phones import fill, phone, save, typed_kept

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ROUNDS = re.compile(r".*/matches/\d+/rounds$")


def offline_round(page: Any, n: int) -> None:
    """B enters round ``n`` without a connection: it is queued and the form moves on to the next round."""
    page.context.set_offline(True)
    expect(page.locator("#net")).to_be_visible()
    fill(page, start=1, partner=3, tricks=(3, 4, 3), ppt=3)
    page.get_by_role("button", name=f"Save round {n}").click()
    expect(page.locator("#pending li")).to_have_count(1)
    expect(page.locator("#entry h2")).to_have_text(f"Round {n + 1}")


def test_an_offline_phone_that_reconnects_gets_the_conflict_not_a_silent_next_round(
    new_context, live_server, make_match, bence, user
) -> None:
    match = make_match("njet", 4)
    a = phone(new_context, live_server, who=bence)
    b = phone(new_context, live_server)
    for p in (a, b):
        p.goto(f"/matches/{match.pk}/")
    offline_round(b, 1)
    fill(a, start=0, partner=2, tricks=(4, 3, 5))
    save(a)
    expect(a.locator("#board caption")).to_have_text("after 1 round")

    b.context.set_offline(False)
    panel = b.locator("#conflict")
    expect(panel).to_contain_text("Round 1 was just saved by Bence.", timeout=20_000)
    expect(panel).to_be_in_viewport()
    expect(b.locator("#entry h2")).to_have_text("Round 1")  # the queued entry, back in the form, for its round
    typed_kept(b)
    expect(b.locator("#pending")).to_be_hidden()
    assert Round.objects.filter(match=match).count() == 1

    b.get_by_role("button", name="Enter mine as round 2").click()
    expect(b.locator("#board caption")).to_have_text("after 2 rounds")
    assert sorted(Round.objects.filter(match=match).values_list("number", "entered_by_id")) == [
        (1, bence.pk),
        (2, user.pk),
    ]
    assert b.js_errors == []


def test_a_refused_queued_round_is_listed_with_its_reason_below_it(new_context, live_server, make_match, bence) -> None:
    match = make_match("njet", 4)
    a = phone(new_context, live_server, who=bence)
    b = phone(new_context, live_server)
    for p in (a, b):
        p.goto(f"/matches/{match.pk}/")
    offline_round(b, 1)
    b.locator('#entry-form input[name="start_player"][value="2"] + span').click()  # round 2 is being typed
    fill(a, start=0, partner=2, tricks=(4, 3, 5))
    save(a)
    expect(a.locator("#board caption")).to_have_text("after 1 round")

    b.context.set_offline(False)
    item = b.locator("#pending li")
    expect(item).to_contain_text("Round 1 · not saved:", timeout=20_000)
    reason = item.locator("p")
    expect(reason).to_have_text("Round 1 was just saved by Bence.")
    show, discard = item.get_by_role("button", name="Show"), item.get_by_role("button", name="Discard")
    boxes = [reason.bounding_box(), show.bounding_box(), discard.bounding_box()]
    assert all(boxes) and boxes[0]["y"] + boxes[0]["height"] <= boxes[1]["y"]  # the reason above the buttons
    for button in (show, discard):
        assert button.bounding_box()["height"] >= 44
    expect(b.locator('#entry-form input[name="start_player"][value="2"]')).to_be_checked()  # round 2 kept
    shot(b, "offline-refused-reason", full=False)

    show.click()
    expect(b.locator("#conflict")).to_contain_text("Round 1 was just saved by Bence.")
    expect(b.locator("#entry h2")).to_have_text("Round 1")
    assert Round.objects.filter(match=match).count() == 1


@pytest.mark.skipif(not django_settings.REDIS_URL, reason="the push needs REDIS_URL")
def test_after_reconnecting_the_board_shows_what_was_saved_meanwhile_at_once(
    new_context, live_server, make_match, bence, settings
) -> None:
    settings.LIVE_EVENTS_WSGI = True
    match = make_match("njet", 4)
    b = phone(new_context, live_server)
    b.context.add_init_script("window.SK_LIVE_POLL_MS = 3600000;")  # while the stream is open: no poll
    b.goto(f"/matches/{match.pk}/")
    expect(b.locator("html")).to_have_attribute("data-live", "open")
    b.context.set_offline(True)
    expect(b.locator("#net")).to_be_visible()
    # the stream this phone held went away with its connection, unnoticed: nothing more arrives on it
    settings.REDIS_URL = "redis://127.0.0.1:9/0"
    services.round_record(match=match, facts=_round(), user=bence, expected_number=1)  # another phone saves

    b.context.set_offline(False)
    expect(b.locator("#board caption")).to_have_text("after 1 round")
    expect(b.get_by_role("button", name="Save round 2")).to_be_visible()  # the untouched form follows


def _round() -> dict[str, Any]:
    """A four-player NJET round."""
    return {
        "start_player": 0,
        "teams": [0, 1, 0, 1],
        "discard": "none",
        "points_per_trick": 1,
        "tricks": [4, 3, 5, 3],
        "booty": [0, 0, 0, 0],
    }


def test_no_not_sent_box_during_an_online_save(new_context, live_server, make_match) -> None:
    match = make_match("njet", 4)
    page = phone(new_context, live_server)
    page.goto(f"/matches/{match.pk}/")
    held: list[Any] = []
    page.route(ROUNDS, lambda route: held.append(route) if route.request.method == "POST" else route.continue_())
    fill(page, start=0, partner=2, tricks=(4, 3, 5))
    save(page)
    page.wait_for_function("document.querySelector('#entry-form').dataset.sending")  # on its way, no answer yet
    assert len(held) == 1
    expect(page.locator("#pending")).to_be_hidden()
    held[0].continue_()
    expect(page.locator("#board caption")).to_have_text("after 1 round")
    expect(page.locator("#pending")).to_be_hidden()


def test_the_header_follows_a_live_finish(new_context, live_server, make_match, bence) -> None:
    match = make_match("njet", 4)
    b = phone(new_context, live_server)
    b.goto(f"/matches/{match.pk}/")
    state = b.locator(".match-head .badge")
    expect(state).to_have_text("open")
    # another phone finishes the match
    services.match_finish(match=match, expected_version=Match.objects.get(pk=match.pk).version, user=bence)
    expect(b.locator("#board")).to_contain_text("The match is over.", timeout=8_000)
    expect(state).to_have_text("finished")
    expect(b.get_by_role("link", name="This match's night")).to_be_visible()
    assert b.js_errors == []


def test_the_header_follows_a_live_finish_in_hungarian(new_context, live_server, make_match, bence) -> None:
    match = make_match("njet", 4)
    b = phone(new_context, live_server, locale="hu-HU")
    b.goto(f"/matches/{match.pk}/")
    state = b.locator(".match-head .badge")
    expect(state).to_have_text("nyitott")
    services.match_finish(match=match, expected_version=Match.objects.get(pk=match.pk).version, user=bence)
    expect(state).to_have_text("befejezett", timeout=8_000)
