"""What the statistics APIs share: the group a member may see (404 for anyone else, not even saying that it
exists) and the optional ``?game=`` narrowing to one game."""

from __future__ import annotations

from rest_framework.exceptions import NotFound, ValidationError

from analytics import selectors
from scoring import rules
from scoring.api.views.base import ApiView
from scoring.models import Group


class GroupStatsApiView(ApiView):
    def visible_group(self, group_id: int) -> Group:
        group = selectors.group_visible(user=self.request.user, group_id=int(group_id))
        if group is None:
            raise NotFound()
        return group

    def game_param(self) -> str | None:
        """The ``game`` query parameter: one of the rulesets, or None when absent or blank."""
        game = self.request.query_params.get("game") or None  # type: ignore[attr-defined]
        if game is not None and game not in rules.KEYS:
            raise ValidationError({"game": [f"Unknown game; one of {', '.join(rules.KEYS)}."]})
        return game
