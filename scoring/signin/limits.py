"""Sign-in throttles: what an attacker cannot change.

Failed log-ins are counted per account (the username as typed, normalised: NFKC and case-folded) and per client
address; sign-up attempts per client address; password-reset requests per client address and per e-mail address.
The HTML pages and the API share the counters, so switching surfaces does not buy more guesses. A counter
starts with the first attempt and lasts ``AUTH_LIMIT_WINDOW`` seconds; once it reaches its limit
(``AUTH_LIMITS``) every further attempt is refused, before any password is checked (the right password does not
log in either), until the window ends. A successful log-in clears that account's counter.

An attempt is counted before it is judged (one atomic increment that is also the comparison with the limit), and
given back when it succeeds: a burst of parallel guesses cannot slip past the limit while the first ones are
still checking their passwords.

The client address is the connection's, or with ``TRUSTED_PROXIES = N`` the N-th address from the end of
X-Forwarded-For: the one our outermost proxy appended, never the client-supplied start of the header.

The counters live in the cache (Redis in production). When the cache cannot be reached, attempts are let
through (and a warning logged), as the API throttles do: a protection must not lock everybody out.
"""

from __future__ import annotations

import contextlib
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

from scoring.services.outages import Outage

logger = logging.getLogger(__name__)
T = TypeVar("T")


def _cache_errors() -> tuple[type[BaseException], ...]:
    from redis.exceptions import ConnectionError as RedisConnectionError
    from redis.exceptions import TimeoutError as RedisTimeoutError

    return (RedisConnectionError, RedisTimeoutError, ConnectionError, TimeoutError, OSError)


CACHE_ERRORS = _cache_errors()
# The throttles and the sign-in limits share the cache: one outage, logged once per process when it starts and
# once when it ends (scoring.services.outages), not once per request.
CACHE_OUTAGE = Outage("throttles and sign-in limits: cache")


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


def _wait(kind: str, ident: str) -> int:
    """Seconds until the window of ``ident``'s counter ends."""
    until = cache.get(f"{_key(kind, ident)}:t") or time.time() + _window()
    return max(1, math.ceil(until - time.time()))


def _reserve(kind: str, ident: str) -> int | None:
    """Count one attempt of ``ident`` before it is judged; the seconds to wait when it is over the limit.

    The count and the comparison are one atomic increment, so parallel attempts (a burst of requests that all
    arrive before any password has been checked) cannot all see the counter under its limit: exactly the
    limit's number of attempts get through per window, however many are sent at once."""
    key = _key(kind, ident)
    window = _window()
    cache.add(f"{key}:t", time.time() + window, window)
    cache.add(f"{key}:n", 0, window)
    try:
        count = cache.incr(f"{key}:n")
    except ValueError:  # expired between add and incr: a new window
        cache.set(f"{key}:t", time.time() + window, window)
        count = 1 if cache.add(f"{key}:n", 1, window) else cache.incr(f"{key}:n")
    return _wait(kind, ident) if count > _limit(kind) else None


def _release(kind: str, ident: str) -> None:
    """Give back one reserved attempt (it turned out not to be a failure)."""
    with contextlib.suppress(ValueError):  # the window ended meanwhile: nothing to give back
        cache.decr(f"{_key(kind, ident)}:n")


def _clear(kind: str, ident: str) -> None:
    key = _key(kind, ident)
    cache.delete_many([f"{key}:n", f"{key}:t"])


def _safely(action: str, default: T, call: Callable[..., T], *args: Any) -> T:
    try:
        found = call(*args)
    except CACHE_ERRORS as exc:
        if CACHE_OUTAGE.failed():
            logger.warning(
                "auth limit %s: cache unreachable (%r); attempts let through, and requests past the throttles, "
                "until it answers again (not logged again meanwhile)",
                action,
                exc,
            )
        return default
    CACHE_OUTAGE.ok()
    return found


# --- log-in ---------------------------------------------------------------------------------------------------


def login_attempt(request: Any, username: str) -> int | None:
    """Count a log-in attempt for this account and this client before the password is checked; the seconds to
    wait when either is over its limit (then nothing may be checked). Every attempt counts as a failure until
    ``login_succeeded`` says otherwise."""

    def attempt() -> int | None:
        account, ip = account_key(username), address_key(client_ip(request))
        wait = _reserve("login_account", account)
        if wait:
            return wait  # (not counted against the address: the account is locked anyway)
        wait = _reserve("login_ip", ip)
        if wait:
            _release("login_account", account)
        return wait

    return _safely("login", None, attempt)


def login_succeeded(request: Any, username: str) -> None:
    """The right password: the account's failures are forgotten, and this attempt does not count for the
    client address (its earlier failures still do)."""

    def forget() -> None:
        _clear("login_account", account_key(username))
        _release("login_ip", address_key(client_ip(request)))

    _safely("login", None, forget)


# --- sign-up and password reset: every attempt counts -------------------------------------------------------


def signup_attempt(request: Any) -> int | None:
    """Counts a sign-up attempt from this client; the seconds to wait when it is over its limit."""
    return _safely("signup", None, _reserve, "signup_ip", address_key(client_ip(request)))


def reset_attempt(request: Any, email: str) -> int | None:
    """Counts a password-reset request from this client for this e-mail address (the same way)."""

    def attempt() -> int | None:
        wait = _reserve("reset_ip", address_key(client_ip(request)))
        address = account_key(email)
        if wait or not address:
            return wait
        return _reserve("reset_email", address)

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
