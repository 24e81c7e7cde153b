"""Was sticht? — the quick entry: the task cards returned this round, ticked as on the paper pad.

Rulebook: ``seeds/mue-njet-wassticht-meinz.hu.txt``, "Was sticht?" → "A forduló vége" ("Akik közületek teljesítették
feladatukat, visszaadják feladatkártyájukat"); digest ``RULES.md``.  The table judges its tasks itself and the app
takes which task card each player gave back: ``{"entry": "quick", "start_player": s, "returned": [task or None per
seat]}``.  Each card returned scores 1, as in the full entry (:mod:`.was_sticht`), and the game ends the same way.

Which card went back is needed, not just who returned one: the tasks each player still holds are what a later round
(quick or full) is checked against, and what the full entry's task lists offer.

What the facts allow to be checked (beyond the shape, the rotation and the end of the game):

* a player returns at most one card a round (one entry per seat) and only a card still held;
* the cards the other players returned can all be fulfilled in one round of nine tricks (two players cannot both
  take the most tricks, a Betli leaves nobody the fewest tricks, …), and every player who returned nothing can have
  missed a task they hold;
* the start player returns a card only when he fulfilled a task revealed by a player who missed it: somebody else
  returned nothing, and one of that player's tasks can have been missed by its owner and fulfilled by him in that
  same round.

"No colour" tasks are judged by the tricks alone here: the colours in a player's tricks are not entered, so such a
task counts as possible whenever the player took a trick and his cards fit in three colours.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from .errors import Complaints
from .types import N_, Line, RoundResult, line
from .was_sticht_tasks import COLOURS, NO_COLOUR, TASK_COPIES, TASK_IDS, TRICKS, Table, colours_needed, judge

ENTRY = "quick"
FIELDS = ("entry", "start_player", "returned")

MESSAGES: dict[str, str] = {
    "was-sticht.entry_quick": N_("Quick entry: the table judged its tasks; each task card returned scores 1."),
    "was-sticht.entry_full": N_("Full entry: every revealed task judged from the tricks."),
    "was-sticht.entry": N_("The entry is 'quick' or 'full', not '{entry}'."),
    "was-sticht.quick_returned": N_("Fulfilled “{task}” and returned it."),
    "was-sticht.quick_start_returned": N_(
        "Start player: fulfilled a revealed task its owner missed, and returned “{task}”."
    ),
    "was-sticht.quick_none": N_("Returned no task card."),
    "was-sticht.quick_together": N_(
        "{seat} cannot have fulfilled “{task}” in the same round as the other tasks returned ({tasks}): "
        "nine tricks cannot make them all come true."
    ),
    "was-sticht.quick_missed": N_(
        "{seat} returned no task card, but with the tasks returned as entered every task {seat} holds ({held}) "
        "would have been fulfilled."
    ),
    "was-sticht.quick_start_all_returned": N_(
        "{seat}, the start player, returns a task card only for a revealed task its owner missed, but every "
        "other player returned theirs."
    ),
    "was-sticht.quick_start_impossible": N_(
        "{seat}, the start player, cannot have fulfilled a task of a player who returned nothing while that "
        "player missed it, with the tasks returned as entered."
    ),
}

_TASK = "was-sticht.task"
PARAMS: dict[str, dict[str, str]] = {
    "was-sticht.quick_returned": {"task": _TASK},
    "was-sticht.quick_start_returned": {"task": _TASK},
    "was-sticht.quick_together": {"seat": "player", "task": _TASK, "tasks": _TASK},
    "was-sticht.quick_missed": {"seat": "player", "held": _TASK},
    "was-sticht.quick_start_all_returned": {"seat": "player"},
    "was-sticht.quick_start_impossible": {"seat": "player"},
}

SCHEMA: dict[str, Any] = {
    "type": "object",
    "title": "Was sticht? round, quick entry",
    "description": "The task cards returned this round, as the table judged them (one tick each on the paper pad).",
    "required": ["entry", "start_player", "returned"],
    "additionalProperties": False,
    "properties": {
        "entry": {"const": ENTRY, "description": "The app's quick entry made the round."},
        "start_player": {
            "type": "integer",
            "minimum": 0,
            "description": "Seat of this round's start player (seat 0 in round 1, then rotating left).",
        },
        "returned": {
            "type": "array",
            "description": "Per seat: the task card that player returned this round, or null for none. The start "
            "player's card is the one he gives back for a revealed task its owner missed.",
            "items": {"type": ["string", "null"], "enum": [*TASK_COPIES, None]},
        },
    },
}


@dataclass(frozen=True)
class QuickFacts:
    """One round entered the quick way: the start player and the task card each seat returned (None: none)."""

    start_player: int
    returned: tuple[str | None, ...]
    entry: str = ENTRY

    def returners(self) -> tuple[int, ...]:
        """Seats other than the start player that returned a task card."""
        return tuple(s for s, task in enumerate(self.returned) if task is not None and s != self.start_player)


# --- parsing ---------------------------------------------------------------------------------------------------
def facts_parse(data: Mapping[str, Any], *, players: int, c: Complaints) -> QuickFacts:
    """The quick entry's facts; shape problems go to ``c`` (the caller raises)."""
    for name in data:
        c.check(name in FIELDS, str(name), "was-sticht.field_unknown", "was-sticht-round", name=str(name))
    start: Any = data.get("start_player")
    if "start_player" not in data:
        c.add("start_player", "was-sticht.field_missing", "was-sticht-round")
    elif not (_is_int(start) and 0 <= start < players):
        c.add("start_player", "was-sticht.seat", "was-sticht-round", high=players - 1)
    raw = data.get("returned")
    returned: list[str | None] = [None] * players
    if "returned" not in data:
        c.add("returned", "was-sticht.field_missing", "was-sticht-round")
    elif not isinstance(raw, list) or len(raw) != players:
        c.add("returned", "was-sticht.list", "was-sticht-round", count=players)
    else:
        for seat, task in enumerate(raw):
            ok = task is None or (isinstance(task, str) and task in TASK_COPIES)
            c.check(ok, f"returned.{seat}", "was-sticht.task_id", "was-sticht-tasks", tasks=TASK_IDS)
            returned[seat] = task if ok else None
    return QuickFacts(start_player=start if _is_int(start) else -1, returned=tuple(returned))


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# --- what nine tricks can do -----------------------------------------------------------------------------------
def tables(players: int) -> Iterator[Table]:
    """Every end of a round as the tasks see it: tricks per seat adding up to nine, and who took the last one."""
    for cuts in combinations(range(TRICKS + players - 1), players - 1):
        bounds = (-1, *cuts, TRICKS + players - 1)
        tricks = tuple(bounds[i + 1] - bounds[i] - 1 for i in range(players))
        for last in range(players):
            if tricks[last] > 0:
                yield Table(tricks=tricks, last_trick=last, colours=(None,) * players)


