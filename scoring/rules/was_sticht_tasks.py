"""Was sticht? — the 24 task cards and when a task is fulfilled.

Rulebook: ``seeds/mue-njet-wassticht-meinz.hu.txt``, "Was sticht?" → "A feladatkártyák"; digest ``RULES.md``.
A task is judged for any seat, so the same functions tell whether the owner fulfilled it and whether the start player
did ("the start player may fulfil ANY revealed task").  With 3 players the comparisons ("most", "fewest") are among
the three players: the table hand is set aside before play and takes no tricks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .errors import Complaints
from .types import N_, NP_, Line, Scalar, line

# The four colours of the 36 number cards (piros, kék, zöld, sárga).
COLOURS: tuple[str, ...] = ("red", "blue", "green", "yellow")
CARDS_PER_COLOUR = 9  # values 1..9
TRICKS = 9  # nine rows of cards, nine tricks a round

BETLI = "betli"
LAST_TRICK = "last-trick"
MOST = "most"
FEWEST = "fewest"
NO_COLOUR = {f"no-{colour}": colour for colour in COLOURS}
EXACTLY = {f"exactly-{n}": n for n in (1, 2, 3, 4)}

# Copies of each task card in the box (24).  The rulebook prints "exactly 1 trick … likewise 2, 3 or 4 tricks (8x)"
# without the split; we read it as two of each (option ``exactly_split`` = "free" accepts any split of the eight).
TASK_COPIES: dict[str, int] = {
    BETLI: 3,
    **dict.fromkeys(NO_COLOUR, 1),
    **dict.fromkeys(EXACTLY, 2),
    LAST_TRICK: 3,
    MOST: 3,
    FEWEST: 3,
}
EXACTLY_CARDS = 8
TASKS_PER_PLAYER = 4
TASK_IDS = ", ".join(TASK_COPIES)

TASK_NAMES: dict[str, str] = {
    "was-sticht.task.betli": N_("Betli (no trick)"),
    "was-sticht.task.no-red": N_("No red card"),
    "was-sticht.task.no-blue": N_("No blue card"),
    "was-sticht.task.no-green": N_("No green card"),
    "was-sticht.task.no-yellow": N_("No yellow card"),
    "was-sticht.task.exactly-1": N_("Exactly 1 trick"),
    "was-sticht.task.exactly-2": N_("Exactly 2 tricks"),
    "was-sticht.task.exactly-3": N_("Exactly 3 tricks"),
    "was-sticht.task.exactly-4": N_("Exactly 4 tricks"),
    "was-sticht.task.last-trick": N_("The last trick"),
    "was-sticht.task.most": N_("The most tricks"),
    "was-sticht.task.fewest": N_("The fewest tricks"),
    "was-sticht.colour.red": N_("red"),
    "was-sticht.colour.blue": N_("blue"),
    "was-sticht.colour.green": N_("green"),
    "was-sticht.colour.yellow": N_("yellow"),
}

OUTCOME_MESSAGES: dict[str, str] = {
    "was-sticht.betli_done": N_("Betli: no trick taken — fulfilled."),
    "was-sticht.betli_missed": NP_(
        "Betli: {tricks} trick taken — missed.", "Betli: {tricks} tricks taken — missed.", "tricks"
    ),
    "was-sticht.no_colour_done": NP_(
        "No {colour} card: {tricks} trick without a single {colour} card — fulfilled.",
        "No {colour} card: {tricks} tricks without a single {colour} card — fulfilled.",
        "tricks",
    ),
    "was-sticht.no_colour_has": N_("No {colour} card: a {colour} card is in the tricks — missed."),
    "was-sticht.no_colour_no_trick": N_("No {colour} card: no trick taken, and the task needs at least one — missed."),
    "was-sticht.exactly_done": NP_(
        "Exactly {target} trick: took {tricks} — fulfilled.",
        "Exactly {target} tricks: took {tricks} — fulfilled.",
        "target",
    ),
    "was-sticht.exactly_missed": NP_(
        "Exactly {target} trick: took {tricks} — missed.", "Exactly {target} tricks: took {tricks} — missed.", "target"
    ),
    "was-sticht.last_done": N_("The last trick: taken — fulfilled."),
    "was-sticht.last_missed": N_("The last trick: taken by another player — missed."),
    "was-sticht.most_done": N_("The most tricks: {tricks}, more than anyone else (next best {other}) — fulfilled."),
    "was-sticht.most_missed": N_("The most tricks: {tricks}, but another player took {other} — missed."),
    "was-sticht.fewest_done": N_("The fewest tricks: {tricks}, fewer than anyone else (next {other}) — fulfilled."),
    "was-sticht.fewest_missed": N_("The fewest tricks: {tricks}, but another player took only {other} — missed."),
    "was-sticht.fewest_no_trick": N_("The fewest tricks: no trick taken, and the task needs at least one — missed."),
}


@dataclass(frozen=True)
class Table:
    """What the tasks look at after the round: tricks per seat, the last trick's taker, colours per seat."""

    tricks: tuple[int, ...]
    last_trick: int
    colours: tuple[frozenset[str] | None, ...]


