"""Game-specific statistics of the trick-taking games: NJET, MÜ, Meinz and Was sticht? (see ``game_queries``)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from typing import Any

from analytics.sql.builder import (
    explanation_has,
    jarray,
    jelem_int,
    jelem_text,
    jget,
    jget_int,
    rows,
)
from analytics.sql.game_common import SCORE, SEAT, _base, _sum_by, _total
from analytics.stats import StatsFilter, num, ratio

# --- NJET ----------------------------------------------------------------------------------------------------


def _njet_cte(group_id: int, flt: StatsFilter) -> tuple[str, list[Any]]:
    base, params = _base(group_id, flt, "njet")
    return (
        f"""
        WITH s AS (
            SELECT r.id AS round_id, sc.player_id, sc.seat, sc.points,
                   MIN(sc.points) OVER (PARTITION BY r.id) AS low,
                   {jget_int("r.facts", "points_per_trick")} AS level,
                   {jget_int("r.facts", "monster")} AS monster,
                   {jget_int("r.facts", "teams", SEAT)} AS team
            {base}
        )
        """,
        params,
    )


def _njet(group_id: int, flt: StatsFilter) -> dict[str, Any]:
    cte, params = _njet_cte(group_id, flt)
    levels = rows(
        f"""{cte}
        SELECT player_id, level, COUNT(*) AS rounds, SUM(points) AS points,
               SUM(CASE WHEN points > low THEN 1 ELSE 0 END) AS won
        FROM s GROUP BY player_id, level ORDER BY player_id, level
        """,
        params,
    )
    monster = rows(
        f"""{cte}
        SELECT player_id, COUNT(*) AS rounds, SUM(points) AS points,
               SUM(CASE WHEN points > low THEN 1 ELSE 0 END) AS won
        FROM s WHERE monster = seat GROUP BY player_id ORDER BY player_id
        """,
        params,
    )
    by_player: dict[int, dict[str, Any]] = defaultdict(lambda: {"levels": [], "monster": None})
    for row in levels:
        by_player[row["player_id"]]["levels"].append(_level_line(row))
    for row in monster:
        by_player[row["player_id"]]["monster"] = _result_line(row)
    return {
        "all": {
            "levels": [_level_line(r) for r in _sum_by(levels, "level")],
            "monster": _result_line(_total(monster)) if monster else None,
        },
        "players": dict(by_player),
    }


def _level_line(row: Mapping[str, Any]) -> dict[str, Any]:
    return {"level": row["level"], **_result_line(row)}


def _result_line(row: Mapping[str, Any]) -> dict[str, Any]:
    rounds = int(row["rounds"])
    return {
        "rounds": rounds,
        "avg_points": num(int(row["points"]) / rounds) if rounds else None,
        "win_rate": ratio(row["won"], rounds),
    }


def _njet_synergy(group_id: int, flt: StatsFilter) -> list[dict[str, Any]]:
    cte, params = _njet_cte(group_id, flt)
    return rows(
        f"""{cte}
        SELECT 'njet' AS ruleset, a.player_id, b.player_id AS partner_id, COUNT(*) AS rounds,
               SUM(CASE WHEN a.points > a.low THEN 1 ELSE 0 END) AS won
        FROM s a JOIN s b ON b.round_id = a.round_id AND b.team = a.team AND b.player_id <> a.player_id
        GROUP BY a.player_id, b.player_id ORDER BY a.player_id, b.player_id
        """,
        params,
    )


# --- MÜ --------------------------------------------------------------------------------------------------------


def _mue(group_id: int, flt: StatsFilter) -> dict[str, Any]:
    base, params = _base(group_id, flt, "mue")
    made, made_params = explanation_has("r.explanation", "mue.made")
    chief = rows(
        f"""
        SELECT sc.player_id, {jget_int("r.facts", "bid")} AS bid,
               {jget("r.facts", "chief_trump", "kind")} AS trump,
               COUNT(*) AS rounds, SUM(CASE WHEN {made} THEN 1 ELSE 0 END) AS made
        {base} AND {jget("r.facts", "outcome")} = 'played' AND sc.seat = {jget_int("r.facts", "chief")}
        GROUP BY sc.player_id, bid, trump ORDER BY sc.player_id, bid, trump
        """,
        [*made_params, *params],
    )
    line_join, value, _index = jarray("r.explanation", [], "e")
    lines_base, _same = _base(group_id, flt, "mue", joins=line_join)
    shortfall = rows(
        f"""
        SELECT sc.player_id, COUNT(*) AS failed, SUM({jelem_int(value, "params", "shortfall")}) AS shortfall
        {lines_base}
          AND {jelem_text(value, "msg")} IN ('mue.level', 'mue.level_none')
          AND sc.seat = {jget_int("r.facts", "chief")}
        GROUP BY sc.player_id ORDER BY sc.player_id
        """,
        params,
    )
    eklat = rows(
        f"""
        SELECT sc.player_id, COUNT(*) AS rounds,
               SUM(CASE WHEN {jget("r.facts", "outcome")} = 'eklat' THEN 1 ELSE 0 END) AS eklats,
               SUM(CASE WHEN {jget("r.facts", "outcome")} = 'eklat' AND sc.points < 0 THEN 1 ELSE 0 END) AS tied_last,
               SUM(CASE WHEN {jget("r.facts", "outcome")} = 'eklat' AND sc.points > 0 THEN 1 ELSE 0 END) AS tied
        {base}
        GROUP BY sc.player_id ORDER BY sc.player_id
        """,
        params,
    )
    rounds_total = rows(
        f"""
        SELECT COUNT(*) AS rounds,
               SUM(CASE WHEN {jget("r.facts", "outcome")} = 'eklat' THEN 1 ELSE 0 END) AS eklats
        {base} AND sc.seat = 0
        """,
        params,
    )[0]
    players: dict[int, dict[str, Any]] = defaultdict(lambda: {"chief": [], "shortfall": None, "eklat": None})
    for row in chief:
        players[row["player_id"]]["chief"].append(_bid_line(row))
    for row in shortfall:
        players[row["player_id"]]["shortfall"] = _shortfall_line(row)
    for row in eklat:
        players[row["player_id"]]["eklat"] = {
            "rounds": int(row["rounds"]),
            "eklats": int(row["eklats"]),
            "tied": int(row["tied"]),
            "tied_last": int(row["tied_last"]),
        }
    return {
        "all": {
            "chief": [_bid_line(r) for r in _sum_by(chief, "bid", "trump")],
            "shortfall": _shortfall_line(_total(shortfall)) if shortfall else None,
            "eklat": {
                "rounds": int(rounds_total["rounds"] or 0),
                "eklats": int(rounds_total["eklats"] or 0),
                "rate": ratio(rounds_total["eklats"], rounds_total["rounds"]),
            },
        },
        "players": dict(players),
    }


def _bid_line(row: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "bid": row["bid"],
        "trump": row["trump"],
        "rounds": int(row["rounds"]),
        "made": int(row["made"]),
        "rate": ratio(row["made"], row["rounds"]),
    }


def _shortfall_line(row: Mapping[str, Any]) -> dict[str, Any]:
    failed = int(row["failed"])
    return {"failed": failed, "avg_shortfall": num(int(row["shortfall"] or 0) / failed) if failed else None}


def _mue_synergy(group_id: int, flt: StatsFilter) -> list[dict[str, Any]]:
    base, params = _base(group_id, flt, "mue", joins=f"JOIN {SCORE} p ON p.round_id = r.id")
    made, made_params = explanation_has("r.explanation", "mue.made")
    pairs = rows(
        f"""
        SELECT sc.player_id AS chief_id, p.player_id AS partner_id, COUNT(*) AS rounds,
               SUM(CASE WHEN {made} THEN 1 ELSE 0 END) AS won
        {base}
          AND {jget("r.facts", "outcome")} = 'played'
          AND sc.seat = {jget_int("r.facts", "chief")} AND p.seat = {jget_int("r.facts", "partner")}
        GROUP BY sc.player_id, p.player_id
        """,
        [*made_params, *params],
    )
    both: dict[tuple[int, int], dict[str, int]] = defaultdict(lambda: {"rounds": 0, "won": 0})
    for row in pairs:
        for a, b in ((row["chief_id"], row["partner_id"]), (row["partner_id"], row["chief_id"])):
            both[(a, b)]["rounds"] += int(row["rounds"])
            both[(a, b)]["won"] += int(row["won"])
    return [{"ruleset": "mue", "player_id": a, "partner_id": b, **cell} for (a, b), cell in sorted(both.items())]


# --- Meinz ---------------------------------------------------------------------------------------------------------


def _meinz(group_id: int, flt: StatsFilter) -> dict[str, Any]:
    base, params = _base(group_id, flt, "meinz")
    cards = rows(
        f"""
        SELECT sc.player_id, sc.points AS card, COUNT(*) AS rounds
        {base} GROUP BY sc.player_id, sc.points ORDER BY sc.player_id, sc.points
        """,
        params,
    )
    players: dict[int, dict[str, Any]] = defaultdict(lambda: {"cards": {}})
    for row in cards:
        players[row["player_id"]]["cards"][str(row["card"])] = int(row["rounds"])
    return {
        "all": {"cards": {str(r["card"]): int(r["rounds"]) for r in _sum_by(cards, "card")}},
        "players": dict(players),
    }


# --- Was sticht? ---------------------------------------------------------------------------------------------------


def _was_sticht(group_id: int, flt: StatsFilter) -> dict[str, Any]:
    base, params = _base(group_id, flt, "was-sticht")
    task = jget("r.facts", "chosen", SEAT)
    kind = (
        f"CASE WHEN {task} LIKE 'no-%%' THEN 'no-colour' WHEN {task} LIKE 'exactly-%%' THEN 'exactly' ELSE {task} END"
    )
    tasks = rows(
        f"""
        SELECT sc.player_id, {kind} AS task, COUNT(*) AS chosen, SUM(CASE WHEN sc.points > 0 THEN 1 ELSE 0 END) AS done
        {base} AND {task} IS NOT NULL AND sc.seat <> {jget_int("r.facts", "start_player")}
        GROUP BY sc.player_id, {kind} ORDER BY sc.player_id, task
        """,
        params,
    )
    players: dict[int, dict[str, Any]] = defaultdict(lambda: {"tasks": []})
    for row in tasks:
        players[row["player_id"]]["tasks"].append(_task_line(row))
    return {"all": {"tasks": [_task_line(r) for r in _sum_by(tasks, "task")]}, "players": dict(players)}


def _task_line(row: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "task": row["task"],
        "chosen": int(row["chosen"]),
        "done": int(row["done"]),
        "rate": ratio(row["done"], row["chosen"]),
    }
