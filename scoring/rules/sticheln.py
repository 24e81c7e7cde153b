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

from collections.abc import Mapping, Sequence
from typing import Any

from .errors import Complaints, InvalidRound
from .sticheln_deck import VALIDATION_MESSAGES, classic_validate, deck_for
from .sticheln_facts import EXAMPLE, FACTS_MESSAGES, FACTS_SCHEMA, Card, Facts, Seat, read_facts
from .sticheln_hattrick import (
    HATTRICK_MESSAGES,
    HattrickFacts,
    HattrickTally,
    hattrick_parse,
    hattrick_score,
    hattrick_validate,
)
from .sticheln_scoring import POINTS, SCORE_MESSAGES, delayed_cheapest, entry_lines, haul_lines, haul_of
from .types import N_, MatchState, OptionSpec, RoundResult, fixed_rounds_state

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

MESSAGES: dict[str, str] = {
    "sticheln.players": N_("Sticheln is played by 3 to 8 players, not {players}."),
    "sticheln.variant_unknown": N_("'{variant}' is not a Sticheln variant."),
    "sticheln.facts_object": N_("The round facts must be a JSON object."),
    "sticheln.facts_variant": N_("These round facts are not those of the {variant} variant."),
    "sticheln.match_over": N_("The match is over: it lasts {rounds} rounds."),
    "sticheln.entry_shape": N_("The round says the {entry} entry made it, but its facts are not that entry's."),
    **SCORE_MESSAGES,
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
    # the app's entries, for the params of kind "sticheln.entry"
    "sticheln.entry.quick": N_("quick"),
    "sticheln.entry.full": N_("full"),
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
} | {"sticheln.facts_variant": {"variant": "sticheln.variant"}, "sticheln.entry_shape": {"entry": "sticheln.entry"}}


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
        facts = read_facts(c, data, players=players, delayed=variant == "delayed", gentle=variant == "gentle")
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
        _entry_rule(c, facts.entry, [isinstance(seat, HattrickTally) for seat in facts.seats])
    else:
        classic_validate(c, facts, deck, variant)
        _entry_rule(c, facts.entry, [seat.tally for seat in facts.seats])
    c.raise_if_any()


def _entry_rule(c: Complaints, entry: str | None, tallied: list[bool]) -> None:
    """A round that names the app's entry that made it holds that entry's facts: the quick entry a tally for
    every player, the full entry none (the explanation says which entry was used, so it must be true)."""
    if entry is not None:
        c.check(
            all(tallied) if entry == "quick" else not any(tallied),
            "entry",
            "sticheln.entry_shape",
            "sticheln-round",
            entry=entry,
        )


def score_round(
    facts: Facts | HattrickFacts, *, players: int, options: Mapping[str, Any], state: MatchState
) -> RoundResult:
    """Every seat's points for the round, by the variant's formula, with the lines that explain them."""
    if isinstance(facts, HattrickFacts):
        result = hattrick_score(facts)
        return RoundResult(scores=result.scores, lines=(*entry_lines(facts.entry), *result.lines))
    variant = _variant(options)
    hauls = [haul_of(seat, variant) for seat in facts.seats]
    lines = [
        *entry_lines(facts.entry),
        *(ln for player, h in enumerate(hauls) for ln in haul_lines(player, h, variant)),
    ]
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
