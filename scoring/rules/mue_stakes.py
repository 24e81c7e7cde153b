"""MÜ: the stakes once the auction is over — what the chief's team must reach, and what each role scores if it
does and if it does not (RULES.md "MÜ": target, bonus, failure).

Nothing here repeats a formula: every figure is what :func:`.mue.score_round` gives a hypothetical round with these
roles, less each player's own triangles (which everyone scores every round, whatever the outcome). The failure
penalty depends on how far the team fell short, so every failure is scored, from short by one level (the team's
points meet the target of the bid below) to short by every level (points below the bid-1 target).
"""

from __future__ import annotations

from dataclasses import dataclass

from .mue import NO_TRUMP, PlayedRound, Trump, bonus_column, score_round
from .mue_tables import BONUS_COLUMNS, COLOURS, DECK_TRIANGLES, DOUBLE_NUMBERS, HAND_SIZE, NUMBERS, target_for
from .types import MatchState

# One trump of each bonus column (the bonus depends only on the column of the CHIEF's trump).
TRUMP_OF_COLUMN: dict[str, Trump] = {
    "colour": Trump("colour", COLOURS[0]),
    "one_or_seven": Trump("number", min(DOUBLE_NUMBERS)),
    "other_number": Trump("number", min(n for n in NUMBERS if n not in DOUBLE_NUMBERS)),
    "no_trump": NO_TRUMP,
}
assert tuple(TRUMP_OF_COLUMN) == BONUS_COLUMNS  # one representative per column, in the table's order


@dataclass(frozen=True)
class Outcome:
    """What each role scores in one outcome of the round, triangles left out."""

    chief: int
    partner: int
    vice: int | None  # None when there is no vice
    other: int  # every other player (an opponent who is not the vice)


@dataclass(frozen=True)
class Missed:
    """A failure by ``shortfall`` levels: the team's points lie from ``points_from`` to ``points_to``."""

    shortfall: int
    points_from: int
    points_to: int
    outcome: Outcome


@dataclass(frozen=True)
class MueStakes:
    """The stakes of a played round once chief and bid are known.

    ``made`` holds one outcome per bonus column while the chief has not named his trump, else the one of his
    trump's column. ``missed`` holds every failure, short by one level first (the team's points meet the
    target of the bid below) and short by every level last (points below the bid-1 target).
    """

    players: int
    chief: int
    bid: int
    vice: int | None
    partner: int | None
    chief_trump: Trump | None
    target: int
    made: tuple[tuple[str, Outcome], ...]  # (bonus column, outcome)
    missed: tuple[Missed, ...]


_STATE = MatchState(totals=(), rounds_played=0, finished=False)  # score_round does not read the state


def column_of(trump: Trump) -> str:
    """The bonus column a chief's trump picks ("colour", "one_or_seven", "other_number", "no_trump")."""
    return BONUS_COLUMNS[bonus_column(trump)]


def _outcome(facts: PlayedRound, *, players: int, other: int) -> Outcome:
    result = score_round(facts, players=players, options={}, state=_STATE)
    points = [score - triangles for score, triangles in zip(result.scores, facts.triangles, strict=True)]
    return Outcome(
        chief=points[facts.chief],
        partner=points[facts.partner],
        vice=None if facts.vice is None else points[facts.vice],
        other=points[other],
    )


def stakes(
    *,
    players: int,
    chief: int,
    bid: int,
    vice: int | None = None,
    partner: int | None = None,
    chief_trump: Trump | None = None,
) -> MueStakes:
    """The stakes for these roles (``partner`` and ``chief_trump`` may still be unknown).

    Raises ``ValueError`` for roles no round can have: a seat off the table, a bid beyond the hand, the vice or
    the partner being the chief, the partner being the vice.
    """
    if players not in HAND_SIZE:
        raise ValueError(f"MÜ is played by 4 to 6 players, not {players}")
    seats = range(players)
    if chief not in seats or not 1 <= bid <= HAND_SIZE[players]:
        raise ValueError("no such chief or bid")
    if vice is not None and (vice not in seats or vice == chief):
        raise ValueError("no such vice")
    if partner is not None and (partner not in seats or partner in (chief, vice)):
        raise ValueError("no such partner")
    # a stand-in partner while the chief has not chosen: the outcome of a role does not depend on who holds it
    taken = {chief, vice}
    free = [seat for seat in seats if seat not in taken]
    mate = partner if partner is not None else free[0]
    other = next(seat for seat in free if seat != mate)  # 4 players or more: always someone left

    def round_with(made: int, trump: Trump) -> PlayedRound:
        # the chief takes the team's points, an opponent the rest of the deck's triangles
        triangles = tuple(made if s == chief else DECK_TRIANGLES - made if s == other else 0 for s in seats)
        return PlayedRound(
            outcome="played",
            chief=chief,
            bid=bid,
            vice=vice,
            vice_trump=NO_TRUMP,
            chief_trump=trump,
            partner=mate,
            triangles=triangles,
        )

    target = target_for(players, bid)
    trumps = (chief_trump,) if chief_trump is not None else tuple(TRUMP_OF_COLUMN.values())
    plain = chief_trump or NO_TRUMP  # a failure does not depend on the trump
    missed = []
    for shortfall in range(1, bid + 1):
        level = bid - shortfall  # the highest bid whose target the team's points still meet
        points_from = target_for(players, level) if level else 0
        outcome = _outcome(round_with(points_from, plain), players=players, other=other)
        missed.append(Missed(shortfall, points_from, target_for(players, level + 1) - 1, outcome))
    return MueStakes(
        players=players,
        chief=chief,
        bid=bid,
        vice=vice,
        partner=partner,
        chief_trump=chief_trump,
        target=target,
        made=tuple(
            (column_of(trump), _outcome(round_with(target, trump), players=players, other=other)) for trump in trumps
        ),
        missed=tuple(missed),
    )
