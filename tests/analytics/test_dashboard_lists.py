"""Filters apply to every figure, and a list cut for space says so and leads to the whole list (issue 43 §4)."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from html import unescape
from typing import Any

import pytest
from django.test import Client
from openskill.models import PlackettLuce

from analytics import services as analytics_services
from analytics.models import Snapshot
from scoring.models import Match
from tests.analytics.helpers import Table, abluxxen
from tests.factories import PlayerFactory


def _member(table: Table) -> Client:
    client = Client()
    client.force_login(table.member)
    return client


def _rating_rows(html: str, heading: str) -> list[tuple[str, str]]:
    """(name, rating) of the ratings table under ``heading``."""
    part = html.split(heading, 1)[1].split("</table>", 1)[0]
    # the name cell also says how sure the rating is (after a <br>, stream beyond): the name is what comes first
    cells = re.findall(r"<tr><td>(?:<a [^>]*>)?([^<]*)(?:</a>)?(?:<br>.*?)?</td><td>(.*?)</td>", part, flags=re.S)
    return [(unescape(name), unescape(value)) for name, value in cells]


@pytest.fixture
def tables(table: Table, django_capture_on_commit_callbacks: Callable[..., Any]) -> Table:
    """Anna, Bence and Csilla at three-player tables; Dani only ever at four-player tables, where he wins."""
    a, b, c, d = table.players[:4]
    with django_capture_on_commit_callbacks(execute=True):
        abluxxen(table, [a, b, c], [10, 6, 2], [0, 1, 1])  # Anna > Bence > Csilla
        abluxxen(table, [a, b, c], [2, 6, 12], [1, 1, 0])  # Csilla > Bence > Anna
        abluxxen(table, [a, b, c, d], [3, 4, 5, 12], [1, 1, 1, 0])  # Dani first
        abluxxen(table, [a, b, c, d], [3, 4, 5, 12], [1, 1, 1, 0])
    return table


def test_players_3_leaves_no_four_player_ratings(tables: Table) -> None:
    client = _member(tables)
    model = PlackettLuce()
    anna, bence, csilla = model.rating(), model.rating(), model.rating()
    anna, bence, csilla = (t[0] for t in model.rate([[anna], [bence], [csilla]], ranks=[1.0, 2.0, 3.0]))
    anna, bence, csilla = (t[0] for t in model.rate([[anna], [bence], [csilla]], ranks=[3.0, 2.0, 1.0]))
    expected = sorted(
        [("Anna", anna.ordinal()), ("Bence", bence.ordinal()), ("Csilla", csilla.ordinal())], key=lambda r: -r[1]
    )

    group = client.get(f"/stats/groups/{tables.group.pk}/?players=3").content.decode()
    rows = _rating_rows(group, "Ratings — ")
    assert [name for name, _ in rows] == [name for name, _ in expected]  # no Dani
    assert [value for _, value in rows] == [f"{v:.1f}".replace("-", "−") for _, v in expected]
    game = client.get(f"/stats/groups/{tables.group.pk}/games/abluxxen/?players=3").content.decode()
    assert [name for name, _ in _rating_rows(game, 'id="ratings"')] == [name for name, _ in expected]

    api = client.get(f"/api/v1/groups/{tables.group.pk}/stats?players=3&game=abluxxen").json()["stats"]
    assert [(r["player"], r["rated"]) for r in api["ratings"]] == [
        (next(p.pk for p in tables.players if p.name == name), 2) for name, _ in expected
    ]
    assert api["ratings"][0]["ordinal"] == pytest.approx(expected[0][1], abs=1e-4)
    dani = client.get(f"/api/v1/players/{tables.players[3].pk}/stats?players=3").json()["stats"]
    assert dani["ratings"] == {}

    # unfiltered, Dani is rated (two wins at four-player tables) and everyone's rating counts every match
    everyone = client.get(f"/api/v1/groups/{tables.group.pk}/stats?game=abluxxen").json()["stats"]
    assert {r["player"] for r in everyone["ratings"]} == {p.pk for p in tables.players[:4]}
    assert {r["rated"] for r in everyone["ratings"] if r["player"] != tables.players[3].pk} == {4}


def test_a_period_lists_the_players_rated_in_it(tables: Table) -> None:
    """Dani's matches moved to 2024: the 2026 ratings are the other three's, as they stood at the end of 2026."""
    dani = tables.players[3]
    old = dt.datetime(2024, 5, 1, 20, 0, tzinfo=dt.UTC)
    Match.objects.filter(seats__player=dani).update(created_at=old, finished_at=old)
    analytics_services.stats_rebuild_group(group_id=tables.group.pk)
    client = _member(tables)
    year = Match.objects.filter(group=tables.group).exclude(seats__player=dani).first().finished_at.year
    ratings = client.get(f"/api/v1/groups/{tables.group.pk}/stats?game=abluxxen&period={year}").json()["stats"]
    assert {r["player"] for r in ratings["ratings"]} == {p.pk for p in tables.players[:3]}
    assert {r["rated"] for r in ratings["ratings"]} == {2}  # the period's matches
    past = client.get(f"/api/v1/groups/{tables.group.pk}/stats?game=abluxxen&period=2024").json()["stats"]
    assert {r["player"] for r in past["ratings"]} == {p.pk for p in tables.players[:4]}


def test_a_ratings_table_cut_for_space_says_how_many_more_and_shows_everyone(
    table: Table, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    """Eight players rated; the group page shows five and links to the game page's full table, where the last
    player is to be found."""
    extra = [PlayerFactory(group=table.group, name=n) for n in ("Gabi", "Hédi")]
    everyone = table.players + extra
    with django_capture_on_commit_callbacks(execute=True):
        for i in range(0, 8, 2):
            seats = [everyone[i], everyone[i + 1], everyone[(i + 2) % 8]]
            abluxxen(table, seats, [10, 6, 2], [0, 1, 1])
    client = _member(table)
    rated = Snapshot.objects.get(key=f"game:{table.group.pk}:abluxxen|all").payload["ratings"]
    assert len(rated) == 8
    last = next(p.name for p in everyone if p.pk == rated[-1]["player"])

    page = client.get(f"/stats/groups/{table.group.pk}/").content.decode()
    shown = _rating_rows(page, "Ratings — ")
    assert len(shown) == 5 and last not in [name for name, _ in shown]
    link = re.search(r'<p class="stats-more stats-all"><a href="([^"]+)">Show everyone \(3 more\)</a>', page)
    assert link, "the cut table says how many more"
    full = client.get(unescape(link.group(1))).content.decode()
    names = [name for name, _ in _rating_rows(full, 'id="ratings"')]
    assert len(names) == 8 and names[-1] == last

    # the game page itself shows ten and says so past that; under ten, all and no link
    game = client.get(f"/stats/groups/{table.group.pk}/games/abluxxen/").content.decode()
    assert len(_rating_rows(game, 'id="ratings"')) == 8 and "Show everyone" not in game.split('id="ratings"')[1]
