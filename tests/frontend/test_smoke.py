from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_pages_render(client_in, group, make_match):
    m = make_match("njet")
    for url in [
        "/",
        f"/groups/{group.pk}/",
        f"/groups/{group.pk}/matches/new",
        f"/groups/{group.pk}/matches/new?game=njet",
        f"/matches/{m.pk}/",
        f"/matches/{m.pk}/board",
        f"/matches/{m.pk}/history",
        "/rules/",
        "/referee/",
        "/sw.js",
        "/manifest.webmanifest",
        "/offline/",
    ]:
        r = client_in.get(url)
        assert r.status_code == 200, (url, r.content[:2000])
