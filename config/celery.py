"""Celery application: Redis broker when REDIS_URL is set, eager in-process otherwise."""

import os
from typing import Any

from celery import Celery
from celery.signals import task_postrun, task_prerun

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

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
