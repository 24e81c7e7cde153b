"""Recomputation in the worker: one group's dirty standings, moved ratings and stale snapshots, under the
group's advisory lock; and the periodic catch-up over every group with stale or dirty rows."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Case, Q, Value, When
from django.utils import timezone

from analytics.drawing import payloads
from analytics.models import MatchStanding, Snapshot, StatsDirty
from analytics.ratings.doubt import Backtests
from analytics.ratings.replay import ratings_replay
from analytics.services.extras import stats_extras_refresh
from analytics.services.marking import _flag, _group_update, _mark, _rated_after, _snapshot_defaults
from analytics.services.scheduling import _queued_release, refresh_started, spacing_left
from analytics.sql import grouprows
from analytics.sql.builder import rows
from analytics.standings import standings_group_rebuild, standings_match_refresh
from analytics.stats import StatsFilter
from scoring.models import Group, Match, Seat

# The first key of PostgreSQL's two-key advisory locks: one recomputation per group, one finish per rebuild run.
GROUP_LOCK = 7007
RUN_LOCK = 7008


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


def _table(model: Any) -> str:
    return str(connection.ops.quote_name(model._meta.db_table))


def group_lock(group_id: int) -> contextlib.AbstractContextManager[None]:
    """One recomputation per group at a time."""
    return _advisory_lock(GROUP_LOCK, group_id)


def _progress(group_id: int, value: float) -> None:
    _group_update(group_id, "computing", progress=value)


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
    dirty = rows(f"SELECT id, match_id, seq FROM {_table(StatsDirty)} WHERE group_id = %s", [group_id])
    if not dirty:
        return
    if any(d["match_id"] == StatsDirty.WHOLE_GROUP for d in dirty):
        grouprows.standings_version_bump(group_id)
        standings_group_rebuild(group_id=group_id)
        backtests = Backtests()  # the ratings' backtest, taken on the way
        for ruleset in grouprows.rulesets_of(group_id):
            ratings_replay(group_id=group_id, ruleset=ruleset, before=backtests.watch(ruleset))
        stats_extras_refresh(group_id=group_id, backtests=backtests)
        _mark(Q(group_id=group_id))
    else:
        since: dict[str, Any] = {}
        moved: set[int] = set()
        for match_id in _with_standings(dirty):
            before = _standing_key(match_id)
            standings_match_refresh(match_id=match_id)
            after = _standing_key(match_id)
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
        if since:
            stats_extras_refresh(group_id=group_id, rulesets=since)
        if moved:
            _snapshot_defaults(group_id=group_id, players=moved, rulesets=since)
            _mark(Q(scope="player", player_id__in=moved) | Q(scope="game", group_id=group_id, ruleset__in=since))
    _dirty_done(dirty)


def _with_standings(dirty: list[dict[str, Any]]) -> list[int]:
    """The dirty matches whose standings may change: the finished ones and those that had standings.  A round
    of an open match (most of the changes) leaves the standings, the ratings and their token as they are."""
    ids = [d["match_id"] for d in dirty]
    marks = ", ".join(["%s"] * len(ids))
    found = rows(
        f"SELECT id AS match_id FROM {_table(Match)} WHERE id IN ({marks}) AND state = %s "
        f"UNION SELECT match_id FROM {_table(MatchStanding)} WHERE match_id IN ({marks})",
        [*ids, Match.State.FINISHED.value, *ids],
    )
    return sorted({r["match_id"] for r in found})


def _dirty_done(dirty: list[dict[str, Any]]) -> None:
    """Delete the dirty records this refresh has dealt with (one statement); a record marked again since it was
    read (a higher seq) stays for the next refresh."""
    table = connection.ops.quote_name(StatsDirty._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"DELETE FROM {table} WHERE " + " OR ".join(["(id = %s AND seq = %s)"] * len(dirty)),
            [value for d in dirty for value in (d["id"], d["seq"])],
        )


def _payload_of(built: dict[str, Any], snap: dict[str, Any]) -> Any:
    if snap["scope"] == "group":
        return built["group"]
    if snap["scope"] == "game":
        return built["games"][snap["ruleset"]]
    return built["players"][snap["player_id"]]


def _write_payloads(entries: list[tuple[int, Any, int]]) -> int:
    """Store computed payloads, given as (snapshot id, payload, the stale_seq it was computed for); returns how
    many were written.  A snapshot flagged again since (a higher stale_seq) stays stale.

    The pass's snapshots change together, in one commit rather than one each (each commit waits for its WAL
    flush: the rebuild's 2 900 single-row commits cost it about 1 s).  On PostgreSQL in one statement that locks
    them in id order, as ``_locked_update`` does, so that a writer flagging these snapshots meanwhile waits but
    never deadlocks with the pass (one UPDATE a row, in a transaction, was a third of a small group's refresh).
    """
    if not entries:
        return 0
    now = timezone.now()
    if connection.vendor != "postgresql":
        with transaction.atomic():
            for pk, payload, seq in entries:
                Snapshot.objects.filter(pk=pk).update(
                    payload=payload,
                    updated_at=now,
                    computing=False,
                    progress=1.0,
                    stale=Case(When(stale_seq=seq, then=Value(False)), default=Value(True)),
                )
        return len(entries)
    field = Snapshot._meta.get_field("payload")
    table = connection.ops.quote_name(Snapshot._meta.db_table)
    values = ", ".join(["(%s::bigint, %s::jsonb, %s::integer)"] * len(entries))
    params: list[Any] = [connection.ops.adapt_datetimefield_value(now)]
    params += [pk for pk, _, _ in entries]
    for pk, payload, seq in entries:
        params += [pk, field.get_db_prep_value(payload, connection), seq]
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} SET payload = v.payload, updated_at = %s, computing = false, progress = 1.0, "
            f"stale = ({table}.stale_seq <> v.seq) "
            f"FROM (SELECT id FROM {table} WHERE id IN ({', '.join(['%s'] * len(entries))}) ORDER BY id FOR UPDATE) "
            f"AS locked, (VALUES {values}) AS v (id, payload, seq) "
            f"WHERE {table}.id = locked.id AND {table}.id = v.id",
            params,
        )
        return cursor.rowcount


def _refresh_snapshots(group_id: int, *, start: float = 0.0, threads: int = 1) -> int:
    """Recompute every stale snapshot of a group, one SQL pass per filter (its queries spread over ``threads``
    connections); returns how many were written."""
    stale = rows(
        f"SELECT id, scope, player_id, ruleset, filter_key, stale_seq FROM {_table(Snapshot)} "
        "WHERE group_id = %s AND stale",
        [group_id],
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
        written += _write_payloads([(snap["id"], _payload_of(built, snap), snap["stale_seq"]) for snap in snaps])
        if i + 1 < len(by_filter):  # the last pass's rows are at 1.0 now, and the refresh's end clears the rest
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
    if not rows(f"SELECT 1 AS found FROM {_table(Group)} WHERE id = %s", [group_id]):
        _queued_release(group_id)
        StatsDirty.objects.filter(group_id=group_id).delete()
        return 0
    # the statements of a small group's refresh are written as SQL here and in _group_update: their ORM form
    # cost more CPU than PostgreSQL's running them, and a refresh follows every round
    with group_lock(group_id):
        refresh_started(group_id)  # from here on, a new change needs a new refresh (spaced after this one)
        _group_update(group_id, "stale", computing=True, progress=0.0, computing_since=timezone.now())
        _process_dirty(group_id)
        # what the dirty matches flagged joins the computation, and all of it stands at 30 %
        _group_update(group_id, "stale OR computing", computing=True, progress=0.3)
        written = _refresh_snapshots(group_id, start=0.3, threads=refresh_threads())
        _group_update(group_id, "computing", computing=False, progress=1.0)
    return written


def stats_group_refresh_spaced(*, group_id: int) -> int:
    """The queued refresh of a group: waits out what is left of the group's spacing (``STATS_REFRESH_SPACING_MS``
    after its previous refresh started), then refreshes.  Rounds arriving meanwhile ride on it.

    The wait is here, in a task already taken from the broker, and not a countdown on the queued task: a countdown
    task sits unacknowledged in a worker for its whole countdown, and a worker that lost its Redis connection with
    one in hand stopped (kombu's return of unacknowledged messages failed on the closed connection; seen in
    ``tests/faults/test_redis_down.py``). The task is acknowledged late (issue 49) and so also unacknowledged while
    it waits here, a quarter of a second; ``config.celery.PromptReconnectConsumer`` keeps the worker going when that
    failure happens.
    """
    wait = spacing_left(group_id)
    if wait > 0:
        time.sleep(wait)
    return stats_group_refresh(group_id=group_id)


def stats_catch_up() -> int:
    """Recompute whatever is stale or dirty (the periodic task; also what runs when the worker returns)."""
    dirty: dict[int, list[int]] = {}
    for group_id, match_id in StatsDirty.objects.values_list("group_id", "match_id"):
        dirty.setdefault(group_id, []).append(match_id)
    for group_id, match_ids in dirty.items():
        _mark_seated(group_id, match_ids)
    groups = set(dirty) | set(Snapshot.objects.filter(stale=True).values_list("group_id", flat=True).distinct())
    return sum(stats_group_refresh(group_id=gid) for gid in sorted(groups))


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
