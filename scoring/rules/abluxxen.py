"""Húzz egyet! / Abluxxen (Wolfgang Kramer & Michael Kiesling), 3–5 players, duel for 2.

Rulebook: ``seeds/huzz-egyet.hu.txt`` ("A játék vége", "Párbaj"); digest: RULES.md, "Húzz egyet! / Abluxxen".

One round here is one whole game (one deal played to its end). At the end every card laid out in
front of a player scores +1 and every card left in the hand −1; the values of the cards do not
matter and the paw card is no card of the hand. The modes (base, advanced, master, duel with the
shadow pool) change how the game is played, never how it is scored; the mode only fixes how many
players sit at the table (duel: 2, the others: 3–5).

Ties: the player with fewer cards left in hand wins; still tied, the win is shared. A match of
several games ("games" option) adds the games up and breaks a tie on the total the same way, with
the cards left in hand summed over the games.

Validation (the deck is the same 104 number cards and 5 jokers in every mode, the duel included:
each duellist gets 2 of the jokers and 11 cards from the rest): at most 109 cards in front of and
in the hands of all players together; a game that ended with a player going out has exactly that
one player with an empty hand, and he still has the cards he just laid out in front of him (they
score although they cannot steal); a game that ended on an exhausted draw pile and market has
nobody with an empty hand (whoever plays his last card ends the game at once).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import Complaints
from .types import N_, NP_, MatchState, OptionSpec, RoundResult, deal_index, line, totals_of

KEY = "abluxxen"
NAME = "Húzz egyet! / Abluxxen"
VERSION = "1"
MIN_PLAYERS = 2
MAX_PLAYERS = 5

# --- tables, as the rulebook prints them ---------------------------------------------------------
NUMBER_CARDS = 104  # 1–13, eight of each
JOKERS = 5
DECK = NUMBER_CARDS + JOKERS  # the paw card is not part of the deck
POINTS_IN_FRONT = 1  # "Az előtted lévő mindegyik kártya 1-1 pontot ér."
POINTS_IN_HAND = -1  # "A kezekben maradt mindegyik kártya 1-1 mínusz pontot ér."
MODES = ("base", "advanced", "master", "duel")
MODE_PLAYERS: dict[str, tuple[int, int]] = {
    "base": (3, 5),
    "advanced": (3, 5),
    "master": (3, 5),
    "duel": (2, 2),
}
ENDS = ("out", "exhausted")

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        key="mode",
        kind="choice",
        default="base",
        label=N_("Mode"),
        rule="abluxxen-players",
        choices=MODES,
    ),
    OptionSpec(
        key="games",
        kind="int",
        default=1,
        label=N_("Games in the match"),
        rule="abluxxen-match",
        minimum=1,
        maximum=100,
    ),
)

MESSAGES: dict[str, str] = {
    "abluxxen.unknown_field": N_("There is no round fact called '{name}'."),
    "abluxxen.missing": N_("This fact is missing."),
    "abluxxen.list": N_("Give one whole number per player ({players} numbers)."),
    "abluxxen.count": N_("A card count must be a whole number from 0 to {high}."),
    "abluxxen.end": N_("The end of the game must be one of: {choices}."),
    "abluxxen.mode_players": N_("The {mode} mode is played by {low} to {high} players, not {players}."),
    "abluxxen.deck": N_(
        "There are only {deck} cards (104 number cards and 5 jokers); {total} are counted in front and in hand."
    ),
    "abluxxen.out_empty_hand": N_(
        "The game ended with a player going out, so exactly one player has no hand cards ({count} have none)."
    ),
    "abluxxen.out_front": N_("The player who went out still has the cards he last laid out in front of him."),
    "abluxxen.exhausted_hands": N_(
        "A player with no hand cards went out and ended the game at once; the game did not end on the draw pile."
    ),
    "abluxxen.match_over": NP_(
        "The match was {games} game and is over.", "The match was {games} games and is over.", "games"
    ),
    "abluxxen.front": NP_("{count} card laid out in front × +1", "{count} cards laid out in front × +1"),
    "abluxxen.hand": NP_("{count} card left in hand × −1", "{count} cards left in hand × −1"),
    "abluxxen.tie_break": N_("Tied on points: fewer cards left in hand ({hand}) wins."),
    # the modes' names, for the params of kind "abluxxen.mode"
    "abluxxen.mode.base": N_("base game"),
    "abluxxen.mode.advanced": N_("advanced"),
    "abluxxen.mode.master": N_("master"),
    "abluxxen.mode.duel": N_("duel"),
}

# message id -> its params' kinds (the mode shown by its name)
PARAMS: dict[str, dict[str, str]] = {"abluxxen.mode_players": {"mode": "abluxxen.mode"}}

SECTIONS: dict[str, str] = {
    "abluxxen-players": N_("Players and modes"),
    "abluxxen-options": N_("Match options"),
    "abluxxen-round": N_("What to record after a game"),
    "abluxxen-deck": N_("The cards"),
    "abluxxen-end": N_("End of the game"),
    "abluxxen-scoring": N_("Scoring"),
    "abluxxen-ties": N_("Ties"),
    "abluxxen-match": N_("A match of several games"),
}

FACTS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "One game of Húzz egyet! / Abluxxen, counted when it has ended.",
    "required": ["front", "hand", "end"],
    "additionalProperties": False,
    "properties": {
        "front": {
            "type": "array",
            "description": "Per seat: cards laid out in front of the player (every layer counts).",
            "items": {"type": "integer", "minimum": 0, "maximum": DECK},
        },
        "hand": {
            "type": "array",
            "description": "Per seat: cards left in the player's hand (the paw card does not count).",
            "items": {"type": "integer", "minimum": 0, "maximum": DECK},
        },
        "end": {
            "type": "string",
            "enum": list(ENDS),
            "description": "How the game ended: 'out' (a player played his last hand card) or "
            "'exhausted' (the draw pile was empty and the last market card was taken).",
        },
    },
}

EXAMPLE: dict[str, Any] = {
    "players": 3,
    "options": {"mode": "base", "games": 1},
    "facts": {"front": [17, 12, 9], "hand": [0, 4, 7], "end": "out"},
}


@dataclass(frozen=True)
class Facts:
    """What the table records when a game of Abluxxen ends."""

    front: tuple[int, ...]
    hand: tuple[int, ...]
    end: str


# --- parsing -------------------------------------------------------------------------------------


def _counts(c: Complaints, data: Mapping[str, Any], name: str, players: int) -> tuple[int, ...]:
    """A per-seat list of card counts, complaining with field paths like ``hand.2``."""
    value = data.get(name)
    if name not in data:
        c.add(name, "abluxxen.missing", "abluxxen-round")
        return ()
    if not isinstance(value, list) or len(value) != players:
        c.add(name, "abluxxen.list", "abluxxen-round", players=players)
        return ()
    out: list[int] = []
    for seat, item in enumerate(value):
        if isinstance(item, bool) or not isinstance(item, int) or not 0 <= item <= DECK:
            c.add(f"{name}.{seat}", "abluxxen.count", "abluxxen-round", high=DECK)
            continue
        out.append(item)
    return tuple(out)


def facts_parse(data: Mapping[str, Any], *, players: int, options: Mapping[str, Any]) -> Facts:
    """Shape-check the submitted facts (card counts per seat and how the game ended)."""
    c = Complaints(MESSAGES, PARAMS)
    for name in data:
        if name not in FACTS_SCHEMA["properties"]:
            c.add(str(name), "abluxxen.unknown_field", "abluxxen-round", name=str(name))
    front = _counts(c, data, "front", players)
    hand = _counts(c, data, "hand", players)
    end = data.get("end")
    if "end" not in data:
        c.add("end", "abluxxen.missing", "abluxxen-round")
    else:
        c.check(end in ENDS, "end", "abluxxen.end", "abluxxen-end", choices=", ".join(ENDS))
    c.raise_if_any()
    return Facts(front=front, hand=hand, end=str(end))


# --- options -------------------------------------------------------------------------------------


def options_validate(options: Mapping[str, Any], *, players: int) -> None:
    """The duel is for 2 players; base, advanced and master for 3–5."""
    c = Complaints(MESSAGES, PARAMS)
    mode = str(options["mode"])
    low, high = MODE_PLAYERS[mode]
    c.check(
        low <= players <= high,
        "options.mode",
        "abluxxen.mode_players",
        "abluxxen-players",
        mode=mode,
        low=low,
        high=high,
        players=players,
    )
    c.raise_if_any()


# --- the rules -----------------------------------------------------------------------------------


def validate(facts: Facts, *, players: int, options: Mapping[str, Any], state: MatchState) -> None:
    """Refuse games that cannot have happened (see the module docstring)."""
    c = Complaints(MESSAGES, PARAMS)
    games = int(options["games"])
    c.check(state.rounds_played < games, "", "abluxxen.match_over", "abluxxen-match", games=games)
    total = sum(facts.front) + sum(facts.hand)
    c.check(total <= DECK, "", "abluxxen.deck", "abluxxen-deck", deck=DECK, total=total)
    empty = [seat for seat, count in enumerate(facts.hand) if count == 0]
    if facts.end == "out":
        if c.check(len(empty) == 1, "hand", "abluxxen.out_empty_hand", "abluxxen-end", count=len(empty)):
            seat = empty[0]
            c.check(facts.front[seat] > 0, f"front.{seat}", "abluxxen.out_front", "abluxxen-end")
    else:
        for seat in empty:
            c.add(f"hand.{seat}", "abluxxen.exhausted_hands", "abluxxen-end")
    c.raise_if_any()


def seat_score(front: int, hand: int) -> int:
    """+1 per card laid out in front, −1 per card left in hand ("A JÁTÉK VÉGE")."""
    return front * POINTS_IN_FRONT + hand * POINTS_IN_HAND


def score_round(facts: Facts, *, players: int, options: Mapping[str, Any], state: MatchState) -> RoundResult:
    """Every player's points for one game, with a line for the cards in front and one for the hand."""
    lines = []
    for seat in range(players):
        front, hand = facts.front[seat], facts.hand[seat]
        lines.append(
            line("abluxxen.front", "abluxxen-scoring", player=seat, points=front * POINTS_IN_FRONT, count=front)
        )
        lines.append(line("abluxxen.hand", "abluxxen-scoring", player=seat, points=hand * POINTS_IN_HAND, count=hand))
    scores = tuple(seat_score(facts.front[seat], facts.hand[seat]) for seat in range(players))
    return RoundResult(scores=scores, lines=tuple(lines))


