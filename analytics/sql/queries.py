"""The SQL aggregates behind every snapshot of one group (PostgreSQL in production, SQLite for ``make run``).

Each function runs one aggregate query over a group's finished-match standings, rating history or live
scores and returns small, already aggregated rows (one per player × game, per pair, per month …): the
database does the counting, Python only arranges the answers.  The memory used is bounded by the size of
a group's answers, not by the length of its history; head-to-head alone reads the group's standings (four
numbers per seat) and pairs each match's seats in Python, so that no plan can make it quadratic.
"""

from __future__ import annotations

from typing import Any

from django.db import connection

from analytics.models import MatchStanding, RatingHistory
from analytics.sql.builder import dt, month, rows
from analytics.stats import StatsFilter
from scoring.models import Match, Round, RoundCheck, Score
from scoring.selectors.confirming import confirmed_only_sql

ST = MatchStanding._meta.db_table
RH = RatingHistory._meta.db_table
MATCH = Match._meta.db_table
ROUND = Round._meta.db_table
SCORE = Score._meta.db_table
CHECK = RoundCheck._meta.db_table

# Rating histories longer than this are drawn with the last rating of each month only.
RATING_POINTS_MAX = 300


def where(alias: str, group_id: int, flt: StatsFilter, *, players: bool = True) -> tuple[str, list[Any]]:
    """The filter of a snapshot as a WHERE clause on a standings-like table (``group_id``, ``finished_at``,
    ``match_id``); "confirmed rounds only" keeps the matches whose every live round is confirmed in its current
    version (a match recorded from its final scores has none to confirm, so it is left out)."""
    parts = [f"{alias}.group_id = %s"]
    params: list[Any] = [group_id]
    bounds = flt.bounds()
    if bounds is not None:
        parts.append(f"{alias}.finished_at >= %s AND {alias}.finished_at < %s")
        params += [dt(bounds[0]), dt(bounds[1])]
    if players and flt.players is not None:
        parts.append(f"{alias}.players = %s")
        params.append(flt.players)
    if flt.confirmed:
        parts.append(confirmed_only_sql(f"{alias}.match_id", ROUND, CHECK))
    return " AND ".join(parts), params


def player_games(group_id: int, flt: StatsFilter) -> list[dict[str, Any]]:
    """Per player and game: matches, wins, best/worst total, summed ranks, rounds and points."""
    cond, params = where("s", group_id, flt)
    return rows(
        f"""
        SELECT s.player_id, s.ruleset, COUNT(*) AS matches,
               SUM(CASE WHEN s.won THEN 1 ELSE 0 END) AS wins,
               MAX(s.total) AS best_total, MIN(s.total) AS worst_total,
               SUM(s.rank) AS sum_rank, SUM(s.rounds) AS rounds, SUM(s.total) AS points,
               SUM(CASE WHEN s.rounds > 0 THEN s.total ELSE 0 END) AS round_points
        FROM {ST} s WHERE {cond}
        GROUP BY s.player_id, s.ruleset
        ORDER BY s.player_id, s.ruleset
        """,
        params,
    )


def streaks(group_id: int, flt: StatsFilter, *, by_game: bool) -> list[dict[str, Any]]:
    """Longest winning and losing runs and the current run, per player (and game), gaps-and-islands style.

    A run starts where the result differs from the previous match's; the running count of starts numbers the
    runs.  Both windows share one ordering, so PostgreSQL sorts the group's standings once (the former
    ROW_NUMBER-difference form sorted them twice: 91 -> 66 ms for the largest benchmark group by game).
    """
    cond, params = where("s", group_id, flt)
    part = "s.player_id, s.ruleset" if by_game else "s.player_id"
    game = "s.ruleset" if by_game else "''"
    return rows(
        f"""
        WITH marks AS (
            SELECT s.player_id, {game} AS ruleset, s.won,
                   CASE WHEN s.won = LAG(s.won) OVER w THEN 0 ELSE 1 END AS starts,
                   ROW_NUMBER() OVER w AS rn
            FROM {ST} s WHERE {cond}
            WINDOW w AS (PARTITION BY {part} ORDER BY s.finished_at, s.match_id)
        ),
        seq AS (
            SELECT player_id, ruleset, won,
                   SUM(starts) OVER (PARTITION BY player_id, ruleset ORDER BY rn ROWS UNBOUNDED PRECEDING) AS grp
            FROM marks
        ),
        runs AS (
            SELECT player_id, ruleset, won, grp, COUNT(*) AS len,
                   MAX(grp) OVER (PARTITION BY player_id, ruleset) AS last_grp
            FROM seq GROUP BY player_id, ruleset, won, grp
        )
        SELECT player_id, ruleset,
               MAX(CASE WHEN won THEN len ELSE 0 END) AS longest_win,
               MAX(CASE WHEN won THEN 0 ELSE len END) AS longest_loss,
               MAX(CASE WHEN grp = last_grp THEN (CASE WHEN won THEN len ELSE -len END) END) AS current
        FROM runs
        GROUP BY player_id, ruleset
        ORDER BY player_id, ruleset
        """,
        params,
    )


