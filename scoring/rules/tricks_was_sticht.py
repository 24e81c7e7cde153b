"""Was sticht? tricks (rulebook "3. Lejátszás" and its trump examples; RULES.md "Was sticht?").

The round's start player draws a trump colour (or none) and a trump number (or none).  Trump-number cards
are trumps, not cards of their colour.  The trump order: the super trump (the trump number in the trump
colour) > the other trump-number cards (equal to each other: the earlier played wins) > the trump colour
9..1.  Follow the led colour; if a trump is led, play a trump; without either, play anything.  With no trump
in the trick the highest card of the led colour wins.  The draft rows are judged the same way, "led" by the
holder of the monster card (with three players the table's fourth card takes part).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import Complaints
from .tricks_common import (
    TRUMP,
    Card,
    Note,
    Play,
    TrickGame,
    Verdict,
    colour_or_none,
    follow_check,
    is_int,
    tiered_verdict,
    trump_ranks,
)

COLOURS: tuple[str, ...] = ("red", "blue", "green", "yellow")
VALUES = (1, 9)
DRAFT_ROW = 4  # a draft row has four cards even with three players (the table takes the last)

SUPER, NUMBER, COLOUR, LED = 3, 2, 1, 0
REASONS: dict[int | None, str] = {
    SUPER: "tricks.ws_super_trump",
    NUMBER: "tricks.ws_trump_number",
    COLOUR: "tricks.ws_trump_colour",
    LED: "tricks.led_colour",
}
ROLES: dict[int | None, str] = {
    SUPER: "tricks.role_super_trump",
    NUMBER: "tricks.role_trump_number",
    COLOUR: "tricks.role_trump_colour",
    LED: "tricks.role_led",
    None: "tricks.role_off",
}


@dataclass(frozen=True)
class WasStichtSetup:
    colour: str | None = None  # the trump colour, None for the grey "no trump colour" card
    number: int | None = None  # the trump number, None for the "X" card


def trump_tier(setup: WasStichtSetup, card: Card) -> int | None:
    """Super trump > trump number > trump colour; None for a card that is no trump."""
    number = card.value == setup.number
    colour = card.colour == setup.colour
    if number and colour:
        return SUPER
    if number:
        return NUMBER
    if colour:
        return COLOUR
    return None


def suit(setup: WasStichtSetup, card: Card) -> str:
    """Every trump belongs to the trump suit ("the trump number is a trump, not part of its colour")."""
    return TRUMP if trump_tier(setup, card) is not None else card.colour


def strength(tier: int, card: Card) -> tuple[int, int]:
    """Trump-number cards are all equal to each other; the trump colour and the led colour go by value."""
    return (tier, card.value if tier in (COLOUR, LED) else 0)


class WasSticht(TrickGame[WasStichtSetup]):
    key = "was-sticht"
    name = "Was sticht?"
    rule = "was-sticht-trumps"
    follow_rule = "was-sticht-tricks"
    min_players = 3
    max_players = 4
    max_hand = 9
    setup_keys = ("trump_colour", "trump_number")

    def colours(self, players: int | None) -> tuple[str, ...]:
        return COLOURS

    def values(self, players: int | None) -> tuple[int, int]:
        return VALUES

    def trick_sizes(self, players: int | None) -> tuple[int, ...]:
        if players == self.max_players:
            return (players,)
        return (self.min_players, DRAFT_ROW)

    def parse_setup(self, data: Mapping[str, Any], options: Mapping[str, Any], c: Complaints) -> WasStichtSetup:
        number = data.get("trump_number")
        if number is not None and not (is_int(number) and VALUES[0] <= number <= VALUES[1]):
            c.add("setup.trump_number", "tricks.trump_number", self.rule, low=VALUES[0], high=VALUES[1])
            number = None
        colour = colour_or_none(c, data, "trump_colour", COLOURS, game=self.name, rule=self.rule)
        return WasStichtSetup(colour=colour, number=number)

    def judge(self, setup: WasStichtSetup, plays: Sequence[Play]) -> Verdict:
        lead = plays[0].card
        led = suit(setup, lead)
        tiers: list[int | None] = []
        for play in plays:
            trump = trump_tier(setup, play.card)
            tiers.append(trump if trump is not None else LED if suit(setup, play.card) == led else None)
        keys = [None if t is None else strength(t, play.card) for t, play in zip(tiers, plays, strict=True)]
        return tiered_verdict(self.rule, plays, tiers, keys, reasons=REASONS, roles=ROLES)

    def follow(self, setup: WasStichtSetup, lead: Card, play: Play) -> tuple[bool, Note]:
        led = suit(setup, lead)
        return follow_check(
            play, lead, lambda card: suit(setup, card) == led, trump=led == TRUMP, rule=self.follow_rule
        )

    def trump_order(self, setup: WasStichtSetup) -> list[dict[str, Any]]:
        groups: list[tuple[str, list[Card]]] = []
        if setup.colour is not None and setup.number is not None:
            groups.append(("super_trump", [Card(setup.colour, setup.number)]))
        if setup.number is not None:
            groups.append(("trump_number", [Card(c, setup.number) for c in COLOURS if c != setup.colour]))
        if setup.colour is not None:
            for value in range(VALUES[1], VALUES[0] - 1, -1):
                if value != setup.number:
                    groups.append(("trump_colour", [Card(setup.colour, value)]))
        return trump_ranks(groups)


GAME = WasSticht()
