"""Hattrick Sticheln (4-7 players): what is recorded, how it is checked and scored.

Rulebook: ``seeds/sticheln.hu.txt``, section "Hattrick Sticheln" ("Ütések", "Passzolás", "Pontozás");
digest ``RULES.md`` § Sticheln, Hattrick.

After a round each player counts the face-up cards of each colour (red, blue, green) they took and the
face-down cards they laid when passing. Scoring ("Pontozás"): the colour with the most cards +1 per
card (on a tie the player picks one of the tied colours; the app proposes the first of them in the order
red, blue, green — the choice never changes the score), the other two colours −1 per card, each
face-down card −2. Every card but each player's last one is played, so over all players the face-up and
face-down cards add up to the deck minus one card per player.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .errors import Complaints
from .sticheln_deck import BLUE, GREEN, HATTRICK_COLOURS, RED, Deck
from .sticheln_facts import read_colour, read_count, read_keys, read_seats
from .types import N_, NP_, Line, RoundResult, Scalar, line

SEAT_KEYS: tuple[str, ...] = (RED, BLUE, GREEN, "face_down", "best")

BEST_POINTS = 1  # per card of the colour with the most cards
OTHER_POINTS = -1  # per card of each of the other two colours
FACE_DOWN_POINTS = -2  # per face-down card laid when passing

HATTRICK_MESSAGES: dict[str, str] = {
    "sticheln.hattrick_players": N_("Hattrick Sticheln is played by 4 to 7 players, not {players}."),
    "sticheln.hattrick_total": N_(
        "Every card but each player's last one is played: the face-up and face-down cards must come to "
        "{expected} with {players} players, not {total}."
    ),
    "sticheln.hattrick_colour_total": N_("There are only {size} {colour} cards; {count} are entered."),
    "sticheln.hattrick_face_down": N_(
        "A player lays at most one face-down card per double trick: at most {high} with {players} players, not {count}."
    ),
    "sticheln.hattrick_face_down_total": N_(
        "A player may pass only once two colours are in a double trick, so at most {high} face-down cards "
        "in all with {players} players; {count} are entered."
    ),
    "sticheln.hattrick_colour": N_("Hattrick uses only red, blue and green, not '{colour}'."),
    "sticheln.hattrick_best": N_("The colour scored +1 must be one with the most cards ({tied}); {colour} is not."),
    "sticheln.hattrick_best_line": NP_(
        "{count} {colour} card (the most) × +1 = {total}", "{count} {colour} cards (the most) × +1 = {total}"
    ),
    "sticheln.hattrick_other_line": NP_(
        "{count} {colour} card × −1 = {total}", "{count} {colour} cards × −1 = {total}"
    ),
    "sticheln.hattrick_face_down_line": NP_(
        "{count} face-down card × −2 = {total}", "{count} face-down cards × −2 = {total}"
    ),
    "sticheln.hattrick_tie_chosen": N_("{tied} tie for the most cards; the player scores {colour} as +1."),
    "sticheln.hattrick_tie_proposed": N_(
        "{tied} tie for the most cards; {colour} is scored as +1 (proposed: the choice does not change the score)."
    ),
}


def scored(msg: str, rule: str, *, player: int, points: int, **params: Scalar) -> Line:
    """A score line whose template shows its own points as ``{total}``."""
    return line(msg, rule, player=player, points=points, total=points, **params)


@dataclass(frozen=True)
class HattrickSeat:
    """One player's haul: face-up cards by colour, face-down cards, and the +1 colour chosen on a tie."""

    red: int
    blue: int
    green: int
    face_down: int = 0
    best: str | None = None

    def count(self, colour: str) -> int:
        return {RED: self.red, BLUE: self.blue, GREEN: self.green}[colour]

    @property
    def face_up(self) -> int:
        return self.red + self.blue + self.green


@dataclass(frozen=True)
class HattrickFacts:
    """A Hattrick round: one entry per seat."""

    seats: tuple[HattrickSeat, ...]


def hattrick_parse(c: Complaints, data: Mapping[Any, Any], *, players: int) -> HattrickFacts:
    seats: list[HattrickSeat] = []
    for field, entry in read_seats(c, data, players):
        read_keys(c, entry, SEAT_KEYS, field)
        best = entry.get("best")
        seats.append(
            HattrickSeat(
                red=read_count(c, entry.get(RED), f"{field}.{RED}"),
                blue=read_count(c, entry.get(BLUE), f"{field}.{BLUE}"),
                green=read_count(c, entry.get(GREEN), f"{field}.{GREEN}"),
                face_down=read_count(c, entry.get("face_down"), f"{field}.face_down", required=False),
                best=None if best is None else read_colour(c, best, f"{field}.best"),
            )
        )
    return HattrickFacts(seats=tuple(seats))


