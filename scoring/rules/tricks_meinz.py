"""Meinz tricks (rulebook "Lejátszás", "Ki nyeri az ütést?", "2 ütés fejenként!"; RULES.md "Meinz").

Follow the led colour OR the led card's value if you hold the led colour; without it, play anything.  The
LOWEST value wins whatever its colour; of equal values the earlier played.  A player may claim the trick
("Meinz!") at fixed moments: after card 1 the leader; after card 2 the second player, then the leader; after
card 3 the third, then the leader, then the second; the fourth player never.  A claimed trick goes to the
claimer whatever is played.  Nobody takes more than two tricks: a player who has two can neither win nor
claim, and the next-lowest card's owner wins instead.  With three players the monster adds a blind fourth
card that obeys no rule and never claims; it is capped at two tricks too.

A play may carry ``"claim": true`` (optionally ``"claim_after"``: the number of cards on the table when
the claim was made, 1–3, by default the first moment that player could claim), ``"tricks_taken"`` (0–2)
and ``"monster": true``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import Complaints
from .tricks_common import PLAY_KEYS, Card, Note, Play, TrickGame, Verdict, card_note, tie_or
from .types import Scalar

COLOURS: tuple[str, ...] = ("red", "blue", "green", "yellow")
VALUES = (1, 9)
TRICK_CARDS = 4  # four players, or three and the monster
MAX_TRICKS = 2  # nobody takes more than two tricks
TRICKS_IN_ROUND = 8
LAST_CLAIM_AFTER = 3  # the fourth card ends the chance to claim
MONSTERS_BY_PLAYERS: dict[int, int] = {3: 1, 4: 0}
CLAIMS = "meinz-claims"
CAP = "meinz-tricks"
MONSTER = "meinz-monster"


@dataclass(frozen=True)
class MeinzSetup:
    """Meinz has no trumps: nothing to set up."""


def capped(play: Play) -> bool:
    """A player who already has two tricks can neither win nor claim."""
    return play.tricks_taken >= MAX_TRICKS


def claim_moments(index: int) -> range:
    """Cards on the table when the player of card ``index + 1`` may claim (the leader from 1, the third at 3)."""
    return range(index + 1, LAST_CLAIM_AFTER + 1)


class Meinz(TrickGame[MeinzSetup]):
    key = "meinz"
    name = "Meinz"
    rule = "meinz-play"
    follow_rule = "meinz-play"
    min_players = 3
    max_players = 4
    max_hand = 9
    play_keys = (*PLAY_KEYS, "claim", "claim_after", "tricks_taken", "monster")

    def colours(self, players: int | None) -> tuple[str, ...]:
        return COLOURS

    def values(self, players: int | None) -> tuple[int, int]:
        return VALUES

    def trick_sizes(self, players: int | None) -> tuple[int, ...]:
        return (TRICK_CARDS,)

    def infer_players(self, cards: int) -> int | None:
        # Four cards are four players, or three and the monster: the cards alone do not tell.
        return None

    def players_from(self, plays: Sequence[Play]) -> int | None:
        """A trick with the monster's card is a 3-player trick, one without it a 4-player trick."""
        return min(MONSTERS_BY_PLAYERS) if any(play.monster for play in plays) else max(MONSTERS_BY_PLAYERS)

    def parse_setup(self, data: Mapping[str, Any], options: Mapping[str, Any], c: Complaints) -> MeinzSetup:
        return MeinzSetup()

    def check_plays(self, plays: Sequence[Play], c: Complaints, players: int | None) -> None:
        monsters = sum(1 for play in plays if play.monster)
        expected = MONSTERS_BY_PLAYERS.get(players or 0)
        if monsters > 1 or (expected is not None and monsters != expected):
            c.add("plays", "tricks.monster_count", MONSTER, count=monsters)
        taken_ok = True
        for play in plays:
            taken_ok &= c.check(
                0 <= play.tricks_taken <= MAX_TRICKS, f"plays.{play.index}.tricks_taken", "tricks.tricks_taken", CAP
            )
        total = sum(play.tricks_taken for play in plays)
        if taken_ok:
            c.check(total < TRICKS_IN_ROUND, "plays", "tricks.tricks_total", CAP, total=total)
        self.check_claims(plays, c)

    def check_claims(self, plays: Sequence[Play], c: Complaints) -> None:
        claims = [play for play in plays if play.claim]
        for play in claims[1:]:
            c.add(f"plays.{play.index}.claim", "tricks.claim_twice", CLAIMS)
        for play in claims:
            field = f"plays.{play.index}.claim"
            if play.index >= LAST_CLAIM_AFTER:
                c.add(field, "tricks.claim_fourth", CLAIMS)
            elif play.monster:
                c.add(field, "tricks.claim_monster", MONSTER)
            elif capped(play):
                c.add(field, "tricks.claim_capped", CAP)
            elif play.claim_after is not None and play.claim_after not in claim_moments(play.index):
                c.add(
                    f"plays.{play.index}.claim_after",
                    "tricks.claim_when",
                    CLAIMS,
                    position=play.index + 1,
                    after=play.claim_after,
                )
        for play in plays:
            if play.claim_after is not None and not play.claim:
                c.add(f"plays.{play.index}.claim_after", "tricks.claim_after_alone", CLAIMS)

    def role(self, play: Play) -> Note:
        if capped(play):
            return card_note("tricks.role_capped", CAP, play)
        if play.monster:
            return card_note("tricks.role_monster", MONSTER, play)
        return card_note("tricks.role_value", self.rule, play)

    def judge(self, setup: MeinzSetup, plays: Sequence[Play]) -> Verdict:
        order = tuple(sorted(range(len(plays)), key=lambda i: (plays[i].card.value, i)))
        notes = tuple(self.role(play) for play in plays)
        claim = next((play for play in plays if play.claim), None)
        if claim is not None:
            after = claim.claim_after or claim.index + 1
            return Verdict(claim.index, card_note("tricks.meinz_claim", CLAIMS, claim, after=after), order, notes)
        # At most 7 tricks are taken before this one, so someone here has fewer than two.
        eligible = [i for i in order if not capped(plays[i])]
        win = plays[eligible[0]]
        skipped = order.index(win.index)
        if skipped:
            reason = card_note("tricks.meinz_capped", CAP, win, skipped=skipped)
        else:
            count = sum(1 for i in eligible if plays[i].card.value == win.card.value)
            reason = tie_or(card_note("tricks.meinz_lowest", self.rule, win), self.rule, win, count)
        return Verdict(win.index, reason, order, notes)

    def follow(self, setup: MeinzSetup, lead: Card, play: Play) -> tuple[bool, Note]:
        led: dict[str, Scalar] = {"led": lead.colour, "led_value": lead.value}
        if play.monster:
            return True, card_note("tricks.legal_monster", MONSTER, play)
        if play.card.colour == lead.colour:
            return True, card_note("tricks.legal_follow_colour", self.rule, play, **led)
        if play.card.value == lead.value:
            return True, card_note("tricks.legal_value", self.rule, play, **led)
        held = sum(1 for card in play.hand or () if card.colour == lead.colour)
        if held == 0:
            return True, card_note("tricks.legal_void_colour", self.rule, play, **led)
        return False, card_note("tricks.illegal_meinz", self.rule, play, held=held, **led)


GAME = Meinz()
