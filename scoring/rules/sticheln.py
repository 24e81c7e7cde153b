"""Sticheln (Klaus Palesch), 3-8 players: scoring, round validation and match end.

Rulebook: ``seeds/sticheln.hu.txt`` — "Büntetősín kiválasztása" (the chooser card), "Forduló vége és
pontozás" (scoring and its worked example), "Játék vége" (five rounds), and the variants "Fordított"
(reverse), "Szelíd" (gentle), "Heves" (heavy), "Ködös" (foggy), "Késleltetett" (delayed) and "Hattrick";
digest ``RULES.md`` § Sticheln. The decks and the card accounting live in ``sticheln_deck``, the facts
schema and reading in ``sticheln_facts``, Hattrick in ``sticheln_hattrick``.

What is recorded after a round, per seat, in one of two ways (see ``FACTS_SCHEMA``):

- the FULL way: the chooser card(s) and every card taken in tricks;
- the QUICK way: the chooser card(s), how many cards of other colours were taken, and the pain-colour
  cards taken, as their values or as their count and sum.

Both are checked against the deck as far as the entered facts allow (see ``validate``).

Decisions where the rulebook is silent (no option needed, none changes a score):

- Colour ids: see ``sticheln_deck`` (purple is the colour set aside below six players).
- Delayed: the player's own legal choice of pain colour is taken; without one the app proposes the
  cheapest (``delayed_cheapest``; ties go to the colour listed first). The quick way cannot tell which
  colours are among the "other" cards, so there the player's colour must be entered.
- Heavy, quick way: the pain-card values of both colours may be given in one list, or as one count and sum.
- The first round's starting player is the youngest (not a seat rule), so ``next_starter`` is given
  from the second round on: the player left of the dealer.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import Complaints, InvalidRound
from .sticheln_deck import COLOURS_SIX, VALIDATION_MESSAGES, classic_validate, deck_for
from .sticheln_facts import EXAMPLE, FACTS_MESSAGES, FACTS_SCHEMA, Card, Facts, Seat, cards_label, read_facts
from .sticheln_hattrick import (
    HATTRICK_MESSAGES,
    HattrickFacts,
    hattrick_parse,
    hattrick_score,
    hattrick_validate,
    scored,
)
from .types import N_, NP_, Line, MatchState, OptionSpec, RoundResult, fixed_rounds_state, line

__all__ = [
    "EXAMPLE",
    "FACTS_SCHEMA",
    "KEY",
    "MAX_PLAYERS",
    "MESSAGES",
    "MIN_PLAYERS",
    "NAME",
    "OPTIONS",
    "PARAMS",
    "SECTIONS",
    "VERSION",
    "Card",
    "Facts",
    "HattrickFacts",
    "Seat",
    "delayed_cheapest",
    "facts_parse",
    "match_state",
    "options_validate",
    "score_round",
    "validate",
]

KEY = "sticheln"
NAME = "Sticheln"
VERSION = "1"
MIN_PLAYERS = 3
MAX_PLAYERS = 8
WINNERS_BY_TOTALS = True  # the highest total wins, ties share (match_state)

VARIANTS: tuple[str, ...] = ("classic", "reverse", "gentle", "heavy", "foggy", "delayed", "hattrick")
ROUNDS = 5  # "A játék öt forduló után véget ér."
GENTLE_PENALTY = -5  # gentle: every pain-colour card, 0s and the chooser included
OTHER_CARD = 1  # every card of another colour (reverse: −1)

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        key="variant",
        kind="choice",
        default="classic",
        label=N_("Variant: classic, reverse, gentle, heavy, foggy, delayed or Hattrick"),
        rule="sticheln-options",
        choices=VARIANTS,
    ),
)

SECTIONS: dict[str, str] = {
    "sticheln-players": N_("Players"),
    "sticheln-options": N_("Variants"),
    "sticheln-round": N_("What is recorded after a round"),
    "sticheln-deck": N_("The deck for each player count"),
    "sticheln-pain": N_("Choosing the pain colour"),
    "sticheln-tricks": N_("Tricks"),
    "sticheln-scoring": N_("Scoring"),
    "sticheln-reverse": N_("Reverse Sticheln"),
    "sticheln-gentle": N_("Gentle Sticheln"),
    "sticheln-heavy": N_("Heavy Sticheln"),
    "sticheln-foggy": N_("Foggy Sticheln"),
    "sticheln-delayed": N_("Delayed Sticheln"),
    "sticheln-hattrick": N_("Hattrick Sticheln"),
    "sticheln-hattrick-scoring": N_("Hattrick scoring"),
    "sticheln-end": N_("End of the match"),
}

# the rule section each variant's score lines come from
VARIANT_RULES: dict[str, str] = {
    "classic": "sticheln-scoring",
    "reverse": "sticheln-reverse",
    "gentle": "sticheln-gentle",
    "heavy": "sticheln-heavy",
    "foggy": "sticheln-foggy",
    "delayed": "sticheln-delayed",
}

MESSAGES: dict[str, str] = {
    "sticheln.players": N_("Sticheln is played by 3 to 8 players, not {players}."),
    "sticheln.variant_unknown": N_("'{variant}' is not a Sticheln variant."),
    "sticheln.facts_object": N_("The round facts must be a JSON object."),
    "sticheln.facts_variant": N_("These round facts are not those of the {variant} variant."),
    "sticheln.match_over": N_("The match is over: it lasts {rounds} rounds."),
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
    **FACTS_MESSAGES,
    **VALIDATION_MESSAGES,
    **HATTRICK_MESSAGES,
    # the variants' names, for the params of kind "sticheln.variant"
    "sticheln.variant.classic": N_("classic"),
    "sticheln.variant.reverse": N_("reverse"),
    "sticheln.variant.gentle": N_("gentle"),
    "sticheln.variant.heavy": N_("heavy"),
    "sticheln.variant.foggy": N_("foggy"),
    "sticheln.variant.delayed": N_("delayed"),
    "sticheln.variant.hattrick": N_("Hattrick"),
    # the colours' names, for the params of kind "sticheln.colour"
    "sticheln.colour.red": N_("red"),
    "sticheln.colour.yellow": N_("yellow"),
    "sticheln.colour.green": N_("green"),
    "sticheln.colour.blue": N_("blue"),
    "sticheln.colour.brown": N_("brown"),
    "sticheln.colour.purple": N_("purple"),
}

_COLOURED = ("colour", "colours", "tied", "cards", "chooser", "card", "pain", "chosen")
# message id -> its params' kinds: in Sticheln these params always hold colour ids ("red", "red 2 + red 5"),
# shown by the colours' names; the variant by its name
PARAMS: dict[str, dict[str, str]] = {
    msg: {param: "sticheln.colour" for param in _COLOURED if "{" + param + "}" in template}
    for msg, template in MESSAGES.items()
} | {"sticheln.facts_variant": {"variant": "sticheln.variant"}}


def _variant(options: Mapping[str, Any]) -> str:
    variant = options.get("variant", "classic")
    if variant not in VARIANTS:
        c = Complaints(MESSAGES, PARAMS)
        c.add("options.variant", "sticheln.variant_unknown", "sticheln-options", variant=str(variant))
        c.raise_if_any()
    return str(variant)


def _players_complaint(c: Complaints, players: int, variant: str) -> None:
    if variant == "hattrick":
        c.add("options.variant", "sticheln.hattrick_players", "sticheln-hattrick", players=players)
    else:
        c.add("players", "sticheln.players", "sticheln-players", players=players)


def options_validate(options: Mapping[str, Any], *, players: int) -> None:
    """Hattrick is for 4 to 7 players only."""
    variant = _variant(options)
    if deck_for(players, variant) is None:
        c = Complaints(MESSAGES, PARAMS)
        _players_complaint(c, players, variant)
        c.raise_if_any()


def facts_parse(data: Mapping[str, Any], *, players: int, options: Mapping[str, Any]) -> Facts | HattrickFacts:
    """Read the submitted JSON (``FACTS_SCHEMA``); shape errors raise InvalidRound with field paths."""
    variant = _variant(options)
    c = Complaints(MESSAGES, PARAMS)
    facts: Facts | HattrickFacts = Facts(seats=())
    if not isinstance(data, Mapping):
        c.add("facts", "sticheln.facts_object", "sticheln-round")
    elif variant == "hattrick":
        facts = hattrick_parse(c, data, players=players)
    else:
        facts = read_facts(c, data, players=players, delayed=variant == "delayed")
    c.raise_if_any()
    return facts


def validate(facts: Facts | HattrickFacts, *, players: int, options: Mapping[str, Any], state: MatchState) -> None:
    """Refuse a round the deck or the rules cannot produce, naming every broken rule at once."""
    variant = _variant(options)
    c = Complaints(MESSAGES, PARAMS)
    c.check(not state.finished, "", "sticheln.match_over", "sticheln-end", rounds=ROUNDS)
    deck = deck_for(players, variant)
    if deck is None:
        _players_complaint(c, players, variant)
        raise InvalidRound(c.problems)
    if isinstance(facts, HattrickFacts) != (variant == "hattrick"):
        c.add("facts", "sticheln.facts_variant", "sticheln-round", variant=variant)
    elif isinstance(facts, HattrickFacts):
        hattrick_validate(c, facts, deck)
    else:
        classic_validate(c, facts, deck, variant)
    c.raise_if_any()


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

    @property
    def chooser_sum(self) -> int:
        return sum(card.value for card in self.chooser)

    @property
    def taken(self) -> int:
        return self.others + self.pain_count


def _card_order(card: Card) -> tuple[int, int]:
    return _COLOUR_RANK.get(card.colour, len(COLOURS_SIX)), card.value


def haul_of(seat: Seat, variant: str) -> Haul:
    """Sort a seat's cards into the chosen colour(s) and the rest, whichever way they were entered."""
    colours, proposed = seat.pain, False
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


