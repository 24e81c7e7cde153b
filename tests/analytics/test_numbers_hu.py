"""One figure, one value (issue 43 §4): numbers in Hungarian use the decimal comma everywhere on the dashboards —
tables, key figures, per-round figures ("50,17/kör") and the charts, static drawing and Plotly alike — and every
surface rounds a decimal the same way."""

from __future__ import annotations

import html as htmllib
import json
import re
from collections.abc import Callable
from decimal import Decimal
from random import Random
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from frontend.templatetags.sk import num
from scoring.text.numbers import decimal_mark, decimal_text
from tests.analytics.helpers import Table, play

DECIMAL_POINT = re.compile(r"\d\.\d")


def _visible(page: str) -> str:
    """What a reader sees: the page without scripts and styles, tags dropped (SVG text kept)."""
    page = re.sub(r"<script\b.*?</script>", " ", page, flags=re.S)
    page = re.sub(r"<style\b.*?</style>", " ", page, flags=re.S)
    return htmllib.unescape(re.sub(r"<[^>]+>", " ", page))


def _figures(page: str) -> list[dict[str, Any]]:
    tag = '<script id="stats-charts" type="application/json">'
    start = page.index(tag) + len(tag)
    return [c["figure"] for c in json.loads(page[start : page.index("</script>", start)])["charts"]]


@pytest.fixture
def played(table: Table, django_capture_on_commit_callbacks: Callable[..., Any]) -> Table:
    rng = Random(7)
    p = table.players
    with django_capture_on_commit_callbacks(execute=True):
        for key, seats in [("njet", p[:4]), ("mue", p[:5]), ("sticheln", p[:4]), ("abluxxen", p[:3]), ("meinz", p[:4])]:
            for _ in range(3):
                play(table, key, seats, rng)
    return table


def _pages(table: Table) -> list[str]:
    group = table.group.pk
    return [
        f"/stats/groups/{group}/",
        *(f"/stats/groups/{group}/games/{key}/" for key in ("njet", "mue", "sticheln", "abluxxen", "meinz")),
        *(f"/stats/players/{p.pk}/" for p in table.players[:5]),
    ]


def test_a_hungarian_dashboard_has_no_decimal_point_in_any_figure(played: Table) -> None:
    english, hungarian = Client(HTTP_ACCEPT_LANGUAGE="en"), Client(HTTP_ACCEPT_LANGUAGE="hu")
    english.force_login(played.member)
    hungarian.force_login(played.member)
    seen_point = seen_comma = 0
    for url in _pages(played):
        page_en = english.get(url).content.decode()
        page_hu = hungarian.get(url).content.decode()
        assert "Mérkőzések" in page_hu or "mérkőzés" in page_hu, url  # the Hungarian page indeed
        seen_point += len(DECIMAL_POINT.findall(_visible(page_en)))
        text = _visible(page_hu)
        assert not DECIMAL_POINT.findall(text), (url, sorted(set(re.findall(r"\S*\d\.\d\S*", text))))
        seen_comma += len(re.findall(r"\d,\d", text))
        for figure in _figures(page_hu):  # Plotly writes axes and hover labels with the layout's separators
            assert figure["layout"]["separators"][0] == ",", url
        for figure in _figures(page_en):
            assert figure["layout"]["separators"][0] == ".", url
    # the same pages in English do show decimals (ratings, averages, points per round): the check above bites
    assert seen_point > 10 and seen_comma > 10


def test_per_round_figures_and_averages_in_hungarian(played: Table) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="hu")
    client.force_login(played.member)
    page = _visible(client.get(f"/stats/groups/{played.group.pk}/games/njet/").content.decode())
    assert re.search(r"\d+,\d+/kör", page), page  # points per round, as "50,17/kör"


@pytest.mark.parametrize(
    ("value", "places", "en", "hu"),
    [
        (2.675, 2, "2.68", "2,68"),  # its shortest form is 2.675: half away from zero, whatever the binary value
        (-3.25, 1, "−3.3", "−3,3"),
        (6.25, 1, "6.3", "6,3"),
        (-0.04, 1, "0.0", "0,0"),  # nothing to show: no minus sign
        (144.0, None, "144", "144"),
        (218.333333, None, "218.33", "218,33"),
        (50.1, None, "50.1", "50,1"),
        (Decimal("1.005"), 2, "1.01", "1,01"),
        (-7, None, "−7", "−7"),
    ],
)
def test_the_num_filter_rounds_once_and_writes_the_readers_mark(
    value: Any, places: int | None, en: str, hu: str
) -> None:
    for language, expected in (("en", en), ("hu", hu)):
        with translation.override(language):
            assert num(value, places) == expected
            if places is not None:  # the same text as the night image writes (scoring.text.numbers)
                assert decimal_text(value, places, mark=decimal_mark(language)) == expected


@pytest.mark.parametrize("language", ["en", "hu"])
def test_the_dashboard_shows_the_apis_ratings_rounded_once(played: Table, language: str) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(played.member)
    api = client.get(f"/api/v1/groups/{played.group.pk}/stats?game=njet").json()
    names = api["players"]
    page = client.get(f"/stats/groups/{played.group.pk}/games/njet/").content.decode()
    table = page.split('id="ratings"', 1)[1].split("</table>", 1)[0]
    shown = [
        (htmllib.unescape(name), value, mu, sigma)
        for name, value, mu, sigma in re.findall(
            r"<tr><td><a [^>]*>(.*?)</a>(?:<br>.*?)?</td><td>(.*?)</td><td>(.*?) ± (.*?)</td>", table, flags=re.S
        )
    ]
    mark = decimal_mark(language)
    assert shown == [
        (
            names[str(r["player"])],
            decimal_text(r["ordinal"], 1, mark=mark),
            decimal_text(r["mu"], 1, mark=mark),
            decimal_text(r["sigma"], 1, mark=mark),
        )
        for r in api["stats"]["ratings"]
    ]
