"""The stakes before play (scoring/rules/mue_stakes.py, njet_stakes.py): the rulebook's examples by hand, and for any
round the engine accepts, the stakes of its auction / board give exactly the points the engine gives it."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules import get, mue_tables
from scoring.rules.mue import NO_TRUMP, Trump, level_reached
from scoring.rules.mue_stakes import Outcome, column_of, stakes
from scoring.rules.njet_stakes import stakes as njet_stakes
from tests.scoring.rules.test_mue import played_rounds
from tests.scoring.rules.test_njet import valid_rounds as njet_rounds

# --- MÜ ----------------------------------------------------------------------------------------------------


def test_mue_stakes_of_the_rulebook_example() -> None:
    # 5 players, Márk (seat 3) chief with 4 cards, Éva (2) vice, Anita (0) partner: target 33; colour trump 40 each,
    # trump number 1: 50 each; 29 points (20 + 9) reach only level 2: chief −20, each opponent +10, partner 0;
    # 23 points reach no level: short by 4
    found = stakes(players=5, chief=3, bid=4, vice=2, partner=0)
    assert found.target == 33
    assert dict(found.made) == {
        "colour": Outcome(chief=40, partner=40, vice=0, other=0),
        "one_or_seven": Outcome(chief=50, partner=50, vice=0, other=0),
        "other_number": Outcome(chief=60, partner=60, vice=0, other=0),
        "no_trump": Outcome(chief=70, partner=70, vice=0, other=0),
    }
    by_shortfall = {m.shortfall: m for m in found.missed}
    assert [(m.points_from, m.points_to) for m in found.missed] == [(30, 32), (27, 29), (24, 26), (0, 23)]
    assert by_shortfall[2].outcome == Outcome(chief=-20, partner=0, vice=10, other=10)
    assert by_shortfall[4].outcome == Outcome(chief=-40, partner=0, vice=20, other=20)
    named = stakes(players=5, chief=3, bid=4, vice=2, partner=0, chief_trump=Trump("number", 1))
    assert named.made == (("one_or_seven", Outcome(chief=50, partner=50, vice=0, other=0)),)


def test_mue_stakes_before_the_partner_is_chosen_and_without_a_vice() -> None:
    found = stakes(players=4, chief=0, bid=1, chief_trump=NO_TRUMP)
    assert found.partner is None and found.target == 30
    assert found.made == (("no_trump", Outcome(chief=40, partner=40, vice=None, other=0)),)
    # a bid of 1: any failure is short by one level, below 30
    assert [(m.shortfall, m.points_from, m.points_to) for m in found.missed] == [(1, 0, 29)]
    assert found.missed[0].outcome == Outcome(chief=-10, partner=0, vice=None, other=5)


@pytest.mark.parametrize(
    "roles",
    [
        {"players": 3, "chief": 0, "bid": 1},  # MÜ needs 4 players
        {"players": 4, "chief": 4, "bid": 1},
        {"players": 4, "chief": 0, "bid": 16},  # beyond the hand of 15
        {"players": 4, "chief": 0, "bid": 0},
        {"players": 4, "chief": 0, "bid": 2, "vice": 0},
        {"players": 4, "chief": 0, "bid": 2, "vice": 5},
        {"players": 4, "chief": 0, "bid": 2, "vice": 1, "partner": 1},
        {"players": 4, "chief": 0, "bid": 2, "partner": 0},
        {"players": 4, "chief": 0, "bid": 2, "partner": -1},
    ],
)
def test_mue_stakes_refuse_roles_no_round_can_have(roles: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        stakes(**roles)


def trump_of(data: dict[str, Any] | None) -> Trump:
    return NO_TRUMP if data is None or data["kind"] == "none" else Trump(data["kind"], data["value"])


@settings(max_examples=300, deadline=None)
@given(played_rounds(), st.booleans(), st.booleans())
def test_mue_stakes_are_the_points_the_engine_gives(
    case: tuple[int, dict[str, Any]], partner_known: bool, trump_known: bool
) -> None:
    players, facts = case
    result = get("mue").score(facts, players=players)
    points = [score - triangles for score, triangles in zip(result.scores, facts["triangles"], strict=True)]
    trump = trump_of(facts["chief_trump"])
    found = stakes(
        players=players,
        chief=facts["chief"],
        bid=facts["bid"],
        vice=facts["vice"],
        partner=facts["partner"] if partner_known else None,
        chief_trump=trump if trump_known else None,
    )
    made = facts["triangles"][facts["chief"]] + facts["triangles"][facts["partner"]]
    assert found.target == mue_tables.target_for(players, facts["bid"])
    if made >= found.target:
        outcome = dict(found.made)[column_of(trump)]
    else:
        shortfall = facts["bid"] - level_reached(players, made)
        missed = found.missed[shortfall - 1]
        assert missed.shortfall == shortfall and missed.points_from <= made <= missed.points_to
        outcome = missed.outcome
    for seat, got in enumerate(points):
        if seat == facts["chief"]:
            assert got == outcome.chief
        elif seat == facts["partner"]:
            assert got == outcome.partner
        elif seat == facts["vice"]:
            assert got == outcome.vice
        else:
            assert got == outcome.other


# --- NJET --------------------------------------------------------------------------------------------------


def test_njet_stakes_of_the_rulebook_example() -> None:
    # RULES.md: 5 players, the 3-team (seats 0-2) against the 2-team (3, 4) with the monster card at seat 4, 2 points
    found = njet_stakes(
        players=5,
        options={"recording": "full"},
        start_player=0,
        teams=[0, 0, 0, 1, 1],
        monster=4,
        points_per_trick=2,
    )
    assert found.trick[0] == (2, 2, 2, 0, 0)
    assert found.trick[3] == (0, 0, 0, 2, 2)
    assert found.trick[4] == (0, 0, 0, 4, 4)  # the monster card counts double
    assert found.booty == found.trick  # a captured 0 counts as a trick
    # the rulebook's round: 3-team 7 tricks + 3 zeros → 20 each; 2-team 3 tricks, monster 2 tricks + 1 zero → 18
    tricks, booty = [3, 2, 2, 3, 2], [1, 2, 0, 0, 1]
    totals = [
        sum(tricks[t] * found.trick[t][seat] + booty[t] * found.booty[t][seat] for t in range(5)) for seat in range(5)
    ]
    assert totals == [20, 20, 20, 18, 18]


def test_njet_stakes_when_only_the_difference_is_recorded() -> None:
    found = njet_stakes(
        players=4,
        options={"recording": "difference"},
        start_player=1,
        teams=[1, 0, 0, 1],
        monster=None,
        points_per_trick=-2,
    )
    assert found.difference
    # at −2 a trick costs its team: from level scores, it gives the other team the difference of 2
    assert found.trick[1] == (2, 0, 0, 2)
    assert found.trick[0] == (0, 2, 2, 0)


@pytest.mark.parametrize(
    "board",
    [
        {"players": 6, "start_player": 0, "teams": [0] * 6, "monster": None, "points_per_trick": 1},
        {"players": 4, "start_player": 4, "teams": [0, 0, 1, 1], "monster": None, "points_per_trick": 1},
        {"players": 4, "start_player": 0, "teams": [0, 0, 1], "monster": None, "points_per_trick": 1},
        {"players": 4, "start_player": 0, "teams": [0, 0, 2, 1], "monster": None, "points_per_trick": 1},
        {"players": 4, "start_player": 2, "teams": [0, 0, 1, 1], "monster": None, "points_per_trick": 1},
        {"players": 4, "start_player": 0, "teams": [0, 0, 0, 1], "monster": None, "points_per_trick": 1},
        {"players": 4, "start_player": 0, "teams": [0, 0, 1, 1], "monster": 2, "points_per_trick": 1},
        {"players": 5, "start_player": 0, "teams": [0, 0, 0, 1, 1], "monster": 0, "points_per_trick": 1},
        {"players": 5, "start_player": 0, "teams": [0, 0, 0, 1, 1], "monster": 5, "points_per_trick": 1},
        {"players": 5, "start_player": 0, "teams": [0, 0, 0, 1, 1], "monster": None, "points_per_trick": 5},
    ],
)
def test_njet_stakes_refuse_a_board_no_round_can_have(board: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        njet_stakes(options={}, **board)


@settings(max_examples=300, deadline=None)
@given(njet_rounds(), st.sampled_from(["full", "difference"]))
def test_njet_stakes_are_the_points_the_engine_gives(case: tuple[int, dict[str, Any]], recording: str) -> None:
    players, facts = case
    options = {"recording": recording}
    result = get("njet").score(facts, players=players, options=options)
    found = njet_stakes(
        players=players,
        options=options,
        start_player=facts["start_player"],
        teams=facts["teams"],
        monster=facts["monster"],
        points_per_trick=facts["points_per_trick"],
    )
    assert found.booty == found.trick  # a captured 0 adds to the haul as a trick does
    added = [
        sum(
            facts["tricks"][taker] * found.trick[taker][seat] + facts["booty"][taker] * found.booty[taker][seat]
            for taker in range(players)
        )
        for seat in range(players)
    ]
    if recording == "full":
        assert list(result.scores) == added
    else:
        # the higher team scores the gap, the other nothing: what the stakes add up to is the gap between them
        mine = facts["teams"].index(0)
        theirs = facts["teams"].index(1)
        assert result.scores[mine] - result.scores[theirs] == added[mine] - added[theirs]
