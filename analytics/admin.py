from django.contrib import admin

from .models import Snapshot


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
