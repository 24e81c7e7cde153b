"""Was sticht? asks only for the colours that decide a revealed "no colour" task, the same in the preview and on
Save, and not in a collapsed section (issue 42: the preview asked for the start player's and the owner's colours,
Save then refused until two uninvolved players' colours were ticked too)."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from django.urls import reverse

from scoring.models import Round

pytestmark = pytest.mark.django_db

TASKS = [
    ["betli", "most", "exactly-2", "no-red"],
    ["exactly-2", "last-trick", "fewest", "no-blue"],
    ["betli", "exactly-3", "most", "no-green"],
    ["last-trick", "fewest", "exactly-1", "no-yellow"],
]
# Anna starts; Bence reveals "no blue", so Bence's and Anna's colours decide it, and nobody else's
ROUND = {
    "number": "1",
    "start_player": "0",
    "chosen.1": "no-blue",
    "chosen.2": "betli",
    "chosen.3": "last-trick",
    "tricks.0": "2",
    "tricks.1": "3",
    "tricks.2": "0",
    "tricks.3": "4",
    "last_trick": "3",
    "trump_colour": "",
    "trump_number": "",
}


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html))).strip()


def _with_colours(**seats: list[str]) -> dict[str, Any]:
    data: dict[str, Any] = dict(ROUND)
    for seat, colours in seats.items():
        data[f"colours.{seat[1:]}"] = colours
    return data


def test_preview_and_save_ask_for_the_same_colours(client_in: Any, make_match: Any) -> None:
    match = make_match("was-sticht", 4, options={"tasks": TASKS})
    preview = reverse("round_preview", args=[match.pk])

    asked = client_in.post(preview, ROUND).content.decode()
    assert set(re.findall(r"(\w+), colours in the tricks:", _text(asked))) == {"Anna", "Bence"}
    assert 'data-colour-seats="0 1"' in asked
    # Save asks for the very same, and for nothing else
    refused = client_in.post(reverse("round_new", args=[match.pk]), ROUND)
    assert refused.status_code == 400
    complaints = set(re.findall(r'href="#f-(colours\.\d)"', refused.content.decode()))
    assert complaints == {"colours.0", "colours.1"}

    # those two ticked: the preview scores it, and Save stores it without asking for Cili's or Dani's colours
    ticked = _with_colours(s0=["red", "yellow"], s1=["red", "green", "yellow"])
    scored = _text(client_in.post(preview, ticked).content.decode())
    assert "Points if saved like this:" in scored and "Still missing" not in scored
    assert client_in.post(reverse("round_new", args=[match.pk]), ticked).status_code == 302
    stored = Round.objects.get(match=match).facts
    assert stored["colours"][2:] == [None, None]
    assert sorted(stored["colours"][1]) == ["green", "red", "yellow"]


def test_the_form_shows_only_the_asked_colours_and_not_folded_away(client_in: Any, make_match: Any) -> None:
    match = make_match("was-sticht", 4, options={"tasks": TASKS})
    page = client_in.get(reverse("match", args=[match.pk])).content.decode()
    # nothing revealed yet: no colours asked
    assert re.search(r"<fieldset data-colour-group hidden>", page)
    assert "<details" not in page[page.index('id="entry-form"') : page.index("</form>", page.index('id="entry-form"'))]

    refused = client_in.post(reverse("round_new", args=[match.pk]), ROUND).content.decode()
    start = refused.index("data-colour-group")
    group = refused[start : refused.index("</fieldset>", start)]
    assert not group.startswith("data-colour-group hidden")
    for seat, asked in ((0, True), (1, True), (2, False), (3, False)):
        row = re.search(rf'<div class="seat" data-colour-seat="{seat}"( hidden)?>', group)
        assert row is not None and (row.group(1) is None) is asked
    assert 'name="colours.2" value="red" disabled>' in group  # not asked: not sent
    assert re.search(r'name="colours.0" value="red"(?![^>]*disabled)[^>]*>', group)


def test_preview_asks_no_colours_without_a_no_colour_task(client_in: Any, make_match: Any) -> None:
    match = make_match("was-sticht", 4, options={"tasks": TASKS})
    plain = {**ROUND, "chosen.1": "exactly-2"}
    answer = client_in.post(reverse("round_preview", args=[match.pk]), plain).content.decode()
    assert 'data-colour-seats=""' in answer and "colours in the tricks" not in _text(answer)
