"""The typical rounds the tap bench (``bench_taps.py``) enters: one per game and table size, each as the form
actions a player takes ("chip", "check", "num", "select" with the form field and its value), and the paper
pad's count of numbers written for it. Sticheln, Hattrick and Coloretto rounds are dealt and played at random
(seeded, so every run enters the same rounds); the others are fixed rounds the rules accept.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

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


def was_sticht(players: int, full: bool = False) -> Scenario:
    """The quick entry: one tap on each task card returned (the start player is preselected); the full entry asks
    each other player's revealed task, everyone's tricks and the last trick so that the app judges the tasks."""
    from scoring import rules

    tasks = rules.get("was-sticht").example["options"]["tasks"][:players]
    # paper: the tasks returned this round (one tick each); typically one or two
    if not full:
        # 4 players: Bence fulfils his first task (exactly 2 tricks), Dani his second (the fewest tricks);
        # 3 players: Bence takes the last trick, Cili no trick (Betli)
        returned = {1: tasks[1][0], 3: tasks[3][1]} if players == 4 else {1: tasks[1][1], 2: tasks[2][0]}
        actions: list[Action] = [("chip", f"returned.{seat}", task) for seat, task in returned.items()]
        return Scenario("was-sticht", players, {"tasks": tasks}, actions, 2, "", "quick")
    tricks = {4: [2, 3, 1, 3], 3: [3, 4, 2]}[players]
    actions = [("chip", "entry", "full"), ("chip", "start_player", 0)]
    actions += [("select", f"chosen.{seat}", tasks[seat][0]) for seat in range(1, players)]
    actions += [("chip", f"tricks.{seat}", t) for seat, t in enumerate(tricks)]
    actions.append(("chip", "last_trick", 1))
    return Scenario("was-sticht", players, {"tasks": tasks}, actions, 2, "", "full")


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
    for extra in (was_sticht(4, full=True), sticheln_full(4), coloretto(4, full=True)):
        extra.compare = True
        out.append(extra)
    return out
