"""Wiring-level endpoints (no app logic)."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET


@require_GET
def ping(request: HttpRequest) -> JsonResponse:
    """A bare JSON endpoint (no database, no session): the baseline for the API benchmark."""
    return JsonResponse({"ok": True})
