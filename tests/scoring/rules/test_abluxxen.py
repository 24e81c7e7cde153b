"""Húzz egyet! / Abluxxen: +1 in front, −1 in hand, the hand tie-break, modes, validation, matches."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules import InvalidRound, get
from scoring.rules import abluxxen as ab

RULES = get("abluxxen")


def refused(
    facts: Any, players: int = 3, options: dict[str, Any] | None = None, before: tuple[Any, ...] = ()
) -> list[tuple[str, str, str]]:
    with pytest.raises(InvalidRound) as info:
        RULES.score(facts, players=players, options=options, before=before)
    return [(p.field, p.msg, p.rule) for p in info.value.problems]


# --- scoring --------------------------------------------------------------------------------------


def test_abluxxen_example_player_out_scores_front_minus_hand() -> None:
    result = RULES.score(ab.EXAMPLE["facts"], players=3, options=ab.EXAMPLE["options"])
    assert result.scores == (17 - 0, 12 - 4, 9 - 7)
    seat1 = [ln for ln in result.lines if ln.player == 1]
    assert [RULES.render(ln.msg, ln.param_dict()) for ln in seat1] == [
        "12 cards laid out in front × +1",
        "4 cards left in hand × −1",
    ]
    assert [ln.points for ln in seat1] == [12, -4]


def test_abluxxen_card_values_do_not_matter_only_counts() -> None:
    assert ab.seat_score(0, 0) == 0
    assert ab.seat_score(5, 9) == -4
    assert ab.seat_score(30, 2) == 28


def test_abluxxen_exhausted_pile_game() -> None:
    result = RULES.score({"front": [10, 8, 14, 6], "hand": [3, 5, 1, 9], "end": "exhausted"}, players=4)
    assert result.scores == (7, 3, 13, -3)


@pytest.mark.parametrize(("mode", "players"), [("duel", 2), ("base", 3), ("advanced", 4), ("master", 5)])
def test_abluxxen_modes_change_play_not_scoring(mode: str, players: int) -> None:
    facts = {"front": [4] * players, "hand": [0] + [2] * (players - 1), "end": "out"}
    result = RULES.score(facts, players=players, options={"mode": mode})
    assert result.scores == (4,) + (2,) * (players - 1)


# --- ties -----------------------------------------------------------------------------------------


def test_abluxxen_tie_fewer_cards_in_hand_wins() -> None:
    # seats 0 and 1 both score 8; seat 0 kept 2 cards, seat 1 kept 4
    state = RULES.state([{"front": [10, 12, 3], "hand": [2, 4, 0], "end": "out"}], players=3)
    assert state.totals == (8, 8, 3)
    assert state.winners == (0,)
    assert state.extra["ranking"] == [0, 1, 2]
    assert state.extra["game_winners"] == [[0]]


def test_abluxxen_tie_on_points_and_hand_is_shared() -> None:
    state = RULES.state([{"front": [10, 10, 3], "hand": [2, 2, 0], "end": "out"}], players=3)
    assert state.winners == (0, 1)
    assert state.extra["ranking"] == [0, 1, 2]


def test_abluxxen_winner_without_tie() -> None:
    assert ab.winners_of([5, 9, 1], [0, 3, 3]) == (1,)
    assert ab.ranking([5, 9, 1], [0, 3, 3]) == (1, 0, 2)


# --- the match ------------------------------------------------------------------------------------


def test_abluxxen_match_of_several_games() -> None:
    options = {"games": 2}
    first = {"front": [10, 12, 3], "hand": [2, 0, 5], "end": "out"}  # 8, 12, -2
    second = {"front": [9, 5, 7], "hand": [1, 3, 0], "end": "out"}  # 8, 2, 7
    state = RULES.state([first], players=3, options=options)
    assert not state.finished and state.winners == () and state.rounds_left == 1
    assert state.next_dealer == 1 and state.next_starter is None
    state = RULES.state([first, second], players=3, options=options)
    assert state.finished and state.rounds_left == 0 and state.next_dealer == 2
    assert state.totals == (16, 14, 5)
    assert state.winners == (0,)
    assert state.extra["hand_totals"] == [3, 3, 5]
    assert state.extra["game_winners"] == [[1], [0]]


def test_abluxxen_match_tie_broken_by_cards_in_hand_over_the_match() -> None:
    options = {"games": 2}
    first = {"front": [10, 12, 3], "hand": [2, 0, 5], "end": "out"}  # 8, 12, -2
    second = {"front": [9, 5, 7], "hand": [1, 4, 0], "end": "out"}  # 8, 1, 7 -> 16, 13, 5
    third_options = {"games": 3}
    third = {"front": [5, 8, 2], "hand": [4, 0, 6], "end": "out"}  # 1, 8, -4 -> 17, 21, 1
    state = RULES.state([first, second], players=3, options=options)
    assert state.totals == (16, 13, 5) and state.winners == (0,)
    state = RULES.state([first, second, third], players=3, options=third_options)
    assert state.winners == (1,)
    tied = {"front": [6, 9, 2], "hand": [1, 1, 6], "end": "exhausted"}  # 5, 8 -> 21, 21; hands 4 and 5
    state = RULES.state([first, second, tied], players=3, options=third_options)
    assert state.totals == (21, 21, 1)
    assert state.extra["hand_totals"] == [4, 5, 11]
    assert state.winners == (0,)
    assert state.extra["ranking"] == [0, 1, 2]
    tied_points = {"front": [6, 8, 2], "hand": [1, 0, 6], "end": "out"}  # 5, 8 -> 21, 21
    state = RULES.state([first, second, tied_points], players=3, options=third_options)
    assert state.totals == (21, 21, 1)
    assert state.extra["hand_totals"] == [4, 4, 11]
    assert state.winners == (0, 1)


def test_abluxxen_refuses_a_game_after_the_match() -> None:
    game = {"front": [10, 12, 3], "hand": [2, 0, 5], "end": "out"}
    assert refused(game, before=(game,)) == [("", "abluxxen.match_over", "abluxxen-match")]


# --- options --------------------------------------------------------------------------------------


def test_abluxxen_duel_needs_two_players() -> None:
    with pytest.raises(InvalidRound) as info:
        RULES.options_parse({"mode": "duel"}, players=3)
    assert [(p.field, p.msg, p.rule) for p in info.value.problems] == [
        ("options.mode", "abluxxen.mode_players", "abluxxen-players")
    ]
    assert "duel mode is played by 2 to 2 players, not 3" in str(info.value)


@pytest.mark.parametrize("mode", ["base", "advanced", "master"])
def test_abluxxen_multiplayer_modes_need_three_to_five(mode: str) -> None:
    with pytest.raises(InvalidRound) as info:
        RULES.options_parse({"mode": mode}, players=2)
    assert info.value.problems[0].msg == "abluxxen.mode_players"
    assert RULES.options_parse({"mode": mode}, players=5) == {"mode": mode, "games": 1}


def test_abluxxen_option_defaults_and_bad_values() -> None:
    assert RULES.options_parse(None, players=3) == {"mode": "base", "games": 1}
    with pytest.raises(InvalidRound):
        RULES.options_parse({"games": 0}, players=3)
    with pytest.raises(InvalidRound):
        RULES.options_parse({"mode": "solo"}, players=3)


# --- validation -----------------------------------------------------------------------------------


def test_abluxxen_refuses_more_than_109_cards() -> None:
    problems = refused({"front": [50, 40, 10], "hand": [0, 5, 5], "end": "out"})
    assert problems == [("", "abluxxen.deck", "abluxxen-deck")]
    assert RULES.score({"front": [50, 40, 9], "hand": [0, 5, 5], "end": "out"}, players=3).scores == (50, 35, 4)


def test_abluxxen_duel_deck_is_the_same_109_cards() -> None:
    assert refused({"front": [60, 45], "hand": [0, 5], "end": "out"}, players=2, options={"mode": "duel"}) == [
        ("", "abluxxen.deck", "abluxxen-deck")
    ]


def test_abluxxen_out_needs_exactly_one_empty_hand() -> None:
    assert refused({"front": [5, 5, 5], "hand": [1, 2, 3], "end": "out"}) == [
        ("hand", "abluxxen.out_empty_hand", "abluxxen-end")
    ]
    assert refused({"front": [5, 5, 5], "hand": [0, 0, 3], "end": "out"}) == [
        ("hand", "abluxxen.out_empty_hand", "abluxxen-end")
    ]


def test_abluxxen_player_out_keeps_his_last_cards_in_front() -> None:
    assert refused({"front": [5, 0, 5], "hand": [1, 0, 3], "end": "out"}) == [
        ("front.1", "abluxxen.out_front", "abluxxen-end")
    ]


def test_abluxxen_exhausted_game_has_nobody_with_an_empty_hand() -> None:
    assert refused({"front": [5, 5, 5], "hand": [1, 0, 0], "end": "exhausted"}) == [
        ("hand.1", "abluxxen.exhausted_hands", "abluxxen-end"),
        ("hand.2", "abluxxen.exhausted_hands", "abluxxen-end"),
    ]


def test_abluxxen_facts_shape_errors() -> None:
    problems = refused({"front": [1, True, -1], "hand": [1, 2], "end": "over", "paw": 1})
    assert problems == [
        ("paw", "abluxxen.unknown_field", "abluxxen-round"),
        ("front.1", "abluxxen.count", "abluxxen-round"),
        ("front.2", "abluxxen.count", "abluxxen-round"),
        ("hand", "abluxxen.list", "abluxxen-round"),
        ("end", "abluxxen.end", "abluxxen-end"),
    ]
    assert refused({}) == [
        ("front", "abluxxen.missing", "abluxxen-round"),
        ("hand", "abluxxen.missing", "abluxxen-round"),
        ("end", "abluxxen.missing", "abluxxen-round"),
    ]
    assert refused({"front": [1, 2, 200], "hand": "3", "end": "out"}) == [
        ("front.2", "abluxxen.count", "abluxxen-round"),
        ("hand", "abluxxen.list", "abluxxen-round"),
    ]
    assert refused("facts") == [("facts", "core.facts_object", "abluxxen-round")]


def test_abluxxen_module_shape() -> None:
    for anchor in ("abluxxen-players", "abluxxen-options", "abluxxen-round"):
        assert anchor in ab.SECTIONS
    assert {spec.rule for spec in ab.OPTIONS} <= set(ab.SECTIONS)
    assert set(ab.FACTS_SCHEMA["properties"]) == set(ab.Facts.__dataclass_fields__)
    assert ab.DECK == 109
    normal = RULES.normalise(ab.EXAMPLE["facts"], players=3, options={})
    assert normal == ab.EXAMPLE["facts"]


# --- properties -----------------------------------------------------------------------------------


@st.composite
def valid_games(draw: st.DrawFn) -> tuple[int, str, dict[str, Any]]:
    mode = draw(st.sampled_from(ab.MODES))
    low, high = ab.MODE_PLAYERS[mode]
    players = draw(st.integers(low, high))
    end = draw(st.sampled_from(ab.ENDS))
    hand = draw(st.lists(st.integers(1, 10), min_size=players, max_size=players))
    front = draw(st.lists(st.integers(0, 11), min_size=players, max_size=players))
    if end == "out":
        out = draw(st.integers(0, players - 1))
        hand[out] = 0
        front[out] = max(front[out], 1)
    return players, mode, {"front": front, "hand": hand, "end": end}


@settings(max_examples=200, deadline=None)
@given(valid_games())
def test_abluxxen_lines_add_up_to_the_score(game: tuple[int, str, dict[str, Any]]) -> None:
    players, mode, facts = game
    result = RULES.score(facts, players=players, options={"mode": mode})
    for seat in range(players):
        assert sum(ln.points or 0 for ln in result.lines if ln.player == seat) == result.scores[seat]
        assert result.scores[seat] == facts["front"][seat] - facts["hand"][seat]
    state = RULES.state([facts], players=players, options={"mode": mode})
    assert state.winners and set(state.winners) <= set(range(players))
    best = max(result.scores)
    assert all(result.scores[seat] == best for seat in state.winners)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 120) | st.floats(allow_nan=False) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=200, deadline=None)
@given(
    st.integers(3, 5),
    st.dictionaries(st.sampled_from(["front", "hand", "end", "x"]) | st.text(max_size=4), json_values),
)
def test_abluxxen_any_json_is_scored_or_refused(players: int, facts: dict[str, Any]) -> None:
    with contextlib.suppress(InvalidRound):
        RULES.score(facts, players=players)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_abluxxen_near_valid_facts_are_scored_or_refused(data: st.DataObject) -> None:
    facts = dict(ab.EXAMPLE["facts"])
    key = data.draw(st.sampled_from(["front", "hand", "end"]))
    facts[key] = data.draw(json_values | st.lists(st.integers(-1, 60), min_size=3, max_size=3))
    with contextlib.suppress(InvalidRound):
        RULES.score(facts, players=3)
