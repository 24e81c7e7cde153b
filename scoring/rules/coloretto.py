"""Coloretto (Michael Schacht), 3–5 players.

Rulebook: ``seeds/coloretto.hu.txt`` ("Játék előkészületek", "A játék vége, pontozás"); digest:
RULES.md, "Coloretto".

At the end of the game each player puts his jokers to colours, counts the cards of every colour,
scores three colours positive and all the others negative by the table 1 → 1, 2 → 3, 3 → 6,
4 → 10, 5 → 15, 6 or more → 21, and adds 2 per "+2" card. The app makes the choices a player
wants: :func:`best_score` tries every way to place the jokers (at most 3 exist) and scores the
three best colours positive (for fixed counts that choice is always the best), and the
explanation shows the result ("joker → yellow", each colour, the "+2" cards).

Jokers: the Hungarian text lets a joker join only a colour the player already holds (option
``joker_rule`` = "held", the default); "any" lets it join any colour in play. Several jokers may go
to different colours.

Validation (63 colour cards = 7 colours × 9, 10 "+2" cards, 3 jokers; with 3 players all 9 cards of
one colour, the fact ``removed_colour``, leave the game): every player has at least one colour card,
and the players can be given different colours (each started with one card of a colour nobody else
had); at most 9 cards of a colour, 3 jokers and 10 "+2" cards over all players; none of the
removed colour. The "last round" card is the 16th card from the bottom, whoever draws it draws another
card instead, and every card drawn ends up with a player when a round ends: so at most 14 cards of the
game stay undrawn, and at least 15 − 3 × players do (one last round draws at most 3 cards per player).
The facts hold no undrawn count: it is the deck less the cards the players hold.

A series ("games" option, usually 4 or one per player) adds the games up; each game the left
neighbour of the previous starting player starts. Highest total wins; ties share.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, replace
from itertools import combinations_with_replacement, permutations
from typing import Any

from .errors import Complaints
from .types import N_, NP_, PLAYER, Line, MatchState, OptionSpec, RoundResult, fixed_rounds_state, line

KEY = "coloretto"
NAME = "Coloretto"
VERSION = "1"
MIN_PLAYERS = 3
MAX_PLAYERS = 5
WINNERS_BY_TOTALS = True  # the highest total wins, ties share (match_state)

# --- tables, as the rulebook prints them ---------------------------------------------------------
COLOURS = ("yellow", "orange", "red", "green", "blue", "brown", "grey")
CARDS_PER_COLOUR = 9
JOKERS = 3
PLUS_TWOS = 10
PLUS_TWO_POINTS = 2
POSITIVE_COLOURS = 3
COLOUR_POINTS: dict[int, int] = {1: 1, 2: 3, 3: 6, 4: 10, 5: 15, 6: 21}  # "6-nál több" also 21
UNDRAWN_BELOW_LAST_ROUND = 15  # the "last round" card lies on the bottom 15 cards ...
UNDRAWN_AT_MOST = UNDRAWN_BELOW_LAST_ROUND - 1  # ... and whoever draws it draws another card instead
ROW_CARDS = 3  # a row holds at most 3 cards: one last round draws at most 3 per player
JOKER_RULES = ("held", "any")
ENTRIES = ("quick", "full")  # the app's two round entries

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        key="joker_rule",
        kind="choice",
        default="held",
        label=N_("Jokers join"),
        rule="coloretto-jokers",
        choices=JOKER_RULES,
    ),
    OptionSpec(
        key="games",
        kind="int",
        default=1,
        label=N_("Games in the series"),
        rule="coloretto-series",
        minimum=1,
        maximum=100,
    ),
)

MESSAGES: dict[str, str] = {
    "coloretto.unknown_field": N_("There is no round fact called '{name}'."),
    "coloretto.list": N_("Give one whole number per player ({players} numbers)."),
    "coloretto.count": N_("Give a whole number of cards from 0 to {high}."),
    "coloretto.colour": N_("The removed colour must be one of: {choices}."),
    "coloretto.removed_needed": N_("With 3 players one colour is removed: say which."),
    "coloretto.removed_unused": N_("A colour is removed only with 3 players."),
    "coloretto.removed_cards": N_("The {colour} cards were removed from the game."),
    "coloretto.no_colour": N_("{seat} has no colour card, but every player starts with one."),
    "coloretto.start_colours": N_("Every player started with a colour nobody else had; these hands cannot all have."),
    "coloretto.colour_total": N_("There are only 9 {colour} cards; {total} are counted."),
    "coloretto.jokers_total": N_("There are only 3 jokers; {total} are counted."),
    "coloretto.plus_twos_total": N_("There are only 10 “+2” cards; {total} are counted."),
    "coloretto.too_few": N_(
        "The game ends only after the “last round” card (the 16th from the bottom): at least {low} "
        "of the {deck} cards end with the players, not {total}."
    ),
    "coloretto.too_many": N_(
        "The game ends after the round in which the “last round” card is drawn, and one round draws at most 3 "
        "cards per player: at least {undrawn} of the {deck} cards stay undrawn, so at most {high} end with the "
        "players, not {total}."
    ),
    "coloretto.series_over": NP_(
        "The series was {games} game and is over.", "The series was {games} games and is over.", "games"
    ),
    "coloretto.joker": N_("Joker → {colour}"),
    "coloretto.colour_plus": NP_("{colour}: {count} card → +{value}", "{colour}: {count} cards → +{value}"),
    "coloretto.colour_minus": NP_("{colour}: {count} card → −{value}", "{colour}: {count} cards → −{value}"),
    "coloretto.plus_twos": NP_("{count} “+2” card × 2", "{count} “+2” cards × 2"),
    "coloretto.entry": N_("The entry is 'quick' or 'full', not '{entry}'."),
    # which of the app's entries made the round (a line of the round as a whole)
    "coloretto.entry_quick": N_("Quick entry: only the colours each player holds."),
    "coloretto.entry_full": N_("Full entry: every colour of every player."),
    # the colours' names, for the params of kind "coloretto.colour"
    "coloretto.colour.yellow": N_("yellow"),
    "coloretto.colour.orange": N_("orange"),
    "coloretto.colour.red": N_("red"),
    "coloretto.colour.green": N_("green"),
    "coloretto.colour.blue": N_("blue"),
    "coloretto.colour.brown": N_("brown"),
    "coloretto.colour.grey": N_("grey"),
}

_COLOUR = {"colour": "coloretto.colour"}
# message id -> its params' kinds (seats shown as names, colours by their names)
PARAMS: dict[str, dict[str, str]] = {
    "coloretto.no_colour": {"seat": PLAYER},
    "coloretto.removed_cards": _COLOUR,
    "coloretto.colour_total": _COLOUR,
    "coloretto.joker": _COLOUR,
    "coloretto.colour_plus": _COLOUR,
    "coloretto.colour_minus": _COLOUR,
}

SECTIONS: dict[str, str] = {
    "coloretto-players": N_("Players and cards"),
    "coloretto-options": N_("Match options"),
    "coloretto-round": N_("What to record after a game"),
    "coloretto-end": N_("End of the game"),
    "coloretto-scoring": N_("Scoring"),
    "coloretto-jokers": N_("Jokers"),
    "coloretto-series": N_("A series of games"),
}

_PER_SEAT = {"type": "array", "items": {"type": "integer", "minimum": 0}}

FACTS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "One game of Coloretto: what each player took. Omitted lists count as all zeros.",
    "additionalProperties": False,
    "properties": {
        **{
            colour: {**_PER_SEAT, "description": f"Per seat: {colour} cards (jokers not included)."}
            for colour in COLOURS
        },
        "jokers": {**_PER_SEAT, "description": "Per seat: jokers (the app places them at best)."},
        "plus_twos": {**_PER_SEAT, "description": "Per seat: “+2” cards."},
        "removed_colour": {
            "description": "With 3 players: the colour removed from the game; otherwise null.",
            "oneOf": [{"type": "null"}, {"type": "string", "enum": list(COLOURS)}],
        },
        "entry": {
            "description": "Which of the app's entries made the round ('quick': the colours each player holds; "
            "'full': every colour); the explanation says so. Optional, changes no score.",
            "oneOf": [{"type": "null"}, {"type": "string", "enum": list(ENTRIES)}],
        },
    },
}

EXAMPLE: dict[str, Any] = {
    "players": 4,
    "options": {"joker_rule": "held"},
    "facts": {  # seat 0 is András of the rulebook: 2 + 21 + 15 + 6 − 3 = 41
        "yellow": [4, 0, 3, 1],
        "orange": [0, 7, 0, 0],
        "red": [3, 0, 2, 1],
        "green": [6, 0, 0, 3],
        "blue": [2, 3, 0, 4],
        "brown": [0, 2, 6, 0],
        "grey": [0, 1, 2, 5],
        "jokers": [1, 1, 0, 1],
        "plus_twos": [1, 2, 3, 2],
        "removed_colour": None,
    },
}


@dataclass(frozen=True)
class Facts:
    """The cards every player took, per seat."""

    yellow: tuple[int, ...]
    orange: tuple[int, ...]
    red: tuple[int, ...]
    green: tuple[int, ...]
    blue: tuple[int, ...]
    brown: tuple[int, ...]
    grey: tuple[int, ...]
    jokers: tuple[int, ...]
    plus_twos: tuple[int, ...]
    removed_colour: str | None
    entry: str | None = None

    def counts(self, seat: int) -> dict[str, int]:
        """Seat's colour counts for the colours in play."""
        return {colour: getattr(self, colour)[seat] for colour in colours_in_play(self.removed_colour)}


