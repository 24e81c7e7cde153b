"""Security issue 32, row "/api/docs/": Swagger UI is served from our own static files (the
drf-spectacular-sidecar package, pinned), under the site's Content-Security-Policy, with no script from another
origin and no inline script (so that it also works on a phone offline at the table)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.contrib.staticfiles import finders

pytestmark = pytest.mark.django_db

CSP = django_settings.CONTENT_SECURITY_POLICY or (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'"
)


@pytest.fixture
def docs(settings: Any, client: Any) -> Any:
    settings.CONTENT_SECURITY_POLICY = CSP
    return client.get("/api/docs/")


def test_the_docs_page_has_the_site_csp(docs: Any) -> None:
    assert docs.status_code == 200
    assert docs["Content-Security-Policy"] == CSP
    assert "script-src 'self';" in docs["Content-Security-Policy"]


def test_every_script_and_stylesheet_is_ours(docs: Any, client: Any) -> None:
    html = docs.content.decode()
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", html, flags=re.S)
    assert scripts, html
    for attrs, body in scripts:
        assert body.strip() == "", "an inline script would be blocked by script-src 'self'"
        src = re.search(r'src="([^"]+)"', attrs)
        assert src and src.group(1).startswith("/"), attrs
    sources = [re.search(r'src="([^"]+)"', attrs).group(1) for attrs, _ in scripts]  # type: ignore[union-attr]
    links = re.findall(r'<link[^>]*href="([^"]+)"', html)
    assert any("swagger-ui-bundle.js" in s and s.startswith("/static/") for s in sources)
    assert all(url.startswith("/") for url in sources + links), (sources, links)
    assert "cdn." not in html and "@latest" not in html and "http" not in "".join(sources + links)
    # each of them is ours: a static file of an installed app (the sidecar package; whitenoise serves it after
    # collectstatic, the finders in development) or the start-up script the docs view itself answers
    for url in sources[:-1] + links:
        assert url.startswith("/static/") and finders.find(url.removeprefix("/static/")), url
    init = client.get(sources[-1].replace("&amp;", "&"))
    assert init["Content-Type"].startswith("application/javascript")
    assert "/api/schema/" in init.content.decode()


def test_the_sidecar_is_pinned() -> None:
    from pathlib import Path

    pyproject = (Path(__file__).resolve().parents[2] / "pyproject.toml").read_text()
    assert re.search(r'"drf-spectacular-sidecar==[0-9.]+"', pyproject)
