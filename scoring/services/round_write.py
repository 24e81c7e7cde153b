"""A new round's rows written in one statement on PostgreSQL (issue 48: a lean round write).

Entering a round writes the Round, one Score per seat, the match's next number, version and time, and the
"create" RoundEvent.  Through the ORM these were four statements, each built anew by the query compiler and each a
round trip; here they are one fixed statement of data-modifying CTEs with the same rows and values (the audit
trail is the same: the event's ``after`` is ``round_snapshot`` of the round, its time the write's time).  The
statement text is built once per process from the models' own table and column names.

Used only for the common case: PostgreSQL, and a round that leaves the match's state as it was (a round that ends
the match also records a "finish" event before its own, and keeps going through the ORM so that the events keep
their order).  The Idempotency-Key's row is written by :func:`idempotency_insert` after the answer is built (it
holds that answer).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from functools import cache
from typing import Any

from django.db import connection

from scoring.models import IdempotencyKey, Match, Round, RoundEvent, Score


def _q(name: str) -> str:
    return connection.ops.quote_name(name)


# The columns each statement writes: every concrete column of its model but the id
# (tests/scoring/services/test_round_write.py checks that, so that a column added to a model cannot be left
# out of this statement).
ROUND_FIELDS = (
    "match",
    "number",
    "facts",
    "ruleset_version",
    "points",
    "explanation",
    "version",
    "entered_by",
    "created_at",
    "updated_at",
    "deleted_at",
    "uid",
)
SCORE_FIELDS = ("round", "match", "player", "seat", "points")
EVENT_FIELDS = ("match", "round", "round_number", "action", "actor", "at", "before", "after")
KEY_FIELDS = ("user", "key", "scope", "request_hash", "round", "status", "response", "created_at")


def _columns(model: Any, *names: str) -> list[str]:
    meta = model._meta
    return [_q(meta.get_field(name).column) for name in names]


@cache
def _create_sql() -> str:
    rnd = _columns(Round, *ROUND_FIELDS)
    score = _columns(Score, *SCORE_FIELDS)
    event = _columns(RoundEvent, *EVENT_FIELDS)
    next_number, version, updated_at = _columns(Match, "next_number", "version", "updated_at")
    return (
        f"WITH r AS (INSERT INTO {_q(Round._meta.db_table)} ({', '.join(rnd)}) "
        "VALUES (%s, %s, %s::jsonb, %s, %s::jsonb, %s::jsonb, %s, %s, %s, %s, NULL, %s) RETURNING id), "
        f"s AS (INSERT INTO {_q(Score._meta.db_table)} ({', '.join(score)}) "
        "SELECT r.id, %s, u.player, u.seat, u.points FROM r, "
        "UNNEST(%s::bigint[], %s::smallint[], %s::integer[]) AS u(player, seat, points)), "
        f"e AS (INSERT INTO {_q(RoundEvent._meta.db_table)} ({', '.join(event)}) "
        "SELECT %s, r.id, %s, %s, %s, %s, NULL, %s::jsonb FROM r), "
        f"m AS (UPDATE {_q(Match._meta.db_table)} SET {next_number} = %s, {version} = %s, {updated_at} = %s "
        f"WHERE {_q('id')} = %s) "
        "SELECT id FROM r"
    )


def round_create_rows(
    *, match: Match, rnd: Round, seats: Sequence[int], user: Any, now: datetime, after: dict[str, Any]
) -> None:
    """Insert ``rnd`` (not saved yet; its points and explanation set), its Score rows, its "create" event with
    ``after`` as the history's snapshot, and save ``match``'s next number, version and ``now`` as its update time,
    in one statement.  ``rnd`` becomes a saved model instance (its id, times and ``_state`` set)."""
    actor = user.pk if user is not None and user.is_authenticated else None
    rnd.created_at = rnd.updated_at = now
    match.updated_at = now
    params = [
        match.pk,
        rnd.number,
        json.dumps(rnd.facts),
        rnd.ruleset_version,
        json.dumps(rnd.points),
        json.dumps(rnd.explanation),
        rnd.version,
        rnd.entered_by_id,
        now,
        now,
        rnd.uid,
        match.pk,
        list(seats),
        list(range(len(seats))),
        list(rnd.points),
        match.pk,
        rnd.number,
        RoundEvent.Action.CREATE.value,
        actor,
        now,
        json.dumps(after),
        match.next_number,
        match.version,
        now,
        match.pk,
    ]
    with connection.cursor() as cursor:
        cursor.execute(_create_sql(), params)
        (rnd.pk,) = cursor.fetchone()
    rnd._state.adding = False
    rnd._state.db = connection.alias


@cache
def _idempotency_sql() -> str:
    cols = _columns(IdempotencyKey, *KEY_FIELDS)
    return (
        f"INSERT INTO {_q(IdempotencyKey._meta.db_table)} ({', '.join(cols)}) "
        "VALUES (%s, %s, %s, %s, %s, %s, %s::jsonb, %s)"
    )


def idempotency_insert(
    *, user: Any, key: str, scope: str, digest: str, round_id: int, status: int, response: Any, now: datetime
) -> None:
    """The Idempotency-Key's row with the answer it must replay (a repeated key fails its unique index)."""
    with connection.cursor() as cursor:
        cursor.execute(
            _idempotency_sql(),
            [user.pk, key, scope, digest, round_id, status, None if response is None else json.dumps(response), now],
        )
