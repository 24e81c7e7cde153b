"""Was sticht?'s quick entry: the task cards returned, ticked as on the paper pad (``was_sticht_quick``).

Valid rounds and their points, the refusals (each naming the player's field and the rule), the end of the game,
and rounds of both entries in one match.
"""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest

from scoring.rules import InvalidRound, get, was_sticht, was_sticht_quick
from scoring.rules.was_sticht_tasks import Table

RULES = get("was-sticht")

DRAFT = [
    ["betli", "most", "exactly-2", "no-red"],
    ["exactly-2", "last-trick", "fewest", "no-blue"],
    ["betli", "exactly-3", "most", "no-green"],
    ["last-trick", "fewest", "exactly-1", "no-yellow"],
]


def quick(returned: list[str | None], start: int = 0, **more: Any) -> dict[str, Any]:
    return {"entry": "quick", "start_player": start, "returned": returned, **more}


def score(f: Any, draft: list[list[str]] = DRAFT, before: tuple[Any, ...] = ()) -> Any:
    return RULES.score(f, players=len(draft), options={"tasks": draft}, before=before)


def state(rounds: list[Any], draft: list[list[str]] = DRAFT) -> Any:
    return RULES.state(rounds, players=len(draft), options={"tasks": draft})


def problems(f: Any, draft: list[list[str]] = DRAFT, before: tuple[Any, ...] = ()) -> list[tuple[str, str, str]]:
    with pytest.raises(InvalidRound) as info:
        score(f, draft, before)
    return [(p.field, p.msg, p.rule) for p in info.value.problems]


def texts(f: Any, draft: list[list[str]] = DRAFT, before: tuple[Any, ...] = ()) -> list[str]:
    with pytest.raises(InvalidRound) as info:
        score(f, draft, before)
    return [RULES.render(p.msg, dict(p.params), names=["Anna", "Bence", "Cili", "Dani"]) for p in info.value.problems]


# --- valid rounds ----------------------------------------------------------------------------------------------
def test_each_card_returned_scores_one_and_the_explanation_says_quick_entry():
    result = score(quick([None, "exactly-2", None, "fewest"]))
    assert result.scores == (0, 1, 0, 1)
    general = [ln.msg for ln in result.lines if ln.player is None]
    assert general == ["was-sticht.entry_quick"]
    assert [(ln.msg, ln.points) for ln in result.lines if ln.player == 1] == [("was-sticht.quick_returned", 1)]
    assert [(ln.msg, ln.points) for ln in result.lines if ln.player == 0] == [("was-sticht.quick_none", 0)]
    text = [RULES.render(ln.msg, ln.param_dict()) for ln in result.lines]
    assert "Fulfilled “Exactly 2 tricks” and returned it." in text


def test_the_start_player_returns_a_card_for_a_task_its_owner_missed():
    result = score(quick(["no-red", "exactly-2", None, None]))
    assert result.scores == (1, 1, 0, 0)
    line = next(ln for ln in result.lines if ln.player == 0)
    assert (line.msg, line.rule, line.points) == ("was-sticht.quick_start_returned", "was-sticht-start-player", 1)
    assert RULES.render(line.msg, line.param_dict()).endswith("returned “No red card”.")


def test_a_round_where_nobody_returned_anything():
    assert score(quick([None, None, None, None])).scores == (0, 0, 0, 0)


def test_the_full_entry_says_so_when_the_form_says_it():
    facts = {**RULES.example["facts"], "entry": "full"}
    result = score(facts)
    assert result.lines[0].msg == "was-sticht.entry_full"
    assert result.scores == score(RULES.example["facts"]).scores == (0, 1, 1, 1)
    assert (
        RULES.normalise(facts, players=4, options=RULES.options_parse({"tasks": DRAFT}, players=4))["entry"] == "full"
    )


