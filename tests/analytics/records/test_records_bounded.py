"""Records stay bounded (issue 47 part 2): for a group with a thousand matches the board's announcement, the records
page and its API read the record book (a row per game and kind) and nothing of the group's history: the same
queries as for a small group, none of them over the rounds, the scores or the standings of other matches."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from analytics import services
from analytics.models import RecordBook
from analytics.records.book import KEPT
from analytics.records.news import record_news
from scoring import selectors
from scoring.models import Group, Match, Membership

pytestmark = pytest.mark.django_db

HISTORY_TABLES = ("scoring_round", "scoring_score", "analytics_matchstanding")


def _group(rounds: int, seed: int) -> Group:
    quiet = {"stdout": io.StringIO(), "stderr": io.StringIO()}
    call_command("generate_history", rounds=rounds, players=8, groups=1, seed=seed, years=2, **quiet)
    group = Group.objects.order_by("-pk").first()
    assert group is not None
    services.stats_rebuild_group(group_id=group.pk)
    return group


def _reads(client: Any, group: Group) -> list[list[str]]:
    """The SQL of: the board's announcement for the group's last finished match, the records page, the API."""
    match = Match.objects.select_related("group").filter(group=group, state="finished").order_by("-pk").first()
    assert match is not None
    board = selectors.match_scoreboard(match=match)
    found = []
    with CaptureQueriesContext(connection) as queries:
        record_news(match=match, board=board)
    found.append([q["sql"] for q in queries.captured_queries])
    for url in (f"/stats/groups/{group.pk}/records/", f"/api/v1/groups/{group.pk}/records"):
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        found.append([q["sql"] for q in queries.captured_queries])
    return found


def _touches_history(sql: str) -> bool:
    """Whether a query reads the history (one standing of the match shown, by its unique index, is no history)."""
    lowered = sql.lower()
    one_standing = "analytics_matchstanding" in lowered and '"match_id" = ' in lowered and "limit 1" in lowered
    return any(table in lowered for table in HISTORY_TABLES) and not one_standing


def test_a_thousand_match_group_reads_what_a_small_one_reads(client: Any, django_user_model: Any) -> None:
    small = _group(rounds=120, seed=3)
    large = _group(rounds=4800, seed=4)
    assert Match.objects.filter(group=large).count() >= 1000
    user = django_user_model.objects.create_user("reader", password="x-horse-42")
    for group in (small, large):
        Membership.objects.create(group=group, user=user)
    client.force_login(user)
    assert all(len(book.top) <= KEPT for book in RecordBook.objects.filter(group_id=large.pk))

    reads_small, reads_large = _reads(client, small), _reads(client, large)
    assert [len(r) for r in reads_small] == [len(r) for r in reads_large]
    # the announcement: the game's books and whether they hold this match (one row through its unique index)
    assert len(reads_large[0]) <= 2
    for sql in (q for part in reads_large for q in part):
        assert not _touches_history(sql), sql
