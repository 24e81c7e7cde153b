"""Sticheln: the rulebook's worked examples, every variant, the deck tables, round checks and the match."""

from __future__ import annotations

import contextlib
import copy
import dataclasses
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules import InvalidRound, get, sticheln
from scoring.rules.sticheln_deck import (
    CHOOSER_CARDS,
    CLASSIC_DECKS,
    COLOURS_BY_PLAYERS,
    COLOURS_FIVE,
    COLOURS_SIX,
    HATTRICK_DECKS,
    TRICKS,
    deck_for,
    first_shortfall,
    sum_reachable,
    values_available,
)
from scoring.rules.sticheln_facts import Card
from scoring.rules.types import MatchState

RULES = get("sticheln")
CLASSIC_FAMILY = ("classic", "reverse", "gentle", "heavy", "foggy", "delayed")
FRESH = MatchState(totals=(0, 0, 0, 0), rounds_played=0, finished=False)


def card(colour: str, value: int) -> dict[str, Any]:
    return {"colour": colour, "value": value}


def cards(*labels: str) -> list[dict[str, Any]]:
    """cards("red 2", "blue 0") -> card dicts."""
    return [card(label.split()[0], int(label.split()[1])) for label in labels]


def result_of(facts: dict[str, Any], players: int = 4, variant: str = "classic") -> Any:
    return RULES.score(facts, players=players, options={"variant": variant})


def scores(facts: dict[str, Any], players: int = 4, variant: str = "classic") -> tuple[int, ...]:
    return tuple(result_of(facts, players, variant).scores)


def problems(
    facts: Any, players: int = 4, variant: str = "classic", before: tuple[Any, ...] = ()
) -> set[tuple[str, str, str]]:
    with pytest.raises(InvalidRound) as info:
        RULES.score(facts, players=players, options={"variant": variant}, before=before)
    return {(p.field, p.msg, p.rule) for p in info.value.problems}


def msgs(facts: Any, players: int = 4, variant: str = "classic") -> set[str]:
    return {msg for _, msg, _ in problems(facts, players, variant)}


def rendered(result: Any, seat: int) -> list[str]:
    return [RULES.render(ln.msg, ln.param_dict()) for ln in result.lines if ln.player == seat]


def assert_lines_add_up(result: Any) -> None:
    """Each player's scored lines add up to the score, and every line renders from its template."""
    for ln in result.lines:
        assert RULES.render(ln.msg, ln.param_dict())
        assert ln.rule in RULES.sections
    for seat, score in enumerate(result.scores):
        assert sum(ln.points for ln in result.lines if ln.player == seat and ln.points is not None) == score


def deck_cards(players: int, variant: str) -> list[tuple[str, int]]:
    deck = deck_for(players, variant)
    assert deck is not None
    return [(colour, value) for colour in deck.colours for value in deck.values]


def deal(
    players: int,
    variant: str = "classic",
    order: list[tuple[str, int]] | None = None,
    winners: list[int] | None = None,
) -> dict[str, Any]:
    """A valid full-way round: unused cards first, then the chooser cards, then the tricks in order."""
    deck = deck_for(players, variant)
    assert deck is not None
    rest = list(order if order is not None else deck_cards(players, variant))[deck.unused :]
    seats: list[dict[str, Any]] = []
    for _ in range(players):
        chooser: list[tuple[str, int]] = []
        if deck.chooser_cards >= 1:
            chooser.append(rest.pop(0))
        if deck.chooser_cards == 2:
            chooser.append(rest.pop(next(i for i, c in enumerate(rest) if c[0] != chooser[0][0])))
        seat: dict[str, Any] = {"taken": []}
        if chooser:
            seat["pain"] = [c[0] for c in chooser]
            seat["chooser"] = [card(*c) for c in chooser]
        seats.append(seat)
    assert len(rest) == deck.tricks * players
    winners = winners if winners is not None else [t % players for t in range(deck.tricks)]
    for t, winner in enumerate(winners):
        seats[winner]["taken"] += [card(*c) for c in rest[t * players : (t + 1) * players]]
    return {"seats": seats}


def to_quick(seat: dict[str, Any], form: str) -> dict[str, Any]:
    """The same cards, the quick way (``form``: "values" or "sum"); delayed seats need their pain given."""
    pain = seat.get("pain") or []
    pain_cards = [c for c in seat["taken"] if c["colour"] in pain]
    out = {k: v for k, v in seat.items() if k in ("pain", "chooser")}
    out["others"] = len(seat["taken"]) - len(pain_cards)
    if form == "values":
        out["pain_values"] = [c["value"] for c in pain_cards]
    else:
        out["pain_count"] = len(pain_cards)
        out["pain_sum"] = sum(c["value"] for c in pain_cards)
    return out


def with_delayed_pain(facts: dict[str, Any]) -> dict[str, Any]:
    """Delayed rounds: give every player with tricks the proposed (cheapest) colour explicitly."""
    out = copy.deepcopy(facts)
    for seat in out["seats"]:
        choice = sticheln.delayed_cheapest([Card(c["colour"], c["value"]) for c in seat["taken"]])
        seat["pain"] = [choice] if choice else []
    return out


def hattrick(*rows: tuple[int, int, int, int]) -> dict[str, Any]:
    return {"seats": [{"red": r, "blue": b, "green": g, "face_down": f} for r, b, g, f in rows]}


# ===== the rulebook's worked examples (RULES.md "Worked examples": Sticheln) ================================


def classic_example_seats() -> list[dict[str, Any]]:
    return copy.deepcopy(RULES.example["facts"]["seats"])


def test_sticheln_example_classic_red_four_chooser_red_two_and_five_fourteen_others():
    result = result_of({"seats": classic_example_seats()})
    assert result.scores[0] == 3  # 14 − (4 + 2 + 5)
    assert rendered(result, 0) == ["red 2 + red 5 + chooser red 4 = −11", "14 other cards × +1 = 14"]
    assert_lines_add_up(result)


