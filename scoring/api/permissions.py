"""Who may call what.

Group data is guarded in two layers: the selectors return 404 to anyone who is
not a member (so an outsider cannot learn that a group exists), and the services
refuse owner-only actions to members (403).  These classes cover the rest.
"""

from __future__ import annotations

from typing import Any

from rest_framework.permissions import SAFE_METHODS, BasePermission, IsAuthenticated


class Public(BasePermission):
    """The rules, the calculator and the referee: no account needed (they store nothing)."""

    def has_permission(self, request: Any, view: Any) -> bool:
        return True


class Authenticated(IsAuthenticated):
    """A signed-in user (session for the web, token for API clients)."""


class AuthenticatedForWrites(BasePermission):
    """Reads for anyone, writes for signed-in users."""

    def has_permission(self, request: Any, view: Any) -> bool:
        return request.method in SAFE_METHODS or bool(request.user and request.user.is_authenticated)
