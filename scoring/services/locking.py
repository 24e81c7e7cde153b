"""What a round write reads under its lock: the match row (locked), its seats and its live rounds.

Every write of a match's rounds locks the match row first (``select_for_update``) and keeps the lock to the end
of its transaction, so parallel submissions from several phones are serialised.  The reads after the lock are
separate statements on purpose: under READ COMMITTED each statement sees what was committed before it began, so
rounds read after the lock include every round a write that held the lock before committed.

The path of a new round reads with fixed SQL (``match_lock_table``: on PostgreSQL the locking SELECT reads the
seats and the live rounds too, elsewhere ``table`` reads them in a second statement): as ORM queries its reads
were a third of that path's CPU, most of it building the same SQL anew on every request, and every statement
costs its round trip.  They read the rows and columns the ORM queries read.  When the locking SELECT had to wait
for another write, the rows besides the match are as of before that write, and are read again (see
``_lock_table_sql``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.db import connection
from django.http import Http404
from django.utils.translation import gettext

from scoring.models import Match, Membership, Player, Round, Seat
from scoring.rules import FactsText
from scoring.selectors import rows
from scoring.services.errors import NotAllowed


def _q(name: str) -> str:
    return connection.ops.quote_name(name)


@cache
def _lock_member_sql(vendor: str) -> str:
    """The locking SELECT of a match whose group has the user as a member (one statement: access check and lock)."""
    membership = Membership._meta
    sql = (
        f"SELECT {rows.columns(Match, 'm')} FROM {_q(Match._meta.db_table)} m INNER JOIN {_q(membership.db_table)} ms "
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


@dataclass(frozen=True, slots=True)
class Played:
    """A live round as entering the next round needs it: what its replay reads, not the whole row."""

    pk: int
    number: int
    facts: FactsText  # as stored: the replay parses it once per process (Ruleset.replay_facts)
    points: list[int]
    ruleset_version: str


# The JSON column's own decoding (the text PostgreSQL or SQLite hands over -> Python values)
_DECODE_POINTS = Round._meta.get_field("points").from_db_value  # type: ignore[attr-defined]


@cache
def _table_sql(vendor: str) -> str:
    """The seats (with their players' names) and the live rounds of a match, in one statement: seat rows
    first (kind 0, by seat number), then round rows (kind 1, by round number)."""
    seat, player, rnd = Seat._meta, Player._meta, Round._meta
    s_match, s_number, s_player = (_q(seat.get_field(f).column) for f in ("match", "number", "player"))
    r = {f: _q(rnd.get_field(f).column) for f in ("id", "match", "number", "facts", "points", "ruleset_version")}
    return (
        f"SELECT 0, s.{s_number}, s.{s_player}, p.{_q(player.get_field('name').column)}, NULL, NULL "
        f"FROM {_q(seat.db_table)} s JOIN {_q(player.db_table)} p ON p.{_q('id')} = s.{s_player} "
        f"WHERE s.{s_match} = %s "
        "UNION ALL "
        f"SELECT 1, r.{r['number']}, r.{r['id']}, r.{r['ruleset_version']}, r.{r['facts']}, r.{r['points']} "
        f"FROM {_q(rnd.db_table)} r WHERE r.{r['match']} = %s AND r.{_q(rnd.get_field('deleted_at').column)} IS NULL "
        "ORDER BY 1, 2"
    )


@cache
def _lock_table_sql(vendor: str) -> str | None:
    """PostgreSQL: ``match_lock_member``'s locking SELECT that also reads what :func:`table` reads, as JSON
    aggregates, and the match's version as this statement's snapshot saw it (``sk_seen``).

    Under READ COMMITTED a SELECT ... FOR UPDATE that waited for another write sees the locked row as that write
    left it, but every other row as of the statement's start: the rounds that write added would be missing. Every
    write of a match's rounds raises the match's version under its lock, so a seen version other than the locked
    row's tells that this happened (the caller then reads the table again). (Seats change under no match lock:
    only a player merge moves them, and a second statement read them no more surely.) Other databases: None."""
    if vendor != "postgresql":
        return None
    seat, player, rnd, match = Seat._meta, Player._meta, Round._meta, Match._meta
    s_match, s_number, s_player = (_q(seat.get_field(f).column) for f in ("match", "number", "player"))
    r = {f: _q(rnd.get_field(f).column) for f in ("id", "match", "number", "facts", "points", "ruleset_version")}
    seen = f"(SELECT v.{_q('version')} FROM {_q(match.db_table)} v WHERE v.{_q('id')} = m.{_q('id')}) AS sk_seen"
    seats = (
        f"(SELECT json_agg(json_build_array(s.{s_player}, p.{_q(player.get_field('name').column)}) "
        f"ORDER BY s.{s_number})::text FROM {_q(seat.db_table)} s "
        f"JOIN {_q(player.db_table)} p ON p.{_q('id')} = s.{s_player} WHERE s.{s_match} = m.{_q('id')}) AS sk_seats"
    )
    rounds = (
        f"(SELECT json_agg(json_build_array(r.{r['id']}, r.{r['number']}, r.{r['facts']}::text, r.{r['points']}, "
        f"r.{r['ruleset_version']}) ORDER BY r.{r['number']})::text FROM {_q(rnd.db_table)} r "
        f"WHERE r.{r['match']} = m.{_q('id')} AND r.{_q(rnd.get_field('deleted_at').column)} IS NULL) AS sk_rounds"
    )
    return _lock_member_sql(vendor).replace(" FROM ", f", {seen}, {seats}, {rounds} FROM ", 1)


def match_lock(*, match_id: int) -> Match:
    """The match row, locked until the end of the current transaction."""
    return Match.objects.select_for_update(of=("self",)).select_related("group").get(pk=match_id)


def match_lock_member(*, match_id: int, user: Any, hidden: bool = False) -> Match:
    """The match row, locked until the end of the current transaction, when ``user`` is a member of its group;
    else NotAllowed, as ``member_require`` says it (``hidden``: Http404, as ``selectors.match_get`` answers a
    match of another group). The membership is a condition of the locking SELECT (one statement, not a second
    read of the membership under the lock)."""
    return _locked(_lock_member_sql(connection.vendor), match_id=match_id, user=user, hidden=hidden)


def match_lock_table(
    *, match_id: int, user: Any, hidden: bool = False
) -> tuple[Match, list[int], list[str], list[Played]]:
    """``match_lock_member`` and then :func:`table`: on PostgreSQL in the locking statement itself (one round
    trip fewer for every round entered), read again after it when that statement waited for another write."""
    sql = _lock_table_sql(connection.vendor)
    locked = _locked(sql or _lock_member_sql(connection.vendor), match_id=match_id, user=user, hidden=hidden)
    if sql is None or locked.sk_seen != locked.version:  # type: ignore[attr-defined]
        return (locked, *table(locked))
    seated = json.loads(locked.sk_seats or "[]")  # type: ignore[attr-defined]
    played = [
        Played(pk=pk, number=number, facts=FactsText(facts), points=points, ruleset_version=version)
        for pk, number, facts, points, version in json.loads(locked.sk_rounds or "[]")  # type: ignore[attr-defined]
    ]
    return locked, [pk for pk, _name in seated], [name for _pk, name in seated], played


def _locked(sql: str, *, match_id: int, user: Any, hidden: bool) -> Match:
    if user is None or not user.is_authenticated:
        raise NotAllowed(gettext("Only members of the group can do this."))
    with connection.cursor() as cursor:
        cursor.execute(sql, [match_id, user.pk])
        row = cursor.fetchone()
    if row is None:
        if hidden:
            raise Http404
        raise NotAllowed(gettext("Only members of the group can do this."))
    width = rows.width(Match)
    locked = rows.instance(Match, row[:width])
    if len(row) > width:  # the table read with the lock (_lock_table_sql)
        locked.sk_seen, locked.sk_seats, locked.sk_rounds = row[width:]
    return locked


def seating(match: Match) -> tuple[list[int], list[str]]:
    """The seated players' ids and current names, in seat order (one query)."""
    with connection.cursor() as cursor:
        cursor.execute(_seating_sql(connection.vendor), [match.pk])
        rows = cursor.fetchall()
    return [player_id for player_id, _ in rows], [name for _, name in rows]


def live_rounds(match: Match) -> list[Round]:
    """The match's live rounds in order, whole."""
    return list(Round.objects.filter(match=match, deleted_at__isnull=True).order_by("number"))


def table(match: Match) -> tuple[list[int], list[str], list[Played]]:
    """What entering the next round reads, in one statement after the lock: the seated players' ids and current
    names in seat order, and the live rounds in order as :class:`Played` (no explanation: in a long match that is
    most of the bytes, and entering a round rescores none of the rounds before it; the facts as their JSON text)."""
    with connection.cursor() as cursor:
        cursor.execute(_table_sql(connection.vendor), [match.pk, match.pk])
        rows = cursor.fetchall()
    seats: list[int] = []
    names: list[str] = []
    played: list[Played] = []
    for kind, number, pk, text, facts, points in rows:
        if kind == 0:
            seats.append(pk)
            names.append(text)
        else:
            played.append(
                Played(
                    pk=pk,
                    number=number,
                    facts=FactsText(facts),
                    points=_DECODE_POINTS(points, None, connection),
                    ruleset_version=text,
                )
            )
    return seats, names, played