def test_sticheln_example_classic_the_full_way_gives_the_same_three_points():
    seats = classic_example_seats()
    others = cards(*(f"brown {v}" for v in range(12)), "green 10", "green 11")
    seats[0] = {"chooser": card("red", 4), "taken": cards("red 2", "red 5") + others}
    result = result_of({"seats": seats})
    assert result.scores[0] == 3
    assert rendered(result, 0)[0] == "red 2 + red 5 + chooser red 4 = −11"


def test_sticheln_example_hattrick_nine_red_two_blue_four_green_one_face_down():
    result = result_of(hattrick((9, 2, 4, 1), (3, 10, 2, 0), (4, 4, 10, 0), (3, 4, 0, 0)), variant="hattrick")
    assert result.scores[0] == 1  # 9 − 2 − 4 − 2
    assert rendered(result, 0) == [
        "9 red cards (the most) × +1 = 9",
        "2 blue cards × −1 = −2",
        "4 green cards × −1 = −4",
        "1 face-down card × −2 = −2",
    ]
    assert result.scores == (1, 5, 2, 1)
    assert_lines_add_up(result)


def test_sticheln_registry_example_is_the_classic_worked_example():
    example = RULES.example
    assert example["players"] == 4
    assert scores(example["facts"], example["players"], example["options"]["variant"]) == (3, 7, 7, 4)


# ===== the deck tables (RULES.md: deck, cards each, tricks) =================================================

DECK_TABLE = [
    # players, colours, highest value, cards each, unused
    (3, 5, 8, 15, 0),
    (4, 5, 11, 15, 0),
    (5, 5, 14, 15, 0),
    (6, 6, 14, 15, 0),
    (7, 6, 17, 15, 3),
    (8, 6, 18, 14, 2),
]


@pytest.mark.parametrize(("players", "colours", "high", "each", "unused"), DECK_TABLE)
@pytest.mark.parametrize("variant", CLASSIC_FAMILY)
def test_sticheln_deck_table(players: int, colours: int, high: int, each: int, unused: int, variant: str):
    deck = deck_for(players, variant)
    assert deck is not None
    assert (len(deck.colours), deck.low, deck.high, deck.cards_each, deck.unused) == (colours, 0, high, each, unused)
    assert deck.colours == COLOURS_BY_PLAYERS[players] == (COLOURS_FIVE if colours == 5 else COLOURS_SIX)
    # every card is dealt but the ones shown face up
    assert deck.size - deck.unused == deck.dealt == players * each
    assert deck.tricks + deck.chooser_cards == each


TRICKS_TABLE = [
    ("classic", 14, 13, 1),
    ("reverse", 14, 13, 1),
    ("gentle", 14, 13, 1),
    ("foggy", 14, 13, 1),
    ("heavy", 13, 12, 2),
    ("delayed", 15, 14, 0),
]


@pytest.mark.parametrize(("variant", "tricks", "tricks_8p", "choosers"), TRICKS_TABLE)
@pytest.mark.parametrize("players", [3, 4, 5, 6, 7, 8])
def test_sticheln_tricks_per_variant(variant: str, tricks: int, tricks_8p: int, choosers: int, players: int):
    deck = deck_for(players, variant)
    assert deck is not None
    assert deck.tricks == (tricks_8p if players == 8 else tricks)
    assert deck.chooser_cards == CHOOSER_CARDS[variant] == choosers
    assert TRICKS[variant] == (tricks, tricks_8p)


@pytest.mark.parametrize(
    ("players", "low", "each", "played"),
    [(4, 1, 15, 56), (5, 1, 12, 55), (6, 1, 10, 54), (7, 0, 9, 56)],
)
def test_sticheln_hattrick_deck_table(players: int, low: int, each: int, played: int):
    deck = deck_for(players, "hattrick")
    assert deck is not None
    assert (deck.colours, deck.low, deck.high, deck.cards_each) == (("red", "blue", "green"), low, 20, each)
    assert deck.size == players * each  # all cards dealt
    assert deck.size - players == played  # each player's last card is set aside
    assert deck.tricks == each - 1


@pytest.mark.parametrize(
    ("players", "variant"), [(3, "hattrick"), (8, "hattrick"), (2, "classic"), (9, "heavy"), (4, "x")]
)
def test_sticheln_no_deck_outside_the_tables(players: int, variant: str):
    assert deck_for(players, variant) is None
    assert players not in HATTRICK_DECKS if variant == "hattrick" else players not in CLASSIC_DECKS or variant == "x"


def test_sticheln_deck_as_dict_for_the_ui():
    deck = deck_for(7, "classic")
    assert deck is not None
    assert deck.as_dict() == {
        "colours": list(COLOURS_SIX),
        "low": 0,
        "high": 17,
        "cards_each": 15,
        "unused": 3,
        "chooser_cards": 1,
        "tricks": 14,
    }


# ===== the variants ===========================================================================================


def four_player_quick(entries: list[dict[str, Any]]) -> dict[str, Any]:
    return {"seats": entries}


def test_sticheln_classic_chooser_only_and_counted_lines():
    result = result_of({"seats": classic_example_seats()})
    assert rendered(result, 1) == ["2 pain cards worth 3 + chooser blue 0 = −3", "10 other cards × +1 = 10"]
    assert rendered(result, 2) == ["chooser green 1 = −1", "8 other cards × +1 = 8"]
    assert {ln.rule for ln in result.lines} == {"sticheln-scoring"}


def test_sticheln_foggy_scores_like_classic():
    facts = {"seats": classic_example_seats()}
    foggy = result_of(facts, variant="foggy")
    assert foggy.scores == result_of(facts).scores
    assert {ln.rule for ln in foggy.lines} == {"sticheln-foggy"}


