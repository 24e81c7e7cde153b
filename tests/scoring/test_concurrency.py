"""Real parallel HTTP requests against a live server on PostgreSQL: one phone per thread, each with its own
database connection.  Round numbers stay consecutive, a double-tapped submit stores one round, and two
edits of the same version never both win."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import requests
from django.db import connection
from rest_framework.authtoken.models import Token

from scoring.models import IdempotencyKey, Match, Round, RoundEvent, Score
from tests.scoring.helpers import njet_facts

PHONES = 8

pytestmark = pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL (DATABASE_URL)")


def _all_at_once(calls: list[Any]) -> list[requests.Response]:
    """Run the calls in parallel threads, released together by a barrier."""
    barrier = threading.Barrier(len(calls))

    def run(call: Any) -> requests.Response:
        barrier.wait(timeout=30)
        return call()

    with ThreadPoolExecutor(max_workers=len(calls)) as pool:
        return list(pool.map(run, calls))


def _headers(user: Any, **extra: str) -> dict[str, str]:
    token, _ = Token.objects.get_or_create(user=user)
    return {"Authorization": f"Token {token.key}", **extra}


@pytest.fixture
def match_url(live_server, table, njet_match) -> str:
    return f"{live_server.url}/api/v1/matches/{njet_match.pk}"


def test_parallel_submissions_get_consecutive_round_numbers(table, njet_match, match_url):
    headers = [_headers(u) for u in (table.owner, table.member)]
    calls = [
        (
            lambda h=headers[i % 2]: requests.post(
                f"{match_url}/rounds", json={"facts": njet_facts()}, headers=h, timeout=60
            )
        )
        for i in range(PHONES)
    ]

    responses = _all_at_once(calls)

    assert [r.status_code for r in responses] == [201] * PHONES, [r.text for r in responses]
    assert sorted(r.json()["number"] for r in responses) == list(range(1, PHONES + 1))
    assert sorted(Round.objects.filter(match=njet_match).values_list("number", flat=True)) == list(range(1, PHONES + 1))
    match = Match.objects.get(pk=njet_match.pk)
    assert (match.next_number, match.version) == (PHONES + 1, PHONES + 1)
    assert Score.objects.filter(match=njet_match).count() == PHONES * 5
    assert RoundEvent.objects.filter(match=njet_match, action="create").count() == PHONES


def test_a_double_tapped_submit_stores_one_round_and_answers_the_same(table, njet_match, match_url):
    headers = _headers(table.member, **{"Idempotency-Key": "3f1c-round-1"})
    calls = [
        (lambda: requests.post(f"{match_url}/rounds", json={"facts": njet_facts()}, headers=headers, timeout=60))
        for _ in range(PHONES)
    ]

    responses = _all_at_once(calls)

    assert [r.status_code for r in responses] == [201] * PHONES, [r.text for r in responses]
    bodies = [r.json() for r in responses]
    assert all(body == bodies[0] for body in bodies)
    assert sum(r.headers.get("Idempotent-Replayed") == "true" for r in responses) == PHONES - 1
    assert Round.objects.filter(match=njet_match).count() == 1
    assert IdempotencyKey.objects.get(key="3f1c-round-1").response == bodies[0]
    # and a retry much later still gets the very same answer
    later = requests.post(f"{match_url}/rounds", json={"facts": njet_facts()}, headers=headers, timeout=60)
    assert (later.status_code, later.json()) == (201, bodies[0])


def test_the_same_key_with_other_facts_is_a_422(table, njet_match, match_url):
    headers = _headers(table.member, **{"Idempotency-Key": "k-1"})
    first = requests.post(f"{match_url}/rounds", json={"facts": njet_facts()}, headers=headers, timeout=60)
    other = requests.post(
        f"{match_url}/rounds", json={"facts": njet_facts(points_per_trick=3)}, headers=headers, timeout=60
    )
    assert (first.status_code, other.status_code) == (201, 422)
    assert Round.objects.filter(match=njet_match).count() == 1


def test_parallel_edits_of_one_version_let_exactly_one_win(table, njet_match, match_url):
    requests.post(f"{match_url}/rounds", json={"facts": njet_facts()}, headers=_headers(table.owner), timeout=60)
    phones = [_headers(table.owner), _headers(table.member)] * (PHONES // 2)
    calls = [
        (
            lambda h=h, ppt=(1, 3, 4)[i % 3]: requests.patch(
                f"{match_url}/rounds/1",
                json={"facts": njet_facts(points_per_trick=ppt), "version": 1},
                headers=h,
                timeout=60,
            )
        )
        for i, h in enumerate(phones)
    ]

    responses = _all_at_once(calls)

    codes = sorted(r.status_code for r in responses)
    assert codes == [200] + [409] * (PHONES - 1), [r.text for r in responses]
    winner = next(r.json() for r in responses if r.status_code == 200)
    rnd = Round.objects.get(match=njet_match, number=1)
    assert (rnd.version, rnd.facts["points_per_trick"]) == (2, winner["facts"]["points_per_trick"])
    for loser in (r.json() for r in responses if r.status_code == 409):
        assert loser["current"]["version"] == 2
        assert loser["current"]["facts"] == rnd.facts
