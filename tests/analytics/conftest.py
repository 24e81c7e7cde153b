"""Fixtures for the statistics tests (helpers in ``helpers.py``)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.db import connections

from analytics.services import scheduling
from tests.analytics.helpers import Table, make_table


@pytest.fixture(autouse=True)
def _fast_passwords(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _broker_backoff_reset() -> Iterator[None]:
    scheduling._broker_down_until = 0.0
    scheduling._missed_refresh = False
    yield
    scheduling._broker_down_until = 0.0
    scheduling._missed_refresh = False
    scheduling.BROKER_OUTAGE.ok()


@pytest.fixture
def table(db: None) -> Table:
    return make_table()


@pytest.fixture
def side() -> Iterator[Callable[[], Any]]:
    """Extra connections to the test database, outside Django's per-thread handling; closed afterwards."""
    opened: list[Any] = []

    def open_one() -> Any:
        wrapper = connections.create_connection("default")
        wrapper.set_autocommit(False)
        opened.append(wrapper)
        return wrapper

    yield open_one
    for wrapper in opened:
        wrapper.rollback()
        wrapper.close()
