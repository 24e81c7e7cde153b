"""Players: guests or linked to an account; renamed, linked, removed (deleted or archived), restored and merged."""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext

from scoring.models import Group, Invite, Match, Membership, Player, RoundEvent, Score, Seat
from scoring.services.access import _name_clean, member_require, owner_require
from scoring.services.common import stats_group_after_commit
from scoring.services.errors import Conflict, NotAllowed, ValidationFailed


def _name_taken(group: Group, name: str, *, exclude: int | None = None) -> Player | None:
    players = Player.objects.filter(group=group, name__iexact=name, merged_into__isnull=True)
    if exclude is not None:
        players = players.exclude(pk=exclude)
    return players.first()


def _name_free(group: Group, name: Any, *, exclude: int | None = None) -> str:
    name = _name_clean(name, max_length=60)
    taken = _name_taken(group, name, exclude=exclude)
    if taken is not None and taken.archived_at is not None:
        raise ValidationFailed.single(
            "name",
            gettext("%(name)s was removed from the group earlier: restore them from the removed players.")
            % {"name": taken.name},
        )
    if taken is not None:
        raise ValidationFailed.single("name", gettext("There is already a player called %(name)s.") % {"name": name})
    return name


def player_create(*, group: Group, name: str, user: Any, linked_user: Any = None) -> Player:
    """Add a player to the group: a guest, or linked to ``linked_user`` (who must be a member)."""
    member_require(group=group, user=user)
    name = _name_free(group, name)
    if linked_user is not None:
        _link_check(group, linked_user, exclude=None)
    try:
        with transaction.atomic():
            return Player.objects.create(group=group, name=name, user=linked_user)
    except IntegrityError:
        raise ValidationFailed.single(
            "name", gettext("There is already a player called %(name)s.") % {"name": name}
        ) from None


def player_rename(*, player: Player, name: str, user: Any) -> Player:
    member_require(group=player.group, user=user)
    player.name = _name_free(player.group, name, exclude=player.pk)
    try:
        with transaction.atomic():
            player.save(update_fields=["name"])
    except IntegrityError:
        raise ValidationFailed.single("name", gettext("That name is taken.")) from None
    return player


class _Unset:
    """No change asked for (``None`` means "make them a guest")."""


UNSET: Any = _Unset()


def _link_permitted(*, membership: Membership, player: Player, linked_user_id: int | None, user: Any) -> None:
    """An owner may link anyone; a member only themselves to a guest player, or unlink themselves."""
    is_self = linked_user_id is not None and linked_user_id == user.pk and player.user_id is None
    unlink_self = linked_user_id is None and player.user_id == user.pk
    if membership.role != Membership.Role.OWNER and not (is_self or unlink_self):
        raise NotAllowed(gettext("Only an owner can link other people's players."))


@transaction.atomic
def player_update(*, player: Player, user: Any, name: Any = UNSET, linked_user_id: Any = UNSET) -> Player:
    """Rename and/or (un)link a player in one go: everything is checked before anything is written.

    Permissions come first (a member who may not link this player gets NotAllowed even if the rename alone would
    be fine), then the name and the account; a refused request changes nothing.
    """
    membership = member_require(group=player.group, user=user)
    player = Player.objects.select_for_update(of=("self",)).select_related("group").get(pk=player.pk)
    if linked_user_id is not UNSET:
        _link_permitted(membership=membership, player=player, linked_user_id=linked_user_id, user=user)
    if player.merged_into_id is not None:
        raise Conflict(gettext("This player was merged into another one."))
    fields: list[str] = []
    if name is not UNSET:
        player.name = _name_free(player.group, name, exclude=player.pk)
        fields.append("name")
    if linked_user_id is not UNSET:
        linked_user = None
        if linked_user_id is not None:
            from django.contrib.auth import get_user_model

            linked_user = get_user_model().objects.filter(pk=linked_user_id, memberships__group=player.group).first()
            if linked_user is None:
                raise ValidationFailed.single("user", gettext("Only a member of the group can be linked to a player."))
            if player.user_id is not None and player.user_id != linked_user.pk:
                raise ValidationFailed.single("user", gettext("This player is already linked to another account."))
            _link_check(player.group, linked_user, exclude=player.pk)
        player.user = linked_user
        fields.append("user")
    if fields:
        try:
            with transaction.atomic():
                player.save(update_fields=fields)
        except IntegrityError:
            raise ValidationFailed.single("name", gettext("That name is taken.")) from None
    return player


def _link_check(group: Group, linked_user: Any, *, exclude: int | None) -> None:
    if not Membership.objects.filter(group=group, user=linked_user).exists():
        raise ValidationFailed.single("user", gettext("Only a member of the group can be linked to a player."))
    others = Player.objects.filter(group=group, user=linked_user, merged_into__isnull=True)
    if exclude is not None:
        others = others.exclude(pk=exclude)
    if others.exists():
        raise ValidationFailed.single("user", gettext("That account already has a player in this group."))


