"""Sign-in throttles: what an attacker cannot change.

Failed log-ins are counted per account (the username as typed, normalised: NFKC and case-folded) and per client
address; sign-up attempts per client address; password-reset requests per client address and per e-mail address.
The HTML pages and the API share the counters, so switching surfaces does not buy more guesses. A counter
starts with the first attempt and lasts ``AUTH_LIMIT_WINDOW`` seconds; once it reaches its limit
(``AUTH_LIMITS``) every further attempt is refused, before any password is checked (the right password does not
log in either), until the window ends. A successful log-in clears that account's counter.

The client address is the connection's, or with ``TRUSTED_PROXIES = N`` the N-th address from the end of
X-Forwarded-For: the one our outermost proxy appended, never the client-supplied start of the header.

The counters live in the cache (Redis in production). When the cache cannot be reached, attempts are let
through (and a warning logged), as the API throttles do: a protection must not lock everybody out.
"""

from __future__ import annotations

import hashlib
import ipaddress
import logging
import math
import time
import unicodedata
from collections.abc import Callable
from typing import Any, TypeVar

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import ngettext

logger = logging.getLogger(__name__)
T = TypeVar("T")


def _cache_errors() -> tuple[type[BaseException], ...]:
    from redis.exceptions import ConnectionError as RedisConnectionError
    from redis.exceptions import TimeoutError as RedisTimeoutError

    return (RedisConnectionError, RedisTimeoutError, ConnectionError, TimeoutError, OSError)


CACHE_ERRORS = _cache_errors()


# --- who is asking --------------------------------------------------------------------------------------------


def _address(text: str) -> str | None:
    try:
        return str(ipaddress.ip_address(text.strip()))
    except ValueError:
        return None


def client_ip(request: Any) -> str:
    """The client's address: the connection's, or the one the trusted proxies say they were connected from."""
    meta = getattr(request, "META", {})
    remote = meta.get("REMOTE_ADDR") or "unknown"
    proxies = int(getattr(settings, "TRUSTED_PROXIES", 0) or 0)
    if proxies <= 0:
        return str(remote)
    hops = [hop.strip() for hop in str(meta.get("HTTP_X_FORWARDED_FOR", "")).split(",") if hop.strip()]
    if not hops:
        return str(remote)
    # each trusted proxy appended one address; the outermost one appended the address of whoever connected to it
    return _address(hops[-min(proxies, len(hops))]) or str(remote)


def address_key(address: str) -> str:
    """What the per-address counters count: an IPv4 address, or an IPv6 address's /64 network (one household or
    one server is given a whole /64, and picking another address in it costs nothing)."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    return str(parsed)


def account_key(username: str) -> str:
    """One counter for every spelling of a username (case, compatibility forms, surrounding spaces)."""
    return unicodedata.normalize("NFKC", username or "").strip().casefold()


# --- counters -------------------------------------------------------------------------------------------------


def _key(kind: str, ident: str) -> str:
    digest = hashlib.sha256(ident.encode("utf-8", "surrogatepass")).hexdigest()[:40]
    return f"authlimit:{kind}:{digest}"


def _window() -> int:
    return max(1, int(settings.AUTH_LIMIT_WINDOW))


def _limit(kind: str) -> int:
    return int(settings.AUTH_LIMITS[kind])


def _wait(kind: str, ident: str) -> int | None:
    """Seconds until ``ident`` may try again, or None when it is under its limit."""
    key = _key(kind, ident)
    found = cache.get_many([f"{key}:n", f"{key}:t"])
    count = found.get(f"{key}:n") or 0
    if count < _limit(kind):
        return None
    until = found.get(f"{key}:t") or time.time() + _window()
    return max(1, math.ceil(until - time.time()))


def _count(kind: str, ident: str) -> None:
    key = _key(kind, ident)
    window = _window()
    cache.add(f"{key}:t", time.time() + window, window)
    cache.add(f"{key}:n", 0, window)
    try:
        cache.incr(f"{key}:n")
    except ValueError:  # expired between add and incr: a new window
        cache.set(f"{key}:t", time.time() + window, window)
        cache.set(f"{key}:n", 1, window)


def _clear(kind: str, ident: str) -> None:
    key = _key(kind, ident)
    cache.delete_many([f"{key}:n", f"{key}:t"])


def _safely(action: str, default: T, call: Callable[..., T], *args: Any) -> T:
    try:
        return call(*args)
    except CACHE_ERRORS as exc:
        logger.warning("auth limit %s: cache unreachable (%r); attempt let through", action, exc)
        return default


def _longest(*waits: int | None) -> int | None:
    found = [w for w in waits if w]
    return max(found) if found else None


# --- log-in ---------------------------------------------------------------------------------------------------


def login_wait(request: Any, username: str) -> int | None:
    """Seconds before this account or this client may try a password again (None: go ahead)."""

    def check() -> int | None:
        return _longest(
            _wait("login_account", account_key(username)), _wait("login_ip", address_key(client_ip(request)))
        )

    return _safely("login", None, check)


def login_failed(request: Any, username: str) -> None:
    def count() -> None:
        _count("login_account", account_key(username))
        _count("login_ip", address_key(client_ip(request)))

    _safely("login", None, count)


def login_succeeded(username: str) -> None:
    _safely("login", None, _clear, "login_account", account_key(username))


# --- sign-up and password reset: every attempt counts -------------------------------------------------------


def signup_attempt(request: Any) -> int | None:
    """Counts a sign-up attempt from this client; the seconds to wait when it is over its limit (not counted)."""

    def attempt() -> int | None:
        ip = address_key(client_ip(request))
        wait = _wait("signup_ip", ip)
        if wait is None:
            _count("signup_ip", ip)
        return wait

    return _safely("signup", None, attempt)


def reset_attempt(request: Any, email: str) -> int | None:
    """Counts a password-reset request from this client for this e-mail address (the same way)."""

    def attempt() -> int | None:
        ip = address_key(client_ip(request))
        address = account_key(email)
        wait = _longest(_wait("reset_ip", ip), _wait("reset_email", address) if address else None)
        if wait is None:
            _count("reset_ip", ip)
            if address:
                _count("reset_email", address)
        return wait

    return _safely("reset", None, attempt)


def message(seconds: int) -> str:
    """What a refused attempt is told: the wait in whole minutes (rounded up)."""
    minutes = max(1, math.ceil(seconds / 60))
    template: str = ngettext(
        "Too many attempts. Try again in %(count)d minute.",
        "Too many attempts. Try again in %(count)d minutes.",
        minutes,
    )
    return template % {"count": minutes}
