"""Marking statistics stale: record a changed match (``StatsDirty``) and flag the snapshots it affects.

Synchronous, in the writing request (its transaction or its on_commit). Every multi-row update of snapshots
locks them in id order (:func:`_locked_update`), so concurrent writers may wait but never deadlock.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import datetime
from functools import cache
from typing import Any

from django.db import connection
from django.db.models import F, Q
from django.db.models.sql.subqueries import UpdateQuery
from django.utils import timezone

from analytics.models import MatchStanding, RatingHistory, Snapshot, StatsDirty
from analytics.sql.builder import dt
from analytics.stats import ALL, snapshot_key
from scoring.models import Match, Seat
from scoring.selectors import rows

logger = logging.getLogger(__name__)


# --- marking stale (synchronous, in the request's on_commit) ------------------------------------------------


def _snapshot_defaults(*, group_id: int, players: Iterable[int], rulesets: Iterable[str]) -> None:
    """Make sure the unfiltered snapshots of a group, its games and players exist (as stale rows)."""
    flt = ALL.key
    wanted = [Snapshot(key=snapshot_key("group", group_id=group_id, flt=flt), scope="group", group_id=group_id)]
    wanted += [
        Snapshot(
            key=snapshot_key("game", group_id=group_id, ruleset=r, flt=flt), scope="game", group_id=group_id, ruleset=r
        )
        for r in sorted(set(rulesets))
    ]
    wanted += [
        Snapshot(
            key=snapshot_key("player", group_id=group_id, player_id=p, flt=flt),
            scope="player",
            group_id=group_id,
            player_id=p,
        )
        for p in sorted(set(players))
    ]
    Snapshot.objects.bulk_create(wanted, ignore_conflicts=True)


def _locked_update(query: Q, **values: Any) -> int:
    """Update the snapshots matching ``query``, locking them in id order (one statement); the rows updated.

    Snapshot rows are shared by every writer of a group and by its refresh. A multi-row UPDATE locks its rows
    in whatever order its plan meets them, so two of them over the same rows can wait for each other, and
    PostgreSQL then aborts one after a second (the API benchmark logged dozens of such deadlocks). Every
    multi-row update of snapshots locks in id order instead: writers may wait, but never in a cycle.  On
    PostgreSQL the ordered ``SELECT … FOR UPDATE`` is a subquery of the UPDATE itself, so the update costs one
    statement and no transaction of its own (a refresh makes several of them; a ``BEGIN``, a ``SELECT``, an
    ``UPDATE`` and a ``COMMIT`` each were a quarter of a small group's refresh).  SQLite has no row locks.
    """
    if connection.vendor != "postgresql":
        return Snapshot.objects.filter(query).update(**values)
    update = UpdateQuery(Snapshot)
    update.add_update_values(values)
    set_sql, set_params = update.get_compiler(connection=connection).as_sql()  # UPDATE "t" SET …, no WHERE
    ids_sql, ids_params = Snapshot.objects.filter(query).order_by("pk").values("id").query.sql_with_params()
    table = connection.ops.quote_name(Snapshot._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"{set_sql} FROM ({ids_sql} FOR UPDATE) AS locked WHERE {table}.id = locked.id",
            [*set_params, *ids_params],
        )
        return cursor.rowcount


def _group_update(group_id: int, condition: str, **values: Any) -> int:
    """Set plain ``values`` on the group's snapshots meeting ``condition`` (SQL over the snapshot's own columns,
    a constant of our code such as ``"stale OR computing"``), locked in id order as :func:`_locked_update` does.

    The refresh's own updates: written as SQL here because on a small group the ORM's building of them cost more
    CPU than PostgreSQL's running them.
    """
    table = connection.ops.quote_name(Snapshot._meta.db_table)
    sets = ", ".join(f"{connection.ops.quote_name(name)} = %s" for name in values)
    params = [dt(v) if isinstance(v, datetime) else v for v in values.values()] + [group_id]
    where = f"group_id = %s AND ({condition})"
    if connection.vendor == "postgresql":
        sql = (
            f"UPDATE {table} SET {sets} FROM (SELECT id FROM {table} WHERE {where} ORDER BY id FOR UPDATE) AS locked "
            f"WHERE {table}.id = locked.id"
        )
    else:  # SQLite has no row locks
        sql = f"UPDATE {table} SET {sets} WHERE {where}"
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.rowcount


def _mark(query: Q, **also: Any) -> int:
    """Flag the matching snapshots stale (a new stale_seq), setting ``also`` in the same statement."""
    return _locked_update(query, stale=True, stale_seq=F("stale_seq") + 1, **also)


def _rated_after(group_id: int, ruleset: str, since: Any) -> set[int]:
    """Players with a rating after match key ``since`` (their ratings move when that match changes)."""
    if since is None:
        return set()
    f, mid = since
    return set(
        RatingHistory.objects.filter(group_id=group_id, ruleset=ruleset)
        .filter(Q(finished_at__gt=f) | Q(finished_at=f, match_id__gte=mid))
        .values_list("player_id", flat=True)
        .distinct()
    )


def _dirty_record(*, group_id: int, match_id: int) -> None:
    """Record a changed match (or, with ``StatsDirty.WHOLE_GROUP``, a whole group) in one statement.

    A row that is already there gets a higher ``seq``, so that a refresh which read the older one leaves it
    in place (it deletes only the (id, seq) it saw).
    """
    table = connection.ops.quote_name(StatsDirty._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} (group_id, match_id, seq, marked_at) VALUES (%s, %s, 1, %s) "
            f"ON CONFLICT (group_id, match_id) DO UPDATE SET seq = {table}.seq + 1, marked_at = EXCLUDED.marked_at",
            [group_id, match_id, connection.ops.adapt_datetimefield_value(timezone.now())],
        )


def _mark_match(
    *,
    match_id: int,
    group_id: int,
    ruleset: str,
    finished_at: Any,
    players: Iterable[int],
    old: list[Any] | None = None,
) -> None:
    """Flag the snapshots a change to one match affects as stale: its group's, its game's, its players' and
    those of everyone rated after it in that game (their ratings replay)."""
    if old is None:
        old = _standings(match_id)
    affected = set(players) | {row["player_id"] for row in old}
    keys = [(row["finished_at"], match_id) for row in old[:1]]
    if finished_at is not None:
        keys.append((finished_at, match_id))
    affected |= _rated_after(group_id, ruleset, min(keys) if keys else None)
    _flag(group_id=group_id, rulesets={ruleset}, players=affected)


_STANDING = ("player_id", "finished_at")


@cache
def _standings_sql(vendor: str) -> str:
    quote = connection.ops.quote_name
    return (
        f"SELECT {rows.columns(MatchStanding, 's', _STANDING)} FROM {quote(MatchStanding._meta.db_table)} s "
        f"WHERE s.{quote(MatchStanding._meta.get_field('match').column)} = %s"
    )


def _standings(match_id: int) -> list[dict[str, Any]]:
    """``MatchStanding.objects.filter(match_id=…).values("player_id", "finished_at")``, in fixed SQL: on the round
    write's path, where building that query cost more CPU than running it (issue 48)."""
    with connection.cursor() as cursor:
        cursor.execute(_standings_sql(connection.vendor), [match_id])
        return [rows.values(MatchStanding, _STANDING, row) for row in cursor.fetchall()]


