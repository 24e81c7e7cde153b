"""MÜ through the UI: an Eklat round (a tie for the most cards), then a played round."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from scoring.models import Round
from tests.browser.helpers import shot, tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def totals(page: Any) -> list[int]:
    return [int(t.replace("−", "-")) for t in page.locator("#board table.totals td.total").all_inner_texts()]


def test_mue_eklat_and_a_played_round(page: Any, make_match: Any) -> None:
    match = make_match("mue", 5)
    page.goto(f"/matches/{match.pk}/")
    expect(page.locator("#board .status")).to_contain_text("Playing to 200")
    # RULES.md's example: three players tie at 3 cards; the one who tied last scores −10 per card, the others +5.
    tap(page, "outcome", "eklat")
    expect(page.locator("#entry-form .only-played")).to_be_hidden()
    for seat in (0, 1, 2):
        tap(page, "tied", seat)
    tap(page, "last_tied", 2)
    for _ in range(3):
        page.locator('#entry-form [name="cards"] + button[data-step="1"]').click()
    expect(page.locator("#preview")).to_contain_text("−30")
    shot(page, "mue-eklat-entry")
    page.locator("#entry-form button[type=submit]").click()
    expect(page.locator("#board caption")).to_have_text("after 1 round")
    assert totals(page) == [15, 15, -30, 0, 0]
    expect(page.locator("#last-round")).to_contain_text("Eklat")
    shot(page, "mue-eklat-result")

    # A played round (RULES.md: 5 players, bid 4 → target 33; colour trump, success → 40 each for chief and
    # partner, plus everyone's triangles).
    expect(page.locator("#entry h2")).to_have_text("Round 2")
    tap(page, "chief", 3)
    # the bid starts at a typical one (no bid in this match yet: 4), so this bid takes no tap
    expect(page.get_by_label("Bid (cards the chief revealed)")).to_have_value("4")
    tap(page, "vice", 2)
    tap(page, "vice_trump", "number:9")
    tap(page, "chief_trump", "colour:green")
    tap(page, "partner", 0)
    expect(page.locator('#entry-form input[name="partner"][value="3"]')).to_be_disabled()  # not the chief
    for seat, value in enumerate((15, 10, 10, 20)):
        page.locator(f'#entry-form [name="triangles.{seat}"]').fill(str(value))
    expect(page.locator('#entry-form [name="triangles.4"]')).to_have_value("5")  # 60 − 55
    page.locator("#entry-form button[type=submit]").click()
    expect(page.locator("#board caption")).to_have_text("after 2 rounds")
    assert totals(page) == [15 + 15 + 40, 15 + 10, -30 + 10, 20 + 40, 5]
    assert Round.objects.filter(match=match).count() == 2
    shot(page, "mue-played-result")
    assert page.js_errors == []
