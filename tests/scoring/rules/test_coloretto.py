"""Coloretto: the rulebook example, the table, the best choice of jokers and colours, validation, series."""

from __future__ import annotations

import contextlib
from itertools import combinations, product
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules import InvalidRound, get
from scoring.rules import coloretto as co
from scoring.rules.types import MatchState

RULES = get("coloretto")
NO_STATE = MatchState(totals=(0, 0, 0, 0), rounds_played=0, finished=False)


def full_table(**changes: Any) -> dict[str, Any]:
    """The module's example (4 players, seat 0 = András of the rulebook) with some facts changed."""
    return {**co.EXAMPLE["facts"], **changes}


def three_players(**changes: Any) -> dict[str, Any]:
    """A valid 3-player game (orange removed): 6 × 9 + 13 = 67 cards, 52 or more taken."""
    facts = {
        "yellow": [6, 2, 1],
        "red": [1, 7, 0],
        "green": [0, 0, 8],
        "blue": [3, 3, 3],
        "brown": [4, 0, 4],
        "grey": [0, 5, 2],
        "jokers": [1, 1, 1],
        "plus_twos": [3, 3, 2],
        "removed_colour": "orange",
    }
    return {**facts, **changes}


def refused(
    facts: Any, players: int = 4, options: dict[str, Any] | None = None, before: tuple[Any, ...] = ()
) -> list[tuple[str, str, str]]:
    with pytest.raises(InvalidRound) as info:
        RULES.score(facts, players=players, options=options, before=before)
    return [(p.field, p.msg, p.rule) for p in info.value.problems]


# --- the rulebook's worked example ----------------------------------------------------------------


def test_coloretto_example_joker_to_yellow_scores_41() -> None:
    counts = {"green": 6, "yellow": 4, "red": 3, "blue": 2, "orange": 0, "brown": 0, "grey": 0}
    score, assignment = co.best_score(counts, 1, 1)
    assert score == 2 + 21 + 15 + 6 - 3 == 41
    assert assignment.jokers == ("yellow",)
    assert set(assignment.positive) == {"green", "yellow", "red"}


def test_coloretto_example_through_the_registry_explains_the_choice() -> None:
    result = RULES.score(co.EXAMPLE["facts"], players=4, options=co.EXAMPLE["options"])
    assert result.scores[0] == 41
    seat0 = [ln for ln in result.lines if ln.player == 0]
    texts = [RULES.render(ln.msg, ln.param_dict()) for ln in seat0]
    assert texts == [
        "Joker → yellow",
        "green: 6 cards → +21",
        "yellow: 5 cards → +15",
        "red: 3 cards → +6",
        "blue: 2 cards → −3",
        "1 “+2” card × 2",
    ]
    assert [ln.points for ln in seat0] == [None, 21, 15, 6, -3, 2]
    assert result.scores == (41, 37, 33, 39)


# --- the table ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("count", "points"),
    [(0, 0), (1, 1), (2, 3), (3, 6), (4, 10), (5, 15), (6, 21), (7, 21), (8, 21), (9, 21), (12, 21)],
)
def test_coloretto_colour_table(count: int, points: int) -> None:
    assert co.colour_points(count) == points


def test_coloretto_three_best_colours_positive_rest_negative() -> None:
    counts = {"yellow": 1, "orange": 2, "red": 3, "green": 4, "blue": 5, "brown": 0, "grey": 0}
    assert co.best_score(counts, 0, 0) == (
        15 + 10 + 6 - 3 - 1,
        co.Assignment(jokers=(), positive=("blue", "green", "red")),
    )


def test_coloretto_fewer_than_three_colours_all_positive() -> None:
    assert co.best_score({"yellow": 2, "red": 1, "green": 0}, 0, 4) == (3 + 1 + 8, co.Assignment((), ("yellow", "red")))


def test_coloretto_several_jokers_may_go_to_different_colours() -> None:
    counts = {"yellow": 6, "red": 5, "green": 4, "blue": 0}
    score, assignment = co.best_score(counts, 3, 0)
    # yellow is full at 21: one joker to red (5 → 6) and two to green (4 → 6)
    assert score == 21 * 3
    assert sorted(assignment.jokers) == ["green", "green", "red"]