def head_to_head(group_id: int, flt: StatsFilter) -> list[dict[str, Any]]:
    """Per game and ordered pair of players who met: matches together, better rank, worse rank.

    The group's standings are read once and each match's seats are paired here, so the work grows with the
    group's standings whatever the planner believes about them. The former self-join of the standings on the
    match was planned from the table's statistics: for a group whose standings were written after the table
    was last analysed (a new group, until autovacuum analyses the table again; every group but the first few
    in a first full rebuild), PostgreSQL expected one row and joined the group's 16 000 standings to themselves
    in a nested loop, 29 s on the 1 000 000-round benchmark history (tests/benchmarks/RESULTS.md).
    """
    cond, params = where("s", group_id, flt)
    tally: dict[tuple[str, int, int], list[int]] = {}

    def pair(seats: list[tuple[Any, ...]]) -> None:
        for _m, ruleset, player, rank in seats:
            for _m2, _r2, opponent, other in seats:
                if opponent != player:
                    counts = tally.setdefault((ruleset, player, opponent), [0, 0, 0])
                    counts[0] += 1
                    counts[1] += rank < other
                    counts[2] += rank > other

    with connection.cursor() as cursor:  # a plain cursor: a server-side one is planned for its first tenth
        cursor.execute(f"SELECT s.match_id, s.ruleset, s.player_id, s.rank FROM {ST} s WHERE {cond}", params)
        found = sorted(cursor.fetchall())
    seats: list[tuple[Any, ...]] = []
    for seat in found:
        if seats and seat[0] != seats[0][0]:
            pair(seats)
            seats = []
        seats.append(seat)
    pair(seats)
    return [
        {"ruleset": ruleset, "player_id": player, "opponent_id": opponent, "played": n, "wins": w, "losses": lost}
        for (ruleset, player, opponent), (n, w, lost) in sorted(tally.items())
    ]


def monthly(group_id: int, flt: StatsFilter) -> list[dict[str, Any]]:
    """Per player, game and month: matches, wins, summed totals and ranks (score and rank over time)."""
    cond, params = where("s", group_id, flt)
    m = month("s.finished_at")
    return rows(
        f"""
        SELECT s.player_id, s.ruleset, {m} AS month, COUNT(*) AS matches,
               SUM(CASE WHEN s.won THEN 1 ELSE 0 END) AS wins, SUM(s.total) AS sum_total, SUM(s.rank) AS sum_rank
        FROM {ST} s WHERE {cond}
        GROUP BY s.player_id, s.ruleset, {m}
        ORDER BY s.player_id, s.ruleset, month
        """,
        params,
    )


def games(group_id: int, flt: StatsFilter) -> list[dict[str, Any]]:
    """Per game: finished matches, rounds, distinct players, average winning total, first/last played."""
    cond, params = where("s", group_id, flt)
    return rows(
        f"""
        SELECT s.ruleset, COUNT(DISTINCT s.match_id) AS matches, COUNT(DISTINCT s.player_id) AS players,
               SUM(CASE WHEN s.seat = 0 THEN s.rounds ELSE 0 END) AS rounds,
               AVG(CASE WHEN s.won THEN s.total * 1.0 END) AS avg_winning_total,
               MIN(s.finished_at) AS first_at, MAX(s.finished_at) AS last_at
        FROM {ST} s WHERE {cond}
        GROUP BY s.ruleset ORDER BY s.ruleset
        """,
        params,
    )


def played_rulesets(group_id: int, flt: StatsFilter) -> set[str]:
    """The games with finished matches in the filter (the games ``games`` answers for)."""
    cond, params = where("s", group_id, flt)
    return {row["ruleset"] for row in rows(f"SELECT DISTINCT s.ruleset FROM {ST} s WHERE {cond}", params)}


def activity(group_id: int, flt: StatsFilter) -> list[dict[str, Any]]:
    """Finished matches per game and month."""
    cond, params = where("s", group_id, flt)
    m = month("s.finished_at")
    return rows(
        f"""
        SELECT s.ruleset, {m} AS month, COUNT(*) AS matches
        FROM {ST} s WHERE {cond} AND s.seat = 0
        GROUP BY s.ruleset, {m} ORDER BY s.ruleset, month
        """,
        params,
    )


