"""Sticheln: the decks, the colours, and the card accounting that checks a round against the deck.

Rulebook: ``seeds/sticheln.hu.txt``, sections "A klasszikus Sticheln előkészítése" (the deck table),
"Forduló vége és pontozás" (14 tricks, 13 with eight players), the variants "Heves" (13 / 12 tricks),
"Késleltetett" (15 / 14 tricks) and "Hattrick" (its own three-colour deck); digest ``RULES.md`` § Sticheln.

Colour ids. The rulebook names red, blue and green (piros, kék, zöld); the other three colours of the
published deck are yellow, brown and purple. Purple is the sixth colour, used only by 6 to 8 players
(the 90-card first edition likewise set its violet cards aside for five players).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import Complaints

# the card accounting's helpers, also read from here by the tests
from .sticheln_counting import first_shortfall as first_shortfall
from .sticheln_counting import sum_reachable as sum_reachable
from .sticheln_counting import values_available as values_available
from .sticheln_facts import Card, Facts, Seat
from .sticheln_tally import (
    TALLY_MESSAGES,
    tally_delayed_rules,
    tally_minimum,
    tally_points_rule,
    tally_seat_rules,
    tally_shared_rule,
    tally_total_rule,
)
from .types import N_

RED, YELLOW, GREEN, BLUE, BROWN, PURPLE = "red", "yellow", "green", "blue", "brown", "purple"

COLOURS_FIVE: tuple[str, ...] = (RED, YELLOW, GREEN, BLUE, BROWN)
COLOURS_SIX: tuple[str, ...] = (*COLOURS_FIVE, PURPLE)
# Hattrick's three colours, in the rulebook's tie-break order for the next lead: red, blue, green.
HATTRICK_COLOURS: tuple[str, ...] = (RED, BLUE, GREEN)

# "Játékosok száma / Felhasználható kártyák": players -> (colours, values low-high, cards each, cards left
# face up unused). 15 cards each, 14 with eight players; 7p leaves 3 cards out, 8p leaves 2.
CLASSIC_DECKS: dict[int, tuple[tuple[str, ...], int, int, int, int]] = {
    3: (COLOURS_FIVE, 0, 8, 15, 0),
    4: (COLOURS_FIVE, 0, 11, 15, 0),
    5: (COLOURS_FIVE, 0, 14, 15, 0),
    6: (COLOURS_SIX, 0, 14, 15, 0),
    7: (COLOURS_SIX, 0, 17, 15, 3),
    8: (COLOURS_SIX, 0, 18, 14, 2),
}

# The colours in play by player count (the first column of the table above).
COLOURS_BY_PLAYERS: dict[int, tuple[str, ...]] = {players: row[0] for players, row in CLASSIC_DECKS.items()}

# "Hattrick Sticheln": red, blue and green 1-20 (7p 0-20), all dealt: 4p 15 · 5p 12 · 6p 10 · 7p 9 each.
HATTRICK_DECKS: dict[int, tuple[tuple[str, ...], int, int, int, int]] = {
    4: (HATTRICK_COLOURS, 1, 20, 15, 0),
    5: (HATTRICK_COLOURS, 1, 20, 12, 0),
    6: (HATTRICK_COLOURS, 1, 20, 10, 0),
    7: (HATTRICK_COLOURS, 0, 20, 9, 0),
}

# Cards each player lays face down to choose the pain (reverse: lucky) colour(s), by variant.
CHOOSER_CARDS: dict[str, int] = {
    "classic": 1,
    "reverse": 1,
    "gentle": 1,
    "heavy": 2,
    "foggy": 1,
    "delayed": 0,
}

# Tricks in a round by variant, as printed: (3-7 players, 8 players).
TRICKS: dict[str, tuple[int, int]] = {
    "classic": (14, 13),
    "reverse": (14, 13),
    "gentle": (14, 13),
    "heavy": (13, 12),
    "foggy": (14, 13),
    "delayed": (15, 14),
}


@dataclass(frozen=True)
class Deck:
    """The cards in play for one player count and variant."""

    players: int
    colours: tuple[str, ...]
    low: int
    high: int
    cards_each: int
    unused: int
    chooser_cards: int
    tricks: int

    @property
    def values(self) -> range:
        return range(self.low, self.high + 1)

    @property
    def size(self) -> int:
        """Cards in the deck, the unused ones (7 and 8 players) included."""
        return len(self.colours) * len(self.values)

    @property
    def dealt(self) -> int:
        return self.players * self.cards_each

    def has(self, colour: str, value: int) -> bool:
        return colour in self.colours and value in self.values

    def as_dict(self) -> dict[str, Any]:
        return {
            "colours": list(self.colours),
            "low": self.low,
            "high": self.high,
            "cards_each": self.cards_each,
            "unused": self.unused,
            "chooser_cards": self.chooser_cards,
            "tricks": self.tricks,
        }


def deck_for(players: int, variant: str) -> Deck | None:
    """The deck table row for ``players`` and ``variant``; None where the game is not played that way."""
    if variant == "hattrick":
        if players not in HATTRICK_DECKS:
            return None
        colours, low, high, each, unused = HATTRICK_DECKS[players]
        # each player's last card is set aside unplayed: one double trick fewer than cards in hand
        return Deck(players, colours, low, high, each, unused, 0, each - 1)
    if players not in CLASSIC_DECKS or variant not in TRICKS:
        return None
    colours, low, high, each, unused = CLASSIC_DECKS[players]
    tricks = TRICKS[variant][1 if players == 8 else 0]
    return Deck(players, colours, low, high, each, unused, CHOOSER_CARDS[variant], tricks)


# --- card accounting ------------------------------------------------------------------------------------


VALIDATION_MESSAGES: dict[str, str] = {
    "sticheln.chooser_one": N_("Each player lays exactly one chooser card face down; {count} are entered."),
    "sticheln.chooser_two": N_(
        "In heavy Sticheln each player lays two chooser cards, one for each pain colour; {count} are entered."
    ),
    "sticheln.chooser_none": N_(
        "In delayed Sticheln nobody lays a chooser card: the pain colour is picked at the end of the round."
    ),
    "sticheln.pain_one": N_("Each player chooses exactly one colour; {count} are entered."),
    "sticheln.pain_two": N_("In heavy Sticheln each player chooses two different pain colours."),
    "sticheln.colour_unknown": N_("There is no {colour} in the deck for {players} players; its colours are {colours}."),
    "sticheln.chooser_colour": N_("The chooser cards show the colours chosen ({pain}), not {chosen}."),
    "sticheln.card_unknown": N_(
        "There is no {card} in the deck for {players} players: colours {colours}, values {low} to {high}."
    ),
    "sticheln.value_range": N_("Card values run from {low} to {high} with {players} players, not {value}."),
    "sticheln.card_twice": N_("The {card} is entered more than once; every card exists only once."),
    "sticheln.tricks_multiple": N_(
        "Every trick holds one card from each of the {players} players, so the cards taken must be a multiple "
        "of {players}, not {count}."
    ),
    "sticheln.cards_total": N_(
        "{players} players are dealt {dealt} cards: {tricks} tricks of {players} cards and {choosers} chooser "
        "cards. The cards entered come to {total}."
    ),
    "sticheln.delayed_pain_needed": N_("With the quick entry, enter the pain colour the player picked."),
    "sticheln.delayed_colour": N_(
        "The pain colour must be a colour present in the player's own tricks; there is no {colour} card among them."
    ),
    "sticheln.pain_sum_free": N_("{count} different {colours} cards still free cannot add up to {sum}."),
    "sticheln.pain_values_free": N_("The values {values} cannot all be found among the free {colours} cards."),
    "sticheln.pain_shared": N_(
        "The players whose colours are {colours} took {count} cards worth {sum} of them together; the free "
        "cards of those colours cannot make that."
    ),
    "sticheln.cards_short": N_(
        "The counts entered need {needed} cards of {colours}, but only {free} of them are left in the deck."
    ),
    **TALLY_MESSAGES,
}

_CHOOSER_RULES: dict[int, tuple[str, str]] = {
    0: ("sticheln.chooser_none", "sticheln-delayed"),
    1: ("sticheln.chooser_one", "sticheln-pain"),
    2: ("sticheln.chooser_two", "sticheln-heavy"),
}


def _colour_rules(c: Complaints, seat: Seat, field: str, deck: Deck, variant: str) -> bool:
    """Chooser card(s) and chosen colour(s): "Büntetősín kiválasztása", "Heves", "Késleltetett".

    Returns whether the colours can be used for the card accounting that follows.
    """
    msg, rule = _CHOOSER_RULES[deck.chooser_cards]
    # the quick entry's tally counts the chooser card(s) in with the pain cards: none is given
    chooser_ok = not seat.tally and c.check(
        len(seat.chooser) == deck.chooser_cards, f"{field}.chooser", msg, rule, count=len(seat.chooser)
    )
    if variant == "heavy":
        pain_ok = c.check(len(set(seat.pain)) == len(seat.pain) == 2, f"{field}.pain", "sticheln.pain_two", rule)
    else:
        # delayed: the colour may still be open (the app proposes one); otherwise exactly one
        pain_ok = c.check(
            len(seat.pain) <= 1 if variant == "delayed" else len(seat.pain) == 1,
            f"{field}.pain",
            "sticheln.pain_one",
            rule,
            count=len(seat.pain),
        )
    for colour in seat.pain:
        known = c.check(
            colour in deck.colours,
            f"{field}.pain",
            "sticheln.colour_unknown",
            "sticheln-deck",
            colour=colour,
            players=deck.players,
            colours=", ".join(deck.colours),
        )
        pain_ok = pain_ok and known
    chosen = sorted(card.colour for card in seat.chooser)
    if chooser_ok and pain_ok and deck.chooser_cards:
        c.check(
            chosen == sorted(seat.pain),
            f"{field}.chooser",
            "sticheln.chooser_colour",
            "sticheln-pain",
            pain=", ".join(seat.pain),
            chosen=", ".join(chosen),
        )
    return pain_ok


def _exact_cards(seat: Seat, field: str, *, colours_ok: bool) -> list[tuple[str, Card]]:
    """The cards this seat names exactly, with their field paths: chooser, taken, and pain values of one colour."""
    out = [(f"{field}.chooser.{j}", card) for j, card in enumerate(seat.chooser)]
    out += [(f"{field}.taken.{j}", card) for j, card in enumerate(seat.taken or ())]
    if colours_ok and len(seat.pain) == 1:
        out += [(f"{field}.pain_values.{j}", Card(seat.pain[0], v)) for j, v in enumerate(seat.pain_values or ())]
    return out


def _card_rules(c: Complaints, seat: Seat, field: str, deck: Deck) -> None:
    """Every card named must be in the deck for this player count (the deck table)."""
    named = [(f"{field}.chooser.{j}", card) for j, card in enumerate(seat.chooser)]
    named += [(f"{field}.taken.{j}", card) for j, card in enumerate(seat.taken or ())]
    for path, card in named:
        c.check(
            deck.has(card.colour, card.value),
            path,
            "sticheln.card_unknown",
            "sticheln-deck",
            card=card.label(),
            players=deck.players,
            colours=", ".join(deck.colours),
            low=deck.low,
            high=deck.high,
        )
    for j, value in enumerate(seat.pain_values or ()):
        c.check(
            value in deck.values,
            f"{field}.pain_values.{j}",
            "sticheln.value_range",
            "sticheln-deck",
            low=deck.low,
            high=deck.high,
            players=deck.players,
            value=value,
        )


def _trick_rules(c: Complaints, seat: Seat, field: str, deck: Deck) -> None:
    """A trick has one card from each player, so a player's haul is a multiple of the player count."""
    count = seat.taken_count
    c.check(
        count % deck.players == 0,
        f"{field}.taken" if seat.taken is not None else f"{field}.others",
        "sticheln.tricks_multiple",
        "sticheln-tricks",
        players=deck.players,
        count=count,
    )


