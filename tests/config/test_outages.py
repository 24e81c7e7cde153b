"""An outage is logged when it starts (by the caller, once) and when it ends (with its length and the failed
calls), whatever the number of calls that fail meanwhile (issue 49: a traceback per save during a Redis stop)."""

from __future__ import annotations

import logging
import threading

import pytest

from scoring.services.outages import Outage


def test_the_first_failure_of_an_outage_is_the_only_one_reported(caplog: pytest.LogCaptureFixture) -> None:
    outage = Outage("live: Redis")
    outage.ok()  # nothing going on: nothing logged
    firsts = [outage.failed() for _ in range(5)]
    assert firsts == [True, False, False, False, False] and outage.down
    with caplog.at_level(logging.WARNING, logger="scoring.services.outages"):
        outage.ok()
        outage.ok()
    lines = [r.getMessage() for r in caplog.records if r.name == "scoring.services.outages"]
    assert len(lines) == 1 and lines[0].startswith("live: Redis: reachable again after ")
    assert lines[0].endswith("(5 failed calls meanwhile)")
    assert not outage.down and outage.failed()  # the next outage is reported again


def test_failures_from_many_threads_start_one_outage() -> None:
    outage = Outage("stats: broker")
    starts: list[bool] = []
    lock = threading.Lock()

    def fail() -> None:
        for _ in range(100):
            first = outage.failed()
            with lock:
                starts.append(first)

    threads = [threading.Thread(target=fail) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert starts.count(True) == 1 and outage.failures == 800
