"""Every page of the app renders for a signed-in member, with its own content and content type."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_pages_render(client_in, group, make_match):
    m = make_match("njet")
    pages = [
        ("/", "text/html", "Your groups"),
        (f"/groups/{group.pk}/", "text/html", "Friday table"),
        (f"/groups/{group.pk}/matches/new", "text/html", "Which game?"),
        (f"/groups/{group.pk}/matches/new?game=njet", "text/html", "New match: NJET"),
        (f"/matches/{m.pk}/", "text/html", "Round 1"),
        (f"/matches/{m.pk}/board", "text/html", "after 0 rounds"),
        (f"/matches/{m.pk}/history", "text/html", "History"),
        ("/rules/", "text/html", "Rules reference"),
        ("/referee/", "text/html", "Trick referee"),
        ("/sw.js", "application/javascript", "const CACHE"),
        ("/manifest.webmanifest", "application/manifest+json", '"name": "Scorekeeper"'),
        ("/offline/", "text/html", "No connection"),
    ]
    for url, content_type, marker in pages:
        r = client_in.get(url)
        assert r.status_code == 200, (url, r.content[:2000])
        assert r["Content-Type"].startswith(content_type), (url, r["Content-Type"])
        assert marker in r.content.decode(), (url, marker)


def test_health_ping_and_the_static_app_files_answer_head_as_well_as_get(client):
    """Uptime monitors and proxies probe with HEAD: the same status and headers as GET, no body; other methods
    are refused."""
    for url in ("/healthz", "/ping", "/sw.js", "/manifest.webmanifest", "/offline/"):
        got, head = client.get(url), client.head(url)
        assert got.status_code == head.status_code == 200, url
        assert head["Content-Type"] == got["Content-Type"] and head.content == b"", url
        assert client.post(url).status_code == 405, url
