"""Celery tasks of the scoring app: thin, ids in, a service call out."""

from __future__ import annotations

from celery import shared_task

from scoring.transfer import importing


@shared_task(name=importing.JOB_TASK, acks_late=True)
def group_import_job(job_id: str) -> str:
    """Import a large export document queued by ``importing.job_start`` (a second run of a job does nothing)."""
    return importing.job_run(job_id=job_id)
