"""Rate limits for the API. Rates come from ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]``
(``THROTTLE_*`` environment variables) and are read on every request, so a settings
override takes effect at once."""

from __future__ import annotations

import logging
from typing import Any

from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
logger = logging.getLogger(__name__)


def _cache_errors() -> tuple[type[BaseException], ...]:
    from redis.exceptions import ConnectionError as RedisConnectionError
    from redis.exceptions import TimeoutError as RedisTimeoutError

    return (RedisConnectionError, RedisTimeoutError, ConnectionError, TimeoutError, OSError)


CACHE_ERRORS = _cache_errors()


class _ScopedThrottle(SimpleRateThrottle):
    """Counts requests in the cache (Redis in production). When the cache cannot be reached the request is
    let through: a rate limit is a protection, and it must not stop rounds being saved while Redis is down."""

    scope = ""

    def allow_request(self, request: Any, view: Any) -> bool:
        try:
            return super().allow_request(request, view)
        except CACHE_ERRORS as exc:
            logger.warning("throttle %s: cache unreachable (%r); request let through", self.scope, exc)
            return True

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