def test_sticheln_reverse_lucky_cards_count_for_the_player():
    result = result_of({"seats": classic_example_seats()}, variant="reverse")
    # lucky red 4 + 2 + 5 = +11, 14 other cards −14
    assert result.scores == (11 - 14, 3 - 10, 1 - 8, 14 - 18)
    assert rendered(result, 0) == ["lucky red 2 + red 5 + chooser red 4 = 11", "14 other cards × −1 = −14"]
    assert rendered(result, 1)[0] == "2 lucky cards worth 3 + chooser blue 0 = 3"
    assert rendered(result, 2)[0] == "lucky chooser green 1 = 1"
    assert_lines_add_up(result)


def test_sticheln_gentle_every_pain_card_is_minus_five_zeros_and_chooser_too():
    result = result_of({"seats": classic_example_seats()}, variant="gentle")
    # seat 1: blue 0 chooser + 2 pain cards = 3 × −5; seat 3: yellow 0 chooser + 11 + 3
    assert result.scores == (14 - 15, 10 - 15, 8 - 5, 18 - 15)
    assert rendered(result, 1)[0] == "3 pain cards, chooser blue 0 included, × −5 = −15"
    assert_lines_add_up(result)


def heavy_round() -> dict[str, Any]:
    return {
        "seats": [
            {
                "pain": ["red", "blue"],
                "chooser": cards("red 1", "blue 0"),
                "taken": cards("red 2", "blue 5", "green 3", "yellow 4"),
            },
            {
                "pain": ["green", "brown"],
                "chooser": cards("green 0", "brown 0"),
                "others": 16,
                "pain_values": [7, 9, 1, 2],
            },
            {"chooser": cards("yellow 0", "red 0"), "others": 12, "pain_count": 0, "pain_sum": 0},
            {
                "pain": ["yellow", "blue"],
                "chooser": cards("yellow 1", "blue 1"),
                "others": 12,
                "pain_count": 4,
                "pain_sum": 10,
            },
        ]
    }


def test_sticheln_heavy_two_pain_colours_both_count_minus_face_value():
    result = result_of(heavy_round(), variant="heavy")
    assert result.scores == (2 - (2 + 5 + 1 + 0), 16 - 19, 12, 12 - 10 - 2)
    assert rendered(result, 0)[0] == "red 2 + blue 5 + chooser red 1 + blue 0 = −8"
    assert rendered(result, 1)[0] == "4 pain cards worth 19 + chooser green 0 + brown 0 = −19"
    assert rendered(result, 2)[0] == "0 pain cards worth 0 + chooser yellow 0 + red 0 = 0"
    assert {ln.rule for ln in result.lines} == {"sticheln-heavy"}
    assert_lines_add_up(result)


def delayed_round() -> dict[str, Any]:
    return {
        "seats": [
            {"taken": cards("red 2", "red 5", "blue 0", "blue 1", "blue 2", "green 9", "green 1", "brown 3")},
            {"pain": "yellow", "taken": cards("yellow 1", "green 2", "green 3", "green 4")},
            {"taken": []},
            {"pain": "red", "others": 38, "pain_values": [0, 1, 3, 4, 6, 7, 8, 9, 10, 11]},
        ]
    }


def test_sticheln_delayed_proposes_the_cheapest_colour():
    result = result_of(delayed_round(), variant="delayed")
    # seat 0: red costs 2+5+2, blue 0+1+2+3 = 6, green 12, brown 4 -> brown: 7 others − 3 = 4
    assert result.scores[0] == 4
    assert rendered(result, 0) == [
        "pain colour brown, proposed as the cheapest",
        "brown 3 = −3",
        "7 other cards × +1 = 7",
    ]


def test_sticheln_delayed_takes_the_players_own_legal_choice():
    facts = delayed_round()
    facts["seats"][0]["pain"] = "red"
    result = result_of(facts, variant="delayed")
    assert result.scores[0] == 6 - 7
    assert rendered(result, 0)[:2] == ["pain colour red, picked by the player", "red 2 + red 5 = −7"]
    assert result.scores[1] == 3 - 1
    assert result.scores[3] == 38 - 59
    assert (
        rendered(result, 3)[1]
        == "red 0 + red 1 + red 3 + red 4 + red 6 + red 7 + red 8 + red 9 + red 10 + red 11 = −59"
    )


def test_sticheln_delayed_player_without_a_trick_scores_zero():
    result = result_of(delayed_round(), variant="delayed")
    assert result.scores[2] == 0
    assert rendered(result, 2) == ["no trick taken = 0"]
    assert_lines_add_up(result)


def test_sticheln_delayed_quick_way_without_pain_values_counted():
    facts = delayed_round()
    facts["seats"][3] = {"pain": "red", "others": 38, "pain_count": 10, "pain_sum": 59}
    result = result_of(facts, variant="delayed")
    assert result.scores[3] == 38 - 59
    assert rendered(result, 3) == [
        "pain colour red, picked by the player",
        "10 pain cards worth 59 = −59",
        "38 other cards × +1 = 38",
    ]


def test_sticheln_delayed_cheapest():
    assert sticheln.delayed_cheapest([]) is None
    assert sticheln.delayed_cheapest([Card("blue", 0), Card("red", 0)]) == "red"  # tie: listed first
    assert sticheln.delayed_cheapest([Card("red", 3), Card("blue", 1), Card("blue", 0)]) == "blue"
    assert sticheln.delayed_cheapest([Card("pink", 0), Card("red", 0)]) == "red"  # unknown colours rank last


def test_sticheln_hattrick_tie_proposed_and_chosen():
    facts = hattrick((5, 5, 2, 0), (10, 5, 8, 0), (5, 10, 0, 0), (0, 0, 5, 1))
    result = result_of(facts, variant="hattrick")
    assert result.scores == (-2, -3, 5, 5 - 2)
    assert rendered(result, 0)[0] == (
        "red, blue tie for the most cards; red is scored as +1 (proposed: the choice does not change the score)."
    )
    facts["seats"][0]["best"] = "blue"
    result = result_of(facts, variant="hattrick")
    assert result.scores[0] == -2
    assert rendered(result, 0)[:2] == [
        "red, blue tie for the most cards; the player scores blue as +1.",
        "5 red cards × −1 = −5",
    ]
    facts["seats"][0]["best"] = None
    facts["seats"][1]["best"] = "red"  # the one colour with the most: accepted
    assert result_of(facts, variant="hattrick").scores[1] == -3
    assert_lines_add_up(result)


