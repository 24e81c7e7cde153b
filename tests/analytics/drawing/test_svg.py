"""The static SVG drawings of the dashboards' figures (drawing.svg): what they draw, where, and that it is safe."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from analytics.drawing import charts
from analytics.drawing.svg import WIDTH, figure_svg, nice_ticks

NS = {"s": "http://www.w3.org/2000/svg"}


def parse(markup: str) -> ET.Element:
    return ET.fromstring(markup)  # our own output: it must be well-formed XML


def rects(root: ET.Element) -> list[dict[str, float]]:
    return [
        {k: float(r.get(k, 0)) for k in ("x", "y", "width", "height")} | {"fill": r.get("fill")}  # type: ignore[dict-item]
        for r in root.iterfind(".//s:rect", NS)
    ]


def texts(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iterfind(".//s:text", NS)]


@pytest.mark.parametrize(
    ("lo", "hi", "ticks"),
    [
        (0, 1, [0, 0.25, 0.5, 0.75, 1]),
        (0, 230, [0, 50, 100, 150, 200]),
        (-38.5, 12.2, [-30, -20, -10, 0, 10]),
        (3, 3, [3, 3.25, 3.5, 3.75, 4]),  # an empty span gets one unit
    ],
)
def test_nice_ticks(lo: float, hi: float, ticks: list[float]) -> None:
    assert nice_ticks(lo, hi) == ticks


def test_vertical_percent_bars_are_as_tall_as_their_values() -> None:
    root = parse(figure_svg(charts.bars(["A", "B", "C"], [1.0, 0.5, 0.25], percent=True), "Win rate"))
    assert root.get("role") == "img" and root.get("aria-label") == "Win rate"
    assert root.find("s:title", NS) is not None and root.find("s:title", NS).text == "Win rate"  # type: ignore[union-attr]
    bars = rects(root)
    assert len(bars) == 3
    assert bars[0]["height"] == pytest.approx(2 * bars[1]["height"], abs=0.2)
    assert bars[1]["height"] == pytest.approx(2 * bars[2]["height"], abs=0.2)
    assert bars[0]["x"] < bars[1]["x"] < bars[2]["x"]  # categories left to right in their order
    bottoms = {round(b["y"] + b["height"], 1) for b in bars}
    assert len(bottoms) == 1  # all standing on the zero line
    assert {"0%", "50%", "100%", "A", "B", "C"} <= set(texts(root))
    assert all(b["x"] >= 0 and b["x"] + b["width"] <= WIDTH for b in bars)


def test_horizontal_bars_read_top_down_and_skip_missing_values() -> None:
    figure = charts.bars(["first", "second", "third"], [0.2, None, 0.8], percent=True, horizontal=True)
    root = parse(figure_svg(figure, "Head to head"))
    bars = rects(root)
    assert len(bars) == 2  # "second" has no value
    first, third = bars
    assert first["y"] < third["y"]  # autorange reversed: the first category on top, as Plotly draws it
    assert third["width"] == pytest.approx(4 * first["width"], abs=0.2)
    assert first["x"] == third["x"]


def test_grouped_bars_sit_side_by_side_with_a_legend() -> None:
    figure = charts.grouped(["1", "2"], {"colour": [0.5, 1.0], "number": [0.25, None]}, percent=True)
    root = parse(figure_svg(figure, "Bids"))
    drawn = [r for r in rects(root) if r["width"] != 10]  # the legend's swatches are 10 × 10
    assert len(drawn) == 3
    a1, a2, b1 = drawn  # trace by trace: colour's two bars, then number's one
    assert a1["x"] + a1["width"] == pytest.approx(b1["x"], abs=0.2)  # neighbours in the first band
    assert a1["fill"] != b1["fill"]
    assert a2["x"] > b1["x"] + b1["width"]  # the second band, whose "number" value is missing
    assert a2["height"] == pytest.approx(2 * a1["height"], abs=0.2)
    assert {"colour", "number"} <= set(texts(root))


def test_stacked_bars_stack() -> None:
    figure = charts.grouped(["2026-01", "2026-02"], {"NJET": [2, 1], "MÜ": [1, 3]})
    figure["layout"]["barmode"] = "stack"
    bars = rects(parse(figure_svg(figure, "Matches per month")))[:4]
    njet_jan, _njet_feb, mue_jan, _mue_feb = bars
    assert mue_jan["y"] + mue_jan["height"] == pytest.approx(njet_jan["y"], abs=0.2)  # on top of NJET's bar
    assert njet_jan["height"] == pytest.approx(2 * mue_jan["height"], abs=0.2)


def test_heat_map_cells_carry_their_colour_and_value() -> None:
    figure = charts.heatmap(["Anna", "Béla"], ["Anna", "Béla"], [[None, 0.75], [0.25, None]], [[0, 4], [4, 0]])
    root = parse(figure_svg(figure, "Head to head"))
    cells = rects(root)
    assert len(cells) == 4
    assert {c["fill"] for c in cells} >= {charts.heat_colour(0.75), charts.heat_colour(0.25), charts.HEAT_NONE}
    assert {"75", "25", "Anna", "Béla"} <= set(texts(root))
    assert len({round(c["width"], 1) for c in cells}) == 1  # every column one unit wide


def test_lines_follow_their_values_and_a_reversed_axis() -> None:
    figure = charts.lines({"": (["2026-01", "2026-02", "2026-03"], [1.0, 3.0, 2.0])}, reverse=True)
    root = parse(figure_svg(figure, "Average rank"))
    path = root.find(".//s:path", NS)
    assert path is not None
    points = [tuple(map(float, p.split())) for p in re.findall(r"[\d.]+ [\d.]+", path.get("d", ""))]
    assert len(points) == 3
    assert points[0][0] < points[1][0] < points[2][0]  # months in time order
    assert points[0][1] < points[2][1] < points[1][1]  # rank 1 highest on a reversed axis
    assert len(root.findall(".//s:circle", NS)) == 3  # lines+markers


def test_rating_band_is_filled_to_the_line_above() -> None:
    history = [
        {"at": "2026-01-05T20:00:00+00:00", "mu": 25.0, "sigma": 8.3, "ordinal": 0.1},
        {"at": "2026-02-05T20:00:00+00:00", "mu": 27.0, "sigma": 7.0, "ordinal": 6.0},
        {"at": "2026-04-05T20:00:00+00:00", "mu": 30.0, "sigma": 6.0, "ordinal": 12.0},
    ]
    root = parse(figure_svg({"data": charts.rating_band(history, name="Anna"), "layout": charts.layout()}, "Rating"))
    paths = root.findall(".//s:path", NS)
    band = [p for p in paths if p.get("fill-opacity")]
    assert len(band) == 1 and band[0].get("d", "").endswith("Z")
    dotted = [p for p in paths if p.get("stroke-dasharray")]
    assert len(dotted) == 1  # μ
    line = [p for p in paths if p.get("fill") == "none" and not p.get("stroke-dasharray")]
    xs = [float(x) for x in re.findall(r"[ML]([\d.]+) ", line[0].get("d", ""))]
    # on a date axis the second point sits a third of the way (31 of 90 days), not half way
    assert (xs[1] - xs[0]) / (xs[2] - xs[0]) == pytest.approx(31 / 90, abs=0.01)
    assert {"Anna μ − 3σ", "Anna μ"} <= set(texts(root))  # the band's upper edge has no legend entry


def test_every_text_is_escaped() -> None:
    name = '<script>alert("x")</script> & co'
    markup = figure_svg(charts.bars([name], [3]), f"{name} title")
    assert "<script>" not in markup
    root = parse(markup)
    assert root.get("aria-label") == f"{name} title"
    assert any(t.startswith("<script>") for t in texts(root))  # shown as text, shortened to fit


def test_an_empty_figure_is_still_a_drawing() -> None:
    root = parse(figure_svg({"data": [], "layout": charts.layout()}, "Nothing yet"))
    assert root.get("aria-label") == "Nothing yet"
    assert rects(root) == []


def test_a_single_rating_is_one_point_with_one_date() -> None:
    history = [{"at": "2026-03-01T18:00:00+00:00", "mu": 27.0, "sigma": 7.5, "ordinal": 4.5}]
    root = parse(figure_svg({"data": charts.rating_band(history), "layout": charts.layout()}, "Rating"))
    assert texts(root).count("2026-03-01") == 1
    line = [p for p in root.findall(".//s:path", NS) if p.get("fill") == "none" and not p.get("stroke-dasharray")]
    assert re.fullmatch(r"M[\d.]+ [\d.]+", line[0].get("d", ""))
