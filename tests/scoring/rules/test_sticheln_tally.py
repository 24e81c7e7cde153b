"""Sticheln's quick entry (the tally): what each player counts at the table — the other cards and the pain points
(gentle: the pain cards), the chooser counted in — scores as the cards do, and is checked as far as it allows.
Hattrick's tally: the most-cards colour, the other two together, the face-down cards."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules import InvalidRound, sticheln
from tests.scoring.rules.test_sticheln import (
    FRESH,
    RULES,
    assert_lines_add_up,
    classic_example_seats,
    full_rounds,
    hattrick,
    problems,
    rendered,
    result_of,
    scores,
    with_delayed_pain,
)


def tally_of(seat: dict[str, Any], variant: str) -> dict[str, Any]:
    """A full-way seat as the quick entry takes it: the chooser counted in with the pain cards."""
    pain = seat.get("pain") or []
    pain = [pain] if isinstance(pain, str) else pain
    chooser = seat.get("chooser") or []
    chooser = [chooser] if isinstance(chooser, dict) else chooser
    mine = [c for c in seat["taken"] if c["colour"] in pain] + chooser
    out: dict[str, Any] = {"pain": pain or None, "others": len(seat["taken"]) - len(mine) + len(chooser)}
    if variant == "gentle":
        out["pain_cards"] = len(mine)
    else:
        out["pain_points"] = sum(c["value"] for c in mine)
    return out


def tallied(facts: dict[str, Any], variant: str, entry: str | None = "quick") -> dict[str, Any]:
    out: dict[str, Any] = {"seats": [tally_of(seat, variant) for seat in facts["seats"]]}
    if entry is not None:
        out["entry"] = entry
    return out


# ===== the worked example and the explanation ================================================================


def test_tally_of_the_worked_example_scores_three_and_says_quick_entry():
    # Axel: red 4 chooser, red 2 and 5 taken, 14 other cards -> 14 − 11 = 3, counted at the table as 14 and 11
    seats = [
        {"pain": "red", "others": 14, "pain_points": 11},
        {"pain": "blue", "others": 10, "pain_points": 3},
        {"pain": "green", "others": 8, "pain_points": 1},
        {"pain": "yellow", "others": 18, "pain_points": 14},
    ]
    result = result_of({"seats": seats, "entry": "quick"})
    assert result.scores == (3, 7, 7, 4) == scores({"seats": classic_example_seats()})
    assert rendered(result, 0) == ["pain cards with the chooser worth 11 = −11", "14 other cards × +1 = 14"]
    general = [RULES.render(ln.msg, ln.param_dict()) for ln in result.lines if ln.player is None]
    assert general == ["Quick entry: each player's count from the table."]
    assert result.lines[0].player is None  # said first
    assert_lines_add_up(result)


def test_full_entry_says_so_and_an_unsaid_entry_says_nothing():
    full = {"seats": classic_example_seats(), "entry": "full"}
    general = [RULES.render(ln.msg, ln.param_dict()) for ln in result_of(full).lines if ln.player is None]
    assert general == ["Full entry: every count, checked card by card against the deck."]
    assert all(ln.player is not None for ln in result_of({"seats": classic_example_seats()}).lines)


@pytest.mark.parametrize(
    ("variant", "seat", "expected"),
    [
        ("reverse", {"pain": "red", "others": 14, "pain_points": 11}, ["lucky cards with the chooser worth 11 = 11"]),
        ("gentle", {"pain": "red", "others": 14, "pain_cards": 3}, ["3 pain cards, the chooser included, × −5 = −15"]),
        ("delayed", {"pain": "red", "others": 13, "pain_points": 7}, ["pain colour red, picked by the player"]),
    ],
)
def test_tally_lines_per_variant(variant: str, seat: dict[str, Any], expected: list[str]):
    """The lines alone (scored without the deck checks): each variant words its tally."""
    options = {"variant": variant}
    parsed = sticheln.facts_parse({"seats": [seat] * 4}, players=4, options=options)
    result = sticheln.score_round(parsed, players=4, options=options, state=FRESH)
    assert rendered(result, 0)[: len(expected)] == expected


def test_delayed_tally_of_a_player_without_a_trick_scores_nothing():
    full = deal_delayed()
    facts = tallied(full, "delayed")
    empty = next(i for i, seat in enumerate(full["seats"]) if not seat["taken"])
    result = result_of(facts, 3, "delayed")
    assert result.scores[empty] == 0
    assert rendered(result, empty) == ["no trick taken = 0"]
    assert result.scores == scores(full, 3, "delayed")


def deal_delayed() -> dict[str, Any]:
    """3 players, delayed: Cili takes no trick at all; the others pick their cheapest colours."""
    from tests.scoring.rules.test_sticheln import deal

    return with_delayed_pain(deal(3, "delayed", winners=[t % 2 for t in range(15)]))


# ===== the tally scores as the cards do, and is accepted, for every valid round ===============================


@given(full_rounds(), st.booleans())
@settings(max_examples=80, deadline=None)
def test_property_tally_scores_as_the_cards_and_is_accepted(round_: tuple[int, str, dict[str, Any]], entry: bool):
    players, variant, facts = round_
    if variant == "delayed":
        facts = with_delayed_pain(facts)
    expected = scores(facts, players, variant)
    quick = tallied(facts, variant, "quick" if entry else None)
    assert scores(quick, players, variant) == expected  # scores() validates: a refusal would raise
    assert_lines_add_up(result_of(quick, players, variant))
    stored = RULES.normalise(quick, players=players, options={"variant": variant})
    assert RULES.normalise(stored, players=players, options={"variant": variant}) == stored
    assert scores(stored, players, variant) == expected


@given(full_rounds(), st.integers(0, 7))
@settings(max_examples=60, deadline=None)
def test_property_a_mixed_round_of_tallies_and_counts_is_accepted(round_: tuple[int, str, dict[str, Any]], k: int):
    """The API may mix the ways seat by seat; the checks take each seat as entered."""
    from tests.scoring.rules.test_sticheln import to_quick

    players, variant, facts = round_
    if variant == "delayed":
        facts = with_delayed_pain(facts)
    expected = scores(facts, players, variant)
    seats = [tally_of(s, variant) if i <= k else to_quick(s, "sum") for i, s in enumerate(facts["seats"])]
    assert scores({"seats": seats}, players, variant) == expected


def test_schema_takes_the_tally_as_submitted_and_as_stored():
    jsonschema = pytest.importorskip("jsonschema")
    validator = jsonschema.Draft202012Validator(RULES.facts_schema)
    quick = {"seats": [{"pain": "red", "others": 14, "pain_points": 11}] * 4, "entry": "quick"}
    validator.validate(quick)
    seats = [{"pain": "red", "others": 14, "pain_points": 11}, {"pain": "blue", "others": 10, "pain_points": 3}]
    seats += [{"pain": "green", "others": 8, "pain_points": 1}, {"pain": "yellow", "others": 18, "pain_points": 14}]
    validator.validate(RULES.normalise({"seats": seats, "entry": "quick"}, players=4, options={"variant": "classic"}))
    hat = {"seats": [{"most": 9, "rest": 6, "face_down": 1}] + hattrick((3, 10, 2, 0))["seats"], "entry": None}
    validator.validate(hat)
    assert not validator.is_valid({"seats": [{"pain": "red", "others": 3, "pain_points": 2, "chooser": [{}]}]})
    assert not validator.is_valid({"seats": [], "entry": "fast"})


# ===== what the tally lets the rules engine check ==================================================================


def four(*seats: dict[str, Any], entry: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"seats": list(seats)}
    if entry:
        out["entry"] = entry
    return out


EXAMPLE_TALLY = [
    {"pain": "red", "others": 14, "pain_points": 11},
    {"pain": "blue", "others": 10, "pain_points": 3},
    {"pain": "green", "others": 8, "pain_points": 1},
    {"pain": "yellow", "others": 18, "pain_points": 14},
]


def example_with(seat: int, change: dict[str, Any], variant: str = "classic") -> set[tuple[str, str, str]]:
    seats = copy.deepcopy(EXAMPLE_TALLY)
    seats[seat] = {**seats[seat], **change}
    seats[seat] = {k: v for k, v in seats[seat].items() if v is not ...}
    try:
        RULES.score({"seats": seats}, players=4, options={"variant": variant})
    except InvalidRound as refused:
        return {(p.field, p.msg, p.rule) for p in refused.problems}
    return set()


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"pain_count": 2}, ("seats.0", "sticheln.shape_tally_way", "sticheln-round")),
        ({"taken": []}, ("seats.0", "sticheln.shape_tally_way", "sticheln-round")),
        ({"pain_cards": 3}, ("seats.0", "sticheln.shape_tally_one", "sticheln-round")),
        (
            {"chooser": {"colour": "red", "value": 4}},
            ("seats.0.chooser", "sticheln.shape_tally_chooser", "sticheln-round"),
        ),
        ({"others": -1}, ("seats.0.others", "sticheln.shape_count", "sticheln-round")),
        ({"pain_points": "11"}, ("seats.0.pain_points", "sticheln.shape_count", "sticheln-round")),
    ],
)
def test_tally_shape_refusals(change: dict[str, Any], expected: tuple[str, str, str]):
    assert expected in example_with(0, change)


def test_tally_needs_a_colour_outside_delayed():
    assert ("seats.0.pain", "sticheln.pain_one", "sticheln-pain") in example_with(0, {"pain": None})


def test_classic_tally_takes_points_and_gentle_takes_cards():
    assert example_with(0, {"pain_points": ..., "pain_cards": 3}) >= {
        ("seats.0.pain_points", "sticheln.tally_points_needed", "sticheln-round")
    }
    seats = [{"pain": s["pain"], "others": s["others"], "pain_cards": 1} for s in EXAMPLE_TALLY]
    seats[0] = {"pain": "red", "others": 14, "pain_points": 11}
    assert ("seats.0.pain_cards", "sticheln.tally_cards_needed", "sticheln-gentle") in problems(
        {"seats": seats}, 4, "gentle"
    )


def gentle_round() -> dict[str, Any]:
    # 4 players, 14 tricks: 56 cards taken + 4 choosers = 60; each count includes the chooser card
    return four(
        {"pain": "red", "others": 14, "pain_cards": 3},  # 14 + 2 taken = 16
        {"pain": "blue", "others": 10, "pain_cards": 3},  # 12
        {"pain": "green", "others": 8, "pain_cards": 1},  # 8
        {"pain": "yellow", "others": 18, "pain_cards": 3},  # 20
    )


def test_gentle_tally_scores_and_counts_exactly():
    assert scores(gentle_round(), 4, "gentle") == (14 - 15, 10 - 15, 8 - 5, 18 - 15)
    facts = gentle_round()
    facts["seats"][0]["pain_cards"] = 0  # the chooser card is a pain card
    assert ("seats.0.pain_cards", "sticheln.tally_cards_low", "sticheln-gentle") in problems(facts, 4, "gentle")
    facts = gentle_round()
    facts["seats"][0]["pain_cards"] = 4  # 14 + 3 taken: no whole tricks
    found = problems(facts, 4, "gentle")
    assert ("seats.0.others", "sticheln.tricks_multiple", "sticheln-tricks") in found
    assert ("seats", "sticheln.cards_total", "sticheln-tricks") in found
    facts = gentle_round()
    facts["seats"][1]["pain"] = "red"
    facts["seats"][0]["pain_cards"] = facts["seats"][1]["pain_cards"] = 7  # 14 red cards wanted, 12 exist
    facts["seats"][0]["others"], facts["seats"][1]["others"] = 10, 6
    assert ("seats", "sticheln.cards_short", "sticheln-deck") in problems(facts, 4, "gentle")


def test_tally_total_counts_the_fewest_pain_cards():
    seats = copy.deepcopy(EXAMPLE_TALLY)
    seats[3]["others"] = 24  # 14 + 10 + 8 + 24 others, + 4 choosers + 2 + 2 + 0 taken pain cards at least > 60
    assert ("seats", "sticheln.tally_total", "sticheln-tricks") in problems({"seats": seats})


@pytest.mark.parametrize(
    ("seat", "points", "expected"),
    [
        (0, 67, True),  # red 0..11 add up to 66
        (2, 0, False),  # green: others 8 = two tricks, the chooser green 0 alone makes 0
        (0, 0, True),  # 14 others need 2 more cards: chooser + 2 cards of red make at least 0 + 1 + 2 = 3
        (0, 3, False),
        (1, 2, True),  # blue: 10 others need 2 more cards beside the chooser: 3 cards make at least 0 + 1 + 2
        (1, 30, False),  # blue 11, 10 and 9
    ],
)
def test_tally_points_must_be_made_of_free_cards_with_whole_tricks(seat: int, points: int, expected: bool):
    found = example_with(seat, {"pain_points": points})
    assert ((f"seats.{seat}.pain_points", "sticheln.tally_points_free", "sticheln-deck") in found) is expected


def test_tally_players_sharing_a_colour_cannot_claim_more_than_it_holds():
    seats = copy.deepcopy(EXAMPLE_TALLY)
    seats[0]["pain_points"] = 30  # red 11, 10 and 9
    seats[1] = {"pain": "red", "others": 10, "pain_points": 40}  # seven red cards could make 40 on their own …
    assert ("seats", "sticheln.tally_shared", "sticheln-deck") in problems({"seats": seats})  # … 70 > 66
    seats[1]["pain_points"] = 21  # red 8, 7 and 6
    assert scores({"seats": seats})[:2] == (14 - 30, 10 - 21)


def test_tally_shared_with_a_count_seat_of_the_same_colour():
    """Bence entered red 11 as his chooser and two red cards worth 19 (10 and 9): Anna's red can only come from
    red 0 to 8 and, with her other cards' whole tricks, three cards of them at most 8 + 7 + 6."""
    seats: list[dict[str, Any]] = copy.deepcopy(EXAMPLE_TALLY)
    seats[1] = {"pain": "red", "chooser": {"colour": "red", "value": 11}, "others": 10, "pain_count": 2, "pain_sum": 19}
    seats[0]["pain_points"] = 40  # seven red cards could make 40, but 40 + 19 > 55, the free red cards' worth
    assert ("seats", "sticheln.tally_shared", "sticheln-deck") in problems({"seats": seats})
    seats[0]["pain_points"] = 21
    assert scores({"seats": seats})[:2] == (14 - 21, 10 - 30)


