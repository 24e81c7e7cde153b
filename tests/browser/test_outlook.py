"""What do I need and the stakes, on a 360 px phone in Hungarian: the board says who can no longer win and what the
others need, and says it again after the next round is saved; the MÜ form shows the stakes once the auction is
tapped in, and the NJET form once the board is."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from scoring import services
from tests.browser.helpers import shot, tap
from tests.browser.test_comfort import axe_violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def hungarian_phone(new_context: Any) -> Any:
    page = new_context(locale="hu-HU").new_page()
    page.js_errors = []
    page.on("pageerror", lambda exc: page.js_errors.append(str(exc)))
    return page


def totals(page: Any) -> list[int]:
    return [int(t.replace("−", "-")) for t in page.locator("#board table.totals td.total").all_inner_texts()]


def test_the_board_says_in_hungarian_who_can_no_longer_win(new_context: Any, make_match: Any, user: Any) -> None:
    match = make_match("meinz", 4)
    # five rounds 51 / 38 / 37 / 31 (3 / 1 / 0 / 2), then 40 / 40 / 39 / 34 (only the lowest scores, its 2)
    for _ in range(5):
        services.round_record(match=match, facts={"sums": [51, 38, 37, 31]}, user=user)
    services.round_record(match=match, facts={"sums": [40, 40, 39, 34]}, user=user)
    page = hungarian_phone(new_context)
    page.goto(f"/matches/{match.pk}/")
    assert totals(page) == [15, 5, 0, 12]
    outlook = page.get_by_role("region", name="Mi kell még a győzelemhez?")
    expect(outlook).to_be_visible()
    # two rounds left; a round moves one player at most 3 on another (point card 3 against 0): 6 in all
    expect(outlook.get_by_role("listitem")).to_have_text(
        [
            "Anna vezet 3 ponttal.",
            "Bence már nem nyerhet: 10 ponttal Anna mögött áll, és a hátralévő 2 kör legfeljebb 6 pontot hozhat be.",
            "Cili már nem nyerhet: 15 ponttal Anna mögött áll, és a hátralévő 2 kör legfeljebb 6 pontot hozhat be.",
            "Dani: az utolsó 2 körben 3 ponttal többet kell szereznie, mint Anna.",
        ]
    )
    expect(outlook).to_contain_text("Már csak Anna és Dani nyerhet.")
    box = outlook.bounding_box()
    assert box is not None and box["width"] <= 360  # nothing wider than the phone
    shot(page, "outlook-board-hu")

    # round 7 through the form: Dani 51 (3), Bence 40 (1), Cili 38 (0), Anna 31 (2): 17, 6, 0, 15, one round left
    for seat, value in enumerate((31, 40, 38, 51)):
        page.locator(f'#entry-form [name="sums.{seat}"]').fill(str(value))
    page.locator("#entry-form button[type=submit]").click()
    expect(page.locator("#board caption")).to_contain_text("7")
    assert totals(page) == [17, 6, 0, 15]
    expect(outlook.get_by_role("listitem")).to_have_text(
        [
            "Anna vezet 2 ponttal.",
            "Bence már nem nyerhet: 11 ponttal Anna mögött áll, és az utolsó kör legfeljebb 3 pontot hozhat be.",
            "Cili már nem nyerhet: 17 ponttal Anna mögött áll, és az utolsó kör legfeljebb 3 pontot hozhat be.",
            "Dani: az utolsó körben 2 ponttal többet kell szereznie, mint Anna.",
        ]
    )
    assert page.js_errors == []


def test_the_mue_form_shows_the_stakes_after_the_auction(new_context: Any, make_match: Any) -> None:
    match = make_match("mue", 5)
    page = hungarian_phone(new_context)
    page.goto(f"/matches/{match.pk}/")
    stakes = page.locator("#stakes")
    expect(stakes).to_be_empty()
    tap(page, "chief", 3)
    bid = page.locator('#entry-form [name="bid"]')  # the form starts at the typical bid (stream pad): type it
    bid.fill("4")
    bid.press("Tab")
    tap(page, "vice", 2)
    tap(page, "chief_trump", "colour:green")
    tap(page, "partner", 0)
    region = page.get_by_role("region", name="Mi a tét ebben a körben")
    expect(region).to_contain_text("Dani (főnök) licitje 4: Dani és Anna együtt 33 háromszöget kell szerezniük.")
    # RULES.md: 5 players, bid 4, colour trump: made 40 each; 30-32 points short by one level, under 24 by four
    chief = region.get_by_role("row", name="Dani (főnök)")
    expect(chief.get_by_role("cell")).to_have_text(["+40", "−10", "−40"])
    vice = region.get_by_role("row", name="Cili (helyettes)")
    expect(vice.get_by_role("cell")).to_have_text(["0", "+5", "+20"])
    expect(region.get_by_role("columnheader")).to_have_text(["Játékos", "legalább 33", "30–32", "24 alatt"])
    box = region.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360
    assert axe_violations(page) == []
    shot(page, "outlook-mue-stakes-hu")
    # the Eklat hides it with the rest of a played round's fields
    tap(page, "outcome", "eklat")
    expect(region).to_be_hidden()
    assert page.js_errors == []


def test_the_njet_form_shows_what_a_trick_is_worth(page: Any, make_match: Any) -> None:
    match = make_match("njet", 5)
    page.goto(f"/matches/{match.pk}/")
    tap(page, "start_player", 0)
    tap(page, "points_per_trick", 2)
    for seat in (1, 2):
        tap(page, "partner", seat)
    tap(page, "monster", 4)
    region = page.get_by_role("region", name="At stake this round")
    expect(region.get_by_role("listitem")).to_have_text(
        [
            "Each trick or captured 0 of Anna, Bence or Cili: +2 each for Anna, Bence and Cili.",
            "Each trick or captured 0 of Dani: +2 each for Dani and Emil.",
            "Each trick or captured 0 of Emil (monster card): +4 each for Dani and Emil.",
        ]
    )
    tap(page, "points_per_trick", -2)
    expect(region.get_by_role("listitem").first).to_have_text(
        "Each trick or captured 0 of Anna, Bence or Cili: −2 each for Anna, Bence and Cili."
    )
    shot(page, "outlook-njet-stakes")
    assert page.js_errors == []