# ===== validation: each rule refused, with its field and rule ==============================================


def test_sticheln_refuses_a_haul_that_is_not_whole_tricks():
    seats = classic_example_seats()
    seats[0]["others"] = 13
    seats[3]["others"] = 19
    assert problems({"seats": seats}) == {
        ("seats.0.others", "sticheln.tricks_multiple", "sticheln-tricks"),
        ("seats.3.others", "sticheln.tricks_multiple", "sticheln-tricks"),
    }
    full = deal(4)
    full["seats"][1]["taken"].append(full["seats"][0]["taken"].pop())
    assert ("seats.1.taken", "sticheln.tricks_multiple", "sticheln-tricks") in problems(full)


def test_sticheln_refuses_cards_that_do_not_add_up_to_the_deal():
    seats = classic_example_seats()
    seats[0]["others"] = 18
    assert problems({"seats": seats}) == {("seats", "sticheln.cards_total", "sticheln-tricks")}
    with pytest.raises(InvalidRound) as info:
        result_of({"seats": seats})
    assert info.value.problems[0].text == (
        "4 players are dealt 60 cards: 14 tricks of 4 cards and 4 chooser cards. The cards entered come to 64."
    )


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7, 8])
@pytest.mark.parametrize("variant", CLASSIC_FAMILY)
def test_sticheln_a_full_deal_is_valid_for_every_table_row(players: int, variant: str):
    result = result_of(deal(players, variant), players, variant)
    assert len(result.scores) == players
    assert_lines_add_up(result)


def test_sticheln_refuses_cards_outside_the_deck():
    facts = deal(3)
    facts["seats"][0]["taken"][0] = card("red", 9)  # 3 players: 0-8
    facts["seats"][1]["taken"][0] = card("purple", 1)  # 3 players: five colours
    facts["seats"][2]["chooser"] = [card("red", -1)]
    facts["seats"][2]["pain"] = ["red"]
    assert problems(facts, 3) == {
        ("seats.0.taken.0", "sticheln.card_unknown", "sticheln-deck"),
        ("seats.1.taken.0", "sticheln.card_unknown", "sticheln-deck"),
        ("seats.2.chooser.0", "sticheln.card_unknown", "sticheln-deck"),
    }


def test_sticheln_refuses_pain_values_outside_the_range():
    seats = classic_example_seats()
    seats[0]["pain_values"] = [2, 12]
    assert problems({"seats": seats}) == {("seats.0.pain_values.1", "sticheln.value_range", "sticheln-deck")}


def test_sticheln_refuses_a_pain_colour_missing_from_the_deck():
    seats = classic_example_seats()
    seats[0]["pain"] = "purple"  # only with 6-8 players
    seats[0]["chooser"] = card("purple", 4)
    assert problems({"seats": seats}) == {
        ("seats.0.pain", "sticheln.colour_unknown", "sticheln-deck"),
        ("seats.0.chooser.0", "sticheln.card_unknown", "sticheln-deck"),
    }


def test_sticheln_refuses_a_card_entered_twice():
    facts = deal(4)
    facts["seats"][1]["taken"][0] = facts["seats"][0]["taken"][0]
    assert ("seats.1.taken.0", "sticheln.card_twice", "sticheln-deck") in problems(facts)
    seats = classic_example_seats()
    seats[0]["pain_values"] = [2, 4]  # red 4 is the chooser
    assert problems({"seats": seats}) == {("seats.0.pain_values.1", "sticheln.card_twice", "sticheln-deck")}


def test_sticheln_refuses_a_chooser_of_another_colour():
    seats = classic_example_seats()
    seats[0]["chooser"] = card("blue", 4)
    assert problems({"seats": seats}) == {("seats.0.chooser", "sticheln.chooser_colour", "sticheln-pain")}


@pytest.mark.parametrize(
    ("variant", "chooser", "msg", "rule"),
    [
        ("classic", [], "sticheln.chooser_one", "sticheln-pain"),
        ("reverse", cards("red 4", "red 3"), "sticheln.chooser_one", "sticheln-pain"),
        ("heavy", cards("red 4"), "sticheln.chooser_two", "sticheln-heavy"),
        ("delayed", cards("red 4"), "sticheln.chooser_none", "sticheln-delayed"),
    ],
)
def test_sticheln_refuses_the_wrong_number_of_chooser_cards(variant: str, chooser: list[Any], msg: str, rule: str):
    facts = deal(4, variant)
    facts["seats"][0]["chooser"] = chooser
    assert ("seats.0.chooser", msg, rule) in problems(facts, 4, variant)


def test_sticheln_refuses_the_wrong_number_of_colours():
    seats = classic_example_seats()
    seats[0]["pain"] = ["red", "blue"]
    assert problems({"seats": seats}) == {("seats.0.pain", "sticheln.pain_one", "sticheln-pain")}
    facts = deal(4, "delayed")
    facts["seats"][0]["pain"] = ["red", "blue"]
    assert ("seats.0.pain", "sticheln.pain_one", "sticheln-delayed") in problems(facts, 4, "delayed")


def test_sticheln_heavy_refuses_two_chooser_cards_of_one_colour():
    facts = heavy_round()
    facts["seats"][2] = {"chooser": cards("yellow 0", "yellow 2"), "others": 12, "pain_count": 0, "pain_sum": 0}
    assert problems(facts, 4, "heavy") == {("seats.2.pain", "sticheln.pain_two", "sticheln-heavy")}
    facts["seats"][2]["pain"] = ["yellow", "red"]
    assert problems(facts, 4, "heavy") == {("seats.2.chooser", "sticheln.chooser_colour", "sticheln-pain")}


