"""An outage of something the app can do without for a while (Redis: the throttles' counters, the live events,
the statistics' broker), as one process sees it: one warning line when it starts and one when it ends.

During a ten-second Redis stop at ten saves a second, every save used to log a traceback (the live publish) and
several warning lines (throttles, statistics): hundreds of lines that said one thing. Now the first failure of each
kind logs one line naming what is degraded, the failures after it are only counted, and the first success after
them logs one line with how long it lasted and how many calls failed meanwhile.
"""

from __future__ import annotations

import logging
import threading
import time

logger = logging.getLogger(__name__)


class Outage:
    """What one kind of call (``name``) has met since its last success. Thread-safe; ``ok`` costs one attribute
    read while nothing is failing, so it can run on every request."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.since: float | None = None  # monotonic time of the first failure of the current outage
        self.failures = 0
        self._lock = threading.Lock()

    def failed(self) -> bool:
        """Count a failed call; True for the first one of an outage (the caller logs it, once)."""
        with self._lock:
            self.failures += 1
            if self.since is not None:
                return False
            self.since = time.monotonic()
            return True

    def ok(self) -> None:
        """A call succeeded: if an outage was going on, it is over (logged once)."""
        if self.since is None:
            return
        with self._lock:
            if self.since is None:
                return
            lasted, failures = time.monotonic() - self.since, self.failures
            self.since, self.failures = None, 0
        logger.warning("%s: reachable again after %.1f s (%d failed calls meanwhile)", self.name, lasted, failures)

    @property
    def down(self) -> bool:
        return self.since is not None
