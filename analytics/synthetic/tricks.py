"""Synthetic rounds of the trick-taking games: NJET, MÜ, Meinz and Was sticht?."""

from __future__ import annotations

from collections.abc import Mapping
from random import Random
from typing import Any

from analytics.synthetic.common import Skills, skill_order, split
from scoring.rules import MatchState, mue, njet
from scoring.rules import meinz as mz
from scoring.rules import was_sticht_tasks as ws

# --- NJET ----------------------------------------------------------------------------------------------------


def njet_facts(rng: Random, n: int, options: Mapping[str, Any], state: MatchState, skills: Skills) -> dict[str, Any]:
    start = rng.randrange(n)
    large, small = njet.TEAM_SIZES[n]
    size0 = rng.choice((large, small))
    others = [s for s in range(n) if s != start]
    rng.shuffle(others)
    team0 = {start, *others[: size0 - 1]}
    teams = [0 if s in team0 else 1 for s in range(n)]
    monster = None
    if n in njet.MONSTER_PLAYERS:
        smaller = njet.smaller_team(teams)
        monster = rng.choice([s for s in range(n) if teams[s] == smaller])
    discard = rng.choice(list(njet.DISCARDS))
    per_trick = rng.choices(njet.POINTS_PER_TRICK, weights=(3, 3, 3, 2, 2))[0]
    tricks = split(rng, njet.tricks_in_round(n, discard), [skills[s] for s in range(n)])
    booty = [0] * n
    zeros = rng.randint(0, njet.ZEROS_IN_DECK // 2)
    for _ in range(zeros):
        seat = rng.choices(range(n), weights=[t + 0.01 for t in tricks])[0]
        if booty[seat] < tricks[seat] * njet.opponents_of(teams, seat):
            booty[seat] += 1
    return {
        "start_player": start,
        "teams": teams,
        "monster": monster,
        "discard": discard,
        "points_per_trick": per_trick,
        "tricks": tricks,
        "booty": booty,
    }


# --- MÜ --------------------------------------------------------------------------------------------------------

MUE_BIDS = {1: 6, 2: 14, 3: 22, 4: 22, 5: 15, 6: 9, 7: 5, 8: 3, 9: 2, 10: 1, 11: 1}


def _mue_trump(rng: Random, *, allow_none: bool) -> dict[str, Any] | None:
    kind = rng.choices(("colour", "number", "none"), weights=(45, 40, 15 if allow_none else 0))[0]
    if kind == "colour":
        return {"kind": "colour", "value": rng.choice(mue.COLOURS)}
    if kind == "number":
        return {"kind": "number", "value": rng.choice(mue.NUMBERS)}
    return {"kind": "none", "value": None}


def mue_facts(rng: Random, n: int, options: Mapping[str, Any], state: MatchState, skills: Skills) -> dict[str, Any]:
    hand = mue.HAND_SIZE[n]
    roll = rng.random()
    if roll < 0.004:
        return {"outcome": "eklat", "tied": [], "last_tied": None, "cards": 0}
    if roll < 0.07:
        tied = rng.sample(range(n), rng.choice((2, 2, 2, 3)))
        return {"outcome": "eklat", "tied": tied, "last_tied": rng.choice(tied), "cards": rng.randint(1, min(6, hand))}
    bids = [b for b in MUE_BIDS if b <= hand]
    bid = rng.choices(bids, weights=[MUE_BIDS[b] for b in bids])[0]
    chief = rng.choices(range(n), weights=skills)[0]
    others = [s for s in range(n) if s != chief]
    vice = None if bid < 2 or rng.random() < 0.15 else rng.choice(others)
    partner = rng.choice([s for s in others if s != vice])
    target = mue.target_for(n, bid)
    team_skill = (skills[chief] + skills[partner]) / 2
    success = target <= mue.DECK_TRIANGLES and rng.random() < 0.35 + 0.1 * team_skill
    if success:
        made = rng.randint(target, min(mue.DECK_TRIANGLES, target + 12))
    else:
        made = rng.randint(max(0, target - 18), min(target - 1, mue.DECK_TRIANGLES))
    chief_share = rng.randint(made // 3, made)
    triangles = [0] * n
    triangles[chief], triangles[partner] = chief_share, made - chief_share
    rest = [s for s in range(n) if s not in (chief, partner)]
    for seat, count in zip(rest, split(rng, mue.DECK_TRIANGLES - made, [1.0] * len(rest)), strict=True):
        triangles[seat] = count
    return {
        "outcome": "played",
        "chief": chief,
        "bid": bid,
        "vice": vice,
        "vice_trump": _mue_trump(rng, allow_none=False) if vice is not None else None,
        "chief_trump": _mue_trump(rng, allow_none=True),
        "partner": partner,
        "triangles": triangles,
    }


# --- Meinz -------------------------------------------------------------------------------------------------------


def meinz_facts(rng: Random, n: int, options: Mapping[str, Any], state: MatchState, skills: Skills) -> dict[str, Any]:
    deck = list(mz.DECK)
    rng.shuffle(deck)
    hands = [deck[i * 9 : (i + 1) * 9] for i in range(mz.HANDS)]
    sums = sorted((sum(hand) - rng.choice(hand) for hand in hands), reverse=True)
    # the monster (3 players) plays blind: it takes a random one of the four hands
    monster = sums.pop(rng.randrange(len(sums))) if n < mz.HANDS else None
    out = [0] * n
    for seat, value in zip(skill_order(rng, skills), sums, strict=True):
        out[seat] = value
    facts: dict[str, Any] = {"sums": out}
    if monster is not None:
        facts["monster_sum"] = monster
    return facts


# --- Was sticht? -------------------------------------------------------------------------------------------------


def was_sticht_options(rng: Random, n: int) -> dict[str, Any]:
    box = [task for task, copies in ws.TASK_COPIES.items() for _ in range(copies)]
    rng.shuffle(box)
    return {"tasks": [box[i * ws.TASKS_PER_PLAYER : (i + 1) * ws.TASKS_PER_PLAYER] for i in range(n)]}


def _aim(task: str | None, rng: Random) -> int | None:
    """How many tricks a player trying to fulfil ``task`` goes for (None: no particular number)."""
    if task == ws.BETLI:
        return 0
    if task in ws.EXACTLY:
        return ws.EXACTLY[task]
    if task == ws.MOST:
        return rng.randint(3, 5)
    if task == ws.FEWEST:
        return 1
    return None


def was_sticht_facts(
    rng: Random, n: int, options: Mapping[str, Any], state: MatchState, skills: Skills
) -> dict[str, Any]:
    start = state.rounds_played % n
    held = state.extra.get("held", options["tasks"])
    chosen: list[str | None] = [None if s == start or not held[s] else rng.choice(held[s]) for s in range(n)]
    tricks = [0] * n
    free = []
    for seat in range(n):
        aim = _aim(chosen[seat], rng) if rng.random() < 0.3 + 0.15 * skills[seat] else None
        if aim is None:
            free.append(seat)
        else:
            tricks[seat] = aim
    while sum(tricks) > ws.TRICKS:
        seat = rng.choice([s for s in range(n) if tricks[s] > 0])
        tricks[seat] -= 1
    pool = free or list(range(n))
    for seat in rng.choices(pool, k=ws.TRICKS - sum(tricks)):
        tricks[seat] += 1
    last = rng.choices(range(n), weights=tricks)[0]
    if chosen[last] != ws.LAST_TRICK:
        aiming = [s for s in range(n) if chosen[s] == ws.LAST_TRICK and tricks[s] > 0]
        if aiming and rng.random() < 0.5:
            last = rng.choice(aiming)
    colours: list[list[str] | None] = []
    for seat in range(n):
        if tricks[seat] == 0:
            colours.append(None)
            continue
        needed = ws.colours_needed(tricks[seat] * n)
        avoid = ws.NO_COLOUR.get(chosen[seat] or "")
        options_ = [c for c in ws.COLOURS if c != avoid] if avoid and needed < len(ws.COLOURS) else list(ws.COLOURS)
        count = rng.randint(needed, len(options_))
        colours.append(sorted(rng.sample(options_, count)))
    seen = {c for cs in colours if cs for c in cs}
    need_all = ws.colours_needed(ws.TRICKS * n)
    while len(seen) < need_all:
        missing = next(c for c in ws.COLOURS if c not in seen)
        holder = max(range(n), key=lambda s: (len(colours[s] or []) < len(ws.COLOURS), tricks[s]))
        colours[holder] = sorted({*(colours[holder] or []), missing})
        seen.add(missing)
    return {
        "start_player": start,
        "trump_colour": rng.choice([*ws.COLOURS, None]),
        "trump_number": rng.choice([*range(1, 10), None]),
        "chosen": chosen,
        "tricks": tricks,
        "last_trick": last,
        "colours": colours,
    }
