"""Groups, their members and invite links."""

from __future__ import annotations

from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from scoring import selectors, services
from scoring.api.serializers import (
    ErrorSerializer,
    GroupCreateSerializer,
    GroupSerializer,
    GroupUpdateSerializer,
    InvitationSentSerializer,
    InvitationSerializer,
    InviteCreateSerializer,
    InvitePreviewSerializer,
    InviteSerializer,
    MembershipCreateSerializer,
    MembershipSerializer,
    MembershipUpdateSerializer,
)
from scoring.api.views.base import ApiView

ERRORS = {400: ErrorSerializer, 403: ErrorSerializer, 404: ErrorSerializer, 409: ErrorSerializer}


class GroupListView(ApiView):
    serializer_class = GroupSerializer

    def get_queryset(self):  # type: ignore[no-untyped-def]
        return selectors.group_list(user=self.request.user)

    @extend_schema(responses=GroupSerializer(many=True), summary="Your groups")
    def get(self, request: Request) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response(GroupSerializer(page, many=True).data)

    @extend_schema(request=GroupCreateSerializer, responses={201: GroupSerializer, **ERRORS}, summary="Create a group")
    def post(self, request: Request) -> Response:
        data = self.payload(GroupCreateSerializer)
        group = services.group_create(name=data["name"], user=request.user, player_name=data.get("player_name") or None)
        return Response(GroupSerializer(self.group(group_id=group.pk)).data, status=status.HTTP_201_CREATED)


