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
   between refreshes (``analytics.sql.grouprows``): a round entered into an open match reruns only the two live
   queries, a finished match the group-wide ones and its own game's.

:func:`stats_rebuild_all` recomputes everything from the scoring tables; it stores exactly what the
incremental path stores because both end in the same per-group computation (``payloads.build``).

This package is the public face of those workflows; the work is split by responsibility:

- :mod:`.marking`: record a changed match and flag the snapshots it affects stale (in the request);
- :mod:`.scheduling`: queue a group's refresh once (Redis mark, broker back-off), on-demand snapshots;
- :mod:`.refresh`: the group's recomputation in the worker, its advisory lock, the periodic catch-up;
- :mod:`.rebuild`: a group from scratch and the full rebuild runs (in this process or over the workers);
- :mod:`.health`: the worker ping;
- :mod:`.registry`: the Celery tasks the services queue, registered by ``analytics.tasks`` (which imports the
  services, never the other way round).

Import from here (``from analytics import services``); a test that patches a name patches it in the module that
defines it, which is where the others look it up.
"""

from __future__ import annotations

from analytics.services.health import worker_ping_record
from analytics.services.marking import stats_mark_group_stale, stats_mark_stale
from analytics.services.rebuild import (
    REBUILD_RUNS_KEPT,
    rebuild_threads,
    stats_rebuild_all,
    stats_rebuild_begin,
    stats_rebuild_dispatch,
    stats_rebuild_group,
    stats_rebuild_part,
)
from analytics.services.refresh import (
    GROUP_LOCK,
    RUN_LOCK,
    group_lock,
    refresh_threads,
    stats_catch_up,
    stats_group_refresh,
    stats_group_refresh_spaced,
)
from analytics.services.scheduling import (
    BROKER_BACKOFF_SECONDS,
    BROKER_ERRORS,
    QUEUED_MARK_SECONDS,
    snapshot_request,
    stats_enqueue,
    stats_match_changed,
    stats_schedule,
    stats_schedule_group,
)
from analytics.stats import StatsFilter

__all__ = [
    "BROKER_BACKOFF_SECONDS",
    "BROKER_ERRORS",
    "GROUP_LOCK",
    "QUEUED_MARK_SECONDS",
    "REBUILD_RUNS_KEPT",
    "RUN_LOCK",
    "StatsFilter",
    "group_lock",
    "rebuild_threads",
    "refresh_threads",
    "snapshot_request",
    "stats_catch_up",
    "stats_enqueue",
    "stats_group_refresh",
    "stats_group_refresh_spaced",
    "stats_mark_group_stale",
    "stats_mark_stale",
    "stats_match_changed",
    "stats_rebuild_all",
    "stats_rebuild_begin",
    "stats_rebuild_dispatch",
    "stats_rebuild_group",
    "stats_rebuild_part",
    "stats_schedule",
    "stats_schedule_group",
    "worker_ping_record",
]
