"""Benchmark 9 (issue 45): taps and typed numbers to enter one typical round of every game and table size,
beside the paper pad's count.

    .venv/bin/python tests/benchmarks/bench_taps.py                    # the prod-up stack (make bench)
    .venv/bin/python tests/benchmarks/bench_taps.py --dev --url http://127.0.0.1:8000   # a runserver

Playwright drives Debian's Chromium at 360 × 740 through the round-entry page as a player does it with the fewest
interactions the page allows: each value is entered only where the form does not already hold it (a default, a
value filled in from the others), a number field is tapped only when the cursor is not already in it (a chip that
opens its count, the keyboard's Enter/Next, a one-digit field moving on by itself), and Save is tapped. It counts

* taps: chips, checkboxes, selects (2: open and pick), number fields tapped, stepper buttons, Save;
* typed: numbers typed on the keyboard (one per field, a sum such as 3+6+2 is one);
* keys: the keyboard's Enter/Next presses between numbers (reported, not part of the goal).

The paper pad's count is what the paper score sheet has the table write for the round: one number per player
(Was sticht?: one tick per task returned). Goal (issue 45): for every game, typed ≤ paper + players and
taps ≤ 2 × paper + 3. Each round is checked to be stored (the rules engine accepted it); the figures go to
``var/bench/taps.json`` for the summary table.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from common import BASE_URL, CHROME_FLAGS, CHROMIUM, ROOT, bench_user, save, verdict  # noqa: E402
from taps_rounds import Action, Scenario, scenarios  # noqa: E402


def read_int(text: str) -> int | None:
    return int(text) if text.isdigit() else (0 if text == "" else None)


# --- driving the page --------------------------------------------------------------------------------------


class Pad:
    """The page, with every interaction counted."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.taps = self.typed = self.keys = 0

    def tap(self, locator: Any) -> None:
        self.taps += 1
        locator.click()

    def _input(self, name: str, value: Any = None) -> Any:
        form = self.page.locator("#entry-form")
        if value is None:
            return form.locator(f'input[data-num][name="{name}"]')
        return form.locator(f'input[name="{name}"][value="{value}"]')

    def chip(self, name: str, value: Any) -> None:
        box = self._input(name, value)
        if not box.is_checked():
            self.tap(box.locator("xpath=following-sibling::span[1]"))
            self.page.wait_for_timeout(30)  # a chip that opens a count moves the cursor after the tap

    def select(self, name: str, value: Any) -> None:
        self.taps += 2  # open the list, pick the item
        self.page.locator(f'#entry-form select[name="{name}"]').select_option(str(value))

    def focused(self, locator: Any) -> bool:
        return bool(locator.evaluate("e => e === document.activeElement"))

    def _steps_to(self, field: Any) -> int | None:
        """How many Enter/Next presses take the cursor from the number field it is in to ``field``."""
        return field.evaluate(
            """e => {
                const all = window.skFields ? window.skFields(e.form) : [];
                const at = all.indexOf(document.activeElement), to = all.indexOf(e);
                return at >= 0 && to > at ? to - at : null;
            }"""
        )

    def number(self, name: str, value: int) -> None:
        field = self._input(name)
        current = field.input_value().strip()
        if current == str(value) or (current == "" and value == 0 and field.get_attribute("placeholder") == "0"):
            return  # the form holds it already (a default, a value filled in from the others)
        step = read_int(current)
        if field.get_attribute("data-skip") is not None and step is not None and 0 < value - step <= 2:
            for _ in range(value - step):  # a count rarely above its default: its "+" button
                self.tap(field.locator("xpath=following-sibling::button[1]"))
            return
        if not self.focused(field):
            steps = self._steps_to(field)
            if steps is not None and steps <= 2:  # the keyboard's Next key, once or twice
                for _ in range(steps):
                    self.page.keyboard.press("Enter")
                self.keys += steps
            else:
                self.tap(field)
            if current not in ("", "0"):  # clear what the field holds
                self.keys += len(current)
                field.press("End")
                for _ in current:
                    field.press("Backspace")
        elif current not in ("", "0") and field.evaluate("e => e.selectionStart === e.selectionEnd"):
            self.keys += len(current)
            for _ in current:
                field.press("Backspace")
        self.page.keyboard.type(str(value))
        self.typed += 1

    def run(self, actions: list[Action]) -> None:
        for kind, name, value in actions:
            if kind in ("chip", "check"):
                self.chip(name, value)
            elif kind == "select":
                self.select(name, value)
            else:
                self.number(name, value)


def _session_cookie(user: Any, base: str) -> dict[str, Any]:
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return {"name": settings.SESSION_COOKIE_NAME, "value": session.session_key, "url": base}


