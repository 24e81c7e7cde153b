"""The API's routes are tried in order, the hot ones first (scoring/api/urls.py): no route may shadow another."""

from __future__ import annotations

import re

import pytest
from django.urls import resolve

from scoring.api import urls


@pytest.mark.parametrize("pattern", urls.urlpatterns, ids=lambda p: str(p.pattern))
def test_each_api_route_reaches_its_own_view(pattern):
    route = str(pattern.pattern)
    sample = re.sub(r"<(str|slug):\w+>", "abc", re.sub(r"<int:\w+>", "7", route))
    assert resolve(f"/api/v1/{sample}").url_name == pattern.name


def test_the_round_writes_come_first():
    assert [p.name for p in urls.urlpatterns[:2]] == ["scoreboard", "rounds"]
