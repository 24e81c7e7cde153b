"""What-if rescoring pages: change a match's options, or rescore it with the current rules, after seeing every
round's points before and after, the totals and the winners (issue 34, part 3)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from frontend.entry import forms as entry
from frontend.entry import labels
from frontend.views.common import error_text, page
from frontend.views.matches import _option_fields, _options_from_post
from scoring import selectors, services
from scoring.api.throttles import heavy_throttle
from scoring.models import Match

_ROUND_FIELD = re.compile(r"^rounds\.(\d+)(?:\.|$)")


def _seated(match: Match) -> list[int]:
    return list(match.seats.order_by("number").values_list("player_id", flat=True))


def _posted_options(ruleset: Any, match: Match, post: Any) -> dict[str, Any]:
    """The options the form asks for; the ones it has no control for (Was sticht?'s drafted tasks) stay as
    the match has them."""
    options = _options_from_post(ruleset, post, _seated(match))
    for spec in ruleset.options:
        if spec.kind == "json":
            options[spec.key] = (match.options or {}).get(spec.key, spec.default)
    return options


def _fields(ruleset: Any, options: dict[str, Any]) -> list[dict[str, Any]]:
    """The option controls of the new-match page, set to ``options``."""
    return _option_fields(ruleset, {f"opt_{key}": value for key, value in options.items()})


def _hidden(ruleset: Any, options: dict[str, Any]) -> list[tuple[str, str]]:
    """``options`` as the form fields the option controls post (for the Apply form)."""
    out = []
    for spec in ruleset.options:
        value = options.get(spec.key, spec.default)
        if spec.kind == "json" or value is None:
            continue
        if spec.kind == "bool":
            if value:
                out.append((f"opt_{spec.key}", "on"))
        else:
            out.append((f"opt_{spec.key}", str(value)))
    return out


def _refusal(error: services.ServiceError) -> list[dict[str, Any]]:
    """A refusal as lines, each naming its round when the rules named one."""
    if not isinstance(error, services.ValidationFailed):
        return [{"round": None, "text": error_text(error)}]
    lines = []
    for field, texts in error.problems.items():
        found = _ROUND_FIELD.match(field)
        for text in texts:
            lines.append({"round": int(found.group(1)) if found else None, "text": text})
    return lines


def _rows(preview: services.Preview) -> list[dict[str, Any]]:
    """Every round: one cell per player with the points before and after, changed or not."""
    return [
        {
            "number": r.number,
            "changed": r.changed,
            "cells": [
                {"name": name, "before": b, "after": a, "changed": a != b}
                for name, b, a in zip(preview.players, r.points_before, r.points_after, strict=True)
            ],
        }
        for r in preview.rounds
    ]


def _totals(preview: services.Preview) -> list[dict[str, Any]]:
    return [
        {
            "name": name,
            "before": b,
            "after": a,
            "changed": a != b,
            "won_before": name in preview.winners_before,
            "won_after": name in preview.winners_after,
        }
        for name, b, a in zip(preview.players, preview.totals_before, preview.totals_after, strict=True)
    ]


def _preview_context(preview: services.Preview, ruleset: Any) -> dict[str, Any]:
    return {
        "preview": preview,
        "rows": _rows(preview),
        "totals": _totals(preview),
        "words_before": labels.option_words(ruleset, preview.options_before),
        "words_after": labels.option_words(ruleset, preview.options_after),
    }


def _render(request: HttpRequest, match: Match, context: dict[str, Any], status: int = 200) -> HttpResponse:
    board = selectors.match_scoreboard(match=match)
    ruleset = context["ruleset"]
    base = {
        "match": match,
        "game_title": labels.game_title(ruleset, match.options),
        "needs_rescore": board["needs_rescore"],
        "refusal": [],
    }
    return page(request, "frontend/matches/whatif.html", {**base, **context}, status=status)


def _apply(
    request: HttpRequest, match: Match, context: dict[str, Any], change: Callable[[int], Any], *, done: str
) -> HttpResponse:
    """Apply a previewed change against the match version the preview was made from: a form without a version
    is refused (400), a version that moved on gets the usual conflict (409), success goes back to the match."""
    version = entry.to_int(request.POST.get("version"))
    if not isinstance(version, int):
        return _render(request, match, {**context, "refusal": _refusal(_bad_version())}, status=400)
    try:
        change(version)
    except services.ServiceError as exc:
        status = 409 if isinstance(exc, services.Conflict) else 400
        return _render(request, match, {**context, "refusal": _refusal(exc)}, status=status)
    messages.success(request, done)
    return redirect("match", match.pk)


@login_required
@require_http_methods(["GET", "POST"])
@heavy_throttle
def match_options(request: HttpRequest, match_id: int) -> HttpResponse:
    """Change a match's options: the controls, a Preview of every round before and after, then Apply."""
    match = selectors.match_get(user=request.user, match_id=match_id)
    ruleset = selectors.ruleset_get(key=match.ruleset)
    context: dict[str, Any] = {"mode": "options", "ruleset": ruleset}
    if request.method == "GET":
        return _render(request, match, {**context, "options": _fields(ruleset, dict(match.options or {}))})
    wanted = _posted_options(ruleset, match, request.POST)
    context["options"] = _fields(ruleset, wanted)
    if request.POST.get("apply"):
        return _apply(
            request,
            match,
            context,
            lambda version: services.match_options_change(
                match=match, options=wanted, expected_version=version, user=request.user
            ),
            done=gettext("The options were changed and every round was scored again."),
        )
    try:
        preview = services.match_options_preview(match=match, options=wanted, user=request.user)
    except services.ServiceError as exc:
        return _render(request, match, {**context, "refusal": _refusal(exc)}, status=400)
    context.update(_preview_context(preview, ruleset), apply_fields=_hidden(ruleset, preview.options_after))
    return _render(request, match, context)


@login_required
@require_http_methods(["GET", "POST"])
@heavy_throttle
def match_rescore(request: HttpRequest, match_id: int) -> HttpResponse:
    """Rescore a match with the rules' current version: the preview at once, then Apply."""
    match = selectors.match_get(user=request.user, match_id=match_id)
    ruleset = selectors.ruleset_get(key=match.ruleset)
    context: dict[str, Any] = {"mode": "rescore", "ruleset": ruleset}
    if request.method == "POST":
        return _apply(
            request,
            match,
            context,
            lambda version: services.match_rescore(match=match, user=request.user, expected_version=version),
            done=gettext("Every round was scored again with the current rules."),
        )
    try:
        preview = services.match_rescore_preview(match=match, user=request.user)
    except services.ServiceError as exc:
        return _render(request, match, {**context, "refusal": _refusal(exc)}, status=400)
    context.update(_preview_context(preview, ruleset))
    return _render(request, match, context)


def _bad_version() -> services.ServiceError:
    return services.ValidationFailed.single(
        "version",
        gettext(
            "This form did not say which version of the match it was made for, so nothing was changed. "
            "Here is the match as it is now; try again."
        ),
    )
