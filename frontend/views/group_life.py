"""Looking after a group from its page: rename or remove players, rename the group, make owners, leave,
export (CSV for spreadsheets, JSON to import again) and import an export."""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django.utils.translation import gettext
from django.views.decorators.http import require_POST, require_safe

from frontend.entry import labels
from frontend.rulebook import games
from frontend.views.common import error_text, page
from scoring import rules, selectors, services
from scoring.api.throttles import heavy_throttle
from scoring.models import Match, Membership, Player
from scoring.transfer import exporting, importing, spreadsheet


def _group_url(group_id: int, part: str) -> str:
    return reverse("group", args=[group_id]) + part


# --- players ------------------------------------------------------------------------------------


@login_required
def player_edit(request: HttpRequest, group_id: int, player_id: int) -> HttpResponse:
    """A player's page: rename them, or go on to remove them."""
    group = selectors.group_get(user=request.user, group_id=group_id)
    player = selectors.player_get(group=group, player_id=player_id)
    error, value = "", player.name
    if request.method == "POST":
        value = request.POST.get("name", "")
        old = player.name
        try:
            services.player_rename(player=player, name=value, user=request.user)
        except services.ServiceError as exc:
            error = error_text(exc)
        else:
            if old != player.name:
                messages.success(request, gettext("%(old)s is now %(new)s.") % {"old": old, "new": player.name})
            return redirect(_group_url(group.pk, "#players"))
    context = {"group": group, "player": player, "value": value, "error": error}
    return page(request, "frontend/groups/player.html", context, status=400 if error else 200)


@login_required
def player_remove(request: HttpRequest, group_id: int, player_id: int) -> HttpResponse:
    """GET asks for a confirmation (saying what will happen); POST removes: deleted, or archived with history."""
    group = selectors.group_get(user=request.user, group_id=group_id)
    player = selectors.player_get(group=group, player_id=player_id)
    if request.method == "POST":
        try:
            done = services.player_remove(player=player, user=request.user)
        except services.ServiceError as exc:
            messages.error(request, error_text(exc))
        else:
            if done == "archived":
                text = gettext("%(name)s was removed from the players; their past matches are kept.")
            else:
                text = gettext("%(name)s was deleted.")
            messages.success(request, text % {"name": player.name})
        return redirect(_group_url(group.pk, "#players"))
    return page(request, "frontend/groups/player_remove.html", {"group": group, "player": player})


@login_required
@require_POST
def player_restore(request: HttpRequest, group_id: int, player_id: int) -> HttpResponse:
    group = selectors.group_get(user=request.user, group_id=group_id)
    player = selectors.player_get(group=group, player_id=player_id, include_archived=True)
    try:
        services.player_restore(player=player, user=request.user)
        messages.success(request, gettext("%(name)s is back among the players.") % {"name": player.name})
    except services.ServiceError as exc:
        messages.error(request, error_text(exc))
    return redirect(_group_url(group.pk, "#players"))


# --- the group and its members --------------------------------------------------------------------


@login_required
@require_POST
def group_rename(request: HttpRequest, group_id: int) -> HttpResponse:
    group = selectors.group_get(user=request.user, group_id=group_id)
    try:
        services.group_rename(group=group, name=request.POST.get("name", ""), user=request.user)
        messages.success(request, gettext("The group is now called %(name)s.") % {"name": group.name})
    except services.ServiceError as exc:
        messages.error(request, error_text(exc))
    return redirect(_group_url(group.pk, "#settings"))


@login_required
@require_POST
def member_promote(request: HttpRequest, group_id: int, membership_id: int) -> HttpResponse:
    """Make a member an owner (owners only): how the last owner hands the group over before leaving."""
    group = selectors.group_get(user=request.user, group_id=group_id)
    membership = selectors.membership_get(group=group, membership_id=membership_id)
    try:
        services.membership_role(membership=membership, role=Membership.Role.OWNER, by=request.user)
        messages.success(
            request, gettext("%(name)s is now an owner of the group.") % {"name": membership.user.get_username()}
        )
    except services.ServiceError as exc:
        messages.error(request, error_text(exc))
    return redirect(_group_url(group.pk, "#members"))


def _leave_case(group: Any, user: Any) -> str:
    """ "member" (may simply leave), "last_owner" (must hand over first) or "alone" (leaving deletes the group)."""
    memberships = list(selectors.membership_list(group=group))
    mine = next(m for m in memberships if m.user_id == user.pk)
    if mine.role != Membership.Role.OWNER or any(
        m.role == Membership.Role.OWNER for m in memberships if m.pk != mine.pk
    ):
        return "member"
    return "last_owner" if len(memberships) > 1 else "alone"


@login_required
def group_leave(request: HttpRequest, group_id: int) -> HttpResponse:
    """GET explains what leaving means here and asks for a confirmation; POST leaves."""
    group = selectors.group_get(user=request.user, group_id=group_id)
    if request.method == "POST":
        try:
            done = services.group_leave(
                group=group, user=request.user, delete_if_alone=request.POST.get("delete") == "1"
            )
        except services.ServiceError as exc:
            messages.error(request, error_text(exc))
            return redirect("group_leave", group.pk)
        if done == "deleted":
            messages.success(request, gettext("You left %(group)s, and the group was deleted.") % {"group": group.name})
        else:
            messages.success(request, gettext("You left %(group)s.") % {"group": group.name})
        return redirect("home")
    context = {
        "group": group,
        "case": _leave_case(group, request.user),
        "player_count": Player.objects.filter(group=group, merged_into__isnull=True).count(),
        "match_count": Match.objects.filter(group=group).count(),
    }
    return page(request, "frontend/groups/leave.html", context)


