"""Issue 44 §3: the JSON and CSV exports stream with constant memory.  A group of 1 000 matches (3 rounds each,
with their history) is exported through every export address: the answer is a streaming one, it is the same
document as the one built whole, and the memory the server holds while sending it does not grow with the
number of matches (measured with tracemalloc around reading the stream: 1 000 matches against 200)."""

from __future__ import annotations

import csv
import io
import json
import tracemalloc
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from scoring import services
from scoring.models import Group, Match, Round, RoundEvent, Seat
from scoring.transfer import exporting
from tests.scoring.helpers import njet_facts

pytestmark = pytest.mark.django_db

ROUNDS = 3


def _grow(table: Any, group: Group, count: int) -> None:
    """``count`` finished NJET matches of the table's five players, each with ``ROUNDS`` rounds copied from one
    really scored round (facts, points and explanation as the rules store them) and a creation event per round."""
    model = services.match_create(
        group=table.group, ruleset="njet", options={}, player_ids=[p.pk for p in table.players], user=table.owner
    )
    scored = services.round_record(match=model, facts=njet_facts(), user=table.owner)
    players = [p.pk for p in table.players] if group == table.group else []
    if not players:
        players = [services.player_create(group=group, name=p.name, user=table.owner).pk for p in table.players]
    start = timezone.now() - timedelta(days=400)
    matches = Match.objects.bulk_create(
        Match(
            group=group,
            ruleset="njet",
            options=model.options,
            state=Match.State.FINISHED,
            finish_reason=Match.FinishReason.MANUAL,
            finished_at=start + timedelta(hours=n, minutes=50),
            winners=[0],
            next_number=ROUNDS + 1,
        )
        for n in range(count)
    )
    for n, match in enumerate(matches):
        match.created_at = start + timedelta(hours=n)
    Match.objects.bulk_update(matches, ["created_at"])
    Seat.objects.bulk_create(Seat(match=m, player_id=p, number=s) for m in matches for s, p in enumerate(players))
    rounds = Round.objects.bulk_create(
        Round(
            match=m,
            number=k,
            facts=scored.facts,
            points=scored.points,
            explanation=scored.explanation,
            ruleset_version=scored.ruleset_version,
            entered_by=table.member,
        )
        for m in matches
        for k in range(1, ROUNDS + 1)
    )
    RoundEvent.objects.bulk_create(
        RoundEvent(
            match_id=r.match_id,
            round=r,
            round_number=r.number,
            action="create",
            actor=table.member,
            after={"number": r.number, "facts": r.facts, "points": r.points, "deleted": False},
        )
        for r in rounds
    )
    model.delete()


@pytest.fixture
def big(table: Any) -> Group:
    _grow(table, table.group, 1000)
    return table.group


@pytest.fixture
def small(table: Any) -> Group:
    group = services.group_create(name="Small", user=table.owner)
    services.membership_add(group=group, user=table.member, by=table.owner)
    _grow(table, group, 200)
    return group


def _read(response: Any) -> tuple[int, int]:
    """Read a streamed answer as a client would (keeping nothing but its length): (bytes, peak memory held)."""
    assert response.status_code == 200
    assert response.streaming, "the export is built whole in memory"
    size = 0
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        for chunk in response.streaming_content:
            size += len(chunk)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return size, peak


def _urls(group: Group) -> dict[str, str]:
    """One address per way of writing (the page's JSON is the API's generator; measuring it again adds
    nothing but minutes: tracemalloc slows every allocation down)."""
    return {
        "api json": f"/api/v1/groups/{group.pk}/export",
        "api rounds csv": f"/api/v1/groups/{group.pk}/export/rounds.csv",
        "page csv": f"/groups/{group.pk}/export.csv",
    }


def _whole(group: Group) -> int:
    """Peak memory of building the same document whole (what the export did before it streamed)."""
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        text = json.dumps(exporting.group_export(group=group))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert text
    return peak


def test_every_export_streams_the_document_with_memory_that_does_not_grow_with_the_matches(table, big, small, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "heavy": "1000/min"},
    }
    browser = Client()
    browser.force_login(table.member)
    whole = _whole(big)
    for name, url in _urls(big).items():
        small_url = _urls(small)[name]
        size, peak = _read(browser.get(url))
        small_size, small_peak = _read(browser.get(small_url))
        assert size > 4 * small_size, name  # five times the matches, about five times the bytes
        # the memory held is that of one batch of matches: no more for 1 000 matches than for 200
        assert peak < 1.5 * small_peak, (name, peak, small_peak)
        # and a fraction of what building the whole document holds
        assert peak < whole / 3, (name, peak, whole)

    # what streams is the document, in the order the matches were played, from the page as from the API
    page = browser.get(f"/groups/{big.pk}/export.json")
    assert page.streaming
    streamed = json.loads(b"".join(page.streaming_content))
    assert streamed == exporting.group_export(group=big)
    assert len(streamed["matches"]) == 1000
    assert [m["created_at"] for m in streamed["matches"]] == sorted(m["created_at"] for m in streamed["matches"])
    rows = list(csv.reader(io.StringIO(exporting.group_export_csv(group=big, table="matches"))))
    assert len(rows) == 1 + 1000
