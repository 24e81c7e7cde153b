"""Admin: for looking things up. Writes that affect scores belong in the services (the app and the API)."""

from __future__ import annotations

from django.contrib import admin

from scoring.models import (
    Group,
    IdempotencyKey,
    Invite,
    InviteUse,
    Match,
    Membership,
    Player,
    Removal,
    Round,
    RoundEvent,
    Score,
    Seat,
)


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    raw_id_fields = ["user"]


class PlayerInline(admin.TabularInline):
    model = Player
    extra = 0
    fields = ["name", "user", "merged_into"]
    raw_id_fields = ["user", "merged_into"]


@admin.register(Group)
class GroupAdmin(admin.ModelAdmin):
    list_display = ["name", "created_at", "created_by"]
    search_fields = ["name"]
    inlines = [MembershipInline, PlayerInline]
    raw_id_fields = ["created_by"]


@admin.register(Invite)
class InviteAdmin(admin.ModelAdmin):
    list_display = ["group", "player", "invitee_name", "created_at", "expires_at", "revoked_at", "accepted_count"]
    list_select_related = ["group", "player"]
    raw_id_fields = ["group", "player", "created_by", "invitee"]


@admin.register(InviteUse)
class InviteUseAdmin(admin.ModelAdmin):
    list_display = ["invite", "user", "used_at"]
    raw_id_fields = ["invite", "user"]


@admin.register(Removal)
class RemovalAdmin(admin.ModelAdmin):
    list_display = ["group", "user", "removed_by", "removed_at"]
    raw_id_fields = ["group", "user", "removed_by"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "group", "user", "merged_into"]
    list_select_related = ["group", "user"]
    search_fields = ["name", "user__username"]
    raw_id_fields = ["group", "user", "merged_into"]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    raw_id_fields = ["player"]


class ReadOnlyAdmin(admin.ModelAdmin):
    """History and scores are written by the services only."""

    def has_add_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False

    def has_change_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False

    def has_delete_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["id", "group", "ruleset", "state", "finish_reason", "version", "created_at", "finished_at"]
    list_filter = ["ruleset", "state"]
    list_select_related = ["group"]
    readonly_fields = [
        "ruleset",
        "options",
        "state",
        "version",
        "next_number",
        "finish_reason",
        "finished_at",
        "winners",  # written by the services whenever the rounds are scored
    ]
    raw_id_fields = ["group", "created_by"]
    inlines = [SeatInline]


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin):
    list_display = ["id", "match", "number", "version", "ruleset_version", "points", "entered_by", "deleted_at"]
    list_select_related = ["match", "entered_by"]
    list_filter = ["match__ruleset"]


@admin.register(Score)
class ScoreAdmin(ReadOnlyAdmin):
    list_display = ["round", "player", "seat", "points"]
    list_select_related = ["round", "player"]


@admin.register(RoundEvent)
class RoundEventAdmin(ReadOnlyAdmin):
    list_display = ["id", "match", "round_number", "action", "actor", "at"]
    list_select_related = ["match", "actor"]
    list_filter = ["action"]


@admin.register(IdempotencyKey)
class IdempotencyKeyAdmin(ReadOnlyAdmin):
    list_display = ["key", "user", "scope", "status", "created_at"]
    list_select_related = ["user"]
