"""Scheduling the recomputation: after a change, flag the snapshots stale and queue one refresh per group.

The refresh task is looked up in :mod:`analytics.services.registry` (``analytics.tasks`` registers it), so the
services never import the tasks. A broker outage is logged once (when it starts and when it ends) and backed off
from for a moment; the first refresh queued after it also queues a catch-up, so that what could not be queued
meanwhile is refreshed as soon as the broker is back rather than at beat's next minute.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.db import connection, transaction

from analytics.models import Snapshot
from analytics.services import registry
from analytics.services.marking import _dirty_record, _mark_match, stats_mark_group_stale, stats_mark_stale
from analytics.stats import StatsFilter, snapshot_key
from scoring.models import Match, Seat
from scoring.services.outages import Outage

logger = logging.getLogger(__name__)

# After a failed publish, do not try the broker again for this long: a broker host that drops packets costs a
# save the connect timeout, once per process per backoff, not on every save. Short, because the first publish that
# gets through afterwards is what notices that the broker is back (and queues the catch-up for what was missed).
BROKER_BACKOFF_SECONDS = 2.0
_broker_down_until = 0.0
# Set when a refresh could not be queued (a failure, or skipped in the backoff); the next refresh queued queues
# the catch-up too, and clears it.
_missed_refresh = False
BROKER_OUTAGE = Outage("stats: broker")
MARKS_OUTAGE = Outage("stats: queued marks in Redis")


def stats_match_changed(*, match: Match, players: Iterable[int] | None = None) -> None:
    """Called inside the transaction that changed a match or its rounds (``match`` as it is being saved).

    The match is recorded as dirty in that same transaction, so the record commits or rolls back with the
    change and the periodic catch-up finds it even if nothing after the commit runs. Once committed, the
    affected snapshots are flagged stale (so dashboards say so at once) and a refresh is queued. Never raises
    after the commit: a failure there is logged and left to the catch-up.
    """
    group_id, match_id, ruleset = match.group_id, match.pk, match.ruleset
    finished_at = match.finished_at if match.state == Match.State.FINISHED else None
    seated = (
        list(players)
        if players is not None
        else list(Seat.objects.filter(match_id=match_id).values_list("player_id", flat=True))
    )
    _dirty_record(group_id=group_id, match_id=match_id)

    def after_commit() -> None:
        # Each statement commits on its own (no enclosing transaction): the snapshot rows of a group are shared
        # by every writer of that group and by its refresh, and holding their locks from one statement to the
        # next lets two of them wait for each other (wrapped in one transaction, the API benchmark deadlocked).
        try:
            _mark_match(match_id=match_id, group_id=group_id, ruleset=ruleset, finished_at=finished_at, players=seated)
        except Exception:
            logger.exception("stats: marking match %s stale failed; the catch-up will refresh it", match_id)
            return
        stats_enqueue(group_id=group_id)

    transaction.on_commit(after_commit)


# A refresh that is queued but has not started yet will see every change made before it starts, so while one is
# waiting (for a worker, or for the group's lock held by a running refresh) there is no need to queue another:
# under a stream of rounds into one group the workers then do one refresh per burst instead of one per round.
# The mark lives in the broker's Redis (shared by the web processes and the workers) and expires by itself, so a
# lost task costs at most this long.
#
# A busy group's refreshes are also spaced: the queued refresh starts no sooner than STATS_REFRESH_SPACING_MS after
# the group's previous one started (it waits in the worker, :func:`.refresh.stats_group_refresh_spaced`; a quiet
# group's round is refreshed at once).  Without it, a stream of rounds into one group kept a refresh running back to
# back, each recomputing the group's dashboards for the few rounds since the last one: at 50 rounds a second a third
# of a core, taken from the web processes.
QUEUED_MARK_SECONDS = 60
_redis_client: Any = None


def _queue_marks() -> Any:
    """The Redis holding the "refresh queued" marks, or None (Celery eager or no Redis: nothing is queued)."""
    global _redis_client

    from config.celery import app

    if app.conf.task_always_eager or not settings.REDIS_URL:
        return None
    if _redis_client is None:
        import redis

        _redis_client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=0.5, socket_connect_timeout=0.5)
    return _redis_client


_db_identity: dict[str, str] = {}


def _mark_key(kind: str, group_id: int) -> str:
    """A mark's key: its kind, this database instance (its OID on PostgreSQL, so that marks left by a dropped and
    recreated database, such as the test database of an earlier run, cannot match) and the group."""
    name = str(connection.settings_dict["NAME"])
    if name not in _db_identity:
        identity = name
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT oid FROM pg_database WHERE datname = current_database()")
                identity = f"{name}.{cursor.fetchone()[0]}"
        _db_identity[name] = identity
    return f"stats:{kind}:{_db_identity[name]}:{group_id}"


def _queued_key(group_id: int) -> str:
    return _mark_key("queued", group_id)


def _queued_claim(group_id: int) -> bool:
    """True when this caller must queue the refresh (no refresh of the group is waiting for a worker)."""
    marks = _queue_marks()
    if marks is None:
        return True
    try:
        claimed = bool(marks.set(_queued_key(group_id), 1, nx=True, ex=QUEUED_MARK_SECONDS))
    except Exception:  # Redis trouble: queue anyway (the publish will say whether the broker is there)
        return True
    MARKS_OUTAGE.ok()
    return claimed


def _queued_release(group_id: int) -> None:
    """Called when a refresh starts (or could not be queued): later changes must queue a new one."""
    marks = _queue_marks()
    if marks is None:
        return
    try:
        marks.delete(_queued_key(group_id))
    except Exception as exc:
        _marks_failed(group_id, exc)


def _marks_failed(group_id: int, exc: BaseException) -> None:
    if MARKS_OUTAGE.failed():
        logger.warning(
            "stats: cannot clear the queued mark of group %s (%r); it expires by itself (Redis failures are not "
            "logged again until it answers)",
            group_id,
            exc,
        )


def _refresh_spacing() -> float:
    return max(0.0, settings.STATS_REFRESH_SPACING_MS / 1000)


def refresh_started(group_id: int) -> None:
    """Called by a refresh once it holds the group's lock, just before it reads what changed: later changes must
    queue a new refresh (the queued mark goes), and that one starts no sooner than the spacing after this one."""
    marks = _queue_marks()
    if marks is None:
        return
    spacing = round(_refresh_spacing() * 1000)
    try:
        pipe = marks.pipeline(transaction=False)
        pipe.delete(_queued_key(group_id))
        if spacing > 0:
            pipe.set(_mark_key("started", group_id), 1, px=spacing)
        pipe.execute()
    except Exception as exc:
        _marks_failed(group_id, exc)
        return
    MARKS_OUTAGE.ok()


def spacing_left(group_id: int) -> float:
    """Seconds until the group's next refresh may start: 0 unless one started less than the spacing ago."""
    marks = _queue_marks()
    if marks is None:
        return 0.0
    try:
        left = marks.pttl(_mark_key("started", group_id))
    except Exception:  # Redis trouble: the publish will say whether the broker is there
        return 0.0
    return min(max(int(left), 0) / 1000, _refresh_spacing())


