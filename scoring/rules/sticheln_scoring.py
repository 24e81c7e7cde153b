"""Sticheln, the classic family (classic, reverse, gentle, heavy, foggy, delayed): a seat's points and the lines
that explain them, whichever way the round was entered (cards, counts, or the quick entry's tally).

Rulebook: ``seeds/sticheln.hu.txt`` — "Forduló vége és pontozás" and the variants; digest ``RULES.md`` § Sticheln.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .sticheln_deck import COLOURS_SIX
from .sticheln_facts import Card, Seat, cards_label
from .sticheln_hattrick import scored
from .types import N_, NP_, Line, line

GENTLE_PENALTY = -5  # gentle: every pain-colour card, 0s and the chooser included
OTHER_CARD = 1  # every card of another colour (reverse: −1)

# the rule section each variant's score lines come from
VARIANT_RULES: dict[str, str] = {
    "classic": "sticheln-scoring",
    "reverse": "sticheln-reverse",
    "gentle": "sticheln-gentle",
    "heavy": "sticheln-heavy",
    "foggy": "sticheln-foggy",
    "delayed": "sticheln-delayed",
}

SCORE_MESSAGES: dict[str, str] = {
    # score lines; {cards} and {chooser} read like "red 2 + red 5" (colour ids and numbers)
    "sticheln.pain_cards": N_("{cards} + chooser {chooser} = {total}"),
    "sticheln.pain_chooser": N_("chooser {chooser} = {total}"),
    "sticheln.pain_counted": NP_(
        "{count} pain card worth {sum} + chooser {chooser} = {total}",
        "{count} pain cards worth {sum} + chooser {chooser} = {total}",
    ),
    "sticheln.lucky_cards": N_("lucky {cards} + chooser {chooser} = {total}"),
    "sticheln.lucky_chooser": N_("lucky chooser {chooser} = {total}"),
    "sticheln.lucky_counted": NP_(
        "{count} lucky card worth {sum} + chooser {chooser} = {total}",
        "{count} lucky cards worth {sum} + chooser {chooser} = {total}",
    ),
    "sticheln.gentle_pain": NP_(
        "{count} pain card, chooser {chooser} included, × −5 = {total}",
        "{count} pain cards, chooser {chooser} included, × −5 = {total}",
    ),
    "sticheln.delayed_cards": N_("{cards} = {total}"),
    "sticheln.delayed_counted": NP_(
        "{count} pain card worth {sum} = {total}", "{count} pain cards worth {sum} = {total}"
    ),
    "sticheln.delayed_chosen": N_("pain colour {colour}, picked by the player"),
    "sticheln.delayed_proposed": N_("pain colour {colour}, proposed as the cheapest"),
    "sticheln.delayed_none": N_("no trick taken = {total}"),
    "sticheln.others": NP_("{count} other card × +1 = {total}", "{count} other cards × +1 = {total}"),
    "sticheln.others_reverse": NP_("{count} other card × −1 = {total}", "{count} other cards × −1 = {total}"),
    # the quick entry's tally: the chooser card is counted in, its value is not known on its own
    "sticheln.pain_points": N_("pain cards with the chooser worth {sum} = {total}"),
    "sticheln.lucky_points": N_("lucky cards with the chooser worth {sum} = {total}"),
    "sticheln.delayed_points": N_("pain cards worth {sum} = {total}"),
    "sticheln.gentle_cards": NP_(
        "{count} pain card, the chooser included, × −5 = {total}",
        "{count} pain cards, the chooser included, × −5 = {total}",
    ),
    # which of the app's entries made the round (a line of the round as a whole)
    "sticheln.entry_quick": N_("Quick entry: each player's count from the table."),
    "sticheln.entry_full": N_("Full entry: every count, checked card by card against the deck."),
}

# --- scoring the classic family ------------------------------------------------------------------------

_COLOUR_RANK: dict[str, int] = {colour: rank for rank, colour in enumerate(COLOURS_SIX)}


def delayed_cheapest(taken: Sequence[Card]) -> str | None:
    """Delayed Sticheln: the pain colour that costs the player least, among the colours in their tricks.

    Picking a colour turns each of its cards from +1 into −face value, a cost of value + 1 per card; the
    cheapest colour gives the best round score. Ties go to the colour listed first (red, yellow, green,
    blue, brown, purple). None when the player took no trick.
    """
    cost: dict[str, int] = {}
    for card in taken:
        cost[card.colour] = cost.get(card.colour, 0) + card.value + 1
    return min(cost, key=lambda colour: (cost[colour], _COLOUR_RANK.get(colour, len(COLOURS_SIX))), default=None)


@dataclass(frozen=True)
class Haul:
    """A seat's cards as scored: the chosen colour(s), their cards taken, the other cards, the chooser."""

    colours: tuple[str, ...]
    proposed: bool  # delayed: the colour was proposed by the app, not entered
    others: int
    pain_count: int
    pain_sum: int
    pain_cards: tuple[Card, ...] | None  # None when only the count and sum are known
    chooser: tuple[Card, ...]
    # the quick entry's tally: pain_sum (gentle: pain_count) holds the chooser card(s) too, ``chooser`` is empty
    tally: bool = False

    @property
    def chooser_sum(self) -> int:
        return sum(card.value for card in self.chooser)

    @property
    def took_nothing(self) -> bool:
        """No card at all in the player's tricks (delayed: nothing to pick a colour from)."""
        if self.tally:  # whole tricks of distinct values: any pain card taken makes points or other cards
            return self.others == 0 and self.pain_sum == 0
        return self.others + self.pain_count == 0


