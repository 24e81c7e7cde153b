"""Table polish: a half-filled form whose round was saved elsewhere keeps its round and its dealer; a number typed
into a stepper and saved at once is saved."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scoring.models import Round
from tests.browser.test_two_phones import fill, phone, save

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_form_whose_round_was_saved_elsewhere_keeps_its_round_and_its_dealer(
    new_context, live_server, make_match, bence
) -> None:
    """Issue 42 reversed issue 41's "the form moves on": a half-filled form is for its round, so it keeps its
    number and its round's dealer, and offers the choice instead."""
    match = make_match("njet", 4)
    a = phone(new_context, live_server, who=bence)
    b = phone(new_context, live_server)
    for p in (a, b):
        p.goto(f"/matches/{match.pk}/")
    line = b.locator("#entry-form [data-follow=dealer]")
    expect(line).to_have_text("Dealer: Anna (places the first NJET marker)")
    fill(b, start=1, partner=3, tricks=(3, 4, 3))  # typed, not saved
    fill(a, start=0, partner=2, tricks=(4, 3, 5))
    save(a)

    expect(b.get_by_role("button", name="Enter mine as round 2")).to_be_visible(timeout=8_000)
    expect(b.locator("#entry h2")).to_have_text("Round 1")
    expect(line).to_have_text("Dealer: Anna (places the first NJET marker)")
    assert b.js_errors == []
    assert Round.objects.filter(match=match).count() == 1


def test_a_number_typed_and_saved_at_once_is_saved(page, make_match) -> None:
    """Type into a stepper and tap Save straight away, no waiting for the preview: the round is saved, each time."""
    match = make_match("sticheln", 3, {"variant": "delayed"})
    page.goto(f"/matches/{match.pk}/")
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    for n in (1, 2, 3):
        save = page.get_by_role("button", name=f"Save round {n}")
        expect(save).to_be_visible()
        page.get_by_text("Full entry", exact=True).click()  # the counts entry; a saved round resets the form
        for seat, colour in enumerate(("red", "green", "none")):
            page.locator(f'#entry-form input[name="pain.{seat}"][value="{colour}"] + span').click()
        for seat, (count, total, others) in enumerate(((3, 6, 21), (2, 1, 19), (0, 0, 0))):
            page.get_by_label("Pain cards taken").nth(seat).fill(str(count))
            page.get_by_label("Their values added up").nth(seat).fill(str(total))
            if seat != 1:
                page.get_by_label("Other cards taken").nth(seat).fill(str(others))
        page.get_by_label("Other cards taken").nth(1).fill("19")  # the last thing typed (again), then Save at once
        save.click()
        expect(page.locator("#board caption")).to_have_text(f"after {n} round" + ("s" if n > 1 else ""))
    assert Round.objects.filter(match=match).count() == 3
    assert errors == []
