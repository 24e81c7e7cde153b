"""The incremental path in-process (Celery eager): a saved round marks its snapshots stale and refreshes them;
with the broker down the round is still saved and the catch-up repairs the statistics."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Iterator
from random import Random
from typing import Any

import pytest
from django.db import connection, transaction

from analytics import services
from analytics.models import MatchStanding, RatingHistory, Snapshot, StatsDirty
from analytics.services import marking, scheduling
from analytics.services import rebuild as runs
from config.celery import app
from scoring import services as scoring
from scoring.models import Round
from tests.analytics.helpers import Table, abluxxen, differences, make_table, play, snapshots


@contextlib.contextmanager
def unreachable_broker() -> Iterator[None]:
    """Celery not eager and its broker an unreachable Redis (nothing listens on port 1).

    The app caches its connection and producer pools; they are set aside so that the dead URL is used.
    """
    old = (app.conf.task_always_eager, app.conf.broker_url, app._pool, app.amqp._producer_pool)
    app.conf.task_always_eager, app.conf.broker_url = False, "redis://127.0.0.1:1/0"
    app._pool = app.amqp._producer_pool = None
    try:
        yield
    finally:
        app.conf.task_always_eager, app.conf.broker_url, app._pool, app.amqp._producer_pool = old


@pytest.fixture
def broker_down() -> Iterator[None]:
    with unreachable_broker():
        yield


def test_saved_round_refreshes_its_snapshots(
    table: Table, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    a, b, c = table.players[:3]
    with django_capture_on_commit_callbacks(execute=True):
        abluxxen(table, [a, b, c], [10, 6, 4], [0, 2, 3])
    group = Snapshot.objects.get(key=f"group:{table.group.pk}|all")
    assert not group.stale and group.updated_at is not None and not group.computing
    assert group.payload["summary"]["matches"] == 1
    assert group.payload["summary"]["rounds_entered"] == 1
    assert Snapshot.objects.filter(scope="player", stale=False).count() == 3
    assert Snapshot.objects.get(key=f"game:{table.group.pk}:abluxxen|all").payload["players"][0]["player"] == a.pk
    assert not StatsDirty.objects.exists()


def test_broker_down_saves_the_round_marks_stale_and_catch_up_repairs(
    table: Table,
    django_capture_on_commit_callbacks: Callable[..., Any],
    caplog: pytest.LogCaptureFixture,
) -> None:
    a, b, c = table.players[:3]
    with django_capture_on_commit_callbacks(execute=True):
        abluxxen(table, [a, b, c], [10, 6, 4], [0, 2, 3])
    before = Snapshot.objects.get(key=f"group:{table.group.pk}|all").updated_at

    with (
        unreachable_broker(),
        caplog.at_level(logging.WARNING, logger="analytics.services"),
        django_capture_on_commit_callbacks(execute=True),
    ):
        abluxxen(table, [a, b, c], [3, 9, 7], [2, 0, 1])

    assert Round.objects.filter(match__group=table.group).count() == 2  # the round was saved
    assert "cannot queue the refresh" in caplog.text
    stale = Snapshot.objects.get(key=f"group:{table.group.pk}|all")
    assert stale.stale and stale.updated_at == before and stale.payload["summary"]["matches"] == 1
    assert StatsDirty.objects.filter(group_id=table.group.pk).exists()

    services.stats_catch_up()
    fresh = Snapshot.objects.get(key=f"group:{table.group.pk}|all")
    assert not fresh.stale and fresh.payload["summary"]["matches"] == 2
    assert not StatsDirty.objects.exists()


def test_broker_backoff_skips_publishing_for_a_while(table: Table, broker_down: None) -> None:
    assert services.stats_enqueue(group_id=table.group.pk) is False
    assert scheduling._broker_down_until > 0
    assert services.stats_enqueue(group_id=table.group.pk) is False  # no second wait on the dead broker


def test_editing_a_past_round_replays_ratings_like_a_rebuild(
    table: Table, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    rng = Random(5)
    with django_capture_on_commit_callbacks(execute=True):
        matches = [
            abluxxen(table, rng.sample(table.players, 4), [rng.randint(5, 9) for _ in range(4)], [0, 1, 2, 3])
            for _ in range(6)
        ]
    old = Round.objects.get(match=matches[1])
    with django_capture_on_commit_callbacks(execute=True):
        scoring.round_edit(
            round=old,
            facts={"front": [1, 2, 3, 20], "hand": [3, 2, 1, 0], "end": "out"},
            expected_version=1,
            user=table.owner,
        )
    incremental = list(
        RatingHistory.objects.order_by("match_id", "player_id").values_list(
            "match_id", "player_id", "rank", "mu", "sigma", "ordinal"
        )
    )
    winner = MatchStanding.objects.get(match_id=matches[1].pk, won=True)
    assert winner.seat == 3
    RatingHistory.objects.all().delete()
    MatchStanding.objects.all().delete()
    services.stats_rebuild_group(group_id=table.group.pk)
    rebuilt = list(
        RatingHistory.objects.order_by("match_id", "player_id").values_list(
            "match_id", "player_id", "rank", "mu", "sigma", "ordinal"
        )
    )
    assert incremental == rebuilt
    assert len(rebuilt) == 6 * 4
    for _m, _p, _r, mu, sigma, ordinal in rebuilt:
        assert ordinal == pytest.approx(mu - 3 * sigma)


def test_tied_players_get_equal_ratings(table: Table, django_capture_on_commit_callbacks: Callable[..., Any]) -> None:
    a, b, c = table.players[:3]
    with django_capture_on_commit_callbacks(execute=True):
        match = abluxxen(table, [a, b, c], [9, 9, 2], [1, 1, 0])  # a and b: 8 each, same hand; c went out with 2
    rows = {r.player_id: r for r in RatingHistory.objects.filter(match_id=match.pk)}
    assert rows[a.pk].rank == rows[b.pk].rank == 1 and rows[c.pk].rank == 3
    assert rows[a.pk].mu == rows[b.pk].mu and rows[a.pk].sigma == rows[b.pk].sigma
    assert rows[c.pk].mu < rows[a.pk].mu


def test_deleting_a_match_and_merging_players_rebuild_the_group(
    table: Table, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    a, b, c, d = table.players[:4]
    with django_capture_on_commit_callbacks(execute=True):
        first = abluxxen(table, [a, b, c], [10, 6, 4], [0, 2, 3])
        abluxxen(table, [a, b, d], [3, 9, 7], [2, 0, 1])
    with django_capture_on_commit_callbacks(execute=True):
        scoring.match_delete(match=first, expected_version=first.version, user=table.owner)
    assert not MatchStanding.objects.filter(match_id=first.pk).exists()
    assert Snapshot.objects.get(key=f"group:{table.group.pk}|all").payload["summary"]["matches"] == 1
    assert Snapshot.objects.get(key=f"player:{c.pk}|all").payload["overall"]["matches"] == 0
    with django_capture_on_commit_callbacks(execute=True):
        scoring.player_merge(source=d, target=c, user=table.owner)
    assert Snapshot.objects.get(key=f"player:{c.pk}|all").payload["overall"]["matches"] == 1
    assert not Snapshot.objects.filter(stale=True).exists()


def test_incremental_path_equals_the_full_rebuild(
    table: Table, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    """All eight games, edits, deletions, an undo, open and hand-finished matches, filtered snapshots."""
    rng = Random(11)
    p = table.players
    with django_capture_on_commit_callbacks(execute=True):
        for ruleset, seats in [
            ("njet", p[:4]), ("mue", p[:5]), ("meinz", p[1:5]), ("was-sticht", p[2:6]), ("sticheln", p[:5]),
            ("abluxxen", p[:3]), ("muzicando", p[:4]), ("coloretto", p[2:6]), ("njet", p[1:4]), ("mue", p[1:6]),
        ]:  # fmt: skip
            play(table, ruleset, seats, rng)
        unfinished = play(table, "sticheln", p[:4], rng, rounds=2)
        manual = play(table, "meinz", p[:4], rng, rounds=3)
    services.snapshot_request(scope="group", group_id=table.group.pk, flt=services.StatsFilter(players=4))
    with django_capture_on_commit_callbacks(execute=True):
        scoring.match_finish(match=manual, expected_version=manual.version, user=table.owner)
        njet_round = Round.objects.filter(match__ruleset="njet").order_by("id").first()
        assert njet_round is not None
        scoring.round_delete(round=njet_round, expected_version=njet_round.version, user=table.owner)
        njet_round.refresh_from_db()
        scoring.round_undo(round=njet_round, user=table.owner)
        last = Round.objects.filter(match=unfinished).order_by("-number").first()
        assert last is not None
        scoring.round_delete(round=last, expected_version=last.version, user=table.owner)
    assert not Snapshot.objects.filter(stale=True).exists()
    incremental = snapshots()
    assert len(incremental) >= 1 + 8 + 6 + 1

    Snapshot.objects.update(payload={}, stale=True)
    MatchStanding.objects.all().delete()
    RatingHistory.objects.all().delete()
    services.stats_rebuild_all()
    assert differences(snapshots(), incremental) == []


def test_a_deleted_match_is_found_through_its_standings(
    table: Table, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    """stats_schedule(match_id, group_id) after a deletion: only that game's ratings replay, from that match on."""
    a, b, c, d = table.players[:4]
    with django_capture_on_commit_callbacks(execute=True):
        first = abluxxen(table, [a, b, c], [10, 6, 4], [0, 2, 3])
        abluxxen(table, [a, b, d], [3, 9, 7], [2, 0, 1])
    gone = first.pk
    first.delete()
    services.stats_schedule(match_id=gone, group_id=table.group.pk)
    assert not MatchStanding.objects.filter(match_id=gone).exists()
    assert not RatingHistory.objects.filter(match_id=gone).exists()
    assert Snapshot.objects.get(key=f"player:{c.pk}|all").payload["overall"]["matches"] == 0
    incremental = snapshots()
    services.stats_rebuild_all()
    assert differences(snapshots(), incremental) == []