def _card_order(card: Card) -> tuple[int, int]:
    return _COLOUR_RANK.get(card.colour, len(COLOURS_SIX)), card.value


def haul_of(seat: Seat, variant: str) -> Haul:
    """Sort a seat's cards into the chosen colour(s) and the rest, whichever way they were entered."""
    colours, proposed = seat.pain, False
    if seat.tally:
        return Haul(colours, proposed, seat.others or 0, seat.pain_cards or 0, seat.pain_points or 0, None, (), True)
    cheapest = delayed_cheapest(seat.taken or ())
    if variant == "delayed" and not colours and cheapest is not None:
        colours, proposed = (cheapest,), True
    if seat.taken is not None:
        pain = tuple(sorted((card for card in seat.taken if card.colour in colours), key=_card_order))
        total = sum(card.value for card in pain)
        return Haul(colours, proposed, len(seat.taken) - len(pain), len(pain), total, pain, seat.chooser)
    others = seat.others or 0
    if seat.pain_values is not None:
        values = seat.pain_values
        cards = tuple(Card(colours[0], v) for v in values) if len(colours) == 1 else None
        return Haul(colours, proposed, others, len(values), sum(values), cards, seat.chooser)
    return Haul(colours, proposed, others, seat.pain_count or 0, seat.pain_sum or 0, None, seat.chooser)


def classic_points(h: Haul) -> int:
    """Classic (also foggy, heavy, delayed): pain cards, chooser included, −face value; others +1 each.

    Delayed: a player with no trick has no card at all and so scores 0.
    """
    return OTHER_CARD * h.others - h.pain_sum - h.chooser_sum


def reverse_points(h: Haul) -> int:
    """Reverse ("Fordított"): lucky cards, chooser included, +face value; every other card −1."""
    return h.pain_sum + h.chooser_sum - OTHER_CARD * h.others


def gentle_points(h: Haul) -> int:
    """Gentle ("Szelíd"): every pain-colour card −5 whatever its value (0s and chooser too); others +1."""
    return OTHER_CARD * h.others + GENTLE_PENALTY * (h.pain_count + len(h.chooser))


POINTS: dict[str, Callable[[Haul], int]] = {
    "classic": classic_points,
    "reverse": reverse_points,
    "gentle": gentle_points,
    "heavy": classic_points,
    "foggy": classic_points,
    "delayed": classic_points,
}


def _tally_line(player: int, h: Haul, variant: str, rule: str) -> Line:
    """The quick entry's pain cards: as counted (gentle) or as points, the chooser card(s) among them."""
    if variant == "gentle":
        points = GENTLE_PENALTY * h.pain_count
        return scored("sticheln.gentle_cards", rule, player=player, points=points, count=h.pain_count)
    kind = {"reverse": "lucky", "delayed": "delayed"}.get(variant, "pain")
    points = h.pain_sum if variant == "reverse" else -h.pain_sum
    return scored(f"sticheln.{kind}_points", rule, player=player, points=points, sum=h.pain_sum)


def _pain_line(player: int, h: Haul, variant: str, rule: str) -> Line:
    if h.tally:
        return _tally_line(player, h, variant, rule)
    chooser = cards_label(h.chooser)
    if variant == "gentle":
        count = h.pain_count + len(h.chooser)
        return scored(
            "sticheln.gentle_pain", rule, player=player, points=GENTLE_PENALTY * count, count=count, chooser=chooser
        )
    points = h.pain_sum + h.chooser_sum
    points = points if variant == "reverse" else -points
    kind = {"reverse": "lucky", "delayed": "delayed"}.get(variant, "pain")
    if h.pain_cards is None:
        return scored(
            f"sticheln.{kind}_counted",
            rule,
            player=player,
            points=points,
            count=h.pain_count,
            sum=h.pain_sum,
            chooser=chooser,
        )
    if h.pain_cards or not h.chooser:
        return scored(
            f"sticheln.{kind}_cards",
            rule,
            player=player,
            points=points,
            cards=cards_label(h.pain_cards),
            chooser=chooser,
        )
    return scored(f"sticheln.{kind}_chooser", rule, player=player, points=points, chooser=chooser)


def haul_lines(player: int, h: Haul, variant: str) -> list[Line]:
    """The explanation of one seat: the chosen colour's cards, then the other cards."""
    rule = VARIANT_RULES[variant]
    out: list[Line] = []
    if variant == "delayed":
        if h.took_nothing:
            return [scored("sticheln.delayed_none", rule, player=player, points=0)]
        msg = "sticheln.delayed_proposed" if h.proposed else "sticheln.delayed_chosen"
        out.append(line(msg, rule, player=player, colour=h.colours[0]))
    out.append(_pain_line(player, h, variant, rule))
    if variant == "reverse":
        out.append(
            scored("sticheln.others_reverse", rule, player=player, points=-OTHER_CARD * h.others, count=h.others)
        )
    else:
        out.append(scored("sticheln.others", rule, player=player, points=OTHER_CARD * h.others, count=h.others))
    return out


def entry_lines(entry: str | None) -> list[Line]:
    """The round's first line: which of the app's entries made it (none when the facts do not say)."""
    return [] if entry is None else [line(f"sticheln.entry_{entry}", "sticheln-round")]
