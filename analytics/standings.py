"""Final standings of finished matches: totals, ranks and winners as each game's rules decide them.

A standing is derived from the match's live rounds only.  Totals are the sums of the stored per-seat
points; the winners come from the game's own ``match_state`` (Abluxxen breaks ties by cards in hand,
Was sticht? is won by finishing the tasks); a match finished by hand before its end condition, or one
the rules engine cannot read, falls back to the highest total.  Games whose winners are always the
highest totals (``WINNERS_BY_TOTALS``) are ranked from their points alone: their facts are not even read.
The games played without fixed partnerships are ranked by one SQL statement over the score rows
(:func:`_insert_ranked`), which gives what :func:`standing_rows` would without the Python round trip; for
Abluxxen and Was sticht? it reads the winners the match recorded when its rounds were last scored
(``Match.winners``), and only a match that never recorded them is replayed here.  A totals-only match (recorded
from its final scores, no rounds) is ranked from ``Match.totals`` with ``rounds`` 0 (:func:`_totals_only`).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from django.db import connection, transaction

from analytics.models import MatchStanding
from analytics.sql.builder import aware, jhas_int, jlen, stream
from analytics.sql.bulk import BulkWriter
from analytics.stats import ranks_of
from scoring import rules
from scoring.models import Match, Round, Score, Seat
from scoring.rules.types import best_seats

logger = logging.getLogger(__name__)

BATCH = 5000
ROUND = Round._meta.db_table
MATCH = Match._meta.db_table
SEAT = Seat._meta.db_table
SCORE = Score._meta.db_table


def winners_of(
    ruleset: str, options: dict[str, Any], players: int, rounds: Sequence[tuple[Any, Sequence[int]]], totals: list[int]
) -> tuple[tuple[int, ...], dict[int, int] | None]:
    """The winning seats (the rules engine's answer for a match played to its end, else the best totals)
    and the fixed partnerships, if the game has them."""
    try:
        game = rules.get(ruleset)
        opts = game.options_parse(options, players=players)
        if game.winners_by_totals:  # what match_state would say, without parsing the facts
            return best_seats(totals), game.fixed_teams(opts, players=players)
        facts = [data for data, _points in rounds]
        history = game.history(facts, players=players, options=opts, stored=[points for _data, points in rounds])
        state = game.module.match_state(history, players=players, options=opts)
    except Exception as exc:  # a game module that cannot read old data must not stop the statistics
        logger.info("standings: %s match state failed (%r); using the best totals", ruleset, exc)
        return best_seats(totals), None
    found = state.final_winners()
    return (tuple(found) if found else best_seats(totals)), game.fixed_teams(opts, players=players)


def standing_rows(
    *,
    match_id: int,
    group_id: int,
    ruleset: str,
    options: dict[str, Any],
    finished_at: Any,
    seats: Sequence[tuple[int, int]],
    rounds: Sequence[tuple[Any, Sequence[int]]],
) -> list[dict[str, Any]]:
    """The standings rows of one finished match from its seats ``(number, player_id)`` and live rounds."""
    if not rounds or len(seats) < 2:
        return []
    seats = sorted(seats)
    players = len(seats)
    totals = [0] * players
    for _facts, points in rounds:
        for seat, value in enumerate(list(points)[:players]):
            totals[seat] += int(value)
    found, teams = winners_of(ruleset, options, players, rounds, totals)
    winners = set(found)
    ranks = ranks_of(totals, winners)
    return [
        {
            "match_id": match_id,
            "group_id": group_id,
            "player_id": player_id,
            "ruleset": ruleset,
            "seat": number,
            "team": teams.get(number) if teams else None,
            "players": players,
            "finished_at": finished_at,
            "rounds": len(rounds),
            "total": totals[number],
            "rank": ranks[number],
            "won": number in winners,
        }
        for number, player_id in seats
    ]


def _sql_list(keys: Iterable[str]) -> str:
    """Game keys as SQL literals (the keys are ours: a-z and -)."""
    return ", ".join(f"'{key}'" for key in keys) or "''"


# the games whose winners the rules engine names from the round facts (not simply the best totals)
_RULES_NAME_WINNERS = frozenset(game.key for game in rules.all_rulesets() if not game.winners_by_totals)
_FACTS_IF_NEEDED = f"CASE WHEN m.ruleset IN ({_sql_list(sorted(_RULES_NAME_WINNERS))}) THEN r.facts END"
# the games ranked in SQL: those with no fixed partnerships to read from the options; of them, a game whose
# winners the rules name only where the match has recorded them
SQL_RANKED = frozenset(game.key for game in rules.all_rulesets() if not game.has_fixed_teams)
_BY_TOTALS = _sql_list(sorted(SQL_RANKED - _RULES_NAME_WINNERS))
_BY_RULES = _sql_list(sorted(SQL_RANKED & _RULES_NAME_WINNERS))
_IN_SQL = f"(m.ruleset IN ({_BY_TOTALS}) OR (m.ruleset IN ({_BY_RULES}) AND m.winners IS NOT NULL))"


def ranked_in_sql(ruleset: str, winners: Any) -> bool:
    """Whether a match of ``ruleset`` that recorded ``winners`` is ranked in SQL (what ``_IN_SQL`` says)."""
    return ruleset in SQL_RANKED and (ruleset not in _RULES_NAME_WINNERS or winners is not None)


def _insert_ranked(where: str, params: list[Any]) -> int:
    """Write the standings of the selected finished matches ranked in SQL (``_IN_SQL``) in one statement.

    What :func:`standing_rows` gives them, set-based: each seat's total is the sum of its player's score rows
    (one per seated player in every live round; summed per player, so that score_match_idx serves it); the
    winners are the seats the match recorded (``Match.winners``) for a game whose rules name them, else, and
    when it recorded none, the best totals; the winners come first, then everyone by total, with competition
    ranks (:func:`~analytics.stats.ranks_of`).  A match without live rounds or with fewer than two seats gets no
    rows.  Returns the rows written.
    """
    finished = f"m.state = 'finished' AND {_IN_SQL} AND {where}"
    by_rules = f"m.ruleset IN ({_BY_RULES}) AND {jlen('m.winners')} > 0"
    sql = f"""
        INSERT INTO {MatchStanding._meta.db_table} (match_id, group_id, player_id, ruleset, seat, team, players,
                                                    finished_at, rounds, total, "rank", won)
        SELECT match_id, group_id, player_id, ruleset, seat, NULL, players, finished_at, rounds, total,
               RANK() OVER (PARTITION BY match_id ORDER BY won DESC, total DESC), won
        FROM (
            SELECT seated.*, CASE WHEN by_rules THEN {jhas_int("winners", "seat")} ELSE total = best END AS won
            FROM (
                SELECT m.id AS match_id, m.group_id, s.player_id, m.ruleset, s.number AS seat, m.finished_at,
                       m.winners, {by_rules} AS by_rules, COUNT(*) OVER (PARTITION BY m.id) AS players,
                       live.n AS rounds, COALESCE(tot.total, 0) AS total,
                       MAX(COALESCE(tot.total, 0)) OVER (PARTITION BY m.id) AS best
                FROM {MATCH} m
                JOIN {SEAT} s ON s.match_id = m.id
                JOIN (SELECT r.match_id, COUNT(*) AS n FROM {ROUND} r JOIN {MATCH} m ON m.id = r.match_id
                      WHERE r.deleted_at IS NULL AND {finished} GROUP BY r.match_id) live ON live.match_id = m.id
                LEFT JOIN (SELECT sc.match_id, sc.player_id, SUM(sc.points) AS total FROM {SCORE} sc
                           JOIN {MATCH} m ON m.id = sc.match_id WHERE {finished}
                           GROUP BY sc.match_id, sc.player_id) tot
                    ON tot.match_id = m.id AND tot.player_id = s.player_id
                WHERE {finished}
            ) seated
            WHERE players >= 2
        ) decided
    """
    with connection.cursor() as cursor:
        cursor.execute(sql, params * 3)  # ``where`` is in the outer query and in both subqueries
        return max(cursor.rowcount, 0)


def _matches(where: str, params: list[Any]) -> Iterator[list[dict[str, Any]]]:
    """Standings of the finished matches selected by ``where`` (on ``m``) not ranked in SQL (``_IN_SQL``),
    streamed match by match.

    Three streams in match order, merged here: the matches, their seats and their live rounds (the match's
    own columns are read once per match, not once per round; a round's facts only for the games whose
    winners need them).
    """
    finished = f"FROM {MATCH} m WHERE m.state = 'finished' AND NOT {_IN_SQL} AND {where}"
    match_sql = f"SELECT m.id, m.group_id, m.ruleset, m.options, m.finished_at {finished} ORDER BY m.id"
    seat_sql = f"""
        SELECT s.match_id, s.number, s.player_id FROM {SEAT} s
        WHERE s.match_id IN (SELECT m.id {finished}) ORDER BY s.match_id, s.number
    """
    round_sql = f"""
        SELECT r.match_id, {_FACTS_IF_NEEDED}, r.points
        FROM {ROUND} r JOIN {MATCH} m ON m.id = r.match_id
        WHERE r.deleted_at IS NULL AND m.state = 'finished' AND NOT {_IN_SQL} AND {where}
        ORDER BY r.match_id, r.number
    """
    seats = _group_by_match(stream(seat_sql, params))
    rounds = _group_by_match((row[0], (_json(row[1]), _json(row[2]))) for row in stream(round_sql, params))
    next_seats, next_rounds = next(seats, None), next(rounds, None)
    for match_id, group_id, ruleset, options, finished_at in stream(match_sql, params):
        while next_seats is not None and next_seats[0] < match_id:
            next_seats = next(seats, None)
        while next_rounds is not None and next_rounds[0] < match_id:
            next_rounds = next(rounds, None)
        yield standing_rows(
            match_id=match_id,
            group_id=group_id,
            ruleset=ruleset,
            options=_json(options),
            finished_at=aware(finished_at),
            seats=next_seats[1] if next_seats is not None and next_seats[0] == match_id else [],
            rounds=next_rounds[1] if next_rounds is not None and next_rounds[0] == match_id else [],
        )


def _group_by_match(rows: Iterable[tuple[int, Any]]) -> Iterator[tuple[int, list[Any]]]:
    """``(match_id, *rest)`` rows in match order -> ``(match_id, [rest, ...])`` per match."""
    match_id: int | None = None
    items: list[Any] = []
    for mid, *rest in rows:
        if match_id is not None and mid != match_id:
            yield match_id, items
            items = []
        match_id = mid
        items.append(rest[0] if len(rest) == 1 else tuple(rest))
    if match_id is not None:
        yield match_id, items


def _json(value: Any) -> Any:
    if isinstance(value, str | bytes):
        import json

        return json.loads(value)
    return value


def _write(batches: Iterable[list[dict[str, Any]]]) -> int:
    """Insert standings in batches (COPY on PostgreSQL); call inside a transaction."""
    writer = BulkWriter()
    written = 0
    for batch in batches:
        for row in batch:
            writer.add(MatchStanding, row)
            written += 1
        if writer.pending >= BATCH:
            writer.flush()
    writer.flush()
    return written


def _totals_only(matches: Any) -> Iterator[list[dict[str, Any]]]:
    """Standings of finished totals-only matches (``Match.totals``, no rounds): ``rounds`` is 0, the winners are
    the seats the match recorded (the best totals), the partnerships those its options fix."""
    for match in matches.filter(state=Match.State.FINISHED, totals_only=True).prefetch_related("seats").order_by("pk"):
        seats = sorted((seat.number, seat.player_id) for seat in match.seats.all())
        totals = [int(v) for v in (match.totals or [])]
        if len(seats) < 2 or len(totals) != len(seats):
            continue
        winners = set(match.winners or best_seats(totals))
        try:
            game = rules.get(match.ruleset)
            teams = game.fixed_teams(game.options_parse(match.options, players=len(seats)), players=len(seats))
        except Exception as exc:  # options an old ruleset cannot read must not stop the statistics
            logger.info("standings: totals-only match %s options failed (%r)", match.pk, exc)
            teams = None
        ranks = ranks_of(totals, winners)
        yield [
            {
                "match_id": match.pk,
                "group_id": match.group_id,
                "player_id": player_id,
                "ruleset": match.ruleset,
                "seat": number,
                "team": teams.get(number) if teams else None,
                "players": len(seats),
                "finished_at": match.finished_at,
                "rounds": 0,
                "total": totals[number],
                "rank": ranks[number],
                "won": number in winners,
            }
            for number, player_id in seats
        ]


def standings_match_refresh(*, match_id: int) -> int:
    """Recompute one match's standings (none when it is open, empty or deleted); returns the rows written."""
    with transaction.atomic():
        MatchStanding.objects.filter(match_id=match_id).delete()
        found = Match.objects.filter(pk=match_id).values_list("ruleset", "winners", "totals_only").first()
        if found is None:
            return 0
        if found[2]:
            return _write(_totals_only(Match.objects.filter(pk=match_id)))
        if ranked_in_sql(found[0], found[1]):
            return _insert_ranked("m.id = %s", [match_id])
        return _write(_matches("m.id = %s", [match_id]))


def standings_group_rebuild(*, group_id: int) -> int:
    """Recompute the standings of every finished match of a group (streamed; bounded memory)."""
    with transaction.atomic():
        MatchStanding.objects.filter(group_id=group_id).delete()
        where = "m.group_id = %s"
        return (
            _insert_ranked(where, [group_id])
            + _write(_matches(where, [group_id]))
            + _write(_totals_only(Match.objects.filter(group_id=group_id)))
        )
