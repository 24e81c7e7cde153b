"""Edits name who changed the round (issue 42): the edit page's conflict message, the API's 409 and the match history
call them as the table does (the player linked to the account); NJET's history shows teams as people, not flags."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from rest_framework.authtoken.models import Token

from scoring import services
from scoring.models import Player, Round

pytestmark = pytest.mark.django_db

ROUND = {"start_player": 0, "discard": "none", "points_per_trick": 1, "partner": 2}
ROUND.update({f"tricks.{seat}": n for seat, n in enumerate((4, 3, 5, 3))})
ROUND.update({f"booty.{seat}": 0 for seat in range(4)})


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html))).strip()


@pytest.fixture
def bence_phone(django_user_model: Any, group: Any, user: Any) -> Any:
    """Bence's account (its username is not what the table calls him), linked to the player Bence."""
    other = django_user_model.objects.create_user("b.kovacs", password="correct-horse-43")
    services.membership_add(group=group, user=other)
    services.player_link(player=Player.objects.get(group=group, name="Bence"), linked_user=other, user=user)
    return other


def test_an_edit_conflict_says_who_changed_the_round(client_in: Any, make_match: Any, bence_phone: Any) -> None:
    match = make_match("njet", 4)
    assert client_in.post(f"/matches/{match.pk}/rounds", {**ROUND, "number": 1}).status_code == 302
    rnd = Round.objects.get(match=match)
    page = client_in.get(f"/matches/{match.pk}/rounds/1/edit").content.decode()
    assert '<input type="hidden" name="version" value="1">' in page
    # Bence edits round 1 on his phone meanwhile
    services.round_edit(round=rnd, facts={**rnd.facts, "points_per_trick": 2}, expected_version=1, user=bence_phone)

    late = client_in.post(f"/matches/{match.pk}/rounds/1/edit", {**ROUND, "points_per_trick": 3, "version": 1})

    assert "Bence changed this round while you were editing it." in _text(late.content.decode())
    assert Round.objects.get(pk=rnd.pk).facts["points_per_trick"] == 2


def test_the_api_409_of_a_stale_edit_names_who_changed_it(make_match: Any, bence_phone: Any, user: Any) -> None:
    from rest_framework.test import APIClient

    match = make_match("njet", 4)
    rnd = services.round_record(match=match, facts=services_facts(), user=user)
    services.round_edit(round=rnd, facts={**rnd.facts, "points_per_trick": 2}, expected_version=1, user=bence_phone)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    answer = api.patch(f"/api/v1/matches/{match.pk}/rounds/1", {"facts": rnd.facts}, format="json", HTTP_IF_MATCH='"1"')
    assert answer.status_code == 409
    assert answer.json()["changed_by"] == "Bence" and answer.json()["current"]["version"] == 2


def services_facts() -> dict[str, Any]:
    return {
        "start_player": 0,
        "teams": [0, 1, 0, 1],
        "discard": "none",
        "points_per_trick": 1,
        "tricks": [4, 3, 5, 3],
        "booty": [0, 0, 0, 0],
    }


def test_history_names_people_and_njet_teams(client_in: Any, make_match: Any, bence_phone: Any) -> None:
    match = make_match("njet", 4)
    client_in.post(f"/matches/{match.pk}/rounds", {**ROUND, "number": 1})
    rnd = Round.objects.get(match=match)
    services.round_edit(round=rnd, facts={**rnd.facts, "teams": [0, 0, 1, 1]}, expected_version=1, user=bence_phone)

    history = _text(client_in.get(f"/matches/{match.pk}/history").content.decode())

    assert "Bence edited · round 1" in history and "b.kovacs" not in history
    assert "Anna created · round 1" in history
    assert "teams: – → Anna and Cili against Bence and Dani" in history
    assert "teams: Anna and Cili against Bence and Dani → Anna and Bence against Cili and Dani" in history
    assert "team ·" not in history
