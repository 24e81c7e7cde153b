"""The rules: every ruleset's description, the stateless calculator and the trick referee."""

from __future__ import annotations

import importlib
from typing import Any

from django.http import Http404
from django.utils.translation import get_language, gettext, ngettext
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from scoring import selectors
from scoring.api.permissions import Public
from scoring.api.serializers import (
    CalculatorRequestSerializer,
    CalculatorResponseSerializer,
    ErrorSerializer,
    RulesetSerializer,
    TrickRequestSerializer,
    TrickResultSerializer,
)
from scoring.api.throttles import CalculatorThrottle
from scoring.api.views import examples
from scoring.api.views.base import ApiView
from scoring.rules import InvalidRound
from scoring.services.calculator import ruleset_score
from scoring.services.errors import ValidationFailed


def _describe(ruleset: Any) -> dict[str, Any]:
    description = ruleset.describe()
    description["options"] = [{**o, "label": gettext(o["label"])} for o in description["options"]]
    return description


def _trick_text(tricks: Any, msg: str, params: dict[str, Any], fallback: str) -> str:
    """One referee sentence in the active language: colour names, plural forms by the language's rule."""
    try:
        return str(tricks.render(msg, params, translate=gettext, ntranslate=ngettext))
    except (KeyError, IndexError, ValueError):
        return fallback


def _trick_translated(tricks: Any, result: dict[str, Any]) -> dict[str, Any]:
    """The referee's English sentences in the active language (message id + params are kept)."""

    def render(msg: str, params: dict[str, Any], fallback: str) -> str:
        return _trick_text(tricks, msg, params, fallback)

    result["text"] = render(result["reason"], result["params"], result["text"])
    for kind in ("notes", "legality", "illegal"):
        result[kind] = [{**n, "text": render(n["msg"], n["params"], n["text"])} for n in result[kind]]
    edition = result.get("edition")
    if edition is not None:
        result["edition"] = {**edition, "text": render(edition["msg"], edition["params"], edition["text"])}
    return result


class RulesetListView(ApiView):
    permission_classes = [Public]
    serializer_class = RulesetSerializer
    pagination_class = None

    @extend_schema(responses=RulesetSerializer(many=True), auth=[], summary="Every ruleset")
    def get(self, request: Request) -> Response:
        """Every ruleset: name, player range, options and the JSON schema of its round facts."""
        return Response([_describe(r) for r in selectors.ruleset_list()])


class RulesetDetailView(ApiView):
    permission_classes = [Public]
    serializer_class = RulesetSerializer

    @extend_schema(responses={200: RulesetSerializer, 404: ErrorSerializer}, auth=[], summary="One ruleset")
    def get(self, request: Request, key: str) -> Response:
        return Response(_describe(selectors.ruleset_get(key=key)))


class RulesetScoreView(ApiView):
    """The calculator: score one round without an account; nothing is stored."""

    permission_classes = [Public]
    throttle_classes = [CalculatorThrottle]
    serializer_class = CalculatorRequestSerializer

    @extend_schema(
        request=CalculatorRequestSerializer,
        responses={200: CalculatorResponseSerializer, 400: ErrorSerializer, 404: ErrorSerializer},
        examples=examples.CALCULATOR,
        auth=[],
        summary="Score a round (stateless calculator)",
    )
    def post(self, request: Request, key: str) -> Response:
        """Same validation as saving a round: 400 with field-level messages for an impossible round."""
        ruleset = selectors.ruleset_get(key=key)
        data = self.payload(CalculatorRequestSerializer)
        return Response(
            ruleset_score(
                ruleset=ruleset,
                players=data["players"],
                options=data.get("options") or {},
                facts=data["facts"],
                before=data.get("before") or [],
            )
        )


class RulesetTrickView(ApiView):
    """The trick referee: who wins this trick and why (and whether each card was legal, given a hand)."""

    permission_classes = [Public]
    throttle_classes = [CalculatorThrottle]
    serializer_class = TrickRequestSerializer

    @extend_schema(
        request=TrickRequestSerializer,
        responses={200: TrickResultSerializer, 400: ErrorSerializer, 404: ErrorSerializer},
        examples=examples.TRICK_REQUEST,
        auth=[],
        summary="Referee a trick",
    )
    def post(self, request: Request, key: str) -> Response:
        """Sentences in the request's language; NJET without ``options.tie_rule`` follows the edition of that
        language (Hungarian → the Hungarian edition), and ``edition`` says which edition decided."""
        ruleset = selectors.ruleset_get(key=key)
        try:
            tricks = importlib.import_module("scoring.rules.tricks")
        except ModuleNotFoundError:
            raise Http404 from None
        data = self.payload(TrickRequestSerializer)
        options = data.get("options") or {}
        if isinstance(options, dict):  # NJET: the edition of the request's language unless the client names one
            options = {**ruleset.language_defaults(get_language()), **options}
        try:
            result = tricks.referee(ruleset.key, data.get("setup") or {}, data["plays"], options=options)
        except InvalidRound as exc:
            raise ValidationFailed.from_rules(
                exc, translate=lambda problem: _trick_text(tricks, problem.msg, dict(problem.params), problem.text)
            ) from None
        return Response(_trick_translated(tricks, result.as_dict()))
