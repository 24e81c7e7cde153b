"""Turn one group's aggregated rows into the snapshot payloads of the group, its games and its players.

Pure: the rows come from ``analytics.sql.queries`` (SQL aggregates), the payloads go into ``Snapshot.payload``.
The same function builds the payloads for the incremental path and for the full rebuild, and it depends on
nothing but its input, so both paths store identical snapshots for identical history.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from analytics.stats import (
    h2h_line,
    h_index,
    iso,
    monthly_line,
    monthly_merge,
    num,
    player_line,
    rating_point,
    ratio,
    streak_line,
    sum_h2h,
)

HEATMAP_PLAYERS = 20  # head-to-head heat maps show the most active players only
RATING_LINES = 8  # rating-over-time figures on the game page show the best-rated players


@dataclass
class GroupRows:
    """Everything the SQL layer answered for one group and one filter."""

    filter_key: str
    player_games: list[dict[str, Any]]
    streaks_game: list[dict[str, Any]]
    streaks_all: list[dict[str, Any]]
    h2h: list[dict[str, Any]]
    monthly: list[dict[str, Any]]
    games: list[dict[str, Any]]
    activity: list[dict[str, Any]]
    filters: list[dict[str, Any]]
    live: dict[str, Any]
    live_players: list[dict[str, Any]]
    ratings_current: list[dict[str, Any]]
    ratings_history: list[dict[str, Any]]
    synergy: list[dict[str, Any]] = field(default_factory=list)
    # ruleset -> {"all": {...}, "players": {player_id: {...}}}
    specific: dict[str, dict[str, Any]] = field(default_factory=dict)


def _sum_games(rows: Iterable[Mapping[str, Any]]) -> dict[int, dict[str, int]]:
    out: dict[int, dict[str, int]] = {}
    for row in rows:
        cell = out.setdefault(
            row["player_id"], {"matches": 0, "wins": 0, "sum_rank": 0, "rounds": 0, "points": 0, "round_points": 0}
        )
        for name in cell:
            cell[name] += int(row.get(name, row["points"]) or 0)
    return out


def _rating(row: Mapping[str, Any] | None) -> dict[str, Any] | None:
    if row is None:
        return None
    return {
        "mu": num(row["mu"], 4),
        "sigma": num(row["sigma"], 4),
        "ordinal": num(row["ordinal"], 4),
        "rated": int(row["rated"]),
    }


def _heatmap(players: list[int], cells: Mapping[tuple[int, int], Mapping[str, int]]) -> dict[str, Any]:
    """Rows = player, columns = opponent: matches together and the row player's win rate against them."""
    return {
        "players": players,
        "played": [[int(cells.get((a, b), {}).get("played", 0)) for b in players] for a in players],
        "win_rate": [
            [
                ratio(cells[(a, b)]["wins"], cells[(a, b)]["played"]) if (a, b) in cells and a != b else None
                for b in players
            ]
            for a in players
        ],
    }


def _most_active(counts: Mapping[int, int], limit: int) -> list[int]:
    return [pid for pid, _ in sorted(counts.items(), key=lambda item: (-item[1], item[0]))[:limit]]


def _synergy_line(row: Mapping[str, Any]) -> dict[str, Any]:
    rounds = int(row["rounds"])
    return {
        "ruleset": row["ruleset"],
        "player": row["player_id"],
        "partner": row["partner_id"],
        "rounds": rounds,
        "won": int(row["won"]),
        "win_rate": ratio(row["won"], rounds),
    }


