"""Standings rank a finished match as its game's rules do, and read round facts only where the winners need them.

Games flagged ``WINNERS_BY_TOTALS`` are ranked from their points alone (their facts are not even fetched); the
others (Abluxxen's hands, Was sticht?'s tasks) replay ``match_state``.
"""

from __future__ import annotations

from random import Random

import pytest

from analytics import services, standings, synthetic
from analytics.models import MatchStanding
from scoring import rules
from scoring.rules.types import best_seats
from tests.analytics.helpers import Table, abluxxen

GAMES = [game.key for game in rules.all_rulesets()]


def _rules_engine_winners(key: str, played: synthetic.PlayedMatch) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """What the rules engine says of a played match: its winners (the best totals when it names none), totals."""
    facts = [data for data, _result in played.rounds]
    state = rules.get(key).state(facts, players=played.players, options=played.options)
    winners = tuple(state.winners) if state.finished and state.winners else best_seats(state.totals)
    return winners, tuple(state.totals)


@pytest.mark.parametrize("key", GAMES)
def test_standings_winners_are_the_rules_engines(key: str) -> None:
    rng = Random(f"standings-{key}")
    for _ in range(40):
        players = rng.choice(synthetic.GAMES[key].players)
        played = synthetic.play_match(rng, key, [1.0] * players)
        expected, totals = _rules_engine_winners(key, played)
        rounds = [(facts, result.scores) for facts, result in played.rounds]
        found, _teams = standings.winners_of(key, played.options, players, rounds, list(totals))
        assert found == expected, (key, played.options, totals)


def test_only_games_won_on_points_skip_their_facts() -> None:
    # Abluxxen breaks ties by the cards left in hand (the next test); Was sticht? is won by returning all four
    # tasks, which also gives the most points, but the rule is the tasks, so its standings replay them
    flagged = {game.key for game in rules.all_rulesets() if game.winners_by_totals}
    assert flagged == set(GAMES) - {"abluxxen", "was-sticht"}


def test_a_tie_on_points_broken_by_the_hands_reads_the_facts(table: Table) -> None:
    a, b, c = table.players[:3]
    match = abluxxen(table, [a, b, c], [6, 8, 3], [0, 2, 1])  # a and b: 6 points each, a has fewer cards left
    services.stats_rebuild_group(group_id=table.group.pk)
    rows = {row.player_id: row for row in MatchStanding.objects.filter(match_id=match.pk)}
    assert (rows[a.pk].total, rows[b.pk].total, rows[c.pk].total) == (6, 6, 2)
    assert [rows[p.pk].won for p in (a, b, c)] == [True, False, False]
    assert [rows[p.pk].rank for p in (a, b, c)] == [1, 2, 3]


def test_muzicandos_team_game_is_rated_in_its_fixed_partnerships() -> None:
    muzicando = rules.get("muzicando")
    team = muzicando.options_parse({"mode": "team"}, players=4)
    alone = muzicando.options_parse({"mode": "individual"}, players=4)
    assert muzicando.fixed_teams(team, players=4) == {0: 0, 2: 0, 1: 1, 3: 1}
    assert muzicando.fixed_teams(alone, players=4) is None
    assert rules.get("njet").fixed_teams(rules.get("njet").options_parse({}, players=4), players=4) is None
    _winners, teams = standings.winners_of("muzicando", {"mode": "team"}, 4, [], [5, 3, 5, 3])
    assert teams == {0: 0, 2: 0, 1: 1, 3: 1}
