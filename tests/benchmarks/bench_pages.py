"""Benchmark 4: page weight of round entry and dashboard, and Lighthouse's mobile scores, on the prod-up stack.

    make prod-up && .venv/bin/python tests/benchmarks/bench_pages.py [--no-lighthouse]

Data (prod database, through our services and ``generate_history``): the bench user, a group with a realistic
history, one open match per game with one round entered, and a new group with one finished match (its dashboard
has a figure on the first screen).  Then, logged in as the bench user:

* page weight — Playwright driving Debian's Chromium (``/usr/bin/chromium``, phone viewport), bytes transferred
  on the wire (compressed bodies plus headers, from the DevTools protocol's ``encodedDataLength``) for the first
  visit (empty cache) and a repeat visit (same browser profile) of the round-entry page of every game and of both
  group dashboards, and a first visit of the larger dashboard with one figure made interactive (plotly.js).
  Service workers are blocked so that every byte is seen by the page;
* Lighthouse 13.5.0 (npm, in ``tests/benchmarks/.npm``) with ``CHROME_PATH=/usr/bin/chromium``, mobile form
  factor, performance and accessibility, on the heaviest round-entry page and on both dashboards.

Goals: round entry ≤ 60 KB (first visit), performance ≥ 95, accessibility ≥ 95.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from common import (
    BASE_URL,
    CHROME_FLAGS,
    CHROMIUM,
    RESULTS,
    ROOT,
    bench_password,
    bench_user,
    django_setup,
    require_stack,
    save,
    verdict,
)

HERE = Path(__file__).resolve().parent
LIGHTHOUSE = HERE / ".npm" / "node_modules" / "lighthouse" / "cli" / "index.js"
STATE = RESULTS / "pages-data.json"
GOAL_ENTRY_KB = 60.0
GOAL_SCORE = 95
SMALL = "dashboard, one match"


# --- data --------------------------------------------------------------------------------------------------


def _history_group(user: Any) -> int:
    """A group with a realistic history the bench user belongs to (made once with generate_history)."""
    from scoring.models import Group, Membership

    if STATE.exists():
        known = json.loads(STATE.read_text()).get("group")
        if known and Group.objects.filter(pk=known, memberships__user=user).exists():
            return int(known)
    before = set(Membership.objects.filter(user=user).values_list("group_id", flat=True))
    subprocess.run(
        [
            sys.executable,
            "manage.py",
            "generate_history",
            *("--rounds", "3000", "--groups", "1", "--players", "8"),
            *("--member", user.username, "--seed", "4", "--open", "0", "--rebuild"),
        ],
        cwd=ROOT,
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    made = set(Membership.objects.filter(user=user).values_list("group_id", flat=True)) - before
    group = max(made)
    STATE.write_text(json.dumps({"group": group}))
    return group


def _small_group(user: Any) -> int:
    """A new group with one finished match: its dashboard has a figure on the first screen (a larger group's
    tables push the figures below it, where Lighthouse, which does not scroll, never sees them)."""
    from scoring import services

    group = services.group_create(name=f"Bench one match {time.strftime('%Y-%m-%d %H:%M:%S')}", user=user)
    seats = [services.player_create(group=group, name=name, user=user).pk for name in ("Anna", "Béla", "Cili", "Dóra")]
    match = services.match_create(group=group, ruleset="abluxxen", options={"games": 1}, player_ids=seats, user=user)
    services.round_record(match=match, facts={"front": [9, 5, 4, 3], "hand": [0, 3, 2, 1], "end": "out"}, user=user)
    return group.pk


def _entry_matches(group_id: int, user: Any) -> dict[str, int]:
    """One open match per game with one round entered (a round-entry page as it is used mid-match)."""
    from scoring import rules, services
    from scoring.models import Group, Match

    group = Group.objects.get(pk=group_id)
    players = list(group.players.filter(merged_into__isnull=True).order_by("id").values_list("id", flat=True))
    found: dict[str, int] = {}
    for ruleset in rules.all_rulesets():
        example = ruleset.example
        options = dict(example.get("options") or {})
        if ruleset.key == "abluxxen":
            options["games"] = 10
        seats = players[: int(example["players"])]
        match = services.match_create(group=group, ruleset=ruleset.key, options=options, player_ids=seats, user=user)
        services.round_record(match=match, facts=example["facts"], user=user)
        match.refresh_from_db()
        if match.state != Match.State.OPEN:  # one round ended it: an empty open match instead
            match = services.match_create(
                group=group, ruleset=ruleset.key, options=options, player_ids=seats, user=user
            )
        found[ruleset.key] = match.pk
    return found


def _stats_fresh(group_id: int, timeout: float) -> bool:
    from analytics.models import Snapshot

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not Snapshot.objects.filter(group_id=group_id, stale=True).exists():
            return True
        time.sleep(1)
    return False


# --- page weight --------------------------------------------------------------------------------------------


def _login_state(browser: Any, device: dict[str, Any], password: str) -> dict[str, Any]:
    context = browser.new_context(**device, ignore_https_errors=True)
    page = context.new_page()
    page.goto(f"{BASE_URL}/accounts/login/")
    page.fill("input[name=username]", "bench")
    page.fill("input[name=password]", password)
    with page.expect_navigation():
        page.locator("form [type=submit]").first.click()
    state = context.storage_state()
    context.close()
    if not any(c["name"] == "sessionid" for c in state["cookies"]):
        sys.exit("bench_pages: logging in as the bench user failed")
    return state


def _visit(page: Any, cdp: Any, url: str, *, interactive: bool = False) -> dict[str, int]:
    """Load ``url`` and count what came over the wire; ``interactive``: then ask for the first figure's
    interactive version too (which fetches plotly.js) and wait until Plotly has drawn it."""
    seen = {"bytes": 0, "requests": 0, "from_cache": 0}

    def finished(event: dict[str, Any]) -> None:
        seen["bytes"] += int(event.get("encodedDataLength", 0))

    def sent(event: dict[str, Any]) -> None:
        seen["requests"] += 1

    def cached(event: dict[str, Any]) -> None:
        seen["from_cache"] += 1

    cdp.on("Network.loadingFinished", finished)
    cdp.on("Network.requestWillBeSent", sent)
    cdp.on("Network.requestServedFromCache", cached)
    response = page.goto(url, wait_until="networkidle")
    page.wait_for_timeout(500)
    if interactive:  # every figure comes as a static SVG; plotly.js only when the reader asks for it
        page.locator(".stats-explore").first.click()
        page.locator(".stats-figure .main-svg").first.wait_for(timeout=30_000)
        page.wait_for_load_state("networkidle")
    cdp.remove_listener("Network.loadingFinished", finished)
    cdp.remove_listener("Network.requestWillBeSent", sent)
    cdp.remove_listener("Network.requestServedFromCache", cached)
    if response is None or response.status != 200 or page.url != url:
        sys.exit(f"bench_pages: {url} answered {response.status if response else 'nothing'} (ended on {page.url})")
    return seen


def weigh(pages: dict[str, str], state: dict[str, Any], device: dict[str, Any], browser: Any) -> dict[str, Any]:
    """First visit (fresh profile) and repeat visit (same profile) of each page."""
    out: dict[str, Any] = {}
    for name, url in pages.items():
        context = browser.new_context(**device, ignore_https_errors=True, storage_state=state, service_workers="block")
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        first = _visit(page, cdp, url)
        repeat = _visit(page, cdp, url)
        out[name] = {"url": url, "first": first, "repeat": repeat}
        context.close()
        if name == "dashboard":
            context = browser.new_context(
                **device, ignore_https_errors=True, storage_state=state, service_workers="block"
            )
            page = context.new_page()
            cdp = context.new_cdp_session(page)
            cdp.send("Network.enable")
            out[name]["first_interactive"] = _visit(page, cdp, url, interactive=True)
            context.close()
    return out


# --- Lighthouse ---------------------------------------------------------------------------------------------


RETRIES = 2  # extra runs when Lighthouse itself asks to be run again


def _lighthouse_run(url: str, report: Path, headers: Path) -> dict[str, Any]:
    """One Lighthouse run's report.  A run that failed to record its trace (``NO_NAVSTART`` and the like, which
    Lighthouse answers with "Please run Lighthouse again") is run again, up to ``RETRIES`` times, and says so;
    any other failure stops the benchmark."""
    for attempt in range(RETRIES + 1):
        report.unlink(missing_ok=True)
        found = subprocess.run(
            [
                "node",
                str(LIGHTHOUSE),
                url,
                "--only-categories=performance,accessibility",
                "--form-factor=mobile",
                "--output=json",
                f"--output-path={report}",
                f"--extra-headers={headers}",
                "--quiet",
                "--chrome-flags=" + " ".join(["--headless=new", *CHROME_FLAGS]),
            ],
            env={**os.environ, "CHROME_PATH": CHROMIUM},
            capture_output=True,
            text=True,
            check=False,
            timeout=300,
        )
        if found.returncode != 0 or not report.exists():
            problem = found.stderr[-3000:] or f"exit code {found.returncode}, no report"
        else:
            data = json.loads(report.read_text())
            problem = str(data.get("runtimeError") or "")
            if not problem:
                return data
        if "run Lighthouse again" in problem and attempt < RETRIES:
            print(f"bench_pages: lighthouse asked to be run again on {url} (attempt {attempt + 1}); running it again")
            continue
        sys.exit(f"bench_pages: lighthouse failed on {url}:\n{problem}")
    raise AssertionError("unreachable")


def lighthouse(url: str, cookie: str, name: str, runs: int) -> dict[str, Any]:
    if not LIGHTHOUSE.exists():
        sys.exit(f"bench_pages: {LIGHTHOUSE} is missing: npm install --prefix tests/benchmarks/.npm lighthouse@13.5.0")
    scores: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        headers = Path(tmp) / "headers.json"
        headers.write_text(json.dumps({"Cookie": cookie}))
        for run in range(runs):
            report = RESULTS / f"lighthouse-{name}-{run + 1}.json"
            data = _lighthouse_run(url, report, headers)
            scores.append(
                {
                    "performance": round(100 * (data["categories"]["performance"]["score"] or 0)),
                    "accessibility": round(100 * (data["categories"]["accessibility"]["score"] or 0)),
                    "total_byte_weight": int(data["audits"]["total-byte-weight"]["numericValue"]),
                    "lcp_ms": int(data["audits"]["largest-contentful-paint"]["numericValue"]),
                    "final_url": data.get("finalDisplayedUrl") or data.get("finalUrl"),
                    "failed_a11y": [
                        key
                        for key, audit in data["audits"].items()
                        if audit.get("score") == 0
                        and key in {r["id"] for r in data["categories"]["accessibility"]["auditRefs"]}
                    ],
                }
            )
    best = {k: statistics.median(s[k] for s in scores) for k in ("performance", "accessibility", "lcp_ms")}
    return {**scores[-1], **best, "runs": runs}


# --- main ---------------------------------------------------------------------------------------------------


def kb(n: int) -> str:
    return f"{n / 1024:6.1f} KB"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--no-lighthouse", action="store_true", help="page weight only")
    parser.add_argument("--lighthouse-runs", type=int, default=1, help="Lighthouse runs per page (median)")
    args = parser.parse_args()

    require_stack()
    django_setup()
    user = bench_user()
    group = _history_group(user)
    matches = _entry_matches(group, user)
    if not _stats_fresh(group, timeout=180):
        print("bench_pages: warning: the group's statistics are still being computed; the dashboard may say so")
    pages = {f"entry {key}": f"{BASE_URL}/matches/{pk}/" for key, pk in matches.items()}
    pages["dashboard"] = f"{BASE_URL}/stats/groups/{group}/"
    small = _small_group(user)
    if not _stats_fresh(small, timeout=60):
        print("bench_pages: warning: the one-match group's statistics are still being computed")
    pages[SMALL] = f"{BASE_URL}/stats/groups/{small}/"

    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROME_FLAGS)
        device = dict(p.devices["Pixel 7"])
        device.pop("default_browser_type", None)
        state = _login_state(browser, device, bench_password())
        weights = weigh(pages, state, device, browser)
        browser.close()
    cookie = "; ".join(f"{c['name']}={c['value']}" for c in state["cookies"])

    print(f"bench_pages: {BASE_URL}, Chromium {CHROMIUM}, Pixel 7 viewport, service workers blocked")
    print(f"{'page':<22} {'first visit':>12} {'req':>4} {'repeat visit':>13} {'req':>4} {'cached':>6}  url")
    for name, w in weights.items():
        f, r = w["first"], w["repeat"]
        print(
            f"{name:<22} {kb(f['bytes']):>12} {f['requests']:>4} {kb(r['bytes']):>13} {r['requests']:>4} "
            f"{r['from_cache']:>6}  {w['url']}"
        )
    interactive = weights["dashboard"]["first_interactive"]
    print(f"{'dashboard, interactive':<22} {kb(interactive['bytes']):>12} {interactive['requests']:>4}  (first "
          "visit, then one figure made interactive: plotly.js is fetched only then)")  # fmt: skip
    entries = {k: v for k, v in weights.items() if k.startswith("entry ")}
    heaviest = max(entries, key=lambda k: entries[k]["first"]["bytes"])
    entry_kb = entries[heaviest]["first"]["bytes"] / 1024
    print(
        f"round entry, heaviest first visit: {heaviest} {entry_kb:.1f} KB   goal ≤ {GOAL_ENTRY_KB:g} KB: "
        f"{verdict(entry_kb <= GOAL_ENTRY_KB)}"
    )
    result: dict[str, Any] = {
        "weights": weights,
        "entry_heaviest": heaviest,
        "entry_first_kb": entry_kb,
        "entry_repeat_kb": entries[heaviest]["repeat"]["bytes"] / 1024,
        "dashboard_first_kb": weights["dashboard"]["first"]["bytes"] / 1024,
        "dashboard_repeat_kb": weights["dashboard"]["repeat"]["bytes"] / 1024,
        "dashboard_interactive_kb": interactive["bytes"] / 1024,
        "small_dashboard_first_kb": weights[SMALL]["first"]["bytes"] / 1024,
        "pass": {"entry_weight": entry_kb <= GOAL_ENTRY_KB},
    }
    if not args.no_lighthouse:
        result["lighthouse"] = {}
        for name in (heaviest, "dashboard", SMALL):
            slug = "-".join(name.replace(",", "").split())
            lh = lighthouse(weights[name]["url"], cookie, slug, args.lighthouse_runs)
            result["lighthouse"][name] = lh
            ok = lh["performance"] >= GOAL_SCORE and lh["accessibility"] >= GOAL_SCORE
            result["pass"][f"lighthouse {name}"] = ok
            print(
                f"lighthouse {name:<17} performance {lh['performance']:>3}  accessibility {lh['accessibility']:>3}  "
                f"LCP {lh['lcp_ms'] / 1000:.1f} s  bytes {kb(lh['total_byte_weight'])}  "
                f"goal ≥ {GOAL_SCORE} both: {verdict(ok)}"
                + (f"  failing a11y audits: {', '.join(lh['failed_a11y'])}" if lh["failed_a11y"] else "")
            )
            if lh["final_url"] and lh["final_url"].rstrip("/") != weights[name]["url"].rstrip("/"):
                print(f"  (lighthouse ended on {lh['final_url']}: the session cookie was not accepted)")
    save("pages", result)


if __name__ == "__main__":
    main()
