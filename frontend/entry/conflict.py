"""A form is for its round: what the entry form shows when the round it was opened for was saved elsewhere.

Nothing here decides anything: the round numbers and points come from the board (``selectors.match_scoreboard``),
the points this phone typed from the calculator service (``ruleset_score``, nothing stored), the sentence from
``RoundTaken``. The page shows it where the Save button was: who saved the round, that round's points beside this
phone's, and two choices (discard mine, or enter mine as the next round).
"""

from __future__ import annotations

from typing import Any

from scoring import selectors, services
from scoring.services.calculator import ruleset_score
from scoring.services.errors import RoundTaken


def _mine(match: Any, board: dict[str, Any], c: Any, facts: Any, number: int) -> list[int] | None:
    """This phone's points had its round been saved as round ``number`` (None when the rules refuse it as it
    stands: the panel then shows no points for it)."""
    earlier = [r for r in board["rounds"] if r["number"] < number]
    try:
        result = ruleset_score(
            ruleset=c.ruleset,
            players=c.names,
            options=match.options,
            facts=facts,
            before=[r["facts"] for r in earlier],
            numbers=[*(r["number"] for r in earlier), number],
        )
    except services.ServiceError:
        return None
    return [int(p) for p in result["scores"]]


def conflict_context(
    *, match: Any, board: dict[str, Any], c: Any, facts: Any, number: int, by: str | None = None
) -> dict[str, Any] | None:
    """The conflict panel of a form made for round ``number``, or None when that is still the round to enter.

    ``by``: who saved it, when the caller already knows (a refused save); else the board's savers are asked.
    """
    next_number = board["next_number"]
    saved = next((r for r in board["rounds"] if r["number"] == number), None)
    if saved is None and number == next_number:
        return None
    if saved is not None and by is None:
        by = selectors.round_savers(match=match).get(number, "")
    taken = RoundTaken(expected=number, next_number=next_number, round=saved, by=by or "")
    mine = _mine(match, board, c, facts, number) if saved is not None else None
    rows = [
        {
            "name": p["name"],
            "saved": saved["points"][p["seat"]] if saved is not None else None,
            "mine": mine[p["seat"]] if mine is not None else None,
        }
        for p in board["players"]
    ]
    return {
        "message": taken.message(),
        "number": number,
        "next": next_number,
        "saved": saved is not None,
        "by": by or "",
        "rows": rows,
        "scored": mine is not None,
        # a round that finished the match leaves nothing to enter this one as
        "can_add": board["state"] == "open",
    }
