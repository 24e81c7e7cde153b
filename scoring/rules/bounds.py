"""How far one round can move the scores, game by game: the ground for "what do I need" (see :mod:`.outlook`).

For every game whose match has a known end, three figures about ONE round, over the rounds the engine accepts
(the game's ``validate``):

``most``
    the most a single player can score;
``least``
    the least a single player can score;
``gain``
    the most one player can gain on another: the largest ``score[a] − score[b]``. Where others' scores move
    with one's own (NJET's teams, MÜ's opponents, Muzicando's partners) this is smaller than ``most − least``.

Each figure is derived from the game's own tables and, for NJET and MÜ, from its own ``score_round`` applied to
the round that scores the extreme (so a change to a table changes the figure). Where a figure is an upper bound
that no real round quite reaches, the function says so: a bound is all "can no longer win" needs to be sure, and
the tests check every figure against rounds the engine accepts (and, where it is exact, that one reaches it).

All these games rank the highest total first (Abluxxen then breaks a tie on the cards left in hand).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from . import abluxxen, coloretto, meinz, mue, muzicando_facts, njet, sticheln_deck
from .mue_stakes import TRUMP_OF_COLUMN
from .mue_tables import COLOURS as MUE_COLOURS
from .mue_tables import DECK_TRIANGLES, HAND_SIZE
from .types import MatchState, RoundResult


@dataclass(frozen=True)
class RoundBounds:
    """What one round can do (see the module docstring)."""

    most: int
    least: int
    gain: int

    def as_dict(self) -> dict[str, int]:
        return {"most": self.most, "least": self.least, "gain": self.gain}


_STATE = MatchState(totals=(), rounds_played=0, finished=False)  # score_round reads no state in NJET and MÜ


def _from_results(results: list[RoundResult]) -> RoundBounds:
    return RoundBounds(
        most=max(max(r.scores) for r in results),
        least=min(min(r.scores) for r in results),
        gain=max(max(r.scores) - min(r.scores) for r in results),
    )


def njet_bounds(*, players: int, options: Mapping[str, Any]) -> RoundBounds:
    """NJET: the start player sits on the smaller side, holds the monster card where there is one, and takes every
    trick of a round without discards and every 0 of the deck his opponents can play into them; the other side
    takes nothing. At the board's highest points per trick that is the most (his whole side scores it, the other
    side 0: the most gained too); at −2 the least. Exact."""
    large, small = njet.TEAM_SIZES[players]
    teams = (0,) * small + (1,) * large
    discard = max(njet.DISCARDS, key=lambda d: njet.tricks_in_round(players, d))
    tricks = njet.tricks_in_round(players, discard)
    booty = min(njet.ZEROS_IN_DECK, tricks * njet.opponents_of(teams, 0))
    rest = (0,) * (players - 1)
    results = [
        njet.score_round(
            njet.NjetFacts(
                start_player=0,
                teams=teams,
                monster=0 if players in njet.MONSTER_PLAYERS else None,
                discard=discard,
                points_per_trick=per_trick,
                tricks=(tricks, *rest),
                booty=(booty, *rest),
            ),
            players=players,
            options=options,
            state=_STATE,
        )
        for per_trick in njet.POINTS_PER_TRICK
    ]
    return _from_results(results)


@cache
def _mue_bounds(players: int) -> RoundBounds:
    """Every bid, every kind of chief's trump, all 60 triangles in the tricks of one role (chief, partner, vice,
    another opponent), and every Eklat: scores are linear in the triangles, so the extremes lie where one player
    holds them all. Exact."""
    hand = HAND_SIZE[players]
    results = []
    for bid in range(1, hand + 1):
        vice = 2 if bid >= 2 else None  # a vice needs a bid of two cards or more
        for trump in TRUMP_OF_COLUMN.values():
            for holder in range(4):
                facts = mue.PlayedRound(
                    outcome="played",
                    chief=0,
                    bid=bid,
                    vice=vice,
                    vice_trump=mue.Trump("colour", MUE_COLOURS[0]) if vice is not None else mue.NO_TRUMP,
                    chief_trump=trump,
                    partner=1,
                    triangles=tuple(DECK_TRIANGLES if seat == holder else 0 for seat in range(players)),
                )
                results.append(mue.score_round(facts, players=players, options={}, state=_STATE))
        eklat = mue.Eklat(outcome="eklat", tied=(0, 1), last_tied=1, cards=bid)
        results.append(mue.score_round(eklat, players=players, options={}, state=_STATE))
    return _from_results(results)


def mue_bounds(*, players: int, options: Mapping[str, Any]) -> RoundBounds:
    """MÜ (see :func:`_mue_bounds`); the target does not change a round."""
    return _mue_bounds(players)


def meinz_bounds(*, players: int, options: Mapping[str, Any]) -> RoundBounds:
    """Meinz: the point cards of one round; a shared place earns nothing. With the monster always taking the 3
    (3 players, option "fixed") the players compete for the others. Exact."""
    fixed = players < meinz.HANDS and options.get("monster") == meinz.MONSTER_FIXED
    cards = meinz.POINT_CARDS[1:] if fixed else meinz.POINT_CARDS
    least = min(*cards, 0)
    return RoundBounds(most=max(cards), least=least, gain=max(cards) - least)


def sticheln_bounds(*, players: int, options: Mapping[str, Any]) -> RoundBounds:
    """Sticheln, by variant, from the deck of this player count. Bounds, not always reached: a player who takes
    every trick takes every card played (+1 each at most), and a player's pain (lucky) colour holds at most the
    colour's cards (their values, or −5 each when gentle); Hattrick: the most-cards colour holds at most a
    colour's cards, and the other two never cost more than it, and face-down cards at most −2 a double trick.
    ``gain`` is ``most − least``."""
    variant = str(options.get("variant", "classic"))
    deck = sticheln_deck.deck_for(players, variant)
    if deck is None:
        raise ValueError(f"Sticheln {variant} is not played by {players}")
    cards = len(deck.values)  # the cards of one colour
    if variant == "hattrick":
        most, least = cards, -cards - 2 * deck.tricks
    else:
        taken = deck.tricks * players  # every card played in a trick
        colour = sum(deck.values)
        if variant == "reverse":
            most, least = colour, -taken
        elif variant == "gentle":
            most, least = taken, -5 * cards
        elif variant == "heavy":
            most, least = taken, -2 * colour
        else:  # classic, foggy, delayed
            most, least = taken, -colour
    return RoundBounds(most=most, least=least, gain=most - least)


def muzicando_bounds(*, players: int, options: Mapping[str, Any]) -> RoundBounds:
    """Muzicando from its tables. Teams: both partners first and second out with the highest contract made,
    against the last two (the last still holding cards) who broke a rule too. Individual: first out with the
    highest contract, against the last still holding cards, or a breach's −11 (which voids the deal for the
    others). Exact."""
    f = muzicando_facts
    value = max(f.TYPE_VALUES.values())
    if options["mode"] == "team" or options["bidding"]:
        value += max(f.LEVEL_VALUES.values())
    if options["mode"] == "team":
        places = sorted(f.TEAM_PLACEMENT, reverse=True)
        best, worst = places[0] + places[1], places[-1] + places[-2] + f.CARDS_LEFT
        if options["team_breach"] == "void":  # a breach leaves the offenders' −12 and nothing else
            least = min(f.TEAM_BREACH, worst - value)
            return RoundBounds(most=best + value, least=least, gain=max(best + value - worst, -f.TEAM_BREACH))
        least = worst - value + f.TEAM_BREACH
        return RoundBounds(most=best + value, least=least, gain=best + value - (worst + f.TEAM_BREACH))
    last = 1 + f.CARDS_LEFT  # the last placement point, lost for the cards still held
    failed = -value if options["individual_contract"] == "chooser" else 0  # the chooser who did not go out first
    return RoundBounds(
        most=players + value,
        least=min(f.INDIVIDUAL_BREACH, last + failed),
        gain=max(players + value - last, -f.INDIVIDUAL_BREACH),
    )


def abluxxen_bounds(*, players: int, options: Mapping[str, Any]) -> RoundBounds:
    """Abluxxen: every card of the deck in front of one player or in one hand, less the one card each other hand
    must hold (only the player who went out has an empty hand). Exact for the rules as entered, far beyond a
    real game."""
    deck = abluxxen.DECK
    most = (deck - (players - 1)) * abluxxen.POINTS_IN_FRONT
    least = (deck - (players - 1)) * abluxxen.POINTS_IN_HAND
    # gone out with f cards in front while another holds h, the rest one card each: f + h ≤ deck − (players − 2)
    return RoundBounds(most=most, least=least, gain=deck - (players - 2))


def coloretto_bounds(*, players: int, options: Mapping[str, Any]) -> RoundBounds:
    """Coloretto: three colours of six or more and every "+2" card at most; at least, the colours beyond twice
    three cost no more than the third-best colour scores (0 with six colours, −21 with seven). ``gain`` is
    ``most − least``, a bound: whoever holds the most leaves the others too few cards for the least."""
    top = max(coloretto.COLOUR_POINTS.values())
    colours = len(coloretto.COLOURS) - (1 if players == 3 else 0)  # three players remove one colour
    most = coloretto.POSITIVE_COLOURS * top + coloretto.PLUS_TWOS * coloretto.PLUS_TWO_POINTS
    least = -top * max(colours - 2 * coloretto.POSITIVE_COLOURS, 0)
    return RoundBounds(most=most, least=least, gain=most - least)


BOUNDS: dict[str, Callable[..., RoundBounds]] = {
    "njet": njet_bounds,
    "mue": mue_bounds,
    "meinz": meinz_bounds,
    "sticheln": sticheln_bounds,
    "muzicando": muzicando_bounds,
    "abluxxen": abluxxen_bounds,
    "coloretto": coloretto_bounds,
}


def round_bounds(key: str, *, players: int, options: Mapping[str, Any]) -> RoundBounds | None:
    """The bounds of one round of game ``key`` with these parsed options; None for a game without a known end
    (Was sticht? ends when someone has returned every task)."""
    found = BOUNDS.get(key)
    return None if found is None else found(players=players, options=options)
