"""What the game-specific statistics share: the tables, the base query of a group's rounds under a filter, and
adding per-player rows up (``game_queries`` has the queries of each game)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from analytics.models import MatchStanding
from analytics.sql.builder import (
    Expr,
)
from analytics.sql.queries import where
from analytics.stats import StatsFilter
from scoring.models import Match, Round, Score

ST = MatchStanding._meta.db_table
ROUND = Round._meta.db_table
SCORE = Score._meta.db_table
MATCH = Match._meta.db_table

SEAT = Expr("sc.seat")


def _base(group_id: int, flt: StatsFilter, ruleset: str, joins: str = "") -> tuple[str, list[Any]]:
    """``FROM … WHERE …`` over the live rounds of one game's finished matches in the snapshot's filter, one row
    per seat (``r`` the round, ``sc`` the seat's score, ``st`` the match's first standing); ``joins`` are
    added before the WHERE."""
    cond, params = where("st", group_id, flt)
    return (
        f"""
        FROM {ST} st
        JOIN {ROUND} r ON r.match_id = st.match_id AND r.deleted_at IS NULL
        JOIN {SCORE} sc ON sc.round_id = r.id
        {joins}
        WHERE {cond} AND st.seat = 0 AND st.ruleset = %s
        """,
        [*params, ruleset],
    )


# --- helpers and entry points ----------------------------------------------------------------------------------


def _sum_by(found: Iterable[Mapping[str, Any]], *keys: str) -> list[dict[str, Any]]:
    """Add the per-player rows up per ``keys`` (numbers summed), in key order."""
    out: dict[tuple[Any, ...], dict[str, Any]] = {}
    for row in found:
        k = tuple(row[name] for name in keys)
        cell = out.setdefault(k, dict(zip(keys, k, strict=True)))
        for name, v in row.items():
            if name in keys or name == "player_id" or not isinstance(v, int | float) or isinstance(v, bool):
                continue
            cell[name] = cell.get(name, 0) + int(v)
    return [out[k] for k in sorted(out, key=_sort_key)]


def _sort_key(key: tuple[Any, ...]) -> tuple[Any, ...]:
    """Numbers in numeric order, then text, then None."""
    return tuple((v is None, not isinstance(v, int | float), v if isinstance(v, int | float) else str(v)) for v in key)


def _total(found: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    summed = _sum_by(({**r, "_": 0} for r in found), "_")
    return summed[0] if summed else {}
