"""Coloretto: the round may say which of the app's entries made it (quick: the colours a player holds; full:
every colour). The explanation opens with it; the points never depend on it."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.rules import InvalidRound, get

RULES = get("coloretto")
OPTIONS = {"joker_rule": "held", "games": 1}


def example(**changes: Any) -> dict[str, Any]:
    return {**RULES.example["facts"], **changes}


def general_lines(facts: dict[str, Any]) -> list[str]:
    result = RULES.score(facts, players=4, options=OPTIONS)
    return [RULES.render(ln.msg, ln.param_dict()) for ln in result.lines if ln.player is None]


@pytest.mark.parametrize(
    ("entry", "said"),
    [
        ("quick", ["Quick entry: only the colours each player holds."]),
        ("full", ["Full entry: every colour of every player."]),
        (None, []),
    ],
)
def test_the_explanation_says_which_entry_made_the_round(entry: str | None, said: list[str]) -> None:
    facts = example(entry=entry)
    assert general_lines(facts) == said
    assert (
        RULES.score(facts, players=4, options=OPTIONS).scores
        == RULES.score(example(), players=4, options=OPTIONS).scores
    )
    if entry:
        assert RULES.score(facts, players=4, options=OPTIONS).lines[0].player is None  # said first


def test_an_unknown_entry_is_refused_and_a_stored_one_parses_back() -> None:
    with pytest.raises(InvalidRound) as refused:
        RULES.score(example(entry="fast"), players=4, options=OPTIONS)
    assert [(p.field, p.msg) for p in refused.value.problems] == [("entry", "coloretto.entry")]
    stored = RULES.normalise(example(entry="quick"), players=4, options=OPTIONS)
    assert stored["entry"] == "quick"
    assert RULES.normalise(stored, players=4, options=OPTIONS) == stored
