"""Request shapes and response representations. No rules here: validation of facts and
options is the rules engine's (through the services); these only check JSON shapes."""

from __future__ import annotations

from typing import Any

from django.utils.translation import get_language
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from scoring.models import Group, Invite, Match, Membership, Player, Round, RoundEvent
from scoring.serializers_outlook import OutlookSerializer

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


# --- accounts ---------------------------------------------------------------------------------------


class TokenRequestSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=128, trim_whitespace=False, style={"input_type": "password"})


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField()
    username = serializers.CharField()


class MeSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()


# --- groups, members, invites -----------------------------------------------------------------------


class GroupSerializer(serializers.ModelSerializer):
    my_role = serializers.CharField(read_only=True)
    member_count = serializers.IntegerField(read_only=True)
    player_count = serializers.IntegerField(read_only=True)

    class Meta:
        model = Group
        fields = ["id", "name", "created_at", "my_role", "member_count", "player_count"]


class GroupCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=80)
    player_name = serializers.CharField(
        max_length=60, required=False, allow_blank=True, help_text="also create your own player with this name"
    )


class GroupUpdateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=80)


class MembershipSerializer(serializers.ModelSerializer):
    username = serializers.CharField(source="user.username", read_only=True)

    class Meta:
        model = Membership
        fields = ["id", "user", "username", "role", "joined_at"]


class MembershipCreateSerializer(serializers.Serializer):
    username = serializers.CharField(
        max_length=150, help_text="the account to invite; it joins (as a member) only when it accepts"
    )


class InvitationSentSerializer(serializers.Serializer):
    detail = serializers.CharField(help_text="the same answer whether or not an account has that username")


class InvitationSerializer(serializers.ModelSerializer):
    """A personal invitation, as the invited account sees it."""

    group_name = serializers.CharField(source="group.name", read_only=True)
    invited_by = serializers.CharField(source="created_by.username", read_only=True, allow_null=True, default=None)

    class Meta:
        model = Invite
        fields = ["id", "group", "group_name", "invited_by", "created_at", "expires_at"]


class MembershipUpdateSerializer(serializers.Serializer):
    role = serializers.ChoiceField(choices=Membership.Role.choices)


class InviteSerializer(serializers.ModelSerializer):
    player_name = serializers.CharField(source="player.name", read_only=True, allow_null=True, default=None)
    valid = serializers.SerializerMethodField()
    accept_url = serializers.SerializerMethodField()

    class Meta:
        model = Invite
        fields = [
            "id",
            "token",
            "accept_url",
            "player",
            "player_name",
            "created_at",
            "expires_at",
            "revoked_at",
            "accepted_count",
            "invitee_name",
            "valid",
        ]

    def get_valid(self, invite: Invite) -> bool:
        from scoring.services import invite_is_valid

        return invite_is_valid(invite=invite)

    def get_accept_url(self, invite: Invite) -> str:
        return f"/api/v1/invites/{invite.token}/accept"


class InviteCreateSerializer(serializers.Serializer):
    player = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=INT32)
    days = serializers.IntegerField(required=False, min_value=1, max_value=365)


class InvitePreviewSerializer(serializers.Serializer):
    group = serializers.CharField(source="group.name")
    player_name = serializers.CharField(source="player.name", allow_null=True, default=None)
    expires_at = serializers.DateTimeField()
    valid = serializers.SerializerMethodField()

    def get_valid(self, invite: Invite) -> bool:
        from scoring.services import invite_is_valid

        return invite_is_valid(invite=invite)


# --- players ----------------------------------------------------------------------------------------


class PlayerSerializer(serializers.ModelSerializer):
    username = serializers.CharField(source="user.username", read_only=True, allow_null=True, default=None)
    matches_played = serializers.IntegerField(read_only=True)

    class Meta:
        model = Player
        fields = ["id", "name", "user", "username", "is_guest", "matches_played", "merged_into", "created_at"]


class PlayerCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=60)
    user = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=INT32, help_text="link to this member's account"
    )


class PlayerUpdateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=60, required=False)
    user = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=INT32, help_text="member account id, null = guest"
    )


class PlayerMergeSerializer(serializers.Serializer):
    into = serializers.IntegerField(min_value=1, max_value=INT32, help_text="the player who remains")


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


class ErrorSerializer(serializers.Serializer):
    detail = serializers.CharField()
    errors = serializers.DictField(child=serializers.ListField(child=serializers.CharField()), required=False)
    problems = serializers.ListField(child=ObjectField(), required=False)


class ConflictSerializer(serializers.Serializer):
    detail = serializers.CharField()
    current = ObjectField(required=False, help_text="the current state of the object (for a stale version)")


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
