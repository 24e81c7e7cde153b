"""Standings rank a finished match as its game's rules do, and read round facts only where the winners need them.

Games flagged ``WINNERS_BY_TOTALS`` are ranked from their points alone (their facts are not even fetched); the
others (Abluxxen's hands, Was sticht?'s tasks) take the winners the match recorded when its rounds were scored,
or replay ``match_state`` when it recorded none.  The games played without fixed partnerships are ranked by one
SQL statement, which must give what ``standing_rows`` (the Python reference) gives.
"""

from __future__ import annotations

import importlib
from collections.abc import Collection
from datetime import timedelta
from random import Random
from typing import Any

import pytest
from django.apps import apps as django_apps
from django.db import connection
from django.utils import timezone

from analytics import services, standings, synthetic
from analytics.models import MatchStanding
from analytics.stats import ranks_of
from scoring import rules
from scoring import services as scoring_services
from scoring.models import Match, Round, Score, Seat
from scoring.rules.types import best_seats
from tests.analytics.helpers import Table, abluxxen, play

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


FIELDS = ("match_id", "group_id", "player_id", "ruleset", "seat", "team", "players", "finished_at", "rounds", "total")
IN_SQL = sorted(standings.SQL_RANKED)


def _reference(match: Match) -> list[dict[str, Any]]:
    """The standings ``standing_rows`` (the per-match Python path) gives a match, ordered by seat."""
    if match.state != Match.State.FINISHED:
        return []
    live = Round.objects.filter(match=match, deleted_at__isnull=True).order_by("number")
    rows = standings.standing_rows(
        match_id=match.pk,
        group_id=match.group_id,
        ruleset=match.ruleset,
        options=match.options,
        finished_at=match.finished_at,
        seats=list(Seat.objects.filter(match=match).values_list("number", "player_id")),
        rounds=[(r.facts, r.points) for r in live],
    )
    return sorted(rows, key=lambda row: row["seat"])


def _stored(match: Match) -> list[dict[str, Any]]:
    return list(MatchStanding.objects.filter(match_id=match.pk).order_by("seat").values(*FIELDS, "rank", "won"))


def test_the_games_ranked_in_sql_are_those_without_partnerships() -> None:
    assert set(IN_SQL) == {"coloretto", "meinz", "mue", "njet", "sticheln", "abluxxen", "was-sticht"}
    for key in IN_SQL:
        assert not rules.get(key).has_fixed_teams
    assert rules.get("muzicando").winners_by_totals and rules.get("muzicando").has_fixed_teams
    # a game whose rules name the winners is ranked in SQL only when the match recorded them
    assert standings.ranked_in_sql("njet", None) and standings.ranked_in_sql("njet", [])
    assert standings.ranked_in_sql("abluxxen", [0]) and standings.ranked_in_sql("was-sticht", [])
    assert not standings.ranked_in_sql("abluxxen", None) and not standings.ranked_in_sql("was-sticht", None)
    assert not standings.ranked_in_sql("muzicando", [])


def _crafted(
    table: Table,
    key: str,
    points: list[list[int]],
    *,
    deleted: Collection[int] = (),
    seats: int = 0,
    state: str = "finished",
    winners: list[int] | None = None,
) -> Match:
    """A match stored directly (no rules applied): one round per points list, ``deleted`` round numbers
    soft-deleted (no score rows, as the services leave them), ``winners`` recorded as they are."""
    players = table.players[: seats or len(points[0])]
    now = timezone.now()
    match: Match = Match.objects.create(
        group=table.group,
        ruleset=key,
        options={},
        state=state,
        finished_at=now if state == "finished" else None,
        winners=winners,
    )
    for number, player in enumerate(players):
        Seat.objects.create(match=match, player=player, number=number)
    for number, values in enumerate(points, start=1):
        gone = number in deleted
        rnd = Round.objects.create(
            match=match,
            number=number,
            facts={},
            ruleset_version="1",
            points=values,
            deleted_at=now - timedelta(minutes=1) if gone else None,
        )
        if not gone:
            Score.objects.bulk_create(
                Score(round=rnd, match=match, player=player, seat=seat, points=value)
                for seat, (player, value) in enumerate(zip(players, values, strict=True))
            )
    return match


@pytest.mark.parametrize("key", IN_SQL)
def test_sql_ranks_ties_deletions_and_degenerate_matches_as_the_python_path_does(table: Table, key: str) -> None:
    matches = {
        "tie for first": _crafted(table, key, [[3, 5, 1], [2, 0, 2]]),  # 5 5 3: two winners, then rank 3
        "tie behind": _crafted(table, key, [[9, 4, 4, 1]]),  # ranks 1 2 2 4
        "negative": _crafted(table, key, [[-3, -1, -7], [0, -2, 1]]),
        "deleted round": _crafted(table, key, [[1, 8], [5, 0], [1, 1]], deleted={2}),  # 2 9 live: seat 1 wins
        "all deleted": _crafted(table, key, [[1, 2]], deleted={1}),
        "one seat": _crafted(table, key, [[4]]),
        "no rounds": _crafted(table, key, [[0, 0]], deleted={1}, seats=2),
        "open": _crafted(table, key, [[3, 1]], state="open"),
    }
    written = standings.standings_group_rebuild(group_id=table.group.pk)
    for name, match in matches.items():
        expected = _reference(match)
        assert _stored(match) == expected, name
    assert [row["rank"] for row in _stored(matches["tie for first"])] == [1, 1, 3]
    assert [row["won"] for row in _stored(matches["tie for first"])] == [True, True, False]
    assert [row["rank"] for row in _stored(matches["tie behind"])] == [1, 2, 2, 4]
    assert [row["total"] for row in _stored(matches["deleted round"])] == [2, 9]
    assert written == MatchStanding.objects.count() == 3 + 4 + 3 + 2
    # one match's refresh writes the same rows
    assert standings.standings_match_refresh(match_id=matches["tie behind"].pk) == 4
    assert _stored(matches["tie behind"]) == _reference(matches["tie behind"])
    assert standings.standings_match_refresh(match_id=matches["open"].pk) == 0
    assert standings.standings_match_refresh(match_id=matches["open"].pk + 1000) == 0  # no such match


