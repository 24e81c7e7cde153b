"""Request and response shapes of the what-if previews (a change of options, a rescore with the current rules).
No rules here: the preview is the services' (scoring.services.whatif)."""

from __future__ import annotations

from rest_framework import serializers

from scoring.api.serializers.common import ObjectField
from scoring.api.serializers.matches import PresetRefSerializer
from scoring.models import Match


class OptionsPreviewRequestSerializer(serializers.Serializer):
    options = ObjectField(help_text="the options to try; options left out take their defaults, as when applying")


class RoundChangeSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    points_before = serializers.ListField(child=serializers.IntegerField(), help_text="points per seat now")
    points_after = serializers.ListField(child=serializers.IntegerField(), help_text="points per seat after applying")
    changed = serializers.BooleanField()


class PreviewSerializer(serializers.Serializer):
    """What applying would store; nothing has been written."""

    match = serializers.IntegerField(source="match_id")
    version = serializers.IntegerField(
        help_text="the match version the preview was made from: send it (If-Match) when applying"
    )
    players = serializers.ListField(child=serializers.CharField(), help_text="the players' names in seat order")
    ruleset_version = serializers.CharField(help_text="the rules' current version")
    needs_rescore = serializers.BooleanField(help_text="some round was scored by an older version of the rules")
    changed = serializers.BooleanField(help_text="applying would change some points, the winners or the state")
    options_before = ObjectField()
    options_after = ObjectField()
    rounds = RoundChangeSerializer(many=True)
    totals_before = serializers.ListField(child=serializers.IntegerField())
    totals_after = serializers.ListField(child=serializers.IntegerField())
    winners_before = serializers.ListField(child=serializers.CharField(), help_text="names; empty while running")
    winners_after = serializers.ListField(child=serializers.CharField(), help_text="names; empty while running")
    state_before = serializers.ChoiceField(choices=Match.State.choices)
    state_after = serializers.ChoiceField(choices=Match.State.choices)
    finished_before = serializers.BooleanField()
    finished_after = serializers.BooleanField()
    house_rules_before = PresetRefSerializer(allow_null=True, help_text="the house rules the match names now")
    house_rules_after = PresetRefSerializer(
        allow_null=True,
        help_text="the house rules it names after applying: null when the new options leave them (the match then "
        "no longer names them)",
    )
