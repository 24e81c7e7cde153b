"""Game-specific statistics and partner synergy, aggregated in SQL from the stored round facts.

The facts are stored exactly as each game module's ``facts_parse`` normalised them (see ``FACTS_SCHEMA`` in
``scoring/rules/<game>.py``); where a statistic needs the rules' verdict (did the MÜ chief make the target?
what did the pain colour cost?) it reads the stored explanation lines, i.e. what the rules engine said when
the round was scored, instead of repeating any rule here.  Every query groups by player; the game-wide
figures are the sums over players.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from analytics.models import MatchStanding
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
from analytics.sql.queries import where
from analytics.stats import StatsFilter, num, ratio
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


SPECIFIC: dict[str, Callable[[int, StatsFilter], dict[str, Any]]] = {
    "njet": _njet,
    "mue": _mue,
    "meinz": _meinz,
    "was-sticht": _was_sticht,
    "sticheln": _sticheln,
    "coloretto": _coloretto,
    "muzicando": _muzicando,
}


def specific(group_id: int, flt: StatsFilter, rulesets: Iterable[str]) -> dict[str, dict[str, Any]]:
    """Game-specific figures for the group's games that have them: ``{ruleset: {"all": …, "players": …}}``."""
    return {key: SPECIFIC[key](group_id, flt) for key in sorted(set(rulesets)) if key in SPECIFIC}


SYNERGY_GAMES = ("njet", "mue")  # the games with partnerships worth a synergy table, in output order


def synergy(group_id: int, flt: StatsFilter, rulesets: Iterable[str]) -> list[dict[str, Any]]:
    """Who wins with whom: NJET teammates (team won the round) and MÜ chief + partner (target made)."""
    played = set(rulesets)
    out: list[dict[str, Any]] = []
    if "njet" in played:
        out += _njet_synergy(group_id, flt)
    if "mue" in played:
        out += _mue_synergy(group_id, flt)
    return out
