"""Rounds the other side confirms (issue 47 part 3) on the pages: the group's switch, Confirm on the board, and the
dispute page (the round's points and why with its rules, the trick referee, a short note).

Confirm is one tap on the board (a plain form: the match page comes back, its board showing the round confirmed);
a dispute takes its own page, so that a note being typed is never wiped by the board's live refresh."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from frontend.entry import forms as entry
from frontend.views.common import error_text, page
from scoring import selectors, services
from scoring.rules import tricks
from scoring.selectors.confirming import UNCHECKED, match_checks
from scoring.services.confirm import NOTE_MAX


@login_required
@require_POST
def group_confirm_rounds(request: HttpRequest, group_id: int) -> HttpResponse:
    group = selectors.group_get(user=request.user, group_id=group_id)
    on = request.POST.get("on") == "1"
    try:
        services.group_confirm_rounds(group=group, on=on, user=request.user)
    except services.ServiceError as exc:
        messages.error(request, error_text(exc))
    else:
        messages.success(
            request,
            gettext("From now on, a player of the other side confirms every round saved.")
            if on
            else gettext("Rounds no longer wait for the other side to confirm them."),
        )
    return redirect(reverse("group", args=[group.pk]) + "#confirm-rounds")


def _version(request: HttpRequest) -> int | None:
    version = entry.to_int(request.POST.get("version"))
    return version if isinstance(version, int) else None


def _back(match_id: int) -> HttpResponse:
    return redirect(reverse("match", args=[match_id]) + "#board")


@login_required
@require_POST
def round_confirm(request: HttpRequest, match_id: int, number: int) -> HttpResponse:
    try:
        services.round_confirm(match_id=match_id, number=number, user=request.user, expected_version=_version(request))
    except services.ServiceError as exc:
        messages.error(request, error_text(exc))
    else:
        messages.success(request, gettext("Round %(n)s is confirmed.") % {"n": number})
    return _back(match_id)


@login_required
def round_dispute(request: HttpRequest, match_id: int, number: int) -> HttpResponse:
    """GET: the round with its points and why (each line links its rule), the trick referee and a note field;
    POST: mark the round disputed and go back to the match."""
    match = selectors.match_get(user=request.user, match_id=match_id)
    board = selectors.match_scoreboard(match=match)
    rnd = next((r for r in board["rounds"] if r["number"] == number), None)
    if rnd is None:
        raise Http404
    error = ""
    if request.method == "POST":
        try:
            services.round_dispute(
                match_id=match.pk,
                number=number,
                user=request.user,
                expected_version=_version(request),
                note=request.POST.get("note", ""),
            )
        except services.ServiceError as exc:
            error = error_text(exc)
        else:
            messages.success(
                request,
                gettext("Round %(n)s is marked disputed. Edit it, or confirm it if it turns out right.")
                % {"n": number},
            )
            return _back(match.pk)
    from frontend.views.matches import _per_player

    [standing] = match_checks(match=match, rounds=[rnd], user=request.user, group=match.group)
    context = {
        "match": match,
        "board": board,
        "rnd": {**rnd, "per_player": _per_player(rnd, board)},
        "standing": standing,
        "open": standing.state != UNCHECKED and standing.can_act,
        "referee": match.ruleset in tricks.KEYS,
        "note": request.POST.get("note", "") if request.method == "POST" else "",
        "note_max": NOTE_MAX,
        "error": error,
    }
    return page(request, "frontend/matches/dispute.html", context, status=400 if error else 200)
