"""The quick entries at 360 px, in Hungarian, as a player enters them with the phone in one hand: Sticheln (a
colour chip, then the other cards and the pain points, the keyboard's Enter going on to the next number) and
Coloretto (a chip for each colour held, then its count, then jokers and "+2" cards); the full entry one tap
away; the stored points are the rules engine's, and the explanation says the quick entry was used."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from scoring import rules
from scoring.models import Round
from tests.browser.helpers import shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ("Anna", "Bence", "Cili", "Dani")


def _hu_page(new_context: Any) -> Page:
    page: Page = new_context(locale="hu-HU").new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.js_errors = errors  # type: ignore[attr-defined]
    return page


def test_quick_sticheln_round_in_hungarian(new_context: Any, make_match: Any) -> None:
    match = make_match("sticheln", 4, {"variant": "classic"})
    page = _hu_page(new_context)
    page.goto(f"/matches/{match.pk}/")
    expect(page.get_by_role("radio", name="Gyors beírás")).to_be_checked()
    # per player: the pain colour, then (typed) the other cards and the pain points, chooser included
    tallies = [("piros", "14", "4+2+5"), ("kék", "10", "3"), ("zöld", "8", "1"), ("sárga", "18", "14")]
    for name, (colour, others, points) in zip(NAMES, tallies, strict=True):
        seat = page.get_by_role("group", name=name, exact=True)
        seat.get_by_text(colour, exact=True).click()
        expect(seat.get_by_label("Egyéb lapok (darabja +1)")).to_be_focused()  # the chip opened the count
        page.keyboard.type(others)
        page.keyboard.press("Enter")
        expect(seat.get_by_label("Büntetőpontok (−)")).to_be_focused()  # Enter went on, it did not save
        page.keyboard.type(points)
        page.keyboard.press("Enter")
    expect(page.get_by_role("group", name="Anna", exact=True).locator("output")).to_have_text("= 11")
    preview = page.locator("#preview")
    expect(preview).to_contain_text("Gyors beírás: amit a játékosok az asztalnál megszámoltak.")
    expect(preview).to_contain_text("büntetősínű lapok a választólappal, értékük 11 = −11")
    shot(page, "hu-sticheln-quick-entry")
    assert Round.objects.filter(match=match).count() == 0  # nothing saved by the Enter key
    page.get_by_role("button", name="1. kör mentése").click()
    expect(page.locator("#board caption")).to_have_text("1 kör után")
    # the saved round's explanation says which entry was used
    expect(page.locator("#last-round")).to_contain_text("Gyors beírás: amit a játékosok az asztalnál megszámoltak.")
    rnd = Round.objects.get(match=match)
    assert rnd.facts["entry"] == "quick"
    assert [seat["pain_points"] for seat in rnd.facts["seats"]] == [11, 3, 1, 14]
    example = rules.get("sticheln").example
    assert rnd.points == list(rules.get("sticheln").score(example["facts"], players=4).scores) == [3, 7, 7, 4]
    assert page.js_errors == []  # type: ignore[attr-defined]


def test_quick_coloretto_round_in_hungarian_and_the_full_entry_one_tap_away(new_context: Any, make_match: Any) -> None:
    ruleset = rules.get("coloretto")
    facts = ruleset.example["facts"]  # seat 0 is the rulebook's András: 41 points
    colours = [c for c in ruleset.module.COLOURS if any(facts[c])]
    match = make_match("coloretto", 4)
    page = _hu_page(new_context)
    page.goto(f"/matches/{match.pk}/")
    hu = {"yellow": "sárga", "orange": "narancs", "red": "piros", "green": "zöld", "blue": "kék"}
    hu |= {"brown": "barna", "grey": "szürke"}
    for seat, name in enumerate(NAMES):
        box = page.get_by_role("group", name=name, exact=True)
        for colour in colours:
            count = facts[colour][seat]
            if not count:
                continue
            box.locator("label.chip", has_text=hu[colour]).click()  # the colour's chip
            expect(box.get_by_label(f"{name}: {hu[colour]} lapok")).to_be_focused()
            page.keyboard.type(str(count))  # one digit: the cursor moves on by itself
        box.get_by_label("joker", exact=True).fill(str(facts["jokers"][seat]))
        box.get_by_label("„+2” lap", exact=True).fill(str(facts["plus_twos"][seat]))
    anna = page.get_by_role("group", name="Anna", exact=True)
    expect(anna.get_by_label("Anna: narancs lapok")).to_be_hidden()  # a colour she does not hold asks nothing
    preview = page.locator("#preview")
    expect(preview).to_contain_text("Gyors beírás: csak a játékosoknál lévő színek.")
    expect(preview.locator("li").filter(has_text="Anna")).to_contain_text("+41")
    shot(page, "hu-coloretto-quick-entry")
    # the full entry is one tap away: every colour of every player, with the counts just typed
    page.get_by_text("Teljes beírás", exact=True).click()
    expect(anna.get_by_label("Anna: narancs lapok")).to_be_visible()
    expect(anna.get_by_label("Anna: zöld lapok")).to_have_value("6")
    page.get_by_text("Gyors beírás", exact=True).click()
    page.get_by_role("button", name="1. kör mentése").click()
    expect(page.locator("#board caption")).to_have_text("1 kör után")
    expect(page.locator("#last-round")).to_contain_text("Gyors beírás: csak a játékosoknál lévő színek.")
    rnd = Round.objects.get(match=match)
    assert rnd.facts["entry"] == "quick"
    expected = ruleset.score(facts, players=4, options=dict(match.options)).scores
    assert rnd.points == list(expected) and rnd.points[0] == 41
    assert page.js_errors == []  # type: ignore[attr-defined]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_counting_games_entries_pass_the_comfort_checks(new_context: Any, make_match: Any, scheme: str) -> None:
    """axe (contrast, labels) and 44 px tap targets on the quick and the full entry of the counting games."""
    from tests.browser.test_comfort import TAP_TARGETS_JS, axe_violations

    matches = [
        make_match("sticheln", 4, {"variant": "classic"}),
        make_match("sticheln", 4, {"variant": "heavy"}),
        make_match("sticheln", 5, {"variant": "hattrick"}),
        make_match("coloretto", 3),
        make_match("abluxxen", 4),
    ]
    problems: dict[str, Any] = {}
    for locale, full in (("en-GB", "Full entry"), ("hu-HU", "Teljes beírás")):
        page = new_context(locale=locale).new_page()
        page.emulate_media(color_scheme=scheme)
        for match in matches:
            page.goto(f"/matches/{match.pk}/")
            switch = page.get_by_text(full, exact=True)
            for entry in ("quick", "full") if switch.count() else ("only",):
                if entry == "full":
                    switch.click()
                else:  # a colour held, so that Coloretto's count shows too
                    chip = page.locator("#entry-form .held label.chip").first
                    if chip.count():
                        chip.click()
                found = axe_violations(page) + [f"small: {t}" for t in page.evaluate(TAP_TARGETS_JS)]
                if found:
                    problems[f"{locale} {match.ruleset} {match.options.get('variant', '')} {entry}"] = found
    assert problems == {}


def test_a_letter_typed_into_a_match_option_is_refused_not_dropped(page: Page, group: Any) -> None:
    """Issue 42: "4a1" typed into a number field was saved as 41 (the browser's number field dropped the letter);
    the option fields are text fields with the number pad now, and the server names the option it refuses."""
    from scoring.models import Match

    page.goto(f"/groups/{group.pk}/matches/new?game=coloretto")
    for name in ("Anna", "Bence", "Cili"):
        page.locator("label.seatchip", has_text=name).click()
    games = page.get_by_role("group", name="Games in the series").locator("input")
    games.click()
    games.press("Control+a")
    page.keyboard.type("4a1")
    expect(games).to_have_value("4a1")
    page.get_by_role("button", name="Start the match").last.click()
    expect(page.locator("main")).to_contain_text("must be a whole number from 1 to 100.")
    assert not Match.objects.filter(group=group).exists()
