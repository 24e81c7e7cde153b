"""The quick entry and the full entry of the same round store the same points (hypothesis over random valid
rounds, each typed into both forms and read by the form parser, then scored by the rules engine); a number
field reads a sum ("3+6+2" is 11) and refuses what is no number ("3+x", "4a1") naming the player and field."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.http import QueryDict
from hypothesis import given, settings
from hypothesis import strategies as st

from frontend.entry import forms as entry
from frontend.entry.base import read_number, to_int
from scoring import rules
from scoring.models import Round
from scoring.rules.sticheln_deck import deck_for
from tests.scoring.rules.test_coloretto import valid_games
from tests.scoring.rules.test_sticheln import full_rounds, with_delayed_pain

NAMES = ["Anna", "Bence", "Cili", "Dani", "Emil", "Flóra", "Gábor", "Hanna"]


def _post(values: dict[str, Any]) -> QueryDict:
    qd = QueryDict(mutable=True)
    for name, value in values.items():
        qd.setlist(name, [str(v) for v in value] if isinstance(value, list) else [str(value)])
    return qd


def _context(key: str, players: int, options: dict[str, Any]) -> entry.EntryContext:
    ruleset = rules.get(key)
    return entry.EntryContext(
        ruleset=ruleset, names=NAMES[:players], options=ruleset.options_parse(options, players=players)
    )


def _typed(number: int, rnd: random.Random) -> str:
    """A number as a player may type it: plain, or as a sum of parts ("3+6+2")."""
    if number < 2 or rnd.random() < 0.5:
        return str(number)
    cut = rnd.randint(1, number - 1)
    return f"{cut}+{number - cut}"


def _points(key: str, c: entry.EntryContext, post: QueryDict) -> tuple[int, ...]:
    facts = entry.adapter(key).to_facts(post, c)
    return tuple(c.ruleset.score(facts, players=c.n, options=c.options).scores)


# --- Sticheln, every variant of the classic family --------------------------------------------------------


def _sticheln_posts(facts: dict[str, Any], variant: str, rnd: random.Random) -> tuple[QueryDict, QueryDict]:
    full: dict[str, Any] = {"entry": "full"}
    quick: dict[str, Any] = {"entry": "quick"}
    for s, seat in enumerate(facts["seats"]):
        pain = seat.get("pain") or []
        pain = [pain] if isinstance(pain, str) else pain
        chooser = seat.get("chooser") or []
        chooser = [chooser] if isinstance(chooser, dict) else chooser
        mine = [c for c in seat["taken"] if c["colour"] in pain]
        others = len(seat["taken"]) - len(mine)
        # the full entry: colour, chooser card(s), pain cards taken and their sum, other cards
        if variant == "heavy":
            for i, card in enumerate(chooser):
                full[f"chooser_colour.{s}.{i}"], full[f"chooser.{s}.{i}"] = card["colour"], card["value"]
            quick[f"seats.{s}.pain"] = pain
        else:
            full[f"pain.{s}"] = quick[f"pain.{s}"] = pain[0] if pain else "none"
            if chooser:
                full[f"chooser.{s}"] = chooser[0]["value"]
        full[f"pain_count.{s}"], full[f"pain_sum.{s}"] = len(mine), sum(c["value"] for c in mine)
        full[f"others.{s}"] = others
        # the quick entry: the other cards and the pain points (gentle: pain cards), the chooser counted in
        quick[f"seats.{s}.others"] = _typed(others, rnd)
        if variant == "gentle":
            quick[f"seats.{s}.pain_cards"] = _typed(len(mine) + len(chooser), rnd)
        else:
            quick[f"seats.{s}.pain_points"] = _typed(sum(c["value"] for c in mine + chooser), rnd)
    return _post(full), _post(quick)


@given(full_rounds(), st.randoms(use_true_random=False))
@settings(max_examples=60, deadline=None)
def test_sticheln_quick_and_full_entry_store_the_same_points(round_: Any, rnd: random.Random) -> None:
    players, variant, facts = round_
    if variant == "delayed":
        facts = with_delayed_pain(facts)
    c = _context("sticheln", players, {"variant": variant})
    full, quick = _sticheln_posts(facts, variant, rnd)
    expected = tuple(c.ruleset.score(facts, players=players, options=c.options).scores)
    assert _points("sticheln", c, full) == expected
    assert _points("sticheln", c, quick) == expected


# --- Hattrick ------------------------------------------------------------------------------------------------


@st.composite
def hattrick_rounds(draw: Any) -> tuple[int, list[tuple[int, int, int, int]]]:
    """A Hattrick round that can happen: every card but each player's last one played, face up or face down."""
    players = draw(st.integers(4, 7))
    deck = deck_for(players, "hattrick")
    assert deck is not None
    down = [draw(st.integers(0, 2)) for _ in range(players)]
    cards = [colour for colour in deck.colours for _ in deck.values]
    cards = draw(st.permutations(cards))[players + sum(down) :]  # the last cards and the face-down ones
    hauls = [[0, 0, 0] for _ in range(players)]
    for colour in cards:
        hauls[draw(st.integers(0, players - 1))][deck.colours.index(colour)] += 1
    return players, [(r, b, g, down[i]) for i, (r, b, g) in enumerate(hauls)]


