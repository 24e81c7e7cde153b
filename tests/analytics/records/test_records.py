"""Records worth a cheer (issue 47 part 2): the record book per group and game, the board's announcement, the
records page and its API.

Húzz egyet! / Abluxxen is the simplest game to play by hand: a round's points are the cards in front of a player
minus the cards in hand, and a match of several games is a round per game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from analytics.models import RecordBook
from analytics.records.book import records_refresh
from analytics.records.news import record_news
from scoring import selectors, services
from scoring.models import Match
from tests.analytics.helpers import Table, abluxxen

pytestmark = pytest.mark.django_db


def _series(table: Table, games: int) -> Match:
    return services.match_create(
        group=table.group,
        ruleset="abluxxen",
        options={"games": games},
        player_ids=[p.pk for p in table.players[:3]],
        user=table.owner,
    )


def _game(match: Match, user: Any, fronts: list[int], hands: list[int]) -> None:
    services.round_record(match=match, facts={"front": fronts, "hand": hands, "end": "out"}, user=user)


def _history(table: Table) -> list[Match]:
    """Four one-game matches, all won by Anna: round scores 10 5 2 · 12 3 1 · 20 4 0 · 8 6 −2 (Anna, Bence,
    Csilla)."""
    p = table.players[:3]
    return [
        abluxxen(table, p, [10, 6, 3], [0, 1, 1]),
        abluxxen(table, p, [12, 4, 2], [0, 1, 1]),
        abluxxen(table, p, [20, 5, 1], [0, 1, 1]),
        abluxxen(table, p, [8, 7, 1], [0, 1, 3]),
    ]


def _board_news(match: Match) -> list[str]:
    match = Match.objects.select_related("group").get(pk=match.pk)
    return [n.text for n in record_news(match=match, board=selectors.match_scoreboard(match=match))]


def test_the_book_keeps_the_best_entries_with_their_round_and_the_count(
    table: Table, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    with django_capture_on_commit_callbacks(execute=True):  # the worker's refresh writes the book
        played = _history(table)
    anna, bence = table.players[0].pk, table.players[1].pk
    book = RecordBook.objects.get(group_id=table.group.pk, ruleset="abluxxen", kind="round_points")
    assert book.total == 12
    assert [(e["value"], e["player"], e["match"], e["round"]) for e in book.top[:3]] == [
        (20, anna, played[2].pk, 1),
        (12, anna, played[1].pk, 1),
        (10, anna, played[0].pk, 1),
    ]
    streak = RecordBook.objects.get(group_id=table.group.pk, ruleset="abluxxen", kind="win_streak")
    assert (streak.top[0]["value"], streak.top[0]["player"], streak.top[0]["match"]) == (4, anna, played[3].pk)
    # Bence's 6 in the last match was his best; deleting that match takes it out of the book
    assert any(e["player"] == bence and e["value"] == 6 for e in book.top)
    with django_capture_on_commit_callbacks(execute=True):
        services.match_delete(match=played[3], expected_version=played[3].version, user=table.owner)
    book = RecordBook.objects.get(group_id=table.group.pk, ruleset="abluxxen", kind="round_points")
    assert book.total == 9 and not any(e["match"] == played[3].pk for e in book.top)
    assert RecordBook.objects.get(group_id=table.group.pk, ruleset="abluxxen", kind="win_streak").top[0]["value"] == 3
    # what the worker keeps after the change is what a computation from scratch gives
    kept = sorted(RecordBook.objects.values_list("ruleset", "kind", "total", "top"))
    records_refresh(group_id=table.group.pk)
    assert sorted(RecordBook.objects.values_list("ruleset", "kind", "total", "top")) == kept


def test_a_record_is_announced_on_the_round_that_sets_it_and_not_on_the_next(
    table: Table, django_capture_on_commit_callbacks: Callable[..., Any], client: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        _history(table)
        match = _series(table, 3)
        _game(match, table.owner, [5, 30, 1], [2, 0, 3])  # Bence: 30, above Anna's 20

    news = _board_news(match)
    assert news == ["Bence: 30, a new group record for most points in a round (Húzz egyet! / Abluxxen); it was 20"]
    client.force_login(table.owner)
    board = client.get(f"/matches/{match.pk}/board").content.decode()
    assert "Round 1: records" in board and "a new group record" in board
    hu = client.get(f"/matches/{match.pk}/board", HTTP_ACCEPT_LANGUAGE="hu").content.decode()
    assert "1. kör: rekordok" in hu
    assert "Bence: 30, új csoportrekord: legtöbb pont egy körben (Húzz egyet! / Abluxxen); eddig 20" in hu

    with django_capture_on_commit_callbacks(execute=True):
        _game(match, table.owner, [4, 6, 2], [1, 0, 1])  # nothing special
    assert _board_news(match) == []
    assert "a new group record" not in client.get(f"/matches/{match.pk}/board").content.decode()

    with django_capture_on_commit_callbacks(execute=True):
        _game(match, table.owner, [22, 3, 9], [0, 1, 1])  # Anna's 22: behind Bence's 30 in round 1 of this match
    # the series is over too: Bence's 38 and Anna's 28 are the best match totals (the book holds them by now)
    assert Match.objects.get(pk=match.pk).state == Match.State.FINISHED
    assert _board_news(match) == [
        "Anna: 22, the group's 2nd best for most points in a round (Húzz egyet! / Abluxxen), top 10 %",
        "Anna: 28, the group's 2nd best for most points in a match (Húzz egyet! / Abluxxen), top 14 %",
        "Bence: 38, a new group record for most points in a match (Húzz egyet! / Abluxxen); it was 20",
    ]
    book = RecordBook.objects.get(group_id=table.group.pk, ruleset="abluxxen", kind="round_points")
    assert book.top[0]["value"] == 30


def test_two_players_above_the_record_in_one_round_are_the_first_and_the_second(
    table: Table, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        _history(table)
        match = _series(table, 2)
        _game(match, table.owner, [25, 24, 0], [0, 1, 5])
    assert _board_news(match) == [
        "Anna: 25, a new group record for most points in a round (Húzz egyet! / Abluxxen); it was 20",
        "Bence: 23, the group's 2nd best for most points in a round (Húzz egyet! / Abluxxen), top 14 %",
    ]


def test_equalling_the_record_and_too_short_a_history(
    table: Table, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    p = table.players[:3]
    with django_capture_on_commit_callbacks(execute=True):
        abluxxen(table, p, [20, 5, 1], [0, 1, 1])
        match = _series(table, 2)
        _game(match, table.owner, [25, 0, 0], [0, 3, 3])
    assert _board_news(match) == []  # three earlier entries: every round would be "a record"
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(3):
            abluxxen(table, p, [9, 5, 1], [0, 1, 1])
        other = _series(table, 2)
        _game(other, table.owner, [1, 20, 0], [1, 0, 3])
    assert _board_news(other) == [
        "Bence: 20, equal to the group's record for most points in a round (Húzz egyet! / Abluxxen)"
    ]


def test_the_board_reads_the_book_not_the_history(
    table: Table, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    """However long the group's history, the announcement reads the same few rows: the book of this game and
    whether it holds this match; never a round or score of another match."""
    counts = []
    for size in (1, 6):
        with django_capture_on_commit_callbacks(execute=True):
            for _ in range(size):
                _history(table)
            match = _series(table, 3)
            _game(match, table.owner, [5, 30, 1], [2, 0, 3])
        match = Match.objects.select_related("group").get(pk=match.pk)
        board = selectors.match_scoreboard(match=match)
        with CaptureQueriesContext(connection) as queries:
            record_news(match=match, board=board)
        sql = [q["sql"].lower() for q in queries.captured_queries]
        assert not [q for q in sql if "scoring_round" in q or "scoring_score" in q], sql
        counts.append(len(sql))
    assert counts[0] == counts[1] <= 2


def test_records_page_and_api(
    table: Table, django_capture_on_commit_callbacks: Callable[..., Any], client: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        played = _history(table)
    RecordBook.objects.all().delete()
    records_refresh(group_id=table.group.pk)  # the same as the worker wrote
    client.force_login(table.owner)
    page = client.get(f"/stats/groups/{table.group.pk}/records/").content.decode()
    assert "Húzz egyet!" in page and "Most points in a round" in page and "Longest winning streak" in page
    assert f'href="/matches/{played[2].pk}/#r1"' in page  # the record links its round
    assert f'href="/matches/{played[3].pk}/"' in page  # the streak its last match
    group_page = client.get(f"/groups/{table.group.pk}/").content.decode()
    assert f'href="/stats/groups/{table.group.pk}/records/"' in group_page
    dashboard = client.get(f"/stats/groups/{table.group.pk}/").content.decode()
    assert f'href="/stats/groups/{table.group.pk}/records/"' in dashboard

    body = client.get(f"/api/v1/groups/{table.group.pk}/records?game=abluxxen").json()
    [game] = body["games"]
    by_kind = {r["kind"]: r for r in game["records"]}
    assert set(by_kind) == {"round_points", "match_total", "win_streak"}
    best = by_kind["round_points"]["entries"][0]
    assert (best["value"], best["player_name"], best["round"], best["url"]) == (
        20,
        "Anna",
        1,
        f"/matches/{played[2].pk}/#r1",
    )
    assert client.get(f"/api/v1/groups/{table.group.pk}/records?game=chess").status_code == 400
    client.force_login(table.outsider)
    assert client.get(f"/api/v1/groups/{table.group.pk}/records").status_code == 404
    assert client.get(f"/stats/groups/{table.group.pk}/records/").status_code == 404


def test_a_value_many_reached_is_no_cheer(table: Table, django_capture_on_commit_callbacks: Callable[..., Any]) -> None:
    """Equal to the record, but so is a fifth of everything: NJET's rounds without booty, say."""
    p = table.players[:3]
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(4):
            abluxxen(table, p, [20, 5, 1], [0, 1, 1])  # 20 is the record four times over, a third of the entries
        match = _series(table, 2)
        _game(match, table.owner, [1, 20, 0], [1, 0, 3])
    assert _board_news(match) == []


def test_a_one_round_match_is_told_once(table: Table, django_capture_on_commit_callbacks: Callable[..., Any]) -> None:
    """A one-game match (Coloretto's usual one): its round's record is its total's too; the board says it once."""
    with django_capture_on_commit_callbacks(execute=True):
        _history(table)
        match = abluxxen(table, table.players[:3], [5, 30, 1], [2, 0, 3])
    assert Match.objects.get(pk=match.pk).state == Match.State.FINISHED
    assert _board_news(match) == [
        "Bence: 30, a new group record for most points in a round (Húzz egyet! / Abluxxen); it was 20"
    ]
