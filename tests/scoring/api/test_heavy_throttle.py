"""Issue 44 §3: the heavy endpoints (exports, game night page and image, dashboards, what-if previews) have their
own throttle scope, per user, pages and API in one count: past the rate they answer 429 with Retry-After, a
JSON body under /api/ and a page elsewhere, without doing the work."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client

from scoring import services
from scoring.models import Match
from tests.scoring.helpers import record

pytestmark = pytest.mark.django_db


@pytest.fixture
def heavy_rate(settings: Any) -> Any:
    def set_rate(rate: str) -> None:
        settings.REST_FRAMEWORK = {
            **settings.REST_FRAMEWORK,
            "DEFAULT_THROTTLE_RATES": {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "heavy": rate},
        }

    return set_rate


@pytest.fixture
def finished(table: Any, njet_match: Match) -> Match:
    record(njet_match, table.member, n=2)
    services.match_finish(match=njet_match, expected_version=Match.objects.get(pk=njet_match.pk).version,
                          user=table.member)  # fmt: skip
    return Match.objects.get(pk=njet_match.pk)


def _browser(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _pages(table: Any, match: Match) -> list[tuple[str, str, dict[str, Any]]]:
    g, m = table.group.pk, match.pk
    return [
        ("get", f"/groups/{g}/export.json", {}),
        ("get", f"/groups/{g}/export.csv", {}),
        ("get", f"/groups/{g}/export-bgstats.json", {}),
        ("get", f"/stats/nights/{m}/", {}),
        ("get", f"/stats/nights/{m}/night.png", {}),
        ("get", f"/stats/groups/{g}/", {}),
        ("get", f"/stats/groups/{g}/games/njet/", {}),
        ("get", f"/stats/players/{table.players[0].pk}/", {}),
        ("post", f"/matches/{m}/options", {"opt_recording": "difference", "opt_tie_rule": "english", "preview": "1"}),
        ("get", f"/matches/{m}/rescore", {}),
    ]


def _apis(table: Any, match: Match) -> list[tuple[str, str, dict[str, Any]]]:
    g, m = table.group.pk, match.pk
    return [
        ("get", f"/api/v1/groups/{g}/export", {}),
        ("get", f"/api/v1/groups/{g}/export/rounds.csv", {}),
        ("get", f"/api/v1/groups/{g}/export/bgstats", {}),
        ("get", f"/api/v1/groups/{g}/stats", {}),
        ("get", f"/api/v1/players/{table.players[0].pk}/stats", {}),
        ("post", f"/api/v1/matches/{m}/options/preview", {"options": {"recording": "difference"}}),
        ("post", f"/api/v1/matches/{m}/rescore/preview", {}),
    ]


def test_every_heavy_page_answers_429_past_the_rate(table, finished, heavy_rate):
    heavy_rate("1/min")
    for method, url, data in _pages(table, finished):
        browser = _browser(table.member)
        cache.clear()  # each page on its own: the first request passes, the second is refused
        first = getattr(browser, method)(url, data)
        assert first.status_code in (200, 302), (url, first.status_code)
        second = getattr(browser, method)(url, data)
        assert second.status_code == 429, url
        assert int(second["Retry-After"]) >= 1
        assert "Too many large pages and downloads in a short time" in second.content.decode()
        assert second["Content-Type"].startswith("text/html")


def test_every_heavy_api_answers_429_with_json_past_the_rate(table, finished, client_for, heavy_rate):
    heavy_rate("1/min")
    api = client_for(table.member)
    for method, url, data in _apis(table, finished):
        cache.clear()
        first = getattr(api, method)(url, data, format="json")
        assert first.status_code == 200, (url, first.status_code)
        second = getattr(api, method)(url, data, format="json")
        assert second.status_code == 429, url
        assert second["Content-Type"] == "application/json"
        assert second.json()["detail"]
        assert int(second["Retry-After"]) >= 1


def test_pages_and_api_share_one_count_per_user(table, finished, client_for, heavy_rate):
    heavy_rate("3/min")
    browser, api = _browser(table.member), client_for(table.member)
    assert browser.get(f"/stats/groups/{table.group.pk}/").status_code == 200
    assert api.get(f"/api/v1/groups/{table.group.pk}/export").status_code == 200
    assert browser.get(f"/stats/nights/{finished.pk}/night.png").status_code == 200

    assert api.get(f"/api/v1/groups/{table.group.pk}/export/matches.csv").status_code == 429
    assert browser.get(f"/groups/{table.group.pk}/export.json").status_code == 429
    # another member has a count of their own; light pages are not counted
    assert _browser(table.owner).get(f"/groups/{table.group.pk}/export.json").status_code == 200
    assert browser.get(f"/groups/{table.group.pk}/").status_code == 200
    assert api.get(f"/api/v1/matches/{finished.pk}/scoreboard").status_code == 200


def test_the_default_rate_lets_an_evening_of_browsing_through(table, finished, client_for):
    """THROTTLE_HEAVY's default (60 a minute) is far above what a member clicks: twenty heavy pages pass."""
    browser = _browser(table.member)
    codes = {browser.get(f"/stats/nights/{finished.pk}/").status_code for _ in range(20)}
    assert codes == {200}