def test_the_stored_quick_facts_read_back_the_same():
    options = RULES.options_parse({"tasks": DRAFT}, players=4)
    stored = RULES.normalise(quick([None, "exactly-2", None, "fewest"]), players=4, options=options)
    assert stored == {"entry": "quick", "start_player": 0, "returned": [None, "exactly-2", None, "fewest"]}
    assert score(stored).scores == (0, 1, 0, 1)


def test_both_entries_validate_against_the_schema():
    validator = jsonschema.Draft202012Validator(was_sticht.FACTS_SCHEMA)
    validator.check_schema(was_sticht.FACTS_SCHEMA)
    options = RULES.options_parse({"tasks": DRAFT}, players=4)
    for facts in (quick([None, "exactly-2", None, "fewest"]), RULES.example["facts"], {**RULES.example["facts"]}):
        validator.validate(facts)
        validator.validate(RULES.normalise(facts, players=4, options=options))
    assert not validator.is_valid(quick([None, "exactly-2", None, "fewest"], chosen=[None] * 4))


# --- the state: tasks held, the end of the game, both entries in one match ---------------------------------------
def test_a_returned_card_is_no_longer_held_and_the_start_player_moves_on():
    after = state([quick(["no-red", "exactly-2", None, None])])
    assert after.extra["held"][0] == ["betli", "most", "exactly-2"]
    assert after.extra["held"][1] == ["last-trick", "fewest", "no-blue"]
    assert after.extra["returned"][0] == [{"task": "no-red", "round": 1, "fulfilled_by": 0, "as_start_player": True}]
    assert after.next_starter == 1


def test_the_rotation_and_the_held_cards_are_checked_against_earlier_rounds():
    before = (quick(["no-red", "exactly-2", None, None]),)
    found = problems(quick([None, "exactly-2", None, None], start=0), before=before)
    assert ("start_player", "was-sticht.start_player_turn", "was-sticht-start-player") in found
    # Bence returned "Exactly 2 tricks" in round 1: he cannot return it again
    found = problems(quick([None, "exactly-2", None, None], start=1), before=before)
    assert found == [("returned.1", "was-sticht.start_return_not_held", "was-sticht-start-player")]
    found = problems(quick(["no-red", None, None, None], start=1), before=before)
    assert found == [("returned.0", "was-sticht.task_not_held", "was-sticht-tasks")]


def _rounds_to_one_task_left() -> list[dict[str, Any]]:
    """Cili (seat 2) returns three of her tasks in rounds 1-3 (in round 3 as the start player)."""
    return [
        quick([None, None, "no-green", None], start=0),
        quick([None, None, "exactly-3", None], start=1),
        quick([None, None, "most", None], start=2),
    ]


def test_the_game_ends_when_a_player_has_returned_all_four_and_both_entries_mix():
    rounds = _rounds_to_one_task_left()
    assert state(rounds).extra["held"][2] == ["betli"]
    # round 4 in the full entry: Dani starts, Cili takes no trick and returns Betli, Anna takes exactly 2 too
    full = {"start_player": 3, "chosen": ["exactly-2", "exactly-2", "betli", None], "tricks": [2, 3, 0, 4]}
    full |= {"last_trick": 3, "entry": "full"}
    result = score(full, before=tuple(rounds))
    assert result.scores == (1, 0, 1, 0)
    end = state([*rounds, full])
    assert (end.finished, end.winners, end.next_starter) == (True, (2,), None)
    assert end.totals == (1, 0, 4, 0)
    # the same end through the quick entry
    end = state([*rounds, quick(["exactly-2", None, "betli", None], start=3)])
    assert (end.finished, end.winners) == (True, (2,))
    assert problems(quick([None, None, None, None], start=0), before=(*rounds, full)) == [
        ("", "was-sticht.match_over", "was-sticht-end")
    ]


