"""Sticheln's round form: heavy chooser cards keep the colour entered for each of them; in delayed Sticheln
a player without a trick is saved with the explicit, explained "no trick — no colour" choice."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.http import QueryDict

from frontend.entry import forms as entry
from scoring import rules
from scoring.models import Round

pytestmark = pytest.mark.django_db


def _context(variant: str, players: int = 3) -> entry.EntryContext:
    ruleset = rules.get("sticheln")
    options = ruleset.options_parse({"variant": variant}, players=players)
    return entry.EntryContext(ruleset=ruleset, names=["Anna", "Bence", "Cili"][:players], options=options)


def _post(data: dict[str, Any]) -> QueryDict:
    qd = QueryDict(mutable=True)
    for name, value in data.items():
        qd.setlist(name, value if isinstance(value, list) else [str(value)])
    return qd


# 3 players, heavy: 13 tricks, 39 cards taken + 6 chooser cards = 45 dealt. Anna's first chooser card is a
# blue 4 and her second a red 2 (blue comes after red in the deck's colour list).
HEAVY = {
    "chooser_colour.0.0": "blue", "chooser.0.0": 4, "chooser_colour.0.1": "red", "chooser.0.1": 2,
    "pain_count.0": 2, "pain_sum.0": 5, "others.0": 10,
    "chooser_colour.1.0": "green", "chooser.1.0": 1, "chooser_colour.1.1": "yellow", "chooser.1.1": 0,
    "pain_count.1": 0, "pain_sum.1": 0, "others.1": 15,
    "chooser_colour.2.0": "brown", "chooser.2.0": 3, "chooser_colour.2.1": "red", "chooser.2.1": 7,
    "pain_count.2": 1, "pain_sum.2": 6, "others.2": 11,
}  # fmt: skip


def test_heavy_chooser_cards_keep_the_colours_as_entered() -> None:
    c = _context("heavy")
    facts = entry.adapter("sticheln").to_facts(_post(HEAVY), c)
    anna = facts["seats"][0]
    assert anna["chooser"] == [{"colour": "blue", "value": 4}, {"colour": "red", "value": 2}]
    assert anna["pain"] == ["blue", "red"]
    stored = c.ruleset.normalise(facts, players=3, options=c.options)
    assert [(card["colour"], card["value"]) for card in stored["seats"][0]["chooser"]] == [("blue", 4), ("red", 2)]
    # and back into the form for editing: each card with its own colour
    values = entry.values(entry.adapter("sticheln").from_facts(stored, c))
    assert (values.get("chooser_colour.0.0"), values.get("chooser.0.0")) == ("blue", "4")
    assert (values.get("chooser_colour.0.1"), values.get("chooser.0.1")) == ("red", "2")


def test_heavy_points_are_what_the_rules_give(client_in: Any, make_match: Any) -> None:
    match = make_match("sticheln", 3, {"variant": "heavy"})
    response = client_in.post(f"/matches/{match.pk}/rounds", HEAVY)
    assert response.status_code == 302, response.content.decode()[:3000]
    rnd = Round.objects.get(match=match)
    # Anna: 10 others - (4 + 2 chooser + 5 taken) = -1; Bence 15 - 1 = 14; Cili 11 - (3 + 7 + 6) = -5
    assert rnd.points == [-1, 14, -5]
    assert [card["colour"] for card in rnd.facts["seats"][0]["chooser"]] == ["blue", "red"]
    page = client_in.get(f"/matches/{match.pk}/").content.decode()
    assert 'name="chooser_colour.0.1"' in page
    assert "Value of chooser card 2" in page


def test_heavy_chooser_card_without_a_colour_is_refused_next_to_it(client_in: Any, make_match: Any) -> None:
    match = make_match("sticheln", 3, {"variant": "heavy"})
    data = {**HEAVY, "chooser_colour.0.1": ""}
    response = client_in.post(f"/matches/{match.pk}/rounds", data)
    assert response.status_code == 400
    assert not Round.objects.filter(match=match).exists()


# 3 players, delayed: 15 tricks, 45 cards taken, no chooser card. Cili took no trick at all.
DELAYED = {
    "pain.0": "red", "pain_count.0": 3, "pain_sum.0": 6, "others.0": 21,
    "pain.1": "green", "pain_count.1": 2, "pain_sum.1": 1, "others.1": 19,
    "pain.2": "none", "pain_count.2": 0, "pain_sum.2": 0, "others.2": 0,
}  # fmt: skip


def test_delayed_no_trick_is_an_explicit_choice(client_in: Any, make_match: Any) -> None:
    match = make_match("sticheln", 3, {"variant": "delayed"})
    page = client_in.get(f"/matches/{match.pk}/").content.decode()
    assert 'name="pain.2" value="none"' in page
    assert "no trick — no colour" in page
    assert "A player who took no trick has no colour to pick and scores 0" in page
    response = client_in.post(f"/matches/{match.pk}/rounds", DELAYED)
    assert response.status_code == 302, response.content.decode()[:3000]
    rnd = Round.objects.get(match=match)
    assert rnd.facts["seats"][2]["pain"] in (None, [])
    assert rnd.points[2] == 0
    # editing the round shows the same choice again
    c = _context("delayed")
    values = entry.values(entry.adapter("sticheln").from_facts(rnd.facts, c))
    assert values.getlist("pain.2") == ["none"]
    assert values.getlist("pain.0") == ["red"]


def test_delayed_no_colour_for_a_player_with_cards_is_refused(client_in: Any, make_match: Any) -> None:
    match = make_match("sticheln", 3, {"variant": "delayed"})
    data = {**DELAYED, "pain.1": "none"}
    response = client_in.post(f"/matches/{match.pk}/rounds", data)
    assert response.status_code == 400
    assert "With the quick entry, enter the pain colour the player picked." in response.content.decode()


def test_a_seats_refusal_is_shown_once_beside_that_players_inputs(client_in: Any, make_match: Any) -> None:
    """A complaint about one player's cards sits in that player's box (and in the error box), not also in the
    list for the round as a whole: its id is unique, so the input's aria-describedby reads that message."""
    match = make_match("sticheln", 3, {"variant": "heavy"})
    data = {**HEAVY, "others.1": 13, "others.2": 20}  # not multiples of 3, nor 45 cards in all
    response = client_in.post(f"/matches/{match.pk}/rounds", data)
    assert response.status_code == 400
    html = response.content.decode()
    assert html.count('id="err-seats.1.others"') == 1
    assert re.search(r'name="others\.1"[^>]*aria-invalid="true" aria-describedby="err-seats\.1\.others"', html)
    bence_box = html[html.index("<legend>Bence</legend>") : html.index("<legend>Cili</legend>")]
    assert 'id="err-seats.1.others"' in bence_box and "Bence, other cards:" in bence_box
    # the count of all cards is about the round as a whole: listed once, above the players' boxes
    assert len(re.findall(r"The cards entered come to \d+\.", html)) == 2  # the error box and its place
    assert html.index('id="err-seats"') < html.index("<legend>Anna</legend>")
    assert not Round.objects.filter(match=match).exists()
