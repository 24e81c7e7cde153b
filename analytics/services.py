"""Analytics workflows: mark statistics stale, queue their recomputation, recompute, rebuild.

The flow after a change to a match or its rounds (``scoring``'s services call :func:`stats_match_changed` inside
the transaction that makes the change):

1. in that transaction, the match is recorded in ``StatsDirty`` (one upsert), so the record commits or rolls
   back with the change;
2. after the commit, the snapshots of its group, game and players (and of everyone whose rating the change can
   move) are flagged stale, one statement at a time, and a ``stats_refresh_group`` task is queued; when the
   broker is unreachable this is logged and skipped — the round is saved, the snapshots say they are stale, and
   the periodic :func:`stats_catch_up` redoes it (it finds the group through its ``StatsDirty`` rows and flags
   their snapshots again, so even a change whose after-commit step never ran is caught up);
3. :func:`stats_group_refresh` (in the worker) recomputes the dirty matches' standings, replays the affected
   ratings, then recomputes every stale snapshot of the group from SQL aggregates.  The aggregates are cached
   between refreshes (``analytics.grouprows``): a round entered into an open match reruns only the two live
   queries, a finished match the group-wide ones and its own game's.

:func:`stats_rebuild_all` recomputes everything from the scoring tables; it stores exactly what the
incremental path stores because both end in the same per-group computation (``payloads.build``).
"""

from __future__ import annotations

import contextlib
import logging
import socket
import time
from collections.abc import Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor, as_completed
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Case, Count, F, Q, Value, When
from django.utils import timezone

from scoring.models import Group, Match, Seat

from . import grouprows, payloads
from .models import MatchStanding, RatingHistory, Snapshot, StatsDirty, StatsRebuild, WorkerPing
from .ratings import ratings_replay
from .sql import vacuum_analyze
from .standings import standings_group_rebuild, standings_match_refresh
from .stats import ALL, StatsFilter, snapshot_key

logger = logging.getLogger(__name__)

# After a failed publish, do not try the broker again for this long (the catch-up covers the gap).
BROKER_BACKOFF_SECONDS = 30.0
_broker_down_until = 0.0
# The records of this many full rebuilds are kept (the admin shows them); older ones are deleted.
REBUILD_RUNS_KEPT = 30
# The first key of PostgreSQL's two-key advisory locks: one recomputation per group, one finish per rebuild run.
GROUP_LOCK = 7007
RUN_LOCK = 7008


def worker_ping_record(*, token: str) -> int:
    """Store a ping row once per token (safe to run twice)."""
    ping, _ = WorkerPing.objects.get_or_create(token=token, defaults={"worker": socket.gethostname()})
    return ping.pk


# --- marking stale (synchronous, in the request's on_commit) ------------------------------------------------


def _snapshot_defaults(*, group_id: int, players: Iterable[int], rulesets: Iterable[str]) -> None:
    """Make sure the unfiltered snapshots of a group, its games and players exist (as stale rows)."""
    flt = ALL.key
    wanted = [Snapshot(key=snapshot_key("group", group_id=group_id, flt=flt), scope="group", group_id=group_id)]
    wanted += [
        Snapshot(
            key=snapshot_key("game", group_id=group_id, ruleset=r, flt=flt), scope="game", group_id=group_id, ruleset=r
        )
        for r in sorted(set(rulesets))
    ]
    wanted += [
        Snapshot(
            key=snapshot_key("player", group_id=group_id, player_id=p, flt=flt),
            scope="player",
            group_id=group_id,
            player_id=p,
        )
        for p in sorted(set(players))
    ]
    Snapshot.objects.bulk_create(wanted, ignore_conflicts=True)


def _locked_update(query: Q, **values: Any) -> int:
    """Update the snapshots matching ``query``, locking them in id order first (one short transaction).

    Snapshot rows are shared by every writer of a group and by its refresh. A multi-row UPDATE locks its rows
    in whatever order its plan meets them, so two of them over the same rows can wait for each other, and
    PostgreSQL then aborts one after a second (the API benchmark logged dozens of such deadlocks). Every
    multi-row update of snapshots locks in id order instead: writers may wait, but never in a cycle.
    """
    with transaction.atomic():
        ids = list(Snapshot.objects.filter(query).order_by("pk").select_for_update().values_list("pk", flat=True))
        return Snapshot.objects.filter(pk__in=ids).update(**values) if ids else 0


