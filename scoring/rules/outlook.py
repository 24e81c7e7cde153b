"""What do I need: for each player of a running match, how far behind the leader they are, what they must gain on
the leader in the rounds left, and whether they can still win at all.

"Can no longer win" is said only when it is certain: a player behind some other player by more than the rounds
left can make up at most (``rounds × gain``, :mod:`.bounds`) cannot finish level with them. A player who can
still draw level is not written off (ties share the win; in Abluxxen the cards in hand may still decide it).

A match played to a total (MÜ) has no last round: nobody is ever certain to lose before it ends, so instead the
outlook says how far each player is from the target and the fewest rounds before anyone can reach it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .bounds import RoundBounds, round_bounds
from .types import MatchState


@dataclass(frozen=True)
class SeatOutlook:
    """One player's position."""

    seat: int
    total: int
    behind: int  # points behind the leader(s); 0 for a leader
    lead: int  # a sole leader: points ahead of the next player; else 0
    ahead_of_them: tuple[int, ...]  # the leaders this player is behind (empty for a leader)
    can_win: bool  # False only when it is certain that this player cannot finish level with every other
    out_of_reach: tuple[int, ...]  # the seats this player can no longer catch
    to_target: int | None  # a match played to a total: points still missing to reach it

    def as_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "total": self.total,
            "behind": self.behind,
            "lead": self.lead,
            "behind_whom": list(self.ahead_of_them),
            "can_win": self.can_win,
            "out_of_reach": list(self.out_of_reach),
            "to_target": self.to_target,
        }


@dataclass(frozen=True)
class Outlook:
    """Where a running match stands for every player."""

    rounds_left: int | None  # a fixed number of rounds
    target: int | None  # a match played to a total
    earliest_end: int | None  # played to a total: the fewest rounds before anyone can reach it
    bounds: RoundBounds
    reach: int | None  # the most the rounds left can make up on another player (rounds_left × gain)
    seats: tuple[SeatOutlook, ...]

    def as_dict(self) -> dict[str, Any]:
        return {
            "rounds_left": self.rounds_left,
            "target": self.target,
            "earliest_end": self.earliest_end,
            "round": self.bounds.as_dict(),
            "reach": self.reach,
            "players": [seat.as_dict() for seat in self.seats],
        }


def outlook_of(state: MatchState, *, bounds: RoundBounds) -> Outlook | None:
    """The outlook of a running match whose end is known (rounds left, or a target); None once it is over or
    when its end is not known."""
    if state.finished or (state.rounds_left is None and state.target is None):
        return None
    totals = state.totals
    best = max(totals)
    leaders = tuple(seat for seat, total in enumerate(totals) if total == best)
    others = sorted((total for total in totals if total < best), reverse=True)
    lead = best - others[0] if len(leaders) == 1 and others else 0
    reach = None if state.rounds_left is None else state.rounds_left * bounds.gain
    seats = []
    for seat, total in enumerate(totals):
        lost = () if reach is None else tuple(o for o, other in enumerate(totals) if other - total > reach)
        seats.append(
            SeatOutlook(
                seat=seat,
                total=total,
                behind=best - total,
                lead=lead if seat in leaders else 0,
                ahead_of_them=() if seat in leaders else leaders,
                can_win=not lost,
                out_of_reach=lost,
                to_target=None if state.target is None else max(state.target - total, 0),
            )
        )
    earliest = None
    if state.target is not None:
        # ceil((target − best) / most), at least the next round
        earliest = max(-(-(state.target - best) // bounds.most), 1)
    return Outlook(
        rounds_left=state.rounds_left,
        target=state.target,
        earliest_end=earliest,
        bounds=bounds,
        reach=reach,
        seats=tuple(seats),
    )


def match_outlook(key: str, state: MatchState, *, players: int, options: Mapping[str, Any]) -> Outlook | None:
    """The outlook of a match of game ``key`` (parsed options) after ``state``; None when the match is over or the
    game has no known end."""
    bounds = round_bounds(key, players=players, options=options)
    return None if bounds is None else outlook_of(state, bounds=bounds)
