"""Was sticht? (Karl-Heinz Schmiel), 3–4 players — task cards, round checks and the end of the game.

Rulebook: ``seeds/mue-njet-wassticht-meinz.hu.txt``, "Was sticht?" (Előkészületek, A feladat megjelölése,
A forduló vége, A játék vége, Különleges szabály három játékos esetén, A feladatkártyák); digest ``RULES.md``.
The task cards themselves live in :mod:`.was_sticht_tasks`; who wins a trick is the trick referee's business.

* Each player drafts 4 of the 24 task cards before the first round: the match option ``tasks`` lists them per seat in
  draft order (seat 0 is the first start player and drafts first).
* Each round the start player (seat 0, then rotating left) draws the trumps and lays out the rows; every other player
  picks one of their tasks and all reveal.  After the 9 tricks a fulfilled task goes back to the box (1 point).
* The start player picks no task but may fulfil ANY revealed one: if he fulfils it and its owner does not, he returns
  one of his own tasks — only one per round however many he fulfils; if both fulfil it only the owner returns it.
  The rulebook lets him return any of his tasks ("egy tetszőleges feladatkártyáját"): the optional fact
  ``start_return`` is his choice, accepted only when he holds that task and earned a return this round; without it
  the app proposes his first task still held in draft order (what every round stored without the fact scores by).
* The game ends as soon as a player has returned all four tasks; everyone who does so in that round wins.

Two entries (fact ``entry``): the full one above ("full", or not said as from the API and older rounds), where the
app judges every revealed task from the tricks, and the quick one ("quick", :mod:`.was_sticht_quick`), where the
table judges its tasks and ticks the task cards returned, as on the paper pad.  Both score 1 a card returned.

Option ``exactly_split``: the box holds 8 "exactly N tricks" cards, split not printed.  "even" (default) reads it as
two each of 1, 2, 3 and 4; "free" accepts any split of the eight when checking the draft.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from . import was_sticht_quick as quick
from .errors import Complaints
from .types import N_, PLAYER, MatchState, OptionSpec, RoundResult, deal_index, line, totals_of
from .was_sticht_facts import FULL_SCHEMA, WasStichtFacts, parse_full
from .was_sticht_tasks import (
    COLOUR_MESSAGES,
    DRAFT_MESSAGES,
    OUTCOME_MESSAGES,
    START_MESSAGES,
    TASK_NAMES,
    TASKS_PER_PLAYER,
    TRICKS,
    Verdict,
    colours_check,
    draft_check,
    judged,
    proposed_return,
    round_verdict,
    verdict_lines,
)
from .was_sticht_tasks import colour_seats as colour_seats  # the round form asks for exactly these seats' colours

KEY = "was-sticht"
NAME = "Was sticht?"
VERSION = "1"
MIN_PLAYERS = 3
MAX_PLAYERS = 4

SPLITS = ("even", "free")

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        key="tasks",
        kind="json",
        default=None,
        label=N_("The four task cards each seat drafted, in draft order"),
        rule="was-sticht-draft",
    ),
    OptionSpec(
        key="exactly_split",
        kind="choice",
        default="even",
        label=N_("The eight 'exactly N tricks' cards: two of each, or any split"),
        rule="was-sticht-tasks",
        choices=SPLITS,
    ),
)

SECTIONS: dict[str, str] = {
    "was-sticht-players": N_("Players"),
    "was-sticht-options": N_("Options"),
    "was-sticht-round": N_("Entering a round"),
    "was-sticht-draft": N_("Drafting the task cards"),
    "was-sticht-tasks": N_("The task cards"),
    "was-sticht-start-player": N_("The start player"),
    "was-sticht-tricks": N_("Tricks"),
    "was-sticht-trumps": N_("Trump colour, trump number and the super trump"),
    "was-sticht-end": N_("End of the game"),
}

MESSAGES: dict[str, str] = {
    **TASK_NAMES,
    **OUTCOME_MESSAGES,
    **DRAFT_MESSAGES,
    **START_MESSAGES,
    **COLOUR_MESSAGES,
    **quick.MESSAGES,
    # shape of the facts
    "was-sticht.field_unknown": N_("The round facts have no field called '{name}'."),
    "was-sticht.field_missing": N_("This field is required."),
    "was-sticht.list": N_("Give a list with one entry per player ({count})."),
    "was-sticht.int": N_("Give a whole number."),
    "was-sticht.seat": N_("Give a seat number from 0 to {high}."),
    "was-sticht.colour": N_("'{value}' is not a colour; the colours are: {colours}."),
    "was-sticht.trump_number": N_("The trump number is 1 to 9, or empty for none."),
    "was-sticht.task_id": N_("Give a task id ({tasks}) or leave it empty."),
    "was-sticht.colours_list": N_("Give the colours in this player's tricks as a list, or leave it empty."),
    # game rules
    "was-sticht.match_over": N_("The game is over: a player has returned all four task cards."),
    "was-sticht.start_player_turn": N_("The start player rotates to the left: this round it is {expected}."),
    "was-sticht.tricks_negative": N_("A player cannot take {tricks} tricks."),
    "was-sticht.tricks_sum": N_("Nine tricks are played each round, but these add up to {total}."),
    "was-sticht.last_trick_taker": N_("{seat} took the last trick, so has at least one trick, not 0."),
    "was-sticht.start_no_task": N_("The start player picks no task card."),
    "was-sticht.task_missing": N_("Every player except the start player picks one task card."),
    "was-sticht.task_not_held": N_("{seat} does not hold the task “{task}” (held: {held})."),
    "was-sticht.start_return_not_held": N_("{seat}, the start player, does not hold the task “{task}” (held: {held})."),
    "was-sticht.start_return_not_earned": N_(
        "{seat}, the start player, fulfilled no revealed task that its owner missed, so returns no task this "
        "round (not “{task}”)."
    ),
}

_TASK, _COLOUR = "was-sticht.task", "was-sticht.colour"
# message id -> its params' kinds: seats shown as names, task and colour ids as their labels
PARAMS: dict[str, dict[str, str]] = {
    "was-sticht.start_player_turn": {"expected": PLAYER},
    "was-sticht.last_trick_taker": {"seat": PLAYER},
    "was-sticht.task_not_held": {"seat": PLAYER, "task": _TASK, "held": _TASK},
    "was-sticht.start_return_not_held": {"seat": PLAYER, "task": _TASK, "held": _TASK},
    "was-sticht.start_return_not_earned": {"seat": PLAYER, "task": _TASK},
    "was-sticht.start_both": {"owner": PLAYER, "task": _TASK},
    "was-sticht.start_returns": {"task": _TASK},
    "was-sticht.start_returns_chosen": {"task": _TASK},
    "was-sticht.draft_copies": {"task": _TASK},
    "was-sticht.no_colour_done": {"colour": _COLOUR},
    "was-sticht.no_colour_has": {"colour": _COLOUR},
    "was-sticht.no_colour_no_trick": {"colour": _COLOUR},
    **quick.PARAMS,
}

# the full entry (the app judges the tasks) or the quick one (the task cards returned, judged at the table)
FACTS_SCHEMA: dict[str, Any] = {"oneOf": [FULL_SCHEMA, quick.SCHEMA]}


EXAMPLE_TASKS: list[list[str]] = [
    ["betli", "most", "exactly-2", "no-red"],
    ["exactly-2", "last-trick", "fewest", "no-blue"],
    ["betli", "exactly-3", "most", "no-green"],
    ["last-trick", "fewest", "exactly-1", "no-yellow"],
]

# Trumps red and 2 as in the rulebook's draft example; Márk (seat 1), Éva (seat 2), Jenő (seat 3) fulfil their tasks,
# and the start player Anita also takes exactly 2 tricks — but Márk fulfils it too, so only he returns it.
EXAMPLE: dict[str, Any] = {
    "players": 4,
    "options": {"tasks": EXAMPLE_TASKS},
    "facts": {
        "start_player": 0,
        "trump_colour": "red",
        "trump_number": 2,
        "chosen": [None, "exactly-2", "betli", "last-trick"],
        "tricks": [2, 2, 0, 5],
        "last_trick": 3,
    },
}


Facts = WasStichtFacts | quick.QuickFacts


# --- options ---------------------------------------------------------------------------------------------------
def options_validate(options: Mapping[str, Any], *, players: int) -> None:
    """The draft: 4 known task cards per seat, never more copies of a card than the box holds."""
    c = Complaints(MESSAGES, PARAMS)
    draft_check(options.get("tasks"), players=players, split=options.get("exactly_split", "even"), c=c)
    c.raise_if_any()


def facts_parse(data: Mapping[str, Any], *, players: int, options: Mapping[str, Any]) -> Facts:
    """Check the shape of the submitted facts (either entry's); the game's rules come in :func:`validate`."""
    c = Complaints(MESSAGES, PARAMS)
    parsed: Facts = (
        quick.facts_parse(data, players=players, c=c)
        if data.get("entry") == quick.ENTRY
        else parse_full(data, players=players, c=c)
    )
    c.raise_if_any()
    return parsed


# --- validation ------------------------------------------------------------------------------------------------
def held_before(state: MatchState, options: Mapping[str, Any]) -> list[list[str]]:
    """Each seat's task cards still held before this round (the draft, before the first round)."""
    held = state.extra.get("held", options["tasks"])
    return [list(tasks) for tasks in held]


def _check_tricks(facts: WasStichtFacts, c: Complaints) -> None:
    for seat, tricks in enumerate(facts.tricks):
        c.check(tricks >= 0, f"tricks.{seat}", "was-sticht.tricks_negative", "was-sticht-tricks", tricks=tricks)
    total = sum(facts.tricks)
    c.check(total == TRICKS, "tricks", "was-sticht.tricks_sum", "was-sticht-tricks", total=total)
    seat = facts.last_trick
    c.check(facts.tricks[seat] > 0, "last_trick", "was-sticht.last_trick_taker", "was-sticht-tricks", seat=seat)


def _check_tasks(facts: WasStichtFacts, held: list[list[str]], c: Complaints) -> None:
    for seat, task in enumerate(facts.chosen):
        field = f"chosen.{seat}"
        if seat == facts.start_player:
            c.check(task is None, field, "was-sticht.start_no_task", "was-sticht-start-player")
        elif task is None:
            c.add(field, "was-sticht.task_missing", "was-sticht-tasks")
        else:
            c.check(
                task in held[seat],
                field,
                "was-sticht.task_not_held",
                "was-sticht-tasks",
                seat=seat,
                task=task,
                held=", ".join(held[seat]),
            )
    own = held[facts.start_player]
    if facts.start_return is not None:
        c.check(
            facts.start_return in own,
            "start_return",
            "was-sticht.start_return_not_held",
            "was-sticht-start-player",
            seat=facts.start_player,
            task=facts.start_return,
            held=", ".join(own),
        )


def _check_return_earned(facts: WasStichtFacts, c: Complaints) -> None:
    """A chosen return needs a return earned: a revealed task he fulfilled while its owner missed it."""
    if facts.start_return is not None:
        c.check(
            start_return_earned(facts),
            "start_return",
            "was-sticht.start_return_not_earned",
            "was-sticht-start-player",
            seat=facts.start_player,
            task=facts.start_return,
        )


def validate(facts: Facts, *, players: int, options: Mapping[str, Any], state: MatchState) -> None:
    """Refuse rounds the game cannot produce; every broken rule is reported at once."""
    c = Complaints(MESSAGES, PARAMS)
    c.check(not state.finished, "", "was-sticht.match_over", "was-sticht-end")
    # the start player moves left with every deal at the table (``next_starter``; none once the game is over)
    c.check(
        state.next_starter is None or facts.start_player == state.next_starter,
        "start_player",
        "was-sticht.start_player_turn",
        "was-sticht-start-player",
        expected=state.next_starter,
    )
    if isinstance(facts, quick.QuickFacts):
        if not state.finished:  # once over, nobody holds a task to judge
            quick.validate(facts, players=players, held=held_before(state, options), c=c)
        c.raise_if_any()
        return
    _check_tricks(facts, c)
    _check_tasks(facts, held_before(state, options), c)
    colours_check(facts.table(), facts.chosen, facts.start_player, players=players, c=c)
    if not c.problems:  # the tasks can only be judged on a round that is otherwise sound
        _check_return_earned(facts, c)
    c.raise_if_any()


# --- scoring ---------------------------------------------------------------------------------------------------
def start_return_earned(facts: WasStichtFacts) -> bool:
    """Did the start player fulfil a revealed task whose owner missed it (so he returns one of his tasks)?"""
    return bool(judged(facts.chosen, facts.start_player, facts.table()).earned())


def start_return_proposed(held: Sequence[str]) -> str | None:
    """The task the app proposes the start player returns, from the tasks he holds (he may choose another)."""
    return proposed_return(held)


def verdict_of(facts: WasStichtFacts, held: Sequence[Sequence[str]]) -> Verdict:
    """The round's verdict given the tasks held before it (see :func:`.was_sticht_tasks.round_verdict`)."""
    start = facts.start_player
    return round_verdict(facts.chosen, start, facts.table(), held[start], facts.start_return)


def score_round(facts: Facts, *, players: int, options: Mapping[str, Any], state: MatchState) -> RoundResult:
    """One point per task card returned this round: the owners' fulfilled tasks and the start player's one return."""
    if isinstance(facts, quick.QuickFacts):
        return quick.score_round(facts, players=players)
    verdict = verdict_of(facts, held_before(state, options))
    lines = verdict_lines(verdict, facts.chosen, facts.start_player, chose_return=facts.start_return is not None)
    if facts.entry == "full":
        lines.insert(0, line("was-sticht.entry_full", "was-sticht-round"))
    scores = [0] * players
    for ln in lines:
        if ln.player is not None and ln.points:
            scores[ln.player] += ln.points
    return RoundResult(scores=tuple(scores), lines=tuple(lines))


# --- the match -------------------------------------------------------------------------------------------------
def match_state(
    history: Sequence[tuple[Facts, RoundResult]],
    *,
    players: int,
    options: Mapping[str, Any],
    deal: int | None = None,
) -> MatchState:
    """Tasks held and returned per seat; the game ends once a player has returned all four, and all of them win.

    ``extra["returned"][seat]`` lists ``{"task", "round", "fulfilled_by", "as_start_player"}``; a start player's
    return also names the revealed tasks he fulfilled while their owners missed them (``covering``), unless the
    quick entry made the round (the table judged the tasks; which ones were revealed is not entered).
    """
    held = [list(tasks) for tasks in options["tasks"]]
    returned: list[list[dict[str, Any]]] = [[] for _ in range(players)]
    for number, (facts, _) in enumerate(history, start=1):
        if isinstance(facts, quick.QuickFacts):
            for seat, task, by_start in quick.returns(facts):
                held[seat].remove(task)
                returned[seat].append(
                    {"task": task, "round": number, "fulfilled_by": seat, "as_start_player": by_start}
                )
            continue
        verdict = verdict_of(facts, held)
        covering = [{"owner": owner, "task": facts.chosen[owner]} for owner in verdict.earned()]
        for seat, task, by_start in verdict.returns(facts.chosen, facts.start_player):
            held[seat].remove(task)
            record = {"task": task, "round": number, "fulfilled_by": seat, "as_start_player": by_start}
            returned[seat].append({**record, "covering": covering} if by_start else record)
    played = len(history)
    winners = tuple(seat for seat, tasks in enumerate(held) if not tasks)
    finished = bool(winners)
    starter = None if finished else deal_index(played, deal) % players
    return MatchState(
        totals=totals_of([result for _, result in history], players),
        rounds_played=played,
        finished=finished,
        winners=winners,
        next_dealer=starter,
        next_starter=starter,
        target=TASKS_PER_PLAYER,
        extra={"held": held, "returned": returned},
    )
