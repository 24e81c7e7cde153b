"""Live updates: a committed change publishes the match's new version on ``match:<id>`` (never when it rolls
back, never raising when Redis is down), and the events stream is only for the match's members."""

from __future__ import annotations

import logging
from typing import Any

import pytest
import redis
from asgiref.sync import async_to_sync
from django.conf import settings
from django.db import transaction
from django.test import AsyncClient
from django.urls import reverse

from scoring import services
from scoring.services import live
from tests.scoring.helpers import njet_facts

pytestmark = pytest.mark.django_db

needs_redis = pytest.mark.skipif(not settings.REDIS_URL, reason="the live channel needs REDIS_URL")


@pytest.fixture
def listener() -> Any:
    """A subscriber to the match channels, as the events stream subscribes."""
    client = redis.Redis.from_url(settings.REDIS_URL)
    pubsub = client.pubsub(ignore_subscribe_messages=True)
    yield pubsub
    pubsub.close()
    client.close()


def heard(pubsub: Any) -> list[tuple[str, str]]:
    """What arrived on the subscribed channels, reading until nothing more comes for a moment (a ``None`` is
    also what the skipped subscribe confirmation reads as, hence a few empty reads before giving up)."""
    got, quiet = [], 0
    while quiet < 3:
        message = pubsub.get_message(timeout=0.3)
        if message is None:
            quiet += 1
            continue
        got.append((message["channel"].decode(), message["data"].decode()))
    return got


@needs_redis
def test_a_saved_round_publishes_the_new_version_once_committed(
    make_match, user, listener, django_capture_on_commit_callbacks
) -> None:
    match = make_match("njet", 5)
    listener.subscribe(live.channel(match.pk))
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        services.round_record(match=match, facts=njet_facts(), user=user)
        assert heard(listener) == []  # not before the transaction commits
    for callback in callbacks:
        callback()
    match.refresh_from_db()
    assert heard(listener) == [(f"match:{match.pk}", str(match.version))]


@needs_redis
def test_finish_and_reopen_publish_each_version(make_match, user, listener, django_capture_on_commit_callbacks) -> None:
    match = make_match("njet", 5)
    listener.subscribe(live.channel(match.pk))
    with django_capture_on_commit_callbacks(execute=True):
        finished = services.match_finish(match=match, expected_version=match.version, user=user)
    with django_capture_on_commit_callbacks(execute=True):
        reopened = services.match_reopen(match=finished, expected_version=finished.version, user=user)
    assert [v for _, v in heard(listener)] == [str(finished.version), str(reopened.version)]


@needs_redis
def test_a_rolled_back_change_publishes_nothing(make_match, user, listener, django_capture_on_commit_callbacks) -> None:
    match = make_match("njet", 5)
    listener.subscribe(live.channel(match.pk))
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        try:
            with transaction.atomic():
                services.round_record(match=match, facts=njet_facts(), user=user)
                raise RuntimeError("rolled back")
        except RuntimeError:
            pass
    assert callbacks == []
    assert heard(listener) == []


def test_a_redis_that_is_down_does_not_break_the_save(make_match, user, settings, caplog) -> None:
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    match = make_match("njet", 5)
    with caplog.at_level(logging.WARNING, logger="scoring.services.live"):
        live.publish(match.pk, 7)
    assert "could not publish match" in caplog.text


def test_without_redis_nothing_is_queued(make_match, user, settings, django_capture_on_commit_callbacks) -> None:
    settings.REDIS_URL = ""
    match = make_match("njet", 5)
    with django_capture_on_commit_callbacks() as callbacks:
        live.publish_after_commit(match_id=match.pk, version=3)
    assert callbacks == []


# --- the events stream ---------------------------------------------------------------------------------------


def test_an_outsider_and_a_signed_out_phone_get_404(make_match, django_user_model, client) -> None:
    match = make_match("njet", 5)
    url = reverse("match_events", args=[match.pk])
    assert client.get(url).status_code == 404
    outsider = django_user_model.objects.create_user("zoe", password="correct-horse-44")
    client.force_login(outsider)
    assert client.get(url).status_code == 404


def test_without_redis_the_page_is_told_to_keep_polling(make_match, user, client, settings) -> None:
    settings.REDIS_URL = ""
    match = make_match("njet", 5)
    client.force_login(user)
    assert client.get(reverse("match_events", args=[match.pk])).status_code == 204


def test_wsgi_outside_debug_holds_no_stream(make_match, user, client, settings) -> None:
    settings.REDIS_URL = settings.REDIS_URL or "redis://127.0.0.1:6379/13"
    settings.LIVE_EVENTS_WSGI = False  # gunicorn's threads: nginx sends the streams to the ASGI server
    match = make_match("njet", 5)
    client.force_login(user)
    assert client.get(reverse("match_events", args=[match.pk])).status_code == 204


@needs_redis
def test_a_member_hears_the_version_now_and_after_a_save(make_match, user) -> None:
    match = make_match("njet", 5)

    async def read() -> tuple[Any, list[bytes]]:
        client = AsyncClient()
        await client.aforce_login(user)
        response = await client.get(reverse("match_events", args=[match.pk]))
        stream = aiter(response.streaming_content)
        first = await anext(stream)
        live.publish(match.pk, match.version + 1)
        second = await anext(stream)
        await response.aclose() if hasattr(response, "aclose") else None
        return response, [first, second]

    response, chunks = async_to_sync(read)()
    assert response.status_code == 200
    assert response["Content-Type"] == "text/event-stream"
    assert response["X-Accel-Buffering"] == "no"
    assert chunks[0] == f"retry: 3000\n\nevent: version\ndata: {match.version}\n\n".encode()
    assert chunks[1] == f"event: version\ndata: {match.version + 1}\n\n".encode()
