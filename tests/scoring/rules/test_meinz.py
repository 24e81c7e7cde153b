"""Meinz: the rulebook's worked examples, the point-card rule, round checks and the match."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules import InvalidRound, get, meinz
from scoring.rules.types import MatchState

RULES = get("meinz")


def score(facts: dict[str, Any], players: int = 4, **options: Any) -> tuple[int, ...]:
    return RULES.score(facts, players=players, options=options).scores


def problems(facts: Any, players: int = 4, before: tuple[Any, ...] = (), **options: Any) -> set[tuple[str, str, str]]:
    with pytest.raises(InvalidRound) as info:
        RULES.score(facts, players=players, options=options, before=before)
    return {(p.field, p.msg, p.rule) for p in info.value.problems}


def assert_lines_add_up(result: Any, players: int) -> None:
    for seat in range(players):
        points = [ln.points for ln in result.lines if ln.player == seat and ln.points is not None]
        assert sum(points) == result.scores[seat]


# --- the rulebook's worked examples (RULES.md "Worked examples": Meinz) ----------------------------------------
def test_meinz_example_sums_51_38_37_31():
    result = RULES.score({"sums": [51, 38, 37, 31]}, players=4)
    assert result.scores == (3, 1, 0, 2)
    assert [ln.param_dict()["place"] for ln in result.lines] == [1, 2, 3, 4]
    assert_lines_add_up(result, 4)


def test_meinz_example_sums_40_40_39_34_shared_first_place():
    result = RULES.score({"sums": [40, 40, 39, 34]}, players=4)
    assert result.scores == (0, 0, 0, 2)
    assert [ln.msg for ln in result.lines] == ["meinz.place_shared", "meinz.place_shared", "meinz.place", "meinz.place"]
    # the two firsts use up the second place: Éva is third, Márk fourth
    assert [ln.param_dict()["place"] for ln in result.lines] == [1, 1, 3, 4]


def test_meinz_registry_example_scores_like_the_rulebook():
    example = RULES.example
    assert score(example["facts"], example["players"], **example["options"]) == (3, 1, 0, 2)


# --- the point-card rule ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("sums", "expected"),
    [
        ([30, 40, 45, 55], (2, 0, 1, 3)),  # order of seats does not matter
        ([50, 40, 33, 33], (3, 1, 0, 0)),  # two lasts: nobody gets the 2
        ([50, 38, 38, 30], (3, 0, 0, 2)),  # shared second: the 1 and the 0 go to nobody
        ([45, 45, 45, 30], (0, 0, 0, 2)),
        ([39, 39, 39, 39], (0, 0, 0, 0)),
        ([50, 38, 30, 30], (3, 1, 0, 0)),
    ],
)
def test_meinz_point_cards_with_ties(sums: list[int], expected: tuple[int, ...]):
    assert score({"sums": sums}) == expected


@pytest.mark.parametrize(("place", "card"), [(1, 3), (2, 1), (3, 0), (4, 2)])
def test_meinz_point_card_table(place: int, card: int):
    assert meinz.point_card(place, False) == card
    assert meinz.point_card(place, True) == 0


# --- three players and the monster -----------------------------------------------------------------------------
def test_meinz_monster_sum_gets_twelve_and_ranks_like_a_player():
    # monster 30 + 12 = 42 beats 40: it takes place 1, whose 3 goes to nobody
    result = RULES.score({"sums": [40, 38, 36], "monster_sum": 30}, players=3)
    assert result.scores == (1, 0, 2)
    monster = result.lines[0]
    assert (monster.msg, monster.player, monster.points) == ("meinz.monster", None, None)
    assert monster.param_dict() == {"raw": 30, "bonus": 12, "sum": 42, "place": 1}
    assert_lines_add_up(result, 3)


def test_meinz_monster_lowest_takes_nothing_from_the_players():
    # monster 20 + 12 = 32 is last: the players get 3, 1, 0 and the 2 goes to nobody
    assert score({"sums": [52, 48, 40], "monster_sum": 20}, players=3) == (3, 1, 0)


def test_meinz_tie_with_the_monster_gets_nothing():
    result = RULES.score({"sums": [50, 40, 30], "monster_sum": 28}, players=3)
    assert result.scores == (3, 0, 2)
    assert result.lines[0].msg == "meinz.monster_shared"
    assert result.lines[2].msg == "meinz.place_shared"


def test_meinz_monster_variant_fixed_always_takes_the_three():
    facts = {"sums": [60, 50, 40], "monster_sum": 20}
    assert score(facts, 3) == (3, 1, 0)
    result = RULES.score(facts, players=3, options={"monster": "fixed"})
    assert result.scores == (1, 0, 2)
    assert result.lines[0].msg == "meinz.monster_fixed"
    assert_lines_add_up(result, 3)


def test_meinz_monster_variant_fixed_needs_no_monster_sum_and_keeps_shared_places_empty():
    assert score({"sums": [40, 40, 39]}, 3, monster="fixed") == (0, 0, 2)
    assert score({"sums": [50, 39, 39]}, 3, monster="fixed") == (1, 0, 0)


# --- shape of the facts ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("facts", "field", "msg", "rule"),
    [
        ({}, "sums", "meinz.field_missing", "meinz-round"),
        ({"sums": [51, 38, 37, 31], "extra": 1}, "extra", "meinz.field_unknown", "meinz-round"),
        ({"sums": [51, 38, 37]}, "sums", "meinz.list", "meinz-round"),
        ({"sums": "51"}, "sums", "meinz.list", "meinz-round"),
        ({"sums": [51, 38, "37", 31]}, "sums.2", "meinz.int", "meinz-round"),
        ({"sums": [51, True, 37, 31]}, "sums.1", "meinz.int", "meinz-round"),
        ({"sums": [51, 38, 37, 31.0]}, "sums.3", "meinz.int", "meinz-round"),
        ({"sums": [51, 38, 37, 31], "monster_sum": 30}, "monster_sum", "meinz.monster_only_three", "meinz-monster"),
        (
            {"sums": [51, 38, 37, 31], "monster_cards": [1] * 8},
            "monster_cards",
            "meinz.monster_only_three",
            "meinz-monster",
        ),
        ({"sums": [51, 38, 37, 31], "cards": [[1] * 8]}, "cards", "meinz.list", "meinz-round"),
        ({"sums": [51, 38, 37, 31], "cards": {"0": []}}, "cards", "meinz.list", "meinz-round"),
        ({"sums": [51, 38, 37, 31], "cards": [None, "x", None, None]}, "cards.1", "meinz.cards_list", "meinz-round"),
        (
            {"sums": [51, 38, 37, 31], "cards": [None, None, [1, False], None]},
            "cards.2",
            "meinz.cards_list",
            "meinz-round",
        ),
    ],
)
def test_meinz_facts_shape_refused(facts: dict[str, Any], field: str, msg: str, rule: str):
    assert (field, msg, rule) in problems(facts)


@pytest.mark.parametrize(
    ("facts", "field", "msg", "rule"),
    [
        ({"sums": [50, 40, 30]}, "monster_sum", "meinz.monster_sum_missing", "meinz-monster"),
        ({"sums": [50, 40, 30], "monster_sum": "30"}, "monster_sum", "meinz.int", "meinz-round"),
        (
            {"sums": [50, 40, 30], "monster_sum": 30, "monster_cards": 3},
            "monster_cards",
            "meinz.cards_list",
            "meinz-round",
        ),
    ],
)
def test_meinz_three_player_facts_shape_refused(facts: dict[str, Any], field: str, msg: str, rule: str):
    assert (field, msg, rule) in problems(facts, 3)


def test_meinz_facts_must_be_an_object():
    assert problems([51, 38, 37, 31]) == {("facts", "core.facts_object", "meinz-round")}


def test_meinz_normalise_gives_the_stored_form():
    stored = RULES.normalise({"sums": [51, 38, 37, 31]}, players=4, options={"monster": "counts"})
    assert stored == {"sums": [51, 38, 37, 31], "monster_sum": None, "cards": None, "monster_cards": None}


# --- the game's rules ------------------------------------------------------------------------------------------
def test_meinz_every_hand_holds_two_tricks_of_eight_cards():
    found = problems({"sums": [11, 69, 40, 40]})
    assert ("sums.0", "meinz.sum_range", "meinz-tricks") in found
    assert ("sums.1", "meinz.sum_range", "meinz-tricks") in found
    assert ("monster_sum", "meinz.sum_range", "meinz-tricks") in problems({"sums": [40, 40, 40], "monster_sum": 70}, 3)


@pytest.mark.parametrize(
    ("sums", "hands", "total"),
    [
        ([68, 60, 20, 25], 2, 128),  # only 16 cards of 6..9 exist: two hands hold at most 120
        ([12, 20, 60, 60], 2, 32),  # two hands hold at least 40 (the 1s..4s)
        ([60, 50, 50, 15], 3, 160),  # three hands at most 156
        ([30, 30, 20, 70 - 4], 3, 80),  # three hands at least 84
    ],
)
def test_meinz_hands_together_fit_the_deck(sums: list[int], hands: int, total: int):
    found = [p for p in _problem_list({"sums": sums}) if p.msg == "meinz.sums_together"]
    assert any(dict(p.params)["hands"] == hands and dict(p.params)["total"] == total for p in found)
    assert all(p.field == "sums" and p.rule == "meinz-deck" for p in found)


@pytest.mark.parametrize(
    ("sums", "total"),
    [
        ([30, 30, 30, 30], 120),  # 180 minus four discarded cards: at least 144
        ([45, 45, 45, 45], 180),  # ... at most 176
        ([60, 60, 60, 60], 240),  # issue 42: one sentence about the total, not "any 3 hands … 84 to 156"
    ],
)
def test_meinz_four_sums_off_the_deck_are_one_complaint_about_their_total(sums: list[int], total: int):
    found = _problem_list({"sums": sums})
    assert [(p.field, p.msg, p.rule) for p in found] == [("sums", "meinz.sums_total", "meinz-deck")]
    assert dict(found[0].params) == {"cards": 32, "low": 144, "high": 176, "total": total}
    assert found[0].text == (
        f"The four sums add up to {total}, but the four hands hold 32 of the 36 cards (four are laid aside), "
        "worth 144 to 176 together."
    )


def test_meinz_groups_of_hands_off_the_deck_are_named_once():
    # two hands cannot hold 136 (nor 33), three cannot hold 157: the first misfit is named, once
    found = _problem_list({"sums": [68, 68, 21, 12]})
    assert [(p.msg, dict(p.params)["hands"]) for p in found] == [("meinz.sums_together", 2)]


def _problem_list(facts: Any, players: int = 4, **options: Any) -> list[Any]:
    with pytest.raises(InvalidRound) as info:
        RULES.score(facts, players=players, options=options)
    return list(info.value.problems)


def test_meinz_the_four_sums_add_up_to_144_to_176():
    assert meinz.together_bounds(4) == (144, 176)
    assert score({"sums": [36, 36, 36, 36]}) == (0, 0, 0, 0)
    assert score({"sums": [44, 44, 44, 44]}) == (0, 0, 0, 0)
    assert problems({"sums": [36, 36, 36, 35]}) == {("sums", "meinz.sums_total", "meinz-deck")}
    assert problems({"sums": [44, 44, 44, 45]}) == {("sums", "meinz.sums_total", "meinz-deck")}


def test_meinz_monster_hand_counts_towards_the_deck():
    # three players + monster also hold 32 cards (three discards + the monster's leftover card)
    assert problems({"sums": [36, 36, 36], "monster_sum": 35}, 3) == {("sums", "meinz.sums_total", "meinz-deck")}
    assert score({"sums": [36, 36, 36], "monster_sum": 36}, 3) == (0, 0, 0)


def test_meinz_card_lists_are_checked_against_the_sums():
    hand = [1, 2, 3, 4, 5, 6, 7, 8]  # 36
    ok = {"sums": [36, 36, 36, 36], "cards": [hand, hand, None, None]}
    assert score(ok) == (0, 0, 0, 0)
    found = problems({"sums": [36, 36, 36, 36], "cards": [[1, 2, 3], [1, 2, 3, 4, 5, 6, 7, 10], hand, hand]})
    assert ("cards.0", "meinz.cards_count", "meinz-tricks") in found
    assert ("cards.0", "meinz.cards_sum", "meinz-scoring") in found
    assert ("cards.1", "meinz.cards_sum", "meinz-scoring") in found
    assert ("cards.1.7", "meinz.card_value", "meinz-deck") in found


def test_meinz_card_lists_respect_four_copies_per_value():
    hand = [1, 1, 1, 1, 9, 9, 9, 9]  # 40
    found = _problem_list({"sums": [40, 40, 40, 40], "cards": [hand, hand, None, None]})
    assert [(p.field, p.msg, p.rule, dict(p.params)) for p in found] == [
        ("cards", "meinz.cards_copies", "meinz-deck", {"copies": 4, "value": 1, "count": 8}),
        ("cards", "meinz.cards_copies", "meinz-deck", {"copies": 4, "value": 9, "count": 8}),
    ]


def test_meinz_monster_cards_are_checked_too():
    hand = [2, 3, 4, 5, 6, 7, 8, 9]  # 44
    assert score({"sums": [44, 44, 44], "monster_sum": 44, "monster_cards": hand}, 3) == (0, 0, 0)
    found = problems({"sums": [44, 44, 44], "monster_sum": 40, "monster_cards": [*hand, 9]}, 3)
    assert ("monster_cards", "meinz.cards_count", "meinz-tricks") in found
    assert ("monster_cards", "meinz.cards_sum", "meinz-scoring") in found
    # fixed variant without a monster sum: the cards are still checked against the deck
    found = problems({"sums": [50, 40, 30], "monster_cards": [0] * 8}, 3, monster="fixed")
    assert ("monster_cards.0", "meinz.card_value", "meinz-deck") in found


def test_meinz_option_must_be_a_known_choice():
    assert ("options.monster", "core.option_choice", "meinz-monster") in problems(
        {"sums": [50, 40, 30]}, 3, monster="x"
    )


# --- the match -------------------------------------------------------------------------------------------------
ROUND = {"sums": [51, 38, 37, 31]}


def test_meinz_match_runs_eight_rounds():
    state = RULES.state([ROUND] * 7, players=4)
    assert (state.finished, state.rounds_left, state.winners, state.next_dealer) == (False, 1, (), 3)
    state = RULES.state([ROUND] * 8, players=4)
    assert (state.finished, state.rounds_left, state.winners, state.totals) == (True, 0, (0,), (24, 8, 0, 16))
    assert (state.next_dealer, state.next_starter) == (None, None)


def test_meinz_no_round_after_the_eighth():
    assert problems(ROUND, before=(ROUND,) * 8) == {("", "meinz.match_over", "meinz-end")}


def test_meinz_winners_share_a_tie():
    rounds = [{"sums": [51, 38, 37, 31]}, {"sums": [38, 51, 31, 37]}] * 4
    state = RULES.state(rounds, players=4)
    assert state.totals == (16, 16, 8, 8)
    assert state.winners == (0, 1)


def test_meinz_start_player_rotates_left_of_the_dealer():
    state = RULES.state([], players=4)
    assert (state.next_dealer, state.next_starter, state.rounds_left) == (0, 1, 8)
    state = RULES.state([ROUND] * 3, players=4)
    assert (state.next_dealer, state.next_starter) == (3, 0)


def test_meinz_three_players_the_monster_leads_twice():
    three = {"sums": [51, 38, 37], "monster_sum": 31}
    starters = [meinz.starter_of(i, players=3) for i in range(8)]
    assert starters == [1, 2, None, 0, 1, 2, None, 0]
    state = RULES.state([three] * 2, players=3)
    assert (state.next_starter, state.extra["monster_leads"], state.next_dealer) == (None, True, 2)
    state = RULES.state([three] * 3, players=3)
    assert (state.next_starter, state.extra["monster_leads"]) == (0, False)


# --- properties ------------------------------------------------------------------------------------------------
@st.composite
def real_rounds(draw: st.DrawFn) -> tuple[int, dict[str, Any]]:
    """A real deal: the 36 cards shuffled, four discards (or three + the monster's leftover), 8 cards per hand."""
    players = draw(st.sampled_from([3, 4]))
    deck = draw(st.permutations(meinz.DECK))
    hands = [list(deck[i * 8 : i * 8 + 8]) for i in range(4)]
    facts: dict[str, Any] = {"sums": [sum(h) for h in hands[:players]], "cards": hands[:players]}
    if players == 3:
        facts["monster_sum"] = sum(hands[3])
        facts["monster_cards"] = hands[3]
    return players, facts


@settings(max_examples=200, deadline=None)
@given(real_rounds(), st.sampled_from(["counts", "fixed"]))
def test_meinz_property_real_deals_are_accepted_and_each_point_card_given_at_most_once(
    deal: tuple[int, dict[str, Any]], monster: str
):
    players, facts = deal
    result = RULES.score(facts, players=players, options={"monster": monster})
    handed = [p for p in result.scores if p]
    assert len(handed) == len(set(handed))
    assert set(handed) <= {1, 2, 3}
    assert_lines_add_up(result, players)
    if players == 3 and monster == "fixed":
        assert 3 not in handed


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-100, 200) | st.floats(allow_nan=False) | st.text(max_size=3),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=5), children, max_size=4),
    max_leaves=12,
)