def _delayed_rules(c: Complaints, seat: Seat, field: str) -> None:
    """Delayed: the pain colour must be present in the player's own tricks ("Késleltetett")."""
    if seat.tally:
        tally_delayed_rules(c, seat, field)
    elif seat.pain:
        present = (
            any(card.colour == seat.pain[0] for card in seat.taken)
            if seat.taken is not None
            else seat.quick_pain_count > 0
        )
        c.check(present, f"{field}.pain", "sticheln.delayed_colour", "sticheln-delayed", colour=seat.pain[0])
    else:
        # the quick way cannot show which colours the other cards have: the player's pick is needed
        c.check(
            seat.taken is not None or seat.taken_count == 0,
            f"{field}.pain",
            "sticheln.delayed_pain_needed",
            "sticheln-delayed",
        )


def _total_rule(c: Complaints, facts: Facts, deck: Deck, variant: str) -> None:
    """All cards taken plus the chooser cards are the cards dealt (the 7p/8p face-up cards excluded); with a
    pain-points tally (quick entry) the pain cards are not counted, and only the fewest possible must fit."""
    if any(seat.pain_points is not None for seat in facts.seats):
        tally_total_rule(c, facts.seats, deck, variant)
        return
    total = sum(
        (seat.others or 0) + (seat.pain_cards or 0) if seat.tally else seat.taken_count + len(seat.chooser)
        for seat in facts.seats
    )
    c.check(
        total == deck.dealt,
        "seats",
        "sticheln.cards_total",
        "sticheln-tricks",
        players=deck.players,
        dealt=deck.dealt,
        tricks=deck.tricks,
        choosers=deck.chooser_cards * deck.players,
        total=total,
    )


