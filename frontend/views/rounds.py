"""Entering, previewing, editing, deleting and undoing rounds: every write goes through scoring.services."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from frontend import entry
from scoring import selectors, services
from scoring.services.calculator import ruleset_score

from .common import error_text, page
from .matches import _board_context


def _is_script(request: HttpRequest) -> bool:
    return request.headers.get("X-Requested-With") == "fetch" or bool(getattr(request, "htmx", False))


def _form_context(match: Any, **kwargs: Any) -> dict[str, Any]:
    board = selectors.match_scoreboard(match=match)
    c = entry.context_for(match, board)
    return {"match": match, "board": board, **entry.form_context(c, **kwargs)}


def _errors(exc: services.ServiceError) -> list[dict[str, Any]]:
    if isinstance(exc, services.ValidationFailed):
        return entry.problems_for_form(exc.details, exc.problems)
    return [{"field": "", "text": error_text(exc), "rule": ""}]


@login_required
def entry_form(request: HttpRequest, match_id: int) -> HttpResponse:
    """A fresh entry form for the next round (fetched after a save or when another phone added a round)."""
    match = selectors.match_get(user=request.user, match_id=match_id)
    context = _form_context(match)
    context.update(action=reverse("round_new", args=[match.pk]), queue=True)
    template = "frontend/matches/entry_block.html"
    return render(request, template, context)


@login_required
@require_POST
def round_new(request: HttpRequest, match_id: int) -> HttpResponse:
    """Record the next round. The browser sends each entry with its own Idempotency-Key header (queued
    entries too), so a retry after a lost answer never stores a round twice."""
    match = selectors.match_get(user=request.user, match_id=match_id)
    board = selectors.match_scoreboard(match=match)
    c = entry.context_for(match, board)
    facts = entry.adapter(c.key).to_facts(request.POST, c)
    key = (request.headers.get("Idempotency-Key") or "").strip()[:100] or None
    try:
        rnd = services.round_record(match=match, facts=facts, user=request.user, idempotency_key=key)
    except services.ServiceError as exc:
        status = (
            409 if isinstance(exc, services.Conflict) else 422 if isinstance(exc, services.IdempotencyMismatch) else 400
        )
        if isinstance(exc, services.NotAllowed):
            status = 403
        context = {"match": match, "board": board, **entry.form_context(c, post=request.POST, errors=_errors(exc))}
        context.update(action=reverse("round_new", args=[match.pk]), queue=True)
        if _is_script(request):
            return render(request, "frontend/matches/entry_block.html", context, status=status)
        full = {**_board_context(match), **context}
        return page(request, "frontend/matches/match.html", full, status=status)
    if _is_script(request):
        response = HttpResponse(status=200 if getattr(rnd, "replayed", False) else 201)
        response["X-Round"] = str(rnd.number)
        return response
    return redirect(reverse("match", args=[match.pk]) + "#board")


@login_required
@require_POST
def preview(request: HttpRequest, match_id: int) -> HttpResponse:
    """What the rules make of the form as it stands (nothing stored): points and explanations, or what is
    still missing."""
    match = selectors.match_get(user=request.user, match_id=match_id)
    board = selectors.match_scoreboard(match=match)
    c = entry.context_for(match, board)
    facts = entry.adapter(c.key).to_facts(request.POST, c)
    editing = entry.to_int(request.POST.get("version"))
    before = [r["facts"] for r in board["rounds"]]
    number = entry.to_int(request.POST.get("number"))
    if isinstance(editing, int) and isinstance(number, int):
        before = [r["facts"] for r in board["rounds"] if r["number"] < number]
    context: dict[str, Any] = {"match": match}
    try:
        result = ruleset_score(ruleset=c.ruleset, players=c.names, options=match.options, facts=facts, before=before)
    except services.ServiceError as exc:
        context["problems"] = _errors(exc)
    else:
        context["rows"] = [
            {
                "name": name,
                "points": result["scores"][seat],
                "lines": [ln for ln in result["explanation"] if ln.get("player") == seat],
            }
            for seat, name in enumerate(c.names)
        ]
        context["general"] = [ln for ln in result["explanation"] if ln.get("player") is None]
    return render(request, "frontend/matches/preview.html", context)


@login_required
def round_edit(request: HttpRequest, match_id: int, number: int) -> HttpResponse:
    match = selectors.match_get(user=request.user, match_id=match_id)
    rnd = selectors.round_get(match=match, number=number)
    board = selectors.match_scoreboard(match=match)
    c = entry.context_for(match, board)
    notice = None
    if request.method == "POST":
        facts = entry.adapter(c.key).to_facts(request.POST, c)
        version = entry.to_int(request.POST.get("version"))
        try:
            services.round_edit(
                round=rnd,
                facts=facts,
                expected_version=version if isinstance(version, int) else None,
                user=request.user,
            )
        except services.StaleVersion:
            rnd = selectors.round_get(match=match, number=number)
            notice = gettext(
                "Someone changed this round while you were editing it. Here is the round as it is now; "
                "make your change again."
            )
            form = entry.form_context(c, facts=rnd.facts)
        except services.ServiceError as exc:
            form = entry.form_context(c, post=request.POST, errors=_errors(exc))
        else:
            messages.success(request, gettext("Round %(n)d was changed.") % {"n": rnd.number})
            return redirect(reverse("match", args=[match.pk]) + "#board")
    else:
        form = entry.form_context(c, facts=rnd.facts)
    context = {
        "match": match,
        "board": board,
        "round": rnd,
        **form,
        "notice": notice,
        "editing": rnd,
        "action": reverse("round_edit", args=[match.pk, rnd.number]),
        "queue": False,
    }
    return page(request, "frontend/matches/edit.html", context, status=400 if form.get("errors") else 200)


def _round_action(request: HttpRequest, match_id: int, number: int, action: Any, done: str) -> HttpResponse:
    match = selectors.match_get(user=request.user, match_id=match_id)
    rnd = selectors.round_get(match=match, number=number)
    try:
        action(rnd)
    except services.ServiceError as exc:
        messages.error(request, error_text(exc))
    else:
        messages.success(request, done % {"n": rnd.number})
    return redirect(reverse("match", args=[match.pk]) + "#rounds")


@login_required
@require_POST
def round_delete(request: HttpRequest, match_id: int, number: int) -> HttpResponse:
    version = entry.to_int(request.POST.get("version"))
    return _round_action(
        request,
        match_id,
        number,
        lambda r: services.round_delete(
            round=r, expected_version=version if isinstance(version, int) else None, user=request.user
        ),
        gettext("Round %(n)d was deleted. Undo brings it back."),
    )


@login_required
@require_POST
def round_undo(request: HttpRequest, match_id: int, number: int) -> HttpResponse:
    return _round_action(
        request,
        match_id,
        number,
        lambda r: services.round_undo(round=r, user=request.user),
        gettext("The last change to round %(n)d was undone."),
    )
