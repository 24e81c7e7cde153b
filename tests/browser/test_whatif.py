"""What-if rescoring at 360 px in Hungarian (issue 34, part 3): from the match page to "Beállítások módosítása",
a preview of every round before and after, then applying it."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from scoring import services
from scoring.models import Match, Round, RoundEvent
from tests.browser.helpers import shot
from tests.scoring.helpers import njet_facts

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_difference_recording_previewed_then_applied_in_hungarian(new_context: Any, make_match: Any, user: Any) -> None:
    match = make_match("njet", 5)
    for _ in range(2):
        services.round_record(match=match, facts=njet_facts(), user=user)
    page = new_context(locale="hu-HU").new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"/matches/{match.pk}/")
    page.get_by_role("link", name="Beállítások módosítása").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Beállítások módosítása")

    page.get_by_role("radio", name="csak a különbség", exact=True).check(force=True)
    page.get_by_role("button", name="Előnézet").click()
    rounds = page.locator("#preview-rounds")
    expect(rounds.get_by_role("columnheader", name="Anna")).to_be_visible()
    first = rounds.locator("tbody tr").first
    expect(first.get_by_role("rowheader")).to_have_text("1 változik")
    expect(first.get_by_role("cell").first).to_have_text("20 → 2")
    expect(first.get_by_role("cell").nth(3)).to_have_text("18 → 0")
    expect(page.locator("#preview")).to_contain_text("2 körben változnak a pontok.")
    expect(page.locator("#preview-totals")).to_contain_text("Anna")
    expect(page.locator("#preview-winners")).to_contain_text("Győztesek alkalmazás után: még nincs")
    # nothing is stored by a preview
    assert Match.objects.get(pk=match.pk).options["recording"] == "full"
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    apply = page.get_by_role("button", name="Alkalmazás")
    box = apply.bounding_box()
    assert box is not None and box["height"] >= 44
    shot(page, "whatif-preview-hu")

    apply.click()
    expect(page.locator(".msgs")).to_contain_text("A beállítások megváltoztak, és minden kört újrapontoztunk.")
    points = [list(p) for p in Round.objects.filter(match=match).order_by("number").values_list("points", flat=True)]
    assert points == [[2, 2, 2, 0, 0], [2, 2, 2, 0, 0]]
    assert Match.objects.get(pk=match.pk).options["recording"] == "difference"
    assert RoundEvent.objects.filter(match=match, action="options", actor=user).count() == 1
    assert errors == []
