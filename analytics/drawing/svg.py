"""Static SVG drawings of the dashboards' Plotly figures, so that a phone shows every figure without plotly.js.

plotly.js is some 390 KB compressed, and starting it holds a phone's main thread for half a second or more
(Lighthouse's emulated phone: 1.5–2.6 s of blocking time, performance 71 on a dashboard whose first figure is on
the first screen). So a dashboard draws each figure server-side, from the same figure dict the browser would give
Plotly, as a small SVG, and fetches plotly.js only when the reader asks for the interactive figure.

Pure functions, no Django: this draws the part of Plotly that ``drawing.charts`` uses — bar traces (vertical or
horizontal; grouped or stacked; one colour or one per bar; text inside the bars) and scatter traces (lines, markers,
dotted lines, a band filled to the previous trace); linear, percent, reversed, category and date axes; a legend
under the plot. Every piece of text is escaped.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from html import escape
from typing import Any

WIDTH = 340  # the viewBox width: a 360 px phone shows the drawing at about its own scale
FONT = 10
BAR_GAP = 0.2  # Plotly's default gap between the bands of a bar chart
GRID, AXIS, INK, MUTED = "#e3e3e3", "#9a9a9a", "#222222", "#444444"
MAX_MARKERS = 60  # more points than this are drawn as a line only


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return None
    return float(value)


def _time(value: Any) -> float | None:
    """Seconds since the epoch of ``'YYYY-MM'`` or an ISO date/time string (``None`` for anything else)."""
    if not isinstance(value, str) or len(value) < 7:
        return None
    try:
        when = dt.datetime.strptime(value, "%Y-%m") if len(value) == 7 else dt.datetime.fromisoformat(value)
    except ValueError:
        return None
    return (when if when.tzinfo else when.replace(tzinfo=dt.UTC)).timestamp()


def _label(value: float, *, percent: bool, mark: str = ".") -> str:
    """A value axis's tick label, with the figure's decimal mark (its layout's ``separators``, as Plotly)."""
    if percent:
        return f"{round(value * 100)}%"
    if abs(value - round(value)) < 1e-9:
        return str(round(value)).replace("-", "\u2212")
    return f"{value:.3g}".replace(".", mark).replace("-", "\u2212")


def nice_ticks(lo: float, hi: float, count: int = 4) -> list[float]:
    """About ``count`` + 1 round values (1, 2, 2.5 or 5 × 10ⁿ apart, the nearest to an even split) from ``lo`` to
    ``hi``."""
    if hi <= lo:
        hi = lo + 1.0
    raw = (hi - lo) / count
    magnitude = 10 ** math.floor(math.log10(raw))
    step = min((m * magnitude for m in (1, 2, 2.5, 5, 10)), key=lambda step: abs(math.log(step / raw)))
    first = math.ceil(lo / step - 1e-9) * step
    return [round(first + i * step, 10) for i in range(int((hi - first) / step + 1e-9) + 1)]


def _rgb(colour: str) -> tuple[int, int, int] | None:
    text = colour.strip()
    if text.startswith("#") and len(text) == 7:
        return int(text[1:3], 16), int(text[3:5], 16), int(text[5:7], 16)
    if text.startswith(("rgb(", "rgba(")):
        parts = text[text.index("(") + 1 : -1].split(",")
        return int(float(parts[0])), int(float(parts[1])), int(float(parts[2]))
    return None


def _paint(colour: str) -> str:
    """SVG fill attributes for a CSS colour (``rgba()`` as colour plus opacity, which every SVG reader knows)."""
    text = colour.strip()
    if text.startswith("rgba("):
        rgb, alpha = _rgb(text), text[5:-1].split(",")[3].strip()
        if rgb is not None:
            return f'fill="rgb({rgb[0]},{rgb[1]},{rgb[2]})" fill-opacity="{escape(alpha)}"'
    return f'fill="{escape(text)}"'


def _ink_on(colour: str) -> str:
    """Dark or white text, whichever reads better on ``colour``."""
    rgb = _rgb(colour)
    if rgb is None:
        return INK
    return INK if 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2] > 140 else "#ffffff"


