"""POST /matches/{id}/rematch: a new match of the same game with the same players, seats and options."""

from __future__ import annotations

import pytest

from scoring import services
from scoring.models import Match

pytestmark = pytest.mark.django_db


def test_rematch_keeps_game_seats_and_options(table, client_for):
    players = table.players[:4]
    seated = [players[2].pk, players[0].pk, players[3].pk, players[1].pk]
    match = services.match_create(
        group=table.group, ruleset="njet", options={"recording": "difference"}, player_ids=seated, user=table.member
    )
    response = client_for(table.member).post(f"/api/v1/matches/{match.pk}/rematch")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["id"] != match.pk
    assert [s["id"] for s in body["seats"]] == seated
    assert body["options"] == {"recording": "difference", "tie_rule": "english"}
    assert (body["ruleset"], body["state"], body["rounds_played"]) == ("njet", "open", 0)
    assert Match.objects.filter(group=table.group).count() == 2


def test_rematch_is_for_members_only(table, client_for):
    match = services.match_create(
        group=table.group, ruleset="njet", options={}, player_ids=[p.pk for p in table.players], user=table.member
    )
    assert client_for(table.outsider).post(f"/api/v1/matches/{match.pk}/rematch").status_code == 404
    assert client_for(None).post(f"/api/v1/matches/{match.pk}/rematch").status_code == 401
    assert Match.objects.filter(group=table.group).count() == 1