def _mark(query: Q, **also: Any) -> int:
    """Flag the matching snapshots stale (a new stale_seq), setting ``also`` in the same statement."""
    return _locked_update(query, stale=True, stale_seq=F("stale_seq") + 1, **also)


def _rated_after(group_id: int, ruleset: str, since: Any) -> set[int]:
    """Players with a rating after match key ``since`` (their ratings move when that match changes)."""
    if since is None:
        return set()
    f, mid = since
    return set(
        RatingHistory.objects.filter(group_id=group_id, ruleset=ruleset)
        .filter(Q(finished_at__gt=f) | Q(finished_at=f, match_id__gte=mid))
        .values_list("player_id", flat=True)
        .distinct()
    )


def _dirty_record(*, group_id: int, match_id: int) -> None:
    """Record a changed match (or, with ``StatsDirty.WHOLE_GROUP``, a whole group) in one statement.

    A row that is already there gets a higher ``seq``, so that a refresh which read the older one leaves it
    in place (it deletes only the (id, seq) it saw).
    """
    table = connection.ops.quote_name(StatsDirty._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} (group_id, match_id, seq, marked_at) VALUES (%s, %s, 1, %s) "
            f"ON CONFLICT (group_id, match_id) DO UPDATE SET seq = {table}.seq + 1, marked_at = EXCLUDED.marked_at",
            [group_id, match_id, connection.ops.adapt_datetimefield_value(timezone.now())],
        )


def _mark_match(
    *,
    match_id: int,
    group_id: int,
    ruleset: str,
    finished_at: Any,
    players: Iterable[int],
    old: list[Any] | None = None,
) -> None:
    """Flag the snapshots a change to one match affects as stale: its group's, its game's, its players' and
    those of everyone rated after it in that game (their ratings replay)."""
    if old is None:
        old = list(MatchStanding.objects.filter(match_id=match_id).values("player_id", "finished_at"))
    affected = set(players) | {row["player_id"] for row in old}
    keys = [(row["finished_at"], match_id) for row in old[:1]]
    if finished_at is not None:
        keys.append((finished_at, match_id))
    affected |= _rated_after(group_id, ruleset, min(keys) if keys else None)
    _flag(group_id=group_id, rulesets={ruleset}, players=affected)


def _mark_returning(*, group_id: int, rulesets: set[str], players: set[int]) -> set[str]:
    """Flag the snapshots of the group, these games and players (every filter) stale, in one statement that
    also says which rows it flagged (their keys)."""
    table = connection.ops.quote_name(Snapshot._meta.db_table)
    where, params = ["(scope = %s AND group_id = %s)"], [True, "group", group_id]  # True: the SET's value
    if rulesets:
        where.append(f"(scope = %s AND group_id = %s AND ruleset IN ({', '.join(['%s'] * len(rulesets))}))")
        params += ["game", group_id, *sorted(rulesets)]
    if players:
        where.append(f"(scope = %s AND player_id IN ({', '.join(['%s'] * len(players))}))")
        params += ["player", *sorted(players)]
    condition = " OR ".join(where)
    if connection.vendor == "postgresql":  # lock in id order (see _locked_update), still one statement
        sql = (
            f"UPDATE {table} AS s SET stale = %s, stale_seq = s.stale_seq + 1 "
            f"FROM (SELECT id FROM {table} WHERE {condition} ORDER BY id FOR UPDATE) AS locked "
            "WHERE s.id = locked.id RETURNING s.key"
        )
    else:  # SQLite has no row locks: a writer holds the whole database
        sql = f"UPDATE {table} SET stale = %s, stale_seq = stale_seq + 1 WHERE {condition} RETURNING key"
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return {row[0] for row in cursor.fetchall()}


