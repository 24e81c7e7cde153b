"""Reads of groups, their members, invitations and players. Visibility lives here: an outsider asking for a
group's data gets ``Http404`` (never 403), so nobody can learn that a group exists."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, OuterRef, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.http import Http404
from django.utils import timezone

from scoring.models import Group, Invite, Membership, Player
from scoring.selectors.common import _pk
from scoring.text.collation import sorted_by_name


def _role_subquery(user: Any) -> Subquery:
    return Subquery(Membership.objects.filter(group=OuterRef("pk"), user=user).values("role")[:1])


def group_list(*, user: Any) -> QuerySet[Group]:
    """The groups ``user`` belongs to, with ``my_role`` and member/player counts (one query)."""
    if not user.is_authenticated:
        return Group.objects.none()
    members = Membership.objects.filter(group=OuterRef("pk")).values("group").annotate(n=Count("id")).values("n")
    players = (
        Player.objects.filter(group=OuterRef("pk"), merged_into__isnull=True, archived_at__isnull=True)
        .values("group")
        .annotate(n=Count("id"))
        .values("n")
    )
    return (
        Group.objects.filter(memberships__user=user)
        .annotate(
            my_role=_role_subquery(user),
            member_count=Coalesce(Subquery(members), 0),
            player_count=Coalesce(Subquery(players), 0),
        )
        .order_by("name", "id")
    )


def group_list_sorted(*, user: Any) -> list[Group]:
    """``group_list`` in the active language's alphabetical order (the database cannot collate Hungarian)."""
    return sorted_by_name(group_list(user=user))


def group_get(*, user: Any, group_id: Any) -> Group:
    """The group if ``user`` is a member, else Http404 (also for a group that does not exist)."""
    try:
        return group_list(user=user).get(pk=_pk(group_id))
    except Group.DoesNotExist:
        raise Http404 from None


def membership_list(*, group: Group) -> QuerySet[Membership]:
    return Membership.objects.filter(group=group).select_related("user").order_by("id")


def membership_get(*, group: Group, membership_id: Any) -> Membership:
    try:
        return membership_list(group=group).select_related("group").get(pk=_pk(membership_id))
    except Membership.DoesNotExist:
        raise Http404 from None


def invite_list(*, group: Group) -> QuerySet[Invite]:
    return Invite.objects.filter(group=group).select_related("player", "created_by", "group")


def invite_get(*, group: Group, invite_id: Any) -> Invite:
    try:
        return invite_list(group=group).get(pk=_pk(invite_id))
    except Invite.DoesNotExist:
        raise Http404 from None


def invitation_list_for(*, user: Any) -> QuerySet[Invite]:
    """The personal invitations waiting for ``user``'s answer (not declined, revoked, expired or used)."""
    if user is None or not user.is_authenticated:
        return Invite.objects.none()
    return (
        Invite.objects.filter(
            invitee=user,
            revoked_at__isnull=True,
            declined_at__isnull=True,
            accepted_count=0,
            expires_at__gt=timezone.now(),
        )
        .exclude(group__memberships__user=user)
        .select_related("group", "created_by")
        .order_by("-created_at", "-id")
    )


def invitation_get(*, user: Any, invite_id: Any) -> Invite:
    """One of ``user``'s waiting invitations; any other id is simply not found."""
    try:
        return invitation_list_for(user=user).get(pk=_pk(invite_id))
    except Invite.DoesNotExist:
        raise Http404 from None


def invite_by_token(*, token: str) -> Invite:
    """An invite by its secret token (whoever holds the link may see which group it is for)."""
    invite = Invite.objects.select_related("group", "player").filter(token=token).first()
    if invite is None:
        raise Http404
    return invite


# --- players ------------------------------------------------------------------------------------


def player_list(*, group: Group, include_merged: bool = False, include_archived: bool = False) -> QuerySet[Player]:
    """The group's players with ``matches_played``: by default neither merged nor archived (removed) ones."""
    players = (
        Player.objects.filter(group=group).select_related("user").annotate(matches_played=Count("seats", distinct=True))
    )
    if not include_merged:
        players = players.filter(merged_into__isnull=True)
    if not include_archived:
        players = players.filter(archived_at__isnull=True)
    return players.order_by("name", "id")


def player_list_sorted(*, group: Group, archived: bool = False) -> list[Player]:
    """The active players (or, with ``archived``, only the removed ones) in the active language's order."""
    players = player_list(group=group, include_archived=archived)
    if archived:
        players = players.filter(archived_at__isnull=False)
    return sorted_by_name(players)


def player_get(*, group: Group, player_id: Any, include_merged: bool = False, include_archived: bool = False) -> Player:
    try:
        players = player_list(group=group, include_merged=include_merged, include_archived=include_archived)
        return players.select_related("group").get(pk=_pk(player_id))
    except Player.DoesNotExist:
        raise Http404 from None
