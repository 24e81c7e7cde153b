"""Who may do what in a group, and how names are cleaned: the checks every group, player and match service
shares (below ``groups`` and ``players``, which both use them, so neither has to import the other for them)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from scoring.models import Group, Membership
from scoring.services.errors import NotAllowed, ValidationFailed
from scoring.text.names import name_clean

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
    """``text.names.name_clean`` (NFKC, no invisible or bidi-control characters) as a field error, plus a length."""
    try:
        name = name_clean(name, max_length=None)
    except ValueError as exc:
        raise ValidationFailed.single(field, str(exc)) from None
    if len(name) > max_length:
        raise ValidationFailed.single(field, gettext("At most %(n)d characters, please.") % {"n": max_length})
    return name
