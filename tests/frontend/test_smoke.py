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
