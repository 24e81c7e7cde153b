from django.contrib import admin

from analytics.models import Snapshot, StatsRebuild


@admin.register(Snapshot)
class SnapshotAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Read-only: snapshots are computed, never edited."""

    list_display = ("key", "updated_at", "stale", "computing", "progress")
    list_filter = ("scope", "stale", "computing")
    search_fields = ("key",)
    readonly_fields = [f.name for f in Snapshot._meta.fields]

    def has_add_permission(self, request: object) -> bool:
        return False

    def has_change_permission(self, request: object, obj: object = None) -> bool:
        return False


@admin.register(StatsRebuild)
class StatsRebuildAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Read-only: how far each full rebuild got (a run that never finishes lost a group's task)."""

    list_display = ("pk", "started_at", "finished_at", "groups", "groups_left", "percent_done")
    readonly_fields = ("started_at", "finished_at", "groups", "pending")

    @admin.display(description="groups left")
    def groups_left(self, obj: StatsRebuild) -> int:
        return len(obj.pending)

    @admin.display(description="done")
    def percent_done(self, obj: StatsRebuild) -> str:
        return f"{obj.progress:.0%}"

    def has_add_permission(self, request: object) -> bool:
        return False

    def has_change_permission(self, request: object, obj: object = None) -> bool:
        return False
