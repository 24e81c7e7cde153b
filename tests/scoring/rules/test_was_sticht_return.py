"""Was sticht?: the start player chooses which of his tasks he returns (issue 30, item 6).

Rulebook ("A forduló vége"): "A kezdőjátékos akkor ad vissza egy tetszőleges feladatkártyát, ha teljesítette egy
másik játékos feladatát, ellenben az illetőnek nem sikerült" — any one of his tasks, at most one per round.  The
optional fact ``start_return`` is that choice; without it the app proposes his first task still held.
"""

from __future__ import annotations

from typing import Any

import pytest

from scoring.rules import InvalidRound, get, was_sticht
from scoring.rules.was_sticht_tasks import proposed_return

RULES = get("was-sticht")

DRAFT = [
    ["betli", "most", "exactly-2", "no-red"],
    ["exactly-2", "last-trick", "fewest", "no-blue"],
    ["betli", "exactly-3", "most", "no-green"],
    ["last-trick", "fewest", "exactly-1", "no-yellow"],
]
OPTIONS = {"tasks": DRAFT}

# Seat 1 wants exactly 2 tricks but takes 1; the start player (seat 0) takes exactly 2: he earns one return.
EARNED: dict[str, Any] = {
    "start_player": 0,
    "chosen": [None, "exactly-2", "betli", "last-trick"],
    "tricks": [2, 1, 0, 6],
    "last_trick": 3,
}
# Seat 1 fulfils exactly 2 too: only the owner returns it, the start player earns nothing.
NOT_EARNED: dict[str, Any] = {**EARNED, "tricks": [2, 2, 0, 5]}


def score(facts: dict[str, Any], before: tuple[Any, ...] = ()) -> Any:
    return RULES.score(facts, players=4, options=OPTIONS, before=before)


def problems(facts: dict[str, Any], before: tuple[Any, ...] = ()) -> list[tuple[str, str, str, dict[str, Any]]]:
    with pytest.raises(InvalidRound) as info:
        score(facts, before)
    return [(p.field, p.msg, p.rule, dict(p.params)) for p in info.value.problems]


def returned_by_start(facts: dict[str, Any], before: tuple[Any, ...] = ()) -> list[str]:
    state = RULES.state([*before, facts], players=4, options=OPTIONS)
    return [r["task"] for r in state.extra["returned"][facts["start_player"]] if r["as_start_player"]]


@pytest.mark.parametrize("task", ["most", "exactly-2", "no-red", "betli"])
def test_the_start_player_returns_the_task_he_chooses(task: str) -> None:
    facts = {**EARNED, "start_return": task}
    result = score(facts)
    assert result.scores == (1, 0, 1, 1)
    last = result.lines[-1]
    assert (last.msg, last.player, last.points, dict(last.params)) == (
        "was-sticht.start_returns_chosen",
        0,
        1,
        {"task": task, "count": 1},
    )
    assert returned_by_start(facts) == [task]
    held = RULES.state([facts], players=4, options=OPTIONS).extra["held"][0]
    assert task not in held and len(held) == 3


def test_without_a_choice_the_app_proposes_his_first_task_still_held() -> None:
    result = score(EARNED)
    assert result.scores == (1, 0, 1, 1)
    assert (result.lines[-1].msg, dict(result.lines[-1].params)) == (
        "was-sticht.start_returns",
        {"task": "betli", "count": 1},
    )
    assert returned_by_start(EARNED) == ["betli"]
    # the proposal is what the engine picks, and what the entry form preselects
    assert was_sticht.start_return_proposed(DRAFT[0]) == "betli"


def test_a_choice_of_the_proposed_task_scores_exactly_as_no_choice() -> None:
    chosen = score({**EARNED, "start_return": "betli"})
    default = score(EARNED)
    assert chosen.scores == default.scores
    assert returned_by_start({**EARNED, "start_return": "betli"}) == returned_by_start(EARNED)


