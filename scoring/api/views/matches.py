"""Matches: create, change options, finish/reopen, re-score, undo, the scoreboard and the history."""

from __future__ import annotations

from django.utils.translation import get_language, gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from scoring import rules, selectors, services
from scoring.api.serializers import (
    ErrorSerializer,
    EventSerializer,
    MatchCreateSerializer,
    MatchSerializer,
    MatchUpdateSerializer,
    ObjectField,
    RoundSerializer,
    ScoreboardSerializer,
    VersionSerializer,
)
from scoring.api.views import examples
from scoring.api.views.base import IF_MATCH, IF_MATCH_REQUIRED, ApiView, etag
from scoring.api.views.groups import ERRORS
from scoring.models import Match

STALE = {409: ErrorSerializer}


class MatchListView(ApiView):
    serializer_class = MatchSerializer

    @extend_schema(
        parameters=[
            OpenApiParameter("state", OpenApiTypes.STR, enum=Match.State.values, description="open or finished"),
            OpenApiParameter("ruleset", OpenApiTypes.STR, enum=list(rules.KEYS)),
        ],
        responses=MatchSerializer(many=True),
        summary="Matches of a group",
    )
    def get(self, request: Request, group_id: int) -> Response:
        group = self.group(group_id=group_id)
        state = request.query_params.get("state") or None
        ruleset = request.query_params.get("ruleset") or None
        if state is not None and state not in Match.State.values:
            raise services.ValidationFailed.single("state", gettext("Expected open or finished."))
        if ruleset is not None and ruleset not in rules.KEYS:
            raise services.ValidationFailed.single("ruleset", gettext("There is no such ruleset."))
        page = self.paginate_queryset(selectors.match_list(group=group, state=state, ruleset=ruleset))
        return self.get_paginated_response(MatchSerializer(page, many=True).data)

    @extend_schema(
        request=MatchCreateSerializer,
        responses={201: MatchSerializer, **ERRORS},
        examples=examples.MATCH_REQUEST,
        summary="Start a match",
    )
    def post(self, request: Request, group_id: int) -> Response:
        """Options left out take their defaults; some depend on the request's language (Accept-Language or the
        language cookie): an NJET match created in Hungarian defaults to the Hungarian edition's rules
        (``tie_rule`` "hungarian"), in any other language to the English edition's. The stored options always
        hold the value chosen."""
        group = self.group(group_id=group_id)
        data = self.payload(MatchCreateSerializer)
        match = services.match_create(
            group=group,
            ruleset=data["ruleset"],
            options=data.get("options"),
            player_ids=data["players"],
            user=request.user,
            language=get_language(),
            preset_id=data.get("preset"),
        )
        return Response(MatchSerializer(self.match(match_id=match.pk)).data, status=status.HTTP_201_CREATED)