@dataclass(frozen=True)
class Outcome:
    """Whether ``seat`` fulfilled a task, with the explanation message and its params."""

    done: bool
    msg: str
    params: tuple[tuple[str, Scalar], ...] = ()


def _outcome(done: bool, ok: str, missed: str, **params: Scalar) -> Outcome:
    return Outcome(done, ok if done else missed, tuple(sorted(params.items())))


def betli(seat: int, table: Table) -> Outcome:
    """Betli: no trick at all this round."""
    tricks = table.tricks[seat]
    return _outcome(tricks == 0, "was-sticht.betli_done", "was-sticht.betli_missed", tricks=tricks)


def no_colour(colour: str, seat: int, table: Table) -> Outcome:
    """No card of ``colour`` in your tricks, whatever the trump — and at least one trick."""
    tricks = table.tricks[seat]
    if tricks == 0:
        return Outcome(False, "was-sticht.no_colour_no_trick", (("colour", colour), ("tricks", 0)))
    held = table.colours[seat] or frozenset()  # validation insists on the colours whenever this task is judged
    return _outcome(
        colour not in held, "was-sticht.no_colour_done", "was-sticht.no_colour_has", colour=colour, tricks=tricks
    )


def exactly(target: int, seat: int, table: Table) -> Outcome:
    """Exactly ``target`` tricks, no more and no fewer."""
    tricks = table.tricks[seat]
    return _outcome(
        tricks == target, "was-sticht.exactly_done", "was-sticht.exactly_missed", target=target, tricks=tricks
    )


def last_trick(seat: int, table: Table) -> Outcome:
    """The ninth trick, however many others you take."""
    return _outcome(table.last_trick == seat, "was-sticht.last_done", "was-sticht.last_missed", winner=table.last_trick)


def _others(seat: int, table: Table) -> list[int]:
    return [n for other, n in enumerate(table.tricks) if other != seat]


def most(seat: int, table: Table) -> Outcome:
    """Strictly the most tricks: anyone with as many or more defeats it."""
    tricks, other = table.tricks[seat], max(_others(seat, table))
    return _outcome(tricks > other, "was-sticht.most_done", "was-sticht.most_missed", tricks=tricks, other=other)


def fewest(seat: int, table: Table) -> Outcome:
    """Strictly the fewest tricks but at least one: anyone with as few or fewer (a player with none too) defeats it."""
    tricks, other = table.tricks[seat], min(_others(seat, table))
    if tricks == 0:
        return Outcome(False, "was-sticht.fewest_no_trick", (("other", other), ("tricks", 0)))
    return _outcome(tricks < other, "was-sticht.fewest_done", "was-sticht.fewest_missed", tricks=tricks, other=other)


