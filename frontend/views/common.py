"""Small helpers shared by the views."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import NoReverseMatch, reverse

from scoring.services import ServiceError, StaleVersion, ValidationFailed


def stats_url(name: str, *args: Any) -> str | None:
    """A statistics dashboard's URL (``analytics:group`` …) when the analytics pages are installed."""
    try:
        return reverse(name, args=args)
    except NoReverseMatch:
        return None


def page(request: HttpRequest, template: str, context: dict[str, Any] | None = None, status: int = 200) -> HttpResponse:
    return render(request, template, context or {}, status=status)


def error_text(error: ServiceError) -> str:
    """One readable line for a service error (field messages joined)."""
    if isinstance(error, ValidationFailed):
        return " ".join(message for messages in error.problems.values() for message in messages)
    if isinstance(error, StaleVersion):
        return error.message()
    return str(error)


def field_errors(error: ValidationFailed) -> dict[str, list[str]]:
    return {key.split(".")[-1] if key != "non_field_errors" else "__all__": v for key, v in error.problems.items()}
