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

from scoring.models import Group, Invite, InviteUse, Membership, Player, Removal
from scoring.services.access import _name_clean, member_require, membership_of, owner_require
from scoring.services.errors import Conflict, NotAllowed, ServiceError, ValidationFailed
from scoring.services.players import player_create, player_link

Role = Membership.Role


@transaction.atomic
def group_create(*, name: str, user: Any, player_name: str | None = None) -> Group:
    """Create a group owned by ``user``; with ``player_name`` also a player linked to that user."""
    group = Group.objects.create(name=_name_clean(name), created_by=user)
    Membership.objects.create(group=group, user=user, role=Role.OWNER)
    if player_name:
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
    from scoring.services.common import stats_group_after_commit

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
    if by is None or by.pk != membership.user_id:
        # Removed by an owner: the links they (or anyone) were given before now no longer let them back in.
        Removal.objects.update_or_create(
            group_id=membership.group_id,
            user_id=membership.user_id,
            defaults={"removed_by": by, "removed_at": timezone.now()},
        )
    membership.delete()


class Left:
    """What ``group_leave`` did."""

    LEFT = "left"
    DELETED = "deleted"


@transaction.atomic
def group_leave(*, group: Group, user: Any, delete_if_alone: bool = False) -> str:
    """``user`` leaves ``group``; returns ``Left.*``.

    A member, or an owner while another owner stays, simply leaves (their player and its history stay in the
    group).  The last owner cannot leave while other members remain: someone has to manage the group, so they
    make another member an owner first.  An owner alone in the group leaves by deleting it, and only when
    ``delete_if_alone`` says that they confirmed it.
    """
    membership = member_require(group=group, user=user)
    Group.objects.select_for_update().get(pk=group.pk)
    if membership.role == Role.OWNER and not _owners_left(group, without=membership):
        if Membership.objects.filter(group=group).exclude(pk=membership.pk).exists():
            raise Conflict(
                gettext("You are the last owner of this group: make another member an owner first, then you can leave.")
            )
        if not delete_if_alone:
            raise Conflict(gettext("You are the only member: leaving deletes the group. Confirm that to go on."))
        group_delete(group=group, user=user)
        return Left.DELETED
    membership.delete()
    return Left.LEFT


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


def _refused_removed() -> Conflict:
    return Conflict(
        gettext(
            "An owner removed you from this group, so this invite no longer lets you in."
            " Ask an owner to invite you again."
        )
    )


def invite_refusal(*, invite: Invite, user: Any) -> ServiceError | None:
    """Why ``user`` cannot join through ``invite`` (the error ``invite_accept`` raises), or None.

    Also for the join page, which explains a refusal before anyone taps "Join".
    """
    if invite.revoked_at is not None:
        return Conflict(gettext("This invite was revoked."))
    if invite.expires_at <= timezone.now():
        return Conflict(gettext("This invite has expired."))
    if invite.is_personal and (invite.invitee_id is None or invite.invitee_id != user.pk):
        return NotAllowed(gettext("This invitation is for someone else."))
    if invite.declined_at is not None:
        return Conflict(gettext("You declined this invitation. Ask an owner to invite you again."))
    group_id = invite.group_id
    current = Membership.objects.filter(group_id=group_id, user=user).exists()
    if InviteUse.objects.filter(invite=invite, user=user).exists():
        if current:
            return None
        if Removal.objects.filter(group_id=group_id, user=user).exists():
            return _refused_removed()
        return Conflict(gettext("You have already used this invite link. Ask an owner for a new one."))
    if not current and Removal.objects.filter(group_id=group_id, user=user, removed_at__gte=invite.created_at).exists():
        return _refused_removed()
    return None


@transaction.atomic
def invite_accept(*, invite: Invite, user: Any) -> Membership:
    """Join the invite's group (as a member) and take over the guest player it names, if any.

    A link lets each person in once: accepting again while a member changes nothing; coming back through it after
    leaving or being removed is refused.  Nor does any invite made before an owner removed someone let them back
    in.  A personal invitation can only be accepted by the account it names.
    """
    invite = Invite.objects.select_for_update(of=("self",)).select_related("group", "player").get(pk=invite.pk)
    group = invite.group
    Group.objects.select_for_update().get(pk=group.pk)  # one answer at a time per group (removals too)
    refusal = invite_refusal(invite=invite, user=user)
    if refusal is not None:
        raise refusal
    current = membership_of(group=group, user=user)
    if current is not None and InviteUse.objects.filter(invite=invite, user=user).exists():
        return current  # the second tap on the same link: nothing more happens
    membership = current or membership_add(group=group, user=user)
    if invite.player is not None and invite.player.user_id != user.pk:
        player_link(player=invite.player, linked_user=user, user=None)
    InviteUse.objects.create(invite=invite, user=user)
    Removal.objects.filter(group=group, user=user).delete()
    invite.accepted_count += 1
    invite.save(update_fields=["accepted_count"])
    return membership


def invitation_sent_text() -> str:
    """The owner's answer to an invitation by username: the same whether or not the account exists."""
    return gettext("If that user exists, they will see your invitation.")


def member_invite(*, group: Group, username: Any, by: Any) -> None:
    """An owner invites an account by its username; the account's owner accepts or declines.

    Returns nothing, whatever the name: the owner's answer is the same for a name that no account has, so adding
    members cannot be used to find out which usernames exist.  The invitation is recorded either way (and shown
    to the owners as waiting); an unknown name's invitation can never be accepted.
    """
    owner_require(group=group, user=by)
    if not isinstance(username, str) or not username.strip():
        raise ValidationFailed.single("username", gettext("Type the username of the person to invite."))
    name = username.strip()
    if len(name) > 150:
        raise ValidationFailed.single("username", gettext("At most %(n)d characters, please.") % {"n": 150})
    from django.contrib.auth import get_user_model

    invitee = get_user_model().objects.filter(username=name).first()
    if invitee is not None and membership_of(group=group, user=invitee) is not None:
        return
    waiting = Invite.objects.filter(
        group=group, invitee_name=name, revoked_at__isnull=True, accepted_count=0, expires_at__gt=timezone.now()
    )
    if waiting.exists():  # declined ones too: no second invitation until the first one runs out
        return
    Invite.objects.create(
        group=group,
        created_by=by,
        invitee=invitee,
        invitee_name=name,
        expires_at=timezone.now() + timedelta(days=settings.INVITE_DAYS),
    )


def invitation_decline(*, invite: Invite, user: Any) -> Invite:
    """The invited account says no; the owners keep seeing the invitation as waiting (they learn nothing)."""
    if not invite.is_personal or invite.invitee_id is None or invite.invitee_id != user.pk:
        raise NotAllowed(gettext("This invitation is for someone else."))
    if invite.declined_at is None and invite.accepted_count == 0:
        invite.declined_at = timezone.now()
        invite.save(update_fields=["declined_at"])
    return invite
