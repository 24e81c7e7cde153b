"""Fixtures for the page tests (the user, group, players and make_match come from ``tests/table_fixtures.py``)."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture
def client_in(client: Any, user: Any) -> Any:
    client.force_login(user)
    return client
