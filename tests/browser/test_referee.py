"""The trick referee in the browser at 360 px (issues 30 and 31): an NJET match started from the Hungarian UI
plays by the Hungarian edition and its referee says so with the players' names; Meinz with three players, the
monster and a claim; Was sticht? with three players judging a played trick."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from scoring.models import Match
from tests.browser.helpers import shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


SETTLED = "() => { const f = document.getElementById('ref-form'); return f && !f.dataset.busy; }"


def choose(page: Page, group: str, label: str, *, exact: bool = True) -> None:
    """Tap the chip ``label`` in the fieldset or radio group named ``group``, and wait until the referee has
    answered for the form as it now stands (a card is in the trick at once; the verdict follows)."""
    box = page.get_by_role("radiogroup", name=group, exact=exact)
    if box.count() == 0:  # a fieldset, named by its legend
        box = page.get_by_role("group", name=group, exact=exact)
    if box.get_by_role("radio", name=label, exact=True).is_checked():
        return  # already picked (the colour of the card before): tapping it again changes nothing
    box.get_by_text(label, exact=True).click()
    page.wait_for_function(SETTLED)


def add_card(page: Page, colour: str, value: int, *, colour_group: str = "Colour", value_group: str = "Value") -> None:
    """Tap a card's colour, then its value; the trick shows one card more."""
    before = page.locator("ol.trick li.card-face").count()
    choose(page, colour_group, colour)
    choose(page, value_group, str(value))
    expect(page.locator("ol.trick li.card-face")).to_have_count(before + 1)


def test_njet_from_the_hungarian_ui_plays_by_the_hungarian_edition(
    new_context: Any, live_server: Any, group: Any, players: list[Any]
) -> None:
    page = new_context(locale="hu-HU").new_page()
    page.goto(f"/groups/{group.pk}/matches/new?game=njet")
    edition = page.get_by_role("radio", name="Magyar kiadás: az egyforma lapok közül a korábbi visz")
    expect(edition).to_be_checked()
    expect(page.get_by_role("radio", name="Angol kiadás: az egyforma lapok közül az utolsó visz")).not_to_be_checked()
    for name in ("Anna", "Bence", "Cili", "Dani"):
        page.get_by_text(name, exact=True).first.click()
    page.get_by_role("button", name="A mérkőzés indítása").click()
    expect(page).to_have_url(re.compile(r"/matches/\d+/$"))
    match = Match.objects.get()
    assert match.options["tie_rule"] == "hungarian"
    assert [s.player.name for s in match.seats.order_by("number")] == ["Anna", "Bence", "Cili", "Dani"]

    referee = page.get_by_role("link", name="Ütésbíró").and_(page.locator(f"a[href$='?match={match.pk}']"))
    referee.click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("NJET")
    expect(page.get_by_text("A szabályok kiadása")).to_be_visible()
    choose(page, "Aduszín", "fekete")
    for colour, value in (("sárga", 7), ("sárga", 7), ("piros", 7), ("piros", 1)):
        add_card(page, colour, value, colour_group="Szín", value_group="Érték")
    verdict = page.get_by_role("status").filter(has_text="viszi az ütést")
    expect(verdict.get_by_role("heading")).to_have_text("Anna viszi az ütést: sárga 7")
    expect(verdict).to_contain_text("A magyar kiadás szabálya döntött")
    expect(verdict).to_contain_text("Bence: sárga 7")
    expect(verdict).to_contain_text("Dani: piros 1")
    shot(page, "referee-njet-hu")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_meinz_three_players_with_the_monster_and_a_claim(page: Page) -> None:
    page.goto("/referee/meinz/")
    choose(page, "Players", "3")
    expect(page.get_by_role("group", name="Who leads?")).to_contain_text("The monster")
    choose(page, "Who leads?", "The monster")
    for colour, value in (("red", 5), ("blue", 1), ("red", 8)):
        add_card(page, colour, value)
    expect(page.get_by_text("Next card: Player 3")).to_be_visible()
    add_card(page, "green", 2)
    verdict = page.get_by_role("status").filter(has_text="takes the trick")
    # the lowest card, Player 1's blue 1, wins without a claim
    expect(verdict.get_by_role("heading")).to_have_text("Player 1 takes the trick: blue 1")
    expect(verdict).to_contain_text("The monster: red 5")
    # Player 2 called "Meinz!" after the third card: the trick is his, whatever is played
    choose(page, "Who called “Meinz!” (claimed the trick)?", "Player 2", exact=False)
    expect(verdict.get_by_role("heading")).to_have_text("Player 2 takes the trick: red 8")
    expect(verdict).to_contain_text("Claimed by Meinz")
    # Player 2 already holds two tricks: he cannot claim
    choose(page, "Player 2", "2")
    expect(page.get_by_role("alert")).to_contain_text("A player who already has two tricks can neither win nor claim")
    choose(page, "Who called “Meinz!” (claimed the trick)?", "nobody", exact=False)
    choose(page, "Player 1", "2")
    # Player 1's blue 1 cannot win now: the next-lowest, Player 3's green 2, does
    expect(verdict.get_by_role("heading")).to_have_text("Player 3 takes the trick: green 2")
    shot(page, "referee-meinz-3p")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert page.js_errors == []  # type: ignore[attr-defined]


