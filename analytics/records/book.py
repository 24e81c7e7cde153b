"""A group's records per game (issue 47 part 2): the best round, the best match, the longest winning streak and
what each game's facts add (MÜ's biggest bid made and missed, NJET's most booty, Meinz's highest card sum, the
quickest win where a match has no fixed length).

The worker keeps them in ``RecordBook`` (one row per group, game and kind: the best ``KEPT`` entries and how many
there are), recomputed for a game whenever its standings change (a match finishes, a finished match changes):
every page and the board then read a handful of rows, never the group's history. They cover finished matches,
as every statistic does; the board adds the match being played (``analytics.records.news``).

Each kind says in one place how a value is read from SQL (the worker) and from a round as the board holds it
(the announcement), so that both read the same facts: the round's stored facts, and for MÜ whether the chief made
the target as the rules engine said when it scored the round (its explanation line ``mue.made``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connection, transaction
from django.utils.translation import gettext_lazy as _

from analytics.models import MatchStanding, RecordBook
from analytics.sql.builder import explanation_has, jget, jget_int, jitem_int, rows
from analytics.stats import iso
from scoring import rules
from scoring.models import Round, Score

ST = MatchStanding._meta.db_table
ROUND = Round._meta.db_table
SCORE = Score._meta.db_table

KEPT = 15  # entries kept per kind: the board's "top 3" stays exact with up to 8 seats of the match left out
ALL_GAMES = frozenset(rules.KEYS)


@dataclass(frozen=True)
class Kind:
    key: str
    label: Any  # what the record is, in words ("most points in a round")
    scope: str  # "round": one player in one round; "match": one player in one match; "streak": matches in a row
    games: frozenset[str]
    lower: bool = False  # the lowest value is the record


KINDS: tuple[Kind, ...] = (
    # Meinz gives 3/1/0/2 point cards a round, Was sticht? a task or two: no round worth a cheer there
    Kind("round_points", _("most points in a round"), "round", ALL_GAMES - {"meinz", "was-sticht"}),
    Kind("match_total", _("most points in a match"), "match", ALL_GAMES - {"was-sticht"}),
    Kind("win_streak", _("longest winning streak"), "streak", ALL_GAMES),
    # the games played to a target rather than for a fixed number of rounds
    Kind("quickest_win", _("fewest rounds to win a match"), "match", frozenset({"mue", "was-sticht"}), lower=True),
    Kind("mue_bid_made", _("biggest bid a chief made"), "round", frozenset({"mue"})),
    Kind("mue_bid_missed", _("biggest bid a chief missed"), "round", frozenset({"mue"})),
    Kind("njet_booty", _("most booty in a round"), "round", frozenset({"njet"})),
    Kind("meinz_sum", _("highest card sum in a round"), "round", frozenset({"meinz"})),
)
BY_KEY = {kind.key: kind for kind in KINDS}


def kinds_of(ruleset: str) -> list[Kind]:
    return [kind for kind in KINDS if ruleset in kind.games]


# --- one value per seat of a round, read the same way in SQL and in Python -------------------------------------


def _seat_sql(kind: Kind) -> tuple[str, str, list[Any]]:
    """``(value, condition, params)`` over ``r`` (the round) and ``sc`` (one seat's score): the seat's value in the
    round, and which seats have one (``params`` for the condition)."""
    if kind.key == "round_points":
        return "sc.points", "", []
    if kind.key == "njet_booty":
        return jitem_int("r.facts", "booty", "sc.seat"), "", []
    if kind.key == "meinz_sum":
        return jitem_int("r.facts", "sums", "sc.seat"), "", []
    made, params = explanation_has("r.explanation", "mue.made")
    chief = f"{jget('r.facts', 'outcome')} = 'played' AND sc.seat = {jget_int('r.facts', 'chief')}"
    verdict = made if kind.key == "mue_bid_made" else f"NOT {made}"
    return jget_int("r.facts", "bid"), f"AND {chief} AND {verdict}", params


def round_values(kind: Kind, facts: Any, points: Sequence[int], msgs: Iterable[str]) -> list[tuple[int, int]]:
    """``(seat, value)`` of one round for a round kind, from the round as stored (what ``_seat_sql`` reads)."""
    facts = facts if isinstance(facts, Mapping) else {}
    if kind.key == "round_points":
        return [(seat, int(p)) for seat, p in enumerate(points)]
    if kind.key in ("njet_booty", "meinz_sum"):
        found = facts.get("booty" if kind.key == "njet_booty" else "sums")
        return [(seat, v) for seat, v in enumerate(found or []) if isinstance(v, int) and seat < len(points)]
    chief, bid = facts.get("chief"), facts.get("bid")
    if facts.get("outcome") != "played" or not isinstance(chief, int) or not isinstance(bid, int):
        return []
    made = "mue.made" in set(msgs)
    return [(chief, bid)] if made == (kind.key == "mue_bid_made") else []


# --- the worker: compute and store ----------------------------------------------------------------------------


def _entry(row: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "value": int(row["val"]),
        "player": row["player_id"],
        "match": row["match_id"],
        "round": row["number"],
        "at": iso(row["happened"]),
    }


def _top_scores(group_id: int, ruleset: str) -> tuple[int, list[dict[str, Any]]]:
    """``round_points`` from the narrow score rows alone (a live round's points, one row per seat): the wide round
    rows (facts, explanation) are read for the kept entries only."""
    found = rows(
        f"""
        SELECT x.val, x.player_id, x.match_id, r.number, r.created_at AS happened, x.total FROM (
            SELECT sc.points AS val, sc.player_id, sc.match_id, sc.round_id, sc.seat, COUNT(*) OVER () AS total
            FROM {ST} st JOIN {SCORE} sc ON sc.match_id = st.match_id
            WHERE st.group_id = %s AND st.ruleset = %s AND st.seat = 0
            ORDER BY sc.points DESC, sc.round_id, sc.seat
            LIMIT %s
        ) x JOIN {ROUND} r ON r.id = x.round_id
        ORDER BY x.val DESC, x.round_id, x.seat
        """,
        [group_id, ruleset, KEPT],
    )
    return (int(found[0]["total"]) if found else 0), [_entry(row) for row in found]


def _top_rounds(group_id: int, ruleset: str, kind: Kind) -> tuple[int, list[dict[str, Any]]]:
    if kind.key == "round_points":
        return _top_scores(group_id, ruleset)
    value, condition, params = _seat_sql(kind)
    found = rows(
        f"""
        SELECT {value} AS val, sc.player_id, r.match_id, r.number, r.created_at AS happened, COUNT(*) OVER () AS total
        FROM {ST} st
        JOIN {ROUND} r ON r.match_id = st.match_id AND r.deleted_at IS NULL
        JOIN {SCORE} sc ON sc.round_id = r.id
        WHERE st.group_id = %s AND st.ruleset = %s AND st.seat = 0 AND {value} IS NOT NULL {condition}
        ORDER BY val {"ASC" if kind.lower else "DESC"}, r.id, sc.seat
        LIMIT %s
        """,
        [group_id, ruleset, *params, KEPT],
    )
    return (int(found[0]["total"]) if found else 0), [_entry(row) for row in found]


def _top_matches(group_id: int, ruleset: str, kind: Kind) -> tuple[int, list[dict[str, Any]]]:
    value, condition = ("st.rounds", "AND st.won AND st.rounds > 0") if kind.key == "quickest_win" else ("st.total", "")
    found = rows(
        f"""
        SELECT {value} AS val, st.player_id, st.match_id, NULL AS number, st.finished_at AS happened,
               COUNT(*) OVER () AS total
        FROM {ST} st WHERE st.group_id = %s AND st.ruleset = %s {condition}
        ORDER BY val {"ASC" if kind.lower else "DESC"}, happened, st.match_id, st.seat
        LIMIT %s
        """,
        [group_id, ruleset, KEPT],
    )
    return (int(found[0]["total"]) if found else 0), [_entry(row) for row in found]


def _top_streaks(group_id: int, ruleset: str) -> tuple[int, list[dict[str, Any]]]:
    """Every player's runs of won matches (each ending at its last win), the longest first; the earlier run of
    equal length first."""
    # a plain cursor over three narrow columns per standing of one game, each player's in the order they finished
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT st.player_id, st.match_id, st.won FROM {ST} st "
            "WHERE st.group_id = %s AND st.ruleset = %s ORDER BY st.player_id, st.finished_at, st.match_id",
            [group_id, ruleset],
        )
        found = cursor.fetchall()
    runs: list[tuple[int, int, int]] = []  # (length, player, its last match)
    player, length, last = None, 0, 0
    for player_id, match_id, won in [*found, (None, 0, False)]:
        if player_id != player or not won:
            if length:
                runs.append((length, player, last))  # type: ignore[arg-type]
            player, length = player_id, 0
        if won:
            length, last = length + 1, match_id
    # the longest first; which of equally long runs at the edge of the kept list stay is told by match id (the
    # kept ones are then ordered by when they ended)
    runs.sort(key=lambda run: (-run[0], run[2]))
    kept = runs[:KEPT]
    ended = dict(
        MatchStanding.objects.filter(match_id__in={run[2] for run in kept}, seat=0).values_list(
            "match_id", "finished_at"
        )
    )
    entries = [{"val": n, "player_id": p, "match_id": m, "number": None, "happened": ended[m]} for n, p, m in kept]
    entries.sort(key=lambda e: (-e["val"], e["happened"], e["match_id"]))
    return len(runs), [_entry(e) for e in entries]


def record_compute(*, group_id: int, ruleset: str, kind: Kind) -> tuple[int, list[dict[str, Any]]]:
    """How many entries a kind has in the group's finished matches of a game, and the best ``KEPT`` of them."""
    if kind.scope == "round":
        return _top_rounds(group_id, ruleset, kind)
    if kind.scope == "match":
        return _top_matches(group_id, ruleset, kind)
    return _top_streaks(group_id, ruleset)


def records_refresh(*, group_id: int, rulesets: Iterable[str] | None = None) -> int:
    """Recompute the group's records of these games (None: of every game it has finished matches in); returns
    the rows written. Called by the worker once the games' standings are up to date."""
    with transaction.atomic():
        stale = RecordBook.objects.filter(group_id=group_id)
        if rulesets is None:
            games = sorted(
                MatchStanding.objects.filter(group_id=group_id).order_by().values_list("ruleset", flat=True).distinct()
            )
        else:
            games = sorted(set(rulesets))
            stale = stale.filter(ruleset__in=games)
        stale.delete()
        books = []
        for ruleset in games:
            for kind in kinds_of(ruleset):
                total, top = record_compute(group_id=group_id, ruleset=ruleset, kind=kind)
                if total:
                    books.append(RecordBook(group_id=group_id, ruleset=ruleset, kind=kind.key, total=total, top=top))
        RecordBook.objects.bulk_create(books)
    return len(books)


# --- reading -------------------------------------------------------------------------------------------------


def record_books(*, group_id: int, ruleset: str | None = None) -> dict[str, dict[str, RecordBook]]:
    """The stored records of a group (of one game): ruleset -> kind -> book. One query."""
    found = RecordBook.objects.filter(group_id=group_id)
    if ruleset is not None:
        found = found.filter(ruleset=ruleset)
    out: dict[str, dict[str, RecordBook]] = {}
    for book in found:
        out.setdefault(book.ruleset, {})[book.kind] = book
    return out
