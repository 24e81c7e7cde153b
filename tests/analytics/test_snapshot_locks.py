"""Snapshot rows are shared by every writer of a group and by its refresh, so every multi-row update of them
locks the rows in id order: two such updates may wait for each other's rows, but never in a cycle (before,
the API benchmark logged dozens of PostgreSQL deadlocks a minute, each costing a request a second).

Each test holds the lowest-id row from another connection, starts the update in a thread, waits until it is
blocked, and then checks that the highest-id row is still free: an update that locks in id order cannot have
taken it yet. The lowest-id row is rewritten first, so that a plan visiting the rows in their physical or index
order would meet it last (and would have locked the others already)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import DatabaseError, connection
from django.db.models import Q

from analytics.models import Snapshot
from analytics.services import marking
from tests.analytics.helpers import Table, make_table, run_until_blocked

pytestmark = pytest.mark.django_db(transaction=True)


def _rows(table: Table) -> list[int]:
    gid = table.group.pk
    a, b = table.players[:2]
    for key, scope, extra in (
        (f"group:{gid}|all", "group", {}),
        (f"game:{gid}:abluxxen|all", "game", {"ruleset": "abluxxen"}),
        (f"player:{a.pk}|all", "player", {"player_id": a.pk}),
        (f"player:{b.pk}|all", "player", {"player_id": b.pk}),
    ):
        Snapshot.objects.create(key=key, scope=scope, group_id=gid, stale=False, **extra)
    ids = sorted(Snapshot.objects.filter(group_id=gid).values_list("pk", flat=True))
    for n in range(3):  # move the lowest id behind the others, in the heap and in the (group, stale) index
        Snapshot.objects.filter(pk=ids[0]).update(payload={"n": n}, stale=True)
    return ids


def _flag_writer(table: Table) -> None:
    a, b = table.players[:2]
    marking._flag(group_id=table.group.pk, rulesets={"abluxxen"}, players={a.pk, b.pk})


def _refresh_start(table: Table) -> None:
    marking._mark(Q(group_id=table.group.pk))


@pytest.mark.parametrize("update", [_flag_writer, _refresh_start], ids=["round-writer flag", "refresh mark"])
def test_snapshot_rows_are_locked_in_id_order(side: Callable[[], Any], update: Callable[[Table], None]) -> None:
    if connection.vendor != "postgresql":
        pytest.fail("this test needs PostgreSQL (make test sets DATABASE_URL)")
    table = make_table()
    ids = _rows(table)

    holder = side()
    with holder.cursor() as cursor:
        cursor.execute("SELECT id FROM analytics_snapshot WHERE id = %s FOR UPDATE", [ids[0]])

    threads: list[Any] = []
    try:
        thread, result = run_until_blocked(lambda: update(table), "the update")
        threads.append(thread)

        probe = side()
        try:
            with probe.cursor() as cursor:
                cursor.execute("SELECT id FROM analytics_snapshot WHERE id = %s FOR UPDATE NOWAIT", [ids[-1]])
        except DatabaseError:
            pytest.fail("the update locked a higher id while it waited for the lowest one")
        probe.rollback()
    finally:
        holder.commit()
        for thread in threads:
            thread.join(timeout=20)

    assert result.get("done") and "error" not in result, result
    flagged = dict(Snapshot.objects.filter(pk__in=ids).values_list("pk", "stale"))
    assert flagged == dict.fromkeys(ids, True)
