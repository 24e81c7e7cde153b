"""Game night pages: a group's nights, one night's figures, its PNG, and the split/merge corrections.

A night's figures and image are computed once per version of the night and served from storage afterwards
(``services.nights``); the page and the image word the same stored figures (``nightreport``).
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from analytics import selectors
from analytics.nights.grouping import Night, match_for_user, night_list, night_of_match
from analytics.nights.report import night_report
from analytics.nights.service import night_figures_get, night_image_get, night_merge, night_split
from scoring.api.throttles import heavy_throttle
from scoring.text.numbers import parse_whole

NIGHTS_PER_PAGE = 30


def _night(request: HttpRequest, match_id: int) -> Night:
    match = match_for_user(user=request.user, match_id=match_id)
    night = night_of_match(group=match.group, match_id=match.pk) if match is not None else None
    if night is None:
        raise Http404
    return night


@login_required
def night_index(request: HttpRequest, group_id: int) -> HttpResponse:
    group = selectors.group_visible(user=request.user, group_id=group_id)
    if group is None:
        raise Http404
    pages = Paginator(night_list(group=group), NIGHTS_PER_PAGE)
    page = pages.get_page(parse_whole(request.GET.get("page"), max_digits=6) or 1)
    return render(request, "analytics/nights.html", {"group": group, "nights": page.object_list, "page": page})


@login_required
@heavy_throttle
def night_page(request: HttpRequest, match_id: int) -> HttpResponse:
    night = _night(request, match_id)
    if match_id != night.key:  # one address per night, the one members share
        return redirect("analytics:night", match_id=night.key)
    report = night_report(night=night, figures=night_figures_get(night=night))
    group = selectors.group_visible(user=request.user, group_id=night.group_id)
    return render(
        request,
        "analytics/night.html",
        {
            "group": group,
            "night": night,
            "report": report,
            "share_url": request.build_absolute_uri(reverse("analytics:night", args=[night.key])),
            "image_url": reverse("analytics:night-image", args=[night.key]),
        },
    )


@login_required
@heavy_throttle
def night_image(request: HttpRequest, match_id: int) -> HttpResponse:
    night = _night(request, match_id)
    response = HttpResponse(night_image_get(night=night), content_type="image/png")
    response["Content-Disposition"] = f'inline; filename="night-{night.key}.png"'
    response["Cache-Control"] = "private, max-age=60"
    return response


@login_required
@require_POST
def night_correct(request: HttpRequest, match_id: int, action: str) -> HttpResponse:
    match = match_for_user(user=request.user, match_id=match_id)
    if match is None or action not in ("split", "merge"):
        raise Http404
    (night_split if action == "split" else night_merge)(match=match, user=request.user)
    night = night_of_match(group=match.group, match_id=match.pk)
    return redirect("analytics:night", match_id=night.key if night else match.pk)