def test_sticheln_heavy_refuses_pain_values_not_free_in_both_colours():
    facts = heavy_round()
    facts["seats"][1]["pain_values"] = [11, 11, 11, 1]  # green 11 and brown 11 only
    assert problems(facts, 4, "heavy") == {("seats.1.pain_values", "sticheln.pain_values_free", "sticheln-deck")}


def test_sticheln_refuses_an_impossible_pain_sum():
    seats = classic_example_seats()
    seats[1]["pain_sum"] = 22  # two blue cards: at most 11 + 10
    assert problems({"seats": seats}) == {("seats.1.pain_sum", "sticheln.pain_sum_free", "sticheln-deck")}
    seats[1]["pain_sum"] = 21
    assert scores({"seats": seats})[1] == 10 - 21


def test_sticheln_refuses_pain_sums_that_players_of_one_colour_cannot_share():
    seats = classic_example_seats()
    seats[1].update(pain_count=2, pain_sum=5)  # blue 2 + 3
    seats[2] = {"pain": "blue", "chooser": card("blue", 1), "others": 6, "pain_count": 2, "pain_sum": 5}
    assert problems({"seats": seats}) == {("seats", "sticheln.pain_shared", "sticheln-deck")}
    seats[2]["pain_sum"] = 9  # 4 + 5
    assert scores({"seats": seats})[1:3] == (10 - 5, 6 - 10)


def test_sticheln_refuses_counts_needing_more_cards_than_are_left():
    seats = [
        {"pain": "red", "chooser": card("red", 0), "others": 52, "pain_values": []},
        {"pain": "yellow", "chooser": card("yellow", 0), "others": 4, "pain_values": []},
        {"pain": "green", "chooser": card("green", 0), "others": 0, "pain_values": []},
        {"pain": "blue", "chooser": card("blue", 0), "others": 0, "pain_values": []},
    ]
    with pytest.raises(InvalidRound) as info:
        result_of({"seats": seats})
    (problem,) = info.value.problems
    assert (problem.field, problem.msg, problem.rule) == ("seats", "sticheln.cards_short", "sticheln-deck")
    assert problem.params == (("colours", "yellow, green, blue, brown"), ("free", 45), ("needed", 52))


def test_sticheln_delayed_refuses_a_colour_not_in_the_players_tricks():
    facts = delayed_round()
    facts["seats"][0]["pain"] = "yellow"
    facts["seats"][2]["pain"] = "red"  # no trick at all
    facts["seats"][3] = {"pain": "red", "others": 48, "pain_values": []}
    assert problems(facts, 4, "delayed") == {
        ("seats.0.pain", "sticheln.delayed_colour", "sticheln-delayed"),
        ("seats.2.pain", "sticheln.delayed_colour", "sticheln-delayed"),
        ("seats.3.pain", "sticheln.delayed_colour", "sticheln-delayed"),
    }


def test_sticheln_delayed_quick_way_needs_the_players_colour():
    facts = delayed_round()
    facts["seats"][3] = {"others": 38, "pain_values": [0, 1, 3, 4, 6, 7, 8, 9, 10, 11]}
    assert problems(facts, 4, "delayed") == {("seats.3.pain", "sticheln.delayed_pain_needed", "sticheln-delayed")}
    facts["seats"][2] = {"others": 0, "pain_values": []}  # no trick, quick way: nothing to pick
    facts["seats"][3]["pain"] = "red"
    assert scores(facts, 4, "delayed")[2] == 0


def test_sticheln_hattrick_refuses_impossible_counts():
    facts = hattrick((21, 2, 4, 15), (3, 10, 2, 0), (4, 4, 10, 0), (3, 4, 0, 0))
    assert problems(facts, 4, "hattrick") == {
        ("seats.0.face_down", "sticheln.hattrick_face_down", "sticheln-hattrick"),
        ("seats", "sticheln.hattrick_colour_total", "sticheln-hattrick"),
        ("seats", "sticheln.hattrick_total", "sticheln-hattrick"),
    }


def test_sticheln_hattrick_refuses_more_passes_than_double_tricks_allow():
    # 4 players, 14 double tricks: at most 2 × 14 face-down cards in all
    facts = hattrick((0, 0, 14, 10), (5, 0, 0, 10), (0, 5, 0, 9), (3, 0, 0, 0))
    assert problems(facts, 4, "hattrick") == {("seats", "sticheln.hattrick_face_down_total", "sticheln-hattrick")}


def test_sticheln_hattrick_refuses_a_best_colour_that_is_not_tied_for_most():
    facts = hattrick((9, 2, 4, 1), (3, 10, 2, 0), (4, 4, 10, 0), (3, 4, 0, 0))
    facts["seats"][0]["best"] = "blue"
    facts["seats"][1]["best"] = "purple"
    assert problems(facts, 4, "hattrick") == {
        ("seats.0.best", "sticheln.hattrick_best", "sticheln-hattrick-scoring"),
        ("seats.1.best", "sticheln.hattrick_colour", "sticheln-hattrick"),
    }


@pytest.mark.parametrize("players", [3, 8])
def test_sticheln_hattrick_is_for_four_to_seven_players(players: int):
    with pytest.raises(InvalidRound) as info:
        RULES.options_parse({"variant": "hattrick"}, players=players)
    assert [(p.field, p.msg, p.rule) for p in info.value.problems] == [
        ("options.variant", "sticheln.hattrick_players", "sticheln-hattrick")
    ]


def test_sticheln_refuses_a_sixth_round():
    before = [RULES.example["facts"]] * 5
    assert ("", "sticheln.match_over", "sticheln-end") in problems(RULES.example["facts"], 4, "classic", tuple(before))


# ===== the shape of the facts ===============================================================================


