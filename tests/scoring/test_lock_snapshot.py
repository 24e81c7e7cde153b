"""On PostgreSQL a new round's locking SELECT also reads the seats and the earlier rounds (``match_lock_table``).
A SELECT ... FOR UPDATE that waited for another write sees the locked row as that write left it but the other
rows as of its start: the round that write added would be missing. The match version the statement saw tells it,
and the rounds are read again; here two writes meet on one match for real, the second waiting for the first."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection, connections

from scoring import services
from scoring.models import Round
from scoring.services import locking
from scoring.services import rounds as round_service
from tests.conftest import wait_for
from tests.scoring.helpers import njet_facts

pytestmark = [
    pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks: needs PostgreSQL (DATABASE_URL)"),
    pytest.mark.django_db(transaction=True),
]


def _waiting_for_a_lock() -> bool:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        return cursor.fetchone()[0] > 0


def test_a_round_whose_lock_waited_for_another_write_is_numbered_and_scored_after_it(table, njet_match, monkeypatch):
    locked, release = threading.Event(), threading.Event()
    notify = round_service.stats_match_changed

    def first_write_holds_the_lock(**kwargs: Any) -> None:  # called in the write's transaction, after its writes
        if threading.current_thread().name == "first":
            locked.set()
            release.wait(timeout=30)
        notify(**kwargs)

    monkeypatch.setattr(round_service, "stats_match_changed", first_write_holds_the_lock)
    reread = []
    read = locking.table
    monkeypatch.setattr(locking, "table", lambda match: reread.append(match.pk) or read(match))
    results: dict[str, Any] = {}

    def enter(name: str) -> None:
        try:
            results[name] = services.round_record(match=njet_match, facts=njet_facts(), user=table.member)
        except Exception as exc:  # reported by the assertions below
            results[name] = exc
        finally:
            connections.close_all()

    first = threading.Thread(target=enter, args=("first",), name="first")
    first.start()
    assert locked.wait(timeout=30)
    second = threading.Thread(target=enter, args=("second",), name="second")
    second.start()
    wait_for(_waiting_for_a_lock, timeout=30, interval=0.05)  # the second write's SELECT waits for the first
    release.set()
    first.join(timeout=30)
    second.join(timeout=30)

    assert [getattr(results[n], "number", results[n]) for n in ("first", "second")] == [1, 2]
    assert reread == [njet_match.pk]  # the second statement's snapshot missed round 1: read again, once
    stored = list(Round.objects.filter(match=njet_match).order_by("number").values_list("number", "points"))
    assert stored == [(1, results["first"].points), (2, results["second"].points)]
    assert Round.objects.get(match=njet_match, number=2).explanation  # scored after round 1
