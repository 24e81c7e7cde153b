"""Response shapes of "what do I need" (part of the scoreboard) and of the stakes before play."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers


@extend_schema_field({"type": "object", "additionalProperties": True})
class _Object(serializers.JSONField):
    """A JSON object (as ``scoring.api.serializers.ObjectField``, which imports this module)."""


class RoundBoundsSerializer(serializers.Serializer):
    most = serializers.IntegerField(help_text="the most one player can score in a round")
    least = serializers.IntegerField(help_text="the least one player can score in a round")
    gain = serializers.IntegerField(
        help_text="the most one player can gain on another in a round (exact or an upper bound, from the rules)"
    )


class OutlookPlayerSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    name = serializers.CharField()
    total = serializers.IntegerField()
    behind = serializers.IntegerField(help_text="points behind the leader; 0 for a leader")
    lead = serializers.IntegerField(help_text="a sole leader: points ahead of the next player; else 0")
    behind_whom = serializers.ListField(child=serializers.IntegerField(), help_text="the leaders' seats")
    can_win = serializers.BooleanField(help_text="false only when it is certain that the player cannot win")
    out_of_reach = serializers.ListField(
        child=serializers.IntegerField(), help_text="seats the player can no longer catch in the rounds left"
    )
    to_target = serializers.IntegerField(allow_null=True, help_text="a match played to a total: points still missing")
    text = serializers.CharField(help_text="the player's position in words, in the request's language")


class OutlookSerializer(serializers.Serializer):
    rounds_left = serializers.IntegerField(allow_null=True)
    target = serializers.IntegerField(allow_null=True)
    earliest_end = serializers.IntegerField(
        allow_null=True, help_text="played to a total: the fewest rounds before anyone can reach it"
    )
    round = RoundBoundsSerializer(help_text="what one round can do")
    reach = serializers.IntegerField(
        allow_null=True, help_text="the most the rounds left can make up on another player (rounds_left × gain)"
    )
    players = OutlookPlayerSerializer(many=True)
    note = serializers.CharField(allow_blank=True, help_text="one sentence about the whole table, or empty")


class StakesRequestSerializer(serializers.Serializer):
    facts = _Object(
        help_text="the round as far as it is known before play, in the shape of the game's round facts: MÜ "
        "chief, bid (and vice, chief_trump, partner when known); NJET start_player, teams, monster, "
        "points_per_trick"
    )


class StakesRowSerializer(serializers.Serializer):
    role = serializers.CharField()
    label = serializers.CharField()
    cells = serializers.ListField(child=serializers.CharField())


class StakesTableSerializer(serializers.Serializer):
    caption = serializers.CharField()
    head = serializers.ListField(child=serializers.CharField())
    rows = StakesRowSerializer(many=True)


class StakesSerializer(serializers.Serializer):
    ruleset = serializers.CharField()
    available = serializers.BooleanField(help_text="the game has stakes before play (MÜ and NJET)")
    ready = serializers.BooleanField(help_text="the facts say enough for the stakes")
    missing = serializers.ListField(
        child=serializers.CharField(), help_text="fields still missing, or holding values no round can have"
    )
    stakes = _Object(
        allow_null=True,
        help_text="MÜ: target, and what chief, partner, vice and the others score (triangles aside) when the bid "
        "is made (by the chief's trump's bonus column) and when it is missed by each number of levels; NJET: "
        "trick[taker][seat] and booty[taker][seat], what one more trick or captured 0 of the taker gives each seat",
    )
    lines = serializers.ListField(child=serializers.CharField(), help_text="the stakes in words")
    table = StakesTableSerializer(allow_null=True, help_text="MÜ: the points of each role by outcome")
