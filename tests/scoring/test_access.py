"""Every endpoint for an anonymous caller, an outsider, a member and an owner.

Anonymous: 401 (except the public rules, calculator and referee).  Outsider: 404 for anything of the group,
exactly as for a group that does not exist.  Member: reads and plays; 403 for owner-only actions.  Owner:
everything.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from scoring import services
from scoring.models import Invite, Membership, Round
from tests.factories import UserFactory
from tests.scoring.helpers import njet_facts

pytestmark = pytest.mark.django_db


@dataclass
class World:
    table: Any
    match: Any
    invite: Invite
    guest: Any
    other_membership: Membership


@pytest.fixture
def world(table, njet_match) -> World:
    services.round_record(match=njet_match, facts=njet_facts(), user=table.member)
    guest = services.player_create(group=table.group, name="Guest", user=table.owner)
    invite = services.invite_create(group=table.group, user=table.owner, player=guest)
    other = services.membership_add(group=table.group, user=UserFactory(username="third"), by=table.owner)
    return World(table=table, match=njet_match, invite=invite, guest=guest, other_membership=other)


G = "/api/v1/groups/{g}"
M = "/api/v1/matches/{m}"

Case = tuple[str, str, Callable[[World], Any] | None, int, int]
# (method, path, body, member status, owner status); the path may use {g} {m} {p} {q} {i} {ms} {t}
CASES: list[Case] = [
    ("get", G, None, 200, 200),
    ("patch", G, lambda w: {"name": "Renamed"}, 403, 200),
    ("delete", G, None, 403, 204),
    ("get", G + "/members", None, 200, 200),
    ("post", G + "/members", lambda w: {"username": "xavi"}, 403, 202),  # an invitation, not a membership
    ("get", G + "/members/{ms}", None, 200, 200),
    ("patch", G + "/members/{ms}", lambda w: {"role": "owner"}, 403, 200),
    ("delete", G + "/members/{ms}", None, 403, 204),
    ("get", G + "/invites", None, 403, 200),
    ("post", G + "/invites", lambda w: {"days": 2}, 403, 201),
    ("get", G + "/invites/{i}", None, 403, 200),
    ("delete", G + "/invites/{i}", None, 403, 200),
    ("get", G + "/players", None, 200, 200),
    ("post", G + "/players", lambda w: {"name": "Newcomer"}, 201, 201),
    ("get", G + "/players/{p}", None, 200, 200),
    ("patch", G + "/players/{p}", lambda w: {"name": "Renamed"}, 200, 200),
    ("delete", G + "/players/{q}", None, 204, 204),
    ("post", G + "/players/{q}/merge", lambda w: {"into": w.table.players[4].pk}, 403, 200),
    ("post", G + "/players/{p}/merge", lambda w: {"into": w.table.players[2].pk}, 403, 400),  # sat together
    ("get", G + "/matches", None, 200, 200),
    ("post", G + "/matches", lambda w: {"ruleset": "njet", "players": [p.pk for p in w.table.players]}, 201, 201),
    ("get", G + "/export", None, 200, 200),
    ("get", G + "/export/rounds.csv", None, 200, 200),
    ("post", G + "/import", lambda w: {"format": "nope"}, 403, 400),
    ("get", G + "/stats", None, 200, 200),
    ("get", "/api/v1/players/{p}/stats", None, 200, 200),
    ("get", M, None, 200, 200),
    ("patch", M, lambda w: {"options": {"recording": "difference"}, "version": 2}, 200, 200),
    ("delete", M + "?version=2", None, 403, 204),
    ("post", M + "/finish", lambda w: {"version": 2}, 200, 200),
    ("post", M + "/reopen", lambda w: {"version": 2}, 409, 409),
    ("post", M + "/rescore", None, 200, 200),
    ("post", M + "/undo", lambda w: {"version": 2}, 200, 200),
    ("get", M + "/scoreboard", None, 200, 200),
    ("get", M + "/events", None, 200, 200),
    ("get", M + "/rounds", None, 200, 200),
    ("post", M + "/rounds", lambda w: {"facts": njet_facts()}, 201, 201),
    ("get", M + "/rounds/1", None, 200, 200),
    ("patch", M + "/rounds/1", lambda w: {"facts": njet_facts(points_per_trick=3), "version": 1}, 200, 200),
    ("delete", M + "/rounds/1?version=1", None, 200, 200),
    ("post", M + "/rounds/1/undo", lambda w: {"version": 1}, 200, 200),
]


def _path(template: str, w: World) -> str:
    return template.format(
        g=w.table.group.pk,
        m=w.match.pk,
        p=w.table.players[1].pk,
        q=w.guest.pk,
        i=w.invite.pk,
        ms=w.other_membership.pk,
        t=w.invite.token,
    )


def _call(client: Any, method: str, path: str, body: Any) -> Any:
    if body is None:
        return getattr(client, method)(path)
    return getattr(client, method)(path, body, format="json")


def _id(case: Case) -> str:
    return f"{case[0].upper()} {case[1]}"


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_anonymous_gets_401(world, client_for, case):
    method, template, body, _, _ = case
    response = _call(client_for(None), method, _path(template, world), body(world) if body else None)
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_outsider_gets_404_as_if_the_group_did_not_exist(world, client_for, case):
    method, template, body, _, _ = case
    api = client_for(world.table.outsider)
    response = _call(api, method, _path(template, world), body(world) if body else None)
    assert response.status_code == 404, response.content
    # the same answer as for ids that exist nowhere
    missing = _call(
        api, method, template.format(g=999999, m=999999, p=1, q=1, i=1, ms=1, t="x"), body(world) if body else None
    )
    assert missing.status_code == 404
    assert response.json() == missing.json()
    assert Round.objects.filter(match=world.match).count() == 1


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_member(world, client_for, case):
    method, template, body, expected, _ = case
    response = _call(client_for(world.table.member), method, _path(template, world), body(world) if body else None)
    assert response.status_code == expected, response.content


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_owner(world, client_for, case):
    method, template, body, _, expected = case
    response = _call(client_for(world.table.owner), method, _path(template, world), body(world) if body else None)
    assert response.status_code == expected, response.content


def test_groups_list_shows_only_the_callers_groups(world, client_for):
    services.group_create(name="Elsewhere", user=world.table.outsider)
    assert client_for(None).get("/api/v1/groups").status_code == 401
    assert [g["name"] for g in client_for(world.table.outsider).get("/api/v1/groups").json()["results"]] == [
        "Elsewhere"
    ]
    mine = client_for(world.table.member).get("/api/v1/groups").json()["results"]
    assert [(g["name"], g["my_role"], g["member_count"], g["player_count"]) for g in mine] == [
        ("Thursday table", "member", 3, 6)
    ]


def test_anyone_signed_in_can_create_a_group(world, client_for):
    assert client_for(None).post("/api/v1/groups", {"name": "Mine"}, format="json").status_code == 401
    created = client_for(world.table.outsider).post("/api/v1/groups", {"name": "Mine"}, format="json")
    assert (created.status_code, created.json()["my_role"]) == (201, "owner")


def test_an_invite_link_lets_an_outsider_in(world, client_for):
    api = client_for(world.table.outsider)
    token = world.invite.token
    assert client_for(None).get(f"/api/v1/invites/{token}").status_code == 401
    preview = api.get(f"/api/v1/invites/{token}")
    assert preview.json() == {
        "group": "Thursday table",
        "player_name": "Guest",
        "expires_at": preview.json()["expires_at"],
        "valid": True,
    }
    assert api.get(f"{G.format(g=world.table.group.pk)}/players").status_code == 404

    joined = api.post(f"/api/v1/invites/{token}/accept")

    assert (joined.status_code, joined.json()["my_role"]) == (200, "member")
    players = api.get(f"{G.format(g=world.table.group.pk)}/players").json()["results"]
    assert next(p for p in players if p["name"] == "Guest")["username"] == "xavi"
    assert api.get("/api/v1/invites/not-a-real-token").status_code == 404


def test_a_revoked_invite_is_refused(world, client_for):
    owner = client_for(world.table.owner)
    owner.delete(f"{G.format(g=world.table.group.pk)}/invites/{world.invite.pk}")
    refused = client_for(world.table.outsider).post(f"/api/v1/invites/{world.invite.token}/accept")
    assert refused.status_code == 409
    assert not Membership.objects.filter(user=world.table.outsider).exists()


def test_the_rules_calculator_and_referee_need_no_account(world, client_for):
    anonymous = client_for(None)
    assert anonymous.get("/api/v1/rulesets").status_code == 200
    assert anonymous.get("/api/v1/rulesets/njet").status_code == 200
    score = anonymous.post(
        "/api/v1/rulesets/njet/score", {"players": list("ABCDE"), "facts": njet_facts()}, format="json"
    )
    assert score.status_code == 200
    assert Round.objects.count() == 1  # nothing stored


def test_me_and_tokens(world, client_for):
    assert client_for(None).get("/api/v1/me").status_code == 401
    assert client_for(world.table.member).get("/api/v1/me").json()["username"] == "mate"
