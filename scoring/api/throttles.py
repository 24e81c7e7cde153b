"""Rate limits for the API and the heavy pages. Rates come from ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]``
(``THROTTLE_*`` environment variables) and are read on every request, so a settings
override takes effect at once.

The ``heavy`` scope counts, per user, the requests that cost the server far more than a round: exports, game
night pages and images, dashboards and what-if previews, on the API (``HeavyThrottle`` in a view's
``throttle_classes``) and on the pages (the ``heavy_throttle`` decorator) alike, in one count."""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from rest_framework.exceptions import Throttled
from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

from scoring.signin import limits as auth_limits
from scoring.signin.limits import CACHE_ERRORS, CACHE_OUTAGE

SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
logger = logging.getLogger(__name__)

__all__ = [
    "CACHE_ERRORS",
    "AuthThrottle",
    "CalculatorThrottle",
    "HeavyThrottle",
    "TooManyAttempts",
    "WriteThrottle",
    "heavy_throttle",
]


class TooManyAttempts(Throttled):
    """429 with ``Retry-After`` and the sign-in pages' words: "Too many attempts. Try again in N minutes."."""

    def __init__(self, wait: float) -> None:
        seconds = max(1, math.ceil(wait))
        super().__init__(detail=auth_limits.message(seconds))
        self.wait = seconds  # DRF's handler sends it as Retry-After


# DRF's sliding window, kept in Redis as a list of request times (newest first) and counted in one atomic step:
# times older than the window dropped, the request refused when the window is full, else its time added.  DRF's
# SimpleRateThrottle reads the list and writes it back, two round trips (0.44 ms of a round write's CPU on the
# slower machine, issue 48) between which parallel requests could all take the window's last place.  Answers
# {allowed, requests in the window, the oldest one's time}: what ``wait`` needs.
_WINDOW_SCRIPT = """
local key, now, duration, limit = KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
while true do
    local oldest = redis.call('LINDEX', key, -1)
    if oldest and tonumber(oldest) <= now - duration then redis.call('RPOP', key) else break end
end
local count = redis.call('LLEN', key)
if count >= limit then
    return {0, count, redis.call('LINDEX', key, -1) or ARGV[1]}
end
redis.call('LPUSH', key, ARGV[1])
redis.call('EXPIRE', key, duration)
return {1, count + 1, redis.call('LINDEX', key, -1)}
"""
_scripts: dict[int, Any] = {}


def _window_script(client: Any) -> Any:
    """The window's script registered with ``client`` (sent by its SHA, and in full only when Redis lacks it)."""
    script = _scripts.get(id(client))
    if script is None:
        script = _scripts[id(client)] = client.register_script(_WINDOW_SCRIPT)
    return script


