"""Rounds the other side confirms, through the API (issue 47 part 3)."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.models import Match, RoundCheck, RoundEvent
from tests.scoring.helpers import njet_facts

pytestmark = pytest.mark.django_db


@pytest.fixture
def dani(table: Any) -> Any:
    player = next(p for p in table.players if p.name == "Dani")  # the other team of the NJET example round
    player.user = table.member
    player.save()
    return table.member


def _round(client: Any, match: Match) -> None:
    answer = client.post(f"/api/v1/matches/{match.pk}/rounds", {"facts": njet_facts()}, format="json")
    assert answer.status_code == 201, answer.content


def test_an_owner_switches_the_check_on_a_member_may_not(table, client_for) -> None:
    url = f"/api/v1/groups/{table.group.pk}/settings"
    assert client_for(table.member).get(url).json() == {"confirm_rounds": False, "confirm_rounds_since": None}
    refused = client_for(table.member).patch(url, {"confirm_rounds": True}, format="json")
    assert refused.status_code == 403
    answer = client_for(table.owner).patch(url, {"confirm_rounds": True}, format="json")
    assert answer.status_code == 200
    assert answer.json()["confirm_rounds"] is True and answer.json()["confirm_rounds_since"]
    assert client_for(table.owner).patch(url, {"confirm_rounds": "yes"}, format="json").status_code == 400
    assert client_for(table.outsider).get(url).status_code == 404


def test_confirm_and_dispute_through_the_api(table, njet_match, dani, client_for) -> None:
    owner, other = client_for(table.owner), client_for(dani)
    owner.patch(f"/api/v1/groups/{table.group.pk}/settings", {"confirm_rounds": True}, format="json")
    _round(owner, njet_match)
    checks = other.get(f"/api/v1/matches/{njet_match.pk}/checks").json()
    assert checks["confirm_rounds"] is True
    [row] = checks["rounds"]
    assert (row["number"], row["state"], row["saved_by"], row["confirmers"], row["can_act"]) == (
        1,
        "to_confirm",
        "Anna",
        ["Dani"],
        True,
    )
    assert owner.get(f"/api/v1/matches/{njet_match.pk}/checks").json()["rounds"][0]["can_act"] is False

    url = f"/api/v1/matches/{njet_match.pk}/rounds/1"
    assert other.post(f"{url}/confirm", {}, format="json").status_code == 400  # which version did you see?
    assert owner.post(f"{url}/confirm", {}, format="json", HTTP_IF_MATCH='"1"').status_code == 403
    disputed = other.post(f"{url}/dispute", {"note": "Eszter took 3 tricks"}, format="json", HTTP_IF_MATCH='"1"')
    assert disputed.status_code == 200, disputed.content
    assert {k: disputed.json()[k] for k in ("number", "version", "state", "by", "note")} == {
        "number": 1,
        "version": 1,
        "state": "disputed",
        "by": "Dani",
        "note": "Eszter took 3 tricks",
    }
    assert disputed["ETag"] == '"1"'
    assert disputed.json()["match_version"] == Match.objects.get(pk=njet_match.pk).version

    edited = owner.patch(url, {"facts": njet_facts(points_per_trick=3)}, format="json", HTTP_IF_MATCH='"1"')
    assert edited.status_code == 200
    stale = other.post(f"{url}/confirm", {"version": 1}, format="json")
    assert stale.status_code == 409
    assert stale.json()["current"]["version"] == 2
    confirmed = other.post(f"{url}/confirm", {"version": 2}, format="json")
    assert (confirmed.status_code, confirmed.json()["state"]) == (200, "confirmed")
    assert other.get(f"/api/v1/matches/{njet_match.pk}/checks").json()["rounds"][0]["state"] == "confirmed"
    assert list(RoundEvent.objects.filter(match=njet_match).values_list("action", flat=True).order_by("id")) == [
        "create",
        "dispute",
        "edit",
        "confirm",
    ]
    assert RoundCheck.objects.get().state == "confirmed"


def test_outsiders_and_missing_rounds_are_404(table, njet_match, dani, client_for) -> None:
    client_for(table.owner).patch(f"/api/v1/groups/{table.group.pk}/settings", {"confirm_rounds": True}, format="json")
    _round(client_for(table.owner), njet_match)
    outsider = client_for(table.outsider)
    assert outsider.get(f"/api/v1/matches/{njet_match.pk}/checks").status_code == 404
    url = f"/api/v1/matches/{njet_match.pk}/rounds"
    assert outsider.post(f"{url}/1/confirm", {"version": 1}, format="json").status_code == 404
    assert client_for(dani).post(f"{url}/9/confirm", {"version": 1}, format="json").status_code == 404
    too_long = client_for(dani).post(f"{url}/1/dispute", {"version": 1, "note": "x" * 281}, format="json")
    assert too_long.status_code == 400 and "note" in too_long.json()["errors"]
    assert not RoundCheck.objects.exists()
