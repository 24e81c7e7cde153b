"""MÜ tricks (rulebook "A lejátszás"; RULES.md "MÜ").

The vice names a trump first, then the chief (who may name none): a colour or a number.  Every chief trump
beats every vice trump (a chief-trump 0 beats the best vice trump); within one trump by value; a card that
is both (one trump gives its colour, the other its number) is a double trump and beats all.  Of equal cards
the earlier played wins.  A trump-number card is not part of its printed colour, and chief and vice trumps
form one trump suit for following ("if the 6 is trump, the red 6 is not a red card but a trump 6").
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
    follow_check,
    is_int,
    tiered_verdict,
    trump_ranks,
    unknown_keys,
)

COLOURS: tuple[str, ...] = ("blue", "yellow", "red", "black", "green")
VALUES = (0, 9)
# Per colour: 0, 1, 1, 2, 3, 4, 5, 6, 7, 7, 8, 9 — so the double trumps 1 and 7 exist twice.
COPIES: dict[int, int] = {1: 2, 7: 2}

DOUBLE, CHIEF, VICE, LED = 3, 2, 1, 0
REASONS: dict[int | None, str] = {
    DOUBLE: "tricks.mue_double_trump",
    CHIEF: "tricks.mue_chief_trump",
    VICE: "tricks.mue_vice_trump",
    LED: "tricks.led_colour",
}
ROLES: dict[int | None, str] = {
    DOUBLE: "tricks.role_double_trump",
    CHIEF: "tricks.role_chief_trump",
    VICE: "tricks.role_vice_trump",
    LED: "tricks.role_led",
    None: "tricks.role_off",
}


@dataclass(frozen=True)
class MueTrump:
    """A named trump: a colour (``number`` unused, -1) or a number (``colour`` unused, empty)."""

    kind: str  # "colour" | "number"
    colour: str = ""
    number: int = -1

    def matches(self, card: Card) -> bool:
        return card.colour == self.colour or card.value == self.number


@dataclass(frozen=True)
class MueSetup:
    chief: MueTrump | None = None
    vice: MueTrump | None = None

    @property
    def double(self) -> Card | None:
        """The double trump, when one trump names a colour and the other a number."""
        if self.chief is None or self.vice is None or self.chief.kind == self.vice.kind:
            return None
        colour, number = (self.chief, self.vice) if self.chief.kind == "colour" else (self.vice, self.chief)
        return Card(colour.colour, number.number)


def named(trump: MueTrump | None, card: Card) -> bool:
    return trump is not None and trump.matches(card)


def trump_tier(setup: MueSetup, card: Card) -> int | None:
    """Double trump > chief trump > vice trump; None for a card that is no trump."""
    if card == setup.double:
        return DOUBLE
    if named(setup.chief, card):
        return CHIEF
    if named(setup.vice, card):
        return VICE
    return None


def suit(setup: MueSetup, card: Card) -> str:
    """Chief and vice trumps form one suit; every other card belongs to its printed colour."""
    return TRUMP if trump_tier(setup, card) is not None else card.colour


def trump_groups(trump: MueTrump) -> list[list[Card]]:
    """The cards of one trump, strongest first, equal cards grouped: a colour 9..0, a number's five cards."""
    if trump.kind == "colour":
        return [[Card(trump.colour, value)] for value in range(VALUES[1], VALUES[0] - 1, -1)]
    return [[Card(colour, trump.number) for colour in COLOURS]]


class Mue(TrickGame[MueSetup]):
    key = "mue"
    name = "MÜ"
    rule = "mue-trumps"
    follow_rule = "mue-tricks"
    min_players = 4
    max_players = 6
    max_hand = 15
    setup_keys = ("chief_trump", "vice_trump")

    def colours(self, players: int | None) -> tuple[str, ...]:
        return COLOURS

    def values(self, players: int | None) -> tuple[int, int]:
        return VALUES

    def copies(self, value: int, players: int | None) -> int:
        return COPIES.get(value, 1)

    def parse_trump(self, c: Complaints, data: Mapping[str, Any], name: str) -> MueTrump | None:
        """``null`` or ``{"kind": "none"}`` is no trump (as in the MÜ round facts)."""
        value = data.get(name)
        if value is None:
            return None
        field = f"setup.{name}"
        if not isinstance(value, Mapping):
            c.add(field, "tricks.mue_trump", self.rule)
            return None
        unknown_keys(c, value, ("kind", "value"), f"{field}.")
        kind, given = value.get("kind"), value.get("value")
        if kind == "none" and given is None:
            return None
        if kind == "colour" and isinstance(given, str) and given in COLOURS:
            return MueTrump("colour", colour=given)
        if kind == "number" and is_int(given) and VALUES[0] <= given <= VALUES[1]:
            return MueTrump("number", number=given)
        c.add(field, "tricks.mue_trump", self.rule)
        return None

    def parse_setup(self, data: Mapping[str, Any], options: Mapping[str, Any], c: Complaints) -> MueSetup:
        return MueSetup(chief=self.parse_trump(c, data, "chief_trump"), vice=self.parse_trump(c, data, "vice_trump"))

    def judge(self, setup: MueSetup, plays: Sequence[Play]) -> Verdict:
        lead = plays[0].card
        led = suit(setup, lead)
        tiers: list[int | None] = []
        for play in plays:
            trump = trump_tier(setup, play.card)
            tiers.append(trump if trump is not None else LED if suit(setup, play.card) == led else None)
        keys = [None if t is None else (t, play.card.value) for t, play in zip(tiers, plays, strict=True)]
        return tiered_verdict(self.rule, plays, tiers, keys, reasons=REASONS, roles=ROLES)

    def follow(self, setup: MueSetup, lead: Card, play: Play) -> tuple[bool, Note]:
        led = suit(setup, lead)
        return follow_check(
            play, lead, lambda card: suit(setup, card) == led, trump=led == TRUMP, rule=self.follow_rule
        )

    def trump_order(self, setup: MueSetup) -> list[dict[str, Any]]:
        double = setup.double
        seen: set[Card] = set()
        groups: list[tuple[str, list[Card]]] = []
        if double is not None:
            groups.append(("double_trump", [double]))
            seen.add(double)
        for kind, trump in (("chief_trump", setup.chief), ("vice_trump", setup.vice)):
            for group in trump_groups(trump) if trump is not None else []:
                cards = [card for card in group if card not in seen]
                seen.update(cards)
                groups.append((kind, cards))
        return trump_ranks(groups)


GAME = Mue()