def _flag(*, group_id: int, rulesets: set[str], players: set[int]) -> None:
    """Flag the snapshots of the group, these games and players (and their filtered variants) stale, and
    create the unfiltered ones that do not exist yet (as stale rows).

    One statement on the round-entry path: the update says which rows it flagged, so the unfiltered rows are
    inserted only when one is missing (a group's, game's or player's first round).  A row created after the
    update is stale from the start, which is what flagging it would have made it.
    """
    flagged = _mark_returning(group_id=group_id, rulesets=rulesets, players=players)
    flt = ALL.key
    missing_games = {r for r in rulesets if snapshot_key("game", group_id=group_id, ruleset=r, flt=flt) not in flagged}
    missing_players = {
        p for p in players if snapshot_key("player", group_id=group_id, player_id=p, flt=flt) not in flagged
    }
    if missing_games or missing_players or snapshot_key("group", group_id=group_id, flt=flt) not in flagged:
        _snapshot_defaults(group_id=group_id, players=missing_players, rulesets=missing_games)


def stats_mark_stale(*, match_id: int, group_id: int | None = None) -> int | None:
    """Record a changed match and flag the snapshots it affects as stale; returns its group (or None)."""
    match = Match.objects.filter(pk=match_id).values("group_id", "ruleset", "state", "finished_at").first()
    old = list(
        MatchStanding.objects.filter(match_id=match_id).values("group_id", "ruleset", "player_id", "finished_at")
    )
    players: set[int] = set()
    finished_at = None
    if match is not None:
        group_id, ruleset = match["group_id"], match["ruleset"]
        players = set(Seat.objects.filter(match_id=match_id).values_list("player_id", flat=True))
        if match["state"] == Match.State.FINISHED:
            finished_at = match["finished_at"]
    elif old:
        group_id, ruleset = old[0]["group_id"], old[0]["ruleset"]
    elif group_id is not None:
        stats_mark_group_stale(group_id=group_id)
        return group_id
    else:
        logger.info("stats: match %s is gone and left no standings; nothing to mark", match_id)
        return None
    _dirty_record(group_id=group_id, match_id=match_id)
    _mark_match(
        match_id=match_id, group_id=group_id, ruleset=ruleset, finished_at=finished_at, players=players, old=old
    )
    return group_id


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


def stats_mark_group_stale(*, group_id: int) -> None:
    """Everything in a group must be recomputed (players merged, data imported)."""
    _dirty_record(group_id=group_id, match_id=StatsDirty.WHOLE_GROUP)
    _mark(Q(group_id=group_id))


# A refresh that is queued but has not started yet will see every change made before it starts, so while one is
# waiting (for a worker, or for the group's lock held by a running refresh) there is no need to queue another:
# under a stream of rounds into one group the workers then do one refresh per burst instead of one per round.
# The mark lives in the broker's Redis (shared by the web processes and the workers) and expires by itself, so a
# lost task costs at most this long.
QUEUED_MARK_SECONDS = 60
_redis_client: Any = None


def _queue_marks() -> Any:
    """The Redis holding the "refresh queued" marks, or None (Celery eager or no Redis: nothing is queued)."""
    global _redis_client
    from django.conf import settings

    from config.celery import app

    if app.conf.task_always_eager or not settings.REDIS_URL:
        return None
    if _redis_client is None:
        import redis

        _redis_client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=0.5, socket_connect_timeout=0.5)
    return _redis_client


_db_identity: dict[str, str] = {}


def _queued_key(group_id: int) -> str:
    """The mark's key: this database instance (its OID on PostgreSQL, so that marks left by a dropped and
    recreated database, such as the test database of an earlier run, cannot match) and the group."""
    name = str(connection.settings_dict["NAME"])
    if name not in _db_identity:
        identity = name
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT oid FROM pg_database WHERE datname = current_database()")
                identity = f"{name}.{cursor.fetchone()[0]}"
        _db_identity[name] = identity
    return f"stats:queued:{_db_identity[name]}:{group_id}"


def _queued_claim(group_id: int) -> bool:
    """True when this caller must queue the refresh (no refresh of the group is waiting for a worker)."""
    marks = _queue_marks()
    if marks is None:
        return True
    try:
        return bool(marks.set(_queued_key(group_id), 1, nx=True, ex=QUEUED_MARK_SECONDS))
    except Exception:  # Redis trouble: queue anyway (the publish will say whether the broker is there)
        return True


def _queued_release(group_id: int) -> None:
    """Called when a refresh starts (or could not be queued): later changes must queue a new one."""
    marks = _queue_marks()
    if marks is None:
        return
    try:
        marks.delete(_queued_key(group_id))
    except Exception as exc:
        logger.warning("stats: cannot clear the queued mark of group %s (%r); it expires by itself", group_id, exc)