@dataclass
class Axis:
    """One axis: data values in, pixels out (``start`` is where the low end is drawn unless reversed)."""

    start: float
    end: float
    kind: str = "linear"  # linear | time | category
    lo: float = 0.0
    hi: float = 1.0
    reverse: bool = False
    percent: bool = False
    categories: list[str] = field(default_factory=list)
    mark: str = "."  # the decimal mark of the tick labels

    def place(self, value: float) -> float:
        span = (self.hi - self.lo) or 1.0
        share = (value - self.lo) / span
        if self.reverse:
            share = 1.0 - share
        return self.start + share * (self.end - self.start)

    def band(self) -> float:
        return abs(self.end - self.start) / max(len(self.categories), 1)

    def centre(self, category: str) -> float:
        return self.place(self.categories.index(category) + 0.5)

    def ticks(self, spec: Mapping[str, Any]) -> list[tuple[float, str]]:
        if spec.get("tickvals") is not None:
            texts = spec.get("ticktext") or spec["tickvals"]
            return [(self.place(float(v)), str(t)) for v, t in zip(spec["tickvals"], texts, strict=False)]
        if self.kind == "category":
            every = max(1, math.ceil(len(self.categories) / 12))
            return [(self.centre(c), c) for c in self.categories[::every]]
        if self.kind == "time":
            days = (self.hi - self.lo) / 86400
            shape = "%Y-%m" if days > 90 else "%Y-%m-%d"
            steps = 0 if days < 1 else 3
            return [
                (self.place(at), dt.datetime.fromtimestamp(at, dt.UTC).strftime(shape))
                for at in (self.lo + (self.hi - self.lo) * i / max(steps, 1) for i in range(steps + 1))
            ]
        return [(self.place(v), _label(v, percent=self.percent, mark=self.mark)) for v in nice_ticks(self.lo, self.hi)]


def _categories(traces: Sequence[Mapping[str, Any]], key: str) -> list[str]:
    seen: dict[str, None] = {}
    for trace in traces:
        for value in trace.get(key) or []:
            seen.setdefault(str(value), None)
    return list(seen)


def _value_range(spec: Mapping[str, Any], values: list[float], *, bars: bool) -> tuple[float, float]:
    """The layout's range, else the values' (with 0 for bars) and a little air."""
    if isinstance(spec.get("range"), list | tuple) and len(spec["range"]) == 2:
        lo, hi = (float(v) for v in spec["range"])
        return lo, hi
    found = [*values, 0.0] if bars else values
    if not found:
        return 0.0, 1.0
    lo, hi = min(found), max(found)
    if hi - lo < 1e-12:
        lo, hi = lo - 1.0, hi + 1.0
    pad = (hi - lo) * 0.05  # bars keep their zero line at the edge; everything else gets air on both sides
    return (lo if bars and lo == 0 else lo - pad), (hi if bars and hi == 0 else hi + pad)


def _legend(traces: Sequence[Mapping[str, Any]], layout: Mapping[str, Any]) -> list[tuple[str, str, bool]]:
    """(name, colour, is a bar) of every trace the legend lists."""
    named = [t for t in traces if t.get("name") and t.get("showlegend", True) is not False]
    if len(named) < 2 and not layout.get("showlegend"):
        return []
    out = []
    for trace in named:
        colour = (trace.get("marker") or {}).get("color") if trace.get("type") == "bar" else None
        colour = colour or (trace.get("line") or {}).get("color") or AXIS
        out.append((str(trace["name"]), colour if isinstance(colour, str) else AXIS, trace.get("type") == "bar"))
    return out


def _text(x: float, y: float, text: str, *, anchor: str = "middle", size: int = FONT, fill: str = MUTED,
          angle: float = 0) -> str:  # fmt: skip
    turn = f' transform="rotate({angle:g} {x:.1f} {y:.1f})"' if angle else ""
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" font-size="{size}" fill="{fill}"{turn}>'
        f"{escape(text)}</text>"
    )


@dataclass
class Box:
    """The plot area inside the drawing (the layout's margins taken off)."""

    left: float
    right: float
    top: float
    bottom: float


