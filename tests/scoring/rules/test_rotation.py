"""The rotation follows the table's deals, not the rounds still on record (issue 42: rotation after a delete).

Round ``k`` was the table's deal ``k - 1``. When an earlier round's record is deleted, the deal still passes on
from the last dealer: the engine takes the index of the next deal (``deal``) and the rounds' numbers.
"""

from __future__ import annotations

import pytest

from scoring import rules
from scoring.rules import InvalidRound
from scoring.rules.types import deal_index
from tests.scoring.helpers import WS_ROUND_1, WS_ROUND_2, example

# (key, players, options, dealer of deal d, starter of deal d); None: the game names none
ROTATIONS = [
    ("njet", 3, {}, lambda d, n: d % n, lambda d, n: None),
    ("mue", 5, {"target": 200}, lambda d, n: d % n, lambda d, n: None),
    ("meinz", 4, {}, lambda d, n: d % n, lambda d, n: (d + 1) % 4),
    ("meinz", 3, {}, lambda d, n: d % n, lambda d, n: (d + 1) % 4 if (d + 1) % 4 < 3 else None),
    ("was-sticht", 4, example("was-sticht")["options"], lambda d, n: d % n, lambda d, n: d % n),
    ("sticheln", 5, {"variant": "classic"}, lambda d, n: d % n, lambda d, n: None if d == 0 else (d + 1) % n),
    ("abluxxen", 3, {"games": 9}, lambda d, n: d % n, lambda d, n: None),
    ("muzicando", 3, {"mode": "individual"}, lambda d, n: d % n, lambda d, n: (d + 1) % n),
    ("coloretto", 4, {"games": 9}, lambda d, n: None, lambda d, n: d % n),
]


def test_deal_index_is_the_rounds_played_unless_the_caller_knows_the_deal():
    assert deal_index(3, None) == 3
    assert deal_index(3, 4) == 4
    assert deal_index(0, 0) == 0


@pytest.mark.parametrize(("key", "players", "options", "dealer", "starter"), ROTATIONS)
@pytest.mark.parametrize("deal", range(9))
def test_every_game_rotates_by_the_deal_it_is_given(key, players, options, dealer, starter, deal):
    ruleset = rules.get(key)
    state = ruleset.state([], players=players, options=options, deal=deal)
    assert state.rounds_played == 0  # nothing on record: only the deal moved on
    assert state.next_dealer == dealer(deal, players)
    assert state.next_starter == starter(deal, players)


@pytest.mark.parametrize(("key", "players", "options", "dealer", "starter"), ROTATIONS)
def test_without_a_deal_the_rotation_counts_the_rounds_as_before(key, players, options, dealer, starter):
    ruleset = rules.get(key)
    assert ruleset.state([], players=players, options=options).next_dealer == dealer(0, players)


def test_njet_round_one_deleted_the_next_dealer_is_round_fours_left_neighbour():
    """Five players (the worked example's table): rounds 2, 3 and 4 stay (dealt by seats 1, 2 and 3); the fifth
    deal goes to seat 4, round 4's left neighbour, not to seat 3, who dealt round 4."""
    ruleset = rules.get("njet")
    facts = {**example("njet")["facts"]}
    rounds = [facts, facts, facts]
    counted = ruleset.state(rounds, players=5, options={})
    followed = ruleset.state(rounds, players=5, options={}, numbers=[2, 3, 4], deal=4)
    assert counted.next_dealer == 3  # what the board said before: three rounds on record
    assert followed.next_dealer == 4
    assert followed.rounds_played == 3 and followed.rounds_left == counted.rounds_left


def test_was_sticht_checks_the_start_player_of_the_deal_the_round_was():
    """Was sticht?'s start player moves left each deal: with round 1's record gone, round 2 (the second deal)
    is still started by seat 1, and a replay that knows the numbers accepts it; one that counts refuses it."""
    ruleset = rules.get("was-sticht")
    options = ruleset.options_parse(example("was-sticht")["options"], players=4)
    done = ruleset.history([WS_ROUND_2], players=4, options=options, numbers=[2])
    assert done[0][0].start_player == 1
    with pytest.raises(InvalidRound) as refused:
        ruleset.history([WS_ROUND_2], players=4, options=options)
    assert [p.msg for p in refused.value.problems] == ["was-sticht.start_player_turn"]
    # and the round entered next (the third deal) is started by seat 2
    state = ruleset.state([WS_ROUND_2], players=4, options=options, numbers=[2], deal=2)
    assert state.next_starter == 2


def test_was_sticht_refuses_a_start_player_out_of_turn_after_a_deleted_round():
    ruleset = rules.get("was-sticht")
    options = ruleset.options_parse(example("was-sticht")["options"], players=4)
    out_of_turn = {**WS_ROUND_1, "start_player": 0}
    with pytest.raises(InvalidRound) as refused:
        ruleset.history([out_of_turn], players=4, options=options, numbers=[2])
    problem = refused.value.problems[0]
    assert problem.msg == "was-sticht.start_player_turn" and dict(problem.params)["expected"] == 1
