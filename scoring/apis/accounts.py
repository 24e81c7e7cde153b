"""API tokens and sign-up (the web pages have their own log-in and sign-up forms)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import authenticate, get_user_model, password_validation
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token
from rest_framework.request import Request
from rest_framework.response import Response

from scoring.permissions import Authenticated, Public
from scoring.serializers import ErrorSerializer, MeSerializer, TokenRequestSerializer, TokenSerializer
from scoring.services import ValidationFailed
from scoring.throttles import AuthThrottle

from .base import ApiView


class TokenView(ApiView):
    """Exchange a username and password for an API token (``Authorization: Token <key>``)."""

    throttle_classes = [AuthThrottle]
    serializer_class = TokenRequestSerializer

    def get_permissions(self) -> list[Any]:
        return [Authenticated()] if self.request.method == "DELETE" else [Public()]

    # Token only (no session, so no CSRF check when logging in: the credentials are in the body).
    authentication_classes = [TokenAuthentication]

    @extend_schema(
        request=TokenRequestSerializer,
        responses={200: TokenSerializer, 400: ErrorSerializer},
        auth=[],
        summary="Obtain an API token",
    )
    def post(self, request: Request) -> Response:
        data = self.payload(TokenRequestSerializer)
        user = authenticate(request._request, username=data["username"], password=data["password"])
        if user is None or not user.is_active:
            raise ValidationFailed.single("non_field_errors", gettext("Wrong username or password."))
        token, _ = Token.objects.get_or_create(user=user)
        return Response({"token": token.key, "username": user.get_username()})

    @extend_schema(request=None, responses={204: None}, summary="Revoke your API token")
    def delete(self, request: Request) -> Response:
        Token.objects.filter(user=request.user).delete()
        return Response(status=status.HTTP_204_NO_CONTENT)


class SignupView(ApiView):
    """Create an account and get its API token."""

    permission_classes = [Public]
    throttle_classes = [AuthThrottle]
    serializer_class = TokenRequestSerializer

    authentication_classes: list[Any] = []

    @extend_schema(
        request=TokenRequestSerializer,
        responses={201: TokenSerializer, 400: ErrorSerializer},
        auth=[],
        summary="Sign up",
    )
    def post(self, request: Request) -> Response:
        data = self.payload(TokenRequestSerializer)
        User = get_user_model()
        username = data["username"].strip()
        candidate = User(username=username)
        try:
            User._meta.get_field("username").run_validators(username)
        except DjangoValidationError as exc:
            raise ValidationFailed({"username": list(exc.messages)}) from None
        try:
            password_validation.validate_password(data["password"], candidate)
        except DjangoValidationError as exc:
            raise ValidationFailed({"password": list(exc.messages)}) from None
        if User.objects.filter(username__iexact=username).exists():
            raise ValidationFailed.single("username", gettext("That username is taken."))
        try:
            with transaction.atomic():
                user = User.objects.create_user(username=username, password=data["password"])
        except IntegrityError:
            raise ValidationFailed.single("username", gettext("That username is taken.")) from None
        token = Token.objects.create(user=user)
        return Response({"token": token.key, "username": user.get_username()}, status=status.HTTP_201_CREATED)


class MeView(ApiView):
    serializer_class = MeSerializer

    @extend_schema(responses=MeSerializer, summary="Who am I")
    def get(self, request: Request) -> Response:
        return Response({"id": request.user.pk, "username": request.user.get_username()})
