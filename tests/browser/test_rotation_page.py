"""Rotation follows the table, on the page at 360 px (issue 42): NJET at three, round 1 of 4 deleted on the phone,
the board and the form name round 4's left neighbour as the next dealer, in English and in Hungarian."""

from __future__ import annotations

from random import Random
from typing import Any

import pytest
from playwright.sync_api import expect

from analytics import synthetic
from scoring import services
from tests.browser.helpers import shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize(
    ("locale", "delete", "board", "form"),
    [
        ("en-GB", "Delete round 1", "Next dealer: Bence", "Dealer: Bence (places the first NJET marker)"),
        ("hu-HU", "Törlés: 1. kör", "Következő osztó: Bence", "Osztó: Bence (ő rakja le az első korongot)"),
    ],
)
def test_delete_round_one_of_four_then_the_next_dealer_is_round_fours_left_neighbour(
    new_context: Any, make_match: Any, user: Any, locale: str, delete: str, board: str, form: str
) -> None:
    played = synthetic.play_match(Random("rotation-page"), "njet", [1.0] * 3, rounds=4)
    match = make_match("njet", 3, options=played.options)  # Anna, Bence, Cili: rounds 1-4 dealt by A, B, C, A
    for facts, _result in played.rounds:
        services.round_record(match=match, facts=facts, user=user)
    page = new_context(locale=locale).new_page()
    page.goto(f"/matches/{match.pk}/")
    page.get_by_role("button", name=delete).click()

    # rounds 2-4 (dealt by Bence, Cili, Anna) stay: the deal passes from Anna, who dealt round 4, to Bence
    expect(page.locator("#rounds tbody tr").nth(3)).to_be_visible()  # the deleted round is shown in its place
    expect(page.locator("#board .status")).to_contain_text(board)
    expect(page.locator("#entry-form")).to_contain_text(form)
    shot(page, f"rotation-after-delete-{locale}", full=False)