def test_was_sticht_three_players_judges_a_played_trick(page: Page) -> None:
    page.goto("/referee/was-sticht/")
    choose(page, "Players", "3")
    expect(page.get_by_role("radio", name="a trick in play (3 cards)")).to_be_checked()
    choose(page, "Trump colour", "red")
    choose(page, "Trump number", "2")
    for colour, value in (("blue", 7), ("red", 6), ("blue", 9)):
        add_card(page, colour, value)
    verdict = page.get_by_role("status").filter(has_text="takes the trick")
    expect(verdict.get_by_role("heading")).to_have_text("Player 2 takes the trick: red 6")
    expect(verdict).to_contain_text("Player 3: blue 9")
    shot(page, "referee-was-sticht-3p")
    assert page.js_errors == []  # type: ignore[attr-defined]


def test_hungarian_was_sticht_draft_row_and_meinz_counts(new_context: Any, live_server: Any) -> None:
    """In Hungarian: a Was sticht? draft row of four (the table hand last) and a Meinz verdict whose counts read
    as Hungarian does (a noun after a numeral stays singular; one player or several take the verb's number)."""
    page = new_context(locale="hu-HU").new_page()
    page.goto("/referee/was-sticht/")
    choose(page, "Játékosok", "3")
    choose(page, "Miről döntsön az ütésbíró?", "egy sor a lapok elvételénél (4 lap, az utolsó az asztalé)")
    choose(page, "Aduszín", "piros")
    choose(page, "Aduszám", "2")
    for colour, value in (("kék", 7), ("piros", 6), ("piros", 2), ("sárga", 2)):
        add_card(page, colour, value, colour_group="Szín", value_group="Érték")
    verdict = page.get_by_role("status").filter(has_text="viszi az ütést")
    expect(verdict.get_by_role("heading")).to_have_text("3. játékos viszi az ütést: piros 2")
    expect(verdict).to_contain_text("sárga 2: aduszám (adu, nem sárga lap)")
    shot(page, "referee-was-sticht-draft-hu")

    page.goto("/referee/meinz/")
    choose(page, "Játékosok", "3")
    for colour, value in (("piros", 5), ("kék", 2), ("piros", 8), ("zöld", 1)):
        add_card(page, colour, value, colour_group="Szín", value_group="Érték")
    choose(page, "2. játékos", "2")
    choose(page, "A szörny", "2")
    verdict = page.get_by_role("status").filter(has_text="viszi az ütést")
    expect(verdict.get_by_role("heading")).to_have_text("1. játékos viszi az ütést: piros 5")
    expect(verdict).to_contain_text("2 lap, amely ütné, olyan játékosoké, akiknek már két ütésük van")
    expect(page.get_by_text("Az ütés: 4/4 lap")).to_be_visible()
    shot(page, "referee-meinz-3p-hu")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