def _table(user: Any) -> tuple[Any, list[Any]]:
    from scoring import services
    from scoring.models import Group, Player

    group = Group.objects.filter(name="Bench taps", memberships__user=user).first()
    if group is None:
        group = services.group_create(name="Bench taps", user=user, player_name="Anna")
        for name in ("Bence", "Cili", "Dani", "Emil", "Flóra", "Gábor", "Hanna"):
            services.player_create(group=group, name=name, user=user)
    order = ["Anna", "Bence", "Cili", "Dani", "Emil", "Flóra", "Gábor", "Hanna"]
    by_name = {p.name: p for p in Player.objects.filter(group=group)}
    return group, [by_name[n] for n in order]


def measure(base: str, chosen: Callable[[Scenario], bool]) -> list[dict[str, Any]]:
    from playwright.sync_api import sync_playwright

    from scoring import services
    from scoring.models import Round

    user = bench_user()
    group, players = _table(user)
    rows = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROME_FLAGS)
        context = browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True, base_url=base)
        context.add_cookies([_session_cookie(user, base)])
        context.set_default_timeout(15_000)
        page = context.new_page()
        for s in scenarios():
            if not chosen(s):
                continue
            match = services.match_create(
                group=group,
                ruleset=s.game,
                options=s.options,
                player_ids=[x.pk for x in players[: s.players]],
                user=user,
            )
            page.goto(f"/matches/{match.pk}/")
            page.locator("#entry-form").wait_for()
            pad = Pad(page)
            pad.run(s.actions)
            shown = page.evaluate(
                "() => Object.fromEntries([...document.querySelectorAll('#entry-form input[data-num]')]"
                ".filter(i => i.value !== '' && i.offsetParent).map(i => [i.name, i.value]))"
            )
            pad.tap(page.locator("#entry-form button[type=submit]"))
            stored = False
            deadline = time.monotonic() + 15
            while time.monotonic() < deadline and not stored:
                stored = Round.objects.filter(match=match).exists()
                if not stored:
                    page.wait_for_timeout(100)
            page.wait_for_function(  # the page's send queue settled before the next match is opened
                "() => !JSON.parse(localStorage.getItem('sk-queue') || '[]').some(i => i.state === 'pending')"
            )
            refused = "" if stored else page.locator("#entry-errors, #preview").first.inner_text()[:300]
            name = s.game + (f" {s.label}" if s.label else "")
            typed_goal, taps_goal = s.paper + s.players, 2 * s.paper + 3
            row = {
                "game": name,
                "players": s.players,
                "entry": s.entry or "(one entry)",
                "taps": pad.taps,
                "typed": pad.typed,
                "keys": pad.keys,
                "paper": s.paper,
                "typed_goal": typed_goal,
                "taps_goal": taps_goal,
                "stored": stored,
                "refused": refused,
                "numbers": shown,
                "pass": stored and pad.typed <= typed_goal and pad.taps <= taps_goal,
                "compare": s.compare,
            }
            rows.append(row)
            print(_line(row), flush=True)
            if not stored:
                print("    numbers as entered:", shown, flush=True)
        browser.close()
    return rows


HEAD = ("game", "p", "entry", "taps", "typed", "keys", "paper", "goal taps/typed", "result")


def _line(row: dict[str, Any]) -> str:
    result = (
        ("(compare)" if row["compare"] else verdict(row["pass"]))
        if row["stored"]
        else "NOT STORED: " + row["refused"].replace("\n", " ")
    )
    cells = (
        row["game"],
        str(row["players"]),
        row["entry"],
        str(row["taps"]),
        str(row["typed"]),
        str(row["keys"]),
        str(row["paper"]),
        f"≤{row['taps_goal']} / ≤{row['typed_goal']}",
        result,
    )
    return "  ".join(f"{c:<{w}}" for c, w in zip(cells, (16, 2, 11, 5, 6, 5, 6, 16, 10), strict=True))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", default=BASE_URL, help="the server to enter the rounds on")
    parser.add_argument("--dev", action="store_true", help="a runserver: Django settings from this environment")
    parser.add_argument("--only", default="", help="games to run (comma-separated keys), default all")
    args = parser.parse_args()
    if args.dev:
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
        os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        sys.path.insert(0, str(ROOT))
        import django

        django.setup()
    else:
        from common import django_setup, require_stack

        require_stack()
        os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        django_setup()
    only = {g for g in args.only.split(",") if g}
    print("  ".join(f"{c:<{w}}" for c, w in zip(HEAD, (16, 2, 11, 5, 6, 5, 6, 16, 10), strict=True)))
    rows = measure(args.url, lambda s: not only or s.game in only)
    graded = [r for r in rows if not r["compare"]]
    passed = sum(r["pass"] for r in graded)
    print(f"\n{passed} of {len(graded)} rounds within the goal (typed ≤ paper + players, taps ≤ 2 × paper + 3);")
    print("the rows marked 'full' enter the same kind of round through the full entry, for comparison")
    save("taps", {"url": args.url, "rows": rows, "pass": passed == len(graded) and all(r["stored"] for r in rows)})


if __name__ == "__main__":
    main()