@dataclass(frozen=True)
class Assignment:
    """The best choices: the colour each joker joins, and the colours scored positive."""

    jokers: tuple[str, ...]
    positive: tuple[str, ...]


def colours_in_play(removed: str | None) -> tuple[str, ...]:
    return tuple(colour for colour in COLOURS if colour != removed)


# --- scoring -------------------------------------------------------------------------------------


def colour_points(count: int) -> int:
    """The table: 1 → 1 … 6 → 21, and 21 for more than 6 ("6-nál több kártyája")."""
    return COLOUR_POINTS[min(count, 6)] if count else 0


def colour_total(counts: Mapping[str, int]) -> tuple[int, tuple[str, ...]]:
    """Three colours positive, the rest negative: the three worth most are the best choice."""
    held = [colour for colour, count in counts.items() if count]
    positive = tuple(sorted(held, key=lambda colour: -colour_points(counts[colour]))[:POSITIVE_COLOURS])
    points = sum(colour_points(counts[c]) if c in positive else -colour_points(counts[c]) for c in held)
    return points, positive


def best_score(
    counts: Mapping[str, int], jokers: int, plus_twos: int, joker_rule: str = "held"
) -> tuple[int, Assignment]:
    """The highest score a player can make, and how: try every placing of the jokers.

    ``counts`` maps every colour in play to the player's cards of it (without jokers); with
    ``joker_rule`` "held" a joker joins a colour already held, with "any" any colour in ``counts``.
    Ties go to the first placing in colour order.
    """
    if not 0 <= jokers <= JOKERS:
        raise ValueError(f"there are only {JOKERS} jokers, not {jokers}")
    targets = [colour for colour, count in counts.items() if count or joker_rule == "any"]
    if jokers and not targets:
        raise ValueError("a joker needs a colour to join")
    best: tuple[int, Assignment] | None = None
    for placing in combinations_with_replacement(targets, jokers):
        final = dict(counts)
        for colour in placing:
            final[colour] += 1
        points, positive = colour_total(final)
        points += plus_twos * PLUS_TWO_POINTS
        if best is None or points > best[0]:
            best = (points, Assignment(jokers=placing, positive=positive))
    assert best is not None  # there is always at least the empty placing
    return best


