"""Was sticht? at the table (issue 30, item 6): the board names the start player, the entry form preselects him, and
when he fulfils a task its owner misses he chooses which of his own tasks he gives back (the app proposes one)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from scoring import selectors
from scoring.models import Round
from tests.browser.helpers import shot, tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TASKS = [
    ["betli", "most", "exactly-2", "no-red"],
    ["exactly-2", "last-trick", "fewest", "no-blue"],
    ["betli", "exactly-3", "most", "no-green"],
    ["last-trick", "fewest", "exactly-1", "no-yellow"],
]


def totals(page: Any) -> list[int]:
    return [int(t.replace("−", "-")) for t in page.locator("#board table.totals td.total").all_inner_texts()]


def reveal(page: Any, chosen: dict[int, str]) -> None:
    """The full entry (the quick one is offered first): the task each other player revealed."""
    tap(page, "entry", "full")
    for seat, task in chosen.items():
        page.locator(f'[id="f-chosen.{seat}"]').select_option(task)


def tricks(page: Any, counts: list[int], last: int) -> None:
    for seat, n in enumerate(counts):
        tap(page, f"tricks.{seat}", n)
    tap(page, "last_trick", last)


def start_radio(page: Any, name: str) -> Any:
    return page.locator('#entry-form fieldset:has(input[name="start_player"])').get_by_role(
        "radio", name=name, exact=True
    )


def test_start_player_named_preselected_and_choosing_the_returned_task(page: Any, make_match: Any) -> None:
    match = make_match("was-sticht", 4, options={"tasks": TASKS})
    page.goto(f"/matches/{match.pk}/")
    status = page.locator("#board .status")
    expect(status).to_contain_text("Start player: Anna")
    expect(status).not_to_contain_text("Next dealer")
    expect(start_radio(page, "Anna")).to_be_checked()  # round 1: seat 0 starts
    # the choice of the returned task is shown once the preview says she earned a return
    expect(page.locator("#entry-form [data-return-group]")).to_be_hidden()

    # Bence wants exactly 2 tricks and takes 1; Anna takes exactly 2: she gives back one task — she picks "no red"
    reveal(page, {1: "exactly-2", 2: "betli", 3: "last-trick"})
    tricks(page, [2, 1, 0, 6], last=3)
    # Anna's four tasks, the app's proposal (her first) preselected
    choice = page.get_by_role("radiogroup", name="If Anna earns a return: the task to give back")
    expect(choice.get_by_role("radio")).to_have_count(4)
    expect(choice.get_by_role("radio", name="Betli (no trick) (proposed)")).to_be_checked()
    expect(page.locator("#entry-form")).to_contain_text("The rulebook lets him choose which")
    tap(page, "start_return", "no-red")
    expect(choice.get_by_role("radio", name="no red")).to_be_checked()
    expect(page.locator("#preview")).to_contain_text("returns “No red card” (as chosen")
    shot(page, "was-sticht-start-return-entry")
    page.locator("#entry-form button[type=submit]").click()
    expect(page.locator("#board caption")).to_have_text("after 1 round")
    assert totals(page) == [1, 0, 1, 1]
    expect(page.locator("#last-round")).to_contain_text("so returns “No red card” (as chosen")

    stored = Round.objects.get(match=match, number=1)
    assert stored.facts["start_return"] == "no-red"
    assert list(stored.points) == [1, 0, 1, 1]
    board = selectors.match_scoreboard(match=match)
    assert board["extra"]["held"][0] == ["betli", "most", "exactly-2"]

    # round 2: the rotation moves left — Bence starts, is preselected, and his own tasks are offered
    expect(status).to_contain_text("Start player: Bence")
    expect(start_radio(page, "Bence")).to_be_checked()
    expect(page.locator("#entry-form [data-return-group]")).to_be_hidden()  # nothing earned yet
    expect(page.locator('#entry-form input[name="start_return"][value="exactly-2"]')).to_be_checked()  # proposed
    shot(page, "was-sticht-start-player-round-2")

    # editing round 1 shows her choice although she no longer holds that task, and saving keeps it
    page.goto(f"/matches/{match.pk}/rounds/1/edit")
    choice = page.get_by_role("radiogroup", name="If Anna earns a return: the task to give back")
    expect(choice.get_by_role("radio", name="no red")).to_be_checked()
    page.locator("#entry-form button[type=submit]").click()
    expect(page.locator("#board caption")).to_have_text("after 1 round")
    assert Round.objects.get(match=match, number=1).facts["start_return"] == "no-red"
    assert totals(page) == [1, 0, 1, 1]
    assert page.js_errors == []


def test_hungarian_start_player_and_a_choice_that_does_not_apply(new_context: Any, make_match: Any) -> None:
    match = make_match("was-sticht", 4, options={"tasks": TASKS})
    page = new_context(locale="hu-HU").new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"/matches/{match.pk}/")
    status = page.locator("#board .status")
    expect(status).to_contain_text("Kezdőjátékos: Anna")
    expect(status).not_to_contain_text("Következő osztó")
    expect(start_radio(page, "Anna")).to_be_checked()
    group = page.locator("#entry-form [data-return-group]")
    expect(group).to_be_hidden()
    expect(group).to_contain_text("A szabály szerint ő választja ki, melyiket")

    # Bence fulfils exactly 2 as well: only the owner gives it back, Anna earns nothing — the choice stays hidden
    reveal(page, {1: "exactly-2", 2: "betli", 3: "last-trick"})
    tricks(page, [2, 2, 0, 5], last=3)
    expect(page.locator("#preview")).to_contain_text("így semmit sem ad vissza")
    expect(group).to_be_hidden()
    page.locator("#entry-form button[type=submit]").click()
    expect(status).to_contain_text("Kezdőjátékos: Bence")  # saved: the rotation moved on
    assert totals(page) == [0, 1, 1, 1]
    stored = Round.objects.get(match=match, number=1)
    assert stored.facts["start_return"] is None
    assert selectors.match_scoreboard(match=match)["extra"]["held"][0] == TASKS[0]

    # round 2 in Hungarian: Bence starts; Dani wants exactly 1 trick and takes none, Bence takes exactly 1, so Bence
    # gives back a task — the proposal, his first task still held ("the last trick"), which he keeps
    expect(start_radio(page, "Bence")).to_be_checked()
    reveal(page, {0: "most", 2: "exactly-3", 3: "exactly-1"})
    tricks(page, [5, 1, 3, 0], last=0)
    choice = page.get_by_role("radiogroup", name="Ha Bence visszaadhat egy feladatkártyát: melyiket adja vissza")
    expect(choice.get_by_role("radio").first).to_be_checked()
    expect(page.locator("#preview")).to_contain_text(
        "visszaadja ezt: „Az utolsó ütés” (az elvétel sorrendjében az első"
    )
    expect(page.locator("#preview")).to_contain_text(
        "Ez az alkalmazás javaslata; Bence lent másik feladatot is választhat."
    )
    page.locator("#entry-form button[type=submit]").click()
    expect(status).to_contain_text("Kezdőjátékos: Cili")
    assert totals(page) == [1, 2, 2, 1]
    assert Round.objects.get(match=match, number=2).facts["start_return"] == "last-trick"
    assert selectors.match_scoreboard(match=match)["extra"]["held"][1] == ["fewest", "no-blue"]
    shot(page, "was-sticht-start-player-hu")
    assert errors == []


def test_colours_asked_are_the_ones_a_revealed_no_colour_task_needs(page: Any, make_match: Any) -> None:
    """Issue 42: with "no blue" revealed by Bence, the form asks, in view, for Anna's (the start player's) and Bence's
    colours only; the preview and Save agree, and the round is stored without Cili's or Dani's colours."""
    match = make_match("was-sticht", 4, options={"tasks": TASKS})
    page.goto(f"/matches/{match.pk}/")
    group = page.get_by_role("group", name="Colours in the tricks (they decide a revealed “no colour” task)")
    expect(group).to_be_hidden()
    reveal(page, {1: "no-blue", 2: "betli", 3: "last-trick"})
    tricks(page, [2, 3, 0, 4], last=3)
    expect(group).to_be_visible()
    asked = group.locator("[data-colour-seat]:visible .who")
    expect(asked).to_have_text(["Anna", "Bence"])
    preview = page.locator("#preview")
    expect(preview).to_contain_text("Anna, colours in the tricks")
    expect(preview).to_contain_text("Bence, colours in the tricks")
    expect(preview).not_to_contain_text("Cili, colours")
    expect(preview).not_to_contain_text("Dani, colours")

    for who, colours in (("Anna", ("red", "yellow")), ("Bence", ("red", "green", "yellow"))):
        row = group.get_by_role("group", name=who, exact=True)
        for colour in colours:
            row.get_by_text(colour, exact=True).click()
    expect(preview).to_contain_text("Points if saved like this:")
    shot(page, "was-sticht-colours-asked")
    page.get_by_role("button", name="Save round 1").click()
    expect(page.locator("#board caption")).to_have_text("after 1 round")
    stored = Round.objects.get(match=match).facts
    assert stored["colours"][2:] == [None, None] and sorted(stored["colours"][0]) == ["red", "yellow"]
    assert page.js_errors == []
