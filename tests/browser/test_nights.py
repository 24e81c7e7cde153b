"""A game night at 360 px in Hungarian (issue 34 §1): opened from the group page, its upset read, a night split."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from analytics.models import NightBreak
from scoring.models import Group, Player
from tests.analytics.nights.night_seed import seed_evening, upset_percent
from tests.browser.helpers import shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_night_is_opened_from_the_group_page_and_names_its_upset(
    new_context: Any, group: Group, players: list[Player], user: Any
) -> None:
    evening = seed_evening(group, players, user)
    page = new_context(locale="hu-HU").new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"/groups/{group.pk}/")

    page.get_by_role("link", name="Játékestek").click()
    expect(page.get_by_role("heading", name="Játékestek")).to_be_visible()
    page.get_by_role("link", name="2026. március 6.").click()

    expect(page.get_by_role("heading", level=1)).to_contain_text("Játékest")
    upset = page.get_by_role("region", name="Az este meglepetése")
    expect(upset).to_have_text(
        f"Az este meglepetése Cili nyert (Húzz egyet! / Abluxxen): a mérkőzés előtti értékszámok szerint "
        f"{upset_percent()}% esélye volt rá.",
        use_inner_text=False,
    )
    partners = page.get_by_role("region", name="A legjobb partnerek")
    expect(partners).to_contain_text("Bence és Cili együtt 2 körben játszottak, ebből 2 körben nyertek (100%).")
    expect(page.get_by_role("link", name="A kép letöltése")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shot(page, "hu-night")

    # the NJET match begins a night of its own: the night now ends before it
    njet = evening.night[2]
    page.locator("li", has_text="NJET").get_by_role("button", name="Innen új játékest kezdődik").click()
    expect(page.get_by_role("region", name="Mérkőzések").get_by_role("listitem")).to_have_count(2)
    expect(page.get_by_role("region", name="Mérkőzések")).to_contain_text("MÜ")
    assert NightBreak.objects.get(match_id=njet.pk).kind == "split"
    assert errors == []
