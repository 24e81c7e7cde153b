"""Read-only queries for the dashboards and the API: who may see what, names, snapshot status."""

from __future__ import annotations

from typing import Any

from analytics.models import Snapshot
from scoring import rules
from scoring.models import Group, Player


def group_visible(*, user: Any, group_id: int) -> Group | None:
    """The group if ``user`` is one of its members (outsiders see nothing, not even that it exists)."""
    if not user.is_authenticated:
        return None
    return Group.objects.filter(pk=group_id, memberships__user=user).first()


def player_visible(*, user: Any, player_id: int) -> Player | None:
    """The player if ``user`` is a member of the player's group."""
    if not user.is_authenticated:
        return None
    return Player.objects.filter(pk=player_id, group__memberships__user=user).select_related("group").first()


def player_names(*, group_id: int) -> dict[int, str]:
    """Current names of a group's players (snapshots store ids only, so a rename shows at once)."""
    return dict(Player.objects.filter(group_id=group_id).values_list("id", "name"))


def game_names() -> dict[str, str]:
    return {ruleset.key: ruleset.name for ruleset in rules.all_rulesets()}


def snapshot_status(snapshot: Snapshot) -> dict[str, Any]:
    return {
        "id": snapshot.pk,
        "updated_at": snapshot.updated_at.isoformat() if snapshot.updated_at else None,
        "stale": snapshot.stale,
        "computing": snapshot.computing,
        "progress": round(snapshot.progress, 3),
    }


def snapshot_for_user(*, user: Any, snapshot_id: int) -> Snapshot | None:
    if not user.is_authenticated:
        return None
    return Snapshot.objects.filter(pk=snapshot_id, group__memberships__user=user).first()