def test_heavy_tally_two_colours():
    # 4 players heavy: 13 tricks = 52 cards + 8 choosers
    seats = [
        {"pain": ["red", "blue"], "others": 10, "pain_points": 20},  # 2 choosers + 2 taken
        {"pain": ["green", "yellow"], "others": 10, "pain_points": 9},
        {"pain": ["brown", "red"], "others": 11, "pain_points": 12},  # 2 choosers + 1 taken
        {"pain": ["blue", "green"], "others": 12, "pain_points": 5},  # 2 choosers
    ]
    assert scores({"seats": seats, "entry": "quick"}, 4, "heavy") == (-10, 1, -1, 7)
    seats[0]["pain"] = ["red", "red"]
    assert ("seats.0.pain", "sticheln.pain_two", "sticheln-heavy") in problems({"seats": seats}, 4, "heavy")


def test_delayed_tally_without_a_colour_must_have_taken_nothing():
    full = deal_delayed()
    facts = tallied(full, "delayed")
    taker = next(i for i, seat in enumerate(full["seats"]) if seat["taken"])
    facts["seats"][taker]["pain"] = None
    assert (f"seats.{taker}.pain", "sticheln.delayed_pain_needed", "sticheln-delayed") in problems(facts, 3, "delayed")


def test_delayed_tally_with_a_colour_needs_at_least_one_of_its_cards():
    # 3 players, 15 tricks of 3 = 45 cards: Anna 27 others and a trick of red, Bence nothing, Cili 12 and blue
    seats = [
        {"pain": "red", "others": 27, "pain_points": 3},
        {"pain": None, "others": 0, "pain_points": 0},
        {"pain": "blue", "others": 12, "pain_points": 21},
    ]
    assert scores({"seats": seats}, 3, "delayed") == (24, 0, -9)
    seats[0]["pain_points"] = 0  # a picked colour is among her cards: whole tricks make three red cards, 0 + 1 + 2
    assert ("seats.0.pain_points", "sticheln.tally_points_free", "sticheln-deck") in problems(
        {"seats": seats}, 3, "delayed"
    )