def _free_cards(c: Complaints, exact: list[tuple[str, Card]], deck: Deck) -> dict[str, list[int]]:
    """Refuse a card named twice; return the values of each colour nobody named exactly."""
    seen: set[Card] = set()
    for path, card in exact:
        if deck.has(card.colour, card.value):
            c.check(card not in seen, path, "sticheln.card_twice", "sticheln-deck", card=card.label())
            seen.add(card)
    return {colour: [v for v in deck.values if Card(colour, v) not in seen] for colour in deck.colours}


def _quick_rules(c: Complaints, facts: Facts, deck: Deck, free: dict[str, list[int]], variant: str) -> None:
    """The count way's and the quick entry's counts and sums must be possible with the cards nobody named exactly."""
    demands: list[tuple[frozenset[str], int]] = []
    shared: dict[tuple[str, ...], list[tuple[int, int]]] = {}
    tallied: dict[tuple[str, ...], int] = {}  # colour(s) -> pain points tallied for them
    for i, seat in enumerate(facts.seats):
        if seat.others is None:
            continue
        pain = frozenset(seat.pain)
        demands.append((frozenset(deck.colours) - pain, seat.others))
        if seat.tally:
            pool = [v for colour in deck.colours if colour in pain for v in free[colour]]
            tally_points_rule(c, seat, f"seats.{i}", deck, variant, pool)
            demands.append((pain, tally_minimum(seat, deck, variant)))
            key = tuple(sorted(pain))
            tallied[key] = tallied.get(key, 0) + (seat.pain_points or 0)
            continue
        if len(seat.pain) == 1 and seat.pain_values is not None:
            continue  # one colour and its values: exact cards, already accounted for
        pool = [v for colour in deck.colours if colour in pain for v in free[colour]]
        colours = ", ".join(sorted(pain))
        if seat.pain_values is not None:
            count, total = len(seat.pain_values), sum(seat.pain_values)
            c.check(
                values_available(seat.pain_values, pool),
                f"seats.{i}.pain_values",
                "sticheln.pain_values_free",
                "sticheln-deck",
                values=", ".join(map(str, seat.pain_values)),
                colours=colours,
            )
        else:
            count, total = seat.pain_count or 0, seat.pain_sum or 0
            c.check(
                sum_reachable(pool, count, total),
                f"seats.{i}.pain_sum",
                "sticheln.pain_sum_free",
                "sticheln-deck",
                count=count,
                colours=colours,
                sum=total,
            )
        demands.append((pain, count))
        shared.setdefault(tuple(sorted(pain)), []).append((count, total))
    for colours_key, points in tallied.items():
        pool = [v for colour in colours_key for v in free[colour]]
        tally_shared_rule(c, colours_key, points + sum(h[1] for h in shared.pop(colours_key, [])), pool)
    for colours_key, hauls in shared.items():
        count, total = sum(h[0] for h in hauls), sum(h[1] for h in hauls)
        pool = [v for colour in colours_key for v in free[colour]]
        c.check(
            len(hauls) == 1 or sum_reachable(pool, count, total),
            "seats",
            "sticheln.pain_shared",
            "sticheln-deck",
            colours=", ".join(colours_key),
            count=count,
            sum=total,
        )
    short = first_shortfall({colour: len(values) for colour, values in free.items()}, demands)
    if short is not None:
        colours_short, needed, have = short
        c.add(
            "seats", "sticheln.cards_short", "sticheln-deck", colours=", ".join(colours_short), needed=needed, free=have
        )


