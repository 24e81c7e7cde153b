"""Plotly figures for the dashboards: pure functions from snapshot payloads to figure dicts.

No Django and no database: a payload (and the players' names) in, ``{"data": [...], "layout": {...}}`` out,
drawn as a static SVG by ``analytics.drawing.svg`` when the page is served, and by the small plotly.js basic bundle
(scatter, bar, pie) when the reader asks for the interactive figure.  Every figure is built to
stay readable on a 360 px phone: autosized to its container, a small fixed height, legends under the plot,
and heat maps drawn as stacked bars (the basic bundle has no heatmap trace).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

CONFIG = {"responsive": True, "displayModeBar": False}
PALETTE = ("#2166ac", "#d6604d", "#4d9221", "#8c510a", "#762a83", "#01665e", "#c51b7d", "#525252")
HEAT_LOW, HEAT_MID, HEAT_HIGH, HEAT_NONE = (215, 48, 31), (247, 247, 247), (33, 102, 172), "#e6e6e6"
MAX_BARS = 15


@dataclass
class Chart:
    """One figure; ``key`` names its title (translated by the view), ``label`` adds e.g. the game's name."""

    key: str
    figure: dict[str, Any]
    label: str = ""
    params: dict[str, Any] = field(default_factory=dict)  # "shown"/"total"/"order" when it shows part of a list


def _part(shown: int, total: int, order: str = "played") -> dict[str, Any]:
    """A chart's ``params`` when it leaves entries out (the page says so): ``order`` names which come first."""
    return {"shown": shown, "total": total, "order": order} if total > shown else {}


def separators(mark: str) -> str:
    """Plotly's ``layout.separators`` (the decimal mark, then the thousands mark) for a reader's decimal mark: the
    static drawing (``analytics.drawing.svg``) reads the same setting, so both write "1,5" in Hungarian."""
    return mark + (" " if mark == "," else ",")


def localized(figure: Mapping[str, Any], mark: str) -> dict[str, Any]:
    """``figure`` with its numbers written with ``mark`` (axes, hover labels)."""
    return {**figure, "layout": {**(figure.get("layout") or {}), "separators": separators(mark)}}


def layout(*, height: int = 260, **extra: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "autosize": True,
        "height": height,
        "margin": {"l": 44, "r": 8, "t": 8, "b": 40},
        "font": {"size": 11},
        "legend": {"orientation": "h", "x": 0, "y": -0.22},
        "paper_bgcolor": "rgba(0,0,0,0)",
        "plot_bgcolor": "rgba(0,0,0,0)",
        "hovermode": "closest",
    }
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            base[key] = {**base[key], **value}
        else:
            base[key] = value
    return base


def short(name: str, size: int = 10) -> str:
    return name if len(name) <= size else name[: size - 1] + "…"


def _name(names: Mapping[int, str], pid: int) -> str:
    return names.get(pid, f"#{pid}")


def heat_colour(value: float | None) -> str:
    """Red (0) → light grey (0.5) → blue (1); no data: grey."""
    if value is None:
        return HEAT_NONE
    value = min(max(value, 0.0), 1.0)
    a, b, t = (HEAT_LOW, HEAT_MID, value * 2) if value < 0.5 else (HEAT_MID, HEAT_HIGH, value * 2 - 1)
    r, g, bl = (round(a[i] + (b[i] - a[i]) * t) for i in range(3))
    return f"rgb({r},{g},{bl})"


def heatmap(
    rows: Sequence[str], cols: Sequence[str], values: Sequence[Sequence[float | None]], counts: Sequence[Sequence[int]]
) -> dict[str, Any]:
    """A win-rate grid as stacked horizontal bars: one trace per column, one coloured segment per cell."""
    data = []
    for j, col in enumerate(cols):
        column = [values[i][j] for i in range(len(rows))]
        data.append(
            {
                "type": "bar",
                "orientation": "h",
                "y": list(rows),
                "x": [1] * len(rows),
                "name": col,
                "showlegend": False,
                "marker": {"color": [heat_colour(v) for v in column], "line": {"width": 1, "color": "#ffffff"}},
                "text": ["" if v is None else f"{round(v * 100)}" for v in column],
                "textposition": "inside",
                "insidetextanchor": "middle",
                "textfont": {"size": 9},
                "customdata": [[col, counts[i][j]] for i in range(len(rows))],
                "hovertemplate": "%{y} v %{customdata[0]}: %{text}%% of %{customdata[1]}<extra></extra>",
            }
        )
    return {
        "data": data,
        "layout": layout(
            height=60 + 20 * len(rows),
            barmode="stack",
            bargap=0.05,
            margin={"l": 70, "b": 70},
            xaxis={
                "tickvals": [j + 0.5 for j in range(len(cols))],
                "ticktext": list(cols),
                "tickangle": -60,
                "range": [0, len(cols)],
                "showgrid": False,
                "fixedrange": True,
            },
            yaxis={"autorange": "reversed", "fixedrange": True},
        ),
    }


