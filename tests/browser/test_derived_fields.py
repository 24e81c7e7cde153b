"""Nothing the table already knows is asked: per game, the value the others fix is filled in, shown as such
(dashed, with a note saying why) and follows when its inputs change (360 px, as a player taps).

Meinz has none: the four sums come to 180 less the four cards discarded unseen, so no sum fixes another."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser.helpers import tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
AUTO = re.compile(r"\bauto\b")  # filled in from the others: drawn dashed


def field(page: Page, name: str) -> Locator:
    return page.locator(f'#entry-form [name="{name}"][data-num]')


def typed(page: Page, values: dict[str, Any]) -> None:
    for name, value in values.items():
        field(page, name).fill(str(value))


def derived(page: Page, member: str) -> Locator:
    """The container of a value filled in from the others (a data-m member or a radio group)."""
    return page.locator(f'#entry-form [data-m="{member}"]')


def checked(page: Page, name: str) -> Locator:
    return page.locator(f'#entry-form input[name="{name}"]:checked')


def test_njet_last_tricks_follow_the_discard_and_the_others(page: Page, make_match: Any) -> None:
    match = make_match("njet", 4)
    page.goto(f"/matches/{match.pk}/")
    tap(page, "discard", "one")  # 15 cards, 1 discarded: 14 tricks
    for seat, tricks in enumerate((3, 5, 2)):
        tap(page, f"tricks.{seat}", tricks)
    expect(checked(page, "tricks.3")).to_have_value("4")
    expect(derived(page, "tricks.3")).to_have_class(AUTO)
    expect(page.get_by_text("The last player's tricks are filled in from the others.")).to_be_visible()
    tap(page, "discard", "none")  # nothing discarded: 15 tricks
    expect(checked(page, "tricks.3")).to_have_value("5")
    tap(page, "tricks.1", 6)
    expect(checked(page, "tricks.3")).to_have_value("4")


def test_njet_three_players_the_player_alone_holds_the_monster(page: Page, make_match: Any) -> None:
    match = make_match("njet", 3)
    page.goto(f"/matches/{match.pk}/")
    monster = page.locator("#entry-form fieldset[data-alone]")
    tap(page, "start_player", 0)
    tap(page, "partner", 1)
    expect(checked(page, "monster")).to_have_value("2")
    expect(monster).to_have_class(AUTO)
    expect(monster.get_by_text("Filled in: the player alone against the start player's team holds it.")).to_be_visible()
    tap(page, "partner", 1)  # untick Bence, tick Cili: Bence is alone now
    tap(page, "partner", 2)
    expect(checked(page, "monster")).to_have_value("1")
    tap(page, "monster", 2)  # a tap of one's own is kept: the rules engine says whether it can be
    tap(page, "start_player", 1)
    expect(checked(page, "monster")).to_have_value("2")
    expect(monster).not_to_have_class(AUTO)


def test_mue_last_triangles_follow(page: Page, make_match: Any) -> None:
    match = make_match("mue", 4)
    page.goto(f"/matches/{match.pk}/")
    typed(page, {"triangles.0": 20, "triangles.1": 15, "triangles.2": 14})
    expect(field(page, "triangles.3")).to_have_value("11")
    expect(derived(page, "triangles.3")).to_have_class(AUTO)
    typed(page, {"triangles.1": "10+3"})  # a sum counts as its total
    expect(field(page, "triangles.3")).to_have_value("13")


def test_was_sticht_last_tricks_follow(page: Page, make_match: Any) -> None:
    from scoring import rules

    match = make_match("was-sticht", 4, rules.get("was-sticht").example["options"])
    page.goto(f"/matches/{match.pk}/")
    tap(page, "entry", "full")  # the tricks are the full entry's (the quick one ticks the task cards returned)
    for seat, tricks in enumerate((2, 3, 1)):
        tap(page, f"tricks.{seat}", tricks)
    expect(checked(page, "tricks.3")).to_have_value("3")
    tap(page, "tricks.0", 4)
    expect(checked(page, "tricks.3")).to_have_value("1")


def test_muzicando_last_place_follows(page: Page, make_match: Any) -> None:
    match = make_match("muzicando", 4)
    page.goto(f"/matches/{match.pk}/")
    for place, seat in enumerate((2, 0, 3)):
        tap(page, f"order.{place}", seat)
    expect(checked(page, "order.3")).to_have_value("1")
    tap(page, "order.2", 1)
    expect(checked(page, "order.3")).to_have_value("3")


def test_sticheln_full_entry_last_other_cards_follow(page: Page, make_match: Any) -> None:
    match = make_match("sticheln", 4, {"variant": "classic"})  # 14 tricks of 4: 56 cards in tricks
    page.goto(f"/matches/{match.pk}/")
    page.get_by_text("Full entry", exact=True).click()
    expect(field(page, "chooser.0")).to_have_value("0")  # the chooser value starts at the lowest card
    typed(page, {"pain_count.0": 2, "others.0": 14, "pain_count.1": 2, "others.1": 10, "pain_count.2": 0})
    typed(page, {"others.2": 8, "pain_count.3": 2})
    expect(field(page, "others.3")).to_have_value("18")
    expect(derived(page, "others.3")).to_have_class(AUTO)
    expect(page.get_by_text("The last player's other cards are filled in")).to_be_visible()
    typed(page, {"others.2": 4})
    expect(field(page, "others.3")).to_have_value("22")


def test_sticheln_gentle_quick_entry_last_pain_cards_follow(page: Page, make_match: Any) -> None:
    match = make_match("sticheln", 4, {"variant": "gentle"})  # 60 cards dealt, the choosers among the pain cards
    page.goto(f"/matches/{match.pk}/")
    typed(page, {"seats.0.others": 14, "seats.0.pain_cards": 3, "seats.1.others": 10, "seats.1.pain_cards": 3})
    typed(page, {"seats.2.others": 8, "seats.2.pain_cards": 1, "seats.3.others": 18})
    expect(field(page, "seats.3.pain_cards")).to_have_value("3")
    expect(derived(page, "seats.3.pain_cards")).to_have_class(AUTO)
    typed(page, {"seats.3.others": 14})
    expect(field(page, "seats.3.pain_cards")).to_have_value("7")


def test_hattrick_last_count_follows_in_both_entries(page: Page, make_match: Any) -> None:
    match = make_match("sticheln", 4, {"variant": "hattrick"})  # 60 cards, each player's last set aside: 56
    page.goto(f"/matches/{match.pk}/")
    typed(page, {"seats.0.most": 9, "seats.0.rest": 6, "seats.1.most": 10, "seats.1.rest": 5})
    typed(page, {"seats.2.most": 10, "seats.2.rest": 8, "seats.3.most": 4})
    field(page, "seats.0.face_down").fill("1")
    expect(field(page, "seats.3.rest")).to_have_value("3")
    expect(derived(page, "seats.3.rest")).to_have_class(AUTO)
    expect(field(page, "seats.3.face_down")).to_have_value("0")  # face-down cards are never the filled-in one
    page.get_by_text("Full entry", exact=True).click()
    typed(page, {"red.0": 9, "blue.0": 2, "green.0": 4, "face_down.0": 1, "red.1": 3, "blue.1": 10, "green.1": 2})
    typed(page, {"red.2": 4, "blue.2": 4, "green.2": 10, "red.3": 3, "blue.3": 4})
    expect(field(page, "green.3")).to_have_value("0")
    typed(page, {"blue.3": 2})
    expect(field(page, "green.3")).to_have_value("2")
    expect(derived(page, "green.3")).to_have_class(AUTO)


def test_abluxxen_end_follows_the_hands(page: Page, make_match: Any) -> None:
    match = make_match("abluxxen", 4)
    page.goto(f"/matches/{match.pk}/")
    end = page.locator("#entry-form fieldset[data-end-from]")
    typed(page, {"hand.1": 3, "hand.2": 5, "hand.3": 2})  # Anna's hand stays empty: she went out
    expect(checked(page, "end")).to_have_value("out")
    expect(end).to_have_class(AUTO)
    typed(page, {"hand.0": 1})  # nobody went out: the pile ran out
    expect(checked(page, "end")).to_have_value("exhausted")
    typed(page, {"hand.0": 0, "hand.3": 0})  # two empty hands: nothing to fill in
    expect(checked(page, "end")).to_have_count(0)


def test_coloretto_three_players_removed_colour_is_the_one_nobody_holds(page: Page, make_match: Any) -> None:
    match = make_match("coloretto", 3)
    page.goto(f"/matches/{match.pk}/")
    page.get_by_text("Full entry", exact=True).click()
    removed = page.locator("#entry-form fieldset[data-absent]")
    holdings = {0: ("yellow", "orange"), 1: ("red", "green"), 2: ("blue", "brown")}
    for seat, colours in holdings.items():
        for colour in colours:
            field(page, f"{colour}.{seat}").fill("3")
    expect(checked(page, "removed_colour")).to_have_value("grey")
    expect(removed).to_have_class(AUTO)
    field(page, "grey.2").fill("1")
    field(page, "brown.2").fill("0")
    expect(checked(page, "removed_colour")).to_have_value("brown")
    field(page, "brown.2").fill("2")
    expect(checked(page, "removed_colour")).to_have_count(0)