class GroupDetailView(ApiView):
    serializer_class = GroupSerializer

    @extend_schema(responses={200: GroupSerializer, 404: ErrorSerializer}, summary="A group")
    def get(self, request: Request, group_id: int) -> Response:
        return Response(GroupSerializer(self.group(group_id=group_id)).data)

    @extend_schema(request=GroupUpdateSerializer, responses={200: GroupSerializer, **ERRORS}, summary="Rename a group")
    def patch(self, request: Request, group_id: int) -> Response:
        group = self.group(group_id=group_id)
        data = self.payload(GroupUpdateSerializer)
        services.group_rename(group=group, name=data["name"], user=request.user)
        return Response(GroupSerializer(self.group(group_id=group_id)).data)

    @extend_schema(responses={204: None, **ERRORS}, summary="Delete a group and all its data (owners)")
    def delete(self, request: Request, group_id: int) -> Response:
        services.group_delete(group=self.group(group_id=group_id), user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MembershipListView(ApiView):
    serializer_class = MembershipSerializer

    @extend_schema(responses=MembershipSerializer(many=True), summary="Members of a group")
    def get(self, request: Request, group_id: int) -> Response:
        page = self.paginate_queryset(selectors.membership_list(group=self.group(group_id=group_id)))
        return self.get_paginated_response(MembershipSerializer(page, many=True).data)

    @extend_schema(
        request=MembershipCreateSerializer,
        responses={202: InvitationSentSerializer, **ERRORS},
        summary="Invite an account by username (owners); it becomes a member when it accepts",
    )
    def post(self, request: Request, group_id: int) -> Response:
        group = self.group(group_id=group_id)
        services.owner_require(group=group, user=request.user)
        data = self.payload(MembershipCreateSerializer)
        services.member_invite(group=group, username=data["username"], by=request.user)
        return Response({"detail": services.invitation_sent_text()}, status=status.HTTP_202_ACCEPTED)


class MembershipDetailView(ApiView):
    serializer_class = MembershipSerializer

    @extend_schema(responses={200: MembershipSerializer, 404: ErrorSerializer}, summary="A membership")
    def get(self, request: Request, group_id: int, membership_id: int) -> Response:
        group = self.group(group_id=group_id)
        return Response(MembershipSerializer(selectors.membership_get(group=group, membership_id=membership_id)).data)

    @extend_schema(
        request=MembershipUpdateSerializer,
        responses={200: MembershipSerializer, **ERRORS},
        summary="Change a role (owners)",
    )
    def patch(self, request: Request, group_id: int, membership_id: int) -> Response:
        membership = selectors.membership_get(group=self.group(group_id=group_id), membership_id=membership_id)
        data = self.payload(MembershipUpdateSerializer)
        membership = services.membership_role(membership=membership, role=data["role"], by=request.user)
        return Response(MembershipSerializer(membership).data)

    @extend_schema(responses={204: None, **ERRORS}, summary="Remove a member (owners) or leave (yourself)")
    def delete(self, request: Request, group_id: int, membership_id: int) -> Response:
        membership = selectors.membership_get(group=self.group(group_id=group_id), membership_id=membership_id)
        services.membership_remove(membership=membership, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class InviteListView(ApiView):
    serializer_class = InviteSerializer

    @extend_schema(responses={200: InviteSerializer(many=True), **ERRORS}, summary="Invite links (owners)")
    def get(self, request: Request, group_id: int) -> Response:
        group = self.group(group_id=group_id)
        services.owner_require(group=group, user=request.user)
        page = self.paginate_queryset(selectors.invite_list(group=group))
        return self.get_paginated_response(InviteSerializer(page, many=True).data)

    @extend_schema(
        request=InviteCreateSerializer, responses={201: InviteSerializer, **ERRORS}, summary="Create an invite"
    )
    def post(self, request: Request, group_id: int) -> Response:
        group = self.group(group_id=group_id)
        services.owner_require(group=group, user=request.user)
        data = self.payload(InviteCreateSerializer)
        player = None
        if data.get("player") is not None:
            player = selectors.player_list(group=group).filter(pk=data["player"]).first()
            if player is None:
                raise services.ValidationFailed.single("player", gettext("That player is not in this group."))
        invite = services.invite_create(group=group, user=request.user, player=player, days=data.get("days"))
        return Response(InviteSerializer(invite).data, status=status.HTTP_201_CREATED)


class InviteDetailView(ApiView):
    serializer_class = InviteSerializer

    def _invite(self, group_id: int, invite_id: int):  # type: ignore[no-untyped-def]
        group = self.group(group_id=group_id)
        services.owner_require(group=group, user=self.request.user)
        return selectors.invite_get(group=group, invite_id=invite_id)

    @extend_schema(responses={200: InviteSerializer, **ERRORS}, summary="An invite (owners)")
    def get(self, request: Request, group_id: int, invite_id: int) -> Response:
        return Response(InviteSerializer(self._invite(group_id, invite_id)).data)

    @extend_schema(responses={200: InviteSerializer, **ERRORS}, summary="Revoke an invite (owners)")
    def delete(self, request: Request, group_id: int, invite_id: int) -> Response:
        invite = services.invite_revoke(invite=self._invite(group_id, invite_id), user=request.user)
        return Response(InviteSerializer(invite).data)


class InviteByTokenView(ApiView):
    serializer_class = InvitePreviewSerializer

    @extend_schema(responses={200: InvitePreviewSerializer, 404: ErrorSerializer}, summary="What an invite link is for")
    def get(self, request: Request, token: str) -> Response:
        return Response(InvitePreviewSerializer(selectors.invite_by_token(token=token)).data)


class InviteAcceptView(ApiView):
    serializer_class = GroupSerializer

    @extend_schema(request=None, responses={200: GroupSerializer, **ERRORS}, summary="Accept an invite")
    def post(self, request: Request, token: str) -> Response:
        invite = selectors.invite_by_token(token=token)
        services.invite_accept(invite=invite, user=request.user)
        return Response(GroupSerializer(self.group(group_id=invite.group_id)).data)


class InvitationListView(ApiView):
    serializer_class = InvitationSerializer

    @extend_schema(responses=InvitationSerializer(many=True), summary="Invitations waiting for your answer")
    def get(self, request: Request) -> Response:
        page = self.paginate_queryset(selectors.invitation_list_for(user=request.user))
        return self.get_paginated_response(InvitationSerializer(page, many=True).data)


class InvitationAcceptView(ApiView):
    serializer_class = GroupSerializer

    @extend_schema(request=None, responses={200: GroupSerializer, **ERRORS}, summary="Accept an invitation")
    def post(self, request: Request, invite_id: int) -> Response:
        invite = selectors.invitation_get(user=request.user, invite_id=invite_id)
        services.invite_accept(invite=invite, user=request.user)
        return Response(GroupSerializer(self.group(group_id=invite.group_id)).data)


class InvitationDeclineView(ApiView):
    serializer_class = InvitationSerializer

    @extend_schema(request=None, responses={204: None, **ERRORS}, summary="Decline an invitation")
    def post(self, request: Request, invite_id: int) -> Response:
        invite = selectors.invitation_get(user=request.user, invite_id=invite_id)
        services.invitation_decline(invite=invite, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
