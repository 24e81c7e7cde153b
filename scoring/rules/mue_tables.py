"""MÜ's constant tables: deck, card points, hand sizes, the overview card's targets and bonuses, and the
module's texts (rule sections, message templates, the facts' JSON Schema, the worked example).

Source: ``RULES.md`` section "MÜ" (the Hungarian rulebook in ``seeds/mue-njet-wassticht-meinz.hu.txt``
refers to the overview cards without printing them). Kept exactly as the digest prints them, one constant
per table, so that a cell can be corrected against a printed overview card in one place.
"""

from __future__ import annotations

from typing import Any

from .types import N_, NP_

# The five MÜ colours (the box's blue, yellow, red and black cards plus the green MÜ-only cards).
COLOURS: tuple[str, ...] = ("blue", "yellow", "red", "black", "green")

# Values of the twelve cards of one colour: 0, 1, 1, 2 … 6, 7, 7, 8, 9 (60 cards in all).
COLOUR_VALUES: tuple[int, ...] = (0, 1, 1, 2, 3, 4, 5, 6, 7, 7, 8, 9)

# The card values a trump number may name.
NUMBERS: tuple[int, ...] = tuple(sorted(set(COLOUR_VALUES)))

# Card points ("triangles") by card value: 1s and 9s carry none, 6s and 7s two, every other card one.
TRIANGLES: dict[int, int] = {0: 1, 1: 0, 2: 1, 3: 1, 4: 1, 5: 1, 6: 2, 7: 2, 8: 1, 9: 0}

# Triangles in the whole deck (12 per colour): in every played round the players' triangles add up to this.
DECK_TRIANGLES = len(COLOURS) * sum(TRIANGLES[value] for value in COLOUR_VALUES)

# All 60 cards are dealt: cards in each hand by player count (also the highest possible bid).
HAND_SIZE: dict[int, int] = {4: 15, 5: 12, 6: 10}

# Points chief + partner must reach, by bid (cards revealed by the chief) and player count:
# 4p = 28 + 2·bid, 5p = 21 + 3·bid, 6p = 16 + 4·bid. The rulebook pins 5p bids 1-4 (bid 4 → 33);
# the 4p and 6p columns come from public scoring apps and no worked example pins them.
TARGET_PLAYERS: tuple[int, ...] = (4, 5, 6)
TARGETS: dict[int, tuple[int | None, int | None, int | None]] = {
    # bid: (4p, 5p, 6p)
    1: (30, 24, 20),
    2: (32, 27, 24),
    3: (34, 30, 28),
    4: (36, 33, 32),
    5: (38, 36, 36),
    6: (40, 39, 40),
    7: (42, 42, 44),
    8: (44, 45, 48),
    9: (46, 48, 52),
    10: (48, 51, 56),
    11: (50, 54, None),
    12: (52, 57, None),
    13: (54, None, None),
    14: (56, None, None),
    15: (58, None, None),
}


def _targets_by_players() -> dict[int, dict[int, int]]:
    """The printed target table as player count -> bid -> target."""
    out: dict[int, dict[int, int]] = {players: {} for players in TARGET_PLAYERS}
    for bid, row in TARGETS.items():
        for players, target in zip(TARGET_PLAYERS, row, strict=True):
            if target is not None:
                out[players][bid] = target
    return out


_TARGET_BY_PLAYERS = _targets_by_players()


def target_for(players: int, bid: int) -> int:
    """Points chief + partner must reach with this bid (the overview card's target table)."""
    return _TARGET_BY_PLAYERS[players][bid]


def level_reached(players: int, made: int) -> int:
    """The highest bid whose target ``made`` points meet; 0 below the bid-1 target."""
    return max((bid for bid, target in _TARGET_BY_PLAYERS[players].items() if target <= made), default=0)


# Bonus for chief and partner EACH when the target is met, by bid and the CHIEF's trump:
# 10 × (bid + k), at most 100; k = 0 colour, 1 for number 1 or 7, 2 for any other number, 3 no trump.
# The rulebook pins bid 4 colour = 40 and bid 4 number 1 = 50; one public app caps the "other number"
# column at 80 instead of 100 — correct the cells here if a printed overview card says so.
BONUS_COLUMNS: tuple[str, ...] = ("colour", "one_or_seven", "other_number", "no_trump")
BONUS_TOP_BID = 10  # the last row reads "≥ 10"
BONUSES: dict[int, tuple[int, int, int, int]] = {
    # bid: (colour, 1 or 7, other number, no trump)
    1: (10, 20, 30, 40),
    2: (20, 30, 40, 50),
    3: (30, 40, 50, 60),
    4: (40, 50, 60, 70),
    5: (50, 60, 70, 80),
    6: (60, 70, 80, 90),
    7: (70, 80, 90, 100),
    8: (80, 90, 100, 100),
    9: (90, 100, 100, 100),
    10: (100, 100, 100, 100),
}