def figure_svg(figure: Mapping[str, Any], title: str) -> str:
    """The figure as an ``<svg>`` element (escaped throughout), labelled ``title`` for screen readers."""
    layout: Mapping[str, Any] = figure.get("layout") or {}
    traces: list[Mapping[str, Any]] = [t for t in figure.get("data") or [] if t.get("type") in ("bar", "scatter")]
    margin = {"l": 44, "r": 8, "t": 8, "b": 40, **(layout.get("margin") or {})}
    height = float(layout.get("height") or 260)
    box = Box(float(margin["l"]), WIDTH - float(margin["r"]), float(margin["t"]), height - float(margin["b"]))
    bars = [t for t in traces if t.get("type") == "bar"]
    horizontal = bool(bars) and all(t.get("orientation") == "h" for t in bars)
    mark = str(layout.get("separators") or ".")[:1]
    if bars:
        parts, cat_axis, val_axis = _bar_chart(bars, layout, box, horizontal=horizontal, mark=mark)
    else:
        parts, cat_axis, val_axis = _scatter_chart(traces, layout, box, mark=mark)
    labels, depth = _labels(layout, box, cat_axis, val_axis, horizontal=horizontal)
    legend_top = max(height, box.bottom + depth + 10)
    legend, legend_height = _legend_svg(_legend(traces, layout), legend_top)
    return (
        f'<svg class="stats-svg" viewBox="0 0 {WIDTH} {legend_top + legend_height:.0f}" role="img" '
        f'aria-label="{escape(title)}" xmlns="http://www.w3.org/2000/svg" font-family="system-ui, sans-serif">'
        f"<title>{escape(title)}</title>{''.join(parts + labels)}{legend}</svg>"
    )


def _bar_chart(
    bars: Sequence[Mapping[str, Any]], layout: Mapping[str, Any], box: Box, *, horizontal: bool, mark: str = "."
) -> tuple[list[str], Axis, Axis]:
    """Grid and bars; the category axis is x (y when the bars are horizontal)."""
    xspec, yspec = layout.get("xaxis") or {}, layout.get("yaxis") or {}
    cat_key, val_key = ("y", "x") if horizontal else ("x", "y")
    cat_spec, val_spec = (yspec, xspec) if horizontal else (xspec, yspec)
    stack = layout.get("barmode") == "stack"
    totals: dict[str, float] = {}
    values: list[float] = []
    for trace in bars:
        for c, v in zip(trace.get(cat_key) or [], trace.get(val_key) or [], strict=False):
            number = _number(v)
            if number is not None:
                totals[str(c)] = totals.get(str(c), 0.0) + number
                values.append(number)
    lo, hi = _value_range(val_spec, list(totals.values()) if stack else values, bars=True)
    categories = _categories(bars, cat_key)
    percent = val_spec.get("tickformat") == ".0%"
    if horizontal:  # Plotly puts a category axis's first category at the bottom unless it is reversed
        cat = Axis(box.top, box.bottom, "category", 0, len(categories), cat_spec.get("autorange") != "reversed")
        val = Axis(box.left, box.right, lo=lo, hi=hi, percent=percent, mark=mark)
    else:
        cat = Axis(box.left, box.right, "category", 0, len(categories))
        val = Axis(box.bottom, box.top, lo=lo, hi=hi, percent=percent, mark=mark)
    cat.categories = categories
    across = (box.top, box.bottom) if horizontal else (box.left, box.right)
    parts = _grid(val, val_spec, horizontal=horizontal, across=across)
    parts += _bars(bars, cat, val, horizontal=horizontal, stack=stack, gap=float(layout.get("bargap", BAR_GAP)))
    return parts, cat, val


def _scatter_chart(
    traces: Sequence[Mapping[str, Any]], layout: Mapping[str, Any], box: Box, *, mark: str = "."
) -> tuple[list[str], Axis, Axis]:
    """Grid and lines; x is a number, a date or a category, whichever every x value is."""
    yspec = layout.get("yaxis") or {}
    xs = [x for t in traces for x in t.get("x") or []]
    numbers = [v for v in (_number(x) for x in xs) if v is not None]
    times = [v for v in (_time(x) for x in xs) if v is not None]
    if xs and len(numbers) == len(xs):
        x_axis = Axis(box.left, box.right, lo=min(numbers), hi=max(numbers), mark=mark)
    elif xs and len(times) == len(xs):
        x_axis = Axis(box.left, box.right, "time", min(times), max(times))
    else:
        x_axis = Axis(box.left, box.right, "category", 0, 1)
        x_axis.categories = _categories(traces, "x")
        x_axis.hi = len(x_axis.categories)
    ys = [v for t in traces for v in (_number(y) for y in t.get("y") or []) if v is not None]
    lo, hi = _value_range(yspec, ys, bars=False)
    y_axis = Axis(box.bottom, box.top, lo=lo, hi=hi, reverse=yspec.get("autorange") == "reversed", mark=mark)
    y_axis.percent = yspec.get("tickformat") == ".0%"
    parts = _grid(y_axis, yspec, horizontal=False, across=(box.left, box.right)) + _lines(traces, x_axis, y_axis)
    return parts, x_axis, y_axis


