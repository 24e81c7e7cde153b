"""A night is an evening, bounded by design (issue 44 §2): at most a day's matches, whatever a member imports, and
every night page, image and list does work bounded by what it shows."""

from __future__ import annotations

import copy
import datetime as dt
import io
import re
import uuid
from typing import Any
from unittest.mock import patch

import pytest
from django.test import Client
from django.urls import reverse
from PIL import Image

from analytics import services as analytics_services
from analytics.models import NightFigures
from analytics.nights import views as nightviews
from analytics.nights.grouping import MAX_MATCHES, MAX_SPAN, NightMatch, night_list, nights_group
from analytics.nights.image import night_blocks
from analytics.nights.report import night_report
from scoring import services
from scoring.models import Match
from scoring.transfer import exporting
from tests.analytics.helpers import Table, abluxxen

T0 = dt.datetime(2026, 2, 7, 9, 0, tzinfo=dt.UTC)


def _chain(count: int, minutes: int = 1) -> list[NightMatch]:
    return [
        NightMatch(
            id=i + 1,
            ruleset="abluxxen",
            started_at=T0 + dt.timedelta(minutes=i * minutes),
            finished_at=T0 + dt.timedelta(minutes=i * minutes, seconds=30),
        )
        for i in range(count)
    ]


def test_a_long_chain_is_split_at_a_days_matches_and_no_merge_undoes_it() -> None:
    gap = dt.timedelta(hours=4)
    chain = _chain(MAX_MATCHES + 10)
    assert [len(n) for n in nights_group(chain, gap=gap)] == [MAX_MATCHES, 10]
    # the match that begins the second night, merged back: the night is full, it stays where it is
    assert [len(n) for n in nights_group(chain, gap=gap, merges={MAX_MATCHES + 1})] == [MAX_MATCHES, 10]
    # a split inside the first night starts the count again
    assert [len(n) for n in nights_group(chain, gap=gap, splits={30})] == [29, 41]
    # matches every three hours for three days: within the gap, but a night spans at most a day
    slow = _chain(24, minutes=180)
    nights = nights_group(slow, gap=gap)
    assert [len(n) for n in nights] == [9, 9, 6]
    assert all(n[-1].started_at - n[0].started_at <= MAX_SPAN for n in nights)


@pytest.fixture
def imported(table: Table) -> Table:
    """1 000 Abluxxen matches a minute apart, imported as one document into a new group."""
    abluxxen(table, table.players[:3], [10, 6, 2], [0, 1, 1])
    document = exporting.group_export(group=table.group)
    template = document["matches"][0]
    document["matches"] = []
    for i in range(1000):
        match = copy.deepcopy(template)
        match["uid"] = str(uuid.uuid4())  # 1 000 different matches: each its own stable identifiers
        fresh = {rnd["uid"]: str(uuid.uuid4()) for rnd in match["rounds"]}
        for rnd in match["rounds"]:
            rnd["uid"] = fresh[rnd["uid"]]
        for event in match.get("history", []):
            if event.get("round") in fresh:
                event["round"] = fresh[event["round"]]
        start = T0 + dt.timedelta(minutes=i)
        match["created_at"] = start.isoformat()
        match["finished_at"] = (start + dt.timedelta(seconds=50)).isoformat()
        match["rounds"][0]["created_at"] = (start + dt.timedelta(seconds=40)).isoformat()
        document["matches"].append(match)
    target = services.group_create(name="Imported", user=table.owner)
    services.membership_add(group=target, user=table.member, by=table.owner)
    exporting.group_import(group=target, data=document, user=table.owner)
    analytics_services.stats_rebuild_group(group_id=target.pk)
    table.group = target
    return table


def test_a_1000_match_import_makes_no_1000_match_night(imported: Table) -> None:
    assert Match.objects.filter(group=imported.group, state=Match.State.FINISHED).count() == 1000
    nights = night_list(group=imported.group)
    assert sum(len(n.matches) for n in nights) == 1000
    assert max(len(n.matches) for n in nights) == MAX_MATCHES
    assert len(nights) == -(-1000 // MAX_MATCHES)

    client = Client()
    client.force_login(imported.member)
    biggest = max(nights, key=lambda n: len(n.matches))
    page = client.get(reverse("analytics:night", args=[biggest.key]))
    assert page.status_code == 200
    assert len(page.context["report"].matches) == MAX_MATCHES
    image = client.get(reverse("analytics:night-image", args=[biggest.key]))
    assert image.status_code == 200
    assert Image.open(io.BytesIO(image.content)).height < 4000
    # the image lists the first matches and says how many more the page has
    report = night_report(night=biggest, figures=NightFigures.objects.get(key=biggest.key).figures)
    blocks = night_blocks(report)
    assert ("muted", f"… and {MAX_MATCHES - 10} more on the night's page") in blocks


def test_the_night_list_is_paginated(imported: Table) -> None:
    client = Client()
    client.force_login(imported.member)
    url = reverse("analytics:nights", args=[imported.group.pk])
    with patch.object(nightviews, "NIGHTS_PER_PAGE", 5):
        first = client.get(url)
        html = first.content.decode()
        assert len(first.context["nights"]) == 5
        assert 'href="?page=2" rel="next"' in html and 'rel="prev"' not in html
        assert "Page 1 of 4" in html
        last = client.get(url, {"page": "4"})
        assert len(last.context["nights"]) == 2  # 17 nights: 5 + 5 + 5 + 2
        assert 'rel="prev"' in last.content.decode() and 'rel="next"' not in last.content.decode()
        for bad in ("99", "x", "-1", "١"):  # past the end or not a page number: a page all the same
            assert client.get(url, {"page": bad}).status_code == 200
    shown: list[Any] = re.findall(r"/stats/nights/(\d+)/", html)
    assert len(shown) == 5
