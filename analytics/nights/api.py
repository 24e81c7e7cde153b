"""Game nights through the API: a group's nights (paginated, newest first, as the nights page) and one night with
its figures, the same numbers the night page prints (rounded once, as numbers) and its texts in the request's
language.

A night's figures are computed once per version of the night and served from storage (``services.nights``), as
for the page; its answer carries an ETag made of that version, the night's merge button and the language, and a
request that sends it back in If-None-Match gets 304 before any figure is read.  One night counts against the heavy
throttle scope, like its page; the list costs what the nights page costs and is not counted there.
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from analytics.api_base import GroupStatsApiView
from analytics.nights.figures import night_version
from analytics.nights.grouping import Night, match_for_user, night_list, night_of_match
from analytics.nights.report import NightReport, night_report
from analytics.nights.service import night_figures_get
from analytics.nights.views import NIGHTS_PER_PAGE
from scoring import rules
from scoring.api.serializers import ErrorSerializer, ObjectField
from scoring.api.throttles import HeavyThrottle, WriteThrottle
from scoring.api.views.base import ApiView, Pagination
from scoring.text.numbers import decimal_round

STORY_KINDS = ["summary", "record", "upset", "lead", "wire", "swing", "close", "runaway"]


def _game() -> serializers.CharField:
    return serializers.CharField(help_text=f"the game's ruleset key: {', '.join(rules.KEYS)}")


# --- shapes ---------------------------------------------------------------------------------------------------------


class NightLinksSerializer(serializers.Serializer):  # type: ignore[type-arg]
    api = serializers.CharField(help_text="this night through the API")
    page = serializers.CharField(help_text="the night's page (members only)")
    image = serializers.CharField(help_text="the night's shareable PNG (members only)")


class NightListItemSerializer(serializers.Serializer):  # type: ignore[type-arg]
    id = serializers.IntegerField(help_text="the night's id: its first match's id")
    group = serializers.IntegerField()
    started_at = serializers.DateTimeField(help_text="when its first match started")
    ended_at = serializers.DateTimeField(help_text="when its last match finished")
    matches = serializers.IntegerField(help_text="how many finished matches the night holds")
    match_ids = serializers.ListField(child=serializers.IntegerField(), help_text="its matches, in start order")
    games = serializers.ListField(child=_game(), help_text="the games played, in the order first played")
    can_merge = serializers.BooleanField(help_text="the night can be merged into the night before it")
    links = NightLinksSerializer()


class NightMatchSerializer(serializers.Serializer):  # type: ignore[type-arg]
    id = serializers.IntegerField()
    game = _game()
    game_name = serializers.CharField()
    started_at = serializers.DateTimeField()
    players = serializers.ListField(child=serializers.CharField(), help_text="names, seat by seat")
    winners = serializers.ListField(child=serializers.CharField())
    totals = serializers.ListField(
        child=serializers.IntegerField(), help_text="final totals, seat by seat; empty until the statistics have it"
    )
    computed = serializers.BooleanField(help_text="its winners and totals are computed (the statistics are up to date)")
    rounds = serializers.IntegerField()


class NightBiggestSerializer(serializers.Serializer):  # type: ignore[type-arg]
    match = serializers.IntegerField()
    game = _game()
    game_name = serializers.CharField()
    number = serializers.IntegerField(help_text="the round's number in its match")
    player = serializers.CharField()
    points = serializers.IntegerField()
    text = serializers.CharField()
    lines = serializers.ListField(child=serializers.CharField(), help_text="the round's explanation, as the page")


class NightUpsetSerializer(serializers.Serializer):  # type: ignore[type-arg]
    match = serializers.IntegerField()
    game = _game()
    game_name = serializers.CharField()
    winners = serializers.ListField(child=serializers.CharField())
    chance = serializers.FloatField(help_text="0..1: the winners' chance by the ratings from before the match")
    percent = serializers.IntegerField(help_text="the chance in whole per cent, as the page prints it")
    text = serializers.CharField()


class NightPartnersSerializer(serializers.Serializer):  # type: ignore[type-arg]
    names = serializers.ListField(child=serializers.CharField())
    rounds = serializers.IntegerField(help_text="rounds played together")
    won = serializers.IntegerField(help_text="of them won together")
    percent = serializers.IntegerField()
    text = serializers.CharField()


class NightRatingSerializer(serializers.Serializer):  # type: ignore[type-arg]
    player = serializers.CharField()
    game = _game()
    game_name = serializers.CharField()
    new = serializers.BooleanField(help_text="no rating in this game before the night")
    before = serializers.FloatField(help_text="the rating (μ − 3σ) before the night, to one decimal as on the page")
    after = serializers.FloatField(help_text="after the night, to one decimal")
    change = serializers.FloatField(help_text="after − before, to one decimal as on the page")


class NightStorySerializer(serializers.Serializer):  # type: ignore[type-arg]
    kind = serializers.ChoiceField(choices=STORY_KINDS)
    text = serializers.CharField(help_text="the sentence, in the request's language")
    facts = ObjectField(help_text="what the sentence says, as numbers and names (its fields depend on the kind)")


class NightSerializer(serializers.Serializer):  # type: ignore[type-arg]
    id = serializers.IntegerField(help_text="the night's id: its first match's id")
    group = serializers.IntegerField()
    started_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField()
    can_merge = serializers.BooleanField()
    players = serializers.ListField(child=serializers.CharField(), help_text="everyone who played, by name")
    matches = NightMatchSerializer(many=True)
    story = NightStorySerializer(many=True, help_text="the evening in three or four sentences")
    upset = NightUpsetSerializer(allow_null=True)
    biggest = NightBiggestSerializer(allow_null=True, help_text="the most points one player scored in a round")
    partners = NightPartnersSerializer(allow_null=True, help_text="who partnered best (NJET teammates, MÜ chief)")
    ratings = NightRatingSerializer(many=True, help_text="rating changes, the biggest gain first")
    links = NightLinksSerializer()


# --- answers --------------------------------------------------------------------------------------------------------


def _links(night: Night) -> dict[str, str]:
    return {
        "api": reverse("analytics-api:night", args=[night.key]),
        "page": reverse("analytics:night", args=[night.key]),
        "image": reverse("analytics:night-image", args=[night.key]),
    }


def _list_item(night: Night) -> dict[str, Any]:
    return {
        "id": night.key,
        "group": night.group_id,
        "started_at": night.started_at,
        "ended_at": night.ended_at,
        "matches": len(night.matches),
        "match_ids": [m.id for m in night.matches],
        "games": list(dict.fromkeys(m.ruleset for m in night.matches)),
        "can_merge": night.can_merge,
        "links": _links(night),
    }


def _one_decimal(value: float) -> float:
    """A rating as the page prints it (``nightreport.rating_text``), as a number."""
    return float(decimal_round(value, 1))


def _body(night: Night, report: NightReport) -> dict[str, Any]:
    biggest, upset, partners = report.biggest, report.upset, report.partners
    return {
        **{key: value for key, value in _list_item(night).items() if key not in ("matches", "match_ids", "games")},
        "players": report.players,
        "matches": [
            {
                "id": m["id"],
                "game": m["ruleset"],
                "game_name": m["game"],
                "started_at": m["started_at"],
                "players": m["players"],
                "winners": m["winners"],
                "totals": m.get("totals", []),
                "computed": m["computed"],
                "rounds": m["rounds"],
            }
            for m in report.matches
        ],
        "story": [
            {"kind": e["kind"], "text": e["text"], "facts": {k: v for k, v in e.items() if k not in ("kind", "text")}}
            for e in report.story
        ],
        "upset": upset
        and {
            "match": upset["match"],
            "game": upset["ruleset"],
            "game_name": upset["game"],
            "winners": upset["winners"],
            "chance": upset["chance"],
            "percent": upset["percent"],
            "text": upset["text"],
        },
        "biggest": biggest
        and {
            "match": biggest["match"],
            "game": biggest["ruleset"],
            "game_name": biggest["game"],
            "number": biggest["number"],
            "player": biggest["player"],
            "points": biggest["points"],
            "text": biggest["text"],
            "lines": [line["label"] for line in biggest["lines"]],
        },
        "partners": partners
        and {
            "names": partners["players"],
            "rounds": partners["rounds"],
            "won": partners["won"],
            "percent": partners["percent"],
            "text": partners["text"],
        },
        "ratings": [
            {
                "player": r["player"],
                "game": r["ruleset"],
                "game_name": r["game"],
                "new": r["new"],
                "before": _one_decimal(r["before"]),
                "after": _one_decimal(r["after"]),
                "change": _one_decimal(r["change"]),
            }
            for r in report.ratings
        ],
    }


def _etag(night: Night, version: str) -> str:
    """The answer's version: the night's (its figures), whether it can be merged (read from the night before it)
    and the language of its texts."""
    return f'"{version[:32]}-{int(night.can_merge)}-{(get_language() or "en")[:10]}"'


def _unchanged(request: Request, etag: str) -> bool:
    sent = request.headers.get("If-None-Match") or ""
    tags = [tag.strip().removeprefix("W/") for tag in sent.split(",")]
    return etag in tags or "*" in tags


# --- views ----------------------------------------------------------------------------------------------------------


class NightPagination(Pagination):
    default_limit = NIGHTS_PER_PAGE  # as many as a page of the nights list


class NightListApi(GroupStatsApiView):
    """A group's game nights, newest first, as the nights page lists them (members only): each night's id, times,
    matches and games, and where its figures are (``links``)."""

    serializer_class = NightListItemSerializer
    pagination_class = NightPagination

    @extend_schema(
        responses=NightListItemSerializer(many=True),
        summary="A group's game nights, newest first",
    )
    def get(self, request: Request, group_id: int) -> Response:
        group = self.visible_group(group_id)
        page = self.paginate_queryset(night_list(group=group))
        return self.get_paginated_response(NightListItemSerializer([_list_item(n) for n in page or []], many=True).data)


IF_NONE_MATCH = OpenApiParameter(
    "If-None-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description="the ETag of your last read of this night: 304 while it is unchanged",
)


class NightDetailApi(ApiView):
    """One game night with the figures its page shows (members only): its matches and winners, its story, the
    upset, the biggest round, the best partners and the rating changes, numbers as the page rounds them and texts in
    the request's language. The ETag changes with the night (one of its matches, a split or a merge) and with the
    language; send it back in If-None-Match for a 304. Counted against the heavy throttle with the night's page."""

    serializer_class = NightSerializer
    pagination_class = None
    throttle_classes = [WriteThrottle, HeavyThrottle]  # counted with the night's page and image

    @extend_schema(
        parameters=[IF_NONE_MATCH],
        responses={
            200: NightSerializer,
            304: OpenApiResponse(description="unchanged since the ETag sent in If-None-Match"),
            404: ErrorSerializer,
        },
        summary="One game night with its figures and its story (any of its matches' ids reaches it)",
    )
    def get(self, request: Request, night_id: int) -> Response:
        match = match_for_user(user=request.user, match_id=int(night_id))
        night = night_of_match(group=match.group, match_id=match.pk) if match is not None else None
        if night is None:
            raise NotFound()
        version = night_version(night=night)
        etag = _etag(night, version)
        if _unchanged(request, etag):
            response = Response(status=status.HTTP_304_NOT_MODIFIED)
        else:
            report = night_report(night=night, figures=night_figures_get(night=night, version=version))
            response = Response(NightSerializer(_body(night, report)).data)
        response["ETag"] = etag
        response["Cache-Control"] = "private, no-cache"
        patch_vary_headers(response, ["Accept-Language", "Cookie", "Authorization"])
        return response
