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

from .bulk import BulkWriter
from .models import MatchStanding, RatingHistory
from .sql import aware, rows, stream
from .sql import dt as dt_param

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
    sides' ranks (the backtest of ``analytics.doubt`` rides on the replay this way).
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
