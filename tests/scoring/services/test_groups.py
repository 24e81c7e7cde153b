"""Groups, memberships, invites and players through the services (issue 2's service side)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import override_settings
from django.utils import timezone

from scoring import services
from scoring.models import Group, Invite, Membership, Player, RoundEvent, Score, Seat
from tests.factories import UserFactory
from tests.scoring.helpers import record

pytestmark = pytest.mark.django_db


def test_group_create_makes_the_creator_owner_and_optionally_their_player():
    user = UserFactory()
    group = services.group_create(name="  Friday   night ", user=user, player_name="Olga")

    assert group.name == "Friday night"
    assert Membership.objects.get(group=group).role == "owner"
    player = Player.objects.get(group=group)
    assert (player.name, player.user) == ("Olga", user)


def test_group_create_needs_a_name():
    with pytest.raises(services.ValidationFailed) as caught:
        services.group_create(name="   ", user=UserFactory())
    assert list(caught.value.problems) == ["name"]


def test_only_owners_rename_or_delete_a_group(table):
    with pytest.raises(services.NotAllowed):
        services.group_rename(group=table.group, name="Ours now", user=table.member)
    with pytest.raises(services.NotAllowed):
        services.group_delete(group=table.group, user=table.member)

    services.group_rename(group=table.group, name="Renamed", user=table.owner)
    assert Group.objects.get(pk=table.group.pk).name == "Renamed"


def test_deleting_a_group_deletes_its_matches_and_rounds(table, njet_match):
    record(njet_match, table.member, n=2)
    services.group_delete(group=table.group, user=table.owner)
    assert not Group.objects.exists()
    assert not Score.objects.exists()
    assert not Seat.objects.exists()


def test_a_group_always_keeps_an_owner(table):
    owner_membership = Membership.objects.get(group=table.group, user=table.owner)
    with pytest.raises(services.Conflict):
        services.membership_role(membership=owner_membership, role="member", by=table.owner)
    with pytest.raises(services.Conflict):
        services.membership_remove(membership=owner_membership, by=table.owner)

    member_membership = Membership.objects.get(group=table.group, user=table.member)
    services.membership_role(membership=member_membership, role="owner", by=table.owner)
    services.membership_role(membership=owner_membership, role="member", by=table.member)
    assert Membership.objects.get(pk=owner_membership.pk).role == "member"


def test_members_may_leave_but_not_remove_others(table):
    other = services.membership_add(group=table.group, user=UserFactory(), by=table.owner)
    mine = Membership.objects.get(group=table.group, user=table.member)
    with pytest.raises(services.NotAllowed):
        services.membership_remove(membership=other, by=table.member)
    services.membership_remove(membership=mine, by=table.member)
    assert not Membership.objects.filter(pk=mine.pk).exists()


def test_membership_add_is_idempotent_and_owner_only(table):
    newcomer = UserFactory()
    with pytest.raises(services.NotAllowed):
        services.membership_add(group=table.group, user=newcomer, by=table.member)
    first = services.membership_add(group=table.group, user=newcomer, by=table.owner)
    again = services.membership_add(group=table.group, user=newcomer, role="owner", by=table.owner)
    assert first.pk == again.pk
    assert again.role == "member"


@override_settings(INVITE_DAYS=3)
def test_invite_expires_after_the_configured_days(table):
    invite = services.invite_create(group=table.group, user=table.owner)
    assert timedelta(days=3) - (invite.expires_at - timezone.now()) < timedelta(minutes=1)


def test_accepting_an_invite_that_names_a_guest_links_that_player(table):
    guest = table.players[3]
    invite = services.invite_create(group=table.group, user=table.owner, player=guest)
    newcomer = UserFactory()

    membership = services.invite_accept(invite=invite, user=newcomer)

    assert (membership.group, membership.role) == (table.group, "member")
    guest.refresh_from_db()
    assert guest.user == newcomer
    assert Invite.objects.get(pk=invite.pk).accepted_count == 1


def test_revoked_and_expired_invites_cannot_be_accepted(table):
    revoked = services.invite_revoke(
        invite=services.invite_create(group=table.group, user=table.owner), user=table.owner
    )
    expired = services.invite_create(group=table.group, user=table.owner)
    Invite.objects.filter(pk=expired.pk).update(expires_at=timezone.now() - timedelta(seconds=1))

    for invite in (revoked, expired):
        with pytest.raises(services.Conflict):
            services.invite_accept(invite=invite, user=UserFactory())
    assert Membership.objects.filter(group=table.group).count() == 2


def test_only_owners_manage_invites_and_an_invite_cannot_name_a_linked_player(table):
    with pytest.raises(services.NotAllowed):
        services.invite_create(group=table.group, user=table.member)
    with pytest.raises(services.ValidationFailed):
        services.invite_create(group=table.group, user=table.owner, player=table.players[0])  # linked to the owner


def test_player_names_are_unique_in_a_group_ignoring_case(table):
    with pytest.raises(services.ValidationFailed) as caught:
        services.player_create(group=table.group, name="anna", user=table.member)
    assert list(caught.value.problems) == ["name"]
    services.player_rename(player=table.players[1], name="Benedek", user=table.member)
    assert Player.objects.get(pk=table.players[1].pk).name == "Benedek"


def test_linking_players_to_accounts(table):
    guest = table.players[2]
    with pytest.raises(services.ValidationFailed):
        services.player_link(player=guest, linked_user=table.outsider, user=table.owner)  # not a member
    with pytest.raises(services.ValidationFailed):
        services.player_link(player=guest, linked_user=table.owner, user=table.owner)  # already has a player
    with pytest.raises(services.NotAllowed):
        services.player_link(player=table.players[3], linked_user=table.owner, user=table.member)

    services.player_link(player=guest, linked_user=table.member, user=table.member)  # a member claims a guest
    assert Player.objects.get(pk=guest.pk).user == table.member
    services.player_link(player=guest, linked_user=None, user=table.member)
    assert Player.objects.get(pk=guest.pk).is_guest


def test_a_player_who_played_cannot_be_deleted(table, njet_match):
    with pytest.raises(services.Conflict):
        services.player_delete(player=table.players[1], user=table.member)
    spare = services.player_create(group=table.group, name="Spare", user=table.member)
    services.player_delete(player=spare, user=table.member)
    assert not Player.objects.filter(pk=spare.pk).exists()


def test_merging_players_moves_their_matches_and_scores(table, njet_match):
    record(njet_match, table.member, n=2)
    duplicate = services.player_create(group=table.group, name="Eszti", user=table.owner)
    other = services.match_create(
        group=table.group,
        ruleset="njet",
        options={},
        player_ids=[p.pk for p in table.players[:4]] + [duplicate.pk],
        user=table.owner,
    )
    record(other, table.member)
    with pytest.raises(services.ValidationFailed):  # they sat at the same table: different people
        services.player_merge(source=duplicate, target=table.players[0], user=table.owner)
    with pytest.raises(services.NotAllowed):
        services.player_merge(source=duplicate, target=table.players[4], user=table.member)

    kept = services.player_merge(source=duplicate, target=table.players[4], user=table.owner)

    duplicate.refresh_from_db()
    assert duplicate.merged_into == kept
    assert Seat.objects.filter(player=kept).count() == 2
    assert Score.objects.filter(player=kept).count() == 3
    assert not Score.objects.filter(player=duplicate).exists()
    assert RoundEvent.objects.filter(match=other, action="merge").count() == 1
    # the name is free again and the retired record stays out of the way
    services.player_create(group=table.group, name="Eszti", user=table.owner)


def test_merging_a_linked_player_into_a_guest_keeps_the_link(table):
    kept = services.player_merge(source=table.players[0], target=table.players[1], user=table.owner)
    assert kept.user == table.owner


def test_match_create_checks_the_players_and_options_through_the_ruleset(table):
    ids = [p.pk for p in table.players]
    with pytest.raises(services.ValidationFailed) as caught:
        services.match_create(group=table.group, ruleset="mue", options={}, player_ids=ids[:2], user=table.owner)
    assert "players" in caught.value.problems
    with pytest.raises(services.ValidationFailed) as caught:
        services.match_create(
            group=table.group, ruleset="njet", options={"recording": "sideways"}, player_ids=ids, user=table.owner
        )
    assert "options.recording" in caught.value.problems
    with pytest.raises(services.ValidationFailed) as caught:
        services.match_create(group=table.group, ruleset="poker", options={}, player_ids=ids, user=table.owner)
    assert "ruleset" in caught.value.problems
    with pytest.raises(services.ValidationFailed):
        services.match_create(
            group=table.group, ruleset="njet", options={}, player_ids=[*ids[:4], ids[0]], user=table.owner
        )
    elsewhere = services.group_create(name="Elsewhere", user=table.owner, player_name="Somebody")
    foreign = Player.objects.get(group=elsewhere)
    with pytest.raises(services.ValidationFailed):
        services.match_create(
            group=table.group, ruleset="njet", options={}, player_ids=[*ids[:4], foreign.pk], user=table.owner
        )

    match = services.match_create(group=table.group, ruleset="njet", options={}, player_ids=ids, user=table.member)
    assert match.options == {"recording": "full", "tie_rule": "english"}
    assert list(match.seats.values_list("player_id", flat=True)) == ids


def test_changing_the_options_rescores_every_round(table, njet_match):
    first, _ = record(njet_match, table.member, n=2)
    services.match_options_change(
        match=njet_match, options={"recording": "difference"}, expected_version=3, user=table.member
    )
    first.refresh_from_db()
    assert first.points == [2, 2, 2, 0, 0]  # the higher team scores the difference, the other 0
    assert RoundEvent.objects.filter(action="rescore").count() == 2
    assert RoundEvent.objects.filter(action="options").count() == 1
    with pytest.raises(services.StaleVersion):
        services.match_options_change(match=njet_match, options={}, expected_version=3, user=table.member)


def test_finish_by_hand_and_reopen(table, njet_match):
    record(njet_match, table.member)
    match = services.match_finish(match=njet_match, expected_version=2, user=table.member)
    assert (match.state, match.finish_reason) == ("finished", "manual")
    with pytest.raises(services.Conflict):
        record(match, table.member)
    match = services.match_reopen(match=match, expected_version=3, user=table.member)
    assert match.state == "open"
    record(match, table.member)


def test_a_member_may_delete_an_empty_match_but_only_an_owner_one_with_rounds(table, njet_match):
    empty = services.match_create(
        group=table.group, ruleset="njet", options={}, player_ids=[p.pk for p in table.players], user=table.member
    )
    services.match_delete(match=empty, expected_version=1, user=table.member)
    record(njet_match, table.member)
    with pytest.raises(services.NotAllowed):
        services.match_delete(match=njet_match, expected_version=2, user=table.member)
    services.match_delete(match=njet_match, expected_version=2, user=table.owner)