@given(hattrick_rounds(), st.randoms(use_true_random=False))
@settings(max_examples=60, deadline=None)
def test_hattrick_quick_and_full_entry_store_the_same_points(round_: Any, rnd: random.Random) -> None:
    players, hauls = round_
    c = _context("sticheln", players, {"variant": "hattrick"})
    full: dict[str, Any] = {"entry": "full"}
    quick: dict[str, Any] = {"entry": "quick"}
    for s, (red, blue, green, down) in enumerate(hauls):
        full |= {f"red.{s}": red, f"blue.{s}": blue, f"green.{s}": green, f"face_down.{s}": down}
        most = max(red, blue, green)
        quick |= {f"seats.{s}.most": _typed(most, rnd), f"seats.{s}.rest": _typed(red + blue + green - most, rnd)}
        quick[f"seats.{s}.face_down"] = down
    expected = _points("sticheln", c, _post(full))
    assert _points("sticheln", c, _post(quick)) == expected
    cards = {"seats": [{"red": r, "blue": b, "green": g, "face_down": d} for r, b, g, d in hauls]}
    assert expected == tuple(c.ruleset.score(cards, players=players, options=c.options).scores)


# --- Coloretto -----------------------------------------------------------------------------------------------


@given(valid_games(), st.randoms(use_true_random=False))
@settings(max_examples=60, deadline=None)
def test_coloretto_quick_and_full_entry_store_the_same_points(game: Any, rnd: random.Random) -> None:
    players, facts = game
    c = _context("coloretto", players, {})
    colours = c.ruleset.module.COLOURS
    full: dict[str, Any] = {"entry": "full", "removed_colour": facts["removed_colour"] or ""}
    quick: dict[str, Any] = {"entry": "quick", "removed_colour": facts["removed_colour"] or ""}
    for s in range(players):
        held = [col for col in colours if facts[col][s]]
        quick[f"held.{s}"] = held
        for col in colours:
            full[f"{col}.{s}"] = facts[col][s]
            # the quick entry reads only the ticked colours: a count left in an unticked one is not read
            quick[f"{col}.{s}"] = facts[col][s] if col in held else rnd.choice(["", "0", "5"])
        for name in ("jokers", "plus_twos"):
            full[f"{name}.{s}"] = quick[f"{name}.{s}"] = facts[name][s]
    expected = tuple(c.ruleset.score(facts, players=players, options=c.options).scores)
    assert _points("coloretto", c, _post(full)) == expected
    assert _points("coloretto", c, _post(quick)) == expected


# --- number fields: sums, and text that is no number ------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "number"),
    [("3+6+2", 11), (" 3 + 6 + 2 ", 11), ("11", 11), ("007", 7), ("−3+2", -1), ("+4", 4), ("0+0", 0)],
)
def test_a_number_field_reads_digits_and_sums(typed: str, number: int) -> None:
    assert read_number(typed) == number
    assert to_int(typed) == number


