"""Push to the phones showing a match: after a change commits, publish the match's new version on the Redis
pub/sub channel ``match:<id>``; the events stream (frontend/views/live.py) passes it on to every open page.

Publishing is best effort: without REDIS_URL nothing is sent, and a Redis that is down or slow is logged and
ignored (the phones' 3-second poll still brings the change), never raised into the save that caused it."""

from __future__ import annotations

import logging
import threading
from typing import Any

from django.conf import settings
from django.db import transaction

from scoring.services.outages import Outage

logger = logging.getLogger(__name__)
# a Redis outage is logged when it starts and when it ends, not with a traceback per save
OUTAGE = Outage("live: Redis")

_local = threading.local()


def channel(match_id: int) -> str:
    return f"match:{match_id}"


def _client() -> Any:
    """One Redis client per thread and REDIS_URL (a test may change the setting), with short timeouts."""
    url = settings.REDIS_URL
    cached = getattr(_local, "client", None)
    if cached is None or cached[0] != url:
        import redis

        cached = (url, redis.Redis.from_url(url, socket_connect_timeout=0.5, socket_timeout=0.5))
        _local.client = cached
    return cached[1]


def publish(match_id: int, version: int) -> None:
    """Send ``version`` to the match's channel now; errors are logged, never raised."""
    if not settings.REDIS_URL:
        return
    try:
        _client().publish(channel(match_id), str(version))
    except Exception as exc:
        if OUTAGE.failed():
            logger.warning(
                "live: could not publish match %s v%s (%r); phones fall back to their poll until Redis answers "
                "again (not logged again meanwhile)",
                match_id,
                version,
                exc,
            )
        return
    OUTAGE.ok()


def publish_after_commit(*, match_id: int, version: int) -> None:
    """Publish once the surrounding transaction commits (at once outside one); nothing if it rolls back."""
    if settings.REDIS_URL:
        transaction.on_commit(lambda: publish(match_id, version))
