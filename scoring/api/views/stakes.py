"""The stakes of a round before play: a MÜ auction, an NJET board. Nothing is written."""

from __future__ import annotations

from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from scoring.api.serializers.outlook import StakesRequestSerializer, StakesSerializer
from scoring.api.views.base import ApiView
from scoring.api.views.groups import ERRORS
from scoring.selectors.outlook import match_stakes
from scoring.services import ValidationFailed

EXAMPLES = [
    OpenApiExample(
        "MÜ after the auction",
        value={"facts": {"outcome": "played", "chief": 3, "bid": 4, "vice": 2, "partner": 0}},
        request_only=True,
    ),
    OpenApiExample(
        "NJET board",
        value={"facts": {"start_player": 0, "teams": [0, 0, 0, 1, 1], "monster": 4, "points_per_trick": 2}},
        request_only=True,
    ),
]


class MatchStakesView(ApiView):
    serializer_class = StakesSerializer

    @extend_schema(
        request=StakesRequestSerializer,
        responses={200: StakesSerializer, **ERRORS},
        examples=EXAMPLES,
        summary="The stakes of the next round before play (MÜ, NJET)",
    )
    def post(self, request: Request, match_id: int) -> Response:
        """What the round is worth to each player once its conditions are known, before the cards are played:
        in MÜ after the auction the chief's team's target and what chief, partner, vice and the others score if
        the bid is made or missed; in NJET once the board is set what a trick and a captured 0 are worth to
        each player, the monster card included. Computed by the rules engine from these facts; nothing is
        stored. Other games answer ``available: false``; facts that do not say enough yet, ``ready: false`` with
        the fields still ``missing``."""
        match = self.match(match_id=match_id)
        facts = self.payload(StakesRequestSerializer)["facts"]
        if not isinstance(facts, dict):
            raise ValidationFailed.single("facts", gettext("The round facts must be a JSON object."))
        return Response(StakesSerializer(match_stakes(match=match, facts=facts)).data)
