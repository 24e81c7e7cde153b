"""BG Stats: export a group's finished matches as a BG Stats backup, import a backup's plays of our games."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from scoring.api.serializers import ErrorSerializer, ObjectField
from scoring.api.throttles import HeavyThrottle, WriteThrottle
from scoring.api.views.base import ApiView
from scoring.api.views.exports import ImportJSONParser
from scoring.api.views.groups import ERRORS
from scoring.services import ValidationFailed
from scoring.transfer import bgstats_export, bgstats_import

BACKUP = {
    "type": "object",
    "additionalProperties": True,
    "description": "a BG Stats backup: players, games and plays (with playerScores)",
}


@extend_schema_field(
    {
        "type": "object",
        "additionalProperties": {"oneOf": [{"type": "integer"}, {"type": "string", "enum": ["new", "skip"]}]},
        "description": 'BG Stats player id -> a group player id, "new" (add them) or "skip" (leave their plays out)',
    }
)
class MappingField(serializers.JSONField):
    pass


class BgStatsImportSerializer(serializers.Serializer):
    document = ObjectField(help_text="the BG Stats backup (its JSON export)")
    players = MappingField(required=False, default=dict)


class SkippedSerializer(serializers.Serializer):
    play = serializers.CharField(help_text="the game and when it was played")
    reason = serializers.CharField()


class BgStatsSummarySerializer(serializers.Serializer):
    plays = serializers.IntegerField(help_text="plays of our games in the file")
    imported = serializers.IntegerField(help_text="matches added (totals-only)")
    already_imported = serializers.IntegerField()
    other_games = serializers.IntegerField(help_text="plays of other games (left out)")
    new_players = serializers.ListField(child=serializers.CharField())
    skipped = SkippedSerializer(many=True)


def _mapping(value: Any) -> dict[int, Any]:
    if not isinstance(value, dict):
        raise ValidationFailed.single("players", gettext("Players are given as an object."))
    out: dict[int, Any] = {}
    for key, choice in value.items():
        ok = (isinstance(choice, int) and not isinstance(choice, bool)) or choice in ("new", "skip")
        if not (key.isascii() and key.isdigit() and len(key) < 10) or not ok:
            raise ValidationFailed.single(
                f"players.{key}", gettext('Give a group player\'s id, "new" or "skip" for each BG Stats player id.')
            )
        out[int(key)] = choice
    return out


class BgStatsExportView(ApiView):
    serializer_class = BgStatsSummarySerializer
    throttle_classes = [WriteThrottle, HeavyThrottle]

    @extend_schema(responses={200: BACKUP, 404: ErrorSerializer}, summary="Export a group as a BG Stats backup")
    def get(self, request: Request, group_id: int) -> Response:
        """One play per finished match (totals-only or not): each player's final score, the winners and the seat
        order, with a uuid that stays the same (importing it back into this group adds nothing)."""
        group = self.group(group_id=group_id)
        response = Response(bgstats_export.bgstats_export(group=group))
        response["Content-Disposition"] = f'attachment; filename="group-{group.pk}-bgstats.json"'
        return response


class BgStatsImportView(ApiView):
    serializer_class = BgStatsSummarySerializer
    parser_classes = [ImportJSONParser]

    @extend_schema(
        request=BgStatsImportSerializer,
        responses={200: BgStatsSummarySerializer, 413: ErrorSerializer, **ERRORS},
        examples=[
            OpenApiExample(
                "A backup with Anna matched to player 7 and Bence added",
                value={
                    "document": {"players": [], "games": [], "plays": []},
                    "players": {"1": 7, "2": "new", "3": "skip"},
                },
                request_only=True,
            )
        ],
        summary="Import a BG Stats backup's plays of our games as totals-only matches (owners)",
    )
    def post(self, request: Request, group_id: int) -> Response:
        """Plays of our eight games become totals-only matches, in one transaction; a player left out of
        ``players`` is matched by name (case and Unicode form aside) or added.  A play already imported (by its
        uuid) is not imported again; plays that cannot be imported are listed with the reason."""
        group = self.group(group_id=group_id)
        data = self.payload(BgStatsImportSerializer)
        summary = bgstats_import.bgstats_import(
            group=group, data=data["document"], players=_mapping(data.get("players")), user=request.user
        )
        return Response(BgStatsSummarySerializer(summary).data)
