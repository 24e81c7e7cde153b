"""Security issue 32, row "/api/docs/": Swagger UI works under the site's Content-Security-Policy, from our own
files only (a phone at the table may be offline): the page lists the API's operations, the browser refuses
nothing, and no request leaves the server."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# the production policy (config/settings.py _DEFAULT_CSP), whatever DEBUG this test process runs with
CSP = settings.CONTENT_SECURITY_POLICY or (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; "
    "connect-src 'self'; font-src 'self'; manifest-src 'self'; worker-src 'self'; frame-ancestors 'none'; "
    "base-uri 'self'; form-action 'self'; object-src 'none'"
)


def test_swagger_ui_runs_under_the_csp_from_our_own_files(new_context: Any, live_server: Any) -> None:
    context = new_context(logged_in=False)
    page = context.new_page()
    refused: list[str] = []
    elsewhere: list[str] = []
    page.on("console", lambda msg: refused.append(msg.text) if "Content Security Policy" in msg.text else None)
    page.on("pageerror", lambda exc: refused.append(str(exc)))
    page.on("request", lambda req: None if req.url.startswith(live_server.url) else elsewhere.append(req.url))

    def with_csp(route: Any) -> None:
        # every answer of the site carries the policy, as SecurityHeadersMiddleware sends it in production
        response = route.fetch()
        route.fulfill(response=response, headers={**response.headers, "content-security-policy": CSP})

    page.route(f"{live_server.url}/**", with_csp)
    page.goto("/api/docs/")
    page.get_by_text("Scorekeeper API").first.wait_for()
    page.get_by_text("/api/v1/matches/{match_id}/rounds").first.wait_for()
    assert page.locator(".opblock").count() > 40
    assert refused == []
    assert elsewhere == []
