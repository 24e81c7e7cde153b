"""Players of a group: guests or linked to a member's account; merge duplicates."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from scoring import selectors, services
from scoring.api.serializers import (
    ErrorSerializer,
    PlayerCreateSerializer,
    PlayerMergeSerializer,
    PlayerSerializer,
    PlayerUpdateSerializer,
)
from scoring.api.views.base import ApiView
from scoring.api.views.groups import ERRORS
from scoring.models import Group


def _account(group: Group, user_id: int | None) -> Any:
    """A member's account by id (None for a guest); a non-member is reported as a field error."""
    if user_id is None:
        return None
    user = get_user_model().objects.filter(pk=user_id, memberships__group=group).first()
    if user is None:
        raise services.ValidationFailed.single("user", gettext("Only a member of the group can be linked to a player."))
    return user


class PlayerListView(ApiView):
    serializer_class = PlayerSerializer

    @extend_schema(responses=PlayerSerializer(many=True), summary="Players of a group")
    def get(self, request: Request, group_id: int) -> Response:
        page = self.paginate_queryset(selectors.player_list(group=self.group(group_id=group_id)))
        return self.get_paginated_response(PlayerSerializer(page, many=True).data)

    @extend_schema(request=PlayerCreateSerializer, responses={201: PlayerSerializer, **ERRORS}, summary="Add a player")
    def post(self, request: Request, group_id: int) -> Response:
        group = self.group(group_id=group_id)
        data = self.payload(PlayerCreateSerializer)
        player = services.player_create(
            group=group, name=data["name"], user=request.user, linked_user=_account(group, data.get("user"))
        )
        return Response(
            PlayerSerializer(selectors.player_get(group=group, player_id=player.pk)).data,
            status=status.HTTP_201_CREATED,
        )


class PlayerDetailView(ApiView):
    serializer_class = PlayerSerializer

    @extend_schema(responses={200: PlayerSerializer, 404: ErrorSerializer}, summary="A player")
    def get(self, request: Request, group_id: int, player_id: int) -> Response:
        group = self.group(group_id=group_id)
        return Response(
            PlayerSerializer(
                selectors.player_get(group=group, player_id=player_id, include_merged=True, include_archived=True)
            ).data
        )

    @extend_schema(
        request=PlayerUpdateSerializer,
        responses={200: PlayerSerializer, **ERRORS},
        summary="Rename or (un)link a player",
    )
    def patch(self, request: Request, group_id: int, player_id: int) -> Response:
        group = self.group(group_id=group_id)
        player = selectors.player_get(group=group, player_id=player_id)
        data = self.payload(PlayerUpdateSerializer)
        services.player_update(
            player=player,
            user=request.user,
            name=data.get("name", services.UNSET),
            linked_user_id=data.get("user", services.UNSET),
        )
        return Response(PlayerSerializer(selectors.player_get(group=group, player_id=player_id)).data)

    @extend_schema(responses={204: None, **ERRORS}, summary="Delete a player who never played")
    def delete(self, request: Request, group_id: int, player_id: int) -> Response:
        group = self.group(group_id=group_id)
        services.player_delete(player=selectors.player_get(group=group, player_id=player_id), user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class PlayerMergeView(ApiView):
    serializer_class = PlayerSerializer

    @extend_schema(
        request=PlayerMergeSerializer,
        responses={200: PlayerSerializer, **ERRORS},
        summary="Merge this player into another (the same person entered twice; owners)",
    )
    def post(self, request: Request, group_id: int, player_id: int) -> Response:
        group = self.group(group_id=group_id)
        source = selectors.player_get(group=group, player_id=player_id)
        data = self.payload(PlayerMergeSerializer)
        target = selectors.player_list(group=group).filter(pk=data["into"]).first()
        if target is None:
            raise services.ValidationFailed.single("into", gettext("That player is not in this group."))
        target = services.player_merge(source=source, target=target, user=request.user)
        return Response(PlayerSerializer(selectors.player_get(group=group, player_id=target.pk)).data)
