"""Wiring-level endpoints (no app logic)."""

from __future__ import annotations

import sys

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.html import format_html
from django.utils.translation import gettext
from django.views.decorators.http import require_safe


@require_safe
def ping(request: HttpRequest) -> JsonResponse:
    """A bare JSON endpoint (no database, no session): the baseline for the API benchmark."""
    return JsonResponse({"ok": True})


# Django's plain answer when a view raised: a page, or JSON under /api/. A database that cannot be reached
# (a restart, a dropped connection) is temporary: 503 with Retry-After, so that clients retry (the offline
# queue and API clients send the same Idempotency-Key, and nothing was half-written: each write is one
# transaction).
_UNAVAILABLE = (OperationalError, InterfaceError)


def server_error(request: HttpRequest) -> HttpResponse:
    exc = sys.exc_info()[1]
    unavailable = isinstance(exc, _UNAVAILABLE)
    status = 503 if unavailable else 500
    if unavailable:
        detail = gettext("The database is unavailable for a moment. Nothing was saved; please try again.")
    else:
        detail = gettext("Something went wrong on the server. Nothing was saved; please try again.")
    if request.path.startswith("/api/"):
        response: HttpResponse = JsonResponse({"detail": detail}, status=status)
    else:
        body = format_html(
            '<!doctype html><html><head><meta name="viewport" content="width=device-width">'
            '<title>{}</title></head><body><h1>{}</h1><p><a href="/">Scorekeeper</a></p></body></html>',
            status,
            detail,
        )
        response = HttpResponse(body, status=status)
    if unavailable:
        response["Retry-After"] = "5"
    return response
