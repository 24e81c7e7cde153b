"""Security issue 32 ("Hold the door"), the rows "invites", "members", "PATCH /groups/{g}/players/{p}" and
"names" (for players and groups), through the services, the API and the pages."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from scoring import services
from scoring.models import Group, Invite, InviteUse, Membership, Player
from scoring.text.names import name_clean
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def page_client(user: Any, language: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def _join_link(invite: Invite) -> str:
    return f"/join/{invite.token}/"


# --- invites: removal revokes the way back in; a link is used once per person ------------------------------------


def test_a_removed_member_cannot_come_back_through_the_old_link(table, client_for):
    """Row "invites": an owner removes a member; the member opens the old invite link and is NOT back in."""
    newcomer = UserFactory(username="nora")
    invite = services.invite_create(group=table.group, user=table.owner)
    services.invite_accept(invite=invite, user=newcomer)
    assert InviteUse.objects.filter(invite=invite, user=newcomer).exists()  # who joined via which invite
    membership = Membership.objects.get(group=table.group, user=newcomer)

    services.membership_remove(membership=membership, by=table.owner)

    with pytest.raises(services.Conflict, match="removed you"):
        services.invite_accept(invite=invite, user=newcomer)
    answer = client_for(newcomer).post(f"/api/v1/invites/{invite.token}/accept")
    assert answer.status_code == 409
    assert "removed you" in answer.json()["detail"]
    # the page says so before any tap, and a POST does not get them in either
    page = page_client(newcomer).get(_join_link(invite))
    assert page.status_code == 403
    assert "An owner removed you from this group" in page.content.decode()
    assert "Join the group" not in page.content.decode()
    assert page_client(newcomer).post(_join_link(invite)).status_code == 403
    assert not Membership.objects.filter(group=table.group, user=newcomer).exists()
    invite.refresh_from_db()
    assert invite.accepted_count == 1


def test_a_removed_member_cannot_use_another_link_made_before_the_removal(table):
    """Row "invites": removal revokes that member's way back in through every link that existed then."""
    newcomer = UserFactory(username="nora")
    services.invite_accept(invite=services.invite_create(group=table.group, user=table.owner), user=newcomer)
    shared_in_the_chat = services.invite_create(group=table.group, user=table.owner)
    services.membership_remove(membership=Membership.objects.get(user=newcomer, group=table.group), by=table.owner)

    with pytest.raises(services.Conflict):
        services.invite_accept(invite=shared_in_the_chat, user=newcomer)

    # an owner who changes their mind invites them again, and that works
    services.member_invite(group=table.group, username="nora", by=table.owner)
    again = Invite.objects.get(group=table.group, invitee=newcomer)
    services.invite_accept(invite=again, user=newcomer)
    assert Membership.objects.filter(group=table.group, user=newcomer).exists()


def test_an_invite_link_is_used_once_per_person(table, client_for):
    """Row "invites": a second acceptance by the same person is a no-op, not a second membership."""
    newcomer = UserFactory(username="nora")
    invite = services.invite_create(group=table.group, user=table.owner)
    api = client_for(newcomer)

    first = api.post(f"/api/v1/invites/{invite.token}/accept")
    second = api.post(f"/api/v1/invites/{invite.token}/accept")

    assert (first.status_code, second.status_code) == (200, 200)
    assert Membership.objects.filter(group=table.group, user=newcomer).count() == 1
    assert InviteUse.objects.filter(invite=invite).count() == 1
    invite.refresh_from_db()
    assert invite.accepted_count == 1
    # after leaving, the same link does not let them in a second time
    services.group_leave(group=table.group, user=newcomer)
    answer = api.post(f"/api/v1/invites/{invite.token}/accept")
    assert answer.status_code == 409
    assert "already used" in answer.json()["detail"]
    assert not Membership.objects.filter(group=table.group, user=newcomer).exists()


# --- members: adding a username is an invitation; no username-existence leak --------------------------------------