# --- export and import ---------------------------------------------------------------------------


def _options_words(match: Match) -> str:
    """Every option of the match in words of the active language that say what each is about ("jokers join a
    held colour": a choice alone, "a colour the player already has", says nothing of jokers), separated by
    semicolons."""
    try:
        ruleset = rules.get(match.ruleset)
    except (KeyError, ModuleNotFoundError):
        return ""
    return "; ".join(labels.option_words_every(ruleset, match.options))


def _download(response: HttpResponse, group: Any, extension: str) -> HttpResponse:
    name = slugify(group.name, allow_unicode=True) or f"group-{group.pk}"
    response["Content-Disposition"] = content_disposition_header(True, f"{name}.{extension}")
    return response


@login_required
@require_safe
@heavy_throttle
def group_export_csv(request: HttpRequest, group_id: int) -> HttpResponse:
    """Every player's points in every round (and every match recorded from its final scores), for a
    spreadsheet of the reader's language; streamed a batch of matches at a time."""
    group = selectors.group_get(user=request.user, group_id=group_id)
    names = {g["key"]: g["name"] for g in games()}
    chunks = spreadsheet.group_export_scores_stream(
        group=group, game_name=lambda key: names.get(key, key), options_text=_options_words
    )
    return _download(StreamingHttpResponse(chunks, content_type="text/csv; charset=utf-8"), group, "csv")


@login_required
@require_safe
@heavy_throttle
def group_export_json(request: HttpRequest, group_id: int) -> HttpResponse:
    """The whole group as the JSON document that an import reads back, streamed a batch of matches at a time."""
    group = selectors.group_get(user=request.user, group_id=group_id)
    chunks = exporting.group_export_stream(group=group)
    return _download(StreamingHttpResponse(chunks, content_type="application/json"), group, "json")


class _TooLarge(Exception):
    pass


def _read_upload(request: HttpRequest) -> tuple[Any, bytes]:
    """The uploaded file as JSON and its raw bytes, or a ValidationFailed naming what is wrong with the file
    itself (``_TooLarge`` above the import limit)."""
    upload = request.FILES.get("file")
    if upload is None:
        raise services.ValidationFailed.single("file", gettext("Choose an export file to import."))
    if upload.size is None or upload.size > settings.IMPORT_MAX_BYTES:
        raise _TooLarge
    raw = upload.read()
    if len(raw) > settings.IMPORT_ASYNC_BYTES:
        return None, raw  # read by the import job
    try:
        data = json.loads(raw.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise services.ValidationFailed.single(
            "file", gettext("This file is not a JSON export of Scorekeeper.")
        ) from None
    if "\\u0000" in json.dumps(data):  # as the API: no NUL characters anywhere
        raise services.ValidationFailed.single("file", gettext("Text cannot contain NUL characters."))
    return data, raw


def _result_page(
    request: HttpRequest,
    group: Any,
    problems: list[tuple[str, list[str]]],
    added: dict[str, int],
    file_name: str,
) -> HttpResponse:
    context = {
        "group": group,
        "problems": problems[:50],
        "more_problems": max(0, len(problems) - 50),
        "added_players": added.get("players", 0),
        "added_matches": added.get("matches", 0),
        "already_matches": added.get("already", 0),
        "added_presets": added.get("presets", 0),
        "file_name": file_name,
    }
    return page(request, "frontend/groups/import_result.html", context, status=400 if problems else 200)


@login_required
@require_POST
def group_import(request: HttpRequest, group_id: int) -> HttpResponse:
    """Import a JSON export into this group (owners), through the import service; a page with the outcome (what
    was added, and the matches the group already held, which are left alone).  A large file is imported by a
    background job: the answer is then its progress page."""
    group = selectors.group_get(user=request.user, group_id=group_id)
    file_name = getattr(request.FILES.get("file"), "name", "")
    problems: list[tuple[str, list[str]]] = []
    added: dict[str, int] = {}
    try:
        data, raw = _read_upload(request)
        if data is None:
            job_id = importing.job_start(raw=raw, user=request.user, group=group)
            request.session[f"import-{job_id}"] = file_name
            return redirect("group_import_job", group.pk, job_id)
        added = exporting.group_import(group=group, data=data, user=request.user).as_dict()
    except _TooLarge:
        mb = settings.IMPORT_MAX_BYTES // (1024 * 1024)
        problems = [("file", [gettext("The file is larger than %(n)d MB.") % {"n": mb}])]
        response = _result_page(request, group, problems, {}, file_name)
        response.status_code = 413
        return response
    except services.ValidationFailed as exc:
        problems = list(exc.problems.items())
    except services.ServiceError as exc:
        problems = [("", [error_text(exc)])]
    return _result_page(request, group, problems, added, file_name)


@login_required
@require_safe
def group_import_job(request: HttpRequest, group_id: int, job_id: str) -> HttpResponse:
    """A large import's progress (the page reloads itself until the job ends), then its outcome."""
    group = selectors.group_get(user=request.user, group_id=group_id)
    job = importing.job_status(job_id=job_id, user=request.user)
    if job is None or job.get("group") != group.pk:
        raise Http404
    file_name = request.session.get(f"import-{job_id}", "")
    if job["state"] == "failed":
        return _result_page(request, group, list(job.get("errors", {}).items()), {}, file_name)
    if job["state"] == "done":
        return _result_page(request, group, [], job.get("added", {}), file_name)
    context = {"group": group, "job": job, "job_id": job_id, "file_name": file_name}
    return page(request, "frontend/groups/import_progress.html", context)
