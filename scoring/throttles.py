"""Rate limits for the API. Rates come from ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]``
(``THROTTLE_*`` environment variables) and are read on every request, so a settings
override takes effect at once."""

from __future__ import annotations

import logging
import math
from typing import Any

from rest_framework.exceptions import Throttled
from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

from scoring import auth_limits
from scoring.auth_limits import CACHE_ERRORS, CACHE_OUTAGE

SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
logger = logging.getLogger(__name__)

__all__ = ["CACHE_ERRORS", "AuthThrottle", "CalculatorThrottle", "TooManyAttempts", "WriteThrottle"]


class TooManyAttempts(Throttled):
    """429 with ``Retry-After`` and the sign-in pages' words: "Too many attempts. Try again in N minutes."."""

    def __init__(self, wait: float) -> None:
        seconds = max(1, math.ceil(wait))
        super().__init__(detail=auth_limits.message(seconds))
        self.wait = seconds  # DRF's handler sends it as Retry-After


class _ScopedThrottle(SimpleRateThrottle):
    """Counts requests in the cache (Redis in production). When the cache cannot be reached the request is
    let through: a rate limit is a protection, and it must not stop rounds being saved while Redis is down."""

    scope = ""

    def allow_request(self, request: Any, view: Any) -> bool:
        try:
            allowed = super().allow_request(request, view)
        except CACHE_ERRORS as exc:
            if CACHE_OUTAGE.failed():  # once per outage, not once per request (scoring.outages)
                logger.warning(
                    "throttle %s: cache unreachable (%r); requests let through until it answers again "
                    "(not logged again meanwhile)",
                    self.scope,
                    exc,
                )
            return True
        CACHE_OUTAGE.ok()
        return allowed

    def get_ident(self, request: Any) -> str:
        """The client address: the connection's, or the trusted proxies' word for it (TRUSTED_PROXIES); an IPv6
        client by its /64."""
        return auth_limits.address_key(auth_limits.client_ip(request))

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
    """Log-in, token and sign-up requests, per client address (guessing passwords gets slow). Failed log-ins per
    account and per address are counted besides, by ``scoring.auth_limits``."""

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