@pytest.mark.parametrize(
    ("facts", "expected"),
    [
        ({}, {("seats", "sticheln.shape_required", "sticheln-round")}),
        (
            {"seats": "x", "extra": 1},
            {("seats", "sticheln.shape_list", "sticheln-round"), ("extra", "sticheln.shape_unknown", "sticheln-round")},
        ),
        ({"seats": [{}, {}, {}]}, {("seats", "sticheln.shape_seats", "sticheln-round")}),
        (
            {"seats": [[], {}, {}, {}]},
            {("seats.0", "sticheln.shape_object", "sticheln-round")}
            | {(f"seats.{i}", "sticheln.shape_way", "sticheln-round") for i in (1, 2, 3)},
        ),
        ([], {("facts", "core.facts_object", "sticheln-round")}),
    ],
)
def test_sticheln_refuses_bad_shapes(facts: Any, expected: set[tuple[str, str, str]]):
    assert problems(facts) == expected


def seat_problems(entry: dict[str, Any], variant: str = "classic") -> set[tuple[str, str, str]]:
    seats = classic_example_seats()
    seats[0] = entry
    return {p for p in problems({"seats": seats}, 4, variant) if p[0].startswith("seats.0")}


@pytest.mark.parametrize(
    ("entry", "field", "msg"),
    [
        ({"taken": [], "others": 1}, "seats.0", "sticheln.shape_both_ways"),
        ({"taken": "x"}, "seats.0.taken", "sticheln.shape_list"),
        ({"taken": [3]}, "seats.0.taken.0", "sticheln.shape_object"),
        ({"taken": [{"colour": "red"}]}, "seats.0.taken.0.value", "sticheln.shape_required"),
        ({"taken": [{"value": 1}]}, "seats.0.taken.0.colour", "sticheln.shape_required"),
        ({"taken": [{"colour": 1, "value": 1}]}, "seats.0.taken.0.colour", "sticheln.shape_colour"),
        ({"taken": [{"colour": "red", "value": 1.0}]}, "seats.0.taken.0.value", "sticheln.shape_int"),
        ({"taken": [{"colour": "red", "value": True}]}, "seats.0.taken.0.value", "sticheln.shape_int"),
        ({"taken": [{"colour": "red", "value": 1, "x": 0}]}, "seats.0.taken.0.x", "sticheln.shape_unknown"),
        ({"taken": [], "chooser": 4}, "seats.0.chooser", "sticheln.shape_list"),
        ({"taken": [], "pain": 4}, "seats.0.pain", "sticheln.shape_colour"),
        ({"taken": [], "pain": ["red", None]}, "seats.0.pain.1", "sticheln.shape_required"),
        ({"taken": [], "bid": 4}, "seats.0.bid", "sticheln.shape_unknown"),
        ({"pain_values": []}, "seats.0.others", "sticheln.shape_required"),
        ({"others": -1, "pain_values": []}, "seats.0.others", "sticheln.shape_count"),
        ({"others": True, "pain_values": []}, "seats.0.others", "sticheln.shape_count"),
        ({"others": 4}, "seats.0.pain_values", "sticheln.shape_pain_way"),
        ({"others": 4, "pain_values": [], "pain_count": 0}, "seats.0.pain_values", "sticheln.shape_pain_way"),
        ({"others": 4, "pain_values": 3}, "seats.0.pain_values", "sticheln.shape_list"),
        ({"others": 4, "pain_values": ["3"]}, "seats.0.pain_values.0", "sticheln.shape_int"),
        ({"others": 4, "pain_count": 1}, "seats.0.pain_sum", "sticheln.shape_required"),
        ({"others": 4, "pain_sum": 1}, "seats.0.pain_count", "sticheln.shape_required"),
    ],
)
def test_sticheln_refuses_bad_seat_entries(entry: dict[str, Any], field: str, msg: str):
    found = seat_problems(entry)
    assert (field, msg, "sticheln-round") in found
    assert all(rule == "sticheln-round" for _, _, rule in found)


@pytest.mark.parametrize(
    ("entry", "field", "msg"),
    [
        ({"red": 1, "blue": 1}, "seats.0.green", "sticheln.shape_required"),
        ({"red": 1, "blue": 1, "green": -1}, "seats.0.green", "sticheln.shape_count"),
        ({"red": 1, "blue": 1, "green": 1, "face_down": "1"}, "seats.0.face_down", "sticheln.shape_count"),
        ({"red": 1, "blue": 1, "green": 1, "best": 1}, "seats.0.best", "sticheln.shape_colour"),
        ({"red": 1, "blue": 1, "green": 1, "yellow": 1}, "seats.0.yellow", "sticheln.shape_unknown"),
    ],
)
def test_sticheln_hattrick_refuses_bad_seat_entries(entry: dict[str, Any], field: str, msg: str):
    facts = hattrick((9, 2, 4, 1), (3, 10, 2, 0), (4, 4, 10, 0), (3, 4, 0, 0))
    facts["seats"][0] = entry
    assert problems(facts, 4, "hattrick") == {(field, msg, "sticheln-round")}


def test_sticheln_pain_may_be_left_out_and_is_stored_from_the_chooser():
    seats = classic_example_seats()
    del seats[0]["pain"]
    options = RULES.options_parse({}, players=4)
    stored = RULES.normalise({"seats": seats}, players=4, options=options)
    assert stored["seats"][0]["pain"] == ["red"]
    assert stored["seats"][0]["chooser"] == [card("red", 4)]
    assert scores(stored) == (3, 7, 7, 4)


@pytest.mark.parametrize("variant", [*CLASSIC_FAMILY, "hattrick"])
def test_sticheln_normalised_facts_parse_back_to_the_same_facts(variant: str):
    facts = (
        hattrick((9, 2, 4, 1), (3, 10, 2, 0), (4, 4, 10, 0), (3, 4, 0, 0))
        if variant == "hattrick"
        else deal(4, variant)
    )
    options = RULES.options_parse({"variant": variant}, players=4)
    stored = RULES.normalise(facts, players=4, options=options)
    assert RULES.normalise(stored, players=4, options=options) == stored
    assert scores(stored, 4, variant) == scores(facts, 4, variant)


