"""OpenSkill (Plackett-Luce) ratings per game within a group, one update per finished match.

Matches are replayed in (finished_at, match id) order from the final standings: each player is a team of
one ranked by the match's final rank, so tied players get equal ranks (openskill treats equal ranks as a
draw between them).  The conservative value shown to players is the ordinal μ − 3σ.  Editing, deleting or
re-finishing a match replays the game's ratings from the earliest affected match on; the result is the
same as a replay from scratch because the replay is deterministic and starts from the stored ratings just
before that match.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from typing import Any

from django.db import transaction
from django.db.models import Q
from openskill.models import PlackettLuce

from analytics.models import MatchStanding, RatingHistory
from analytics.sql.builder import aware, rows, stream
from analytics.sql.builder import dt as dt_param
from analytics.sql.bulk import BulkWriter
from analytics.stats import StatsFilter

ST = MatchStanding._meta.db_table
RH = RatingHistory._meta.db_table
BATCH = 5000

MODEL = PlackettLuce()  # openskill's defaults: μ 25, σ 25/3, β 25/6, τ 25/300

MatchKey = tuple[dt.datetime, int]


def _before(alias: str, key: MatchKey) -> tuple[str, list[Any]]:
    return (
        f"({alias}.finished_at < %s OR ({alias}.finished_at = %s AND {alias}.match_id < %s))",
        [dt_param(key[0]), dt_param(key[0]), key[1]],
    )


def _start_ratings(group_id: int, ruleset: str, since: MatchKey | None) -> dict[int, Any]:
    """Every player's rating just before ``since`` (empty when replaying from scratch)."""
    if since is None:
        return {}
    cond, params = _before("h", since)
    found = rows(
        f"""
        SELECT x.player_id, x.mu, x.sigma FROM (
            SELECT h.player_id, h.mu, h.sigma,
                   ROW_NUMBER() OVER (PARTITION BY h.player_id ORDER BY h.finished_at DESC, h.match_id DESC) AS rk
            FROM {RH} h WHERE h.group_id = %s AND h.ruleset = %s AND {cond}
        ) x WHERE x.rk = 1
        """,
        [group_id, ruleset, *params],
    )
    return {row["player_id"]: MODEL.rating(mu=row["mu"], sigma=row["sigma"]) for row in found}


def ratings_before(*, group_id: int, ruleset: str, key: MatchKey) -> dict[int, Any]:
    """Every rated player's rating just before match ``key`` = (finished_at, match id); a player missing from the
    answer had not played the game yet (``MODEL.rating()``)."""
    return _start_ratings(group_id, ruleset, key)


def sides_of(match: list[tuple[Any, ...]]) -> list[list[tuple[Any, ...]]]:
    """The sides a match was rated in, from its standings rows ``(match_id, finished_at, player_id, rank, team)``."""
    return _sides(match)


def _matches(group_id: int, ruleset: str, since: MatchKey | None) -> Iterator[list[tuple[Any, ...]]]:
    """Standings rows ``(match_id, finished_at, player_id, rank, team)`` grouped by match, in rating order."""
    after, params = ("", []) if since is None else _before("s", since)
    sql = f"""
        SELECT s.match_id, s.finished_at, s.player_id, s.rank, s.team FROM {ST} s
        WHERE s.group_id = %s AND s.ruleset = %s {f"AND NOT {after}" if after else ""}
        ORDER BY s.finished_at, s.match_id, s.seat
    """
    current: list[tuple[Any, ...]] = []
    for row in stream(sql, [group_id, ruleset, *params]):
        if current and row[0] != current[0][0]:
            yield current
            current = []
        current.append(row)
    if current:
        yield current


def _sides(match: list[tuple[Any, ...]]) -> list[list[tuple[Any, ...]]]:
    """The sides of a match: fixed partnerships together, everyone else alone (in seat order)."""
    sides: list[list[tuple[Any, ...]]] = []
    by_team: dict[int, list[tuple[Any, ...]]] = {}
    for row in match:
        team = row[4]
        if team is None:
            sides.append([row])
        elif team in by_team:
            by_team[team].append(row)
        else:
            by_team[team] = [row]
            sides.append(by_team[team])
    return sides


