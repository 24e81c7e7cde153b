"""Muzicando (the Romanian solfège card game): team play for 4, individual play for 2–8.

Rulebook: ``seeds/solfege.hu.txt``; digest: RULES.md, "Muzicando". Tables, messages and the facts'
shape live in ``muzicando_facts.py``.

Team play (exactly 4 players, North–South = seats 0 and 2 against East–West = seats 1 and 3).
Placement points by the order of going out, 1st 4 · 2nd 3 · 3rd 2 · 4th 1; the last player loses
his placement point when he is left holding cards. The declaring team fulfils its contract when
one of its players goes out first: + contract value, otherwise − contract value (contract value =
level + type value: Sarabanda 1 · Glissando 2 · Parada 3 · Muzicando 4); the other team's score
does not move. After four passes nobody has a contract: placement points only. A team's deal score
is its players' placement points ± the contract, and the rulebook scores teams, not players
("A csapat … kapja meg a pontokat"): each seat is credited its TEAM's score, so the seat totals
equal the team totals and both partners win together.

Rule breach in team play: the rulebook only says it "is punished with 12 points" and, unlike the
individual rules, does not void the deal. Default (option ``team_breach`` = "scored"): the deal is
scored as played and the offending team loses 12 on top. Alternative "void": as in individual play,
the deal counts for nothing except the offending team's −12.

Individual play (2–8 players, 7 cards each). Placement N … 1 for N players by the order of going
out; every player left holding cards loses 1. The player left of the dealer chooses the type; the
rulebook only says a player scores "placement points plus the value of the undertaking", so option
``individual_contract`` settles whose undertaking it is:

- "chooser" (default, the digest's reading): the chooser scores + value if he goes out first and
  − value otherwise, as a team's contract does;
- "winner": the deal's winner (first out) scores + value, whoever chose;
- "unconditional": the chooser scores + value whatever happens.

Without bidding the value is the type value alone; with option ``bidding`` (only for 4 or 8
players, when all cards are dealt) the declarer's bid has a level and the value is level + type,
and four passes leave no contract. A rule breach costs the offender 11 and voids the deal: nobody
else scores anything in it.

Match length (option ``deals``, 0 = standard): team play is at least 4 deals (standard 4; more deals
may still be recorded after that, "minimum négy lejátszás"); individual play is a preset number of
deals, a multiple of the number of players (standard: one deal per player). Highest total wins,
ties share. The dealer rotates to the left; in individual play the player left of the dealer
chooses the type and starts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from .errors import Complaints
from .muzicando_facts import (
    CARDS_LEFT,
    FACTS_SCHEMA,
    INDIVIDUAL_BREACH,
    LEVEL_VALUES,
    MESSAGES,
    OPTIONS,
    PARAMS,
    SECTIONS,
    TEAM_BREACH,
    TEAM_MIN_DEALS,
    TEAM_PLACEMENT,
    TEAMS,
    TYPE_LETTERS,
    TYPE_VALUES,
    Contract,
    Facts,
    facts_parse,
)
from .types import Line, MatchState, RoundResult, fixed_rounds_state, line

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
    "Contract",
    "Facts",
    "facts_parse",
    "match_state",
    "options_validate",
    "score_round",
    "validate",
]

KEY = "muzicando"
NAME = "Muzicando"
VERSION = "1"
MIN_PLAYERS = 2
MAX_PLAYERS = 8
WINNERS_BY_TOTALS = True  # the highest total wins, ties share (match_state)

EXAMPLE: dict[str, Any] = {
    "players": 4,
    "options": {"mode": "team"},
    "facts": {
        "order": [2, 1, 0, 3],
        "holding": [3],
        "contract": {"declarer": 0, "type": "glissando", "level": 2},
        "breach": None,
    },
}


# --- options -------------------------------------------------------------------------------------


def is_team(options: Mapping[str, Any]) -> bool:
    return bool(options["mode"] == "team")


def fixed_teams(options: Mapping[str, Any], *, players: int) -> dict[int, int] | None:
    """Seat -> partnership in the team game (north–south v east–west all match); None in the individual game."""
    if not is_team(options):
        return None
    return {seat: index for index, seats in enumerate(TEAMS.values()) for seat in seats if seat < players}


def deals_of(options: Mapping[str, Any], players: int) -> int:
    """The match length: the option, or the standard 4 (teams) / one deal per player (individual)."""
    deals = int(options["deals"])
    if deals:
        return deals
    return TEAM_MIN_DEALS if is_team(options) else players


def options_validate(options: Mapping[str, Any], *, players: int) -> None:
    """Teams need exactly 4 players; bidding alone needs 4 or 8; the match length suits the mode."""
    c = Complaints(MESSAGES, PARAMS)
    deals = int(options["deals"])
    if is_team(options):
        c.check(players == 4, "options.mode", "muzicando.team_players", "muzicando-players", players=players)
        c.check(
            deals == 0 or deals >= TEAM_MIN_DEALS,
            "options.deals",
            "muzicando.deals_team",
            "muzicando-match",
            deals=deals,
        )
    else:
        c.check(
            not options["bidding"] or players in (4, 8),
            "options.bidding",
            "muzicando.bidding_players",
            "muzicando-bidding",
            players=players,
        )
        c.check(
            deals % players == 0,
            "options.deals",
            "muzicando.deals_individual",
            "muzicando-match",
            deals=deals,
            players=players,
        )
    c.raise_if_any()


# --- the rules -----------------------------------------------------------------------------------


def is_void(facts: Facts, options: Mapping[str, Any]) -> bool:
    """A breach voids an individual deal, and a team deal under ``team_breach`` = "void"."""
    return facts.breach is not None and (not is_team(options) or options["team_breach"] == "void")


def chooser_of(state: MatchState, players: int) -> int:
    """Individual play: the player left of this deal's dealer chooses the type."""
    return ((state.next_dealer or 0) + 1) % players


