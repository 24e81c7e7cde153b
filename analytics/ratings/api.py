"""``GET /api/v1/groups/<id>/ratings``: each game's ratings with their doubt (provisional, the likely range, how
sure in words) and how well they have predicted the group's own results (``analytics.ratings.doubt``). One row per game,
kept by the worker."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from analytics import selectors
from analytics.api_base import GroupStatsApiView
from analytics.models import RatingTrust
from analytics.ratings.doubt import CERTAINTY, PROVISIONAL_BELOW, doubt_of, trust_summary
from scoring import rules


class RatedSerializer(serializers.Serializer):  # type: ignore[type-arg]
    player = serializers.IntegerField()
    player_name = serializers.CharField()
    mu = serializers.FloatField(help_text="OpenSkill's skill estimate μ")
    sigma = serializers.FloatField(help_text="its uncertainty σ (25/3 at the start, shrinking with every match)")
    ordinal = serializers.FloatField(help_text="the rating shown: μ − 3σ")
    rated = serializers.IntegerField(help_text="rated matches of this game")
    provisional = serializers.BooleanField(help_text=f"fewer than {PROVISIONAL_BELOW} rated matches")
    certainty = serializers.ChoiceField(choices=[key for _bound, key, _words in CERTAINTY])
    words = serializers.CharField(help_text="how sure the rating is, in words")
    low = serializers.FloatField(help_text="the skill likely (about 95 %) lies between low and high: μ ± 2σ")
    high = serializers.FloatField()


class CoinFlipSerializer(serializers.Serializer):  # type: ignore[type-arg]
    correct_share = serializers.FloatField()
    brier = serializers.FloatField()


class BacktestSerializer(serializers.Serializer):  # type: ignore[type-arg]
    matches = serializers.IntegerField(help_text="rated matches with at least one pair of sides predicted")
    pairs = serializers.IntegerField(help_text="pairs of sides with different results")
    correct_share = serializers.FloatField(
        allow_null=True, help_text="share of pairs predicted in the right order (a 50:50 call counts half)"
    )
    brier = serializers.FloatField(allow_null=True, help_text="mean squared error of the predicted chances")
    coin_flip = CoinFlipSerializer(help_text="what a coin flip would score")


class GameRatingsSerializer(serializers.Serializer):  # type: ignore[type-arg]
    game = serializers.CharField()
    name = serializers.CharField()
    ratings = RatedSerializer(many=True)
    backtest = BacktestSerializer()


class GroupRatingsSerializer(serializers.Serializer):  # type: ignore[type-arg]
    group = serializers.IntegerField()
    games = GameRatingsSerializer(many=True)


def ratings_of(*, group_id: int, ruleset: str | None = None) -> list[dict[str, Any]]:
    found = RatingTrust.objects.filter(group_id=group_id)
    if ruleset is not None:
        found = found.filter(ruleset=ruleset)
    by_game = {trust.ruleset: trust for trust in found}
    names, games = selectors.player_names(group_id=group_id), selectors.game_names()
    out = []
    for key in rules.KEYS:
        trust = by_game.get(key)
        if trust is None:
            continue
        rated = []
        for entry in trust.players:
            doubt = doubt_of(mu=entry["mu"], sigma=entry["sigma"], rated=entry["rated"])
            rated.append(
                {
                    **entry,
                    **doubt,
                    "words": str(doubt["words"]),
                    "player_name": names.get(entry["player"], f"#{entry['player']}"),
                }
            )
        out.append({"game": key, "name": games.get(key, key), "ratings": rated, "backtest": trust_summary(trust)})
    return out


class GroupRatingsApi(GroupStatsApiView):
    pagination_class = None
    serializer_class = GroupRatingsSerializer

    @extend_schema(
        parameters=[OpenApiParameter("game", str, enum=list(rules.KEYS), description="one game's ratings only")],
        responses=GroupRatingsSerializer,
        summary="A group's ratings per game, with their doubt and how well they have predicted its results",
    )
    def get(self, request: Request, group_id: int) -> Response:
        group = self.visible_group(group_id)
        game = self.game_param()
        body = {"group": group.pk, "games": ratings_of(group_id=group.pk, ruleset=game)}
        return Response(GroupRatingsSerializer(body).data)
