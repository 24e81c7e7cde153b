"""The base view: authentication, write throttling and one mapping from service errors to HTTP."""

from __future__ import annotations

from functools import cache
from typing import Any

from django.utils.translation import get_language, gettext, gettext_noop
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework import exceptions, serializers, status
from rest_framework.authentication import SessionAuthentication
from rest_framework.generics import GenericAPIView
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.parsers import JSONParser
from rest_framework.response import Response

from scoring import selectors
from scoring.api.authentication import TokenAuthentication
from scoring.api.permissions import Authenticated, Public
from scoring.api.serializers import ErrorSerializer, MatchSerializer, RoundSerializer
from scoring.api.throttles import WriteThrottle
from scoring.models import Group, Match, Round
from scoring.services import Conflict, IdempotencyMismatch, NotAllowed, StaleVersion, ValidationFailed
from scoring.text.names import any_text
from scoring.text.numbers import parse_whole

# The version a client edits: an ETag it read ("3", W/"3" or 3). ASCII digits only.
VERSION_PATTERN = r'^(W/)?"?[0-9]{1,9}"?$'
IF_MATCH = OpenApiParameter(
    "If-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    pattern=VERSION_PATTERN,
    description='the version you are changing, e.g. "3" (or send "version" in the body)',
)
# Where the service refuses a write without the version it was made against (optimistic concurrency), the
# schema says so: If-Match is required. ("version" in the body or the query is still read when If-Match is
# absent, for older clients, but it is not the documented way.)
IF_MATCH_REQUIRED = OpenApiParameter(
    "If-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=True,
    pattern=VERSION_PATTERN,
    description='the version you are changing (the ETag of your last read), e.g. "3"; an older version is '
    "refused with 409 and the current object",
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
    """Whether a NUL character is in any text of a parsed JSON document (keys too)."""
    return any_text(value, lambda text: "\x00" in text)


# DRF coerces JSON types quietly: 0 becomes the name "0", "3" the integer 3, "yes" the boolean true. The
# schema promises a string, an integer, a boolean: a body with another JSON type is refused, naming the field.
_JSON_TYPES: list[tuple[type[serializers.Field], tuple[type, ...], str]] = [
    (serializers.BooleanField, (bool,), gettext_noop("Must be true or false.")),
    (serializers.IntegerField, (int,), gettext_noop("Must be a whole number.")),
    (serializers.ChoiceField, (str,), gettext_noop("Must be text.")),
    (serializers.CharField, (str,), gettext_noop("Must be text.")),
]


def _type_problem(field: serializers.Field, value: Any) -> str | None:
    if value is None:
        return None
    for kind, types, message in _JSON_TYPES:
        if isinstance(field, kind):
            ok = isinstance(value, types) and not (kind is serializers.IntegerField and isinstance(value, bool))
            return None if ok else gettext(message)
    return None


def _wrong_json_types(serializer: Any, data: Any, prefix: str = "") -> dict[str, list[str]]:
    """Fields of ``serializer`` (and of its nested serializers and list children) sent with the wrong JSON type."""
    out: dict[str, list[str]] = {}
    if not isinstance(data, dict):
        return out
    for name, field in serializer.fields.items():
        if field.read_only or name not in data:
            continue
        value, path = data[name], f"{prefix}{name}"
        if isinstance(field, serializers.ListField) and isinstance(value, list):
            for i, item in enumerate(value):
                problem = _type_problem(field.child, item)
                if problem:
                    out[f"{path}.{i}"] = [problem]
        elif isinstance(field, serializers.Serializer):
            out.update(_wrong_json_types(field, value, f"{path}."))
        else:
            problem = _type_problem(field, value)
            if problem:
                out[path] = [problem]
    return out


@cache
def _validator(serializer_class: Any, language: str | None) -> serializers.Serializer:
    """One unbound instance per input serializer and language, its fields built once: ``run_validation`` keeps
    nothing on the instance, and these serializers validate shape only (no context, no instance, no ``validate``
    hooks). Per language, because DRF words some messages once per field (``lazy_format`` keeps its first text)."""
    return serializer_class()


def invalid(problems: dict[str, list[str]], details: list[dict[str, Any]] | None = None) -> Response:
    body: dict[str, Any] = {"detail": gettext("Invalid input."), "errors": problems}
    if details:
        body["problems"] = details
    return Response(body, status=status.HTTP_400_BAD_REQUEST)


OFFSET_MAX = 2**31 - 1


class Pagination(LimitOffsetPagination):
    """``?limit=&offset=`` (default 50 per page, at most 500). A limit or offset that is not a whole number in
    range is a 400 naming it, as documented (DRF would quietly read ``offset=null`` as 0)."""

    max_limit = 500

    def _query_number(self, request: Any, name: str, *, minimum: int, maximum: int | None) -> int | None:
        raw = request.query_params.get(name)
        if raw is None:
            return None
        number = parse_whole(raw, max_digits=4000)
        if number is None or number < minimum or (maximum is not None and number > maximum):
            raise ValidationFailed.single(name, gettext("Enter a whole number from %(low)s.") % {"low": minimum})
        return number

    def get_limit(self, request: Any) -> int | None:
        limit = self._query_number(request, self.limit_query_param, minimum=1, maximum=None)
        return self.default_limit if limit is None else min(limit, self.max_limit)

    def get_offset(self, request: Any) -> int:
        offset = self._query_number(request, self.offset_query_param, minimum=0, maximum=OFFSET_MAX)
        return offset or 0

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters = super().get_schema_operation_parameters(view)
        bounds = {
            self.limit_query_param: {"minimum": 1},
            self.offset_query_param: {"minimum": 0, "maximum": OFFSET_MAX},
        }
        for parameter in parameters:
            parameter["schema"].update(bounds.get(parameter["name"], {}))
        return parameters


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
        serializer = _validator(serializer_class, get_language())
        wrong = _wrong_json_types(serializer, data)
        if wrong:
            raise ValidationFailed(wrong)
        return dict(serializer.run_validation(data))  # what is_valid() runs; a ValidationError as it raises

    def expected_version(self, data: dict[str, Any] | None = None) -> int | None:
        """The version the client edits: If-Match header, else ``version`` in the body or the query.

        ASCII digits only (``"²"`` or ``"١"`` are not versions): anything else is a 400 naming ``version``.  An
        If-Match header that is there but empty (or blank) is a 400 too, never "no header": a client that meant to
        send a version and lost it must not have its change applied unchecked."""
        raw: Any = self.request.headers.get("If-Match")
        if raw is not None and not raw.strip():
            raise ValidationFailed.single(
                "version", gettext('The If-Match header is empty: send the version you are changing, e.g. "3".')
            )
        if raw is None and data is not None and data.get("version") is not None:
            raw = data["version"]
        if raw is None:
            raw = self.request.query_params.get("version")
        if raw is None or raw == "":
            return None
        if isinstance(raw, str):
            raw = raw.strip()
            if raw.startswith("W/"):
                raw = raw[2:]
            raw = raw.strip('"')
        version = parse_whole(raw, max_digits=9)
        if version is None:
            raise ValidationFailed.single("version", gettext("A version is a whole number."))
        return version

    def required_version(self, data: dict[str, Any] | None = None) -> int:
        """``expected_version``, for a write that must name the version it was made against: an undo without
        it would undo one more change for every repeated or parallel tap."""
        version = self.expected_version(data)
        if version is None:
            raise ValidationFailed.single(
                "version", gettext("Send the version you are editing (If-Match or 'version').")
            )
        return version

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
            if isinstance(exc.obj, Round):  # who changed the round meanwhile, as the table calls them
                body["changed_by"] = selectors.round_changed_by(round=exc.obj)
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
