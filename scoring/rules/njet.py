"""NJET (Stefan Dorra), 2-5 players: scoring, round validation and match end.

Rulebook: ``seeds/mue-njet-wassticht-meinz.hu.txt`` (the Amigo box "MÜ & mehr"), sections "NJET",
"Pontozás" and "Előkészületek - speciális szabályok"; the team's digest ``RULES.md`` section "NJET" wins
where they differ (three 7s per colour leave the 3-player deck; everyone *deals* equally often).

What is read off the table after a round: the start player, the two teams, who holds the monster card,
the points per trick and the discard condition left open on the NJET board, and each player's tricks
and captured zeros ("booty").

Ambiguities (RULES.md) and the options that settle them:

- ``recording``: "full" (default) — every player scores the team total; "difference" — the players of
  the higher team score the difference between the team totals, the others 0 (the rulebook's
  "other way of scoring").
- ``tie_rule`` (the edition): "english" — of equal cards the LAST played wins, and a player only has to
  follow the printed colour of the led card; "hungarian" — the EARLIER played wins and a led trump or
  super trump must be answered with trump or super trump. Round scoring does not depend on it; the trick
  referee reads ``options["tie_rule"]``. A new match defaults to the edition of the language it is created
  in (:data:`LANGUAGE_DEFAULTS`: Hungarian → "hungarian") and stores it; the option's own default stays
  "english", so a stored match without the key keeps the English rule it was created with.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import Complaints
from .types import N_, NP_, Line, MatchState, OptionSpec, RoundResult, fixed_rounds_state, line

KEY = "njet"
NAME = "NJET"
VERSION = "1"
MIN_PLAYERS = 2
MAX_PLAYERS = 5
WINNERS_BY_TOTALS = True  # the highest total wins, ties share (match_state)

# --- tables, as the rulebook prints them -------------------------------------------------------------

# Cards dealt to each player, by player count (2p: the other 30 cards are set aside unseen).
CARDS_PER_PLAYER: dict[int, int] = {2: 15, 3: 16, 4: 15, 5: 12}

# Rounds in a match, by player count: everyone deals equally often.
ROUNDS: dict[int, int] = {2: 8, 3: 9, 4: 8, 5: 10}

# Team sizes (larger, smaller) by player count; the start player picks the side in 3p and 5p.
TEAM_SIZES: dict[int, tuple[int, int]] = {2: (1, 1), 3: (2, 1), 4: (2, 2), 5: (3, 2)}

# The monster card is used only where the teams are unequal.
MONSTER_PLAYERS: frozenset[int] = frozenset({3, 5})

# Row 5 of the board: points for each trick and each captured 0.
POINTS_PER_TRICK: tuple[int, ...] = (1, 2, 3, 4, -2)

# Row 2 of the board: cards each player discards before play (passing two to the right keeps the hand size).
DISCARDS: dict[str, int] = {"one": 1, "two": 2, "two_no_zero": 2, "pass": 0, "none": 0}

# Three 0s in each of the four colours; the 3-player deck loses 7s, not 0s.
ZEROS_IN_DECK = 12

MONSTER_FACTOR = 2
TEAMS = (0, 1)  # team 0 is the start player's team

RECORDINGS = ("full", "difference")
TIE_RULES = ("english", "hungarian")

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        key="recording",
        kind="choice",
        default="full",
        label=N_("Recording: full team totals, or only the difference"),
        rule="njet-recording",
        choices=RECORDINGS,
    ),
    OptionSpec(
        key="tie_rule",
        kind="choice",
        default="english",
        label=N_("Edition of the rules (they differ on equal cards and on answering a led trump)"),
        rule="njet-trick-winner",
        choices=TIE_RULES,
    ),
)

# The edition a match created in a language defaults to (the rulebook of that language); others: English.
LANGUAGE_DEFAULTS: dict[str, dict[str, Any]] = {"hu": {"tie_rule": "hungarian"}}

SECTIONS: dict[str, str] = {
    "njet-players": N_("Players, cards and rounds"),
    "njet-options": N_("Match options"),
    "njet-round": N_("What is recorded after a round"),
    "njet-board": N_("The NJET board"),
    "njet-teams": N_("Teams"),
    "njet-monster": N_("The monster card"),
    "njet-discard": N_("Discarding before play"),
    "njet-tricks": N_("Playing and counting tricks"),
    "njet-booty": N_("Captured zeros (booty)"),
    "njet-scoring": N_("Scoring"),
    "njet-recording": N_("Recording only the difference"),
    "njet-trick-winner": N_("Who wins a trick"),
    "njet-end": N_("End of the match"),
}

MESSAGES: dict[str, str] = {
    # shape of the submitted facts
    "njet.players": N_("NJET is played by 2 to 5 players, not {players}."),
    "njet.facts_object": N_("The round facts must be a JSON object."),
    "njet.field_unknown": N_("'{key}' is not part of an NJET round."),
    "njet.field_required": N_("This is required."),
    "njet.field_count": N_("Must be a whole number, 0 or more."),
    "njet.field_seat": N_("Must be a seat number from 0 to {high}."),
    "njet.field_seats": N_("Must be a list with one entry per player ({players} entries)."),
    "njet.field_team": N_("Must be 0 (the start player's team) or 1 (the other team)."),
    "njet.field_choice": N_("Must be one of: {choices}."),
    # the rules
    "njet.match_over": N_("The match is over: with {players} players it lasts {rounds} rounds."),
    "njet.start_team": N_("The start player's team is team 0."),
    "njet.team_sizes": N_(
        "With {players} players the teams are {large} against {small}, not {given_large} against {given_small}."
    ),
    "njet.monster_required": N_("With {players} players one player of the smaller team holds the monster card."),
    "njet.monster_unused": N_("The monster card is used only by 3 or 5 players, not {players}."),
    "njet.monster_team": N_("The monster card goes to a player of the smaller team."),
    "njet.tricks_sum": N_(
        "The tricks must add up to {expected} ({cards} cards each, {discarded} discarded), not {total}."
    ),
    "njet.booty_per_trick": N_(
        "At most one zero per opponent in each trick: {tricks} tricks against {opponents} opponents "
        "allow at most {most} captured zeros, not {booty}."
    ),
    "njet.booty_total": N_("The deck holds only {zeros} zeros; {booty} captured is too many."),
    # explanation lines
    "njet.haul": N_("tricks {tricks} + zeros captured {booty} = {haul}"),
    "njet.haul_monster": N_("(tricks {tricks} + zeros captured {booty}) × 2 for the monster card = {haul}"),
    "njet.team_total": NP_(
        "Team: {haul} (tricks and zeros) × {per_trick} point = {total}",
        "Team: {haul} (tricks and zeros) × {per_trick} points = {total}",
        "per_trick",
    ),
    "njet.difference": N_("Difference: {own} − {other} = {difference}"),
    "njet.difference_none": N_("{own} is not more than the other team's {other}: nothing"),
}


# --- the round facts ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class NjetFacts:
    """One round as read off the table (per-seat tuples are indexed by seat)."""

    start_player: int
    teams: tuple[int, ...]  # team per seat: 0 = the start player's team, 1 = the others
    monster: int | None  # seat holding the monster card (3 and 5 players only)
    discard: str  # a key of DISCARDS
    points_per_trick: int  # one of POINTS_PER_TRICK
    tricks: tuple[int, ...]
    booty: tuple[int, ...]  # captured opponents' zeros per seat


Facts = NjetFacts

_FIELDS = ("start_player", "teams", "monster", "discard", "points_per_trick", "tricks", "booty")

FACTS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "title": "NJET round",
    "description": "What the table shows after an NJET round. Per-player lists are indexed by seat.",
    "additionalProperties": False,
    "required": ["start_player", "teams", "discard", "points_per_trick", "tricks", "booty"],
    "properties": {
        "start_player": {"type": "integer", "minimum": 0, "description": "Seat of the start player (board row 1)."},
        "teams": {
            "type": "array",
            "items": {"type": "integer", "enum": [0, 1]},
            "description": "Team of each seat: 0 = the start player's team, 1 = the other team.",
        },
        "monster": {
            "type": ["integer", "null"],
            "minimum": 0,
            "description": "Seat holding the monster card (3 and 5 players: a player of the smaller team), else null.",
        },
        "discard": {
            "type": "string",
            "enum": list(DISCARDS),
            "description": "Board row 2: discard one card, two cards, two cards but no 0, pass two to the right, "
            "or NJET (nothing).",
        },
        "points_per_trick": {
            "type": "integer",
            "enum": list(POINTS_PER_TRICK),
            "description": "Board row 5: points for each trick and each captured 0.",
        },
        "tricks": {"type": "array", "items": {"type": "integer", "minimum": 0}, "description": "Tricks per seat."},
        "booty": {
            "type": "array",
            "items": {"type": "integer", "minimum": 0},
            "description": "Opponents' zeros captured per seat (a partner's 0 is not booty).",
        },
    },
}

# RULES.md worked example: the 3-team takes 7 tricks and 3 zeros at 2 points (20 each); the 2-team
# takes 3 tricks, and 2 tricks + 1 zero with the monster card (18 each).
EXAMPLE: dict[str, Any] = {
    "players": 5,
    "options": {"recording": "full", "tie_rule": "english"},
    "facts": {
        "start_player": 0,
        "teams": [0, 0, 0, 1, 1],
        "monster": 4,
        "discard": "none",
        "points_per_trick": 2,
        "tricks": [3, 2, 2, 3, 2],
        "booty": [1, 2, 0, 0, 1],
    },
}


# --- parsing ---------------------------------------------------------------------------------------------


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _players_check(players: int) -> None:
    """NJET is for 2 to 5 players (the board has five start-player spaces)."""
    c = Complaints(MESSAGES)
    c.check(MIN_PLAYERS <= players <= MAX_PLAYERS, "players", "njet.players", "njet-players", players=players)
    c.raise_if_any()


def _seat(c: Complaints, data: Mapping[str, Any], key: str, players: int, *, rule: str, optional: bool) -> int | None:
    if key not in data or data[key] is None:
        if not optional:
            c.add(key, "njet.field_required", rule)
        return None
    value = data[key]
    if not (_is_int(value) and 0 <= value < players):
        c.add(key, "njet.field_seat", rule, high=players - 1)
        return None
    return int(value)


def _per_seat(
    c: Complaints, data: Mapping[str, Any], key: str, players: int, *, rule: str, allowed: Sequence[int] = ()
) -> tuple[int, ...]:
    """A list with one whole number per seat: counts (0 or more), or one of ``allowed``."""
    if key not in data:
        c.add(key, "njet.field_required", rule)
        return ()
    value = data[key]
    if not isinstance(value, (list, tuple)) or len(value) != players:
        c.add(key, "njet.field_seats", rule, players=players)
        return ()
    out: list[int] = []
    for seat, item in enumerate(value):
        if allowed and not (_is_int(item) and item in allowed):
            c.add(f"{key}.{seat}", "njet.field_team", rule)
        elif not (_is_int(item) and item >= 0):
            c.add(f"{key}.{seat}", "njet.field_count", rule)
        else:
            out.append(int(item))
    return tuple(out)


def _choice(c: Complaints, data: Mapping[str, Any], key: str, choices: Sequence[Any], *, rule: str) -> Any:
    if key not in data:
        c.add(key, "njet.field_required", rule)
        return None
    value = data[key]
    # bools equal 0/1 in Python; a choice list never means them
    if isinstance(value, bool) or not isinstance(value, (int, str)) or value not in choices:
        c.add(key, "njet.field_choice", rule, choices=", ".join(str(x) for x in choices))
        return None
    return value


def facts_parse(data: Mapping[str, Any], *, players: int, options: Mapping[str, Any]) -> NjetFacts:
    """Check the shape of submitted facts and build :class:`NjetFacts` (every shape problem at once)."""
    _players_check(players)
    c = Complaints(MESSAGES)
    if not isinstance(data, Mapping):
        c.add("facts", "njet.facts_object", "njet-round")
        c.raise_if_any()
    for key in data:
        if key not in _FIELDS:
            c.add(str(key), "njet.field_unknown", "njet-round", key=str(key))
    start = _seat(c, data, "start_player", players, rule="njet-board", optional=False)
    teams = _per_seat(c, data, "teams", players, rule="njet-teams", allowed=TEAMS)
    monster = _seat(c, data, "monster", players, rule="njet-monster", optional=True)
    discard = _choice(c, data, "discard", tuple(DISCARDS), rule="njet-discard")
    per_trick = _choice(c, data, "points_per_trick", POINTS_PER_TRICK, rule="njet-scoring")
    tricks = _per_seat(c, data, "tricks", players, rule="njet-tricks")
    booty = _per_seat(c, data, "booty", players, rule="njet-booty")
    c.raise_if_any()
    return NjetFacts(
        start_player=int(start or 0),
        teams=teams,
        monster=monster,
        discard=str(discard),
        points_per_trick=int(per_trick),
        tricks=tricks,
        booty=booty,
    )


# --- the rules -------------------------------------------------------------------------------------------


def tricks_in_round(players: int, discard: str) -> int:
    """Tricks in a round = cards per player − cards discarded (passing keeps the hand size)."""
    return CARDS_PER_PLAYER[players] - DISCARDS[discard]


def opponents_of(teams: Sequence[int], seat: int) -> int:
    """How many players sit on the other team (the most 0s an opponent side can add to one trick)."""
    return sum(1 for team in teams if team != teams[seat])


def team_sizes(teams: Sequence[int]) -> tuple[int, int]:
    """(larger, smaller) team size."""
    sizes = [sum(1 for team in teams if team == t) for t in TEAMS]
    return max(sizes), min(sizes)


def smaller_team(teams: Sequence[int]) -> int:
    """The team with fewer players (team 1 when they are equal)."""
    return 0 if teams.count(0) < teams.count(1) else 1


def trick_booty(teams: Sequence[int], winner: int, zero_players: Sequence[int]) -> int:
    """Booty in one trick: the 0s played into it by the winner's OPPONENTS (a partner's 0 is not booty)."""
    return sum(1 for seat in zero_players if teams[seat] != teams[winner])


def haul(facts: NjetFacts, seat: int) -> int:
    """A player's haul: tricks + captured zeros, doubled for the monster card."""
    base = facts.tricks[seat] + facts.booty[seat]
    return base * MONSTER_FACTOR if facts.monster == seat else base


