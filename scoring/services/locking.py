"""What a round write reads under its lock: the match row (locked), its seats and its live rounds.

Every write of a match's rounds locks the match row first (``select_for_update``) and keeps the lock to the end
of its transaction, so parallel submissions from several phones are serialised.  The reads after the lock are
separate statements on purpose: under READ COMMITTED each statement sees what was committed before it began, so
rounds read after the lock include every round a write that held the lock before committed.

The path of a new round reads with two fixed statements (``match_lock_member``, then ``table``: the seats and
the live rounds in one): as ORM queries its reads were a third of that path's CPU, most of it building the same
SQL anew on every request, and every statement costs its round trip.  They read the rows and columns the ORM
queries read.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from django.db import connection
from django.http import Http404
from django.utils.translation import gettext

from scoring.models import Match, Membership, Player, Round, Seat
from scoring.rules import FactsText

from .errors import NotAllowed


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
