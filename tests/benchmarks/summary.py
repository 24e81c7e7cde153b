"""The summary table of ``make bench``: every figure against its goal (issues 8 and 33), from var/bench/.

Reads ``api.json``, ``floor.json``, ``floor_instructions.json``, ``openloop.json``, ``live.json``, ``abuse.json``,
``pages.json`` and ``taps.json`` (written by bench_api.py, bench_floor.py, bench_floor_instructions.py,
bench_openloop.py, bench_live.py, bench_abuse.py, bench_pages.py and bench_taps.py) and ``stats.txt``
(the printed output of bench_stats.py).  A benchmark that did not run shows as "not run".
"""

from __future__ import annotations

import json
import re
from typing import Any

from common import RESULTS, verdict

Row = tuple[str, str, str, str]
# Issue 33 retired issue 8's goals 1 (throughput ≥ 0.5 × /ping, p99 ≤ 50 ms at 32 closed-loop clients) and 3
# (rebuild ≤ 3 × one GROUP BY): their baselines did none of the product's work. The open-loop p99 (6) and the
# floor/path ratio (5) replace them; the rebuild stays as a regression figure (≤ 60 s, ≤ 300 MB).
RETIRED = "(retired goal; reported)"
REBUILD_SECONDS = 60.0


def _load(name: str) -> dict[str, Any] | None:
    path = RESULTS / name
    return json.loads(path.read_text()) if path.exists() else None


def api_rows(data: dict[str, Any] | None) -> list[Row]:
    if data is None:
        return [("1 round submission (API)", "not run", "", "")]
    base = data.get("baseline", "/ping")
    return [
        (
            "1 API throughput ratio",
            f"{data['ratio']:.2f} ({data['rounds_rps']:.0f} rounds/s vs {data['ping_rps']:.0f} {base}/s)",
            RETIRED,
            "",
        ),
        ("1 API p50 / p99", f"{data['p50_ms']:.1f} ms / {data['p99_ms']:.1f} ms", RETIRED, ""),
        (
            "1 API rounds stored",
            f"{data['answered_201']} answered 201, {data['stored']} stored, {data['half_written']} half-written",
            "no loss",
            verdict(data["pass"]["stored"]),
        ),
    ]


def instruction_rows(data: dict[str, Any] | None) -> list[Row]:
    if data is None:
        return [("5b … in instructions (callgrind)", "not run", "", "")]
    counts = data["instructions_a_round"]
    rows: list[Row] = [
        (
            "5b … in instructions (callgrind)",
            f"{data['ratio']:.3f} (path {counts['path'] / 1e6:.2f} M, floor {counts['floor'] / 1e6:.2f} M a round)",
            "(reported)",
            "",
        )
    ]
    if data.get("raw_ratio") is not None:
        rows.append(
            (
                "5b … raw/path in instructions",
                f"{data['raw_ratio']:.3f} (raw {counts['raw'] / 1e6:.2f} M a round)",
                "(reported)",
                "",
            )
        )
    return rows


def raw_rows(data: dict[str, Any]) -> list[Row]:
    """Issue 48's row: the round write's CPU against the same statements sent by psycopg alone."""
    if data.get("raw_ratio") is None:
        return [("5 round write raw/path CPU", "not run (--no-raw)", "≥ 0.4", "")]
    ratios = data["raw_ratios"]
    return [
        (
            "5 round write raw/path CPU",
            f"{data['raw_ratio']:.2f} (blocks {min(ratios):.2f}–{max(ratios):.2f}; raw {data['raw_cpu_ms']:.2f} ms, "
            f"path {data['path_cpu_ms']:.2f} ms a round)",
            "≥ 0.4",
            verdict(data["raw_pass"]),
        )
    ]


def floor_rows(data: dict[str, Any] | None) -> list[Row]:
    if data is None:
        return [("5 round write floor/path CPU", "not run", "", "")]
    ratios = data["ratios"]
    return [
        (
            "5 round write floor/path CPU",
            f"{data['ratio']:.2f} (pairs {min(ratios):.2f}–{max(ratios):.2f}; path {data['path_cpu_ms']:.2f} ms, "
            f"floor {data['floor_cpu_ms']:.2f} ms a round)",
            "≥ 0.9",
            verdict(data["pass"]),
        ),
        *raw_rows(data),
        *instruction_rows(_load("floor_instructions.json")),
        (
            "5 … SQL statements a round",
            f"path {data['path_statements']}, floor {data['floor_statements']}",
            "(reported)",
            "",
        ),
    ]