def test_a_user_has_at_most_two_heavy_requests_in_progress(table, finished, client_for, settings):
    """Eight exports sent at once would share the cores eight ways: a third heavy request while two are in
    progress (two streamed exports not yet read to the end) answers 429 at once, for this user only; a place
    comes back when its response is done, and the rate's count is not the reason."""
    assert settings.THROTTLE_HEAVY_AT_ONCE == 2
    cache.clear()
    g = table.group.pk
    api, browser = client_for(table.member), _browser(table.member)
    first = api.get(f"/api/v1/groups/{g}/export")
    second = browser.get(f"/groups/{g}/export.csv")
    assert (first.status_code, second.status_code) == (200, 200)
    assert first.streaming and second.streaming  # still being sent: both places held

    third = api.get(f"/api/v1/groups/{g}/export/rounds.csv")
    assert third.status_code == 429 and third["Retry-After"] == "1" and third.json()["detail"]
    page = browser.get(f"/stats/nights/{finished.pk}/")
    assert page.status_code == 429 and page["Retry-After"] == "1"
    assert _browser(table.owner).get(f"/stats/nights/{finished.pk}/").status_code == 200  # another user
    assert browser.get(f"/groups/{g}/").status_code == 200  # light pages are not counted

    b"".join(first.streaming_content)  # the first export sent to its end: its place is given back
    assert browser.get(f"/stats/nights/{finished.pk}/").status_code == 200  # done at once: nothing held after it
    assert api.get(f"/api/v1/groups/{g}/stats").status_code == 200
    b"".join(second.streaming_content)
    streams = [api.get(f"/api/v1/groups/{g}/export"), api.get(f"/api/v1/groups/{g}/export")]
    assert [s.status_code for s in streams] == [200, 200]
    assert api.get(f"/api/v1/groups/{g}/export").status_code == 429
    for stream in streams:
        b"".join(stream.streaming_content)


def test_a_heavy_view_that_fails_gives_its_place_back(table, finished, client_for, settings):
    """A heavy request answered with an error (an unknown night, a group not theirs) holds nothing afterwards."""
    settings.THROTTLE_HEAVY_AT_ONCE = 1
    cache.clear()
    browser = _browser(table.member)
    for _ in range(3):
        assert browser.get("/stats/nights/999999999/").status_code == 404
    assert browser.get(f"/stats/nights/{finished.pk}/").status_code == 200


def test_no_limit_at_once_when_set_to_zero(table, finished, client_for, settings):
    settings.THROTTLE_HEAVY_AT_ONCE = 0
    cache.clear()
    api = client_for(table.member)
    streams = [api.get(f"/api/v1/groups/{table.group.pk}/export") for _ in range(4)]
    assert [s.status_code for s in streams] == [200] * 4
    for stream in streams:
        b"".join(stream.streaming_content)
