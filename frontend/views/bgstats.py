"""BG Stats on the group page: download the group as a BG Stats backup; import a backup in two steps.

The upload is read and kept server-side (in the cache, under a random token, for its uploader and group only);
the review page shows the proposed players and what will be left out; confirming writes it all at once.
"""

from __future__ import annotations

import json
import secrets
from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django.utils.translation import gettext
from django.views.decorators.http import require_POST, require_safe

from frontend.views.common import error_text, page
from scoring import selectors, services
from scoring.api.throttles import heavy_throttle
from scoring.transfer import bgstats_export, bgstats_import
from scoring.transfer.bgstats_import import NEW, SKIP

KEEP_SECONDS = 3600


def _key(token: str) -> str:
    return f"bgstats-upload:{token}"


@login_required
@require_safe
@heavy_throttle
def group_export_bgstats(request: HttpRequest, group_id: int) -> HttpResponse:
    """The group's finished matches as a BG Stats backup file."""
    group = selectors.group_get(user=request.user, group_id=group_id)
    response = JsonResponse(
        bgstats_export.bgstats_export(group=group), json_dumps_params={"ensure_ascii": False, "indent": 1}
    )
    name = slugify(group.name, allow_unicode=True) or f"group-{group.pk}"
    response["Content-Disposition"] = content_disposition_header(True, f"{name}-bgstats.json")
    return response


def _refused(request: HttpRequest, group: Any, text: str, status: int = 400) -> HttpResponse:
    context = {"group": group, "problem": text, "summary": None}
    return page(request, "frontend/groups/bgstats_result.html", context, status=status)


@login_required
@require_POST
def group_import_bgstats(request: HttpRequest, group_id: int) -> HttpResponse:
    """Step one: read the uploaded backup, keep it, and go to its review."""
    group = selectors.group_get(user=request.user, group_id=group_id)
    upload = request.FILES.get("file")
    if upload is None:
        return _refused(request, group, gettext("Choose a BG Stats backup file to import."))
    if upload.size is None or upload.size > settings.IMPORT_MAX_BYTES:
        mb = settings.IMPORT_MAX_BYTES // (1024 * 1024)
        return _refused(request, group, gettext("The file is larger than %(n)d MB.") % {"n": mb}, status=413)
    try:
        data = json.loads(upload.read().decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return _refused(request, group, gettext("This file is not a BG Stats backup."))
    try:
        bgstats_import.bgstats_plan(group=group, data=data, user=request.user)
    except services.ServiceError as exc:
        return _refused(request, group, error_text(exc), status=403 if isinstance(exc, services.NotAllowed) else 400)
    token = secrets.token_urlsafe(18)
    stored = {"user": request.user.pk, "group": group.pk, "data": data, "name": upload.name or ""}
    cache.set(_key(token), stored, KEEP_SECONDS)
    return redirect("group_import_bgstats_review", group.pk, token)


def _choices(request: HttpRequest, plan: Any) -> dict[int, Any]:
    out: dict[int, Any] = {}
    for p in plan.players:
        raw = request.POST.get(f"player_{p.id}", "")
        out[p.id] = raw if raw in (NEW, SKIP) else int(raw) if raw.isascii() and raw.isdigit() else None
    return out


@login_required
def group_import_bgstats_review(request: HttpRequest, group_id: int, token: str) -> HttpResponse:
    """Step two: who is who and what will be left out (GET); confirming imports it (POST)."""
    group = selectors.group_get(user=request.user, group_id=group_id)
    stored = cache.get(_key(token)) if len(token) < 64 else None
    if not stored or stored["user"] != request.user.pk or stored["group"] != group.pk:
        raise Http404
    try:
        plan = bgstats_import.bgstats_plan(group=group, data=stored["data"], user=request.user)
        if request.method == "POST":
            summary = bgstats_import.bgstats_import(
                group=group, data=stored["data"], players=_choices(request, plan), user=request.user
            )
            cache.delete(_key(token))
            context = {"group": group, "summary": summary, "problem": "", "file_name": stored["name"]}
            return page(request, "frontend/groups/bgstats_result.html", context)
    except services.ServiceError as exc:
        return _refused(request, group, error_text(exc), status=403 if isinstance(exc, services.NotAllowed) else 400)
    context = {
        "group": group,
        "plan": plan,
        "token": token,
        "file_name": stored["name"],
        "group_players": selectors.player_list_sorted(group=group),
        "skipped_count": len(plan.skipped),
        "NEW": NEW,
        "SKIP": SKIP,
    }
    return page(request, "frontend/groups/bgstats_review.html", context)