def _labels(
    layout: Mapping[str, Any], box: Box, cat_axis: Axis, val_axis: Axis, *, horizontal: bool
) -> tuple[list[str], float]:
    """The axis line and the category (or date) labels; returns them and how deep they reach under the plot."""
    xspec, yspec = layout.get("xaxis") or {}, layout.get("yaxis") or {}
    angle = float(xspec.get("tickangle") or 0)  # Plotly's tick angles here are always the x axis's
    if horizontal:
        parts = [f'<line x1="{box.left:.1f}" y1="{box.top:.1f}" x2="{box.left:.1f}" y2="{box.bottom:.1f}" '
                 f'stroke="{AXIS}"/>']  # fmt: skip
        room = box.left / 5.6  # characters that fit left of the plot
        parts += [
            _text(box.left - 4, y + 3.5, t if len(t) <= room else t[: max(int(room) - 1, 1)] + "…", anchor="end")
            for y, t in cat_axis.ticks(yspec)
        ]
        if xspec.get("tickvals") is None:
            return parts, 12.0
        columns = val_axis.ticks(xspec)  # a heat map's column names, under the plot
        parts += [_text(x, box.bottom + 10, t, anchor="end", angle=angle) for x, t in columns]
        return parts, 6.0 * max((len(t) for _, t in columns), default=0)
    parts = [f'<line x1="{box.left:.1f}" y1="{box.bottom:.1f}" x2="{box.right:.1f}" y2="{box.bottom:.1f}" '
             f'stroke="{AXIS}"/>']  # fmt: skip
    ticks = [(x, t if len(t) <= 14 else t[:13] + "…") for x, t in cat_axis.ticks(xspec)]
    longest = max((len(t) for _, t in ticks), default=0)
    if not angle and longest * 5.6 > (box.right - box.left) / max(len(ticks), 1):
        angle = -45  # as Plotly turns labels that do not fit side by side
    for k, (x, t) in enumerate(ticks):
        anchor = "end" if angle else "middle"
        if cat_axis.kind != "category" and not angle and len(ticks) > 1:  # the end labels stay inside the drawing
            anchor = "start" if k == 0 else "end" if k == len(ticks) - 1 else anchor
        parts.append(_text(x, box.bottom + 13, t, anchor=anchor, angle=angle))
    return parts, 14.0 + (longest * 4.2 if angle else 0.0)


def _grid(axis: Axis, spec: Mapping[str, Any], *, horizontal: bool, across: tuple[float, float]) -> list[str]:
    """The value axis's grid lines and labels (left of the plot, or under it for horizontal bars)."""
    if spec.get("tickvals") is not None:  # a heat map: its column names are drawn with the categories
        return []
    out = []
    for at, text in axis.ticks(spec):
        if horizontal:
            out.append(f'<line x1="{at:.1f}" y1="{across[0]:.1f}" x2="{at:.1f}" y2="{across[1]:.1f}" stroke="{GRID}"/>')
            out.append(_text(at, across[1] + 12, text, anchor="end" if at > WIDTH - 14 else "middle"))
        else:
            out.append(f'<line x1="{across[0]:.1f}" y1="{at:.1f}" x2="{across[1]:.1f}" y2="{at:.1f}" stroke="{GRID}"/>')
            out.append(_text(across[0] - 4, at + 3.5, text, anchor="end"))
    return out