# Trump numbers that come twice in every colour, so they are the easiest number trumps (k = 1).
DOUBLE_NUMBERS: frozenset[int] = frozenset({1, 7})

# Eklat: each tied player scores this per revealed card, the one who tied last the second figure instead.
EKLAT_TIED_PER_CARD = 5
EKLAT_LAST_PER_CARD = -10

# Failure: per card of shortfall the chief loses 10 and each opponent (the vice included) gains 5.
FAILURE_CHIEF_PER_CARD = -10
FAILURE_OPPONENT_PER_CARD = 5


# --- texts: rule sections, message templates, the facts' JSON Schema and the worked example ----------------

SECTIONS: dict[str, str] = {
    "mue-players": N_("Players and cards"),
    "mue-options": N_("Match options"),
    "mue-round": N_("What is recorded after a round"),
    "mue-deck": N_("The deck and its triangles"),
    "mue-auction": N_("The auction"),
    "mue-chief": N_("Chief and vice"),
    "mue-eklat": N_("Eklat: a tie for the most cards"),
    "mue-bid": N_("The bid"),
    "mue-vice": N_("The vice"),
    "mue-trumps": N_("Naming trumps"),
    "mue-partner": N_("The chief's partner"),
    "mue-tricks": N_("Playing a trick"),
    "mue-target": N_("The target of the chief's team"),
    "mue-bonus": N_("Bonus for a made bid"),
    "mue-failure": N_("A missed bid"),
    "mue-triangles": N_("Triangles (card points)"),
    "mue-end": N_("End of the match"),
}

MESSAGES: dict[str, str] = {
    # shape of the submitted facts
    "mue.players": N_("MÜ is played by 4 to 6 players, not {players}."),
    "mue.facts_object": N_("The round facts must be a JSON object."),
    "mue.field_unknown": N_("'{key}' is not part of this kind of MÜ round."),
    "mue.field_required": N_("This is required."),
    "mue.field_int": N_("Must be a whole number."),
    "mue.field_seat": N_("Must be a seat number from 0 to {high}."),
    "mue.field_seats": N_("Must be a list with one entry per player ({players} entries)."),
    "mue.field_list": N_("Must be a list of seat numbers."),
    "mue.field_choice": N_("Must be one of: {choices}."),
    "mue.field_trump": N_('A trump is an object such as {{"kind": "colour", "value": "red"}}, or null for none.'),
    "mue.field_colour": N_("A colour trump names its colour."),
    "mue.field_no_value": N_("'No trump' names nothing."),
    # the rules
    "mue.match_over": N_("The match is over: someone has reached {target} points."),
    "mue.bid_range": N_("The bid is the number of cards the chief revealed: 1 to {hand} with {players} players."),
    "mue.vice_is_chief": N_("The chief cannot also be the vice."),
    "mue.vice_needs_bid": N_(
        "A vice revealed fewer cards than the chief but at least one, so the bid must be 2 or more."
    ),
    "mue.partner_is_chief": N_("The chief picks a partner among the other players."),
    "mue.partner_is_vice": N_("The vice cannot be the chief's partner."),
    "mue.vice_trump_required": N_("The vice must name a trump: a colour or a number."),
    "mue.vice_trump_without_vice": N_("Only a vice names a trump besides the chief; this round has no vice."),
    "mue.trump_colour": N_("A trump colour is one of the five MÜ colours: {colours}."),
    "mue.trump_number": N_("A trump number is a card value from 0 to 9."),
    "mue.triangles_range": N_("A player's triangles lie between 0 and 60: the whole deck holds 60."),
    "mue.triangles_sum": N_("The triangles of all players add up to 60 in a played round, not {total}."),
    "mue.eklat_cards": N_("Each tied player revealed from 1 to {hand} cards (0 when nobody bid)."),
    "mue.no_bid_tied": N_("When nobody bid (0 cards) nobody is listed as tied."),
    "mue.no_bid_last": N_("When nobody bid (0 cards) nobody tied last."),
    "mue.tied_repeated": N_("Each tied player is listed once."),
    "mue.tied_two": N_("An Eklat needs two or more players tied for the most cards."),
    "mue.last_tied_required": N_("Say which of the tied players tied last."),
    "mue.last_tied_among": N_("The player who tied last must be one of the tied players."),
    # explanation lines
    "mue.made": N_("Bid {bid}: the chief's team needed {target} and made {made}."),
    "mue.missed": N_("Bid {bid}: the chief's team needed {target} but made only {made}."),
    "mue.level": N_("{made} points are enough for a bid of {level}: short by {bid} − {level} = {shortfall}."),
    "mue.level_none": N_("{made} points are not enough even for a bid of 1: short by the whole bid, {shortfall}."),
    "mue.triangles": NP_("{triangles} triangle in own tricks", "{triangles} triangles in own tricks", "triangles"),
    "mue.bonus_colour": N_("Bid {bid} made with a colour as trump: bonus {bonus}"),
    "mue.bonus_number": N_("Bid {bid} made with the {number}s as trump: bonus {bonus}"),
    "mue.bonus_no_trump": N_("Bid {bid} made without a trump of the chief's: bonus {bonus}"),
    "mue.chief_missed": N_("Chief short by {shortfall}: −10 × {shortfall} = {total}"),
    "mue.partner_missed": N_("Partner of a missed bid: nothing gained, nothing lost"),
    "mue.opponent_gains": N_("Chief short by {shortfall}: 5 × {shortfall} = {total}"),
    "mue.eklat": NP_(
        "Eklat: {count} players tied with {cards} card each; the round is not played.",
        "Eklat: {count} players tied with {cards} cards each; the round is not played.",
        "cards",
    ),
    "mue.eklat_tied": NP_(
        "Tied with {cards} card: 5 × {cards} = {total}", "Tied with {cards} cards: 5 × {cards} = {total}", "cards"
    ),
    "mue.eklat_last": NP_(
        "Tied last with {cards} card: −10 × {cards} = {total}",
        "Tied last with {cards} cards: −10 × {cards} = {total}",
        "cards",
    ),
    "mue.no_bid": N_("Nobody bid: nobody scores this round."),
}

