"""Dashboards and the statistics API: members only, snapshots only, figures that fit a phone."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from analytics.models import Snapshot
from tests.analytics.helpers import Table, abluxxen


@pytest.fixture
def history(table: Table, django_capture_on_commit_callbacks: Callable[..., Any]) -> Table:
    a, b, c, d = table.players[:4]
    with django_capture_on_commit_callbacks(execute=True):
        abluxxen(table, [a, b, c], [10, 6, 4], [0, 2, 3])
        abluxxen(table, [a, b, c, d], [3, 9, 7, 5], [2, 0, 1, 1])
    return table


def _charts(html: str) -> list[dict[str, Any]]:
    start = html.index('<script id="stats-charts" type="application/json">') + len(
        '<script id="stats-charts" type="application/json">'
    )
    data: dict[str, Any] = json.loads(html[start : html.index("</script>", start)])
    return data["charts"]


@pytest.mark.parametrize("page", ["group", "game", "player"])
def test_dashboards_show_snapshots_to_members_only(history: Table, client: Any, page: str) -> None:
    url = {
        "group": f"/stats/groups/{history.group.pk}/",
        "game": f"/stats/groups/{history.group.pk}/games/abluxxen/",
        "player": f"/stats/players/{history.players[0].pk}/",
    }[page]
    assert client.get(url).status_code == 302  # to the login page
    client.force_login(history.outsider)
    assert client.get(url).status_code == 404
    client.force_login(history.member)
    response = client.get(url)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Updated" in html and "vendor/plotly/plotly-basic.min.js" in html
    charts = _charts(html)
    assert charts, "no figures"
    for chart in charts:
        layout = chart["figure"]["layout"]
        assert layout["autosize"] is True and "width" not in layout  # sized by the phone's screen
        assert f'id="{chart["id"]}"' in html


def test_group_dashboard_has_the_head_to_head_heat_map_and_win_rates(history: Table, client: Any) -> None:
    client.force_login(history.member)
    charts = _charts(client.get(f"/stats/groups/{history.group.pk}/").content.decode())
    traces = [t for c in charts for t in c["figure"]["data"]]
    assert all(t["type"] in {"bar", "scatter"} for t in traces)  # what the basic bundle draws
    heat = [c for c in charts if c["figure"]["layout"].get("barmode") == "stack"]
    assert heat, "the heat maps are stacked bars"


def test_filtered_snapshot_is_created_on_demand(history: Table, client: Any) -> None:
    client.force_login(history.member)
    response = client.get(f"/stats/groups/{history.group.pk}/?players=4&period=all")
    assert response.status_code == 200
    snapshot = Snapshot.objects.get(key=f"group:{history.group.pk}|players=4")
    assert snapshot.payload["summary"]["matches"] == 1  # eager Celery computed it during the request
    assert client.get(f"/stats/groups/{history.group.pk}/?players=99").status_code == 200  # ignored, not stored
    assert not Snapshot.objects.filter(filter_key__contains="99").exists()


def test_status_endpoint(history: Table, client: Any) -> None:
    snapshot = Snapshot.objects.get(key=f"group:{history.group.pk}|all")
    client.force_login(history.outsider)
    assert client.get(f"/stats/snapshots/{snapshot.pk}/status/").status_code == 404
    client.force_login(history.member)
    body = client.get(f"/stats/snapshots/{snapshot.pk}/status/").json()
    assert body["stale"] is False and body["computing"] is False and body["updated_at"]


def test_api_group_and_player_stats(history: Table, client: Any) -> None:
    a = history.players[0]
    client.force_login(history.outsider)
    assert client.get(f"/api/v1/groups/{history.group.pk}/stats").status_code == 404
    assert client.get(f"/api/v1/players/{a.pk}/stats").status_code == 404
    client.force_login(history.member)
    group = client.get(f"/api/v1/groups/{history.group.pk}/stats").json()
    assert (group["scope"], group["stale"], group["filter"]) == ("group", False, "all")
    assert group["updated_at"] and group["stats"]["summary"]["matches"] == 2
    player = client.get(f"/api/v1/players/{a.pk}/stats?period=all").json()
    assert player["scope"] == "player" and player["stats"]["overall"]["matches"] == 2
    game = client.get(f"/api/v1/groups/{history.group.pk}/stats?game=abluxxen").json()
    assert game["scope"] == "game" and game["stats"]["summary"]["matches"] == 2
    assert client.get(f"/api/v1/groups/{history.group.pk}/stats?players=1").status_code == 400
    assert client.get(f"/api/v1/groups/{history.group.pk}/stats?game=chess").status_code == 400


def test_api_reads_a_snapshot_in_a_constant_number_of_queries(history: Table, client: Any) -> None:
    client.force_login(history.member)
    url = f"/api/v1/groups/{history.group.pk}/stats"
    client.get(url)
    with CaptureQueriesContext(connection) as small:
        client.get(url)
    for _ in range(5):
        abluxxen(history, history.players[:3], [4, 5, 6], [0, 1, 1])
    with CaptureQueriesContext(connection) as large:
        client.get(url)
    assert len(large) == len(small) <= 8