def ratings_replay(
    *,
    group_id: int,
    ruleset: str,
    since: MatchKey | None = None,
    before: Callable[[list[list[Any]], list[float]], None] | None = None,
) -> int:
    """Recompute one game's ratings in one group from match ``since`` on (``None``: from scratch).

    ``before`` (if given) hears every rated match before it is rated: its sides' ratings just before it and the
    sides' ranks (the backtest of ``analytics.ratings.doubt`` rides on the replay this way).
    Returns the number of matches rated.
    """
    with transaction.atomic():
        stale = RatingHistory.objects.filter(group_id=group_id, ruleset=ruleset)
        if since is not None:
            f, mid = since
            stale = stale.filter(Q(finished_at__gt=f) | Q(finished_at=f, match_id__gte=mid))
        stale.delete()
        current = _start_ratings(group_id, ruleset, since)
        writer = BulkWriter()
        rated = 0
        for match in _matches(group_id, ruleset, since):
            sides = _sides(match)
            if len(sides) < 2:
                continue
            teams = [[current[row[2]] if row[2] in current else MODEL.rating() for row in side] for side in sides]
            ranks = [float(min(row[3] for row in side)) for side in sides]
            if before is not None:
                before(teams, ranks)
            new = MODEL.rate(teams, ranks=ranks)
            rated += 1
            for side, ratings in zip(sides, new, strict=True):
                for (match_id, finished_at, player_id, rank, _team), rating in zip(side, ratings, strict=True):
                    current[player_id] = rating
                    writer.add(
                        RatingHistory,
                        {
                            "group_id": group_id,
                            "ruleset": ruleset,
                            "player_id": player_id,
                            "match_id": match_id,
                            "finished_at": aware(finished_at),
                            "rank": rank,
                            "mu": rating.mu,
                            "sigma": rating.sigma,
                            "ordinal": rating.ordinal(),
                        },
                    )
            if writer.pending >= BATCH:
                writer.flush()
        writer.flush()
    return rated


def ratings_of_filter(
    *, group_id: int, ruleset: str, flt: StatsFilter, points_max: int
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """One game's ratings worked out from the matches a player-count filter keeps (``flt.players`` players; up to
    the end of ``flt``'s year, if any), replayed here the way :func:`ratings_replay` rates the whole history.

    Answers the rows ``queries.ratings_current`` and ``queries.ratings_history`` answer for the unfiltered history:
    the current rating of every player rated in the filter's period (``rated``: how many of its matches), best
    first; and each player's rating after every match of the period (the last of each month when there are more
    than ``points_max``).  So "Players = 3" shows ratings earned at 3-player tables only.
    """
    bounds = flt.bounds()
    cond, params = "s.group_id = %s AND s.ruleset = %s AND s.players = %s", [group_id, ruleset, flt.players]
    if bounds is not None:
        cond += " AND s.finished_at < %s"
        params.append(dt_param(bounds[1]))
    sql = f"""
        SELECT s.match_id, s.finished_at, s.player_id, s.rank, s.team FROM {ST} s
        WHERE {cond} ORDER BY s.finished_at, s.match_id, s.seat
    """
    start = aware(bounds[0]) if bounds is not None else None
    current: dict[int, Any] = {}
    history: dict[int, list[dict[str, Any]]] = {}
    match: list[tuple[Any, ...]] = []

    def rate(match: list[tuple[Any, ...]]) -> None:
        sides = _sides(match)
        if len(sides) < 2:
            return
        teams = [[current[row[2]] if row[2] in current else MODEL.rating() for row in side] for side in sides]
        new = MODEL.rate(teams, ranks=[float(min(row[3] for row in side)) for side in sides])
        for side, ratings in zip(sides, new, strict=True):
            for (match_id, finished_at, player_id, _rank, _team), rating in zip(side, ratings, strict=True):
                current[player_id] = rating
                when = aware(finished_at)
                if start is None or when >= start:
                    history.setdefault(player_id, []).append(
                        {
                            "ruleset": ruleset,
                            "player_id": player_id,
                            "match_id": match_id,
                            "finished_at": when,
                            "mu": rating.mu,
                            "sigma": rating.sigma,
                            "ordinal": rating.ordinal(),
                        }
                    )

    for row in stream(sql, params):
        if match and row[0] != match[0][0]:
            rate(match)
            match = []
        match.append(row)
    if match:
        rate(match)
    now = [{**points[-1], "rated": len(points)} for points in history.values()]
    now.sort(key=lambda r: (-r["ordinal"], r["player_id"]))
    drawn: list[dict[str, Any]] = []
    for player_id in sorted(history):
        points = history[player_id]
        if len(points) > points_max:  # the last rating of each month, as the SQL history does
            last: dict[str, dict[str, Any]] = {}
            for point in points:
                last[point["finished_at"].astimezone(dt.UTC).strftime("%Y-%m")] = point
            points = list(last.values())
        drawn += points
    current_rows = [{k: r[k] for k in ("ruleset", "player_id", "mu", "sigma", "ordinal", "rated")} for r in now]
    return current_rows, drawn