def test_adding_a_username_is_an_invitation_with_the_same_answer_for_unknown_names(table, client_for):
    """Row "members": an owner adds a username → an invitation only, the same answer whether or not the account
    exists; the user sees it and accepts → member."""
    nora = UserFactory(username="nora")
    owner = client_for(table.owner)

    known = owner.post(f"/api/v1/groups/{table.group.pk}/members", {"username": "nora"}, format="json")
    unknown = owner.post(f"/api/v1/groups/{table.group.pk}/members", {"username": "nobody-42"}, format="json")

    assert (known.status_code, known.json()) == (unknown.status_code, unknown.json())
    assert known.status_code == 202
    assert known.json() == {"detail": "If that user exists, they will see your invitation."}
    assert not Membership.objects.filter(group=table.group, user=nora).exists()
    # the owner's list of invitations shows both names the same way
    listed = owner.get(f"/api/v1/groups/{table.group.pk}/invites").json()["results"]
    by_name = {row["invitee_name"]: row for row in listed if row["invitee_name"]}
    assert set(by_name) == {"nora", "nobody-42"}
    assert {k: v for k, v in by_name["nora"].items() if k in {"valid", "accepted_count", "revoked_at"}} == {
        k: v for k, v in by_name["nobody-42"].items() if k in {"valid", "accepted_count", "revoked_at"}
    }

    nora_api = client_for(nora)
    waiting = nora_api.get("/api/v1/invitations").json()["results"]
    assert [(w["group_name"], w["invited_by"]) for w in waiting] == [("Thursday table", "olga")]
    assert client_for(table.member).get("/api/v1/invitations").json()["results"] == []
    # nobody else can accept nora's invitation, not even with its token
    stolen = client_for(table.outsider).post(by_name["nora"]["accept_url"])
    assert stolen.status_code == 403
    accepted = nora_api.post(f"/api/v1/invitations/{waiting[0]['id']}/accept")
    assert accepted.status_code == 200
    assert Membership.objects.get(group=table.group, user=nora).role == Membership.Role.MEMBER
    assert nora_api.get("/api/v1/invitations").json()["results"] == []


def test_the_group_page_invites_by_username_and_the_home_page_offers_join_or_decline(table):
    """Row "members": on the pages, the owner's answer does not say whether the username exists; the invited
    user accepts or declines on their home page, and a decline looks to the owner like no answer yet."""
    nora = UserFactory(username="nora")
    owner = page_client(table.owner)
    answers = []
    for name in ("nora", "nobody-42"):
        response = owner.post(f"/groups/{table.group.pk}/members/invite", {"username": name}, follow=True)
        answers.append(response.content.decode())
        assert "If that user exists, they will see your invitation." in answers[-1]
    group_page = owner.get(f"/groups/{table.group.pk}/").content.decode()
    assert "Invited, no answer yet" in group_page
    assert "nora" in group_page and "nobody-42" in group_page

    home = page_client(nora, "hu").get("/").content.decode()
    assert "olga meghívott ide: Thursday table." in home
    home_en = page_client(nora).get("/").content.decode()
    assert "olga invites you to Thursday table." in home_en
    invite = Invite.objects.get(group=table.group, invitee=nora)
    declined = page_client(nora).post(f"/invitations/{invite.pk}/decline", follow=True)
    assert "You declined the invitation to Thursday table." in declined.content.decode()
    assert "olga invites you" not in page_client(nora).get("/").content.decode()
    assert not Membership.objects.filter(group=table.group, user=nora).exists()
    after = owner.get(f"/groups/{table.group.pk}/").content.decode()
    assert after.count("Withdraw the invitation of") == 2  # declined nora and unknown nobody-42 look alike
    # a declined invitation cannot be accepted afterwards
    assert page_client(nora).post(f"/invitations/{invite.pk}/accept").status_code == 404


def test_the_invited_user_joins_from_the_home_page(table):
    """Row "members": the user accepts the invitation → member."""
    nora = UserFactory(username="nora")
    services.member_invite(group=table.group, username="nora", by=table.owner)
    invite = Invite.objects.get(group=table.group, invitee=nora)
    joined = page_client(nora).post(f"/invitations/{invite.pk}/accept")
    assert joined.status_code == 302
    assert joined["Location"] == f"/groups/{table.group.pk}/"
    assert Membership.objects.filter(group=table.group, user=nora).exists()


# --- PATCH /groups/{g}/players/{p}: a refused write changes nothing -----------------------------------------------


def test_a_member_renaming_and_linking_another_players_account_is_refused_whole(table, client_for):
    """Row "PATCH /groups/{g}/players/{p}": a member's request that renames another's player and links a user is
    answered 403, and nothing (not the rename either) is saved."""
    anna = table.players[0]  # linked to the owner
    bence = table.players[1]
    api = client_for(table.member)
    url = f"/api/v1/groups/{table.group.pk}/players"

    answer = api.patch(f"{url}/{bence.pk}", {"name": "Hijacked", "user": table.owner.pk}, format="json")
    assert answer.status_code == 403
    bence.refresh_from_db()
    assert (bence.name, bence.user_id) == ("Bence", None)

    answer = api.patch(f"{url}/{anna.pk}", {"name": "Hijacked", "user": None}, format="json")
    assert answer.status_code == 403
    anna.refresh_from_db()
    assert (anna.name, anna.user_id) == ("Anna", table.owner.pk)

    # a refused link (not a member) also keeps the new name out, for an owner too
    answer = client_for(table.owner).patch(
        f"{url}/{bence.pk}", {"name": "Renamed", "user": table.outsider.pk}, format="json"
    )
    assert answer.status_code == 400
    bence.refresh_from_db()
    assert bence.name == "Bence"
    # what a member may do still works: rename anyone, link themselves to a guest
    answer = api.patch(f"{url}/{bence.pk}", {"name": "Bence B", "user": table.member.pk}, format="json")
    assert answer.status_code == 200, answer.json()
    bence.refresh_from_db()
    assert (bence.name, bence.user_id) == ("Bence B", table.member.pk)


