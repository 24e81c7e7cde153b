"""Rounds of a match: record (idempotent), edit and delete (versioned), undo."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from scoring import selectors, services
from scoring.api.serializers import (
    ErrorSerializer,
    ObjectField,
    RoundCreateSerializer,
    RoundSerializer,
    RoundTakenSerializer,
    RoundUpdateSerializer,
    RoundWriteResultSerializer,
    VersionSerializer,
)
from scoring.api.views import examples
from scoring.api.views.base import IF_MATCH_REQUIRED, ApiView, etag
from scoring.api.views.groups import ERRORS
from scoring.models import Match, Round
from scoring.services.errors import RoundTaken

IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description="any unique string (e.g. a UUID) per round entered: a retried or double-tapped submit with the "
    "same key stores one round and gets the same response",
)
INCLUDE_DELETED = OpenApiParameter("include_deleted", OpenApiTypes.BOOL, description="also list deleted rounds")


class _RoundView(ApiView):
    serializer_class = RoundSerializer

    def match(self, *, match_id: Any, seats: bool = True) -> Match:
        """The match (access checked), without the round count the match endpoints show."""
        return selectors.match_get(user=self.request.user, match_id=match_id, rounds_played=False, seats=seats)

    def written(self, rnd: Round, seated: Match) -> dict[str, Any]:
        """The round after a write, with the match's new version and state.

        ``rnd`` comes from the service that wrote it, with ``rnd.match`` the match as the write left it (its
        new version and state); the players in the explanation are named by ``rnd.seat_names`` when the
        service read them (a new round), else by the seats of ``seated``, the match fetched for this request.
        Nothing is read again.
        """
        match = rnd.match
        rnd.match_state = {"id": match.pk, "version": match.version, "state": match.state}  # type: ignore[attr-defined]
        names = getattr(rnd, "seat_names", None)
        context = self.round_context(seated, names=names)
        # a new round's stored English text was worded with these very names: an English answer is that text
        context["stored_text"] = names is not None
        return dict(RoundWriteResultSerializer(rnd, context=context).data)

    def round(self, match: Match, number: int) -> Round:
        return selectors.round_get(match=match, number=number)


class RoundListView(_RoundView):
    @extend_schema(parameters=[INCLUDE_DELETED], responses=RoundSerializer(many=True), summary="Rounds of a match")
    def get(self, request: Request, match_id: int) -> Response:
        match = self.match(match_id=match_id)
        include_deleted = request.query_params.get("include_deleted", "").lower() in ("1", "true", "yes")
        page = self.paginate_queryset(selectors.round_list(match=match, include_deleted=include_deleted))
        return self.get_paginated_response(RoundSerializer(page, many=True, context=self.round_context(match)).data)

    @extend_schema(
        request=RoundCreateSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={201: RoundWriteResultSerializer, **ERRORS, 409: RoundTakenSerializer, 422: ErrorSerializer},
        examples=examples.ROUND_REQUEST,
        summary="Record the next round",
    )
    def post(self, request: Request, match_id: int) -> Response:
        """Scores the round by the match's ruleset; 400 with field-level messages when a rule is broken.

        Send the round ``number`` the client shows (the scoreboard's ``next_number``) so that two clients never
        store one round twice: when another client saved that round meanwhile, or rounds were deleted, nothing
        is stored and the answer is 409 naming who saved it, with that round as ``current``. A retry with the
        same Idempotency-Key still gets its own round (201, Idempotent-Replayed)."""
        key = request.headers.get("Idempotency-Key") or None
        try:
            if key is not None and (len(key) > 100 or not key.isprintable()):
                raise services.ValidationFailed.single(
                    "Idempotency-Key", gettext("An Idempotency-Key is 1 to 100 printable characters.")
                )
            data = self.payload(RoundCreateSerializer)
        except Exception:
            # A refused request is answered as for any match endpoint: 404 first outside the user's groups (the
            # access check below is the service's locking SELECT, which a refused request never reaches).
            self.match(match_id=match_id, seats=False)
            raise
        try:
            # The match is not read first: the service's locking SELECT is the access check (404 outside the
            # user's groups, as for any match endpoint), and it reads the seats under that lock.
            rnd = services.round_record(
                match_id=match_id,
                facts=data["facts"],
                user=request.user,
                idempotency_key=key,
                respond=lambda written: self.written(written, written.match),
                expected_number=data.get("number"),
            )
        except RoundTaken as taken:
            return self.taken(taken, match_id)
        body = getattr(rnd, "idempotent_response", None)
        if body is None:  # a replay of a key stored before responses were kept with it
            body = self.written(rnd, self.match(match_id=match_id))
        if getattr(rnd, "replayed", False):
            return Response(body, status=status.HTTP_201_CREATED, headers={"Idempotent-Replayed": "true"})
        return etag(Response(body, status=status.HTTP_201_CREATED), rnd.version)

    def taken(self, taken: RoundTaken, match_id: int) -> Response:
        """409: the round number was taken meanwhile; the round saved with it, as it is now."""
        current = None
        if taken.round is not None:
            match = self.match(match_id=match_id)
            saved = selectors.round_get(match=match, number=taken.expected)
            current = RoundSerializer(saved, context=self.round_context(match)).data
        body = {
            "detail": taken.message(),
            "number": taken.expected,
            "next_number": taken.next_number,
            "saved_by": taken.by,
            "current": current,
        }
        return Response(body, status=status.HTTP_409_CONFLICT)


class RoundDetailView(_RoundView):
    @extend_schema(responses={200: RoundSerializer, 404: ErrorSerializer}, summary="A round (also a deleted one)")
    def get(self, request: Request, match_id: int, number: int) -> Response:
        match = self.match(match_id=match_id)
        rnd = self.round(match, number)
        return etag(Response(RoundSerializer(rnd, context=self.round_context(match)).data), rnd.version)

    @extend_schema(
        request=inline_serializer("RoundEdit", {"facts": ObjectField()}),
        parameters=[IF_MATCH_REQUIRED],
        responses={200: RoundWriteResultSerializer, **ERRORS},
        examples=examples.ROUND_EDIT_REQUEST,
        summary="Edit a round (it and every later round are re-scored)",
    )
    def patch(self, request: Request, match_id: int, number: int) -> Response:
        """409 with the current round when ``version`` is not the current one."""
        match = self.match(match_id=match_id)
        rnd = self.round(match, number)
        data = self.payload(RoundUpdateSerializer)
        rnd = services.round_edit(
            round=rnd, facts=data["facts"], expected_version=self.expected_version(data), user=request.user
        )
        return etag(Response(self.written(rnd, match)), rnd.version)

    @extend_schema(
        parameters=[IF_MATCH_REQUIRED],
        responses={200: RoundWriteResultSerializer, **ERRORS},
        summary="Delete a round (undoable)",
    )
    def delete(self, request: Request, match_id: int, number: int) -> Response:
        match = self.match(match_id=match_id)
        rnd = services.round_delete(
            round=self.round(match, number), expected_version=self.expected_version(), user=request.user
        )
        return etag(Response(self.written(rnd, match)), rnd.version)


class RoundUndoView(_RoundView):
    @extend_schema(
        request=VersionSerializer,
        parameters=[IF_MATCH_REQUIRED],
        responses={200: RoundWriteResultSerializer, **ERRORS},
        summary="Undo the newest change of this round (restores a deleted round)",
    )
    def post(self, request: Request, match_id: int, number: int) -> Response:
        """Send the round version you saw (If-Match or ``version``; without it, 400), so that a repeated tap
        undoes one change: the others get 409 with the round as it is now."""
        match = self.match(match_id=match_id)
        data = self.payload(VersionSerializer)
        rnd = services.round_undo(
            round=self.round(match, number), user=request.user, expected_version=self.required_version(data)
        )
        return etag(Response(self.written(rnd, match)), rnd.version)
