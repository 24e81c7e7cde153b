"""Groups: the list, a group's home (players, matches, members, invites), invite links with QR codes."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from frontend.rulebook import games
from scoring import selectors, services
from scoring.models import Membership

from .common import error_text, page, stats_url


@login_required
@require_POST
def group_new(request: HttpRequest) -> HttpResponse:
    try:
        group = services.group_create(
            name=request.POST.get("name", ""),
            user=request.user,
            player_name=request.POST.get("player_name", "").strip() or None,
        )
    except services.ServiceError as exc:
        messages.error(request, error_text(exc))
        return redirect("home")
    return redirect("group", group.pk)


@login_required
def group_home(request: HttpRequest, group_id: int) -> HttpResponse:
    group = selectors.group_get(user=request.user, group_id=group_id)
    matches = list(selectors.match_list(group=group)[:30])
    names = {g["key"]: g["name"] for g in games()}
    for match in matches:
        match.game_name = names.get(match.ruleset, match.ruleset)
    is_owner = group.my_role == Membership.Role.OWNER
    context = {
        "group": group,
        "is_owner": is_owner,
        "open_matches": [m for m in matches if m.state == "open"],
        "recent_matches": [m for m in matches if m.state != "open"][:10],
        "players": list(selectors.player_list(group=group)),
        "stats": stats_url("analytics:group", group.pk),
        "members": list(selectors.membership_list(group=group)),
        "invites": [i for i in selectors.invite_list(group=group) if services.invite_is_valid(invite=i)]
        if is_owner
        else [],
    }
    return page(request, "frontend/groups/home.html", context)


@login_required
@require_POST
def player_add(request: HttpRequest, group_id: int) -> HttpResponse:
    group = selectors.group_get(user=request.user, group_id=group_id)
    try:
        player = services.player_create(group=group, name=request.POST.get("name", ""), user=request.user)
        messages.success(request, gettext("%(name)s joined the table.") % {"name": player.name})
    except services.ServiceError as exc:
        messages.error(request, error_text(exc))
    return redirect(reverse("group", args=[group.pk]) + "#players")


@login_required
@require_POST
def invite_new(request: HttpRequest, group_id: int) -> HttpResponse:
    group = selectors.group_get(user=request.user, group_id=group_id)
    player = None
    if request.POST.get("player"):
        player = selectors.player_get(group=group, player_id=request.POST["player"])
    try:
        invite = services.invite_create(group=group, user=request.user, player=player)
    except services.ServiceError as exc:
        messages.error(request, error_text(exc))
        return redirect(reverse("group", args=[group.pk]) + "#invites")
    return redirect("invite", group.pk, invite.pk)


def _invite_link(request: HttpRequest, token: str) -> str:
    return request.build_absolute_uri(reverse("invite_accept", args=[token]))


def _qr_svg(link: str) -> str | None:
    try:
        import segno
    except ImportError:  # the QR package is optional: the link is shown as text anyway
        return None
    qr = segno.make(link, error="m")
    return str(qr.svg_inline(scale=4, border=2, dark="#000", light="#fff", omitsize=True))


@login_required
def invite_show(request: HttpRequest, group_id: int, invite_id: int) -> HttpResponse:
    group = selectors.group_get(user=request.user, group_id=group_id)
    if group.my_role != Membership.Role.OWNER:  # only owners manage invites
        raise Http404
    invite = selectors.invite_get(group=group, invite_id=invite_id)
    link = _invite_link(request, invite.token)
    context = {
        "group": group,
        "invite": invite,
        "link": link,
        "qr": _qr_svg(link),
        "valid": services.invite_is_valid(invite=invite),
    }
    return page(request, "frontend/groups/invite.html", context)


@login_required
@require_POST
def invite_revoke(request: HttpRequest, group_id: int, invite_id: int) -> HttpResponse:
    group = selectors.group_get(user=request.user, group_id=group_id)
    invite = selectors.invite_get(group=group, invite_id=invite_id)
    try:
        services.invite_revoke(invite=invite, user=request.user)
        messages.success(request, gettext("The invite link no longer works."))
    except services.ServiceError as exc:
        messages.error(request, error_text(exc))
    return redirect(reverse("group", args=[group.pk]) + "#invites")


def invite_accept(request: HttpRequest, token: str) -> HttpResponse:
    invite = selectors.invite_by_token(token=token)
    valid = services.invite_is_valid(invite=invite)
    member = request.user.is_authenticated and services.membership_of(group=invite.group, user=request.user)
    if request.method == "POST" and request.user.is_authenticated:
        try:
            services.invite_accept(invite=invite, user=request.user)
        except services.ServiceError as exc:
            messages.error(request, error_text(exc))
        else:
            messages.success(request, gettext("Welcome to %(group)s.") % {"group": invite.group.name})
            return redirect("group", invite.group_id)
    context = {"invite": invite, "valid": valid, "member": member, "next": request.get_full_path()}
    return page(request, "frontend/groups/join.html", context)
