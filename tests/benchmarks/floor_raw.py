"""The physical floor of a round write, for ``bench_floor.py`` (issue 48): the statements the real path sends,
sent by psycopg alone.

``RawWriter.write`` sends, for one round, what ``POST /api/v1/matches/{id}/rounds`` sends to PostgreSQL: the token
look-up, the locking SELECT that also reads the seats and rounds (the app's own SQL text,
``scoring.services.locking._lock_table_sql``), the round's rows (``round_write._create_sql``), the statistics' dirty
record, the Idempotency-Key's row (``round_write._idempotency_sql``), the commit, then the statistics' stale flags
after it (the standings read and the flagging UPDATE, as ``analytics.services.marking`` writes them).  Values
that the rules engine and the serializer compute (points, explanation, the answer) are taken from a round the real
path stored, as JSON text: no Django, no ORM, no rules engine, no serializer — only the parameters any
implementation must send, on a psycopg connection of its own with psycopg's defaults (statements prepared on the
server after a few executions).  Its CPU against the path's is ``raw/path`` in ``bench_floor.py``.
"""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime
from typing import Any

import psycopg

_TOKEN = (
    'SELECT "authtoken_token"."key", "authtoken_token"."user_id", "authtoken_token"."created", "auth_user"."id", '
    '"auth_user"."password", "auth_user"."last_login", "auth_user"."is_superuser", "auth_user"."username", '
    '"auth_user"."first_name", "auth_user"."last_name", "auth_user"."email", "auth_user"."is_staff", '
    '"auth_user"."is_active", "auth_user"."date_joined" FROM "authtoken_token" INNER JOIN "auth_user" '
    'ON ("authtoken_token"."user_id" = "auth_user"."id") WHERE "authtoken_token"."key" = %s LIMIT 21'
)
_DIRTY = (
    'INSERT INTO "analytics_statsdirty" (group_id, match_id, seq, marked_at) VALUES (%s, %s, 1, %s) '
    'ON CONFLICT (group_id, match_id) DO UPDATE SET seq = "analytics_statsdirty".seq + 1, '
    "marked_at = EXCLUDED.marked_at"
)
_STANDINGS = (
    'SELECT "analytics_matchstanding"."player_id", "analytics_matchstanding"."finished_at" '
    'FROM "analytics_matchstanding" WHERE "analytics_matchstanding"."match_id" = %s'
)
_STALE = (
    'UPDATE "analytics_snapshot" AS s SET stale = %s, stale_seq = s.stale_seq + 1 FROM (SELECT id FROM '
    '"analytics_snapshot" WHERE (scope = %s AND group_id = %s) OR (scope = %s AND group_id = %s AND ruleset IN (%s)) '
    "OR (scope = %s AND player_id IN (%s, %s, %s, %s)) ORDER BY id FOR UPDATE) AS locked WHERE s.id = locked.id "
    "RETURNING s.key"
)


class RawWriter:
    """One psycopg connection and the texts of a stored round (``template``: what the path stored and answered)."""

    def __init__(self, dsn: str, *, token: str, user_id: int, group_id: int, seats: list[int], template: Any) -> None:
        from scoring.services.locking import _lock_table_sql
        from scoring.services.round_write import _create_sql, _idempotency_sql

        self.conn = psycopg.connect(dsn, autocommit=True)  # as Django: each statement or block commits
        self.lock_sql = _lock_table_sql("postgresql")
        self.create_sql = _create_sql()
        self.key_sql = _idempotency_sql()
        self.token, self.user_id, self.group_id, self.seats = token, user_id, group_id, seats
        self.facts_obj = template["facts"]
        self.facts = json.dumps(template["facts"])
        self.points = json.dumps(template["points"])
        self.points_list = list(template["points"])
        self.explanation = json.dumps(template["explanation"])
        self.ruleset_version = template["ruleset_version"]
        self.answer = json.dumps(template["answer"])

    def write(self, match_id: int) -> None:
        """Enter the next round of ``match_id`` (open, its seats ``self.seats``), as the path's statements do."""
        now = datetime.now(UTC)
        with self.conn.cursor() as cur:
            cur.execute(_TOKEN, [self.token])
            cur.fetchall()
            with self.conn.transaction():
                cur.execute(self.lock_sql, [match_id, self.user_id])
                row = cur.fetchone()
                names = [d.name for d in cur.description]
                match = dict(zip(names, row, strict=True))
                rounds = json.loads(match["sk_rounds"] or "[]")
                number = rounds[-1][1] + 1 if rounds else 1
                version = match["version"] + 1
                after = json.dumps(
                    {
                        "number": number,
                        "facts": self.facts_obj,
                        "points": self.points_list,
                        "ruleset_version": self.ruleset_version,
                        "version": 1,
                        "deleted": False,
                    }
                )
                cur.execute(
                    self.create_sql,
                    [
                        match_id,
                        number,
                        self.facts,
                        self.ruleset_version,
                        self.points,
                        self.explanation,
                        1,
                        self.user_id,
                        now,
                        now,
                        uuid.uuid4(),  # the round's stable identifier
                        match_id,
                        self.seats,
                        list(range(len(self.seats))),
                        self.points_list,
                        match_id,
                        number,
                        "create",
                        self.user_id,
                        now,
                        after,
                        number + 1,
                        version,
                        now,
                        match_id,
                    ],
                )
                (round_id,) = cur.fetchone()
                cur.execute(_DIRTY, [self.group_id, match_id, now])
                key = uuid.uuid4().hex
                scope = f"round_record:{match_id}"
                cur.execute(self.key_sql, [self.user_id, key, scope, "0" * 64, round_id, 201, self.answer, now])
            cur.execute(_STANDINGS, [match_id])
            cur.fetchall()
            cur.execute(_STALE, [True, "group", self.group_id, "game", self.group_id, "njet", "player", *self.seats])
            cur.fetchall()

    def close(self) -> None:
        self.conn.close()