def _pain_line(player: int, h: Haul, variant: str, rule: str) -> Line:
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
        if h.taken == 0:
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


def score_round(
    facts: Facts | HattrickFacts, *, players: int, options: Mapping[str, Any], state: MatchState
) -> RoundResult:
    """Every seat's points for the round, by the variant's formula, with the lines that explain them."""
    if isinstance(facts, HattrickFacts):
        return hattrick_score(facts)
    variant = _variant(options)
    hauls = [haul_of(seat, variant) for seat in facts.seats]
    lines = [ln for player, h in enumerate(hauls) for ln in haul_lines(player, h, variant)]
    return RoundResult(scores=tuple(POINTS[variant](h) for h in hauls), lines=tuple(lines))


def match_state(
    history: Sequence[tuple[Facts | HattrickFacts, RoundResult]],
    *,
    players: int,
    options: Mapping[str, Any],
    deal: int | None = None,
) -> MatchState:
    """Five rounds; the highest total wins (ties share); the deal passes to the left (seat + 1) and the
    player left of the dealer starts (the youngest starts the first round, so no starter is named then)."""
    variant = _variant(options)
    deck = deck_for(players, variant)
    return fixed_rounds_state(
        history,
        players=players,
        rounds=ROUNDS,
        starter=lambda position: None if position == 0 else (position + 1) % players,
        extra={"variant": variant, "rounds": ROUNDS, "deck": deck.as_dict() if deck is not None else None},
        deal=deal,
    )
