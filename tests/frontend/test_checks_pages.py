"""Rounds the other side confirms on the pages (issue 47 part 3): the group's switch, the board's Confirm, the
dispute page and the history. Anna saves; the NJET round below puts Bence in the other team."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from scoring import services
from scoring.models import Group, Player, RoundCheck

pytestmark = pytest.mark.django_db

FACTS = {
    "start_player": 0,
    "teams": [0, 1, 0, 1],
    "discard": "none",
    "points_per_trick": 1,
    "tricks": [4, 3, 5, 3],
    "booty": [0, 0, 0, 0],
}


@pytest.fixture
def bence_client(django_user_model: Any, group: Any, user: Any) -> Client:
    other = django_user_model.objects.create_user("bence", password="x-horse-43")
    services.membership_add(group=group, user=other)
    services.player_link(player=Player.objects.get(group=group, name="Bence"), linked_user=other, user=user)
    client = Client()
    client.force_login(other)
    return client


def _board(client: Client, match: Any, lang: str = "en") -> str:
    return client.get(f"/matches/{match.pk}/board", HTTP_ACCEPT_LANGUAGE=lang).content.decode()


def test_a_group_that_leaves_it_off_sees_and_queries_nothing_new(client_in, make_match, user) -> None:
    match = make_match("njet", 4)
    services.round_record(match=match, facts=FACTS, user=user)
    with CaptureQueriesContext(connection) as queries:
        html = _board(client_in, match)
    assert 'id="checks"' not in html and "to confirm" not in html
    assert not [q for q in queries.captured_queries if "roundcheck" in q["sql"].lower()]
    page = client_in.get(f"/groups/{match.group_id}/").content.decode()
    assert "Rounds the other side confirms" in page and "Have the other side confirm rounds" in page


def test_switch_on_confirm_on_the_other_phone_and_see_it_on_both(client_in, bence_client, make_match, user) -> None:
    match = make_match("njet", 4)
    switched = client_in.post(f"/groups/{match.group_id}/confirm-rounds", {"on": "1"}, follow=True)
    assert "From now on, a player of the other side confirms every round saved." in switched.content.decode()
    assert Group.objects.get(pk=match.group_id).confirm_rounds_since is not None
    services.round_record(match=match, facts=FACTS, user=user)

    mine = _board(client_in, match)
    assert "to confirm" in mine and "saved by Anna" in mine
    assert "Waiting for Bence to confirm it on their phone." in mine
    assert "Confirm round 1" not in mine  # Anna saved it
    theirs = _board(bence_client, match)
    assert "Confirm round 1" in theirs and "Dispute round 1…" in theirs

    done = bence_client.post(f"/matches/{match.pk}/rounds/1/confirm", {"version": "1"}, follow=True)
    assert "Round 1 is confirmed." in done.content.decode()
    for client in (client_in, bence_client):
        html = _board(client, match)
        assert "Round 1 is confirmed by Bence." in html and "Confirm round 1" not in html


def test_a_stale_confirm_changes_nothing_and_says_why(client_in, bence_client, make_match, user) -> None:
    match = make_match("njet", 4)
    services.group_confirm_rounds(group=match.group, on=True, user=user)
    rnd = services.round_record(match=match, facts=FACTS, user=user)
    services.round_edit(round=rnd, facts={**FACTS, "points_per_trick": 2}, expected_version=1, user=user)
    answer = bence_client.post(f"/matches/{match.pk}/rounds/1/confirm", {"version": "1"}, follow=True)
    assert "Someone changed this in the meantime" in answer.content.decode()
    assert not RoundCheck.objects.exists()


def test_dispute_page_links_the_rules_and_the_referee_and_shows_on_both_phones(
    client_in, bence_client, make_match, user
) -> None:
    match = make_match("njet", 4)
    services.group_confirm_rounds(group=match.group, on=True, user=user)
    services.round_record(match=match, facts=FACTS, user=user)
    page = bence_client.get(f"/matches/{match.pk}/rounds/1/dispute").content.decode()
    assert 'href="/rules/njet/#njet-' in page  # each explanation line links its rule
    assert f'href="/referee/njet/?match={match.pk}"' in page
    assert "What is wrong? (a short note, optional)" in page

    bad = bence_client.post(f"/matches/{match.pk}/rounds/1/dispute", {"version": "1", "note": "x" * 300})
    assert bad.status_code == 400 and "At most 280 characters" in bad.content.decode()
    sent = bence_client.post(
        f"/matches/{match.pk}/rounds/1/dispute", {"version": "1", "note": "Dani took 4 tricks"}, follow=True
    )
    assert "Round 1 is marked disputed." in sent.content.decode()
    for client in (client_in, bence_client):
        html = _board(client, match)
        assert "disputed" in html and "Bence disputes it: “Dani took 4 tricks”" in html
        assert f'href="/matches/{match.pk}/rounds/1/edit"' in html
    assert "Confirm round 1 as it is" in _board(bence_client, match)
    history = client_in.get(f"/matches/{match.pk}/history").content.decode()
    assert "disputed" in history and "“Dani took 4 tricks”" in history

    # Anna's own dispute page says why she cannot
    assert "You saved this round" in client_in.get(f"/matches/{match.pk}/rounds/1/dispute").content.decode()


def test_hungarian_board(client_in, bence_client, make_match, user) -> None:
    match = make_match("njet", 4)
    services.group_confirm_rounds(group=match.group, on=True, user=user)
    services.round_record(match=match, facts=FACTS, user=user)
    html = _board(bence_client, match, "hu")
    assert "Megerősítés: 1. kör" in html and "megerősítésre vár" in html and "Anna mentette" in html