def seat_lines(seat: int, counts: Mapping[str, int], plus_twos: int, assignment: Assignment) -> list[Line]:
    """Explain one player's best score: jokers, the positive colours, the negative ones, the "+2" cards."""
    final = dict(counts)
    lines = []
    for colour in assignment.jokers:
        final[colour] += 1
        lines.append(line("coloretto.joker", "coloretto-jokers", player=seat, colour=colour))
    negative = [colour for colour, count in final.items() if count and colour not in assignment.positive]
    for sign, msg, chosen in (
        (1, "coloretto.colour_plus", assignment.positive),
        (-1, "coloretto.colour_minus", negative),
    ):
        for colour in chosen:
            value = colour_points(final[colour])
            lines.append(
                line(
                    msg,
                    "coloretto-scoring",
                    player=seat,
                    points=sign * value,
                    colour=colour,
                    count=final[colour],
                    value=value,
                )
            )
    if plus_twos:
        lines.append(
            line(
                "coloretto.plus_twos",
                "coloretto-scoring",
                player=seat,
                points=plus_twos * PLUS_TWO_POINTS,
                count=plus_twos,
            )
        )
    return lines


def score_round(facts: Facts, *, players: int, options: Mapping[str, Any], state: MatchState) -> RoundResult:
    """Every player's best score (see :func:`best_score`) with its explanation."""
    scores = []
    lines: list[Line] = [] if facts.entry is None else [line(f"coloretto.entry_{facts.entry}", "coloretto-round")]
    for seat in range(players):
        counts = facts.counts(seat)
        points, assignment = best_score(counts, facts.jokers[seat], facts.plus_twos[seat], options["joker_rule"])
        scores.append(points)
        lines.extend(seat_lines(seat, counts, facts.plus_twos[seat], assignment))
    return RoundResult(scores=tuple(scores), lines=tuple(lines))


