"""The offline page (what the service worker shows for a page it has not stored) in Hungarian: its title and
heading are Hungarian, no English "Offline" left (issue 31: every Hungarian string reads as Hungarian)."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english_after():
    """A Hungarian request activates Hungarian in this thread: put the language back for the next test."""
    with translation.override("en"):
        yield


def test_offline_page_title_is_hungarian(client) -> None:
    html = client.get("/offline/", HTTP_ACCEPT_LANGUAGE="hu").content.decode()
    title = re.search(r"<title>(.*?)</title>", html, re.S)
    assert title is not None
    assert "Nincs kapcsolat" in title.group(1)
    assert "Offline" not in html
