"""House rules on the group page: each game's saved option presets in words; add, edit, make default, remove.

The new-match page offers them too (``preset_choices``): the group's default for the game is preselected and
its options fill the option controls; the match records the preset only if those options are not changed.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import get_language, gettext
from django.views.decorators.http import require_POST

from frontend.views.common import error_text, field_errors, page
from frontend.views.matches import _option_fields, _options_from_post
from scoring import selectors, services
from scoring.models import Group, Preset


def _group_url(group_id: int) -> str:
    return reverse("group", args=[group_id]) + "#house-rules"


def _form(
    request: HttpRequest,
    *,
    group: Group,
    ruleset: Any,
    preset: Preset | None,
    start: dict[str, Any] | None,
    post: Any = None,
    errors: dict[str, list[str]] | None = None,
    name: str = "",
) -> HttpResponse:
    context = {
        "group": group,
        "ruleset": ruleset,
        "preset": preset,
        "name": name,
        "options": [
            {**o, "errors": (errors or {}).get(o["key"], [])} for o in _option_fields(ruleset, post, start=start)
        ],
        "errors": errors or {},
        "error_list": [m for messages_ in (errors or {}).values() for m in messages_],
    }
    return page(request, "frontend/groups/preset_form.html", context, status=400 if errors else 200)


@login_required
def preset_new(request: HttpRequest, group_id: int) -> HttpResponse:
    """Save house rules for a game: a name, the options (the game's controls), and whether it is the default."""
    group = selectors.group_get(user=request.user, group_id=group_id)
    ruleset = selectors.ruleset_get(key=request.GET.get("game") or request.POST.get("game", ""))
    if request.method != "POST":
        return _form(request, group=group, ruleset=ruleset, preset=None, start=None)
    return _saved(
        request,
        group=group,
        ruleset=ruleset,
        preset=None,
        start=None,
        save=lambda: services.preset_create(
            group=group,
            ruleset=ruleset.key,
            name=request.POST.get("name", ""),
            options=_options_from_post(ruleset, request.POST, []),
            is_default=request.POST.get("is_default") == "on",
            user=request.user,
            language=get_language(),
        ),
    )


def _saved(
    request: HttpRequest,
    *,
    group: Group,
    ruleset: Any,
    preset: Preset | None,
    start: dict[str, Any] | None,
    save: Any,
) -> HttpResponse:
    """Run ``save``; a refusal redraws the form with each option's message, anything else goes back to the
    group page with a message."""
    try:
        save()
    except services.ValidationFailed as exc:
        return _form(
            request,
            group=group,
            ruleset=ruleset,
            preset=preset,
            start=start,
            post=request.POST,
            errors=field_errors(exc),
            name=request.POST.get("name", ""),
        )
    except services.ServiceError as exc:
        messages.error(request, error_text(exc))
        return redirect(_group_url(group.pk))
    messages.success(request, gettext("House rules saved."))
    return redirect(_group_url(group.pk))


@login_required
def preset_edit(request: HttpRequest, group_id: int, preset_id: int) -> HttpResponse:
    """Change house rules: a new version (matches already started keep theirs)."""
    group = selectors.group_get(user=request.user, group_id=group_id)
    preset = services.preset_get(group=group, preset_id=preset_id)
    ruleset = selectors.ruleset_get(key=preset.ruleset)
    current = services.preset_current_version(preset=preset)
    if request.method != "POST":
        return _form(request, group=group, ruleset=ruleset, preset=preset, start=current.options, name=preset.name)
    return _saved(
        request,
        group=group,
        ruleset=ruleset,
        preset=preset,
        start=current.options,
        save=lambda: services.preset_update(
            preset=preset,
            user=request.user,
            name=request.POST.get("name", ""),
            options=_options_from_post(ruleset, request.POST, []),
        ),
    )


@login_required
@require_POST
def preset_default(request: HttpRequest, group_id: int, preset_id: int) -> HttpResponse:
    group = selectors.group_get(user=request.user, group_id=group_id)
    preset = services.preset_get(group=group, preset_id=preset_id)
    try:
        services.preset_set_default(preset=preset, user=request.user, is_default=request.POST.get("off") != "1")
    except services.ServiceError as exc:
        messages.error(request, error_text(exc))
    return redirect(_group_url(group.pk))


@login_required
@require_POST
def preset_remove(request: HttpRequest, group_id: int, preset_id: int) -> HttpResponse:
    group = selectors.group_get(user=request.user, group_id=group_id)
    preset = services.preset_get(group=group, preset_id=preset_id)
    try:
        services.preset_delete(preset=preset, user=request.user)
    except services.ServiceError as exc:
        messages.error(request, error_text(exc))
    else:
        messages.success(request, gettext("House rules “%(name)s” removed.") % {"name": preset.name})
    return redirect(_group_url(group.pk))