def test_coloretto_joker_rule_any_may_start_a_new_colour() -> None:
    counts = {"yellow": 6, "red": 0, "green": 0}
    assert co.best_score(counts, 1, 0, "held") == (21, co.Assignment(("yellow",), ("yellow",)))
    assert co.best_score(counts, 1, 0, "any") == (22, co.Assignment(("red",), ("yellow", "red")))


def test_coloretto_joker_rule_any_through_the_registry() -> None:
    facts = full_table(green=[9, 0, 0, 0], yellow=[0, 0, 3, 1], red=[0, 0, 2, 1], blue=[0, 3, 0, 6])
    facts["grey"] = [0, 1, 2, 6]
    facts["brown"] = [0, 2, 6, 1]
    facts["orange"] = [0, 7, 0, 1]  # 62 cards taken: at most 14 stay undrawn
    held = RULES.score(facts, players=4, options={"joker_rule": "held"})
    anywhere = RULES.score(facts, players=4, options={"joker_rule": "any"})
    assert held.scores[0] == 21 + 2
    assert anywhere.scores[0] == 21 + 1 + 2


def test_coloretto_best_score_refuses_impossible_jokers() -> None:
    with pytest.raises(ValueError, match="only 3 jokers"):
        co.best_score({"red": 1}, 4, 0)
    with pytest.raises(ValueError, match="only 3 jokers"):
        co.best_score({"red": 1}, -1, 0)
    with pytest.raises(ValueError, match="needs a colour"):
        co.best_score({"red": 0}, 1, 0, "held")
    assert co.best_score({"red": 0}, 0, 1) == (2, co.Assignment((), ()))


def test_coloretto_three_players_removed_colour_is_never_a_joker_target() -> None:
    facts = three_players(yellow=[6, 2, 1], jokers=[1, 1, 1])
    result = RULES.score(facts, players=3, options={"joker_rule": "any"})
    jokers = [ln.param_dict()["colour"] for ln in result.lines if ln.msg == "coloretto.joker"]
    assert "orange" not in jokers
    assert co.Facts(**RULES.normalise(facts, players=3, options={})).counts(0).keys() == set(co.COLOURS) - {"orange"}


# --- the optimum, by brute force ------------------------------------------------------------------


def brute_force(counts: dict[str, int], jokers: int, plus_twos: int, rule: str) -> int:
    """Every colour for every joker and every set of at most 3 positive colours."""
    targets = [c for c in counts if counts[c] or rule == "any"]
    best = None
    for placing in product(targets, repeat=jokers):
        final = dict(counts)
        for colour in placing:
            final[colour] += 1
        held = [c for c in final if final[c]]
        for size in range(min(3, len(held)) + 1):
            for positive in combinations(held, size):
                points = sum(co.colour_points(final[c]) * (1 if c in positive else -1) for c in held)
                best = points if best is None else max(best, points)
    assert best is not None
    return best + 2 * plus_twos


hands = st.fixed_dictionaries({c: st.integers(0, 9) for c in co.COLOURS}).filter(lambda h: any(h.values()))


@settings(max_examples=200, deadline=None)
@given(hands, st.integers(0, 3), st.integers(0, 10), st.sampled_from(co.JOKER_RULES))
def test_coloretto_optimum_is_never_beaten(counts: dict[str, int], jokers: int, plus_twos: int, rule: str) -> None:
    score, assignment = co.best_score(counts, jokers, plus_twos, rule)
    assert score == brute_force(counts, jokers, plus_twos, rule)
    # the assignment it shows really makes that score
    final = dict(counts)
    for colour in assignment.jokers:
        assert rule == "any" or counts[colour] > 0
        final[colour] += 1
    assert len(assignment.positive) <= 3
    shown = sum(co.colour_points(n) * (1 if c in assignment.positive else -1) for c, n in final.items())
    assert shown + 2 * plus_twos == score


