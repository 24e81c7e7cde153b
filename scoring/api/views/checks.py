"""Rounds the other side confirms (issue 47 part 3): the group's setting, where a match's rounds stand, and a
player's confirmation or dispute of a round."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from scoring import selectors, services
from scoring.api.serializers import INT32
from scoring.api.views.base import IF_MATCH_REQUIRED, ApiView
from scoring.api.views.groups import ERRORS
from scoring.models import RoundCheck
from scoring.selectors.confirming import STATES, Standing, match_checks
from scoring.services.confirm import NOTE_MAX


class GroupSettingsSerializer(serializers.Serializer):  # type: ignore[type-arg]
    confirm_rounds = serializers.BooleanField(
        help_text="rounds the other side confirms: each round saved waits until a player of another side (another "
        "team in NJET, MÜ and Muzicando's team game; any other player elsewhere) confirms or disputes it"
    )
    confirm_rounds_since = serializers.DateTimeField(
        read_only=True, allow_null=True, help_text="switched on at this moment (rounds saved before need nothing)"
    )


class GroupSettingsUpdateSerializer(serializers.Serializer):  # type: ignore[type-arg]
    confirm_rounds = serializers.BooleanField()


class StandingSerializer(serializers.Serializer):  # type: ignore[type-arg]
    number = serializers.IntegerField()
    version = serializers.IntegerField(help_text="the round version the state speaks for")
    state = serializers.ChoiceField(
        choices=list(STATES),
        help_text="unchecked: the group does not confirm rounds, or the round was saved before it began; "
        "to_confirm: waiting for the other side; confirmed; disputed",
    )
    saved_by = serializers.CharField(help_text="the player who saved this version ('' when not a player)")
    confirmers = serializers.ListField(
        child=serializers.CharField(), help_text="the players (with an account) who may confirm it"
    )
    by = serializers.CharField(help_text="who confirmed or disputed it")
    note = serializers.CharField(help_text="the dispute's note")
    at = serializers.DateTimeField(allow_null=True)
    can_act = serializers.BooleanField(help_text="whether you may confirm or dispute it")


class CheckListSerializer(serializers.Serializer):  # type: ignore[type-arg]
    confirm_rounds = serializers.BooleanField()
    rounds = StandingSerializer(many=True)


class CheckWriteSerializer(serializers.Serializer):  # type: ignore[type-arg]
    version = serializers.IntegerField(
        required=False, min_value=0, max_value=INT32, help_text="the round version you saw (or send If-Match)"
    )


class DisputeSerializer(CheckWriteSerializer):
    note = serializers.CharField(
        required=False, allow_blank=True, max_length=NOTE_MAX, help_text="what is wrong, in a few words"
    )


class CheckSerializer(serializers.Serializer):  # type: ignore[type-arg]
    number = serializers.IntegerField(source="round.number")
    version = serializers.IntegerField()
    state = serializers.CharField()
    by = serializers.CharField(source="player.name", allow_null=True, default=None)
    note = serializers.CharField()
    at = serializers.DateTimeField()
    match_version = serializers.IntegerField(source="match.version", help_text="the match's version after the write")


def _settings(group: Any) -> dict[str, Any]:
    since = group.confirm_rounds_since
    return {"confirm_rounds": since is not None, "confirm_rounds_since": since}


def _standing(s: Standing) -> dict[str, Any]:
    return {
        "number": s.number,
        "version": s.version,
        "state": s.state,
        "saved_by": s.saved_by,
        "confirmers": s.confirmers,
        "by": s.by,
        "note": s.note,
        "at": s.at,
        "can_act": s.can_act,
    }


class GroupSettingsView(ApiView):
    serializer_class = GroupSettingsSerializer
    pagination_class = None

    @extend_schema(responses={200: GroupSettingsSerializer, 404: ERRORS[404]}, summary="A group's settings")
    def get(self, request: Request, group_id: int) -> Response:
        return Response(GroupSettingsSerializer(_settings(self.group(group_id=group_id))).data)

    @extend_schema(
        request=GroupSettingsUpdateSerializer,
        responses={200: GroupSettingsSerializer, **ERRORS},
        summary="Change a group's settings (owners): rounds the other side confirms",
    )
    def patch(self, request: Request, group_id: int) -> Response:
        group = self.group(group_id=group_id)
        data = self.payload(GroupSettingsUpdateSerializer)
        group = services.group_confirm_rounds(group=group, on=data["confirm_rounds"], user=request.user)
        return Response(GroupSettingsSerializer(_settings(group)).data)


class MatchChecksView(ApiView):
    serializer_class = CheckListSerializer
    pagination_class = None

    @extend_schema(
        responses={200: CheckListSerializer, 404: ERRORS[404]},
        summary="Where each live round of a match stands: to confirm, confirmed, disputed",
    )
    def get(self, request: Request, match_id: int) -> Response:
        match = selectors.match_get(user=request.user, match_id=match_id, rounds_played=False, seats=False)
        rounds = list(selectors.round_list(match=match))
        standings = match_checks(match=match, rounds=rounds, user=request.user, group=match.group)
        body = {
            "confirm_rounds": match.group.confirm_rounds_since is not None,
            "rounds": [_standing(s) for s in standings],
        }
        return Response(CheckListSerializer(body).data)


class _CheckWriteView(ApiView):
    serializer_class = CheckSerializer
    pagination_class = None

    def answer(self, check: RoundCheck) -> Response:
        response = Response(CheckSerializer(check).data)
        response["ETag"] = f'"{check.version}"'
        return response


class RoundConfirmView(_CheckWriteView):
    @extend_schema(
        request=CheckWriteSerializer,
        parameters=[IF_MATCH_REQUIRED],
        responses={200: CheckSerializer, **ERRORS},
        summary="Confirm a round (a player of the other side)",
    )
    def post(self, request: Request, match_id: int, number: int) -> Response:
        """The round as it is in the version you saw (If-Match or ``version``): 409 with the round as it is now
        when it changed since, 403 for a player of the side that saved it. Confirming twice changes nothing."""
        data = self.payload(CheckWriteSerializer)
        check = services.round_confirm(
            match_id=match_id, number=number, user=request.user, expected_version=self.required_version(data)
        )
        return self.answer(check)


class RoundDisputeView(_CheckWriteView):
    @extend_schema(
        request=DisputeSerializer,
        parameters=[IF_MATCH_REQUIRED],
        responses={200: CheckSerializer, **ERRORS},
        summary="Dispute a round (a player of the other side), with a short note",
    )
    def post(self, request: Request, match_id: int, number: int) -> Response:
        """The round stays as it is, marked disputed, until it is edited (the new version waits for the other
        side again) or confirmed after all."""
        data = self.payload(DisputeSerializer)
        check = services.round_dispute(
            match_id=match_id,
            number=number,
            user=request.user,
            expected_version=self.required_version(data),
            note=data.get("note", ""),
        )
        return self.answer(check)
