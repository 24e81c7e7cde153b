"""Was sticht?'s quick entry at 360 px, in Hungarian (issue 45): the table judges its tasks and taps, for each
player, the task card they returned — one tap a card, as the paper pad's tick; the full entry is one tap away; a
round nine tricks cannot produce is refused naming the player; the stored points are the rules engine's and the
explanation says the quick entry was used."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from scoring import selectors
from scoring.models import Round
from tests.browser.helpers import shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TASKS = [
    ["betli", "most", "exactly-2", "no-red"],
    ["exactly-2", "last-trick", "fewest", "no-blue"],
    ["betli", "exactly-3", "most", "no-green"],
    ["last-trick", "fewest", "exactly-1", "no-yellow"],
]


def _returned(page: Page, name: str, task: str) -> None:
    """Tap ``task`` among the cards ``name`` holds (the quick entry's row of that player)."""
    page.get_by_role("radiogroup", name=name, exact=True).get_by_text(task, exact=True).click()


def _totals(page: Page) -> list[int]:
    return [int(t.replace("−", "-")) for t in page.locator("#board table.totals td.total").all_inner_texts()]


def test_quick_was_sticht_rounds_in_hungarian(new_context: Any, make_match: Any) -> None:
    match = make_match("was-sticht", 4, options={"tasks": TASKS})
    page: Page = new_context(locale="hu-HU").new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"/matches/{match.pk}/")
    expect(page.get_by_role("radio", name="Gyors beírás")).to_be_checked()
    expect(page.locator('#entry-form input[name="start_player"][value="0"]')).to_be_checked()  # Anna starts
    quick = page.get_by_role("group", name="Visszaadott feladatkártyák ?")
    expect(quick).to_be_visible()
    expect(page.get_by_text("Felfedett feladatok")).to_be_hidden()  # the full entry's inputs are out of view

    # the full entry is one tap away, and back
    page.get_by_text("Teljes beírás", exact=True).click()
    expect(quick).to_be_hidden()
    expect(page.get_by_role("combobox", name="Bence")).to_be_visible()
    page.get_by_text("Gyors beírás", exact=True).click()
    expect(quick).to_be_visible()

    # round 1: Bence fulfilled "exactly 2 tricks", Dani "the fewest tricks" — two taps, then Save
    expect(
        page.get_by_role("radiogroup", name="Anna", exact=True).get_by_role("radio", name="egyik sem")
    ).to_be_checked()
    _returned(page, "Bence", "pontosan 2 ütés")
    _returned(page, "Dani", "a legkevesebb ütés")
    preview = page.locator("#preview")
    expect(preview).to_contain_text("Gyors beírás: a feladatokat az asztalnál bíráltátok el")
    expect(preview).to_contain_text("Teljesítette ezt: „Pontosan 2 ütés”, és visszaadta.")
    shot(page, "hu-was-sticht-quick-entry")
    page.get_by_role("button", name="1. kör mentése").click()
    expect(page.locator("#board caption")).to_have_text("1 kör után")
    expect(page.locator("#last-round")).to_contain_text("Gyors beírás: a feladatokat az asztalnál bíráltátok el")
    stored = Round.objects.get(match=match, number=1)
    assert stored.facts == {"entry": "quick", "start_player": 0, "returned": [None, "exactly-2", None, "fewest"]}
    assert list(stored.points) == [0, 1, 0, 1]
    assert _totals(page) == [0, 1, 0, 1]

    # round 2: Bence starts and is preselected; his returned card is gone from his row
    expect(page.locator('#entry-form input[name="start_player"][value="1"]')).to_be_checked()
    expect(page.get_by_role("radiogroup", name="Bence", exact=True).get_by_role("radio")).to_have_count(4)
    # Anna and Cili cannot both have taken the most tricks: refused, naming Cili
    _returned(page, "Anna", "a legtöbb ütés")
    _returned(page, "Cili", "a legtöbb ütés")
    expect(preview).to_contain_text("Cili nem teljesíthette ezt: „A legtöbb ütés”")
    page.get_by_role("button", name="2. kör mentése").click()
    errbox = page.locator("#entry-errors")
    expect(errbox).to_contain_text("Cili, visszaadott feladatkártya")
    assert not Round.objects.filter(match=match, number=2).exists()
    # Cili took exactly three tricks instead; Bence, the start player, took the last trick that Dani revealed
    # and missed, so he gives back a card of his own too
    _returned(page, "Cili", "pontosan 3 ütés")
    _returned(page, "Bence", "az utolsó ütés")
    expect(preview).to_contain_text("Kezdőjátékos: teljesítette egy másik játékos felfedett feladatát")
    page.get_by_role("button", name="2. kör mentése").click()
    expect(page.locator("#board caption")).to_have_text("2 kör után")
    stored = Round.objects.get(match=match, number=2)
    assert stored.facts["returned"] == ["most", "last-trick", "exactly-3", None]
    assert list(stored.points) == [1, 1, 1, 0]
    assert _totals(page) == [1, 2, 1, 1]
    assert selectors.match_scoreboard(match=match)["extra"]["held"][1] == ["fewest", "no-blue"]
    shot(page, "hu-was-sticht-quick-round-2")
    page.emulate_media(color_scheme="dark")  # the phone's dark mode: the same form, the checked card stands out
    _returned(page, "Anna", "Betli (egy ütés sem)")
    shot(page, "hu-was-sticht-quick-dark", full=False)
    assert errors == []