@transaction.atomic
def player_link(*, player: Player, linked_user: Any, user: Any) -> Player:
    """Link a player to an account (``linked_user=None`` makes them a guest again).

    ``user`` is the acting user: an owner may link anyone, a member only
    themselves to a guest player.  ``user=None`` is the system (an accepted invite).
    """
    if user is not None:
        membership = member_require(group=player.group, user=user)
        linked_id = linked_user.pk if linked_user is not None else None
        _link_permitted(membership=membership, player=player, linked_user_id=linked_id, user=user)
    if player.merged_into_id is not None:
        raise Conflict(gettext("This player was merged into another one."))
    if linked_user is not None:
        if player.user_id is not None and player.user_id != linked_user.pk:
            raise ValidationFailed.single("user", gettext("This player is already linked to another account."))
        _link_check(player.group, linked_user, exclude=player.pk)
    player.user = linked_user
    player.save(update_fields=["user"])
    return player


def player_delete(*, player: Player, user: Any) -> None:
    """Delete a player who never played (otherwise merge them into someone instead)."""
    member_require(group=player.group, user=user)
    if Seat.objects.filter(player=player).exists():
        raise Conflict(gettext("This player has played; merge them into another player instead."))
    player.delete()


class Removed:
    """What ``player_remove`` did."""

    DELETED = "deleted"
    ARCHIVED = "archived"


@transaction.atomic
def player_remove(*, player: Player, user: Any) -> str:
    """Take a player off the group's list (any member may).

    A player who never sat at a match is deleted.  One who did is archived: hidden from the players list and from
    new matches, while their past matches keep their name and points and the statistics keep counting them;
    ``player_restore`` brings them back.  Invite links naming the player stop working.  Returns ``Removed.*``.
    """
    member_require(group=player.group, user=user)
    player = Player.objects.select_for_update().get(pk=player.pk)
    if player.merged_into_id is not None:
        raise Conflict(gettext("This player was merged into another one."))
    Invite.objects.filter(player=player, revoked_at__isnull=True).update(revoked_at=timezone.now())
    if Seat.objects.filter(player=player).exists():
        if player.archived_at is None:
            player.archived_at = timezone.now()
            player.save(update_fields=["archived_at"])
        return Removed.ARCHIVED
    player.delete()
    return Removed.DELETED


def player_restore(*, player: Player, user: Any) -> Player:
    """Bring an archived player back to the list and to new matches (any member)."""
    member_require(group=player.group, user=user)
    if player.merged_into_id is not None:
        raise Conflict(gettext("This player was merged into another one."))
    if player.archived_at is not None:
        player.archived_at = None
        player.save(update_fields=["archived_at"])
    return player


@transaction.atomic
def player_merge(*, source: Player, target: Player, user: Any) -> Player:
    """Merge ``source`` into ``target`` (the same person entered twice).

    Seats, scores and pending invites move to ``target``; ``source`` is kept as a
    retired record pointing at ``target``.  Two players who sat in the same match
    cannot be the same person.  Ratings and statistics of the group are rebuilt.
    """
    owner_require(group=source.group, user=user)
    source = Player.objects.select_for_update().get(pk=source.pk)
    target = Player.objects.select_for_update().get(pk=target.pk)
    if source.pk == target.pk:
        raise ValidationFailed.single("into", gettext("A player cannot be merged into themselves."))
    if source.group_id != target.group_id or target.merged_into_id is not None:
        raise ValidationFailed.single("into", gettext("That player is not in this group."))
    if source.merged_into_id is not None:
        raise Conflict(gettext("This player was already merged into another one."))
    shared = set(Seat.objects.filter(player=source).values_list("match_id", flat=True)) & set(
        Seat.objects.filter(player=target).values_list("match_id", flat=True)
    )
    if shared:
        raise ValidationFailed.single(
            "into",
            gettext("Both players sat in the same match (%(ids)s), so they are different people.")
            % {"ids": ", ".join(str(i) for i in sorted(shared))},
        )
    if source.user_id and target.user_id and source.user_id != target.user_id:
        raise ValidationFailed.single("into", gettext("Both players are linked to different accounts."))
    match_ids = list(Seat.objects.filter(player=source).values_list("match_id", flat=True))
    Seat.objects.filter(player=source).update(player=target)
    Score.objects.filter(player=source).update(player=target)
    Invite.objects.filter(player=source).update(player=target if target.user_id is None else None)
    linked = source.user
    source.merged_into = target
    source.user = None
    source.save(update_fields=["merged_into", "user"])
    if linked is not None and target.user_id is None:
        target.user = linked
        target.save(update_fields=["user"])
    Match.objects.filter(pk__in=match_ids).update(version=F("version") + 1)
    for match_id in match_ids:
        RoundEvent.objects.create(
            match_id=match_id,
            action=RoundEvent.Action.MERGE,
            actor=user,
            before={"player": source.pk, "name": source.name},
            after={"player": target.pk, "name": target.name, "merged": True},
        )
    stats_group_after_commit(group_id=source.group_id)
    return target
