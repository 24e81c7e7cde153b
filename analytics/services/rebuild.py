"""Full rebuilds: one group from scratch, and the runs (``StatsRebuild``) that rebuild every group, in this
process (side by side in threads) or spread over the workers (one ``stats_rebuild_part`` task per group)."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor, as_completed
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Count, Q
from django.utils import timezone

from analytics.models import MatchStanding, RatingHistory, Snapshot, StatsDirty, StatsRebuild
from analytics.ratings.doubt import Backtests
from analytics.ratings.replay import ratings_replay
from analytics.services import registry
from analytics.services.extras import stats_extras_refresh
from analytics.services.marking import _group_update, _mark, _snapshot_defaults
from analytics.services.refresh import RUN_LOCK, _advisory_lock, _connections, _refresh_snapshots, group_lock
from analytics.sql import grouprows
from analytics.sql.builder import vacuum_analyze
from analytics.standings import standings_group_rebuild
from scoring.models import Group, Seat

# The records of this many full rebuilds are kept (the admin shows them); older ones are deleted.
REBUILD_RUNS_KEPT = 30


def stats_rebuild_group(*, group_id: int) -> int:
    """Recompute a group from scratch: standings, ratings and every snapshot."""
    with group_lock(group_id):
        seen = list(StatsDirty.objects.filter(group_id=group_id).values("id", "seq"))
        grouprows.standings_version_bump(group_id)
        standings_group_rebuild(group_id=group_id)
        backtests = Backtests()  # the ratings' backtest, taken on the way
        for ruleset in grouprows.rulesets_of(group_id):
            ratings_replay(group_id=group_id, ruleset=ruleset, before=backtests.watch(ruleset))
        stats_extras_refresh(group_id=group_id, backtests=backtests)
        # order_by(): without it, Seat's default ordering made this one row per seat
        players = Seat.objects.filter(match__group_id=group_id).order_by().values_list("player_id", flat=True)
        rulesets = grouprows.match_rulesets(group_id)
        _snapshot_defaults(group_id=group_id, players=list(players.distinct()), rulesets=rulesets)
        _mark(Q(group_id=group_id), computing=True, progress=0.5, computing_since=timezone.now())  # one pass
        for d in seen:
            StatsDirty.objects.filter(pk=d["id"], seq=d["seq"]).delete()
        written = _refresh_snapshots(group_id, start=0.5)
        _group_update(group_id, "computing", computing=False)
    return written


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
    part = registry.task("stats_rebuild_part")
    run = stats_rebuild_begin(key=key)
    for group_id in run.pending:
        part.delay(run.pk, group_id)
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
