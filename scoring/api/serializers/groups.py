"""Accounts, groups, members, invitations and players."""

from __future__ import annotations

from rest_framework import serializers

from scoring.api.serializers.common import INT32
from scoring.models import Group, Invite, Membership, Player

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