def openloop_rows(data: dict[str, Any] | None) -> list[Row]:
    if data is None:
        return [("6 open-loop round writes", "not run", "", "")]
    results = data["results"]
    rows: list[Row] = []
    for name, runs in results.items():
        label = "6 open-loop GET /ping" if name == "ping" else f"6 open-loop {name}"
        shown = "; ".join(
            f"{f['rate']:g}/s p50 {f['p50_ms']:.0f} p90 {f['p90_ms']:.0f} p99 {f['p99_ms']:.0f} max {f['max_ms']:.0f}"
            for f in runs
        )
        goal = f"p99 ≤ 100 ms at {data['goal_rate']}/s" if name == "rounds, 1 group" else "(reported)"
        rows.append((label, shown + " ms", goal, verdict(data["pass"]) if name == "rounds, 1 group" else ""))
    return rows


def live_rows(data: dict[str, Any] | None) -> list[Row]:
    if data is None:
        return [("7 live boards", "not run", "", "")]
    per = data["memory_per_phone_kib"]
    return [
        (
            f"7 live: Save -> new board on another phone ({data['phones']} open)",
            f"p95 {data['save_to_board_ms']['p95']:.0f} ms (event p95 {data['save_to_event_ms']['p95']:.0f} ms, "
            f"missed {data['events_missed']})",
            "p95 ≤ 1 s",
            str(data["verdict"]),
        ),
        (
            "7 … per open phone; save p95 without / with",
            f"uvicorn {per['uvicorn_kib']:.0f} KiB, nginx {per['nginx_kib']:.0f} KiB, "
            f"redis {per['redis_kib']:.0f} KiB; "
            f"{data['save_ms_quiet']['p95']:.0f} / {data['save_ms_held']['p95']:.0f} ms",
            "(reported)",
            "",
        ),
    ]


def abuse_rows(data: dict[str, Any] | None) -> list[Row]:
    """Issue 44's "abuse" row: each heavy endpoint's first and repeated cost, /ping beside, web memory."""
    if data is None:
        return [("8 abuse: heavy GETs, 8 at a time", "not run", "", "")]
    rows: list[Row] = []
    for name, r in data["results"].items():
        repeated = r["repeated"]
        rows.append(
            (
                f"8 … {name}: first / repeated p50, max",
                f"{r['first']['seconds']:.2f} s / {repeated['p50_s']:.2f} s, {repeated['max_s']:.2f} s "
                f"(x{repeated['requests']}; /ping p99 {r['ping'].get('p99_ms', float('nan')):.0f} ms)",
                "(reported)",
                "",
            )
        )
    memory = data["web_rss_mb"]
    return [
        (
            "8 abuse: /ping p99 under 8 heavy GETs at a time",
            f"{data['ping_p99_ms']:.0f} ms (worst endpoint)",
            "≤ 100 ms",
            verdict(data["pass"]["ping_p99"]),
        ),
        (
            "8 … slowest repeated heavy request",
            f"{data['repeat_max_s']:.2f} s",
            "≤ 2 s",
            verdict(data["pass"]["repeat_max"]),
        ),
        (
            "8 … web memory growth, the most one web process grew",
            f"+{memory.get('process_growth_max', float('nan')):.0f} MB (all {memory.get('processes', '?')} "
            f"together +{memory['growth']:.0f} MB: {memory['before']:.0f} -> peak {memory['peak']:.0f} MB)",
            "≤ 50 MB",
            verdict(data["pass"]["memory"]),
        ),
        *rows,
    ]


def _find(pattern: str, text: str) -> float | None:
    found = re.search(pattern, text)
    return float(found.group(1).replace(",", "")) if found else None