def _bars(
    traces: Sequence[Mapping[str, Any]], cat: Axis, val: Axis, *, horizontal: bool, stack: bool, gap: float
) -> list[str]:
    out: list[str] = []
    cat_key, val_key = ("y", "x") if horizontal else ("x", "y")
    band = cat.band()
    width = band * (1 - gap) / (1 if stack else len(traces))
    base: dict[str, float] = {}
    for i, trace in enumerate(traces):
        marker = trace.get("marker") or {}
        colours = marker.get("color")
        texts = trace.get("text") or []
        for j, (c, v) in enumerate(zip(trace.get(cat_key) or [], trace.get(val_key) or [], strict=False)):
            number = _number(v)
            if number is None:
                continue
            key = str(c)
            start = base.get(key, 0.0) if stack else 0.0
            end = start + number
            if stack:
                base[key] = end
            offset = -band * (1 - gap) / 2 + (0 if stack else i * width)
            lane = cat.centre(key) + offset
            a, b = sorted((val.place(start), val.place(end)))
            colour = colours[j] if isinstance(colours, list) and j < len(colours) else colours
            colour = colour if isinstance(colour, str) else "#2166ac"
            if horizontal:
                x, y, w, h = a, lane, b - a, width
            else:
                x, y, w, h = lane, a, width, b - a
            edge = ' stroke="#ffffff" stroke-width="1"' if (marker.get("line") or {}).get("width") else ""
            out.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" {_paint(colour)}{edge}/>')
            text = str(texts[j]) if j < len(texts) and texts[j] is not None else ""
            if text:
                out.append(_text(x + w / 2, y + h / 2 + 3, text, size=9, fill=_ink_on(colour)))
    return out


def _lines(traces: Sequence[Mapping[str, Any]], x_axis: Axis, y_axis: Axis) -> list[str]:
    out: list[str] = []
    previous: list[tuple[float, float]] = []
    for trace in traces:
        points = []
        for x, y in zip(trace.get("x") or [], trace.get("y") or [], strict=False):
            number = _number(y)
            if number is None:
                continue
            if x_axis.kind == "category":
                px = x_axis.centre(str(x))
            else:
                px = x_axis.place(_time(x) if x_axis.kind == "time" else float(x))  # type: ignore[arg-type]
            points.append((px, y_axis.place(number)))
        line = trace.get("line") or {}
        if trace.get("fill") == "tonexty" and points and previous:
            outline = points + previous[::-1]
            path = "M" + " L".join(f"{x:.1f} {y:.1f}" for x, y in outline) + " Z"
            out.append(f'<path d="{path}" {_paint(str(trace.get("fillcolor") or "rgba(0,0,0,0.1)"))}/>')
        colour = escape(str(line.get("color") or "#2166ac"))
        width = float(line.get("width", 2))
        if points and width > 0:
            dash = ' stroke-dasharray="2 3"' if line.get("dash") == "dot" else ""
            path = "M" + " L".join(f"{x:.1f} {y:.1f}" for x, y in points)
            out.append(f'<path d="{path}" fill="none" stroke="{colour}" stroke-width="{width:g}"{dash}/>')
        if "markers" in str(trace.get("mode", "")) and len(points) <= MAX_MARKERS:
            out += [f'<circle cx="{x:.1f}" cy="{y:.1f}" r="2" fill="{colour}"/>' for x, y in points]
        previous = points
    return out


def _legend_svg(items: Sequence[tuple[str, str, bool]], top: float) -> tuple[str, float]:
    """The legend under the plot, wrapped into rows; returns its markup and height."""
    if not items:
        return "", 0.0
    out, x, y = [], 8.0, top
    for name, colour, is_bar in items:
        width = 18 + 5.6 * len(name) + 10
        if x + width > WIDTH and x > 8:
            x, y = 8.0, y + 15
        if is_bar:
            out.append(f'<rect x="{x:.1f}" y="{y - 8:.1f}" width="10" height="10" {_paint(colour)}/>')
        else:
            out.append(
                f'<line x1="{x:.1f}" y1="{y - 3:.1f}" x2="{x + 12:.1f}" y2="{y - 3:.1f}" '
                f'stroke="{escape(colour)}" stroke-width="2"/>'
            )
        out.append(_text(x + 16, y, name, anchor="start", fill=INK))
        x += width
    return "".join(out), y - top + 12
