"""Every referee tap counts (issue 42): cards tapped 50 ms apart, with cards taken back in between, are all in
the trick the page shows, and the verdict judges exactly those cards: NJET, MÜ, Meinz and Sticheln, eight cards
each, at the largest table (a trick of fewer cards takes some back and is filled again)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from scoring.rules import tricks
from tests.browser.helpers import shot
from tests.browser.test_referee import SETTLED, choose

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

UNDO = ("undo",)
# each step 50 ms after the one before: a colour and its value are two taps; "undo" takes back the last card
TAPS = r"""async (steps) => {
  const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
  const tap = (selector) => document.querySelector(selector).click();
  for (const step of steps) {
    if (step[0] === "undo") tap('#ref-form button[name="action"][value="undo"]');
    else if (step[0] === "set") tap(`#ref-form input[name="${step[1]}"][value="${step[2]}"] + span`);
    else {
      tap(`#ref-form input[name="pick_colour"][value="${step[1]}"] + span`);
      await sleep(50);
      tap(`#ref-form input[name="pick_value"][value="${step[2]}"] + span`);
    }
    await sleep(50);
  }
}"""


def final_trick(steps: list[tuple[Any, ...]]) -> list[tuple[str, int]]:
    trick: list[tuple[str, int]] = []
    for step in steps:
        if step == UNDO:
            trick.pop()
        elif step[0] == "card":
            trick.append((step[1], step[2]))
    return trick


def tap_fast_and_check(page: Page, key: str, players: int, steps: list[tuple[Any, ...]], setup: dict[str, Any]) -> None:
    assert sum(1 for s in steps if s[0] == "card") == 8
    page.goto(f"/referee/{key}/")
    choose(page, "Players", str(players))
    expect(page.locator("#ref-form legend").filter(has_text="The trick:")).to_have_text(
        f"The trick: 0 of {players} cards"
    )
    page.evaluate(TAPS, [list(s) for s in steps])
    page.wait_for_function(SETTLED)

    cards = final_trick(steps)
    names = [f"Player {n}" for n in range(1, players + 1)]
    label = {c: page.locator(f'#ref-form input[name="pick_colour"][value="{c}"] + span').inner_text().strip()
             for c in {c for c, _ in cards}}  # fmt: skip
    shown = [f"{names[i]}: {label[c]} {v}" for i, (c, v) in enumerate(cards)]
    expect(page.locator("ol.trick li")).to_have_text(shown)
    expect(page.locator("#ref-form legend").filter(has_text="The trick:")).to_have_text(
        f"The trick: {players} of {players} cards"
    )
    # what the page sends is what it shows, and the verdict is the rules' verdict on exactly these cards
    sent = page.locator('#ref-form input[name="play"]').evaluate_all("(xs) => xs.map((x) => x.value)")
    assert sent == [f"{c}:{v}" for c, v in cards]
    plays = [{"seat": i, "card": {"colour": c, "value": v}} for i, (c, v) in enumerate(cards)]
    result = tricks.referee(key, setup, plays, options={"players": players})
    colour, value = cards[result.winner]
    verdict = page.locator("#verdict")
    expect(verdict.get_by_role("heading")).to_have_text(
        f"{names[result.winner]} takes the trick: {label[colour]} {value}"
    )
    expect(verdict.locator("ol.expl li")).to_have_count(players)
    for i in range(players):  # one note per card shown, in the order played
        expect(verdict.locator("ol.expl li").nth(i)).to_contain_text(f"{names[i]}: ")
    shot(page, f"referee-fast-{key}", full=False)
    assert page.js_errors == []  # type: ignore[attr-defined]


def card(colour: str, value: int) -> tuple[str, str, int]:
    return ("card", colour, value)


def test_njet_eight_cards_fifty_ms_apart(page: Page) -> None:
    steps = [
        ("set", "trump", "black"),
        ("set", "super_trump", "blue"),
        card("red", 9), card("red", 0), card("red", 4), UNDO,
        card("yellow", 0), card("black", 7), card("red", 2), UNDO, UNDO,
        card("black", 3), card("blue", 0),
    ]  # fmt: skip
    tap_fast_and_check(page, "njet", 5, steps, {"trump": "black", "super_trump": "blue"})


def test_mue_eight_cards_fifty_ms_apart_with_both_trumps(page: Page) -> None:
    steps = [
        ("set", "chief_trump", "colour:green"),
        ("set", "vice_trump", "number:5"),
        card("red", 9), card("red", 1), card("blue", 5), card("green", 2), card("red", 7), UNDO,
        card("red", 6), card("yellow", 3), UNDO,
        card("black", 8),
    ]  # fmt: skip
    setup = {"chief_trump": {"kind": "colour", "value": "green"}, "vice_trump": {"kind": "number", "value": 5}}
    tap_fast_and_check(page, "mue", 6, steps, setup)


def test_meinz_eight_cards_fifty_ms_apart(page: Page) -> None:
    steps = [
        card("red", 5), card("red", 8), card("blue", 2), card("green", 9), UNDO, UNDO,
        card("yellow", 3), card("red", 1), UNDO, UNDO,
        card("green", 4), card("red", 7),
    ]  # fmt: skip
    tap_fast_and_check(page, "meinz", 4, steps, {})


def test_sticheln_eight_players_eight_cards_fifty_ms_apart(page: Page) -> None:
    steps = [
        card("red", 5), card("red", 9), card("yellow", 12), card("red", 18),
        card("green", 0), card("brown", 7), card("purple", 15), card("red", 11),
    ]  # fmt: skip
    tap_fast_and_check(page, "sticheln", 8, steps, {"variant": "classic"})