def filter_options(group_id: int) -> list[dict[str, Any]]:
    """The years and player counts that occur, per game and player (to offer as filters)."""
    y = month("s.finished_at")
    return rows(
        f"""
        SELECT DISTINCT s.ruleset, s.player_id, SUBSTR({y}, 1, 4) AS year, s.players
        FROM {ST} s WHERE s.group_id = %s ORDER BY s.ruleset, s.player_id, year, s.players
        """,
        [group_id],
    )


def live(group_id: int) -> dict[str, Any]:
    """What is being played now: open matches and the live rounds entered (all matches, unfiltered)."""
    result = rows(
        f"""
        SELECT (SELECT COUNT(*) FROM {MATCH} m WHERE m.group_id = %s AND m.state = 'open') AS open_matches,
               (SELECT COUNT(*) FROM {ROUND} r JOIN {MATCH} m ON m.id = r.match_id
                WHERE m.group_id = %s AND r.deleted_at IS NULL) AS rounds_entered
        """,
        [group_id, group_id],
    )
    return result[0]


def live_players(group_id: int) -> list[dict[str, Any]]:
    """Per player: live rounds entered and points in them, open matches included."""
    return rows(
        f"""
        SELECT sc.player_id, COUNT(*) AS rounds_entered, SUM(sc.points) AS points_entered
        FROM {SCORE} sc JOIN {MATCH} m ON m.id = sc.match_id
        WHERE m.group_id = %s
        GROUP BY sc.player_id ORDER BY sc.player_id
        """,
        [group_id],
    )


def ratings_current(group_id: int, flt: StatsFilter, *, ruleset: str | None = None) -> list[dict[str, Any]]:
    """Per game (or for ``ruleset`` only) and player: the rating after the last rated match up to the end of
    the period, for the players rated in the period (``rated``: how many matches of the period rated them).

    A player-count filter's ratings are not these (they are earned at that table size only):
    ``ratings.ratings_of_filter``."""
    params: list[Any] = []
    counted = "1"
    bounds = flt.bounds()
    if bounds is not None:
        counted = "CASE WHEN h.finished_at >= %s THEN 1 ELSE 0 END"
        params.append(dt(bounds[0]))
    params.append(group_id)
    cond = "h.group_id = %s"
    if ruleset is not None:
        cond += " AND h.ruleset = %s"
        params.append(ruleset)
    if bounds is not None:
        cond += " AND h.finished_at < %s"
        params.append(dt(bounds[1]))
    return rows(
        f"""
        SELECT x.ruleset, x.player_id, x.mu, x.sigma, x.ordinal, x.rated FROM (
            SELECT h.ruleset, h.player_id, h.mu, h.sigma, h.ordinal,
                   ROW_NUMBER() OVER (PARTITION BY h.ruleset, h.player_id
                                      ORDER BY h.finished_at DESC, h.match_id DESC) AS rk,
                   SUM({counted}) OVER (PARTITION BY h.ruleset, h.player_id) AS rated
            FROM {RH} h WHERE {cond}
        ) x WHERE x.rk = 1 AND x.rated > 0
        ORDER BY x.ruleset, x.ordinal DESC, x.player_id
        """,
        params,
    )


def ratings_history(group_id: int, flt: StatsFilter, *, ruleset: str | None = None) -> list[dict[str, Any]]:
    """Per game (or for ``ruleset`` only) and player, the rating after each match in the period (the last of
    each month when long)."""
    cond, params = where("h", group_id, flt, players=False)
    if ruleset is not None:
        cond += " AND h.ruleset = %s"
        params.append(ruleset)
    m = month("h.finished_at")
    return rows(
        f"""
        SELECT x.ruleset, x.player_id, x.match_id, x.finished_at, x.mu, x.sigma, x.ordinal FROM (
            SELECT h.ruleset, h.player_id, h.match_id, h.finished_at, h.mu, h.sigma, h.ordinal,
                   ROW_NUMBER() OVER (PARTITION BY h.ruleset, h.player_id, {m}
                                      ORDER BY h.finished_at DESC, h.match_id DESC) AS in_month,
                   COUNT(*) OVER (PARTITION BY h.ruleset, h.player_id) AS n
            FROM {RH} h WHERE {cond}
        ) x WHERE x.n <= %s OR x.in_month = 1
        ORDER BY x.ruleset, x.player_id, x.finished_at, x.match_id
        """,
        [*params, RATING_POINTS_MAX],
    )
