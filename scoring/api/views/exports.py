"""CSV and JSON export of a group; JSON import (into a new group or an existing one).

An import body above ``settings.IMPORT_MAX_BYTES`` is refused with a JSON 413; one above
``settings.IMPORT_ASYNC_BYTES`` is imported by a Celery task: the answer is 202 with the URL of its status.
"""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.http import Http404, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.urls import reverse
from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import exceptions, serializers, status
from rest_framework.parsers import BaseParser
from rest_framework.request import Request
from rest_framework.response import Response

from scoring.api.serializers import ErrorSerializer, GroupSerializer
from scoring.api.throttles import HeavyThrottle, WriteThrottle
from scoring.api.views.base import ApiView, _has_nul
from scoring.api.views.groups import ERRORS
from scoring.services import ValidationFailed
from scoring.transfer import exporting, importing

DOCUMENT = {"type": "object", "additionalProperties": True, "description": "a Scorekeeper group export (format 1)"}


class DocumentTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "too_large"

    def __init__(self) -> None:
        mb = settings.IMPORT_MAX_BYTES // (1024 * 1024)
        super().__init__(gettext("An import can be at most %(n)d MB.") % {"n": mb})


class ImportJSONParser(BaseParser):
    """JSON up to ``IMPORT_MAX_BYTES`` (a larger body is a 413 before it is read whole); the raw text is kept
    on the request (``import_raw``) for a Celery import."""

    media_type = "application/json"

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        request = (parser_context or {}).get("request")
        limit = settings.IMPORT_MAX_BYTES
        declared = request.META.get("CONTENT_LENGTH") if request is not None else None
        if declared and declared.isascii() and declared.isdigit() and int(declared) > limit:
            raise DocumentTooLarge()
        raw = stream.read(limit + 1) if stream is not None else b""
        if len(raw) > limit:
            raise DocumentTooLarge()
        try:
            data = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError) as exc:
            raise exceptions.ParseError(gettext("The body is not JSON: %(error)s") % {"error": exc}) from None
        if request is not None:
            request.import_raw = raw
        return data


class ImportedSerializer(serializers.Serializer):
    players = serializers.IntegerField(help_text="players added")
    matches = serializers.IntegerField(help_text="matches added")
    already = serializers.IntegerField(help_text="matches of the file the group already held (left as they are)")
    presets = serializers.IntegerField(help_text="house rules added")


class GroupImportResultSerializer(GroupSerializer):
    imported = serializers.SerializerMethodField()

    class Meta(GroupSerializer.Meta):
        fields = [*GroupSerializer.Meta.fields, "imported"]

    @extend_schema_field(ImportedSerializer)
    def get_imported(self, group: Any) -> dict[str, int]:
        return self.context["imported"]


class ImportJobSerializer(serializers.Serializer):
    id = serializers.CharField()
    state = serializers.ChoiceField(choices=["queued", "running", "done", "failed"])
    percent = serializers.IntegerField(help_text="0 to 100")
    status_url = serializers.CharField()
    group = GroupSerializer(required=False, allow_null=True, help_text="the group imported into, once done")
    errors = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        required=False,
        help_text="field path -> problems, when the import failed (nothing was written)",
    )
    imported = ImportedSerializer(required=False, help_text="what was added, once done")


class _ImportBase(ApiView):
    serializer_class = GroupSerializer
    parser_classes = [ImportJSONParser]

    def document(self) -> object:
        data = self.request.data
        if _has_nul(data):
            raise ValidationFailed.single("non_field_errors", gettext("Text cannot contain NUL characters."))
        return data

    def large(self) -> bytes | None:
        """The raw document when it is large enough for a Celery import."""
        self.document()
        raw: bytes = getattr(self.request, "import_raw", b"")
        return raw if len(raw) > settings.IMPORT_ASYNC_BYTES else None

    def queued(self, job_id: str) -> Response:
        body = _job_body(job_id, importing.job_status(job_id=job_id, user=self.request.user) or {}, self.request)
        response = Response(body, status=status.HTTP_202_ACCEPTED)
        response["Location"] = body["status_url"]
        return response


