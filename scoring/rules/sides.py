"""Who played with whom in one round: the sides between which a round's result is agreed.

A group can have every round confirmed by "the other side" (issue 47): by a player of another team where the
game has teams, else by any other player. The teams are what the rules say for that round:

- NJET: the start player picks partners every round; the stored facts carry each seat's team (``teams``).
- MÜ: the chief and the partner he picked play against everyone else, the vice included; an Eklat is not
  played, so nobody partners anybody.
- a game in fixed partnerships for the whole match (Muzicando's team game): the ruleset's ``fixed_teams``.
- everything else (and facts that do not say): every player is a side of his own.

Pure: the facts as stored (JSON values), no Django.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


def _seat(value: Any, players: int) -> int | None:
    ok = isinstance(value, int) and not isinstance(value, bool) and 0 <= value < players
    return value if ok else None


def round_sides(ruleset: str, facts: Any, *, players: int, fixed: Mapping[int, int] | None = None) -> tuple[int, ...]:
    """The side of each seat in one round (seats with the same number played together)."""
    alone = tuple(range(players))
    if fixed:
        return tuple(fixed.get(seat, players + seat) for seat in range(players))
    if not isinstance(facts, Mapping):
        return alone
    if ruleset == "njet":
        teams = facts.get("teams")
        if isinstance(teams, list) and len(teams) == players and all(type(t) is int and t in (0, 1) for t in teams):
            return tuple(teams)
        return alone
    if ruleset == "mue" and facts.get("outcome") == "played":
        chief, partner = _seat(facts.get("chief"), players), _seat(facts.get("partner"), players)
        if chief is None or partner is None:
            return alone
        return tuple(0 if seat in (chief, partner) else 1 for seat in range(players))
    return alone


def other_side(sides: Sequence[int], *, author: int | None, seat: int) -> bool:
    """Whether ``seat`` may speak for the other side of a round saved by the player at seat ``author``: any other
    player when the one who saved it did not play (``None``), else a player of another side."""
    if author is None:
        return 0 <= seat < len(sides)
    return 0 <= seat < len(sides) and 0 <= author < len(sides) and sides[seat] != sides[author]


def confirmers(sides: Sequence[int], *, author: int | None) -> list[int]:
    """The seats that may confirm a round saved by the player at seat ``author`` (in seat order)."""
    return [seat for seat in range(len(sides)) if seat != author and other_side(sides, author=author, seat=seat)]