_SEAT = {"type": "integer", "minimum": 0}
_TRUMP: dict[str, Any] = {
    "oneOf": [
        {"type": "null"},
        {
            "type": "object",
            "additionalProperties": False,
            "required": ["kind"],
            "properties": {
                "kind": {"type": "string", "enum": ["colour", "number", "none"]},
                "value": {
                    "description": "The colour id for a colour trump, the card value for a number trump, "
                    "null for none.",
                    "oneOf": [
                        {"type": "string", "enum": list(COLOURS)},
                        {"type": "integer", "enum": list(NUMBERS)},
                        {"type": "null"},
                    ],
                },
            },
        },
    ]
}

FACTS_SCHEMA: dict[str, Any] = {
    "title": "MÜ round",
    "description": "A played round, or an Eklat (a tie for the most revealed cards: no play). "
    "Per-player lists are indexed by seat.",
    "oneOf": [
        {
            "type": "object",
            "title": "Played round",
            "additionalProperties": False,
            "required": ["outcome", "chief", "bid", "chief_trump", "partner", "triangles"],
            "properties": {
                "outcome": {"const": "played"},
                "chief": {**_SEAT, "description": "Seat of the chief (strictly the most revealed cards)."},
                "bid": {"type": "integer", "minimum": 1, "description": "Cards revealed by the chief."},
                "vice": {"type": ["integer", "null"], "minimum": 0, "description": "Seat of the vice, or null."},
                "vice_trump": {**_TRUMP, "description": "The vice's trump (required when there is a vice)."},
                "chief_trump": {**_TRUMP, "description": 'The chief\'s trump; {"kind": "none"} for none.'},
                "partner": {**_SEAT, "description": "Seat of the chief's partner (never the vice)."},
                "triangles": {
                    "type": "array",
                    "items": {"type": "integer", "minimum": 0, "maximum": DECK_TRIANGLES},
                    "description": "Triangles (card points) in each player's tricks; they add up to 60.",
                },
            },
        },
        {
            "type": "object",
            "title": "Eklat",
            "additionalProperties": False,
            "required": ["outcome", "tied", "cards"],
            "properties": {
                "outcome": {"const": "eklat"},
                "tied": {"type": "array", "items": _SEAT, "description": "Seats tied for the most cards."},
                "last_tied": {"type": ["integer", "null"], "minimum": 0, "description": "Who of them tied last."},
                "cards": {
                    "type": "integer",
                    "minimum": 0,
                    "description": "Cards each tied player revealed (0: no bid).",
                },
            },
        },
    ],
}

# RULES.md worked example (5 players: Anita, Jenő, Éva, Márk, Emma): Márk bids 4 (target 33), names a
# colour and makes it with Anita → 40 bonus each; Éva is the vice.
EXAMPLE: dict[str, Any] = {
    "players": 5,
    "options": {"target": 200},
    "facts": {
        "outcome": "played",
        "chief": 3,
        "bid": 4,
        "vice": 2,
        "vice_trump": {"kind": "number", "value": 9},
        "chief_trump": {"kind": "colour", "value": "green"},
        "partner": 0,
        "triangles": [15, 10, 10, 20, 5],
    },
}
