"""MÜ (Frank Nestel & Doris Matthäus), 4-6 players: scoring, round validation and match end.

Rulebook: ``seeds/mue-njet-wassticht-meinz.hu.txt`` (the Amigo box "MÜ & mehr"), section "MÜ": the
auction, chief and vice, Eklat ("Egyenlőség"), trumps, the chief's team, scoring ("Pontozás") and the end
of the game. The overview-card tables (targets and bonuses) are in :mod:`.mue_tables`, as ``RULES.md``
prints them. RULES.md's fix of the failure example applies: 20 + 9 = 29 points (not 33) meet only the
target of a bid of 2.

A round is either PLAYED (chief, bid, vice, both trumps, partner and everyone's triangles are recorded)
or an EKLAT (a tie for the most revealed cards: no play; if nobody bid at all, ``cards`` is 0 and nobody
scores). The dealer moves left after every round, Eklat rounds included.

Decisions where the digest names an ambiguity: the chief may name the same trump as the vice (accepted,
as RULES.md says); the bonus table is RULES.md's default (the "other number" column reaches 100), kept in
one constant (:data:`.mue_tables.BONUSES`) so it can be corrected.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import Complaints
from .mue_tables import (
    BONUS_COLUMNS,
    BONUS_TOP_BID,
    BONUSES,
    COLOURS,
    DECK_TRIANGLES,
    DOUBLE_NUMBERS,
    EKLAT_LAST_PER_CARD,
    EKLAT_TIED_PER_CARD,
    FAILURE_CHIEF_PER_CARD,
    FAILURE_OPPONENT_PER_CARD,
    HAND_SIZE,
    MESSAGES,
    NUMBERS,
    level_reached,
    target_for,
)
from .mue_tables import EXAMPLE as EXAMPLE  # the module contract's texts live beside the tables
from .mue_tables import FACTS_SCHEMA as FACTS_SCHEMA
from .mue_tables import SECTIONS as SECTIONS
from .types import N_, Line, MatchState, OptionSpec, RoundResult, best_seats, deal_index, line, totals_of

KEY = "mue"
NAME = "MÜ"
VERSION = "1"
MIN_PLAYERS = 4
MAX_PLAYERS = 6
WINNERS_BY_TOTALS = True  # the highest total wins, ties share (match_state)

DEFAULT_TARGET = 200  # "200 points is about an hour's play"

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        key="target",
        kind="int",
        default=DEFAULT_TARGET,
        label=N_("Play until someone reaches this total"),
        rule="mue-end",
        minimum=1,
        maximum=10000,
    ),
)

OUTCOMES = ("played", "eklat")
TRUMP_KINDS = ("colour", "number", "none")


# --- the round facts ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Trump:
    """A named trump: a colour (``value`` a colour id), a number (``value`` 0-9) or none."""

    kind: str
    value: str | int | None = None


NO_TRUMP = Trump("none")


@dataclass(frozen=True)
class PlayedRound:
    """A played round: the auction's outcome and everyone's triangles (indexed by seat)."""

    outcome: str  # "played"
    chief: int
    bid: int  # cards revealed by the chief
    vice: int | None
    vice_trump: Trump
    chief_trump: Trump
    partner: int
    triangles: tuple[int, ...]


@dataclass(frozen=True)
class Eklat:
    """A tie for the most revealed cards: no play. ``cards`` 0 means nobody bid."""

    outcome: str  # "eklat"
    tied: tuple[int, ...]
    last_tied: int | None
    cards: int


Facts = PlayedRound | Eklat

_PLAYED_FIELDS = ("outcome", "chief", "bid", "vice", "vice_trump", "chief_trump", "partner", "triangles")
_EKLAT_FIELDS = ("outcome", "tied", "last_tied", "cards")


# --- parsing ---------------------------------------------------------------------------------------------


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _players_check(players: int) -> None:
    """MÜ is for 4 to 6 players."""
    c = Complaints(MESSAGES)
    c.check(MIN_PLAYERS <= players <= MAX_PLAYERS, "players", "mue.players", "mue-players", players=players)
    c.raise_if_any()


def _unknown(c: Complaints, data: Mapping[str, Any], fields: Sequence[str], prefix: str = "") -> None:
    for key in data:
        if key not in fields:
            c.add(f"{prefix}{key}", "mue.field_unknown", "mue-round", key=str(key))


def _int(c: Complaints, data: Mapping[str, Any], key: str, *, rule: str) -> int:
    if key not in data:
        c.add(key, "mue.field_required", rule)
        return 0
    if not _is_int(data[key]):
        c.add(key, "mue.field_int", rule)
        return 0
    return int(data[key])


def _seat_value(c: Complaints, value: Any, field: str, players: int, *, rule: str) -> int | None:
    if not (_is_int(value) and 0 <= value < players):
        c.add(field, "mue.field_seat", rule, high=players - 1)
        return None
    return int(value)


def _seat(c: Complaints, data: Mapping[str, Any], key: str, players: int, *, rule: str, optional: bool) -> int | None:
    if data.get(key) is None:
        if not optional:
            c.add(key, "mue.field_required", rule)
        return None
    return _seat_value(c, data[key], key, players, rule=rule)


def _seat_list(c: Complaints, data: Mapping[str, Any], key: str, players: int, *, rule: str) -> tuple[int, ...]:
    value = data.get(key)
    if not isinstance(value, (list, tuple)):
        c.add(key, "mue.field_list", rule)
        return ()
    seats = (_seat_value(c, item, f"{key}.{i}", players, rule=rule) for i, item in enumerate(value))
    return tuple(seat for seat in seats if seat is not None)


def _per_seat(c: Complaints, data: Mapping[str, Any], key: str, players: int, *, rule: str) -> tuple[int, ...]:
    if key not in data:
        c.add(key, "mue.field_required", rule)
        return ()
    value = data[key]
    if not isinstance(value, (list, tuple)) or len(value) != players:
        c.add(key, "mue.field_seats", rule, players=players)
        return ()
    for i, item in enumerate(value):
        c.check(_is_int(item), f"{key}.{i}", "mue.field_int", rule)
    return tuple(value)


def _trump(c: Complaints, data: Mapping[str, Any], key: str, *, optional: bool) -> Trump:
    """``null`` or ``{"kind": "none"}`` is no trump; a colour trump names a colour id, a number trump 0-9."""
    if key not in data and not optional:
        c.add(key, "mue.field_required", "mue-trumps")
        return NO_TRUMP
    value = data.get(key)
    if value is None:
        return NO_TRUMP
    if not isinstance(value, Mapping):
        c.add(key, "mue.field_trump", "mue-trumps")
        return NO_TRUMP
    _unknown(c, value, ("kind", "value"), prefix=f"{key}.")
    kind, named = value.get("kind"), value.get("value")
    if not (isinstance(kind, str) and kind in TRUMP_KINDS):
        c.add(f"{key}.kind", "mue.field_choice", "mue-trumps", choices=", ".join(TRUMP_KINDS))
        return NO_TRUMP
    if kind == "colour":
        c.check(isinstance(named, str), f"{key}.value", "mue.field_colour", "mue-trumps")
    elif kind == "number":
        c.check(_is_int(named), f"{key}.value", "mue.field_int", "mue-trumps")
    else:
        c.check(named is None, f"{key}.value", "mue.field_no_value", "mue-trumps")
    return Trump(kind, named)


def _played_parse(c: Complaints, data: Mapping[str, Any], players: int) -> PlayedRound:
    _unknown(c, data, _PLAYED_FIELDS)
    return PlayedRound(
        outcome="played",
        chief=_seat(c, data, "chief", players, rule="mue-chief", optional=False) or 0,
        bid=_int(c, data, "bid", rule="mue-bid"),
        vice=_seat(c, data, "vice", players, rule="mue-vice", optional=True),
        vice_trump=_trump(c, data, "vice_trump", optional=True),
        chief_trump=_trump(c, data, "chief_trump", optional=False),
        partner=_seat(c, data, "partner", players, rule="mue-partner", optional=False) or 0,
        triangles=_per_seat(c, data, "triangles", players, rule="mue-triangles"),
    )


def _eklat_parse(c: Complaints, data: Mapping[str, Any], players: int) -> Eklat:
    _unknown(c, data, _EKLAT_FIELDS)
    return Eklat(
        outcome="eklat",
        tied=_seat_list(c, data, "tied", players, rule="mue-eklat"),
        last_tied=_seat(c, data, "last_tied", players, rule="mue-eklat", optional=True),
        cards=_int(c, data, "cards", rule="mue-eklat"),
    )


def facts_parse(data: Mapping[str, Any], *, players: int, options: Mapping[str, Any]) -> Facts:
    """Check the shape of submitted facts and build :class:`PlayedRound` or :class:`Eklat`."""
    _players_check(players)
    c = Complaints(MESSAGES)
    outcome = data.get("outcome") if isinstance(data, Mapping) else None
    if not isinstance(data, Mapping):
        c.add("facts", "mue.facts_object", "mue-round")
    elif not (isinstance(outcome, str) and outcome in OUTCOMES):
        c.add("outcome", "mue.field_choice", "mue-round", choices=", ".join(OUTCOMES))
    c.raise_if_any()
    facts: Facts = _played_parse(c, data, players) if outcome == "played" else _eklat_parse(c, data, players)
    c.raise_if_any()
    return facts


# --- auction helpers (pure; the UI may use them) ---------------------------------------------------------


def chief_of(bids: Sequence[Sequence[int]]) -> int | None:
    """The chief: the one player with strictly the most revealed cards; ``None`` on a tie (Eklat)."""
    most = max((len(bid) for bid in bids), default=0)
    leaders = [seat for seat, bid in enumerate(bids) if len(bid) == most]
    return leaders[0] if most > 0 and len(leaders) == 1 else None


def vice_of(bids: Sequence[Sequence[int]]) -> int | None:
    """The vice: second most revealed cards; a tie goes to the highest card, then the next highest, and
    so on. ``None`` if still tied, if only the chief bid, or if there is no chief.

    ``bids`` holds each seat's revealed card values (empty for a player who revealed nothing).
    """
    chief = chief_of(bids)
    others = [seat for seat, bid in enumerate(bids) if seat != chief and bid]
    if chief is None or not others:
        return None
    second = max(len(bids[seat]) for seat in others)
    ranked = {seat: sorted(bids[seat], reverse=True) for seat in others if len(bids[seat]) == second}
    best = max(ranked.values())
    leaders = [seat for seat, values in ranked.items() if values == best]
    return leaders[0] if len(leaders) == 1 else None


def trump_choices(revealed: Sequence[tuple[str, int]]) -> tuple[Trump, ...]:
    """The trumps a player may name: a colour or a number among their own revealed cards
    (the rulebook's Márk may choose green, blue, 1, 7 or 8)."""
    colours = [colour for colour in COLOURS if any(card[0] == colour for card in revealed)]
    numbers = sorted({card[1] for card in revealed})
    return tuple(Trump("colour", colour) for colour in colours) + tuple(Trump("number", n) for n in numbers)


# --- the rules -------------------------------------------------------------------------------------------


def bonus_column(trump: Trump) -> int:
    """Bonus column by the CHIEF's trump: colour · number 1 or 7 · other number · no trump."""
    if trump.kind == "colour":
        return BONUS_COLUMNS.index("colour")
    if trump.kind == "number":
        return BONUS_COLUMNS.index("one_or_seven" if trump.value in DOUBLE_NUMBERS else "other_number")
    return BONUS_COLUMNS.index("no_trump")


def bonus_for(bid: int, chief_trump: Trump) -> int:
    """Bonus for chief and partner each when the target is met (the overview card's bonus table)."""
    return BONUSES[min(bid, BONUS_TOP_BID)][bonus_column(chief_trump)]


def _check_trump(c: Complaints, trump: Trump, field: str) -> None:
    """A trump names one of the five colours or a card value 0-9."""
    if trump.kind == "colour":
        c.check(trump.value in COLOURS, f"{field}.value", "mue.trump_colour", "mue-trumps", colours=", ".join(COLOURS))
    elif trump.kind == "number":
        c.check(trump.value in NUMBERS, f"{field}.value", "mue.trump_number", "mue-trumps")


def _check_roles(c: Complaints, facts: PlayedRound, players: int) -> None:
    """Bid within the hand; chief, vice and partner are three different players; the vice needs a bid."""
    hand = HAND_SIZE[players]
    c.check(1 <= facts.bid <= hand, "bid", "mue.bid_range", "mue-bid", players=players, hand=hand)
    if facts.vice is not None:
        c.check(facts.vice != facts.chief, "vice", "mue.vice_is_chief", "mue-vice")
        c.check(facts.bid >= 2, "vice", "mue.vice_needs_bid", "mue-vice")
    c.check(facts.partner != facts.chief, "partner", "mue.partner_is_chief", "mue-partner")
    c.check(facts.partner != facts.vice, "partner", "mue.partner_is_vice", "mue-partner")


def _check_trumps(c: Complaints, facts: PlayedRound) -> None:
    """The vice MUST name a trump (and only a vice names one); the chief may name none."""
    if facts.vice is None:
        c.check(facts.vice_trump == NO_TRUMP, "vice_trump", "mue.vice_trump_without_vice", "mue-trumps")
    else:
        c.check(facts.vice_trump != NO_TRUMP, "vice_trump", "mue.vice_trump_required", "mue-trumps")
    _check_trump(c, facts.vice_trump, "vice_trump")
    _check_trump(c, facts.chief_trump, "chief_trump")


def _check_triangles(c: Complaints, facts: PlayedRound) -> None:
    """Each player's triangles lie within the deck's 60, and all of them add up to 60."""
    for seat, triangles in enumerate(facts.triangles):
        c.check(0 <= triangles <= DECK_TRIANGLES, f"triangles.{seat}", "mue.triangles_range", "mue-triangles")
    total = sum(facts.triangles)
    c.check(total == DECK_TRIANGLES, "triangles", "mue.triangles_sum", "mue-triangles", total=total)


def _check_eklat(c: Complaints, facts: Eklat, players: int) -> None:
    """Two or more tied players, one of whom tied last; nobody bid = cards 0 and nobody tied."""
    hand = HAND_SIZE[players]
    c.check(0 <= facts.cards <= hand, "cards", "mue.eklat_cards", "mue-eklat", hand=hand)
    if facts.cards == 0:
        c.check(not facts.tied, "tied", "mue.no_bid_tied", "mue-eklat")
        c.check(facts.last_tied is None, "last_tied", "mue.no_bid_last", "mue-eklat")
        return
    c.check(len(set(facts.tied)) == len(facts.tied), "tied", "mue.tied_repeated", "mue-eklat")
    c.check(len(set(facts.tied)) >= 2, "tied", "mue.tied_two", "mue-eklat")
    if facts.last_tied is None:
        c.add("last_tied", "mue.last_tied_required", "mue-eklat")
    else:
        c.check(facts.last_tied in facts.tied, "last_tied", "mue.last_tied_among", "mue-eklat")


def validate(facts: Facts, *, players: int, options: Mapping[str, Any], state: MatchState) -> None:
    """Refuse rounds the MÜ rules make impossible, naming every broken rule at once."""
    _players_check(players)
    c = Complaints(MESSAGES)
    c.check(not state.finished, "", "mue.match_over", "mue-end", target=_target(options))
    if isinstance(facts, Eklat):
        _check_eklat(c, facts, players)
    else:
        _check_roles(c, facts, players)
        _check_trumps(c, facts)
        _check_triangles(c, facts)
    c.raise_if_any()


# --- scoring ---------------------------------------------------------------------------------------------


def _bonus_line(facts: PlayedRound, seat: int, points: int) -> Line:
    """The bonus line names the kind of the chief's trump, which picks the bonus column."""
    trump = facts.chief_trump
    if trump.kind == "number" and isinstance(trump.value, int):
        return line(
            "mue.bonus_number", "mue-bonus", player=seat, points=points, bid=facts.bid, bonus=points, number=trump.value
        )
    msg = "mue.bonus_colour" if trump.kind == "colour" else "mue.bonus_no_trump"
    return line(msg, "mue-bonus", player=seat, points=points, bid=facts.bid, bonus=points)


def _failure_line(facts: PlayedRound, seat: int, shortfall: int) -> Line:
    if seat == facts.chief:
        points = FAILURE_CHIEF_PER_CARD * shortfall
        return line("mue.chief_missed", "mue-failure", player=seat, points=points, shortfall=shortfall, total=points)
    if seat == facts.partner:
        return line("mue.partner_missed", "mue-failure", player=seat, points=0)
    points = FAILURE_OPPONENT_PER_CARD * shortfall
    return line("mue.opponent_gains", "mue-failure", player=seat, points=points, shortfall=shortfall, total=points)


def _played_score(facts: PlayedRound, players: int) -> RoundResult:
    """Everyone scores their own triangles; then the bonus for chief and partner, or the failure."""
    made = facts.triangles[facts.chief] + facts.triangles[facts.partner]
    target = target_for(players, facts.bid)
    success = made >= target
    lines = [line("mue.made" if success else "mue.missed", "mue-target", bid=facts.bid, target=target, made=made)]
    level = level_reached(players, made)
    shortfall = facts.bid - level
    if not success:
        msg = "mue.level" if level else "mue.level_none"
        lines.append(line(msg, "mue-failure", made=made, level=level, bid=facts.bid, shortfall=shortfall))
    bonus = bonus_for(facts.bid, facts.chief_trump)
    for seat, triangles in enumerate(facts.triangles):
        lines.append(line("mue.triangles", "mue-triangles", player=seat, points=triangles, triangles=triangles))
        if not success:
            lines.append(_failure_line(facts, seat, shortfall))
        elif seat in (facts.chief, facts.partner):
            lines.append(_bonus_line(facts, seat, bonus))
    return RoundResult(scores=_sum_lines(lines, players), lines=tuple(lines))


def _eklat_score(facts: Eklat, players: int) -> RoundResult:
    """Tied players +5 per revealed card, the one who tied last −10 per card; nobody bid: no score."""
    if facts.cards == 0:
        return RoundResult(scores=(0,) * players, lines=(line("mue.no_bid", "mue-eklat"),))
    lines = [line("mue.eklat", "mue-eklat", count=len(facts.tied), cards=facts.cards)]
    for seat in facts.tied:
        last = seat == facts.last_tied
        per_card = EKLAT_LAST_PER_CARD if last else EKLAT_TIED_PER_CARD
        points = per_card * facts.cards
        msg = "mue.eklat_last" if last else "mue.eklat_tied"
        lines.append(line(msg, "mue-eklat", player=seat, points=points, cards=facts.cards, total=points))
    return RoundResult(scores=_sum_lines(lines, players), lines=tuple(lines))


def _sum_lines(lines: Sequence[Line], players: int) -> tuple[int, ...]:
    scores = [0] * players
    for ln in lines:
        if ln.player is not None and ln.points is not None:
            scores[ln.player] += ln.points
    return tuple(scores)


def score_round(facts: Facts, *, players: int, options: Mapping[str, Any], state: MatchState) -> RoundResult:
    """The official formula (RULES.md "MÜ"), explained line by line."""
    if isinstance(facts, Eklat):
        return _eklat_score(facts, players)
    return _played_score(facts, players)


# --- the match -------------------------------------------------------------------------------------------


def _target(options: Mapping[str, Any]) -> int:
    return int(options.get("target", DEFAULT_TARGET))


def match_state(
    history: Sequence[tuple[Facts, RoundResult]], *, players: int, options: Mapping[str, Any], deal: int | None = None
) -> MatchState:
    """Play until someone reaches the agreed total; the match ends after that round and the highest
    total wins (ties share). The dealer moves left every round; the chief leads, so no fixed starter."""
    _players_check(players)
    target = _target(options)
    running = [0] * players
    finished = False
    for _, result in history:
        running = [total + points for total, points in zip(running, result.scores, strict=True)]
        finished = finished or max(running) >= target
    totals = totals_of([result for _, result in history], players)
    played = len(history)
    return MatchState(
        totals=totals,
        rounds_played=played,
        finished=finished,
        winners=best_seats(totals) if finished else (),
        next_dealer=None if finished else deal_index(played, deal) % players,
        target=target,
    )