def stats_enqueue(*, group_id: int) -> bool:
    """Queue the recomputation of a group; never raises (a broker outage is logged and caught up later).

    Returns False when nothing could be queued; True when a refresh is queued (by this call or an earlier one
    that has not started yet).
    """
    global _broker_down_until
    if time.monotonic() < _broker_down_until:
        logger.warning("stats: broker recently unreachable; group %s left stale for the catch-up", group_id)
        return False
    if not _queued_claim(group_id):
        return True
    from . import tasks

    try:
        tasks.stats_refresh_group.delay(group_id)
    except BROKER_ERRORS as exc:
        _queued_release(group_id)
        _broker_down_until = time.monotonic() + BROKER_BACKOFF_SECONDS
        logger.warning("stats: cannot queue the refresh of group %s (%r); the catch-up will do it", group_id, exc)
        return False
    except Exception:
        _queued_release(group_id)
        logger.exception("stats: refreshing group %s failed; the catch-up will retry", group_id)
        return False
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


# --- recomputation (in the worker) --------------------------------------------------------------------------


@contextlib.contextmanager
def _advisory_lock(kind: int, key: int) -> Iterator[None]:
    """A PostgreSQL session advisory lock on ``(kind, key)`` (nothing on SQLite, which runs tasks eagerly)."""
    if connection.vendor != "postgresql":
        yield
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_lock(%s, %s)", [kind, key])
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [kind, key])


def group_lock(group_id: int) -> contextlib.AbstractContextManager[None]:
    """One recomputation per group at a time."""
    return _advisory_lock(GROUP_LOCK, group_id)


def _progress(group_id: int, value: float) -> None:
    _locked_update(Q(group_id=group_id, computing=True), progress=value)


def _standing_key(match_id: int) -> tuple[Any, str, set[int]] | None:
    rows = list(MatchStanding.objects.filter(match_id=match_id).values("finished_at", "ruleset", "player_id"))
    if not rows:
        return None
    return (rows[0]["finished_at"], match_id), rows[0]["ruleset"], {r["player_id"] for r in rows}


def _mark_seated(group_id: int, match_ids: list[int]) -> None:
    """Flag the group's, the games' and the seated players' snapshots of these dirty matches as stale.

    The writer flags them right after its commit and only then queues a refresh; the catch-up does it again so
    that a round whose dirty record committed but whose flagging never ran (the process died, the database
    blinked) still reaches the dashboards. Moved ratings are flagged by the refresh's standings step.
    """
    seated = list(Seat.objects.filter(match_id__in=match_ids).values_list("player_id", "match__ruleset"))
    if not seated:
        return
    _flag(group_id=group_id, rulesets={r for _, r in seated}, players={p for p, _ in seated})


def _process_dirty(group_id: int) -> None:
    """Recompute the standings of the group's dirty matches and replay the ratings they affect.

    Gives the group a new standings token when any standing or rating may have moved (a dirty match that
    was or is finished); rounds of open matches leave the token, and so the cached aggregates, alone.
    """
    dirty = list(StatsDirty.objects.filter(group_id=group_id).values("id", "match_id", "seq"))
    if not dirty:
        return
    if any(d["match_id"] == StatsDirty.WHOLE_GROUP for d in dirty):
        grouprows.standings_version_bump(group_id)
        standings_group_rebuild(group_id=group_id)
        for ruleset in grouprows.rulesets_of(group_id):
            ratings_replay(group_id=group_id, ruleset=ruleset)
        _mark(Q(group_id=group_id))
    else:
        since: dict[str, Any] = {}
        moved: set[int] = set()
        for d in sorted(dirty, key=lambda d: d["match_id"]):
            before = _standing_key(d["match_id"])
            standings_match_refresh(match_id=d["match_id"])
            after = _standing_key(d["match_id"])
            for found in (before, after):
                if found is not None:
                    key, ruleset, players = found
                    since[ruleset] = min(since.get(ruleset, key), key)
                    moved |= players
        if since:
            grouprows.standings_version_bump(group_id, since)
        for ruleset, key in sorted(since.items()):
            moved |= _rated_after(group_id, ruleset, key)
            ratings_replay(group_id=group_id, ruleset=ruleset, since=key)
            moved |= _rated_after(group_id, ruleset, key)
        if moved:
            _snapshot_defaults(group_id=group_id, players=moved, rulesets=since)
            _mark(Q(scope="player", player_id__in=moved) | Q(scope="game", group_id=group_id, ruleset__in=since))
    for d in dirty:
        StatsDirty.objects.filter(pk=d["id"], seq=d["seq"]).delete()