# --- parsing -------------------------------------------------------------------------------------


def _counts(c: Complaints, data: Mapping[str, Any], name: str, players: int, high: int) -> tuple[int, ...]:
    """A per-seat list of counts (omitted: all zeros), complaining with paths like ``green.2``."""
    value = data.get(name, [0] * players)
    if not isinstance(value, list) or len(value) != players:
        c.add(name, "coloretto.list", "coloretto-round", players=players)
        return (0,) * players
    out = []
    for seat, item in enumerate(value):
        ok = isinstance(item, int) and not isinstance(item, bool) and 0 <= item <= high
        c.check(ok, f"{name}.{seat}", "coloretto.count", "coloretto-round", high=high)
        out.append(item if ok else 0)
    return tuple(out)


def facts_parse(data: Mapping[str, Any], *, players: int, options: Mapping[str, Any]) -> Facts:
    """Shape-check the cards per seat (colours, jokers, "+2") and the removed colour."""
    c = Complaints(MESSAGES, PARAMS)
    known = {f.name for f in fields(Facts)}
    for name in data:
        if name not in known:
            c.add(str(name), "coloretto.unknown_field", "coloretto-round", name=str(name))
    lists = {colour: _counts(c, data, colour, players, CARDS_PER_COLOUR) for colour in COLOURS}
    jokers = _counts(c, data, "jokers", players, JOKERS)
    plus_twos = _counts(c, data, "plus_twos", players, PLUS_TWOS)
    removed = data.get("removed_colour")
    c.check(
        removed is None or removed in COLOURS,
        "removed_colour",
        "coloretto.colour",
        "coloretto-players",
        choices=", ".join(COLOURS),
    )
    entry = data.get("entry")
    c.check(entry is None or entry in ENTRIES, "entry", "coloretto.entry", "coloretto-round", entry=str(entry))
    c.raise_if_any()
    return Facts(**lists, jokers=jokers, plus_twos=plus_twos, removed_colour=removed, entry=entry)


