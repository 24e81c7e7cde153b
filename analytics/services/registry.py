"""The Celery tasks the services queue, by name.

``analytics.tasks`` calls the services, so the services must not import it: the tasks module registers the
tasks the services queue here when it is imported (the analytics app imports it when Django is ready, and the
worker through Celery's autodiscovery), and the services look them up at the moment they queue one.
"""

from __future__ import annotations

from typing import Any

_tasks: dict[str, Any] = {}


def register(name: str, task: Any) -> None:
    _tasks[name] = task


def task(name: str) -> Any:
    """The registered task (a Celery task: ``.delay(...)`` queues it)."""
    try:
        return _tasks[name]
    except KeyError:
        raise LookupError(f"analytics task {name!r} is not registered (analytics.tasks registers it)") from None
