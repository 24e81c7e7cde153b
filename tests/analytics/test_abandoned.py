"""An abandoned match (issue 42: an empty match given up) stays in the group's history and counts nowhere: not in
the statistics, the standings, the open matches or the game nights; the incremental path and a full rebuild
agree."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from analytics import services
from analytics.models import MatchStanding, RatingHistory, Snapshot
from analytics.nights import grouping as nights
from scoring import services as scoring
from scoring.models import Match
from tests.analytics.helpers import Table, abluxxen, differences, snapshots


def test_an_abandoned_match_counts_nowhere(
    table: Table, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    a, b, c = table.players[:3]
    with django_capture_on_commit_callbacks(execute=True):
        played = abluxxen(table, [a, b, c], [10, 6, 4], [0, 2, 3])
        empty = scoring.match_rematch(match=played, user=table.owner)  # tapped by mistake, never played
        scoring.match_finish(match=empty, expected_version=empty.version, user=table.owner)
        empty.refresh_from_db()
        scoring.match_abandon(match=empty, expected_version=empty.version, user=table.member)
    empty.refresh_from_db()
    assert (empty.state, empty.winners) == (Match.State.ABANDONED, [])

    summary = Snapshot.objects.get(key=f"group:{table.group.pk}|all").payload["summary"]
    assert (summary["matches"], summary["open_matches"]) == (1, 0)
    assert Snapshot.objects.get(key=f"player:{a.pk}|all").payload["overall"]["matches"] == 1
    assert list(MatchStanding.objects.values_list("match_id", flat=True).distinct()) == [played.pk]
    assert [m.id for m in nights.night_matches(group_id=table.group.pk)] == [played.pk]
    assert Match.objects.filter(group=table.group).count() == 2  # kept in the history

    incremental = snapshots()
    Snapshot.objects.update(payload={}, stale=True)
    MatchStanding.objects.all().delete()
    RatingHistory.objects.all().delete()
    services.stats_rebuild_all()
    assert differences(snapshots(), incremental) == []
