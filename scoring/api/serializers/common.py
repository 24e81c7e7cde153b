"""What every request and response shape shares: JSON objects and lists the rules engine checks, an
explanation line, a seat reference, and the error bodies."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

JSON_OBJECT = {"type": "object", "additionalProperties": True}
INT32 = 2**31 - 1


@extend_schema_field(JSON_OBJECT)
class ObjectField(serializers.JSONField):
    """Any JSON object (facts, options, set-ups); the rules engine checks what is inside."""


@extend_schema_field({"type": "array", "items": {}})
class ListField(serializers.JSONField):
    """Any JSON array (plays of a trick); the rules engine checks what is inside."""


class LineSerializer(serializers.Serializer):
    """One line of a score explanation, rendered in the request's language."""

    msg = serializers.CharField()
    rule = serializers.CharField()
    player = serializers.IntegerField(allow_null=True, help_text="seat the line is about, if any")
    player_name = serializers.CharField(allow_null=True)
    points = serializers.IntegerField(allow_null=True, help_text="points this line adds to the player's round")
    params = ObjectField()
    text = serializers.CharField()


class SeatRefSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    id = serializers.IntegerField()
    name = serializers.CharField()


class ErrorSerializer(serializers.Serializer):
    detail = serializers.CharField()
    errors = serializers.DictField(child=serializers.ListField(child=serializers.CharField()), required=False)
    problems = serializers.ListField(child=ObjectField(), required=False)


class ConflictSerializer(serializers.Serializer):
    detail = serializers.CharField()
    current = ObjectField(required=False, help_text="the current state of the object (for a stale version)")
