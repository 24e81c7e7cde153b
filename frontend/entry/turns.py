"""Who dealt and who led each played round, for games where the dealer and the start player differ (Meinz).

The rules engine knows the turn order: its ``state`` after the first ``i`` rounds names the dealer and the start
player of round ``i + 1`` (Meinz with 3 players: no start seat means the monster leads, "mindenki – a szörny is! –
kétszer lesz kezdőjátékos").  Nothing here scores; it only asks the engine.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from scoring import rules

# games whose board shows the dealer and the start player of every round
TURN_GAMES = frozenset({"meinz"})


def _name(seat: int | None, players: list[dict[str, Any]]) -> str | None:
    if seat is None or not 0 <= seat < len(players):
        return None
    return str(players[seat]["name"])


def round_turns(board: dict[str, Any], *, options: dict[str, Any]) -> dict[int, dict[str, str | None]]:
    """Round number → {"dealer": name, "starter": name} for each played round (empty for other games)."""
    if board["ruleset"] not in TURN_GAMES or board.get("problems"):
        return {}
    ruleset = rules.get(board["ruleset"])
    players = board["players"]
    rows = board["rounds"]
    facts = [r["facts"] for r in rows]
    numbers = [r["number"] for r in rows]
    stored = [] if board.get("needs_rescore") else [r["points"] for r in rows]
    out: dict[int, dict[str, str | None]] = {}
    for i, row in enumerate(rows):
        # round k was the table's deal k - 1, even when an earlier round's record was deleted
        state = ruleset.state(
            facts[:i],
            players=len(players),
            options=options,
            stored=stored[:i],
            numbers=numbers[:i],
            deal=numbers[i] - 1,
        )
        starter = _name(state.next_starter, players)
        if starter is None and len(players) == 3:
            starter = gettext("the monster")
        out[row["number"]] = {"dealer": _name(state.next_dealer, players), "starter": starter}
    return out