def _refresh_snapshots(group_id: int, *, start: float = 0.0, threads: int = 1) -> int:
    """Recompute every stale snapshot of a group, one SQL pass per filter (its queries spread over ``threads``
    connections); returns how many were written."""
    stale = list(
        Snapshot.objects.filter(group_id=group_id, stale=True).values(
            "id", "scope", "player_id", "ruleset", "filter_key", "stale_seq"
        )
    )
    by_filter: dict[str, list[dict[str, Any]]] = {}
    for snap in stale:
        by_filter.setdefault(snap["filter_key"], []).append(snap)
    written = 0
    for i, (filter_key, snaps) in enumerate(sorted(by_filter.items())):
        try:
            flt = StatsFilter.parse(filter_key)
        except ValueError:
            Snapshot.objects.filter(pk__in=[s["id"] for s in snaps]).delete()
            continue
        built = payloads.build(
            grouprows.group_rows_cached(group_id, flt, threads=threads),
            players=[s["player_id"] for s in snaps if s["scope"] == "player"],
            games=[s["ruleset"] for s in snaps if s["scope"] == "game"],
        )
        now = timezone.now()
        # the pass's snapshots change together, in one commit rather than one each (each commit waits for its
        # WAL flush: the rebuild's 2 900 single-row commits cost it about 1 s). In id order, as _locked_update
        # locks, so that a writer flagging these snapshots meanwhile waits but never deadlocks with the pass
        with transaction.atomic():
            for snap in sorted(snaps, key=lambda snap: snap["id"]):
                if snap["scope"] == "group":
                    payload = built["group"]
                elif snap["scope"] == "game":
                    payload = built["games"][snap["ruleset"]]
                else:
                    payload = built["players"][snap["player_id"]]
                Snapshot.objects.filter(pk=snap["id"]).update(
                    payload=payload,
                    updated_at=now,
                    computing=False,
                    progress=1.0,
                    stale=Case(When(stale_seq=snap["stale_seq"], then=Value(False)), default=Value(True)),
                )
                written += 1
        _progress(group_id, start + (1.0 - start) * (i + 1) / len(by_filter))
    return written


def stats_group_refresh(*, group_id: int) -> int:
    """Bring a group's standings, ratings and stale snapshots up to date (idempotent); returns snapshots written.

    The "refresh queued" mark is cleared once this refresh holds the group's lock, just before it reads what
    changed: changes made while it waited for a running refresh of the group ride on it, so rounds arriving at a
    busy group queue one waiting refresh, not one each (releasing the mark before the wait let every round queue
    another refresh, and they filled the workers waiting for the same lock; the periodic catch-up and an expired
    mark can still add one).
    """
    if not Group.objects.filter(pk=group_id).exists():
        _queued_release(group_id)
        StatsDirty.objects.filter(group_id=group_id).delete()
        return 0
    with group_lock(group_id):
        _queued_release(group_id)  # from here on, a new change needs a new refresh
        _locked_update(Q(group_id=group_id, stale=True), computing=True, progress=0.0, computing_since=timezone.now())
        _process_dirty(group_id)
        _locked_update(Q(group_id=group_id, stale=True), computing=True)
        _progress(group_id, 0.3)
        written = _refresh_snapshots(group_id, start=0.3, threads=refresh_threads())
        _locked_update(Q(group_id=group_id, computing=True), computing=False)
    return written


def stats_catch_up() -> int:
    """Recompute whatever is stale or dirty (the periodic task; also what runs when the worker returns)."""
    dirty: dict[int, list[int]] = {}
    for group_id, match_id in StatsDirty.objects.values_list("group_id", "match_id"):
        dirty.setdefault(group_id, []).append(match_id)
    for group_id, match_ids in dirty.items():
        _mark_seated(group_id, match_ids)
    groups = set(dirty) | set(Snapshot.objects.filter(stale=True).values_list("group_id", flat=True).distinct())
    return sum(stats_group_refresh(group_id=gid) for gid in sorted(groups))