def build(
    rows: GroupRows, *, players: Iterable[int] | None = None, games: Iterable[str] | None = None
) -> dict[str, Any]:
    """The payloads of one group for one filter: ``{"group": ..., "games": {r: ...}, "players": {id: ...}}``.

    ``players`` and ``games`` name the player and game scopes to build (each gets a payload even when the
    filter leaves it no data); None builds every one the rows have data for.  A payload depends on the rows
    only, never on which others are built, so a refresh builds just the snapshots it rewrites: a round in an
    open match flags the group, its game and its four players, not the group's other twenty players.
    """
    by_player_game = {(r["player_id"], r["ruleset"]): r for r in rows.player_games}
    overall = _sum_games(rows.player_games)
    streak_game = {(r["player_id"], r["ruleset"]): r for r in rows.streaks_game}
    streak_all = {r["player_id"]: r for r in rows.streaks_all}
    h2h_all = sum_h2h(rows.h2h)
    h2h_game: dict[str, dict[tuple[int, int], dict[str, Any]]] = defaultdict(dict)
    for r in rows.h2h:
        h2h_game[r["ruleset"]][(r["player_id"], r["opponent_id"])] = r
    rating_now = {(r["player_id"], r["ruleset"]): r for r in rows.ratings_current}
    history_rows: dict[tuple[int, str], list[Mapping[str, Any]]] = defaultdict(list)
    for r in rows.ratings_history:
        history_rows[(r["player_id"], r["ruleset"])].append(r)

    def rating_hist(pid: int, ruleset: str) -> list[dict[str, Any]]:
        # formatted for the payloads being built only: the histories are the bulk of the rows
        return [rating_point(r) for r in history_rows.get((pid, ruleset), ())]

    monthly: dict[tuple[int, str], list[dict[str, Any]]] = defaultdict(list)
    for r in rows.monthly:
        monthly[(r["player_id"], r["ruleset"])].append(r)
    live_by_player = {r["player_id"]: r for r in rows.live_players}
    data_rulesets = sorted({r["ruleset"] for r in rows.games} | {r["ruleset"] for r in rows.ratings_current})
    rulesets = data_rulesets if games is None else sorted(set(games))
    if players is None:
        player_ids = sorted(set(overall) | set(live_by_player) | {r["player_id"] for r in rows.ratings_current})
    else:
        player_ids = sorted(set(players))

    def opponents_h(pid: int, cells: Mapping[tuple[int, int], Mapping[str, Any]]) -> int:
        return h_index(int(c["played"]) for (a, _b), c in cells.items() if a == pid)

    def games_h(pid: int) -> int:
        return h_index(int(r["matches"]) for (p, _g), r in by_player_game.items() if p == pid)

    def filters(ruleset: str | None = None, player: int | None = None) -> dict[str, list[int]]:
        """The periods and player counts with matches (of one game or player): each scope its own, so that a
        snapshot depends on nothing outside its scope."""
        found = [
            r
            for r in rows.filters
            if (ruleset is None or r["ruleset"] == ruleset) and (player is None or r["player_id"] == player)
        ]
        return {
            "years": sorted({int(r["year"]) for r in found if r["year"]}),
            "players": sorted({int(r["players"]) for r in found}),
        }

    # --- players ---------------------------------------------------------------------------------------
    player_payloads: dict[int, dict[str, Any]] = {}
    for pid in player_ids:
        live = live_by_player.get(pid, {})
        games_played = sorted(g for (p, g) in by_player_game if p == pid)
        rated = sorted(g for (p, g) in rating_now if p == pid)
        player_payloads[pid] = {
            "player": pid,
            "filter": rows.filter_key,
            "filters": filters(player=pid),
            "overall": {
                **player_line(overall.get(pid), scores=False),
                **streak_line(streak_all.get(pid)),
                "h_index_games": games_h(pid),
                "h_index_opponents": opponents_h(pid, h2h_all),
                "rounds_entered": int(live.get("rounds_entered") or 0),
                "points_entered": int(live.get("points_entered") or 0),
            },
            "games": [
                {
                    "ruleset": g,
                    **player_line(by_player_game[(pid, g)]),
                    **streak_line(streak_game.get((pid, g))),
                    "h_index_opponents": opponents_h(pid, h2h_game.get(g, {})),
                    "rating": _rating(rating_now.get((pid, g))),
                }
                for g in games_played
            ],
            "monthly": {g: [monthly_line(r) for r in monthly[(pid, g)]] for g in games_played},
            "monthly_all": monthly_merge(r for g in games_played for r in monthly[(pid, g)]),
            "ratings": {g: {"now": _rating(rating_now[(pid, g)]), "history": rating_hist(pid, g)} for g in rated},
            "h2h": [{"opponent": b, **h2h_line(c)} for (a, b), c in sorted(h2h_all.items()) if a == pid],
            "h2h_by_game": {
                g: [{"opponent": b, **h2h_line(c)} for (a, b), c in sorted(cells.items()) if a == pid]
                for g, cells in sorted(h2h_game.items())
                if any(a == pid for a, _b in cells)
            },
            "partners": [_synergy_line(r) for r in rows.synergy if r["player_id"] == pid],
            "specific": {
                g: data["players"][pid] for g, data in sorted(rows.specific.items()) if pid in data.get("players", {})
            },
        }

    # --- games ------------------------------------------------------------------------------------------
    game_rows = {r["ruleset"]: r for r in rows.games}
    game_payloads: dict[str, dict[str, Any]] = {}
    for g in rulesets:
        summary = game_rows.get(g, {})
        in_game = sorted(p for (p, gg) in by_player_game if gg == g)
        matches_of = {p: int(by_player_game[(p, g)]["matches"]) for p in in_game}
        leaders = [_rating_entry(r) for r in rows.ratings_current if r["ruleset"] == g]
        top_rated = [entry["player"] for entry in leaders[:RATING_LINES]]
        game_payloads[g] = {
            "ruleset": g,
            "filter": rows.filter_key,
            "filters": filters(ruleset=g),
            "summary": _game_summary(summary),
            "players": sorted(
                (
                    {
                        "player": p,
                        **player_line(by_player_game[(p, g)]),
                        **streak_line(streak_game.get((p, g))),
                        "h_index_opponents": opponents_h(p, h2h_game.get(g, {})),
                        "rating": _rating(rating_now.get((p, g))),
                    }
                    for p in in_game
                ),
                key=lambda e: (-e["matches"], e["player"]),
            ),
            "ratings": leaders,
            "rating_history": {str(p): rating_hist(p, g) for p in top_rated},
            "h2h": _heatmap(_most_active(matches_of, HEATMAP_PLAYERS), h2h_game.get(g, {})),
            "activity": [
                {"month": r["month"], "matches": int(r["matches"])} for r in rows.activity if r["ruleset"] == g
            ],
            "synergy": [_synergy_line(r) for r in rows.synergy if r["ruleset"] == g],
            "specific": rows.specific.get(g, {}).get("all", {}),
        }

    # --- group ------------------------------------------------------------------------------------------
    matches_all = {pid: overall[pid]["matches"] for pid in overall}
    group = {
        "filter": rows.filter_key,
        "summary": {
            "matches": sum(int(r["matches"]) for r in rows.games),
            "rounds": sum(int(r["rounds"] or 0) for r in rows.games),
            "players": len(overall),
            "open_matches": int(rows.live.get("open_matches") or 0),
            "rounds_entered": int(rows.live.get("rounds_entered") or 0),
        },
        "filters": filters(),
        "games": [{"ruleset": g, **_game_summary(game_rows[g])} for g in sorted(game_rows)],
        "players": sorted(
            (
                {
                    "player": pid,
                    **player_line(overall.get(pid), scores=False),
                    **streak_line(streak_all.get(pid)),
                    "h_index_games": games_h(pid),
                    "h_index_opponents": opponents_h(pid, h2h_all),
                    "by_game": {
                        g: {
                            "matches": int(by_player_game[(pid, g)]["matches"]),
                            "wins": int(by_player_game[(pid, g)]["wins"]),
                            "win_rate": ratio(by_player_game[(pid, g)]["wins"], by_player_game[(pid, g)]["matches"]),
                        }
                        for g in data_rulesets
                        if (pid, g) in by_player_game
                    },
                }
                for pid in sorted(overall)
            ),
            key=lambda e: (-e["matches"], e["player"]),
        ),
        "h2h": _heatmap(_most_active(matches_all, HEATMAP_PLAYERS), h2h_all),
        "activity": [
            {"ruleset": r["ruleset"], "month": r["month"], "matches": int(r["matches"])} for r in rows.activity
        ],
        # every rated player (the page shows the first few and links to the game's page for the rest)
        "ratings": {g: [_rating_entry(r) for r in rows.ratings_current if r["ruleset"] == g] for g in data_rulesets},
    }
    return {"group": group, "games": game_payloads, "players": player_payloads}


def _rating_entry(row: Mapping[str, Any]) -> dict[str, Any]:
    return {"player": row["player_id"], **(_rating(row) or {})}


def _game_summary(row: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "matches": int(row.get("matches") or 0),
        "rounds": int(row.get("rounds") or 0),
        "players": int(row.get("players") or 0),
        "avg_winning_total": num(row.get("avg_winning_total")),
        "first_at": iso(row["first_at"]) if row.get("first_at") else None,
        "last_at": iso(row["last_at"]) if row.get("last_at") else None,
    }