@pytest.mark.parametrize("key", ["abluxxen", "was-sticht"])
def test_sql_ranks_the_winners_a_match_recorded_first_then_the_totals(table: Table, key: str) -> None:
    # the rounds' facts are empty, so a replay could not name these winners: only the recorded ones can
    matches = {
        "not the best total": (_crafted(table, key, [[5, 3, 4]], winners=[1]), [1]),
        "two, apart on points": (_crafted(table, key, [[4, 1, 6]], winners=[0, 2]), [0, 2]),
        "tied behind them": (_crafted(table, key, [[0, 7, 7, 9]], winners=[0]), [0]),
        "none (finished by hand)": (_crafted(table, key, [[2, 6, 6]], winners=[]), [1, 2]),
    }
    standings.standings_group_rebuild(group_id=table.group.pk)
    for name, (match, winners) in matches.items():
        totals = [
            sum(points)
            for points in zip(*Round.objects.filter(match=match).values_list("points", flat=True), strict=True)
        ]
        stored = _stored(match)
        assert [row["total"] for row in stored] == totals, name
        assert [row["won"] for row in stored] == [seat in winners for seat in range(len(totals))], name
        assert [row["rank"] for row in stored] == ranks_of(totals, winners), name
        assert all(row["team"] is None and row["rounds"] == 1 for row in stored), name
    assert [row["rank"] for row in _stored(matches["not the best total"][0])] == [2, 1, 3]
    assert [row["rank"] for row in _stored(matches["two, apart on points"][0])] == [2, 3, 1]
    assert [row["rank"] for row in _stored(matches["tied behind them"][0])] == [1, 3, 3, 2]
    # one match's refresh reads them too
    match = matches["not the best total"][0]
    assert standings.standings_match_refresh(match_id=match.pk) == 3
    assert [row["won"] for row in _stored(match)] == [False, True, False]


def test_every_games_played_matches_stand_as_the_python_path_ranks_them(table: Table) -> None:
    rng = Random("standings-sql")
    matches = []
    for key in GAMES:
        for _ in range(2):
            players = rng.choice(synthetic.GAMES[key].players)
            matches.append(play(table, key, table.players[:players], rng))
        # and one finished by hand after two rounds
        players = synthetic.GAMES[key].players[0]
        early = play(table, key, table.players[:players], rng, rounds=2)
        if early.state != Match.State.FINISHED:
            early = scoring_services.match_finish(match=early, expected_version=early.version, user=table.owner)
        matches.append(early)
    assert all(m.state == Match.State.FINISHED for m in matches)
    # entered through the services, every match recorded its winners, so all but Muzicando's are ranked in SQL
    recorded = dict(Match.objects.filter(pk__in=[m.pk for m in matches]).values_list("pk", "winners"))
    assert all(isinstance(recorded[m.pk], list) for m in matches)
    assert any(recorded[m.pk] for m in matches if m.ruleset == "abluxxen")
    assert any(recorded[m.pk] for m in matches if m.ruleset == "was-sticht")
    services.stats_rebuild_group(group_id=table.group.pk)
    for match in matches:
        assert _stored(match) == _reference(match), match.ruleset
    assert MatchStanding.objects.count() == sum(len(_reference(m)) for m in matches) > 0


class _Editor:
    connection = connection


def test_the_migration_records_the_winners_of_matches_played_before_it(table: Table) -> None:
    record_winners = importlib.import_module("scoring.migrations.0004_match_winners").record_winners
    rng = Random("backfill")
    played = [play(table, key, table.players[:4], rng) for key in ("abluxxen", "was-sticht", "abluxxen", "njet")]
    open_match = play(table, "was-sticht", table.players[:3], rng, rounds=2)
    unreadable = _crafted(table, "abluxxen", [[1, 2]])  # its facts are empty: no replay can read them
    written = dict(Match.objects.values_list("pk", "winners"))
    assert all(written[m.pk] for m in played) and written[open_match.pk] == []
    Match.objects.update(winners=None)  # as the column starts out
    # what the app recorded while the migration ran is kept (the migration is not atomic)
    Match.objects.filter(pk=played[2].pk).update(winners=[3])

    record_winners(django_apps, _Editor())

    found = dict(Match.objects.values_list("pk", "winners"))
    assert [found[m.pk] for m in played[:2]] == [written[m.pk] for m in played[:2]]
    assert found[played[2].pk] == [3]
    assert found[open_match.pk] == []
    assert found[played[3].pk] is None  # NJET is ranked by its totals: the statistics never need its winners
    assert found[unreadable.pk] is None  # left to the statistics' replay, which falls back to the best totals
    standings.standings_group_rebuild(group_id=table.group.pk)
    assert _stored(unreadable) == _reference(unreadable)
    assert [row["won"] for row in _stored(unreadable)] == [False, True]
