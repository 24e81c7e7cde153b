"""Fault: 50 phones submit the same round at the same instant with one Idempotency-Key → exactly one round.

The requests go through a real gunicorn (two worker processes, eight threads each) to PostgreSQL, so the race
is between processes and database connections, not threads sharing one connection.
"""

from __future__ import annotations

import threading
import uuid
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest

from scoring.models import Round
from tests.faults.helpers import SCALE, abluxxen_facts, integrity, report, submit

pytestmark = pytest.mark.faults

PARALLEL = 50


def test_parallel_submissions_with_one_key_store_one_round(stack, table_factory):  # type: ignore[no-untyped-def]
    stack.web(workers=2, threads=8)
    races = SCALE
    table = table_factory(matches=races)
    all_statuses: Counter[int] = Counter()
    for race, match_id in enumerate(table.match_ids):
        key = f"race-{race}-{uuid.uuid4().hex}"
        barrier = threading.Barrier(PARALLEL)

        def one(_: int, match_id: int = match_id, key: str = key, barrier: threading.Barrier = barrier):  # type: ignore[no-untyped-def]
            barrier.wait(timeout=30)
            return submit(stack.base_url, table, match_id, abluxxen_facts(1), key=key)

        with ThreadPoolExecutor(PARALLEL) as pool:
            subs = list(pool.map(one, range(PARALLEL)))
        statuses = Counter(s.statuses[-1] for s in subs)
        all_statuses.update(statuses)
        stored = Round.objects.filter(match_id=match_id).count()
        numbers = {r.number for r in Round.objects.filter(match_id=match_id)}
        report(
            f"race {race + 1}/{races}: {PARALLEL} parallel POSTs with one Idempotency-Key -> statuses "
            f"{dict(statuses)}, rounds stored {stored} (numbers {sorted(numbers)})"
        )
        assert stored == 1, f"{stored} rounds stored for one Idempotency-Key"
        assert statuses == Counter({201: PARALLEL}), f"every submitter should get the round back: {dict(statuses)}"
    found = integrity(table.match_ids)
    report(
        f"sent {races * PARALLEL} requests for {races} round(s), stored {found['stored']}, "
        f"lost {races - found['stored']}, duplicates {max(found['stored'] - races, 0)}, "
        f"half-written {found['half_written']}; statuses {dict(all_statuses)}"
    )
    assert found == {"stored": races, "half_written": 0, "numbering_gaps": 0}