class MatchDetailView(ApiView):
    serializer_class = MatchSerializer

    @extend_schema(responses={200: MatchSerializer, 404: ErrorSerializer}, summary="A match")
    def get(self, request: Request, match_id: int) -> Response:
        match = self.match(match_id=match_id)
        return etag(Response(MatchSerializer(match).data), match.version)

    @extend_schema(
        request=inline_serializer("MatchOptions", {"options": ObjectField()}),
        parameters=[IF_MATCH_REQUIRED],
        responses={200: MatchSerializer, **ERRORS},
        examples=examples.MATCH_OPTIONS_REQUEST,
        summary="Change the options (every round is re-scored)",
    )
    def patch(self, request: Request, match_id: int) -> Response:
        match = self.match(match_id=match_id)
        data = self.payload(MatchUpdateSerializer)
        services.match_options_change(
            match=match, options=data["options"], expected_version=self.expected_version(data), user=request.user
        )
        match = self.match(match_id=match_id)
        return etag(Response(MatchSerializer(match).data), match.version)

    @extend_schema(parameters=[IF_MATCH_REQUIRED], responses={204: None, **ERRORS}, summary="Delete a match")
    def delete(self, request: Request, match_id: int) -> Response:
        match = self.match(match_id=match_id)
        services.match_delete(match=match, expected_version=self.expected_version(), user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class _MatchAction(ApiView):
    serializer_class = MatchSerializer
    service = staticmethod(services.match_finish)

    def post(self, request: Request, match_id: int) -> Response:
        match = self.match(match_id=match_id)
        data = self.payload(VersionSerializer)
        type(self).service(match=match, expected_version=self.expected_version(data), user=request.user)
        match = self.match(match_id=match_id)
        return etag(Response(MatchSerializer(match).data), match.version)


# finish and reopen need the version the client saw (If-Match); they take no body
_ACTION_SCHEMA = {"request": None, "parameters": [IF_MATCH_REQUIRED], "responses": {200: MatchSerializer, **ERRORS}}


class MatchFinishView(_MatchAction):
    service = staticmethod(services.match_finish)

    @extend_schema(summary="Finish a match by hand", **_ACTION_SCHEMA)
    def post(self, request: Request, match_id: int) -> Response:
        return super().post(request, match_id)


class MatchReopenView(_MatchAction):
    service = staticmethod(services.match_reopen)

    @extend_schema(summary="Reopen a match finished by hand", **_ACTION_SCHEMA)
    def post(self, request: Request, match_id: int) -> Response:
        return super().post(request, match_id)


class MatchRescoreView(ApiView):
    serializer_class = MatchSerializer

    @extend_schema(
        request=None,
        parameters=[IF_MATCH],
        responses={200: MatchSerializer, **ERRORS},
        summary="Re-score with the current rules",
    )
    def post(self, request: Request, match_id: int) -> Response:
        """With If-Match (the ``version`` of a preview from ``.../rescore/preview``), a match changed since then
        is refused with 409 and the current match."""
        services.match_rescore(
            match=self.match(match_id=match_id), user=request.user, expected_version=self.expected_version()
        )
        match = self.match(match_id=match_id)
        return etag(Response(MatchSerializer(match).data), match.version)


class MatchUndoView(ApiView):
    serializer_class = RoundSerializer

    @extend_schema(
        request=VersionSerializer,
        parameters=[IF_MATCH_REQUIRED],
        responses={200: RoundSerializer, **ERRORS},
        summary="Undo the newest round change in the match",
    )
    def post(self, request: Request, match_id: int) -> Response:
        """Send the match version you saw (If-Match or ``version``; without it, 400): a repeated or parallel call
        with the same version undoes one change, and the others get 409 with the match as it is now."""
        match = self.match(match_id=match_id)
        data = self.payload(VersionSerializer)
        rnd = services.match_undo_last(match=match, user=request.user, expected_version=self.required_version(data))
        rnd = selectors.round_get(match=match, number=rnd.number)
        return etag(Response(RoundSerializer(rnd, context=self.round_context(match)).data), rnd.version)


class ScoreboardView(ApiView):
    serializer_class = ScoreboardSerializer

    @extend_schema(responses={200: ScoreboardSerializer, 404: ErrorSerializer}, summary="The scoreboard")
    def get(self, request: Request, match_id: int) -> Response:
        """Per-round points and explanations, running totals, next dealer/starter, rounds left or target, winners."""
        match = self.match(match_id=match_id)
        return etag(Response(selectors.match_scoreboard(match=match)), match.version)


class EventListView(ApiView):
    serializer_class = EventSerializer

    @extend_schema(responses=EventSerializer(many=True), summary="Every change to the match (append-only)")
    def get(self, request: Request, match_id: int) -> Response:
        page = self.paginate_queryset(selectors.event_list(match=self.match(match_id=match_id)))
        return self.get_paginated_response(EventSerializer(page, many=True).data)


class MatchRematchView(ApiView):
    serializer_class = MatchSerializer

    @extend_schema(
        request=None,
        responses={201: MatchSerializer, **ERRORS},
        summary="Start a rematch: same game, players, seats and options",
    )
    def post(self, request: Request, match_id: int) -> Response:
        again = services.match_rematch(match=self.match(match_id=match_id), user=request.user)
        return Response(MatchSerializer(self.match(match_id=again.pk)).data, status=status.HTTP_201_CREATED)
