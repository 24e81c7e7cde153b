"""Celery application: Redis broker when REDIS_URL is set, eager in-process otherwise."""

import functools
import logging
import os
from typing import Any

from celery import Celery, bootsteps
from celery.signals import task_postrun, task_prerun
from celery.worker.consumer import Consumer

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

logger = logging.getLogger(__name__)


app = Celery("scorekeeper")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@task_prerun.connect
@task_postrun.connect
def _database_connections(task: Any = None, **kwargs: Any) -> None:
    """Around every task a worker runs, what Django does around a request: close the connections that are past
    CONN_MAX_AGE, broken by an error, or in the wrong autocommit state, and check the rest's health before their
    next query; the others are reused (settings.CELERY_DB_REUSE_MAX keeps Celery from closing them all).
    Never for a task run eagerly, inside the caller's request or transaction."""
    if task is not None and getattr(task.request, "is_eager", False):
        return
    from django.db import close_old_connections

    close_old_connections()


class PromptReconnectConsumer(Consumer):
    """Celery's consumer, surviving a lost broker while it holds a task (below), and trying the broker again every
    one to two seconds. Celery's own waits grow by two
    seconds a try up to 30 s (2, 4, 6 …): after a minute's Redis outage a worker came back up to 12 s after Redis
    did, and statistics stayed stale that long (issue 49 asks for seconds). A try costs a refused or timed-out
    connection, nothing else. Selected by ``CELERY_WORKER_CONSUMER`` (config/settings.py)."""

    def on_connection_error_after_connected(self, exc: Exception) -> None:
        """Celery closes the lost connection after collecting its sockets, and kombu's close then tries to give the
        unacknowledged messages back through that collected connection: AttributeError ("'NoneType' object has no
        attribute 'hostname'"), which Celery takes for an unrecoverable error, and the worker stopped. It happened
        whenever Redis went away while the worker held a task acknowledged late (make faults-hosts). The messages
        are still in Redis's unacknowledged set and come back after the visibility timeout; the worker reconnects
        and queues the statistics catch-up (CatchUpOnConnect)."""
        try:
            super().on_connection_error_after_connected(exc)
        except AttributeError as error:
            logger.warning(
                "celery: the unacknowledged messages could not be given back on the lost connection (%r); they "
                "return after the visibility timeout",
                error,
            )

    def call_soon_ack(self, p: Any, *args: Any, **kwargs: Any) -> Any:
        """A task acknowledged late is acknowledged (or given back) when it is done, through the connection its
        message came on. If that connection was lost meanwhile, kombu's acknowledgement goes through the collected
        connection and raises the same AttributeError, which stopped the worker (make faults-hosts, once in four
        runs). The message stays unacknowledged in Redis and returns after the visibility timeout (every task is
        idempotent); the worker carries on."""

        def tolerant(*a: Any, **k: Any) -> Any:
            try:
                return p(*a, **k)
            except AttributeError as exc:
                logger.warning(
                    "celery: a task's message could not be acknowledged on its lost broker connection (%r); it "
                    "returns after the visibility timeout",
                    exc,
                )
                return None

        return super().call_soon_ack(tolerant, *args, **kwargs)

    def ensure_connected(self, conn: Any) -> Any:
        retry = conn.ensure_connection
        conn.ensure_connection = functools.partial(retry, interval_start=1, interval_step=1, interval_max=2)
        try:
            return super().ensure_connected(conn)
        finally:
            del conn.ensure_connection


class CatchUpOnConnect(bootsteps.StartStopStep):
    """Each time a worker connects to the broker (its start, and the broker's return after an outage) it queues
    the statistics catch-up: what was left stale meanwhile, rounds saved while the broker was away or a refresh
    held by a worker that was killed, is refreshed now instead of at beat's next minute (issue 49: ~49 s)."""

    requires = {"celery.worker.consumer.tasks:Tasks"}

    def start(self, parent: Any) -> None:
        try:
            parent.app.send_task("analytics.stats_catch_up", expires=55)
        except Exception as exc:  # the broker went away again: beat's catch-up, or the next connect, will do it
            logger.warning("stats: could not queue the catch-up on connecting (%r)", exc)


app.steps["consumer"].add(CatchUpOnConnect)