def contract_value(contract: Contract) -> int:
    """Level + type value ("a vállalás értéke"); without bidding the type value alone."""
    level = LEVEL_VALUES[contract.level] if contract.level is not None else 0
    return level + TYPE_VALUES[contract.type]


def bid_name(contract: Contract) -> str:
    """ "2G" for a bid, "Glissando" for a type chosen without bidding."""
    if contract.level is None:
        return contract.type.capitalize()
    return f"{contract.level}{TYPE_LETTERS[contract.type]}"


def _validate_order(c: Complaints, facts: Facts, players: int, team: bool) -> None:
    """Every seat once; those left holding cards come last, and never the first out."""
    if not c.check(sorted(facts.order) == list(range(players)), "order", "muzicando.order", "muzicando-placement"):
        return
    for i, seat in enumerate(facts.holding):
        if seat in facts.holding[:i]:
            c.add(f"holding.{i}", "muzicando.holding_seat", "muzicando-placement", seat=seat)
            return
    tail = set(facts.order[players - len(facts.holding) :])
    if facts.order[0] in facts.holding:
        c.add("holding", "muzicando.holding_first", "muzicando-placement")
    elif set(facts.holding) != tail:
        c.add("holding", "muzicando.holding_tail", "muzicando-placement")
    c.check(not team or len(facts.holding) <= 1, "holding", "muzicando.holding_team", "muzicando-placement")


def _validate_contract(c: Complaints, facts: Facts, options: Mapping[str, Any], chooser: int) -> None:
    """Bids name declarer and level; without bidding the chooser names just the type."""
    contract = facts.contract
    if is_team(options) or options["bidding"]:
        if contract is not None:
            c.check(
                contract.declarer is not None, "contract.declarer", "muzicando.declarer_needed", "muzicando-bidding"
            )
            c.check(contract.level is not None, "contract.level", "muzicando.level_needed", "muzicando-bidding")
    elif c.check(contract is not None, "contract", "muzicando.contract_needed", "muzicando-individual"):
        assert contract is not None
        c.check(contract.level is None, "contract.level", "muzicando.level_no_bidding", "muzicando-individual")
        c.check(
            contract.declarer in (None, chooser),
            "contract.declarer",
            "muzicando.chooser",
            "muzicando-individual",
            chooser=chooser,
            seat=contract.declarer,
        )


def validate(facts: Facts, *, players: int, options: Mapping[str, Any], state: MatchState) -> None:
    """Refuse deals that cannot have happened or do not fit the match's options."""
    c = Complaints(MESSAGES, PARAMS)
    team = is_team(options)
    deals = deals_of(options, players)
    c.check(team or state.rounds_played < deals, "", "muzicando.match_over", "muzicando-match", deals=deals)
    void = is_void(facts, options)
    if facts.order or not void:
        _validate_order(c, facts, players, team)
    if not void:
        _validate_contract(c, facts, options, chooser_of(state, players))
    c.raise_if_any()


def team_of(seat: int) -> str:
    """North–South are seats 0 and 2, East–West seats 1 and 3."""
    return "north_south" if seat % 2 == 0 else "east_west"


Event = tuple[str, str, str, int, dict[str, int | str]]  # (team, msg, rule anchor, points, params)