def team_total(facts: NjetFacts, team: int) -> int:
    """Σ haul of the team × points per trick; every player of the team scores it."""
    return sum(haul(facts, s) for s, t in enumerate(facts.teams) if t == team) * facts.points_per_trick


def _check_teams(c: Complaints, facts: NjetFacts, players: int) -> bool:
    """Team 0 is the start player's; sizes by player count (5p 3v2, 4p 2v2, 3p 2v1, 2p each alone)."""
    c.check(facts.teams[facts.start_player] == 0, f"teams.{facts.start_player}", "njet.start_team", "njet-teams")
    large, small = TEAM_SIZES[players]
    given_large, given_small = team_sizes(facts.teams)
    return c.check(
        (given_large, given_small) == (large, small),
        "teams",
        "njet.team_sizes",
        "njet-teams",
        players=players,
        large=large,
        small=small,
        given_large=given_large,
        given_small=given_small,
    )


def _check_monster(c: Complaints, facts: NjetFacts, players: int, *, teams_ok: bool) -> None:
    """3 and 5 players: one player of the smaller team holds the monster card; 2 and 4: nobody."""
    if players not in MONSTER_PLAYERS:
        c.check(facts.monster is None, "monster", "njet.monster_unused", "njet-monster", players=players)
    elif facts.monster is None:
        c.add("monster", "njet.monster_required", "njet-monster", players=players)
    elif teams_ok:
        c.check(facts.teams[facts.monster] == smaller_team(facts.teams), "monster", "njet.monster_team", "njet-monster")


