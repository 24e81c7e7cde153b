"""Sticheln's quick entry: what each player counts at the table, as on the paper pad.

Rulebook: ``seeds/sticheln.hu.txt``, "Forduló vége és pontozás" (each pain-colour card costs its value, the chooser
card included; every other card is worth +1) and the variants; digest ``RULES.md`` § Sticheln.

Per player, the tally is the colour(s) chosen, how many cards of the other colours were taken (``others``), and
either the pain points (``pain_points``: the values of every pain-colour card added up, the chooser card(s)
included; reverse: the lucky points) or, in gentle Sticheln where every pain card costs 5 whatever its value, the
pain cards counted (``pain_cards``, the chooser card(s) included). That is all a score needs; the tally does not
say how many pain cards were taken (gentle: their values), so the card accounting checks what it still can:

- the tally the variant needs (points, or gentle's cards), the gentle count at least the chooser card(s) and
  making whole tricks with the other cards;
- the fewest pain cards a seat can hold (its chooser cards, and enough taken pain cards to make whole tricks with
  the other cards; delayed: at least one when a colour is picked) added up over the table fit the cards dealt
  (gentle: the cards add up exactly);
- the pain points can be made of that colour's cards still free with such a number of cards, and the players
  sharing a colour (heavy: the same two) do not claim more points than its free cards hold;
- all counts fit the cards of each colour (the same check as the other ways, with the fewest pain cards).
"""

from __future__ import annotations

from typing import Protocol

from .errors import Complaints
from .sticheln_counting import sum_reachable_stepping
from .sticheln_facts import Seat
from .types import N_


class Deck(Protocol):
    """What the tally checks read of ``sticheln_deck.Deck`` (which imports this module)."""

    @property
    def players(self) -> int: ...

    @property
    def chooser_cards(self) -> int: ...

    @property
    def dealt(self) -> int: ...


TALLY_MESSAGES: dict[str, str] = {
    "sticheln.tally_points_needed": N_(
        "The quick entry takes the pain points here: the values of the player's pain-colour cards added up, the "
        "chooser card included."
    ),
    "sticheln.tally_cards_needed": N_(
        "In gentle Sticheln every pain card costs 5 whatever its value: the quick entry takes how many pain cards "
        "the player has, the chooser card included."
    ),
    "sticheln.tally_cards_low": N_("The pain cards include the player's chooser card(s): at least {low}, not {count}."),
    "sticheln.tally_total": N_(
        "{players} players are dealt {dealt} cards. The other cards entered, with the fewest pain cards that make "
        "whole tricks, already come to {total}."
    ),
    "sticheln.tally_points_free": N_(
        "No set of {colours} cards still free that makes whole tricks with the other cards adds up to {sum}."
    ),
    "sticheln.tally_shared": N_(
        "The players whose colours are {colours} have {sum} points of them together; the free cards of those "
        "colours are worth {high}."
    ),
}


def tally_minimum(seat: Seat, deck: Deck, variant: str) -> int:
    """The fewest pain-colour cards a tallied seat can hold, the chooser card(s) included (gentle: as counted).

    Every trick holds one card of each player, so the other cards and the pain cards taken make a multiple of
    the player count; in delayed Sticheln a picked colour must be among the player's cards.
    """
    if seat.pain_cards is not None:
        return seat.pain_cards
    taken = (-(seat.others or 0)) % deck.players
    if variant == "delayed" and seat.pain and taken == 0:
        taken = deck.players
    return deck.chooser_cards + taken


def tally_seat_rules(c: Complaints, seat: Seat, field: str, deck: Deck, variant: str) -> None:
    """One tallied seat: the tally the variant scores by, and (gentle) a count that makes whole tricks."""
    if variant != "gentle":
        c.check(seat.pain_points is not None, f"{field}.pain_points", "sticheln.tally_points_needed", "sticheln-round")
        return
    if not c.check(
        seat.pain_cards is not None, f"{field}.pain_cards", "sticheln.tally_cards_needed", "sticheln-gentle"
    ):
        return
    cards = seat.pain_cards or 0
    if c.check(
        cards >= deck.chooser_cards,
        f"{field}.pain_cards",
        "sticheln.tally_cards_low",
        "sticheln-gentle",
        low=deck.chooser_cards,
        count=cards,
    ):
        taken = (seat.others or 0) + cards - deck.chooser_cards
        c.check(
            taken % deck.players == 0,
            f"{field}.others",
            "sticheln.tricks_multiple",
            "sticheln-tricks",
            players=deck.players,
            count=taken,
        )


def tally_delayed_rules(c: Complaints, seat: Seat, field: str) -> None:
    """Delayed: a player who took cards picked a colour among them; without a colour, he took nothing."""
    c.check(
        bool(seat.pain) or (seat.others == 0 and not seat.pain_points),
        f"{field}.pain",
        "sticheln.delayed_pain_needed",
        "sticheln-delayed",
    )


def tally_total_rule(c: Complaints, seats: tuple[Seat, ...], deck: Deck, variant: str) -> None:
    """With a pain-points tally the pain cards are not counted: the fewest the tallies allow must fit the deal."""
    total = sum(
        (seat.others or 0) + tally_minimum(seat, deck, variant) if seat.tally else seat.taken_count + len(seat.chooser)
        for seat in seats
    )
    c.check(
        total <= deck.dealt,
        "seats",
        "sticheln.tally_total",
        "sticheln-tricks",
        players=deck.players,
        dealt=deck.dealt,
        total=total,
    )


def tally_points_rule(c: Complaints, seat: Seat, field: str, deck: Deck, variant: str, pool: list[int]) -> None:
    """The pain points must be made of free cards of the colour(s), with a count that makes whole tricks."""
    if seat.pain_points is None:
        return
    c.check(
        sum_reachable_stepping(pool, tally_minimum(seat, deck, variant), deck.players, seat.pain_points),
        f"{field}.pain_points",
        "sticheln.tally_points_free",
        "sticheln-deck",
        colours=", ".join(sorted(seat.pain)),
        sum=seat.pain_points,
    )


def tally_shared_rule(c: Complaints, colours: tuple[str, ...], points: int, pool: list[int]) -> None:
    """Players sharing the colour(s) cannot claim more points than the free cards of them hold."""
    high = sum(pool)
    c.check(
        points <= high,
        "seats",
        "sticheln.tally_shared",
        "sticheln-deck",
        colours=", ".join(colours),
        sum=points,
        high=high,
    )
