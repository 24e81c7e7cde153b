"""Game-specific statistics of the counting games: Sticheln, Coloretto and Muzicando (see ``game_queries``)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from typing import Any

from analytics.sql.builder import (
    Expr,
    explanation_has,
    fence,
    jarray,
    jelem_int,
    jelem_text,
    jget,
    jget_int,
    jobject,
    rows,
)
from analytics.sql.game_common import MATCH, SEAT, _base, _sum_by, _total
from analytics.stats import StatsFilter, num, ratio

# --- Sticheln ------------------------------------------------------------------------------------------------------

# the explanation lines that carry what the chosen colour's cards (and the chooser card) scored
STICHELN_PAIN_LINES = (
    *(f"sticheln.{kind}_{how}" for kind in ("pain", "lucky", "delayed") for how in ("cards", "chooser", "counted")),
    "sticheln.gentle_pain",
)


def _sticheln(group_id: int, flt: StatsFilter) -> dict[str, Any]:
    line_join, value, _index = jarray("r.explanation", [], "e")
    base, params = _base(group_id, flt, "sticheln", joins=f"JOIN {MATCH} m ON m.id = st.match_id {line_join}")
    marks = ", ".join(["%s"] * len(STICHELN_PAIN_LINES))
    pain = rows(
        f"""
        SELECT sc.player_id, {jget("m.options", "variant")} AS variant,
               {jget("r.facts", "seats", SEAT, "pain", 0)} AS colour,
               {jget("r.facts", "seats", SEAT, "pain", 1)} AS colour2,
               COUNT(*) AS rounds, SUM({jelem_int(value, "points")}) AS points
        {base}
          AND {jelem_text(value, "msg")} IN ({marks}) AND {jelem_int(value, "player")} = sc.seat
        GROUP BY sc.player_id, variant, colour, colour2 ORDER BY sc.player_id, variant, colour, colour2
        """,
        [*params, *STICHELN_PAIN_LINES],
    )
    for row in pain:
        row["colour"] = "+".join(c for c in (row["colour"], row.pop("colour2")) if c) or "none"
    players: dict[int, dict[str, Any]] = defaultdict(lambda: {"pain": []})
    for row in pain:
        players[row["player_id"]]["pain"].append(_pain_line(row))
    return {"all": {"pain": [_pain_line(r) for r in _sum_by(pain, "variant", "colour")]}, "players": dict(players)}


def _pain_line(row: Mapping[str, Any]) -> dict[str, Any]:
    rounds = int(row["rounds"])
    return {
        "variant": row["variant"],
        "colour": row["colour"],
        "rounds": rounds,
        "avg_points": num(int(row["points"]) / rounds) if rounds else None,
    }


# --- Coloretto -----------------------------------------------------------------------------------------------------


def _coloretto(group_id: int, flt: StatsFilter) -> dict[str, Any]:
    base, params = _base(group_id, flt, "coloretto")
    obj_join, key, value = jobject("y.facts", [], "c")
    count = jget_int(value, Expr("y.seat"))
    # The seats of the group's Coloretto rounds first, fenced off (OFFSET 0): a set-returning JSON expansion
    # joined straight into the big join makes PostgreSQL expect ~100 rows per round and scan every round of
    # every group (1.4 s instead of 30 ms on a 1M-round history).
    profile = rows(
        f"""
        SELECT x.player_id, CASE WHEN x.n >= 6 THEN 6 ELSE x.n END AS cards, COUNT(*) AS colours
        FROM (
            SELECT y.player_id, {count} AS n
            FROM (SELECT sc.player_id, sc.seat, r.facts {base} {fence()}) y
            {obj_join}
            WHERE {key} NOT IN ('jokers', 'plus_twos', 'removed_colour', 'entry')
        ) x WHERE x.n > 0
        GROUP BY x.player_id, CASE WHEN x.n >= 6 THEN 6 ELSE x.n END ORDER BY x.player_id, cards
        """,
        params,
    )
    extras = rows(
        f"""
        SELECT sc.player_id, COUNT(*) AS games, SUM({jget_int("r.facts", "jokers", SEAT)}) AS jokers,
               SUM({jget_int("r.facts", "plus_twos", SEAT)}) AS plus_twos, SUM(sc.points) AS points
        {base} GROUP BY sc.player_id ORDER BY sc.player_id
        """,
        params,
    )
    players: dict[int, dict[str, Any]] = defaultdict(lambda: {"profile": {}, "games": None})
    for row in profile:
        players[row["player_id"]]["profile"][str(row["cards"])] = int(row["colours"])
    for row in extras:
        players[row["player_id"]]["games"] = _extras_line(row)
    return {
        "all": {
            "profile": {str(r["cards"]): int(r["colours"]) for r in _sum_by(profile, "cards")},
            "games": _extras_line(_total(extras)) if extras else None,
        },
        "players": dict(players),
    }


def _extras_line(row: Mapping[str, Any]) -> dict[str, Any]:
    games = int(row["games"])
    return {
        "games": games,
        "avg_jokers": num(int(row["jokers"] or 0) / games) if games else None,
        "avg_plus_twos": num(int(row["plus_twos"] or 0) / games) if games else None,
        "avg_points": num(int(row["points"] or 0) / games) if games else None,
    }


# --- Muzicando -----------------------------------------------------------------------------------------------------


def _muzicando(group_id: int, flt: StatsFilter) -> dict[str, Any]:
    base, params = _base(group_id, flt, "muzicando")
    made, made_params = explanation_has("r.explanation", "muzicando.contract_made")
    failed, failed_params = explanation_has("r.explanation", "muzicando.contract_failed")
    contracts = rows(
        f"""
        SELECT sc.player_id, {jget("r.facts", "contract", "type")} AS type, COUNT(*) AS contracts,
               SUM(CASE WHEN {made} THEN 1 ELSE 0 END) AS made,
               SUM(CASE WHEN {failed} THEN 1 ELSE 0 END) AS failed
        {base} AND sc.seat = {jget_int("r.facts", "contract", "declarer")}
        GROUP BY sc.player_id, type ORDER BY sc.player_id, type
        """,
        [*made_params, *failed_params, *params],
    )
    players: dict[int, dict[str, Any]] = defaultdict(lambda: {"contracts": []})
    for row in contracts:
        players[row["player_id"]]["contracts"].append(_contract_line(row))
    return {
        "all": {"contracts": [_contract_line(r) for r in _sum_by(contracts, "type")]},
        "players": dict(players),
    }


def _contract_line(row: Mapping[str, Any]) -> dict[str, Any]:
    made, failed = int(row["made"]), int(row["failed"])
    return {
        "type": row["type"],
        "contracts": int(row["contracts"]),
        "made": made,
        "failed": failed,
        "rate": ratio(made, made + failed),
    }
