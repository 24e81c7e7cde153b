"""Query-count guards: more rows never mean more queries (no N+1) on any list endpoint."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring import services
from tests.factories import UserFactory
from tests.scoring.helpers import njet_facts

pytestmark = pytest.mark.django_db

MAX_QUERIES = 12
_serial = itertools.count()


def _grow(table: Any, n: int) -> Any:
    """Add ``n`` of everything: members, invites, players, matches with rounds, edits."""
    match = None
    for _ in range(n):
        i = next(_serial)
        user = UserFactory()
        services.membership_add(group=table.group, user=user, by=table.owner)
        player = services.player_create(group=table.group, name=f"Extra {i}", user=table.owner)
        services.invite_create(group=table.group, user=table.owner, player=player)
        services.group_create(name=f"Also {i}", user=table.member)
        match = services.match_create(
            group=table.group,
            ruleset="njet",
            options={},
            player_ids=[p.pk for p in table.players[:4]] + [player.pk],
            user=table.member,
        )
        rnd = services.round_record(match=match, facts=njet_facts(), user=table.member)
        services.round_edit(round=rnd, facts=njet_facts(points_per_trick=3), expected_version=1, user=table.owner)
    return match


ENDPOINTS: dict[str, Callable[[Any, Any], str]] = {
    "groups": lambda t, m: "/api/v1/groups",
    "members": lambda t, m: f"/api/v1/groups/{t.group.pk}/members",
    "invites": lambda t, m: f"/api/v1/groups/{t.group.pk}/invites",
    "players": lambda t, m: f"/api/v1/groups/{t.group.pk}/players",
    "matches": lambda t, m: f"/api/v1/groups/{t.group.pk}/matches",
    "rounds": lambda t, m: f"/api/v1/matches/{m.pk}/rounds?include_deleted=1",
    "events": lambda t, m: f"/api/v1/matches/{m.pk}/events",
    "scoreboard": lambda t, m: f"/api/v1/matches/{m.pk}/scoreboard",
    "export": lambda t, m: f"/api/v1/groups/{t.group.pk}/export",
    "export-rounds.csv": lambda t, m: f"/api/v1/groups/{t.group.pk}/export/rounds.csv",
    "export-matches.csv": lambda t, m: f"/api/v1/groups/{t.group.pk}/export/matches.csv",
    "export-players.csv": lambda t, m: f"/api/v1/groups/{t.group.pk}/export/players.csv",
    "rulesets": lambda t, m: "/api/v1/rulesets",
}


def _count(api: Any, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = api.get(url)
    assert response.status_code == 200, response.content
    return len(queries)


@pytest.mark.parametrize("name", list(ENDPOINTS))
def test_more_rows_do_not_mean_more_queries(table, client_for, django_assert_max_num_queries, name):
    api = client_for(table.owner)
    match = _grow(table, 1)
    for _ in range(2):
        services.round_record(match=match, facts=njet_facts(), user=table.member)
    url = ENDPOINTS[name](table, match)
    few = _count(api, url)

    _grow(table, 6)
    for _ in range(6):
        services.round_record(match=match, facts=njet_facts(), user=table.member)
    services.round_delete(round=match.rounds.get(number=2), expected_version=1, user=table.member)

    with django_assert_max_num_queries(MAX_QUERIES):
        many = _count(api, url)
    assert many <= few, f"{name}: {few} queries with few rows, {many} with many"


# Recording a round through the API: the token; in the transaction the locked match (whose SELECT is also the
# access check: the membership), the seats (with the names the answer shows) and live rounds, then the round, its
# scores, the match, the history event, the statistics' dirty record and the key with its answer (in a test the
# transaction is a savepoint: 2 more). A repeated Idempotency-Key is found by its unique index, not by a lookup.
# Flagging the statistics stale runs after the commit and is counted apart.
ROUND_POST_QUERIES = 12


def test_recording_a_round_through_the_api_reads_nothing_twice(
    table, client_for, njet_match, django_capture_on_commit_callbacks
):
    api = client_for(table.member)
    services.round_record(match=njet_match, facts=njet_facts(), user=table.member)  # an earlier round to replay
    with CaptureQueriesContext(connection) as queries, django_capture_on_commit_callbacks() as after_commit:
        response = api.post(
            f"/api/v1/matches/{njet_match.pk}/rounds",
            {"facts": njet_facts()},
            format="json",
            HTTP_IDEMPOTENCY_KEY="tap-2",
        )
    assert response.status_code == 201, response.content
    sql = [q["sql"] for q in queries]
    assert len(sql) <= ROUND_POST_QUERIES, "\n".join(sql)
    reads_of_the_match = [s for s in sql if s.startswith("SELECT") and 'FROM "scoring_match"' in s]
    assert len(reads_of_the_match) == 1  # the locking SELECT is the access check: the match is not read before it
    assert not any("COUNT(" in s for s in reads_of_the_match)  # the round count is for the match endpoints
    assert len([s for s in sql if 'FROM "scoring_seat"' in s]) == 1  # under the lock, names included
    assert not any(s.startswith("SELECT") and 'FROM "scoring_membership"' in s for s in sql)  # in the lock's SELECT
    assert not any(s.startswith("SELECT") and 'FROM "scoring_idempotencykey"' in s for s in sql)
    assert not any(s.startswith('UPDATE "scoring_idempotencykey"') for s in sql)  # the answer is stored at once
    # one statistics hook and one live push to the other phones (REDIS_URL is set here)
    assert sorted(hook.__qualname__.split(".")[0] for hook in after_commit) == [
        "publish_after_commit",
        "stats_match_changed",
    ]

    replay = api.post(
        f"/api/v1/matches/{njet_match.pk}/rounds", {"facts": njet_facts()}, format="json", HTTP_IDEMPOTENCY_KEY="tap-2"
    )
    assert replay.headers["Idempotent-Replayed"] == "true"
    assert replay.json() == response.json()
    assert response.json()["match_state"] == {"id": njet_match.pk, "version": 3, "state": "open"}
