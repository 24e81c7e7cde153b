"""Benchmark 8 (issue 45): taps and typed numbers to enter one typical round of every game and table size,
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
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from common import BASE_URL, CHROME_FLAGS, CHROMIUM, ROOT, bench_user, save, verdict  # noqa: E402

Action = tuple[str, str, Any]  # ("chip"|"check"|"num"|"select", form field name, value)


@dataclass
class Scenario:
    game: str
    players: int
    options: dict[str, Any]
    actions: list[Action]
    paper: int
    label: str = ""
    entry: str = ""  # "quick"/"full": the entry used, where the form has two
    compare: bool = False  # a slower entry of the same game, shown for comparison only
    counts: dict[str, int] = field(default_factory=dict)


# --- typical rounds ----------------------------------------------------------------------------------------


def _seat_nums(name: str, values: list[int]) -> list[Action]:
    return [("num", f"{name}.{seat}", value) for seat, value in enumerate(values)]


def njet(players: int) -> Scenario:
    # start player, discard, points per trick, partners, (monster), tricks, captured zeros
    rounds = {
        2: (0, "none", 2, [], None, [8, 7], [1, 0]),
        3: (0, "one", 1, [1], 2, [5, 4, 6], [0, 1, 2]),
        4: (1, "one", 2, [3], None, [3, 4, 5, 2], [0, 1, 2, 0]),
        5: (0, "two", 3, [1, 2], 3, [2, 3, 1, 2, 2], [1, 0, 0, 2, 1]),
    }
    start, discard, points, partners, monster, tricks, booty = rounds[players]
    actions: list[Action] = [("chip", "start_player", start), ("chip", "discard", discard)]
    actions += [("chip", "points_per_trick", points), *(("check", "partner", p) for p in partners)]
    if monster is not None:
        actions.append(("chip", "monster", monster))
    actions += [("chip", f"tricks.{seat}", t) for seat, t in enumerate(tricks)]
    actions += _seat_nums("booty", booty)
    return Scenario("njet", players, {}, actions, players)


def mue(players: int) -> Scenario:
    triangles = {4: [20, 10, 18, 12], 5: [20, 10, 15, 8, 7], 6: [18, 8, 16, 6, 6, 6]}[players]
    actions: list[Action] = [("chip", "chief", 0), ("num", "bid", 4), ("chip", "vice", 1)]
    actions += [("chip", "vice_trump", "number:9"), ("chip", "chief_trump", "colour:green"), ("chip", "partner", 2)]
    actions += _seat_nums("triangles", triangles)
    return Scenario("mue", players, {}, actions, players)


def meinz(players: int) -> Scenario:
    actions = _seat_nums("sums", [51, 38, 37, 31][:players])
    if players == 3:
        actions.append(("num", "monster_sum", 30))
    return Scenario("meinz", players, {}, actions, players)


def was_sticht(players: int) -> Scenario:
    from scoring import rules

    tasks = rules.get("was-sticht").example["options"]["tasks"][:players]
    tricks = {4: [2, 3, 1, 3], 3: [3, 4, 2]}[players]
    actions: list[Action] = [("chip", "start_player", 0)]
    actions += [("select", f"chosen.{seat}", tasks[seat][0]) for seat in range(1, players)]
    actions += [("chip", f"tricks.{seat}", t) for seat, t in enumerate(tricks)]
    actions.append(("chip", "last_trick", 1))
    # paper: the tasks returned this round (one tick each); typically one or two
    return Scenario("was-sticht", players, {"tasks": tasks}, actions, 2)


def abluxxen(players: int) -> Scenario:
    front, hand = {
        2: ([20, 14], [0, 5]),
        3: ([17, 12, 9], [0, 4, 7]),
        4: ([12, 9, 15, 7], [3, 5, 0, 4]),
        5: ([10, 8, 12, 6, 9], [2, 3, 0, 4, 1]),
    }[players]
    options = {"mode": "duel"} if players == 2 else {}
    return Scenario("abluxxen", players, options, _seat_nums("front", front) + _seat_nums("hand", hand), players)


def muzicando(players: int, mode: str) -> Scenario:
    order = list(random.Random(players).sample(range(players), players))
    actions: list[Action] = [("chip", "contract_type", "parada")]
    if mode == "team":
        actions += [("chip", "level", "2"), ("chip", "declarer", order[0])]
    # individual play: the chooser is the dealer's left neighbour, preselected by the form
    actions += [("chip", f"order.{place}", seat) for place, seat in enumerate(order)]
    label = "team" if mode == "team" else "individual"
    return Scenario("muzicando", players, {"mode": mode}, actions, players, label)


def _sticheln_hauls(players: int, variant: str, rnd: random.Random) -> list[dict[str, Any]]:
    """A dealt and played round: each seat's colour(s), other cards, pain points and pain cards (chooser in)."""
    from scoring.rules.sticheln_deck import deck_for

    deck = deck_for(players, variant)
    assert deck is not None
    cards = [(c, v) for c in deck.colours for v in deck.values]
    rnd.shuffle(cards)
    cards = cards[deck.unused :]
    seats: list[dict[str, Any]] = []
    for _ in range(players):
        chooser = [cards.pop()] if deck.chooser_cards else []
        if deck.chooser_cards == 2:
            chooser.append(cards.pop(next(i for i, c in enumerate(cards) if c[0] != chooser[0][0])))
        seats.append({"chooser": chooser, "taken": []})
    for t in range(deck.tricks):
        seats[rnd.randrange(players)]["taken"] += cards[t * players : (t + 1) * players]
    for seat in seats:
        if deck.chooser_cards:
            colours = [c for c, _ in seat["chooser"]]
        else:  # delayed: the cheapest colour among the cards taken
            cost: dict[str, int] = {}
            for c, v in seat["taken"]:
                cost[c] = cost.get(c, 0) + v + 1
            colours = [min(cost, key=cost.__getitem__)] if cost else []
        mine = [v for c, v in seat["taken"] + seat["chooser"] if c in colours]
        seat.update(colours=colours, others=len(seat["taken"]) + len(seat["chooser"]) - len(mine))
        seat.update(points=sum(mine), cards=len(mine))
    return seats


