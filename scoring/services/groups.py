"""Groups, memberships and invites.

Only members may change a group's data; only owners manage members and invites.
Visibility (an outsider gets "not found") is the selectors' job; these services
check the role of a user who can already see the group.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from scoring.models import Group, Invite, Membership, Player

from .errors import Conflict, NotAllowed, ValidationFailed

Role = Membership.Role


def membership_of(*, group: Group, user: Any) -> Membership | None:
    if user is None or not user.is_authenticated:
        return None
    return Membership.objects.filter(group=group, user=user).first()


def owner_require(*, group: Group, user: Any) -> None:
    """Raise NotAllowed unless ``user`` owns ``group``."""
    membership = membership_of(group=group, user=user)
    if membership is None or membership.role != Role.OWNER:
        raise NotAllowed(gettext("Only an owner of the group can do this."))


def member_require(*, group: Group, user: Any) -> Membership:
    membership = membership_of(group=group, user=user)
    if membership is None:
        raise NotAllowed(gettext("Only members of the group can do this."))
    return membership


def _name_clean(name: Any, *, field: str = "name", max_length: int = 80) -> str:
    if not isinstance(name, str) or not name.strip():
        raise ValidationFailed.single(field, gettext("A name is required."))
    name = " ".join(name.split())
    if len(name) > max_length:
        raise ValidationFailed.single(field, gettext("At most %(n)d characters, please.") % {"n": max_length})
    return name


@transaction.atomic
def group_create(*, name: str, user: Any, player_name: str | None = None) -> Group:
    """Create a group owned by ``user``; with ``player_name`` also a player linked to that user."""
    group = Group.objects.create(name=_name_clean(name), created_by=user)
    Membership.objects.create(group=group, user=user, role=Role.OWNER)
    if player_name:
        from .players import player_create

        player_create(group=group, name=player_name, user=user, linked_user=user)
    return group


def group_rename(*, group: Group, name: str, user: Any) -> Group:
    owner_require(group=group, user=user)
    group.name = _name_clean(name)
    group.save(update_fields=["name"])
    return group


def group_delete(*, group: Group, user: Any) -> None:
    """Delete the group with all its players, matches and rounds (owners only)."""
    owner_require(group=group, user=user)
    group_id = group.pk
    group.delete()
    from .common import stats_group_after_commit

    stats_group_after_commit(group_id=group_id)


def _owners_left(group: Group, *, without: Membership) -> int:
    return Membership.objects.filter(group=group, role=Role.OWNER).exclude(pk=without.pk).count()


def membership_add(*, group: Group, user: Any, role: str = Role.MEMBER, by: Any = None) -> Membership:
    """Add ``user`` to ``group`` (idempotent: an existing membership is returned unchanged).

    ``by`` is the acting user; when given, they must be an owner.
    """
    if by is not None:
        owner_require(group=group, user=by)
    if role not in Role.values:
        raise ValidationFailed.single("role", gettext("Role must be owner or member."))
    try:
        with transaction.atomic():
            membership, _ = Membership.objects.get_or_create(group=group, user=user, defaults={"role": role})
    except IntegrityError:
        membership = Membership.objects.get(group=group, user=user)
    return membership


@transaction.atomic
def membership_role(*, membership: Membership, role: str, by: Any) -> Membership:
    """Make a member an owner or an owner a member; a group always keeps one owner."""
    owner_require(group=membership.group, user=by)
    if role not in Role.values:
        raise ValidationFailed.single("role", gettext("Role must be owner or member."))
    Group.objects.select_for_update().get(pk=membership.group_id)
    if role == Role.MEMBER and membership.role == Role.OWNER and not _owners_left(membership.group, without=membership):
        raise Conflict(gettext("A group needs at least one owner."))
    membership.role = role
    membership.save(update_fields=["role"])
    return membership


@transaction.atomic
def membership_remove(*, membership: Membership, by: Any) -> None:
    """Remove a member (owners may remove anyone; a member may leave); the last owner cannot go."""
    if by is None or by.pk != membership.user_id:
        owner_require(group=membership.group, user=by)
    Group.objects.select_for_update().get(pk=membership.group_id)
    if membership.role == Role.OWNER and not _owners_left(membership.group, without=membership):
        raise Conflict(gettext("A group needs at least one owner."))
    membership.delete()


def invite_create(*, group: Group, user: Any, player: Player | None = None, days: int | None = None) -> Invite:
    """An invite link to ``group`` that expires after ``days`` (default settings.INVITE_DAYS).

    Naming a guest ``player`` links that player to whoever accepts the invite.
    """
    owner_require(group=group, user=user)
    days = settings.INVITE_DAYS if days is None else days
    if not 1 <= days <= 365:
        raise ValidationFailed.single("days", gettext("An invite lasts from 1 to 365 days."))
    if player is not None:
        if player.group_id != group.pk or player.merged_into_id is not None:
            raise ValidationFailed.single("player", gettext("That player is not in this group."))
        if player.user_id is not None:
            raise ValidationFailed.single("player", gettext("That player is already linked to an account."))
    return Invite.objects.create(
        group=group, player=player, created_by=user, expires_at=timezone.now() + timedelta(days=days)
    )


def invite_revoke(*, invite: Invite, user: Any) -> Invite:
    owner_require(group=invite.group, user=user)
    if invite.revoked_at is None:
        invite.revoked_at = timezone.now()
        invite.save(update_fields=["revoked_at"])
    return invite


def invite_is_valid(*, invite: Invite) -> bool:
    return invite.revoked_at is None and invite.expires_at > timezone.now()


@transaction.atomic
def invite_accept(*, invite: Invite, user: Any) -> Membership:
    """Join the invite's group (as a member) and take over the guest player it names, if any."""
    invite = Invite.objects.select_for_update(of=("self",)).select_related("group", "player").get(pk=invite.pk)
    if invite.revoked_at is not None:
        raise Conflict(gettext("This invite was revoked."))
    if invite.expires_at <= timezone.now():
        raise Conflict(gettext("This invite has expired."))
    membership = membership_add(group=invite.group, user=user)
    if invite.player is not None and invite.player.user_id != user.pk:
        from .players import player_link

        player_link(player=invite.player, linked_user=user, user=None)
    invite.accepted_count += 1
    invite.save(update_fields=["accepted_count"])
    return membership