def test_entry_must_match_the_facts():
    quick = {"seats": copy.deepcopy(EXAMPLE_TALLY), "entry": "full"}
    assert ("entry", "sticheln.entry_shape", "sticheln-round") in problems(quick)
    full = {"seats": classic_example_seats(), "entry": "quick"}  # the quick entry reads every seat as a tally
    assert ("seats.0", "sticheln.shape_tally_way", "sticheln-round") in problems(full)
    assert ("entry", "sticheln.shape_entry", "sticheln-round") in problems(
        {"seats": classic_example_seats(), "entry": 1}
    )
    message = RULES.render("sticheln.entry_shape", {"entry": "quick"})
    assert message == "The round says the quick entry made it, but its facts are not that entry's."


# ===== Hattrick's tally ==================================================================================


def test_hattrick_tally_of_the_worked_example():
    facts = hattrick((9, 2, 4, 1), (3, 10, 2, 0), (4, 4, 10, 0), (3, 4, 0, 0))
    facts["seats"][0] = {"most": 9, "rest": 6, "face_down": 1}
    facts["entry"] = "quick"
    with pytest.raises(InvalidRound):  # the quick entry means every player's tally
        result_of(facts, variant="hattrick")
    facts["seats"] = [{"most": 9, "rest": 6, "face_down": 1}, {"most": 10, "rest": 5}, {"most": 10, "rest": 8}]
    facts["seats"].append({"most": 4, "rest": 3, "face_down": 0})
    result = result_of(facts, variant="hattrick")
    assert result.scores == (1, 5, 2, 1)
    assert rendered(result, 0) == [
        "9 cards of the colour with the most × +1 = 9",
        "6 cards of the other two colours × −1 = −6",
        "1 face-down card × −2 = −2",
    ]
    assert result.lines[0].player is None
    assert_lines_add_up(result)


