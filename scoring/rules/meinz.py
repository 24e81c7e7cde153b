"""Meinz (Günter Burkhardt), from the Amigo box "MÜ & mehr" — scoring and round checks.

Rulebook: ``seeds/mue-njet-wassticht-meinz.hu.txt``, section "Meinz" (Előkészületek, 2 ütés fejenként,
Pontozás, A játék vége, 3 játékos); digest: ``RULES.md`` "Meinz".

* 36 cards, 1–9 in four colours; each player is dealt 9 and lays one aside unseen, so 8 tricks of 4 cards are
  played.  Nobody may take more than two tricks, so with 8 tricks and four hands EVERY hand ends with exactly two
  tricks = 8 cards (the "2–5 players" header of the seed is a slip copied from NJET: only 4 players, and 3 with the
  monster, are described).
* Round score: each hand's card values are summed; the highest sum earns point card 3, the second 1, the third
  nothing (the 0 card), the lowest 2.  A hand that shares its place earns nothing, and the tied hands use up the
  places below them.
* 3 players: the monster is a fourth hand (9 cards played blind, one left over); its sum gets +12 and it ranks like a
  player.  Option ``monster``: ``"counts"`` (default, the rule) or ``"fixed"`` (the variant the rulebook suggests:
  the monster's sum is not counted, it always takes the 3 and the players compete for 1 / 0 / 2).
* 8 rounds, everyone (the monster too) leads twice; the most point-card points wins, ties share.

Facts: ``sums`` (one per seat), ``monster_sum`` (3 players: the monster's card values WITHOUT the +12), optionally
``cards`` / ``monster_cards`` (the eight card values of a hand, when the table wants them checked).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from .errors import Complaints
from .types import N_, Line, MatchState, OptionSpec, RoundResult, fixed_rounds_state, line

KEY = "meinz"
NAME = "Meinz"
VERSION = "1"
MIN_PLAYERS = 3
MAX_PLAYERS = 4
WINNERS_BY_TOTALS = True  # the highest total wins, ties share (match_state)

# --- tables, as the rulebook prints them -----------------------------------------------------------------------
VALUES = tuple(range(1, 10))  # card values 1..9
COPIES = 4  # each value once per colour, four colours
DECK = tuple(sorted(v for v in VALUES for _ in range(COPIES)))  # 36 cards, 180 points
HANDS = 4  # four players, or three players and the monster
TRICKS_PER_HAND = 2  # "2 ütés fejenként": at most two, and 8 tricks over 4 hands make it exactly two
CARDS_PER_TRICK = 4
CARDS_PER_HAND = TRICKS_PER_HAND * CARDS_PER_TRICK  # 8
POINT_CARDS = (3, 1, 0, 2)  # by place: highest sum, second, third, lowest
MONSTER_BONUS = 12  # added to the monster's sum
ROUNDS = 8  # each hand leads twice

MONSTER_COUNTS = "counts"
MONSTER_FIXED = "fixed"

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        key="monster",
        kind="choice",
        default=MONSTER_COUNTS,
        label=N_("3 players: the monster's sum (+12) is ranked, or the monster always takes the 3"),
        rule="meinz-monster",
        choices=(MONSTER_COUNTS, MONSTER_FIXED),
    ),
)

SECTIONS: dict[str, str] = {
    "meinz-players": N_("Players"),
    "meinz-options": N_("Options"),
    "meinz-round": N_("Entering a round"),
    "meinz-tricks": N_("Two tricks each"),
    "meinz-play": N_("Following and the lowest card"),
    "meinz-claims": N_("Claiming a trick: Meinz!"),
    "meinz-deck": N_("The cards"),
    "meinz-scoring": N_("Point cards"),
    "meinz-monster": N_("Three players: the monster"),
    "meinz-end": N_("End of the game"),
}

MESSAGES: dict[str, str] = {
    # shape of the submitted facts
    "meinz.field_unknown": N_("The round facts have no field called '{name}'."),
    "meinz.field_missing": N_("This field is required."),
    "meinz.list": N_("Give a list with one entry per player ({count})."),
    "meinz.int": N_("Give a whole number."),
    "meinz.cards_list": N_("Give the hand's card values as a list of whole numbers, or leave it empty."),
    "meinz.monster_only_three": N_("Only the 3-player game has a monster hand."),
    "meinz.monster_sum_missing": N_("With 3 players the monster's sum (without the +12) is needed to rank it."),
    # game rules
    "meinz.sum_range": N_(
        "Every hand ends with exactly two tricks, 8 cards of value 1 to 9, worth {low} to {high}; {sum} is impossible."
    ),
    "meinz.sums_total": N_(
        "The four sums add up to {total}, but the four hands hold {cards} of the 36 cards (four are laid aside), "
        "worth {low} to {high} together."
    ),
    "meinz.sums_together": N_(
        "Any {hands} hands together hold {cards} of the 36 cards, worth {low} to {high}; these add up to {total}."
    ),
    "meinz.cards_count": N_("Two tricks hold exactly {expected} cards, not {count}."),
    "meinz.card_value": N_("Card values run from 1 to 9, not {value}."),
    "meinz.cards_sum": N_("These cards add up to {total}, but the hand's sum says {sum}."),
    "meinz.cards_copies": N_("The deck has only {copies} cards of value {value}, but {count} were entered."),
    "meinz.match_over": N_("The match is over: all {rounds} rounds have been played."),
    # explanation
    "meinz.place": N_("Sum {sum}: place {place} → point card {card}."),
    "meinz.place_shared": N_(
        "Sum {sum}: place {place} shared with {others} more → nothing (a shared place earns no card)."
    ),
    "meinz.monster": N_("Monster: {raw} + {bonus} = {sum}: place {place} (its point card goes to nobody)."),
    "meinz.monster_shared": N_("Monster: {raw} + {bonus} = {sum}: place {place}, shared."),
    "meinz.monster_fixed": N_("Monster (variant): always takes point card 3; the players compete for 1, 0 and 2."),
}

FACTS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "title": "Meinz round",
    "description": "The card values in each hand's two tricks, summed (card values 1-9 count at face value).",
    "required": ["sums"],
    "additionalProperties": False,
    "properties": {
        "sums": {
            "type": "array",
            "description": "Per seat: the sum of the card values in that player's two tricks (12 to 68).",
            "items": {"type": "integer", "minimum": 12, "maximum": 68},
        },
        "monster_sum": {
            "type": ["integer", "null"],
            "description": "3 players only: the sum of the monster's two tricks WITHOUT the +12 bonus "
            "(required unless the option monster is 'fixed').",
            "minimum": 12,
            "maximum": 68,
        },
        "cards": {
            "type": ["array", "null"],
            "description": "Optional, per seat: the 8 card values in that player's tricks (null = not entered); "
            "checked against the sums.",
            "items": {
                "type": ["array", "null"],
                "items": {"type": "integer", "minimum": 1, "maximum": 9},
                "minItems": 8,
                "maxItems": 8,
            },
        },
        "monster_cards": {
            "type": ["array", "null"],
            "description": "Optional, 3 players only: the 8 card values in the monster's tricks.",
            "items": {"type": "integer", "minimum": 1, "maximum": 9},
            "minItems": 8,
            "maxItems": 8,
        },
    },
}

EXAMPLE: dict[str, Any] = {"players": 4, "options": {}, "facts": {"sums": [51, 38, 37, 31]}}


@dataclass(frozen=True)
class MeinzFacts:
    """One round: every seat's sum, the monster's raw sum (3 players), optional card lists."""

    sums: tuple[int, ...]
    monster_sum: int | None = None
    cards: tuple[tuple[int, ...] | None, ...] | None = None
    monster_cards: tuple[int, ...] | None = None


Facts = MeinzFacts

_FIELDS = ("sums", "monster_sum", "cards", "monster_cards")


# --- parsing ---------------------------------------------------------------------------------------------------
def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _int_list(value: Any, field: str, c: Complaints, *, count: int) -> tuple[int, ...] | None:
    if not isinstance(value, list) or len(value) != count:
        c.add(field, "meinz.list", "meinz-round", count=count)
        return None
    bad = [i for i, v in enumerate(value) if not _is_int(v)]
    for i in bad:
        c.add(f"{field}.{i}", "meinz.int", "meinz-round")
    return None if bad else tuple(value)


def _card_list(value: Any, field: str, c: Complaints) -> tuple[int, ...] | None:
    if value is None:
        return None
    if not isinstance(value, list) or not all(_is_int(v) for v in value):
        c.add(field, "meinz.cards_list", "meinz-round")
        return None
    return tuple(value)


def facts_parse(data: Mapping[str, Any], *, players: int, options: Mapping[str, Any]) -> MeinzFacts:
    """Check the shape of the submitted facts (types and list lengths); the rules come in :func:`validate`."""
    c = Complaints(MESSAGES)
    for name in data:
        c.check(name in _FIELDS, str(name), "meinz.field_unknown", "meinz-round", name=str(name))
    sums: tuple[int, ...] | None = None
    if "sums" not in data:
        c.add("sums", "meinz.field_missing", "meinz-round")
    else:
        sums = _int_list(data["sums"], "sums", c, count=players)
    monster_sum = data.get("monster_sum")
    monster_cards_raw = data.get("monster_cards")
    if players == HANDS:
        c.check(monster_sum is None, "monster_sum", "meinz.monster_only_three", "meinz-monster")
        c.check(monster_cards_raw is None, "monster_cards", "meinz.monster_only_three", "meinz-monster")
    elif monster_sum is None:
        c.check(options.get("monster") == MONSTER_FIXED, "monster_sum", "meinz.monster_sum_missing", "meinz-monster")
    else:
        c.check(_is_int(monster_sum), "monster_sum", "meinz.int", "meinz-round")
    monster_cards = _card_list(monster_cards_raw, "monster_cards", c)
    cards: tuple[tuple[int, ...] | None, ...] | None = None
    cards_raw = data.get("cards")
    if cards_raw is not None:
        if isinstance(cards_raw, list) and len(cards_raw) == players:
            cards = tuple(_card_list(hand, f"cards.{seat}", c) for seat, hand in enumerate(cards_raw))
        else:
            c.add("cards", "meinz.list", "meinz-round", count=players)
    c.raise_if_any()
    assert sums is not None  # a missing or malformed list was reported above
    return MeinzFacts(sums=sums, monster_sum=monster_sum, cards=cards, monster_cards=monster_cards)


# --- validation ------------------------------------------------------------------------------------------------
def hand_sums(facts: MeinzFacts) -> tuple[int, ...]:
    """The raw sums of all hands that were entered (the players', then the monster's)."""
    return facts.sums if facts.monster_sum is None else (*facts.sums, facts.monster_sum)


def together_bounds(hands: int) -> tuple[int, int]:
    """What ``hands`` hands of 8 cards can hold together: the lowest and highest ``8 × hands`` cards of the deck.

    With all four hands this is 180 minus the four cards laid aside (four 1s … four 9s): 144 to 176.
    """
    cards = CARDS_PER_HAND * hands
    return sum(DECK[:cards]), sum(DECK[-cards:])


def _check_sums(facts: MeinzFacts, c: Complaints) -> None:
    low, high = together_bounds(1)
    for seat, value in enumerate(facts.sums):
        c.check(low <= value <= high, f"sums.{seat}", "meinz.sum_range", "meinz-tricks", low=low, high=high, sum=value)
    if facts.monster_sum is not None:
        value = facts.monster_sum
        c.check(low <= value <= high, "monster_sum", "meinz.sum_range", "meinz-tricks", low=low, high=high, sum=value)
    ordered = sorted(hand_sums(facts))
    cards = CARDS_PER_HAND * HANDS
    low, high = together_bounds(HANDS)
    if len(ordered) == HANDS and not low <= sum(ordered) <= high:
        # what is wrong, in one sentence: the four sums themselves (smaller groups would only repeat it)
        c.add("sums", "meinz.sums_total", "meinz-deck", cards=cards, low=low, high=high, total=sum(ordered))
        return
    for hands in range(2, min(len(ordered), HANDS - 1) + 1):
        # if the k lowest and the k highest sums fit, every group of k hands fits; the first misfit is named
        low, high = together_bounds(hands)
        for total in (sum(ordered[:hands]), sum(ordered[-hands:])):
            if not low <= total <= high:
                c.add(
                    "sums",
                    "meinz.sums_together",
                    "meinz-deck",
                    hands=hands,
                    cards=CARDS_PER_HAND * hands,
                    low=low,
                    high=high,
                    total=total,
                )
                return


def _check_hand(hand: tuple[int, ...], total: int | None, field: str, c: Complaints) -> None:
    c.check(
        len(hand) == CARDS_PER_HAND,
        field,
        "meinz.cards_count",
        "meinz-tricks",
        expected=CARDS_PER_HAND,
        count=len(hand),
    )
    for i, value in enumerate(hand):
        c.check(value in VALUES, f"{field}.{i}", "meinz.card_value", "meinz-deck", value=value)
    if total is not None:
        c.check(sum(hand) == total, field, "meinz.cards_sum", "meinz-scoring", total=sum(hand), sum=total)


def _check_cards(facts: MeinzFacts, c: Complaints) -> None:
    entered: list[tuple[int, ...]] = []
    for seat, hand in enumerate(facts.cards or ()):
        if hand is not None:
            _check_hand(hand, facts.sums[seat], f"cards.{seat}", c)
            entered.append(hand)
    if facts.monster_cards is not None:
        _check_hand(facts.monster_cards, facts.monster_sum, "monster_cards", c)
        entered.append(facts.monster_cards)
    counts = Counter(v for hand in entered for v in hand if v in VALUES)
    for value, count in sorted(counts.items()):
        c.check(count <= COPIES, "cards", "meinz.cards_copies", "meinz-deck", copies=COPIES, value=value, count=count)


def validate(facts: MeinzFacts, *, players: int, options: Mapping[str, Any], state: MatchState) -> None:
    """Refuse sums no real round can produce (two tricks each; the deck's 36 cards) and rounds after the end."""
    c = Complaints(MESSAGES)
    c.check(not state.finished, "", "meinz.match_over", "meinz-end", rounds=ROUNDS)
    _check_sums(facts, c)
    _check_cards(facts, c)
    c.raise_if_any()


# --- scoring ---------------------------------------------------------------------------------------------------
def place_of(value: int, field: Sequence[int], *, first: int = 1) -> int:
    """Competition place: 1 + the number of sums strictly higher (tied hands use up the places below them)."""
    return first + sum(1 for other in field if other > value)


def point_card(place: int, shared: bool) -> int:
    """The point card for a place; a shared place earns nothing ("Egyenlőségnél az érintettek nem kapnak semmit")."""
    return 0 if shared else POINT_CARDS[place - 1]


def _player_line(seat: int, value: int, field: Sequence[int], first: int) -> Line:
    place = place_of(value, field, first=first)
    others = field.count(value) - 1
    card = point_card(place, others > 0)
    if others:
        return line(
            "meinz.place_shared", "meinz-scoring", player=seat, points=card, sum=value, place=place, others=others
        )
    return line("meinz.place", "meinz-scoring", player=seat, points=card, sum=value, place=place, card=card)


def score_round(facts: MeinzFacts, *, players: int, options: Mapping[str, Any], state: MatchState) -> RoundResult:
    """Hand out the point cards 3 / 1 / 0 / 2 by sum, shared places earning nothing."""
    lines: list[Line] = []
    field = list(facts.sums)
    first = 1
    if players < HANDS and options.get("monster") == MONSTER_FIXED:
        lines.append(line("meinz.monster_fixed", "meinz-monster"))
        first = 2  # the monster holds the first place
    elif facts.monster_sum is not None:
        monster = facts.monster_sum + MONSTER_BONUS
        field.append(monster)
        place = place_of(monster, field)
        msg = "meinz.monster_shared" if field.count(monster) > 1 else "meinz.monster"
        lines.append(line(msg, "meinz-monster", raw=facts.monster_sum, bonus=MONSTER_BONUS, sum=monster, place=place))
    player_lines = [_player_line(seat, value, field, first) for seat, value in enumerate(facts.sums)]
    scores = tuple(ln.points or 0 for ln in player_lines)
    return RoundResult(scores=scores, lines=(*lines, *player_lines))


# --- the match -------------------------------------------------------------------------------------------------
def starter_of(round_index: int, *, players: int) -> int | None:
    """Who leads round ``round_index`` (0-based): the dealer's left neighbour, then the rotation goes left.

    With 3 players the monster takes the turn after the last seat (it leads twice like everyone): ``None``.
    """
    position = (round_index + 1) % HANDS
    return position if position < players else None


def match_state(
    history: Sequence[tuple[MeinzFacts, RoundResult]],
    *,
    players: int,
    options: Mapping[str, Any],
    deal: int | None = None,
) -> MatchState:
    """8 rounds; most point-card points wins, ties share."""
    state = fixed_rounds_state(
        history,
        players=players,
        rounds=ROUNDS,
        starter=lambda position: starter_of(position, players=players),
        deal=deal,
    )
    return replace(state, extra={"monster_leads": not state.finished and state.next_starter is None})
