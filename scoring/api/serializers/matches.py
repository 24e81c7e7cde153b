"""Matches, rounds, their history and the scoreboard."""

from __future__ import annotations

from typing import Any

from django.utils.translation import get_language
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from scoring.api.serializers.common import INT32, LineSerializer, ObjectField, SeatRefSerializer
from scoring.api.serializers.outlook import OutlookSerializer
from scoring.models import Match, Round, RoundEvent

# --- matches and rounds -----------------------------------------------------------------------------


class PresetRefSerializer(serializers.Serializer):
    """The house rules a match was started from: the preset, its name then and the version."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    version = serializers.IntegerField()


class MatchSerializer(serializers.ModelSerializer):
    seats = serializers.SerializerMethodField()
    rounds_played = serializers.IntegerField(read_only=True)
    preset = serializers.SerializerMethodField()
    totals_only = serializers.BooleanField(read_only=True, help_text="recorded from its final scores alone (no rounds)")
    totals = serializers.ListField(
        child=serializers.IntegerField(),
        allow_null=True,
        read_only=True,
        help_text="the final score per seat of a totals-only match; null for a match with rounds",
    )

    class Meta:
        model = Match
        fields = [
            "id",
            "group",
            "ruleset",
            "options",
            "state",
            "finish_reason",
            "version",
            "seats",
            "rounds_played",
            "created_at",
            "finished_at",
            "preset",
            "totals_only",
            "totals",
        ]

    @extend_schema_field(SeatRefSerializer(many=True))
    def get_seats(self, match: Match) -> list[dict[str, Any]]:
        return [{"seat": s.number, "id": s.player_id, "name": s.player.name} for s in match.seats.all()]

    @extend_schema_field(PresetRefSerializer(allow_null=True))
    def get_preset(self, match: Match) -> dict[str, Any] | None:
        version = match.preset_version
        if version is None:
            return None
        return {"id": version.preset_id, "name": version.name, "version": version.number}


class MatchCreateSerializer(serializers.Serializer):
    ruleset = serializers.CharField(max_length=20)
    options = ObjectField(required=False, default=dict)
    players = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=INT32),
        min_length=1,
        max_length=12,
        help_text="player ids in seat order; seat 0 deals the first round",
    )
    preset = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=INT32,
        help_text="id of the group's house rules for this game to start from: their options, with 'options' "
        "laid over them; the match records the preset only when its options stay exactly the preset's",
    )


class MatchUpdateSerializer(serializers.Serializer):
    options = ObjectField()
    version = serializers.IntegerField(required=False, min_value=0, max_value=INT32)


class VersionSerializer(serializers.Serializer):
    version = serializers.IntegerField(
        required=False, min_value=0, max_value=INT32, help_text="the version you saw (or send If-Match)"
    )


class RoundSerializer(serializers.ModelSerializer):
    explanation = serializers.SerializerMethodField()
    entered_by = serializers.CharField(source="entered_by.username", read_only=True, allow_null=True, default=None)
    deleted = serializers.SerializerMethodField()
    facts = ObjectField()

    class Meta:
        model = Round
        fields = [
            "id",
            "match",
            "number",
            "version",
            "facts",
            "points",
            "explanation",
            "ruleset_version",
            "entered_by",
            "created_at",
            "updated_at",
            "deleted",
            "deleted_at",
        ]

    @extend_schema_field(LineSerializer(many=True))
    def get_explanation(self, rnd: Round) -> list[dict[str, Any]]:
        from scoring.selectors import line_render

        ruleset, names = self.context.get("ruleset"), self.context.get("names")
        if ruleset is None:
            return list(rnd.explanation)
        # English text stored with the same names is what rendering would give (``test_serializers_fast``)
        english = self.context.get("stored_text") and (get_language() or "en").split("-")[0] == "en"
        return [line_render(ruleset, line, names, rendered=bool(english)) for line in rnd.explanation]

    def get_deleted(self, rnd: Round) -> bool:
        return rnd.deleted_at is not None


class RoundCreateSerializer(serializers.Serializer):
    facts = ObjectField()
    number = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=INT32,
        help_text="the round number the client shows for this round (the scoreboard's next_number): when another "
        "client saved that round meanwhile, nothing is stored and the answer is 409 with the saved round",
    )


class RoundUpdateSerializer(serializers.Serializer):
    facts = ObjectField()
    version = serializers.IntegerField(required=False, min_value=0, max_value=INT32)


class MatchRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    version = serializers.IntegerField()
    state = serializers.CharField()


_DATETIME = serializers.DateTimeField(read_only=True)  # stateless: one instance renders every timestamp


class RoundWriteResultSerializer(RoundSerializer):
    """A round after a write, with the match's new version and state.

    Its declared fields describe the answer (the schema is built from them), but it is rendered without building
    them: a ModelSerializer builds its fields anew for every instance, which cost about as much as the rest of
    the answer. ``test_serializers_fast`` checks that both give the same dict."""

    match_state = MatchRefSerializer(read_only=True)

    class Meta(RoundSerializer.Meta):
        fields = [*RoundSerializer.Meta.fields, "match_state"]

    def to_representation(self, rnd: Round) -> dict[str, Any]:  # type: ignore[override]
        state = rnd.match_state  # type: ignore[attr-defined]
        return {
            "id": rnd.pk,
            "match": rnd.match_id,
            "number": int(rnd.number),
            "version": int(rnd.version),
            "facts": rnd.facts,
            "points": rnd.points,
            "explanation": self.get_explanation(rnd),
            "ruleset_version": str(rnd.ruleset_version),
            "entered_by": None if rnd.entered_by_id is None else str(rnd.entered_by.username),
            "created_at": _DATETIME.to_representation(rnd.created_at),
            "updated_at": _DATETIME.to_representation(rnd.updated_at),
            "deleted": rnd.deleted_at is not None,
            "deleted_at": None if rnd.deleted_at is None else _DATETIME.to_representation(rnd.deleted_at),
            "match_state": {"id": int(state["id"]), "version": int(state["version"]), "state": str(state["state"])},
        }

    def to_representation_by_fields(self, rnd: Round) -> Any:
        """The same answer through the declared fields (what the tests compare against)."""
        return super().to_representation(rnd)


class EventSerializer(serializers.ModelSerializer):
    actor = serializers.CharField(source="actor.username", read_only=True, allow_null=True, default=None)
    before = serializers.JSONField(allow_null=True)
    after = serializers.JSONField(allow_null=True)

    class Meta:
        model = RoundEvent
        fields = ["id", "action", "round", "round_number", "actor", "at", "before", "after"]


class ScoreboardRoundSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    version = serializers.IntegerField()
    ruleset_version = serializers.CharField()
    facts = ObjectField()
    points = serializers.ListField(child=serializers.IntegerField())
    totals = serializers.ListField(child=serializers.IntegerField(), help_text="running totals after this round")
    explanation = LineSerializer(many=True)
    entered_by = serializers.CharField(allow_null=True)
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()


class ScoreboardSerializer(serializers.Serializer):
    match = serializers.IntegerField()
    ruleset = serializers.CharField()
    ruleset_name = serializers.CharField()
    ruleset_version = serializers.CharField()
    version = serializers.IntegerField()
    state = serializers.CharField()
    finish_reason = serializers.CharField(allow_blank=True)
    players = SeatRefSerializer(many=True)
    rounds = ScoreboardRoundSerializer(many=True)
    totals = serializers.ListField(child=serializers.IntegerField())
    rounds_played = serializers.IntegerField()
    next_number = serializers.IntegerField(help_text="the number the next round gets (send it as the round's number)")
    finished = serializers.BooleanField(allow_null=True)
    next_dealer = SeatRefSerializer(allow_null=True)
    next_starter = SeatRefSerializer(allow_null=True)
    rounds_left = serializers.IntegerField(allow_null=True)
    target = serializers.IntegerField(allow_null=True)
    winners = SeatRefSerializer(many=True)
    extra = ObjectField()
    needs_rescore = serializers.BooleanField()
    totals_only = serializers.BooleanField(
        help_text="recorded from its final scores alone: no rounds, 'totals' are the final scores"
    )
    problems = serializers.ListField(child=ObjectField())
    outlook = OutlookSerializer(
        allow_null=True,
        help_text="what do I need: each player's position in words and figures (null once the match is over, "
        "before its first round, and for Was sticht?)",
    )


class RoundTakenSerializer(serializers.Serializer):
    """A 409 when recording a round: the match is finished (``detail`` only), or the round was entered for a
    number another client saved meanwhile (nothing was stored; the saved round is ``current``)."""

    detail = serializers.CharField(help_text='e.g. "Round 4 was just saved by Bence."')
    number = serializers.IntegerField(required=False, help_text="the number the request was for")
    next_number = serializers.IntegerField(required=False, help_text="the number the next round would get now")
    saved_by = serializers.CharField(required=False, allow_blank=True, help_text="who saved the round with that number")
    current = RoundSerializer(
        required=False, allow_null=True, help_text="the round saved with that number (null if there is none)"
    )