@pytest.mark.parametrize("variant", [*CLASSIC_FAMILY, "hattrick"])
def test_sticheln_facts_schema_accepts_submitted_and_stored_facts(variant: str):
    jsonschema = pytest.importorskip("jsonschema")
    validator = jsonschema.Draft202012Validator(RULES.facts_schema)
    validator.check_schema(RULES.facts_schema)
    if variant == "hattrick":
        facts = hattrick((9, 2, 4, 1), (3, 10, 2, 0), (4, 4, 10, 0), (3, 4, 0, 0))
    else:
        full = deal(4, variant)
        full = with_delayed_pain(full) if variant == "delayed" else full
        facts = {
            "seats": [
                full["seats"][0],
                to_quick(full["seats"][1], "values"),
                *map(to_quick, full["seats"][2:], ["sum"] * 2),
            ]
        }
    options = RULES.options_parse({"variant": variant}, players=4)
    validator.validate(facts)
    validator.validate(RULES.normalise(facts, players=4, options=options))
    validator.validate(RULES.example["facts"])
    assert not validator.is_valid({"seats": [{"taken": [], "others": 3}]})


# ===== the module called directly (the registry always parses options first) ==============================


def test_sticheln_direct_calls_refuse_what_the_registry_would():
    with pytest.raises(InvalidRound) as info:
        sticheln.facts_parse({}, players=4, options={"variant": "solo"})
    assert info.value.problems[0].msg == "sticheln.variant_unknown"
    with pytest.raises(InvalidRound) as info:
        sticheln.facts_parse([], players=4, options={})  # type: ignore[arg-type]
    assert info.value.problems[0].msg == "sticheln.facts_object"
    facts = sticheln.facts_parse(deal(4), players=4, options={})
    with pytest.raises(InvalidRound) as info:
        sticheln.validate(facts, players=9, options={}, state=FRESH)
    assert [(p.field, p.msg) for p in info.value.problems] == [("players", "sticheln.players")]
    with pytest.raises(InvalidRound) as info:
        sticheln.validate(facts, players=3, options={"variant": "hattrick"}, state=FRESH)
    assert [(p.field, p.msg) for p in info.value.problems] == [("options.variant", "sticheln.hattrick_players")]
    with pytest.raises(InvalidRound) as info:
        sticheln.validate(facts, players=4, options={"variant": "hattrick"}, state=FRESH)
    assert [(p.field, p.msg) for p in info.value.problems] == [("facts", "sticheln.facts_variant")]
    sticheln.options_validate({"variant": "hattrick"}, players=7)
    state = sticheln.match_state([], players=3, options={"variant": "hattrick"})
    assert state.extra["deck"] is None


# ===== the match ============================================================================================


def test_sticheln_match_runs_five_rounds_and_rotates_the_deal():
    facts = RULES.example["facts"]
    state = RULES.state([], players=4)
    assert (state.rounds_played, state.finished, state.next_dealer, state.next_starter) == (0, False, 0, None)
    assert state.rounds_left == 5
    assert state.extra["deck"]["tricks"] == 14
    state = RULES.state([facts], players=4)
    assert (state.next_dealer, state.next_starter, state.rounds_left, state.winners) == (1, 2, 4, ())
    assert state.totals == (3, 7, 7, 4)
    state = RULES.state([facts] * 4, players=4)
    assert (state.next_dealer, state.next_starter) == (0, 1)
    state = RULES.state([facts] * 5, players=4)
    assert state.finished
    assert state.totals == (15, 35, 35, 20)
    assert state.winners == (1, 2)  # ties share the win
    assert (state.next_dealer, state.next_starter, state.rounds_left) == (None, None, 0)


def test_sticheln_match_winner_may_have_a_negative_total():
    facts = hattrick((6, 5, 4, 1), (5, 5, 5, 0), (4, 5, 5, 0), (5, 5, 0, 1))
    state = RULES.state([facts] * 5, players=4, options={"variant": "hattrick"})
    assert state.totals == (-25, -25, -20, -10)
    assert state.winners == (3,)


def test_sticheln_describe_lists_the_variants_and_sections():
    info = RULES.describe()
    assert info["options"][0]["choices"] == list(sticheln.VARIANTS)
    for anchor in ("sticheln-players", "sticheln-options", "sticheln-round"):
        assert anchor in RULES.sections
    rules_used = {"sticheln-scoring", "sticheln-reverse", "sticheln-gentle", "sticheln-heavy", "sticheln-foggy"}
    assert rules_used <= set(RULES.sections)
    assert info["facts_schema"]["required"] == ["seats"]


# ===== the card accounting helpers ==========================================================================


def test_sticheln_sum_reachable():
    assert sum_reachable([0, 1, 10, 11], 2, 11)
    assert not sum_reachable([0, 1, 10, 11], 2, 5)  # sums of pairs are not contiguous
    assert not sum_reachable([1, 2], 3, 3)
    assert sum_reachable([], 0, 0)


def test_sticheln_values_available_and_first_shortfall():
    assert values_available([11, 11], [11, 3, 11])
    assert not values_available([11, 11], [11, 3])
    free = {"red": 2, "blue": 3}
    assert first_shortfall(free, [(frozenset({"red"}), 2), (frozenset({"red", "blue"}), 3)]) is None
    assert first_shortfall(free, [(frozenset({"red"}), 3)]) == (("red",), 3, 2)


# ===== properties ===========================================================================================


@st.composite
def full_rounds(draw: Any, variants: tuple[str, ...] = CLASSIC_FAMILY) -> tuple[int, str, dict[str, Any]]:
    variant = draw(st.sampled_from(variants))
    players = draw(st.integers(3, 8))
    deck = deck_for(players, variant)
    assert deck is not None
    order = draw(st.permutations(deck_cards(players, variant)))
    winners = draw(st.lists(st.integers(0, players - 1), min_size=deck.tricks, max_size=deck.tricks))
    facts = deal(players, variant, order, winners)
    if variant == "delayed" and draw(st.booleans()):
        for seat in facts["seats"]:
            present = sorted({c["colour"] for c in seat["taken"]})
            if present:
                seat["pain"] = draw(st.sampled_from(present))
    return players, variant, facts


