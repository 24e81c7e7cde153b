"""Game nights through the API (issue 47, "Also"): a group's nights paginated newest first as on the nights page,
and one night with the numbers its page prints (as numbers), its story, an ETag and 304, 404 outside the member's
groups and the heavy throttle shared with the page."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from analytics import services as analytics_services
from analytics.models import NightFigures
from scoring import services
from scoring.models import Match, Round
from scoring.text.numbers import decimal_text
from tests.analytics.helpers import Table, abluxxen
from tests.analytics.nights.night_seed import Evening, seed_evening


@pytest.fixture
def evening(table: Table) -> Evening:
    return seed_evening(table.group, table.players, table.owner)


def _api(user: Any, language: str = "en") -> APIClient:
    client = APIClient(HTTP_ACCEPT_LANGUAGE=language)
    if user is not None:
        token, _ = Token.objects.get_or_create(user=user)
        client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


def _page(user: Any, match: Match, language: str = "en") -> Any:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client.get(reverse("analytics:night", args=[match.pk]))


def _night_url(match_id: int) -> str:
    return f"/api/v1/nights/{match_id}"


def test_the_nights_list_pages_newest_first_like_the_nights_page(table: Table, evening: Evening) -> None:
    client = _api(table.member)
    body = client.get(f"/api/v1/groups/{table.group.pk}/nights").json()
    page = Client()
    page.force_login(table.member)
    shown = page.get(reverse("analytics:nights", args=[table.group.pk])).context["nights"]
    assert body["count"] == 3
    assert (
        [n["id"] for n in body["results"]]
        == [n.key for n in shown]
        == [
            evening.after.pk,
            evening.night[0].pk,
            evening.before[0].pk,
        ]
    )
    night = body["results"][1]
    assert night["matches"] == 4 and night["match_ids"] == [m.pk for m in evening.night]
    assert night["games"] == ["abluxxen", "njet", "mue"]
    assert night["links"] == {
        "api": f"/api/v1/nights/{evening.night[0].pk}",
        "page": f"/stats/nights/{evening.night[0].pk}/",
        "image": f"/stats/nights/{evening.night[0].pk}/night.png",
    }
    assert night["started_at"].startswith("2026-03-06T19:00:00")
    # the same pages through limit and offset
    first = client.get(f"/api/v1/groups/{table.group.pk}/nights", {"limit": 2}).json()
    assert [n["id"] for n in first["results"]] == [evening.after.pk, evening.night[0].pk]
    rest = client.get(first["next"]).json()
    assert [n["id"] for n in rest["results"]] == [evening.before[0].pk] and rest["next"] is None
    assert client.get(f"/api/v1/groups/{table.group.pk}/nights", {"limit": "x"}).status_code == 400


def test_one_night_has_the_pages_numbers_as_numbers(table: Table, evening: Evening) -> None:
    for language in ("en", "hu"):
        response = _api(table.member, language).get(_night_url(evening.night[0].pk))
        assert response.status_code == 200
        body = response.json()
        report = _page(table.member, evening.night[0], language).context["report"]

        assert body["id"] == evening.night[0].pk and body["group"] == table.group.pk
        assert [(m["id"], m["game"], m["winners"]) for m in body["matches"]] == [
            (m["id"], m["ruleset"], m["winners"]) for m in report.matches
        ]
        njet = body["matches"][2]
        assert njet["totals"] == [76, 78, 88, 66] and njet["rounds"] == 5  # the NJET totals the seed works out
        assert [s["text"] for s in body["story"]] == [e["text"] for e in report.story]
        assert body["story"][0] == {
            "kind": "summary",
            "text": report.story[0]["text"],
            "facts": {"matches": 4, "names": ["Csilla"], "wins": 2},
        }

        upset = body["upset"]
        assert upset["winners"] == ["Csilla"] and upset["game"] == "abluxxen"
        assert isinstance(upset["percent"], int) and upset["percent"] == report.upset["percent"]
        assert upset["text"] == report.upset["text"]
        assert 0 < upset["chance"] < 0.2

        assert body["biggest"]["points"] == 60 and body["biggest"]["player"] == "Dani"
        assert body["biggest"]["lines"] == [line["label"] for line in report.biggest["lines"]]
        assert body["partners"]["names"] == ["Bence", "Csilla"]
        assert (body["partners"]["won"], body["partners"]["rounds"], body["partners"]["percent"]) == (2, 2, 100)

        mark = "," if language == "hu" else "."
        assert len(body["ratings"]) == len(report.ratings) == 12
        for row, shown in zip(body["ratings"], report.ratings, strict=True):
            assert (row["player"], row["game"]) == (shown["player"], shown["ruleset"])
            for key in ("before", "after", "change"):
                assert isinstance(row[key], float)
                assert row[key] == round(row[key], 1)  # one decimal, as printed
            assert decimal_text(row["change"], 1, mark=mark, sign=True) == shown["change_text"]
            assert decimal_text(row["before"], 1, mark=mark) == shown["before_text"]
            assert decimal_text(row["after"], 1, mark=mark) == shown["after_text"]


def test_any_of_its_matches_reaches_the_night(table: Table, evening: Evening) -> None:
    client = _api(table.member)
    for match in evening.night:
        body = client.get(_night_url(match.pk)).json()
        assert body["id"] == evening.night[0].pk
    assert client.get(f"{_night_url(evening.night[2].pk)}/").json()["id"] == evening.night[0].pk


def test_an_etag_answers_304_until_the_night_changes(table: Table, evening: Evening) -> None:
    client = _api(table.member)
    url = _night_url(evening.night[0].pk)
    first = client.get(url)
    etag = first["ETag"]
    assert re.fullmatch(r'"[0-9a-f]{32}-1-en"', etag)  # the night before has room for a merge
    computed = NightFigures.objects.get(key=evening.night[0].pk).computed_at

    with CaptureQueriesContext(connection) as unchanged:
        again = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again.content == b"" and again["ETag"] == etag
    assert not [q for q in unchanged.captured_queries if NightFigures._meta.db_table in q["sql"]]
    assert client.get(url, HTTP_IF_NONE_MATCH=f'"other", W/{etag}').status_code == 304
    assert client.get(url, HTTP_IF_NONE_MATCH='"other"').status_code == 200

    hungarian = _api(table.member, "hu").get(url, HTTP_IF_NONE_MATCH=etag)
    assert hungarian.status_code == 200 and hungarian["ETag"].endswith('-hu"')
    assert hungarian.json()["story"][0]["text"] == "Csilla 2 mérkőzést nyert meg az este 4 mérkőzéséből."

    # a change to one of its matches: a new ETag and the figures computed again
    njet = evening.night[2]
    services.match_reopen(match=njet, expected_version=njet.version, user=table.owner)
    fifth = Round.objects.get(match=njet, number=5)
    services.round_delete(round=fifth, expected_version=fifth.version, user=table.owner)
    njet.refresh_from_db()
    services.match_finish(match=njet, expected_version=njet.version, user=table.owner)
    Match.objects.filter(pk=njet.pk).update(created_at=evening.night[2].created_at)
    analytics_services.stats_rebuild_group(group_id=table.group.pk)
    changed = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert changed.json()["matches"][2]["rounds"] == 4
    assert NightFigures.objects.get(key=evening.night[0].pk).computed_at > computed


def test_outsiders_get_404_and_strangers_401(table: Table, evening: Evening) -> None:
    outsider = _api(table.outsider)
    assert outsider.get(f"/api/v1/groups/{table.group.pk}/nights").status_code == 404
    response = outsider.get(_night_url(evening.night[0].pk))
    assert response.status_code == 404 and response["Content-Type"] == "application/json"
    assert _api(None).get(_night_url(evening.night[0].pk)).status_code == 401
    # an open match belongs to no night; neither does an unknown id
    running = abluxxen(table, table.players[:3], [1, 1, 1], [1, 1, 1])
    Match.objects.filter(pk=running.pk).update(state=Match.State.OPEN)
    member = _api(table.member)
    assert member.get(_night_url(running.pk)).status_code == 404
    assert member.get(_night_url(999999999)).status_code == 404


def test_a_night_through_the_api_counts_with_its_page_against_the_heavy_rate(
    table: Table, evening: Evening, settings: Any
) -> None:
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "heavy": "2/min"},
    }
    cache.clear()
    try:
        client = _api(table.member)
        assert client.get(_night_url(evening.night[0].pk)).status_code == 200
        assert _page(table.member, evening.night[0]).status_code == 200
        refused = client.get(_night_url(evening.night[0].pk))
        assert refused.status_code == 429 and "Retry-After" in refused
        assert refused["Content-Type"] == "application/json" and refused.json()["detail"]
        # the list is not a heavy request
        assert client.get(f"/api/v1/groups/{table.group.pk}/nights").status_code == 200
        # another member's count is their own
        assert _api(table.owner).get(_night_url(evening.night[0].pk)).status_code == 200
    finally:
        cache.clear()


def test_a_group_without_finished_matches_has_no_nights(table: Table) -> None:
    body = _api(table.member).get(f"/api/v1/groups/{table.group.pk}/nights").json()
    assert body == {"count": 0, "next": None, "previous": None, "results": []}
