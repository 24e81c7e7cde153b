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
    # Retry-After on the refused ones only, within the minute (its exact value, from DRF's formula on a clock the
    # test sets, is compared in test_the_window_slides_as_drfs_does: here the clock is the real one)
    for answers in (in_memory, in_redis):
        assert [wait is not None for _, wait in answers] == [False, False, False, True, True]
        assert all(1 <= int(wait) <= 60 for _, wait in answers if wait is not None)
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


def test_the_window_slides_as_drfs_does(settings: Any, rf: RequestFactory, services_up: None) -> None:
    """On a clock the test sets (DRF's ``timer``): two places a minute, requests at 0, 10, 30, 61 and 62 seconds.
    The one at 30 waits for the one at 0 to leave the window; at 61 it has left, so 61 passes and 62 waits for
    the one at 10. Redis's script and DRF's own list give the same answers and waits."""
    _rates(settings, calculator="2/min")
    request = rf.post("/api/v1/rulesets/njet/score", {"facts": njet_facts()}, content_type="application/json")
    start = time.time()

    def answers() -> list[tuple[bool, float | None]]:
        got = []
        for offset in (0, 10, 30, 61, 62):
            throttle = CalculatorThrottle()
            throttle.timer = lambda offset=offset: start + offset  # type: ignore[method-assign]
            allowed = throttle.allow_request(request, None)
            got.append((allowed, None if allowed else round(throttle.wait() or 0, 6)))
        return got

    in_memory = answers()
    settings.CACHES = {
        "default": {"BACKEND": "config.cache.RedisCache", "LOCATION": REDIS, "KEY_PREFIX": uuid.uuid4().hex}
    }
    in_redis = answers()
    assert in_redis == in_memory == [(True, None), (True, None), (False, 30.0), (True, None), (False, 8.0)]


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
