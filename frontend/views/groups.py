"""Groups: the list, a group's home (players, matches, members, invites), invite links with QR codes."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from frontend.house_rules import presets_context
from frontend.rulebook import games
from frontend.views.common import error_text, page, stats_url
from scoring import selectors, services
from scoring.models import Membership


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


def _players_context(group: Any) -> dict[str, Any]:
    """The players part of the group page (also the fragment an added player swaps in)."""
    players = selectors.player_list_sorted(group=group)
    return {
        "group": group,
        "players": players,
        "guests": [p for p in players if p.is_guest],
        "archived": selectors.player_list_sorted(group=group, archived=True),
    }


def _invites_context(group: Any, is_owner: bool) -> dict[str, Any]:
    """For owners: the working invite links, and the invitations by username still waiting (declined ones and
    those for names that no account has look the same: owners must not learn which usernames exist)."""
    if not is_owner:
        return {"invites": [], "invitations": []}
    valid = [i for i in selectors.invite_list(group=group) if services.invite_is_valid(invite=i)]
    return {
        "invites": [i for i in valid if not i.is_personal],
        "invitations": [i for i in valid if i.is_personal and i.accepted_count == 0],
    }


@login_required
def group_home(request: HttpRequest, group_id: int, add_error: str = "", add_value: str = "") -> HttpResponse:
    group = selectors.group_get(user=request.user, group_id=group_id)
    matches = list(selectors.match_list(group=group)[:30])
    names = {g["key"]: g["name"] for g in games()}
    for match in matches:
        match.game_name = names.get(match.ruleset, match.ruleset)
    is_owner = group.my_role == Membership.Role.OWNER
    context = {
        **_players_context(group),
        "is_owner": is_owner,
        "open_matches": [m for m in matches if m.state == "open"],
        "recent_matches": [m for m in matches if m.state != "open"][:10],
        "stats": stats_url("analytics:group", group.pk),
        "members": list(selectors.membership_list(group=group)),
        **_invites_context(group, is_owner),
        **presets_context(group=group, user=request.user),
        "add_error": add_error,
        "add_value": add_value,
    }
    return page(request, "frontend/groups/home.html", context, status=400 if add_error else 200)


@login_required
@require_POST
def player_add(request: HttpRequest, group_id: int) -> HttpResponse:
    """Add a player.  From htmx: answer with the new list (the name field keeps the focus); without
    JavaScript: back to the group page, with the error next to the field when the name was refused."""
    group = selectors.group_get(user=request.user, group_id=group_id)
    name = request.POST.get("name", "")
    error, status = "", gettext("%(name)s joined the table.")
    try:
        player = services.player_create(group=group, name=name, user=request.user)
        status = status % {"name": player.name}
    except services.ServiceError as exc:
        error, status = error_text(exc), ""
    if getattr(request, "htmx", False):
        context = {**_players_context(group), "add_error": error, "add_status": status, "oob": True}
        context["is_owner"] = group.my_role == Membership.Role.OWNER
        return page(request, "frontend/groups/players_part.html", context)
    if error:
        return group_home(request, group_id, add_error=error, add_value=name)
    messages.success(request, status)
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
        if invite.is_personal:
            messages.success(
                request, gettext("The invitation of %(name)s was withdrawn.") % {"name": invite.invitee_name}
            )
        else:
            messages.success(request, gettext("The invite link no longer works."))
    except services.ServiceError as exc:
        messages.error(request, error_text(exc))
    return redirect(reverse("group", args=[group.pk]) + ("#members" if invite.is_personal else "#invites"))


def invite_accept(request: HttpRequest, token: str) -> HttpResponse:
    """The page an invite link opens: join, or why this link does not let you in (said before any tap)."""
    invite = selectors.invite_by_token(token=token)
    valid = services.invite_is_valid(invite=invite)
    member = request.user.is_authenticated and services.membership_of(group=invite.group, user=request.user)
    refusal = None
    if request.user.is_authenticated and valid and not member:
        refusal = services.invite_refusal(invite=invite, user=request.user)
    if request.method == "POST" and request.user.is_authenticated and refusal is None:
        try:
            services.invite_accept(invite=invite, user=request.user)
        except services.ServiceError as exc:
            refusal = exc
        else:
            if not member:
                messages.success(request, gettext("Welcome to %(group)s.") % {"group": invite.group.name})
            return redirect("group", invite.group_id)
    context = {
        "invite": invite,
        "valid": valid,
        "member": member,
        "refusal": error_text(refusal) if refusal is not None else "",
        "next": request.get_full_path(),
    }
    return page(request, "frontend/groups/join.html", context, status=403 if refusal is not None else 200)


@login_required
@require_POST
def member_invite(request: HttpRequest, group_id: int) -> HttpResponse:
    """An owner invites an account by username: the same answer whether or not that account exists."""
    group = selectors.group_get(user=request.user, group_id=group_id)
    try:
        services.member_invite(group=group, username=request.POST.get("username", ""), by=request.user)
    except services.ServiceError as exc:
        messages.error(request, error_text(exc))
    else:
        messages.success(request, services.invitation_sent_text())
    return redirect(reverse("group", args=[group.pk]) + "#members")


@login_required
@require_POST
def invitation_answer(request: HttpRequest, invite_id: int, answer: str) -> HttpResponse:
    """The invited account accepts (and lands on the group) or declines (and stays home)."""
    invite = selectors.invitation_get(user=request.user, invite_id=invite_id)
    try:
        if answer == "accept":
            services.invite_accept(invite=invite, user=request.user)
        else:
            services.invitation_decline(invite=invite, user=request.user)
    except services.ServiceError as exc:
        messages.error(request, error_text(exc))
        return redirect("home")
    if answer == "accept":
        messages.success(request, gettext("Welcome to %(group)s.") % {"group": invite.group.name})
        return redirect("group", invite.group_id)
    messages.success(request, gettext("You declined the invitation to %(group)s.") % {"group": invite.group.name})
    return redirect("home")
