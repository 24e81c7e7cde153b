"""House rules: a group's named option presets per game (versioned; one default per game)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import get_language, gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from scoring import rules, services
from scoring.api.serializers import ErrorSerializer, ObjectField
from scoring.api.views.base import ApiView
from scoring.api.views.groups import ERRORS
from scoring.models import Preset


class PresetVersionSerializer(serializers.Serializer):
    number = serializers.IntegerField(help_text="1 for the preset as created; every edit adds one")
    name = serializers.CharField()
    options = ObjectField(help_text="the options as the game's rules read them, every default filled in")
    created_at = serializers.DateTimeField()


class PresetSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    group = serializers.IntegerField(source="group_id")
    ruleset = serializers.CharField()
    name = serializers.CharField()
    is_default = serializers.BooleanField(help_text="the group's default for new matches of this game")
    created_at = serializers.DateTimeField()
    current = PresetVersionSerializer(help_text="the newest version: what a new match starts from")


class PresetCreateSerializer(serializers.Serializer):
    ruleset = serializers.CharField(max_length=20)
    name = serializers.CharField(max_length=200, trim_whitespace=False)
    options = ObjectField(required=False, default=dict, help_text="left-out options take the game's defaults")
    is_default = serializers.BooleanField(required=False, default=False)


class PresetUpdateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200, required=False, trim_whitespace=False)
    options = ObjectField(required=False, help_text="replaces the options (left-out ones take the defaults)")
    is_default = serializers.BooleanField(required=False)


_CREATE_EXAMPLE = OpenApiExample(
    "NJET, Hungarian edition, difference recording",
    value={
        "ruleset": "njet",
        "name": "Our NJET",
        "options": {"tie_rule": "hungarian", "recording": "difference"},
        "is_default": True,
    },
    request_only=True,
)


def _render(preset: Preset) -> dict[str, Any]:
    services.preset_versions_attach([preset])
    return dict(PresetSerializer(preset).data)


class PresetListView(ApiView):
    serializer_class = PresetSerializer

    @extend_schema(
        parameters=[OpenApiParameter("ruleset", OpenApiTypes.STR, enum=list(rules.KEYS))],
        responses=PresetSerializer(many=True),
        summary="House rules of a group",
    )
    def get(self, request: Request, group_id: int) -> Response:
        """The group's presets (removed ones left out), by game, the default first."""
        group = self.group(group_id=group_id)
        ruleset = request.query_params.get("ruleset") or None
        if ruleset is not None and ruleset not in rules.KEYS:
            raise services.ValidationFailed.single("ruleset", gettext("There is no such ruleset."))
        page = self.paginate_queryset(services.preset_list(group=group, user=request.user, ruleset=ruleset))
        services.preset_versions_attach(page)
        return self.get_paginated_response(PresetSerializer(page, many=True).data)

    @extend_schema(
        request=PresetCreateSerializer,
        responses={201: PresetSerializer, **ERRORS},
        examples=[_CREATE_EXAMPLE],
        summary="Save house rules",
    )
    def post(self, request: Request, group_id: int) -> Response:
        """The options are checked by the game's rules (a refusal names the option, ``options.tie_rule``).
        Options that depend on the language (the NJET edition) default to the request's language."""
        group = self.group(group_id=group_id)
        data = self.payload(PresetCreateSerializer)
        preset = services.preset_create(
            group=group,
            ruleset=data["ruleset"],
            name=data["name"],
            options=data.get("options"),
            is_default=data["is_default"],
            user=request.user,
            language=get_language(),
        )
        return Response(_render(preset), status=status.HTTP_201_CREATED)


class PresetDetailView(ApiView):
    serializer_class = PresetSerializer

    @extend_schema(responses={200: PresetSerializer, 404: ErrorSerializer}, summary="House rules")
    def get(self, request: Request, group_id: int, preset_id: int) -> Response:
        group = self.group(group_id=group_id)
        services.member_require(group=group, user=request.user)
        return Response(_render(services.preset_get(group=group, preset_id=preset_id)))

    @extend_schema(
        request=PresetUpdateSerializer,
        responses={200: PresetSerializer, **ERRORS},
        summary="Change house rules (a new version) or make them the default",
    )
    def patch(self, request: Request, group_id: int, preset_id: int) -> Response:
        """A new name or new options add a version; the matches started from an older version keep their
        options and keep naming that version."""
        group = self.group(group_id=group_id)
        preset = services.preset_get(group=group, preset_id=preset_id)
        data = self.payload(PresetUpdateSerializer)
        if "name" in data or "options" in data:
            services.preset_update(preset=preset, user=request.user, name=data.get("name"), options=data.get("options"))
        if "is_default" in data:
            services.preset_set_default(preset=preset, user=request.user, is_default=data["is_default"])
        return Response(_render(services.preset_get(group=group, preset_id=preset_id)))

    @extend_schema(responses={204: None, **ERRORS}, summary="Remove house rules")
    def delete(self, request: Request, group_id: int, preset_id: int) -> Response:
        """Removed from the list; the matches started from them still show their name."""
        group = self.group(group_id=group_id)
        services.preset_delete(preset=services.preset_get(group=group, preset_id=preset_id), user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
