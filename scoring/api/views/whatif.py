"""What-if previews: a match's rounds, totals and winners before and after a change of options or a rescore
with the current rules. Nothing is written; applying is ``PATCH /matches/{id}`` or ``POST .../rescore``."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from scoring import services
from scoring.api.serializers.whatif import OptionsPreviewRequestSerializer, PreviewSerializer
from scoring.api.throttles import HeavyThrottle, WriteThrottle
from scoring.api.views import examples
from scoring.api.views.base import ApiView
from scoring.api.views.groups import ERRORS


class MatchOptionsPreviewView(ApiView):
    serializer_class = PreviewSerializer
    throttle_classes = [WriteThrottle, HeavyThrottle]  # every round scored twice: the heavy scope too

    @extend_schema(
        request=OptionsPreviewRequestSerializer,
        responses={200: PreviewSerializer, **ERRORS},
        examples=examples.MATCH_OPTIONS_REQUEST,
        summary="Preview a change of options (nothing is written)",
    )
    def post(self, request: Request, match_id: int) -> Response:
        """Every round's points per player before and after the match takes these options, the totals, the
        winners and the state, exactly as ``PATCH /matches/{id}`` with them would store them. When a round
        breaks under the new options the answer is the rules' refusal (400), naming the round
        (``rounds.<number>``), the player and the field. Apply with ``PATCH /matches/{id}`` and If-Match set to
        the preview's ``version``."""
        match = self.match(match_id=match_id)
        data = self.payload(OptionsPreviewRequestSerializer)
        preview = services.match_options_preview(match=match, options=data["options"], user=request.user)
        return Response(PreviewSerializer(preview).data)


class MatchRescorePreviewView(ApiView):
    serializer_class = PreviewSerializer
    throttle_classes = [WriteThrottle, HeavyThrottle]

    @extend_schema(
        request=None,
        responses={200: PreviewSerializer, **ERRORS},
        summary="Preview a rescore with the current rules (nothing is written)",
    )
    def post(self, request: Request, match_id: int) -> Response:
        """What ``POST /matches/{id}/rescore`` would store after a rules fix changed the ruleset's version: every
        round's points before and after, the totals, the winners and the state; or the rules' refusal (400)
        naming the round. Apply with ``POST /matches/{id}/rescore`` and If-Match set to the preview's
        ``version``."""
        match = self.match(match_id=match_id)
        preview = services.match_rescore_preview(match=match, user=request.user)
        return Response(PreviewSerializer(preview).data)