def test_everyone_finishing_in_the_same_round_wins():
    three = [["betli", "most", "exactly-2", "no-red"], ["exactly-2", "last-trick", "fewest", "no-blue"]]
    three.append(["betli", "exactly-3", "most", "no-green"])
    rounds = [
        quick([None, "no-blue", "no-green"], start=0),
        quick(["no-red", None, "exactly-3"], start=1),
        quick(["exactly-2", "exactly-2", None], start=2),
        quick([None, "fewest", "most"], start=0),
    ]
    assert state(rounds, three).extra["held"] == [["betli", "most"], ["last-trick"], ["betli"]]
    # round 5: Anna takes all nine tricks; Cili fulfils her Betli, and so does Bence, the start player, with
    # Anna's revealed Betli that she missed: he returns his last card as well
    end = state([*rounds, quick([None, "last-trick", "betli"], start=1)], three)
    assert (end.finished, end.winners) == (True, (1, 2))


# --- refusals --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("facts", "field", "msg"),
    [
        (quick([None] * 4, chosen=[None] * 4), "chosen", "was-sticht.field_unknown"),
        ({"entry": "quick", "returned": [None] * 4}, "start_player", "was-sticht.field_missing"),
        (quick([None] * 4, start=4), "start_player", "was-sticht.seat"),
        (quick([None] * 4, start="0"), "start_player", "was-sticht.seat"),
        ({"entry": "quick", "start_player": 0}, "returned", "was-sticht.field_missing"),
        (quick([None] * 3), "returned", "was-sticht.list"),
        (quick("betli"), "returned", "was-sticht.list"),  # type: ignore[arg-type]
        (quick([None, "dance", None, None]), "returned.1", "was-sticht.task_id"),
        (quick([None, 3, None, None]), "returned.1", "was-sticht.task_id"),
        ({**RULES.example["facts"], "entry": "fast"}, "entry", "was-sticht.entry"),
    ],
)
def test_the_shape_is_refused_naming_the_field(facts: dict[str, Any], field: str, msg: str):
    assert field in {f for f, m, _ in problems(facts) if m == msg}


def test_a_card_the_player_does_not_hold_is_refused_naming_him_and_his_cards():
    assert problems(quick([None, "betli", None, None])) == [
        ("returned.1", "was-sticht.task_not_held", "was-sticht-tasks")
    ]
    assert texts(quick(["last-trick", None, None, None])) == [
        "Anna, the start player, does not hold the task “The last trick” (held: Betli (no trick), The most tricks, "
        "Exactly 2 tricks, No red card)."
    ]


@pytest.mark.parametrize(
    ("returned", "field"),
    [
        ([None, "last-trick", None, "last-trick"], "returned.3"),  # one player takes the last trick
        ([None, None, "most", None], None),  # fine on its own
        ([None, "fewest", "betli", None], "returned.2"),  # a player without tricks leaves nobody the fewest
        ([None, None, "betli", "fewest"], "returned.3"),
        ([None, "fewest", None, "fewest"], "returned.3"),
    ],
)
def test_tasks_that_nine_tricks_cannot_all_fulfil_are_refused(returned: list[str | None], field: str | None):
    found = problems(quick(returned)) if field else []
    if field is None:
        score(quick(returned))
    else:
        assert found == [(field, "was-sticht.quick_together", "was-sticht-tasks")]


def test_the_refusal_names_the_other_tasks_returned():
    assert texts(quick([None, "fewest", "betli", None])) == [
        "Cili cannot have fulfilled “Betli (no trick)” in the same round as the other tasks returned (The fewest "
        "tricks): nine tricks cannot make them all come true."
    ]


# Cili is down to her Betli; Anna's "most" and Bence's "exactly 4" take all nine tricks, so she fulfils it
MISSED_DRAFT = [
    ["most", "exactly-1", "no-red", "last-trick"],
    ["exactly-4", "exactly-1", "no-blue", "last-trick"],
    ["betli", "no-green", "fewest", "exactly-2"],
    ["betli", "exactly-2", "no-yellow", "last-trick"],
]
MISSED_BEFORE = (
    quick([None, None, "no-green", None], start=0),
    quick([None, None, "fewest", None], start=1),
    quick([None, None, "exactly-2", None], start=2),
)