@st.composite
def valid_games(draw: st.DrawFn) -> tuple[int, dict[str, Any]]:
    """A game that can happen: distinct starting colours, every card with a seat or among the undrawn ones."""
    players = draw(st.integers(3, 5))
    removed = draw(st.sampled_from(co.COLOURS)) if players == 3 else None
    colours = co.colours_in_play(removed)
    start = draw(st.permutations(colours))[:players]
    facts: dict[str, Any] = {c: [0] * players for c in co.COLOURS}
    facts |= {"jokers": [0] * players, "plus_twos": [0] * players, "removed_colour": removed}
    cards = [c for c in colours for _ in range(9)] + ["jokers"] * 3 + ["plus_twos"] * 10
    for seat, colour in enumerate(start):
        facts[colour][seat] += 1
        cards.remove(colour)
    # 15 − 3 × players to 14 cards stay undrawn (RULES.md "Coloretto"); every other card has a seat
    undrawn = draw(st.integers(co.undrawn_at_least(players), co.UNDRAWN_AT_MOST))
    for card in draw(st.permutations(cards))[undrawn:]:
        facts[card][draw(st.integers(0, players - 1))] += 1
    return players, facts


@settings(max_examples=150, deadline=None)
@given(valid_games(), st.sampled_from(co.JOKER_RULES))
def test_coloretto_lines_add_up_and_scores_are_optimal(game: tuple[int, dict[str, Any]], rule: str) -> None:
    players, facts = game
    result = RULES.score(facts, players=players, options={"joker_rule": rule})
    for seat in range(players):
        assert sum(ln.points or 0 for ln in result.lines if ln.player == seat) == result.scores[seat]
        counts = {c: facts[c][seat] for c in co.colours_in_play(facts["removed_colour"])}
        assert result.scores[seat] == brute_force(counts, facts["jokers"][seat], facts["plus_twos"][seat], rule)
    normal = RULES.normalise(facts, players=players, options={})
    assert RULES.score(normal, players=players, options={"joker_rule": rule}) == result


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 12) | st.floats(allow_nan=False) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=20,
)
field_names = st.sampled_from([*co.COLOURS, "jokers", "plus_twos", "removed_colour", "cards", "red "])


@settings(max_examples=200, deadline=None)
@given(st.integers(3, 5), st.dictionaries(field_names | st.text(max_size=5), json_values, max_size=6))
def test_coloretto_any_json_is_scored_or_refused(players: int, facts: dict[str, Any]) -> None:
    with contextlib.suppress(InvalidRound):
        RULES.score(facts, players=players)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_coloretto_near_valid_facts_are_scored_or_refused(data: st.DataObject) -> None:
    players = data.draw(st.integers(3, 5))
    facts = full_table() if players == 4 else three_players()
    key = data.draw(st.sampled_from(sorted(facts)))
    facts[key] = data.draw(json_values | st.lists(st.integers(-1, 10), min_size=players, max_size=players))
    with contextlib.suppress(InvalidRound):
        RULES.score(facts, players=players)


# --- validation -----------------------------------------------------------------------------------


def test_coloretto_refuses_a_player_without_colour_cards() -> None:
    facts = full_table(grey=[0, 0, 2, 5], orange=[0, 0, 0, 0], brown=[0, 0, 6, 0], blue=[2, 0, 0, 4])
    problems = refused(facts)
    assert ("", "coloretto.no_colour", "coloretto-players") in problems


def test_coloretto_refuses_hands_without_distinct_starting_colours() -> None:
    # seats 1 and 2 hold only orange: they cannot both have started with a colour of their own
    facts = full_table(
        orange=[0, 4, 5, 0],
        brown=[0, 0, 0, 8],
        blue=[2, 0, 0, 7],
        grey=[0, 0, 0, 9],
        red=[3, 0, 0, 6],
        yellow=[4, 0, 0, 5],
    )
    assert refused(facts) == [("", "coloretto.start_colours", "coloretto-players")]


def test_coloretto_refuses_more_than_nine_of_a_colour() -> None:
    problems = refused(full_table(green=[6, 1, 0, 3]))
    assert problems == [("green", "coloretto.colour_total", "coloretto-players")]


def test_coloretto_refuses_more_than_three_jokers_and_ten_plus_twos() -> None:
    problems = refused(full_table(jokers=[1, 1, 1, 1], plus_twos=[3, 3, 3, 3]))
    assert problems == [
        ("jokers", "coloretto.jokers_total", "coloretto-players"),
        ("plus_twos", "coloretto.plus_twos_total", "coloretto-players"),
    ]


def test_coloretto_refuses_a_game_that_ended_too_early() -> None:
    facts = full_table(grey=[0, 1, 0, 0], brown=[0, 2, 0, 0])
    problems = refused(facts)
    assert problems == [("", "coloretto.too_few", "coloretto-end")]
    with pytest.raises(InvalidRound, match="at least 62 of the 76 cards"):
        RULES.score(facts, players=4)