def _job_body(job_id: str, job: dict[str, Any], request: Request) -> dict[str, Any]:
    from scoring import selectors

    body: dict[str, Any] = {
        "id": job_id,
        "state": job.get("state", "queued"),
        "percent": job.get("percent", 0),
        "status_url": request.build_absolute_uri(reverse("api:import-job", args=[job_id])),
    }
    if job.get("state") == "done":
        group = selectors.group_get(user=request.user, group_id=job["group"])
        body["group"] = GroupSerializer(group).data
        body["imported"] = job.get("added", {})
    if job.get("state") == "failed":
        body["errors"] = job.get("errors", {})
    return body


class ImportJobView(ApiView):
    """Where a large import stands (only for the person who started it)."""

    serializer_class = ImportJobSerializer

    @extend_schema(responses={200: ImportJobSerializer, 404: ErrorSerializer}, summary="The state of an import")
    def get(self, request: Request, job_id: str) -> Response:
        job = importing.job_status(job_id=job_id, user=request.user)
        if job is None:
            raise Http404
        return Response(_job_body(job_id, job, request))


class GroupExportView(ApiView):
    serializer_class = GroupSerializer
    throttle_classes = [WriteThrottle, HeavyThrottle]

    @extend_schema(responses={200: DOCUMENT, 404: ErrorSerializer}, summary="Export a group as JSON")
    def get(self, request: Request, group_id: int) -> HttpResponseBase:
        """The whole group (players, house rules, matches with their rounds and history, night corrections),
        streamed a batch of matches at a time; importing it into an empty group and exporting that gives the same
        document.  Counted in the ``heavy`` throttle scope."""
        group = self.group(group_id=group_id)
        response = StreamingHttpResponse(exporting.group_export_stream(group=group), content_type="application/json")
        response["Content-Disposition"] = f'attachment; filename="group-{group.pk}.json"'
        return response


class GroupExportCsvView(ApiView):
    serializer_class = GroupSerializer
    throttle_classes = [WriteThrottle, HeavyThrottle]

    @extend_schema(
        responses={(200, "text/csv"): OpenApiTypes.STR, 404: ErrorSerializer},
        summary="Export one table of a group as CSV (players, matches or rounds)",
    )
    def get(self, request: Request, group_id: int, table: str) -> HttpResponseBase:
        """Streamed a batch of matches at a time; counted in the ``heavy`` throttle scope."""
        group = self.group(group_id=group_id)
        if table not in exporting.TABLES:
            raise Http404
        response = StreamingHttpResponse(
            exporting.group_export_csv_stream(group=group, table=table), content_type="text/csv; charset=utf-8"
        )
        response["Content-Disposition"] = f'attachment; filename="group-{group.pk}-{table}.csv"'
        return response


class GroupImportNewView(_ImportBase):
    @extend_schema(
        request=OpenApiTypes.OBJECT,
        responses={201: GroupSerializer, 202: ImportJobSerializer, 413: ErrorSerializer, **ERRORS},
        summary="Import an export as a new group",
        operation_id="groups_import",
    )
    def post(self, request: Request) -> Response:
        raw = self.large()
        if raw is not None:
            return self.queued(importing.job_start(raw=raw, user=request.user, group=None))
        group = exporting.group_import_new(data=self.document(), user=request.user)
        return Response(GroupSerializer(self.group(group_id=group.pk)).data, status=status.HTTP_201_CREATED)


class GroupImportView(_ImportBase):
    @extend_schema(
        request=OpenApiTypes.OBJECT,
        operation_id="group_import",
        responses={200: GroupImportResultSerializer, 202: ImportJobSerializer, 413: ErrorSerializer, **ERRORS},
        summary="Import an export into this group (owners)",
        description="Adds what the group does not hold yet: a match it already holds (by its identifier, or an "
        "older file's match by game, start time and players) is left as it is and counted in `imported.already`, "
        "so importing the same file twice adds nothing.",
    )
    def post(self, request: Request, group_id: int) -> Response:
        group = self.group(group_id=group_id)
        raw = self.large()
        if raw is not None:
            return self.queued(importing.job_start(raw=raw, user=request.user, group=group))
        summary = exporting.group_import(group=group, data=self.document(), user=request.user)
        context = {"imported": summary.as_dict()}
        return Response(GroupImportResultSerializer(self.group(group_id=group.pk), context=context).data)