def ranking(totals: Sequence[int], hands: Sequence[int]) -> tuple[int, ...]:
    """Seats best first: most points, then fewest cards left in hand, then seat order."""
    return tuple(sorted(range(len(totals)), key=lambda seat: (-totals[seat], hands[seat], seat)))


def winners_of(totals: Sequence[int], hands: Sequence[int]) -> tuple[int, ...]:
    """Most points; on a tie fewer cards left in hand; still tied, shared ("A JÁTÉK VÉGE")."""
    best = max((totals[seat], -hands[seat]) for seat in range(len(totals)))
    return tuple(seat for seat in range(len(totals)) if (totals[seat], -hands[seat]) == best)


def match_state(
    history: Sequence[tuple[Facts, RoundResult]], *, players: int, options: Mapping[str, Any], deal: int | None = None
) -> MatchState:
    """Totals over the games, the winner(s) once all games are played, the dealer rotating left."""
    games = int(options["games"])
    played = len(history)
    totals = totals_of([result for _, result in history], players)
    hands = tuple(sum(facts.hand[seat] for facts, _ in history) for seat in range(players))
    finished = played >= games
    return MatchState(
        totals=totals,
        rounds_played=played,
        finished=finished,
        winners=winners_of(totals, hands) if finished else (),
        next_dealer=deal_index(played, deal) % players,
        rounds_left=max(games - played, 0),
        extra={
            "hand_totals": list(hands),
            "ranking": list(ranking(totals, hands)),
            "game_winners": [list(winners_of(result.scores, facts.hand)) for facts, result in history],
        },
    )