def test_beat_runs_the_catch_up_every_minute_and_a_nightly_rebuild() -> None:
    from django.conf import settings

    from analytics import tasks

    schedule = {entry["task"]: entry["schedule"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert schedule[tasks.stats_catch_up.name] == 60.0
    assert tasks.stats_rebuild_all.name in schedule
    assert tasks.stats_catch_up.acks_late
    # the refresh is acknowledged when done, and given back when its worker process dies (issue 49: one lost with
    # acknowledgement at the start); tests/faults/test_broker_return.py kills a pool process holding one
    assert tasks.stats_refresh_group.acks_late and settings.CELERY_TASK_REJECT_ON_WORKER_LOST


def _queued_refreshes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The groups whose refresh is queued from here on, instead of publishing them."""
    from analytics import tasks

    queued: list[int] = []
    monkeypatch.setattr(tasks.stats_refresh_group, "delay", queued.append)
    return queued


def test_a_refresh_waiting_for_a_worker_is_not_queued_twice(
    table: Table, django_capture_on_commit_callbacks: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rounds arriving while a refresh of their group waits in the queue ride on it; once it starts, the next
    round queues a new one.  The mark is in the broker's Redis, shared by web processes and workers."""
    queued = _queued_refreshes(monkeypatch)
    monkeypatch.setattr(scheduling.settings, "STATS_REFRESH_SPACING_MS", 0)
    scheduling._queued_release(table.group.pk)
    a, b, c = table.players[:3]
    old, app.conf.task_always_eager = app.conf.task_always_eager, False
    try:
        assert scheduling._queue_marks() is not None, "needs REDIS_URL (the tests run against a real Redis)"
        with django_capture_on_commit_callbacks(execute=True):
            abluxxen(table, [a, b, c], [10, 6, 4], [0, 2, 3])
        with django_capture_on_commit_callbacks(execute=True):
            abluxxen(table, [a, b, c], [3, 9, 7], [2, 0, 1])
        assert queued == [table.group.pk]  # the second round found the first refresh still waiting
        assert Snapshot.objects.get(key=f"group:{table.group.pk}|all").stale
        services.stats_group_refresh(group_id=table.group.pk)  # the worker takes it: both rounds are in
        assert Snapshot.objects.get(key=f"group:{table.group.pk}|all").payload["summary"]["matches"] == 2
        with django_capture_on_commit_callbacks(execute=True):
            abluxxen(table, [a, b, c], [5, 5, 5], [0, 1, 1])
        assert queued == [table.group.pk] * 2
    finally:
        app.conf.task_always_eager = old
        scheduling._queued_release(table.group.pk)


def test_a_busy_groups_next_refresh_starts_a_spacing_after_the_last_one(
    table: Table, django_capture_on_commit_callbacks: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A quiet group's queued refresh runs at once; one queued by a round that follows a refresh start within the
    spacing first waits out the rest of it (later rounds ride on it).  Another group is not held back."""
    from analytics.services import refresh

    queued = _queued_refreshes(monkeypatch)
    slept: list[float] = []
    monkeypatch.setattr(refresh.time, "sleep", slept.append)
    monkeypatch.setattr(scheduling.settings, "STATS_REFRESH_SPACING_MS", 20_000)  # far longer than the test takes
    group = table.group.pk
    other = make_table().group.pk
    a, b, c = table.players[:3]
    old, app.conf.task_always_eager = app.conf.task_always_eager, False
    marks = scheduling._queue_marks()
    try:
        assert marks is not None, "needs REDIS_URL (the tests run against a real Redis)"
        for g in (group, other):
            marks.delete(scheduling._queued_key(g), scheduling._mark_key("started", g))
        with django_capture_on_commit_callbacks(execute=True):
            abluxxen(table, [a, b, c], [10, 6, 4], [0, 2, 3])
        assert queued == [group]
        services.stats_group_refresh_spaced(group_id=group)  # a worker takes it: a quiet group, no wait
        assert slept == []
        with django_capture_on_commit_callbacks(execute=True):
            abluxxen(table, [a, b, c], [3, 9, 7], [2, 0, 1])
        with django_capture_on_commit_callbacks(execute=True):
            abluxxen(table, [a, b, c], [5, 5, 5], [0, 1, 1])
        assert queued == [group, group]  # the third round rode on the second's refresh
        services.stats_group_refresh_spaced(group_id=group)
        assert len(slept) == 1 and 10.0 < slept[0] <= 20.0, slept  # the rest of the spacing, then the refresh
        assert Snapshot.objects.get(key=f"group:{group}|all").payload["summary"]["matches"] == 3
        assert not Snapshot.objects.get(key=f"group:{group}|all").stale
        services.stats_group_refresh_spaced(group_id=other)
        assert len(slept) == 1  # the other group did not wait
    finally:
        app.conf.task_always_eager = old
        for g in (group, other):
            if marks is not None:
                marks.delete(scheduling._queued_key(g), scheduling._mark_key("started", g))


ROUND = {"front": [10, 6, 4], "hand": [0, 2, 3], "end": "out"}


def _open_match(table: Table) -> Any:
    a, b, c = table.players[:3]
    return scoring.match_create(
        group=table.group, ruleset="abluxxen", options={"games": 5}, player_ids=[a.pk, b.pk, c.pk], user=table.owner
    )


def test_the_dirty_record_commits_and_rolls_back_with_the_round(
    table: Table, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    match = _open_match(table)
    with pytest.raises(RuntimeError), transaction.atomic():
        scoring.round_record(match=match, facts=ROUND, user=table.owner)
        raise RuntimeError("the request fails after the write")
    assert not Round.objects.filter(match=match).exists()
    assert not StatsDirty.objects.filter(match_id=match.pk).exists()

    with django_capture_on_commit_callbacks(execute=False) as after_commit:
        scoring.round_record(match=match, facts=ROUND, user=table.owner)
        scoring.round_record(match=match, facts=ROUND, user=table.owner)
    # written inside the round's transaction, before anything that runs after the commit
    assert StatsDirty.objects.get(group_id=table.group.pk, match_id=match.pk).seq == 2
    # per round one statistics hook and one live push to the other phones (REDIS_URL is set here), nothing else
    assert sorted(hook.__qualname__.split(".")[0] for hook in after_commit) == [
        "publish_after_commit",
        "publish_after_commit",
        "stats_match_changed",
        "stats_match_changed",
    ]


def test_a_round_whose_stale_flags_were_lost_still_reaches_the_dashboard(
    table: Table, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    """The web process dies right after its commit: the snapshots were never flagged and nothing was queued.
    The dirty record committed with the round, so the periodic catch-up finds the group and the refresh
    flags and recomputes what the round changed."""
    match = _open_match(table)
    with django_capture_on_commit_callbacks(execute=True):
        scoring.round_record(match=match, facts=ROUND, user=table.owner)
    key = f"group:{table.group.pk}|all"
    assert Snapshot.objects.get(key=key).payload["summary"]["rounds_entered"] == 1

    with django_capture_on_commit_callbacks(execute=False):  # the hooks never run
        scoring.round_record(match=match, facts=ROUND, user=table.owner)
    lost = Snapshot.objects.get(key=key)
    assert not lost.stale and lost.payload["summary"]["rounds_entered"] == 1

    services.stats_catch_up()

    caught_up = Snapshot.objects.get(key=key)
    assert not caught_up.stale and caught_up.payload["summary"]["rounds_entered"] == 2
    assert not StatsDirty.objects.exists()


def test_flagging_creates_the_missing_rows_and_flags_every_filter_once(table: Table) -> None:
    """One UPDATE flags the group's, the game's and the players' snapshots under every filter; the unfiltered
    rows that do not exist yet are created stale, and a row that exists is never duplicated."""
    a, b, c = table.players[:3]
    gid = table.group.pk
    Snapshot.objects.create(key=f"group:{gid}|y2025", scope="group", group_id=gid, filter_key="y2025", stale=False)
    Snapshot.objects.create(key=f"player:{a.pk}|all", scope="player", group_id=gid, player_id=a.pk, stale=False)
    Snapshot.objects.create(key=f"player:{c.pk}|all", scope="player", group_id=gid, player_id=c.pk, stale=False)

    marking._flag(group_id=gid, rulesets={"abluxxen"}, players={a.pk, b.pk})

    rows = {s.key: (s.stale, s.stale_seq) for s in Snapshot.objects.all()}
    assert rows == {
        f"group:{gid}|y2025": (True, 1),  # a filtered variant: flagged
        f"player:{a.pk}|all": (True, 1),  # existed: flagged
        f"player:{c.pk}|all": (False, 0),  # not seated: left alone
        f"group:{gid}|all": (True, 0),  # created stale
        f"game:{gid}:abluxxen|all": (True, 0),
        f"player:{b.pk}|all": (True, 0),
    }

    marking._flag(group_id=gid, rulesets={"abluxxen"}, players={a.pk, b.pk})
    assert Snapshot.objects.count() == 6
    assert Snapshot.objects.get(key=f"group:{gid}|all").stale_seq == 1
    assert Snapshot.objects.get(key=f"player:{a.pk}|all").stale_seq == 2


@pytest.mark.django_db(transaction=True)
def test_the_stale_flags_are_set_outside_any_transaction(table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """The group's and the game's snapshot rows are flagged by every writer of the group and rewritten by its
    refresh. Each flagging statement commits on its own, so no writer holds those row locks while it waits for
    another; wrapped in one transaction the API benchmark deadlocked (65 times in PostgreSQL's log)."""
    inside: list[bool] = []
    mark = marking._mark_returning

    def spy(**kwargs: Any) -> set[str]:
        inside.append(connection.in_atomic_block)
        return mark(**kwargs)

    monkeypatch.setattr(marking, "_mark_returning", spy)
    scoring.round_record(match=_open_match(table), facts=ROUND, user=table.owner)  # commits: the hooks run

    assert inside, "the round flagged nothing"
    assert not any(inside)


def _derived() -> tuple[dict[str, Any], list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    standings = list(
        MatchStanding.objects.order_by("match_id", "seat").values_list("match_id", "player_id", "total", "rank", "won")
    )
    ratings = list(
        RatingHistory.objects.order_by("match_id", "player_id").values_list("match_id", "player_id", "mu", "sigma")
    )
    return snapshots(), standings, ratings


@pytest.mark.django_db(transaction=True)
def test_the_threaded_rebuild_equals_the_sequential_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """The nightly rebuild recomputes groups side by side in threads, each on its own connection (which needs
    committed data: the other tests run inside a transaction, so they take the sequential path)."""
    from tests.analytics.helpers import make_table

    rng = Random(7)
    for n, games in enumerate((("njet", "abluxxen"), ("coloretto",), ("meinz", "njet", "coloretto"))):
        table = make_table(f"table {n}")
        for ruleset in games:
            play(table, ruleset, table.players[: 3 + n % 2], rng, rounds=4)
    assert services.rebuild_threads() == 2

    services.stats_rebuild_all(threads=1)
    sequential = _derived()
    assert len(sequential[1]) > 0 and len(sequential[2]) > 0

    Snapshot.objects.update(payload={}, stale=True)
    MatchStanding.objects.all().delete()
    RatingHistory.objects.all().delete()
    threads: set[str] = set()
    rebuild_group = runs.stats_rebuild_group

    def spy(*, group_id: int) -> int:
        import threading

        threads.add(threading.current_thread().name)
        return rebuild_group(group_id=group_id)

    monkeypatch.setattr(runs, "stats_rebuild_group", spy)
    done: list[tuple[int, int]] = []
    services.stats_rebuild_all(progress=lambda i, total: done.append((i, total)))
    assert len(threads) == 2 and all(name.startswith("stats-rebuild") for name in threads)
    assert done == [(1, 3), (2, 3), (3, 3)]
    threaded = _derived()
    assert differences(threaded[0], sequential[0]) == []
    assert threaded[1:] == sequential[1:]
    assert not Snapshot.objects.filter(stale=True).exists()


@pytest.mark.django_db(transaction=True)
def test_a_failing_group_stops_the_threaded_rebuild(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first group fails at once while the others take a while: the error reaches the caller and the
    groups not yet started are never started (as in the sequential order, a failure ends the rebuild)."""
    import time

    from tests.analytics.helpers import make_table

    groups = [make_table(f"table {n}").group.pk for n in range(6)]
    started: list[int] = []

    def broken(*, group_id: int) -> int:
        started.append(group_id)
        if group_id == groups[0]:
            raise RuntimeError(f"group {group_id} is broken")
        time.sleep(0.3)
        return 0

    monkeypatch.setattr(runs, "stats_rebuild_group", broken)
    with pytest.raises(RuntimeError, match="is broken"):
        services.stats_rebuild_all(threads=2)
    assert groups[0] in started and len(started) <= 3, started