def tied_colours(seat: HattrickSeat) -> tuple[str, ...]:
    """The colours holding the most face-up cards, in the order red, blue, green."""
    most = max(seat.count(colour) for colour in HATTRICK_COLOURS)
    return tuple(colour for colour in HATTRICK_COLOURS if seat.count(colour) == most)


def best_colour(seat: HattrickSeat) -> str:
    """The player's choice where given (validated), else the first of the tied colours."""
    return seat.best if seat.best is not None else tied_colours(seat)[0]


def hattrick_validate(c: Complaints, facts: HattrickFacts, deck: Deck) -> None:
    """The counts must fit the Hattrick deck and the way double tricks are played."""
    players = deck.players
    rule = "sticheln-hattrick"
    for i, seat in enumerate(facts.seats):
        c.check(
            seat.face_down <= deck.tricks,
            f"seats.{i}.face_down",
            "sticheln.hattrick_face_down",
            rule,
            high=deck.tricks,
            players=players,
            count=seat.face_down,
        )
        if seat.best is not None:
            if seat.best not in HATTRICK_COLOURS:
                c.add(f"seats.{i}.best", "sticheln.hattrick_colour", rule, colour=seat.best)
            else:
                tied = tied_colours(seat)
                c.check(
                    seat.best in tied,
                    f"seats.{i}.best",
                    "sticheln.hattrick_best",
                    "sticheln-hattrick-scoring",
                    tied=", ".join(tied),
                    colour=seat.best,
                )
    size = len(deck.values)
    for colour in HATTRICK_COLOURS:
        count = sum(seat.count(colour) for seat in facts.seats)
        c.check(count <= size, "seats", "sticheln.hattrick_colour_total", rule, size=size, colour=colour, count=count)
    # a pass needs two colours already in the double trick: at least two face-up cards in each
    face_down = sum(seat.face_down for seat in facts.seats)
    high = (players - 2) * deck.tricks
    c.check(
        face_down <= high,
        "seats",
        "sticheln.hattrick_face_down_total",
        rule,
        high=high,
        players=players,
        count=face_down,
    )
    total = sum(seat.face_up + seat.face_down for seat in facts.seats)
    expected = deck.size - players
    c.check(
        total == expected,
        "seats",
        "sticheln.hattrick_total",
        rule,
        expected=expected,
        players=players,
        total=total,
    )


def hattrick_points(seat: HattrickSeat) -> int:
    """Most-cards colour +1 each, the other two −1 each, face-down cards −2 each ("Pontozás")."""
    best = best_colour(seat)
    others = seat.face_up - seat.count(best)
    return BEST_POINTS * seat.count(best) + OTHER_POINTS * others + FACE_DOWN_POINTS * seat.face_down


def hattrick_lines(player: int, seat: HattrickSeat) -> list[Line]:
    rule = "sticheln-hattrick-scoring"
    best = best_colour(seat)
    out: list[Line] = []
    tied = tied_colours(seat)
    if len(tied) > 1:
        msg = "sticheln.hattrick_tie_chosen" if seat.best is not None else "sticheln.hattrick_tie_proposed"
        out.append(line(msg, rule, player=player, tied=", ".join(tied), colour=best))
    for colour in HATTRICK_COLOURS:
        count = seat.count(colour)
        if colour == best:
            out.append(
                scored("sticheln.hattrick_best_line", rule, player=player, points=count, count=count, colour=colour)
            )
        else:
            points = OTHER_POINTS * count
            out.append(
                scored("sticheln.hattrick_other_line", rule, player=player, points=points, count=count, colour=colour)
            )
    points = FACE_DOWN_POINTS * seat.face_down
    out.append(scored("sticheln.hattrick_face_down_line", rule, player=player, points=points, count=seat.face_down))
    return out


def hattrick_score(facts: HattrickFacts) -> RoundResult:
    lines: list[Line] = []
    for player, seat in enumerate(facts.seats):
        lines.extend(hattrick_lines(player, seat))
    return RoundResult(scores=tuple(hattrick_points(seat) for seat in facts.seats), lines=tuple(lines))