# --- names: NFKC, no invisible or bidi-control characters ---------------------------------------------------------

REFUSED = [
    "An\u200bna",  # zero-width space
    "\u202eannA",  # right-to-left override
    "Anna\u2066",  # left-to-right isolate
    "\u200d",  # a zero-width joiner alone
    "\u3164",  # Hangul filler: a letter that draws nothing
    "Dan\u00adi",  # soft hyphen
]
NORMALISED = [
    ("\uff21\uff4e\uff4e\uff41", "Anna"),  # full-width letters
    ("Jo\u0301zsef", "J\u00f3zsef"),  # a combining accent becomes the single letter
    ("\ufb01nn", "finn"),  # the fi ligature
    ("  Anna\u00a0\u3000Kiss ", "Anna Kiss"),  # no-break and ideographic spaces
]


@pytest.mark.parametrize("value", REFUSED)
def test_name_clean_refuses_invisible_and_direction_characters(value):
    """Row "names": a zero-width-space name and an RTL-override name are refused."""
    with pytest.raises(ValueError, match="invisible or text-direction"):
        name_clean(value)


@pytest.mark.parametrize(("value", "expected"), NORMALISED)
def test_name_clean_normalises_to_nfkc(value, expected):
    """Row "names": names are Unicode-normalised (NFKC)."""
    assert name_clean(value) == expected


@pytest.mark.parametrize("value", REFUSED[:2])
def test_player_and_group_names_with_invisible_characters_are_refused_by_the_api(table, client_for, value):
    """Row "names": zero-width and RTL-override player and group names are refused through the API."""
    api = client_for(table.owner)
    players = api.post(f"/api/v1/groups/{table.group.pk}/players", {"name": value}, format="json")
    assert players.status_code == 400
    assert "invisible" in " ".join(players.json()["errors"]["name"])
    renamed = api.patch(
        f"/api/v1/groups/{table.group.pk}/players/{table.players[1].pk}", {"name": value}, format="json"
    )
    assert renamed.status_code == 400
    group = api.patch(f"/api/v1/groups/{table.group.pk}", {"name": value}, format="json")
    assert group.status_code == 400
    created = api.post("/api/v1/groups", {"name": value}, format="json")
    assert created.status_code == 400
    assert Player.objects.filter(group=table.group).count() == 5
    assert sorted(Group.objects.values_list("name", flat=True)) == ["Thursday table"]
    assert Player.objects.get(pk=table.players[1].pk).name == "Bence"


def test_nfkc_differing_names_are_stored_normalised_and_collide(table, client_for):
    """Row "names": an NFKC-differing name is stored normalised, so full-width "Ａｎｎａ" is the existing Anna."""
    api = client_for(table.owner)
    twin = api.post(f"/api/v1/groups/{table.group.pk}/players", {"name": "\uff21\uff4e\uff4e\uff41"}, format="json")
    assert twin.status_code == 400
    assert "already a player called Anna" in " ".join(twin.json()["errors"]["name"])
    added = api.post(f"/api/v1/groups/{table.group.pk}/players", {"name": "Jo\u0301zsef"}, format="json")
    assert added.status_code == 201
    assert added.json()["name"] == "J\u00f3zsef"
    group = api.post("/api/v1/groups", {"name": "\uff34\uff48\uff55 club"}, format="json")
    assert group.status_code == 201
    assert group.json()["name"] == "Thu club"


def test_the_pages_refuse_invisible_names_and_store_normalised_ones(table):
    """Row "names": the same on the pages (add and rename a player, create and rename a group), in Hungarian."""
    owner = page_client(table.owner, "hu")
    added = owner.post(f"/groups/{table.group.pk}/players", {"name": "Zs\u200bofi"})
    assert added.status_code == 400
    assert "láthatatlan" in added.content.decode()
    assert not Player.objects.filter(group=table.group, name__startswith="Zs").exists()
    bence = table.players[1]
    renamed = owner.post(f"/groups/{table.group.pk}/players/{bence.pk}/", {"name": "\u202eecneB"})
    assert renamed.status_code == 400
    assert Player.objects.get(pk=bence.pk).name == "Bence"
    owner.post(f"/groups/{table.group.pk}/rename", {"name": "Pe\u200btek"})
    assert Group.objects.get(pk=table.group.pk).name == "Thursday table"
    owner.post(f"/groups/{table.group.pk}/rename", {"name": "\uff30\uff45\uff54\uff45\uff4b"})
    assert Group.objects.get(pk=table.group.pk).name == "Petek"
    owner.post("/groups/new", {"name": "\u202eKlub", "player_name": ""})
    assert Group.objects.count() == 1
    owner.post(f"/groups/{table.group.pk}/players", {"name": "\uff3a\uff53\uff4f\uff46\uff49"})
    assert Player.objects.filter(group=table.group, name="Zsofi").exists()
