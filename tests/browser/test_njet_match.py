"""A whole four-player NJET match entered through the UI, as at the table: taps, not typing."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from scoring.models import Round
from tests.browser.helpers import shot, tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Seats: Anna 0, Bence 1, Cili 2, Dani 3. Each round: start player, board rows 2 and 5, the start player's
# partner, tricks of the first three players (the fourth follows), booty. Expected points worked out by
# hand from the rulebook's formula: team total = (tricks + captured zeros) × points per trick.
ROUNDS: list[dict[str, Any]] = [
    {"start": 0, "discard": "none", "ppt": 2, "partner": 2, "tricks": (4, 3, 5), "booty": {0: 1}},
    {"start": 1, "discard": "one", "ppt": 3, "partner": 3, "tricks": (3, 4, 3), "booty": {}},
    {"start": 2, "discard": "two", "ppt": 1, "partner": 0, "tricks": (2, 5, 3), "booty": {1: 2}},
    {"start": 3, "discard": "pass", "ppt": -2, "partner": 1, "tricks": (4, 4, 4), "booty": {}},
    {"start": 0, "discard": "two_no_zero", "ppt": 4, "partner": 1, "tricks": (3, 3, 4), "booty": {0: 1, 2: 1}},
    {"start": 1, "discard": "none", "ppt": 2, "partner": 2, "tricks": (5, 2, 4), "booty": {}},
    {"start": 2, "discard": "one", "ppt": 1, "partner": 3, "tricks": (4, 4, 3), "booty": {}},
    {"start": 3, "discard": "none", "ppt": 3, "partner": 0, "tricks": (4, 4, 4), "booty": {3: 1}},
]
TOTALS_AFTER = [
    (20, 12, 20, 12),
    (38, 36, 38, 36),
    (43, 46, 43, 46),
    (27, 32, 27, 32),
    (55, 60, 59, 64),
    (73, 72, 71, 82),
    (81, 80, 77, 88),
    (105, 104, 101, 112),
]


def enter_njet_round(page: Any, spec: dict[str, Any]) -> int:
    """Enter one round with taps; returns the number of taps it took (the save included)."""
    taps = 0
    for name, value in (
        ("start_player", spec["start"]),
        ("discard", spec["discard"]),
        ("points_per_trick", spec["ppt"]),
        ("partner", spec["partner"]),
    ):
        tap(page, name, value)
        taps += 1
    for seat, tricks in enumerate(spec["tricks"]):
        tap(page, f"tricks.{seat}", tricks)
        taps += 1
    for seat, booty in spec["booty"].items():
        for _ in range(booty):
            page.locator(f'#entry-form [name="booty.{seat}"] + button[data-step="1"]').click()
            taps += 1
    page.locator("#entry-form button[type=submit]").click()
    return taps + 1


def totals(page: Any) -> tuple[int, ...]:
    cells = page.locator("#board table.totals td.total")
    return tuple(int(text.replace("−", "-")) for text in cells.all_inner_texts())  # totals print U+2212


def test_full_njet_match_through_the_ui(page: Any, make_match: Any) -> None:
    match = make_match("njet", 4)
    page.goto(f"/matches/{match.pk}/")
    expect(page.locator("#entry-form")).to_contain_text("Dealer: Anna")
    shot(page, "njet-entry-empty")
    most_taps = 0
    for number, (spec, expected) in enumerate(zip(ROUNDS, TOTALS_AFTER, strict=True), start=1):
        if number == 1:
            # the fourth player's tricks follow from the others' (15 cards, nothing discarded: 15 − 12 = 3)
            for name, value in (("start_player", 0), ("discard", "none"), ("points_per_trick", 2), ("partner", 2)):
                tap(page, name, value)
            for seat, tricks in enumerate(spec["tricks"]):
                tap(page, f"tricks.{seat}", tricks)
            expect(page.locator('#entry-form input[name="tricks.3"][value="3"]')).to_be_checked()
            expect(page.locator("#preview")).to_contain_text("tricks 4 + zeros captured 0 = 4")  # the live preview
            page.locator('#entry-form [name="booty.0"] + button[data-step="1"]').click()
            expect(page.locator("#preview")).to_contain_text("Team: 10 (tricks and zeros) × 2 points = 20")
            shot(page, "njet-entry-filled")
            page.locator("#entry-form button[type=submit]").click()
            taps = 9
        else:
            taps = enter_njet_round(page, spec)
        most_taps = max(most_taps, taps)
        caption = "after 1 round" if number == 1 else f"after {number} rounds"
        expect(page.locator("#board caption")).to_have_text(caption)
        assert totals(page) == expected, f"round {number}"
        if number == 1:
            expect(page.locator("#last-round")).to_contain_text("tricks 4 + zeros captured 1 = 5")
            expect(page.locator("#last-round")).to_contain_text("Team: 10 (tricks and zeros) × 2 points = 20")
            expect(page.locator("#board .status")).to_contain_text("Next dealer: Bence")
            expect(page.locator("#board .status")).to_contain_text("7 rounds left")
            shot(page, "njet-after-round-1")
        elif number < 8:
            expect(page.locator("#entry-form h2, #entry h2").first).to_have_text(f"Round {number + 1}")
    assert most_taps <= 12, most_taps  # a handful of taps per round, not a form
    expect(page.locator("#board")).to_contain_text("The match is over.")
    expect(page.locator("#board")).to_contain_text("Winner: Dani")
    expect(page.locator("#entry")).to_contain_text("This match is finished.")
    assert totals(page) == (105, 104, 101, 112)
    assert Round.objects.filter(match=match, deleted_at__isnull=True).count() == 8
    shot(page, "njet-finished")
    assert page.js_errors == []


def test_refused_round_shows_the_broken_rule(page: Any, make_match: Any) -> None:
    match = make_match("njet", 4)
    page.goto(f"/matches/{match.pk}/")
    for name, value in (("start_player", 0), ("discard", "none"), ("points_per_trick", 1), ("partner", 1)):
        tap(page, name, value)
    for seat in range(4):  # all four tapped by hand: 20 tricks where 15 exist
        tap(page, f"tricks.{seat}", 5)
    page.locator("#entry-form button[type=submit]").click()
    box = page.locator("#entry-errors")
    expect(box).to_be_visible()
    expect(box).to_contain_text("The tricks must add up to 15 (15 cards each, 0 discarded), not 20.")
    link = box.locator("a[href$='#njet-tricks']")
    expect(link).to_have_count(1)
    expect(page.locator('#entry-form input[name="tricks.2"][value="5"]')).to_be_checked()  # values kept
    shot(page, "njet-refused")
    assert Round.objects.filter(match=match).count() == 0
    link.click()
    expect(page).to_have_url(re.compile(r"/rules/njet/#njet-tricks$"))
    expect(page.locator("#njet-tricks")).to_be_visible()