def _team_events(facts: Facts) -> tuple[list[Event], list[Line]]:
    """What each team earns this deal ("VII. Pontozás"), and the lines for the whole table."""
    events: list[Event] = []
    notes: list[Line] = []
    for place, seat in enumerate(facts.order):
        params: dict[str, int | str] = {"seat": seat, "place": place + 1}
        events.append((team_of(seat), "muzicando.placement", "muzicando-placement", TEAM_PLACEMENT[place], params))
    for seat in facts.holding:
        events.append((team_of(seat), "muzicando.cards_left", "muzicando-placement", CARDS_LEFT, {"seat": seat}))
    contract = facts.contract
    if contract is None:
        notes.append(line("muzicando.no_contract", "muzicando-bidding"))
    else:
        assert contract.declarer is not None
        value = contract_value(contract)
        declarers = team_of(contract.declarer)
        first = facts.order[0]
        made = team_of(first) == declarers  # one of the declaring team went out first
        msg = "muzicando.contract_made" if made else "muzicando.contract_failed"
        params = {"bid": bid_name(contract), "value": value, "seat": first}
        events.append((declarers, msg, "muzicando-contract", value if made else -value, params))
    return events, notes


def score_team(facts: Facts, *, options: Mapping[str, Any]) -> RoundResult:
    """Team play: each seat is credited its team's deal score."""
    if is_void(facts, options):
        assert facts.breach is not None
        events: list[Event] = []
        notes = [line("muzicando.void", "muzicando-breach", seat=facts.breach)]
    else:
        events, notes = _team_events(facts)
    if facts.breach is not None:
        breach: Event = (
            team_of(facts.breach),
            "muzicando.breach_team",
            "muzicando-breach",
            TEAM_BREACH,
            {"seat": facts.breach},
        )
        events.append(breach)
    lines = list(notes)
    scores = []
    for seat in range(4):
        mine = [event for event in events if event[0] == team_of(seat)]
        lines.extend(line(msg, rule, player=seat, points=points, **params) for _, msg, rule, points, params in mine)
        scores.append(sum(event[3] for event in mine))
    return RoundResult(scores=tuple(scores), lines=tuple(lines))


def _individual_contract(facts: Facts, contract: Contract, *, options: Mapping[str, Any], chooser: int) -> Line:
    """The type's value under the match's reading (module docstring, ``individual_contract``)."""
    value = contract_value(contract)
    bid = bid_name(contract)
    first = facts.order[0]
    rule = options["individual_contract"]
    if rule == "winner":
        return line(
            "muzicando.contract_winner", "muzicando-individual", player=first, points=value, bid=bid, value=value
        )
    if rule == "unconditional":
        return line(
            "muzicando.contract_chosen", "muzicando-individual", player=chooser, points=value, bid=bid, value=value
        )
    made = first == chooser
    msg = "muzicando.contract_made" if made else "muzicando.contract_failed"
    return line(
        msg, "muzicando-contract", player=chooser, points=value if made else -value, bid=bid, value=value, seat=first
    )


def score_individual(facts: Facts, *, players: int, options: Mapping[str, Any], state: MatchState) -> RoundResult:
    """Individual play: placement N … 1, −1 for cards left, the type's value; a breach voids the deal."""
    lines: list[Line] = []
    if facts.breach is not None:
        lines.append(line("muzicando.void", "muzicando-breach", seat=facts.breach))
        lines.append(
            line("muzicando.breach_individual", "muzicando-breach", player=facts.breach, points=INDIVIDUAL_BREACH)
        )
    else:
        for place, seat in enumerate(facts.order):
            points = players - place
            lines.append(
                line(
                    "muzicando.placement", "muzicando-placement", player=seat, points=points, seat=seat, place=place + 1
                )
            )
        for seat in facts.holding:
            lines.append(line("muzicando.cards_left", "muzicando-placement", player=seat, points=CARDS_LEFT, seat=seat))
        contract = facts.contract
        if contract is None:
            lines.append(line("muzicando.no_contract", "muzicando-bidding"))
        else:
            chooser = contract.declarer if contract.declarer is not None else chooser_of(state, players)
            lines.append(_individual_contract(facts, contract, options=options, chooser=chooser))
    scores = [0] * players
    for ln in lines:
        if ln.player is not None and ln.points is not None:
            scores[ln.player] += ln.points
    return RoundResult(scores=tuple(scores), lines=tuple(lines))


def score_round(facts: Facts, *, players: int, options: Mapping[str, Any], state: MatchState) -> RoundResult:
    """Score one deal in team or individual play."""
    if is_team(options):
        return score_team(facts, options=options)
    return score_individual(facts, players=players, options=options, state=state)


def match_state(
    history: Sequence[tuple[Facts, RoundResult]], *, players: int, options: Mapping[str, Any], deal: int | None = None
) -> MatchState:
    """Totals, the end after the match's deals, winners (ties share), the dealer rotating left."""
    team = is_team(options)
    deals = deals_of(options, players)
    state = fixed_rounds_state(
        history,
        players=players,
        rounds=deals,
        starter=None if team else lambda position: (position % players + 1) % players,
        dealer_after_end=True,
        deal=deal,
    )
    extra: dict[str, Any] = {"deals": deals}
    if team:
        extra["team_totals"] = {name: state.totals[seats[0]] for name, seats in TEAMS.items()}
        extra["first_bidder"] = state.next_dealer
    return replace(state, extra=extra)