def _check_tricks(c: Complaints, facts: NjetFacts, players: int) -> None:
    """Every trick is won by someone: the tricks add up to the hand size minus the discards."""
    expected = tricks_in_round(players, facts.discard)
    c.check(
        sum(facts.tricks) == expected,
        "tricks",
        "njet.tricks_sum",
        "njet-tricks",
        expected=expected,
        cards=CARDS_PER_PLAYER[players],
        discarded=DISCARDS[facts.discard],
        total=sum(facts.tricks),
    )


def _check_booty(c: Complaints, facts: NjetFacts, *, teams_ok: bool) -> None:
    """At most one 0 per opponent in each trick won, and no more zeros than the deck holds."""
    # The facts do not say which cards were discarded, so 12 zeros is the only safe overall cap: with
    # "two_no_zero" or no discard all 12 are in play; with "one"/"two" some players may or may not
    # have discarded a 0; in the 2-player game all 12 may be among the 30 dealt cards.
    for seat, booty in enumerate(facts.booty if teams_ok else ()):
        opponents = opponents_of(facts.teams, seat)
        most = facts.tricks[seat] * opponents
        c.check(
            booty <= most,
            f"booty.{seat}",
            "njet.booty_per_trick",
            "njet-booty",
            tricks=facts.tricks[seat],
            opponents=opponents,
            most=most,
            booty=booty,
        )
    c.check(
        sum(facts.booty) <= ZEROS_IN_DECK,
        "booty",
        "njet.booty_total",
        "njet-booty",
        zeros=ZEROS_IN_DECK,
        booty=sum(facts.booty),
    )