def h2h_heatmap(h2h: Mapping[str, Any], names: Mapping[int, str]) -> dict[str, Any] | None:
    players = h2h.get("players") or []
    if len(players) < 2:
        return None
    labels = [short(_name(names, p)) for p in players]
    return heatmap(labels, labels, h2h["win_rate"], h2h["played"])


def bars(
    x: Sequence[Any], y: Sequence[Any], *, percent: bool = False, horizontal: bool = False, name: str = ""
) -> dict[str, Any]:
    trace: dict[str, Any] = {"type": "bar", "name": name, "marker": {"color": PALETTE[0]}}
    if horizontal:
        trace.update(x=list(y), y=list(x), orientation="h")
        axis = {"xaxis": {"tickformat": ".0%", "range": [0, 1]} if percent else {}, "yaxis": {"autorange": "reversed"}}
        return {"data": [trace], "layout": layout(height=60 + 22 * len(x), margin={"l": 90}, **axis)}
    trace.update(x=list(x), y=list(y))
    return {"data": [trace], "layout": layout(yaxis={"tickformat": ".0%", "range": [0, 1]} if percent else {})}


def grouped(categories: Sequence[Any], series: Mapping[str, Sequence[Any]], *, percent: bool = False) -> dict[str, Any]:
    data = [
        {"type": "bar", "name": name, "x": list(categories), "y": list(values), "marker": {"color": PALETTE[i % 8]}}
        for i, (name, values) in enumerate(series.items())
    ]
    yaxis = {"tickformat": ".0%", "range": [0, 1]} if percent else {}
    return {"data": data, "layout": layout(barmode="group", yaxis=yaxis, xaxis={"type": "category"})}


def lines(x_by_series: Mapping[str, tuple[Sequence[Any], Sequence[Any]]], *, reverse: bool = False) -> dict[str, Any]:
    data = [
        {
            "type": "scatter",
            "mode": "lines+markers",
            "name": name,
            "x": list(x),
            "y": list(y),
            "line": {"color": PALETTE[i % 8], "width": 2},
            "marker": {"size": 4},
        }
        for i, (name, (x, y)) in enumerate(x_by_series.items())
    ]
    return {"data": data, "layout": layout(yaxis={"autorange": "reversed"} if reverse else {})}


def rating_band(
    history: Sequence[Mapping[str, Any]], *, colour: str = PALETTE[0], name: str = ""
) -> list[dict[str, Any]]:
    """μ ± 3σ as a shaded band, μ as a thin line and the conservative value μ − 3σ as the main line."""
    x = [point["at"] for point in history]
    upper = [round(p["mu"] + 3 * p["sigma"], 3) for p in history]
    lower = [p["ordinal"] for p in history]
    fill = colour.replace("#", "")
    rgba = f"rgba({int(fill[0:2], 16)},{int(fill[2:4], 16)},{int(fill[4:6], 16)},0.15)"
    return [
        {
            "type": "scatter",
            "x": x,
            "y": upper,
            "mode": "lines",
            "line": {"width": 0},
            "hoverinfo": "skip",
            "showlegend": False,
        },
        {
            "type": "scatter",
            "x": x,
            "y": lower,
            "mode": "lines",
            "fill": "tonexty",
            "fillcolor": rgba,
            "line": {"color": colour, "width": 2},
            "name": f"{name} μ − 3σ".strip(),
        },
        {
            "type": "scatter",
            "x": x,
            "y": [p["mu"] for p in history],
            "mode": "lines",
            "line": {"color": colour, "width": 1, "dash": "dot"},
            "name": f"{name} μ".strip(),
        },
    ]


# --- the three dashboards ---------------------------------------------------------------------------------------


