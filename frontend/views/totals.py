"""Totals-only matches: the page that records a match from its final scores (its own page: ``totals_page``)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils import timezone

from frontend.entry import forms as entry
from frontend.views.common import error_text, page
from frontend.views.matches import _option_fields, _options_from_post, game_picked
from scoring import selectors, services


def _seated(players: list[Any], post: Any) -> tuple[list[int], list[Any]]:
    """The players given a final score, in seat order (the seat numbers typed, then the list's order), and
    their scores as typed (whole numbers where they are, else the text, for the service to refuse by name)."""
    chosen = []
    for index, p in enumerate(players):
        raw = (post.get(f"points_{p.pk}") or "").strip()
        if raw == "":
            continue
        seat = entry.to_int((post.get(f"seat_{p.pk}") or "").strip())
        order = seat if isinstance(seat, int) and seat > 0 else 1000 + index
        value = entry.to_int(raw)
        chosen.append((order, index, p.pk, value if isinstance(value, int) else raw))
    chosen.sort()
    return [c[2] for c in chosen], [c[3] for c in chosen]


def _played_at(raw: str) -> Any:
    try:
        return dt.date.fromisoformat(raw)
    except ValueError:
        return None


@login_required
def match_totals_new(request: HttpRequest, group_id: int) -> HttpResponse:
    """Record final scores: the game, the players (seat order) with their final scores, options and the date."""
    group = selectors.group_get(user=request.user, group_id=group_id)
    ruleset = game_picked(request, group)
    if isinstance(ruleset, HttpResponse):
        return ruleset
    players = selectors.player_list_sorted(group=group)
    post = request.POST if request.method == "POST" else None
    problem = ""
    if post is not None:
        seated, points = _seated(players, post)
        try:
            match = services.match_record_totals(
                group=group,
                ruleset=ruleset.key,
                options=_options_from_post(ruleset, post, seated),
                player_ids=seated,
                points=points,
                played_at=_played_at(post.get("played_at") or ""),
                user=request.user,
            )
        except services.ServiceError as exc:
            problem = error_text(exc)
        else:
            return redirect("match", match.pk)
    rows = [
        {
            "player": p,
            "points": post.get(f"points_{p.pk}", "") if post is not None else "",
            "seat": post.get(f"seat_{p.pk}", "") if post is not None else "",
        }
        for p in players
    ]
    context = {
        "group": group,
        "ruleset": ruleset,
        "rows": rows,
        "options": [o for o in _option_fields(ruleset, post) if o["kind"] != "json"],
        "played_at": post.get("played_at") if post is not None else timezone.localdate().isoformat(),
        "today": timezone.localdate().isoformat(),
        "problem": problem,
    }
    return page(request, "frontend/matches/totals_new.html", context, status=400 if problem else 200)