def test_coloretto_three_players_need_a_removed_colour() -> None:
    assert refused(three_players(removed_colour=None, orange=[0, 0, 0]), players=3)[0] == (
        "removed_colour",
        "coloretto.removed_needed",
        "coloretto-players",
    )


def test_coloretto_removed_colour_only_with_three_players() -> None:
    facts = full_table(removed_colour="orange", orange=[0, 0, 0, 0])
    assert ("removed_colour", "coloretto.removed_unused", "coloretto-players") in refused(facts)


def test_coloretto_removed_colour_has_no_cards() -> None:
    problems = refused(three_players(orange=[0, 1, 0]), players=3)
    assert problems == [("orange.1", "coloretto.removed_cards", "coloretto-players")]


def test_coloretto_three_players_valid_game() -> None:
    result = RULES.score(three_players(), players=3)
    assert len(result.scores) == 3


def test_coloretto_facts_shape_errors() -> None:
    problems = refused(
        {
            "green": [1, 2],
            "red": [1, True, -1, 10],
            "jokers": "x",
            "plus_twos": [0, 0, 0, 11],
            "removed_colour": "pink",
            "pink": [1],
        }
    )
    assert problems == [
        ("pink", "coloretto.unknown_field", "coloretto-round"),
        ("red.1", "coloretto.count", "coloretto-round"),
        ("red.2", "coloretto.count", "coloretto-round"),
        ("red.3", "coloretto.count", "coloretto-round"),
        ("green", "coloretto.list", "coloretto-round"),
        ("jokers", "coloretto.list", "coloretto-round"),
        ("plus_twos.3", "coloretto.count", "coloretto-round"),
        ("removed_colour", "coloretto.colour", "coloretto-players"),
    ]


def test_coloretto_facts_must_be_an_object() -> None:
    assert refused([1, 2]) == [("facts", "core.facts_object", "coloretto-round")]


def test_coloretto_options() -> None:
    assert RULES.options_parse(None, players=3) == {"joker_rule": "held", "games": 1}
    with pytest.raises(InvalidRound):
        RULES.options_parse({"joker_rule": "wild"}, players=3)
    with pytest.raises(InvalidRound):
        RULES.options_parse({}, players=2)


def test_coloretto_module_shape() -> None:
    for anchor in ("coloretto-players", "coloretto-options", "coloretto-round"):
        assert anchor in co.SECTIONS
    rules_used = {spec.rule for spec in co.OPTIONS}
    assert rules_used <= set(co.SECTIONS)
    assert set(co.FACTS_SCHEMA["properties"]) == set(co.Facts.__dataclass_fields__)


# --- the series -----------------------------------------------------------------------------------


def test_coloretto_series_totals_winners_and_rotation() -> None:
    options = {"games": 2}
    state = RULES.state([full_table()], players=4, options=options)
    assert state.totals == (41, 37, 33, 39)
    assert not state.finished and state.winners == () and state.rounds_left == 1
    # nobody deals in Coloretto: the start player's role passes to the left each game, and no dealer is named
    assert (state.next_dealer, state.next_starter) == (None, 1)
    swapped = full_table(**{c: list(reversed(v)) for c, v in co.EXAMPLE["facts"].items() if isinstance(v, list)})
    state = RULES.state([full_table(), swapped], players=4, options=options)
    assert state.finished and state.rounds_left == 0
    assert state.totals == (41 + 39, 37 + 33, 33 + 37, 39 + 41)
    assert state.winners == (0, 3)  # tie shared
    assert (state.next_dealer, state.next_starter) == (None, 2)
    assert state.extra == {"games": 2}


def test_coloretto_single_game_winner() -> None:
    state = RULES.state([full_table()], players=4)
    assert state.finished and state.winners == (0,)


def test_coloretto_refuses_a_game_after_the_series() -> None:
    problems = refused(full_table(), before=(full_table(),))
    assert problems == [("", "coloretto.series_over", "coloretto-series")]


def test_coloretto_validate_directly_with_state() -> None:
    facts = co.facts_parse(full_table(), players=4, options={})
    co.validate(facts, players=4, options={"games": 1, "joker_rule": "held"}, state=NO_STATE)
