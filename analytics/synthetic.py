"""Synthetic but realistic match histories for all eight games (benchmarks, demos and tests).

Every generator deals from the game's real deck (read from the rules module's own tables) and plays the
round out coarsely — who takes how many tricks, who goes out first — biased by a hidden skill per player,
so that ratings, streaks and head-to-head records look like a real group's.  :func:`play_match` then runs
every generated round through the rules engine (parse, validate against the match so far, score): a
round the rules refuse is never stored.  Everything is driven by one seeded ``random.Random``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from random import Random
from typing import Any

from scoring import rules
from scoring.rules import InvalidRound, MatchState, RoundResult, mue, njet, to_jsonable
from scoring.rules import coloretto as co
from scoring.rules import meinz as mz
from scoring.rules import muzicando_facts as mf
from scoring.rules import sticheln_deck as sd
from scoring.rules import was_sticht_tasks as ws

Skills = Sequence[float]


def skill_order(rng: Random, skills: Skills) -> list[int]:
    """Seats from best to worst performance this round: Plackett-Luce sampling by skill."""
    left = list(range(len(skills)))
    order = []
    while left:
        seat = rng.choices(left, weights=[skills[s] for s in left])[0]
        order.append(seat)
        left.remove(seat)
    return order


def split(rng: Random, total: int, weights: Sequence[float]) -> list[int]:
    """``total`` items dealt one by one to slots with probability ∝ weight."""
    counts = [0] * len(weights)
    for slot in rng.choices(range(len(weights)), weights=weights, k=total):
        counts[slot] += 1
    return counts


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


# --- Sticheln ----------------------------------------------------------------------------------------------------

STICHELN_VARIANTS = {
    "classic": 40,
    "reverse": 10,
    "gentle": 10,
    "heavy": 10,
    "foggy": 10,
    "delayed": 10,
    "hattrick": 10,
}


def _card(colour: str, value: int) -> dict[str, Any]:
    return {"colour": colour, "value": value}


def _sticheln_hattrick(rng: Random, n: int, skills: Skills) -> dict[str, Any]:
    deck = sd.deck_for(n, "hattrick")
    assert deck is not None
    cards = [colour for colour in deck.colours for _ in deck.values]
    rng.shuffle(cards)
    cards = cards[n:]  # each player's last card is set aside unplayed
    face_down_total = rng.randint(0, min(n, (n - 2) * deck.tricks))
    seats = [{"red": 0, "blue": 0, "green": 0, "face_down": 0} for _ in range(n)]
    for _ in range(face_down_total):
        seat = rng.randrange(n)
        if seats[seat]["face_down"] < deck.tricks:
            seats[seat]["face_down"] += 1
            cards.pop()
    for colour, seat in zip(cards, rng.choices(range(n), weights=skills, k=len(cards)), strict=True):
        seats[seat][colour] += 1
    return {"seats": seats}


def sticheln_facts(
    rng: Random, n: int, options: Mapping[str, Any], state: MatchState, skills: Skills
) -> dict[str, Any]:
    variant = options["variant"]
    if variant == "hattrick":
        return _sticheln_hattrick(rng, n, skills)
    deck = sd.deck_for(n, variant)
    assert deck is not None
    cards = [(colour, value) for colour in deck.colours for value in deck.values]
    rng.shuffle(cards)
    cards = cards[deck.unused :]
    hands = [cards[i * deck.cards_each : (i + 1) * deck.cards_each] for i in range(n)]
    choosers: list[list[tuple[str, int]]] = []
    for hand in hands:
        picked: list[tuple[str, int]] = []
        for card in sorted(hand, key=lambda _c: rng.random()):
            if len(picked) < deck.chooser_cards and all(card[0] != p[0] for p in picked):
                picked.append(card)
        choosers.append(picked)
    played = [card for hand, chosen in zip(hands, choosers, strict=True) for card in hand if card not in chosen]
    rng.shuffle(played)
    trick_counts = split(rng, deck.tricks, skills)
    seats = []
    at = 0
    for seat in range(n):
        taken = played[at : at + trick_counts[seat] * n]
        at += trick_counts[seat] * n
        if variant == "delayed":
            present = sorted({colour for colour, _ in taken})
            pain = min(present, key=lambda c: sum(v for col, v in taken if col == c)) if present else None
            pains = [pain] if pain else []
            chooser: Any = None
        else:
            pains = [colour for colour, _ in choosers[seat]]
            pain = pains if variant == "heavy" else pains[0]
            chooser = [_card(*c) for c in choosers[seat]] if variant == "heavy" else _card(*choosers[seat][0])
        seats.append(
            {
                "pain": pain,
                "chooser": chooser,
                "others": sum(1 for colour, _ in taken if colour not in pains),
                "pain_values": sorted(v for colour, v in taken if colour in pains),
            }
        )
    return {"seats": seats}


# --- Abluxxen ----------------------------------------------------------------------------------------------------


def abluxxen_facts(
    rng: Random, n: int, options: Mapping[str, Any], state: MatchState, skills: Skills
) -> dict[str, Any]:
    order = skill_order(rng, skills)
    front = [0] * n
    hand = [0] * n
    for place, seat in enumerate(order):
        front[seat] = max(1, rng.randint(14, 24) - 3 * place)
        hand[seat] = rng.randint(1, 4 + 2 * place)
    end = "out" if rng.random() < 0.75 else "exhausted"
    if end == "out":
        hand[order[0]] = 0
    return {"front": front, "hand": hand, "end": end}


# --- Muzicando ---------------------------------------------------------------------------------------------------


def muzicando_facts(
    rng: Random, n: int, options: Mapping[str, Any], state: MatchState, skills: Skills
) -> dict[str, Any]:
    team = options["mode"] == "team"
    order = skill_order(rng, skills)
    holding: list[int] = []
    if team:
        if rng.random() < 0.5:
            holding = [order[-1]]
        contract = None
        if rng.random() < 0.9:
            contract = {"declarer": rng.randrange(n), "type": rng.choice(mf.TYPES), "level": rng.choice(mf.LEVELS)}
    else:
        holding = order[n - rng.randint(0, min(2, n - 1)) :]
        chooser = (state.rounds_played + 1) % n
        contract = {"declarer": chooser, "type": rng.choice(mf.TYPES)}
    breach = rng.randrange(n) if rng.random() < 0.01 else None
    return {"order": order, "holding": holding, "contract": contract, "breach": breach}


# --- Coloretto ---------------------------------------------------------------------------------------------------


def coloretto_facts(
    rng: Random, n: int, options: Mapping[str, Any], state: MatchState, skills: Skills
) -> dict[str, Any]:
    removed = rng.choice(co.COLOURS) if n == 3 else None
    colours = [c for c in co.COLOURS if c != removed]
    counts = {c: [0] * n for c in co.COLOURS}
    starts = rng.sample(colours, n)
    deck: list[str] = []
    for colour in colours:
        deck += [colour] * (co.CARDS_PER_COLOUR - starts.count(colour))
    deck += ["jokers"] * co.JOKERS + ["plus_twos"] * co.PLUS_TWOS
    rng.shuffle(deck)
    undrawn = max(rng.randint(0, co.UNDRAWN_AT_MOST), co.undrawn_at_least(n))  # 15 − 3 × players to 14 stay undrawn
    drawn = deck[undrawn:]
    focus = [{starts[s], *rng.sample(colours, 2)} for s in range(n)]
    extra = {"jokers": [0] * n, "plus_twos": [0] * n}
    for seat, colour in enumerate(starts):
        counts[colour][seat] += 1
    for card in drawn:
        weights = [skills[s] * (4.0 if card in focus[s] else 1.0) for s in range(n)]
        seat = rng.choices(range(n), weights=weights)[0]
        (extra[card] if card in extra else counts[card])[seat] += 1
    return {**counts, **extra, "removed_colour": removed}


# --- the games ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Game:
    key: str
    players: tuple[int, ...]  # player counts, weighted by how often they occur
    options: Callable[[Random, int], dict[str, Any]]
    facts: Callable[[Random, int, Mapping[str, Any], MatchState, Skills], dict[str, Any]]
    max_rounds: int  # a match still running after this many rounds is finished by hand


def _sticheln_options(rng: Random, n: int) -> dict[str, Any]:
    variants = [v for v in STICHELN_VARIANTS if v != "hattrick" or 4 <= n <= 7]
    return {"variant": rng.choices(variants, weights=[STICHELN_VARIANTS[v] for v in variants])[0]}


def _muzicando_options(rng: Random, n: int) -> dict[str, Any]:
    if n == 4 and rng.random() < 0.6:
        return {"mode": "team", "deals": rng.choice((0, 0, 8))}
    return {"mode": "individual"}


GAMES: dict[str, Game] = {
    "njet": Game("njet", (3, 4, 4, 5, 5, 2), lambda rng, n: {"recording": "full"}, njet_facts, 12),
    "mue": Game("mue", (4, 5, 5, 6), lambda rng, n: {"target": rng.choice((200, 200, 150))}, mue_facts, 30),
    "meinz": Game("meinz", (4, 4, 4, 3), lambda rng, n: {}, meinz_facts, 10),
    "was-sticht": Game("was-sticht", (4, 4, 3), was_sticht_options, was_sticht_facts, 40),
    "sticheln": Game("sticheln", (3, 4, 4, 5, 5, 6, 7, 8), _sticheln_options, sticheln_facts, 6),
    "abluxxen": Game(
        "abluxxen",
        (2, 3, 4, 4, 5),
        lambda rng, n: {"mode": "duel" if n == 2 else "base", "games": rng.choice((1, 1, 3))},
        abluxxen_facts,
        5,
    ),
    "muzicando": Game("muzicando", (4, 4, 4, 3, 5, 6), _muzicando_options, muzicando_facts, 20),
    "coloretto": Game(
        "coloretto", (3, 4, 4, 5), lambda rng, n: {"games": rng.choice((1, 1, 1, n))}, coloretto_facts, 8
    ),
}


@dataclass
class PlayedMatch:
    ruleset: str
    players: int
    options: dict[str, Any]
    rounds: list[tuple[Any, RoundResult]]  # (stored facts JSON, result)
    finished_by_rules: bool
    rejected: int  # generated rounds the rules refused (regenerated)
    winners: list[int]  # what the match records as its winners (Match.winners)


def play_match(
    rng: Random, key: str, skills: Skills, *, options: dict[str, Any] | None = None, rounds: int | None = None
) -> PlayedMatch:
    """Play one match of ``key`` for ``len(skills)`` players through the rules engine.

    ``rounds`` stops early (an open match); otherwise the match runs until the rules end it (or, rarely,
    until the game's round cap, where it would be finished by hand).
    """
    game = GAMES[key]
    ruleset = rules.get(key)
    n = len(skills)
    opts = ruleset.options_parse(options if options is not None else game.options(rng, n), players=n)
    done: list[tuple[Any, RoundResult]] = []
    stored: list[tuple[Any, RoundResult]] = []
    rejected = 0
    limit = rounds if rounds is not None else game.max_rounds
    while len(done) < limit:
        state = ruleset.module.match_state(done, players=n, options=opts)
        if state.finished:
            break
        for _attempt in range(20):
            data = game.facts(rng, n, opts, state, skills)
            try:
                facts = ruleset.facts_parse(data, players=n, options=opts)
                ruleset.module.validate(facts, players=n, options=opts, state=state)
            except InvalidRound:
                rejected += 1
                continue
            break
        else:
            raise RuntimeError(f"the {key} generator keeps producing rounds the rules refuse")
        result = ruleset.module.score_round(facts, players=n, options=opts, state=state)
        done.append((facts, result))
        stored.append((to_jsonable(facts), result))
    else:
        state = ruleset.module.match_state(done, players=n, options=opts)
    return PlayedMatch(key, n, opts, stored, state.finished, rejected, state.final_winners())


def player_skills(rng: Random, count: int) -> list[float]:
    """Hidden skills (log-normal around 1): the generators favour stronger players."""
    return [math.exp(rng.gauss(0.0, 0.5)) for _ in range(count)]
