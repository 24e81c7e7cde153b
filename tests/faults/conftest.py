"""Fault-test fixtures: a private Redis server, the app's processes, tables of players (see ``helpers``)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator

import pytest

from tests.faults.helpers import REDIS_PORT, REPORTS, OwnRedis, Stack, Table, table_make, tests_database_url


@pytest.fixture(scope="session")
def own_redis(services_up: None) -> Iterator[OwnRedis]:
    server = OwnRedis(REDIS_PORT)
    if server.ping():
        pytest.fail(f"something already answers on port {REDIS_PORT}; set FAULTS_REDIS_PORT to a free port")
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def stack(own_redis: OwnRedis, transactional_db: None) -> Iterator[Stack]:
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.fail("fault tests need DATABASE_URL pointing at PostgreSQL")
    if not own_redis.ping():  # a test that stopped Redis and failed before restarting it
        own_redis.start()
    own_redis.flush()
    found = Stack(db_url=tests_database_url(), redis=own_redis)
    try:
        yield found
    finally:
        found.stop_all()
        if not own_redis.ping():
            own_redis.start()
        from analytics.services import scheduling

        # this process may have marked the broker as down while Redis was stopped; later tests start clean
        scheduling._broker_down_until = 0.0
        scheduling._missed_refresh = False


@pytest.fixture
def table_factory(transactional_db: None) -> Callable[..., Table]:
    counter = itertools.count(1)

    def make(*, matches: int, games: int = 100) -> Table:
        return table_make(matches=matches, games=games, n=next(counter))

    return make


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, config: pytest.Config) -> None:
    """What the fault tests did and found, also when their output was captured."""
    if REPORTS and config.option.capture != "no":
        terminalreporter.section("fault tests: what they did and found")
        for line in REPORTS:
            terminalreporter.write_line(line)
