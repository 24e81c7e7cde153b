"""Matches: start one (game, options, players and seat order), the match page, its live board, history."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import get_language
from django.views.decorators.http import condition, require_POST

from frontend import house_rules
from frontend.entry import forms as entry
from frontend.entry import labels, seating
from frontend.entry.turns import round_turns
from frontend.history import history_rows
from frontend.rulebook import games
from frontend.views.common import error_text, page
from scoring import selectors, services
from scoring.models import Match

# --- starting a match -------------------------------------------------------------------------------------


def _option_fields(ruleset: Any, post: Any, start: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """The option controls, filled from ``post``, else from ``start`` (house rules), else the defaults."""
    fields = []
    by_language = ruleset.language_defaults(get_language())  # NJET: the edition of the page's language
    for spec in ruleset.options:
        value = post.get(f"opt_{spec.key}") if post is not None else None
        default = (start or {}).get(spec.key, by_language.get(spec.key, spec.default))
        fields.append(
            {
                "key": spec.key,
                "kind": spec.kind,
                "label": spec.label,
                "rule": spec.rule,
                "default": default,
                "value": default if value is None else value,
                "choices": labels.choices(spec.key, spec.choices),
                "minimum": spec.minimum,
                "maximum": spec.maximum,
            }
        )
    return fields


def _options_from_post(ruleset: Any, post: Any, seated: list[int]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for spec in ruleset.options:
        raw = post.get(f"opt_{spec.key}")
        if spec.kind == "bool":
            options[spec.key] = raw == "on"
        elif spec.kind == "int":
            if raw not in (None, ""):
                options[spec.key] = entry.to_int(raw)
        elif spec.kind == "json":
            if spec.key == "tasks":  # Was sticht?: the four task cards each seat drafted, in seat order
                options["tasks"] = [[post.get(f"task_{pid}_{i}") or None for i in range(4)] for pid in seated]
        elif raw not in (None, ""):
            options[spec.key] = raw
    return options


def _player_rows(players: list[Any], seated: list[int], post: Any, invalid: Sequence[str] = ()) -> list[dict[str, Any]]:
    """One row per group player (in the list's order): ticked or not, seat number, drafted task cards (each
    with its control's name and whether a refusal is about it)."""
    rows = []
    for p in players:
        tasks = []
        for i in range(4):
            name = f"task_{p.pk}_{i}"
            current = post.get(name) if post is not None else None
            tasks.append({"n": i + 1, "name": name, "current": current, "invalid": name in invalid})
        seat = seated.index(p.pk) + 1 if p.pk in seated else None
        rows.append({"player": p, "checked": seat is not None, "seat": seat, "tasks": tasks})
    return rows


def _seating_context(ruleset: Any, players: list[Any], post: Any) -> tuple[list[int], dict[str, Any]]:
    seated = seating.seated_order(post) if post is not None else []
    options = _options_from_post(ruleset, post, seated) if post is not None else {}
    names = {p.pk: p.name for p in players}
    return seated, seating.seating_rows(ruleset, names, seated, options)


def game_picked(request: HttpRequest, group: Any) -> Any:
    """The game the request names (``?game=`` or the form's ``game``), or, when it names none, the game picker
    page to answer with: the first step of a new match and of recording final scores."""
    key = request.GET.get("game") or request.POST.get("game")
    if not key:
        return page(request, "frontend/matches/pick_game.html", {"group": group, "games": games()})
    return selectors.ruleset_get(key=key)


@login_required
def match_new(request: HttpRequest, group_id: int) -> HttpResponse:
    group = selectors.group_get(user=request.user, group_id=group_id)
    ruleset = game_picked(request, group)
    if isinstance(ruleset, HttpResponse):
        return ruleset
    players = selectors.player_list_sorted(group=group)
    post = request.POST if request.method == "POST" else None
    problems: list[dict[str, str]] = []
    seated, summary = _seating_context(ruleset, players, post)
    invalid: list[str] = []  # the controls a refusal is about: marked aria-invalid, the first takes the cursor
    presets, chosen = house_rules.preset_choice(group=group, user=request.user, ruleset=ruleset, post=post)
    # a move button, "Show the seating" or "Use these house rules" (the page without script) only redraws it
    if post is not None and not post.get("move") and not post.get("preview") and not post.get("preset_apply"):
        try:
            match = services.match_create(
                group=group,
                ruleset=ruleset.key,
                options=_options_from_post(ruleset, post, seated),
                player_ids=seated,
                user=request.user,
                language=get_language(),
                preset_id=chosen["id"] if chosen else None,
            )
        except services.ServiceError as exc:
            names = {p.pk: p.name for p in players}
            problems = seating.start_problems(exc, fallback=error_text(exc), seated=seated, names=names, post=post)
            invalid = [p["input"] for p in problems if p["input"]]
        else:
            return redirect("match", match.pk)
    context = {
        "group": group,
        "ruleset": ruleset,
        "players": players,
        "player_rows": _player_rows(players, seated, post, invalid),
        "first_invalid": invalid[0] if invalid else None,
        "seating": summary,
        "options": _option_fields(
            ruleset, None if post is not None and post.get("preset_apply") else post, chosen and chosen["options"]
        ),
        "presets": presets,
        "chosen_preset": chosen,
        "preset_none_json": house_rules.defaults_json(ruleset),
        "problems": problems,
        "tasks": list(labels.WAS_STICHT_TASKS.items()),
        "post": post,
    }
    return page(request, "frontend/matches/new.html", context, status=400 if problems else 200)


@login_required
@require_POST
def match_seating(request: HttpRequest, group_id: int) -> HttpResponse:
    """The seating summary for the new-match form as it stands (seating.js posts the form here)."""
    group = selectors.group_get(user=request.user, group_id=group_id)
    ruleset = selectors.ruleset_get(key=request.POST.get("game", ""))
    players = list(selectors.player_list(group=group))
    _, summary = _seating_context(ruleset, players, request.POST)
    return render(request, "frontend/matches/seating.html", {"seating": summary, "ruleset": ruleset})


# --- the match page and its live board ----------------------------------------------------------------


def _board_context(match: Match) -> dict[str, Any]:
    board = selectors.match_scoreboard(match=match)
    last = board["rounds"][-1] if board["rounds"] else None
    savers = selectors.round_savers(match=match)
    turns = round_turns(board, options=match.options)
    rows = []
    for rnd in reversed(board["rounds"]):
        rows.append(
            {
                **rnd,
                "per_player": _per_player(rnd, board),
                "saver": savers.get(rnd["number"], ""),
                "turns": turns.get(rnd["number"]),
            }
        )
    winners = {w["seat"] for w in board["winners"]}
    deleted = selectors.round_gaps(match=match)
    # the rounds table, newest first: each live round, and a deleted one in the place of the gap it left
    entries = sorted(
        [{"number": r["number"], "row": r} for r in rows] + [{"number": r.number, "gap": r} for r in deleted],
        key=lambda e: -e["number"],
    )
    return {
        "deleted": deleted,
        "entries": entries,
        "match": match,
        "board": board,
        "last": {**last, "per_player": _per_player(last, board)} if last else None,
        "rows": rows,
        "winners": winners,
        "turns": bool(turns),
        "game_name": board["ruleset_name"],
    }


def _per_player(rnd: dict[str, Any], board: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for p in board["players"]:
        seat = p["seat"]
        lines = [ln for ln in rnd["explanation"] if ln.get("player") == seat]
        out.append({"name": p["name"], "seat": seat, "points": rnd["points"][seat], "lines": lines})
    general = [ln for ln in rnd["explanation"] if ln.get("player") is None]
    if general:
        out.append({"name": "", "seat": None, "points": None, "lines": general})
    return out


@login_required
def match_page(request: HttpRequest, match_id: int) -> HttpResponse:
    match = selectors.match_get(user=request.user, match_id=match_id)
    if match.totals_only:  # recorded from its final scores: no rounds, no entry form
        from frontend.views.totals_page import totals_match_page

        return totals_match_page(request, match)
    context = _board_context(match)
    c = entry.context_for(match, context["board"])
    context.update(entry.form_context(c))
    context.update(
        {
            "action": _round_new_url(match),
            "queue": True,
            "game_title": labels.game_title(c.ruleset, match.options),
        }
    )
    return page(request, "frontend/matches/match.html", context)


@login_required
@require_POST
def match_rematch(request: HttpRequest, match_id: int) -> HttpResponse:
    """A new match of the same game with the same players in the same seats and the same options."""
    from django.utils.translation import gettext

    match = selectors.match_get(user=request.user, match_id=match_id)
    try:
        new = services.match_rematch(match=match, user=request.user)
    except services.ServiceError as exc:
        messages.error(request, error_text(exc))
        return redirect("match", match.pk)
    messages.success(request, gettext("A rematch has started: same players, seats and options."))
    return redirect("match", new.pk)


def _round_new_url(match: Match) -> str:
    from django.urls import reverse

    return reverse("round_new", args=[match.pk])


def _board_etag(request: HttpRequest, match_id: int) -> str | None:
    if not request.user.is_authenticated:
        return None
    row = Match.objects.filter(pk=match_id, group__memberships__user=request.user).values_list("version", "state")
    found = row.first()
    if found is None:
        return None
    return f"m{match_id}-v{found[0]}-{found[1]}-{get_language()}"


@login_required
@condition(etag_func=_board_etag)
def board(request: HttpRequest, match_id: int) -> HttpResponse:
    """The live part of the match page, polled by every phone showing the match (304 when unchanged)."""
    match = selectors.match_get(user=request.user, match_id=match_id)
    response = render(request, "frontend/matches/board.html", {**_board_context(match), "oob": True})
    response["Cache-Control"] = "private, no-cache"
    response["Vary"] = "Cookie, Accept-Language"
    return response


@login_required
def match_history(request: HttpRequest, match_id: int) -> HttpResponse:
    match = selectors.match_get(user=request.user, match_id=match_id)
    board_ = selectors.match_scoreboard(match=match)
    events = list(selectors.event_list(match=match))
    names = [p["name"] for p in board_["players"]]
    actors = selectors.entered_by_names(match=match, user_ids={e.actor_id for e in events})
    context = {"match": match, "board": board_, "events": history_rows(events, names, match.ruleset, actors)}
    return page(request, "frontend/matches/history.html", context)


def _match_action(request: HttpRequest, match_id: int, action: Any, done: str) -> HttpResponse:
    match = selectors.match_get(user=request.user, match_id=match_id)
    try:
        action(match)
    except services.ServiceError as exc:
        messages.error(request, error_text(exc))
    else:
        messages.success(request, done)
    return redirect("match", match.pk)


@login_required
@require_POST
def match_undo(request: HttpRequest, match_id: int) -> HttpResponse:
    from django.utils.translation import gettext

    # the match version the page showed: a double tap undoes one change, the second tap is told so
    version = entry.to_int(request.POST.get("version"))
    return _match_action(
        request,
        match_id,
        lambda m: services.match_undo_last(
            match=m, user=request.user, expected_version=version if isinstance(version, int) else None
        ),
        gettext("The last change was undone."),
    )


def bad_version_page(request: HttpRequest, match_id: int) -> HttpResponse:
    """A form whose version is missing or not a number (damaged or forged): nothing changes, and the match page
    says so with a 400 (issue 32: a malformed input gets a page, not a bare 404)."""
    from django.utils.translation import gettext

    messages.error(
        request,
        gettext(
            "This form did not say which version of the match it was made for, so nothing was changed. "
            "Here is the match as it is now; try again."
        ),
    )
    response = match_page(request, match_id)
    response.status_code = 400
    return response


def _versioned_action(request: HttpRequest, match_id: int, service: Any, done: str) -> HttpResponse:
    """A match action that needs the version the form was rendered with (a stale form gets a 409-style message)."""
    version = entry.to_int(request.POST.get("version"))
    if not isinstance(version, int):
        return bad_version_page(request, match_id)
    return _match_action(
        request, match_id, lambda m: service(match=m, expected_version=version, user=request.user), done
    )


@login_required
@require_POST
def match_finish(request: HttpRequest, match_id: int) -> HttpResponse:
    from django.utils.translation import gettext

    return _versioned_action(request, match_id, services.match_finish, gettext("The match is finished."))


@login_required
@require_POST
def match_abandon(request: HttpRequest, match_id: int) -> HttpResponse:
    from django.utils.translation import gettext

    return _versioned_action(
        request,
        match_id,
        services.match_abandon,
        gettext("The match was abandoned: it stays in the history and counts in no statistics."),
    )


@login_required
@require_POST
def match_reopen(request: HttpRequest, match_id: int) -> HttpResponse:
    from django.utils.translation import gettext

    return _versioned_action(request, match_id, services.match_reopen, gettext("The match is open again."))