def stats_rebuild_group(*, group_id: int) -> int:
    """Recompute a group from scratch: standings, ratings and every snapshot."""
    with group_lock(group_id):
        seen = list(StatsDirty.objects.filter(group_id=group_id).values("id", "seq"))
        grouprows.standings_version_bump(group_id)
        standings_group_rebuild(group_id=group_id)
        for ruleset in grouprows.rulesets_of(group_id):
            ratings_replay(group_id=group_id, ruleset=ruleset)
        # order_by(): without it, Seat's default ordering made this one row per seat
        players = Seat.objects.filter(match__group_id=group_id).order_by().values_list("player_id", flat=True)
        rulesets = grouprows.match_rulesets(group_id)
        _snapshot_defaults(group_id=group_id, players=list(players.distinct()), rulesets=rulesets)
        _mark(Q(group_id=group_id), computing=True, progress=0.5, computing_since=timezone.now())  # one pass
        for d in seen:
            StatsDirty.objects.filter(pk=d["id"], seq=d["seq"]).delete()
        written = _refresh_snapshots(group_id, start=0.5)
        _locked_update(Q(group_id=group_id, computing=True), computing=False)
    return written


def _connections(configured: int) -> int:
    """``configured`` connections side by side, or one on SQLite or inside a transaction (where the other
    connections would not see this one's uncommitted data)."""
    if connection.vendor != "postgresql" or connection.in_atomic_block:
        return 1
    return max(1, int(configured))


def refresh_threads() -> int:
    """How many connections one group's refresh spreads its aggregate queries over (the round that finishes a
    match reruns the group-wide ones and its game's side by side). The full rebuild uses one: it already
    recomputes groups side by side."""
    return _connections(settings.STATS_REFRESH_THREADS)


def rebuild_threads() -> int:
    """How many groups the full rebuild recomputes side by side."""
    return _connections(settings.STATS_REBUILD_THREADS)


def _rebuild_part_in_thread(run_id: int, group_id: int) -> int:
    try:
        return stats_rebuild_part(run_id=run_id, group_id=group_id)
    finally:
        connection.close()  # this thread's own connection; nothing else would close it


def _rebuilt(run_id: int, groups: list[int], threads: int) -> Iterator[int]:
    """Rebuild the groups in order (one thread) or side by side; yields each group's snapshot count as it ends.

    A failed group stops the rebuild as it would in sequence: the groups not yet started are cancelled.
    """
    if threads <= 1:
        for group_id in groups:
            yield stats_rebuild_part(run_id=run_id, group_id=group_id)
        return
    with ThreadPoolExecutor(threads, thread_name_prefix="stats-rebuild") as pool:
        futures = [pool.submit(_rebuild_part_in_thread, run_id, group_id) for group_id in groups]
        try:
            for future in as_completed(futures):
                yield future.result()
        finally:
            for future in futures:
                future.cancel()


def stats_rebuild_begin(*, key: str | None = None) -> StatsRebuild:
    """Start a full rebuild: drop the derived rows of deleted groups and record every group as still to do,
    largest first (the largest take longest, so they start first and the run ends evenly). A run without groups
    is finished at once. With a ``key`` (the nightly task's id) already recorded, that run is returned as it
    stands: the task was redelivered and carries on with it."""
    if key is not None:
        found = StatsRebuild.objects.filter(key=key).first()
        if found is not None:
            return found
    groups = list(Group.objects.annotate(n=Count("matches")).order_by("-n", "id").values_list("id", flat=True))
    with transaction.atomic():
        live = Group.objects.values("id")
        MatchStanding.objects.exclude(group_id__in=live).delete()
        RatingHistory.objects.exclude(group_id__in=live).delete()
        StatsDirty.objects.exclude(group_id__in=live).delete()
        run = StatsRebuild.objects.create(key=key, groups=len(groups), pending=groups)
        old = StatsRebuild.objects.order_by("-pk").values_list("pk", flat=True)[REBUILD_RUNS_KEPT:]
        StatsRebuild.objects.filter(pk__in=list(old)).delete()
    if not groups:  # nothing to rebuild: the run is done at once
        _rebuild_finish(run.pk)
    return run


def _rebuild_pending(run_id: int, group_id: int) -> bool:
    pending = StatsRebuild.objects.filter(pk=run_id).values_list("pending", flat=True).first()
    return pending is not None and group_id in pending