@given(full_rounds())
@settings(max_examples=60, deadline=None)
def test_sticheln_property_lines_add_up_to_the_scores(round_: tuple[int, str, dict[str, Any]]):
    players, variant, facts = round_
    assert_lines_add_up(result_of(facts, players, variant))


@given(full_rounds(), st.lists(st.sampled_from(["full", "values", "sum"]), min_size=8, max_size=8))
@settings(max_examples=60, deadline=None)
def test_sticheln_property_quick_and_full_way_score_the_same(round_: Any, forms: list[str]):
    players, variant, facts = round_
    if variant == "delayed":
        facts = with_delayed_pain(facts)
    expected = scores(facts, players, variant)
    quick = {
        "seats": [
            seat if form == "full" else to_quick(seat, form) for seat, form in zip(facts["seats"], forms, strict=False)
        ]
    }
    assert scores(quick, players, variant) == expected


@given(full_rounds(("delayed",)))
@settings(max_examples=40, deadline=None)
def test_sticheln_property_delayed_proposal_is_the_cheapest_legal_choice(round_: Any):
    players, variant, facts = round_
    for seat in facts["seats"]:
        seat.pop("pain", None)
    proposed = scores(facts, players, variant)
    for i, seat in enumerate(facts["seats"]):
        for colour in {c["colour"] for c in seat["taken"]}:
            chosen = copy.deepcopy(facts)
            chosen["seats"][i]["pain"] = colour
            assert scores(chosen, players, variant)[i] <= proposed[i]


@given(
    st.lists(st.tuples(st.integers(0, 60), st.integers(0, 5)), min_size=3, max_size=8),
    st.sampled_from(["values", "sum"]),
)
@settings(max_examples=100, deadline=None)
def test_sticheln_property_classic_and_gentle_agree_when_every_pain_card_is_a_five(
    hauls: list[tuple[int, int]], form: str
):
    """Scoring alone (no deck check): a 5 costs 5 in both; any other card is +1 in both."""
    seats = []
    for others, fives in hauls:
        seat = sticheln.Seat(pain=("red",), chooser=(Card("red", 5),), others=others)
        if form == "values":
            seats.append(dataclasses.replace(seat, pain_values=(5,) * fives))
        else:
            seats.append(dataclasses.replace(seat, pain_count=fives, pain_sum=5 * fives))
    facts = sticheln.Facts(seats=tuple(seats))
    state = MatchState(totals=(0,) * len(seats), rounds_played=0, finished=False)
    classic = sticheln.score_round(facts, players=len(seats), options={"variant": "classic"}, state=state)
    gentle = sticheln.score_round(facts, players=len(seats), options={"variant": "gentle"}, state=state)
    assert classic.scores == gentle.scores


def test_sticheln_classic_and_gentle_agree_on_a_round_of_fives():
    seats = [
        {"pain": "red", "chooser": card("red", 5), "others": 16, "pain_values": []},
        {"pain": "yellow", "chooser": card("yellow", 5), "others": 16, "pain_values": []},
        {"pain": "green", "chooser": card("green", 5), "others": 12, "pain_values": []},
        {"pain": "blue", "chooser": card("blue", 5), "others": 12, "pain_values": []},
    ]
    assert scores({"seats": seats}) == scores({"seats": seats}, variant="gentle")


KEYS = ["seats", "pain", "chooser", "taken", "others", "pain_values", "pain_count", "pain_sum"]
KEYS += ["colour", "value", "red", "blue", "green", "face_down", "best"]
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 25) | st.floats(allow_nan=False) | st.sampled_from(COLOURS_SIX),
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=3), inner, max_size=5)
    ),
    max_leaves=25,
)


@st.composite
def near_valid(draw: Any) -> tuple[int, str, Any]:
    """A valid round with one value somewhere replaced, removed or added."""
    variant = draw(st.sampled_from([*CLASSIC_FAMILY, "hattrick"]))
    if variant == "hattrick":
        players = 4
        facts: Any = hattrick((9, 2, 4, 1), (3, 10, 2, 0), (4, 4, 10, 0), (3, 4, 0, 0))
    else:
        players, variant, facts = draw(full_rounds((variant,)))
        forms = draw(st.lists(st.sampled_from(["full", "values", "sum"]), min_size=players, max_size=players))
        facts = {"seats": [s if f == "full" else to_quick(s, f) for s, f in zip(facts["seats"], forms, strict=True)]}
    node = facts
    for _ in range(draw(st.integers(0, 3))):
        if isinstance(node, dict) and node:
            key = draw(st.sampled_from(sorted(node)))
        elif isinstance(node, list) and node:
            key = draw(st.integers(0, len(node) - 1))
        else:
            break
        if draw(st.booleans()) or not isinstance(node[key], (dict, list)):
            node[key] = draw(json_values)
            break
        node = node[key]
    return players, variant, facts


@given(st.integers(1, 9), st.sampled_from([*CLASSIC_FAMILY, "hattrick", "nope"]), json_values)
@settings(max_examples=200, deadline=None)
def test_sticheln_property_arbitrary_json_raises_only_invalid_round(players: int, variant: str, facts: Any):
    with contextlib.suppress(InvalidRound):
        RULES.score(facts, players=players, options={"variant": variant})


@given(near_valid())
@settings(max_examples=200, deadline=None)
def test_sticheln_property_near_valid_facts_raise_only_invalid_round(case: tuple[int, str, Any]):
    players, variant, facts = case
    try:
        result = RULES.score(facts, players=players, options={"variant": variant})
    except InvalidRound:
        return
    assert_lines_add_up(result)
