"""Home, sign-up, health check and the PWA plumbing (manifest, service worker, offline page)."""

from __future__ import annotations

import hashlib
import json

from django.conf import settings
from django.contrib.auth import login
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django.views.decorators.http import require_safe

from config import static_manifest
from frontend.forms import SignupForm
from frontend.rulebook import games
from frontend.views.accounts import TOO_MANY_REQUESTS, refuse
from frontend.views.common import page
from scoring.models import Group
from scoring.selectors import group_list_sorted, invitation_list_for
from scoring.signin import limits as auth_limits

# What the service worker stores on install: the app shell and the rules reference.
SHELL_ASSETS = (
    "frontend/app.css",
    "frontend/pad.js",
    "frontend/app.js",
    "frontend/live.js",
    "vendor/htmx/htmx.min.js",
    "frontend/icons/icon.svg",
    "frontend/icons/icon-192.png",
)


def demo_login() -> dict[str, str] | None:
    """The demo account's login, for the logged-out home page of a development server (DEBUG on) whose database
    holds the demo group (``manage.py load_demo``, run by ``make run``); never in production (DEBUG=0)."""
    if not settings.DEBUG:
        return None
    from scoring.management.commands import load_demo

    found = Group.objects.filter(name=load_demo.GROUP_NAME, memberships__user__username=load_demo.USERNAME).exists()
    return {"username": load_demo.USERNAME, "password": load_demo.PASSWORD} if found else None


def home(request: HttpRequest) -> HttpResponse:
    groups = group_list_sorted(user=request.user) if request.user.is_authenticated else []
    demo = None if request.user.is_authenticated else demo_login()
    invitations = list(invitation_list_for(user=request.user))
    return page(request, "frontend/home.html", {"groups": groups, "demo": demo, "invitations": invitations})


def _next_url(request: HttpRequest) -> str | None:
    target = request.POST.get("next") or request.GET.get("next")
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        return target
    return None


def signup(request: HttpRequest) -> HttpResponse:
    form = SignupForm(request.POST or None)
    wait = auth_limits.signup_attempt(request) if request.method == "POST" else None
    if wait:
        refuse(form, wait)
        context = {"form": form, "next": _next_url(request) or ""}
        return page(request, "registration/signup.html", context, status=TOO_MANY_REQUESTS)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect(_next_url(request) or "home")
    return page(request, "registration/signup.html", {"form": form, "next": _next_url(request) or ""})


@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    """``{"ok": true}``, or 503 with the problems (the database answers; with DEBUG=0 the static manifest)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    problems = [found] if (found := static_manifest.problem()) else []
    if problems:
        return JsonResponse({"ok": False, "problems": problems}, status=503)
    return JsonResponse({"ok": True})


@require_safe
def offline(request: HttpRequest) -> HttpResponse:
    return page(request, "frontend/offline.html")


@require_safe
def manifest(request: HttpRequest) -> JsonResponse:
    data = {
        "name": "Scorekeeper",
        "short_name": "Scorekeeper",
        "description": gettext("Scores, explanations and statistics for the card games you play around the table."),
        "start_url": reverse("home"),
        "scope": "/",
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": "#0a4fd6",
        # the same two colours for a phone in dark mode (W3C manifest: color_scheme_dark; ignored where unknown)
        "color_scheme_dark": {"background_color": "#121417", "theme_color": "#121417"},
        "icons": [
            {"src": static("frontend/icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": static("frontend/icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {"src": static("frontend/icons/icon.svg"), "sizes": "any", "type": "image/svg+xml"},
        ],
    }
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    return response


def shell_urls() -> list[str]:
    """The URLs the service worker caches on install."""
    pages = [reverse("offline"), reverse("rules"), reverse("referee")]
    pages += [reverse("rules_game", args=[game["key"]]) for game in games()]
    return [static(path) for path in SHELL_ASSETS] + pages


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    urls = shell_urls()
    version = hashlib.sha256("|".join(urls).encode()).hexdigest()[:12]
    body = render_to_string(
        "frontend/sw.js",
        {"urls": json.dumps(urls), "version": version, "offline_url": reverse("offline")},
        request=request,
    )
    response = HttpResponse(body, content_type="application/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response
