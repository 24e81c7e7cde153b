"""Was sticht?: the task cards, the start player's rule, the draft, round checks and the end of the game.

The trump-order and draft examples of RULES.md belong to the trick referee (tricks.py); here are the scoring ones.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules import InvalidRound, get, was_sticht
from scoring.rules.was_sticht_tasks import COLOURS, TASK_COPIES, Table, judge

RULES = get("was-sticht")

DRAFT = [
    ["betli", "most", "exactly-2", "no-red"],
    ["exactly-2", "last-trick", "fewest", "no-blue"],
    ["betli", "exactly-3", "most", "no-green"],
    ["last-trick", "fewest", "exactly-1", "no-yellow"],
]
DRAFT3 = DRAFT[:3]
ALL = list(COLOURS)


def facts(
    chosen: list[str | None],
    tricks: list[int],
    last: int,
    start: int = 0,
    colours: list[list[str] | None] | None = None,
    **more: Any,
) -> dict[str, Any]:
    out: dict[str, Any] = {"start_player": start, "chosen": chosen, "tricks": tricks, "last_trick": last, **more}
    if colours is not None:
        out["colours"] = colours
    return out


def score(f: dict[str, Any], draft: list[list[str]] = DRAFT, before: tuple[Any, ...] = (), **options: Any) -> Any:
    return RULES.score(f, players=len(draft), options={"tasks": draft, **options}, before=before)


def problems(
    f: Any, draft: list[list[str]] = DRAFT, before: tuple[Any, ...] = (), **options: Any
) -> set[tuple[str, str, str]]:
    with pytest.raises(InvalidRound) as info:
        score(f, draft, before, **options)
    return {(p.field, p.msg, p.rule) for p in info.value.problems}


def assert_lines_add_up(result: Any, players: int) -> None:
    for seat in range(players):
        points = [ln.points for ln in result.lines if ln.player == seat and ln.points is not None]
        assert sum(points) == result.scores[seat]


def msgs_of(result: Any, seat: int) -> list[str]:
    return [ln.msg for ln in result.lines if ln.player == seat]


# --- the module's example (trumps red and 2, as in the rulebook's draft example) --------------------------------
def test_was_sticht_example_owners_return_and_start_player_shares_exactly_two():
    example = RULES.example
    result = RULES.score(example["facts"], players=example["players"], options=example["options"])
    assert result.scores == (0, 1, 1, 1)
    assert msgs_of(result, 0) == ["was-sticht.exactly_done", "was-sticht.start_both", "was-sticht.start_no_return"]
    assert_lines_add_up(result, 4)


# --- every task card, fulfilled and missed ---------------------------------------------------------------------
def table(tricks: list[int], last: int = 0, colours: list[list[str] | None] | None = None) -> Table:
    sets = tuple(None if c is None else frozenset(c) for c in (colours or [None] * len(tricks)))
    return Table(tricks=tuple(tricks), last_trick=last, colours=sets)


@pytest.mark.parametrize(
    ("task", "tricks", "seat", "done", "msg"),
    [
        ("betli", [0, 3, 3, 3], 0, True, "was-sticht.betli_done"),
        ("betli", [1, 3, 3, 2], 0, False, "was-sticht.betli_missed"),
        ("exactly-1", [1, 3, 3, 2], 0, True, "was-sticht.exactly_done"),
        ("exactly-1", [2, 3, 2, 2], 0, False, "was-sticht.exactly_missed"),
        ("exactly-2", [2, 3, 2, 2], 0, True, "was-sticht.exactly_done"),
        ("exactly-2", [3, 3, 1, 2], 0, False, "was-sticht.exactly_missed"),
        ("exactly-3", [3, 3, 1, 2], 0, True, "was-sticht.exactly_done"),
        ("exactly-3", [0, 3, 3, 3], 0, False, "was-sticht.exactly_missed"),
        ("exactly-4", [4, 3, 1, 1], 0, True, "was-sticht.exactly_done"),
        ("exactly-4", [5, 2, 1, 1], 0, False, "was-sticht.exactly_missed"),
        ("most", [4, 3, 1, 1], 0, True, "was-sticht.most_done"),
        ("most", [3, 3, 2, 1], 0, False, "was-sticht.most_missed"),  # as many: fails
        ("most", [2, 4, 2, 1], 0, False, "was-sticht.most_missed"),
        ("fewest", [1, 3, 3, 2], 0, True, "was-sticht.fewest_done"),
        ("fewest", [0, 3, 3, 3], 0, False, "was-sticht.fewest_no_trick"),  # needs at least one trick
        ("fewest", [2, 2, 3, 2], 0, False, "was-sticht.fewest_missed"),  # as few: fails
        ("fewest", [1, 0, 4, 4], 0, False, "was-sticht.fewest_missed"),  # a player with none defeats it
        ("most", [5, 4], 0, True, "was-sticht.most_done"),
    ],
)
def test_was_sticht_task_by_tricks(task: str, tricks: list[int], seat: int, done: bool, msg: str):
    outcome = judge(task, seat, table(tricks))
    assert (outcome.done, outcome.msg) == (done, msg)


def test_was_sticht_task_last_trick():
    assert judge("last-trick", 2, table([3, 3, 3, 0], last=2)).done
    missed = judge("last-trick", 2, table([3, 3, 3, 0], last=1))
    assert (missed.done, missed.msg, dict(missed.params)) == (False, "was-sticht.last_missed", {"winner": 1})


@pytest.mark.parametrize("colour", COLOURS)
def test_was_sticht_task_no_colour(colour: str):
    others = [c for c in COLOURS if c != colour]
    task = f"no-{colour}"
    done = judge(task, 0, table([3, 3, 3, 0], colours=[others, ALL, ALL, None]))
    assert (done.done, done.msg, dict(done.params)) == (
        True,
        "was-sticht.no_colour_done",
        {"colour": colour, "tricks": 3},
    )
    has = judge(task, 0, table([3, 3, 3, 0], colours=[[colour, *others[:1]], ALL, ALL, None]))
    assert (has.done, has.msg) == (False, "was-sticht.no_colour_has")
    none = judge(task, 3, table([3, 3, 3, 0], colours=[ALL, ALL, ALL, None]))
    assert (none.done, none.msg) == (False, "was-sticht.no_colour_no_trick")


def test_was_sticht_task_ids_and_copies_are_the_24_cards():
    assert sum(TASK_COPIES.values()) == 24
    assert TASK_COPIES == {
        "betli": 3,
        "no-red": 1,
        "no-blue": 1,
        "no-green": 1,
        "no-yellow": 1,
        "exactly-1": 2,
        "exactly-2": 2,
        "exactly-3": 2,
        "exactly-4": 2,
        "last-trick": 3,
        "most": 3,
        "fewest": 3,
    }
    assert all(f"was-sticht.task.{task}" in RULES.messages for task in TASK_COPIES)


# --- owners return their fulfilled tasks -----------------------------------------------------------------------
def test_was_sticht_owner_fulfils_and_misses():
    result = score(facts([None, "fewest", "most", "exactly-1"], [4, 1, 2, 2], last=2))
    assert result.scores == (1, 1, 0, 0)  # the start player's 4 tricks fulfil "most", which seat 2 missed
    assert msgs_of(result, 3) == ["was-sticht.exactly_missed"]
    assert_lines_add_up(result, 4)


def test_was_sticht_no_colour_task_through_the_registry():
    f = facts(
        [None, "no-blue", "betli", "last-trick"], [3, 4, 0, 2], last=3, colours=[ALL, ["red", "green"], None, ALL]
    )
    assert score(f).scores == (0, 1, 1, 1)
    f["colours"][1] = ["red", "blue"]
    assert score(f).scores == (0, 0, 1, 1)


# --- the start player's rule -----------------------------------------------------------------------------------
def test_was_sticht_start_player_fulfils_a_task_its_owner_missed():
    # seat 1 wants exactly 2 but takes 1; the start player (seat 0) takes exactly 2 → returns his first task, betli
    result = score(facts([None, "exactly-2", "betli", "last-trick"], [2, 1, 0, 6], last=3))
    assert result.scores == (1, 0, 1, 1)
    start = [ln for ln in result.lines if ln.player == 0]
    assert [ln.msg for ln in start] == ["was-sticht.exactly_done", "was-sticht.start_returns"]
    assert (start[0].points, dict(start[0].params)["owner"]) == (None, 1)
    assert dict(start[1].params) == {"task": "betli", "count": 1}
    state = RULES.state(
        [facts([None, "exactly-2", "betli", "last-trick"], [2, 1, 0, 6], last=3)], players=4, options={"tasks": DRAFT}
    )
    assert state.extra["held"][0] == ["most", "exactly-2", "no-red"]
    assert state.extra["returned"][0] == [
        {
            "task": "betli",
            "round": 1,
            "fulfilled_by": 0,
            "as_start_player": True,
            "covering": [{"owner": 1, "task": "exactly-2"}],
        }
    ]


def test_was_sticht_both_fulfil_only_the_owner_returns():
    result = score(facts([None, "exactly-2", "betli", "last-trick"], [2, 2, 0, 5], last=3))
    assert result.scores == (0, 1, 1, 1)
    assert "was-sticht.start_both" in msgs_of(result, 0)


def test_was_sticht_start_player_returns_one_task_however_many_he_fulfils():
    # the start player takes the most tricks AND the last trick; both owners miss
    f = facts([None, "last-trick", "most", "fewest"], [5, 2, 2, 0], last=0)
    result = score(f)
    assert result.scores == (1, 0, 0, 0)
    final = result.lines[-1]
    assert (final.msg, final.points, dict(final.params)) == (
        "was-sticht.start_returns",
        1,
        {"task": "betli", "count": 2},
    )
    state = RULES.state([f], players=4, options={"tasks": DRAFT})
    assert state.extra["held"][0] == ["most", "exactly-2", "no-red"]
    assert len(state.extra["returned"][0][0]["covering"]) == 2
    assert_lines_add_up(result, 4)


def test_was_sticht_start_player_may_name_the_task_he_returns():
    f = facts([None, "last-trick", "most", "fewest"], [5, 2, 2, 0], last=0, start_return="no-red")
    result = score(f)
    assert result.lines[-1].msg == "was-sticht.start_returns_chosen"
    assert RULES.state([f], players=4, options={"tasks": DRAFT}).extra["held"][0] == ["betli", "most", "exactly-2"]


def test_was_sticht_start_player_fulfils_nothing():
    result = score(facts([None, "exactly-2", "betli", "last-trick"], [4, 2, 0, 3], last=3))
    assert result.scores == (0, 1, 1, 1)
    assert msgs_of(result, 0) == ["was-sticht.start_no_return"]


def test_was_sticht_start_player_and_no_colour_tasks():
    # seat 2 misses "no green" (green in the tricks); the start player has no green → he earns the return
    f = facts(
        [None, "fewest", "no-green", "exactly-1"], [3, 2, 3, 1], last=0, colours=[["red", "blue"], None, ALL, None]
    )
    assert score(f).scores == (1, 0, 0, 1)


def test_was_sticht_three_players_compare_among_the_three():
    f = facts([None, "fewest", "most"], [2, 1, 6], last=2, colours=[["red"], ["red"], ALL])
    assert score(f, DRAFT3).scores == (0, 1, 1)


# --- the match: rotation, held tasks, end of the game ----------------------------------------------------------
def test_was_sticht_start_player_rotates_left():
    rounds = [
        facts([None, "exactly-2", "betli", "last-trick"], [4, 2, 0, 3], last=3, start=0),
        facts(["most", None, "exactly-3", "fewest"], [3, 3, 2, 1], last=0, start=1),
    ]
    state = RULES.state(rounds, players=4, options={"tasks": DRAFT})
    assert (state.next_starter, state.next_dealer, state.rounds_played, state.target) == (2, 2, 2, 4)
    assert problems(facts(["most", "fewest", None, "fewest"], [1, 2, 3, 3], last=2, start=3), before=tuple(rounds)) >= {
        ("start_player", "was-sticht.start_player_turn", "was-sticht-start-player")
    }


def test_was_sticht_returned_task_is_no_longer_held():
    first = facts([None, "exactly-2", "betli", "last-trick"], [4, 2, 0, 3], last=3)
    again = facts(["most", None, "betli", "last-trick"], [3, 3, 2, 1], last=0, start=1)
    assert problems(again, before=(first,)) == {
        ("chosen.2", "was-sticht.task_not_held", "was-sticht-tasks"),
        ("chosen.3", "was-sticht.task_not_held", "was-sticht-tasks"),
    }


def _finish_rounds() -> list[dict[str, Any]]:
    # seat 1 (exactly-2, last-trick, fewest, no-blue) returns one task per round
    return [
        facts([None, "exactly-2", "exactly-3", "exactly-1"], [4, 2, 2, 1], last=0, start=0),
        facts(["exactly-2", None, "most", "fewest"], [3, 2, 4, 0], last=1, start=1),  # via the start player's rule
        facts(["most", "fewest", None, "no-yellow"], [4, 1, 2, 2], last=0, start=2, colours=[ALL, None, ALL, ["red"]]),
        facts(
            ["exactly-2", "no-blue", "exactly-3", None], [4, 1, 2, 2], last=0, start=3, colours=[ALL, ["red"], ALL, ALL]
        ),
    ]


def test_was_sticht_game_ends_when_a_player_has_returned_all_four():
    rounds = _finish_rounds()
    state = RULES.state(rounds[:3], players=4, options={"tasks": DRAFT})
    assert (state.finished, state.winners, state.extra["held"][1]) == (False, (), ["no-blue"])
    state = RULES.state(rounds, players=4, options={"tasks": DRAFT})
    assert state.finished
    assert state.winners == (1,)
    assert state.totals[1] == 4
    assert (state.next_starter, state.next_dealer) == (None, None)
    assert [r["round"] for r in state.extra["returned"][1]] == [1, 2, 3, 4]
    assert problems(rounds[0], before=tuple(rounds)) >= {("", "was-sticht.match_over", "was-sticht-end")}


def test_was_sticht_everyone_finishing_in_the_same_round_wins():
    draft = [
        ["betli", "most", "fewest", "no-red"],
        ["betli", "exactly-1", "exactly-2", "exactly-3"],
        ["betli", "exactly-1", "exactly-2", "exactly-3"],
    ]
    rounds = [
        facts([None, "exactly-3", "exactly-3"], [3, 3, 3], last=0, start=0),  # both owners return
        facts(["most", None, "exactly-2"], [2, 5, 2], last=1, start=1),  # seat 1 returns betli by the start rule
        facts(["betli", "exactly-2", None], [7, 2, 0], last=0, start=2),  # seat 2 returns betli by the start rule
        facts([None, "exactly-1", "exactly-1"], [7, 1, 1], last=0, start=0),  # both return their last task
    ]
    state = RULES.state(rounds, players=3, options={"tasks": draft})
    assert state.extra["held"] == [["betli", "most", "fewest", "no-red"], [], []]
    assert state.finished
    assert state.winners == (1, 2)


# --- validation: the game's rules ------------------------------------------------------------------------------
GOOD = facts([None, "exactly-2", "betli", "last-trick"], [4, 2, 0, 3], last=3)


def with_(**changes: Any) -> dict[str, Any]:
    return {**GOOD, **changes}


@pytest.mark.parametrize(
    ("changes", "field", "msg", "rule"),
    [
        ({"tricks": [4, 2, 0, 4]}, "tricks", "was-sticht.tricks_sum", "was-sticht-tricks"),
        ({"tricks": [6, 2, -2, 3]}, "tricks.2", "was-sticht.tricks_negative", "was-sticht-tricks"),
        ({"last_trick": 2}, "last_trick", "was-sticht.last_trick_taker", "was-sticht-tricks"),
        (
            {"chosen": ["most", "exactly-2", "betli", "last-trick"]},
            "chosen.0",
            "was-sticht.start_no_task",
            "was-sticht-start-player",
        ),
        ({"chosen": [None, None, "betli", "last-trick"]}, "chosen.1", "was-sticht.task_missing", "was-sticht-tasks"),
        ({"chosen": [None, "exactly-2", "most", "betli"]}, "chosen.3", "was-sticht.task_not_held", "was-sticht-tasks"),
        ({"start_return": "fewest"}, "start_return", "was-sticht.start_return_not_held", "was-sticht-start-player"),
        (
            {"start_player": 1, "chosen": ["most", None, "betli", "last-trick"]},
            "start_player",
            "was-sticht.start_player_turn",
            "was-sticht-start-player",
        ),
        ({"colours": [ALL, ALL, ["red"], ALL]}, "colours.2", "was-sticht.colours_no_trick", "was-sticht-round"),
        ({"colours": [["red"], ALL, None, ALL]}, "colours.0", "was-sticht.colours_too_few", "was-sticht-round"),
        ({"colours": [[], ALL, None, ALL]}, "colours.0", "was-sticht.colours_too_few", "was-sticht-round"),
        (
            {"colours": [["red", "blue"], ["red"], None, ["red", "blue"]]},
            "colours",
            "was-sticht.colours_all_played",
            "was-sticht-round",
        ),
    ],
)
def test_was_sticht_round_rules_refused(changes: dict[str, Any], field: str, msg: str, rule: str):
    assert (field, msg, rule) in problems(with_(**changes))


def test_was_sticht_task_not_held_names_the_rule_and_the_held_tasks():
    with pytest.raises(InvalidRound) as info:
        score(with_(chosen=[None, "exactly-2", "most", "betli"]))
    (problem,) = [p for p in info.value.problems if p.field == "chosen.3"]
    assert dict(problem.params) == {"seat": 3, "task": "betli", "held": "last-trick, fewest, exactly-1, no-yellow"}
    assert "does not hold" in problem.text


def test_was_sticht_colours_needed_for_a_revealed_no_colour_task():
    f = facts([None, "no-blue", "betli", "fewest"], [3, 4, 0, 2], last=1)
    assert problems(f) == {
        ("colours.0", "was-sticht.colours_missing", "was-sticht-tasks"),
        ("colours.1", "was-sticht.colours_missing", "was-sticht-tasks"),
    }
    # the others' colours are not needed; a start player without tricks needs none either
    f = facts([None, "no-blue", "most", "fewest"], [0, 3, 5, 1], last=1, colours=[None, ["red", "green"], None, None])
    assert score(f).scores == (0, 1, 1, 0)


def test_was_sticht_three_players_tricks_hold_three_cards():
    # 3 tricks of 3 cards fit in one colour; 27 cards played need at least 3 colours
    ok = facts([None, "no-blue", "most"], [3, 1, 5], last=2, colours=[["blue"], ["green"], ALL])
    assert score(ok, DRAFT3).scores == (0, 1, 1)
    bad = facts([None, "no-blue", "most"], [3, 1, 5], last=2, colours=[["blue"], ["blue"], ["blue"]])
    found = problems(bad, DRAFT3)
    assert found == {
        ("colours.2", "was-sticht.colours_too_few", "was-sticht-round"),
        ("colours", "was-sticht.colours_all_played", "was-sticht-round"),
    }


def test_was_sticht_every_seat_without_tricks_checks_nothing_overall():
    found = problems(facts([None, "exactly-2", "betli", "last-trick"], [0, 0, 0, 0], last=3, colours=[None] * 4))
    assert ("colours", "was-sticht.colours_all_played", "was-sticht-round") not in found
    assert ("tricks", "was-sticht.tricks_sum", "was-sticht-tricks") in found


# --- validation: the shape of the facts ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("data", "field", "msg"),
    [
        ({k: v for k, v in GOOD.items() if k != "tricks"}, "tricks", "was-sticht.field_missing"),
        ({k: v for k, v in GOOD.items() if k != "start_player"}, "start_player", "was-sticht.field_missing"),
        ({**GOOD, "bonus": 1}, "bonus", "was-sticht.field_unknown"),
        ({**GOOD, "tricks": [4, 2, 3]}, "tricks", "was-sticht.list"),
        ({**GOOD, "chosen": "betli"}, "chosen", "was-sticht.list"),
        ({**GOOD, "tricks": [4, 2, 0, "3"]}, "tricks.3", "was-sticht.int"),
        ({**GOOD, "tricks": [4, 2, False, 3]}, "tricks.2", "was-sticht.int"),
        ({**GOOD, "start_player": 4}, "start_player", "was-sticht.seat"),
        ({**GOOD, "last_trick": True}, "last_trick", "was-sticht.seat"),
        ({**GOOD, "last_trick": -1}, "last_trick", "was-sticht.seat"),
        ({**GOOD, "chosen": [None, "exactly-5", "betli", "last-trick"]}, "chosen.1", "was-sticht.task_id"),
        ({**GOOD, "chosen": [None, 3, "betli", "last-trick"]}, "chosen.1", "was-sticht.task_id"),
        ({**GOOD, "start_return": "win"}, "start_return", "was-sticht.task_id"),
        ({**GOOD, "colours": [ALL, ALL]}, "colours", "was-sticht.list"),
        ({**GOOD, "colours": "red"}, "colours", "was-sticht.list"),
        ({**GOOD, "colours": [ALL, "red", None, ALL]}, "colours.1", "was-sticht.colours_list"),
        ({**GOOD, "colours": [["red", "black"], ALL, None, ALL]}, "colours.0.1", "was-sticht.colour"),
        ({**GOOD, "colours": [[1], ALL, None, ALL]}, "colours.0.0", "was-sticht.colour"),
        ({**GOOD, "trump_colour": "grey"}, "trump_colour", "was-sticht.colour"),
        ({**GOOD, "trump_number": 0}, "trump_number", "was-sticht.trump_number"),
        ({**GOOD, "trump_number": True}, "trump_number", "was-sticht.trump_number"),
    ],
)
def test_was_sticht_facts_shape_refused(data: dict[str, Any], field: str, msg: str):
    found = problems(data)
    assert any(f == field and m == msg for f, m, _ in found)


def test_was_sticht_facts_must_be_an_object():
    assert problems("betli") == {("facts", "core.facts_object", "was-sticht-round")}


def test_was_sticht_trumps_are_kept_for_the_record():
    stored = RULES.normalise(
        {**GOOD, "trump_colour": "red", "trump_number": 5, "colours": [ALL, ["red"], None, ALL]},
        players=4,
        options={"tasks": DRAFT},
    )
    assert stored["trump_colour"] == "red"
    assert stored["trump_number"] == 5
    assert stored["colours"] == [sorted(ALL), ["red"], None, sorted(ALL)]
    assert score({**GOOD, "trump_colour": None, "trump_number": None}).scores == (0, 1, 1, 1)


# --- the draft (match option "tasks") --------------------------------------------------------------------------
def option_problems(players: int = 4, **options: Any) -> set[tuple[str, str, str]]:
    with pytest.raises(InvalidRound) as info:
        RULES.options_parse(options, players=players)
    return {(p.field, p.msg, p.rule) for p in info.value.problems}


def test_was_sticht_draft_is_required():
    assert option_problems() == {("options.tasks", "was-sticht.draft_list", "was-sticht-draft")}
    assert option_problems(tasks=DRAFT3) == {("options.tasks", "was-sticht.draft_list", "was-sticht-draft")}


def test_was_sticht_draft_four_known_tasks_per_seat():
    found = option_problems(tasks=[DRAFT[0], "betli", DRAFT[2][:3], [*DRAFT[3][:3], "win"]])
    assert found == {
        ("options.tasks.1", "was-sticht.draft_list", "was-sticht-draft"),
        ("options.tasks.2", "was-sticht.draft_count", "was-sticht-draft"),
        ("options.tasks.3.3", "was-sticht.task_unknown", "was-sticht-tasks"),
    }


def test_was_sticht_draft_never_more_copies_than_the_box():
    draft = [["betli", "betli", "no-red", "most"], ["betli", "betli", "no-red", "most"], DRAFT[1], DRAFT[3]]
    with pytest.raises(InvalidRound) as info:
        RULES.options_parse({"tasks": draft}, players=4)
    copies = {dict(p.params)["task"]: dict(p.params) for p in info.value.problems}
    assert copies["betli"] == {"task": "betli", "drafted": 4, "available": 3}
    assert copies["no-red"] == {"task": "no-red", "drafted": 2, "available": 1}
    assert {p.msg for p in info.value.problems} == {"was-sticht.draft_copies"}


def test_was_sticht_exactly_split_option():
    draft = [["exactly-1"] * 3 + ["betli"], ["exactly-1", "most", "fewest", "last-trick"], DRAFT[2], DRAFT[3]]
    assert ("options.tasks", "was-sticht.draft_copies", "was-sticht-tasks") in option_problems(tasks=draft)
    assert RULES.options_parse({"tasks": draft, "exactly_split": "free"}, players=4)["exactly_split"] == "free"
    nine = [["exactly-1"] * 4, ["exactly-2"] * 4, ["exactly-3", "betli", "most", "fewest"], DRAFT[3]]
    found = option_problems(tasks=nine, exactly_split="free")
    assert found == {("options.tasks", "was-sticht.draft_copies", "was-sticht-tasks")}


# --- properties ------------------------------------------------------------------------------------------------
@st.composite
def round_for(draw: st.DrawFn, state: Any, players: int) -> dict[str, Any]:
    """A valid round for the match as it stands."""
    start = state.next_starter
    cuts = sorted(draw(st.lists(st.integers(0, 9), min_size=players - 1, max_size=players - 1)))
    tricks = [b - a for a, b in zip([0, *cuts], [*cuts, 9], strict=True)]
    last = draw(st.sampled_from([s for s in range(players) if tricks[s] > 0]))
    held = state.extra["held"]
    chosen = [None if s == start else draw(st.sampled_from(held[s])) for s in range(players)]
    colours: list[list[str] | None] = []
    for s in range(players):
        if tricks[s] == 0:
            colours.append(None)
        else:
            need = -(-tricks[s] * players // 9)
            colours.append(sorted(draw(st.sets(st.sampled_from(COLOURS), min_size=need))))
    seen = {c for cs in colours if cs for c in cs}
    if len(seen) < players:
        colours[last] = list(COLOURS)
    return facts(chosen, tricks, last, start, colours)


@settings(max_examples=60, deadline=None)
@given(st.data(), st.sampled_from([3, 4]))
def test_was_sticht_property_matches_keep_their_books(data: st.DataObject, players: int):
    draft = DRAFT[:players]
    options = {"tasks": draft}
    rounds: list[dict[str, Any]] = []
    state = RULES.state(rounds, players=players, options=options)
    while not state.finished and len(rounds) < 12:
        f = data.draw(round_for(state, players))
        result = RULES.score(f, players=players, options=options, before=rounds)
        assert_lines_add_up(result, players)
        assert all(points in (0, 1) for points in result.scores)  # the start player returns one task at most
        rounds.append(f)
        state = RULES.state(rounds, players=players, options=options)
        for seat in range(players):
            returned = [r["task"] for r in state.extra["returned"][seat]]
            assert sorted([*state.extra["held"][seat], *returned]) == sorted(draft[seat])
            assert state.totals[seat] == len(returned)
    assert state.finished == any(not held for held in state.extra["held"])
    assert state.winners == tuple(s for s in range(players) if state.totals[s] == 4)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 12) | st.floats(allow_nan=False) | st.sampled_from(["red", "betli"]),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=5), children, max_size=4),
    max_leaves=12,
)


@st.composite
def near_valid(draw: st.DrawFn) -> dict[str, Any]:
    out = dict(GOOD)
    for key in draw(st.sets(st.sampled_from([*GOOD, "colours", "start_return", "trump_colour", "trump_number"]))):
        out[key] = draw(
            json_values
            | st.lists(st.integers(-1, 9), min_size=4, max_size=4)
            | st.lists(st.sampled_from([None, *TASK_COPIES]), min_size=4, max_size=4)
            | st.lists(st.none() | st.lists(st.sampled_from([*COLOURS, "x"])), min_size=4, max_size=4)
        )
    return out


@settings(max_examples=200, deadline=None)
@given(near_valid() | json_values)
def test_was_sticht_property_any_input_raises_only_invalid_round(data: Any):
    try:
        result = score(data)
    except InvalidRound:
        return
    assert_lines_add_up(result, 4)


@settings(max_examples=100, deadline=None)
@given(json_values)
def test_was_sticht_property_any_draft_raises_only_invalid_round(draft: Any):
    try:
        RULES.options_parse({"tasks": draft}, players=4)
    except InvalidRound:
        return
    assert isinstance(draft, list)


def test_was_sticht_describe_lists_the_options():
    described = RULES.describe()
    assert [o["key"] for o in described["options"]] == ["tasks", "exactly_split"]
    full, quick = was_sticht.FACTS_SCHEMA["oneOf"]  # the full entry's facts, the quick entry's
    assert full["required"] == ["start_player", "chosen", "tricks", "last_trick"]
    assert quick["required"] == ["entry", "start_player", "returned"]
    for anchor in ("was-sticht-players", "was-sticht-options", "was-sticht-round"):
        assert anchor in RULES.sections