def judge(task: str, seat: int, table: Table) -> Outcome:
    """Did ``seat`` fulfil ``task`` this round?"""
    if task in NO_COLOUR:
        return no_colour(NO_COLOUR[task], seat, table)
    if task in EXACTLY:
        return exactly(EXACTLY[task], seat, table)
    single = {BETLI: betli, LAST_TRICK: last_trick, MOST: most, FEWEST: fewest}
    return single[task](seat, table)


def copies_allowed(task: str, split: str) -> int:
    """Copies of ``task`` in the box; with the "free" split any one "exactly" card may have up to all 8 copies."""
    if split == "free" and task in EXACTLY:
        return EXACTLY_CARDS
    return TASK_COPIES[task]


def overdrafted(drafted: Sequence[str], split: str) -> list[tuple[str, int, int]]:
    """Tasks drafted more often than the box holds them: (task, drafted, available); "exactly" cards as a group too."""
    out = [
        (task, drafted.count(task), copies_allowed(task, split))
        for task in TASK_COPIES
        if drafted.count(task) > copies_allowed(task, split)
    ]
    exactly_drafted = sum(1 for task in drafted if task in EXACTLY)
    if exactly_drafted > EXACTLY_CARDS:
        out.append(("exactly", exactly_drafted, EXACTLY_CARDS))
    return out


DRAFT_MESSAGES: dict[str, str] = {
    "was-sticht.draft_list": N_("List the drafted task cards per seat: {players} lists of {count} task ids."),
    "was-sticht.draft_count": N_("Every player drafts exactly {count} task cards, not {drafted}."),
    "was-sticht.task_unknown": N_("'{task}' is not a task card; the task ids are: {tasks}."),
    "was-sticht.draft_copies": NP_(
        "The box holds {available} “{task}” card, but {drafted} were drafted.",
        "The box holds {available} “{task}” cards, but {drafted} were drafted.",
        "available",
    ),
}


def draft_check(drafted: Any, *, players: int, split: str, c: Complaints) -> None:
    """The match option ``tasks``: per seat 4 known task ids, no card drafted more often than the box holds it."""
    if not (isinstance(drafted, list) and len(drafted) == players):
        c.add("options.tasks", "was-sticht.draft_list", "was-sticht-draft", players=players, count=TASKS_PER_PLAYER)
        drafted = []
    every: list[str] = []
    for seat, tasks in enumerate(drafted):
        field = f"options.tasks.{seat}"
        if not isinstance(tasks, list):
            c.add(field, "was-sticht.draft_list", "was-sticht-draft", players=players, count=TASKS_PER_PLAYER)
            continue
        count, rule = len(tasks), "was-sticht-draft"
        c.check(count == TASKS_PER_PLAYER, field, "was-sticht.draft_count", rule, count=TASKS_PER_PLAYER, drafted=count)
        for i, task in enumerate(tasks):
            known = isinstance(task, str) and task in TASK_COPIES
            c.check(
                known, f"{field}.{i}", "was-sticht.task_unknown", "was-sticht-tasks", task=str(task), tasks=TASK_IDS
            )
            if known:
                every.append(task)
    for task, count, available in overdrafted(every, split):
        c.add(
            "options.tasks",
            "was-sticht.draft_copies",
            "was-sticht-tasks",
            task=task,
            drafted=count,
            available=available,
        )


# --- the colours in each seat's tricks (what the "no colour" tasks look at) ----------------------------------
COLOUR_MESSAGES: dict[str, str] = {
    "was-sticht.colours_no_trick": N_("A player without tricks has no colours in them."),
    "was-sticht.colours_too_few": NP_(
        "{tricks} trick holds {cards} cards, so at least {needed} colours (9 cards each), not {count}.",
        "{tricks} tricks hold {cards} cards, so at least {needed} colours (9 cards each), not {count}.",
        "tricks",
    ),
    "was-sticht.colours_missing": N_(
        "A 'no colour' task was revealed: enter the colours in this player's tricks to judge it."
    ),
    "was-sticht.colours_all_played": N_(
        "The tricks hold {cards} cards, so at least {needed} colours appear in them, not {count}."
    ),
}


