"""Pure helpers for the statistics: filters, snapshot keys, ranks and the shape of the payloads.

No Django, no database: the aggregation itself runs in SQL (``analytics.sql.queries``); this module only
names things and turns already aggregated rows into the JSON payloads the dashboards and the API read.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scoring.text.numbers import parse_whole

MIN_YEAR, MAX_YEAR = 2000, 2100
MAX_PLAYERS = 8
CONFIRMED_ONLY = "rounds=confirmed"  # the filter key's part for "confirmed rounds only"


@dataclass(frozen=True)
class StatsFilter:
    """Which finished matches a snapshot covers: a calendar year (UTC) and/or a player count, and with
    ``confirmed`` only the matches whose every round the other side confirmed (issue 47)."""

    year: int | None = None
    players: int | None = None
    confirmed: bool = False

    @property
    def key(self) -> str:
        parts = []
        if self.year is not None:
            parts.append(f"period={self.year}")
        if self.players is not None:
            parts.append(f"players={self.players}")
        if self.confirmed:
            parts.append(CONFIRMED_ONLY)
        return ",".join(parts) or "all"

    def bounds(self) -> tuple[dt.datetime, dt.datetime] | None:
        if self.year is None:
            return None
        return (
            dt.datetime(self.year, 1, 1, tzinfo=dt.UTC),
            dt.datetime(self.year + 1, 1, 1, tzinfo=dt.UTC),
        )

    @classmethod
    def parse(cls, key: str | None) -> StatsFilter:
        """Parse a filter key (``"all"``, ``"period=2025"``, ``"players=4"``, both comma-separated).

        Raises ``ValueError`` for anything else, so that a URL cannot create arbitrary snapshots.
        """
        if not key or key == "all":
            return cls()
        values: dict[str, int] = {}
        parts = key.split(",")
        confirmed = CONFIRMED_ONLY in parts
        if confirmed:
            parts.remove(CONFIRMED_ONLY)
            if not parts:
                return cls(confirmed=True)
        for part in parts:
            name, sep, raw = part.partition("=")
            number = parse_whole(raw, max_digits=4) if sep else None
            if number is None or name not in {"period", "players"} or name in values or raw != raw.strip():
                raise ValueError(f"bad filter {key!r}")
            values[name] = number
        year, players = values.get("period"), values.get("players")
        if year is not None and not MIN_YEAR <= year <= MAX_YEAR:
            raise ValueError(f"bad period {year}")
        if players is not None and not 2 <= players <= MAX_PLAYERS:
            raise ValueError(f"bad player count {players}")
        return cls(year=year, players=players, confirmed=confirmed)

    @classmethod
    def from_query(cls, period: str | None, players: str | None, rounds: str | None = None) -> StatsFilter:
        parts = []
        if period and period != "all":
            parts.append(f"period={period}")
        if players and players != "all":
            parts.append(f"players={players}")
        if rounds and rounds != "all":
            if rounds != "confirmed":
                raise ValueError(f"bad rounds {rounds!r}")
            parts.append(CONFIRMED_ONLY)
        return cls.parse(",".join(parts))


ALL = StatsFilter()


def snapshot_key(scope: str, *, group_id: int, player_id: int | None = None, ruleset: str = "", flt: str) -> str:
    if scope == "group":
        return f"group:{group_id}|{flt}"
    if scope == "player":
        return f"player:{player_id}|{flt}"
    return f"game:{group_id}:{ruleset}|{flt}"


def ranks_of(totals: Sequence[int], winners: Iterable[int]) -> list[int]:
    """Competition ranks (1 = best, ties share, "1 2 2 4") from the winners and then the totals.

    The winners (as the game's rules decide them) share rank 1; everyone else is ranked by total, highest
    first, behind all winners.
    """
    won = set(winners)
    keys = [(0 if seat in won else 1, -total) for seat, total in enumerate(totals)]
    return [1 + sum(1 for other in keys if other < mine) for mine in keys]


def h_index(counts: Iterable[int]) -> int:
    """The largest h such that h of the counts are at least h (the reference for the SQL version)."""
    ordered = sorted(counts, reverse=True)
    return sum(1 for k, count in enumerate(ordered, start=1) if count >= k)


def ratio(part: float | int | None, whole: float | int | None) -> float | None:
    if not whole:
        return None
    return round(float(part or 0) / float(whole), 4)


def num(value: Any, digits: int = 2) -> float | None:
    """A number from SQL (int, float or Decimal) rounded for JSON; None stays None."""
    if value is None:
        return None
    return round(float(value), digits)


def index_by(rows: Iterable[Mapping[str, Any]], *keys: str) -> dict[Any, Any]:
    """Rows keyed by one column (or a tuple of several)."""
    out: dict[Any, Any] = {}
    for row in rows:
        k = row[keys[0]] if len(keys) == 1 else tuple(row[name] for name in keys)
        out[k] = row
    return out


def player_line(row: Mapping[str, Any] | None, *, scores: bool = True) -> dict[str, Any]:
    """The standard per-player block: matches, wins, win rate, scores, rank, rounds, points per round.

    ``scores=False`` for blocks that add several games up: their totals are not comparable, so the
    average, best and worst score are left out there.
    """
    row = row or {}
    matches = int(row.get("matches") or 0)
    wins = int(row.get("wins") or 0)
    rounds = int(row.get("rounds") or 0)
    points = int(row.get("points") or 0)
    return {
        "matches": matches,
        "wins": wins,
        "win_rate": ratio(wins, matches),
        "avg_score": num(points / matches) if scores and matches else None,
        "best_score": row.get("best_total") if scores else None,
        "worst_score": row.get("worst_total") if scores else None,
        "avg_rank": num(int(row.get("sum_rank") or 0) / matches) if matches else None,
        "rounds": rounds,
        "points": points,
        # totals-only matches have points but no rounds: only the points scored in rounds count here
        "points_per_round": num(int(row.get("round_points", points) or 0) / rounds) if rounds else None,
    }


def streak_line(row: Mapping[str, Any] | None) -> dict[str, Any]:
    row = row or {}
    return {
        "longest_win_streak": int(row.get("longest_win") or 0),
        "longest_losing_streak": int(row.get("longest_loss") or 0),
        "current_streak": int(row.get("current") or 0),  # +n: n wins in a row, −n: n matches without a win
    }


def h2h_line(row: Mapping[str, Any]) -> dict[str, Any]:
    played = int(row["played"])
    wins, losses = int(row["wins"]), int(row["losses"])
    return {
        "played": played,
        "wins": wins,
        "losses": losses,
        "ties": played - wins - losses,
        "win_rate": ratio(wins, played),
    }


def sum_h2h(rows: Iterable[Mapping[str, Any]]) -> dict[tuple[int, int], dict[str, int]]:
    """Add per-game head-to-head rows up into all-games rows keyed by (player, opponent)."""
    out: dict[tuple[int, int], dict[str, int]] = {}
    for row in rows:
        cell = out.setdefault((row["player_id"], row["opponent_id"]), {"played": 0, "wins": 0, "losses": 0})
        for name in ("played", "wins", "losses"):
            cell[name] += int(row[name])
    return out


def monthly_merge(rows: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Per-month sums of several games (rows with month, matches, wins, sum_total, sum_rank) combined."""
    months: dict[str, dict[str, float]] = {}
    for row in rows:
        cell = months.setdefault(row["month"], {"matches": 0, "wins": 0, "sum_rank": 0})
        cell["matches"] += int(row["matches"])
        cell["wins"] += int(row["wins"])
        cell["sum_rank"] += int(row["sum_rank"])
    return [
        {
            "month": month,
            "matches": int(cell["matches"]),
            "win_rate": ratio(cell["wins"], cell["matches"]),
            "avg_rank": num(cell["sum_rank"] / cell["matches"]),
        }
        for month, cell in sorted(months.items())
    ]


def monthly_line(row: Mapping[str, Any]) -> dict[str, Any]:
    matches = int(row["matches"])
    return {
        "month": row["month"],
        "matches": matches,
        "win_rate": ratio(row["wins"], matches),
        "avg_score": num(int(row["sum_total"]) / matches),
        "avg_rank": num(int(row["sum_rank"]) / matches),
    }


def iso(value: Any) -> str:
    """A timestamp from SQL (aware or naive UTC datetime, or SQLite text) as ``YYYY-MM-DDTHH:MM:SSZ``."""
    if isinstance(value, str):
        value = dt.datetime.fromisoformat(value)
    if value.tzinfo is not None:
        value = value.astimezone(dt.UTC)
    return value.strftime("%Y-%m-%dT%H:%M:%SZ")


def rating_point(row: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "at": iso(row["finished_at"]),
        "match": row["match_id"],
        "mu": num(row["mu"], 4),
        "sigma": num(row["sigma"], 4),
        "ordinal": num(row["ordinal"], 4),
    }
