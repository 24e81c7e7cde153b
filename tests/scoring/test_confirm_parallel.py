"""Eight taps of Confirm at once (real parallel requests on PostgreSQL, one connection each): one confirmation,
one history line, the match moved on once; and a confirm racing an edit of the same round never confirms the new
version unseen."""

from __future__ import annotations

from typing import Any

import pytest
import requests
from django.db import connection

from scoring import services
from scoring.models import Match, RoundCheck, RoundEvent
from tests.scoring.helpers import njet_facts
from tests.scoring.test_concurrency import PHONES, _all_at_once, _headers

pytestmark = [
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL (DATABASE_URL)"),
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture
def dani(table: Any) -> Any:
    player = next(p for p in table.players if p.name == "Dani")  # the other team of the NJET example round
    player.user = table.member
    player.save()
    services.group_confirm_rounds(group=table.group, on=True, user=table.owner)
    return table.member


def test_eight_confirms_at_once_are_one(live_server, table, njet_match, dani) -> None:
    services.round_record(match=njet_match, facts=njet_facts(), user=table.owner)
    version = Match.objects.get(pk=njet_match.pk).version
    url = f"{live_server.url}/api/v1/matches/{njet_match.pk}/rounds/1/confirm"
    headers = _headers(dani, **{"If-Match": '"1"'})
    calls = [(lambda: requests.post(url, json={}, headers=headers, timeout=60)) for _ in range(PHONES)]

    responses = _all_at_once(calls)

    assert [r.status_code for r in responses] == [200] * PHONES, [r.text for r in responses]
    assert {r.json()["state"] for r in responses} == {"confirmed"}
    assert RoundCheck.objects.count() == 1
    assert RoundEvent.objects.filter(match=njet_match, action="confirm").count() == 1
    assert Match.objects.get(pk=njet_match.pk).version == version + 1


def test_a_confirm_racing_an_edit_confirms_only_what_it_saw(live_server, table, njet_match, dani) -> None:
    services.round_record(match=njet_match, facts=njet_facts(), user=table.owner)
    base = f"{live_server.url}/api/v1/matches/{njet_match.pk}/rounds/1"
    confirm = _headers(dani, **{"If-Match": '"1"'})
    edit = _headers(table.owner, **{"If-Match": '"1"'})
    responses = _all_at_once(
        [
            lambda: requests.post(f"{base}/confirm", json={}, headers=confirm, timeout=60),
            lambda: requests.patch(base, json={"facts": njet_facts(points_per_trick=3)}, headers=edit, timeout=60),
        ]
    )
    assert responses[1].status_code == 200, responses[1].text
    check = RoundCheck.objects.filter(round__match=njet_match).first()
    if responses[0].status_code == 200:  # the confirmation came first: it speaks for version 1, now superseded
        assert check is not None and check.version == 1
    else:  # the edit came first: the confirmation of version 1 was refused with the round as it is now
        assert responses[0].status_code == 409 and responses[0].json()["current"]["version"] == 2
        assert check is None
    states = services_states(njet_match, dani)
    assert states == [(1, "to_confirm")]  # either way, version 2 waits for the other side


def services_states(match: Match, user: Any) -> list[tuple[int, str]]:
    from scoring.selectors.confirming import match_checks

    rounds = list(match.rounds.filter(deleted_at__isnull=True).order_by("number"))
    return [(s.number, s.state) for s in match_checks(match=match, rounds=rounds, user=user)]