def validate(facts: NjetFacts, *, players: int, options: Mapping[str, Any], state: MatchState) -> None:
    """Refuse rounds the NJET rules make impossible, naming every broken rule at once."""
    _players_check(players)
    c = Complaints(MESSAGES)
    c.check(not state.finished, "", "njet.match_over", "njet-end", players=players, rounds=ROUNDS[players])
    teams_ok = _check_teams(c, facts, players)
    _check_monster(c, facts, players, teams_ok=teams_ok)
    _check_tricks(c, facts, players)
    _check_booty(c, facts, teams_ok=teams_ok)
    c.raise_if_any()


# --- scoring ---------------------------------------------------------------------------------------------


def _haul_line(facts: NjetFacts, seat: int) -> Line:
    msg = "njet.haul_monster" if facts.monster == seat else "njet.haul"
    rule = "njet-monster" if facts.monster == seat else "njet-scoring"
    return line(msg, rule, player=seat, tricks=facts.tricks[seat], booty=facts.booty[seat], haul=haul(facts, seat))


def score_round(facts: NjetFacts, *, players: int, options: Mapping[str, Any], state: MatchState) -> RoundResult:
    """Every player scores the team total; with "difference" recording only the higher team's players
    score, the difference of the totals."""
    difference = options.get("recording", "full") == "difference"
    totals = {team: team_total(facts, team) for team in TEAMS}
    scores: list[int] = []
    lines: list[Line] = []
    for seat, team in enumerate(facts.teams):
        own, other = totals[team], totals[1 - team]
        team_haul = sum(haul(facts, s) for s, t in enumerate(facts.teams) if t == team)
        points = max(own - other, 0) if difference else own
        lines.append(_haul_line(facts, seat))
        lines.append(
            line(
                "njet.team_total",
                "njet-scoring",
                player=seat,
                points=None if difference else own,
                haul=team_haul,
                per_trick=facts.points_per_trick,
                total=own,
            )
        )
        if difference:
            msg = "njet.difference" if own > other else "njet.difference_none"
            lines.append(
                line(msg, "njet-recording", player=seat, points=points, own=own, other=other, difference=points)
            )
        scores.append(points)
    return RoundResult(scores=tuple(scores), lines=tuple(lines))


# --- the match -------------------------------------------------------------------------------------------


def match_state(
    history: Sequence[tuple[NjetFacts, RoundResult]],
    *,
    players: int,
    options: Mapping[str, Any],
    deal: int | None = None,
) -> MatchState:
    """A fixed number of rounds (so everyone deals equally often); the dealer moves left; most points
    wins and ties share. The start player is whoever the board leaves open, so it is not fixed."""
    _players_check(players)
    return fixed_rounds_state(history, players=players, rounds=ROUNDS[players], deal=deal)
