"""API tokens and sign-up (the web pages have their own log-in and sign-up forms)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import authenticate, get_user_model, password_validation
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.authtoken.models import Token
from rest_framework.request import Request
from rest_framework.response import Response

from scoring.api.authentication import TokenAuthentication
from scoring.api.permissions import Authenticated, Public
from scoring.api.serializers import ErrorSerializer, MeSerializer, TokenRequestSerializer, TokenSerializer
from scoring.api.throttles import AuthThrottle, TooManyAttempts
from scoring.api.views.base import ApiView
from scoring.services import ValidationFailed
from scoring.signin import limits as auth_limits
from scoring.signin import usernames


class _AuthAttempts:
    """A refused request rate answers like a refused sign-in: 429, Retry-After, "Too many attempts ..."."""

    def throttled(self, request: Request, wait: float | None) -> None:
        raise TooManyAttempts(wait or 60)


class TokenView(_AuthAttempts, ApiView):
    """Exchange a username and password for an API token (``Authorization: Token <key>``).

    Failed attempts are counted per account and per client address (``scoring.signin.limits``); over either limit
    every attempt is refused with 429 before the password is checked."""

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
        # counted as a failure before the password is checked (parallel guesses cannot all pass), given back below
        wait = auth_limits.login_attempt(request, data["username"])
        if wait:
            raise TooManyAttempts(wait)
        user = authenticate(request._request, username=data["username"], password=data["password"])
        if user is None or not user.is_active:
            raise ValidationFailed.single("non_field_errors", gettext("Wrong username or password."))
        auth_limits.login_succeeded(request, data["username"])
        token, _ = Token.objects.get_or_create(user=user)
        return Response({"token": token.key, "username": user.get_username()})

    @extend_schema(request=None, responses={204: None}, summary="Revoke your API token")
    def delete(self, request: Request) -> Response:
        Token.objects.filter(user=request.user).delete()
        return Response(status=status.HTTP_204_NO_CONTENT)


class SignupView(_AuthAttempts, ApiView):
    """Create an account and get its API token. Attempts are limited per client address; the username is
    normalised (NFKC) and refused with invisible or text-direction characters or when it looks like an existing
    one (``scoring.signin.usernames``)."""

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
        wait = auth_limits.signup_attempt(request)
        if wait:
            raise TooManyAttempts(wait)
        User = get_user_model()
        username = usernames.normalise(data["username"])
        candidate = User(username=username)
        hidden = usernames.hidden_characters(username)
        if hidden:
            raise ValidationFailed({"username": usernames.problems(username)})
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
        taken = usernames.problems(username)
        if taken:
            raise ValidationFailed({"username": taken})
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