def classic_validate(c: Complaints, facts: Facts, deck: Deck, variant: str) -> None:
    """Every rule of a classic-family round that the entered facts let us check.

    - the chooser card(s): one each (heavy: two, of two different colours; delayed: none), of the colour(s) chosen;
    - colours and card values exist in the deck for the player count;
    - each haul is whole tricks: a multiple of the player count;
    - delayed: the pain colour is present in the player's own tricks;
    - all cards taken plus the chooser cards are the cards dealt, and no card is named twice;
    - the count way, once all of the above holds: each pain count and sum can be made of the cards of that
      colour nobody named, also together for players sharing the colour(s), and all counts fit the cards left;
    - the quick entry's tallies: what ``sticheln_tally`` can check without the pain cards' count.
    """
    exact: list[tuple[str, Card]] = []
    for i, seat in enumerate(facts.seats):
        field = f"seats.{i}"
        colours_ok = _colour_rules(c, seat, field, deck, variant)
        _card_rules(c, seat, field, deck)
        if seat.tally:
            tally_seat_rules(c, seat, field, deck, variant)
        else:
            _trick_rules(c, seat, field, deck)
        if variant == "delayed":
            _delayed_rules(c, seat, field)
        exact += _exact_cards(seat, field, colours_ok=colours_ok)
    _total_rule(c, facts, deck, variant)
    free = _free_cards(c, exact, deck)
    if not c.problems:
        _quick_rules(c, facts, deck, free, variant)