def _mark_returning(*, group_id: int, rulesets: set[str], players: set[int]) -> set[str]:
    """Flag the snapshots of the group, these games and players (every filter) stale, in one statement that
    also says which rows it flagged (their keys)."""
    table = connection.ops.quote_name(Snapshot._meta.db_table)
    where, params = ["(scope = %s AND group_id = %s)"], [True, "group", group_id]  # True: the SET's value
    if rulesets:
        where.append(f"(scope = %s AND group_id = %s AND ruleset IN ({', '.join(['%s'] * len(rulesets))}))")
        params += ["game", group_id, *sorted(rulesets)]
    if players:
        where.append(f"(scope = %s AND player_id IN ({', '.join(['%s'] * len(players))}))")
        params += ["player", *sorted(players)]
    condition = " OR ".join(where)
    if connection.vendor == "postgresql":  # lock in id order (see _locked_update), still one statement
        sql = (
            f"UPDATE {table} AS s SET stale = %s, stale_seq = s.stale_seq + 1 "
            f"FROM (SELECT id FROM {table} WHERE {condition} ORDER BY id FOR UPDATE) AS locked "
            "WHERE s.id = locked.id RETURNING s.key"
        )
    else:  # SQLite has no row locks: a writer holds the whole database
        sql = f"UPDATE {table} SET stale = %s, stale_seq = stale_seq + 1 WHERE {condition} RETURNING key"
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return {row[0] for row in cursor.fetchall()}


def _flag(*, group_id: int, rulesets: set[str], players: set[int]) -> None:
    """Flag the snapshots of the group, these games and players (and their filtered variants) stale, and
    create the unfiltered ones that do not exist yet (as stale rows).

    One statement on the round-entry path: the update says which rows it flagged, so the unfiltered rows are
    inserted only when one is missing (a group's, game's or player's first round).  A row created after the
    update is stale from the start, which is what flagging it would have made it.
    """
    flagged = _mark_returning(group_id=group_id, rulesets=rulesets, players=players)
    flt = ALL.key
    missing_games = {r for r in rulesets if snapshot_key("game", group_id=group_id, ruleset=r, flt=flt) not in flagged}
    missing_players = {
        p for p in players if snapshot_key("player", group_id=group_id, player_id=p, flt=flt) not in flagged
    }
    if missing_games or missing_players or snapshot_key("group", group_id=group_id, flt=flt) not in flagged:
        _snapshot_defaults(group_id=group_id, players=missing_players, rulesets=missing_games)


def stats_mark_stale(*, match_id: int, group_id: int | None = None) -> int | None:
    """Record a changed match and flag the snapshots it affects as stale; returns its group (or None)."""
    match = Match.objects.filter(pk=match_id).values("group_id", "ruleset", "state", "finished_at").first()
    old = list(
        MatchStanding.objects.filter(match_id=match_id).values("group_id", "ruleset", "player_id", "finished_at")
    )
    players: set[int] = set()
    finished_at = None
    if match is not None:
        group_id, ruleset = match["group_id"], match["ruleset"]
        players = set(Seat.objects.filter(match_id=match_id).values_list("player_id", flat=True))
        if match["state"] == Match.State.FINISHED:
            finished_at = match["finished_at"]
    elif old:
        group_id, ruleset = old[0]["group_id"], old[0]["ruleset"]
    elif group_id is not None:
        stats_mark_group_stale(group_id=group_id)
        return group_id
    else:
        logger.info("stats: match %s is gone and left no standings; nothing to mark", match_id)
        return None
    _dirty_record(group_id=group_id, match_id=match_id)
    _mark_match(
        match_id=match_id, group_id=group_id, ruleset=ruleset, finished_at=finished_at, players=players, old=old
    )
    return group_id


def stats_mark_group_stale(*, group_id: int) -> None:
    """Everything in a group must be recomputed (players merged, data imported)."""
    _dirty_record(group_id=group_id, match_id=StatsDirty.WHOLE_GROUP)
    _mark(Q(group_id=group_id))
