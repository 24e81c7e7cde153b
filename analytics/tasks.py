"""Celery tasks: thin, idempotent, ids in, a service call out. Every one is acknowledged late and rejected back to
the queue when its worker process dies (``CELERY_TASK_REJECT_ON_WORKER_LOST``): a pool process killed mid-task
leaves the task to run again at once; a whole worker killed leaves it unacknowledged in Redis until the visibility
timeout, and a worker's start queues a catch-up meanwhile (config/celery.py).

The services queue the refresh and rebuild-part tasks through ``services.registry`` (registered at the end of
this module), so that they never import this module: the tasks call the services, not the other way round.
"""

from __future__ import annotations

from celery import Task, shared_task

from analytics import services
from analytics.services import registry


@shared_task(name="analytics.worker_ping", acks_late=True)
def worker_ping(token: str) -> int:
    return services.worker_ping_record(token=token)


@shared_task(name="analytics.stats_refresh_group", acks_late=True)
def stats_refresh_group(group_id: int) -> int:
    """Recompute a group's dirty standings/ratings and stale snapshots (safe to run twice), after the group's
    refresh spacing.  Acknowledged when done: a refresh whose worker process is killed is run again (issue 49 found
    one lost with acknowledgement at the start, hidden by the catch-up). A worker holding it when Redis goes away
    keeps running (tests/faults/test_redis_down.py); the spacing waits in the task, not as a countdown, which did
    kill such a worker (see ``services.stats_group_refresh_spaced``)."""
    return services.stats_group_refresh_spaced(group_id=group_id)


@shared_task(name="analytics.stats_catch_up", acks_late=True)
def stats_catch_up() -> int:
    """Periodic: recompute everything stale (covers rounds saved while the broker or worker was down)."""
    return services.stats_catch_up()


@shared_task(name="analytics.stats_rebuild_all", acks_late=True, bind=True)
def stats_rebuild_all(self: Task) -> int:
    """Nightly: rebuild every standing, rating and snapshot from the scoring tables, one task per group
    (``stats_rebuild_part``, spread over the workers); returns the run's id. The run is keyed by this task's
    id, so a redelivery carries on with it."""
    return services.stats_rebuild_dispatch(key=self.request.id).pk


@shared_task(name="analytics.stats_rebuild_part", acks_late=True)
def stats_rebuild_part(run_id: int, group_id: int) -> int:
    """One group of a full rebuild (safe to run twice); the last one vacuums and finishes the run."""
    return services.stats_rebuild_part(run_id=run_id, group_id=group_id)


registry.register("stats_refresh_group", stats_refresh_group)
registry.register("stats_catch_up", stats_catch_up)
registry.register("stats_rebuild_part", stats_rebuild_part)
