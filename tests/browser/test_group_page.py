"""The group page at 360 px (issue 30, item 9): players added by keyboard alone without a reload, a player
renamed, the settings in English and Hungarian."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from scoring.models import Group, Player
from tests.browser.helpers import shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_two_players_are_added_by_typing_and_enter_while_the_focus_stays_in_the_field(page: Any, group: Group) -> None:
    page.goto(f"/groups/{group.pk}/")
    page.evaluate("window.notReloaded = true")  # a full page load would forget this
    field = page.get_by_label("New player's name")
    field.focus()

    for name in ("Vera", "Zsófi"):
        page.keyboard.type(name)
        page.keyboard.press("Enter")
        expect(page.locator("#player-list")).to_contain_text(name)
        expect(field).to_have_value("")
        expect(field).to_be_focused()
    expect(page.locator("#p-add-status")).to_have_text("Zsófi joined the table.")

    page.keyboard.type("vera")
    page.keyboard.press("Enter")
    expect(page.locator("#p-name-err")).to_have_text("There is already a player called vera.")
    expect(field).to_have_attribute("aria-invalid", "true")
    expect(field).to_have_value("vera")
    expect(field).to_be_focused()
    page.keyboard.press("Control+A")
    page.keyboard.type("Vilma")
    page.keyboard.press("Enter")
    expect(page.locator("#player-list")).to_contain_text("Vilma")
    expect(field).not_to_have_attribute("aria-invalid", "true")
    expect(page.locator("#p-name-err")).to_have_text("")

    assert page.evaluate("window.notReloaded") is True
    assert set(Player.objects.filter(group=group).values_list("name", flat=True)) >= {"Vera", "Zsófi", "Vilma"}
    # the new guests can be named in an invite at once
    expect(page.locator("#inv-player option", has_text="Zsófi")).to_have_count(1)
    expect(page.locator("#inv-player")).to_have_value("")
    assert page.js_errors == []
    shot(page, "group-players-added")


def test_renaming_a_player(page: Any, group: Group, players: list[Player]) -> None:
    page.goto(f"/groups/{group.pk}/")
    page.get_by_role("link", name="Edit Bence").click()
    expect(page.locator("h1")).to_have_text("Bence")
    page.get_by_label("Name", exact=True).fill("Bence Kiss")
    page.get_by_role("button", name="Save the name").click()

    expect(page.locator(".msgs")).to_have_text("Bence is now Bence Kiss.")
    expect(page.locator("#player-list")).to_contain_text("Bence Kiss")
    players[1].refresh_from_db()
    assert players[1].name == "Bence Kiss"


def test_the_settings_speak_english_and_hungarian(new_context: Any, group: Group) -> None:
    page = new_context().new_page()
    page.goto(f"/groups/{group.pk}/")
    expect(page.get_by_role("heading", name="Group settings")).to_be_visible()
    expect(page.get_by_role("link", name="Scores for a spreadsheet (CSV)")).to_be_visible()
    expect(page.get_by_role("button", name="Import the file")).to_be_visible()
    expect(page.get_by_role("link", name="Leave the group…")).to_be_visible()
    page.get_by_role("link", name="Leave the group…").click()
    expect(page.locator("main")).to_contain_text("You are the only member")
    shot(page, "group-leave-alone")

    hu = new_context(locale="hu-HU").new_page()
    hu.goto(f"/groups/{group.pk}/")
    expect(hu.get_by_role("heading", name="A csoport beállításai")).to_be_visible()
    expect(hu.get_by_label("Az új játékos neve")).to_be_visible()
    expect(hu.get_by_role("link", name="Pontok táblázatkezelőhöz (CSV)")).to_be_visible()
    expect(hu.get_by_role("button", name="A fájl importálása")).to_be_visible()
    expect(hu.get_by_role("link", name="Anna szerkesztése")).to_be_visible()
    shot(hu, "hu-group-page")
    with hu.expect_download() as download:
        hu.get_by_role("link", name="Pontok táblázatkezelőhöz (CSV)").click()
    assert download.value.suggested_filename == "friday-table.csv"
    # a page 360 px wide does not scroll sideways
    assert hu.evaluate("document.documentElement.scrollWidth") <= 360