def group_charts(payload: Mapping[str, Any], names: Mapping[int, str], games: Mapping[str, str]) -> list[Chart]:
    charts: list[Chart] = []
    everyone = payload.get("players", [])
    players = everyone[:20]
    game_keys = [g["ruleset"] for g in payload.get("games", [])]
    if players and game_keys:
        rows = [short(_name(names, p["player"])) for p in players]
        cols = [short(games.get(g, g), 9) for g in game_keys]
        values = [[(p["by_game"].get(g) or {}).get("win_rate") for g in game_keys] for p in players]
        counts = [[(p["by_game"].get(g) or {}).get("matches", 0) for g in game_keys] for p in players]
        charts.append(
            Chart("win_rate_by_game", heatmap(rows, cols, values, counts), params=_part(len(players), len(everyone)))
        )
    h2h = payload.get("h2h", {})
    figure = h2h_heatmap(h2h, names)
    if figure:
        charts.append(Chart("head_to_head", figure, params=_part(len(h2h["players"]), len(everyone))))
    activity = payload.get("activity", [])
    if activity:
        months = sorted({a["month"] for a in activity})
        per_game: dict[str, dict[str, int]] = {}
        for a in activity:
            per_game.setdefault(a["ruleset"], {})[a["month"]] = a["matches"]
        figure = grouped(months, {games.get(g, g): [m.get(month, 0) for month in months] for g, m in per_game.items()})
        figure["layout"]["barmode"] = "stack"
        charts.append(Chart("activity", figure))
    return charts


def player_charts(payload: Mapping[str, Any], names: Mapping[int, str], games: Mapping[str, str]) -> list[Chart]:
    charts: list[Chart] = []
    rows = payload.get("games", [])
    if rows:
        charts.append(
            Chart(
                "win_rate_by_game",
                bars(
                    [games.get(r["ruleset"], r["ruleset"]) for r in rows],
                    [r["win_rate"] or 0 for r in rows],
                    percent=True,
                ),
            )
        )
    monthly = payload.get("monthly", {})
    if any(monthly.values()):
        series = {
            games.get(g, g): ([m["month"] for m in ms], [m["avg_score"] for m in ms]) for g, ms in monthly.items()
        }
        charts.append(Chart("score_over_time", lines(series)))
    merged = payload.get("monthly_all", [])
    if merged:
        charts.append(
            Chart(
                "rank_over_time",
                lines({"": ([m["month"] for m in merged], [m["avg_rank"] for m in merged])}, reverse=True),
            )
        )
    for i, (game, rating) in enumerate(sorted(payload.get("ratings", {}).items())):
        if rating["history"]:
            figure = {"data": rating_band(rating["history"], colour=PALETTE[i % 8]), "layout": layout()}
            charts.append(Chart("rating_over_time", figure, label=games.get(game, game)))
    opponents = payload.get("h2h", [])
    h2h = sorted(opponents, key=lambda r: (-r["played"], r["opponent"]))[:MAX_BARS]
    if h2h:
        charts.append(
            Chart(
                "head_to_head",
                bars(
                    [short(_name(names, r["opponent"]), 14) for r in h2h],
                    [r["win_rate"] or 0 for r in h2h],
                    percent=True,
                    horizontal=True,
                ),
                params=_part(len(h2h), len(opponents)),
            )
        )
    everyone = payload.get("partners", [])
    partners = sorted(everyone, key=lambda r: (-r["rounds"], r["partner"]))[:MAX_BARS]
    if partners:
        labels = [
            f"{short(_name(names, r['partner']), 12)} ({games.get(r['ruleset'], r['ruleset'])})" for r in partners
        ]
        figure = bars(labels, [r["win_rate"] or 0 for r in partners], percent=True, horizontal=True)
        charts.append(Chart("partners", figure, params=_part(len(partners), len(everyone))))
    for game, data in sorted(payload.get("specific", {}).items()):
        charts += specific_charts(game, data, games)
    return charts