def test_hattrick_full_and_tally_seats_mix_and_are_checked():
    facts = hattrick((9, 2, 4, 1), (3, 10, 2, 0), (4, 4, 10, 0), (3, 4, 0, 0))
    facts["seats"][3] = {"most": 4, "rest": 3}
    assert scores(facts, variant="hattrick") == (1, 5, 2, 1)
    facts["seats"][3] = {"most": 2, "rest": 5}  # the most-cards colour cannot hold fewer than half the rest
    assert ("seats.3.most", "sticheln.hattrick_most", "sticheln-hattrick-scoring") in problems(facts, 4, "hattrick")
    facts["seats"][3] = {"most": 21, "rest": 0}
    found = problems(facts, 4, "hattrick")
    assert ("seats.3.most", "sticheln.hattrick_most_size", "sticheln-hattrick") in found
    assert ("seats", "sticheln.hattrick_total", "sticheln-hattrick") in found
    facts["seats"][3] = {"most": 4, "rest": 3, "red": 1}
    assert ("seats.3.red", "sticheln.shape_unknown", "sticheln-round") in problems(facts, 4, "hattrick")
    facts["seats"][3] = {"most": 4, "rest": 3}
    facts["entry"] = "full"
    assert ("entry", "sticheln.entry_shape", "sticheln-round") in problems(facts, 4, "hattrick")