def can_fulfil(task: str, seat: int, table: Table, players: int) -> bool:
    """Whether ``seat`` can have fulfilled ``task`` at this end of the round; a "no colour" task needs a trick and
    cards that fit in the three other colours (which colours were taken is not entered)."""
    if task in NO_COLOUR:
        tricks = table.tricks[seat]
        return tricks > 0 and colours_needed(tricks * players) < len(COLOURS)
    return judge(task, seat, table).done


def can_miss(task: str, seat: int, table: Table) -> bool:
    """Whether ``seat`` can have missed ``task`` at this end of the round (a "no colour" task always: a card of
    that colour in the tricks, or no trick at all)."""
    return task in NO_COLOUR or not judge(task, seat, table).done


Need = tuple[int, str, bool]  # (seat, task, fulfilled?) — or (seat, "", False) for "missed one of the tasks held"


def _met(need: Need, table: Table, players: int, held: Sequence[Sequence[str]]) -> bool:
    seat, task, done = need
    if done:
        return can_fulfil(task, seat, table, players)
    return any(can_miss(t, seat, table) for t in held[seat])


def _start_covered(
    start: int, owners: Sequence[int], table: Table, players: int, held: Sequence[Sequence[str]]
) -> bool:
    """A player in ``owners`` can have revealed a task he missed while the start player fulfilled it."""
    return any(
        can_miss(task, owner, table) and can_fulfil(task, start, table, players)
        for owner in owners
        for task in held[owner]
    )


