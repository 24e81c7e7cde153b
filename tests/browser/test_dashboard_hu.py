"""The dashboards in Hungarian on a 360 px phone (issue 43 §4): no header runs into the next one ("Mérkőzések" is
one long word), decimals with a comma, and a list cut for space says so and leads to everyone."""

from __future__ import annotations

import datetime as dt
import re
from random import Random
from typing import Any
from unittest.mock import patch

import pytest
from playwright.sync_api import expect

from analytics import services as analytics_services
from analytics import synthetic
from analytics.nights import views as nightviews
from scoring import services
from scoring.models import Group, Match, Player
from tests.analytics.nights.night_seed import seed_evening
from tests.browser.helpers import shot
from tests.browser.test_comfort import TAP_TARGETS_JS, axe_violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _play(group: Group, user: Any, ruleset: str, seats: list[Player], rng: Random) -> None:
    played = synthetic.play_match(rng, ruleset, [1.0] * len(seats), rounds=None)
    match = services.match_create(
        group=group, ruleset=ruleset, options=played.options, player_ids=[p.pk for p in seats], user=user
    )
    for facts, _result in played.rounds:
        services.round_record(match=match, facts=facts, user=user)


def _headers_fit(page: Any) -> list[str]:
    """Every table header whose text runs past its cell or into the next header."""
    return page.evaluate(
        """() => {
            const bad = [];
            for (const row of document.querySelectorAll('.stats-table thead tr')) {
                const cells = [...row.querySelectorAll('th')];
                cells.forEach((th, i) => {
                    if (th.scrollWidth > th.clientWidth + 1) bad.push(th.textContent + ' overflows');
                    const range = document.createRange();
                    range.selectNodeContents(th);
                    const text = range.getBoundingClientRect();
                    const next = cells[i + 1];
                    const into = next && text.right > next.getBoundingClientRect().left + 0.5;
                    if (into) bad.push(th.textContent + ' overlaps');
                });
            }
            return bad;
        }"""
    )


def test_hungarian_tables_fit_a_phone_and_write_decimal_commas(
    new_context: Any, group: Group, players: list[Player], user: Any
) -> None:
    rng = Random(11)
    for _ in range(3):
        _play(group, user, "njet", players[:4], rng)
        _play(group, user, "abluxxen", players[:3], rng)
    page = new_context(locale="hu-HU").new_page()
    for url in (
        f"/stats/groups/{group.pk}/",
        f"/stats/groups/{group.pk}/games/njet/",
        f"/stats/players/{players[0].pk}/",
    ):
        page.goto(url)
        expect(page.locator(".stats-table").first).to_be_visible()
        assert page.get_by_role("columnheader", name="Mérkőzések").count() >= 1
        assert _headers_fit(page) == [], url
        assert page.evaluate("document.documentElement.scrollWidth") <= 360, url
        text = page.locator("main, body").first.inner_text()
        assert not re.search(r"\d\.\d", text), (url, re.findall(r"\S*\d\.\d\S*", text))
        assert axe_violations(page) == [], url
    assert re.search(r"\d,\d+/kör", page.goto(f"/stats/groups/{group.pk}/games/njet/") and page.inner_text("body"))
    shot(page, "hu-dashboard-game")


def test_a_hungarian_night_reads_its_rating_changes_with_commas(
    new_context: Any, group: Group, players: list[Player], user: Any
) -> None:
    evening = seed_evening(group, players, user)
    page = new_context(locale="hu-HU").new_page()
    page.goto(f"/stats/nights/{evening.night[0].pk}/")
    changes = page.get_by_role("region", name="Értékszám-változások")
    rows = changes.get_by_role("row")
    expect(rows).to_have_count(13)  # the header and all twelve: nobody left out
    for text in rows.all_inner_texts()[1:]:
        assert re.search(r"[+−]?\d+,\d \(", text), text
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert axe_violations(page) == []
    image = page.request.get(f"/stats/nights/{evening.night[0].pk}/night.png")
    assert image.ok and image.headers["content-type"] == "image/png"
    shot(page, "hu-night-ratings")


def test_the_way_to_everyone_and_to_older_nights_is_easy_to_tap(
    new_context: Any, group: Group, players: list[Player], user: Any
) -> None:
    rng = Random(5)
    everyone = [*players, services.player_create(group=group, name="Gábor", user=user)]
    for i in range(7):  # seven Abluxxen matches on seven evenings: seven rated players, seven nights
        _play(group, user, "abluxxen", [everyone[i], everyone[(i + 1) % 7], everyone[(i + 2) % 7]], rng)
    day = dt.datetime(2026, 4, 1, 19, 0, tzinfo=dt.UTC)
    for k, match in enumerate(Match.objects.filter(group=group).order_by("pk")):
        evening = day + dt.timedelta(days=k)
        Match.objects.filter(pk=match.pk).update(created_at=evening, finished_at=evening + dt.timedelta(minutes=30))
    analytics_services.stats_rebuild_group(group_id=group.pk)

    page = new_context(locale="hu-HU").new_page()
    page.goto(f"/stats/groups/{group.pk}/")
    more = page.get_by_role("link", name="Mindenki (még 2)")
    expect(more).to_be_visible()
    assert page.evaluate(TAP_TARGETS_JS) == []
    more.click()
    ratings = page.locator("#ratings + table tbody tr")
    expect(ratings).to_have_count(7)  # the last-rated player too
    assert page.evaluate("document.documentElement.scrollWidth") <= 360

    with patch.object(nightviews, "NIGHTS_PER_PAGE", 3):
        page.goto(f"/stats/groups/{group.pk}/nights/")
        expect(page.get_by_role("navigation", name="A játékestek oldalai")).to_contain_text("1. oldal / 3")
        assert page.evaluate(TAP_TARGETS_JS) == []
        page.get_by_role("link", name="Régebbi játékestek").click()
        expect(page.get_by_role("navigation", name="A játékestek oldalai")).to_contain_text("2. oldal / 3")
        expect(page.locator(".nights-list li")).to_have_count(3)
        assert axe_violations(page) == []
