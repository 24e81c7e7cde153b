"""Dashboards: Django views that read snapshots only; each Plotly figure is served drawn as a static SVG, with its
figure dict for plotly.js when the reader asks for the interactive version."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext, gettext_lazy

from analytics import selectors, services
from analytics.drawing import charts, svg
from analytics.models import Snapshot
from analytics.stats import StatsFilter
from scoring import rules
from scoring.api.throttles import heavy_throttle
from scoring.text.numbers import decimal_mark

TITLES = {
    "win_rate_by_game": gettext_lazy("Win rate by game"),
    "head_to_head": gettext_lazy("Head to head (row player's win rate, %)"),
    "activity": gettext_lazy("Matches per month"),
    "score_over_time": gettext_lazy("Average score per month"),
    "rank_over_time": gettext_lazy("Average rank per month (1 = best)"),
    "rating_over_time": gettext_lazy("Rating over time (μ − 3σ with its uncertainty band)"),
    "partners": gettext_lazy("Win rate with partners"),
    "win_rate": gettext_lazy("Win rate"),
    "synergy": gettext_lazy("Who wins with whom (team rounds won, %)"),
    "mue_bid_success": gettext_lazy("Chief's success rate by bid and trump kind"),
    "njet_levels": gettext_lazy("Average points by points-per-trick level"),
    "meinz_cards": gettext_lazy("Point cards taken (3 / 1 / 0 / 2)"),
    "was_sticht_tasks": gettext_lazy("Tasks completed by type"),
    "sticheln_pain": gettext_lazy("Pain-colour points per round by variant and colour"),
    "coloretto_profile": gettext_lazy("Colours held by number of cards"),
    "muzicando_contracts": gettext_lazy("Contracts made by type"),
}


def _filter(request: HttpRequest) -> StatsFilter:
    try:
        return StatsFilter.from_query(request.GET.get("period"), request.GET.get("players"), request.GET.get("rounds"))
    except ValueError:
        return StatsFilter()


def _note(chart: charts.Chart) -> str:
    """What a figure that shows part of a list says about the rest."""
    params = chart.params
    if not params.get("total"):
        return ""
    if params.get("order") == "rated":
        text = gettext("Showing %(shown)s of %(total)s: the best rated.")
    else:
        text = gettext("Showing %(shown)s of %(total)s: the most played.")
    return text % {"shown": params["shown"], "total": params["total"]}


def _page(
    request: HttpRequest,
    template: str,
    snapshot: Snapshot,
    figures: list[charts.Chart],
    *,
    whole_list: str = "",
    **context: Any,
) -> HttpResponse:
    payload = snapshot.payload or {}
    mark = decimal_mark(get_language())
    rendered = []
    for i, chart in enumerate(figures):
        title = str(TITLES.get(chart.key, chart.key))
        label = f"{title} — {chart.label}" if chart.label else title
        figure = charts.localized(chart.figure, mark)
        rendered.append(
            {
                "id": f"chart-{i}",
                "title": title,
                "label": chart.label,
                "figure": figure,
                "svg": mark_safe(svg.figure_svg(figure, label)),  # every text in it is escaped
                "note": _note(chart),
                "whole_list": whole_list if chart.params.get("total") else "",
            }
        )
    return render(
        request,
        template,
        {
            "snapshot": snapshot,
            "status": selectors.snapshot_status(snapshot),
            "payload": payload,
            "charts": rendered,
            "charts_data": {
                "charts": [{"id": c["id"], "figure": c["figure"]} for c in rendered],
                "config": charts.CONFIG,
            },
            "filters": payload.get("filters", {"years": [], "players": []}),
            "flt": StatsFilter.parse(snapshot.filter_key),
            **context,
        },
    )


def _rows(entries: list[dict[str, Any]], names: dict[int, str], key: str = "player") -> list[dict[str, Any]]:
    return [{**e, "name": names.get(e[key], f"#{e[key]}")} for e in entries]


# How many rows a dashboard's tables show before "show everyone" (the whole list, on request).
PLAYERS_SHOWN = 20
GROUP_RATINGS_SHOWN = 5
GAME_RATINGS_SHOWN = 10


def _all_url(request: HttpRequest, name: str, path: str | None = None) -> str:
    """The page (``path``, or this one) with the same filters, showing the whole list ``name`` at its heading."""
    query = request.GET.copy()
    query["all"] = name
    return f"{path or request.path}?{query.urlencode()}#{name}"


def _cut(
    request: HttpRequest, entries: list[dict[str, Any]], name: str, shown: int
) -> tuple[list[dict[str, Any]], int]:
    """The first ``shown`` entries and how many more there are; every entry when the reader asked for the whole
    list (``?all=<name>``). A list cut for space says so on the page and links to the whole list."""
    if request.GET.get("all") == name:
        return entries, 0
    return entries[:shown], max(0, len(entries) - shown)


@login_required
@heavy_throttle
def group_dashboard(request: HttpRequest, group_id: int) -> HttpResponse:
    group = selectors.group_visible(user=request.user, group_id=group_id)
    if group is None:
        raise Http404
    snapshot = services.snapshot_request(scope="group", group_id=group.pk, flt=_filter(request))
    names, games = selectors.player_names(group_id=group.pk), selectors.game_names()
    payload = snapshot.payload or {}
    leaders, more = _cut(request, payload.get("players", []), "players", PLAYERS_SHOWN)
    ratings = []
    for g, rows in sorted(payload.get("ratings", {}).items()):
        shown, left = _cut(request, rows, f"ratings-{g}", GROUP_RATINGS_SHOWN)
        game_path = reverse("analytics:game", args=[group.pk, g])
        query = request.GET.copy()
        query["all"] = "ratings"
        query.pop("page", None)
        ratings.append(
            {
                "ruleset": g,
                "name": games.get(g, g),
                "rows": _rows(shown, names),
                "more": left,
                "all_url": f"{game_path}?{query.urlencode()}#ratings",
            }
        )
    return _page(
        request,
        "analytics/group.html",
        snapshot,
        charts.group_charts(payload, names, games),
        whole_list=_all_url(request, "players"),
        group=group,
        leaders=_rows(leaders, names),
        leaders_more=more,
        leaders_all_url=_all_url(request, "players"),
        game_rows=[{**g, "name": games.get(g["ruleset"], g["ruleset"])} for g in payload.get("games", [])],
        ratings=ratings,
    )


@login_required
@heavy_throttle
def game_dashboard(request: HttpRequest, group_id: int, ruleset: str) -> HttpResponse:
    group = selectors.group_visible(user=request.user, group_id=group_id)
    if group is None or ruleset not in rules.KEYS:
        raise Http404
    snapshot = services.snapshot_request(scope="game", group_id=group.pk, ruleset=ruleset, flt=_filter(request))
    names, games = selectors.player_names(group_id=group.pk), selectors.game_names()
    payload = snapshot.payload or {}
    leaders, more = _cut(request, payload.get("players", []), "players", PLAYERS_SHOWN)
    ratings, ratings_more = _cut(request, payload.get("ratings", []), "ratings", GAME_RATINGS_SHOWN)
    return _page(
        request,
        "analytics/game.html",
        snapshot,
        charts.game_charts(payload, names, games),
        whole_list=_all_url(request, "players"),
        group=group,
        game=games.get(ruleset, ruleset),
        ruleset=ruleset,
        leaders=_rows(leaders, names),
        leaders_more=more,
        leaders_all_url=_all_url(request, "players"),
        ratings=_rows(ratings, names),
        ratings_more=ratings_more,
        ratings_all_url=_all_url(request, "ratings"),
        specific=payload.get("specific", {}),
    )


@login_required
@heavy_throttle
def player_dashboard(request: HttpRequest, player_id: int) -> HttpResponse:
    player = selectors.player_visible(user=request.user, player_id=player_id)
    if player is None:
        raise Http404
    snapshot = services.snapshot_request(
        scope="player", group_id=player.group_id, player_id=player.pk, flt=_filter(request)
    )
    names, games = selectors.player_names(group_id=player.group_id), selectors.game_names()
    payload = snapshot.payload or {}
    return _page(
        request,
        "analytics/player.html",
        snapshot,
        charts.player_charts(payload, names, games),
        group=player.group,
        player=player,
        overall=payload.get("overall", {}),
        game_rows=[{**g, "name": games.get(g["ruleset"], g["ruleset"])} for g in payload.get("games", [])],
    )


@login_required
def snapshot_status(request: HttpRequest, snapshot_id: int) -> JsonResponse:
    """Polled by a dashboard while its snapshot is stale or being recomputed."""
    snapshot = selectors.snapshot_for_user(user=request.user, snapshot_id=snapshot_id)
    if snapshot is None:
        raise Http404
    return JsonResponse(selectors.snapshot_status(snapshot))