def test_a_player_who_returned_nothing_must_have_missed_a_task_held():
    found = problems(quick(["most", "exactly-4", None, None], start=3), MISSED_DRAFT, MISSED_BEFORE)
    assert found == [("returned.2", "was-sticht.quick_missed", "was-sticht-tasks")]
    assert texts(quick(["most", "exactly-4", None, None], start=3), MISSED_DRAFT, MISSED_BEFORE) == [
        "Cili returned no task card, but with the tasks returned as entered every task Cili holds (Betli (no trick)) "
        "would have been fulfilled."
    ]
    # with her Betli returned, the round stands and she has returned all four
    end = state([*MISSED_BEFORE, quick(["most", "exactly-4", "betli", None], start=3)], MISSED_DRAFT)
    assert (end.finished, end.winners) == (True, (2,))


def test_the_start_player_returns_nothing_when_every_other_player_returned_a_card():
    found = problems(quick(["betli", "exactly-2", "exactly-3", "exactly-1"]))
    assert found == [("returned.0", "was-sticht.quick_start_all_returned", "was-sticht-start-player")]
    assert texts(quick(["betli", "exactly-2", "exactly-3", "exactly-1"]))[0].startswith("Anna, the start player,")


def test_the_start_player_returns_nothing_when_no_missed_task_can_have_been_his():
    draft = [
        ["betli", "most", "exactly-3", "fewest"],
        ["no-blue", "most", "exactly-1", "exactly-2"],
        ["exactly-2", "betli", "exactly-1", "last-trick"],
        ["no-yellow", "exactly-4", "last-trick", "no-green"],
    ]
    # Bence's "most" and Dani's "exactly 4" take all nine tricks: Anna and Cili take none, and whatever Cili
    # revealed, Anna cannot have fulfilled it while Cili missed it
    found = problems(quick(["betli", "most", None, "exactly-4"]), draft)
    assert found == [("returned.0", "was-sticht.quick_start_impossible", "was-sticht-start-player")]
    assert score(quick([None, "most", None, "exactly-4"]), draft).scores == (0, 1, 0, 1)


def test_an_earlier_problem_leaves_the_tasks_unjudged_but_still_checks_the_cards_held():
    found = problems(quick(["betli", "betli", "exactly-3", "exactly-1"], start=1))
    assert ("start_player", "was-sticht.start_player_turn", "was-sticht-start-player") in found
    assert ("returned.1", "was-sticht.start_return_not_held", "was-sticht-start-player") in found
    assert all(msg not in ("was-sticht.quick_together",) for _, msg, _ in found)


# --- the helpers -------------------------------------------------------------------------------------------------
def test_every_end_of_a_round_is_listed_once():
    ends = list(was_sticht_quick.tables(3))
    assert all(sum(t.tricks) == 9 and t.tricks[t.last_trick] > 0 for t in ends)
    assert len({(t.tricks, t.last_trick) for t in ends}) == len(ends)
    assert len({t.tricks for t in ends}) == 55  # nine tricks over three players


def test_a_no_colour_task_needs_a_trick_and_cards_of_three_colours_at_most():
    table = Table(tricks=(0, 6, 3), last_trick=1, colours=(None,) * 3)
    assert not was_sticht_quick.can_fulfil("no-red", 0, table, 3)
    assert was_sticht_quick.can_fulfil("no-red", 1, table, 3)
    assert was_sticht_quick.can_miss("no-red", 1, table)
    four = Table(tricks=(7, 1, 1, 0), last_trick=0, colours=(None,) * 4)
    assert not was_sticht_quick.can_fulfil("no-red", 0, four, 4)  # 28 cards cannot avoid a colour
    assert was_sticht_quick.can_fulfil("no-red", 1, four, 4)
