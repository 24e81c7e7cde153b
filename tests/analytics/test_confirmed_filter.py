"""Dashboards that count confirmed rounds only (issue 47 part 3): the "rounds=confirmed" filter."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from analytics import services
from analytics.models import Snapshot
from analytics.stats import StatsFilter
from scoring import services as scoring
from scoring.models import Round
from tests.analytics.helpers import Table, abluxxen, refresh

pytestmark = pytest.mark.django_db


def test_the_filter_key_round_trips_and_refuses_anything_else() -> None:
    flt = StatsFilter.from_query("2025", "4", "confirmed")
    assert (flt.year, flt.players, flt.confirmed, flt.key) == (2025, 4, True, "period=2025,players=4,rounds=confirmed")
    assert StatsFilter.parse(flt.key) == flt
    assert StatsFilter.parse("rounds=confirmed") == StatsFilter(confirmed=True)
    assert StatsFilter.from_query(None, None, "all") == StatsFilter()
    for bad in ("rounds=confirmed,rounds=confirmed", "rounds=all", "rounds=1"):
        with pytest.raises(ValueError):
            StatsFilter.parse(bad)
    with pytest.raises(ValueError):
        StatsFilter.from_query(None, None, "unconfirmed")


def _summary(table: Table, flt: StatsFilter) -> dict[str, Any]:
    services.snapshot_request(scope="group", group_id=table.group.pk, flt=flt)
    refresh(table.group)
    return Snapshot.objects.get(key=f"group:{table.group.pk}|{flt.key}").payload["summary"]


def test_only_matches_whose_every_round_is_confirmed_count(
    table: Table, django_capture_on_commit_callbacks: Callable[..., Any], client: Any
) -> None:
    anna, bence, csilla = table.players[:3]
    anna.user, bence.user = table.owner, table.member
    anna.save()
    bence.save()
    with django_capture_on_commit_callbacks(execute=True):
        abluxxen(table, [anna, bence, csilla], [17, 12, 9], [0, 4, 7])  # saved before the check began
        scoring.group_confirm_rounds(group=table.group, on=True, user=table.owner)
        confirmed = abluxxen(table, [anna, bence, csilla], [15, 12, 9], [0, 4, 7])
        abluxxen(table, [anna, bence, csilla], [14, 12, 9], [0, 4, 7])  # nobody confirmed it
        scoring.round_confirm(match_id=confirmed.pk, number=1, user=table.member, expected_version=1)

    assert _summary(table, StatsFilter())["matches"] == 3
    assert _summary(table, StatsFilter(confirmed=True))["matches"] == 1

    # an edit is a new version, not confirmed yet: the match drops out of the confirmed statistics
    rnd = Round.objects.get(match=confirmed)
    with django_capture_on_commit_callbacks(execute=True):
        scoring.round_edit(
            round=rnd,
            facts={"front": [16, 12, 9], "hand": [0, 4, 7], "end": "out"},
            expected_version=1,
            user=table.owner,
        )
    assert _summary(table, StatsFilter(confirmed=True))["matches"] == 0

    client.force_login(table.owner)
    page = client.get(f"/stats/groups/{table.group.pk}/?rounds=confirmed").content.decode()
    assert '<option value="confirmed" selected>Confirmed by the other side only</option>' in page
    api = client.get(f"/api/v1/groups/{table.group.pk}/stats?rounds=confirmed").json()
    assert api["filter"] == "rounds=confirmed"
    assert client.get(f"/api/v1/groups/{table.group.pk}/stats?rounds=maybe").status_code == 400