def stats_rows(text: str | None) -> list[Row]:
    if text is None:
        return [("2/3 statistics", "not run", "", "")]
    median = _find(r"snapshot updated: median ([\d.]+) s", text)
    open_median = _find(r"rounds in an open match: median ([\d.]+) s", text)
    finishing = _find(r"rounds finishing a match: median ([\d.]+) s", text)
    ratio = _find(r"ratio ([\d.]+)", text)
    seconds = _find(r"full rebuild: ([\d.]+) s", text)
    peak = _find(r"peak memory: ([\d,.]+) MiB (?:RSS|PSS)", text)
    rounds = _find(r"history: ([\d,]+) live rounds", text)
    history = f" ({rounds:,.0f} rounds)" if rounds is not None else ""
    memory = "3 rebuild peak memory" + (" (added to the idle workers)" if "added to the idle" in text else "")

    def row(label: str, value: float | None, shown: str, goal: str, ok: bool) -> Row:
        if value is None:
            return (label, "no figure in bench_stats output", goal, "?")
        return (label, shown, goal, "" if goal in ("(reported)", RETIRED) else verdict(ok))

    return [
        row("2 stats freshness (median)", median, f"{median} s", "≤ 1 s", median is not None and median <= 1.0),
        row("2 … round in an open match", open_median, f"{open_median} s", "(reported)", True),
        row("2 … round finishing a match", finishing, f"{finishing} s", "(reported)", True),
        row(
            f"3 full rebuild{history}",
            seconds,
            f"{seconds} s",
            f"≤ {REBUILD_SECONDS:.0f} s",
            seconds is not None and seconds <= REBUILD_SECONDS,
        ),
        row("3 … rebuild / raw SQL aggregate", ratio, f"{ratio}", RETIRED, True),
        row(
            memory,
            peak,
            f"{peak:.0f} MiB" if peak else "",
            "≤ 300 MB",
            bool(peak and peak <= 300),
        ),
    ]


def pages_rows(data: dict[str, Any] | None) -> list[Row]:
    if data is None:
        return [("4 page weight / Lighthouse", "not run", "", "")]
    rows: list[Row] = [
        (
            "4 round entry weight",
            f"{data['entry_first_kb']:.1f} KB first, {data['entry_repeat_kb']:.1f} KB repeat "
            f"(heaviest: {data['entry_heaviest'].removeprefix('entry ')})",
            "≤ 60 KB",
            verdict(data["pass"]["entry_weight"]),
        ),
        (
            "4 dashboard weight",
            f"{data['dashboard_first_kb']:.1f} KB first, {data['dashboard_repeat_kb']:.1f} KB repeat, "
            f"{data.get('dashboard_interactive_kb', 0):.1f} KB first + one interactive figure (plotly.js); "
            f"one-match group {data.get('small_dashboard_first_kb', 0):.1f} KB first",
            "(reported)",
            "",
        ),
    ]
    for name, lh in (data.get("lighthouse") or {}).items():
        rows.append(
            (
                f"4 Lighthouse {name.removeprefix('entry ')} (mobile)",
                f"performance {lh['performance']:.0f}, accessibility {lh['accessibility']:.0f}",
                "≥ 95 both",
                verdict(data["pass"][f"lighthouse {name}"]),
            )
        )
    if not data.get("lighthouse"):
        rows.append(("4 Lighthouse", "not run", "≥ 95 both", ""))
    return rows


def taps_rows(data: dict[str, Any] | None) -> list[Row]:
    """Issue 45: one row for all rounds, and one for each round outside the goal (or not stored)."""
    goal = "typed ≤ paper + players, taps ≤ 2 × paper + 3"
    if data is None:
        return [("8 taps per round (every game)", "not run", goal, "")]
    rows_ = [r for r in data["rows"] if not r.get("compare")]
    passed = sum(r["pass"] for r in rows_)
    out: list[Row] = [
        ("8 taps per round (every game)", f"{passed} of {len(rows_)} rounds within", goal, verdict(data["pass"]))
    ]
    for r in rows_:
        if not r["pass"]:
            shown = f"{r['taps']} taps, {r['typed']} typed (paper {r['paper']})" if r["stored"] else "not stored"
            out.append(
                (f"8 … {r['game']}, {r['players']} players", shown, f"≤ {r['taps_goal']} / ≤ {r['typed_goal']}", "MISS")
            )
    return out


def main() -> None:
    stats = RESULTS / "stats.txt"
    rows = [
        *api_rows(_load("api.json")),
        *floor_rows(_load("floor.json")),
        *openloop_rows(_load("openloop.json")),
        *live_rows(_load("live.json")),
        *abuse_rows(_load("abuse.json")),
        *stats_rows(stats.read_text() if stats.exists() else None),
        *pages_rows(_load("pages.json")),
        *taps_rows(_load("taps.json")),
    ]
    widths = [max(len(r[i]) for r in [("benchmark", "figure", "goal", "result"), *rows]) for i in range(4)]
    line = "  ".join(f"{{:<{w}}}" for w in widths)
    print()
    print(line.format("benchmark", "figure", "goal", "result"))
    print(line.format(*("-" * w for w in widths)))
    for r in rows:
        print(line.format(*r))
    print(f"\n(details in {RESULTS}/)")


if __name__ == "__main__":
    main()
