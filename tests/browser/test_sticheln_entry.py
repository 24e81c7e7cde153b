"""Sticheln rounds entered at 360 px: heavy chooser cards each with their own colour, and a delayed-Sticheln
player without a trick saved through the explained "no trick — no colour" choice."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from scoring.models import Round
from tests.browser.helpers import shot, tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _fill(page: Page, values: dict[str, int]) -> None:
    for name, value in values.items():
        page.locator(f'#entry-form input[name="{name}"]').fill(str(value))


def test_heavy_chooser_cards_keep_their_colours(page: Page, make_match: Any) -> None:
    match = make_match("sticheln", 3, {"variant": "heavy"})
    page.goto(f"/matches/{match.pk}/")
    page.get_by_text("Full entry", exact=True).click()  # each chooser card entered with its colour
    for seat, (first, second) in enumerate((("blue", "red"), ("green", "yellow"), ("brown", "red"))):
        tap(page, f"chooser_colour.{seat}.0", first)
        tap(page, f"chooser_colour.{seat}.1", second)
    _fill(page, {"chooser.0.0": 4, "chooser.0.1": 2, "pain_count.0": 2, "pain_sum.0": 5, "others.0": 10})
    _fill(page, {"chooser.1.0": 1, "chooser.1.1": 0, "pain_count.1": 0, "pain_sum.1": 0, "others.1": 15})
    _fill(page, {"chooser.2.0": 3, "chooser.2.1": 7, "pain_count.2": 1, "pain_sum.2": 6, "others.2": 11})
    expect(page.get_by_label("Value of chooser card 2").first).to_have_value("2")
    page.keyboard.press("Tab")
    expect(page.locator("#preview")).to_contain_text("+14")
    shot(page, "sticheln-heavy-entry")
    page.locator("#entry-form button[type=submit]").click()
    expect(page.locator("#board caption")).to_have_text("after 1 round")
    rnd = Round.objects.get(match=match)
    assert [(c["colour"], c["value"]) for c in rnd.facts["seats"][0]["chooser"]] == [("blue", 4), ("red", 2)]
    assert rnd.points == [-1, 14, -5]


def test_delayed_player_without_a_trick(new_context: Any, make_match: Any) -> None:
    match = make_match("sticheln", 3, {"variant": "delayed"})
    page = new_context(locale="hu-HU").new_page()
    page.goto(f"/matches/{match.pk}/")
    expect(page.locator("#entry-form")).to_contain_text("Akinek egyetlen ütése sem volt, nem választ büntetősínt")
    page.get_by_text("Teljes beírás", exact=True).click()  # the counts entry
    tap(page, "pain.0", "red")
    tap(page, "pain.1", "green")
    tap(page, "pain.2", "none")
    _fill(page, {"pain_count.0": 3, "pain_sum.0": 6, "others.0": 21})
    _fill(page, {"pain_count.1": 2, "pain_sum.1": 1, "others.1": 19})
    _fill(page, {"pain_count.2": 0, "pain_sum.2": 0, "others.2": 0})
    shot(page, "hu-sticheln-delayed-entry")
    page.keyboard.press("Tab")
    expect(page.locator("#preview")).to_contain_text("nincs ütés = 0")  # Cili: no trick, 0 points
    page.locator("#entry-form button[type=submit]").click()
    expect(page.locator("#board caption")).to_have_text("1 kör után")
    rnd = Round.objects.get(match=match)
    assert rnd.points[2] == 0
    assert rnd.facts["seats"][2]["pain"] in (None, [])
