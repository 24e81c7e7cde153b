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

from frontend.entry import fields, required
from frontend.entry import forms as entry
from frontend.entry import games as entry_games
from frontend.entry.conflict import conflict_context
from frontend.entry.marks import mark_form
from frontend.views.common import error_text, page
from frontend.views.matches import _board_context, bad_version_page
from scoring import selectors, services
from scoring.services.calculator import ruleset_score
from scoring.services.errors import RoundTaken

RETURN_LINES = ("was-sticht.start_returns", "was-sticht.start_returns_chosen")


def _is_script(request: HttpRequest) -> bool:
    return request.headers.get("X-Requested-With") == "fetch" or bool(getattr(request, "htmx", False))


def _form_context(match: Any, **kwargs: Any) -> dict[str, Any]:
    board = selectors.match_scoreboard(match=match)
    c = entry.context_for(match, board)
    return {"match": match, "board": board, **entry.form_context(c, **kwargs)}


def _marked(response: HttpResponse) -> HttpResponse:
    """The refused form's inputs marked and its error-box links pointed at them (see ``frontend.entry.marks``)."""
    response.content = mark_form(response.content.decode(response.charset)).encode(response.charset)
    return response


def _errors(exc: services.ServiceError, names: list[str] | None = None, post: Any = None) -> list[dict[str, Any]]:
    if isinstance(exc, services.ValidationFailed):
        return entry.problems_for_form(exc.details, exc.problems, names or [], post)
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
    # "Enter mine as round N+1" on a form whose round was saved elsewhere (without scripts: the button's value)
    number = entry.to_int(request.POST.get("as_number") or request.POST.get("number"))
    try:
        rnd = services.round_record(
            match=match,
            facts=facts,
            user=request.user,
            idempotency_key=key,
            expected_number=number if isinstance(number, int) and number > 0 else None,
        )
    except RoundTaken as taken:
        return _round_taken(request, match.pk, taken)
    except services.ServiceError as exc:
        status = (
            409 if isinstance(exc, services.Conflict) else 422 if isinstance(exc, services.IdempotencyMismatch) else 400
        )
        if isinstance(exc, services.NotAllowed):
            status = 403
        context = {
            "match": match,
            "board": board,
            **entry.form_context(c, post=request.POST, errors=_errors(exc, c.names, request.POST)),
            # a form is for its round: refused, it is still for the round it was opened for
            "form_number": number if isinstance(number, int) and number > 0 else None,
        }
        context.update(action=reverse("round_new", args=[match.pk]), queue=True)
        if _is_script(request):
            return _marked(render(request, "frontend/matches/entry_block.html", context, status=status))
        full = {**_board_context(match), **context}
        return _marked(page(request, "frontend/matches/match.html", full, status=status))
    if _is_script(request):
        response = HttpResponse(status=200 if getattr(rnd, "replayed", False) else 201)
        response["X-Round"] = str(rnd.number)
        return response
    return redirect(reverse("match", args=[match.pk]) + "#board")


def _round_taken(request: HttpRequest, match_id: int, taken: RoundTaken) -> HttpResponse:
    """409: the round this form was for was saved meanwhile (by another phone). Nothing was stored. The form
    stays for the round it was opened for, with what this phone typed; where its Save button was, the conflict
    panel: who saved it, that round's points beside this phone's, and the two choices (discard mine, enter mine
    as the next round)."""
    match = selectors.match_get(user=request.user, match_id=match_id)  # as it is now (version, state)
    board = selectors.match_scoreboard(match=match)
    c = entry.context_for(match, board)
    facts = entry.adapter(c.key).to_facts(request.POST, c)
    conflict = conflict_context(match=match, board=board, c=c, facts=facts, number=taken.expected, by=taken.by)
    context: dict[str, Any] = {
        "match": match,
        "board": board,
        **entry.form_context(c, post=request.POST),
        "action": reverse("round_new", args=[match.pk]),
        "queue": True,
        "form_number": taken.expected,
        "conflict": conflict,
    }
    if _is_script(request):
        return render(request, "frontend/matches/entry_block.html", context, status=409)
    full = {**_board_context(match), **context}
    return page(request, "frontend/matches/match.html", full, status=409)


