"""The base view: authentication, write throttling and one mapping from service errors to HTTP."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework import exceptions, status
from rest_framework.authentication import SessionAuthentication, TokenAuthentication
from rest_framework.generics import GenericAPIView
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.parsers import JSONParser
from rest_framework.response import Response

from scoring import selectors
from scoring.models import Group, Match, Round
from scoring.permissions import Authenticated, Public
from scoring.serializers import ErrorSerializer, MatchSerializer, RoundSerializer
from scoring.services import Conflict, IdempotencyMismatch, NotAllowed, StaleVersion, ValidationFailed
from scoring.throttles import WriteThrottle

IF_MATCH = OpenApiParameter(
    "If-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description='the version you are changing, e.g. "3" (or send "version" in the body or query)',
)
VERSION_QUERY = OpenApiParameter(
    "version", OpenApiTypes.INT, OpenApiParameter.QUERY, description="the version you are changing"
)


def flatten(detail: Any, prefix: str = "") -> dict[str, list[str]]:
    """DRF's nested error detail as ``{"field.sub.0": ["message", ...]}``."""
    out: dict[str, list[str]] = {}
    if isinstance(detail, dict):
        for key, value in detail.items():
            name = "non_field_errors" if key == "non_field_errors" and not prefix else str(key)
            for k, v in flatten(value, f"{prefix}.{name}" if prefix else name).items():
                out.setdefault(k, []).extend(v)
    elif isinstance(detail, list):
        if all(not isinstance(item, (dict, list)) for item in detail):
            out[prefix or "non_field_errors"] = [str(item) for item in detail]
        else:
            for i, item in enumerate(detail):
                for k, v in flatten(item, f"{prefix}.{i}" if prefix else str(i)).items():
                    out.setdefault(k, []).extend(v)
    else:
        out[prefix or "non_field_errors"] = [str(detail)]
    return out


def _has_nul(value: Any) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(_has_nul(k) or _has_nul(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_nul(v) for v in value)
    return False


def invalid(problems: dict[str, list[str]], details: list[dict[str, Any]] | None = None) -> Response:
    body: dict[str, Any] = {"detail": gettext("Invalid input."), "errors": problems}
    if details:
        body["problems"] = details
    return Response(body, status=status.HTTP_400_BAD_REQUEST)


class Pagination(LimitOffsetPagination):
    """``?limit=&offset=`` (default 50 per page, at most 500)."""

    max_limit = 500


class ApiSchema(AutoSchema):
    """Documents the error answers every operation can give, besides those declared on the view."""

    def _get_response_bodies(self, direction: Any = "response") -> dict[str, Any]:
        responses = super()._get_response_bodies(direction)
        public = any(isinstance(p, Public) for p in self.view.get_permissions())
        codes = []
        if self.method != "GET" or self._get_filter_parameters() or self.view.pagination_class or self._takes_query():
            codes.append("400")
        if not public:
            codes += ["401", "403"]
        if "{" in self.path:
            codes.append("404")
        if self.method in ("POST", "PUT", "PATCH"):
            codes.append("415")  # the API reads JSON bodies only
        if self.method != "GET" or self.view.throttle_classes != [WriteThrottle]:
            codes.append("429")
        for code in codes:
            if code not in responses:
                responses[code] = self._get_response_for_code(ErrorSerializer, code, direction=direction)
        return responses

    def _takes_query(self) -> bool:
        """Declared query parameters can be malformed: such an operation can answer 400."""
        return any(
            isinstance(p, OpenApiParameter) and p.location == OpenApiParameter.QUERY
            for p in self.get_override_parameters()
        )


class ApiView(GenericAPIView):
    """Signed-in users only; writes throttled; service errors become 400/403/409/422."""

    # Token first, so that a request without credentials gets 401 with "WWW-Authenticate: Token".
    authentication_classes = [TokenAuthentication, SessionAuthentication]
    permission_classes = [Authenticated]
    throttle_classes = [WriteThrottle]
    # JSON only: one body format to validate and document (the web pages post forms to their own views)
    parser_classes = [JSONParser]
    schema = ApiSchema()
    pagination_class = Pagination

    # --- inputs ---------------------------------------------------------------------------------

    def payload(self, serializer_class: Any) -> dict[str, Any]:
        """The request body validated for shape by ``serializer_class``."""
        data = self.request.data
        if _has_nul(data):
            raise ValidationFailed.single("non_field_errors", gettext("Text cannot contain NUL characters."))
        serializer = serializer_class(data=data)
        serializer.is_valid(raise_exception=True)
        return dict(serializer.validated_data)

    def expected_version(self, data: dict[str, Any] | None = None) -> int | None:
        """The version the client edits: If-Match header, else ``version`` in the body or the query."""
        raw = self.request.headers.get("If-Match")
        if raw is None and data is not None and data.get("version") is not None:
            return int(data["version"])
        if raw is None:
            raw = self.request.query_params.get("version")
        if raw is None or raw == "":
            return None
        text = raw.strip()
        if text.startswith("W/"):
            text = text[2:]
        text = text.strip('"')
        if not text.isdigit() or len(text) > 9:
            raise ValidationFailed.single("version", gettext("A version is a whole number."))
        return int(text)

    def group(self, *, group_id: Any) -> Group:
        return selectors.group_get(user=self.request.user, group_id=group_id)

    def match(self, *, match_id: Any) -> Match:
        return selectors.match_get(user=self.request.user, match_id=match_id)

    # --- outputs --------------------------------------------------------------------------------

    def round_context(self, match: Match, names: list[str] | None = None) -> dict[str, Any]:
        """What the round serializers need: the ruleset and the seated players' names (from ``match``'s
        seats unless ``names`` are given)."""
        from scoring import rules

        try:
            ruleset = rules.get(match.ruleset)
        except (KeyError, ModuleNotFoundError):
            ruleset = None
        if names is None:
            names = [s.player.name for s in match.seats.all()]
        return {"request": self.request, "ruleset": ruleset, "names": names}

    def current(self, obj: Any) -> Any:
        """The current representation of an object, sent with a 409 for a stale version."""
        if isinstance(obj, Round):
            match = self.match(match_id=obj.match_id)
            return RoundSerializer(
                selectors.round_get(match=match, number=obj.number), context=self.round_context(match)
            ).data
        if isinstance(obj, Match):
            return MatchSerializer(self.match(match_id=obj.pk)).data
        return None

    def handle_exception(self, exc: Exception) -> Response:
        if isinstance(exc, ValidationFailed):
            return invalid(exc.problems, exc.details)
        if isinstance(exc, exceptions.ValidationError):
            return invalid(flatten(exc.detail))
        if isinstance(exc, StaleVersion):
            body = {"detail": exc.message(), "current": self.current(exc.obj)}
            return Response(body, status=status.HTTP_409_CONFLICT)
        if isinstance(exc, Conflict):
            return Response({"detail": str(exc)}, status=status.HTTP_409_CONFLICT)
        if isinstance(exc, NotAllowed):
            return Response({"detail": str(exc)}, status=status.HTTP_403_FORBIDDEN)
        if isinstance(exc, RecursionError):  # JSON nested thousands deep: refuse it rather than fall over
            return invalid({"non_field_errors": [gettext("The JSON is nested too deeply.")]})
        if isinstance(exc, IdempotencyMismatch):
            return Response({"detail": str(exc)}, status=status.HTTP_422_UNPROCESSABLE_ENTITY)
        return super().handle_exception(exc)


def etag(response: Response, version: int) -> Response:
    response["ETag"] = f'"{version}"'
    return response
