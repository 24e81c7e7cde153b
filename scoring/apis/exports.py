"""CSV and JSON export of a group; JSON import (into a new group or an existing one)."""

from __future__ import annotations

from django.http import Http404, HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from scoring import exporting
from scoring.serializers import ErrorSerializer, GroupSerializer
from scoring.services import ValidationFailed

from .base import ApiView, _has_nul
from .groups import ERRORS

DOCUMENT = {"type": "object", "additionalProperties": True, "description": "a Scorekeeper group export (format 1)"}


class _ImportBase(ApiView):
    serializer_class = GroupSerializer

    def document(self) -> object:
        data = self.request.data
        if _has_nul(data):
            raise ValidationFailed.single("non_field_errors", "Text cannot contain NUL characters.")
        return data


class GroupExportView(ApiView):
    serializer_class = GroupSerializer

    @extend_schema(responses={200: DOCUMENT, 404: ErrorSerializer}, summary="Export a group as JSON")
    def get(self, request: Request, group_id: int) -> Response:
        group = self.group(group_id=group_id)
        response = Response(exporting.group_export(group=group))
        response["Content-Disposition"] = f'attachment; filename="group-{group.pk}.json"'
        return response


class GroupExportCsvView(ApiView):
    serializer_class = GroupSerializer

    @extend_schema(
        responses={(200, "text/csv"): OpenApiTypes.STR, 404: ErrorSerializer},
        summary="Export one table of a group as CSV (players, matches or rounds)",
    )
    def get(self, request: Request, group_id: int, table: str) -> HttpResponse:
        group = self.group(group_id=group_id)
        if table not in exporting.TABLES:
            raise Http404
        response = HttpResponse(
            exporting.group_export_csv(group=group, table=table), content_type="text/csv; charset=utf-8"
        )
        response["Content-Disposition"] = f'attachment; filename="group-{group.pk}-{table}.csv"'
        return response


class GroupImportNewView(_ImportBase):
    @extend_schema(
        request=OpenApiTypes.OBJECT,
        responses={201: GroupSerializer, **ERRORS},
        summary="Import an export as a new group",
        operation_id="groups_import",
    )
    def post(self, request: Request) -> Response:
        group = exporting.group_import_new(data=self.document(), user=request.user)
        return Response(GroupSerializer(self.group(group_id=group.pk)).data, status=status.HTTP_201_CREATED)


class GroupImportView(_ImportBase):
    @extend_schema(
        request=OpenApiTypes.OBJECT,
        operation_id="group_import",
        responses={200: GroupSerializer, **ERRORS},
        summary="Import an export into this group (owners)",
    )
    def post(self, request: Request, group_id: int) -> Response:
        group = self.group(group_id=group_id)
        exporting.group_import(group=group, data=self.document(), user=request.user)
        return Response(GroupSerializer(self.group(group_id=group.pk)).data)
