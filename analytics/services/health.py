"""Worker health: the ping a worker answers to show that it is there and consuming."""

from __future__ import annotations

import socket

from analytics.models import WorkerPing


def worker_ping_record(*, token: str) -> int:
    """Store a ping row once per token (safe to run twice)."""
    ping, _ = WorkerPing.objects.get_or_create(token=token, defaults={"worker": socket.gethostname()})
    return ping.pk
