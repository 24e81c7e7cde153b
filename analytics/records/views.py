"""The records page (``/stats/groups/<id>/records/``) and its API (``/api/v1/groups/<id>/records``): every game's
records with the two runners-up, each linking to its round or match. Read from the record book only (one query,
plus the players' names)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from analytics import selectors
from analytics.api_base import GroupStatsApiView
from analytics.records.book import KINDS, record_books
from scoring import rules

SHOWN = 3  # entries per record on the page: the record and two runners-up
LISTED = 10  # entries per record in the API


def entry_url(entry: dict[str, Any]) -> str:
    url = reverse("match", args=[entry["match"]])
    return f"{url}#r{entry['round']}" if entry.get("round") is not None else url


def records_of(*, group_id: int, ruleset: str | None = None, limit: int = SHOWN) -> list[dict[str, Any]]:
    """Per game (in the order games are listed), its records (in the order kinds are listed), each with its best
    ``limit`` entries named and linked."""
    books = record_books(group_id=group_id, ruleset=ruleset)
    names = selectors.player_names(group_id=group_id)
    games = selectors.game_names()
    out = []
    for key in rules.KEYS:
        if key not in books:
            continue
        found = []
        for kind in KINDS:
            book = books[key].get(kind.key)
            if book is None:
                continue
            entries = [
                {**e, "player_name": names.get(e["player"], f"#{e['player']}"), "url": entry_url(e)}
                for e in book.top[:limit]
            ]
            found.append(
                {
                    "kind": kind.key,
                    "label": str(kind.label),
                    "scope": kind.scope,
                    "lower": kind.lower,
                    "total": book.total,
                    "entries": entries,
                }
            )
        out.append({"game": key, "name": games.get(key, key), "records": found})
    return out


@login_required
def records_page(request: HttpRequest, group_id: int) -> HttpResponse:
    group = selectors.group_visible(user=request.user, group_id=group_id)
    if group is None:
        raise Http404
    game = request.GET.get("game") or None
    if game is not None and game not in rules.KEYS:
        game = None
    context = {"group": group, "games": records_of(group_id=group.pk, ruleset=game), "game": game}
    return render(request, "analytics/records.html", context)


class RecordEntrySerializer(serializers.Serializer):  # type: ignore[type-arg]
    value = serializers.IntegerField()
    player = serializers.IntegerField()
    player_name = serializers.CharField()
    match = serializers.IntegerField()
    round = serializers.IntegerField(allow_null=True, help_text="the round's number; null for a match's record")
    at = serializers.CharField(help_text="when: the round was saved, or the match finished (UTC)")
    url = serializers.CharField(help_text="the round (or match) on the match page")


class RecordSerializer(serializers.Serializer):  # type: ignore[type-arg]
    kind = serializers.ChoiceField(choices=[k.key for k in KINDS])
    label = serializers.CharField()
    scope = serializers.ChoiceField(choices=["round", "match", "streak"])
    lower = serializers.BooleanField(help_text="the lowest value is the record (fewest rounds to win)")
    total = serializers.IntegerField(help_text="how many entries the group has (rounds × players, matches …)")
    entries = RecordEntrySerializer(many=True, help_text="the best first; the earlier of equal values first")


class GameRecordsSerializer(serializers.Serializer):  # type: ignore[type-arg]
    game = serializers.CharField()
    name = serializers.CharField()
    records = RecordSerializer(many=True)


class GroupRecordsSerializer(serializers.Serializer):  # type: ignore[type-arg]
    group = serializers.IntegerField()
    games = GameRecordsSerializer(many=True)


class GroupRecordsApi(GroupStatsApiView):
    pagination_class = None
    serializer_class = GroupRecordsSerializer

    @extend_schema(
        parameters=[OpenApiParameter("game", str, enum=list(rules.KEYS), description="one game's records only")],
        responses=GroupRecordsSerializer,
        summary="A group's records per game (finished matches), each with its best entries",
    )
    def get(self, request: Request, group_id: int) -> Response:
        group = self.visible_group(group_id)
        game = self.game_param()
        body = {"group": group.pk, "games": records_of(group_id=group.pk, ruleset=game, limit=LISTED)}
        return Response(GroupRecordsSerializer(body).data)