# --- validation ----------------------------------------------------------------------------------


def _validate_removed(c: Complaints, facts: Facts, players: int) -> None:
    """With 3 players one colour (all 9 cards) leaves the game, and only then."""
    removed = facts.removed_colour
    if players == 3:
        c.check(removed is not None, "removed_colour", "coloretto.removed_needed", "coloretto-players")
    else:
        c.check(removed is None, "removed_colour", "coloretto.removed_unused", "coloretto-players")
    if removed is not None:
        for seat, count in enumerate(getattr(facts, removed)):
            c.check(count == 0, f"{removed}.{seat}", "coloretto.removed_cards", "coloretto-players", colour=removed)


def _validate_start(c: Complaints, facts: Facts, players: int) -> None:
    """Each player started with one card of a colour nobody else had, and keeps it."""
    held = [{colour for colour, count in facts.counts(seat).items() if count} for seat in range(players)]
    for seat in range(players):
        c.check(bool(held[seat]), "", "coloretto.no_colour", "coloretto-players", seat=seat)
    if all(held):
        distinct = any(
            all(colour in held[seat] for seat, colour in enumerate(pick))
            for pick in permutations(colours_in_play(facts.removed_colour), players)
        )
        c.check(distinct, "", "coloretto.start_colours", "coloretto-players")


def undrawn_at_least(players: int) -> int:
    """Cards that stay undrawn at least: the 15 below the "last round" card less one last round's draws."""
    return max(UNDRAWN_BELOW_LAST_ROUND - ROW_CARDS * players, 0)


def validate(facts: Facts, *, players: int, options: Mapping[str, Any], state: MatchState) -> None:
    """Refuse games that cannot have happened (see the module docstring)."""
    c = Complaints(MESSAGES, PARAMS)
    games = int(options["games"])
    c.check(state.rounds_played < games, "", "coloretto.series_over", "coloretto-series", games=games)
    _validate_removed(c, facts, players)
    _validate_start(c, facts, players)
    for colour in COLOURS:
        total = sum(getattr(facts, colour))
        c.check(
            total <= CARDS_PER_COLOUR, colour, "coloretto.colour_total", "coloretto-players", colour=colour, total=total
        )
    jokers, plus_twos = sum(facts.jokers), sum(facts.plus_twos)
    c.check(jokers <= JOKERS, "jokers", "coloretto.jokers_total", "coloretto-players", total=jokers)
    c.check(plus_twos <= PLUS_TWOS, "plus_twos", "coloretto.plus_twos_total", "coloretto-players", total=plus_twos)
    deck = CARDS_PER_COLOUR * len(colours_in_play(facts.removed_colour)) + JOKERS + PLUS_TWOS
    taken = sum(sum(getattr(facts, colour)) for colour in COLOURS) + jokers + plus_twos
    low = deck - UNDRAWN_AT_MOST
    c.check(taken >= low, "", "coloretto.too_few", "coloretto-end", low=low, deck=deck, total=taken)
    undrawn = undrawn_at_least(players)
    high = deck - undrawn
    c.check(
        taken <= high, "", "coloretto.too_many", "coloretto-end", undrawn=undrawn, high=high, deck=deck, total=taken
    )
    c.raise_if_any()


# --- the series ----------------------------------------------------------------------------------


def match_state(
    history: Sequence[tuple[Facts, RoundResult]], *, players: int, options: Mapping[str, Any], deal: int | None = None
) -> MatchState:
    """Totals over the series, winners once it is over (ties share), the start moving left each game.

    Nobody deals in Coloretto: the book passes the start player's role to the left each game ("az előző
    kezdőjátékos baloldali szomszédja lesz a kezdőjátékos"), so the state names a start player and no dealer."""
    games = int(options["games"])
    state = fixed_rounds_state(
        history,
        players=players,
        rounds=games,
        starter=lambda position: position % players,
        dealer_after_end=True,
        extra={"games": games},
        deal=deal,
    )
    return replace(state, next_dealer=None)
