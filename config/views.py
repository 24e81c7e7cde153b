"""Wiring-level endpoints (no app logic)."""

from __future__ import annotations

import sys

from django.core.exceptions import RequestDataTooBig
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.html import format_html
from django.utils.translation import gettext
from django.views import defaults
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


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/") and not request.path.startswith("/api/docs/")


def _plain_page(status: int, detail: str) -> HttpResponse:
    body = format_html(
        '<!doctype html><html><head><meta name="viewport" content="width=device-width">'
        '<title>{}</title></head><body><h1>{}</h1><p><a href="/">Scorekeeper</a></p></body></html>',
        status,
        detail,
    )
    return HttpResponse(body, status=status)


# Errors raised before a DRF view answers (no URL matches, a body over DATA_UPLOAD_MAX_MEMORY_SIZE, a bad
# Host header, a CSRF or permission refusal outside DRF): JSON under /api/ like every other API answer.


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if _is_api(request):
        return JsonResponse({"detail": gettext("Not found.")}, status=404)
    return defaults.page_not_found(request, exception)  # type: ignore[arg-type]


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if isinstance(exception, RequestDataTooBig):
        detail = gettext("The request is too large.")
        if _is_api(request):
            return JsonResponse({"detail": detail}, status=413)
        return _plain_page(413, detail)
    if _is_api(request):
        return JsonResponse({"detail": gettext("Bad request.")}, status=400)
    return defaults.bad_request(request, exception)  # type: ignore[arg-type]


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if _is_api(request):
        return JsonResponse({"detail": gettext("You do not have permission to perform this action.")}, status=403)
    return defaults.permission_denied(request, exception)  # type: ignore[arg-type]


def server_error(request: HttpRequest) -> HttpResponse:
    exc = sys.exc_info()[1]
    unavailable = isinstance(exc, _UNAVAILABLE)
    status = 503 if unavailable else 500
    if unavailable:
        detail = gettext("The database is unavailable for a moment. Nothing was saved; please try again.")
    else:
        detail = gettext("Something went wrong on the server. Nothing was saved; please try again.")
    if _is_api(request):
        response: HttpResponse = JsonResponse({"detail": detail}, status=status)
    else:
        response = _plain_page(status, detail)
    if unavailable:
        response["Retry-After"] = "5"
    return response
