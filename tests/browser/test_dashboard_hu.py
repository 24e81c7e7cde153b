"""The dashboards in Hungarian on a 360 px phone (issue 43 §4): no header runs into the next one ("Mérkőzések" is
one long word), decimals with a comma, and a list cut for space says so and leads to everyone."""

from __future__ import annotations

import re
from random import Random
from typing import Any

import pytest
from playwright.sync_api import expect

from analytics import synthetic
from scoring import services
from scoring.models import Group, Player
from tests.analytics.night_seed import seed_evening
from tests.browser.helpers import shot
from tests.browser.test_comfort import axe_violations

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
