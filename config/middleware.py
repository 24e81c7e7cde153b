"""Request and response handling that Django 5.2 does not do itself: forwarded headers believed only from the
proxy's address, a heavy request's place given back when its response is done, and the Content-Security-Policy
and Permissions-Policy response headers."""

from __future__ import annotations

import functools
import ipaddress
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

# What a proxy in front tells the app about the client: its address (the throttles count by it), the scheme
# (Django's SECURE_PROXY_SSL_HEADER) and the host.
FORWARDED_HEADERS = (
    "HTTP_X_FORWARDED_FOR",
    "HTTP_X_FORWARDED_PROTO",
    "HTTP_X_FORWARDED_HOST",
    "HTTP_X_FORWARDED_PORT",
    "HTTP_FORWARDED",
)


@functools.lru_cache(maxsize=8)
def _networks(items: tuple[str, ...]) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    return tuple(ipaddress.ip_network(item, strict=False) for item in items if item != "*")


def forwarded_trusted(remote_addr: str | None) -> bool:
    """Whether the peer ``remote_addr`` is the proxy (``FORWARDED_ALLOW_IPS``), allowed to forward headers."""
    allowed = tuple(settings.FORWARDED_ALLOW_IPS)
    if "*" in allowed:
        return True
    try:
        address = ipaddress.ip_address((remote_addr or "").strip())
    except ValueError:  # no address (a Unix socket, a test client without one): nobody to trust
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return any(address in network for network in _networks(allowed))


class ForwardedHeadersMiddleware:
    """Drops the forwarded headers of a request that did not come from the proxy: once web hosts listen on a
    routable address, anyone who reaches one directly could otherwise choose the client address the throttles
    and sign-in limits count (``TRUSTED_PROXIES`` reads the last hops of X-Forwarded-For) or claim HTTPS."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        meta = request.META
        if any(name in meta for name in FORWARDED_HEADERS) and not forwarded_trusted(meta.get("REMOTE_ADDR")):
            for name in FORWARDED_HEADERS:
                meta.pop(name, None)
        return self.get_response(request)


class HeavyReleaseMiddleware:
    """A heavy request holds one of its user's few places while it runs (``THROTTLE_HEAVY_AT_ONCE``): the throttle
    that gave the place leaves ``request.heavy_release``, called here when the response is closed, that is after
    the last byte of a streamed export has been sent (the server closes every response), or at once when the view
    failed before answering."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            response = self.get_response(request)
        except BaseException:
            release = getattr(request, "heavy_release", None)
            if release is not None:
                release()
            raise
        release = getattr(request, "heavy_release", None)
        if release is not None:
            response._resource_closers.append(release)  # Django calls them from response.close()
        return response


class SecurityHeadersMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.csp = settings.CONTENT_SECURITY_POLICY
        self.permissions = settings.PERMISSIONS_POLICY

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if self.csp:
            response.headers.setdefault("Content-Security-Policy", self.csp)
        if self.permissions:
            response.headers.setdefault("Permissions-Policy", self.permissions)
        return response
