"""Recomputation in the worker: one group's dirty standings, moved ratings and stale snapshots, under the
group's advisory lock; and the periodic catch-up over every group with stale or dirty rows."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Case, Q, Value, When
from django.utils import timezone

from scoring.models import Group, Seat

from .. import grouprows, payloads
from ..models import MatchStanding, Snapshot, StatsDirty
from ..ratings import ratings_replay
from ..standings import standings_group_rebuild, standings_match_refresh
from ..stats import StatsFilter
from .marking import _flag, _locked_update, _mark, _rated_after, _snapshot_defaults
from .scheduling import _queued_release

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
