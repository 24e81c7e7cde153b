"""What the exports share: reading a group's matches a batch at a time, one consistent view of the database
for a streamed download, dates and usernames as the documents write them, and text cells a spreadsheet will
not run as formulas."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import Any

from django.db import connection, transaction
from django.db.models import Prefetch, Q

from scoring.models import Group, Match, Round, RoundEvent, Seat

BATCH = 100  # matches read (and held in memory) at a time
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def iso(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def username(user: Any) -> str | None:
    return user.get_username() if user is not None else None


def cell(value: Any) -> Any:
    """Keep spreadsheets from executing text cells that look like formulas: such a text gets an apostrophe in
    front (a spreadsheet then shows it as text).  Numbers are written as numbers."""
    if isinstance(value, str) and value[:1] in FORMULA_STARTS:
        return "'" + value
    return value


def match_batches(group: Group, *, history: bool = False) -> Iterator[list[Match]]:
    """The group's matches in the order they were played (created, then id), ``BATCH`` at a time, with their
    seats (and players) and rounds; with ``history`` also their events and house rules.  Read by keyset, so
    that every batch costs the same whatever its place in the list.  A caller that wants one batch in memory at
    a time drops its reference to a batch before asking for the next (``del`` at the end of its loop body)."""
    rounds = Round.objects.select_related("entered_by").order_by("number", "id")
    lookups: list[Any] = [
        Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("number")),
        Prefetch("rounds", queryset=rounds),
    ]
    if history:
        lookups.append(Prefetch("events", queryset=RoundEvent.objects.select_related("actor").order_by("id")))
    base = Match.objects.filter(group=group).order_by("created_at", "id").prefetch_related(*lookups)
    if history:
        base = base.select_related("preset_version__preset")
    after: tuple[datetime, int] | None = None
    while True:
        page = base
        if after is not None:
            page = base.filter(Q(created_at__gt=after[0]) | Q(created_at=after[0], id__gt=after[1]))
        batch = list(page[:BATCH])
        if not batch:
            return
        yield batch
        after = (batch[-1].created_at, batch[-1].pk)
        # A prefetched round, seat or event points back at its match, which holds it: a cycle that only the
        # garbage collector frees, batches later.  Emptying the prefetch caches frees a batch as soon as the
        # caller lets go of it, before the next one is read: one batch in memory at a time.
        for match in batch:
            match._prefetched_objects_cache = {}
        del batch


class snapshot:
    """A transaction whose reads all see one moment (PostgreSQL: repeatable read, read only), so that a round
    saved while an export streams is in it whole or not at all.  Inside an outer transaction (tests, a caller's
    own) that one's view is used."""

    def __init__(self) -> None:
        self._atomic = transaction.atomic()

    def __enter__(self) -> None:
        fresh = not connection.in_atomic_block
        self._atomic.__enter__()
        if fresh and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")

    def __exit__(self, *exc: Any) -> Any:
        return self._atomic.__exit__(*exc)
