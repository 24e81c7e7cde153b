"""Hattrick Sticheln (4-7 players): what is recorded, how it is checked and scored.

Rulebook: ``seeds/sticheln.hu.txt``, section "Hattrick Sticheln" ("Ütések", "Passzolás", "Pontozás");
digest ``RULES.md`` § Sticheln, Hattrick.

After a round each player counts the face-up cards of each colour (red, blue, green) they took and the
face-down cards they laid when passing (the full entry). The quick entry takes what the paper pad needs: the
cards of the colour the player has most of (``most``), those of the other two colours together (``rest``) and the
face-down cards; it checks what those allow (the most-cards colour holds at least half the rest and fits the
colour's size, and the same totals as the full entry). Scoring ("Pontozás"): the colour with the most cards +1 per
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
from .sticheln_facts import read_colour, read_count, read_entry, read_keys, read_seats
from .types import N_, NP_, Line, RoundResult, Scalar, line

SEAT_KEYS: tuple[str, ...] = (RED, BLUE, GREEN, "face_down", "best")
TALLY_SEAT_KEYS: tuple[str, ...] = ("most", "rest", "face_down")

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
    "sticheln.hattrick_most": N_(
        "The colour with the most cards holds at least as many as each of the other two: {most} cannot be the "
        "most beside {rest} cards of the other two colours."
    ),
    "sticheln.hattrick_most_size": N_("A colour has only {size} cards; {count} are entered."),
    "sticheln.hattrick_most_line": NP_(
        "{count} card of the colour with the most × +1 = {total}",
        "{count} cards of the colour with the most × +1 = {total}",
    ),
    "sticheln.hattrick_rest_line": NP_(
        "{count} card of the other two colours × −1 = {total}", "{count} cards of the other two colours × −1 = {total}"
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
class HattrickTally:
    """One player's haul as the quick entry takes it: the most-cards colour's cards, the other two colours'
    cards together, and the face-down cards."""

    most: int
    rest: int
    face_down: int = 0

    @property
    def face_up(self) -> int:
        return self.most + self.rest


@dataclass(frozen=True)
class HattrickFacts:
    """A Hattrick round: one entry per seat, and which of the app's entries made it (None: not said)."""

    seats: tuple[HattrickSeat | HattrickTally, ...]
    entry: str | None = None


def hattrick_parse(c: Complaints, data: Mapping[Any, Any], *, players: int) -> HattrickFacts:
    seats: list[HattrickSeat | HattrickTally] = []
    made_by = read_entry(c, data)
    for field, entry in read_seats(c, data, players):
        if made_by == "quick" or "most" in entry or "rest" in entry:
            read_keys(c, entry, TALLY_SEAT_KEYS, field)
            seats.append(
                HattrickTally(
                    most=read_count(c, entry.get("most"), f"{field}.most"),
                    rest=read_count(c, entry.get("rest"), f"{field}.rest"),
                    face_down=read_count(c, entry.get("face_down"), f"{field}.face_down", required=False),
                )
            )
            continue
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
    return HattrickFacts(seats=tuple(seats), entry=made_by)


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
        if isinstance(seat, HattrickTally):
            _tally_rules(c, seat, f"seats.{i}", deck)
        elif seat.best is not None:
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
    for colour in HATTRICK_COLOURS:  # a lower bound with quick-entry seats among them (their colours are unknown)
        count = sum(seat.count(colour) for seat in facts.seats if isinstance(seat, HattrickSeat))
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


def _tally_rules(c: Complaints, seat: HattrickTally, field: str, deck: Deck) -> None:
    """The quick entry's counts: each of the other two colours holds at most as many as the most-cards colour,
    which holds at most the colour's cards."""
    c.check(
        seat.rest <= 2 * seat.most,
        f"{field}.most",
        "sticheln.hattrick_most",
        "sticheln-hattrick-scoring",
        most=seat.most,
        rest=seat.rest,
    )
    size = len(deck.values)
    c.check(
        seat.most <= size,
        f"{field}.most",
        "sticheln.hattrick_most_size",
        "sticheln-hattrick",
        size=size,
        count=seat.most,
    )


def hattrick_points(seat: HattrickSeat | HattrickTally) -> int:
    """Most-cards colour +1 each, the other two −1 each, face-down cards −2 each ("Pontozás")."""
    if isinstance(seat, HattrickTally):
        return BEST_POINTS * seat.most + OTHER_POINTS * seat.rest + FACE_DOWN_POINTS * seat.face_down
    best = best_colour(seat)
    others = seat.face_up - seat.count(best)
    return BEST_POINTS * seat.count(best) + OTHER_POINTS * others + FACE_DOWN_POINTS * seat.face_down


def _face_down_line(player: int, seat: HattrickSeat | HattrickTally) -> Line:
    points = FACE_DOWN_POINTS * seat.face_down
    return scored(
        "sticheln.hattrick_face_down_line",
        "sticheln-hattrick-scoring",
        player=player,
        points=points,
        count=seat.face_down,
    )


def hattrick_lines(player: int, seat: HattrickSeat | HattrickTally) -> list[Line]:
    rule = "sticheln-hattrick-scoring"
    if isinstance(seat, HattrickTally):
        most, rest = seat.most, seat.rest
        return [
            scored("sticheln.hattrick_most_line", rule, player=player, points=BEST_POINTS * most, count=most),
            scored("sticheln.hattrick_rest_line", rule, player=player, points=OTHER_POINTS * rest, count=rest),
            _face_down_line(player, seat),
        ]
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
    out.append(_face_down_line(player, seat))
    return out


def hattrick_score(facts: HattrickFacts) -> RoundResult:
    lines: list[Line] = []
    for player, seat in enumerate(facts.seats):
        lines.extend(hattrick_lines(player, seat))
    return RoundResult(scores=tuple(hattrick_points(seat) for seat in facts.seats), lines=tuple(lines))
