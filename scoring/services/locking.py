"""What a round write reads under its lock: the match row (locked), its seats and its live rounds.

Every write of a match's rounds locks the match row first (``select_for_update``) and keeps the lock to the end
of its transaction, so parallel submissions from several phones are serialised.  The reads after the lock are
separate statements on purpose: under READ COMMITTED each statement sees what was committed before it began, so
rounds read after the lock include every round a write that held the lock before committed.

The three reads on the path of a new round are fixed SQL (``match_lock_member``, ``seating``,
``live_rounds(explained=False)``): they were a third of that path's CPU as ORM queries, most of it building the
same SQL anew on every request.  They read exactly the rows and columns the ORM queries read.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from django.db import connection
from django.http import Http404
from django.utils.translation import gettext

from scoring.models import Match, Membership, Player, Round, Seat

from .errors import NotAllowed

# What entering a round reads of the rounds before it: no explanation (most of a long match's bytes) and no
# timestamps (those columns are left deferred, so a use of them reads them); ``deleted_at`` is NULL by the query.
# In the model's field order, as ``Model.from_db`` takes a part of the columns.
LIVE_COLUMNS = tuple(
    f.name for f in Round._meta.concrete_fields if f.name not in ("explanation", "created_at", "updated_at")
)


def _q(name: str) -> str:
    return connection.ops.quote_name(name)


@cache
def _lock_member_sql(vendor: str) -> str:
    """The locking SELECT of a match whose group has the user as a member (one statement: access check and lock)."""
    membership = Membership._meta
    sql = (
        f"SELECT m.* FROM {_q(Match._meta.db_table)} m INNER JOIN {_q(membership.db_table)} ms "
        f"ON ms.{_q(membership.get_field('group').column)} = m.{_q(Match._meta.get_field('group').column)} "
        f"WHERE m.{_q('id')} = %s AND ms.{_q(membership.get_field('user').column)} = %s"
    )
    # SQLite has no row locks: a write transaction there holds the database's lock, which serialises writes.
    return sql + " FOR UPDATE OF m" if connection.features.has_select_for_update_of else sql


@cache
def _seating_sql(vendor: str) -> str:
    seat, player = Seat._meta, Player._meta
    player_id = _q(seat.get_field("player").column)
    return (
        f"SELECT s.{player_id}, p.{_q(player.get_field('name').column)} FROM {_q(seat.db_table)} s "
        f"JOIN {_q(player.db_table)} p ON p.{_q('id')} = s.{player_id} "
        f"WHERE s.{_q(seat.get_field('match').column)} = %s ORDER BY s.{_q(seat.get_field('number').column)}"
    )


_LIVE_FIELDS = [Round._meta.get_field(name) for name in LIVE_COLUMNS]
_LIVE_NAMES = [field.attname for field in _LIVE_FIELDS]
_LIVE_DECODE = [getattr(field, "from_db_value", None) for field in _LIVE_FIELDS]  # the JSON columns' own decoding


@cache
def _live_sql(vendor: str) -> str:
    """The live rounds of a match in order, the ``LIVE_COLUMNS`` only."""
    table = _q(Round._meta.db_table)

    def col(name: str) -> str:
        return f"{table}.{_q(Round._meta.get_field(name).column)}"

    return (
        f"SELECT {', '.join(col(name) for name in LIVE_COLUMNS)} FROM {table} "
        f"WHERE {col('match')} = %s AND {col('deleted_at')} IS NULL ORDER BY {col('number')}"
    )


def match_lock(*, match_id: int) -> Match:
    """The match row, locked until the end of the current transaction."""
    return Match.objects.select_for_update(of=("self",)).select_related("group").get(pk=match_id)


def match_lock_member(*, match_id: int, user: Any, hidden: bool = False) -> Match:
    """The match row, locked until the end of the current transaction, when ``user`` is a member of its group;
    else NotAllowed, as ``member_require`` says it (``hidden``: Http404, as ``selectors.match_get`` answers a
    match of another group). The membership is a condition of the locking SELECT (one statement, not a second
    read of the membership under the lock)."""
    if user is None or not user.is_authenticated:
        raise NotAllowed(gettext("Only members of the group can do this."))
    locked = next(iter(Match.objects.raw(_lock_member_sql(connection.vendor), [match_id, user.pk])), None)
    if locked is None:
        if hidden:
            raise Http404
        raise NotAllowed(gettext("Only members of the group can do this."))
    return locked


def seating(match: Match) -> tuple[list[int], list[str]]:
    """The seated players' ids and current names, in seat order (one query)."""
    with connection.cursor() as cursor:
        cursor.execute(_seating_sql(connection.vendor), [match.pk])
        rows = cursor.fetchall()
    return [player_id for player_id, _ in rows], [name for _, name in rows]


def live_rounds(match: Match, *, explained: bool = True) -> list[Round]:
    """The match's live rounds in order. ``explained=False`` reads ``LIVE_COLUMNS`` only (a column left out is
    read if it is used): entering a new round rescores none of the rounds before it, and in a long match their
    explanations are most of what would be read."""
    if explained:
        return list(Round.objects.filter(match=match, deleted_at__isnull=True).order_by("number"))
    with connection.cursor() as cursor:
        cursor.execute(_live_sql(connection.vendor), [match.pk])
        rows = cursor.fetchall()
    return [
        Round.from_db(
            connection.alias,
            _LIVE_NAMES,
            [value if to is None else to(value, None, connection) for to, value in zip(_LIVE_DECODE, row, strict=True)],
        )
        for row in rows
    ]