@st.composite
def near_valid_facts(draw: st.DrawFn) -> dict[str, Any]:
    facts: dict[str, Any] = {
        "sums": draw(st.lists(st.integers(0, 80) | json_values, min_size=3, max_size=4)),
    }
    for key in ("monster_sum", "cards", "monster_cards"):
        if draw(st.booleans()):
            facts[key] = draw(
                json_values | st.integers(0, 80) | st.lists(st.lists(st.integers(0, 10), max_size=9) | st.none())
            )
    return facts


@settings(max_examples=200, deadline=None)
@given(st.sampled_from([3, 4]), near_valid_facts() | json_values, st.sampled_from(["counts", "fixed"]))
def test_meinz_property_any_input_raises_only_invalid_round(players: int, facts: Any, monster: str):
    try:
        result = RULES.score(facts, players=players, options={"monster": monster})
    except InvalidRound:
        return
    assert len(result.scores) == players
    assert_lines_add_up(result, players)


def test_meinz_match_state_after_no_rounds_is_fresh():
    state = meinz.match_state([], players=4, options={"monster": "counts"})
    assert state == MatchState(
        totals=(0, 0, 0, 0),
        rounds_played=0,
        finished=False,
        next_dealer=0,
        next_starter=1,
        rounds_left=8,
        extra={"monster_leads": False},
    )
