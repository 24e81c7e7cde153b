"""Rate limits for the API. Rates come from ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]``
(``THROTTLE_*`` environment variables) and are read on every request, so a settings
override takes effect at once."""

from __future__ import annotations

from typing import Any

from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


class _ScopedThrottle(SimpleRateThrottle):
    scope = ""

    def get_rate(self) -> str | None:
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)

    def get_cache_key(self, request: Any, view: Any) -> str:
        user = getattr(request, "user", None)
        ident = f"user-{user.pk}" if user is not None and user.is_authenticated else self.get_ident(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}


class CalculatorThrottle(_ScopedThrottle):
    """The public calculator and trick referee (they store nothing but cost CPU)."""

    scope = "calculator"


class AuthThrottle(_ScopedThrottle):
    """Log-in, token and sign-up attempts, per client address (guessing passwords gets slow)."""

    scope = "auth"

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class WriteThrottle(_ScopedThrottle):
    """Every write (POST, PUT, PATCH, DELETE) per user; reads are not limited here."""

    scope = "writes"

    def allow_request(self, request: Any, view: Any) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return super().allow_request(request, view)
