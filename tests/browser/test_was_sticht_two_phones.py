"""Was sticht?'s quick entry on two phones at one table, in Hungarian at 360 px: both tap the task cards returned,
one saves; the other phone, whose live update arrived first, stores nothing when its thumb taps Save and gets the
choice; a card a player gave back in round 1 is no longer offered in round 2; cards tapped 50 ms apart all count."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from scoring.models import Round
from tests.browser.test_two_phones import Thumb, phone
from tests.browser.test_was_sticht_quick import TASKS, _returned

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_late_phone_in_hungarian_stores_nothing_and_round_two_offers_only_held_cards(
    new_context, live_server, make_match, bence
) -> None:
    match = make_match("was-sticht", 4, options={"tasks": TASKS})
    a = phone(new_context, live_server, who=bence, locale="hu-HU")
    b = phone(new_context, live_server, locale="hu-HU")
    for p in (a, b):
        p.goto(f"/matches/{match.pk}/")
        expect(p.get_by_role("button", name="1. kör mentése")).to_be_visible()

    _returned(b, "Cili", "pontosan 3 ütés")  # B's table: Cili returned hers, not yet saved
    thumb = Thumb(b, "1. kör mentése")

    # A taps two cards 50 ms apart and saves: both count
    _returned(a, "Bence", "pontosan 2 ütés")
    a.wait_for_timeout(50)
    _returned(a, "Dani", "a legkevesebb ütés")
    a.get_by_role("button", name="1. kör mentése").click()
    expect(a.get_by_role("button", name="2. kör mentése")).to_be_visible()
    stored = Round.objects.get(match=match, number=1)
    assert stored.facts["returned"] == [None, "exactly-2", None, "fewest"]
    assert stored.entered_by_id == bence.pk

    # B's live update arrives first: its Save turns into the panel; then B's thumb taps where Save was
    panel = b.locator("#conflict")
    expect(panel).to_contain_text(re.compile(r"1\. kör: (épp most )?mentette el Bence"), timeout=8_000)
    expect(b.locator("#entry h2")).to_have_text("1. kör")  # the form stays for its round
    thumb.tap()
    expect(panel).to_contain_text("Erről a telefonról semmi sem lett elmentve.")
    expect(panel.get_by_role("link", name="Az enyém elvetése")).to_be_visible()
    assert thumb.posts == [] and Round.objects.filter(match=match).count() == 1

    # B discards its copy: round 2's form, quick entry, Bence's returned card no longer among his chips
    panel.get_by_role("link", name="Az enyém elvetése").click()
    expect(b.get_by_role("button", name="2. kör mentése")).to_be_visible()
    bence_row = b.get_by_role("radiogroup", name="Bence", exact=True)
    expect(bence_row.get_by_text("pontosan 2 ütés", exact=True)).to_have_count(0)
    expect(bence_row.get_by_text("az utolsó ütés", exact=True)).to_be_visible()
    expect(
        b.get_by_role("radiogroup", name="Dani", exact=True).get_by_text("a legkevesebb ütés", exact=True)
    ).to_have_count(0)
    assert a.js_errors == [] and b.js_errors == []