def possible(
    needs: Sequence[Need],
    players: int,
    held: Sequence[Sequence[str]],
    start: int | None = None,
    owners: Sequence[int] = (),
) -> bool:
    """Some end of the round meets every need (and, with ``start``, lets the start player have fulfilled a task
    revealed by one of ``owners`` while its owner missed it)."""
    for table in tables(players):
        if not all(_met(need, table, players, held) for need in needs):
            continue
        if start is None or _start_covered(start, owners, table, players, held):
            return True
    return False


# --- validation ------------------------------------------------------------------------------------------------
def validate(facts: QuickFacts, *, players: int, held: Sequence[Sequence[str]], c: Complaints) -> None:
    """The rules the quick entry's facts allow to be checked (the rotation and the end are the caller's)."""
    start, known = facts.start_player, len(c.problems)
    for seat, task in enumerate(facts.returned):
        if task is None:
            continue
        msg = "was-sticht.start_return_not_held" if seat == start else "was-sticht.task_not_held"
        rule = "was-sticht-start-player" if seat == start else "was-sticht-tasks"
        c.check(task in held[seat], f"returned.{seat}", msg, rule, seat=seat, task=task, held=", ".join(held[seat]))
    if len(c.problems) > known:  # judged only with every returned card held
        return
    needs: list[Need] = []
    for seat in facts.returners():
        task = str(facts.returned[seat])
        if c.check(
            possible([*needs, (seat, task, True)], players, held),
            f"returned.{seat}",
            "was-sticht.quick_together",
            "was-sticht-tasks",
            seat=seat,
            task=task,
            tasks=", ".join(t for _, t, _ in needs),
        ):
            needs.append((seat, task, True))
    if len(c.problems) > known:
        return
    others = [s for s in range(players) if s != start and facts.returned[s] is None]
    for seat in others:
        if c.check(
            possible([*needs, (seat, "", False)], players, held),
            f"returned.{seat}",
            "was-sticht.quick_missed",
            "was-sticht-tasks",
            seat=seat,
            held=", ".join(held[seat]),
        ):
            needs.append((seat, "", False))
    if len(c.problems) > known or facts.returned[start] is None:
        return
    field, rule = f"returned.{start}", "was-sticht-start-player"
    if c.check(bool(others), field, "was-sticht.quick_start_all_returned", rule, seat=start):
        c.check(
            possible(needs, players, held, start, others),
            field,
            "was-sticht.quick_start_impossible",
            rule,
            seat=start,
        )


# --- scoring ---------------------------------------------------------------------------------------------------
def score_round(facts: QuickFacts, *, players: int) -> RoundResult:
    """One point per task card returned, as the table judged the tasks."""
    lines: list[Line] = [line("was-sticht.entry_quick", "was-sticht-round")]
    scores = [0] * players
    for seat, task in enumerate(facts.returned):
        if task is None:
            lines.append(line("was-sticht.quick_none", "was-sticht-tasks", player=seat, points=0))
            continue
        scores[seat] = 1
        if seat == facts.start_player:
            lines.append(
                line("was-sticht.quick_start_returned", "was-sticht-start-player", player=seat, points=1, task=task)
            )
        else:
            lines.append(line("was-sticht.quick_returned", "was-sticht-tasks", player=seat, points=1, task=task))
    return RoundResult(scores=tuple(scores), lines=tuple(lines))


def returns(facts: QuickFacts) -> list[tuple[int, str, bool]]:
    """The task cards going back this round: (seat, task, returned by the start player's rule)."""
    return [(seat, task, seat == facts.start_player) for seat, task in enumerate(facts.returned) if task is not None]