def stats_enqueue(*, group_id: int) -> bool:
    """Queue the recomputation of a group; never raises (a broker outage is logged and caught up later).

    Returns False when nothing could be queued; True when a refresh is queued (by this call or an earlier one
    that has not started yet).
    """
    global _broker_down_until, _missed_refresh
    if time.monotonic() < _broker_down_until:
        _missed_refresh = True  # the group stays stale (flagged in PostgreSQL) until the catch-up
        return False
    if not _queued_claim(group_id):
        return True
    refresh = registry.task("stats_refresh_group")
    try:
        refresh.delay(group_id)
        if _missed_refresh:
            # the broker is back: refresh now whatever this process could not queue while it was away
            registry.task("stats_catch_up").delay()
            _missed_refresh = False
    except BROKER_ERRORS as exc:
        _queued_release(group_id)
        _broker_down_until = time.monotonic() + BROKER_BACKOFF_SECONDS
        _missed_refresh = True
        if BROKER_OUTAGE.failed():
            logger.warning(
                "stats: cannot queue the refresh of group %s (%r); statistics stay stale until the broker "
                "answers again (then a catch-up runs; not logged again meanwhile)",
                group_id,
                exc,
            )
        return False
    except Exception:
        _queued_release(group_id)
        _missed_refresh = True
        logger.exception("stats: refreshing group %s failed; the catch-up will retry", group_id)
        return False
    BROKER_OUTAGE.ok()
    return True


def _broker_errors() -> tuple[type[BaseException], ...]:
    from kombu.exceptions import OperationalError
    from redis.exceptions import ConnectionError as RedisConnectionError
    from redis.exceptions import TimeoutError as RedisTimeoutError

    return (OperationalError, RedisConnectionError, RedisTimeoutError, ConnectionError, TimeoutError, OSError)


BROKER_ERRORS = _broker_errors()


def stats_schedule(*, match_id: int, group_id: int | None = None) -> None:
    """Record a changed match and, at once, flag its snapshots and queue a refresh. Never raises.

    For a caller that does not hold the match: the services call :func:`stats_match_changed` inside their
    transaction instead. Pass ``group_id`` when the match itself was deleted (so that its group can still be
    found through its standings).
    """
    try:
        gid = stats_mark_stale(match_id=match_id, group_id=group_id)
    except Exception:
        logger.exception("stats: marking match %s stale failed", match_id)
        return
    if gid is not None:
        stats_enqueue(group_id=gid)


def stats_schedule_group(*, group_id: int) -> None:
    """Called after a change that affects a whole group (player merge, import). Never raises."""
    try:
        stats_mark_group_stale(group_id=group_id)
    except Exception:
        logger.exception("stats: marking group %s stale failed", group_id)
        return
    stats_enqueue(group_id=group_id)


# --- on-demand snapshots (dashboards and the API) -----------------------------------------------------------


def snapshot_request(
    *, scope: str, group_id: int, flt: StatsFilter, player_id: int | None = None, ruleset: str = ""
) -> Snapshot:
    """The snapshot for a scope and filter; a missing one is created stale and its computation queued."""
    key = snapshot_key(scope, group_id=group_id, player_id=player_id, ruleset=ruleset, flt=flt.key)
    snap, created = Snapshot.objects.get_or_create(
        key=key,
        defaults={
            "scope": scope,
            "group_id": group_id,
            "player_id": player_id,
            "ruleset": ruleset,
            "filter_key": flt.key,
        },
    )
    if created:  # an existing stale snapshot was queued by whoever marked it (or the catch-up will be)
        stats_enqueue(group_id=group_id)
        snap.refresh_from_db()
    return snap