def game_charts(payload: Mapping[str, Any], names: Mapping[int, str], games: Mapping[str, str]) -> list[Chart]:
    charts: list[Chart] = []
    history = payload.get("rating_history", {})
    if history:
        data: list[dict[str, Any]] = []
        for i, (pid, points) in enumerate(history.items()):
            if i == 0:
                data += rating_band(points, colour=PALETTE[0], name=short(_name(names, int(pid))))
            else:
                data.append(
                    {
                        "type": "scatter",
                        "mode": "lines",
                        "name": short(_name(names, int(pid))),
                        "x": [p["at"] for p in points],
                        "y": [p["ordinal"] for p in points],
                        "line": {"color": PALETTE[i % 8], "width": 1.5},
                    }
                )
        rated = len(payload.get("ratings", []))
        charts.append(
            Chart(
                "rating_over_time",
                {"data": data, "layout": layout(height=300)},
                params=_part(len(history), rated, "rated"),
            )
        )
    everyone = payload.get("players", [])
    players = everyone[:MAX_BARS]
    if players:
        charts.append(
            Chart(
                "win_rate",
                bars(
                    [short(_name(names, p["player"]), 14) for p in players],
                    [p["win_rate"] or 0 for p in players],
                    percent=True,
                    horizontal=True,
                ),
                params=_part(len(players), len(everyone)),
            )
        )
    h2h = payload.get("h2h", {})
    figure = h2h_heatmap(h2h, names)
    if figure:
        charts.append(Chart("head_to_head", figure, params=_part(len(h2h["players"]), len(everyone))))
    synergy = payload.get("synergy", [])
    if synergy:
        figure = synergy_heatmap(synergy, names)
        together = len({r["player"] for r in synergy})
        charts.append(
            Chart("synergy", figure, params=_part(len(figure["data"][0]["y"]) if figure["data"] else 0, together))
        )
    activity = payload.get("activity", [])
    if activity:
        charts.append(Chart("activity", bars([a["month"] for a in activity], [a["matches"] for a in activity])))
    charts += specific_charts(payload.get("ruleset", ""), payload.get("specific", {}), games)
    return charts


def synergy_heatmap(rows: Sequence[Mapping[str, Any]], names: Mapping[int, str]) -> dict[str, Any]:
    together: dict[int, int] = {}
    for r in rows:
        together[r["player"]] = together.get(r["player"], 0) + r["rounds"]
    players = [p for p, _ in sorted(together.items(), key=lambda kv: (-kv[1], kv[0]))[:20]]
    cells = {(r["player"], r["partner"]): r for r in rows}
    labels = [short(_name(names, p)) for p in players]
    values = [[(cells.get((a, b)) or {}).get("win_rate") for b in players] for a in players]
    counts = [[(cells.get((a, b)) or {}).get("rounds", 0) for b in players] for a in players]
    return heatmap(labels, labels, values, counts)


# --- game-specific figures ---------------------------------------------------------------------------------------


def specific_charts(game: str, data: Mapping[str, Any], games: Mapping[str, str]) -> list[Chart]:
    """The figures of one game's specific statistics (``data`` is the game's or a player's block)."""
    if not data:
        return []
    label = games.get(game, game)
    out: list[Chart] = []
    if game == "mue" and data.get("chief"):
        bids = sorted({r["bid"] for r in data["chief"]})
        series: dict[str, list[float | None]] = {}
        for kind in ("colour", "number", "none"):
            cells = {r["bid"]: r["rate"] for r in data["chief"] if r["trump"] == kind}
            if cells:
                series[kind] = [cells.get(b) for b in bids]
        out.append(Chart("mue_bid_success", grouped([str(b) for b in bids], series, percent=True), label))
    elif game == "njet" and data.get("levels"):
        levels = data["levels"]
        figure = grouped([str(r["level"]) for r in levels], {"": [r["avg_points"] for r in levels]})
        out.append(Chart("njet_levels", figure, label))
    elif game == "meinz" and data.get("cards"):
        cards = ["3", "1", "0", "2"]
        out.append(Chart("meinz_cards", bars(cards, [data["cards"].get(c, 0) for c in cards]), label))
    elif game == "was-sticht" and data.get("tasks"):
        tasks = data["tasks"]
        out.append(
            Chart(
                "was_sticht_tasks",
                bars([t["task"] for t in tasks], [t["rate"] or 0 for t in tasks], percent=True, horizontal=True),
                label,
            )
        )
    elif game == "sticheln" and data.get("pain"):
        colours = sorted({r["colour"] for r in data["pain"]})
        variants: dict[str, list[float | None]] = {}
        for r in data["pain"]:
            variants.setdefault(r["variant"], [None] * len(colours))[colours.index(r["colour"])] = r["avg_points"]
        out.append(Chart("sticheln_pain", grouped(colours, variants), label))
    elif game == "coloretto" and data.get("profile"):
        sizes = ["1", "2", "3", "4", "5", "6"]
        out.append(
            Chart(
                "coloretto_profile",
                bars(["1", "2", "3", "4", "5", "6+"], [data["profile"].get(s, 0) for s in sizes]),
                label,
            )
        )
    elif game == "muzicando" and data.get("contracts"):
        rows = data["contracts"]
        out.append(
            Chart(
                "muzicando_contracts",
                bars([r["type"] for r in rows], [r["rate"] or 0 for r in rows], percent=True),
                label,
            )
        )
    return out
