"""The match's live events (server-sent events): every phone showing a match holds one open and hears the
match's new version as soon as a change commits (scoring/services/live.py publishes it on Redis pub/sub),
then refreshes its board (frontend/static/frontend/live.js). The 3-second poll stays as the fallback.

Served by the ASGI app (uvicorn behind nginx, see deploy/): one open phone costs a coroutine and a Redis
subscription, not a thread. Under WSGI (runserver, gunicorn's threads) a stream would hold a whole thread, so
there it is only served when LIVE_EVENTS_WSGI is on (DEBUG) and closes after LIVE_EVENTS_WSGI_SECONDS; else,
and without REDIS_URL, the answer is 204 and the page keeps polling."""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from collections.abc import AsyncIterator, Iterator
from typing import Any

from asgiref.sync import sync_to_async
from django import db
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse

from scoring import selectors
from scoring.services import live

logger = logging.getLogger(__name__)

HEARTBEAT = 15.0  # seconds between comment lines: keeps proxies from closing an idle stream, notices a gone phone
RETRY_MS = 3000  # how long the browser waits before it reconnects a dropped stream


def _event(version: str) -> bytes:
    return f"event: version\ndata: {version}\n\n".encode()


def _opening(version: int) -> bytes:
    # the current version first: a phone that reconnects after a gap refreshes once if it missed a change
    return f"retry: {RETRY_MS}\n\n".encode() + _event(str(version))


def _text(data: Any) -> str:
    return data.decode() if isinstance(data, bytes) else str(data)


async def _stream_async(match_id: int, version: int, lifetime: float) -> AsyncIterator[bytes]:
    import redis.asyncio as aioredis

    client = aioredis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=2)
    pubsub = client.pubsub(ignore_subscribe_messages=True)
    try:
        await pubsub.subscribe(live.channel(match_id))
        yield _opening(version)
        now = time.monotonic()
        ends, ping = now + lifetime, now + HEARTBEAT
        while now < ends:
            # None also stands for a skipped subscribe confirmation: a ping only once the heartbeat is due
            message = await pubsub.get_message(timeout=max(0.05, min(ping, ends) - now))
            now = time.monotonic()
            if message:
                yield _event(_text(message["data"]))
            elif now >= ping:
                yield b": ping\n\n"
                ping = now + HEARTBEAT
    except (TimeoutError, OSError, ConnectionError) as exc:
        logger.warning("live: events for match %s stopped: %s", match_id, exc)
    finally:
        try:
            await pubsub.aclose()
            await client.aclose()
        except Exception:
            pass


def _stream_sync(match_id: int, version: int, lifetime: float) -> Iterator[bytes]:
    import redis

    client = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=2)
    pubsub = client.pubsub(ignore_subscribe_messages=True)
    try:
        pubsub.subscribe(live.channel(match_id))
        yield _opening(version)
        now = time.monotonic()
        ends, ping = now + lifetime, now + HEARTBEAT
        while now < ends:
            message = pubsub.get_message(timeout=max(0.05, min(ping, ends) - now))
            now = time.monotonic()
            if message:
                yield _event(_text(message["data"]))
            elif now >= ping:
                yield b": ping\n\n"
                ping = now + HEARTBEAT
    except (OSError, ConnectionError) as exc:
        logger.warning("live: events for match %s stopped: %s", match_id, exc)
    finally:
        pubsub.close()
        client.close()


_gates: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = weakref.WeakKeyDictionary()
CHECKS_AT_ONCE = 8


def _gate() -> asyncio.Semaphore:
    """At most CHECKS_AT_ONCE membership checks at a time in this process: each opens its own database
    connection (one per request under ASGI), and hundreds of phones reconnecting at once (a restart) would
    otherwise ask PostgreSQL for hundreds of connections at the same moment."""
    loop = asyncio.get_running_loop()
    gate = _gates.get(loop)
    if gate is None:
        gate = _gates[loop] = asyncio.Semaphore(CHECKS_AT_ONCE)
    return gate


def _member_match(user: Any, match_id: int) -> Any:
    """The match if ``user`` is in its group (else Http404), then the database connection is given back: an open
    stream must not hold one (under ASGI each request keeps its own until the response ends, and 500 open phones
    would be 500 PostgreSQL connections)."""
    try:
        return selectors.match_get(user=user, match_id=match_id, rounds_played=False, seats=False)
    finally:
        db.connections.close_all()


async def match_events(request: HttpRequest, match_id: int) -> HttpResponse:
    """``GET /matches/<id>/events``: 404 for a match outside the user's groups (and when signed out), 204 when
    no stream can be held here (no Redis, or WSGI outside DEBUG), else a text/event-stream of versions."""
    async with _gate():
        user = await request.auser()
        if not user.is_authenticated:
            raise Http404
        match = await sync_to_async(_member_match)(user, match_id)
    under_asgi = isinstance(request, ASGIRequest)
    if not settings.REDIS_URL or not (under_asgi or settings.LIVE_EVENTS_WSGI):
        return HttpResponse(status=204)
    if under_asgi:
        content: Any = _stream_async(match.pk, match.version, settings.LIVE_EVENTS_SECONDS)
    else:
        content = _stream_sync(match.pk, match.version, settings.LIVE_EVENTS_WSGI_SECONDS)
    response = StreamingHttpResponse(content, content_type="text/event-stream")
    response["Cache-Control"] = "no-cache, no-store"
    response["X-Accel-Buffering"] = "no"  # nginx passes each event on at once
    # not "gzip": GZipMiddleware would hold the events in its compressor until the stream ends
    response["Content-Encoding"] = "identity"
    return response
