"""Synthetic rounds of the counting games: Sticheln, Húzz egyet!/Abluxxen, Muzicando and Coloretto."""

from __future__ import annotations

from collections.abc import Mapping
from random import Random
from typing import Any

from analytics.synthetic.common import Skills, skill_order, split
from scoring.rules import MatchState
from scoring.rules import coloretto as co
from scoring.rules import muzicando_facts as mf
from scoring.rules import sticheln_deck as sd

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
