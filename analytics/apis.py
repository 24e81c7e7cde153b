"""The statistics API: snapshots only (never a computation in the request), for members of the group."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from analytics import selectors, services
from analytics.api_base import GroupStatsApiView
from analytics.models import Snapshot
from analytics.stats import MAX_PLAYERS, StatsFilter
from scoring import rules
from scoring.api.throttles import HeavyThrottle, WriteThrottle


class SnapshotSerializer(serializers.Serializer):  # type: ignore[type-arg]
    scope = serializers.ChoiceField(choices=Snapshot.Scope.choices)
    group = serializers.IntegerField()
    player = serializers.IntegerField(allow_null=True)
    game = serializers.CharField(allow_blank=True)
    filter = serializers.CharField(
        help_text="'all', 'period=2025', 'players=4', 'rounds=confirmed' or several, comma-separated"
    )
    updated_at = serializers.DateTimeField(allow_null=True, help_text="when the statistics were last computed")
    stale = serializers.BooleanField(help_text="the history changed since; a recomputation is queued")
    computing = serializers.BooleanField()
    progress = serializers.FloatField(help_text="0..1 while a recomputation runs")
    players = serializers.DictField(child=serializers.CharField(), help_text="player id -> current name")
    stats = serializers.JSONField(help_text="the snapshot payload (empty until first computed)")


# The filters the snapshots exist for (StatsFilter.parse): the schema states their ranges, so a request it calls
# valid is answered, and one outside them is a documented 400.
FILTER_PARAMS = [
    OpenApiParameter(
        "period",
        {"type": "string", "pattern": "^(all|20[0-9][0-9]|2100)$"},
        description="a calendar year from 2000 to 2100 such as 2025, or 'all'",
    ),
    OpenApiParameter(
        "players",
        {"type": "integer", "minimum": 2, "maximum": MAX_PLAYERS},
        description="only matches with this many players",
    ),
    OpenApiParameter(
        "rounds",
        str,
        enum=["all", "confirmed"],
        description="'confirmed': only matches whose every round the other side confirmed (groups that have "
        "rounds confirmed); the ratings stay those of every match",
    ),
]


def _filter(request: Request) -> StatsFilter:
    try:
        return StatsFilter.from_query(
            request.query_params.get("period"), request.query_params.get("players"), request.query_params.get("rounds")
        )
    except ValueError:
        raise ValidationError({"filter": ["Use period=<year>, players=<2-8> and/or rounds=confirmed."]}) from None


def _body(snapshot: Snapshot) -> dict[str, Any]:
    return {
        "scope": snapshot.scope,
        "group": snapshot.group_id,
        "player": snapshot.player_id,
        "game": snapshot.ruleset,
        "filter": snapshot.filter_key,
        "updated_at": snapshot.updated_at,
        "stale": snapshot.stale,
        "computing": snapshot.computing,
        "progress": snapshot.progress,
        "players": {str(k): v for k, v in selectors.player_names(group_id=snapshot.group_id).items()},
        "stats": snapshot.payload,
    }


class _StatsView(GroupStatsApiView):
    """Read-only: the shared API base gives token/session auth, 404 for outsiders and the documented errors."""

    pagination_class = None
    serializer_class = SnapshotSerializer
    throttle_classes = [WriteThrottle, HeavyThrottle]  # the dashboards' data: counted with their pages


class GroupStatsApi(_StatsView):
    @extend_schema(
        parameters=[
            *FILTER_PARAMS,
            OpenApiParameter("game", str, enum=list(rules.KEYS), description="a ruleset key: that game's page"),
        ],
        responses=SnapshotSerializer,
        summary="A group's statistics snapshot (or one game's, with ?game=)",
    )
    def get(self, request: Request, group_id: int) -> Response:
        group = self.visible_group(group_id)
        flt = _filter(request)
        game = self.game_param() or ""
        snapshot = services.snapshot_request(
            scope="game" if game else "group", group_id=group.pk, ruleset=game, flt=flt
        )
        return Response(SnapshotSerializer(_body(snapshot)).data)


class PlayerStatsApi(_StatsView):
    @extend_schema(parameters=FILTER_PARAMS, responses=SnapshotSerializer, summary="A player's statistics snapshot")
    def get(self, request: Request, player_id: int) -> Response:
        player = selectors.player_visible(user=request.user, player_id=int(player_id))
        if player is None:
            raise NotFound()
        snapshot = services.snapshot_request(
            scope="player", group_id=player.group_id, player_id=player.pk, flt=_filter(request)
        )
        return Response(SnapshotSerializer(_body(snapshot)).data)
