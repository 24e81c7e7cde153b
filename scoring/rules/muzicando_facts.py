"""Muzicando: the tables, options, messages and the shape of a deal's facts (see ``muzicando.py`` for the rules).

Rulebook: ``seeds/solfege.hu.txt`` ("III. A játék szakaszai", "VII. Pontozás", "X. Egyéni játék").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .errors import Complaints
from .types import N_, PLAYER, OptionSpec

# --- tables, as the rulebook prints them ("VII. Pontozás", "X. Egyéni játék") -----------------------
TYPES = ("sarabanda", "glissando", "parada", "muzicando")  # the order of the bids within a level
TYPE_LETTERS: dict[str, str] = {"sarabanda": "S", "glissando": "G", "parada": "P", "muzicando": "M"}
TYPE_VALUES: dict[str, int] = {"muzicando": 4, "parada": 3, "glissando": 2, "sarabanda": 1}  # "A lejátszás értéke"
LEVELS = (1, 2, 3, 4)
LEVEL_VALUES: dict[int, int] = {1: 1, 2: 2, 3: 3, 4: 4}  # "Licit szint"
BIDS = tuple(f"{level}{TYPE_LETTERS[kind]}" for level in LEVELS for kind in TYPES)  # 1S < 1G < … < 4M
TEAM_PLACEMENT = (4, 3, 2, 1)  # "Helyezés I II III IV"
CARDS_LEFT = -1  # the last (team) / anyone (individual) still holding cards loses one point
TEAM_BREACH = -12  # "A játék szabályainak megszegését 12 ponttal büntetik."
INDIVIDUAL_BREACH = -11  # "A szabályok megszegése 11 pontbüntetéssel jár … semmissé kell nyilvánítani."
TEAM_MIN_DEALS = 4  # "Egy teljes játék minimum négy lejátszásból áll."
TEAMS: dict[str, tuple[int, int]] = {"north_south": (0, 2), "east_west": (1, 3)}

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        key="mode",
        kind="choice",
        default="team",
        label=N_("Team or individual play"),
        rule="muzicando-players",
        choices=("team", "individual"),
    ),
    OptionSpec(
        key="individual_contract",
        kind="choice",
        default="chooser",
        label=N_("Individual play: who scores the type's value"),
        rule="muzicando-individual",
        choices=("chooser", "winner", "unconditional"),
    ),
    OptionSpec(
        key="bidding",
        kind="bool",
        default=False,
        label=N_("Individual play: bid with levels (4 or 8 players, all cards dealt)"),
        rule="muzicando-bidding",
    ),
    OptionSpec(
        key="team_breach",
        kind="choice",
        default="scored",
        label=N_("Team play: a deal with a rule breach is scored or void"),
        rule="muzicando-breach",
        choices=("scored", "void"),
    ),
    OptionSpec(
        key="deals",
        kind="int",
        default=0,
        label=N_("Deals in the match (0 = standard)"),
        rule="muzicando-match",
        minimum=0,
        maximum=200,
    ),
)

MESSAGES: dict[str, str] = {
    "muzicando.unknown_field": N_("There is no round fact called '{name}'."),
    "muzicando.missing": N_("This fact is missing."),
    "muzicando.seat": N_("Must be a seat number from 0 to {high}."),
    "muzicando.seat_list": N_("Give a list of seat numbers."),
    "muzicando.contract_object": N_("The contract is an object with declarer, type and level (or null)."),
    "muzicando.type": N_("The type must be one of: {choices}."),
    "muzicando.level": N_("The level must be a whole number from 1 to 4."),
    "muzicando.team_players": N_("The team game is played by exactly 4 players (N–S against E–W), not {players}."),
    "muzicando.bidding_players": N_("Bidding in individual play needs all cards dealt: 4 or 8 players, not {players}."),
    "muzicando.deals_team": N_("A team match is at least 4 deals, not {deals}."),
    "muzicando.deals_individual": N_("The number of deals must be a multiple of the {players} players, not {deals}."),
    "muzicando.match_over": N_("The match was {deals} deals and is over."),
    "muzicando.order": N_("The finishing order must name every player exactly once."),
    "muzicando.holding_seat": N_("{seat} is named twice."),
    "muzicando.holding_tail": N_("Players still holding cards finish behind every player who went out."),
    "muzicando.holding_first": N_("The first in the finishing order went out, so he holds no cards."),
    "muzicando.holding_team": N_("In the team game only the last player can be left holding cards."),
    "muzicando.contract_needed": N_("The player left of the dealer chooses the type: give the contract."),
    "muzicando.declarer_needed": N_("Name the declarer (the player whose bid won)."),
    "muzicando.level_needed": N_("Give the level of the winning bid."),
    "muzicando.level_no_bidding": N_("There is no bidding in this match, so the type has no level."),
    "muzicando.chooser": N_("{chooser} (left of the dealer) chooses the type this deal, not {seat}."),
    "muzicando.placement": N_("{seat} finished in place {place}."),
    "muzicando.cards_left": N_("{seat} was left holding cards: −1"),
    "muzicando.contract_made": N_("Contract {bid} made ({seat} went out first): +{value}"),
    "muzicando.contract_failed": N_("Contract {bid} failed ({seat} went out first): −{value}"),
    "muzicando.contract_winner": N_("Won the deal playing {bid}: +{value}"),
    "muzicando.contract_chosen": N_("Chose {bid}: +{value}"),
    "muzicando.no_contract": N_("Four passes: nobody has a contract, placement points only."),
    "muzicando.breach_team": N_("Rule breach by {seat}: the team loses 12."),
    "muzicando.breach_individual": N_("Rule breach: −11, and the deal is void."),
    "muzicando.void": N_("The deal is void after {seat}'s rule breach."),
}

# message id -> params that are seats (shown as the players' names)
PARAMS: dict[str, dict[str, str]] = {
    msg: dict.fromkeys(params, PLAYER)
    for msg, params in {
        "muzicando.holding_seat": ("seat",),
        "muzicando.chooser": ("chooser", "seat"),
        "muzicando.placement": ("seat",),
        "muzicando.cards_left": ("seat",),
        "muzicando.contract_made": ("seat",),
        "muzicando.contract_failed": ("seat",),
        "muzicando.breach_team": ("seat",),
        "muzicando.void": ("seat",),
    }.items()
}

SECTIONS: dict[str, str] = {
    "muzicando-players": N_("Players, teams and individual play"),
    "muzicando-options": N_("Match options"),
    "muzicando-round": N_("What to record after a deal"),
    "muzicando-bidding": N_("Bidding and contracts"),
    "muzicando-placement": N_("Placement points"),
    "muzicando-contract": N_("Contract points"),
    "muzicando-individual": N_("Individual play"),
    "muzicando-breach": N_("Rule breaches"),
    "muzicando-match": N_("Length of the match"),
}

_SEAT = {"type": "integer", "minimum": 0, "description": "A seat number (0 = the first dealer)."}

FACTS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "One deal of Muzicando, recorded when the last player is placed.",
    "additionalProperties": False,
    "properties": {
        "order": {
            "type": "array",
            "items": _SEAT,
            "description": "Every seat in the order of going out, the first out first; those still holding "
            "cards at the end come last. May be empty only for a deal made void by a rule breach.",
        },
        "holding": {
            "type": "array",
            "items": _SEAT,
            "description": "Seats left holding cards at the end (team game: at most the last one). Default none.",
        },
        "contract": {
            "description": "The winning bid, or null after four passes. Individual play without bidding: "
            "only the type the player left of the dealer chose.",
            "oneOf": [
                {"type": "null"},
                {
                    "type": "object",
                    "required": ["type"],
                    "additionalProperties": False,
                    "properties": {
                        "declarer": {**_SEAT, "description": "The seat whose bid won (the chooser)."},
                        "type": {"type": "string", "enum": list(TYPES), "description": "The type of play."},
                        "level": {"type": "integer", "minimum": 1, "maximum": 4, "description": "The bid level."},
                    },
                },
            ],
        },
        "breach": {
            "description": "The seat that broke a rule, or null.",
            "oneOf": [{"type": "null"}, _SEAT],
        },
    },
}


@dataclass(frozen=True)
class Contract:
    """The winning bid: who declared it, the type of play and the level (None without bidding)."""

    declarer: int | None
    type: str
    level: int | None


@dataclass(frozen=True)
class Facts:
    """What the table records after a deal of Muzicando."""

    order: tuple[int, ...]
    holding: tuple[int, ...]
    contract: Contract | None
    breach: int | None


def _seat(c: Complaints, value: object, field: str, players: int) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < players:
        return value
    c.add(field, "muzicando.seat", "muzicando-round", high=players - 1)
    return None


def _seats(c: Complaints, data: Mapping[str, Any], name: str, players: int) -> tuple[int, ...]:
    value = data.get(name, [])
    if not isinstance(value, list):
        c.add(name, "muzicando.seat_list", "muzicando-round")
        return ()
    seats = [_seat(c, item, f"{name}.{i}", players) for i, item in enumerate(value)]
    return tuple(seat for seat in seats if seat is not None)


def _unknown(c: Complaints, data: Mapping[str, Any], known: Mapping[str, Any], prefix: str) -> None:
    for name in data:
        if name not in known:
            c.add(f"{prefix}{name}", "muzicando.unknown_field", "muzicando-round", name=str(name))


def _contract(c: Complaints, value: object, players: int) -> Contract | None:
    if value is None:
        return None
    if not isinstance(value, Mapping):
        c.add("contract", "muzicando.contract_object", "muzicando-bidding")
        return None
    _unknown(c, value, {"declarer": 0, "type": 0, "level": 0}, "contract.")
    declarer = value.get("declarer")
    if declarer is not None:
        declarer = _seat(c, declarer, "contract.declarer", players)
    kind = value.get("type")
    if "type" not in value:
        c.add("contract.type", "muzicando.missing", "muzicando-round")
    else:
        c.check(kind in TYPES, "contract.type", "muzicando.type", "muzicando-bidding", choices=", ".join(TYPES))
    level = value.get("level")
    if level is not None and (not isinstance(level, int) or isinstance(level, bool) or level not in LEVELS):
        c.add("contract.level", "muzicando.level", "muzicando-bidding")
    return Contract(declarer=declarer, type=str(kind), level=level)


def facts_parse(data: Mapping[str, Any], *, players: int, options: Mapping[str, Any]) -> Facts:
    """Shape-check a deal: the finishing order, who holds cards, the contract and any rule breach."""
    c = Complaints(MESSAGES, PARAMS)
    _unknown(c, data, FACTS_SCHEMA["properties"], "")
    order = _seats(c, data, "order", players)
    holding = _seats(c, data, "holding", players)
    contract = _contract(c, data.get("contract"), players)
    breach = data.get("breach")
    if breach is not None:
        breach = _seat(c, breach, "breach", players)
    c.raise_if_any()
    return Facts(order=order, holding=holding, contract=contract, breach=breach)
