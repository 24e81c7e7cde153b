"""load_demo, the statistics hooks and the admin pages."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from scoring import rules, services
from scoring.models import Group, Match, Player
from tests.factories import UserFactory
from tests.scoring.helpers import njet_facts, record

pytestmark = pytest.mark.django_db


def test_load_demo_fills_an_empty_database_once(client):
    out = StringIO()
    call_command("load_demo", stdout=out)
    assert "'demo'" in out.getvalue() and "'demo-password-123'" in out.getvalue()
    group = Group.objects.get()
    assert Player.objects.filter(group=group).count() == 5
    matches = Match.objects.filter(group=group)
    assert {m.ruleset for m in matches} == set(rules.KEYS)
    assert all(m.state == "finished" and m.rounds.exists() for m in matches)
    assert client.login(username="demo", password="demo-password-123")

    again = StringIO()
    call_command("load_demo", stdout=again)
    assert "already" in again.getvalue()
    assert Match.objects.count() == len(rules.KEYS)


def test_load_demo_leaves_a_used_database_alone():
    UserFactory()
    out = StringIO()
    call_command("load_demo", stdout=out)
    assert "not empty" in out.getvalue()
    assert not Group.objects.exists()


def test_every_round_change_schedules_the_statistics_after_commit(
    table, njet_match, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True) as created:
        (rnd,) = record(njet_match, table.member)
    with django_capture_on_commit_callbacks(execute=True) as edited:
        services.round_edit(round=rnd, facts=njet_facts(points_per_trick=3), expected_version=1, user=table.member)
    with django_capture_on_commit_callbacks(execute=True) as deleted:
        services.round_delete(round=rnd, expected_version=2, user=table.member)
    with django_capture_on_commit_callbacks(execute=True) as undone:
        services.round_undo(round=rnd, user=table.member)
    with django_capture_on_commit_callbacks(execute=True) as rescored:
        services.match_rescore(match=njet_match, user=table.member)
    with django_capture_on_commit_callbacks(execute=True) as merged:
        spare = services.player_create(group=table.group, name="Spare", user=table.owner)
        services.player_merge(source=spare, target=table.players[1], user=table.owner)
    for callbacks in (created, edited, deleted, undone, rescored, merged):
        assert len(callbacks) >= 1
    with django_capture_on_commit_callbacks() as refused, pytest.raises(services.ValidationFailed):
        record(njet_match, table.member, tricks=[0, 0, 0, 0, 0])
    assert refused == []


def test_the_admin_pages_open(admin_client, table, njet_match):
    record(njet_match, table.member)
    for page in ("group", "player", "match", "round", "roundevent", "invite", "score", "idempotencykey"):
        assert admin_client.get(f"/admin/scoring/{page}/").status_code == 200, page
    assert admin_client.get(f"/admin/scoring/match/{njet_match.pk}/change/").status_code == 200