def _rebuild_part_done(run_id: int, group_id: int) -> bool:
    """Take the group off the run's list; True when the list is empty and nobody has finished the run yet.

    The run's row is locked first, so that the last two groups, ending together, cannot both see the other
    one still pending: the second waits for the first's commit and then sees it.
    """
    with transaction.atomic():
        run = StatsRebuild.objects.select_for_update().filter(pk=run_id).first()
        if run is None:  # the record was deleted (by hand): nothing to finish
            return False
        if group_id in run.pending:
            run.pending = [g for g in run.pending if g != group_id]
            run.save(update_fields=["pending"])
        return not run.pending and run.finished_at is None


def stats_rebuild_part(*, run_id: int, group_id: int) -> int:
    """One group of a full rebuild; the part that ends the run vacuums the derived tables and finishes it.

    Safe to run twice: a group still pending is rebuilt (again, if a killed worker's attempt got part of the way),
    a group already done is not, and finishing a finished run does nothing. The group's lock is held from the
    check to the group's removal from the list (PostgreSQL's advisory locks nest within a session, so the
    rebuild takes it again), so a copy of the part queued twice, by a redelivered nightly task, waits for the
    running one and then finds its group done instead of rebuilding it a second time; the run's own lock does
    the same for the vacuum when both copies see the list empty.
    """
    written = 0
    with group_lock(group_id):
        if _rebuild_pending(run_id, group_id):
            written = stats_rebuild_group(group_id=group_id)
        last = _rebuild_part_done(run_id, group_id)
    if last:  # outside the group's lock: the vacuum takes a while, and the group's refreshes need not wait
        with _advisory_lock(RUN_LOCK, run_id):  # a copy of the last part waits here, then finds the run finished
            if StatsRebuild.objects.filter(pk=run_id, finished_at__isnull=True).exists():
                _rebuild_finish(run_id)
    return written


def _rebuild_finish(run_id: int) -> None:
    _vacuum_derived()
    StatsRebuild.objects.filter(pk=run_id, finished_at__isnull=True).update(finished_at=timezone.now())


def stats_rebuild_dispatch(*, key: str | None = None) -> StatsRebuild:
    """The nightly rebuild, spread over the workers: one ``stats_rebuild_part`` task per group on the
    ``stats-rebuild`` queue (which every worker also consumes, alternating with the refreshes of the default
    queue, so that dashboards stay fresh while it runs).

    ``key`` is the nightly task's id. Redelivered (its worker died while it queued the parts), the task finds
    its run and queues the parts of the groups still pending again; a part queued twice is harmless (a group
    already done is skipped), and no second run is started.
    """
    from . import tasks

    run = stats_rebuild_begin(key=key)
    for group_id in run.pending:
        tasks.stats_rebuild_part.delay(run.pk, group_id)
    return run


def stats_rebuild_all(*, progress: Any = None, threads: int | None = None) -> int:
    """The full rebuild in this process (``generate_history``, tests): every group from scratch, each group in
    one piece (bounded memory); returns the snapshots written.

    ``threads`` groups (default :func:`rebuild_threads`) are recomputed side by side, largest first: a
    group's work alternates between Python (replaying rounds, rating) and waiting for PostgreSQL's
    aggregates, so a second thread keeps the second core busy. Groups are independent; each runs under
    its own group lock, as in the sequential order. The workers run the same parts as separate tasks
    (:func:`stats_rebuild_dispatch`), in processes, which the GIL does not hold back.
    """
    run = stats_rebuild_begin()
    groups = list(run.pending)
    threads = min(rebuild_threads() if threads is None else threads, max(1, len(groups)))
    written = 0
    for i, count in enumerate(_rebuilt(run.pk, groups, threads)):
        written += count
        if progress is not None:
            progress(i + 1, len(groups))
    return written


def _vacuum_derived() -> None:
    """After rewriting every standing and rating: reclaim the old rows and refresh the planner's statistics.

    Until autovacuum gets there, the dead rows and a stale visibility map turned the index-only scans of the
    statistics queries into heap scans (the largest group's refresh took 1.8 s instead of 1.2 s).
    """
    vacuum_analyze([m._meta.db_table for m in (MatchStanding, RatingHistory, Snapshot)])


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
