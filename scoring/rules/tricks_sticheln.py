"""Sticheln tricks (rulebook "Játékmenet", "Kié lesz az ütés?", "Fordított Sticheln"; RULES.md "Sticheln").

No obligation to follow.  The led card's colour is the lead colour; every non-zero card of ANOTHER colour
is a trump, and 0s of other colours never win.  Classic: the highest trump wins (equal: the earlier
played); reverse variant: the LOWEST non-zero trump wins (equal: the earlier).  With no trump in the trick
the highest lead-colour card wins, so an all-zero trick goes to the leader.  The gentle, heavy, foggy and
delayed variants change only the scoring, so their tricks are classic; Hattrick (double tricks) is not
judged here.

The deck depends on the player count: 3–5 players five colours, 6–8 players six.  The rulebook names only
red, blue and green (Hattrick); yellow, brown and purple complete the published deck (the same ids as
the Sticheln scoring module).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import Complaints
from .tricks_common import Card, Note, Play, TrickGame, Verdict, card_note, choice, equals, ranked, tie_or

# The colour ids the Sticheln scoring module uses; purple is the sixth colour, only for 6-8 players.
COLOURS_FIVE: tuple[str, ...] = ("red", "yellow", "green", "blue", "brown")
COLOURS_SIX: tuple[str, ...] = (*COLOURS_FIVE, "purple")
SIX_COLOURS_FROM = 6  # players
# Highest card value by player count (every deck starts at 0).
HIGHEST: dict[int, int] = {3: 8, 4: 11, 5: 14, 6: 14, 7: 17, 8: 18}
VARIANTS: tuple[str, ...] = ("classic", "reverse", "gentle", "heavy", "foggy", "delayed", "hattrick")
REVERSE = "reverse"
HATTRICK = "hattrick"

TRUMP, LED = 1, 0
ROLES: dict[int | None, str] = {TRUMP: "tricks.role_trump", LED: "tricks.role_led", None: "tricks.role_zero"}


@dataclass(frozen=True)
class StichelnSetup:
    reverse: bool = False  # the reverse variant: the lowest trump wins


def kind(lead: Card, card: Card) -> int | None:
    """A lead-colour card, a trump (non-zero, other colour), or None for a 0 of another colour."""
    if card.colour == lead.colour:
        return LED
    return TRUMP if card.value else None


class Sticheln(TrickGame[StichelnSetup]):
    key = "sticheln"
    name = "Sticheln"
    rule = "sticheln-tricks"
    follow_rule = "sticheln-tricks"
    min_players = 3
    max_players = 8
    max_hand = 15
    setup_keys = ("variant",)

    def colours(self, players: int | None) -> tuple[str, ...]:
        return COLOURS_FIVE if players is not None and players < SIX_COLOURS_FROM else COLOURS_SIX

    def values(self, players: int | None) -> tuple[int, int]:
        return (0, HIGHEST[players] if players is not None else max(HIGHEST.values()))

    def parse_setup(self, data: Mapping[str, Any], options: Mapping[str, Any], c: Complaints) -> StichelnSetup:
        """The variant comes from the set-up, or else from the match options (default classic)."""
        source, field = (data, "setup.variant") if "variant" in data else (options, "options.variant")
        variant = choice(c, source, "variant", VARIANTS, default="classic", field=field, rule=self.rule)
        if variant == HATTRICK:
            c.add(field, "tricks.hattrick", "sticheln-hattrick")
        return StichelnSetup(reverse=variant == REVERSE)

    def judge(self, setup: StichelnSetup, plays: Sequence[Play]) -> Verdict:
        lead = plays[0].card
        kinds = [kind(lead, play.card) for play in plays]
        keys = [
            None if k is None else (k, -play.card.value if k == TRUMP and setup.reverse else play.card.value)
            for k, play in zip(kinds, plays, strict=True)
        ]
        ranking = ranked(keys)
        win = plays[ranking[0]]
        params = {"led": lead.colour}
        if all(play.card.value == 0 for play in plays):
            reason = card_note("tricks.sticheln_all_zero", self.rule, win)
        elif kinds[win.index] == TRUMP and setup.reverse:
            reason = card_note("tricks.sticheln_trump_low", "sticheln-reverse", win, **params)
        elif kinds[win.index] == TRUMP:
            reason = card_note("tricks.sticheln_trump_high", self.rule, win, **params)
        else:
            reason = card_note("tricks.led_colour", self.rule, win, **params)
        return Verdict(
            winner=win.index,
            reason=tie_or(reason, self.rule, win, equals(keys, ranking)),
            ranking=ranking,
            notes=tuple(card_note(ROLES[k], self.rule, play) for k, play in zip(kinds, plays, strict=True)),
        )

    def follow(self, setup: StichelnSetup, lead: Card, play: Play) -> tuple[bool, Note]:
        return True, card_note("tricks.legal_free", self.rule, play)


GAME = Sticheln()
