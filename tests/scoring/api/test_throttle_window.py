"""The throttles' window counted in Redis in one atomic step (issue 48): the same answers as DRF's read-and-write of
its list (the status codes and Retry-After, request for request), the window sliding, and eight requests at once
taking no more places than there are."""

from __future__ import annotations

import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.core.cache import caches
from django.test import RequestFactory

from scoring.api.throttles import CalculatorThrottle, WriteThrottle
from tests.scoring.helpers import njet_facts

REDIS = "redis://127.0.0.1:6379/12"


@pytest.fixture
def redis_cache(settings: Any, services_up: None) -> None:
    """The cache in Redis, as in production, under a key prefix of this test alone."""
    settings.CACHES = {
        "default": {
            "BACKEND": "config.cache.RedisCache",
            "LOCATION": REDIS,
            "KEY_PREFIX": uuid.uuid4().hex,
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }


def _rates(settings: Any, **rates: str) -> None:
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"auth": "30/min", "calculator": "30/min", "writes": "30/min", "heavy": "30/min"}
        | rates,
    }


def _writes(table: Any, client_for: Any, n: int) -> list[tuple[int, str | None]]:
    api = client_for(table.member)
    url = f"/api/v1/groups/{table.group.pk}/players"
    answers = []
    for i in range(n):
        response = api.post(url, {"name": f"P{uuid.uuid4().hex[:6]}{i}"}, format="json")
        answers.append((response.status_code, response.headers.get("Retry-After")))
    return answers


def test_redis_answers_as_drfs_list_did(table: Any, client_for: Any, settings: Any, services_up: None) -> None:
    _rates(settings, writes="3/min")
    in_memory = _writes(table, client_for, 5)  # the test settings' cache: DRF's own read and write of the list
    settings.CACHES = {
        "default": {"BACKEND": "config.cache.RedisCache", "LOCATION": REDIS, "KEY_PREFIX": uuid.uuid4().hex}
    }
    in_redis = _writes(table, client_for, 5)

    assert [code for code, _ in in_redis] == [code for code, _ in in_memory] == [201, 201, 201, 429, 429]
    assert [wait for _, wait in in_redis] == [wait for _, wait in in_memory]
    assert in_redis[3][1] == "60"  # a whole minute's window, one place to share: DRF's formula
    assert (
        client_for(table.owner)
        .post(f"/api/v1/groups/{table.group.pk}/players", {"name": "Other user"}, format="json")
        .status_code
        == 201
    )
    assert client_for(table.member).get(f"/api/v1/groups/{table.group.pk}/players").status_code == 200


def test_a_lowered_rate_and_a_scope_without_one_answer_as_drfs(
    table: Any, client_for: Any, settings: Any, services_up: None
) -> None:
    """Rates are read on every request: lowered below the requests already in the window, the next one is refused
    without a Retry-After (no place frees up in the window: DRF's wait is None); a scope without a rate counts
    nothing."""

    def sequence() -> list[tuple[int, str | None]]:
        _rates(settings, writes="4/min")
        answers = _writes(table, client_for, 2)
        _rates(settings, writes="1/min")
        answers += _writes(table, client_for, 1)
        settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {}}
        return answers + _writes(table, client_for, 2)

    in_memory = sequence()
    settings.CACHES = {
        "default": {"BACKEND": "config.cache.RedisCache", "LOCATION": REDIS, "KEY_PREFIX": uuid.uuid4().hex}
    }
    in_redis = sequence()
    assert in_redis == in_memory == [(201, None), (201, None), (429, None), (201, None), (201, None)]


def test_the_window_slides(redis_cache: None, settings: Any, rf: RequestFactory) -> None:
    _rates(settings, calculator="2/sec")
    request = rf.post("/api/v1/rulesets/njet/score", {"facts": njet_facts()}, content_type="application/json")

    def ask() -> tuple[bool, float | None]:
        throttle = CalculatorThrottle()
        allowed = throttle.allow_request(request, None)
        return allowed, None if allowed else throttle.wait()

    first = [ask() for _ in range(3)]
    assert [allowed for allowed, _ in first] == [True, True, False]
    wait = first[2][1]
    assert wait is not None and 0 < wait <= 1
    time.sleep(1.05)  # the first two drop out of the one-second window
    assert [allowed for allowed, _ in (ask() for _ in range(3))] == [True, True, False]


def test_eight_writes_at_once_take_only_the_places_there_are(redis_cache: None, settings: Any, table: Any) -> None:
    _rates(settings, writes="3/min")
    request = RequestFactory().post("/api/v1/groups/1/players")
    request.user = table.member

    def one(_: int) -> bool:
        return WriteThrottle().allow_request(request, None)

    with ThreadPoolExecutor(max_workers=8) as pool:
        answers = list(pool.map(one, range(8)))
    assert answers.count(True) == 3 and answers.count(False) == 5
    key = f"{caches['default'].make_and_validate_key(WriteThrottle().get_cache_key(request, None))}:window"
    assert caches["default"]._cache.get_client(key).llen(key) == 3  # type: ignore[attr-defined]
