"""Totals-only matches: record a finished match from its final scores alone."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from scoring import services
from scoring.api.serializers import INT32, MatchSerializer, ObjectField
from scoring.api.views.base import ApiView
from scoring.api.views.groups import ERRORS


class TotalsMatchCreateSerializer(serializers.Serializer):
    ruleset = serializers.CharField(max_length=20)
    options = ObjectField(required=False, default=dict)
    players = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=INT32),
        min_length=1,
        max_length=12,
        help_text="player ids in seat order",
    )
    points = serializers.ListField(
        child=serializers.IntegerField(min_value=-(10**9), max_value=10**9),
        min_length=1,
        max_length=12,
        help_text="the final score of each player, in the order of 'players'",
    )
    played_at = serializers.DateField(help_text="the day the match was played (not in the future)")


class TotalsMatchCreateView(ApiView):
    serializer_class = MatchSerializer

    @extend_schema(
        request=TotalsMatchCreateSerializer,
        responses={201: MatchSerializer, **ERRORS},
        examples=[
            OpenApiExample(
                "Last week's Meinz from the paper pad",
                value={"ruleset": "meinz", "players": [1, 2, 3], "points": [41, 28, 35], "played_at": "2026-11-19"},
                request_only=True,
            )
        ],
        summary="Record a finished match from its final scores (no rounds)",
    )
    def post(self, request: Request, group_id: int) -> Response:
        """The match is finished at once, on the day given; the best final scores win.  It counts in the standings
        and ratings; rounds cannot be added to it (409)."""
        group = self.group(group_id=group_id)
        data = self.payload(TotalsMatchCreateSerializer)
        match = services.match_record_totals(
            group=group,
            ruleset=data["ruleset"],
            options=data.get("options"),
            player_ids=data["players"],
            points=data["points"],
            played_at=data["played_at"],
            user=request.user,
        )
        return Response(MatchSerializer(self.match(match_id=match.pk)).data, status=status.HTTP_201_CREATED)