@login_required
@require_POST
def round_conflict(request: HttpRequest, match_id: int) -> HttpResponse:
    """The conflict panel for a half-filled form whose round the live board shows saved elsewhere (nothing is
    stored): who saved it, its points beside this phone's, the two choices. 204 when the form's round is still
    the one to enter (the change was undone meanwhile)."""
    match = selectors.match_get(user=request.user, match_id=match_id)
    board = selectors.match_scoreboard(match=match)
    c = entry.context_for(match, board)
    number = entry.to_int(request.POST.get("number"))
    if not isinstance(number, int) or number < 1:
        return HttpResponse(status=204)
    facts = entry.adapter(c.key).to_facts(request.POST, c)
    conflict = conflict_context(match=match, board=board, c=c, facts=facts, number=number)
    if conflict is None:
        return HttpResponse(status=204)
    return render(request, "frontend/matches/_conflict.html", {"match": match, "board": board, "conflict": conflict})


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
    rows = board["rounds"]
    number = entry.to_int(request.POST.get("number"))
    if isinstance(editing, int) and isinstance(number, int):
        rows = [r for r in rows if r["number"] < number]
    else:
        number = board["next_number"]
    before = [r["facts"] for r in rows]
    numbers = [*(r["number"] for r in rows), number] if isinstance(number, int) else []
    context: dict[str, Any] = {"match": match}
    if c.key == "was-sticht":  # the seats whose colours the form asks for, as the rules judge the form now
        context["colour_seats"] = entry_games.WasSticht.colour_seats_of(
            c, facts.get("chosen") or [], facts.get("start_player")
        )
    try:
        result = ruleset_score(
            ruleset=c.ruleset, players=c.names, options=match.options, facts=facts, before=before, numbers=numbers
        )
    except services.ServiceError as exc:
        problems = _errors(exc, c.names, request.POST)
        # "required" complaints, and any complaint about an input still left blank, become one "still missing" line
        gap = [p for p in problems if fields.is_missing(p, request.POST, places=len(c.names))]
        # the engine stops at its first problem: the form names every required input still blank
        blank = [*required.blank_required(request.POST, c), *(p["field"] for p in gap)]
        context["missing"] = fields.missing_phrase(blank, c.names, required.field_labels(c)) if blank else ""
        context["problems"] = [p for p in problems if p not in gap]
        if any(p.get("msg") == "was-sticht.start_return_not_earned" for p in problems):
            context["return_earned"] = False
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
        if c.key == "was-sticht":  # the start player's return choice is shown only when he earned a return
            context["return_earned"] = any(ln.get("msg") in RETURN_LINES for ln in result["explanation"])
            _proposal_wording(context, c, facts, before, match.options)
    return render(request, "frontend/matches/preview.html", context)


def _proposal_wording(
    context: dict[str, Any], c: Any, facts: dict[str, Any], before: list[Any], options: dict[str, Any]
) -> None:
    """Was sticht?: the form preselects the app's proposal for the task the start player returns.  While the
    form still holds that proposal, the preview says so (not "as chosen": nobody chose yet)."""
    start, picked = facts.get("start_player"), facts.get("start_return")
    if not isinstance(start, int) or picked is None:
        return
    held = (c.ruleset.state(before, players=c.n, options=options).extra or {}).get("held") or []
    if not 0 <= start < len(held) or picked != c.module.start_return_proposed(held[start]):
        return
    name = c.names[start]
    for row in context["rows"]:
        for i, ln in enumerate(row["lines"]):
            if ln.get("msg") == "was-sticht.start_returns_chosen":
                line = selectors.line_render(c.ruleset, {**ln, "msg": "was-sticht.start_returns"}, c.names)
                note = gettext("This is the app's proposal; {name} may choose another task below.").format(name=name)
                row["lines"][i] = {**line, "text": f"{line['text']} {note}"}


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
        if version is not None and not isinstance(version, int):  # sent, but not a number: change nothing
            notice = gettext(
                "This form did not say which version of the round it was made for, so nothing was changed. "
                "Check your entries and save again."
            )
            form = entry.form_context(c, post=request.POST)
            context = {"match": match, "board": board, "round": rnd, **form, "notice": notice, "editing": rnd}
            context.update(action=reverse("round_edit", args=[match.pk, rnd.number]), queue=False)
            return page(request, "frontend/matches/edit.html", context, status=400)
        try:
            services.round_edit(
                round=rnd,
                facts=facts,
                expected_version=version if isinstance(version, int) else None,
                user=request.user,
            )
        except services.StaleVersion:
            rnd = selectors.round_get(match=match, number=number)
            by = selectors.round_changed_by(round=rnd)
            if by:
                notice = gettext(
                    "%(name)s changed this round while you were editing it. Here is the round as it is now; "
                    "make your change again."
                ) % {"name": by}
            else:
                notice = gettext(
                    "Someone changed this round while you were editing it. Here is the round as it is now; "
                    "make your change again."
                )
            form = entry.form_context(c, facts=rnd.facts)
        except services.ServiceError as exc:
            form = entry.form_context(c, post=request.POST, errors=_errors(exc, c.names, request.POST))
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
    if form.get("errors"):
        return _marked(page(request, "frontend/matches/edit.html", context, status=400))
    return page(request, "frontend/matches/edit.html", context)


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
    if version is not None and not isinstance(version, int):  # sent, but not a number: change nothing
        selectors.round_get(match=selectors.match_get(user=request.user, match_id=match_id), number=number)
        return bad_version_page(request, match_id)
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
