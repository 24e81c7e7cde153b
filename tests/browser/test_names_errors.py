"""People, not seats, and errors where they belong — in the browser at 360 px, in English and Hungarian.

A Muzicando individual deal and a Was sticht? round explain themselves with the players' names (no seat numbers,
no task ids); Coloretto with 10 green cards for Anna is refused naming Anna and green, the input is marked
invalid and focused, and nothing is stored; the live preview lists what is still missing by name.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from scoring import rules
from scoring.models import Round
from tests.browser.helpers import shot, tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SEAT_NUMBER = re.compile(r"\b(seat|Seat|hely|player|játékos)\s*\d|A\(z\)|a\(z\)")


def _no_seat_numbers(text: str) -> None:
    assert not SEAT_NUMBER.search(text), text


def test_muzicando_individual_deal_names_the_players(page: Any, new_context: Any, make_match: Any) -> None:
    options = {"mode": "individual", "bidding": False, "individual_contract": "chooser"}
    match = make_match("muzicando", 4, options)
    page.goto(f"/matches/{match.pk}/")
    tap(page, "contract_type", "parada")
    for place, seat in enumerate((2, 0, 1, 3)):  # Cili out first, then Anna, Bence; Dani left holding cards
        tap(page, f"order.{place}", seat)
    tap(page, "holding", 3)
    expect(page.locator("#preview")).to_contain_text("Cili finished in place 1.")
    page.locator("#entry-form button[type=submit]").click()
    expect(page.locator("#board caption")).to_have_text("after 1 round")
    last = page.locator("#last-round")
    expect(last).to_contain_text("Cili finished in place 1.")
    expect(last).to_contain_text("Anna finished in place 2.")
    expect(last).to_contain_text("Dani was left holding cards: −1")
    expect(last).to_contain_text("Contract Parada failed (Cili went out first): −3")
    _no_seat_numbers(last.inner_text())
    shot(page, "names-muzicando-en")
    assert Round.objects.filter(match=match).count() == 1

    hu = new_context(locale="hu-HU").new_page()
    hu.goto(f"/matches/{match.pk}/")
    last = hu.locator("#last-round")
    expect(last).to_contain_text("Cili az 1. helyen végzett.")
    expect(last).to_contain_text("Anna a 2. helyen végzett.")
    expect(last).to_contain_text("A Parada vállalás bukott (Cili szállt ki elsőként): −3")
    _no_seat_numbers(last.inner_text())
    shot(hu, "names-muzicando-hu")
    assert page.js_errors == []


def test_was_sticht_round_names_players_and_tasks(page: Any, new_context: Any, make_match: Any) -> None:
    example = rules.get("was-sticht").example
    match = make_match("was-sticht", 4, example["options"])
    page.goto(f"/matches/{match.pk}/")
    tap(page, "entry", "full")
    tap(page, "start_player", 0)
    page.get_by_role("combobox", name="Bence").select_option("exactly-2")
    page.get_by_role("combobox", name="Cili").select_option("betli")
    page.get_by_role("combobox", name="Dani").select_option("last-trick")
    for seat, tricks in enumerate((2, 2, 0)):  # Dani's 5 follow
        tap(page, f"tricks.{seat}", tricks)
    tap(page, "last_trick", 3)
    page.locator("#entry-form button[type=submit]").click()
    expect(page.locator("#board caption")).to_have_text("after 1 round")
    last = page.locator("#last-round")
    expect(last).to_contain_text("Bence fulfilled “Exactly 2 tricks” too, so only Bence returns it.")
    expect(last).to_contain_text("Exactly 2 tricks: took 2 — fulfilled.")
    text = last.inner_text()
    _no_seat_numbers(text)
    assert "exactly-2" not in text and "last-trick" not in text
    shot(page, "names-was-sticht-en")

    hu = new_context(locale="hu-HU").new_page()
    hu.goto(f"/matches/{match.pk}/")
    last = hu.locator("#last-round")
    expect(last).to_contain_text(
        "Bence is teljesítette ezt a feladatot: „Pontosan 2 ütés”, így csak Bence adja vissza."
    )
    _no_seat_numbers(last.inner_text())
    shot(hu, "names-was-sticht-hu")
    assert page.js_errors == []


def test_coloretto_refusal_names_player_and_colour_marks_and_focuses_the_input(
    page: Any, new_context: Any, make_match: Any
) -> None:
    match = make_match("coloretto", 4)
    page.goto(f"/matches/{match.pk}/")
    page.get_by_text("Full entry", exact=True).click()  # every colour of every player
    for name, value in (("yellow.1", 2), ("red.2", 3), ("blue.3", 1), ("green.0", 10)):
        page.locator(f'#entry-form [name="{name}"]').fill(str(value))
    page.locator("#entry-form button[type=submit]").click()
    box = page.locator("#entry-errors")
    expect(box).to_be_visible()
    expect(box).to_contain_text("Anna, green: Give a whole number of cards from 0 to 9.")
    green = page.locator('#entry-form [id="f-green.0"]')
    expect(green).to_have_attribute("aria-invalid", "true")
    expect(green).to_be_focused()
    described = green.get_attribute("aria-describedby")
    expect(page.locator(f'[id="{described}"]')).to_contain_text("Anna, green")
    expect(page.locator('#entry-form [id="f-green.1"]')).not_to_have_attribute("aria-invalid", "true")
    shot(page, "names-coloretto-refused")
    assert Round.objects.filter(match=match).count() == 0

    hu = new_context(locale="hu-HU").new_page()
    hu.goto(f"/matches/{match.pk}/")
    hu.get_by_text("Teljes beírás", exact=True).click()
    hu.locator('#entry-form [name="green.0"]').fill("10")
    hu.locator("#entry-form button[type=submit]").click()
    expect(hu.locator("#entry-errors")).to_contain_text("Anna, zöld: A lapok száma 0 és 9 közötti egész szám legyen.")
    expect(hu.locator('#entry-form [id="f-green.0"]')).to_be_focused()
    assert Round.objects.filter(match=match).count() == 0
    assert page.js_errors == []


def test_preview_lists_what_is_still_missing_by_name(page: Any, make_match: Any) -> None:
    match = make_match("meinz", 4)
    page.goto(f"/matches/{match.pk}/")
    page.locator('#entry-form [name="sums.0"]').fill("51")
    page.locator('#entry-form [name="sums.0"]').dispatch_event("change")
    preview = page.locator("#preview")
    expect(preview).to_contain_text("Still missing: sum of the tricks of Bence, Cili and Dani")
    expect(preview).not_to_contain_text("This field is required.")
    shot(page, "names-preview-missing")
    assert Round.objects.filter(match=match).count() == 0
    assert page.js_errors == []
