"""The stakes of the round being entered, before play (MÜ after the auction, NJET once the board is set): the entry
form refreshes this block (htmx) whenever one of its fields changes. Nothing is stored."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_POST

from frontend.entry import forms as entry
from scoring import rules, selectors
from scoring.selectors.outlook import match_seat_names, match_stakes


@login_required
@require_POST
def round_stakes(request: HttpRequest, match_id: int) -> HttpResponse:
    """The form's fields as round facts (the game's entry adapter), worded as the stakes; empty until the
    auction or the board says enough."""
    match = selectors.match_get(user=request.user, match_id=match_id, rounds_played=False)
    # the MÜ and NJET forms read their auction and board without the scoreboard: no replay of the match here
    c = entry.EntryContext(
        ruleset=rules.get(match.ruleset), names=match_seat_names(match=match), options=dict(match.options)
    )
    facts = entry.adapter(c.key).to_facts(request.POST, c)
    return render(request, "frontend/entry/_stakes_body.html", {"stakes": match_stakes(match=match, facts=facts)})