def sticheln(players: int, variant: str) -> Scenario:
    rnd = random.Random(players * 10 + len(variant))
    if variant == "hattrick":
        return hattrick(players, rnd)
    actions: list[Action] = []
    for seat, haul in enumerate(_sticheln_hauls(players, variant, rnd)):
        if variant == "heavy":
            actions += [("check", f"seats.{seat}.pain", colour) for colour in haul["colours"]]
        else:
            actions.append(("chip", f"pain.{seat}", haul["colours"][0] if haul["colours"] else "none"))
        if variant == "delayed" and not haul["colours"]:
            continue
        actions.append(("num", f"seats.{seat}.others", haul["others"]))
        tally = "pain_cards" if variant == "gentle" else "pain_points"
        actions.append(("num", f"seats.{seat}.{tally}", haul["cards"] if variant == "gentle" else haul["points"]))
    return Scenario("sticheln", players, {"variant": variant}, actions, players, variant, "quick")


def sticheln_full(players: int) -> Scenario:
    """The same kind of round through the full entry (chooser value, pain cards and their sum, other cards)."""
    rnd = random.Random(players * 10 + len("classic"))
    actions: list[Action] = [("chip", "entry", "full")]
    for seat, haul in enumerate(_sticheln_hauls(players, "classic", rnd)):
        (colour, chooser), taken = haul["chooser"][0], haul["taken"]
        mine = [v for c, v in taken if c == colour]
        actions += [("chip", f"pain.{seat}", colour), ("num", f"chooser.{seat}", chooser)]
        actions += [("num", f"pain_count.{seat}", len(mine)), ("num", f"pain_sum.{seat}", sum(mine))]
        actions.append(("num", f"others.{seat}", len(taken) - len(mine)))
    return Scenario("sticheln", players, {"variant": "classic"}, actions, players, "classic", "full")