def test_hattrick_tally_normalises_and_parses_back():
    facts = {"seats": [{"most": 9, "rest": 6, "face_down": 1}, {"most": 10, "rest": 5}, {"most": 10, "rest": 8}]}
    facts["seats"].append({"most": 4, "rest": 3})
    options = RULES.options_parse({"variant": "hattrick"}, players=4)
    stored = RULES.normalise(facts, players=4, options=options)
    assert stored["seats"][1] == {"most": 10, "rest": 5, "face_down": 0}
    assert RULES.normalise(stored, players=4, options=options) == stored


@pytest.mark.parametrize(("variant", "field"), [("classic", "pain_points"), ("gentle", "pain_cards")])
def test_a_quick_round_with_a_tally_left_blank_asks_for_it(variant: str, field: str):
    """The form sends a player's blank tally as nothing: the quick entry's round still reads it as a tally."""
    seats = copy.deepcopy(EXAMPLE_TALLY) if variant == "classic" else gentle_round()["seats"]
    seats[2] = {"pain": seats[2]["pain"], "others": None}
    found = problems({"seats": seats, "entry": "quick"}, 4, variant)
    assert (f"seats.2.{field}", "sticheln.shape_required", "sticheln-round") in found
    assert ("seats.2.others", "sticheln.shape_required", "sticheln-round") in found


def test_a_quick_hattrick_round_with_a_tally_left_blank_asks_for_it():
    seats: list[dict[str, Any]] = [{"most": 9, "rest": 6, "face_down": 1}, {"most": 10, "rest": 5}]
    seats += [{"most": 10, "rest": 8}, {"face_down": None}]
    found = problems({"seats": seats, "entry": "quick"}, 4, "hattrick")
    assert ("seats.3.most", "sticheln.shape_required", "sticheln-round") in found
    assert ("seats.3.rest", "sticheln.shape_required", "sticheln-round") in found