def colours_needed(cards: int) -> int:
    """Fewest colours that can hold ``cards`` cards (9 of each colour)."""
    return -(-cards // CARDS_PER_COLOUR)


def colour_seats(chosen: Sequence[str | None], start: int | None) -> tuple[int, ...]:
    """The seats whose trick colours decide a revealed "no colour" task: its owner and the start player (who may
    fulfil any revealed task); none when no such task was revealed. What the form asks for, and all it asks for."""
    judged = {s for s, task in enumerate(chosen) if task in NO_COLOUR} | ({start} if start is not None else set())
    return tuple(sorted(judged)) if len(judged) > 1 else ()


def colours_check(table: Table, chosen: Sequence[str | None], start: int, *, players: int, c: Complaints) -> None:
    """The colours entered per seat: none without tricks, enough for the cards taken, present wherever a "no colour"
    task is judged (its owner and the start player), and all the played cards' colours together."""
    for seat, (tricks, colours) in enumerate(zip(table.tricks, table.colours, strict=True)):
        field = f"colours.{seat}"
        if tricks <= 0:
            c.check(not colours, field, "was-sticht.colours_no_trick", "was-sticht-round")
        elif colours is not None:
            cards = tricks * players  # a trick holds one card per player (3 players: the table hand is set aside)
            needed = colours_needed(cards)
            c.check(
                len(colours) >= needed,
                field,
                "was-sticht.colours_too_few",
                "was-sticht-round",
                tricks=tricks,
                cards=cards,
                needed=needed,
                count=len(colours),
            )
    for seat in colour_seats(chosen, start):  # a "no colour" task was revealed: its owner and the start player
        c.check(
            table.tricks[seat] <= 0 or table.colours[seat] is not None,
            f"colours.{seat}",
            "was-sticht.colours_missing",
            "was-sticht-tasks",
        )
    entered = [colours for tricks, colours in zip(table.tricks, table.colours, strict=True) if tricks > 0]
    if entered and all(colours is not None for colours in entered):
        cards = TRICKS * players
        seen: set[str] = set()
        for colours in entered:
            seen |= colours or set()
        needed = colours_needed(cards)
        c.check(
            len(seen) >= needed,
            "colours",
            "was-sticht.colours_all_played",
            "was-sticht-round",
            cards=cards,
            needed=needed,
            count=len(seen),
        )


# --- the round: owners and the start player ("A forduló vége") -------------------------------------------------
@dataclass(frozen=True)
class Verdict:
    """Who fulfilled what this round.

    ``owners``: per seat the outcome of the task that seat revealed (None for the start player).
    ``start_fulfilled``: the revealed tasks the start player fulfilled himself, as (owner seat, task, outcome).
    ``start_return``: the task the start player returns, or None when he earned no return.
    """

    owners: tuple[Outcome | None, ...]
    start_fulfilled: tuple[tuple[int, str, Outcome], ...]
    start_return: str | None

    def earned(self) -> tuple[int, ...]:
        """Owners whose task the start player fulfilled while they missed it: each would earn him a return."""
        return tuple(owner for owner, _, _ in self.start_fulfilled if not self._owner_done(owner))

    def _owner_done(self, owner: int) -> bool:
        outcome = self.owners[owner]
        return outcome is not None and outcome.done

    def returns(self, chosen: Sequence[str | None], start: int) -> list[tuple[int, str, bool]]:
        """The task cards going back this round: (seat, task, returned by the start player's rule)."""
        out = [(seat, task, False) for seat, task in enumerate(chosen) if task is not None and self._owner_done(seat)]
        if self.start_return is not None:
            out.append((start, self.start_return, True))
        return out


def proposed_return(own_tasks: Sequence[str]) -> str | None:
    """The task the app proposes the start player returns: his first task still held, in draft order.

    The rulebook lets him return any of his tasks ("egy tetszőleges feladatkártyát"); this is only the default."""
    return own_tasks[0] if own_tasks else None


def judged(chosen: Sequence[str | None], start: int, table: Table) -> Verdict:
    """Every revealed task judged for its owner and for the start player; no return decided yet."""
    owners = tuple(
        None if seat == start or task is None else judge(task, seat, table) for seat, task in enumerate(chosen)
    )
    fulfilled = []
    for owner, task in enumerate(chosen):
        if owner != start and task is not None:
            outcome = judge(task, start, table)
            if outcome.done:
                fulfilled.append((owner, task, outcome))
    return Verdict(owners=owners, start_fulfilled=tuple(fulfilled), start_return=None)


def round_verdict(
    chosen: Sequence[str | None], start: int, table: Table, own_tasks: Sequence[str], choice: str | None
) -> Verdict:
    """Judge every revealed task for its owner and for the start player.

    The start player returns one of his own tasks when he fulfilled at least one revealed task its owner missed — one
    at most per round.  Which one is his choice in the rulebook; ``choice`` names it, else the app's proposal
    (:func:`proposed_return`: his first task still held in draft order; he holds at least one while the game runs).
    """
    verdict = judged(chosen, start, table)
    if not verdict.earned():
        return verdict
    returned = choice if choice is not None else proposed_return(own_tasks)
    return Verdict(owners=verdict.owners, start_fulfilled=verdict.start_fulfilled, start_return=returned)


START_MESSAGES: dict[str, str] = {
    "was-sticht.start_both": N_("{owner} fulfilled “{task}” too, so only {owner} returns it."),
    "was-sticht.start_returns": NP_(
        "Start player: fulfilled {count} revealed task its owner missed, so returns “{task}” "
        "(the first task still held, in draft order; one per round at most).",
        "Start player: fulfilled {count} revealed tasks their owners missed, so returns “{task}” "
        "(the first task still held, in draft order; one per round at most).",
    ),
    "was-sticht.start_returns_chosen": NP_(
        "Start player: fulfilled {count} revealed task its owner missed, so returns “{task}” "
        "(as chosen; one per round at most).",
        "Start player: fulfilled {count} revealed tasks their owners missed, so returns “{task}” "
        "(as chosen; one per round at most).",
    ),
    "was-sticht.start_no_return": N_(
        "Start player: fulfilled no revealed task that its owner missed, so returns nothing."
    ),
}


def _line(outcome: Outcome, seat: int, points: int | None, **extra: Scalar) -> Line:
    params = tuple(sorted({**dict(outcome.params), **extra}.items()))
    return Line(outcome.msg, "was-sticht-tasks", player=seat, points=points, params=params)


def verdict_lines(verdict: Verdict, chosen: Sequence[str | None], start: int, *, chose_return: bool) -> list[Line]:
    """Explain the verdict: each owner's task (1 point when returned), then the start player's revealed tasks
    fulfilled (informative) and his one return (1 point) or none (0)."""
    lines: list[Line] = []
    for seat, (task, outcome) in enumerate(zip(chosen, verdict.owners, strict=True)):
        if outcome is not None:
            points = 1 if outcome.done else 0
            lines.append(_line(outcome, seat, points, task=task))
    earned = verdict.earned()
    for owner, task, outcome in verdict.start_fulfilled:
        lines.append(_line(outcome, start, None, task=task, owner=owner))
        if owner not in earned:
            lines.append(line("was-sticht.start_both", "was-sticht-start-player", player=start, owner=owner, task=task))
    rule = "was-sticht-start-player"
    if verdict.start_return is None:
        lines.append(line("was-sticht.start_no_return", rule, player=start, points=0))
    else:
        msg = "was-sticht.start_returns_chosen" if chose_return else "was-sticht.start_returns"
        lines.append(line(msg, rule, player=start, points=1, task=verdict.start_return, count=len(earned)))
    return lines
