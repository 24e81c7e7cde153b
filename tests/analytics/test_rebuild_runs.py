"""The full rebuild as one task per group: the run's record, redelivered parts, the run finished exactly once."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from random import Random
from typing import Any

import pytest
from django.conf import settings
from django.db import connection

from analytics import services, tasks
from analytics.models import MatchStanding, RatingHistory, Snapshot, StatsRebuild
from analytics.services import rebuild as runs
from config.celery import app
from tests.analytics.helpers import differences, make_table, play, snapshots


def _history(groups: int = 3) -> list[int]:
    rng = Random(11)
    ids = []
    for n in range(groups):
        table = make_table(f"table {n}")
        play(table, ("njet", "abluxxen", "coloretto")[n % 3], table.players[:4], rng, rounds=3)
        ids.append(table.group.pk)
    return ids


def _forget_derived() -> None:
    Snapshot.objects.update(payload={}, stale=True)
    MatchStanding.objects.all().delete()
    RatingHistory.objects.all().delete()


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[Any]]:
    """Count the groups rebuilt and the runs finished (the real functions still run)."""
    calls: dict[str, list[Any]] = {"rebuilt": [], "finished": []}
    rebuild, finish = runs.stats_rebuild_group, runs._rebuild_finish

    def rebuilt(*, group_id: int) -> int:
        calls["rebuilt"].append(group_id)
        return rebuild(group_id=group_id)

    def finished(run_id: int) -> None:
        calls["finished"].append(run_id)
        finish(run_id)

    monkeypatch.setattr(runs, "stats_rebuild_group", rebuilt)
    monkeypatch.setattr(runs, "_rebuild_finish", finished)
    return calls


@pytest.mark.django_db
def test_the_nightly_task_queues_one_part_per_group_on_the_rebuild_queue(counted: dict[str, list[Any]]) -> None:
    groups = _history()
    services.stats_rebuild_all()
    reference = snapshots()
    _forget_derived()
    counted["rebuilt"].clear()
    counted["finished"].clear()

    run_id = tasks.stats_rebuild_all.delay().get()  # eager here: every part runs inline as it is queued

    run = StatsRebuild.objects.get(pk=run_id)
    assert run.groups == 3 and run.pending == [] and run.finished_at is not None and run.progress == 1.0
    assert sorted(counted["rebuilt"]) == sorted(groups)
    assert counted["finished"] == [run_id]
    assert differences(snapshots(), reference) == []
    assert not Snapshot.objects.filter(stale=True).exists()
    route = app.amqp.router.route({}, tasks.stats_rebuild_part.name)
    assert route["queue"].name == settings.STATS_REBUILD_QUEUE == "stats-rebuild"
    # a worker started without -Q consumes the default queue and the rebuild's
    assert {q.name for q in app.conf.task_queues} == {app.conf.task_default_queue, "stats-rebuild"}
    assert tasks.stats_rebuild_part.acks_late


@pytest.mark.django_db
def test_a_part_is_safe_to_run_twice(counted: dict[str, list[Any]]) -> None:
    first, second = _history(2)
    run = services.stats_rebuild_begin()
    assert run.pending == [first, second] or run.pending == [second, first]

    services.stats_rebuild_part(run_id=run.pk, group_id=first)
    assert services.stats_rebuild_part(run_id=run.pk, group_id=first) == 0  # redelivered after it was done
    run.refresh_from_db()
    assert counted["rebuilt"] == [first] and run.pending == [second] and run.finished_at is None
    assert run.progress == 0.5

    assert services.stats_rebuild_part(run_id=run.pk, group_id=second) > 0
    services.stats_rebuild_part(run_id=run.pk, group_id=second)
    run.refresh_from_db()
    assert counted["rebuilt"] == [first, second]
    assert counted["finished"] == [run.pk] and run.finished_at is not None


@pytest.mark.django_db
def test_a_part_whose_worker_died_is_rebuilt_when_redelivered(
    counted: dict[str, list[Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    (group,) = _history(1)
    run = services.stats_rebuild_begin()
    rebuild = runs.stats_rebuild_group

    def dies(*, group_id: int) -> int:
        raise SystemExit("the worker is killed")

    monkeypatch.setattr(runs, "stats_rebuild_group", dies)
    with pytest.raises(SystemExit):
        services.stats_rebuild_part(run_id=run.pk, group_id=group)
    run.refresh_from_db()
    assert run.pending == [group] and run.finished_at is None

    monkeypatch.setattr(runs, "stats_rebuild_group", rebuild)
    assert services.stats_rebuild_part(run_id=run.pk, group_id=group) > 0
    run.refresh_from_db()
    assert run.pending == [] and run.finished_at is not None
    assert not Snapshot.objects.filter(stale=True).exists()


@pytest.mark.django_db(transaction=True)
def test_parts_ending_side_by_side_finish_the_run_once(counted: dict[str, list[Any]]) -> None:
    """Two threads, each on its own connection, end groups at about the same time; the run's row lock lets
    exactly one of them see the list empty."""
    for n in range(8):
        make_table(f"empty {n}")  # groups without matches: their parts end within milliseconds of each other
    services.stats_rebuild_all(threads=2)
    (run,) = StatsRebuild.objects.all()
    assert len(counted["rebuilt"]) == 8 and run.pending == []
    assert counted["finished"] == [run.pk] and run.finished_at is not None


@pytest.mark.django_db
def test_a_rebuild_of_no_groups_is_finished_at_once_and_old_runs_are_pruned() -> None:
    for _ in range(services.REBUILD_RUNS_KEPT + 5):
        services.stats_rebuild_dispatch()
    runs = StatsRebuild.objects.order_by("pk")
    assert runs.count() == services.REBUILD_RUNS_KEPT
    assert all(r.groups == 0 and r.finished_at is not None and r.progress == 1.0 for r in runs)
    assert runs.last().pk == max(StatsRebuild.objects.values_list("pk", flat=True))


@pytest.mark.django_db
def test_a_redelivered_nightly_task_carries_on_with_its_own_run(
    counted: dict[str, list[Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The worker dies while the nightly task queues the parts: redelivered with the same task id, the task
    queues the pending groups' parts again instead of starting a second run that the first would shadow."""
    groups = _history(3)
    queue = tasks.stats_rebuild_part.delay
    queued: list[int] = []

    def dies_after_one(run_id: int, group_id: int) -> Any:
        if queued:
            raise SystemExit("the worker is killed")
        queued.append(group_id)
        return queue(run_id, group_id)

    monkeypatch.setattr(tasks.stats_rebuild_part, "delay", dies_after_one)
    with pytest.raises(SystemExit):
        tasks.stats_rebuild_all.apply(task_id="nightly-1")
    (run,) = StatsRebuild.objects.all()
    assert run.key == "nightly-1" and len(run.pending) == 2 and run.finished_at is None
    assert counted["rebuilt"] == queued

    monkeypatch.setattr(tasks.stats_rebuild_part, "delay", queue)
    assert tasks.stats_rebuild_all.apply(task_id="nightly-1").get() == run.pk
    run.refresh_from_db()
    assert StatsRebuild.objects.count() == 1
    assert run.pending == [] and run.finished_at is not None and counted["finished"] == [run.pk]
    assert sorted(counted["rebuilt"]) == sorted(groups)

    # redelivered once more after it finished: nothing is queued, nothing is rebuilt, nothing started
    assert tasks.stats_rebuild_all.apply(task_id="nightly-1").get() == run.pk
    assert StatsRebuild.objects.count() == 1 and sorted(counted["rebuilt"]) == sorted(groups)
    # another night's task starts its own run
    assert tasks.stats_rebuild_all.apply(task_id="nightly-2").get() != run.pk


@pytest.mark.django_db(transaction=True)
def test_a_part_queued_twice_and_run_side_by_side_rebuilds_its_group_once(counted: dict[str, list[Any]]) -> None:
    """A redelivered nightly task queues again the parts still pending, one of which may be running: the copy
    waits for the group's lock and then finds the group done."""
    (group,) = _history(1)
    run = services.stats_rebuild_begin()
    barrier = threading.Barrier(2)

    def part() -> int:
        try:
            barrier.wait()
            return services.stats_rebuild_part(run_id=run.pk, group_id=group)
        finally:
            connection.close()

    with ThreadPoolExecutor(2) as pool:
        written = sorted(f.result() for f in [pool.submit(part), pool.submit(part)])
    run.refresh_from_db()
    assert counted["rebuilt"] == [group] and written[0] == 0 and written[1] > 0, (written, counted)
    assert run.pending == [] and counted["finished"] == [run.pk]
