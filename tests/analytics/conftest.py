"""Fixtures for the statistics tests (helpers in ``helpers.py``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from analytics import services as analytics_services
from tests.analytics.helpers import Table, make_table


@pytest.fixture(autouse=True)
def _fast_passwords(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _broker_backoff_reset() -> Iterator[None]:
    analytics_services._broker_down_until = 0.0
    yield
    analytics_services._broker_down_until = 0.0


@pytest.fixture
def table(db: None) -> Table:
    return make_table()
