"""Rulesets, the calculator and the trick referee."""

from __future__ import annotations

from rest_framework import serializers

from scoring.api.serializers.common import LineSerializer, ListField, ObjectField

# --- rulesets, calculator, referee ------------------------------------------------------------------


class OptionSpecSerializer(serializers.Serializer):
    key = serializers.CharField()
    kind = serializers.CharField()
    default = serializers.JSONField(allow_null=True)
    label = serializers.CharField()
    rule = serializers.CharField()
    choices = serializers.ListField(child=serializers.CharField())
    schema = ObjectField()


class RulesetSerializer(serializers.Serializer):
    key = serializers.CharField()
    name = serializers.CharField()
    version = serializers.CharField()
    min_players = serializers.IntegerField()
    max_players = serializers.IntegerField()
    options = OptionSpecSerializer(many=True)
    facts_schema = ObjectField(help_text="JSON Schema of one round's facts")
    example = ObjectField(help_text='a worked example: {"players": n, "options": {...}, "facts": {...}}')


class CalculatorRequestSerializer(serializers.Serializer):
    players = serializers.ListField(
        child=serializers.CharField(max_length=60), min_length=1, max_length=12, help_text="names in seat order"
    )
    options = ObjectField(required=False, default=dict)
    facts = ObjectField()
    before = serializers.ListField(
        child=ObjectField(), required=False, max_length=100, help_text="facts of earlier rounds of the same match"
    )


class CalculatorResponseSerializer(serializers.Serializer):
    ruleset = serializers.CharField()
    ruleset_version = serializers.CharField()
    players = serializers.ListField(child=serializers.CharField())
    options = ObjectField()
    facts = ObjectField(help_text="the facts as they would be stored")
    scores = serializers.ListField(child=serializers.IntegerField(), help_text="points per seat")
    explanation = LineSerializer(many=True)
    state = ObjectField(help_text="the match state after this round")


class TrickRequestSerializer(serializers.Serializer):
    setup = ObjectField(
        required=False, default=dict, help_text="the trump set-up of the round (game-specific; Meinz has none)"
    )
    plays = ListField(help_text='cards in play order: [{"seat": 0, "card": {"colour": "red", "value": 5}}, ...]')
    options = ObjectField(required=False, default=dict)


class TrickNoteSerializer(serializers.Serializer):
    index = serializers.IntegerField(allow_null=True, help_text="the play this note is about")
    msg = serializers.CharField()
    rule = serializers.CharField()
    params = ObjectField()
    text = serializers.CharField()


class TrickResultSerializer(serializers.Serializer):
    key = serializers.CharField()
    winner = serializers.IntegerField(help_text="index into plays")
    winner_seat = serializers.IntegerField(allow_null=True)
    reason = serializers.CharField()
    rule = serializers.CharField()
    params = ObjectField()
    text = serializers.CharField()
    ranking = serializers.ListField(child=serializers.IntegerField())
    notes = TrickNoteSerializer(many=True)
    legality = TrickNoteSerializer(many=True, help_text="a verdict for every play that came with a hand")
    illegal = TrickNoteSerializer(many=True)
    edition = TrickNoteSerializer(
        allow_null=True, required=False, help_text="NJET: which edition's rules decided (the editions differ)"
    )
    players = serializers.IntegerField(
        allow_null=True,
        required=False,
        help_text="the player count the trick was judged for (Meinz: a monster card means 3)",
    )