def hattrick(players: int, rnd: random.Random) -> Scenario:
    from scoring.rules.sticheln_deck import deck_for

    deck = deck_for(players, "hattrick")
    assert deck is not None
    down = [0] * players
    down[rnd.randrange(players)] = 1  # one player passed once
    cards = [c for c in deck.colours for _ in deck.values]
    rnd.shuffle(cards)
    hauls = [dict.fromkeys(deck.colours, 0) for _ in range(players)]
    for colour in cards[players + sum(down) :]:
        hauls[rnd.randrange(players)][colour] += 1
    # "anyone pass?" first: a face-down card is a tap on its "+"; the last player's count then follows
    actions: list[Action] = [("num", f"seats.{seat}.face_down", d) for seat, d in enumerate(down)]
    for seat, haul in enumerate(hauls):
        most = max(haul.values())
        actions += [("num", f"seats.{seat}.most", most), ("num", f"seats.{seat}.rest", sum(haul.values()) - most)]
    return Scenario("sticheln", players, {"variant": "hattrick"}, actions, players, "hattrick", "quick")


def coloretto(players: int, full: bool = False) -> Scenario:
    from scoring.rules import coloretto as co

    rnd = random.Random(players)
    removed = "grey" if players == 3 else None
    colours = co.colours_in_play(removed)
    facts = {c: [0] * players for c in colours} | {"jokers": [0] * players, "plus_twos": [0] * players}
    cards = [c for c in colours for _ in range(9)] + ["jokers"] * 3 + ["plus_twos"] * 10
    # each player collects mostly three colours, as players do
    favourites = [rnd.sample(colours, 3) for _ in range(players)]
    for seat in range(players):
        facts[colours[seat]][seat] += 1
        cards.remove(colours[seat])
    rnd.shuffle(cards)
    for card in cards[rnd.randint(co.undrawn_at_least(players), co.UNDRAWN_AT_MOST) :]:
        takers = [s for s in range(players) if card in favourites[s]] or list(range(players))
        facts[card][rnd.choice(takers if rnd.random() < 0.7 else list(range(players)))] += 1
    for colour in colours:  # at most 9 of a colour: the generator only deals what exists
        assert sum(facts[colour]) <= 9
    actions: list[Action] = []
    for seat in range(players):
        for colour in colours:
            if facts[colour][seat]:
                actions += [("check", f"held.{seat}", colour), ("num", f"{colour}.{seat}", facts[colour][seat])]
        actions += [
            ("num", f"jokers.{seat}", facts["jokers"][seat]),
            ("num", f"plus_twos.{seat}", facts["plus_twos"][seat]),
        ]
    if removed:  # last: by then the form has filled it in (the one colour nobody holds)
        actions.append(("chip", "removed_colour", removed))
    if full:  # every colour of every player, in the form's order
        actions = [("chip", "entry", "full")] + [a for a in actions if a[0] == "num" and "." in a[1]]
        order = {f"{c}.{s}": (s, i) for s in range(players) for i, c in enumerate([*co.COLOURS, "jokers", "plus_twos"])}
        actions = actions[:1] + sorted(actions[1:], key=lambda a: order[a[1]])
        if removed:
            actions.append(("chip", "removed_colour", removed))
    return Scenario("coloretto", players, {}, actions, players, "", "full" if full else "quick")


def scenarios() -> list[Scenario]:
    out = [njet(n) for n in (2, 3, 4, 5)] + [mue(n) for n in (4, 5, 6)] + [meinz(n) for n in (3, 4)]
    out += [was_sticht(n) for n in (3, 4)]
    out += [sticheln(n, "classic") for n in range(3, 9)]
    out += [sticheln(4, v) for v in ("reverse", "gentle", "heavy", "foggy", "delayed")]
    out += [sticheln(n, "heavy") for n in (3, 5, 8)]
    out += [sticheln(n, "hattrick") for n in range(4, 8)]
    out += [abluxxen(n) for n in (2, 3, 4, 5)]
    out += [muzicando(4, "team"), *(muzicando(n, "individual") for n in (3, 5))]
    out += [coloretto(n) for n in (3, 4, 5)]
    # the full entries, for comparison (issue 45's table counted them): not part of the goal's verdict
    for extra in (sticheln_full(4), coloretto(4, full=True)):
        extra.compare = True
        out.append(extra)
    return out


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
