"""NJET tricks (rulebook "A lejátszás" / "Ki nyeri az ütést?"; RULES.md "NJET").

The board leaves a trump colour (or none) and a super-trump colour (or none): the 0s of that colour are
super trumps.  A super trump beats every trump, a trump beats the rest, otherwise the highest card of the
led colour wins.

Match option ``tie_rule`` (the digest's ambiguity):

- "english" (default): of equal cards the LAST played wins ("the last of those played is the highest, also
  for trump and super trump"), and a player only has to follow the printed colour of the led card;
- "hungarian": the EARLIER played wins, and a led trump or super trump must be answered with a trump or a
  super trump if the hand holds one (a led plain colour is still followed by printed colour).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import Complaints
from .tricks_common import (
    Card,
    Note,
    Play,
    TrickGame,
    Verdict,
    choice,
    colour_or_none,
    follow_check,
    note,
    tiered_verdict,
    trump_ranks,
)

COLOURS: tuple[str, ...] = ("red", "black", "blue", "yellow")
VALUES = (0, 9)
# Per colour: 3×0, 1×1 … 1×6, 4×7, 1×8, 1×9; the 3-player deck keeps one 7 of each colour.
COPIES: dict[int, int] = {0: 3, 7: 4}
SEVENS_WITH_THREE_PLAYERS = 1
TIE_RULES: tuple[str, ...] = ("english", "hungarian")

SUPER, TRUMP, LED = 2, 1, 0
REASONS: dict[int | None, str] = {SUPER: "tricks.super_trump", TRUMP: "tricks.trump", LED: "tricks.led_colour"}
ROLES: dict[int | None, str] = {
    SUPER: "tricks.role_super_trump",
    TRUMP: "tricks.role_trump",
    LED: "tricks.role_led",
    None: "tricks.role_off",
}


@dataclass(frozen=True)
class NjetSetup:
    trump: str | None = None  # the trump colour left open on the board
    super_trump: str | None = None  # the colour whose 0s are super trumps
    hungarian: bool = False  # the Hungarian edition's tie and follow rule


def is_super_trump(setup: NjetSetup, card: Card) -> bool:
    """The 0s of the super-trump colour (even when that colour is also the trump colour)."""
    return card.value == 0 and card.colour == setup.super_trump


def is_trumpish(setup: NjetSetup, card: Card) -> bool:
    """A trump or a super trump."""
    return card.colour == setup.trump or is_super_trump(setup, card)


def tier(setup: NjetSetup, lead: Card, card: Card) -> int | None:
    """Super trump > trump > led colour; any other card cannot win."""
    if is_super_trump(setup, card):
        return SUPER
    if card.colour == setup.trump:
        return TRUMP
    if card.colour == lead.colour:
        return LED
    return None


class Njet(TrickGame[NjetSetup]):
    key = "njet"
    name = "NJET"
    rule = "njet-trick-winner"
    follow_rule = "njet-tricks"
    min_players = 2
    max_players = 5
    max_hand = 16
    setup_keys = ("trump", "super_trump")

    def colours(self, players: int | None) -> tuple[str, ...]:
        return COLOURS

    def values(self, players: int | None) -> tuple[int, int]:
        return VALUES

    def copies(self, value: int, players: int | None) -> int:
        if value == 7 and players == 3:
            return SEVENS_WITH_THREE_PLAYERS
        return COPIES.get(value, 1)

    def parse_setup(self, data: Mapping[str, Any], options: Mapping[str, Any], c: Complaints) -> NjetSetup:
        kw = {"game": self.name, "rule": self.rule}
        tie_rule = choice(
            c, options, "tie_rule", TIE_RULES, default="english", field="options.tie_rule", rule=self.rule
        )
        return NjetSetup(
            trump=colour_or_none(c, data, "trump", COLOURS, **kw),
            super_trump=colour_or_none(c, data, "super_trump", COLOURS, **kw),
            hungarian=tie_rule == "hungarian",
        )

    def edition(self, setup: NjetSetup) -> Note:
        """Every NJET verdict names the edition whose tie and follow rules it applied."""
        msg = "tricks.njet_edition_hungarian" if setup.hungarian else "tricks.njet_edition_english"
        return note(msg, self.rule)

    def judge(self, setup: NjetSetup, plays: Sequence[Play]) -> Verdict:
        lead = plays[0].card
        tiers = [tier(setup, lead, play.card) for play in plays]
        keys = [None if t is None else (t, play.card.value) for t, play in zip(tiers, plays, strict=True)]
        return tiered_verdict(
            self.rule, plays, tiers, keys, reasons=REASONS, roles=ROLES, last_wins=not setup.hungarian
        )

    def follow(self, setup: NjetSetup, lead: Card, play: Play) -> tuple[bool, Note]:
        if setup.hungarian and is_trumpish(setup, lead):
            return follow_check(play, lead, lambda card: is_trumpish(setup, card), trump=True, rule=self.follow_rule)
        return follow_check(play, lead, lambda card: card.colour == lead.colour, trump=False, rule=self.follow_rule)

    def trump_order(self, setup: NjetSetup) -> list[dict[str, Any]]:
        groups: list[tuple[str, list[Card]]] = []
        if setup.super_trump is not None:
            groups.append(("super_trump", [Card(setup.super_trump, 0)]))
        if setup.trump is not None:
            for value in range(VALUES[1], VALUES[0] - 1, -1):
                card = Card(setup.trump, value)
                if not is_super_trump(setup, card):
                    groups.append(("trump", [card]))
        return trump_ranks(groups)


GAME = Njet()
