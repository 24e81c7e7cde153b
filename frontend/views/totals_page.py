"""The page of a totals-only match (recorded from its final scores; see ``totals`` for the form)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse

from frontend.entry import labels
from frontend.views.common import page
from scoring import selectors
from scoring.models import Match


def totals_match_page(request: HttpRequest, match: Match) -> HttpResponse:
    """The page of a totals-only match: its final scores and winners; no rounds, no entry form."""
    board = selectors.match_scoreboard(match=match)
    winners = {w["seat"] for w in board["winners"]}
    rows = [
        {"name": p["name"], "seat": p["seat"], "total": board["totals"][p["seat"]], "won": p["seat"] in winners}
        for p in board["players"]
    ]
    context = {
        "match": match,
        "board": board,
        "rows": rows,
        "game_name": board["ruleset_name"],
        "game_title": labels.game_title(selectors.ruleset_get(key=match.ruleset), match.options),
    }
    return page(request, "frontend/matches/totals_match.html", context)