class _ScopedThrottle(SimpleRateThrottle):
    """Counts requests in the cache (Redis in production, in one atomic step: ``_WINDOW_SCRIPT``). When the cache
    cannot be reached the request is let through: a rate limit is a protection, and it must not stop rounds
    being saved while Redis is down."""

    scope = ""
    _window: tuple[int, float] | None = None  # (requests in the window, the oldest one's time) after Redis counted

    def allow_request(self, request: Any, view: Any) -> bool:
        try:
            backend = caches["default"]
            if isinstance(backend, RedisCache):
                allowed = self._allow_in_redis(backend, request, view)
            else:
                allowed = super().allow_request(request, view)
        except CACHE_ERRORS as exc:
            if CACHE_OUTAGE.failed():  # once per outage, not once per request (scoring.services.outages)
                logger.warning(
                    "throttle %s: cache unreachable (%r); requests let through until it answers again "
                    "(not logged again meanwhile)",
                    self.scope,
                    exc,
                )
            return True
        CACHE_OUTAGE.ok()
        return allowed

    def _allow_in_redis(self, backend: RedisCache, request: Any, view: Any) -> bool:
        """``SimpleRateThrottle.allow_request``, counted by ``_WINDOW_SCRIPT`` in one round trip."""
        if self.rate is None:
            return True
        self.key = self.get_cache_key(request, view)  # never None here: every scope counts per user or address
        key = f"{backend.make_and_validate_key(self.key)}:window"  # not the key DRF's pickled list was kept under
        client = backend._cache.get_client(key, write=True)
        self.now = self.timer()
        args = [repr(self.now), self.duration, self.num_requests]
        allowed, count, oldest = _window_script(client)(keys=[key], args=args)
        self._window = (int(count), float(oldest))
        return bool(allowed)

    def wait(self) -> float | None:
        """DRF's: the rest of the window shared among the places left (its formula, from Redis's count)."""
        if self._window is None:
            return super().wait()
        count, oldest = self._window
        remaining = self.duration - (self.now - oldest) if count else self.duration
        available = self.num_requests - count + 1
        return None if available <= 0 else remaining / float(available)

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
    account and per address are counted besides, by ``scoring.signin.limits``."""

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


class HeavyThrottle(_ScopedThrottle):
    """Exports, game night pages and images, dashboards and what-if previews: every method, per user (per client
    address for anyone signed out), one count shared with the pages (``heavy_throttle``).

    Besides the rate, a user has at most ``THROTTLE_HEAVY_AT_ONCE`` heavy requests in progress: eight exports
    sent at once would otherwise share the cores eight ways, each taking seconds, and hold the web threads the
    rest of the table needs. One more answers 429 at once (``Retry-After: 1``); the place is given back when the
    response is closed (``config.middleware.HeavyReleaseMiddleware``), and lapses after ``BUSY_SECONDS`` should
    a process die holding it. No page of the app sends two heavy requests at once."""

    scope = "heavy"
    BUSY_SECONDS = 120

    def allow_request(self, request: Any, view: Any) -> bool:
        self.busy = False
        if not super().allow_request(request, view):
            return False
        at_once = int(getattr(settings, "THROTTLE_HEAVY_AT_ONCE", 0))
        if at_once <= 0:
            return True
        key = f"throttle_heavy_busy_{self.get_cache_key(request, view)}"
        try:
            self.cache.add(key, 0, self.BUSY_SECONDS)
            if self.cache.incr(key) > at_once:
                self.cache.decr(key)
                self.busy = True
                return False
        except ValueError:  # the place lapsed between add and incr: nothing is held
            return True
        except CACHE_ERRORS:  # as for the rate: a protection that must not stop the page while Redis is away
            return True
        getattr(request, "_request", request).heavy_release = lambda: self._release(key)
        return True

    def _release(self, key: str) -> None:
        try:
            if self.cache.decr(key) < 0:  # lapsed and taken again meanwhile: never below nothing
                self.cache.set(key, 0, self.BUSY_SECONDS)
        except (ValueError, *CACHE_ERRORS):  # lapsed, or Redis away: it lapses by itself
            pass

    def wait(self) -> float | None:
        return 1.0 if self.busy else super().wait()


def heavy_too_many(request: Any, wait: float | None) -> Any:
    """The answer past the heavy rate: 429 with ``Retry-After``, JSON under ``/api/``, a small page elsewhere."""
    from django.http import HttpResponse, JsonResponse
    from django.utils.html import format_html
    from django.utils.translation import get_language, gettext, ngettext

    seconds = max(1, math.ceil(wait or 1))
    text = ngettext(
        "Too many large pages and downloads in a short time. Try again in %(n)d second.",
        "Too many large pages and downloads in a short time. Try again in %(n)d seconds.",
        seconds,
    ) % {"n": seconds}
    if request.path.startswith("/api/"):
        response: Any = JsonResponse({"detail": text}, status=429)
    else:
        body = format_html(
            '<!doctype html><html lang="{}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1"><title>{}</title></head>'
            '<body><main><h1>{}</h1><p>{}</p><p><a href="/">Scorekeeper</a></p></main></body></html>',
            get_language() or "en",
            gettext("Too many requests"),
            gettext("Too many requests"),
            text,
        )
        response = HttpResponse(body, status=429)
    response["Retry-After"] = str(seconds)
    return response


def heavy_throttle(view: Callable[..., Any]) -> Callable[..., Any]:
    """Count a plain Django view in the ``heavy`` scope (put it under ``login_required``, so that it counts per
    user): past the rate it answers 429 (``heavy_too_many``) without running the view."""

    @wraps(view)
    def throttled(request: Any, *args: Any, **kwargs: Any) -> Any:
        throttle = HeavyThrottle()
        if not throttle.allow_request(request, None):
            return heavy_too_many(request, throttle.wait())
        return view(request, *args, **kwargs)

    return throttled
