"""NJET: the stakes once the board is set — what one trick and one captured 0 are worth to every player, the monster
card included (RULES.md "NJET": haul, team total, recording only the difference).

Nothing here repeats a formula: each figure is the difference :func:`.njet.score_round` makes between a round in
which nobody took anything and the same round with one more trick (or captured 0) for one player, under the match's
recording. With full recording that is what the trick adds to each player's score whatever else happens; with only
the difference recorded it is how far the trick moves the gap between the teams (the higher team scores the gap).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .njet import MONSTER_PLAYERS, POINTS_PER_TRICK, TEAM_SIZES, NjetFacts, score_round, smaller_team, team_sizes
from .types import MatchState

_STATE = MatchState(totals=(), rounds_played=0, finished=False)  # score_round does not read the state


@dataclass(frozen=True)
class NjetStakes:
    """Per seat that takes it: what one more trick / captured 0 gives each seat (``trick[taker][seat]``)."""

    players: int
    points_per_trick: int
    difference: bool  # only the difference between the teams is recorded
    teams: tuple[int, ...]
    monster: int | None
    trick: tuple[tuple[int, ...], ...]
    booty: tuple[tuple[int, ...], ...]


def _scores(facts: NjetFacts, *, players: int, options: Mapping[str, Any]) -> tuple[int, ...]:
    return score_round(facts, players=players, options=options, state=_STATE).scores


def stakes(
    *,
    players: int,
    options: Mapping[str, Any],
    start_player: int,
    teams: Sequence[int],
    monster: int | None,
    points_per_trick: int,
) -> NjetStakes:
    """The worth of a trick and of a captured 0 for each taker, on this board.

    ``monster`` may be None while its holder is not chosen (then nobody's tricks count double yet). Raises
    ``ValueError`` for a board no round can have: a seat off the table, teams of the wrong sizes or without the
    start player in team 0, the monster card outside the smaller team, points per trick not on the board.
    """
    if players not in TEAM_SIZES:
        raise ValueError(f"NJET is played by 2 to 5 players, not {players}")
    teams = tuple(teams)
    if not 0 <= start_player < players or len(teams) != players or any(t not in (0, 1) for t in teams):
        raise ValueError("no such start player or teams")
    if teams[start_player] != 0 or team_sizes(teams) != TEAM_SIZES[players]:
        raise ValueError("teams that NJET does not have")
    if monster is not None and (
        players not in MONSTER_PLAYERS or not 0 <= monster < players or teams[monster] != smaller_team(teams)
    ):
        raise ValueError("the monster card goes to a player of the smaller team (3 and 5 players only)")
    if points_per_trick not in POINTS_PER_TRICK:
        raise ValueError("points per trick that the board does not have")
    nothing = (0,) * players

    def facts(tricks: Sequence[int], booty: Sequence[int]) -> NjetFacts:
        return NjetFacts(
            start_player=start_player,
            teams=teams,
            monster=monster,
            discard="none",
            points_per_trick=points_per_trick,
            tricks=tuple(tricks),
            booty=tuple(booty),
        )

    base = _scores(facts(nothing, nothing), players=players, options=options)

    def worth(tricks: Sequence[int], booty: Sequence[int]) -> tuple[int, ...]:
        after = _scores(facts(tricks, booty), players=players, options=options)
        return tuple(a - b for a, b in zip(after, base, strict=True))

    one = [tuple(1 if s == taker else 0 for s in range(players)) for taker in range(players)]
    return NjetStakes(
        players=players,
        points_per_trick=points_per_trick,
        difference=options.get("recording", "full") == "difference",
        teams=teams,
        monster=monster,
        trick=tuple(worth(one[taker], nothing) for taker in range(players)),
        booty=tuple(worth(nothing, one[taker]) for taker in range(players)),
    )