# Rounds 2-4: everyone misses, and no start player fulfils a missed task — nobody returns anything.
QUIET = [
    {"start_player": 1, "chosen": ["most", None, "exactly-3", "exactly-1"], "tricks": [1, 4, 0, 4], "last_trick": 1},
    {"start_player": 2, "chosen": ["most", "exactly-2", None, "exactly-1"], "tricks": [1, 4, 0, 4], "last_trick": 1},
    {"start_player": 3, "chosen": ["most", "exactly-2", "exactly-3", None], "tricks": [1, 4, 0, 4], "last_trick": 1},
]
# Round 5: seat 0 starts again and earns a return (seat 1 misses exactly 2, he takes 2).
FIFTH: dict[str, Any] = {**EARNED, "chosen": [None, "exactly-2", "exactly-3", "exactly-1"]}


def test_the_proposal_follows_the_tasks_he_still_holds() -> None:
    before = (EARNED, *QUIET)  # he returned betli in round 1
    state = RULES.state(list(before), players=4, options=OPTIONS)
    assert state.next_starter == 0
    assert state.extra["held"][0] == ["most", "exactly-2", "no-red"]
    assert was_sticht.start_return_proposed(state.extra["held"][0]) == "most"
    assert dict(score(FIFTH, before=before).lines[-1].params)["task"] == "most"
    chosen = score({**FIFTH, "start_return": "no-red"}, before=before)
    last = chosen.lines[-1]
    assert (last.msg, dict(last.params)["task"]) == ("was-sticht.start_returns_chosen", "no-red")
    assert returned_by_start({**FIFTH, "start_return": "no-red"}, before=before) == ["betli", "no-red"]


def test_a_task_he_does_not_hold_is_refused_naming_him_and_the_task() -> None:
    found = problems({**EARNED, "start_return": "fewest"})
    assert found == [
        (
            "start_return",
            "was-sticht.start_return_not_held",
            "was-sticht-start-player",
            {"seat": 0, "task": "fewest", "held": "betli, most, exactly-2, no-red"},
        )
    ]


def test_a_task_he_already_returned_is_refused() -> None:
    found = problems({**FIFTH, "start_return": "betli"}, before=(EARNED, *QUIET))
    assert [(f, m, p["task"]) for f, m, _, p in found] == [
        ("start_return", "was-sticht.start_return_not_held", "betli")
    ]


def test_a_choice_is_refused_when_he_earned_no_return() -> None:
    assert score(NOT_EARNED).scores == (0, 1, 1, 1)  # the round itself is fine without a choice
    found = problems({**NOT_EARNED, "start_return": "most"})
    assert found == [
        (
            "start_return",
            "was-sticht.start_return_not_earned",
            "was-sticht-start-player",
            {"seat": 0, "task": "most"},
        )
    ]
    text = RULES.render("was-sticht.start_return_not_earned", {"seat": 0, "task": "most"})
    assert "returns no task" in text and "The most tricks" in text


def test_a_choice_on_an_otherwise_broken_round_reports_only_the_broken_rule() -> None:
    # tricks add up to 8: the tasks cannot be judged, so nothing is said about the return
    found = problems({**NOT_EARNED, "tricks": [2, 2, 0, 4], "start_return": "most"})
    assert [(f, m) for f, m, _, _ in found] == [("tricks", "was-sticht.tricks_sum")]


def test_an_unknown_task_id_is_refused_by_shape() -> None:
    found = problems({**EARNED, "start_return": "win"})
    assert [(f, m) for f, m, _, _ in found] == [("start_return", "was-sticht.task_id")]


def test_start_return_earned_tells_the_form_when_the_choice_applies() -> None:
    parse = RULES.module.facts_parse
    assert was_sticht.start_return_earned(parse(EARNED, players=4, options=OPTIONS)) is True
    assert was_sticht.start_return_earned(parse(NOT_EARNED, players=4, options=OPTIONS)) is False


def test_no_proposal_without_tasks() -> None:
    assert proposed_return([]) is None
    assert proposed_return(["no-red", "betli"]) == "no-red"


def test_the_stored_choice_is_kept_in_the_canonical_facts() -> None:
    stored = RULES.normalise({**EARNED, "start_return": "no-red"}, players=4, options=OPTIONS)
    assert stored["start_return"] == "no-red"
    assert RULES.normalise(EARNED, players=4, options=OPTIONS)["start_return"] is None
