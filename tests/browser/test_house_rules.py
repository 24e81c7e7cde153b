"""House rules at 360 px, in Hungarian: save a preset from the group page, make it the game's default, start a
match from it (preselected, its options in the controls) and read its name on the match page."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from scoring.models import Match, Preset
from tests.browser.helpers import shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_preset_made_default_starts_a_match_that_names_it(new_context: Any, group: Any, players: Any) -> None:
    page = new_context(locale="hu-HU").new_page()
    js_errors: list[str] = []
    page.on("pageerror", lambda exc: js_errors.append(str(exc)))
    page.goto(f"/groups/{group.pk}/")
    expect(page.get_by_role("heading", name="Házszabályok")).to_be_visible()
    page.get_by_label("Az új házszabályok játéka").select_option(label="NJET")
    page.get_by_role("button", name="Új házszabályok").click()

    expect(page.get_by_role("heading", name="Házszabályok: NJET")).to_be_visible()
    page.get_by_label("A házszabályok neve").fill("Magyar NJET")
    # a Hungarian page starts from the Hungarian edition's tie rule
    expect(page.get_by_role("radio", name=re.compile("^Magyar kiadás"))).to_be_checked()
    page.locator("label.chip", has_text="csak a különbség").click()
    shot(page, "hu-house-rules-form")
    page.get_by_role("button", name="Házszabályok mentése").click()

    section = page.locator("ul.presets")
    expect(section).to_contain_text("Magyar NJET")
    page.get_by_role("button", name="Magyar NJET legyen az alapértelmezett (NJET)").click()
    expect(page.locator("ul.presets li", has_text="Magyar NJET")).to_contain_text("alapértelmezett")
    shot(page, "hu-house-rules-listed")

    page.get_by_role("link", name="Mérkőzés indítása").click()
    page.get_by_role("link", name="NJET", exact=True).click()
    expect(page.get_by_role("radio", name=re.compile("^Magyar NJET"))).to_be_checked()
    expect(page.get_by_role("radio", name="csak a különbség", exact=True)).to_be_checked()
    for name in ("Anna", "Bence", "Cili"):
        page.locator("label.seatchip", has_text=name).click()
    expect(page.locator("#preset-changed")).to_be_hidden()
    # the script fills the options itself: no "use these house rules" button
    expect(page.get_by_role("button", name="Ezeket a házszabályokat használd")).to_be_hidden()
    # choosing no house rules and back again refills the options; changing one says it is no longer them
    page.locator("label.chip", has_text="Nincs házszabály").click()
    expect(page.get_by_role("radio", name="a csapat teljes pontja", exact=True)).to_be_checked()
    page.locator("label.chip", has_text="Magyar NJET").click()
    expect(page.get_by_role("radio", name="csak a különbség", exact=True)).to_be_checked()
    page.locator("label.chip", has_text="a csapat teljes pontja").click()
    expect(page.locator("#preset-changed")).to_be_visible()
    page.locator("label.chip", has_text="csak a különbség").last.click()
    expect(page.locator("#preset-changed")).to_be_hidden()
    shot(page, "hu-new-match-house-rules")
    page.get_by_role("button", name="A mérkőzés indítása").last.click()

    expect(page.locator(".house-rules-line")).to_have_text("Házszabályok: Magyar NJET (1. változat)")
    shot(page, "hu-match-house-rules")
    assert js_errors == []
    preset = Preset.objects.get(group=group)
    match = Match.objects.get(group=group)
    assert preset.is_default and preset.name == "Magyar NJET"
    assert match.options == {"recording": "difference", "tie_rule": "hungarian"}
    assert match.preset_version is not None and match.preset_version.preset_id == preset.pk
