"""Who played with whom in a round, for rounds the other side confirms (issue 47 part 3)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring import rules
from scoring.rules.sides import confirmers, other_side, round_sides

MUE_PLAYED = rules.get("mue").module.EXAMPLE["facts"]  # 5 players: Márk (3) chief, Anita (0) partner, Éva vice


def test_njet_teams_come_from_the_board_of_that_round() -> None:
    facts = {**rules.get("njet").module.EXAMPLE["facts"]}
    sides = round_sides("njet", facts, players=len(facts["teams"]))
    assert sides == tuple(facts["teams"])
    assert round_sides("njet", {**facts, "teams": [0, 1, 0, 1, 1]}, players=5) == (0, 1, 0, 1, 1)


@pytest.mark.parametrize("teams", [None, [0, 1], [0, 2, 1, 1], "01", [True, 0, 1, 1]])
def test_njet_facts_that_do_not_say_leave_everyone_alone(teams: object) -> None:
    assert round_sides("njet", {"teams": teams}, players=4) == (0, 1, 2, 3)


def test_mue_chief_and_partner_against_everyone_else_vice_included() -> None:
    sides = round_sides("mue", MUE_PLAYED, players=5)
    assert sides == (0, 1, 1, 0, 1)
    # the vice (Éva, seat 2) is on the other side: she may confirm a round the chief saved, the partner may not
    assert other_side(sides, author=3, seat=2)
    assert not other_side(sides, author=3, seat=0)
    assert confirmers(sides, author=3) == [1, 2, 4]


@pytest.mark.parametrize(
    "facts",
    [
        {"outcome": "eklat", "tied": [0, 1], "last_tied": 1, "cards": 3},
        {**MUE_PLAYED, "chief": None},
        {**MUE_PLAYED, "partner": 7},
        {**MUE_PLAYED, "chief": True},
    ],
)
def test_mue_eklat_or_unreadable_facts_leave_everyone_alone(facts: dict[str, object]) -> None:
    assert round_sides("mue", facts, players=5) == (0, 1, 2, 3, 4)


def test_fixed_partnerships_hold_for_every_round() -> None:
    muzicando = rules.get("muzicando")
    teams = muzicando.fixed_teams(muzicando.options_parse({"mode": "team"}, players=4), players=4)
    sides = round_sides("muzicando", {"order": [0, 1, 2, 3]}, players=4, fixed=teams)
    assert sides == (0, 1, 0, 1)
    assert confirmers(sides, author=0) == [1, 3]
    # a seat the partnership leaves out is a side of its own
    assert round_sides("muzicando", {}, players=3, fixed={0: 0, 1: 0}) == (0, 0, 5)


@pytest.mark.parametrize("game", ["meinz", "coloretto", "sticheln", "abluxxen", "was-sticht", "muzicando"])
def test_games_without_partners_everyone_is_a_side(game: str) -> None:
    sides = round_sides(game, {"anything": 1}, players=4)
    assert sides == (0, 1, 2, 3)
    assert confirmers(sides, author=1) == [0, 2, 3]


def test_facts_that_are_no_mapping_leave_everyone_alone() -> None:
    assert round_sides("njet", [0, 1], players=2) == (0, 1)


def test_a_round_saved_by_someone_who_did_not_play_any_player_confirms() -> None:
    assert confirmers((0, 0, 1, 1), author=None) == [0, 1, 2, 3]
    assert other_side((0, 0, 1, 1), author=None, seat=1)
    assert not other_side((0, 0, 1, 1), author=None, seat=4)
    assert not other_side((0, 0, 1, 1), author=7, seat=1)


@given(st.lists(st.integers(min_value=0, max_value=2), min_size=2, max_size=8), st.data())
def test_nobody_confirms_for_their_own_side(sides: list[int], data: st.DataObject) -> None:
    author = data.draw(st.integers(min_value=0, max_value=len(sides) - 1))
    found = confirmers(sides, author=author)
    assert author not in found
    assert all(sides[seat] != sides[author] for seat in found)
    assert [s for s in range(len(sides)) if sides[s] != sides[author]] == found