@pytest.mark.parametrize("typed", ["3+x", "4a1", "3+", "+", "3++2", "x", "1.5", "3 4", "٣", "9" * 19])
def test_a_number_field_refuses_what_is_no_number(typed: str) -> None:
    assert read_number(typed) is None
    assert to_int(typed) == typed.strip()  # passed on, for the rules engine to refuse at its field


GAME_FIELDS = [
    # game, players, options, the field typed into, the other inputs of a valid round, who and what it names
    ("abluxxen", 4, {}, "front.1", {"front.0": 10, "front.2": 9, "front.3": 4, "hand.0": 0, "hand.1": 3,
                                    "hand.2": 5, "hand.3": 2, "end": "out"}, "Bence, cards laid out in front"),
    ("meinz", 4, {}, "sums.2", {"sums.0": 51, "sums.1": 38, "sums.3": 31}, "Cili, sum of the tricks"),
    ("mue", 4, {}, "triangles.3", {"chief": 0, "bid": 2, "vice": "", "chief_trump": "colour:red", "partner": 2,
                                   "triangles.0": 20, "triangles.1": 15, "triangles.2": 14}, "Dani, triangles"),
    ("sticheln", 4, {}, "seats.0.others", {"entry": "quick", "pain.0": "red", "seats.0.pain_points": 11,
                                            "pain.1": "blue", "seats.1.others": 10, "seats.1.pain_points": 3,
                                            "pain.2": "green", "seats.2.others": 8, "seats.2.pain_points": 1,
                                            "pain.3": "yellow", "seats.3.others": 18, "seats.3.pain_points": 14},
     "Anna, other cards"),
]  # fmt: skip


@pytest.mark.django_db
@pytest.mark.parametrize(("key", "seated", "options", "field", "rest", "where"), GAME_FIELDS)
def test_a_sum_is_stored_as_its_total_and_text_that_is_no_number_is_refused_naming_the_field(
    client_in: Any, make_match: Any, key: str, seated: int, options: dict[str, Any], field: str,
    rest: dict[str, Any], where: str,
) -> None:  # fmt: skip
    match = make_match(key, seated, options)
    total = {"abluxxen": 11, "meinz": 37, "mue": 11, "sticheln": 14}[key]
    parts = {"abluxxen": "3+6+2", "meinz": "30+7", "mue": "3+6+2", "sticheln": "3+6+5"}[key]
    for typed in ("3+x", "4a1"):
        refused = client_in.post(f"/matches/{match.pk}/rounds", {**rest, field: typed, "number": 1})
        assert refused.status_code == 400
        html = refused.content.decode()
        assert f"{where}: “{typed}” is not a number: type digits, or a sum such as 3+6+2." in html
        assert not Round.objects.filter(match=match).exists()
        preview = client_in.post(f"/matches/{match.pk}/preview", {**rest, field: typed, "number": 1}).content.decode()
        assert f"{where}: “{typed}” is not a number" in preview
    saved = client_in.post(f"/matches/{match.pk}/rounds", {**rest, field: parts, "number": 1})
    assert saved.status_code == 302, saved.content.decode()[:2000]
    rnd = Round.objects.get(match=match)
    stored = rnd.facts
    for step in field.split("."):
        stored = stored[int(step)] if step.isdigit() else stored[step]
    assert stored == total


@pytest.mark.django_db
def test_the_quick_entrys_preview_names_what_is_still_blank(client_in: Any, make_match: Any) -> None:
    match = make_match("sticheln", 3, {"variant": "classic"})
    post = {"entry": "quick", "number": 1, "pain.0": "red", "seats.0.others": "12", "seats.0.pain_points": ""}
    post |= {"pain.1": "blue", "seats.1.others": "", "seats.1.pain_points": "", "pain.2": "green"}
    post |= {"seats.2.others": "", "seats.2.pain_points": ""}
    html = client_in.post(f"/matches/{match.pk}/preview", post).content.decode()
    assert "Still missing: pain points of Anna, Bence and Cili; other cards of Bence and Cili" in html
